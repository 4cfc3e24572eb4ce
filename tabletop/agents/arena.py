"""``tabletop arena``: agents play many seeded games; win rates, intervals and Elo.

Seats rotate from game to game; game ``i`` is played from a seed derived from the
arena's seed and ``i`` alone, so results are the same whatever ``--jobs`` is, on local
processes or on Ray (``--backend ray``, :mod:`tabletop.analysis.backends`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tabletop.agents.seat import make_seat
from tabletop.core import options as opts
from tabletop.core.errors import UsageError
from tabletop.core.match import Match
from tabletop.core.setup import player_count, resolve

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


@dataclass(frozen=True)
class GameResult:
    """One game: the agent in each seat, the winners, its length and thinking time (per
    seat: in all, and the longest single move), and how it ended (``Outcome.kind``, or
    ``action-limit`` when the arena cut it at the game's ``max_actions``)."""

    index: int
    seats: tuple[str, ...]
    winners: tuple[int, ...]
    actions: int
    seconds: tuple[float, ...]
    longest: tuple[float, ...]
    kind: str = ""


def seating(agents: Sequence[str], players: int, index: int) -> tuple[str, ...]:
    """The agents of game ``index``, rotated one place per game."""
    return tuple(agents[(index + seat) % len(agents)] for seat in range(players))


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index``: depends on nothing else."""
    return random.Random(f"arena:{seed}:{index}").randrange(2**31)


def play_game(setup: Setup, index: int, watch: Callable[[Match], None] | None = None) -> GameResult:
    """Play game ``index`` of ``setup`` to its end; ``watch`` (if any) sees the match
    before every decision (the balance analysis measures the game through it)."""
    game = resolve(setup.game)
    options = opts.build(game.info.options, setup.options, game.info.id)
    seats = seating(setup.agents, setup.players, index)
    computer = {n + 1: make_seat(game, name) for n, name in enumerate(seats)}
    seed = game_seed(setup.seed, index)
    match = Match(game, setup.players, options, seed)
    thinking = [0.0] * setup.players
    longest = [0.0] * setup.players
    limit = game.info.max_actions(setup.players, options)
    while match.outcome() is None and len(match.actions) <= limit:
        player = match.to_act()
        assert player is not None
        if watch:
            watch(match)
        began = time.perf_counter()
        action = computer[player].move(match)
        spent = time.perf_counter() - began
        thinking[player - 1] += spent
        longest[player - 1] = max(longest[player - 1], spent)
        match.push(action)
    outcome = match.outcome()
    winners = outcome.winners if outcome else ()
    kind = (outcome.kind or "ended") if outcome else "action-limit"
    actions = len(match.actions)
    return GameResult(index, seats, winners, actions, tuple(thinking), tuple(longest), kind)


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


def wilson(successes: float, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denominator
    # Clamped to 0..1, and always holding p itself (rounding can leave 1.0 just outside).
    return min(max(0.0, centre - half), p), max(min(1.0, centre + half), p)


@dataclass
class Tally:
    """One agent's record over all its seats."""

    agent: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    seconds: float = 0.0
    longest: float = 0.0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

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
        }


def tally(results: Sequence[GameResult], agents: Sequence[str]) -> dict[str, Tally]:
    """Wins, draws and losses per agent, counted once per game it played in.

    An agent wins a game when one of its seats is among the winners, draws when there
    are no winners, and loses otherwise: with more players than agents, an agent that
    holds several seats is judged by the game, not by each seat.
    """
    table = {name: Tally(name) for name in agents}
    for result in results:
        for name in dict.fromkeys(result.seats):
            entry = table[name]
            seats = [n for n, s in enumerate(result.seats, start=1) if s == name]
            entry.seconds += sum(result.seconds[n - 1] for n in seats)
            entry.longest = max(entry.longest, *(result.longest[n - 1] for n in seats))
            if not result.winners:
                entry.draws += 1
            elif any(n in result.winners for n in seats):
                entry.wins += 1
            else:
                entry.losses += 1
    return table


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
    """The arena's JSON result."""
    ratings = elo(results, setup.agents)
    table = tally(results, setup.agents)
    return {
        "game": setup.game,
        "players": setup.players,
        "options": setup.options,
        "games": setup.games,
        "seed": setup.seed,
        "jobs": jobs,
        "seconds": round(seconds, 2),
        "games_per_second": round(len(results) / seconds, 3) if seconds else None,
        "agents": [table[name].row(ratings[name]) for name in dict.fromkeys(setup.agents)],
        "results": [
            {"seats": list(r.seats), "winners": list(r.winners), "actions": r.actions}
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
        raise UsageError("--agents needs at least two agents, e.g. --agents 1,2")
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise UsageError(
            f"--agents names {', '.join(twice)} more than once; name each agent once "
            "(an agent's seats are counted together), e.g. --agents 1,2"
        )
    for name in names:
        make_seat(game, name)  # unknown level -> UsageError listing the known ones
    if games < 1:
        raise UsageError("--games must be at least 1")
    count = player_count(game, players)
    values = opts.parse_pairs(option_pairs)
    opts.build(game.info.options, values, game.info.id)
    return Setup(game.info.id, names, games, count, dict(values), seed)
