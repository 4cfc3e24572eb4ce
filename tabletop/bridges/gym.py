"""Any installed game as a single-agent Gymnasium environment: the other seats are
tabletop computer players.

    from tabletop.bridges.gym import SingleAgentEnv

    env = SingleAgentEnv("connect4", opponents="1", reward="win")
    observation, info = env.reset(seed=0)
    action = int(observation["action_mask"].nonzero()[0][0])
    observation, reward, terminated, truncated, info = env.step(action)

The learner sits at ``seat`` (1-based; ``None``: a seat drawn each episode) and observes
``{"observation": float32 vector, "action_mask": int8 vector}`` (the game's observation
of its own view, and its legal action ids), as in :mod:`.pettingzoo`. Every other seat
is played by ``opponents``: one level or agent name for all (``"3"``, ``"basic"``), or a
comma-separated name per other seat in seat order (``"1,3"``); they decide from their
own views only (:meth:`tabletop.agents.seat.Seat.choose`). The reward comes at the end:
``reward="win"`` +1 for a win, -1 for a loss (another player won), 0 for a draw;
``reward="score"`` (games that keep points) the learner's points minus the mean of the
others'; ``"win_loss"``, ``"point_difference"``, ``"total_points"`` OpenSpiel's
conventions (:mod:`.common`). Chance steps are drawn from the deal's seed as a match
draws them (:mod:`.steps`); at a simultaneous step the learner's choice is applied with
the opponents', who choose without seeing it. An illegal action ends the episode with
-1 (``info["illegal"]``). Episodes end
by the game's rules, so nothing is truncated. ``reset(seed=s)`` makes the deal, the seat
and the opponents' choices repeat. It works in ``gymnasium.vector.SyncVectorEnv`` and
``AsyncVectorEnv``, and ``gymnasium.utils.env_checker.check_env`` passes.

For learners: ``action_masks()`` is the legal ids as a bool vector (sb3-contrib
MaskablePPO's protocol, no wrapper needed); ``info["action_texts"]`` maps them to their
texts while the learner is to act; ``observation_layout`` names the vector's blocks;
``render_mode`` ``ansi`` (returned) or ``human`` (printed at each reset and step). A
finished game's observation has an all-zero mask (nothing is legal): in a Gymnasium 1.x
vector env with the default next-step autoreset that is the final observation, and the
action given for that env on the next step is ignored (it is reset), so a masked policy
samples from ``mask if mask.any() else all ones``; with
``autoreset_mode=AutoresetMode.SAME_STEP`` the observation is the new game's and the
final one is in ``infos["final_obs"]``. The env pickles and copies mid-episode.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ImportError as exc:  # pragma: no cover - the extra is missing
    from tabletop.bridges.common import MISSING
    from tabletop.core.errors import UsageError

    raise UsageError(MISSING) from exc

from pydantic import BaseModel

from tabletop.agents.seat import Seat, make_seat
from tabletop.bridges.common import (
    BAD_RENDER,
    RENDER_MODES,
    ActionTexts,
    check_reward,
    end_returns,
    layout,
    setup,
)
from tabletop.bridges.encoder import Encoder
from tabletop.bridges.steps import acts, own_ids, settle
from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain
from tabletop.game import CHANCE, Game, has_shapes

_ = Domain("tabletop")

BAD_SEAT = _("seat {seat} is not a seat of {game} with {players} players: use 1-{players} or None")
BAD_OPPONENTS = _(
    "opponents {text} names {count} players, but {game} with {players} players has "
    "{others} other seats: give one name for all, or one per other seat"
)
OVER = _("the episode is over: call reset() first")
RE_DEALS = 100  # deals tried for one where the learner gets a turn


class SingleAgentEnv(gymnasium.Env[dict[str, Any], Any]):
    """One seat of ``game`` for a learner, the others played by tabletop agents."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES)}  # noqa: RUF012 - Gymnasium's

    def __init__(
        self,
        game: str | Game[Any, Any],
        opponents: str = "3",
        reward: str = "win",
        players: int | None = None,
        options: BaseModel | Mapping[str, Any] | None = None,
        seat: int | None = 1,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        config = setup(game, players, options)
        check_reward(config, reward)
        if render_mode not in (None, *RENDER_MODES):
            raise UsageError(BAD_RENDER.format(mode=repr(render_mode)))
        gid, count = config.game.info.id, config.players
        if seat is not None and (isinstance(seat, bool) or seat not in range(1, count + 1)):
            raise UsageError(BAD_SEAT.format(seat=repr(seat), game=gid, players=count))
        names = [name.strip() for name in opponents.split(",")]
        if len(names) == 1:
            names = names * (count - 1)
        if len(names) != count - 1:
            raise UsageError(
                BAD_OPPONENTS.format(
                    text=repr(opponents),
                    count=len(names),
                    game=gid,
                    players=count,
                    others=count - 1,
                )
            )
        self.config = config
        self.reward_kind = reward
        self.render_mode = render_mode
        self.fixed_seat = seat
        self.opponents: list[Seat] = [make_seat(config.game, name) for name in names]
        big = float(np.finfo(np.float32).max)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-big, big, shape=config.shape, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(config.ids,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(config.ids)
        self.observation_layout = layout(config)  # {block: (start, stop)} of the vector
        self._bind()
        self.state: Any = None
        self.seat = seat or 1
        self._rng = random.Random(0)
        self._deal, self._counted = 0, 0  # the game's seed and its actions so far (chance)
        self._over = True

    def _bind(self) -> None:
        """The game's functions and encodings' fast paths, bound once."""
        game = self.config.game
        self._apply, self._action_of = game.apply, self.config.encoding.action_of
        self._to_act = cast("Callable[[Any], Any]", game.to_act)
        self._shaped = has_shapes(game)  # chance or simultaneous steps (steps.py)
        self._encoder = Encoder(self.config)

    def __getstate__(self) -> dict[str, Any]:
        """Everything but the bound fast paths (closures), which unpickling binds anew:
        the same state, seat, opponents and generators (the same episode goes on)."""
        bound = ("_apply", "_to_act", "_action_of", "_encoder", "_shaped")
        return {k: v for k, v in self.__dict__.items() if k not in bound}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._bind()

    # the game
    def _ids(self) -> Sequence[int]:
        if self._shaped:
            return own_ids(self.config, self.state, self.seat)
        return self._encoder.legal_ids(self.state)

    def _observe(self) -> dict[str, Any]:
        encoder = self._encoder
        acting = acts(self._to_act(self.state), self.seat)
        return {
            "observation": encoder.observation(self.state, self.seat),
            "action_mask": encoder.mask(self._ids() if acting else None),
        }

    def action_masks(self) -> np.ndarray:
        """The learner's legal action ids as a bool vector (sb3-contrib MaskablePPO's
        protocol); all False once the episode is over."""
        mask = np.zeros(self.config.ids, dtype=bool)
        if not self._over:
            mask[list(self._ids())] = True
        return mask

    def _info(self, **extra: Any) -> dict[str, Any]:
        """The step's info: ``action_texts`` (the legal ids' texts, worked out when read)
        while the learner is to act."""
        if not self._over:
            extra["action_texts"] = ActionTexts(self.config, self.state, self._ids())
        return extra

    def _opponent(self, player: int) -> Seat:
        return self.opponents[player - 1 if player < self.seat else player - 2]

    def _others_play(self, mine: Any = None) -> None:
        """The opponents act, and chance (drawn as a match draws it, :mod:`.steps`),
        until the learner is to act or the game is over; ``mine``: the learner's choice
        at the simultaneous step due, applied with the opponents' (sealed: they choose
        from the state, which does not hold it)."""
        c = self.config
        while True:
            actor = self._to_act(self.state)
            if actor is None:
                return
            if actor == CHANCE:
                self.state, self._counted = settle(c.game, self.state, self._deal, self._counted)
                continue
            if isinstance(actor, frozenset):
                if self.seat in actor and mine is None:
                    return
                joint = tuple(mine if p == self.seat else self._choose(p) for p in sorted(actor))
                mine = None
                self.state = self._apply(self.state, joint)
                self._counted += len(joint)
                continue
            if actor == self.seat:
                return
            self.state = self._apply(self.state, self._choose(actor))
            self._counted += 1

    def _choose(self, player: int) -> Any:
        """The opponent at ``player``'s choice (its own at a simultaneous step)."""
        c = self.config
        seat = self._opponent(player)
        return seat.choose(c.game, self.state, player, c.players, c.options, self._rng)

    def _end_reward(self) -> float:
        return end_returns(self.config, self.state, self.reward_kind)[self.seat - 1]

    # Gymnasium
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        c = self.config
        for _attempt in range(RE_DEALS):
            deal = int(self.np_random.integers(2**31))
            self._rng = random.Random(deal)
            self.seat = self.fixed_seat or 1 + int(self.np_random.integers(c.players))
            self.state = c.game.new(c.players, c.options, deal)
            self._deal, self._counted = deal, 0
            self._others_play()
            if acts(self._to_act(self.state), self.seat):
                break
        self._over = self._to_act(self.state) is None
        self._human()
        return self._observe(), self._info(seat=self.seat, deal=deal)

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self._over:
            raise UsageError(OVER)
        choice = int(action)
        if choice not in self._ids():
            self._over = True
            return self._observe(), -1.0, True, False, {"illegal": True}
        chosen = self._action_of(self.state, choice)
        if isinstance(self._to_act(self.state), frozenset):
            self._others_play(chosen)  # applied with the opponents' choices
        else:
            self.state = self._apply(self.state, chosen)
            self._counted += 1
            self._others_play()
        self._over = self._to_act(self.state) is None
        reward = self._end_reward() if self._over else 0.0
        self._human()
        return self._observe(), reward, self._over, False, self._info()

    def render(self) -> str | None:
        """The learner's view drawn as text: returned (``ansi``) or printed (``human``,
        which reset and step also do, Gymnasium's convention)."""
        from tabletop.bridges.common import rendered  # the one terminal drawing

        return rendered(self.render_mode, self.config.game, self.state, self.seat)

    def _human(self) -> None:
        if self.render_mode == "human":
            self.render()
