"""The websocket protocol's messages (documented in ``docs/web.md``).

Server to client, each a JSON object with a ``type``: ``hello`` (once, on connecting),
``last`` (the last action of each player), ``log`` (the game log, whole then entry by
entry), ``position`` (after every change, exactly the keys below), ``presence``,
``undo-request``, ``undo-result``, ``rematch``, ``chat``, ``error``.
Client to server: ``action``, ``undo``, ``undo-answer``, ``rematch``, ``chat``.

Everything about the position goes through ``game.view(state, seat)``: no message holds
anything that seat may not see.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tabletop.core.errors import TabletopError
from tabletop.core.i18n.text import Domain, message_of
from tabletop.core.reading import parse_json
from tabletop.core.table import Table
from tabletop.game import JSON

_ = Domain("tabletop")
MAX_MESSAGE = 4096  # characters of one client message
MAX_ACTION = 200  # characters of one action's text
POSITION_KEYS = (
    "type", "number", "status", "to_act", "prompt", "legal", "view", "scores", "winners",
    "reason", "clock", "presence",
)  # fmt: skip
CLIENT_TYPES = "action, undo, undo-answer, rematch, chat"


class ProtocolError(TabletopError):
    """A client message the protocol does not take; the message says what is allowed."""


def position(
    table: Table, seat: int | None, presence: JSON, waiting: list[int] | None = None
) -> JSON:
    """The ``position`` message for ``seat`` (None: a spectator). ``waiting``: the person
    seats nobody has opened yet; while there are any, the clock waits (full time left)."""
    match = table.match
    game, state = match.game, match.state
    outcome = match.outcome()
    to_act = match.to_act()
    left = table.time_left()
    clock = None
    if waiting and table.move_time and to_act is not None and to_act not in table.computers:
        clock = {"player": to_act, "left": float(table.move_time), "move_time": table.move_time,
                 "waiting": list(waiting)}  # fmt: skip
    elif left is not None and to_act is not None:
        clock = {"player": to_act, "left": round(left, 3), "move_time": table.move_time,
                 "waiting": []}  # fmt: skip
    scores = game.scores(state)
    return {
        "type": "position",
        "number": len(match.actions),
        "status": "ongoing" if outcome is None else "over",
        "to_act": to_act,
        "prompt": game.prompt(state) if to_act is not None else "",
        "legal": match.listing_text() if seat is not None and seat == to_act else [],
        "view": game.view(state, seat),
        "scores": None if scores is None else {str(k): v for k, v in scores.items()},
        "winners": list(outcome.winners) if outcome else [],
        "reason": outcome.reason if outcome else "",
        "clock": clock,
        "presence": presence,
    }


def last_actions(table: Table, seat: int | None, told: Callable[[int, int | None], bool]) -> JSON:
    """The ``last`` message for ``seat``: each player's most recent action in notation,
    ``"played"`` where that text is not for this seat (``told``), null before any."""
    match = table.match
    last: dict[str, str | None] = {str(p): None for p in range(1, match.players + 1)}
    missing = set(last)
    for index in range(len(match.actions) - 1, -1, -1):
        key = str(match.game.to_act(match.states[index]))
        if key in missing:
            last[key] = match.texts[index] if told(index, seat) else "played"
            missing.discard(key)
            if not missing:
                break
    return {"type": "last", "number": len(match.actions), "actions": last}


def error(text: str) -> JSON:
    return {"type": "error", "error": text}


# The keys whose values are prose for people: translated per connection, where they are
# sent (the values are marked messages, English until then); every other key is a machine
# word and never changes.
PROSE = ("error", "reason", "prompt")


def localised(message: JSON, lang: str) -> JSON:
    """``message`` with its prose in ``lang`` (a copy; English: the message itself)."""
    if lang == "en" or not any(key in message for key in PROSE):
        return message
    from tabletop.core.i18n.text import translate

    return {
        key: translate(value, lang) if key in PROSE and isinstance(value, str) else value
        for key, value in message.items()
    }


@dataclass(frozen=True)
class ClientMessage:
    """A client message, checked: ``kind`` and its fields."""

    kind: str
    action: str = ""
    number: int = -1
    agree: bool = False
    text: str = ""


def parse(text: str) -> ClientMessage:
    """A client message from its JSON text; ProtocolError says what is wrong."""
    if len(text) > MAX_MESSAGE:
        raise ProtocolError(
            _(
                "message too long ({count} characters; at most {limit})",
                count=len(text),
                limit=MAX_MESSAGE,
            )
        )
    try:
        data: Any = parse_json(text, _("the message"), ProtocolError)
    except ProtocolError as exc:
        raise ProtocolError(
            _(
                "{reason}; send a JSON object with a type ({types})",
                reason=message_of(exc),
                types=CLIENT_TYPES,
            )
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProtocolError(_("send a JSON object with a type ({types})", types=CLIENT_TYPES))
    kind = data["type"]
    if kind == "action":
        action, number = data.get("action"), data.get("number")
        if not isinstance(action, str) or not action.strip() or len(action) > MAX_ACTION:
            raise ProtocolError(
                _(
                    "an action message needs 'action': the action's text (1-{limit} characters)",
                    limit=MAX_ACTION,
                )
            )
        if not isinstance(number, int) or isinstance(number, bool) or number < 0:
            raise ProtocolError(
                _("an action message needs 'number': the number of the position you saw")
            )
        return ClientMessage("action", action=action, number=number)
    if kind == "undo-answer":
        agree = data.get("agree")
        if not isinstance(agree, bool):
            raise ProtocolError(_("an undo-answer needs 'agree': true or false"))
        return ClientMessage(kind, agree=agree)
    if kind == "chat":
        said = data.get("text")
        if not isinstance(said, str):
            raise ProtocolError(_("a chat message needs 'text': the message as plain text"))
        return ClientMessage(kind, text=said)
    if kind in ("undo", "rematch"):
        return ClientMessage(kind)
    raise ProtocolError(
        _(
            "unknown message type {kind}; allowed: {types}",
            kind=repr(str(kind)[:40]),
            types=CLIENT_TYPES,
        )
    )
