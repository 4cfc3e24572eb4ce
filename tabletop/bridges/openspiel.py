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
player's view and the observation string that view as JSON. Returns (parameter
``reward``): ``win`` (the default) each winner +1, every other player -1, a draw 0
(zero-sum with two players, general-sum with more); ``score`` (games that keep points,
:meth:`~tabletop.game.Game.scores`) each player's points minus the mean of the others'
(zero-sum; the declared bounds are :data:`SCORE_BOUND`).

Dynamics are declared as they are: sequential turns; perfect information unless the
game hides something (``GameInfo.hidden_information``). A game whose deal depends on the
seed (hidden cards, a starting player by lot, ...) begins with the shuffle: :data:`DRAWS`
explicit chance nodes of :data:`DIGITS` equally likely outcomes each, the base-16 digits
(most significant first) of a seed ``s`` below :data:`SHUFFLES`; the deal is the game's
own shuffle with seed ``s``. Every later draw comes from that shuffled stock (and a
reshuffle from that seed), so these nodes are all the chance there is: the deal space is
whole (2^16 shuffles) and costs four 16-way choices a game. A deterministic game (Quarto,
Connect Four) has no chance node. States serialize as their history, so
``pyspiel.serialize_game_and_state`` and ``random_sim_test(serialize=True)`` work; games
and states pickle and copy (``copy.deepcopy``) to equal ones, in a fresh process too
(:mod:`.states`: a game as its game string, a state as its history).

Information states have perfect recall (:mod:`.observers`, :mod:`.recall`):
``information_state_string(p)`` names player p's whole record (what they saw change and
what they did); ``make_py_observer`` honours every ``IIGObservationType``.
``state.resample_from_infostate(p, sampler)`` is a state the game samples from p's view
(:meth:`~tabletop.game.Game.sample`), whole (:mod:`.states`: the same history length and
move number, p's records and every public one kept), so
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` plays; :class:`SampledBot` puts any
OpenSpiel bot at a seat so that it acts on such a sample, never on the hidden cards.
"""

from __future__ import annotations

import json
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

from tabletop.bridges.common import Setup, check_reward, end_returns, setup
from tabletop.bridges.facet import encodes
from tabletop.bridges.observers import BEFORE, Kind, Observer
from tabletop.bridges.recall import Step
from tabletop.bridges.states import Frozen as Frozen  # re-exported (it lived here)
from tabletop.bridges.states import History, history_of, own_kinds, resampled_state, with_history
from tabletop.core import options as opts
from tabletop.core.registry import registry
from tabletop.game import Game

DIGITS = 16  # outcomes of one chance node of the shuffle
DRAWS = 4  # chance nodes of the shuffle: DIGITS ** DRAWS seeds
SHUFFLES = DIGITS**DRAWS
SEP = "+"  # joins the values of a list option
REWARD = "reward"  # the parameter of the returns: "win" (+1/-1/0) or "score" (points)
SCORE_BOUND = 10_000.0  # the utility bounds declared with reward=score (a bound, not a measure)
PREFIX = "tabletop_"
_T = pyspiel.GameType
_DIGIT_OUTCOMES = [(digit, 1.0 / DIGITS) for digit in range(DIGITS)]
INFO_STATE = pyspiel.IIGObservationType(perfect_recall=True)


def parameters(game: Game[Any, Any]) -> dict[str, Any]:
    """The OpenSpiel parameters of a game with their defaults: ``players``, then each
    option (lists as ``+`` text; options without a simple value are not offered)."""
    found: dict[str, Any] = {"players": game.info.min_players, REWARD: "win"}
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
        if name in ("players", REWARD):
            continue
        if isinstance(defaults.get(name), list) and isinstance(value, str):
            value = [part.strip() for part in value.split(SEP) if part.strip()]
        out[name] = value
    return out


def game_type(game: Game[Any, Any], config: Setup | None = None, reward: str = "win") -> Any:
    """The GameType of a game (of one configuration: chance and utility are exact)."""
    info = game.info
    chance = config.chance if config else info.hidden_information
    two = (config.players if config else info.max_players) == 2 or reward == "score"
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
        check_reward(c, self.reward)
        bound = SCORE_BOUND if self.reward == "score" else 1.0
        self.chance = c.chance
        info = pyspiel.GameInfo(
            num_distinct_actions=c.ids,
            max_chance_outcomes=DIGITS if self.chance else 0,
            num_players=c.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0 if c.players == 2 or self.reward == "score" else None,
            max_game_length=c.game.info.max_actions(c.players, c.options)
            + (DRAWS if self.chance else 0),
        )
        super().__init__(game_type(self.tabletop, c, self.reward), info, values)
        self.shared = Frozen(c)
        self.info_kind = Frozen(Kind(c, INFO_STATE))
        self.own_kinds = Frozen(own_kinds(c))

    def __reduce__(self) -> tuple[Any, ...]:
        # by its game string, loaded where the tabletop games are registered (states.py)
        return (load_game, (str(self),))

    def new_initial_state(self) -> TabletopState:
        c = self.config
        if self.chance:
            return TabletopState(self, None)
        return TabletopState(self, Step(None, c.game.new(c.players, c.options, 0)))

    def state_of(self, state: Any) -> TabletopState:
        """An OpenSpiel state holding the tabletop ``state`` (its history is not known:
        for search from a position, e.g. a sample of a player's view; records start here)."""
        return TabletopState(self, Step(None, state))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer:
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return Observer(self.config, kind, params)


class TabletopState(pyspiel.State):  # type: ignore[misc]
    """A position: before the deal the shuffle's digits so far (the chance nodes), then
    the history of tabletop states (:class:`~tabletop.bridges.recall.Step`)."""

    def __init__(self, game: TabletopGame, step: Step | None, seed: int = 0, drawn: int = 0):
        super().__init__(game)
        self.shared = game.shared
        self.info_kind = game.info_kind
        self.reward = game.reward
        self.held = Frozen(step)
        self.seed = seed
        self.drawn = drawn

    @property
    def step(self) -> Step | None:
        """The last link of the history (None before the deal)."""
        return self.held.value  # type: ignore[no-any-return]

    @property
    def tabletop(self) -> Any:
        """The tabletop state (None before the deal)."""
        step = self.held.value
        return None if step is None else step.state

    def current_player(self) -> int:
        step = self.held.value
        if step is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.shared.value.game.to_act(step.state)
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat - 1

    def _legal_actions(self, player: int) -> list[int]:
        c, step = self.shared.value, self.held.value
        if step is None or c.game.to_act(step.state) != player + 1:
            return []
        state = step.state
        action_id = c.encoding.action_id
        return sorted(action_id(state, action) for action in c.game.legal(state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [] if self.held.value is not None else _DIGIT_OUTCOMES

    def _apply_action(self, action: int) -> None:
        c, step = self.shared.value, self.held.value
        if step is None:
            self.seed = self.seed * DIGITS + int(action)
            self.drawn += 1
            if self.drawn == DRAWS:
                self.held = Frozen(Step(None, c.game.new(c.players, c.options, self.seed)))
            return
        state = step.state
        actor = c.game.to_act(state) - 1
        after = c.game.apply(state, c.encoding.action_of(state, int(action)))
        self.held = Frozen(step.then(after, actor, int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        c, step = self.shared.value, self.held.value
        if step is None or player == pyspiel.PlayerId.CHANCE:
            return f"shuffle digit {action}"
        try:
            return str(c.game.format(step.state, c.encoding.action_of(step.state, int(action))))
        except (ValueError, IndexError, KeyError):
            return f"action {action}"

    def is_terminal(self) -> bool:
        step = self.held.value
        return step is not None and self.shared.value.game.to_act(step.state) is None

    def returns(self) -> list[float]:
        c, step = self.shared.value, self.held.value
        if step is None or c.game.to_act(step.state) is not None:
            return [0.0] * c.players
        return end_returns(c, step.state, self.reward)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TabletopState:
        """A state the game samples from ``player_id``'s view (:meth:`Game.sample`, the
        generator seeded from ``probability_sampler()``), whole: the same history length
        and move number, that player's records and every public one kept, other hidden
        cards (:mod:`.states`)."""
        state: TabletopState = resampled_state(self, player_id, probability_sampler)
        return state

    def __reduce__(self) -> tuple[Any, ...]:
        # the game string, the history and the chain of tabletop states (states.py)
        game = str(self.get_game())
        history = history_of(self)
        step = self.held.value
        return (restore_state, (game, history, self.move_number(), step, self.seed, self.drawn))

    def __str__(self) -> str:
        step = self.held.value
        if step is None:
            return f"{BEFORE} ({self.drawn} of {DRAWS} digits drawn)"
        return json.dumps(self.shared.value.game.to_json(step.state), sort_keys=True)


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
        name = PREFIX + game_id
        names.append(name)
        if name not in known:
            cls = type(f"Tabletop_{game_id}", (TabletopGame,), {"tabletop": game})
            pyspiel.register_game(game_type(game), cls)
    return names


def load_game(game_string: str) -> Any:
    """The pyspiel game of ``game_string`` with the tabletop games registered (what an
    unpickled game is: :meth:`TabletopGame.__reduce__`)."""
    register()
    return pyspiel.load_game(game_string)


def restore_state(
    game_string: str, history: History, move_number: int, step: Step | None, seed: int, drawn: int
) -> TabletopState:
    """An unpickled state (:meth:`TabletopState.__reduce__`): the game loaded, then the
    state with that history, move number and chain of tabletop states."""
    game = load_game(game_string)
    state: TabletopState = with_history(
        game, history, move_number, held=Frozen(step), seed=int(seed), drawn=int(drawn)
    )
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
