"""The exact Quarto solver against brute force, its symmetries, budgets and the perfect agent."""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import permutations, product
from typing import Any

import pytest

from tabletop.agents.base import Budget, Turn
from tabletop.agents.seat import make_seat
from tabletop_quarto import search as pysearch
from tabletop_quarto.agents.perfect import PerfectAgent
from tabletop_quarto.pieces import ATTRIBUTES, encode, patterns
from tabletop_quarto.position import from_json, to_json
from tabletop_quarto.rules import (
    DONE,
    GIVE,
    LAST_CLAIM,
    OVER,
    PLACE,
    PLACE_BASE,
    QUARTO,
    QuartoOptions,
    Rules,
    State,
    apply,
    config,
    initial,
    legal,
    make_rules,
    wins_through,
)
from tabletop_quarto.search import WIN, columns
from tabletop_quarto.solver import (
    Engine,
    Solution,
    describe,
    kernel_available,
    solve,
    summary,
    value_within,
)
from tabletop_quarto.symmetry import Canon, board_symmetries, counted_mask
from tests.quarto_helpers import quarto

ALL = frozenset(ATTRIBUTES)
COUNTED = (ALL, frozenset({"colour"}), frozenset({"height", "top"}), frozenset(ATTRIBUTES[:3]))
VARIANTS = [
    (squares, counted, manual)
    for squares, counted, manual in product((False, True), COUNTED, (False, True))
]


def variant_id(variant: tuple[bool, frozenset[str], bool]) -> str:
    squares, counted, manual = variant
    names = ",".join(a for a in ATTRIBUTES if a in counted)
    return f"{'squares' if squares else 'lines'}-{names}-{'manual' if manual else 'auto'}"


def brute(state: State) -> tuple[int, int]:
    """Plain minimax over the rules themselves: (value, placements) for the player to act.

    The winner takes the fastest win, the loser the slowest loss; claims (manual mode)
    are actions like any other, so this also checks that manual play has the auto value.
    """
    memo: dict[tuple[int, ...], int] = {}

    def score(st: State, placed: int) -> int:
        key = (st.board, st.occupied, st.hand, st.phase, st.last, st.player)
        if key in memo:
            return memo[key]
        best = -10 * WIN
        for action in legal(st):
            after = apply(st, action)
            count = placed + (PLACE_BASE <= action < QUARTO)
            if after.phase == OVER:
                won = after.player
                value = 0 if won == 0 else WIN - count if won == st.player else count - WIN
            else:
                value = score(after, count)
                if after.player != st.player:
                    value = -value
            best = max(best, value)
        memo[key] = best
        return best

    value = score(state, 0)
    empties = 16 - state.occupied.bit_count()
    if value == 0:
        return 0, empties
    return (1, WIN - value) if value > 0 else (-1, WIN + value)


def random_position(rules: Rules, empties: int, phase: int, rng: random.Random) -> State:
    """A position reached by random play with ``empties`` empty squares in ``phase``."""
    while True:
        state = initial(rules)
        while state.phase != OVER:
            if 16 - state.occupied.bit_count() == empties and state.phase == phase:
                return state
            state = apply(state, rng.choice(legal(state)))


def reaches(state: State, solution: Solution) -> None:
    """The best action (and its planned give) keeps the value: brute force on the rest."""
    value, placements = brute(state)
    assert solution.best in legal(state)
    after = apply(state, solution.best)
    placed = PLACE_BASE <= solution.best < QUARTO
    if after.phase == OVER:
        assert (value, placements) == ((1, 1) if after.player else (0, 1)) or not placed
        return
    if after.player == state.player and solution.then is not None:
        assert solution.then in legal(after)
        after = apply(after, solution.then)
    if after.phase == OVER:
        return
    got_value, got_placements = brute(after)
    if after.player != state.player:
        got_value = -got_value
    assert (got_value, got_placements + placed) == (value, placements)


# --- symmetries ---------------------------------------------------------------------------


def test_board_symmetries_are_the_groups_of_32_and_8() -> None:
    """Square maps keeping the 10 lines: 32; also keeping the nine 2×2 blocks: 8 (Q4.1, Q4.4)."""
    for squares, size in ((False, 32), (True, 8)):
        group = board_symmetries(squares)
        assert len(group) == size == len(set(group))
        assert group[0] == tuple(range(16))
        pats = {frozenset(p) for p in patterns(squares)}
        for perm in group:
            assert {frozenset(perm[s] for s in p) for p in pats} == pats
        for a, b in product(group, repeat=2):  # closed: a group, not just a set
            assert tuple(a[b[s]] for s in range(16)) in group
    assert set(board_symmetries(True)) < set(board_symmetries(False))


def piece_maps(counted: frozenset[str]) -> list[Callable[[int], int]]:
    """Every value flip, every attribute permutation that keeps counted among counted, and a
    relabelling that only changes uncounted attributes (valid when some do not count)."""
    inside = [i for i in range(4) if ATTRIBUTES[i] in counted]
    outside = [i for i in range(4) if ATTRIBUTES[i] not in counted]
    maps = [flip(mask) for mask in range(16)]
    maps += [
        permute(perm)
        for perm in permutations(range(4))
        if sorted(perm[i] for i in inside) == inside
    ]
    if outside:
        maps.append(relabel(counted_mask(counted), 1 << outside[0]))
    return maps


def flip(mask: int) -> Callable[[int], int]:
    """Value flips: XOR with ``mask``."""
    return lambda p: p ^ mask


def permute(perm: tuple[int, ...]) -> Callable[[int], int]:
    """Attribute i becomes attribute ``perm[i]``."""
    return lambda p: sum(((p >> i) & 1) << perm[i] for i in range(4))


def relabel(cmask: int, low: int) -> Callable[[int], int]:
    """Flip the uncounted bit ``low`` only for pieces whose counted bits are odd: a bijection
    that keeps every piece's counted values, so not a product of flips and permutations."""
    return lambda p: p ^ (low if (p & cmask).bit_count() % 2 else 0)


def transform(state: State, perm: tuple[int, ...], piece: Callable[[int], int]) -> State:
    board = occupied = 0
    for s in range(16):
        if state.occupied >> s & 1:
            board |= encode(piece((state.board >> (8 * s)) & 15)) << (8 * perm[s])
            occupied |= 1 << perm[s]
    hand = piece(state.hand) if state.hand >= 0 else -1
    pool = sum(1 << piece(p) for p in range(16) if state.pool >> p & 1)
    last = perm[state.last] if state.last >= 0 else -1
    return state._replace(board=board, occupied=occupied, pool=pool, hand=hand, last=last)


def wins_anywhere(state: State) -> tuple[bool, ...]:
    return tuple(
        bool(state.occupied >> s & 1) and wins_through(state.board, state.occupied, s, state.rules)
        for s in range(16)
    )


def random_board(rules: Rules, rng: random.Random, filled: int) -> State:
    pieces = rng.sample(range(16), filled)
    squares = rng.sample(range(16), filled)
    board = sum(encode(p) << (8 * s) for p, s in zip(pieces, squares, strict=True))
    occupied = sum(1 << s for s in squares)
    return State(board, occupied, 0xFFFF & ~sum(1 << p for p in pieces), -1, 1, GIVE, -1, rules)


@pytest.mark.parametrize("squares", [False, True], ids=["lines", "squares"])
@pytest.mark.parametrize("counted", COUNTED, ids=lambda c: ",".join(sorted(c)))
def test_every_symmetry_keeps_the_win_function(squares: bool, counted: frozenset[str]) -> None:
    """Q4.2/Q4.4/Q4.5: the win of every pattern is invariant under each symmetry used."""
    rules = make_rules(squares, counted, False)
    rng = random.Random(7)
    boards = [random_board(rules, rng, rng.randrange(4, 17)) for _ in range(60)]
    maps = list(piece_maps(counted))
    assert any(any(wins_anywhere(b)) for b in boards)  # the check has something to see
    for board in boards:
        before = wins_anywhere(board)
        for perm in board_symmetries(squares):
            image = transform(board, perm, lambda p: p)
            assert tuple(before[s] for s in sorted(range(16), key=lambda s: perm[s])) == (
                wins_anywhere(image)
            )
        for piece in maps:
            assert wins_anywhere(transform(board, tuple(range(16)), piece)) == before


def test_mixing_counted_and_uncounted_attributes_is_not_a_symmetry() -> None:
    """The check above can fail: swapping colour (counted) with height (not) changes wins."""
    rules = make_rules(False, frozenset({"colour"}), False)
    swap = (1, 0, 2, 3)
    rng = random.Random(3)
    changed = 0
    for _ in range(200):
        board = random_board(rules, rng, 12)
        image = transform(board, tuple(range(16)), permute(swap))
        changed += wins_anywhere(image) != wins_anywhere(board)
    assert changed > 0


@pytest.mark.parametrize("squares", [False, True], ids=["lines", "squares"])
@pytest.mark.parametrize("counted", COUNTED, ids=lambda c: ",".join(sorted(c)))
def test_canonical_key_is_the_same_for_symmetric_positions(
    squares: bool, counted: frozenset[str]
) -> None:
    rules = make_rules(squares, counted, False)
    canon = Canon(squares, counted_mask(counted))
    rng = random.Random(11)
    maps = list(piece_maps(counted))
    keys = set()
    for _ in range(25):
        state = random_position(rules, rng.randrange(5, 13), PLACE, rng)
        key = canon.key(state.occupied, columns(state.board, state.occupied), state.hand)
        keys.add(key)
        for _ in range(6):
            perm = rng.choice(board_symmetries(squares))
            image = transform(state, perm, rng.choice(maps))
            assert (
                canon.key(image.occupied, columns(image.board, image.occupied), image.hand) == key
            )
    assert len(keys) > 20  # different positions mostly get different keys


@pytest.mark.parametrize("engine", ["python", "kernel"])
def test_solver_values_are_invariant_under_symmetries(engine: Engine) -> None:
    if engine == "kernel" and not kernel_available():
        pytest.skip("the compiled kernel is not built (pip install -e . with a C compiler)")
    rng = random.Random(5)
    for squares, counted in product((False, True), COUNTED):
        rules = make_rules(squares, counted, False)
        maps = list(piece_maps(counted))
        state = random_position(rules, 8, PLACE, rng)
        expected = solve(state, engine=engine)
        for _ in range(3):
            image = transform(state, rng.choice(board_symmetries(squares)), rng.choice(maps))
            got = solve(image, engine=engine)
            assert (got.value, got.placements) == (expected.value, expected.placements)


# --- exact values against brute force -----------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_solver_matches_brute_force(variant: tuple[bool, frozenset[str], bool]) -> None:
    """Value, placements and a best action that keeps them, on random ≤ 6-empty positions
    (≤ 5 with manual claims, whose brute force also walks every claim and ``done``)."""
    rules = make_rules(*variant)
    rng = random.Random(sum(map(ord, variant_id(variant))))
    cases: tuple[tuple[int, int], ...] = ((4, PLACE), (5, GIVE), (5, PLACE))
    if not variant[2]:
        cases += ((6, PLACE), (6, GIVE))
    for empties, phase in cases:
        state = random_position(rules, empties, phase, rng)
        solution = solve(state, engine="python")
        assert solution.exact
        assert (solution.value, solution.placements) == brute(state), to_json(state)
        reaches(state, solution)


def test_solver_finds_wins_draws_and_losses() -> None:
    """The brute-force comparison is not vacuous: all three outcomes occur."""
    rules = make_rules(False, ALL, False)
    rng = random.Random(2)
    seen = set()
    for _ in range(40):
        state = random_position(rules, 5, rng.choice((PLACE, GIVE)), rng)
        solution = solve(state, engine="python")
        assert (solution.value, solution.placements) == brute(state)
        seen.add(solution.value)
    assert seen == {-1, 0, 1}


@pytest.mark.parametrize("variant", VARIANTS[::3], ids=variant_id)
def test_kernel_settings_in_python_match_brute_force(
    variant: tuple[bool, frozenset[str], bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kernel's tuning (3-empty shortcut, ordering from 5, _kernel.c) in Python, with
    the table from 4 empty squares (the kernel's is from 7) so these small positions use it."""
    monkeypatch.setattr(pysearch, "COUNT3", True)
    monkeypatch.setattr(pysearch, "ORDER_MIN", 5)
    monkeypatch.setattr(pysearch, "TT_MIN", 4)
    rules = make_rules(*variant)
    rng = random.Random(17)
    for empties, phase in ((5, PLACE), (5, GIVE), (6 - variant[2], PLACE)):
        state = random_position(rules, empties, phase, rng)
        solution = solve(state, engine="python")
        assert (solution.value, solution.placements) == brute(state)
        reaches(state, solution)


@pytest.mark.skipif(not kernel_available(), reason="the compiled kernel is not built")
@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_kernel_and_python_give_the_same_values(variant: tuple[bool, frozenset[str], bool]) -> None:
    """Both engines on the same positions: same value and placements; both bests keep them."""
    rules = make_rules(*variant)
    rng = random.Random(23)
    for empties, phase in ((6, PLACE), (8, PLACE), (9, GIVE), (9, PLACE)):
        state = random_position(rules, empties, phase, rng)
        py = solve(state, engine="python")
        kn = solve(state, engine="kernel")
        assert py.exact and kn.exact
        assert (kn.value, kn.placements) == (py.value, py.placements)
        if empties <= 6:
            reaches(state, kn)
        else:
            for solution in (py, kn):
                assert solution.best in legal(state)
                after = apply(state, solution.best)
                if solution.then is not None and after.phase != OVER:
                    after = apply(after, solution.then)
                if after.phase != OVER and after.player != state.player:
                    again = solve(after, engine="kernel")
                    assert -again.value == py.value


# --- positions from the spec -------------------------------------------------------------


def position(board: dict[str, str], hand: str | None, **options: Any) -> State:
    giver = 1 + len(board) % 2  # player 1 gives first, the placer gives next (Q3.2, Q3.3)
    to_act = giver if hand is None else 3 - giver
    data = {"board": board, "in_hand": hand, "to_act": to_act, "last_placed": None}
    return from_json(data, config(2, QuartoOptions.model_validate(options)))


def test_an_immediate_win_is_one_placement() -> None:
    """Q7.1: three tall pieces on rank 2 and a tall piece in hand: place it on d2."""
    state = position({"a2": "LTRF", "b2": "DTQH", "c2": "LTQH", "a1": "DSRF"}, "DTRF")
    solution = solve(state)
    assert solution[:5] == (1, 1, PLACE_BASE + 7, True, None)


def test_a_give_where_every_piece_wins_for_the_opponent_loses_in_one() -> None:
    """Every piece left is deadly: the opponent places it and wins (Q4.2)."""
    board = {  # rank 1: three light pieces, file a: three dark pieces
        "b1": "LSRF",
        "c1": "LTQH",
        "d1": "LSQH",
        "a2": "DSRF",
        "a3": "DTQH",
        "a4": "DTRF",
    }
    state = position(board, None)
    solution = solve(state)
    assert (solution.value, solution.placements, solution.exact) == (-1, 1, True)
    assert solution.best in legal(state)


def test_squares_variant_changes_the_value() -> None:
    """Q7.4: three round pieces on a1 b1 a2 and a round piece in hand win only with squares."""
    board = {"a1": "LSRF", "b1": "DTRH", "a2": "LTRH", "d4": "DSQF"}
    plain = solve(position(board, "DSRH"))
    blocks = solve(position(board, "DSRH", squares=True))
    assert (blocks.value, blocks.placements, blocks.best) == (1, 1, PLACE_BASE + 5)
    assert (plain.value, plain.placements) != (1, 1)


def test_claims_and_the_end_with_manual_claims() -> None:
    """Q5.2-Q5.4: an open true claim is a win in 0 placements; after the 16th, done."""
    rules = make_rules(False, ALL, True)
    state = from_json(
        {
            "board": {"a2": "LTRF", "b2": "DTQH", "c2": "LTQH", "d2": "DTRF"},
            "in_hand": None,
            "to_act": 1,
            "last_placed": "d2",
        },
        rules,
    )
    assert QUARTO in legal(state)
    assert solve(state) == Solution(1, 0, QUARTO, True)
    rng = random.Random(4)
    while True:
        full = initial(rules)
        while full.phase != OVER and full.phase != LAST_CLAIM:
            full = apply(full, rng.choice([a for a in legal(full) if a != QUARTO]))
        if full.phase == LAST_CLAIM and QUARTO not in legal(full):
            break
    assert solve(full) == Solution(0, 0, DONE, True)
    with pytest.raises(ValueError, match="over"):
        solve(apply(full, QUARTO) if QUARTO in legal(full) else apply(apply(full, DONE), DONE))


# --- budgets ------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ["python", "kernel"])
def test_a_tiny_budget_is_not_exact_and_is_deterministic(engine: Engine) -> None:
    if engine == "kernel" and not kernel_available():
        pytest.skip("the compiled kernel is not built")
    rules = make_rules(False, ALL, False)
    state = random_position(rules, 13, PLACE, random.Random(1))
    first = solve(state, nodes=3000, engine=engine)
    assert not first.exact
    assert first.best is None or first.best in legal(state)
    assert solve(state, nodes=3000, engine=engine) == first
    assert not solve(state, seconds=0.0, engine=engine).exact
    text = describe(first, state)
    assert text["exact"] is False and text["placements"] is None
    if first.value == 0:
        assert text["value"] == "unknown"
        assert summary(first, state).startswith("too deep for the budget")


def test_a_budget_still_finds_a_near_win_exactly() -> None:
    """Iterative deepening: a forced win within the horizon is exact on a small budget."""
    rules = make_rules(False, ALL, False)
    rng = random.Random(9)
    for _ in range(30):
        state = random_position(rules, 11, PLACE, rng)
        full = solve(state)
        if full.value == 1 and full.placements <= 5:
            quick = solve(state, nodes=200_000)
            assert quick.exact and (quick.value, quick.placements) == (1, full.placements)
            return
    pytest.fail("no quick win among the sampled positions")


def test_describe_gives_the_value_in_notation() -> None:
    state = position({"a2": "LTRF", "b2": "DTQH", "c2": "LTQH"}, "DTRF")
    assert describe(solve(state), state) == {
        "value": "win",
        "placements": 1,
        "best": "place d2",
        "then": None,
        "exact": True,
        "player": 1,
        "depth": 1,
        "nodes": solve(state).nodes,
    }
    assert (
        summary(solve(state), state)
        == "player 1 wins in 1 placement with best play; best: place d2"
    )


# --- the perfect agent --------------------------------------------------------------------


def play(state: State, agents: dict[int, Any], options: QuartoOptions) -> State:
    game = quarto()
    rng = random.Random(0)
    while state.phase != OVER:
        turn = Turn(
            game, state.player, 2, options, to_json(state), list(legal(state)), rng, Budget()
        )
        action = agents[state.player].act(turn)
        assert action in legal(state)
        state = apply(state, action)
    return state


@pytest.mark.parametrize("claim", ["auto", "manual"])
def test_the_perfect_agent_keeps_the_value(claim: str) -> None:
    """From solved positions: a win is won in exactly the predicted placements, a draw
    is never lost against a random opponent, with either claim mode."""
    from tabletop.agents.simple import RandomAgent

    options = QuartoOptions.model_validate({"claim": claim})
    rules = config(2, options)
    rng = random.Random(31)
    outcomes = set()
    for _ in range(6):
        state = random_position(rules, 9, PLACE, rng)
        if QUARTO in legal(state):
            continue
        solution = solve(state)
        me = state.player
        perfect = PerfectAgent(seconds=None)
        end = play(state, {me: perfect, 3 - me: perfect}, options)
        placed = end.occupied.bit_count() - state.occupied.bit_count()
        expected_winner = {1: me, 0: 0, -1: 3 - me}[solution.value]
        assert (end.player, placed) == (expected_winner, solution.placements)
        if solution.value >= 0:
            end = play(state, {me: perfect, 3 - me: RandomAgent()}, options)
            assert end.player in (me, 0) if solution.value == 0 else end.player == me
        outcomes.add(solution.value)
    assert len(outcomes) >= 2


def test_the_perfect_agent_answers_within_its_budget_from_the_start() -> None:
    options = QuartoOptions.model_validate({})
    state = initial(config(2, options))
    game = quarto()
    turn = Turn(game, 1, 2, options, to_json(state), list(legal(state)), random.Random(0), Budget())
    action = PerfectAgent(seconds=0.2, nodes=20_000).act(turn)
    assert action in legal(state)


def test_level_5_is_reproducible_its_budget_is_in_positions() -> None:
    """Level 5 searches a number of positions (more with the compiled kernel), so the
    same position gives the same move whatever the machine's load; the 2 s is a cap."""
    from tabletop_quarto import agents, kernel

    seat = make_seat(quarto(), "5")
    assert isinstance(seat.agent, PerfectAgent)
    assert seat.agent.nodes == (agents.KERNEL_NODES if kernel.available() else agents.PYTHON_NODES)
    assert seat.budget.seconds == 2.0
    options = QuartoOptions.model_validate({})
    state = random_position(config(2, options), 14, PLACE, random.Random(5))
    game = quarto()

    def turn() -> Turn:  # the same position and the same random state
        view, actions = to_json(state), list(legal(state))
        return Turn(game, state.player, 2, options, view, actions, random.Random(0), Budget())

    moves = {PerfectAgent(seconds=None, nodes=5_000).act(turn()) for _ in range(3)}
    assert len(moves) == 1 and moves <= set(legal(state))


# --- the perfect agent's opening (issue 16) --------------------------------------------


@pytest.mark.parametrize("engine", ["python", "kernel"])
@pytest.mark.parametrize("phase", [PLACE, GIVE])
def test_value_within_the_whole_game_is_the_solved_value(engine: Engine, phase: int) -> None:
    rules = config(2, QuartoOptions.model_validate({}))
    rng = random.Random(phase + 40)
    for _ in range(4):
        state = random_position(rules, 8, phase, rng)
        assert value_within(state, 8, engine=engine) == solve(state, engine=engine).value


def test_the_perfect_agent_plays_no_searched_move_the_solver_refutes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before the solver can settle a position, the search's favourite moves are checked:
    here its three favourites lose within two placements (Q4.2), so the solver's own
    guess is played."""
    options = QuartoOptions.model_validate({})
    state = random_position(config(2, options), 11, GIVE, random.Random(2))
    guess = solve(state, nodes=3000)
    assert not guess.exact and guess.depth >= 2 and guess.best is not None
    losing = [a for a in legal(state) if value_within(apply(state, a), 2) == 1]
    assert len(losing) >= 3 and guess.best not in losing
    agent = PerfectAgent(seconds=None, nodes=3000)
    monkeypatch.setattr(agent._search, "ranked", lambda turn: [*losing, guess.best])
    turn = Turn(
        quarto(),
        state.player,
        2,
        options,
        to_json(state),
        list(legal(state)),
        random.Random(0),
        Budget(),
    )
    assert agent.act(turn) == guess.best
    monkeypatch.setattr(agent._search, "ranked", lambda turn: [losing[0], guess.best])
    assert agent.act(turn) == guess.best
