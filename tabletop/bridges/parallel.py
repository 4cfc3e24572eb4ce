"""Any installed game as a PettingZoo ParallelEnv (issue 36): every agent to act gives
its action in the same ``step``.

    from tabletop.bridges.pettingzoo import parallel_env

    e = parallel_env("goofspiel", players=2, options={"num_cards": 5})
    observations, infos = e.reset(seed=7)
    while e.agents:
        actions = {a: int(o["action_mask"].nonzero()[0][0])
                   for a, o in observations.items() if o["action_mask"].any()}
        observations, rewards, terminations, truncations, infos = e.step(actions)

The same agents, observations (``{"observation", "action_mask"}``), rewards (``reward``:
``win``, ``win_loss``, ``score``, ``point_difference``, ``total_points``) and seeding as
the AEC environment of :mod:`.pettingzoo`. At a simultaneous step every agent of its set
is to act (a mask each) and their actions are applied together as the joint action; at an
ordinary turn only the one agent whose mask is not all zeros is; the actions given for
agents not to act are ignored, and an agent to act without an action is an error. Chance
steps are drawn as a match draws them (:mod:`.steps`). An illegal action ends the game:
-1 for the agent that gave it (the first such in seat order), 0 for the others. Once the
game is over every agent is terminated and ``agents`` is empty.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from tabletop.bridges.common import (
    BAD_RENDER,
    RENDER_MODES,
    ActionTexts,
    Setup,
    check_reward,
    end_returns,
    layout,
    rendered,
)
from tabletop.bridges.encoder import Encoder
from tabletop.bridges.steps import acts, own_ids, settle
from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain

_ = Domain("tabletop")

MISSING_ACTION = _("{agent} is to act: give it an action id in step()")


class TabletopParallelEnv(ParallelEnv):  # type: ignore[misc]
    """The parallel environment of one configured game (what ``parallel_env`` returns)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's convention; set per game
        "render_modes": list(RENDER_MODES),
        "name": "tabletop_parallel_v0",
    }

    def __init__(
        self,
        config: Setup,
        seed: int | None = None,
        render_mode: str | None = None,
        reward: str = "win",
    ) -> None:
        if render_mode not in (None, *RENDER_MODES):
            raise UsageError(BAD_RENDER.format(mode=repr(render_mode)))
        check_reward(config, reward)
        self.config = config
        self.reward = reward
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"tabletop_{config.game.info.id}_parallel_v0"}
        self.possible_agents = [f"player_{i}" for i in range(config.players)]
        self.agents: list[str] = []
        self.observation_layout = layout(config)
        big = float(np.finfo(np.float32).max)
        box = spaces.Box(low=-big, high=big, shape=config.shape, dtype=np.float32)
        mask = spaces.Box(low=0, high=1, shape=(config.ids,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": box, "action_mask": mask}) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(config.ids) for a in self.possible_agents}
        self._encoder = Encoder(config)
        self._seeds = random.Random(seed)
        self._seed_given = seed
        self.state: Any = None
        self.seed_ = 0
        self._counted = 0

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_encoder"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._encoder = Encoder(self.config)

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def _observations(self) -> dict[str, Any]:
        encoder, state = self._encoder, self.state
        out = {}
        for seat, agent in enumerate(self.possible_agents, start=1):
            ids = own_ids(self.config, state, seat) if agent in self.agents else []
            out[agent] = {
                "observation": encoder.observation(state, seat),
                "action_mask": encoder.mask(ids or None),
            }
        return out

    def _infos(self) -> dict[str, dict[str, Any]]:
        state = self.state
        infos: dict[str, dict[str, Any]] = {}
        for seat, agent in enumerate(self.possible_agents, start=1):
            ids = own_ids(self.config, state, seat)
            infos[agent] = {"action_texts": ActionTexts(self.config, state, ids)} if ids else {}
        return infos

    def reset(
        self, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        c = self.config
        if seed is not None:
            self._seeds = random.Random(seed)
            self.seed_ = seed
        else:
            self.seed_ = self._seeds.randrange(2**31)
        start = c.game.new(c.players, c.options, self.seed_)
        self.state, self._counted = settle(c.game, start, self.seed_, 0)
        self.agents = self.possible_agents[:]
        return self._observations(), self._infos()

    def step(self, actions: Mapping[str, Any]) -> tuple[Any, Any, Any, Any, Any]:
        c, game, state = self.config, self.config.game, self.state
        agents = self.possible_agents
        if not self.agents:
            raise UsageError(_("the game is over: call reset() first"))
        actor = game.to_act(state)
        acting = [seat for seat in range(1, c.players + 1) if acts(actor, seat)]
        chosen: dict[int, int] = {}
        for seat in acting:
            agent = agents[seat - 1]
            if agent not in actions or actions[agent] is None:
                raise UsageError(MISSING_ACTION.format(agent=agent))
            chosen[seat] = int(actions[agent])
        rewards = dict.fromkeys(agents, 0.0)
        for seat in acting:  # an illegal action ends the game, -1 for its agent
            if chosen[seat] not in own_ids(c, state, seat):
                rewards[agents[seat - 1]] = -1.0
                return self._end(rewards, {agents[seat - 1]: {"illegal": True}})
        action_of = c.encoding.action_of
        if isinstance(actor, frozenset):
            joint = tuple(action_of(state, chosen[seat]) for seat in acting)
            state = game.apply(state, joint)
        else:
            state = game.apply(state, action_of(state, chosen[acting[0]]))
        self.state, self._counted = settle(game, state, self.seed_, self._counted + len(acting))
        if game.to_act(self.state) is None:
            scores = end_returns(c, self.state, self.reward)
            return self._end(dict(zip(agents, scores, strict=True)), {})
        self._human()
        return (
            self._observations(),
            rewards,
            dict.fromkeys(self.agents, False),
            dict.fromkeys(self.agents, False),
            self._infos(),
        )

    def _end(self, rewards: dict[str, float], extra: dict[str, dict[str, Any]]) -> tuple[Any, ...]:
        """Every agent terminated with ``rewards``; no agent is left."""
        ended = self.agents
        self.agents = []
        observations = self._observations()
        infos = {agent: dict(extra.get(agent, {})) for agent in ended}
        self._human()
        done = dict.fromkeys(ended, True)
        return observations, rewards, done, dict.fromkeys(ended, False), infos

    def render(self) -> str | None:
        """The spectator's view drawn as text: returned (``ansi``) or printed (``human``)."""
        return rendered(self.render_mode, self.config.game, self.state, None)

    def _human(self) -> None:
        if self.render_mode == "human":
            self.render()

    def close(self) -> None:
        pass
