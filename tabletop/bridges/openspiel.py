"""Every installed game as an OpenSpiel (pyspiel) Python game: ``register()``.

    from tabletop.bridges import openspiel
    import pyspiel

    openspiel.register()
    game = pyspiel.load_game("tabletop_quartino", {"players": 3, "mirror": True})

Short names are ``tabletop_<id>``; the parameters are ``players`` and every option under
its own name (a list-valued option such as Quarto's ``attributes`` is written with
``+``, e.g. ``colour+height``: OpenSpiel's game strings use commas themselves).
Players are numbered from 0 (seat 1 is player 0). Action ids are the game's own
(:meth:`~tabletop.game.Game.action_id`); the observation tensor is its observation of the
player's view and the observation string that view as JSON. Returns: each winner +1,
every other player -1, a draw 0 (zero-sum with two players, general-sum with more).

Dynamics are declared as they are: sequential turns; perfect information unless the
game hides something (``GameInfo.hidden_information``). A game whose deal depends on the
seed (hidden cards, a starting player by lot, ...) begins with one explicit chance node,
the shuffle: :data:`SHUFFLES` equally likely outcomes, outcome ``s`` being the game's own
shuffle with seed ``s``. Every later draw comes from that shuffled stock (and a
reshuffle from that seed), so this one node is all the chance there is. A deterministic
game (Quarto, Connect Four) has no chance node. States serialize as their history, so
``pyspiel.serialize_game_and_state`` and ``random_sim_test(serialize=True)`` work.
"""

from __future__ import annotations

import json
from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as exc:  # pragma: no cover - the extra is missing
    from tabletop.bridges.common import MISSING
    from tabletop.core.errors import UsageError

    raise UsageError(MISSING) from exc

from pydantic import BaseModel

from tabletop.bridges.common import Setup, returns, setup
from tabletop.core import options as opts
from tabletop.core.registry import registry
from tabletop.game import Game

SHUFFLES = 1 << 16
SEP = "+"  # joins the values of a list option
PREFIX = "tabletop_"
_T = pyspiel.GameType


class Frozen:
    """A holder that copying shares: tabletop states are immutable, so a clone of an
    OpenSpiel state may share them (no deep copy of a whole position per clone)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> Frozen:
        return self

    def __copy__(self) -> Frozen:
        return self


def parameters(game: Game[Any, Any]) -> dict[str, Any]:
    """The OpenSpiel parameters of a game with their defaults: ``players``, then each
    option (lists as ``+`` text; options without a simple value are not offered)."""
    found: dict[str, Any] = {"players": game.info.min_players}
    for name, value in opts.dump(game.info.options()).items():
        if isinstance(value, list):
            found[name] = SEP.join(str(v) for v in value)
        elif isinstance(value, bool | int | float | str):
            found[name] = value
    return found


def _options(game: Game[Any, Any], values: dict[str, Any]) -> dict[str, Any]:
    """Parameter values as option values (``+`` text back to a list where the default
    is one)."""
    defaults = opts.dump(game.info.options())
    out: dict[str, Any] = {}
    for name, value in values.items():
        if name == "players":
            continue
        if isinstance(defaults.get(name), list) and isinstance(value, str):
            value = [part.strip() for part in value.split(SEP) if part.strip()]
        out[name] = value
    return out


def game_type(game: Game[Any, Any], config: Setup | None = None) -> Any:
    """The GameType of a game (of one configuration: chance and utility are exact)."""
    info = game.info
    chance = config.chance if config else info.hidden_information
    two = (config.players if config else info.max_players) == 2
    return pyspiel.GameType(
        short_name=PREFIX + info.id,
        long_name=f"{info.name} (tabletop)",
        dynamics=_T.Dynamics.SEQUENTIAL,
        chance_mode=_T.ChanceMode.EXPLICIT_STOCHASTIC if chance else _T.ChanceMode.DETERMINISTIC,
        information=(
            _T.Information.IMPERFECT_INFORMATION
            if info.hidden_information
            else _T.Information.PERFECT_INFORMATION
        ),
        utility=_T.Utility.ZERO_SUM if two else _T.Utility.GENERAL_SUM,
        reward_model=_T.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(game),
    )


class TabletopGame(pyspiel.Game):  # type: ignore[misc]
    """One configured tabletop game as a pyspiel game (made by :func:`register`)."""

    tabletop: Game[Any, Any]  # set on the subclass of each game

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**parameters(self.tabletop), **(params or {})}
        self.config = setup(self.tabletop, int(values["players"]), _options(self.tabletop, values))
        c = self.config
        self.chance = c.chance
        info = pyspiel.GameInfo(
            num_distinct_actions=c.ids,
            max_chance_outcomes=SHUFFLES if self.chance else 0,
            num_players=c.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if c.players == 2 else None,
            max_game_length=c.game.info.max_actions(c.players, c.options) + int(self.chance),
        )
        super().__init__(game_type(self.tabletop, c), info, values)
        self.shared = Frozen(c)

    def new_initial_state(self) -> TabletopState:
        c = self.config
        return TabletopState(self, None if self.chance else c.game.new(c.players, c.options, 0))

    def state_of(self, state: Any) -> TabletopState:
        """An OpenSpiel state holding the tabletop ``state`` (its history is not known:
        for search from a position, e.g. a sample of a player's view)."""
        return TabletopState(self, state)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer:
        return Observer(self.config)


class TabletopState(pyspiel.State):  # type: ignore[misc]
    """A position: ``None`` before the shuffle (the chance node), else the tabletop state."""

    def __init__(self, game: TabletopGame, state: Any) -> None:
        super().__init__(game)
        self.shared = game.shared
        self.held = Frozen(state)

    @property
    def tabletop(self) -> Any:
        """The tabletop state (None before the shuffle)."""
        return self.held.value

    def current_player(self) -> int:
        state = self.held.value
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.shared.value.game.to_act(state)
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat - 1

    def _legal_actions(self, player: int) -> list[int]:
        c, state = self.shared.value, self.held.value
        if state is None or c.game.to_act(state) != player + 1:
            return []
        return sorted(c.game.action_id(state, action) for action in c.game.legal(state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.held.value is not None:
            return []
        return [(seed, 1.0 / SHUFFLES) for seed in range(SHUFFLES)]

    def _apply_action(self, action: int) -> None:
        c, state = self.shared.value, self.held.value
        if state is None:
            self.held = Frozen(c.game.new(c.players, c.options, int(action)))
        else:
            self.held = Frozen(c.game.apply(state, c.game.action_of(state, int(action))))

    def _action_to_string(self, player: int, action: int) -> str:
        c, state = self.shared.value, self.held.value
        if state is None or player == pyspiel.PlayerId.CHANCE:
            return f"shuffle {action}"
        try:
            return str(c.game.format(state, c.game.action_of(state, int(action))))
        except (ValueError, IndexError, KeyError):
            return f"action {action}"

    def is_terminal(self) -> bool:
        state = self.held.value
        return state is not None and self.shared.value.game.to_act(state) is None

    def returns(self) -> list[float]:
        c, state = self.shared.value, self.held.value
        outcome = None if state is None else c.game.outcome(state)
        return returns(outcome, c.players)

    def __str__(self) -> str:
        state = self.held.value
        if state is None:
            return "the shuffle is due"
        return json.dumps(self.shared.value.game.to_json(state), sort_keys=True)


class Observer:
    """The observer (PyObserver protocol): the game's observation of a player's view."""

    def __init__(self, config: Setup) -> None:
        self.config = config
        self.tensor = np.zeros(config.shape, np.float32).reshape(-1)
        self.dict = {"observation": self.tensor.reshape(config.shape)}

    def set_from(self, state: TabletopState, player: int) -> None:
        c, held = self.config, state.tabletop
        if held is None:
            self.tensor.fill(0.0)
            return
        view = c.game.view(held, player + 1)
        self.tensor[:] = c.game.observation(view, player + 1, c.players, c.options)

    def string_from(self, state: TabletopState, player: int) -> str:
        held = state.tabletop
        if held is None:
            return "the shuffle is due"
        return json.dumps(self.config.game.view(held, player + 1), sort_keys=True)


def register() -> list[str]:
    """Register every installed game that has encodings (see :meth:`Game.action_ids`)
    with pyspiel, once; the short names (``tabletop_<id>``) of all of them."""
    names = []
    known = set(pyspiel.registered_names())
    for game_id in registry().ids():
        game = registry().get(game_id)
        if game.action_ids(game.info.min_players, game.info.options()) is None:
            continue
        name = PREFIX + game_id
        names.append(name)
        if name not in known:
            cls = type(f"Tabletop_{game_id}", (TabletopGame,), {"tabletop": game})
            pyspiel.register_game(game_type(game), cls)
    return names


def load(game_id: str, players: int | None = None, options: BaseModel | None = None) -> Any:
    """The registered pyspiel game for a tabletop game id, players and options model."""
    register()
    game = registry().get(game_id)
    params: dict[str, Any] = {}
    if players is not None:
        params["players"] = players
    if options is not None:
        spec = parameters(game)
        params.update({k: v for k, v in _options_back(options).items() if k in spec})
    return pyspiel.load_game(PREFIX + game.info.id, params)


def _options_back(options: BaseModel) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in opts.dump(options).items():
        out[name] = SEP.join(str(v) for v in value) if isinstance(value, list) else value
    return out
