"""The game log a connection is sent: every action so far, numbered, with who played it,
as that connection may see it (``docs/web.md``, message ``log``).

A text is shown where it follows from what the connection saw (``tabletop.core.table.told``:
placements, melds, discards, ``end``); ``"played"`` only where the text would name
something hidden. The log goes whole on connecting (``from`` 0), then only what changed:
``from`` is the first entry the message replaces (an undo sends no entries, just the
``from`` to cut at), ``entries`` the entries from there on (the message itself:
``protocol.log``).
"""

from __future__ import annotations

from collections.abc import Callable

from tabletop.core.table import Table, spoken, unseen
from tabletop.game import JSON

HIDDEN = "played"  # the text of an action this connection may not be told


def entries(
    table: Table, seat: int | None, told: Callable[[int, int | None], bool], start: int = 0
) -> list[JSON]:
    """Log entries from action ``start`` (0-based) on: ``number`` (1-based), ``player``,
    ``text`` (the notation; ``"played"`` where it is not for this connection) and
    ``said``: what a person reads, in the connection's language (the action in the game's
    words, "vyložit 2♥ 2♣"; for an untold one the game's sentence, "player 2 was dealt a
    card"). A joint action's choices are one entry
    each, told once it is applied; a chance outcome's ``player`` is -1
    (:data:`~tabletop.game.CHANCE`)."""
    match = table.match
    out: list[JSON] = []
    for index in range(start, len(match.actions)):
        player = match.actors[index]  # a player, or CHANCE (-1): an outcome drawn
        if told(index, seat):
            said = spoken(match, index)  # prose: translated where sent
            out.append(
                {"number": index + 1, "player": player, "text": match.texts[index], "said": said}
            )
        else:  # "said": what the game says of it instead (prose, translated where sent)
            said = unseen(match, index)
            out.append({"number": index + 1, "player": player, "text": HIDDEN, "said": said})
    return out

