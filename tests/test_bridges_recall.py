"""The OpenSpiel bridge for hidden-information research: perfect-recall information
states, observers of every ``IIGObservationType`` probed for leaks over sampled hidden
states, ``resample_from_infostate`` and OpenSpiel's ``ISMCTSBot`` over whole games."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from tabletop.bridges import openspiel  # noqa: E402
from tabletop.bridges.observers import Kind  # noqa: E402
from tabletop.bridges.recall import Step, entries, record  # noqa: E402

openspiel.register()
NONE, SINGLE, ALL = (
    pyspiel.PrivateInfoType.NONE,
    pyspiel.PrivateInfoType.SINGLE_PLAYER,
    pyspiel.PrivateInfoType.ALL_PLAYERS,
)
# the research-sized configurations of docs/research.md
RESEARCH: list[tuple[str, dict[str, Any]]] = [
    ("tabletop_quartino", {"players": 2, "max_turns": 8}),
    ("tabletop_quartino", {"players": 3, "max_turns": 6, "mirror": True}),
    ("tabletop_ctverak", {"players": 2, "deck": "half", "stall_limit": 2}),
    ("tabletop_ctverak", {"players": 3, "deck": "half", "stall_limit": 2}),
]
IDS = [f"{name}-{params['players']}p" for name, params in RESEARCH]
MERGING = RESEARCH[:3]  # where 40 random games of one deal reach one view two ways


def _obs_type(public: bool, private: Any, recall: bool) -> Any:
    return pyspiel.IIGObservationType(
        public_info=public, perfect_recall=recall, private_info=private
    )


def _dealt(game: Any, rng: random.Random) -> Any:
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _p in state.chance_outcomes()]))
    return state


def _random_states(game: Any, seed: int, limit: int = 400, deal: int | None = None) -> list[Any]:
    """Every state of one random game after the deal (clones), the end included; the
    deal is ``deal``'s, else ``seed``'s."""
    rng = random.Random(seed)
    state = _dealt(game, random.Random(seed if deal is None else deal))
    seen = [state.clone()]
    while not state.is_terminal() and len(seen) < limit:
        state.apply_action(rng.choice(state.legal_actions()))
        seen.append(state.clone())
    return seen


def test_the_game_type_declares_information_states() -> None:
    for name, params in RESEARCH:
        game = pyspiel.load_game(name, params)
        t = game.get_type()
        assert t.provides_information_state_string and t.provides_information_state_tensor
        state = _random_states(game, 1, 5)[-1]
        assert len(state.information_state_tensor(0)) == game.information_state_tensor_size()


@pytest.mark.parametrize(("name", "params"), RESEARCH, ids=IDS)
def test_information_states_are_the_players_record(name: str, params: dict[str, Any]) -> None:
    """Over random histories: two information states are equal exactly when the records
    (what the player saw change and did) are; some equal views have different records."""
    game = pyspiel.load_game(name, params)
    kind = Kind(game.config, openspiel.INFO_STATE)
    by_view: dict[tuple[int, str], set[str]] = defaultdict(set)
    by_record: dict[tuple[int, tuple[str, ...]], set[str]] = defaultdict(set)
    games = 40 if (name, params) in MERGING else 12
    for seed in range(games):  # one deal, other actions: equal views after other histories
        for state in _random_states(game, seed, 30, deal=0):
            for player in range(game.num_players()):
                info = state.information_state_string(player)
                assert info.startswith(f"player {player} record ")
                by_view[player, state.observation_string(player)].add(info)
                by_record[player, tuple(entries(state.step, player, kind.looks))].add(info)
    assert all(len(infos) == 1 for infos in by_record.values())  # same record, same state
    owners = defaultdict(set)
    for key, infos in by_record.items():
        owners[next(iter(infos))].add(key)
    assert all(len(keys) == 1 for keys in owners.values())  # different records differ
    if (name, params) in MERGING:  # the view alone merges histories the record tells apart
        assert any(len(infos) > 1 for infos in by_view.values())


@pytest.mark.parametrize(("name", "params"), RESEARCH[::2], ids=IDS[::2])
def test_what_the_player_cannot_see_leaves_the_information_state(
    name: str, params: dict[str, Any]
) -> None:
    """A history whose every state is resampled from player p's view (other hidden cards
    at each step) gives p the same information state string and tensor."""
    game = pyspiel.load_game(name, params)
    c = game.config
    observer = game.make_py_observer(openspiel.INFO_STATE)
    kind = observer.kind
    changed = 0
    for seed in range(4):
        states = _random_states(game, seed, 40)
        for player in range(c.players):
            rng = random.Random(seed)
            real = states[-1].step
            chain: list[Step] = []
            node: Step | None = real
            while node is not None:
                chain.append(node)
                node = node.parent
            twin: Step | None = None
            for link in reversed(chain):
                view = c.game.view(link.state, player + 1)
                other = c.game.sample(view, player + 1, c.players, c.options, rng)
                changed += c.game.to_json(other) != c.game.to_json(link.state)
                twin = (
                    Step(None, other)
                    if twin is None
                    else twin.then(other, link.actor or 0, link.action or 0)
                )
            assert twin is not None
            assert record(twin, player, kind.looks) == record(real, player, kind.looks)
            real_state, twin_state = states[-1], game.state_of(None)
            twin_state.held = openspiel.Frozen(twin)
            assert observer.string_from(twin_state, player) == observer.string_from(
                real_state, player
            )
            observer.set_from(real_state, player)
            mine = observer.tensor.copy()
            observer.set_from(twin_state, player)
            assert (observer.tensor == mine).all()
    assert changed  # the probe did change hidden cards


KINDS = [
    (True, NONE, False),
    (True, NONE, True),
    (False, SINGLE, False),
    (False, SINGLE, True),
    (True, SINGLE, False),
    (True, SINGLE, True),
]


@pytest.mark.parametrize(("name", "params"), RESEARCH, ids=IDS)
def test_observers_leak_nothing_over_sampled_hidden_states(
    name: str, params: dict[str, Any]
) -> None:
    """The leak probe: resample the hidden cards from seat q's view; a public observer of
    any seat, and a private one of q, must not change; a private observer of another seat
    must change somewhere (it holds that seat's cards), or the probe proves nothing."""
    game = pyspiel.load_game(name, params)
    c = game.config
    observers = {k: game.make_py_observer(_obs_type(*k)) for k in KINDS}
    private_changed = 0
    rng = random.Random(7)
    for seed in range(4):
        for state in _random_states(game, seed, 30)[:-1]:
            for q in range(c.players):
                sample = state.resample_from_infostate(q, rng.random)
                assert sample.information_state_string(q) == state.information_state_string(q)
                for (public, private, recall), observer in observers.items():
                    for p in range(c.players):
                        keeps = private == NONE or p == q
                        before, after = (
                            _look(observer, state, p, recall),
                            _look(observer, sample, p, recall),
                        )
                        if keeps:
                            assert before == after, (public, private, recall, p, q)
                        elif not recall and before != after:
                            private_changed += 1
    assert private_changed


def _look(observer: Any, state: Any, player: int, recall: bool) -> tuple[str, bytes]:
    observer.set_from(state, player)
    text = observer.string_from(state, player)
    if recall:  # a resampled history's record starts at the resampling for other seats
        text = text.split(" now ", 1)[1]
        return text, observer.dict["observation"].tobytes()
    return text, observer.tensor.tobytes()


def test_the_public_observer_holds_no_hand() -> None:
    game = pyspiel.load_game("tabletop_ctverak", {"players": 2, "deck": "half"})
    state = _random_states(game, 3, 8)[-1]
    hand = state.tabletop.hands[0]
    assert hand  # player 1 holds cards
    public = game.make_py_observer(_obs_type(True, NONE, False))
    mine = json.loads(state.observation_string(0))["hand"]
    assert mine and json.loads(public.string_from(state, 0))["hand"] is None
    private = game.make_py_observer(_obs_type(False, SINGLE, False))
    assert json.loads(private.string_from(state, 0))["hand"] == mine
    every = game.make_py_observer(_obs_type(True, ALL, False))
    every.set_from(state, 0)
    assert every.tensor.size == 2 * public.tensor.size


@pytest.mark.parametrize(("name", "params"), RESEARCH[::2], ids=IDS[::2])
def test_ismcts_plays_whole_games_through_the_bridge(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(name, params)
    rng = np.random.RandomState(4)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=rng)
        for _ in range(game.num_players())
    ]
    state = game.new_initial_state()
    chooser = random.Random(4)
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(chooser.choice([a for a, _p in state.chance_outcomes()]))
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves > 4
    assert len(state.returns()) == game.num_players()


def test_a_sampled_bot_never_sees_the_hidden_cards() -> None:
    """SampledBot hands the bot a resampled state: same information state, other cards."""
    game = pyspiel.load_game("tabletop_ctverak", {"players": 2, "deck": "half"})

    class Spy(pyspiel.Bot):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.seen: list[Any] = []

        def step(self, state: Any) -> int:
            self.seen.append(state)
            return int(state.legal_actions()[0])

    spy = Spy()
    bot = openspiel.SampledBot(spy, seed=1)
    state = _random_states(game, 5, 3)[-1]
    player = state.current_player()
    hidden_differs = 0
    for _ in range(5):
        action = bot.step(state)
        given = spy.seen[-1]
        assert action in state.legal_actions()
        assert given.information_state_string(player) == state.information_state_string(player)
        hidden_differs += given.tabletop.hands[1 - player] != state.tabletop.hands[1 - player]
    assert hidden_differs


def test_mcts_bot_behind_a_sampled_bot_plays_a_whole_game() -> None:
    game = pyspiel.load_game("tabletop_quartino", {"players": 2, "max_turns": 6})
    rng = np.random.RandomState(2)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [
        openspiel.SampledBot(mcts.MCTSBot(game, 2.0, 10, evaluator, random_state=rng), seed=i)
        for i in range(2)
    ]
    state = game.new_initial_state()
    chooser = random.Random(2)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(chooser.choice([a for a, _p in state.chance_outcomes()]))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert state.returns() in ([0.0, 0.0], [1.0, -1.0], [-1.0, 1.0])


def test_any_openspiel_bot_at_a_tabletop_seat_acts_on_a_sample_of_its_view() -> None:
    from tabletop.agents.base import Budget
    from tabletop.agents.seat import Seat
    from tabletop.bridges.mcts import BotAgent
    from tabletop.core.registry import registry

    given: list[Any] = []

    class First(pyspiel.Bot):  # type: ignore[misc,name-defined]
        def step(self, state: Any) -> int:
            given.append(state.tabletop)
            return int(state.legal_actions()[0])

    seat = Seat("first", BotAgent(lambda game, rng: First()), Budget())
    game = registry().get("ctverak")
    options = game.info.options()
    from tabletop.bridges.steps import settle

    state, _ = settle(game, game.new(3, options, 4), 4, 0)  # issue 36: the deal is chance
    assert game.to_act(state) == 1
    for i in range(6):
        action = seat.choose(game, state, 1, 3, options, random.Random(i))
        assert action in game.legal(state)
        assert game.view(given[-1], 1) == game.view(state, 1)
    assert any(sample.hands[1:] != state.hands[1:] for sample in given)  # not the real cards
