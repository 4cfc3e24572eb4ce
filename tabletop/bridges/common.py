"""What both bridges share: the game and its configuration, and the returns of an end."""

from __future__ import annotations

import importlib
import io
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from tabletop.bridges.facet import Encoding, encodes
from tabletop.core.configured import Configured
from tabletop.core.errors import TabletopError, UsageError
from tabletop.core.i18n.text import Domain
from tabletop.core.registry import registry
from tabletop.game import Game, Outcome

_ = Domain("tabletop")

# The bridges' errors are messages: English as always (str(error), byte for byte), translated
# where a UsageError is shown to a person (the CLI's error line, translate(message_of(e))).
MISSING = _("the research bridges need the 'research' extra: pip install 'tabletop[research]'")


class NoEncoding(TabletopError):
    """The game provides no action ids / observations (its encoding facet,
    :mod:`tabletop.bridges.facet`)."""


@dataclass(frozen=True)
class Setup(Configured[Any, Any]):
    """One configured game (:class:`~tabletop.core.configured.Configured`: the rules
    object, the player count, the options) with its encoding and sizes."""

    ids: int
    shape: tuple[int, ...]
    encoding: Encoding

    @property
    def chance(self) -> bool:
        """Whether the game has chance steps (:func:`has_chance`): its chance nodes are
        those steps, nothing else (a seed that deals is a fixed parameter, issue 36)."""
        return has_chance(self.game)

    @property
    def simultaneous(self) -> bool:
        """Whether the game has simultaneous steps (:func:`has_simultaneous`)."""
        return has_simultaneous(self.game)


def has_chance(game: Game[Any, Any]) -> bool:
    """Whether ``game`` declares chance steps (its class overrides ``chance_outcomes``)."""
    return type(game).chance_outcomes is not Game.chance_outcomes


def has_simultaneous(game: Game[Any, Any]) -> bool:
    """Whether ``game`` declares simultaneous steps (its class overrides ``choices``)."""
    return type(game).choices is not Game.choices


def setup(
    game: str | Game[Any, Any],
    players: int | None = None,
    options: BaseModel | Mapping[str, Any] | None = None,
) -> Setup:
    """The configured game; UsageError / OptionError / NoEncoding say what was wrong."""
    resolved = registry().get(game) if isinstance(game, str) else game
    model = resolved.info.options
    if isinstance(options, BaseModel) and not isinstance(options, model):
        raise UsageError(
            _("options for {game} are a {model}", game=resolved.info.id, model=model.__name__)
        )
    table = Configured.of(resolved, players, options)
    count, built = table.players, table.options
    encoding = encodes(resolved, count, built)
    ids = None if encoding is None else encoding.action_ids(count, built)
    if encoding is None or ids is None:
        raise NoEncoding(
            _(
                "{game} provides no action ids or observations "
                "(Game.action_ids and friends), so it cannot be bridged",
                game=resolved.info.id,
            )
        )
    shape = tuple(encoding.observation_shape(count, built))
    return Setup(resolved, count, built, ids, shape, encoding)


def win_returns(winners: tuple[int, ...] | None, players: int) -> list[float]:
    """``reward="win"`` from the winners alone (:meth:`Game.winners`; None: not over):
    each winner +1, every other player -1, all 0 for a draw (not zero-sum with 3+)."""
    if not winners:
        return [0.0] * players
    return [1.0 if seat in winners else -1.0 for seat in range(1, players + 1)]


def win_loss_returns(winners: tuple[int, ...] | None, players: int) -> list[float]:
    """``reward="win_loss"``, OpenSpiel's (goofspiel.cc): the winners share +1 (each
    1/winners), the losers share -1 (each -1/losers), zero-sum; all 0 for a draw (no
    winner, or every player a winner)."""
    if not winners or len(set(winners)) >= players:
        return [0.0] * players
    won, lost = len(set(winners)), players - len(set(winners))
    return [1.0 / won if seat in winners else -1.0 / lost for seat in range(1, players + 1)]


def returns(outcome: Outcome | None, players: int) -> list[float]:
    """``reward="win"`` of an end (:func:`win_returns`); 0 for all while the game goes on."""
    return win_returns(None if outcome is None else outcome.winners, players)


REWARDS = ("win", "win_loss", "score", "point_difference", "total_points")
POINTS = ("score", "point_difference", "total_points")  # the conventions read Game.scores
ZERO_SUM = ("win_loss", "score", "point_difference")  # zero-sum whatever the player count
NO_SCORES = _(
    "reward={reward} needs a game that keeps points (Game.scores); {game} does not: "
    "use reward='win' or 'win_loss'"
)
BAD_REWARD = _(
    "reward {reward} is not offered; use 'win' (+1/-1/0), 'win_loss' (OpenSpiel's: winners "
    "share +1, losers -1), 'score' (points minus the others' mean), 'point_difference' "
    "(points minus the mean of all) or 'total_points' (points)"
)
BAD_RENDER = _("render_mode {mode} is not offered; use 'ansi', 'human' or None")
RENDER_MODES = ("ansi", "human")


def check_reward(config: Setup, reward: str) -> None:
    """UsageError unless ``reward`` is offered for this game: ``win`` and ``win_loss``
    always, the points conventions where :meth:`Game.scores` gives points (asked of the
    start position)."""
    if reward not in REWARDS:
        raise UsageError(BAD_REWARD.format(reward=repr(reward)))
    if reward in POINTS:
        start = config.game.new(config.players, config.options, 0)
        if config.game.scores(start) is None:
            raise UsageError(NO_SCORES.format(reward=repr(reward), game=config.game.info.id))


def score_returns(points: Mapping[int, int] | None, players: int) -> list[float]:
    """``reward="score"``: each seat's points minus the mean of the others' (so they sum
    to zero, and with two players are the points difference, twice OpenSpiel's
    ``point_difference``); all 0 without points."""
    if not points:
        return [0.0] * players
    values = [float(points.get(seat, 0)) for seat in range(1, players + 1)]
    total = sum(values)
    return [v - (total - v) / max(1, players - 1) for v in values]


def points_returns(points: Mapping[int, int] | None, players: int, reward: str) -> list[float]:
    """OpenSpiel's points conventions: ``point_difference`` each seat's points minus the
    mean of all (zero-sum), ``total_points`` the points themselves; ``score`` as
    :func:`score_returns`."""
    if reward == "score":
        return score_returns(points, players)
    values = [float((points or {}).get(seat, 0)) for seat in range(1, players + 1)]
    if reward == "total_points":
        return values
    mean = sum(values) / players
    return [v - mean for v in values]


def end_returns(config: Setup, state: Any, reward: str) -> list[float]:
    """The returns of a finished ``state`` under ``reward`` (one of :data:`REWARDS`)."""
    if reward in POINTS:
        return points_returns(config.game.scores(state), config.players, reward)
    if reward == "win_loss":
        return win_loss_returns(config.game.winners(state), config.players)
    return win_returns(config.game.winners(state), config.players)


class ActionTexts(Mapping[int, str]):
    """The legal actions' texts by action id (``Game.format``: what a person types, e.g.
    ``c3``), worked out on first look: an environment puts one in the acting agent's
    ``info["action_texts"]`` at every step, and a learner that never reads it pays
    nothing. It pickles and copies as a plain dict."""

    __slots__ = ("_config", "_ids", "_state", "_texts")

    def __init__(self, config: Setup, state: Any, ids: Sequence[int]) -> None:
        self._config, self._state, self._ids = config, state, ids  # read when first asked
        self._texts: dict[int, str] | None = None

    def _all(self) -> dict[int, str]:
        if self._texts is None:
            game, state, action_of = self._config.game, self._state, self._config.encoding.action_of
            self._texts = {i: str(game.format(state, action_of(state, i))) for i in self._ids}
        return self._texts

    def __getitem__(self, action_id: int) -> str:
        return self._all()[action_id]

    def __iter__(self) -> Iterator[int]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._ids)

    def __repr__(self) -> str:
        return repr(self._all())

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (self._all(),))


Layout = dict[str, tuple[int, int]]


def layout(config: Setup) -> Layout:
    """Where each named block of the observation vector lies: ``{name: (start, stop)}``
    (``vector[start:stop]``), in order. From the encoding facet's (or, old shape, the
    game's) ``observation_blocks(players, options)`` where it has one (optional:
    ``(name, size)`` pairs), else the
    ``LAYOUT`` of its package's ``encoding`` module (Quarto, Quartino, Čtverák), else one
    block ``observation``; blocks that do not add up to the vector are not trusted."""
    game = config.game
    size = 1
    for n in config.shape:
        size *= n
    blocks: Any = None
    method = getattr(config.encoding, "observation_blocks", None)  # the encoding facet's
    method = method if callable(method) else getattr(game, "observation_blocks", None)
    if callable(method):
        blocks = method(config.players, config.options)
    else:
        package = type(game).__module__.rpartition(".")[0]
        try:
            module = importlib.import_module(package + ".encoding") if package else None
        except ImportError:
            module = None
        blocks = getattr(module, "LAYOUT", None)
    out: Layout = {}
    at = 0
    for name, width in blocks or ():
        out[str(name)] = (at, at + int(width))
        at += int(width)
    return out if out and at == size else {"observation": (0, size)}


def rendered(mode: str | None, game: Game[Any, Any], state: Any, player: int | None) -> str | None:
    """An env's ``render()``: ``player``'s view of ``state`` (None: a spectator's) drawn
    as the terminal draws it, as plain text: returned (``ansi``), printed (``human``), or
    nothing (no render mode)."""
    if mode is None:
        return None
    from rich.console import Console

    from tabletop.core.presentation import presentation_of

    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, force_terminal=False)
    console.print(presentation_of(game).render(game.view(state, player), player))
    if mode == "human":
        print(out.getvalue(), end="")
        return None
    return out.getvalue()
