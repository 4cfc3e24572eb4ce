"""One self-play game, measured: the arena plays it, a probe watches every decision.

What the probe records, per game (all plain ints and tuples, cheap to send back):

- ``turns``: how many times the player to act changed, counting the first player's
  first turn (a player who acts twice in a row, e.g. Quarto's place-then-give, is one turn);
- ``legal``: the legal actions summed over every decision (÷ ``decisions``: branching);
- ``branching``: how many decisions had each number of legal actions (the distribution);
- from the game's ``evaluate`` (when it has one, for every player at every decision):
  the lead changes, Ludii's decisiveness, drama and stability, and the clarity of the
  choices (the spread of the mover's evaluation over its legal actions' results: at every
  ``CLARITY_EVERY``-th decision, on at most ``CLARITY_ACTIONS`` actions spread evenly
  through the legal list; measured every decision on all actions it cost 1.7x the
  game's time in Čtverák and 5.6x in Quartino at level 1, sampled it costs under 40%);
- ``scores``: the game's points per seat at the end (``Game.scores``), when it scores.

The probe reads the true state, hidden parts included: it is the referee's notebook,
never shown to an agent (the agents still get only their own ``view``).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from tabletop.agents.facet import players_of
from tabletop.analysis.arena import Setup, game_seed, play_game
from tabletop.core.match import Match

CLARITY_EVERY = 8  # clarity is sampled at decisions 1, 9, 17, ... of a game
CLARITY_ACTIONS = 8  # legal actions evaluated there (cost: one apply and evaluate each)


class GameStats(NamedTuple):
    """What one game tells the balance analysis."""

    seats: tuple[str, ...]
    winners: tuple[int, ...]
    kind: str
    actions: int
    turns: int
    decisions: int
    legal: int
    lead_changes: int | None  # None: the game has no evaluation
    evaluated: int  # decisions with an evaluation of every player
    decisive: float | None  # fraction of decisions after the winner went past the threshold
    number: int = 0  # the game's index in its block
    seed: int = 0  # the game's own seed (the arena's game_seed of the run's seed and index)
    scores: tuple[int, ...] | None = None  # points per seat at the end, when the game scores
    drama: float | None = None  # Ludii's drama: mean lag of the winner behind the best
    stability: float | None = None  # Ludii's stability: mean variance of an evaluation
    clarity: float | None = None  # Ludii's clarity (variance): spread of a choice's results
    branching: tuple[tuple[int, int], ...] = ()  # (legal actions, decisions with that many)


class Probe:
    """Watches a match before each decision (arena's ``watch``)."""

    def __init__(self) -> None:
        self.turns = 0
        self.decisions = 0
        self.legal = 0
        self.last: int | None = None
        self.values: list[tuple[float, ...]] = []
        self.spreads: list[float] = []
        self.widths: Counter[int] = Counter()
        self.match: Match | None = None

    def __call__(self, match: Match) -> None:
        self.match = match
        game, state = match.game, match.state
        player = match.player()
        if player != self.last:
            self.turns += 1
            self.last = player
        self.decisions += 1
        legal = game.legal(state)
        self.legal += len(legal)
        self.widths[len(legal)] += 1
        evaluate = players_of(game).evaluate
        values = [evaluate(state, p) for p in range(1, match.players + 1)]
        if all(v is not None for v in values):
            self.values.append(tuple(float(v) for v in values if v is not None))
            if player is not None and legal and (self.decisions - 1) % CLARITY_EVERY == 0:
                self.spreads.append(choice_spread(match, legal, player))


def choice_spread(match: Match, legal: Sequence[object], player: int) -> float:
    """The population variance of ``player``'s evaluation after each of (at most
    ``CLARITY_ACTIONS``, evenly spread) legal actions: Ludii's ClarityVariance at one
    decision. Near 0: every choice looks alike; larger: some choices are clearly better."""
    game, state = match.game, match.state
    step = max(1, len(legal) // CLARITY_ACTIONS)
    chosen = list(legal)[::step][:CLARITY_ACTIONS]
    evaluate = players_of(game).evaluate
    results = [evaluate(game.apply(state, action), player) for action in chosen]
    known = [float(v) for v in results if v is not None]
    return statistics.pvariance(known) if len(known) > 1 else 0.0


def drama(series: Sequence[tuple[float, ...]], winners: tuple[int, ...]) -> float | None:
    """Ludii's Drama (average) for one game: at each decision, how far the winners'
    evaluation lies below the best evaluation of any player (averaged over the winners),
    averaged over the decisions. 0: the winner always led. None without a winner."""
    if not winners or not series:
        return None
    lags = [sum(max(values) - values[w - 1] for w in winners) / len(winners) for values in series]
    return sum(lags) / len(lags)


def stability(series: Sequence[tuple[float, ...]]) -> float | None:
    """Ludii's Stability for one game: the population variance of each player's
    evaluation over the game, averaged over the players (Ludii sums them; the average
    keeps player counts comparable). Low: evaluations move little (a steady game)."""
    if len(series) < 2:
        return None
    players = len(series[0])
    return sum(statistics.pvariance([v[p] for v in series]) for p in range(players)) / players


def leader(values: tuple[float, ...]) -> int | None:
    """The one player (1-based) whose evaluation is highest; None on a tie."""
    best = max(values)
    tops = [p for p, v in enumerate(values, start=1) if v == best]
    return tops[0] if len(tops) == 1 else None


def lead_changes(series: Sequence[tuple[float, ...]]) -> int:
    """How often the leader changed (a tie keeps the last leader)."""
    changes, current = 0, None
    for values in series:
        now = leader(values)
        if now is None:
            continue
        if current is not None and now != current:
            changes += 1
        current = now
    return changes


def decisiveness(series: Sequence[tuple[float, ...]], winners: tuple[int, ...]) -> float | None:
    """Ludii's DecisivenessMoves for one game: the threshold is the highest evaluation any
    non-winner ever had; the share of decisions from the first one where the (single)
    winner's evaluation is above it to the end. None without one winner or evaluation."""
    if len(winners) != 1 or not series:
        return None
    winner = winners[0] - 1
    others = [v for values in series for p, v in enumerate(values) if p != winner]
    threshold = max(others, default=0.0)
    for step, values in enumerate(series):
        if values[winner] > threshold:
            return (len(series) - step) / len(series)
    return 0.0


def measure_game(task: tuple[Setup, int]) -> GameStats:
    """Play game ``index`` of ``setup`` (seeded by its index alone) and measure it."""
    setup, index = task
    probe = Probe()
    result = play_game(setup, index, probe)
    series = probe.values if len(probe.values) == probe.decisions else []
    changes = lead_changes(series) if series else None
    points = None
    if probe.match is not None:
        scored = probe.match.game.scores(probe.match.state)
        if scored is not None:
            points = tuple(int(scored.get(p, 0)) for p in range(1, setup.players + 1))
    return GameStats(
        result.seats,
        result.winners,
        result.kind,
        result.actions,
        probe.turns,
        probe.decisions,
        probe.legal,
        changes,
        len(series),
        decisiveness(series, result.winners) if series else None,
        index,
        game_seed(setup.seed, index),
        points,
        drama(series, result.winners) if series else None,
        stability(series) if series else None,
        statistics.fmean(probe.spreads) if series and probe.spreads else None,
        tuple(sorted(probe.widths.items())),
    )
