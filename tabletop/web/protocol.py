"""The websocket protocol's messages, every one built or parsed here (``docs/web.md``).

Server to client, each a JSON object with a ``type``, each built by the function of its
name: ``hello`` (once, on connecting), ``last`` (the last action of each player), ``log``
(the game log, whole then entry by entry), ``position`` (after every change, exactly the
keys below), ``presence``, ``undo-request``, ``undo-result``, ``rematch``, ``chat``,
``name``, ``error``. Client to server: ``action``, ``undo``, ``undo-answer``, ``rematch``,
``chat``, ``name``,
each read by its parser in :data:`PARSERS` into a :class:`ClientMessage`; its handler is
the entry of the same type in :data:`tabletop.web.handlers.HANDLERS`. A new message is
added in these two places.

Everything about the position goes through ``game.view(state, seat)``: no message holds
anything that seat may not see.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tabletop.core.endings import draws
from tabletop.core.errors import TabletopError
from tabletop.core.i18n.text import Domain, message_of
from tabletop.core.presentation import presentation_of
from tabletop.core.reading import parse_json
from tabletop.core.table import Table
from tabletop.game import JSON, Game, player_of
from tabletop.web import gamelog, sealed

if TYPE_CHECKING:
    from tabletop.core.match import Match
    from tabletop.web.store import StoredMatch

_ = Domain("tabletop")
MAX_MESSAGE = 4096  # characters of one client message
MAX_ACTION = 200  # characters of one action's text
POSITION_KEYS = (
    "type", "number", "status", "to_act", "prompt", "legal", "legal_said", "view", "scores",
    "winners", "reason", "clock", "presence", "sealed", "end", "draw",
)  # fmt: skip
Told = Callable[[int, int | None], bool]  # may this seat be told action index's text


class ProtocolError(TabletopError):
    """A client message the protocol does not take; the message says what is allowed."""


# -- server to client ------------------------------------------------------------------


def hello(
    meta: StoredMatch, game: Game[Any, Any], seat: int | None, chat_write: bool, lang: str
) -> JSON:
    """The ``hello`` message, sent once on connecting: the match, this connection's seat
    (None: a spectator), where the board and the rules are, and its language."""
    has_board = presentation_of(game).web_board() is not None
    return {
        "type": "hello",
        "match": meta.id,
        "game": meta.game,
        "name": game.info.name,
        "players": meta.players,
        "seat": seat,
        "board": f"/games/{meta.game}/board.js" if has_board else None,
        "rules": f"/games/{meta.game}/rules",
        "chat": {"write": chat_write},
        "move_time": meta.move_time,
        "seats": [
            {"seat": r.seat, "kind": "computer" if r.ai else "person", "level": r.ai}
            for r in meta.seats
        ],
        "lang": lang,
        "draws": draws(game),
    }


def position(
    table: Table, seat: int | None, presence: JSON, waiting: list[int] | None = None
) -> JSON:
    """The ``position`` message for ``seat`` (None: a spectator). ``waiting``: the person
    seats nobody has opened yet; while there are any, the clock waits (full time left)."""
    match = table.match
    game, state = match.game, match.state
    outcome = match.outcome()
    to_act = match.player()
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
        "legal": sealed.legal(table, seat),
        "legal_said": sealed.legal_said(table, seat),
        "view": game.view(state, seat),
        "scores": None if scores is None else {str(k): v for k, v in scores.items()},
        "winners": list(outcome.winners) if outcome else [],
        "reason": outcome.reason if outcome else "",
        "clock": clock,
        "presence": presence,
        "sealed": sealed.step(table, seat),
        "end": outcome.kind if outcome else "",
        "draw": draw_offer(table),
    }


def draw_offer(table: Table) -> JSON | None:
    """The draw offered and not yet answered: who offered it and the persons whose yes
    it waits for (None: no offer stands)."""
    offer = table.offer
    if offer is None:
        return None
    waiting = sorted(set(table.persons()) - offer.accepted)
    return {"by": offer.offerer, "waiting": waiting}


def draw_declined(by: int, declined_by: int, reason: str) -> JSON:
    """The ``draw-declined`` message: the draw ``by`` offered was declined by
    ``declined_by`` (a person, or a computer seat: they always decline)."""
    return {"type": "draw-declined", "by": by, "declined_by": declined_by, "reason": reason}


def position_before(match: Match, index: int, seat: int | None) -> JSON:
    """The ``position`` message of the state before action ``index + 1`` as ``seat`` saw
    it (None: a spectator; the coach's review sends these over HTTP)."""
    return position_at(match, index, seat)


def position_at(match: Match, number: int, seat: int | None) -> JSON:
    """The ``position`` message once ``number`` actions were played, as ``seat`` (None: a
    spectator) saw it then: no legal actions, no clock (a replay, the coach's review)."""
    game = match.game
    state = match.states[number]
    # only the last position can be over (by the rules, or by a forfeit on time)
    outcome = match.outcome() if number == len(match.actions) else None
    player = player_of(game.to_act(state)) if outcome is None else None
    scores = game.scores(state)
    return {
        "type": "position",
        "number": number,
        "status": "ongoing" if outcome is None else "over",
        "to_act": player,
        "prompt": game.prompt(state) if player is not None else "",
        "legal": [],
        "legal_said": [],
        "view": game.view(state, seat),
        "scores": None if scores is None else {str(k): v for k, v in scores.items()},
        "winners": list(outcome.winners) if outcome else [],
        "reason": outcome.reason if outcome else "",
        "clock": None,
        "presence": {},
        "sealed": None,
    }


def last_actions(table: Table, seat: int | None, told: Told) -> JSON:
    """The ``last`` message for ``seat``: each player's most recent action in notation,
    ``"played"`` where that text is not for this seat (``told``), null before any."""
    match = table.match
    last: dict[str, str | None] = {str(p): None for p in range(1, match.players + 1)}
    missing = set(last)
    for index in range(len(match.actions) - 1, -1, -1):
        key = str(match.actors[index])
        if key in missing:
            last[key] = match.texts[index] if told(index, seat) else "played"
            missing.discard(key)
            if not missing:
                break
    return {"type": "last", "number": len(match.actions), "actions": last}


def log(table: Table, seat: int | None, told: Told, start: int = 0) -> JSON:
    """The ``log`` message: the game log's entries from ``start`` on
    (:mod:`tabletop.web.gamelog`), replacing any the client has from there."""
    start = max(0, min(start, len(table.match.actions)))
    return {
        "type": "log",
        "number": len(table.match.actions),
        "from": start,
        "entries": gamelog.entries(table, seat, told, start),
    }


def presence(seats: JSON) -> JSON:
    """The ``presence`` message: each seat's state and how many watch (``Room.presence``)."""
    return {"type": "presence", "presence": seats}


def undo_request(by: int, number: int, count: int, waiting: Iterable[int]) -> JSON:
    """The ``undo-request`` message: ``by`` asks to take back ``count`` actions from
    position ``number``; ``waiting``: the players whose answer is awaited."""
    return {"type": "undo-request", "by": by, "number": number, "count": count,
            "waiting": sorted(waiting)}  # fmt: skip


def undo_declined(by: int, reason: str) -> JSON:
    """The ``undo-result`` message of an undo not carried out, and why."""
    return {"type": "undo-result", "by": by, "done": False, "reason": reason}


def undo_done(by: int, count: int) -> JSON:
    """The ``undo-result`` message of an undo carried out: ``count`` actions taken back."""
    return {"type": "undo-result", "by": by, "done": True, "count": count}


def rematch(links: JSON, seat: int | None, players: int) -> JSON:
    """The ``rematch`` message for one connection of the old match (``links``: the new
    match's, ``Hub.links``): only its own new link, a seat's where it moved (old seat
    ``s`` sits at ``s % players + 1``), else the spectators'."""
    url = links["spectator_url"]
    if seat is not None:
        moved = seat % players + 1
        url = next((s["url"] for s in links["seats"] if s["seat"] == moved), url)
    return {"type": "rematch", "id": links["id"], "url": url}


def chat(seat: int | None, name: str, text: str, at: float) -> JSON:
    """The ``chat`` message: one message of the table talk (seat None: a spectator's;
    ``name`` the sender's chosen name, '' when it chose none)."""
    return {"type": "chat", "seat": seat, "name": name, "text": text, "at": at}


def error(text: str, about: str | None = None) -> JSON:
    """The ``error`` message: what was refused or went wrong, one line for people;
    ``about`` the client message it answers where the page shows it apart (``name``)."""
    if about is None:
        return {"type": "error", "error": text}
    return {"type": "error", "error": text, "about": about}


def named(seat: int | None, name: str) -> JSON:
    """The ``name`` message: the name this connection is now called by (seat None: a
    spectator's), the answer to its own ``name`` message."""
    return {"type": "name", "seat": seat, "name": name}


# The keys whose values are prose for people: translated per connection, where they are
# sent (the values are marked messages, English until then); every other key is a machine
# word and never changes.
PROSE = ("error", "reason", "prompt")


def localised(message: JSON, lang: str) -> JSON:
    """``message`` with its prose in ``lang`` (a copy; English: the message itself)."""
    if lang == "en" or not any(key in message for key in (*PROSE, "entries", "legal_said")):
        return message
    from tabletop.core.i18n.text import translate

    out = {
        key: translate(value, lang) if key in PROSE and isinstance(value, str) else value
        for key, value in message.items()
    }
    if message.get("legal_said"):  # the legal actions in the reader's words
        out["legal_said"] = [translate(said, lang) for said in message["legal_said"]]
    if "entries" in message:  # the game log: each entry's "said"
        out["entries"] = [
            {**entry, "said": translate(entry["said"], lang)} if "said" in entry else entry
            for entry in message["entries"]
        ]
    return out


@dataclass(frozen=True)
class ClientMessage:
    """A client message, checked: ``kind`` and its fields."""

    kind: str
    action: str = ""
    number: int = -1
    agree: bool = False
    text: str = ""


def _action(data: dict[str, Any]) -> ClientMessage:
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


def _undo_answer(data: dict[str, Any]) -> ClientMessage:
    agree = data.get("agree")
    if not isinstance(agree, bool):
        raise ProtocolError(_("an undo-answer needs 'agree': true or false"))
    return ClientMessage("undo-answer", agree=agree)


def _chat(data: dict[str, Any]) -> ClientMessage:
    said = data.get("text")
    if not isinstance(said, str):
        raise ProtocolError(_("a chat message needs 'text': the message as plain text"))
    return ClientMessage("chat", text=said)


def _name(data: dict[str, Any]) -> ClientMessage:
    said = data.get("name")
    if not isinstance(said, str):
        raise ProtocolError(_("a name message needs 'name': the name to be called by, as text"))
    return ClientMessage("name", text=said)


def _undo(data: dict[str, Any]) -> ClientMessage:
    return ClientMessage("undo")


def _rematch(data: dict[str, Any]) -> ClientMessage:
    return ClientMessage("rematch")


def _resign(data: dict[str, Any]) -> ClientMessage:
    return ClientMessage("resign")


def _draw_offer(data: dict[str, Any]) -> ClientMessage:
    return ClientMessage("draw-offer")


def _draw_answer(data: dict[str, Any]) -> ClientMessage:
    accept = data.get("accept")
    if not isinstance(accept, bool):
        raise ProtocolError(_("a draw-answer needs 'accept': true or false"))
    return ClientMessage("draw-answer", agree=accept)


# Each client message type and its parser (the JSON object, its type checked, to a
# ClientMessage, or ProtocolError saying what the type needs).
PARSERS: dict[str, Callable[[dict[str, Any]], ClientMessage]] = {
    "action": _action,
    "undo": _undo,
    "undo-answer": _undo_answer,
    "rematch": _rematch,
    "chat": _chat,
    "name": _name,
    "resign": _resign,
    "draw-offer": _draw_offer,
    "draw-answer": _draw_answer,
}
CLIENT_TYPES = ", ".join(PARSERS)


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
    parser = PARSERS.get(kind)
    if parser is None:
        raise ProtocolError(
            _(
                "unknown message type {kind}; allowed: {types}",
                kind=repr(str(kind)[:40]),
                types=CLIENT_TYPES,
            )
        )
    return parser(data)
