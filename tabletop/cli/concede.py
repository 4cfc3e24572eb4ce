"""``resign`` and ``draw`` at the prompt of ``tabletop play`` (the rules of it are the
table's: :meth:`~tabletop.core.table.Table.resign`, ``offer_draw``, ``answer_draw``).

``resign`` asks "really resign? (y/n)" first. ``draw`` offers a draw: at one keyboard each
other person is asked at once (the screen passed to them first where it hides things
between people); against the computer the computer seat's answer is said (computer seats
always decline).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.markup import escape

from tabletop.core.i18n.text import Domain, translate
from tabletop.core.table import TableRefused

if TYPE_CHECKING:
    from tabletop.cli.session import Session

_ = Domain("tabletop")
YES = _("y")


def yes(answer: str | None) -> bool:
    """Whether a typed answer says yes: ``y`` or ``yes``, in English or the language spoken."""
    said = (answer or "").strip().lower()
    return said in ("y", "yes", translate(YES).lower(), translate(_("yes")).lower())


def ask(session: Session, question: str) -> bool:
    """A yes/no question at the prompt (end of input: no)."""
    return yes(session.reader.line(translate(_("{question} (y/n)", question=question)) + " "))


def refused(session: Session, exc: TableRefused) -> None:
    session.console.print(f"[red]{escape(translate(str(exc.args[0])))}[/]")


def resign(session: Session, player: int) -> bool:
    """``resign``, confirmed: True when ``player`` resigned (the game is over)."""
    if not ask(session, _("really resign?")):
        session.say(_("not resigned; play on"))
        return False
    try:
        session.table.resign(player)
    except TableRefused as exc:
        refused(session, exc)
        return False
    return True


def offer_draw(session: Session, player: int) -> bool:
    """``draw``: ``player`` offers a draw; True when it was agreed (the game is over)."""
    table = session.table
    try:
        standing = table.offer_draw(player)
    except TableRefused as exc:
        refused(session, exc)
        return False
    if not standing:
        computer = translate(session.name(min(table.computers)))
        session.say(_("{player} (computer) declines the draw; play on", player=computer))
        return False
    offerer = translate(session.name(player))
    for other in table.persons():
        if other == player:
            continue
        session.pass_screen(other)
        name = translate(session.name(other))
        question = _("{offerer} offers a draw. {player}, do you accept?", offerer=offerer,
                     player=name)  # fmt: skip
        if not ask(session, question):
            table.answer_draw(other, False)
            session.news(_("{player} declines the draw; play on", player=name))
            break
        if table.answer_draw(other, True):
            return True
    if session.pass_screen(player):  # back to the offerer, whose turn goes on
        session.draw(player)
    session.flush()
    return False
