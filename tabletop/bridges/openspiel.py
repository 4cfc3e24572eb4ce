"""Every installed game as an OpenSpiel (pyspiel) Python game: ``register()``.

    from tabletop.bridges import openspiel
    import pyspiel

    openspiel.register()
    game = pyspiel.load_game("tabletop_quartino", {"players": 3, "mirror": True})

Short names are ``tabletop_<id>``; the parameters are ``players`` and every option under
its own name (a list-valued option such as Quarto's ``attributes`` is written with
``+``, e.g. ``colour+height``: OpenSpiel's game strings use commas themselves).
Players are numbered from 0 (seat 1 is player 0). Action ids are the game's own
(the encoding's ``action_id``, :mod:`.facet`); the observation tensor is its observation of the
player's view and the observation string that view as JSON.

Returns (parameter ``reward``, :mod:`.common`): ``win`` (the default) each winner +1,
every other player -1, a draw 0; ``win_loss`` OpenSpiel's (the winners share +1, the
losers -1, zero-sum); ``score`` each player's points minus the mean of the others';
``point_difference`` points minus the mean of all; ``total_points`` the points (the
last three for games that keep points, :meth:`~tabletop.game.Game.scores`).

The tree is the game's own (issue 36). Its chance nodes are the game's chance steps
(``to_act`` is ``CHANCE``), with their exact probabilities (``chance_outcomes``; ids from
the encoding's ``chance_id``, else its action ids), and nothing else: a game with no
chance step is ``DETERMINISTIC`` whether or not it hides information, its deal being the
game parameter ``seed`` (default 0). A game with simultaneous steps (``to_act`` a set of
players) has ``SIMULTANEOUS`` dynamics: at such a node each player's legal actions are
the ids of their own ``choices`` (a player outside the set has the one id 0, a pass),
``apply_actions`` applies the joint action, so ``pyspiel.convert_to_turn_based``, CFR on
it and the simultaneous-move algorithms work; chance and single-player nodes may come
between. Perfect information unless the game hides something
(``GameInfo.hidden_information``). States serialize as their history, so
``pyspiel.serialize_game_and_state`` and ``random_sim_test(serialize=True)`` work; games
and states pickle and copy (``copy.deepcopy``) to equal ones, in a fresh process too
(:mod:`.states`: a game as its game string, a state as its history).

Information states have perfect recall (:mod:`.observers`, :mod:`.recall`):
``information_state_string(p)`` names player p's whole record (what they saw change and
what they did); ``make_py_observer`` honours every ``IIGObservationType``.
``state.resample_from_infostate(p, sampler)`` is a history of this tree that p cannot
tell from the real one (:mod:`.states`: the chance outcomes and others' hidden actions
drawn again, consistent with everything p saw; a game with no chance step samples p's
view, :meth:`~tabletop.game.Game.sample`), whole (the same history length and move
number, p's records and every public one kept), so
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` plays; :class:`SampledBot` puts any
OpenSpiel bot at a seat so that it acts on such a sample, never on the hidden cards.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

try:
    import numpy  # noqa: F401 - the observers' tensors
    import pyspiel
except ImportError as exc:  # pragma: no cover - the extra is missing
    from tabletop.bridges.common import MISSING
    from tabletop.core.errors import UsageError

    raise UsageError(MISSING) from exc

from pydantic import BaseModel

from tabletop.bridges.common import (
    POINTS,
    ZERO_SUM,
    Setup,
    check_reward,
    end_returns,
    has_chance,
    has_simultaneous,
    setup,
)
from tabletop.bridges.facet import encodes
from tabletop.bridges.observers import Kind, Observer
from tabletop.bridges.recall import Step
from tabletop.bridges.states import Frozen as Frozen  # re-exported (it lived here)
from tabletop.bridges.states import History, history_of, own_kinds, resampled_state, with_history
from tabletop.core import options as opts
from tabletop.core.registry import registry
from tabletop.game import CHANCE, Game

SEP = "+"  # joins the values of a list option
REWARD = "reward"  # the parameter of the returns (:data:`~.common.REWARDS`)
SEED = "seed"  # the parameter of the deal of a game without chance steps
SCORE_BOUND = 10_000.0  # the utility bounds declared for points (a bound, not a measure)
PREFIX = "tabletop_"
PASS = 0  # the one legal id of a player outside a simultaneous step's set
_T = pyspiel.GameType
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_SIMULTANEOUS = int(pyspiel.PlayerId.SIMULTANEOUS)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
INFO_STATE = pyspiel.IIGObservationType(perfect_recall=True)


def parameters(game: Game[Any, Any]) -> dict[str, Any]:
    """The OpenSpiel parameters of a game with their defaults: ``players``, ``reward``,
    ``seed`` (the deal, for a game without chance steps), then each option (lists as
    ``+`` text; options without a simple value are not offered)."""
    found: dict[str, Any] = {"players": game.info.min_players, REWARD: "win"}
    if not has_chance(game):
        found[SEED] = 0
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
        if name in ("players", REWARD) or (name == SEED and name not in defaults):
            continue
        if isinstance(defaults.get(name), list) and isinstance(value, str):
            value = [part.strip() for part in value.split(SEP) if part.strip()]
        out[name] = value
    return out


def game_type(game: Game[Any, Any], config: Setup | None = None, reward: str = "win") -> Any:
    """The GameType of a game (of one configuration: utility is exact)."""
    info = game.info
    two = (config.players if config else info.max_players) == 2
    zero = reward in ZERO_SUM or (two and reward == "win")
    return pyspiel.GameType(
        short_name=PREFIX + info.id,
        long_name=f"{info.name} (tabletop)",
        dynamics=_T.Dynamics.SIMULTANEOUS if has_simultaneous(game) else _T.Dynamics.SEQUENTIAL,
        chance_mode=(
            _T.ChanceMode.EXPLICIT_STOCHASTIC if has_chance(game) else _T.ChanceMode.DETERMINISTIC
        ),
        information=(
            _T.Information.IMPERFECT_INFORMATION
            if info.hidden_information
            else _T.Information.PERFECT_INFORMATION
        ),
        utility=_T.Utility.ZERO_SUM if zero else _T.Utility.GENERAL_SUM,
        reward_model=_T.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(game),
        # public-only and private-only observers exist (observers.py): factored strings
        provides_factored_observation_string=True,
    )


class TabletopGame(pyspiel.Game):  # type: ignore[misc]
    """One configured tabletop game as a pyspiel game (made by :func:`register`)."""

    tabletop: Game[Any, Any]  # set on the subclass of each game

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**parameters(self.tabletop), **(params or {})}
        self.config = setup(self.tabletop, int(values["players"]), _options(self.tabletop, values))
        c = self.config
        self.reward = str(values[REWARD])
        self.seed = int(values.get(SEED, 0))
        check_reward(c, self.reward)
        bound = SCORE_BOUND if self.reward in POINTS else 1.0
        chance_ids = c.encoding.chance_ids(c.players, c.options) if c.chance else 0
        zero = self.reward in ZERO_SUM or (c.players == 2 and self.reward == "win")
        info = pyspiel.GameInfo(
            num_distinct_actions=c.ids,
            max_chance_outcomes=int(chance_ids or 0),
            num_players=c.players,
            min_utility=0.0 if self.reward == "total_points" else -bound,
            max_utility=bound,
            utility_sum=0.0 if zero else None,
            max_game_length=c.game.info.max_actions(c.players, c.options) * c.players,
        )
        super().__init__(game_type(self.tabletop, c, self.reward), info, values)
        self.shared = Frozen(c)
        self.info_kind = Frozen(Kind(c, INFO_STATE))
        self.own_kinds = Frozen(own_kinds(c))

    def __reduce__(self) -> tuple[Any, ...]:
        # by its game string, loaded where the tabletop games are registered (states.py)
        return (load_game, (str(self),))

    def new_initial_state(self) -> TabletopState:
        # the start is one immutable value: made once (pyspiel's clone starts from here)
        start = self.__dict__.get("_start")
        if start is None:
            c = self.config
            start = self._start = c.game.new(c.players, c.options, self.seed)
        return TabletopState(self, Step(None, start))

    def state_of(self, state: Any) -> TabletopState:
        """An OpenSpiel state holding the tabletop ``state`` (its history is not known:
        for search from a position, e.g. a sample of a player's view; records start here)."""
        return TabletopState(self, Step(None, state))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer:
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return Observer(self.config, kind, params)


def node_of(actor: Any) -> int:
    """The OpenSpiel player of a tabletop ``to_act``: seat - 1, chance, simultaneous or
    terminal."""
    if actor is None:
        return _TERMINAL
    if isinstance(actor, frozenset):
        return _SIMULTANEOUS
    return _CHANCE if actor == CHANCE else int(actor) - 1


class TabletopState(pyspiel.State):  # type: ignore[misc]
    """A position: the history of tabletop states (:class:`~tabletop.bridges.recall.Step`)."""

    def __init__(self, game: TabletopGame, step: Step) -> None:
        super().__init__(game)
        self.shared = game.shared
        self.info_kind = game.info_kind
        self.reward = game.reward
        self.held = Frozen(step)

    @property
    def step(self) -> Step:
        """The last link of the history."""
        return self.held.value  # type: ignore[no-any-return]

    @property
    def tabletop(self) -> Any:
        """The tabletop state."""
        return self.held.value.state

    def current_player(self) -> int:
        return node_of(self.shared.value.game.to_act(self.held.value.state))

    def _legal_actions(self, player: int) -> list[int]:
        c, state = self.shared.value, self.held.value.state
        actor = c.game.to_act(state)
        action_id = c.encoding.action_id
        if isinstance(actor, frozenset):
            if player == _SIMULTANEOUS:  # the flat joint actions (OpenSpiel's numbering)
                return list(range(math.prod(len(self._legal_actions(p)) for p in range(c.players))))
            if player + 1 not in actor:
                return [PASS]
            return sorted(action_id(state, choice) for choice in c.game.choices(state, player + 1))
        if actor != player + 1:
            return []
        return sorted(action_id(state, action) for action in c.game.legal(state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        c, state = self.shared.value, self.held.value.state
        if c.game.to_act(state) != CHANCE:
            return []
        chance_id = c.encoding.chance_id
        return sorted(
            (chance_id(state, outcome), float(p)) for outcome, p in c.game.chance_outcomes(state)
        )

    def _apply_action(self, action: int) -> None:
        c, step = self.shared.value, self.held.value
        state = step.state
        actor = c.game.to_act(state)
        if actor == CHANCE:
            after = c.game.apply(state, c.encoding.chance_of(state, int(action)))
            self.held = Frozen(step.then(after, _CHANCE, int(action)))
            return
        if isinstance(actor, frozenset):  # a flat joint action: player 0's index varies fastest
            joint, flat = [], int(action)
            for p in range(c.players):
                ids = self._legal_actions(p)
                joint.append(ids[flat % len(ids)])
                flat //= len(ids)
            self._apply_actions(joint)
            return
        after = c.game.apply(state, c.encoding.action_of(state, int(action)))
        self.held = Frozen(step.then(after, actor - 1, int(action)))

    def _apply_actions(self, actions: list[int]) -> None:
        c, step = self.shared.value, self.held.value
        state = step.state
        acting = sorted(c.game.to_act(state))
        action_of = c.encoding.action_of
        joint = tuple(action_of(state, int(actions[p - 1])) for p in acting)
        taken = tuple(int(a) if p + 1 in acting else None for p, a in enumerate(actions))
        self.held = Frozen(step.then(c.game.apply(state, joint), _SIMULTANEOUS, taken))

    def _action_to_string(self, player: int, action: int) -> str:
        c, state = self.shared.value, self.held.value.state
        actor = c.game.to_act(state)
        try:
            if player == _CHANCE or actor == CHANCE:
                return str(c.game.format(state, c.encoding.chance_of(state, int(action))))
            if isinstance(actor, frozenset) and player + 1 not in actor:
                return "pass"
            return str(c.game.format(state, c.encoding.action_of(state, int(action))))
        except (ValueError, IndexError, KeyError, TypeError):
            return f"action {action}"

    def is_terminal(self) -> bool:
        return self.shared.value.game.to_act(self.held.value.state) is None

    def returns(self) -> list[float]:
        c, state = self.shared.value, self.held.value.state
        if c.game.to_act(state) is not None:
            return [0.0] * c.players
        return end_returns(c, state, self.reward)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TabletopState:
        """A history of this tree that ``player_id`` cannot tell from this one (the
        generator seeded from ``probability_sampler()``), whole: the same history length
        and move number, that player's records and every public one kept (:mod:`.states`)."""
        state: TabletopState = resampled_state(self, player_id, probability_sampler)
        return state

    def __reduce__(self) -> tuple[Any, ...]:
        # the game string, the history and the chain of tabletop states (states.py)
        game = str(self.get_game())
        history = history_of(self)
        return (restore_state, (game, history, self.move_number(), self.held.value))

    def __str__(self) -> str:
        return json.dumps(self.shared.value.game.to_json(self.held.value.state), sort_keys=True)


class SampledBot(pyspiel.Bot):  # type: ignore[misc]
    """Any OpenSpiel bot made safe for a hidden-information game: each ``step`` hands it a
    state resampled from the acting player's information state (other hidden cards,
    the same record), so a bot that reads the whole state (``MCTSBot``, alpha-beta, a
    policy that peeks) can only use what that player knows. ``SampledBot(bot, seed)``."""

    def __init__(self, bot: Any, seed: int = 0) -> None:
        super().__init__()
        self.bot = bot
        self.rng = random.Random(seed)

    def step(self, state: Any) -> int:
        sample = state.resample_from_infostate(state.current_player(), self.rng.random)
        return int(self.bot.step(sample))

    def restart_at(self, state: Any) -> None:
        pass  # the real state never reaches the bot

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass

    def provides_policy(self) -> bool:
        return False


def register() -> list[str]:
    """Register every installed game that has encodings (:mod:`tabletop.bridges.facet`)
    with pyspiel, once; the short names (``tabletop_<id>``) of all of them."""
    names = []
    known = set(pyspiel.registered_names())
    for game_id in registry().ids():
        game = registry().get(game_id)
        if encodes(game, game.info.min_players, game.info.options()) is None:
            continue
        names.append(register_game(game, known))
    return names


def register_game(game: Game[Any, Any], known: set[str] | None = None) -> str:
    """Register one tabletop game object with pyspiel (a game not installed as a plugin,
    e.g. a test's), once; its short name ``tabletop_<id>``."""
    name = PREFIX + game.info.id
    if name not in (known if known is not None else set(pyspiel.registered_names())):
        cls = type(f"Tabletop_{game.info.id}", (TabletopGame,), {"tabletop": game})
        pyspiel.register_game(game_type(game), cls)
    return name


def load_game(game_string: str) -> Any:
    """The pyspiel game of ``game_string`` with the tabletop games registered (what an
    unpickled game is: :meth:`TabletopGame.__reduce__`)."""
    register()
    return pyspiel.load_game(game_string)


def restore_state(
    game_string: str, history: History, move_number: int, step: Step, *_old: Any
) -> TabletopState:
    """An unpickled state (:meth:`TabletopState.__reduce__`): the game loaded, then the
    state with that history, move number and chain of tabletop states."""
    game = load_game(game_string)
    state: TabletopState = with_history(game, history, move_number, held=Frozen(step))
    return state


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
