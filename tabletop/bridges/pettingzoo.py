"""Any installed game as a PettingZoo AEC environment (the classic games' conventions).

    from tabletop.bridges.pettingzoo import env

    e = env("quartino", players=3, seed=7)
    e.reset(seed=7)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else int(mask.nonzero()[0][0])
        e.step(action)

Agents are ``player_0`` … ``player_{N-1}`` (seat 1 is ``player_0``). Each observes
``{"observation": float32 vector, "action_mask": int8 vector}``: the vector is the game's
the encoding's ``observation`` of that agent's own view, so it never holds what
the agent may not see; the mask marks the legal action ids and is all zeros for an agent
that is not to act. Rewards come at the end only: with ``reward="win"`` (the default)
each winner +1 and every other player -1 (with 3+ players several agents lose -1 each:
not zero-sum), all 0 for a draw; ``"win_loss"`` OpenSpiel's (the winners share +1, the
losers -1, zero-sum); with ``reward="score"`` (games that keep points,
:meth:`~tabletop.game.Game.scores`) each agent's points minus the mean of the others',
``"point_difference"`` points minus the mean of all, ``"total_points"`` the points.
Chance steps are drawn inside the environment as a match draws them, from the game's
seed (:mod:`.steps`); at a simultaneous step the agents of its set act one after the
other in seat order, sealed (nobody observes another's choice before the joint action
is applied). :func:`parallel_env` is the same game as a ParallelEnv (:mod:`.parallel`).
Games always end by their rules (turn and stall limits included), so nothing is
truncated. An illegal action ends the game, -1 for the agent that tried it and 0 for the
others (PettingZoo's ``TerminateIllegalWrapper`` convention); an id outside the action
space is an error. ``reset(seed=s)`` deals game ``s``; without a seed the next game's
seed comes from the environment's generator (seeded by ``env(seed=...)``).
``render_mode="ansi"``: ``render()`` returns the terminal drawing of the spectator's
view as text; ``"human"``: it prints it. The acting agent's ``info["action_texts"]`` maps
each legal id to its text (``Game.format``, worked out when read; the others' infos hold
none of it); ``observation_layout`` names the blocks of the vector
(``{name: (start, stop)}``, :func:`~tabletop.bridges.common.layout`). The environment
pickles and copies (a spawned process or a Ray worker goes on with the same game).

For speed the environment does the wrappers' checks itself (no wrapper layers), binds
the game's functions and its encodings' fast paths once (:class:`~tabletop.bridges.encoder.Encoder`:
the encoding's ``id_lister`` builds the action mask in one pass over the legal
actions, its ``observer`` writes each observation from the state
into a buffer numpy reads without a copy) and touches the rewards only at the end.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, cast

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as exc:  # pragma: no cover - the extra is missing
    from tabletop.bridges.common import MISSING
    from tabletop.core.errors import UsageError

    raise UsageError(MISSING) from exc

from pydantic import BaseModel

from tabletop.bridges.common import (
    BAD_RENDER,
    RENDER_MODES,
    ActionTexts,
    Setup,
    check_reward,
    end_returns,
    layout,
    rendered,
    setup,
)
from tabletop.bridges.encoder import Encoder
from tabletop.bridges.steps import choice_lister, settled
from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain
from tabletop.game import CHANCE, Game, has_shapes

_ = Domain("tabletop")

OUT_OF_RANGE = _("action {action} is not an action id of {game}: use an int 0-{top}")
NOT_RESET = _("call reset() before step()")
_FAST = ("_game", "_apply", "_to_act", "_action_of", "_list_ids", "_observation", "_mask")
_BOUND = (*_FAST, "_choice_ids", "_chance")  # made anew by _bind (closures), not pickled


class TabletopEnv(AECEnv):  # type: ignore[misc]
    """The AEC environment of one configured game (what :func:`env` returns)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's convention; set per game
        "render_modes": list(RENDER_MODES),
        "name": "tabletop_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        config: Setup,
        seed: int | None = None,
        render_mode: str | None = None,
        reward: str = "win",
    ):
        super().__init__()
        if render_mode not in (None, *RENDER_MODES):
            raise UsageError(BAD_RENDER.format(mode=repr(render_mode)))
        check_reward(config, reward)
        self.config = config
        self.reward = reward
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"tabletop_{config.game.info.id}_v0"}
        self.possible_agents = [f"player_{i}" for i in range(config.players)]
        self.observation_layout = layout(config)  # {block: (start, stop)} of the vector
        self.agents = self.possible_agents[:]
        big = float(np.finfo(np.float32).max)  # finite bounds: any float32 observation
        box = spaces.Box(low=-big, high=big, shape=config.shape, dtype=np.float32)
        mask = spaces.Box(low=0, high=1, shape=(config.ids,), dtype=np.int8)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": box, "action_mask": mask})
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(config.ids) for agent in self.possible_agents}
        self._bind()
        self._count = config.ids
        self._seat_of = {agent: i + 1 for i, agent in enumerate(self.possible_agents)}
        self._seeds: random.Random | None = None  # made when first asked (_next_seed)
        self._seeded = seed
        self._first_seed = seed
        self._ready = False
        self._skip_agent_selection: str | None = None  # PettingZoo's, for the dead steps
        self._acting = 0  # the seat to act (0: none, the game is over or was ended)
        self._ids: Sequence[int] = ()  # its legal ids (the mask's and the step's check)
        self._chosen: dict[int, Any] = {}  # the chooser's choice of each of their ids
        self._queue: Iterator[int] = iter(())  # the set's seats to choose after them
        self._orders: dict[frozenset[int], list[int]] = {}  # each set met, in seat order
        self._order: list[int] = []  # the set of a simultaneous step reached, in seat order
        self.state_: Any = None
        self.seed_: int = 0
        self.reset(seed=seed)

    def _bind(self) -> None:
        """The game's functions and encodings bound once: the hot path looks nothing up."""
        game = self._game = self.config.game
        self._apply, self._action_of = game.apply, self.config.encoding.action_of
        # turn by turn the hot path; chance and simultaneous steps the shaped one (steps.py)
        self._to_act = cast("Callable[[Any], int | None]", game.to_act)
        self._shaped = has_shapes(game)
        self._choice_ids = choice_lister(self.config)  # a simultaneous step's own ids
        self._chance = random.Random(0)  # reseeded at each chance step (steps.reseed)
        encoder = Encoder(self.config)
        self._list_ids, self._observation, self._mask = (
            encoder.legal_ids,
            encoder.observation,
            encoder.mask,
        )

    def __getstate__(self) -> dict[str, Any]:
        """Everything but the bound fast paths (closures), which unpickling binds anew:
        the unpickled environment has the same game, seed generator, agents, rewards."""
        return {k: v for k, v in self.__dict__.items() if k not in _BOUND}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._bind()

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    # the game
    def legal_ids(self) -> list[int]:
        """The action ids legal now (listed once a state, in one pass over the game's legal
        actions, as the state is reached: the mask and the step's check share them)."""
        return list(self._ids) if self._acting else []

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat_of[agent]
        return {
            "observation": self._observation(self.state_, seat),
            "action_mask": self._mask(self._ids if seat == self._acting else None),
        }

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``, with :meth:`observe` written in (a call less a step);
        while the game goes on every reward is 0 and nothing is terminated (rewards come
        only at the end), so those are not looked up; the agent selected then is the one
        to act (``_acting``, its seat: step and reset set the two together)."""
        agent = self.agent_selection
        acting = self._acting
        if acting:
            observation = None
            if observe:
                observation = {
                    "observation": self._observation(self.state_, acting),
                    "action_mask": self._mask(self._ids),
                }
            return observation, 0.0, False, False, self.infos[agent]
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """The agent to act, until no agent is left or after ``max_iter`` (PettingZoo's
        ``AECIterable`` as a generator, which costs less a step than its ``__next__``)."""
        return self._agents_until(max_iter)

    def _agents_until(self, max_iter: int) -> Iterator[str]:
        left = max_iter
        while self.agents and left > 0:
            left -= 1
            yield self.agent_selection

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        c = self.config
        if seed is not None:  # the generator of later seeds restarts from ``seed``
            self._seeds, self._seeded = None, seed
            self.seed_ = seed
        else:
            self.seed_ = self._next_seed()
        self.state_ = c.game.new(c.players, c.options, self.seed_)
        self._sealed: dict[int, Any] = {}  # a simultaneous step's choices so far, by seat
        self._queue = iter(())
        self._counted = 0  # actions so far, as a record counts them (the chance draws')
        if self._shaped:
            self.state_, self._counted, actor = settled(
                c.game, self.state_, self.seed_, 0, self._chance
            )
            seat = self._reached(self.state_, actor)
        else:
            seat = self._to_act(self.state_) or 0
            self._ids = self._list_ids(self.state_) if seat else ()
        agents = self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = self.rewards.copy()
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = self.terminations.copy()
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in agents}
        self._acting = seat
        self.agent_selection = self.possible_agents[(seat or 1) - 1]
        if seat:
            self.infos[self.agent_selection] = {"action_texts": self._texts(self.state_, self._ids)}
        self._skip_agent_selection = None
        self._ready = True

    def _next_seed(self) -> int:
        """The next game's seed from the generator seeded by the last seed given, made
        only now: seeding one costs ~10 us, as much as a game of Quarto's API, and a
        reset(seed=s) per game never draws from it."""
        if self._seeds is None:
            self._seeds = random.Random(self._seeded)
        return self._seeds.randrange(2**31)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if not self._acting:  # the game is over (every agent is terminated) or not begun
            if not self._ready:
                raise UsageError(NOT_RESET)
            self._was_dead_step(action)
            return
        if type(action) is not int:  # the common case first: a plain int
            action = self._as_id(action)
        # Rewards come only as the game ends (every agent terminated, so no live step
        # follows before reset): during play each reward and cumulative reward is 0
        # already, and PettingZoo's clearing of them at each step is left out.
        if action not in self._ids:  # the legal ids, listed once as the state was reached
            if not 0 <= action < self._count:
                c = self.config
                top = c.ids - 1
                shown = repr(action)
                raise UsageError(OUT_OF_RANGE.format(action=shown, game=c.game.info.id, top=top))
            self._illegal(agent)
            return
        seat: int | None
        if self._shaped:  # the seat to act next, its ids (_ids) and the state set
            state = self.state_
            seat = next(self._queue, 0)  # the next of a simultaneous step's set, if any
            if seat:  # sealed until the last has chosen
                self._sealed[self._acting] = self._chosen[action]
                self._ids, self._chosen = self._choice_ids(state, seat)
            else:
                seat = self._shaped_apply(action)
                state = self.state_
        else:
            state = self.state_ = self._apply(self.state_, self._action_of(self.state_, action))
            seat = self._to_act(state)
            if seat:
                self._ids = self._list_ids(state)
        infos = self.infos
        infos[agent] = {}
        if seat:
            self._acting = seat
            selected = self.agent_selection = self.possible_agents[seat - 1]
            infos[selected] = {"action_texts": ActionTexts(self.config, state, self._ids)}
            return
        self._acting = 0
        self._ids = ()
        rewards, terminations = self.rewards, self.terminations  # updated in place
        scores = end_returns(self.config, state, self.reward)
        for a, value in zip(self.possible_agents, scores, strict=True):
            rewards[a] = value
            terminations[a] = True
        self.agent_selection = self.agents[(self.agents.index(agent) + 1) % len(self.agents)]
        self._accumulate_rewards()

    def _shaped_apply(self, action: int) -> int:
        """The acting seat's ``action`` taken in a game with chance or simultaneous
        steps, but a simultaneous step's choice before its last (:meth:`step` seals it):
        a turn's action or the joint action of a simultaneous step's sealed choices, and
        every chance step due after it drawn (:mod:`.steps`). The seat to act next (0:
        none)."""
        state, order = self.state_, self._order
        if order:
            sealed = self._sealed
            sealed[self._acting] = self._chosen[action]
            after = self._apply(state, tuple(map(sealed.__getitem__, order)))
            self._sealed = {}
            count = self._counted + len(order)
        else:
            after = self._apply(state, self._action_of(state, action))
            count = self._counted + 1
        actor = self._to_act(after)
        if actor == CHANCE:  # drawn as a match draws them
            after, count, actor = settled(self._game, after, self.seed_, count, self._chance)
        self._counted = count
        self.state_ = after
        return self._reached(after, actor)

    def _reached(self, state: Any, actor: Any) -> int:
        """A state reached with chance settled, whose ``to_act`` is ``actor``: who acts
        there is kept (a simultaneous step's set in seat order, ``_order``, and those to
        choose after the first, ``_queue``; else empty) and the first to act's legal ids
        listed (``_ids``; the fast lister at a turn, their own choices' ids at a
        simultaneous step, with each id's choice, ``_chosen``). The seat to act (0: none)."""
        if isinstance(actor, frozenset):
            order = self._orders.get(actor)
            if order is None:
                order = self._orders[actor] = sorted(actor)
            self._order = order
            if not order:
                self._ids = ()
                return 0
            self._queue = iter(order[1:])
            self._ids, self._chosen = self._choice_ids(state, order[0])
            return order[0]
        self._order = []
        if isinstance(actor, int) and actor >= 1:
            self._ids = self._list_ids(state)
            return actor
        self._ids = ()
        return 0

    def _was_dead_step(self, action: Any) -> None:
        """PettingZoo's step of a dead agent, for an environment whose agents all end at
        once: the selected agent leaves every table and the next dead agent (the first
        one left, as all are dead) is selected; after the last, the first that left.
        (PettingZoo's own lists the dead agents anew and costs twice as much.)"""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        del self.terminations[agent], self.truncations[agent], self.rewards[agent]
        del self._cumulative_rewards[agent], self.infos[agent]
        agents = self.agents
        agents.remove(agent)
        if agents:
            if self._skip_agent_selection is None:
                self._skip_agent_selection = agent
            self.agent_selection = agents[0]
        else:
            if self._skip_agent_selection is not None:
                self.agent_selection = self._skip_agent_selection
            self._skip_agent_selection = None
        rewards = self.rewards
        for other in rewards:
            rewards[other] = 0.0

    def _as_id(self, action: Any) -> int:
        """A numpy integer as an int; UsageError for anything else (a bool included)."""
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            c = self.config
            shown, top = repr(action), c.ids - 1
            raise UsageError(OUT_OF_RANGE.format(action=shown, game=c.game.info.id, top=top))
        return int(action)

    def _illegal(self, agent: str) -> None:
        """An illegal action: the game ends, -1 for ``agent``, 0 for the others."""
        self._acting = 0
        self._ids = ()
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = -1.0
        self.infos[agent] = {**self.infos[agent], "illegal": True}
        self._accumulate_rewards()
        self._deads_step_first()

    def _texts(self, state: Any, ids: Sequence[int]) -> ActionTexts:
        return ActionTexts(self.config, state, ids)

    def render(self) -> str | None:
        """The spectator's view drawn as text: returned (``ansi``) or printed (``human``)."""
        return rendered(self.render_mode, self.config.game, self.state_, None)

    def close(self) -> None:
        pass


def env(
    game: str | Game[Any, Any],
    players: int | None = None,
    options: BaseModel | Mapping[str, Any] | None = None,
    seed: int | None = None,
    render_mode: str | None = None,
    reward: str = "win",
) -> TabletopEnv:
    """The AEC environment of ``game`` (an id or a Game); ``reward`` is ``win`` or
    ``score`` (module docstring). It checks what PettingZoo's ``OrderEnforcingWrapper``,
    ``AssertOutOfBoundsWrapper`` and ``TerminateIllegalWrapper`` check, without them."""
    config = setup(game, players, options)
    return TabletopEnv(config, seed=seed, render_mode=render_mode, reward=reward)


def parallel_env(
    game: str | Game[Any, Any],
    players: int | None = None,
    options: BaseModel | Mapping[str, Any] | None = None,
    seed: int | None = None,
    render_mode: str | None = None,
    reward: str = "win",
) -> Any:
    """The ParallelEnv of ``game`` (:mod:`.parallel`), with the arguments of :func:`env`:
    every agent to act gives its action in one ``step`` (all of a simultaneous step's set
    at once)."""
    from tabletop.bridges.parallel import TabletopParallelEnv

    config = setup(game, players, options)
    return TabletopParallelEnv(config, seed=seed, render_mode=render_mode, reward=reward)
