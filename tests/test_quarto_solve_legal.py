"""``tabletop solve`` names only legal actions (issue 38, item 4): over many random Quarto
positions of every variant and every kind of step (give, place, a claim open, the last
claim), lost, drawn and won, exact or cut short by the budget, the best action is legal
(Q3.2, Q3.3, Q5.2-Q5.4) and the give planned with a placement is a piece still to give.
A lost placement where every square loses as fast once named piece 15 ("give DTQH")."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tabletop.cli.app import app
from tabletop_quarto.pieces import ATTRIBUTES
from tabletop_quarto.position import to_json
from tabletop_quarto.rules import (
    OVER,
    PLACE,
    PLACE_BASE,
    QUARTO,
    State,
    apply,
    initial,
    legal,
    make_rules,
)
from tabletop_quarto.solver import Engine, solve

VARIANTS = [(False, False), (True, False), (False, True), (True, True)]  # (squares, manual)


def positions(squares: bool, manual: bool, count: int) -> list[State]:
    """``count`` random positions of the variant, 8 to 31 actions in, the game not over."""
    rules = make_rules(squares, frozenset(ATTRIBUTES), manual)
    found: list[State] = []
    rng = random.Random(f"{squares}{manual}")
    while len(found) < count:
        state = initial(rules)
        for _ in range(rng.randrange(8, 32)):
            if state.phase == OVER:
                break
            state = apply(state, rng.choice(legal(state)))
        if state.phase != OVER:
            found.append(state)
    return found


@pytest.mark.parametrize("engine", ["kernel", "python"])
@pytest.mark.parametrize(("squares", "manual"), VARIANTS)
def test_the_best_action_is_always_legal(engine: Engine, squares: bool, manual: bool) -> None:
    from tabletop_quarto.kernel import available

    if engine == "kernel" and not available():
        pytest.skip("the C kernel is not built")
    kinds: Counter[tuple[int, int, bool]] = Counter()
    for index, state in enumerate(positions(squares, manual, 90)):
        nodes = (50, 600, 30_000)[index % 3]
        found = solve(state, nodes=nodes, engine=engine)
        if found.best is None:  # the budget ended before any search: nothing is named
            assert not found.exact and found.depth == 0
            continue
        assert found.best in legal(state), (state, found)
        if found.then is not None:
            after = apply(state, found.best)
            assert found.then in legal(after), (state, found)
        kinds[(state.phase, found.value, found.exact)] += 1
    values = {value for _phase, value, exact in kinds if exact}
    assert values == {-1, 0, 1}, kinds  # lost, drawn and won positions were all met
    assert len({phase for phase, _v, _e in kinds}) >= 2


def test_the_lost_placement_that_named_a_piece_on_the_board(tmp_path: Path) -> None:
    """Every square loses at once: the answer is a placement, not piece 15 (DTQH)."""
    rules = make_rules(False, frozenset(ATTRIBUTES), False)
    for state in positions(False, False, 400):
        found = solve(state, nodes=30_000)
        if found.exact and found.value < 0 and found.placements == 2 and state.phase == PLACE:
            break
    else:
        pytest.fail("no position lost in two placements at a placement")
    assert state.rules == rules
    assert found.best is not None and PLACE_BASE <= found.best < QUARTO
    path = tmp_path / "lost.json"
    path.write_text(json.dumps(to_json(state)))
    out = CliRunner().invoke(app, ["solve", "quarto", "--from", str(path), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["value"] == "loss" and data["best"].startswith("place ")
