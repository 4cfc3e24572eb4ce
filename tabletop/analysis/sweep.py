"""The words of ``tabletop analyse`` as a plan: configurations, levels, games, seed.

A configuration is one player count and one value of every swept option; ``-o KEY=A,B``
sweeps ``KEY`` over ``A`` and ``B`` (an option whose own value is a comma list, like
Quarto's ``attributes``, separates its alternatives with ``|`` instead). Every value is
checked by the game's options model, as ``-o`` is everywhere, before any game is played.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tabletop.agents.seat import make_seat
from tabletop.analysis.arena import Setup
from tabletop.core import options as opts
from tabletop.core.configured import Configured
from tabletop.core.errors import OptionError, UsageError
from tabletop.core.i18n.text import Domain, message_of
from tabletop.core.numbers import parse_int, quote
from tabletop.core.setup import player_count, resolve
from tabletop.game import Game

_ = Domain("tabletop")

MAX_CONFIGURATIONS = 256

MAX_GAMES = 1_000_000


@dataclass(frozen=True)
class Configuration:
    """One player count and the option values given for it (the rest are defaults)."""

    players: int
    values: tuple[tuple[str, str], ...]

    def options(self, game: Game[Any, Any]) -> dict[str, Any]:
        """All the options of this configuration, defaults included, as JSON values."""
        return Configured.of(game, self.players, dict(self.values)).values

    def configured(self, game: Game[Any, Any]) -> Configured[Any, Any]:
        """This configuration of ``game``, set up once to be sure the game accepts it
        (e.g. Čtverák's half deck is for 2-3 players: OptionError says with how many
        players it was refused)."""
        table = Configured.of(game, self.players, dict(self.values))
        try:
            table.new(0)
        except OptionError as exc:
            raise OptionError(
                _("with {count} players: {error}", count=self.players, error=message_of(exc))
            ) from None
        return table


@dataclass(frozen=True)
class Plan:
    """What ``tabletop analyse`` plays: every configuration at every level in self-play,
    and, for each pair of levels, the higher one against the lower (skill)."""

    game: str
    configurations: tuple[Configuration, ...]
    levels: tuple[str, ...]
    games: int
    seed: int

    def pairs(self) -> list[tuple[str, str]]:
        """(lower, higher) for every two levels, in the order they were listed."""
        return list(itertools.combinations(self.levels, 2))

    def self_play(self, config: Configuration, level: str) -> Setup:
        """Every seat plays ``level``."""
        return self._setup(config, (level,))

    def skill(self, config: Configuration, lower: str, higher: str) -> Setup:
        """One seat plays ``higher``, the others ``lower``; the seat of ``higher`` moves
        round the table one place per game (arena rotation)."""
        return self._setup(config, (higher,) + (lower,) * (config.players - 1))

    def _setup(self, config: Configuration, agents: tuple[str, ...]) -> Setup:
        values = dict(config.values)
        return Setup(self.game, agents, self.games, config.players, values, self.seed)


def split_list(text: str, what: str) -> list[str]:
    """A comma list of words; UsageError when it is empty or names one twice."""
    words = [word.strip() for word in text.split(",") if word.strip()]
    if not words:
        raise UsageError(_("{flag} needs at least one value, e.g. {flag} 1,2", flag=what))
    twice = sorted({word for word in words if words.count(word) > 1})
    if twice:
        raise UsageError(
            _("{flag} names {names} more than once", flag=what, names=", ".join(twice))
        )
    return words


def player_counts(game: Game[Any, Any], text: str | None) -> list[int]:
    """``--players 2,3,4`` checked against the game's range (default: its minimum)."""
    if text is None:
        return [player_count(game, None)]
    counts = []
    for word in split_list(text, "--players"):
        number = parse_int(word, 1, 99)
        if number is None:
            raise UsageError(
                _("--players takes whole numbers like 2,3, not {value}", value=quote(word))
            )
        counts.append(player_count(game, number))
    return counts


def option_sweeps(game: Game[Any, Any], pairs: Sequence[str]) -> list[tuple[str, list[str]]]:
    """``-o KEY=A,B`` words as (key, values), each value checked by the options model."""
    sweeps: list[tuple[str, list[str]]] = []
    for pair in pairs:
        ((key, text),) = opts.parse_pairs([pair]).items()
        if key in (name for name, _ in sweeps):
            raise UsageError(
                _("-o {key} is given twice; list its values once: -o {key}=A,B", key=key)
            )
        values = split_list(text, f"-o {key}=") if "|" not in text else _bars(text, key)
        for value in values:
            Configured.of(game, None, {key: value})
        sweeps.append((key, values))
    return sweeps


def _bars(text: str, key: str) -> list[str]:
    values = [part.strip() for part in text.split("|") if part.strip()]
    if not values:
        raise UsageError(_("-o {key}= needs at least one value", key=key))
    return values


def configurations(
    game: Game[Any, Any], counts: Sequence[int], sweeps: Sequence[tuple[str, list[str]]]
) -> list[Configuration]:
    """Every player count times every combination of the swept values, each one set up
    once to be sure the game accepts it (e.g. Čtverák's half deck is for 2-3 players)."""
    keys = [key for key, _ in sweeps]
    combos = list(itertools.product(*(values for _, values in sweeps)))
    if len(counts) * len(combos) > MAX_CONFIGURATIONS:
        raise UsageError(
            _(
                "{count} configurations; at most {most} a run",
                count=len(counts) * len(combos),
                most=MAX_CONFIGURATIONS,
            )
        )
    result = []
    for players in counts:
        for combo in combos:
            config = Configuration(players, tuple(zip(keys, combo, strict=True)))
            config.configured(game)
            result.append(config)
    return result


def make_plan(
    game_id: str,
    players: str | None,
    option_pairs: Sequence[str],
    agents: str,
    games: int,
    seed: int,
) -> Plan:
    """Check every word of ``tabletop analyse`` and build its plan."""
    game = resolve(game_id)
    levels = split_list(agents, "--agents")
    for level in levels:
        make_seat(game, level)  # an unknown level: UsageError listing the known ones
    if not 1 <= games <= MAX_GAMES:
        raise UsageError(_("--games must be 1 to {most}, not {value}", most=MAX_GAMES, value=games))
    configs = configurations(game, player_counts(game, players), option_sweeps(game, option_pairs))
    return Plan(game.info.id, tuple(configs), tuple(levels), games, seed)
