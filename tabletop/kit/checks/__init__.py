"""The conformance checks, one function per check, each given an explicit
:class:`~tabletop.kit.checks.context.Context` and raising :class:`Failed` with what was
wrong. :mod:`tabletop.kit.conformance` plays the games and calls them."""

from __future__ import annotations

from tabletop.core.i18n.text import Domain
from tabletop.kit.checks.context import FAILED, Context, Failed, Tally, run

_ = Domain("tabletop")

# each check's machine name (the report's and --json's key) and its one line (a message)
CHECKS: dict[str, str] = {
    "legal": _("legal is empty exactly when the game is over; listing and winners agree"),
    "pure": _("apply never mutates its input; states and actions are values"),
    "deterministic": _("same seed and actions give the same game"),
    "record": _("records round-trip through save/load and replay"),
    "position": _("from_json(to_json(s)) is s; damaged positions are refused"),
    "notation": _("parse(format(a)) == a for every listed action"),
    "views": _("a view shows nothing hidden from that player"),
    "told": _("a chance outcome or sealed choice told to a player follows from their view"),
    "samples": _("sample(view) agrees with the view, is a possible position, same legal actions"),
    "bound": _("games end within info.max_actions"),
    "fuzz": _("bad input raises ActionError, one line, changes nothing"),
    "mutants": _("mutated positions are refused in one line or play on with every invariant"),
    "translations": _("marked messages translated in each declared language, placeholders kept"),
}

__all__ = ["CHECKS", "FAILED", "Context", "Failed", "Tally", "run"]
