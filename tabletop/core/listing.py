"""What a player may type now, as people are told it: the short "allowed: …" of a refusal
(:func:`allowed`) and the listed action whose words were typed (:func:`typed_words`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tabletop.core.i18n.text import Domain, translate
from tabletop.core.presentation import presentation_of
from tabletop.game import Game

HINT_ACTIONS = 12  # the listed actions a refusal names before "… (N in all)"
_ = Domain("tabletop")
OVER = _("the game is over")


def allowed(listed: list[str]) -> str:
    """A short 'what is allowed' for error messages: ``listed`` (notation, in listing
    order), the first :data:`HINT_ACTIONS` of them and how many there are."""
    if not listed:
        return OVER
    if len(listed) <= HINT_ACTIONS:
        return _("allowed: {actions}", actions=", ".join(listed))
    head = ", ".join(listed[:HINT_ACTIONS])
    return _(
        "allowed: {actions}, … ({count} in all; 'help' lists them)",
        actions=head,
        count=len(listed),
    )


def typed_words(game: Game[Any, Any], state: Any, listed: Iterable[Any], text: str) -> Any | None:
    """The action of ``listed`` whose words (the game's ``action_text``) in the current
    language are ``text``, case and spacing aside; None when none or several are. Typed
    input takes the words people read as well as the notation."""
    wanted = " ".join(text.casefold().split())
    shown = presentation_of(game)
    found = [
        action
        for action in listed
        if " ".join(translate(shown.action_text(state, action)).casefold().split()) == wanted
    ]
    return found[0] if len(found) == 1 else None
