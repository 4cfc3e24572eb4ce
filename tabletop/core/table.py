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

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from tabletop.core.errors import ActionError, TabletopError
from tabletop.core.i18n.text import Domain, Msg
from tabletop.core.match import OVER, Match, player_name
from tabletop.core.presentation import presentation_of
from tabletop.core.shapes import CHANCE, Actor

_ = Domain("tabletop")

SAMPLES = 4
HIDDEN_ACTION = _("a hidden action")
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


@dataclass(frozen=True)
class Change:
    """What changed at the table: ``number`` is the count of actions after the change."""

    kind: Literal["action", "sealed", "undo", "forfeit"]
    number: int
    player: int | None = None
    text: str = ""


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
        self.start_clock()
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


def reveals(match: Match, index: int, player: int) -> bool:
    """Whether action ``index`` showed ``player`` something they could not know before.

    Generic test: apply the action to a few states sampled from the player's view before
    it; if the player's view afterwards differs between them, it depended on hidden parts.
    """
    game = match.game
    before, action = match.states[index], match.actions[index]
    if match.groups[index] != index or match.actors[index] == CHANCE:
        return True  # a joint action or a chance outcome: never taken back in any case
    view = game.view(before, player)
    seen = game.view(match.states[index + 1], player)
    rng = random.Random(index)
    for _ in range(SAMPLES):
        try:
            sample = game.sample(view, player, match.players, match.options, rng)
            if game.view(game.apply(sample, action), player) != seen:
                return True
        except Exception:  # a game that cannot sample: be safe, count it as revealing
            return True
    return False


def told(match: Match, index: int, viewer: int | None, now: int | None = None) -> bool:
    """Whether ``viewer`` may be told the text of action ``index`` (e.g. as 'the last
    action of player 2', or in the game log): always for perfect information and for the
    actor; otherwise when the text follows from what ``viewer`` saw before and after it,
    or names nothing ``viewer`` does not know.

    Generic test, in a few states sampled from the viewer's view before the action: the
    text follows when no other action text leads to the viewer's view after it (a meld, a
    discard, a placement); it names nothing hidden when it is a legal action's text in
    every sample (``end``, ``draw stock``). A false claim naming a card of a hidden stand
    is neither (any other false claim would look the same, and the card is not in every
    sample), so it is not told; since a card can land in the actor's hand in every
    sample late in a game, a game says so for sure with :meth:`Game.hides`, asked first.
    A spectator (``viewer`` None) sees less than every player: the states are sampled
    from each other player's view in turn and compared by what a spectator sees.
    ``now``: as it was told once ``now`` actions had been played (a replay), else today.
    """
    game = match.game
    before = match.states[index]
    actor = match.actors[index]
    reached = match.state if now is None else match.states[now]
    said = game.tells(before, match.actions[index], actor, viewer, reached)
    if said is not None:
        return said
    if not game.info.hidden_information or viewer == actor:
        return True
    if actor == CHANCE or isinstance(game.to_act(before), frozenset):
        return False  # a card drawn, a sealed choice: the game says when it is shown
    if game.hides(before, match.actions[index]):
        return False
    if viewer is None:
        others = [p for p in range(1, match.players + 1) if p != actor]
        return bool(others) and all(_sampled_told(match, index, p, None) for p in others)
    return _sampled_told(match, index, viewer, viewer)


def unseen(match: Match, index: int) -> str | Msg:
    """What is said of action ``index`` to whoever is not told its text: the game's own
    sentence (its render module's ``unseen_text(state, action)``: "player 2 drew a
    card"), else "a hidden action"."""
    state, action = match.states[index], match.actions[index]
    said = presentation_of(match.game).unseen_text(state, action)
    return HIDDEN_ACTION if said is None else said


def shown_text(
    match: Match, index: int, viewer: int | None, now: int | None = None
) -> str | Msg:
    """What ``viewer`` (None: a spectator) reads of action ``index``: its text when told
    (:func:`told`, as of ``now`` actions played when given), else :func:`unseen`."""
    return match.texts[index] if told(match, index, viewer, now) else unseen(match, index)


def _sampled_told(match: Match, index: int, sampler: int, viewer: int | None) -> bool:
    """The test of :func:`told` on states sampled from ``sampler``'s view before action
    ``index``, comparing what ``viewer`` sees after it."""
    game = match.game
    text = match.texts[index]
    view = game.view(match.states[index], sampler)
    after = game.view(match.states[index + 1], viewer)
    rng = random.Random(index)
    follows = public = True
    for _ in range(SAMPLES):
        try:
            sample = game.sample(view, sampler, match.players, match.options, rng)
            texts = [(game.format(sample, a), a) for a in game.legal(sample)]
            public = public and any(t == text for t, _ in texts)
            if follows:
                follows = not any(
                    t != text and game.view(game.apply(sample, a), viewer) == after
                    for t, a in texts
                )
        except Exception:  # a game that cannot sample: be safe, tell nothing
            return False
        if not (follows or public):
            return False
    return True
