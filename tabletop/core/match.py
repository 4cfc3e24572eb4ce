"""The one stateful object: a game in progress with its history, undo and checked play.

The match owns chance and simultaneous steps. At a chance step (``to_act`` is
:data:`~tabletop.game.CHANCE`) it draws an outcome from the game's probabilities with a
generator seeded by the match's seed and the step's number, and records it as an action
like any other, so a record replays exactly and a scenario can state the outcome. At a
simultaneous step it collects each acting player's sealed choice (``sealed``, never in
the state or the texts until the last one is in) and then applies them together.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from tabletop.core import options as opts
from tabletop.core import record_checks as checks
from tabletop.core.configured import Configured
from tabletop.core.endings import ended
from tabletop.core.errors import ActionError, NotationError, OptionError, PositionError
from tabletop.core.i18n.text import Domain, Msg, and_joined, message_of
from tabletop.core.legacy import SeededChance, seeded_chance_of
from tabletop.core.listing import OVER, allowed, typed_words
from tabletop.core.numbers import cut, parse_int
from tabletop.core.records import Forfeit, Record
from tabletop.core.shapes import chance_rng
from tabletop.core.shapes import draw as draw  # re-exported for tests and benches
from tabletop.game import CHANCE, JSON, Actor, Game, Outcome, has_shapes, player_of

_ = Domain("tabletop")


class Match:
    """A game being played: states after every action, the actions, and their text.

    ``play`` is the checked path (parse, legality, apply). A refused action raises
    :class:`ActionError` and leaves the match exactly as it was.

    ``actors[i]`` took action ``i`` (a player, or CHANCE); the actions of one joint
    action of a simultaneous step are entered together in player order, the states
    between them being the state before it (``groups[i]`` is the index of the first).
    With ``draw_chance`` False the match draws nothing: each chance outcome is played
    like an action (records and scenarios state them). With ``seeded`` (a game's
    ``seeded_chance``, :mod:`tabletop.core.legacy`) the match draws as the game did
    before it declared chance steps.
    """

    def __init__(
        self,
        game: Game[Any, Any],
        players: int,
        options: BaseModel,
        seed: int,
        start: JSON | None = None,
        draw_chance: bool = True,
        seeded: SeededChance | None = None,
    ) -> None:
        self.game = game
        self.players = players
        self.options = options
        self.seed = seed
        self.start = start
        first = (
            game.new(players, options, seed)
            if start is None
            else game.from_json(start, players, options, seed)
        )
        self.states: list[Any] = [first]
        self.actions: list[Any] = []
        self.texts: list[str] = []
        self._actors: list[int] = []
        self._groups: list[int] = []
        self.sealed: dict[int, tuple[Any, str]] = {}
        self.forfeit: Forfeit | None = None
        self.draw_chance = draw_chance
        self.seeded = seeded  # a record made before chance steps: the game's own draws
        self.shaped = has_shapes(game)  # else the turn-by-turn fast paths
        self.settle()

    @classmethod
    def of(
        cls, table: Configured[Any, Any], seed: int, start: JSON | None = None,
        draw_chance: bool = True, seeded: SeededChance | None = None,
    ) -> Match:  # fmt: skip
        """A match of a configured game (:class:`~tabletop.core.configured.Configured`)."""
        return cls(table.game, table.players, table.options, seed, start, draw_chance, seeded)

    @property
    def configured(self) -> Configured[Any, Any]:
        """This match's game, player count and options."""
        return Configured(self.game, self.players, self.options)

    # -- reading ---------------------------------------------------------------------
    @property
    def actors(self) -> list[int]:
        """Who took each action: a player, or CHANCE (kept as the match goes for a game
        with chance or simultaneous steps; else read off the states when first asked)."""
        known = self._actors
        if len(known) < len(self.actions):
            to_act, states = self.game.to_act, self.states
            for i in range(len(known), len(self.actions)):
                known.append(player_of(to_act(states[i])) or 0)
        return known

    @property
    def groups(self) -> list[int]:
        """For each action, the index of the first action applied with it (itself, but
        for the choices of one simultaneous step)."""
        known = self._groups
        if len(known) < len(self.actions):
            known.extend(range(len(known), len(self.actions)))
        return known

    @property
    def state(self) -> Any:
        """The current state."""
        return self.states[-1]

    def to_act(self) -> Actor:
        """Who is to act: a player; at a simultaneous step the set of players whose
        sealed choice is still missing; CHANCE only while chance is not drawn
        (``draw_chance`` False); None when the game is over."""
        if self.forfeit is not None:
            return None
        actor = self.game.to_act(self.state)
        if isinstance(actor, frozenset) and self.sealed:
            return actor.difference(self.sealed)
        return actor

    def player(self) -> int | None:
        """The player whose action is awaited (at a simultaneous step the first still to
        choose); None at chance or once the game is over."""
        choosers = self.choosers()
        return choosers[0] if choosers else None

    def choosers(self) -> list[int]:
        """The players whose action is awaited now, in player order (one at an ordinary
        turn, several at a simultaneous step, none at chance or once the game is over)."""
        actor = self.to_act()
        if isinstance(actor, frozenset):
            return sorted(actor)
        return [] if actor is None or actor == CHANCE else [actor]

    def options_of(self, player: int | None = None) -> Sequence[Any]:
        """The actions ``player`` (default: the first awaited) may take now."""
        choosers = self.choosers()
        if self.forfeit is not None or (not choosers and self.to_act() != CHANCE):
            return ()
        state = self.state
        if isinstance(self.game.to_act(state), frozenset):
            who = choosers[0] if player is None else player
            return self.game.choices(state, who) if who in choosers else ()
        return self.game.legal(state)

    def outcome(self) -> Outcome | None:
        """The outcome, counting an end at the table (on time, resigned, a draw agreed:
        :mod:`tabletop.core.endings`)."""
        if self.forfeit is not None:
            return ended(self.forfeit, self.players)
        return self.game.outcome(self.state)

    def listed(self, player: int | None = None) -> list[Any]:
        """The listed actions of the player to act (at a simultaneous step: of
        ``player``, default the first still to choose); none once the game is over."""
        if self.forfeit is not None:
            return []
        state = self.state
        if isinstance(self.game.to_act(state), frozenset):
            return list(self.options_of(player))
        return list(self.game.listing(state))

    def listing_text(self, player: int | None = None) -> list[str]:
        """:meth:`listed`, in canonical notation."""
        return [self.game.format(self.state, a) for a in self.listed(player)]

    def allowed_hint(self, player: int | None = None) -> str:
        """A short 'what is allowed' for error messages: the legal actions, in listing
        order (the listing may offer an action that would be refused, e.g. a claim)."""
        if self.forfeit is not None:
            return OVER
        state = self.state
        if isinstance(self.game.to_act(state), frozenset):
            return allowed(self.listing_text(player))
        legal = set(self.game.legal(state))
        return allowed([self.game.format(state, a) for a in self.game.listing(state) if a in legal])

    # -- playing ---------------------------------------------------------------------
    def chooser(self, player: int | None, text: str) -> int:
        """Who takes an action now: the player to act (CHANCE at an undrawn chance step);
        at a simultaneous step ``player``, who must still be to choose (None: the first
        still to choose, as a record lists their choices)."""
        number = len(self.actions) + len(self.sealed) + 1
        actor = self.to_act()
        if actor is None:
            raise ActionError(number, text, _("the game is over; no action is allowed"))
        if not isinstance(actor, frozenset):
            return actor
        if player is None:
            return min(actor)
        if player not in actor:
            game_actor = self.game.to_act(self.state)
            said = (
                _("player {n} has chosen already; the others are still choosing", n=player)
                if isinstance(game_actor, frozenset) and player in game_actor
                else _("player {n} does not choose now", n=player)
            )
            raise ActionError(number, text, said)
        return player

    def check(self, text: str, player: int | None = None) -> Any:
        """The action ``text`` names if it may be played now (by ``player`` at a
        simultaneous step); ActionError otherwise."""
        number = len(self.actions) + len(self.sealed) + 1
        outcome = self.outcome()
        if outcome is not None:
            raise ActionError(number, text, _("the game is over; no action is allowed"))
        who = self.chooser(player, text)
        state = self.state
        try:
            action = self.game.parse(state, text)
        except NotationError as exc:
            action = typed_words(self.game, state, self.listed(who), text)
            if action is None:
                raise ActionError(
                    number, text, because(cut(message_of(exc)), self.allowed_hint(who))
                ) from None
        if action not in self.options_of(who):
            reason = cut(self.game.refusal(state, action))
            raise ActionError(number, text, because(reason, self.allowed_hint(who)))
        return action

    def play(self, text: str, player: int | None = None) -> Any:
        """Parse, check and apply one action (``player``'s choice at a simultaneous step,
        sealed until every chooser has chosen); returns the action."""
        action = self.check(text, player)
        self._take(self.chooser(player, text), action)
        return action

    def push(self, action: Any, player: int | None = None) -> None:
        """Apply an action from an agent (``player``'s at a simultaneous step), checked
        against the legal ones first."""
        if not self.shaped:  # turn by turn only: the old fast path (the actor is read later)
            if action not in self.game.legal(self.states[-1]):
                number = len(self.actions) + 1
                raise ActionError(number, repr(action), _("not a legal action now"))
            self._append(0, action, len(self.actions))
            return
        text = repr(action)
        who = self.chooser(player, text)
        if action not in self.options_of(who):
            number = len(self.actions) + len(self.sealed) + 1
            raise ActionError(number, text, _("not a legal action now"))
        self._take(who, action)

    def _take(self, player: int, action: Any) -> None:
        """Enter a legal ``action`` of ``player``: applied at once, or sealed until the
        simultaneous step's last choice, then applied with the others as one joint
        action."""
        state = self.state
        actor = self.game.to_act(state)
        if not isinstance(actor, frozenset):
            self._append(actor if actor is not None else player, action, len(self.actions))
            return
        self.sealed[player] = (action, self.game.format(state, action))
        if self.sealed.keys() != actor:
            return
        order = sorted(actor)
        joint = tuple(self.sealed[p][0] for p in order)
        after = self.game.apply(state, joint)
        first = len(self.actions)
        for p in order:
            chosen, text = self.sealed[p]
            self.states.append(state)
            self.actions.append(chosen)
            self.texts.append(text)
            self._actors.append(p)
            self._groups.append(first)
        self.states[-1] = after
        self.sealed = {}
        self.settle()

    def _append(self, actor: int, action: Any, group: int) -> None:
        """Apply a legal ``action`` and record it with its notation."""
        game, state = self.game, self.states[-1]
        self.texts.append(game.format(state, action))
        self.states.append(game.apply(state, action))
        self.actions.append(action)
        if self.shaped:
            self._actors.append(actor)
            self._groups.append(group)
            if self.draw_chance and game.to_act(self.states[-1]) == CHANCE:
                self.settle()

    def settle(self) -> None:
        """Draw every chance step now due (with ``draw_chance``): the outcome of step k
        comes from a generator seeded by the match's seed and k alone, so a replay, an
        undo and a redo, or another front end draw the same."""
        game = self.game
        while self.draw_chance and self.forfeit is None and game.to_act(self.states[-1]) == CHANCE:
            step, outcomes = len(self.actions), game.chance_outcomes(self.states[-1])
            if self.seeded is None:
                outcome = draw(outcomes, chance_rng(self.seed, step))
            else:
                outcome = self.seeded(self.states, self.seed)
                if all(outcome != possible for possible, _p in outcomes):
                    state = self.states[-1]
                    possible = and_joined([game.format(state, a) for a, _p in outcomes])
                    why = _("not a possible outcome (possible: {outcomes})", outcomes=possible)
                    raise ActionError(step + 1, game.format(state, outcome), why)
            self._append(CHANCE, outcome, step)

    def undo(self) -> bool:
        """Take back the last decision (or a forfeit, or a sealed choice not yet applied)
        with the chance outcomes drawn after it, a joint action whole; False when there
        is nothing to undo."""
        if self.forfeit is not None:
            self.forfeit = None
            return True
        if self.sealed:
            self.sealed.popitem()
            return True
        last = len(self.actions)
        while self.draw_chance and last and self.actors[last - 1] == CHANCE:
            last -= 1
        if not last:
            return False
        self.truncate(self.groups[last - 1])
        return True

    def truncate(self, keep: int) -> None:
        """Keep the first ``keep`` actions (no rule asked: undo asks :meth:`undo`)."""
        del self.states[keep + 1 :]
        del self.actions[keep:]
        del self.texts[keep:]
        del self._actors[keep:]
        del self._groups[keep:]

    def again(self, texts: Sequence[str]) -> Match:
        """A new match of this one's set-up and chance playing ``texts`` (this kind of
        match's texts, chance outcomes among them) through the checked path."""
        again = Match.of(self.configured, self.seed, self.start, False, self.seeded)
        again.play_all(texts)
        again.draw_chance = True
        again.settle()
        return again

    def lose_on_time(self, player: int) -> None:
        """End the game: ``player`` ran out of time on the move clock."""
        self.end(Forfeit(player=player))

    def end(self, ending: Forfeit) -> None:
        """End the game at the table: on time, resigned, or a draw agreed (``undo``
        takes it back)."""
        self.forfeit = ending

    def play_all(self, lines: Sequence[str]) -> None:
        """Play actions one by one; stops at the first refusal (what was applied stays)."""
        for line in lines:
            self.play(line)

    # -- records ---------------------------------------------------------------------
    def record(self, seats: dict[str, str] | None = None, move_time: float | None = None) -> Record:
        """The match as a saved-game record."""
        return Record(
            game=self.game.info.id,
            game_version=self.game.info.version,
            players=self.players,
            options=opts.dump(self.options),
            seed=self.seed,
            start=self.start,
            actions=list(self.texts),
            chance="actions",
            sealed={str(p): text for p, (_a, text) in self.sealed.items()},
            seats=dict(seats or {}),
            move_time=move_time,
            forfeit=self.forfeit,
        )

    @classmethod
    def from_record(cls, game: Game[Any, Any], record: Record, source: str = "record") -> Match:
        """Replay a record through the checked path; RecordError if any step fails
        (:mod:`tabletop.core.record_checks`)."""
        versions = checks.check_game(game, record, source)
        try:
            table = Configured.of(game, record.players, record.options)
            seeded = seeded_chance_of(game) if record.chance == "seed" else None
            match = cls.of(table, record.seed, record.start, draw_chance=False, seeded=seeded)
        except OptionError as exc:
            raise checks.options_refused(source, versions, exc) from None
        except PositionError as exc:
            raise checks.impossible_start(source, exc) from None
        try:
            match.draw_chance = seeded is not None  # an earlier version's record: no outcomes
            match.settle()
            match.play_all(record.actions)
            for seat, text in record.sealed.items():
                match.play(text, parse_int(seat, 1, record.players) or 0)
            match.draw_chance = True
            match.settle()
        except ActionError as exc:
            raise checks.does_not_replay(source, versions, exc) from None
        checks.check_seats(record, source)
        if record.forfeit is not None:
            checks.check_ending(game, match.state, match.players, record.forfeit, source)
        match.forfeit = record.forfeit
        return match

    # -- JSON --------------------------------------------------------------------------
    def summary(self, reveal: bool = False) -> JSON:
        """The JSON object of ``tabletop run --json``."""
        game, state, outcome, choosers = self.game, self.state, self.outcome(), self.choosers()
        scores = game.scores(state)
        data: JSON = {
            "game": game.info.id,
            "options": opts.dump(self.options),
            "players": self.players,
            "status": "ongoing" if outcome is None else "over",
            "winners": list(outcome.winners) if outcome else [],
            "to_act": choosers if isinstance(self.to_act(), frozenset) else self.to_act(),
            "legal": self.listing_text(),
            "scores": None if scores is None else {str(k): v for k, v in scores.items()},
            "view": game.view(state, choosers[0] if choosers else None),
        }
        if outcome is not None and outcome.reason:
            data["reason"] = outcome.reason
        if outcome is not None and outcome.kind:
            data["end"] = outcome.kind
        if reveal:
            data["state"] = game.to_json(state)
        return data


def because(reason: str, allowed: str) -> Msg:
    """A refusal and what is allowed instead: ``reason; allowed: ...``."""
    return _("{reason}; {allowed}", reason=reason, allowed=allowed)


def player_name(player: int) -> Msg:
    """How a player is called: ``player 2``."""
    return _("player {n}", n=player)
