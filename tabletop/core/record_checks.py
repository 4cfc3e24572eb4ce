"""What a saved-game record must satisfy to replay (:meth:`Match.from_record
<tabletop.core.match.Match.from_record>`): its game, its player count, its computer seats
and how it ended at the table; and the one-line errors that say which step of a replay
failed and why.
"""

from __future__ import annotations

from typing import Any

from tabletop.core.endings import draws
from tabletop.core.errors import RecordError
from tabletop.core.i18n.text import Domain, message_of
from tabletop.core.numbers import parse_int, quote
from tabletop.core.records import Forfeit, Record
from tabletop.game import Game

_ = Domain("tabletop")


def check_game(game: Game[Any, Any], record: Record, source: str) -> str:
    """RecordError unless ``record`` is of ``game`` with a player count it takes; the note
    on versions a replay's error adds ('' when saved with the installed version)."""
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
    return versions


def options_refused(source: str, versions: str, exc: Exception) -> RecordError:
    return RecordError(
        _(
            "{source} has options this game refuses{versions}: {reason}",
            source=source,
            versions=versions,
            reason=message_of(exc),
        )
    )


def impossible_start(source: str, exc: Exception) -> RecordError:
    return RecordError(
        _(
            "{source} starts from an impossible position: {reason}",
            source=source,
            reason=message_of(exc),
        )
    )


def does_not_replay(source: str, versions: str, exc: Exception) -> RecordError:
    return RecordError(
        _(
            "{source} does not replay{versions}: {reason}",
            source=source,
            versions=versions,
            reason=message_of(exc),
        )
    )


def check_seats(record: Record, source: str) -> None:
    """RecordError unless every computer seat of ``record`` is one of its players."""
    for seat in record.seats:
        if parse_int(seat, 1, record.players) is None:
            raise RecordError(
                _(
                    "{source} seats the computer at {seat}; seats are player numbers 1-{players}",
                    source=source,
                    seat=quote(seat),
                    players=record.players,
                )
            )


def check_ending(
    game: Game[Any, Any], state: Any, players: int, ending: Forfeit, source: str
) -> None:
    """An end at the table (:mod:`tabletop.core.endings`) needs a game the rules had not
    ended; a resignation may come from any player, an agreed draw only in a game with
    draws, a forfeit on time only from the player to act."""
    if ending.reason == "time":
        check_forfeit(game, state, players, ending.player, source)
        return
    if not 1 <= ending.player <= players:
        raise RecordError(
            _(
                "{source} records an end by player {player}; the game has players 1-{players}",
                source=source,
                player=ending.player,
                players=players,
            )
        )
    outcome = game.outcome(state)
    if outcome is not None:
        raise RecordError(
            _(
                "{source} records a resignation or a draw agreed after the rules had "
                "ended the game ({reason})",
                source=source,
                reason=outcome.reason,
            )
        )
    if ending.reason == "agreed-draw" and not draws(game):
        raise RecordError(
            _("{source} records a draw agreed in a game with no draws", source=source)
        )


def check_forfeit(game: Game[Any, Any], state: Any, players: int, player: int, source: str) -> None:
    """A forfeit on time can only happen to the player to act in a game not yet over."""
    if not 1 <= player <= players:
        raise RecordError(
            _(
                "{source} records a forfeit by player {player}; the game has players 1-{players}",
                source=source,
                player=player,
                players=players,
            )
        )
    outcome = game.outcome(state)
    if outcome is not None:
        raise RecordError(
            _(
                "{source} records a forfeit on time in a game the rules had already "
                "ended ({reason}); a finished game has no clock",
                source=source,
                reason=outcome.reason,
            )
        )
    to_act = game.to_act(state)
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
