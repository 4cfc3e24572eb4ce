"""What every check is given: the game being checked, as an immutable :class:`Context`
(game, configuration, seed, the actions played up to the position checked), and the
:class:`Tally` of one :func:`~tabletop.kit.conformance.check_game` call it counts into."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import BaseModel

from tabletop.core import options as opts
from tabletop.core.errors import one_line
from tabletop.core.i18n.text import Domain, Msg, message_of
from tabletop.game import Game
from tabletop.kit.configurations import Config
from tabletop.kit.report import CheckFailure, CheckReport, GameRef

_ = Domain("tabletop")


class Failed(Exception):
    """A check failed (the message says how: a message, translated where it is shown)."""


FAILED: Any = object()  # what :func:`run` returns for a failed check


@dataclass
class Tally:
    """The running totals of one check_game call: the report's counts, and per seat (None:
    the spectator) the swaps of two values ``from_json`` accepted and, of those, the ones
    the seat's view does not show (the ``views`` check)."""

    report: CheckReport
    swaps: dict[int | None, int] = field(default_factory=dict)
    hidden_from: dict[int | None, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Context:
    """One game being checked: what a failure names (configuration, seed, the action texts
    up to the position checked) and where runs are counted."""

    game: Game[Any, Any]
    config: Config
    seed: int
    tally: Tally
    fuzz: int = 40  # bad inputs tried per position (the ``fuzz`` check)
    texts: Sequence[str] = ()  # a list that grows as the game is played, or a snapshot

    @property
    def players(self) -> int:
        """The configuration's player count."""
        return self.config.players

    @property
    def options(self) -> BaseModel:
        """The configuration's options."""
        return self.config.options

    def at(self, texts: Sequence[str]) -> Context:
        """The same game with ``texts`` the actions played so far (not copied: a list that
        grows as the game goes on is read when a check fails)."""
        return replace(self, texts=texts)

    def count(self, check: str, runs: int) -> None:
        """Count more runs of a check than the one :func:`run` counts (e.g. fuzz inputs)."""
        self.tally.report.checks[check].runs += runs

    def fail(self, check: str, message: str) -> None:
        """Count a failure; the first of a check keeps this game to replay."""
        stats = self.tally.report.checks[check]
        stats.failures += 1
        if stats.first is None:
            info = self.game.info
            ref = GameRef(
                info.id,
                self.players,
                opts.dump(self.options),
                self.seed,
                tuple(self.texts),
                info.options().model_dump(mode="json"),
            )
            kept = message if isinstance(message, Msg) and "\n" not in message else None
            stats.first = CheckFailure(check, kept or one_line(message), ref)

    def text_of(self, state: Any, action: Any) -> str:
        """The action's notation, or its repr when ``format`` fails."""
        try:
            return self.game.format(state, action)
        except Exception:
            return repr(action)


def run(ctx: Context, check: str, body: Callable[..., Any], *args: Any) -> Any:
    """Run one check, ``body(ctx, *args)``: its result, or FAILED after recording the failure
    (or crash) with the context's game."""
    ctx.tally.report.checks[check].runs += 1
    try:
        return body(ctx, *args)
    except Failed as exc:
        ctx.fail(check, message_of(exc))
    except Exception as exc:
        said = _("crashed: {kind}: {reason}", kind=type(exc).__name__, reason=one_line(str(exc)))
        ctx.fail(check, said)
    return FAILED
