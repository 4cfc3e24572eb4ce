"""The arena (issue 6): seats rotated, games seeded by index alone, the same results on
any number of processes, tallies counted once per game per agent, Wilson intervals, Elo,
the per-seat thinking times, and the ``tabletop arena`` command with its errors.

Cheap on purpose: Quarto with levels 1 (random) and 2 (basic), a handful of games.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from typer.testing import CliRunner

from tabletop.agents.base import Budget, Turn
from tabletop.agents.seat import Seat, make_seat
from tabletop.analysis import arena
from tabletop.analysis.arena import (
    GameResult,
    Setup,
    elo,
    game_seed,
    margins,
    mean_interval,
    play_all,
    play_game,
    seat_rows,
    seating,
    tally,
    wilson,
)
from tabletop.cli.app import app
from tabletop.game import Game

runner = CliRunner()


def quarto_setup(games: int = 4, seed: int = 1, agents: tuple[str, ...] = ("1", "2")) -> Setup:
    return Setup("quarto", agents, games, 2, {}, seed)


def played(results: list[GameResult]) -> list[tuple[int, tuple[str, ...], tuple[int, ...], int]]:
    """What a seed decides about each game (thinking times are the clock's, not the seed's)."""
    return [(r.index, r.seats, r.winners, r.actions) for r in results]


def result(seats: str, winners: tuple[int, ...], seconds: tuple[float, ...] = ()) -> GameResult:
    """A hand-made game: ``seats`` as letters, one agent per letter."""
    times = seconds or tuple(1.0 for _ in seats)
    return GameResult(0, tuple(seats), winners, 10, times, tuple(t / 2 for t in times))


# ---------------------------------------------------------------------- seating, seeds


@pytest.mark.parametrize(("agents", "players"), [("ab", 2), ("abc", 3), ("abc", 2), ("ab", 4)])
def test_seating_rotates_one_place_per_game(agents: str, players: int) -> None:
    """'plays N games with seats rotated': game i+1 moves every agent one seat on."""
    names = tuple(agents)
    for index in range(7):
        now, then = seating(names, players, index), seating(names, players, index + 1)
        assert len(now) == players
        assert then == tuple(names[(names.index(a) + 1) % len(names)] for a in now)
    assert seating(names, players, 0)[0] == names[0]


@pytest.mark.parametrize(("agents", "players"), [("ab", 2), ("abc", 3), ("abc", 2), ("ab", 4)])
def test_every_agent_sits_in_every_seat_equally(agents: str, players: int) -> None:
    """Over any multiple of the number of agents, each (agent, seat) occurs equally often."""
    names = tuple(agents)
    for rounds in (1, 2, 3):
        games = rounds * len(names)
        count = Counter(
            (agent, seat)
            for index in range(games)
            for seat, agent in enumerate(seating(names, players, index))
        )
        assert set(count) == {(a, s) for a in names for s in range(players)}
        assert set(count.values()) == {games // len(names)}


def test_four_players_two_agents_alternate() -> None:
    """With 4 seats and 2 agents the seats alternate, and swap from one game to the next."""
    assert seating(("a", "b"), 4, 0) == ("a", "b", "a", "b")
    assert seating(("a", "b"), 4, 1) == ("b", "a", "b", "a")
    assert seating(("a", "b"), 4, 2) == ("a", "b", "a", "b")


def test_game_seed_depends_on_the_arena_seed_and_the_index_only() -> None:
    seeds = {game_seed(s, i) for s in range(5) for i in range(20)}
    assert len(seeds) == 100  # no two games of these arenas share a deal
    assert game_seed(3, 7) == game_seed(3, 7)
    assert all(0 <= s < 2**31 for s in seeds)


def test_game_i_is_the_same_whatever_the_number_of_games() -> None:
    """'game i is played from a seed derived from the arena's seed and i alone'."""
    short, long = quarto_setup(games=2, seed=9), quarto_setup(games=5, seed=9)
    assert played([play_game(short, 1)]) == played([play_game(long, 1)])
    assert played(play_all(short, 1)) == played(play_all(long, 1))[:2]


# ---------------------------------------------------------------------- play_all


def test_play_all_is_reproducible_from_the_seed_regardless_of_jobs() -> None:
    """'Reproducible from the seed regardless of --jobs': 1 and 2 processes agree."""
    setup = quarto_setup(games=4, seed=5)
    seen: list[int] = []
    one = play_all(setup, 1, lambda r: seen.append(r.index))
    two = play_all(setup, 2)
    assert played(one) == played(two)
    assert [r.index for r in two] == [0, 1, 2, 3]
    assert sorted(seen) == [0, 1, 2, 3]
    assert [r.seats for r in one] == [seating(setup.agents, 2, i) for i in range(4)]
    other = play_all(quarto_setup(games=4, seed=6), 1)
    assert played(other) != played(one)


def test_results_are_games_played_to_their_end() -> None:
    """Each result is a finished Quarto game: won by the player who placed last (Q5.1),
    or drawn after all 16 placements (Q6.1)."""
    for r in play_all(quarto_setup(games=6, seed=2), 1):
        assert len(r.seats) == len(r.seconds) == len(r.longest) == 2
        if r.winners:
            # actions alternate give (odd) and place (even), player 1 giving first (Q2.4,
            # Q3.3): placement k is action 2k, made by player 2 when k is odd
            assert r.actions % 2 == 0 and 8 <= r.actions <= 32
            assert r.winners == ((2,) if r.actions // 2 % 2 else (1,))
        else:
            assert r.actions == 32
        for total, longest in zip(r.seconds, r.longest, strict=True):
            # the longest move is one of the seat's moves: within its total, and at
            # least the mean of its moves (it made at most every action of the game)
            assert 0.0 < longest <= total <= longest * r.actions


class SlowAgent:
    """Random moves; its first move takes 50 ms, every later one 10 ms."""

    def __init__(self) -> None:
        self.moves = 0

    def act(self, turn: Turn) -> Any:
        time.sleep(0.05 if self.moves == 0 else 0.01)
        self.moves += 1
        return turn.legal[turn.rng.randrange(len(turn.legal))]


def test_longest_is_the_longest_single_move_of_each_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    """``GameResult.longest``: per seat the longest move, not the total nor the last."""
    slow = SlowAgent()

    def seat_for(game: Game[Any, Any], name: str | None) -> Seat:
        return Seat("slow", slow, Budget()) if name == "slow" else make_seat(game, name)

    monkeypatch.setattr(arena, "make_seat", seat_for)
    r = play_game(Setup("quarto", ("slow", "1"), 1, 2, {}, 4), 0)
    assert r.seats == ("slow", "1")
    assert slow.moves >= 4  # a Quarto win needs 4 placements (Q4)
    assert r.longest[0] >= 0.05
    # the other moves of the seat still count in its total, not in its longest
    assert r.seconds[0] - r.longest[0] >= 0.01 * (slow.moves - 1) - 1e-3
    assert 0.0 < r.longest[1] <= r.seconds[1]


# ---------------------------------------------------------------------- tally


def test_tally_counts_each_game_once_per_agent() -> None:
    """'wins/draws/losses per agent': an agent with several seats is judged by the game."""
    results = [
        result("abab", (3,)),  # a wins through seat 3; b loses once, not twice
        result("baba", (1,)),  # b wins
        result("abab", ()),  # a draw for both
        result("abab", (1, 3)),  # both winners are a's seats: still one win
    ]
    table = tally(results, ("a", "b"))
    a, b = table["a"], table["b"]
    assert (a.wins, a.draws, a.losses, a.games) == (2, 1, 1, 4)
    assert (b.wins, b.draws, b.losses, b.games) == (1, 1, 2, 4)
    assert a.seconds == b.seconds == 8.0  # two seats per game, 1 s each


def test_tally_skips_agents_not_at_the_table_and_shares_wins() -> None:
    results = [
        result("ab", (2,), (1.0, 2.0)),
        result("bc", (), (3.0, 4.0)),
        result("ca", (1, 2), (5.0, 6.0)),  # two winners share the win: half a win each
    ]
    table = tally(results, ("a", "b", "c"))
    assert [(t.wins, t.draws, t.losses) for t in table.values()] == [
        (0.5, 0, 1.5),
        (1, 1, 0),
        (0.5, 1, 0.5),
    ]
    assert [t.seconds for t in table.values()] == [7.0, 5.0, 9.0]
    row = table["b"].row(1500.0)
    assert row["games"] == 2 and row["score"] == 0.75
    assert row["win_rate_decided"] == 1.0
    # the rate among decided games excludes the draw; the score counts it as half a win
    assert row["win_rate_decided_ci95"] == [round(x, 4) for x in wilson(1, 1)]
    assert row["score_ci95"] == [round(x, 4) for x in wilson(1.5, 2)]
    assert row["seconds_per_game"] == 2.5
    assert row["longest_move_seconds"] == 1.5  # its longest single move, over its seats


def test_a_row_without_games_has_no_rate() -> None:
    row = tally([result("ab", (1,))], ("a", "b", "c"))["c"].row(1500.0)
    assert row["games"] == 0 and row["win_rate_decided"] is None
    assert row["win_rate_decided_ci95"] == [0.0, 1.0] and row["seconds_per_game"] == 0.0


# ---------------------------------------------------------------------- wilson, elo


def test_wilson_known_values() -> None:
    """'95% confidence intervals': the Wilson score interval."""
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson(10, 10)
    assert low == pytest.approx(0.7225, abs=1e-4) and high == pytest.approx(1.0)
    low, high = wilson(0, 10)
    assert low == pytest.approx(0.0) and high == pytest.approx(0.2775, abs=1e-4)
    assert wilson(6, 6)[0] == pytest.approx(0.6097, abs=1e-4)


@pytest.mark.parametrize("trials", [1, 2, 7, 30, 1000])
def test_wilson_is_symmetric_within_bounds_and_narrows(trials: int) -> None:
    for k in range(0, trials + 1, max(1, trials // 10)):
        low, high = wilson(k, trials)
        assert 0.0 <= low <= k / trials <= high <= 1.0  # exactly: rounding is clamped
        mirror = wilson(trials - k, trials)
        assert low == pytest.approx(1 - mirror[1]) and high == pytest.approx(1 - mirror[0])
    half = wilson(trials / 2, trials)
    more = wilson(trials * 2, trials * 4)
    assert more[1] - more[0] < half[1] - half[0]


def test_elo_orders_records_and_is_centred_on_1500() -> None:
    """'an Elo estimate': a stronger record gets a higher rating; ratings average 1500."""
    results = (
        [result("ab", (1,))] * 6
        + [result("ab", (2,))] * 2
        + [result("bc", (1,))] * 6
        + [result("bc", (2,))] * 2
        + [result("ca", (2,))] * 5
        + [result("ca", ())] * 2
    )
    ratings = elo(results, ("a", "b", "c"))
    assert ratings["a"] > ratings["b"] > ratings["c"]
    assert sum(ratings.values()) / 3 == pytest.approx(1500.0)


def expected(gap: float) -> float:
    return 1 / (1 + 10 ** (-gap / 400))


@pytest.mark.parametrize(("won", "lost"), [(3, 1), (9, 1), (1, 4)])
def test_elo_of_two_agents_is_a_shrunk_fit_of_their_record(won: int, lost: int) -> None:
    results = [result("ab", (1,))] * won + [result("ba", (1,))] * lost
    ratings = elo(results, ("a", "b"))
    assert ratings["a"] + ratings["b"] == pytest.approx(3000.0)
    fitted = expected(ratings["a"] - ratings["b"])
    observed = won / (won + lost)
    assert min(observed, 0.5) < fitted < max(observed, 0.5)  # towards the record, weak prior
    assert abs(fitted - observed) < 0.1


def test_elo_of_even_records_and_of_several_seats() -> None:
    even = elo([result("ab", (1,)), result("ba", (1,)), result("ab", ())], ("a", "b"))
    assert even["a"] == pytest.approx(1500.0) and even["b"] == pytest.approx(1500.0)
    # 4 seats, 2 agents: a's seat 1 beats b's seats 2 and 4, the rest draw
    four = elo([result("abab", (1,))] * 3, ("a", "b"))
    assert four["a"] > 1500 > four["b"]


# ---------------------------------------------------------------------- the command

ARENA = ["arena", "quarto", "--agents", "2,1", "--games", "6", "--seed", "3"]
KEYS = {"game", "players", "options", "games", "seed", "jobs", "seconds", "games_per_second"}
ROW = {
    "agent",
    "games",
    "wins",
    "draws",
    "losses",
    "score",
    "score_ci95",
    "win_rate_decided",
    "win_rate_decided_ci95",
    "elo",
    "seconds_per_game",
    "longest_move_seconds",
}


def arena_json(*extra: str) -> dict[str, Any]:
    outcome = runner.invoke(app, [*ARENA, "--json", *extra])
    assert outcome.exit_code == 0, outcome.stderr
    data: dict[str, Any] = json.loads(outcome.stdout)
    return data


def without_clock(data: dict[str, Any]) -> tuple[list[dict[str, Any]], Any]:
    clock = {"seconds_per_game", "longest_move_seconds"}
    rows = [{k: v for k, v in row.items() if k not in clock} for row in data["agents"]]
    return rows, data["results"]


def test_arena_json_has_the_documented_keys_and_adds_up() -> None:
    """'--json for scripts': every agent's record, interval and Elo, and every game."""
    data = arena_json()
    assert set(data) == KEYS | {"agents", "results", "ranked_by", "seats"}
    assert data["ranked_by"] == "given order"  # Quarto does not score
    assert [set(row) for row in data["seats"]] == [{"seat", "win_share", "win_share_ci95"}] * 2
    assert (data["game"], data["players"], data["games"], data["seed"]) == ("quarto", 2, 6, 3)
    assert data["options"] == {} and data["jobs"] == 1
    assert [row["agent"] for row in data["agents"]] == ["2", "1"]
    assert all(set(row) == ROW for row in data["agents"])
    two, one = data["agents"]
    for row in (two, one):
        assert row["games"] == row["wins"] + row["draws"] + row["losses"] == 6
        low, high = row["score_ci95"]
        assert 0 <= low <= row["score"] <= high <= 1
    assert (two["wins"], two["draws"], two["losses"]) == (one["losses"], one["draws"], one["wins"])
    assert (two["elo"] + one["elo"]) / 2 == pytest.approx(1500, abs=0.1)
    assert (two["elo"] > one["elo"]) == (two["score"] > one["score"])
    # the table is the games: recount the wins from the listed results
    games = data["results"]
    assert [g["seats"] for g in games] == [list(seating(("2", "1"), 2, i)) for i in range(6)]
    wins = Counter(g["seats"][w - 1] for g in games for w in g["winners"])
    assert (wins["2"], wins["1"]) == (two["wins"], one["wins"])
    assert two["score"] > one["score"]  # basic (level 2) outplays random moves


def test_arena_same_command_same_tallies() -> None:
    assert without_clock(arena_json()) == without_clock(arena_json())
    assert without_clock(arena_json("--seed", "4")) != without_clock(arena_json())


def test_arena_options_and_players_are_passed_on() -> None:
    data = arena_json("-o", "squares=true", "--players", "2", "--games", "2")
    assert data["options"] == {"squares": "true"} and data["games"] == 2
    assert len(data["results"]) == 2


def test_arena_table_shows_each_agent_and_an_interval() -> None:
    outcome = runner.invoke(app, [*ARENA[:4], "--games", "4", "--seed", "3"])
    assert outcome.exit_code == 0, outcome.stderr
    text = outcome.stdout
    assert "quarto: 4 games, seed 3" in text
    agents, seats = text.split("per seat")
    rows = [line for line in agents.splitlines() if re.search(r"\d+-\d+%", line)]
    assert len(rows) == 2  # one line per agent, each with its 95% intervals
    assert len([line for line in seats.splitlines() if re.search(r"\d+-\d+%", line)]) == 2
    assert [line.split()[1] for line in rows] == ["2", "1"]
    assert "Elo" in text and "95% CI" in text and "games/s on 1 job(s)" in text


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (["--agents", "2,zz"], "unknown AI level 'zz' for quarto; known levels: 1, 2, 3"),
        (["--agents", "2,1", "--games", "0"], "a whole number 1..1000000 is allowed, not '0'"),
        (["--agents", "2"], "--agents needs at least two agents"),
        (["--agents", ",2,"], "--agents needs at least two agents"),
        (["--agents", "1,2,1"], "--agents names 1 more than once; name each agent once"),
        (["--agents", "1,2", "-o", "bogus=1"], "unknown option 'bogus'"),
        (["--agents", "1,2", "--players", "3"], "Quarto is for 2 players, not 3"),
    ],
)
def test_arena_usage_errors_are_one_line_exit_2(words: list[str], says: str) -> None:
    outcome = runner.invoke(app, ["arena", "quarto", "--games", "2", *words])
    assert outcome.exit_code == 2
    assert isinstance(outcome.exception, SystemExit)
    assert outcome.stdout == ""
    assert outcome.stderr.startswith("tabletop: ") and outcome.stderr.count("\n") == 1
    assert says in outcome.stderr and "Traceback" not in outcome.stderr


def test_arena_unknown_game_is_a_usage_error() -> None:
    outcome = runner.invoke(app, ["arena", "chess", "--agents", "1,2", "--games", "1"])
    assert outcome.exit_code == 2 and "unknown game 'chess'" in outcome.stderr
    assert outcome.stderr.count("\n") == 1


def test_random_module_state_does_not_change_an_arena() -> None:
    """'Randomness only from the seed': the global generator does not reach the games."""
    random.seed(1)
    first = played(play_all(quarto_setup(games=3, seed=8), 1))
    random.seed(2)
    assert played(play_all(quarto_setup(games=3, seed=8), 1)) == first


# ---------------------------------------------------------------------- points (issue 29)
def scored(seats: str, winners: tuple[int, ...], points: tuple[int, ...]) -> GameResult:
    return replace(result(seats, winners), points=points)


def test_points_and_margins_per_agent_and_seat() -> None:
    results = [
        scored("ab", (1,), (30, 10)),  # a leads by 20
        scored("ba", (2,), (5, 25)),  # a (seat 2) leads by 20
        scored("ab", (1, 2), (12, 12)),  # a shared win: half each, margin 0
    ]
    assert margins((30, 10)) == [20, -20] and margins((3, 9, 5)) == [-6, 4, -4]
    table = tally(results, ("a", "b"))
    a, b = table["a"], table["b"]
    assert (a.wins, a.losses, b.wins, b.losses) == (2.5, 0.5, 0.5, 2.5)
    assert a.points == [30, 25, 12] and a.margins == [20, 20, 0]
    row = a.row(1500.0)
    assert row["points"] == pytest.approx(67 / 3, abs=1e-3)
    low, high = row["points_ci95"]
    assert low < row["points"] < high
    assert row["margin"] == pytest.approx(40 / 3, abs=1e-3)
    assert mean_interval([4.0]) == (4.0, 4.0, 4.0) and mean_interval([]) == (0.0, 0.0, 0.0)
    seats = seat_rows(results, 2)
    assert [r["win_share"] for r in seats] == [pytest.approx(0.5), pytest.approx(0.5)]
    assert seats[0]["points"] == pytest.approx(47 / 3, abs=1e-3)
    assert seats[1]["margin"] == pytest.approx((-20 + 20 + 0) / 3, abs=1e-3)


def test_the_arena_ranks_by_points_where_points_decide() -> None:
    """Čtverák with scoring=extended (K6.2): points decide, agents ranked by them."""
    base = ["arena", "ctverak", "--agents", "random,1", "--games", "4", "--json"]
    extended = runner.invoke(app, [*base, "-o", "scoring=extended"])
    assert extended.exit_code == 0, extended.stderr
    data = json.loads(extended.stdout)
    assert data["ranked_by"] == "points"
    points = [row["points"] for row in data["agents"]]
    assert points == sorted(points, reverse=True)
    assert all(len(g["points"]) == 2 for g in data["results"])
    assert all({"points", "margin", "points_ci95"} <= set(r) for r in data["seats"])
    simple = json.loads(runner.invoke(app, base).stdout)
    assert simple["ranked_by"] == "given order"
    assert [row["agent"] for row in simple["agents"]] == ["random", "1"]
    assert all(sum(g["points"]) == len(g["winners"]) for g in simple["results"])  # K6.1
