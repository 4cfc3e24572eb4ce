"""One self-play game, measured: the arena plays it, a probe watches every decision.

What the probe records, per game (all plain ints and tuples, cheap to send back):

- ``turns``: how many times the player to act changed, counting the first player's
  first turn (a player who acts twice in a row, e.g. Quarto's place-then-give, is one turn);
- ``legal``: the legal actions summed over every decision (÷ ``decisions``: branching);
- from the game's ``evaluate`` (when it has one, for every player at every decision):
  the lead changes and Ludii's decisiveness (see :mod:`tabletop.analysis.measures`).

The probe reads the true state, hidden parts included: it is the referee's notebook,
never shown to an agent (the agents still get only their own ``view``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from tabletop.agents.arena import Setup, play_game
from tabletop.core.match import Match


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


class Probe:
    """Watches a match before each decision (arena's ``watch``)."""

    def __init__(self) -> None:
        self.turns = 0
        self.decisions = 0
        self.legal = 0
        self.last: int | None = None
        self.values: list[tuple[float, ...]] = []

    def __call__(self, match: Match) -> None:
        game, state = match.game, match.state
        player = match.to_act()
        if player != self.last:
            self.turns += 1
            self.last = player
        self.decisions += 1
        self.legal += len(game.legal(state))
        values = [game.evaluate(state, p) for p in range(1, match.players + 1)]
        if all(v is not None for v in values):
            self.values.append(tuple(float(v) for v in values if v is not None))


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
    )
