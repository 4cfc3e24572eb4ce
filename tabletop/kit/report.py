"""What :func:`tabletop.kit.conformance.check_game` returns: runs and failures per check,
and the first failing game of each (configuration, seed, actions) with a command to replay it."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from tabletop.core import options as opts
from tabletop.core.i18n.formats import Count
from tabletop.core.i18n.text import Domain, Msg, translate
from tabletop.kit.jsonpaths import MISSING

_ = Domain("tabletop")


@dataclass(frozen=True)
class GameRef:
    """What replays a game: configuration, seed and the actions up to the failure."""

    game: str
    players: int
    options: dict[str, Any]
    seed: int
    actions: tuple[str, ...]
    defaults: dict[str, Any] = field(default_factory=dict)

    def command(self) -> str:
        """A shell command that replays the game with ``tabletop run`` (the actions given
        on standard input, inline when they are few)."""
        words = [
            f" -o {k}={opts.as_text(v)}"
            for k, v in self.options.items()
            if self.defaults.get(k, MISSING) != v
        ]
        run = (
            f"tabletop run {self.game} -p {self.players} --seed {self.seed}{''.join(words)} "
            "--actions - --trace --reveal"
        )
        if len(self.actions) > 12:
            return _("{run}  (the actions above on standard input, one a line)", run=run)
        quoted = " ".join("'" + a.replace("'", "'\\''") + "'" for a in self.actions)
        return f"printf '%s\\n' {quoted} | {run}" if self.actions else run


@dataclass(frozen=True)
class CheckFailure:
    """One failed check: what was wrong, in which game."""

    check: str
    message: str
    game: GameRef


@dataclass
class CheckStats:
    """How often a check ran and failed, and its first failure."""

    name: str
    description: str
    runs: int = 0
    failures: int = 0
    first: CheckFailure | None = None


@dataclass
class CheckReport:
    """The result of :func:`check_game`: per check, and the configurations played."""

    game: str
    games: int
    seed: int
    configs: list[str]
    checks: dict[str, CheckStats] = field(default_factory=dict)
    seconds: float = 0.0
    how: str = ""  # how the configurations were chosen (plan_configurations)
    refused: list[str] = field(default_factory=list)  # combinations the game refused

    @property
    def ok(self) -> bool:
        """True when no check failed."""
        return all(stats.failures == 0 for stats in self.checks.values())

    def failures(self) -> list[CheckFailure]:
        """The first failure of every failing check."""
        return [s.first for s in self.checks.values() if s.first is not None]

    def text(self) -> str:
        """The report as plain text (what ``assert_conformance`` raises), in the current
        language (English unless one was chosen)."""
        head = _(
            "{game}: {games} {configs} ({how}), seed {seed}, {seconds}s",
            game=self.game,
            games=_.plural("{n} game", "{n} games", self.games),
            configs=_.plural("in {n} configuration", "in {n} configurations", len(self.configs)),
            how=self.how,
            seed=self.seed,
            seconds=Count(self.seconds, 1, grouped=False),
        )
        lines = [translate(head)]
        for label in self.refused:
            lines.append("  " + translate(_("refused by the game: {label}", label=label)))
        for stats in self.checks.values():
            verdict = translate(verdict_text(stats.failures))
            runs = translate(_("runs"))
            lines.append(
                f"  {stats.name:<13} {verdict:<12} {stats.runs:>8} {runs}  "
                f"{translate(stats.description)}"
            )
        for failure in self.failures():
            lines.extend(translate(line) for line in failure_lines(failure))
        return "\n".join(lines)


def verdict_text(failures: int) -> Msg:
    """A check's result: ``ok``, or ``FAILED 3×``."""
    if failures == 0:
        return _("ok")
    return _("FAILED {count}×", count=failures)


def failure_lines(failure: CheckFailure) -> list[str]:
    """A failure's lines (messages, translated where shown): the check's machine name and
    what was wrong, the game, its actions, the command that replays it."""
    ref = failure.game
    actions = ", ".join(ref.actions) or _("(none)")
    return [
        Msg.joined(": ", [failure.check, failure.message]),
        _(
            "  game: {players}, options {options}, seed {seed}",
            players=_.plural("{n} player", "{n} players", ref.players),
            options=json.dumps(ref.options),
            seed=ref.seed,
        ),
        _("  actions: {actions}", actions=actions),
        _("  replay: {command}", command=ref.command()),
    ]
