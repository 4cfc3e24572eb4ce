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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar

if TYPE_CHECKING:
    from pydantic import BaseModel

    from tabletop.agents.base import Agent, Level

S = TypeVar("S")
A = TypeVar("A")

JSON = dict[str, Any]


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


AgentFactory = Callable[[], "Agent"]


class Game(ABC, Generic[S, A]):
    """The whole rules contract. Every method is a pure function; states are immutable.

    Subclass it: the abstract methods are required, the others have sensible defaults.

    Player numbers are 1..N. ``legal`` is the exact set ``apply`` accepts; ``listing``
    is what a player is shown (it may offer more, e.g. a claim that would be refused,
    so that the listing reveals nothing).
    """

    info: GameInfo

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

    def scores(self, state: S) -> dict[int, int] | None:
        """Points per player for games that score, else None."""
        return None

    @abstractmethod
    def refusal(self, state: S, action: A) -> str:
        """Why ``action`` (well-formed, not legal now) is refused, citing the rule ID."""
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
        return "your action"

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

    @abstractmethod
    def rules_text(self) -> str:
        """The rules and the notation, as Markdown."""
        ...

    def hint(self, view: JSON, player: int, options: BaseModel) -> str:
        """Advice for ``player`` from their own view (e.g. which card matches where)."""
        return "no hints for this game"

    def scenarios(self) -> list[Path]:
        """The rule-scenario files this game ships (default: its package's ``scenarios/``)."""
        package = type(self).__module__.split(".")[0]
        folder = Path(str(importlib.resources.files(package))) / "scenarios"
        return sorted(folder.glob("*.yaml")) if folder.is_dir() else []

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
