"""``tabletop analyse`` (issue 13): the sweep of configurations, the measures, the JSON
object, reproducibility on any number of processes, the HTML report and the one-line
errors. Cheap on purpose: Quarto at levels 1-2 and a few Čtverák games.
"""

from __future__ import annotations

import base64
import itertools
import json
import math
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tabletop.analysis import measures
from tabletop.analysis.arena import game_seed, play_game, seating
from tabletop.analysis.observe import (
    GameStats,
    Probe,
    decisiveness,
    lead_changes,
    measure_game,
)
from tabletop.analysis.run import Done, analyse, label
from tabletop.analysis.sweep import make_plan
from tabletop.cli.app import app
from tabletop.core.errors import OptionError, UsageError
from tabletop.core.match import Match

runner = CliRunner()

REQUIRED = {
    "players",
    "options",
    "level",
    "games",
    "seat_win_rate",
    "seat_win_rate_ci95",
    "draw_rate",
    "end_reasons",
    "length_actions",
    "length_turns",
}


def stats(winners: tuple[int, ...], kind: str = "line", actions: int = 10) -> GameStats:
    """A hand-made game of two seats."""
    return GameStats(
        ("1", "1"), winners, kind, actions, actions // 2, actions, 5 * actions, None, 0, None
    )


# ------------------------------------------------------------------------------ sweep


def test_every_combination_of_player_counts_and_option_values_is_a_configuration() -> None:
    """The issue's example: two options of two values each are four configurations,
    times each player count; options not swept keep their defaults."""
    plan = make_plan(
        "ctverak", "2,3", ["min_natural=1,2", "discard_rule=nothing-laid,four-cards"], "1", 5, 0
    )
    assert len(plan.configurations) == 8
    combos = {
        (c.players, dict(c.values)["min_natural"], dict(c.values)["discard_rule"])
        for c in plan.configurations
    }
    assert len(combos) == 8
    assert {c.players for c in plan.configurations} == {2, 3}


def test_an_option_whose_value_is_a_list_sweeps_alternatives_separated_by_bars() -> None:
    plan = make_plan("quarto", None, ["attributes=colour,height|colour"], "1", 1, 0)
    from tabletop.core.setup import resolve

    game = resolve("quarto")
    assert [c.options(game)["attributes"] for c in plan.configurations] == [
        ["colour", "height"],
        ["colour"],
    ]


@pytest.mark.parametrize(
    ("words", "error", "says"),
    [
        ({"option_pairs": ["bogus=1"]}, OptionError, "unknown option 'bogus'"),
        ({"option_pairs": ["squares=maybe"]}, OptionError, "option 'squares'"),
        ({"option_pairs": ["squares"]}, OptionError, "KEY=VALUE"),
        ({"option_pairs": ["squares=true", "squares=false"]}, UsageError, "given twice"),
        ({"agents": "1,9"}, UsageError, "unknown AI level '9'"),
        ({"agents": "1,1"}, UsageError, "more than once"),
        ({"agents": ","}, UsageError, "at least one"),
        ({"players": "3"}, UsageError, "for 2 players, not 3"),
        ({"players": "two"}, UsageError, "whole numbers"),
        ({"games": 0}, UsageError, "--games must be 1"),
    ],
)
def test_bad_words_are_refused_before_anything_is_played(
    words: dict[str, Any], error: type[Exception], says: str
) -> None:
    args: dict[str, Any] = {
        "game_id": "quarto",
        "players": None,
        "option_pairs": [],
        "agents": "1",
        "games": 2,
        "seed": 0,
    }
    args.update(words)
    with pytest.raises(error, match=re.escape(says)):
        make_plan(**args)


def test_a_configuration_the_game_refuses_is_named_with_its_player_count() -> None:
    """K1.1: the half deck is for 2-3 players; the sweep checks every combination."""
    with pytest.raises(OptionError, match=r"with 4 players: the half deck .*\(K1\.1\)$"):
        make_plan("ctverak", "2,4", ["deck=full,half"], "1", 1, 0)


# ------------------------------------------------------------------------------ probe


def test_the_probe_counts_turns_as_changes_of_the_player_to_act() -> None:
    """Replay the game the arena played and count the changes of ``to_act`` by hand."""
    plan = make_plan("ctverak", "3", [], "1", 1, 7)
    setup = plan.self_play(plan.configurations[0], "1")
    probe = Probe()
    result = play_game(setup, 0, probe)
    from tabletop.core import options as opts
    from tabletop.core.setup import resolve

    game = resolve("ctverak")
    replay = Match(game, 3, opts.build(game.info.options, {}, "ctverak"), game_seed(7, 0))
    from tabletop.agents.seat import make_seat

    seat = make_seat(game, "1")
    order, legal = [], 0
    while replay.outcome() is None:
        order.append(replay.to_act())
        legal += len(game.legal(replay.state))
        replay.push(seat.move(replay))
    turns = 1 + sum(1 for a, b in itertools.pairwise(order) if a != b)
    assert (probe.turns, probe.decisions, probe.legal) == (turns, len(order), legal)
    assert result.actions == len(order) and probe.turns < probe.decisions


def test_lead_changes_follow_the_single_leader_and_ties_keep_it() -> None:
    series = [(0.6, 0.4), (0.5, 0.5), (0.7, 0.3), (0.2, 0.8), (0.4, 0.6), (0.9, 0.1)]
    assert lead_changes(series) == 2
    assert lead_changes([(0.5, 0.5)] * 4) == 0


def test_decisiveness_is_the_share_of_decisions_after_the_winner_passes_the_threshold() -> None:
    """Ludii: threshold = the best evaluation a non-winner ever had (0.7 here); the winner
    first exceeds it at decision 3 of 5, so the last 2 of 5 decisions are decided."""
    series = [(0.5, 0.5), (0.4, 0.7), (0.6, 0.4), (0.8, 0.2), (0.9, 0.1)]
    assert decisiveness(series, (1,)) == pytest.approx(2 / 5)
    assert decisiveness(series, (2,)) == 0.0  # never above player 1's best (0.9)
    assert decisiveness(series, ()) is None and decisiveness([], (1,)) is None


def test_games_with_an_evaluation_report_lead_changes_and_those_without_do_not() -> None:
    plan = make_plan("ctverak", None, [], "2", 1, 3)
    with_eval = measure_game((plan.self_play(plan.configurations[0], "2"), 0))
    assert with_eval.lead_changes is not None and with_eval.evaluated == with_eval.decisions
    quarto = make_plan("quarto", None, [], "1", 1, 3)
    without = measure_game((quarto.self_play(quarto.configurations[0], "1"), 0))
    assert without.lead_changes is None and without.decisive is None


# ------------------------------------------------------------------------------ measures


def test_seat_rates_balance_draws_and_completion_from_known_games() -> None:
    games = [
        stats((1,)),
        stats((1,)),
        stats((2,)),
        stats(()),
        stats((), "turn-limit"),
        stats((1,), "blocked", 20),
    ]
    row = measures.self_play(games, 2)
    assert row["seat_win_rate"] == [0.5, round(1 / 6, 4)]
    assert row["balance"] == round(1 - (0.5 - 1 / 6), 4)
    assert row["draw_rate"] == round(2 / 6, 4)
    assert row["completion_rate"] == round(4 / 6, 4)  # the cut and the block are not
    assert row["end_reasons"] == {"blocked": 1, "line": 4, "turn-limit": 1}
    assert row["advantage_p1"] == round((3 + 2 / 2) / 6, 4)
    assert row["length_actions"]["distribution"] == {"10": 5, "20": 1}
    low, high = row["seat_win_rate_ci95"][0]
    assert low < 0.5 < high
    assert row["branching"] == 5.0


def test_a_shared_win_counts_a_share_for_each_winner_so_seats_and_draws_add_up_to_1() -> None:
    """Issue 29: two winners of one game get half a win each (the fair-seat line is exact)."""
    games = [stats((1, 2)), stats((1,)), stats(()), stats((2,))]
    row = measures.self_play(games, 2)
    assert row["seat_win_rate"] == [0.375, 0.375]
    assert sum(row["seat_win_rate"]) + row["draw_rate"] == 1.0
    assert row["advantage_p1"] == round((1.5 + 1 / 2) / 4, 4)
    skill = measures.skill(
        [GameStats(("2", "1"), (1, 2), "line", 9, 5, 9, 40, None, 0, None)], "2", 2
    )
    assert skill["higher_win_rate"] == 0.5


def test_points_per_seat_and_the_margin_come_from_the_games_scores() -> None:
    games = [stats((1,))._replace(scores=(10, 4)), stats((2,))._replace(scores=(3, 9))]
    points = measures.self_play(games, 2)["points"]
    assert points["seat_points"] == [6.5, 6.5]
    assert points["score_margin"]["mean"] == 6.0  # 10 - 4 and 9 - 3
    low, high = points["seat_points_ci95"][0]
    assert low < 6.5 < high
    assert measures.self_play([stats((1,))], 2)["points"] is None  # no scores: no points


def test_a_scoring_game_reports_its_points_and_minutes() -> None:
    data = analyse(make_plan("ctverak", None, ["scoring=extended"], "2", 3, 0), seconds_per_turn=30)
    row = data["configurations"][0]
    assert len(row["points"]["seat_points"]) == 2 and row["points"]["score_margin"]["mean"] > 0
    minutes = row["length_minutes"]
    assert minutes["estimate"] is True and minutes["seconds_per_turn"] == 30
    assert minutes["mean"] == pytest.approx(row["length_turns"]["mean"] * 30 / 60, abs=1e-3)
    assert data["agents"] == {"2": "greedy: one ply with the game's evaluation"}


def test_drama_and_stability_follow_ludii() -> None:
    from tabletop.analysis.observe import drama, stability

    series = [(0.2, 0.6), (0.5, 0.5), (0.9, 0.1)]
    assert drama(series, (1,)) == pytest.approx((0.4 + 0 + 0) / 3)  # behind once, by 0.4
    assert drama(series, (2,)) == pytest.approx((0 + 0 + 0.8) / 3)
    assert drama(series, ()) is None
    import statistics

    expected = (statistics.pvariance([0.2, 0.5, 0.9]) + statistics.pvariance([0.6, 0.5, 0.1])) / 2
    assert stability(series) == pytest.approx(expected)


def test_skill_counts_the_higher_seat_wherever_it_sits() -> None:
    plan = make_plan("quarto", None, [], "1,2", 6, 0)
    setup = plan.skill(plan.configurations[0], "1", "2")
    seats = [seating(setup.agents, 2, i).index("2") for i in range(6)]
    assert Counter(seats) == {0: 3, 1: 3}  # the higher level sits in every seat in turn
    games = [
        GameStats(("2", "1"), (1,), "line", 9, 5, 9, 40, None, 0, None),
        GameStats(("1", "2"), (2,), "line", 9, 5, 9, 40, None, 0, None),
        GameStats(("1", "2"), (1,), "line", 9, 5, 9, 40, None, 0, None),
        GameStats(("2", "1"), (), "draw", 16, 8, 16, 40, None, 0, None),
    ]
    row = measures.skill(games, "2", 2)
    assert (row["higher_win_rate"], row["draw_rate"], row["baseline"]) == (0.5, 0.25, 0.5)
    assert row["higher_score"] == (2 + 0.5) / 4  # a draw is half a win with two players
    assert row["gap"] == 0.125 and row["significant"] is False


def test_skill_is_judged_by_score_so_that_draws_do_not_hide_it() -> None:
    """Half the games drawn and the other half split evenly: the higher level scores
    exactly 1/N (no skill), although it won only a quarter of the games."""
    row = measures.skill_row(won=25, draws=50, games=100, players=2)
    assert row["higher_win_rate"] == 0.25 and row["higher_score"] == 0.5
    assert row["gap"] == 0.0 and row["significant"] is False
    strong = measures.skill_row(won=70, draws=0, games=100, players=3)
    low = strong["higher_score_ci95"][0]
    assert strong["significant"] and low > 1 / 3 and strong["gap"] == round(0.7 - 1 / 3, 4)


# ------------------------------------------------------------------------------ runs


def small_plan() -> Any:
    return make_plan("quarto", None, ["squares=false,true"], "1,2", 6, 11)


def test_the_json_object_has_the_issue_s_keys_with_every_option() -> None:
    data = analyse(small_plan())
    assert {"game", "seed", "configurations", "skill"} <= set(data)
    assert len(data["configurations"]) == 4 and len(data["skill"]) == 2
    for row in data["configurations"]:
        assert set(row) >= REQUIRED
        assert set(row["options"]) == {"squares", "attributes", "claim"}
        assert {"mean", "sd"} <= set(row["length_actions"]) and {"mean", "sd"} <= set(
            row["length_turns"]
        )
        assert len(row["seat_win_rate"]) == 2 == len(row["seat_win_rate_ci95"])
        assert sum(row["end_reasons"].values()) == row["games"] == 6
    assert [label(r, data["swept"]) for r in data["configurations"][::2]] == [
        "squares=false",
        "squares=true",
    ]


def test_the_same_seed_gives_the_same_analysis_on_one_or_two_processes() -> None:
    one = analyse(small_plan(), jobs=1)
    two = analyse(small_plan(), jobs=2)
    assert one["configurations"] == two["configurations"] and one["skill"] == two["skill"]
    other = analyse(make_plan("quarto", None, ["squares=false,true"], "1,2", 6, 12))
    assert other["configurations"] != one["configurations"]


def test_the_progress_callback_sees_every_game() -> None:
    seen: list[Done] = []
    analyse(small_plan(), progress=seen.append)
    assert len(seen) == 6 * (4 + 2)
    assert all(isinstance(d.stats, GameStats) and d.seconds > 0 for d in seen)


# ------------------------------------------------------------------------------ command


def test_the_command_prints_tables_and_json() -> None:
    done = runner.invoke(app, ["analyse", "quarto", "--games", "4", "--agents", "1,2"])
    assert done.exit_code == 0, done.output
    assert "seats won %" in done.output and "2 vs 1" in done.output
    done = runner.invoke(app, ["analyse", "quarto", "--games", "4", "--agents", "1", "--json"])
    data = json.loads(done.output)
    assert data["game"] == "quarto" and data["skill"] == []


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["-o", "bogus=1"], "unknown option 'bogus'"),
        (["-o", "squares=maybe"], "bad value 'maybe'"),
        (["--agents", "1,x"], "unknown AI level 'x'"),
        (["--backend", "spark"], "unknown --backend 'spark'; allowed: local, ray"),
        (["--address", "10.0.0.1:6379"], "--address names a Ray cluster"),
        (["--jobs", "0"], "'--jobs': a whole number 1..64 is allowed, not '0'"),
        (["--jobs", "65"], "'--jobs': a whole number 1..64 is allowed, not '65'"),
        (["--jobs", "100000"], "'--jobs': a whole number 1..64 is allowed, not '100000'"),
        (["--games", "0"], "--games must be 1 to 1000000, not 0"),
        (["--games", "1000001"], "--games must be 1 to 1000000, not 1000001"),
        (["--seed", "-1"], "'--seed': a whole number 0..9223372036854775807 is allowed"),
        (["--report", "/no/such/folder/r.html"], "no such folder"),
        (["--export", "/no/such/folder/games.csv"], "no such folder"),
        (["--export", "games.xlsx"], "must end in .jsonl or .csv"),
        (["--seconds-per-turn", "0"], "--seconds-per-turn must be above 0"),
    ],
)
def test_bad_input_is_one_line_and_plays_nothing(args: list[str], says: str) -> None:
    done = runner.invoke(app, ["analyse", "quarto", "--games", "2", *args])
    assert done.exit_code == 2
    assert says in done.output and done.output.count("\n") == 1 and "Traceback" not in done.output
    if args[0] in ("--jobs", "--games", "--seed"):  # compare's flags have the same bounds
        change = ["compare", "quarto", "--change", "squares=true", "--games", "2"]
        done = runner.invoke(app, [*change, *args])
        assert done.exit_code == 2 and says in done.output and done.output.count("\n") == 1


def test_the_api_bounds_jobs_as_the_command_line_does() -> None:
    from tabletop.analysis import analyse as api_analyse
    from tabletop.core.errors import UsageError

    with pytest.raises(UsageError, match="--jobs must be 1 to 64, not 65"):
        api_analyse("quarto", agents="1", games=1, jobs=65)
    args = ["compare", "quarto", "--change", "squares=true", "--replicate", "21"]
    done = runner.invoke(app, args)
    assert done.exit_code == 2 and "'--replicate': a whole number 0..20" in done.output


def test_missing_extras_name_the_pip_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    done = runner.invoke(app, ["analyse", "quarto", "--backend", "ray"])
    assert done.exit_code == 2 and "pip install -e '.[cluster]'" in done.output
    done = runner.invoke(app, ["arena", "quarto", "--agents", "1,2", "--backend", "ray"])
    assert done.exit_code == 2 and "pip install -e '.[cluster]'" in done.output
    done = runner.invoke(app, ["analyse", "quarto", "--report", "r.html"])
    assert done.exit_code == 2 and "pip install -e '.[analysis]'" in done.output


def test_the_report_opens_with_a_summary_and_has_one_plot_per_measure(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    page = tmp_path / "quarto.html"
    args = ["analyse", "quarto", "--games", "6", "--agents", "1,2", "-o", "squares=false,true"]
    done = runner.invoke(app, [*args, "--report", str(page), "--json"])
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    text = page.read_text(encoding="utf-8")
    summary = text.index("<h2>Summary</h2><div class=scroll><table>")
    assert summary < text.index("<img")  # the table comes first
    table = text[summary : text.index("</table>", summary)]
    assert table.count("<tr>") == 1 + 4  # a head and a row per configuration and level
    assert "1 random legal actions" in table and "2 basic" in table  # levels by their names
    images = dict(
        re.findall(r"data-plot='(\w+)'><img alt='[^']+' src='data:image/png;base64,([^']+)'", text)
    )
    expected = {"seat_win_rates", "endings", "length_turns", "length_actions", "branching", "skill"}
    assert set(images) == expected  # Quarto has no evaluation: no lead changes, no drama
    assert all(base64.b64decode(i).startswith(b"\x89PNG") for i in images.values())
    (blob,) = re.findall(
        r"download='quarto-analysis.json' href='data:application/json;base64,([^']+)'", text
    )
    assert json.loads(base64.b64decode(blob)) == data  # the numbers: a download, not the page
    assert "<pre>" not in text and '"seat_win_rate_ci95"' not in text
    assert "http://" not in text and "https://" not in text  # nothing fetched to open it


def test_games_with_an_evaluation_and_points_get_their_plots(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from tabletop.analysis.report_plots import figures

    data = analyse(make_plan("ctverak", None, ["scoring=extended"], "2", 6, 0))
    assert {"lead_changes", "decisiveness", "drama", "stability", "clarity", "score_margin"} <= set(
        figures(data)
    )


def test_many_configurations_get_room_for_their_labels() -> None:
    """Configurations run down the side: twelve of them make a plot twelve rows tall."""
    pytest.importorskip("matplotlib")
    from tabletop.analysis.report_plots import ROW_INCHES, seat_win_rates

    plan = make_plan("ctverak", "2,3", ["min_natural=1,2,3", "reshuffle=false,true"], "1", 1, 0)
    data = analyse(plan)
    fig = seat_win_rates(data)
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert len(labels) == 12 and len(set(labels)) == 12
    assert fig.get_size_inches()[1] >= 12 * ROW_INCHES


def test_an_end_kind_has_one_colour_in_every_report() -> None:
    from tabletop.analysis.report_plots import FIXED_COLOURS, kind_colour

    assert kind_colour("turn-limit") == FIXED_COLOURS["turn-limit"]  # a cut: a warm colour
    natural = ["line", "completed", "ctverak"]
    assert len({kind_colour(k) for k in natural}) == 3  # our games' own ends stay apart
    assert all(kind_colour(k) not in FIXED_COLOURS.values() for k in natural)
    assert kind_colour("line") == kind_colour("line")


def doc_commands() -> list[list[str]]:
    """Every ``tabletop analyse`` command of docs/analysis.md, as words."""
    import shlex

    text = (Path(__file__).resolve().parent.parent / "docs" / "analysis.md").read_text("utf-8")
    text = text.replace("\\\n", " ")
    found = []
    for line in text.splitlines():
        line = line.strip().removeprefix("$ ").strip("`")
        if line.startswith("tabletop analyse "):
            words = shlex.split(line.split(" # ")[0].split(" > ")[0])
            found.append(words[2:])
    return found


def test_every_command_of_the_guide_is_a_valid_analysis() -> None:
    """docs/analysis.md states the command of each finding: each must parse and plan."""
    from typer.main import get_command

    command = get_command(app).get_command(None, "analyse")  # type: ignore[attr-defined]
    commands = doc_commands()
    assert len(commands) >= 9  # the rule decisions moved to compare (tests/test_compare.py)
    for words in commands:
        params = command.make_context("analyse", list(words)).params
        plan = make_plan(
            params["game"],
            params["players"],
            params["option"] or [],
            params["agents"],
            params["games"],
            params["seed"],
        )
        assert plan.configurations


def test_findings_say_where_the_verdict_changes_with_the_level_and_warn_small_runs() -> None:
    from tabletop.analysis.findings import (
        completion_level_changes,
        seat_level_changes,
        seat_warnings,
    )

    def row(level: str, wins: tuple[int, int], done: int, games: int) -> dict[str, Any]:
        made = measures.self_play(
            [stats((1,))] * wins[0]
            + [stats((2,))] * wins[1]
            + [stats((), "blocked")] * (games - sum(wins))
            if done < games
            else [stats((1,))] * wins[0] + [stats((2,))] * wins[1],
            2,
        )
        return {"players": 2, "options": {}, "level": level, **made}

    small = {
        "levels": ["3"],
        "swept": [],
        "games": 40,
        "configurations": [row("3", (24, 16), 40, 40)],
    }
    (warning,) = seat_warnings(small)
    assert warning.startswith("Warning (2p, level 3): 40 games measure seat 1 (60% against")
    assert "a fair 50%) to ±14.5 points, more than half its 10.0-point distance" in warning
    # one rule, and the games that rule needs: ±14.5 shrinks to ±5.0 as 1/sqrt(games)
    needed = int(warning.split("about ")[1].split(" games")[0].replace(",", ""))
    assert 300 < needed < 400 and "to ±5.0 points" in warning
    # a run that large meets the rule: no warning any more (the same 60%)
    size = math.ceil(needed / 5) * 5
    bigger = row("3", (size * 6 // 10, size * 4 // 10), size, size)
    assert seat_warnings({**small, "games": size, "configurations": [bigger]}) == []
    # the issue's contradiction: the warned run needs more games than it had, never fewer
    for games in (1500, 1900, 2500, 4000):
        close = row("3", (games * 52 // 100, games - games * 52 // 100), games, games)
        for line in seat_warnings({**small, "games": games, "configurations": [close]}):
            said = int(line.split("about ")[1].split(" games")[0].replace(",", ""))
            assert said > games, line
    big = {
        "levels": ["3"],
        "swept": [],
        "games": 4000,
        "configurations": [row("3", (2400, 1600), 4000, 4000)],
    }
    assert seat_warnings(big) == []  # 60% of 4,000 games is a measured edge
    two = {
        "levels": ["1", "3"],
        "swept": [],
        "games": 400,
        "configurations": [row("1", (200, 200), 400, 400), row("3", (300, 100), 400, 400)],
    }
    (line,) = seat_level_changes(two)
    assert "seats level at level 1" in line and "seat 1 75% against a fair 50% at level 3" in line
    blocks = {
        "levels": ["1", "3"],
        "swept": [],
        "games": 100,
        "configurations": [row("1", (10, 10), 20, 100), row("3", (45, 45), 90, 100)],
    }
    (ends,) = completion_level_changes(blocks)
    assert "20% at level 1" in ends and "90% at level 3" in ends
