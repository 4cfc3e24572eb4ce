"""The rules contract between the core and a game: `Game`, `GameInfo`, `Outcome`.

A game is a set of pure functions over small immutable states ``S`` and actions ``A``
(ints, tuples, NamedTuples). The core owns everything stateful: history, undo, seeds,
players and the checked path (parse, check, apply). Text exists only in ``parse`` and
``format``; JSON only in ``to_json``/``from_json``/``view``.
"""

from __future__ import annotations

import importlib.resources
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, MutableSequence, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NamedTuple, TypeVar

from tabletop.core.errors import ActionError, NotationError, OptionError, PositionError
from tabletop.core.i18n.formats import Count
from tabletop.core.i18n.text import Domain, Msg, and_joined, translate
from tabletop.core.jsonvalues import describe, player_key, whole
from tabletop.core.numbers import parse_int, quote

if TYPE_CHECKING:
    from pydantic import BaseModel

    from tabletop.agents.base import Agent, Level
    from tabletop.coach.base import Coach

__all__ = [
    "JSON",
    "ActionError",
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
    "and_joined",
    "describe",
    "observation_layout",
    "options_as",
    "parse_int",
    "player_key",
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
    # Upper bound on the actions of one game (the conformance kit checks it).
    max_actions: Callable[[int, BaseModel], int] = field(default=lambda players, options: 10_000)
    # Whether the points (``Game.scores``) rather than the winners decide, given the options
    # (e.g. a scoring variant): the arena then ranks the agents by mean points.
    points_decide: Callable[[BaseModel], bool] = field(default=lambda options: False)


AgentFactory = Callable[[], "Agent"]
# The fast paths of the encodings, bound to one configuration (Game.observer, Game.id_lister).
Observer = Callable[[Any, int, MutableSequence[float]], None]
IdLister = Callable[[Any], Sequence[int]]


def _in_package(game: Game[Any, Any], *parts: str) -> Path | None:
    """A path inside the package of ``game``'s class, None for a game defined outside one
    (a single-module plugin, a script, a test)."""
    package = type(game).__module__.split(".")[0]
    try:
        return Path(str(importlib.resources.files(package))).joinpath(*parts)
    except (AttributeError, ModuleNotFoundError, TypeError, ValueError):
        return None


class Game(ABC, Generic[S, A]):
    """The whole rules contract. Every method is a pure function; states are immutable.

    Subclass it: the abstract methods are required, the others have sensible defaults.

    Player numbers are 1..N. ``legal`` is the exact set ``apply`` accepts; ``listing``
    is what a player is shown (it may offer more, e.g. a claim that would be refused,
    so that the listing reveals nothing).
    """

    info: GameInfo
    # Where this game's facets live when not in the modules named by convention
    # (tabletop.core.facets): e.g. {"encoding": "my_game.ids", "coach": None}.
    facets: ClassVar[Mapping[str, Any]] = {}

    @abstractmethod
    def new(self, players: int, options: BaseModel, seed: int) -> S:
        """The initial state (shuffles and deals use ``seed`` only)."""
        ...

    @abstractmethod
    def to_act(self, state: S) -> int | None:
        """The player whose action is due, or None when the game is over."""
        ...

    @abstractmethod
    def legal(self, state: S) -> Sequence[A]:
        """The actions ``apply`` accepts now; empty exactly when the game is over."""
        ...

    def listing(self, state: S) -> Sequence[A]:
        """The actions shown to the player to act (``legal`` plus refusable offers)."""
        return self.legal(state)

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

    def render(self, view: JSON, player: int | None) -> Any:
        """A rich renderable of a view (drawn by ``tabletop play`` and ``replay``)."""
        import json

        return json.dumps(view, indent=2, ensure_ascii=False)

    def rules_text(self) -> str:
        """The rules and the notation, as Markdown, in the current language
        (:func:`tabletop.core.i18n.text.current`; :func:`~tabletop.core.i18n.text.speaking`
        runs a call in another). Default: its package's ``README.<lang>.md``, else its
        ``README.md``; a game defined outside a package, or without one, shows its name and
        summary."""
        from tabletop.core.i18n.catalogues import ENGLISH
        from tabletop.core.i18n.text import current

        lang = current()
        names = ["README.md"] if lang == ENGLISH else [f"README.{lang}.md", "README.md"]
        for name in names:
            readme = _in_package(self, name)
            if readme is not None and readme.is_file():
                return readme.read_text("utf-8")
        return f"# {self.info.name}\n\n{self.info.summary}\n"

    def languages(self) -> list[str]:
        """The languages this game speaks, English first: those its package ships a
        catalogue for (``<package>/locale/<lang>/LC_MESSAGES/<package>.po``; see
        :mod:`tabletop.core.i18n.catalogues`). Its messages in any other language are
        English."""
        from tabletop.core.i18n.catalogues import languages_of

        return languages_of(type(self).__module__.split(".")[0])

    def position_format(self) -> str:
        """How this game's position JSON looks, as Markdown (``tabletop rules`` shows it):
        what ``to_json`` writes and ``from_json`` reads, what a scenario's ``position:``
        gives and its ``state:`` matches. Default: the start position as an example."""
        return position_example(self)

    def hides(self, state: S, action: A) -> bool:
        """Whether the text of ``action``, played in ``state``, would show the other
        players something hidden (e.g. a false claim naming a card of the actor's own
        stand); the table then tells that text to the actor only. Default False: the
        table's own test decides (:func:`tabletop.core.table.told`, which samples hidden
        states and may miss a card that lands in the actor's hand in every sample)."""
        return False

    def hint(self, view: JSON, player: int, options: BaseModel) -> str:
        """Advice for ``player`` from their own view (e.g. which card matches where)."""
        return _("no hints for this game")

    def scenarios(self) -> list[Path]:
        """The rule-scenario files this game ships (default: its package's ``scenarios/``;
        none for a game defined outside a package)."""
        folder = _in_package(self, "scenarios")
        return sorted(folder.glob("*.yaml")) if folder is not None and folder.is_dir() else []

    def web_board(self) -> Path | None:
        """The browser board this game ships (default: its package's ``web/board.js``),
        or None: ``tabletop serve`` then shows the generic board (the view, readably, and
        the legal actions as buttons). The file is an ES module exporting
        ``render(root, position, act, seat)``; see ``docs/web.md``."""
        board = _in_package(self, "web", "board.js")
        return board if board is not None and board.is_file() else None

    # -- encodings for learning frameworks (all optional; tabletop.bridges) -------------
    def action_ids(self, players: int, options: BaseModel) -> int | None:
        """How many distinct action ids the game uses (ids are ``0 .. n-1``), or None when
        the game provides no encoding. With it come :meth:`action_id`, :meth:`action_of`,
        :meth:`observation_shape` and :meth:`observation` (and their optional fast paths
        :meth:`observer` and :meth:`id_lister`); the conformance kit checks them.
        """
        return None

    def action_id(self, state: S, action: A) -> int:
        """The id of ``action``, legal in ``state``. An id names the same action in every
        state where that action is legal ("place on c3", never "the 5th legal action");
        distinct legal actions of one state have distinct ids."""
        raise NotImplementedError(f"{self.info.id} has no action encoding")

    def action_of(self, state: S, action_id: int) -> A:
        """The action an id names in ``state`` (inverse of :meth:`action_id` on legal actions;
        for an id not legal in ``state`` any action ``apply`` would refuse, or ValueError)."""
        raise NotImplementedError(f"{self.info.id} has no action encoding")

    def observation_shape(self, players: int, options: BaseModel) -> tuple[int, ...]:
        """The shape of :meth:`observation`'s vector (one dimension: its length)."""
        raise NotImplementedError(f"{self.info.id} has no observation encoding")

    def observation(self, view: JSON, player: int, players: int, options: BaseModel) -> list[float]:
        """``player``'s view (``view(state, player)``) as a flat list of numbers of the
        declared shape. Built from the view only, so it can carry nothing hidden; plain
        floats (no numpy in the core): the bridges convert."""
        raise NotImplementedError(f"{self.info.id} has no observation encoding")

    def observer(self, players: int, options: BaseModel) -> Observer:
        """The fast path of :meth:`observation`, bound once to a configuration:
        ``observe(state, player, out)`` writes ``player``'s observation of ``state`` into
        ``out``, a zero-filled flat float32 buffer of the declared size that takes item
        and slice assignment (the bridges pass a memoryview of a fresh numpy row, or the
        row itself to a compiled observer, a built-in function; the kit an
        ``array.array("f")``), skipping the view's JSON. It reads the state, so it
        must write exactly what ``observation(view(state, player), ...)`` gives, nothing
        the view hides; the conformance kit checks both on random positions (also
        against states whose hidden parts are resampled). Default: the slow path, copied
        in."""
        observation, view = self.observation, self.view

        def observe(state: S, player: int, out: MutableSequence[float]) -> None:
            values = observation(view(state, player), player, players, options)
            for i, value in enumerate(values):
                out[i] = value

        return observe

    def id_lister(self, players: int, options: BaseModel) -> IdLister:
        """The fast path of the action mask, bound once to a configuration: a function
        giving the ids of ``legal(state)``, in its order, as ints in a list or tuple (one
        pass; a game can look its ids up instead of calling :meth:`action_id` per action,
        and a game whose actions are their ids can give ``legal`` itself). The conformance
        kit checks it against :meth:`action_id`. Default: :meth:`action_id` of each."""
        legal, action_id = self.legal, self.action_id

        def ids(state: S) -> list[int]:
            return [action_id(state, action) for action in legal(state)]

        return ids

    # -- for computer players (all optional) -------------------------------------------
    def agents(self) -> Mapping[str, AgentFactory]:
        """Extra named agents of this game (e.g. ``basic``), beside the generic ones."""
        return {}

    def levels(self) -> Mapping[str, Level]:
        """This game's own levels ``1``-``5`` (each replaces the generic one of that name)."""
        return {}

    def evaluate(self, state: S, player: int) -> float | None:
        """How good ``state`` looks for ``player``: 0 (lost) to 1 (won); None = no opinion.

        The generic ``greedy`` agent ranks actions by it, and the search agents score
        positions with it where they stop a playout early.
        """
        return None

    def coach(self, level: str) -> Coach | None:
        """This game's own coach for ``level`` (``1``-``5``), or None for the generic one.

        A coach (:class:`tabletop.coach.base.Coach`) judges every legal action of a turn
        from the acting player's view alone: ``assess(turn)`` returns an
        :class:`~tabletop.coach.base.Assessment`, each action's win chance (exact where
        the game can prove it) and a sentence of why. ``hint`` in ``tabletop play`` and
        ``tabletop review`` use it. The generic coach (None) reads out ``level``'s tree
        search (:class:`tabletop.coach.search.SearchCoach`), or the generic search of that
        level's budget when the level is no search; a game overrides it to be exact
        (Quarto's solver) or to say why (Čtverák's pairs and melds).
        """
        return None

    def solve(self, state: S, seconds: float | None) -> JSON | None:
        """The exact game-theoretic value of ``state`` for the player to act, if the game
        has a solver (None otherwise), within ``seconds`` (None: however long it takes).

        The JSON has at least ``value`` (``win``/``draw``/``loss``, or ``unknown`` when the
        budget ran out), ``exact`` (bool), ``best`` (an action in notation or null) and
        ``summary`` (one line for people); a game adds what it measures (e.g. placements).
        """
        return None

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
    data = game.to_json(game.new(info.min_players, options, 0))
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
