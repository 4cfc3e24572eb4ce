"""``tabletop arena``: agents play many seeded games; win rates, intervals and Elo, and
for games that score (``Game.scores``) mean points per agent and per seat with intervals
and the margin over the best other seat; ranked by points where ``GameInfo.points_decide``.

Seats rotate from game to game; game ``i`` is played from a seed derived from the
arena's seed and ``i`` alone, so results are the same whatever ``--jobs`` is, on local
processes or on Ray (``--backend ray``, :mod:`tabletop.analysis.backends`). A win shared
by several winners counts as a share: ``1/k`` of a win for each of ``k`` winners.
"""

from __future__ import annotations

import functools
import json
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tabletop.agents.seat import make_seat
from tabletop.core import options as opts
from tabletop.core.configured import Configured
from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain
from tabletop.core.match import Match
from tabletop.core.setup import resolve
from tabletop.game import CHANCE

_ = Domain("tabletop")

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Setup:
    """One arena: which game, which agents, how many games, from which seed."""

    game: str
    agents: tuple[str, ...]
    games: int
    players: int
    options: dict[str, Any]
    seed: int

    def configured(self) -> Configured[Any, Any]:
        """The game configured for these players and options (built once per process and
        configuration, however many games are played: :func:`configure`)."""
        return configure(self.game, self.players, json.dumps(self.options, sort_keys=True))


@functools.lru_cache(maxsize=64)
def configure(game_id: str, players: int, options: str) -> Configured[Any, Any]:
    """The installed game ``game_id`` configured (``options``: their values as JSON)."""
    return Configured.of(resolve(game_id), players, json.loads(options))


@dataclass(frozen=True)
class GameResult:
    """One game: the agent in each seat, the winners, its length and thinking time (per
    seat: in all, and the longest single move), how it ended (``Outcome.kind``, or
    ``action-limit`` when the arena cut it at the game's ``max_actions``) and, for a
    game that scores, the points per seat at the end."""

    index: int
    seats: tuple[str, ...]
    winners: tuple[int, ...]
    actions: int
    seconds: tuple[float, ...]
    longest: tuple[float, ...]
    kind: str = ""
    points: tuple[int, ...] | None = None


def seating(agents: Sequence[str], players: int, index: int) -> tuple[str, ...]:
    """The agents of game ``index``, rotated one place per game."""
    return tuple(agents[(index + seat) % len(agents)] for seat in range(players))


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index``: depends on nothing else."""
    return random.Random(f"arena:{seed}:{index}").randrange(2**31)


def play_game(setup: Setup, index: int, watch: Callable[[Match], None] | None = None) -> GameResult:
    """Play game ``index`` of ``setup`` to its end; ``watch`` (if any) sees the match
    before every decision (the balance analysis measures the game through it)."""
    table = setup.configured()
    game = table.game
    seats = seating(setup.agents, setup.players, index)
    computer = {n + 1: make_seat(game, name) for n, name in enumerate(seats)}
    seed = game_seed(setup.seed, index)
    match = Match.of(table, seed)
    thinking = [0.0] * setup.players
    longest = [0.0] * setup.players
    limit = table.max_actions
    while match.outcome() is None and len(match.actions) <= limit:
        player = match.player()
        assert player is not None
        if watch:
            watch(match)
        began = time.perf_counter()
        action = computer[player].move(match, player)
        spent = time.perf_counter() - began
        thinking[player - 1] += spent
        longest[player - 1] = max(longest[player - 1], spent)
        match.push(action, player)
    outcome = match.outcome()
    winners = outcome.winners if outcome else ()
    kind = (outcome.kind or "ended") if outcome else "action-limit"
    actions = sum(1 for actor in match.actors if actor != CHANCE)  # chance is no one's
    scores = game.scores(match.state)
    points = None if scores is None else tuple(scores.get(n, 0) for n in range(1, len(seats) + 1))
    return GameResult(index, seats, winners, actions, tuple(thinking), tuple(longest), kind, points)


def _play_star(args: tuple[Setup, int]) -> GameResult:
    return play_game(*args)


def play_all(
    setup: Setup,
    jobs: int,
    progress: Callable[[GameResult], None] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> list[GameResult]:
    """Every game of the arena, in index order (each, as it finishes, to ``progress``),
    on ``jobs`` processes or Ray workers (``backend``; ``address``: a Ray cluster)."""
    from tabletop.analysis.backends import run

    work = [(setup, i) for i in range(setup.games)]
    return run(_play_star, work, jobs, backend, address, progress)


def wilson(successes: float, trials: float) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denominator
    # Clamped to 0..1, and always holding p itself (rounding can leave 1.0 just outside).
    return min(max(0.0, centre - half), p), max(min(1.0, centre + half), p)


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% interval (normal approximation; the mean alone
    for fewer than two values)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, mean, mean
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * spread / math.sqrt(n)
    return mean, mean - half, mean + half


def _points_row(values: Sequence[float], key: str = "points") -> dict[str, Any]:
    mean, low, high = mean_interval(values)
    return {key: round(mean, 3), f"{key}_ci95": [round(low, 3), round(high, 3)]}


def margins(points: Sequence[int]) -> list[int]:
    """Per seat, its points minus the best of the other seats' (the lead; negative when
    behind)."""
    return [p - max((q for j, q in enumerate(points) if j != i), default=0)
            for i, p in enumerate(points)]  # fmt: skip


@dataclass
class Tally:
    """One agent's record over all its seats (``wins`` and ``losses`` in shares of a game:
    half a win when two winners share it), and its points and margins per seat-game."""

    agent: str
    wins: float = 0
    draws: int = 0
    losses: float = 0
    seconds: float = 0.0
    longest: float = 0.0
    points: list[int] = field(default_factory=list)
    margins: list[int] = field(default_factory=list)

    @property
    def games(self) -> int:
        return round(self.wins + self.draws + self.losses)

    def row(self, elo: float) -> dict[str, Any]:
        decided = self.wins + self.losses
        low, high = wilson(self.wins, decided)
        score = (self.wins + self.draws / 2) / self.games if self.games else 0.0
        s_low, s_high = wilson(self.wins + self.draws / 2, self.games)
        return {
            "agent": self.agent,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": round(score, 4),
            "score_ci95": [round(s_low, 4), round(s_high, 4)],
            "win_rate_decided": round(self.wins / decided, 4) if decided else None,
            "win_rate_decided_ci95": [round(low, 4), round(high, 4)],
            "elo": round(elo, 1),
            "seconds_per_game": round(self.seconds / self.games, 3) if self.games else 0.0,
            "longest_move_seconds": round(self.longest, 3),
            **(_points_row(self.points) if self.points else {}),
            **(_points_row(self.margins, "margin") if self.points else {}),
        }


def tally(results: Sequence[GameResult], agents: Sequence[str]) -> dict[str, Tally]:
    """Wins, draws and losses per agent, counted once per game it played in.

    A game without winners is a draw. Otherwise an agent wins the share of the winners its
    seats hold (all of them: a whole win; one of two winners: half a win) and loses the
    rest: with more players than agents, an agent that holds several seats is judged by
    the game, not by each seat. Points and margins are kept per seat it held.
    """
    table = {name: Tally(name) for name in agents}
    for result in results:
        margin = margins(result.points) if result.points is not None else None
        for name in dict.fromkeys(result.seats):
            entry = table[name]
            seats = [n for n, s in enumerate(result.seats, start=1) if s == name]
            entry.seconds += sum(result.seconds[n - 1] for n in seats)
            entry.longest = max(entry.longest, *(result.longest[n - 1] for n in seats))
            if not result.winners:
                entry.draws += 1
            else:
                share = sum(n in result.winners for n in seats) / len(result.winners)
                entry.wins += share
                entry.losses += 1 - share
            if result.points is not None and margin is not None:
                entry.points.extend(result.points[n - 1] for n in seats)
                entry.margins.extend(margin[n - 1] for n in seats)
    return table


def seat_rows(results: Sequence[GameResult], players: int) -> list[dict[str, Any]]:
    """Per seat: win shares (a shared win split among its winners) and, for games that
    score, mean points and margin with 95% intervals (the balance of the seats)."""
    rows = []
    for seat in range(1, players + 1):
        shares = [1 / len(r.winners) if seat in r.winners else 0.0 for r in results]
        low, high = wilson(sum(shares), len(results))
        row: dict[str, Any] = {
            "seat": seat,
            "win_share": round(sum(shares) / len(results), 4) if results else 0.0,
            "win_share_ci95": [round(low, 4), round(high, 4)],
        }
        scored = [r for r in results if r.points is not None]
        if scored:
            row.update(_points_row([r.points[seat - 1] for r in scored if r.points]))
            row.update(_points_row([margins(r.points)[seat - 1] for r in scored if r.points],
                                   "margin"))  # fmt: skip
        rows.append(row)
    return rows


def elo(
    results: Sequence[GameResult], agents: Sequence[str], rounds: int = 200
) -> dict[str, float]:
    """Elo ratings (mean 1500) fitted to every pair of seats of every game (Bradley-Terry)."""
    names = list(dict.fromkeys(agents))
    wins = {(a, b): 0.5 for a in names for b in names if a != b}  # a weak prior
    for result in results:
        for i, a in enumerate(result.seats, start=1):
            for j, b in enumerate(result.seats, start=1):
                if i >= j or a == b:
                    continue
                if not result.winners or (i in result.winners) == (j in result.winners):
                    wins[a, b] += 0.5
                    wins[b, a] += 0.5
                elif i in result.winners:
                    wins[a, b] += 1
                else:
                    wins[b, a] += 1
    strength = dict.fromkeys(names, 1.0)
    for _ in range(rounds):
        for a in names:
            won = sum(wins[a, b] for b in names if b != a)
            games = sum(
                (wins[a, b] + wins[b, a]) / (strength[a] + strength[b]) for b in names if b != a
            )
            strength[a] = won / games if games else 1.0
        mean = sum(math.log(s) for s in strength.values()) / len(names)
        strength = {k: math.exp(math.log(v) - mean) for k, v in strength.items()}
    return {k: 1500 + 400 * math.log10(v) for k, v in strength.items()}


def summary(
    setup: Setup, results: Sequence[GameResult], jobs: int, seconds: float
) -> dict[str, Any]:
    """The arena's JSON result: agents ranked by mean points where the game says points
    decide (``GameInfo.points_decide``) and it scores, else in the order given."""
    ratings = elo(results, setup.agents)
    table = tally(results, setup.agents)
    rows = [table[name].row(ratings[name]) for name in dict.fromkeys(setup.agents)]
    scored = any(r.points is not None for r in results)
    by_points = scored and setup.configured().points_decide
    if by_points:
        rows.sort(key=lambda row: -row["points"])
    return {
        "game": setup.game,
        "players": setup.players,
        "options": setup.options,
        "games": setup.games,
        "seed": setup.seed,
        "jobs": jobs,
        "seconds": round(seconds, 2),
        "games_per_second": round(len(results) / seconds, 3) if seconds else None,
        "ranked_by": "points" if by_points else "given order",
        "agents": rows,
        "seats": seat_rows(results, setup.players),
        "results": [
            {
                "seats": list(r.seats),
                "winners": list(r.winners),
                "actions": r.actions,
                **({"points": list(r.points)} if r.points is not None else {}),
            }
            for r in results
        ],
    }


def make_setup(
    game_id: str,
    agents: str,
    games: int,
    players: int | None,
    option_pairs: Sequence[str],
    seed: int,
) -> Setup:
    """Check the arena's words and build its setup."""
    game = resolve(game_id)
    names = tuple(name.strip() for name in agents.split(",") if name.strip())
    if len(names) < 2:
        raise UsageError(_("--agents needs at least two agents, e.g. --agents 1,2"))
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise UsageError(
            _(
                "--agents names {names} more than once; name each agent once "
                "(an agent's seats are counted together), e.g. --agents 1,2",
                names=", ".join(twice),
            )
        )
    for name in names:
        make_seat(game, name)  # unknown level -> UsageError listing the known ones
    if games < 1:
        raise UsageError(_("--games must be at least 1"))
    values = opts.parse_pairs(option_pairs)
    table = Configured.of(game, players, values)
    return Setup(game.info.id, names, games, table.players, dict(values), seed)
