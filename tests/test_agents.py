"""Computer players (issue 6): what an agent is handed, the levels of every installed game,
the generic random / greedy / tree-search agents and their budgets.

"An agent receives only its player's view and the legal actions, plus a budget (iterations
or time) and a seeded rng, and returns an action. Same seed, same budget in iterations:
same moves." Budgets are kept small so that the whole file stays cheap.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from tabletop.agents.base import Budget, Turn
from tabletop.agents.levels import DEFAULT_LEVEL, agent_levels, generic_levels
from tabletop.agents.search import Node, RandomPlayouts, SearchAgent, settle
from tabletop.agents.seat import Seat, make_seat
from tabletop.agents.simple import GreedyAgent, RandomAgent
from tabletop.core import options as opts
from tabletop.core.errors import UsageError
from tabletop.core.registry import registry
from tabletop.game import JSON, Game, player_of
from tests import test_ctverak, test_quartino
from tests.steps import chooser, own_actions, past_chance, random_step

GAMES = registry().ids()
LEVELS = [(g, name) for g in GAMES for name in agent_levels(registry().get(g))]
# These search up to a number of positions (about 1 s a move), too slow for this test;
# tests/test_quarto_solver.py checks that their budget makes them reproducible.
TIMED = {("quarto", "5"), ("quarto", "perfect")}
SMALL = Budget(iterations=30, seconds=0.2)

QUARTO = registry().get("quarto")
QUARTO_OPTIONS = opts.build(QUARTO.info.options, {}, "quarto")
# A give after 8 placements (found by a seeded random game): of the 8 pieces in the pool
# only LTRH lets the opponent place without winning at once (Q4.2).
BOARD = {
    "d1": "LTQF",
    "a2": "DTQF",
    "a3": "DTRH",
    "b3": "LSRF",
    "d3": "DSQH",
    "a4": "DSRF",
    "b4": "LSRH",
    "d4": "DSQF",
}


def options(game: Game[Any, Any]) -> Any:
    return opts.build(game.info.options, {}, game.info.id)


def midgame(game: Game[Any, Any], seed: int, actions: int = 6) -> tuple[Any, int]:
    """A position a few random actions into a seeded game, and its player count (a
    match: its chance steps, a deal or a draw, drawn after each action)."""
    players = game.info.min_players
    rng = random.Random(seed)
    state = past_chance(game, game.new(players, options(game), seed), rng)
    for _ in range(actions):
        if not game.legal(state):
            break
        state = random_step(game, state, rng)
    assert game.legal(state), "the game ended too soon for this test"
    return state, players


def choose(seat: Seat, game: Game[Any, Any], state: Any, players: int, seed: int) -> Any:
    player = chooser(game, state)
    assert player is not None
    return seat.choose(game, state, player, players, options(game), random.Random(seed))


def quarto_state(data: JSON) -> Any:
    return QUARTO.from_json(data, 2, QUARTO_OPTIONS, 0)


def search(iterations: int) -> Seat:
    """The generic tree search (UCT / ISMCTS) with a budget in playouts."""
    return Seat("search", SearchAgent(), Budget(iterations=iterations))


def wins_at_once(game: Game[Any, Any], state: Any, action: Any) -> bool:
    """``action`` ends the game won by the player taking it."""
    outcome = game.outcome(game.apply(state, action))
    return outcome is not None and game.to_act(state) in outcome.winners


# ---------------------------------------------------------------------- the ladder


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_has_levels_1_to_5_and_the_generic_agents(game_id: str) -> None:
    """'Levels 1-5 for every game, each named and described'; 'random', 'greedy', and
    'mcts' for perfect-information games or 'ismcts' for hidden-information ones."""
    game = registry().get(game_id)
    levels = agent_levels(game)
    search = "ismcts" if game.info.hidden_information else "mcts"
    other = "mcts" if game.info.hidden_information else "ismcts"
    assert {"1", "2", "3", "4", "5", "random", "greedy", search} <= set(levels)
    assert other not in levels
    assert list(levels)[:5] == ["1", "2", "3", "4", "5"]
    for name, level in levels.items():
        assert level.name == name
        assert len(level.description) >= 10, name
    assert levels["random"].make is RandomAgent and levels["greedy"].make is GreedyAgent


@pytest.mark.parametrize("game_id", GAMES)
def test_generic_ladder_is_random_greedy_then_growing_searches(game_id: str) -> None:
    game = registry().get(game_id)
    levels = generic_levels(game)
    assert list(levels) == ["1", "2", "3", "4", "5"]
    assert levels["1"].make is RandomAgent and levels["2"].make is GreedyAgent
    budgets = [levels[n].budget.iterations or 0 for n in ("3", "4", "5")]
    assert 0 < budgets[0] < budgets[1] < budgets[2]
    kind = "information-set MCTS" if game.info.hidden_information else "MCTS (UCT)"
    for name in ("3", "4", "5"):
        assert isinstance(levels[name].make(), SearchAgent)
        assert kind in levels[name].description
        assert f"{levels[name].budget.iterations} playouts" in levels[name].description


def test_make_seat_defaults_to_level_3_and_lists_the_known_levels() -> None:
    seat = make_seat(QUARTO, None)
    assert seat.level == DEFAULT_LEVEL == "3"
    assert seat.budget == agent_levels(QUARTO)["3"].budget
    with pytest.raises(UsageError) as caught:
        make_seat(QUARTO, "9")
    message = str(caught.value)
    assert "unknown AI level '9' for quarto" in message
    assert "1, 2, 3, 4, 5, random, greedy, mcts" in message and "\n" not in message


@pytest.mark.parametrize(("game_id", "name"), LEVELS)
def test_every_level_returns_a_legal_action_from_the_start(game_id: str, name: str) -> None:
    """Each level's agent (on a small budget) acts legally in a start position."""
    game = registry().get(game_id)
    seat = make_seat(game, name)
    assert seat.level == name
    small = Seat(name, seat.agent, SMALL)
    players = game.info.min_players
    state = past_chance(game, game.new(players, options(game), 3), random.Random(3))
    player = chooser(game, state)
    assert player is not None
    assert choose(small, game, state, players, 1) in own_actions(game, state, player)


@pytest.mark.parametrize(("game_id", "name"), [lv for lv in LEVELS if lv not in TIMED])
def test_same_seed_same_budget_same_move(game_id: str, name: str) -> None:
    """'Same seed, same budget in iterations: same moves' (fresh agents each time)."""
    game = registry().get(game_id)
    budget = Budget(iterations=30)
    for seed in (1, 2):
        state, players = midgame(game, seed)
        first, again = (
            choose(Seat(name, make_seat(game, name).agent, budget), game, state, players, 7)
            for _ in range(2)
        )
        player = chooser(game, state)
        assert player is not None
        assert first == again and first in own_actions(game, state, player)


# ---------------------------------------------------------------------- what an agent gets


class Recorder:
    """Keeps the turn it is handed; plays the first legal action."""

    def __init__(self) -> None:
        self.turns: list[Turn] = []

    def act(self, turn: Turn) -> Any:
        self.turns.append(turn)
        return turn.legal[0]


@pytest.mark.parametrize("game_id", ["quartino", "ctverak"])
def test_a_seat_hands_its_agent_the_view_legal_actions_budget_and_rng(game_id: str) -> None:
    game = registry().get(game_id)
    state, players = midgame(game, 4)
    player = chooser(game, state)
    assert player is not None
    recorder, budget, rng = Recorder(), Budget(iterations=5, seconds=1.0), random.Random(0)
    action = Seat("rec", recorder, budget).choose(game, state, player, players, options(game), rng)
    (turn,) = recorder.turns
    assert action == turn.legal[0]
    assert turn.game is game and (turn.player, turn.players) == (player, players)
    assert turn.view == game.view(state, player) != game.to_json(state)  # hidden parts out
    assert list(turn.legal) == list(own_actions(game, state, player))
    assert turn.budget == budget and turn.rng is rng


def test_search_on_hidden_information_reads_only_the_view_quartino() -> None:
    """ISMCTS 'with determinisation (Game.sample)': two Quartino states that differ only
    in player 2's hidden stand (N4) give player 1 the same move for the same seed."""
    load, position = test_quartino.load, test_quartino.position
    game = test_quartino.GAME
    one = load(position("c:P r5:Y r1:G", {1: ["P|YBG", "Y|BGP"], 2: ["G|YBP"]}, owed=2))
    two = load(position("c:P r5:Y r1:G", {1: ["P|YBG", "Y|BGP"], 2: ["B|PGY"]}, owed=2))
    assert game.to_json(one) != game.to_json(two) and game.view(one, 2) != game.view(two, 2)
    assert game.view(one, 1) == game.view(two, 1)
    assert game.legal(one) == game.legal(two) and len(game.legal(one)) > 10
    moves = set()
    for seed in (0, 1, 2):
        first, second = (
            choose(search(60), game, one, 2, seed),
            choose(search(60), game, two, 2, seed),
        )
        assert first == second
        moves.add(first)
    assert moves <= set(game.legal(one))


def test_search_on_hidden_information_reads_only_the_view_ctverak() -> None:
    """The same for Čtverák: player 2's hand (and so the stock) differ, player 1's view not."""
    position, game = test_ctverak.position, test_ctverak.GAME
    one = position({1: "9S 3H", 2: "2C 5D 8H JC"}, piles=("", "4C 9D", "", ""))
    two = position({1: "9S 3H", 2: "2C 5D 8H QC"}, piles=("", "4C 9D", "", ""))
    assert game.to_json(one) != game.to_json(two)
    assert game.view(one, 1) == game.view(two, 1) and game.legal(one) == game.legal(two)
    assert choose(search(40), game, one, 2, 5) == choose(search(40), game, two, 2, 5)


# ---------------------------------------------------------------------- Quarto positions


def test_quarto_position_has_one_win_and_one_safe_give() -> None:
    """The positions below are what the tests say they are."""
    place = quarto_state({"board": BOARD, "in_hand": "LTRF", "to_act": 2, "last_placed": "d1"})
    wins = [a for a in QUARTO.legal(place) if wins_at_once(QUARTO, place, a)]
    assert [QUARTO.format(place, a) for a in wins] == ["place c2"]
    give = quarto_state({"board": BOARD, "in_hand": None, "to_act": 1, "last_placed": "d1"})
    assert len(QUARTO.legal(give)) == 8
    assert [QUARTO.format(give, a) for a in safe_gives(give)] == ["give LTRH"]


def safe_gives(state: Any) -> list[Any]:
    """Gives after which no placement wins at once for the opponent (Q3.4, Q4.2)."""
    safe = []
    for give in QUARTO.legal(state):
        after = QUARTO.apply(state, give)
        if not any(wins_at_once(QUARTO, after, a) for a in QUARTO.legal(after)):
            safe.append(give)
    return safe


@pytest.mark.parametrize("seed", range(4))
def test_search_and_greedy_take_an_immediate_win(seed: int) -> None:
    place = quarto_state({"board": BOARD, "in_hand": "LTRF", "to_act": 2, "last_placed": "d1"})
    win = QUARTO.parse(place, "place c2")
    assert choose(search(100), QUARTO, place, 2, seed) == win
    assert choose(Seat("greedy", GreedyAgent(), Budget()), QUARTO, place, 2, seed) == win


@pytest.mark.parametrize("seed", range(4))
def test_uct_does_not_hand_over_a_winning_piece(seed: int) -> None:
    """UCT with 200 playouts gives the one piece that does not lose at once (Q4.2)."""
    give = quarto_state({"board": BOARD, "in_hand": None, "to_act": 1, "last_placed": "d1"})
    assert choose(search(200), QUARTO, give, 2, seed) == QUARTO.parse(give, "give LTRH")


def test_random_agent_plays_every_legal_action_uniformly() -> None:
    give = quarto_state({"board": BOARD, "in_hand": None, "to_act": 1, "last_placed": "d1"})
    seat = Seat("random", RandomAgent(), Budget())
    picks = [choose(seat, QUARTO, give, 2, seed) for seed in range(400)]
    counts = [picks.count(a) for a in QUARTO.legal(give)]
    assert sum(counts) == 400 and min(counts) >= 25  # 50 expected for each of 8


# ---------------------------------------------------------------------- budgets


class Counting:
    """Counts the playouts (calls to ``RandomPlayouts.finish``) the search makes."""

    calls = 0


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Counting:
    counter = Counting()
    finish = RandomPlayouts.finish

    def counting(playouts: RandomPlayouts, state: Any, rng: random.Random) -> Any:
        counter.calls += 1
        return finish(playouts, state, rng)

    monkeypatch.setattr(RandomPlayouts, "finish", counting)
    return counter


def test_an_iteration_budget_is_exact_and_reproducible(counted: Counting) -> None:
    """'The budget is counted in playouts, so the same seed and budget give the same move'."""
    state, _ = midgame(QUARTO, 11, actions=5)
    moves = [choose(search(150), QUARTO, state, 2, 3) for _ in range(3)]
    assert counted.calls == 3 * 150
    assert len(set(moves)) == 1 and moves[0] in QUARTO.legal(state)
    counted.calls = 0
    choose(Seat("default", SearchAgent(), Budget()), QUARTO, state, 2, 3)
    assert counted.calls == 1000  # 'default 1000 playouts'


def test_a_seconds_cap_stops_the_search_early(counted: Counting) -> None:
    state, _ = midgame(QUARTO, 11, actions=5)
    capped = Seat("capped", SearchAgent(), Budget(iterations=100_000, seconds=0.05))
    began = time.perf_counter()
    action = choose(capped, QUARTO, state, 2, 3)
    assert time.perf_counter() - began < 1.0
    assert action in QUARTO.legal(state)
    assert 0 < counted.calls < 100_000


def test_a_single_legal_action_needs_no_search(counted: Counting) -> None:
    # 15 pieces placed (a seeded random game): the last one, DTRF, must be given (Q3.3)
    full = "DSQF LTRF DTQH LSRF LTRH LTQF DTRH LSQH - DSRH LSRH DSQH DTQF DSRF LSQF LTQH"
    squares = [f"{f}{r}" for r in "1234" for f in "abcd"]
    board = {sq: piece for sq, piece in zip(squares, full.split(), strict=True) if piece != "-"}
    state = quarto_state({"board": board, "in_hand": None, "to_act": 2, "last_placed": "b4"})
    assert len(QUARTO.legal(state)) == 1
    assert choose(search(500), QUARTO, state, 2, 0) == QUARTO.legal(state)[0]
    assert counted.calls == 0


# ------------------------------------------------- MCTS-Solver and tree reuse (issue 16)


def quarto_turn(state: Any, iterations: int, seed: int = 0) -> Turn:
    player = player_of(QUARTO.to_act(state))
    assert player is not None
    view = QUARTO.view(state, player)
    legal = list(QUARTO.legal(state))
    return Turn(
        QUARTO, player, 2, QUARTO_OPTIONS, view, legal, random.Random(seed), Budget(iterations)
    )


def test_settle_proves_a_node_by_a_win_or_by_all_its_actions() -> None:
    node = Node()
    node.width = 2
    lost, drawn, won = Node(), Node(), Node()
    lost.proven, drawn.proven, won.proven = [0.0, 0.0, 1.0], [0.0, 0.5, 0.5], [0.0, 1.0, 0.0]
    node.children = {0: lost}
    assert not settle(node, 1) and node.proven is None  # one action of two is known
    node.children[1] = drawn
    assert settle(node, 1) and node.proven == [0.0, 0.5, 0.5]  # all known: the best
    node.proven = None
    node.width = 3
    node.children = {0: Node(), 1: won}
    assert settle(node, 1) and node.proven == [0.0, 1.0, 0.0]  # a win proves it at once


def test_the_solver_takes_a_win_and_stops_searching(counted: Counting) -> None:
    place = quarto_state({"board": BOARD, "in_hand": "LTRF", "to_act": 2, "last_placed": "d1"})
    agent = SearchAgent()
    assert agent.act(quarto_turn(place, 1000)) == QUARTO.parse(place, "place c2")
    assert counted.calls < len(QUARTO.legal(place))  # stopped once the win was expanded


def test_the_solver_proves_the_gives_that_lose_at_once() -> None:
    """Seven of the eight gives let the opponent win at once (Q4.2): all proven lost."""
    give = quarto_state({"board": BOARD, "in_hand": None, "to_act": 1, "last_placed": "d1"})
    agent = SearchAgent()
    assert agent.act(quarto_turn(give, 2000)) == QUARTO.parse(give, "give LTRH")
    assert agent._tree is not None
    root = agent._tree[1]
    lost = [a for a, child in root.children.items() if child.proven and child.proven[1] == 0]
    assert sorted(lost) == sorted(a for a in QUARTO.legal(give) if a not in safe_gives(give))


def test_decisive_moves_take_a_win_with_no_playout(counted: Counting) -> None:
    """The root's actions are tried for an immediate win before any playout."""
    place = quarto_state({"board": BOARD, "in_hand": "LTRF", "to_act": 2, "last_placed": "d1"})
    assert SearchAgent().act(quarto_turn(place, 1)) == QUARTO.parse(place, "place c2")
    assert counted.calls == 0


@pytest.mark.parametrize("seed", range(4))
def test_decisive_moves_prove_the_losing_gives_within_a_few_playouts(seed: int) -> None:
    """Each give is proven lost the first time its node is expanded (a placement wins at
    once, Q4.2): 3 playouts a give are enough, where plain solving needed hundreds."""
    give = quarto_state({"board": BOARD, "in_hand": None, "to_act": 1, "last_placed": "d1"})
    agent = SearchAgent(reuse=False)
    assert agent.act(quarto_turn(give, 24, seed)) == QUARTO.parse(give, "give LTRH")
    assert agent._tree is not None
    root = agent._tree[1]
    lost = [a for a, child in root.children.items() if child.proven and child.proven[1] == 0]
    assert sorted(lost) == sorted(a for a in QUARTO.legal(give) if a not in safe_gives(give))


def test_reuse_keeps_the_subtree_of_the_position_reached() -> None:
    state, _ = midgame(QUARTO, 11, actions=5)
    agent = SearchAgent()
    me = QUARTO.to_act(state)
    state = QUARTO.apply(state, agent.act(quarto_turn(state, 300)))
    while QUARTO.to_act(state) not in (me, None):  # the opponent replies
        state = QUARTO.apply(state, QUARTO.legal(state)[0])
    fresh = SearchAgent(reuse=False)
    fresh.act(quarto_turn(state, 300))
    agent.act(quarto_turn(state, 300))
    assert fresh._tree is not None and agent._tree is not None
    assert fresh._tree[1].visits <= 300 < agent._tree[1].visits


def test_greedy_judges_a_roll_by_what_the_die_may_bring() -> None:
    """Greedy's one ply looks through the chance step after an action: in Pig a roll is
    worth its expectation (a 1 loses the turn total), so greedy rolls on a small total and
    holds on a large one (before, roll and hold looked alike and it chose at random)."""
    if "pig" not in GAMES:
        pytest.skip("the pig example is not installed")
    game = registry().get("pig")
    options = game.info.options()
    start = game.new(2, options, 0)
    choices = {}
    for total in (0, 40):
        state = start._replace(total=total)
        view = game.view(state, 1)
        legal = list(game.legal(state))
        turns = [Turn(game, 1, 2, options, view, legal, random.Random(s)) for s in range(5)]
        choices[total] = {game.format(state, GreedyAgent().act(turn)) for turn in turns}
    assert choices == {0: {"roll"}, 40: {"hold"}}, choices


def test_a_games_playout_limit_cuts_the_generic_levels_playouts() -> None:
    """``PLAYOUT_LIMIT`` in a game's agents module (Pig's 12) is what the generic levels'
    and the named search's playouts are cut at; a game without one plays them out."""
    from tabletop.agents.playouts import PLAYOUT_LIMIT

    if "pig" not in GAMES:
        pytest.skip("the pig example is not installed")
    def limit(level: Any) -> int:
        agent = level.make()
        assert isinstance(agent, SearchAgent)
        return agent.playout_limit

    game = registry().get("pig")
    generic = generic_levels(game)  # Pig's own ladder replaces them (its agents' LEVELS)
    named = agent_levels(game)["mcts"]
    assert {limit(generic["3"]), limit(generic["4"]), limit(generic["5"]), limit(named)} == {12}
    assert limit(agent_levels(registry().get("quarto"))["mcts"]) == PLAYOUT_LIMIT
