"""The one stateful object: a game in progress with its history, undo and checked play."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from tabletop.core import options as opts
from tabletop.core.errors import ActionError, NotationError, OptionError, PositionError, RecordError
from tabletop.core.i18n.text import Domain, Msg, message_of
from tabletop.core.numbers import cut, parse_int, quote
from tabletop.core.records import Forfeit, Record
from tabletop.game import JSON, Game, Outcome

HINT_ACTIONS = 12
_ = Domain("tabletop")
OVER = _("the game is over")


class Match:
    """A game being played: states after every action, the actions, and their text.

    ``play`` is the checked path (parse, legality, apply). A refused action raises
    :class:`ActionError` and leaves the match exactly as it was.
    """

    def __init__(
        self,
        game: Game[Any, Any],
        players: int,
        options: BaseModel,
        seed: int,
        start: JSON | None = None,
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
        self.forfeit: Forfeit | None = None

    # -- reading ---------------------------------------------------------------------
    @property
    def state(self) -> Any:
        """The current state."""
        return self.states[-1]

    def to_act(self) -> int | None:
        """The player to act, or None when the game is over."""
        if self.forfeit is not None:
            return None
        return self.game.to_act(self.state)

    def outcome(self) -> Outcome | None:
        """The outcome, counting a forfeit on time."""
        if self.forfeit is not None:
            others = tuple(p for p in range(1, self.players + 1) if p != self.forfeit.player)
            who = self.forfeit.player
            return Outcome(
                others, _("player {who} ran out of time on the move clock", who=who), "time"
            )
        return self.game.outcome(self.state)

    def listing_text(self) -> list[str]:
        """The listed actions of the player to act, in canonical notation."""
        if self.forfeit is not None:
            return []
        state = self.state
        return [self.game.format(state, a) for a in self.game.listing(state)]

    def allowed_hint(self) -> str:
        """A short 'what is allowed' for error messages: the legal actions, in listing
        order (the listing may offer an action that would be refused, e.g. a claim)."""
        if self.forfeit is not None:
            return OVER
        state = self.state
        legal = set(self.game.legal(state))
        listed = [self.game.format(state, a) for a in self.game.listing(state) if a in legal]
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

    # -- playing ---------------------------------------------------------------------
    def check(self, text: str) -> Any:
        """The action ``text`` names if it may be played now; ActionError otherwise."""
        number = len(self.actions) + 1
        outcome = self.outcome()
        if outcome is not None:
            raise ActionError(number, text, _("the game is over; no action is allowed"))
        state = self.state
        try:
            action = self.game.parse(state, text)
        except NotationError as exc:
            raise ActionError(
                number, text, because(cut(message_of(exc)), self.allowed_hint())
            ) from None
        if action not in self.game.legal(state):
            reason = cut(self.game.refusal(state, action))
            raise ActionError(number, text, because(reason, self.allowed_hint()))
        return action

    def play(self, text: str) -> Any:
        """Parse, check and apply one action; returns the action."""
        action = self.check(text)
        self._append(action)
        return action

    def push(self, action: Any) -> None:
        """Apply an action from an agent, checked against the legal ones first."""
        if action not in self.game.legal(self.state):
            raise ActionError(len(self.actions) + 1, repr(action), _("not a legal action now"))
        self._append(action)

    def _append(self, action: Any) -> None:
        """Apply a legal ``action`` and record it with its notation."""
        state = self.state
        text = self.game.format(state, action)
        self.states.append(self.game.apply(state, action))
        self.actions.append(action)
        self.texts.append(text)

    def undo(self) -> bool:
        """Take back the last action (or a forfeit); False when there is nothing to undo."""
        if self.forfeit is not None:
            self.forfeit = None
            return True
        if not self.actions:
            return False
        self.states.pop()
        self.actions.pop()
        self.texts.pop()
        return True

    def lose_on_time(self, player: int) -> None:
        """End the game: ``player`` ran out of time on the move clock."""
        self.forfeit = Forfeit(player=player)

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
            seats=dict(seats or {}),
            move_time=move_time,
            forfeit=self.forfeit,
        )

    @classmethod
    def from_record(cls, game: Game[Any, Any], record: Record, source: str = "record") -> Match:
        """Replay a record through the checked path; RecordError if any step fails."""
        if record.game != game.info.id:
            raise RecordError(
                _(
                    "{source} is a {saved} game, not {game}",
                    source=source,
                    saved=record.game,
                    game=game.info.id,
                )
            )
        info = game.info
        if not info.min_players <= record.players <= info.max_players:
            raise RecordError(
                _(
                    "{source} has {players} players; {game} takes {low}-{high}",
                    source=source,
                    players=record.players,
                    game=info.id,
                    low=info.min_players,
                    high=info.max_players,
                )
            )
        versions: str = ""
        if record.game_version != info.version:
            versions = _(
                " (saved with {game} {saved}, installed {installed})",
                game=info.id,
                saved=record.game_version,
                installed=info.version,
            )
        try:
            options = opts.build(info.options, record.options, info.id)
            match = cls(game, record.players, options, record.seed, record.start)
        except OptionError as exc:
            raise RecordError(
                _(
                    "{source} has options this game refuses{versions}: {reason}",
                    source=source,
                    versions=versions,
                    reason=message_of(exc),
                )
            ) from None
        except PositionError as exc:
            raise RecordError(
                _(
                    "{source} starts from an impossible position: {reason}",
                    source=source,
                    reason=message_of(exc),
                )
            ) from None
        try:
            match.play_all(record.actions)
        except ActionError as exc:
            raise RecordError(
                _(
                    "{source} does not replay{versions}: {reason}",
                    source=source,
                    versions=versions,
                    reason=message_of(exc),
                )
            ) from None
        for seat in record.seats:
            if parse_int(seat, 1, record.players) is None:
                raise RecordError(
                    _(
                        "{source} seats the computer at {seat}; "
                        "seats are player numbers 1-{players}",
                        source=source,
                        seat=quote(seat),
                        players=record.players,
                    )
                )
        if record.forfeit is not None:
            match._check_forfeit(record.forfeit.player, source)
        match.forfeit = record.forfeit
        return match

    def _check_forfeit(self, player: int, source: str) -> None:
        """A forfeit on time can only happen to the player to act in a game not yet over."""
        if not 1 <= player <= self.players:
            raise RecordError(
                _(
                    "{source} records a forfeit by player {player}; the game has players "
                    "1-{players}",
                    source=source,
                    player=player,
                    players=self.players,
                )
            )
        outcome = self.game.outcome(self.state)
        if outcome is not None:
            raise RecordError(
                _(
                    "{source} records a forfeit on time in a game the rules had already "
                    "ended ({reason}); a finished game has no clock",
                    source=source,
                    reason=outcome.reason,
                )
            )
        to_act = self.game.to_act(self.state)
        if player != to_act:
            raise RecordError(
                _(
                    "{source} records player {player} running out of time, but player "
                    "{to_act} was to act; only the player to act has a running clock",
                    source=source,
                    player=player,
                    to_act=to_act,
                )
            )

    # -- JSON --------------------------------------------------------------------------
    def summary(self, reveal: bool = False) -> JSON:
        """The JSON object of ``tabletop run --json``."""
        game, state = self.game, self.state
        outcome = self.outcome()
        to_act = self.to_act()
        data: JSON = {
            "game": game.info.id,
            "options": opts.dump(self.options),
            "players": self.players,
            "status": "ongoing" if outcome is None else "over",
            "winners": list(outcome.winners) if outcome else [],
            "to_act": to_act,
            "legal": self.listing_text(),
            "scores": _str_keys(game.scores(state)),
            "view": game.view(state, to_act),
        }
        if outcome is not None and outcome.reason:
            data["reason"] = outcome.reason
        if outcome is not None and outcome.kind:
            data["end"] = outcome.kind
        if reveal:
            data["state"] = game.to_json(state)
        return data


def _str_keys(scores: dict[int, int] | None) -> dict[str, int] | None:
    return None if scores is None else {str(k): v for k, v in scores.items()}


def because(reason: str, allowed: str) -> Msg:
    """A refusal and what is allowed instead: ``reason; allowed: ...``."""
    return _("{reason}; {allowed}", reason=reason, allowed=allowed)


def player_name(player: int) -> Msg:
    """How a player is called: ``player 2``."""
    return _("player {n}", n=player)
