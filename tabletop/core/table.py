"""A table without a terminal: a match, the computer seats, undo, the move clock, autosave.

Every front end (the terminal's ``tabletop play``, the web server) drives a :class:`Table`
and draws what it says; nothing here prints. Refusals come back as data or as
:class:`~tabletop.core.errors.TabletopError` subclasses carrying the one-line reason.

- ``advance()`` plays every computer seat until a person is to act (``choose`` + ``push``
  split it for front ends that think on another thread).
- ``play(player, text)`` is a person's action through the checked path (``Match.play``).
- ``undo_plan(requester)`` says how many actions an undo takes back or why it may not:
  with hidden information only the requester's own last action, before anyone else acts
  and only if it showed them nothing hidden; with perfect information the computer's
  replies and the last person's action.
- ``deadline`` is the move clock as data: the monotonic time by which the person to act
  must have acted (None without a clock); ``expire()`` ends the game on time.
  ``start_clock()`` restarts it for a front end that shows the position later.
- ``autosave(change)`` is called after every change (action, undo, forfeit).

Computer seats are whatever the caller passes with a ``move(match)`` method (the
agents' ``Seat``); the table imports nothing above ``tabletop.core``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from tabletop.core.endings import NO_DRAWS, draws
from tabletop.core.errors import ActionError, TabletopError
from tabletop.core.i18n.text import Domain, Msg
from tabletop.core.listing import OVER
from tabletop.core.match import Match, player_name
from tabletop.core.records import Forfeit
from tabletop.core.shapes import CHANCE, Actor
from tabletop.core.telling import HIDDEN_ACTION as HIDDEN_ACTION
from tabletop.core.telling import reveals
from tabletop.core.telling import shown_text as shown_text
from tabletop.core.telling import spoken as spoken
from tabletop.core.telling import told as told
from tabletop.core.telling import unseen as unseen

_ = Domain("tabletop")

NOTHING_TO_UNDO = _("nothing to undo")


class Computer(Protocol):
    """A computer seat: its action for ``player`` (default: the player to act) in
    ``match`` (reads only; at a simultaneous step from the state before it, never seeing
    the others' sealed choices)."""

    def move(self, match: Match, player: int | None = None) -> Any: ...


class Seat(Protocol):
    """A computer player at the table, as the core sees it (the agents' ``Seat`` is one):
    the core never imports the agents, whoever sits down brings its own."""

    def move(self, match: Match, player: int | None = None) -> Any:
        """Its action for ``player`` (default: the player to act) in ``match``."""


class UndoRefused(TabletopError):
    """An undo that the table does not allow; the message says why."""


class TableRefused(TabletopError):
    """A resignation or a draw offer or answer that the table does not allow; the
    message says why (nothing changed)."""


@dataclass(frozen=True)
class Change:
    """What changed at the table: ``number`` is the count of actions after the change."""

    kind: Literal[
        "action",
        "sealed",
        "undo",
        "forfeit",
        "resigned",
        "draw-offer",
        "draw-declined",
        "agreed-draw",
    ]
    number: int
    player: int | None = None
    text: str = ""


@dataclass
class DrawOffer:
    """A draw offered by ``offerer`` when ``number`` actions were made; ``accepted`` are
    the persons who said yes (the offerer among them)."""

    offerer: int
    number: int
    accepted: set[int]


@dataclass(frozen=True)
class UndoPlan:
    """An undo asked by ``requester``: ``count`` actions taken back, or ``refusal``."""

    requester: int
    count: int
    refusal: str = ""
    sealed: bool = False  # the requester's sealed choice, not yet applied


class Table:
    """A match with its computer seats, move clock and autosave.

    ``computers`` maps player numbers to computer seats; every other player is a person.
    ``move_time`` (seconds) gives each person that long for each action; ``clock`` is the
    monotonic clock (replaceable in tests); ``names`` says how refusals call a player
    (default ``player N``).
    """

    def __init__(
        self,
        match: Match,
        computers: Mapping[int, Computer] | None = None,
        move_time: float | None = None,
        autosave: Callable[[Change], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        names: Callable[[int], str] | None = None,
    ) -> None:
        self.match = match
        self.computers = dict(computers or {})
        self.move_time = move_time
        self.autosave = autosave
        self.clock = clock
        self.names = names
        self.deadline: float | None = None
        self.offer: DrawOffer | None = None  # a draw offered and not yet answered
        self.declined: tuple[int, int] | None = None  # (offerer, number) of the last declined
        self.start_clock()

    # -- reading ---------------------------------------------------------------------
    def name(self, player: int) -> str:
        return self.names(player) if self.names is not None else player_name(player)

    def persons(self) -> list[int]:
        """The players who are people (not computer seats)."""
        return [p for p in range(1, self.match.players + 1) if p not in self.computers]

    def to_act(self) -> Actor:
        return self.match.to_act()

    def computer_to_act(self) -> int | None:
        """The player to act when that is a computer seat (at a simultaneous step the
        first computer seat still to choose), else None."""
        for player in self.match.choosers():
            if player in self.computers:
                return player
        return None

    def time_left(self) -> float | None:
        """Seconds the person to act has left (None without a running clock)."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - self.clock())

    # -- acting ----------------------------------------------------------------------
    def play(self, player: int | None, text: str) -> str:
        """A person's action: ``player`` must be the one to act, or one still to choose
        at a simultaneous step (None: whoever is first). Returns the canonical notation
        (a sealed choice's is told to nobody else until its step is applied);
        ActionError (nothing changed) if refused."""
        match = self.match
        choosers = match.choosers()
        number = len(match.actions) + len(match.sealed) + 1
        if player is not None and choosers and player not in choosers:
            if isinstance(match.to_act(), frozenset):
                match.chooser(player, text)  # says why: chosen already, or not choosing
            raise ActionError(
                number, text, _("it is {player}'s turn, not yours", player=self.name(choosers[0]))
            )
        who = player if player is not None else (choosers[0] if choosers else None)
        if who is not None and who in self.computers:
            raise ActionError(
                number, text, _("{player} is a computer player", player=self.name(who))
            )
        return self._entered(who, lambda: match.play(text, who))

    def choose(self) -> Any:
        """The computer seat's action for the player it is to act for
        (:meth:`computer_to_act`), from what that seat may see (reads the match, changes
        nothing: safe to run on another thread while the table is left alone)."""
        player = self.computer_to_act()
        assert player is not None, "no computer seat is to act"
        return self.computers[player].move(self.match, player)

    def push(self, action: Any) -> str:
        """Apply a computer seat's chosen action (checked legal) for the seat
        :meth:`computer_to_act` names (else the player to act); returns its notation."""
        player = self.computer_to_act()
        return self._entered(player, lambda: self.match.push(action, player))

    def _entered(self, player: int | None, enter: Callable[[], Any]) -> str:
        """Enter an action and tell autosave each change: a sealed choice, or every
        action applied (a joint action's each, the chance outcomes drawn after)."""
        match = self.match
        before = len(match.actions)
        enter()
        if len(match.actions) == before:
            self._changed(Change("sealed", before, player))
            return match.sealed[player][1] if player in match.sealed else ""
        entered = range(before, len(match.actions))
        for index in entered:
            self._changed(Change("action", index + 1, match.actors[index], match.texts[index]))
        own = [index for index in entered if match.actors[index] == player]  # of a joint step
        return match.texts[own[0] if own else before]

    def advance(self) -> list[tuple[int, str]]:
        """Play the computer seats until a person is to act or the game ends."""
        played = []
        while (player := self.computer_to_act()) is not None:
            played.append((player, self.push(self.choose())))
        return played

    def expire(self) -> bool:
        """End the game if the person to act (at a simultaneous step: the first person
        still to choose) ran out of time; True when it did."""
        persons = [p for p in self.match.choosers() if p not in self.computers]
        if self.deadline is None or not persons or self.clock() < self.deadline:
            return False
        self.match.lose_on_time(persons[0])
        self._changed(Change("forfeit", len(self.match.actions), persons[0]))
        return True

    # -- resigning and draws ---------------------------------------------------------
    def resign(self, player: int) -> None:
        """``player`` (a person, at any moment of a game not over) gives up: the others
        win (kind "resigned"); TableRefused says why not. Undo cannot take it back."""
        self._person(player, lambda why: _("cannot resign: {reason}", reason=why))
        self.offer = None
        self.match.end(Forfeit(player=player, reason="resigned"))
        self._changed(Change("resigned", len(self.match.actions), player))

    def offer_draw(self, player: int) -> bool:
        """``player`` offers a draw; True when it stands, waiting for every other person's
        answer. Computer seats always decline (they have no judgement of a draw to
        give, and a person who wants to stop can resign): with one at the table the
        offer is declined at once (False). TableRefused (nothing changed) in a game with
        no draws, while an offer waits, or when ``player``'s last offer was declined
        and nobody has acted since."""
        match = self._person(player, offering)
        if not draws(match.game):
            raise TableRefused(offering(NO_DRAWS))
        if self.offer is not None:
            waiting = (
                _("your offer waits for an answer")
                if self.offer.offerer == player
                else _(
                    "{player} has offered a draw; accept or decline it first",
                    player=self.name(self.offer.offerer),
                )
            )
            raise TableRefused(offering(waiting))
        number = len(match.actions)
        if self.declined == (player, number):
            said = _("your offer was declined; offer again after the next action")
            raise TableRefused(offering(said))
        if len(self.persons()) < match.players:
            self.declined = (player, number)
            self._told(Change("draw-declined", number, min(self.computers)))
            return False
        self.offer = DrawOffer(player, number, {player})
        self._told(Change("draw-offer", number, player))
        return True

    def answer_draw(self, player: int, accept: bool) -> bool:
        """A person's answer to the draw offered: a no ends the offer; once every person
        said yes the game ends drawn (kind "agreed-draw"). True when the game ended."""
        self._person(player, answering)
        offer, number = self.offer, len(self.match.actions)
        if offer is None:
            raise TableRefused(answering(_("no draw is offered")))
        if player == offer.offerer:
            raise TableRefused(answering(_("you offered the draw yourself")))
        if not accept:
            self.offer, self.declined = None, (offer.offerer, number)
            self._told(Change("draw-declined", number, player))
            return False
        offer.accepted.add(player)
        if set(self.persons()) - offer.accepted:
            return False
        self.offer = None
        self.match.end(Forfeit(player=offer.offerer, reason="agreed-draw"))
        self._changed(Change("agreed-draw", number, offer.offerer))
        return True

    def _person(self, player: int, refused: Callable[[str], str]) -> Match:
        """The match, if ``player`` is a person at a table whose game is not over."""
        if self.match.outcome() is not None:
            raise TableRefused(refused(OVER))
        if not 1 <= player <= self.match.players or player in self.computers:
            said = _("{player} is not a person at this table", player=self.name(player))
            raise TableRefused(refused(said))
        return self.match

    # -- undo ------------------------------------------------------------------------
    def undo_plan(self, requester: int) -> UndoPlan:
        """How many actions an undo asked by ``requester`` takes back, or why it may not.

        Perfect information: the computer seats' replies and then the last person's
        action, when that person is the requester (or the only person). Hidden
        information: only the requester's own last action, and only while nobody else
        has acted since (a misclick fixed within one's own turn) and it showed
        the requester nothing hidden; another player's or a computer's action is never
        taken back there, since the requester has seen its result.
        """
        match = self.match
        if match.outcome() is not None:
            return UndoPlan(requester, 0, OVER)
        if requester in match.sealed:  # a sealed choice not yet applied: told to nobody
            return UndoPlan(requester, 1, sealed=True)
        if not match.actions:
            return UndoPlan(requester, 0, NOTHING_TO_UNDO)
        if match.game.info.hidden_information:
            return self._own_undo(requester)
        keep = len(match.actions)
        while keep and match.actors[keep - 1] in self.computers:
            keep -= 1
        if not keep:
            return UndoPlan(requester, 0, NOTHING_TO_UNDO)
        stands = self._stands(keep - 1, requester)
        if stands:
            return UndoPlan(requester, 0, stands)
        actor = match.actors[keep - 1]
        if actor != requester and len(self.persons()) > 1:  # 'your last action' (docs/web.md)
            return UndoPlan(requester, 0, self._not_yours(actor))
        count = len({match.groups[i] for i in range(keep - 1, len(match.actions))})
        return UndoPlan(requester, count)

    def _stands(self, index: int, requester: int) -> str:
        """Why the actions from ``index`` on cannot be taken back, or "": a chance
        outcome or a joint action among them is never taken back (it may have shown
        someone what it was). A chance outcome is named as ``requester`` was told it."""
        match = self.match
        for at in range(index, len(match.actions)):
            if match.actors[at] == CHANCE:
                return _(
                    "chance acted after it ({action}); it stands",
                    action=shown_text(match, at, requester),
                )
            if match.groups[at] != at or (
                at + 1 < len(match.actions) and match.groups[at + 1] == at
            ):
                return _("the choices made at once were shown together; they stand")
        return ""

    def _not_yours(self, actor: int) -> str:
        return _(
            "the last action was {player}'s; you can only take back your own",
            player=self.name(actor),
        )

    def last_person(self) -> int | None:
        """The person who made the last action that was not a computer seat's."""
        match = self.match
        for index in range(len(match.actions) - 1, -1, -1):
            actor = match.actors[index]
            if actor != CHANCE and actor not in self.computers:
                return actor
        return None

    def _own_undo(self, requester: int) -> UndoPlan:
        """The hidden-information undo: the requester's own last action, if it revealed
        nothing and nobody acted after it."""
        match = self.match
        index = len(match.actions) - 1
        actor = match.actors[index]
        if actor != requester:
            stands = self._stands(index, requester)
            return UndoPlan(requester, 0, stands or self._not_yours(actor))
        stands = self._stands(index, requester)
        if stands:
            return UndoPlan(requester, 0, stands)
        if reveals(match, index, requester):
            shown = _(
                "{action} showed you something hidden; it stands", action=repr(match.texts[index])
            )
            return UndoPlan(requester, 0, shown)
        return UndoPlan(requester, 1)

    def undo(self, requester: int) -> int:
        """Carry out ``undo_plan(requester)``; UndoRefused says why not. Returns the count."""
        plan = self.undo_plan(requester)
        if plan.refusal:
            raise UndoRefused(_("cannot undo: {reason}", reason=plan.refusal))
        if plan.sealed:
            del self.match.sealed[requester]
        for _step in range(0 if plan.sealed else plan.count):
            self.match.undo()
        self._changed(Change("undo", len(self.match.actions), requester))
        return plan.count

    # -- clock and autosave -------------------------------------------------------------------
    def _changed(self, change: Change) -> None:
        """A change of the position or the end: a draw offer lapses when anyone but its
        offerer acts (chance aside), at an undo and at the end; the clock restarts."""
        offer, over = self.offer, self.match.outcome() is not None
        if offer is not None and (
            over or change.kind == "undo" or change.player not in (offer.offerer, CHANCE)
        ):
            self.offer = None
        self.start_clock()
        self._told(change)

    def _told(self, change: Change) -> None:
        """Tell autosave (a pending draw offer leaves the clock running)."""
        if self.autosave is not None:
            self.autosave(change)

    def start_clock(self) -> None:
        """A fresh ``move_time`` for the person now to act (none for a computer seat);
        done after every change, and by a front end when it first asks that person."""
        player = self.match.to_act()
        if self.move_time and player is not None and player not in self.computers:
            self.deadline = self.clock() + self.move_time
        else:
            self.deadline = None


def offering(reason: str) -> Msg:
    return _("cannot offer a draw: {reason}", reason=reason)


def answering(reason: str) -> Msg:
    return _("cannot answer the draw offer: {reason}", reason=reason)
