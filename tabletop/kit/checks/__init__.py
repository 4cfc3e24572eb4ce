"""The conformance checks, one function per check, each given an explicit
:class:`~tabletop.kit.checks.context.Context` and raising :class:`Failed` with what was
wrong. :mod:`tabletop.kit.conformance` plays the games and calls them."""

from __future__ import annotations

from tabletop.kit.checks.context import FAILED, Context, Failed, Tally, run

CHECKS: dict[str, str] = {
    "legal": "legal is empty exactly when the game is over; listing and winners agree",
    "pure": "apply never mutates its input; states and actions are values",
    "deterministic": "same seed and actions give the same game",
    "record": "records round-trip through save/load and replay",
    "position": "from_json(to_json(s)) is s; damaged positions are refused",
    "notation": "parse(format(a)) == a for every listed action",
    "views": "a view shows nothing hidden from that player",
    "samples": "sample(view) agrees with the view, is a possible position, same legal actions",
    "bound": "games end within info.max_actions",
    "fuzz": "bad input raises ActionError, one line, changes nothing",
    "mutants": "mutated positions are refused in one line or play on with every invariant",
    "translations": "marked messages translated in each declared language, placeholders kept",
}

__all__ = ["CHECKS", "FAILED", "Context", "Failed", "Tally", "run"]
