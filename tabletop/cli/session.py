"""The game loop of ``tabletop play``: a game in the terminal, hot-seat or against the computer.

Typed words besides actions: ``help`` (legal actions), ``hint``, ``undo`` (takes back
your last action and the computer's replies), ``save [FILE]``, ``rules``, ``resign`` and
``draw`` (:mod:`tabletop.cli.concede`), ``quit``.
With ``--save`` the game is written atomically after every action.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape

from tabletop.cli import concede
from tabletop.cli.lines import terminal_reader
from tabletop.core import records
from tabletop.core.errors import ActionError, RecordError, TabletopError
from tabletop.core.i18n import formats
from tabletop.core.i18n.text import Domain, Msg, and_list, message_of, translate
from tabletop.core.match import Match, player_name
from tabletop.core.presentation import presentation_of
from tabletop.core.table import NOTHING_TO_UNDO, Change, Table, spoken, told, unseen
from tabletop.game import CHANCE

if TYPE_CHECKING:
    from tabletop.agents.seat import Seat

_ = Domain("tabletop")
# The words play understands besides actions: each in English and in the language spoken.
WORDS: dict[str, Msg] = {
    "help": _("help"),
    "hint": _("hint"),
    "undo": _("undo"),
    "save": _("save"),
    "rules": _("rules"),
    "resign": _("resign"),
    # "draw" is the analysis's short word for a drawn game: the typed word is its own msgid
    "draw": _("draw (the typed word that offers a draw)"),
    "quit": _("quit"),
    "exit": _("exit"),
}
COMMANDS = "help, hint, undo, save [FILE], rules, resign, draw, quit"


def typed(key: str) -> str:
    """The word typed for command ``key`` in the language spoken (English: ``key``)."""
    said = translate(WORDS[key])
    return key if said == WORDS[key] else said


def commands() -> str:
    """``help, hint, undo, save [FILE], rules, resign, draw, quit`` in the language spoken."""
    keys = ("help", "hint", "undo", "save", "rules", "resign", "draw", "quit")
    return translate(
        _(
            "{help}, {hint}, {undo}, {save} [FILE], {rules}, {resign}, {draw}, {quit}",
            **{key: typed(key) for key in keys},
        )
    )


def verb_of(word: str) -> str:
    """The English command a typed word names (``nápověda`` -> ``help``), else the word."""
    lowered = word.lower()
    for key in WORDS:
        if lowered in (key, typed(key).lower()):
            return key
    return lowered


CLOCK_WARNINGS = (30, 10, 5)


class Timeout(Exception):
    """The move clock ran out."""


class LineReader:
    """Reads lines from the user, optionally with a deadline (the move clock).

    ``read`` (default :func:`terminal_reader`) runs on a helper thread so the main thread
    can give up on time; ``None`` means end of input.
    """

    def __init__(self, read: Callable[[str], str] | None = None) -> None:
        self._read = read or terminal_reader()
        self._requests: queue.Queue[str] = queue.Queue()
        self._answers: queue.Queue[str | TabletopError | None] = queue.Queue()
        self._thread: threading.Thread | None = None

    def _serve(self) -> None:
        while True:
            prompt = self._requests.get()
            try:
                self._answers.put(self._read(prompt))
            except EOFError:
                self._answers.put(None)
                return
            except TabletopError as exc:  # handed to the main thread, raised there
                self._answers.put(exc)
                return

    def line(
        self,
        prompt: str,
        deadline: float | None = None,
        warn: Callable[[float], None] | None = None,
    ) -> str | None:
        """The next line; raises Timeout once ``deadline`` (monotonic) has passed."""
        if deadline is None and self._thread is None:
            try:
                return self._read(prompt)
            except EOFError:
                return None
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, daemon=True)
            self._thread.start()
        self._requests.put(prompt)
        warned = set()
        while True:
            wait = 1.0 if deadline is None else min(1.0, deadline - time.monotonic())
            if wait <= 0:
                raise Timeout
            try:
                answer = self._answers.get(timeout=wait)
            except queue.Empty:
                if deadline is not None and warn is not None:
                    left = deadline - time.monotonic()
                    for mark in CLOCK_WARNINGS:
                        if left <= mark and mark not in warned:
                            warned.add(mark)
                            warn(left)
                continue
            if isinstance(answer, TabletopError):
                raise answer
            return answer


@dataclass
class Session:
    """One interactive game: the match, who plays which seat, where it is saved.

    The table's rules (computer replies, undo and its refusals, the move clock, autosave)
    are the :class:`~tabletop.core.table.Table`'s; the session reads lines, prints, and
    drives ``table``.
    """

    match: Match
    seats: dict[int, Seat]
    console: Console
    reader: LineReader
    save_path: Path | None = None
    move_time: float | None = None
    seat_of: dict[int, int] = field(default_factory=dict)
    shown_to: int | None = field(default=None, init=False)
    later: list[str] = field(default_factory=list, init=False)  # news for the next player
    table: Table = field(init=False)

    def __post_init__(self) -> None:
        self.table = Table(self.match, self.seats, self.move_time, self.changed, names=self.name)

    def name(self, player: int) -> str:
        """How a player is called: ``player 2``, or ``player 2 (seat 3)`` in a series."""
        seat = self.seat_of.get(player, player)
        if seat == player:
            return player_name(player)
        return _("player {n} (seat {seat})", n=player, seat=seat)

    def say(self, message: str) -> None:
        """Print ``message`` in the language spoken (rich markup in it is read as markup)."""
        self.console.print(translate(message))

    # -- saving ----------------------------------------------------------------------
    def seat_names(self) -> dict[str, str]:
        return {str(number): seat.level for number, seat in self.seats.items()}

    def told(self, index: int) -> bool:
        """Whether action ``index``'s text may be shown at this screen: to every person
        playing here (a spectator's share when only computers play)."""
        viewers: list[int | None] = list(self.table.persons()) or [None]
        return all(told(self.match, index, viewer) for viewer in viewers)

    def joint(self, index: int) -> bool:
        """Whether action ``index`` was one of several choices made at once."""
        groups = self.match.groups
        return groups[index] != index or (index + 1 < len(groups) and groups[index + 1] == index)

    def autosave(self) -> None:
        if self.save_path is not None:
            records.save(self.match.record(self.seat_names(), self.move_time), self.save_path)

    def changed(self, change: Change) -> None:
        """The table's autosave: say what a computer seat played, what chance drew and
        the choices made at once once they are shown, then save the game."""
        if change.kind == "sealed" and change.player in self.seats:
            name = translate(self.name(change.player))
            self.news(_("{player} (computer) has chosen", player=name))
        index = change.number - 1
        said = escape(change.text)
        if change.kind == "action" and not self.told(index):  # e.g. a false claim's card (N4.4)
            said = escape(translate(unseen(self.match, index)))
        elif change.kind == "action":  # the action in the reader's words
            said = escape(translate(spoken(self.match, index)))
        if change.kind == "action" and change.player == CHANCE:
            self.news(_("chance: [bold]{action}[/]", action=said))
        elif change.kind == "action" and change.player not in self.seats and self.joint(index):
            name = translate(self.name(change.player or 0))
            self.news(_("{player}: [bold]{action}[/]", player=name, action=said))
        if change.kind == "action" and change.player in self.seats:
            level = self.seats[change.player].level
            name = translate(self.name(change.player))
            self.news(
                _(
                    "{player} (computer, {level}): [bold]{action}[/]",
                    player=name,
                    level=level,
                    action=said,
                )
            )
        self.autosave()

    # -- drawing -----------------------------------------------------------------------
    def hiding(self) -> bool:
        """Hot-seat where the screen must be cleared between people: hidden information,
        or choices made at once (a sealed step), and two people or more here."""
        game, match = self.match.game, self.match
        sealed = isinstance(game.to_act(match.state), frozenset) or any(
            group != index for index, group in enumerate(match.groups)  # a joint step so far
        )
        return (game.info.hidden_information or sealed) and len(self.table.persons()) >= 2

    def news(self, message: str) -> None:
        """Say what happened; while the screen is cleared between people, to the next one
        after the pass (else the clear would wipe it before anyone read it)."""
        if self.hiding():
            self.later.append(message)
        else:
            self.say(message)

    def flush(self) -> None:
        """Say the news kept for the person now at the screen."""
        for message in self.later:
            self.say(message)
        self.later.clear()

    def hide_between_turns(self, player: int) -> None:
        """Hot-seat with hidden information or a sealed step: clear the screen and its
        scrollback, wait for the next player, then tell them what happened since."""
        self.pass_screen(player)
        self.flush()

    def pass_screen(self, player: int) -> bool:
        """Where the screen hides things between people and ``player`` is not at it: clear
        it and its scrollback, and wait for ``player`` to press Enter (True when it did)."""
        if not self.hiding() or self.shown_to == player:
            return False
        self.console.clear()
        if self.console.is_terminal:  # the scrollback too: nothing of the last entry stays
            self.console.file.write("\x1b[3J")
        self.reader.line(
            translate(_("Pass to {player} and press Enter", player=self.name(player))) + " "
        )
        self.console.clear()
        self.shown_to = player
        return True

    def draw(self, player: int | None) -> None:
        game, state = self.match.game, self.match.state
        self.console.print(presentation_of(game).render(game.view(state, player), player))

    # -- the loop ----------------------------------------------------------------------
    def run(self) -> bool:
        """Play until the game ends (True) or the user quits or input ends (False)."""
        game = self.match.game
        self.console.print(
            f"[bold]{escape(game.info.name)}[/] — "
            + translate(_("type an action, or {commands}", commands=commands()))
        )
        while True:
            outcome = self.match.outcome()
            if outcome is not None:
                self.flush()
                self.draw(None)
                self.announce()
                self.autosave()
                return True
            player = self.match.player()
            assert player is not None
            if self.table.computer_to_act() is not None:
                self.table.advance()
                continue
            self.hide_between_turns(player)
            self.draw(player)
            if not self.human_turn(player):
                return False

    def announce(self) -> None:
        outcome = self.match.outcome()
        assert outcome is not None
        reason = escape(translate(outcome.reason))
        if outcome.winners:
            names = and_list(translate(self.name(w)) for w in outcome.winners)
            won = translate(_("Game over: {players} won.", players=names))
            self.console.print(f"[bold green]{won}[/] {reason}")
        else:
            draw = translate(_("Game over: a draw."))
            self.console.print(f"[bold]{draw}[/] {reason}")
        scores = self.match.game.scores(self.match.state)
        if scores:
            table = ", ".join(f"{translate(self.name(p))}: {v}" for p, v in sorted(scores.items()))
            self.say(_("Scores: {scores}", scores=table))

    def human_turn(self, player: int) -> bool:
        """Read words until an action is played; False when the user quits or input ends.
        The move clock starts when the player is first asked."""
        match, table = self.match, self.table
        table.start_clock()
        while True:
            left = table.time_left()
            clock = "" if left is None else " [" + self.seconds(left) + "]"
            name = translate(self.name(player))
            prompt = f"{name}{clock} — {translate(match.game.prompt(match.state))} › "
            try:
                line = self.reader.line(prompt, table.deadline, self.clock_warning)
            except Timeout:
                out = translate(_("{player} ran out of time.", player=name))
                self.console.print(f"[bold red]{out}[/]")
                table.expire()
                return True
            if line is None:
                self.say(_("input ended; {note}", note=self.saved_note()))
                return False
            word = line.strip()
            if not word:
                continue
            verb = verb_of(word.split()[0])
            if verb == "draw" and " " in word:  # an action of a game: Čtverák's "draw 2"
                verb = ""
            if verb in ("quit", "exit"):
                self.autosave()
                self.say(_("bye; {note}", note=self.saved_note()))
                return False
            if verb == "help":
                legal = escape(", ".join(match.listing_text()))
                self.say(_("legal: {actions}", actions=legal))
                self.say(_("also: {commands}", commands=commands()))
            elif verb == "hint":
                self.console.print(escape(self.hint(player)))
            elif verb == "rules":
                from rich.markdown import Markdown

                self.console.print(Markdown(presentation_of(match.game).rules_text()))
            elif verb == "resign" or verb == "draw":
                if (concede.resign if verb == "resign" else concede.offer_draw)(self, player):
                    return True
            elif verb == "undo":
                self.undo(player)
                return True
            elif verb == "save":
                self.save_as(word.split()[1:])
            else:
                try:
                    table.play(player, word)
                except ActionError as exc:
                    self.console.print(f"[red]{escape(translate(exc.reason))}[/]")
                    continue
                return True

    def seconds(self, left: float) -> str:
        """``12 s`` in the language spoken (its digits through Babel)."""
        return translate(_("{seconds} s", seconds=formats.number(left)))

    def hint(self, player: int) -> str:
        """``hint``: the game's own one-line advice, then the coach's judgement of every
        legal action (:mod:`tabletop.coach`, about 2 s), both from ``player``'s view only."""
        from tabletop.coach.choose import hint_for

        match = self.match
        text, _assessment = hint_for(
            match.game, match.state, match.players, match.options, player
        )
        return translate(text)

    def clock_warning(self, left: float) -> None:
        said = translate(_("{time} left", time=self.seconds(left)))
        self.console.print(f"\n[yellow]⏱ {said}[/]")

    def undo(self, player: int) -> None:
        """``undo``: the table's plan, said before it is carried out (and saved). At one
        terminal everyone shares the keyboard: with perfect information the undo is the
        last person's (hot seat); with hidden information only the one to act may take back
        their own action, since the others have passed the screen on."""
        if not self.match.game.info.hidden_information:
            player = self.table.last_person() or player
        plan = self.table.undo_plan(player)
        if plan.refusal == NOTHING_TO_UNDO:
            self.say(NOTHING_TO_UNDO)
        elif plan.refusal:
            said = translate(_("cannot undo: {reason}", reason=escape(translate(plan.refusal))))
            self.console.print(f"[red]{said}[/]")
        else:
            # English keeps its one form; the catalogues give each language its plural forms
            self.say(_.plural("took back {n} action(s)", "took back {n} action(s)", plan.count))
            self.table.undo(player)

    def save_as(self, words: list[str]) -> None:
        """``save [FILE]``: the save path changes only once the game was saved there."""
        path = Path(words[0]) if words else self.save_path
        if path is None:
            self.say(_("say where: save FILE"))
            return
        try:
            records.save(self.match.record(self.seat_names(), self.move_time), path)
        except RecordError as exc:
            self.console.print(f"[red]{escape(translate(message_of(exc)))}[/]")
            return
        self.save_path = path
        self.say(_("saved to {path}", path=escape(str(path))))

    def saved_note(self) -> str:
        if self.save_path is None:
            return _("the game was not saved (use --save FILE)")
        return _("the game is saved in {path}; resume with --load {path}", path=self.save_path)
