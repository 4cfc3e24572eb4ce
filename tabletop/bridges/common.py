"""What both bridges share: the game and its configuration, and the returns of an end."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from tabletop.core import options as opts
from tabletop.core.errors import TabletopError, UsageError
from tabletop.core.registry import registry
from tabletop.core.setup import player_count
from tabletop.game import Game, Outcome

MISSING = "the research bridges need the 'research' extra: pip install 'tabletop[research]'"


class NoEncoding(TabletopError):
    """The game provides no action ids / observations (see :meth:`Game.action_ids`)."""


@dataclass(frozen=True)
class Setup:
    """One configured game: the rules object, the player count, the options, the sizes."""

    game: Game[Any, Any]
    players: int
    options: BaseModel
    ids: int
    shape: tuple[int, ...]

    @property
    def chance(self) -> bool:
        """Whether the deal is left to chance: hidden information, or a seed that changes
        the initial position (e.g. heaps drawn at random); Quarto and Connect Four have none."""
        if self.game.info.hidden_information:
            return True
        first = self.game.to_json(self.game.new(self.players, self.options, 0))
        return any(
            self.game.to_json(self.game.new(self.players, self.options, seed)) != first
            for seed in range(1, 8)
        )


def setup(
    game: str | Game[Any, Any],
    players: int | None = None,
    options: BaseModel | Mapping[str, Any] | None = None,
) -> Setup:
    """The configured game; UsageError / OptionError / NoEncoding say what was wrong."""
    resolved = registry().get(game) if isinstance(game, str) else game
    count = player_count(resolved, players)
    model = resolved.info.options
    if options is None:
        built = model()
    elif isinstance(options, BaseModel):
        if not isinstance(options, model):
            raise UsageError(f"options for {resolved.info.id} are a {model.__name__}")
        built = options
    else:
        built = opts.build(model, dict(options), resolved.info.id)
    ids = resolved.action_ids(count, built)
    if ids is None:
        raise NoEncoding(
            f"{resolved.info.id} provides no action ids or observations "
            "(Game.action_ids and friends), so it cannot be bridged"
        )
    return Setup(resolved, count, built, ids, tuple(resolved.observation_shape(count, built)))


def returns(outcome: Outcome | None, players: int) -> list[float]:
    """The score of an end, per seat: each winner +1 and each other player -1; a draw
    (no winner) 0 for all; 0 for all while the game goes on. With more than two players
    this is not zero-sum: a 4-player game with one winner scores +1, -1, -1, -1."""
    if outcome is None or not outcome.winners:
        return [0.0] * players
    return [1.0 if seat in outcome.winners else -1.0 for seat in range(1, players + 1)]
