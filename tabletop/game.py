"""The rules contract between the core and a game: `Game`, `GameInfo`, `Outcome`.

A game is a set of pure functions over small immutable states ``S`` and actions ``A``
(ints, tuples, NamedTuples). The core owns everything stateful: history, undo, seeds,
players and the checked path (parse, check, apply). Text exists only in ``parse`` and
``format``; JSON only in ``to_json``/``from_json``/``view``.
"""

from __future__ import annotations

import itertools
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, MutableSequence, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NamedTuple, TypeVar

from tabletop.core.errors import ActionError, NotationError, OptionError, PositionError
from tabletop.core.i18n.formats import Count
from tabletop.core.i18n.text import Domain, Msg, and_joined, translate
from tabletop.core.jsonvalues import describe, player_key, whole
from tabletop.core.numbers import parse_int, quote
from tabletop.core.shapes import CHANCE, Actor, chance_rng, draw, player_of

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = [
    "CHANCE",
    "JSON",
    "ActionError",
    "Actor",
    "AgentFactory",
    "Count",
    "Domain",
    "Game",
    "GameInfo",
    "IdLister",
    "Msg",
    "NotationError",
    "Observer",
    "OptionError",
    "Outcome",
    "PositionError",
    "Probability",
    "and_joined",
    "describe",
    "has_shapes",
    "joint_actions",
    "observation_layout",
    "options_as",
    "parse_int",
    "player_key",
    "player_of",
    "position_example",
    "quote",
    "translate",
    "whole",
]

S = TypeVar("S")
A = TypeVar("A")
M = TypeVar("M", bound="BaseModel")

JSON = dict[str, Any]
_ = Domain("tabletop")

Probability = Fraction | float
"""An outcome's probability at a chance step: exact as a Fraction, or a float."""


class Outcome(NamedTuple):
    """How a finished game ended.

    ``winners`` are player numbers (empty for a draw); ``reason`` is the prose for people,
    citing the rule; ``kind`` is one short machine-readable word for programs (the web
    page, balance statistics): ``line``, ``draw``, ``completed``, ``blocked``,
    ``turn-limit``, ``time``, ... A game picks its own words; empty means it did not say.
    """

    winners: tuple[int, ...]
    reason: str = ""
    kind: str = ""


@dataclass(frozen=True)
class GameInfo:
    """What a game declares about itself (shown by ``tabletop games``)."""

    id: str
    name: str
    version: str
    min_players: int
    max_players: int
    options: type[BaseModel]
    summary: str = ""
    hidden_information: bool = False
    # Upper bound on the actions of one game, counted as a record counts them: every chance
    # outcome and every player's choice of a simultaneous step (the conformance kit checks it).
    max_actions: Callable[[int, BaseModel], int] = field(default=lambda players, options: 10_000)
    # Whether the points (``Game.scores``) rather than the winners decide, given the options
    # (e.g. a scoring variant): the arena then ranks the agents by mean points.
    points_decide: Callable[[BaseModel], bool] = field(default=lambda options: False)


# Kept for plugins of the old shape that import it from here; it is
# tabletop.agents.base.AgentFactory (the contract names no agent type: issue 34).
AgentFactory = Callable[[], Any]
# The fast paths of the encodings, bound to one configuration (tabletop.bridges.facet).
Observer = Callable[[Any, int, MutableSequence[float]], None]
IdLister = Callable[[Any], Sequence[int]]


class Game(ABC, Generic[S, A]):
    """The rules contract. Every method is a pure function; states are immutable.

    Subclass it: the abstract methods are required, the others have sensible defaults.
    What else a game offers (encodings, computer players, coaching, presentation) are
    facets in its own modules (:mod:`tabletop.core.facets`), not methods here.

    Player numbers are 1..N. ``legal`` is the exact set ``apply`` accepts; ``listing``
    is what a player is shown (it may offer more, e.g. a claim that would be refused,
    so that the listing reveals nothing).
    """

    info: GameInfo
    # Where this game's facets live when not in the modules named by convention
    # (tabletop.core.facets): e.g. {"encoding": "my_game.ids", "coach": None}.
    facets: ClassVar[Mapping[str, Any]] = {}
    # Whether the players may agree to a draw at the table (``tabletop play``'s ``draw``,
    # the web page's draw offer). A game whose rules know no draw sets it False, and an
    # offer is refused with one line saying so; resigning is always allowed.
    draws: ClassVar[bool] = True

    @abstractmethod
    def new(self, players: int, options: BaseModel, seed: int) -> S:
        """The initial state (shuffles and deals use ``seed`` only)."""
        ...

    @abstractmethod
    def to_act(self, state: S) -> Actor:
        """Who acts now: the player whose action is due; :data:`CHANCE` when chance acts
        (see :meth:`chance_outcomes`); a frozenset of the players who choose at once in a
        simultaneous step (see :meth:`choices`); None when the game is over."""
        ...

    @abstractmethod
    def legal(self, state: S) -> Sequence[A]:
        """The actions ``apply`` accepts now; empty exactly when the game is over."""
        ...

    def listing(self, state: S) -> Sequence[A]:
        """The actions shown to the player to act (``legal`` plus refusable offers)."""
        return self.legal(state)

    def chance_outcomes(self, state: S) -> Sequence[tuple[A, Probability]]:
        """At a chance step (``to_act`` is :data:`CHANCE`): every outcome that can come,
        with its exact probability (a :class:`fractions.Fraction`, or a float), each
        above 0, summing to 1. An outcome is an action like any other: ``apply`` takes it,
        ``format``/``parse`` write and read it (``roll 3``, ``draw 7H``), ``legal`` lists
        the same outcomes, and a scenario or a record states it. The core draws it from
        the match's seed, so the same seed and the same people's actions give the same
        game. Nothing random may hide in the state instead (the kit checks that a game
        whose start depends on the seed hides it from every view)."""
        raise NotImplementedError(f"{self.info.id} has no chance steps")

    def choices(self, state: S, player: int) -> Sequence[A]:
        """The actions ``player`` may choose now. At a simultaneous step (``to_act`` is a
        set of players) their own choices, each made without seeing the others'; the
        core collects them sealed and applies them together as one joint action: a tuple
        of one choice per acting player, in player order (:func:`joint_actions` lists
        them; ``legal`` gives the joint actions there). At an ordinary turn: ``legal``
        for the player to act, nothing for anyone else."""
        actor = self.to_act(state)
        if isinstance(actor, frozenset):
            raise NotImplementedError(f"{self.info.id} has simultaneous steps but no choices")
        return self.legal(state) if actor == player else ()

    def tells(self, state: S, action: A, actor: int, viewer: int | None, now: S) -> bool | None:
        """Whether ``viewer`` (None: a spectator) may now be told the text of ``action``,
        taken by ``actor`` (a player, or :data:`CHANCE`) in ``state``, the game having
        reached ``now`` since (what an action tells can change later: a sealed bid is
        told once its round is revealed, a card drawn once it is shown). None lets the
        core decide (:func:`tabletop.core.table.told`): with perfect information every
        text is told, else the actor always and the others when the text follows from
        what they see. The default says None."""
        return None

    @abstractmethod
    def apply(self, state: S, action: A) -> S:
        """The state after a legal action. Unchecked and fast; never mutates ``state``."""
        ...

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """None while the game goes on; the outcome once it is over."""
        ...

    def winners(self, state: S) -> tuple[int, ...] | None:
        """None while the game goes on; once it is over the winners of :meth:`outcome`
        (empty for a draw), without its sentence: the bridges read only this at the end of
        every game. A game may answer from the state alone; the conformance kit checks it
        equals ``outcome(state).winners``. Default: built from :meth:`outcome`."""
        outcome = self.outcome(state)
        return None if outcome is None else outcome.winners

    def scores(self, state: S) -> dict[int, int] | None:
        """Points per player for games that score, else None."""
        return None

    @abstractmethod
    def refusal(self, state: S, action: A) -> str:
        """Why ``action`` (well-formed, not legal now) is refused, citing the rule ID.

        Never asked once the game is over: the core's checked path refuses every action
        after the end itself ("the game is over; no action is allowed"), before parsing."""
        ...

    @abstractmethod
    def parse(self, state: S, text: str) -> A:
        """The action written as ``text``; raises NotationError saying what is allowed."""
        ...

    @abstractmethod
    def format(self, state: S, action: A) -> str:
        """The canonical notation of ``action`` in ``state``."""
        ...

    def prompt(self, state: S) -> str:
        """What kind of action is due, in a few words (reveals nothing hidden)."""
        return _("your action")

    @abstractmethod
    def view(self, state: S, player: int | None) -> JSON:
        """All that ``player`` may see, as JSON; ``None`` is a spectator."""
        ...

    @abstractmethod
    def to_json(self, state: S) -> JSON:
        """The full position JSON of the rules spec."""
        ...

    @abstractmethod
    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> S:
        """The state for a position JSON; raises PositionError naming what cannot arise."""
        ...

    def hides(self, state: S, action: A) -> bool:
        """Whether the text of ``action``, played in ``state``, would show the other
        players something hidden (e.g. a false claim naming a card of the actor's own
        stand); the table then tells that text to the actor only. Default False: the
        table's own test decides (:func:`tabletop.core.table.told`, which samples hidden
        states and may miss a card that lands in the actor's hand in every sample)."""
        return False

    def sample(
        self, view: JSON, player: int, players: int, options: BaseModel, rng: random.Random
    ) -> S:
        """A full state consistent with ``view`` (all that ``player`` sees), the unseen
        parts drawn with ``rng``: the determinisation of the information-set search.

        Perfect-information games get it for free: their view is the position.
        Hidden-information games override it; the conformance kit checks that every
        sample shows ``player`` exactly ``view`` and keeps every conservation law.
        """
        if self.info.hidden_information:
            raise NotImplementedError(f"{self.info.id} cannot sample hidden states")
        return self.from_json(view, players, options, rng.randrange(2**31))


def has_shapes(game: Game[Any, Any]) -> bool:
    """Whether ``game`` declares chance or simultaneous steps (its class overrides
    ``chance_outcomes`` or ``choices``); else every step is one player's turn, and the
    match and the search keep their turn-by-turn fast paths."""
    cls = type(game)
    return cls.chance_outcomes is not Game.chance_outcomes or cls.choices is not Game.choices


def joint_actions(game: Game[Any, Any], state: Any) -> list[tuple[Any, ...]]:
    """The joint actions of a simultaneous step: one choice of each acting player, in
    player order (what ``legal`` gives there and ``apply`` takes)."""
    actor = game.to_act(state)
    if not isinstance(actor, frozenset):
        raise ValueError("not a simultaneous step")
    return list(itertools.product(*(game.choices(state, p) for p in sorted(actor))))


def observation_layout(blocks: Sequence[tuple[str, int]]) -> tuple[dict[str, int], int]:
    """Where each named block of a flat observation starts, and the observation's size:
    ``(("board", 42), ("to_act", 2))`` gives ``({"board": 0, "to_act": 42}, 44)``."""
    offsets: dict[str, int] = {}
    at = 0
    for name, size in blocks:
        offsets[name] = at
        at += size
    return offsets, at


def options_as(model: type[M], options: BaseModel) -> M:
    """``options`` as the game's own model, e.g. ``options_as(HigherOptions, options)``.

    The core always builds ``info.options``, so this only narrows the type for the
    methods that receive ``options: BaseModel``; anything else is a TypeError.
    """
    if not isinstance(options, model):
        raise TypeError(f"options are {type(options).__name__}, not {model.__name__}")
    return options


def position_example(game: Game[Any, Any]) -> str:
    """The start position's JSON (fewest players, default options, seed 0) as Markdown,
    one top-level key a line, with a line saying what it is."""
    import json

    info = game.info
    options = info.options()
    state, step = game.new(info.min_players, options, 0), 0
    while game.to_act(state) == CHANCE:  # drawn as a match with seed 0 draws them
        state = game.apply(state, draw(game.chance_outcomes(state), chance_rng(0, step)))
        step += 1
    data = game.to_json(state)
    if isinstance(data, dict):
        lines = [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in data.items()]
        shown = "{\n" + ",\n".join(lines) + "\n}"
    else:
        shown = json.dumps(data, ensure_ascii=False)
    said = _(
        "The start position ({players} players, default options, seed 0), as "
        "`tabletop run --json --reveal` prints it under `state`; a scenario's `position:` "
        "gives one like it and `state:` matches keys of it:",
        players=info.min_players,
    )
    return translate(said) + "\n\n```json\n" + shown + "\n```"


# -- the facet methods of the old contract (deprecated: issue 34, for one release) -------
# A plugin written before the facets may still call them on its game (``game.scenarios()``
# in its tests, ``super().hint(...)``); each warns, naming the accessor, and asks it. The
# accessors live above the contract, so they are found by name when called, never imported.
_OLD_METHODS = {
    "render": ("tabletop.core.presentation", "presentation_of"),
    "rules_text": ("tabletop.core.presentation", "presentation_of"),
    "web_board": ("tabletop.core.presentation", "presentation_of"),
    "scenarios": ("tabletop.core.presentation", "presentation_of"),
    "languages": ("tabletop.core.presentation", "presentation_of"),
    "position_format": ("tabletop.core.presentation", "presentation_of"),
    "agents": ("tabletop.agents.facet", "players_of"),
    "levels": ("tabletop.agents.facet", "players_of"),
    "evaluate": ("tabletop.agents.facet", "players_of"),
    "solve": ("tabletop.agents.facet", "players_of"),
    "coach": ("tabletop.coach.facet", "coaching_of"),
    "hint": ("tabletop.coach.facet", "coaching_of"),
    "action_ids": ("tabletop.bridges.facet", "encoding_of"),
    "action_id": ("tabletop.bridges.facet", "encoding_of"),
    "action_of": ("tabletop.bridges.facet", "encoding_of"),
    "observation_shape": ("tabletop.bridges.facet", "encoding_of"),
    "observation": ("tabletop.bridges.facet", "encoding_of"),
    "observer": ("tabletop.bridges.facet", "encoding_of"),
    "id_lister": ("tabletop.bridges.facet", "encoding_of"),
}


def _old_method(name: str, module: str, accessor: str) -> Callable[..., Any]:
    """``Game.<name>`` of the old contract: a DeprecationWarning, then ``accessor(game)``."""

    def old(self: Game[Any, Any], *args: Any, **kwargs: Any) -> Any:
        import importlib
        import warnings

        warnings.warn(
            f"Game.{name} is deprecated (issue 34): call {module}.{accessor}(game).{name}",
            DeprecationWarning,
            stacklevel=2,
        )
        if name in vars(type(self)):  # super() from the class's own override: no default
            raise NotImplementedError(f"Game.{name} has no default since issue 34")
        facet = getattr(importlib.import_module(module), accessor)(self)
        if facet is None:  # a game without an encoding
            if name == "action_ids":
                return None
            raise NotImplementedError(f"{self.info.id} has no action encoding")
        return getattr(facet, name)(*args, **kwargs)

    old.__name__ = old.__qualname__ = name
    old.__doc__ = f"Deprecated (issue 34): ``{accessor}(game).{name}``."
    return old


for _name, (_module, _accessor) in _OLD_METHODS.items():
    setattr(Game, _name, _old_method(_name, _module, _accessor))
