"""Simultaneous (sealed) steps and chance steps as the browser is told of them (issue 35).

The rules of the table are the core's (:class:`tabletop.core.match.Match` keeps each
sealed choice in ``Match.sealed`` until the last one is in and draws chance from the
match's seed; :class:`tabletop.core.table.Table` says what an undo may take back); this
module only says what each connection may be sent of them:

- :func:`step`: the ``position`` message's ``sealed`` key: at a simultaneous step who
  chooses, who is still to choose (who has chosen may be shown, never what) and ``mine``,
  this seat's own sealed choice, sent to that seat only; None at any other step.
- :func:`legal`: the ``position`` message's ``legal``: this seat's own choices when it is
  still to choose (``Match.options_of(seat)``), else nothing.
- :func:`texts` and :func:`restore`: the sealed choices as the store keeps them (by seat;
  :mod:`tabletop.web.store_sealed` writes them before a choice is acknowledged), and
  entered again into a match replayed or brought up to the store, so a restart or another
  server sharing the store has them; their texts go into the match alone, never into a
  message, log line or error (a choice that no longer plays is left out silently);
  :func:`mask`: who has chosen, as the servers sharing a store compare positions.
- :func:`drawn`: the chance outcomes the core drew as the match was set up (a prize card
  turned up), stored with the new match as its first actions.
- :func:`undone`: the ``undo-result`` of a person's own sealed choice taken back while the
  round is not complete (the table's undo rules allow it: nobody else was told of it); no
  one else is asked, and only that seat is told (the others see only that it is choosing
  again: :meth:`tabletop.web.room.Room.take_back_sealed`).

A chance outcome is an action of :data:`~tabletop.game.CHANCE` (player -1 in the ``log``
and ``last`` messages), drawn by the core; the page never waits for a person there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tabletop.core.errors import TabletopError
from tabletop.core.match import Match
from tabletop.core.presentation import presentation_of
from tabletop.core.table import Table
from tabletop.game import JSON
from tabletop.web import store


def step(table: Table, seat: int | None) -> JSON | None:
    """At a simultaneous step: ``{"players": [...], "waiting": [...], "mine": text|null}``
    for ``seat`` (None: a spectator, who has no choice of its own); else None."""
    match = table.match
    actor = match.game.to_act(match.state)
    if not isinstance(actor, frozenset) or match.outcome() is not None:
        return None
    own = match.sealed.get(seat) if seat is not None else None
    return {
        "players": sorted(actor),
        "waiting": match.choosers(),
        "mine": own[1] if own is not None else None,
    }


def listed(table: Table, seat: int | None) -> list[Any]:
    """The listed actions of ``seat`` if it is to act (or still to choose), else []."""
    match = table.match
    return match.listed(seat) if seat is not None and seat in match.choosers() else []


def legal(table: Table, seat: int | None) -> list[str]:
    """:func:`listed` in notation (what the page sends back)."""
    match = table.match
    return [match.game.format(match.state, a) for a in listed(table, seat)]


def legal_said(table: Table, seat: int | None) -> list[str]:
    """:func:`listed` in the reader's words (the game's ``action_text``; messages,
    translated where sent), in the same order as :func:`legal`."""
    match = table.match
    shown = presentation_of(match.game)
    return [shown.action_text(match.state, a) for a in listed(table, seat)]


def texts(match: Match) -> dict[int, str]:
    """The sealed choices ``match`` holds, by seat: their texts as stored."""
    return {seat: text for seat, (_action, text) in match.sealed.items()}


def mask(match: Match) -> int:
    """Who has a sealed choice (the sum of 2**seat), as the store's positions say it."""
    return sum(1 << seat for seat in match.sealed)


def restore(match: Match, choices: Mapping[int, str]) -> None:
    """Enter the stored sealed ``choices`` (text by seat) into ``match`` at its
    simultaneous step, through the checked path. A choice that does not play there (the
    step is over, the seat has chosen), and one that would make the round whole (a joint
    action is applied only as stored actions), is left out."""
    for seat, text in sorted(choices.items()):
        if not isinstance(match.game.to_act(match.state), frozenset):
            return
        choosers = match.choosers()
        if match.outcome() is not None or seat not in choosers or choosers == [seat]:
            continue
        try:
            match.play(text, seat)
        except TabletopError:  # its reason names the text: told to no one
            continue


def drawn(match_id: str, match: Match, at: float) -> list[store.Statement]:
    """The statements storing the actions ``match`` starts with (chance outcomes drawn
    before anyone acts), so the stored match replays to it."""
    status = "ongoing" if match.outcome() is None else "over"
    return [
        statement
        for index, text in enumerate(match.texts)
        for statement in store.append(match_id, index + 1, text, status, at)
    ]


def undone(seat: int) -> JSON:
    """The ``undo-result`` of a sealed choice taken back (``sealed`` true), for its seat."""
    return {"type": "undo-result", "by": seat, "done": True, "count": 1, "sealed": True}
