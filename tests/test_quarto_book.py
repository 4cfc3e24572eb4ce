"""Quarto's opening book (issue 38, item 1): its format, its integrity check (a damaged
file: one line on stderr, and the solver plays on without it), its entries against the
solver, and the perfect player and the coach reading it."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop.agents.base import Budget, Turn
from tabletop.core.setup import resolve
from tabletop_quarto import book as qbook
from tabletop_quarto.pieces import ATTRIBUTES
from tabletop_quarto.rules import GIVE, OVER, PLACE, apply, initial, legal, make_rules
from tabletop_quarto.solver import solve, value_within

GAME = resolve("quarto")
OPTIONS = GAME.info.options()


def late_positions(count: int, seed: int) -> dict[tuple[int, ...], tuple[int, int]]:
    """Entries the solver settles at once (PLACE positions 9 placements in), exact."""
    rules = make_rules(False, frozenset(ATTRIBUTES), False)
    rng = random.Random(seed)
    entries: dict[tuple[int, ...], tuple[int, int]] = {}
    while len(entries) < count:
        state = initial(rules)
        while state.phase != OVER and not (
            state.phase == PLACE and state.occupied.bit_count() >= 9
        ):
            state = apply(state, rng.choice(legal(state)))
        if state.phase == PLACE:
            found = solve(state)
            entries[qbook.key_of(state)] = (found.value, found.placements)
    return entries


def test_a_book_reads_back_what_was_written(tmp_path: Path) -> None:
    entries = late_positions(20, 1)
    data = qbook.encode({False: (9, entries)})
    sections = qbook.decode(data)
    assert set(sections) == {False} and sections[False].depth == 9
    assert len(data) == data.index(b"\n") + 1 + 12 * len(entries)  # 12 bytes an entry
    for key, value in entries.items():
        assert sections[False].get(key) == value
    path = tmp_path / "book.bin"
    path.write_bytes(data)
    assert qbook.load(path)[False].keys == sections[False].keys


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (lambda d: d[:-5], "truncated"),
        (lambda d: d[:-13] + bytes([d[-13] ^ 1]) + d[-12:], "checksum"),
        (lambda d: b"PNG" + d, "not a Quarto opening book"),
        (lambda d: d.replace(b'"sections"', b'"sectionz"', 1), "header is damaged"),
    ],
)
def test_a_damaged_book_is_one_line_and_play_goes_on(
    tmp_path: Path, damage: object, said: str
) -> None:
    data = qbook.encode({False: (9, late_positions(5, 2))})
    path = tmp_path / "book.bin"
    path.write_bytes(damage(data))  # type: ignore[operator]
    with pytest.raises(qbook.BookError, match=said):
        qbook.decode(path.read_bytes())
    script = (
        "import sys; from pathlib import Path; from tabletop_quarto import book as b;"
        f"b.PATH = Path({str(path)!r}); b.book.cache_clear();"
        "from tabletop.core.setup import resolve; import random;"
        "from tabletop.agents.base import Budget, Turn;"
        "from tabletop_quarto.agents.perfect import PerfectAgent;"
        "g = resolve('quarto'); o = g.info.options(); s = g.new(2, o, 0);"
        "t = Turn(g, 1, 2, o, g.view(s, 1), list(g.legal(s)), random.Random(0), Budget());"
        "a = PerfectAgent(seconds=None, nodes=20000, playouts=50).act(t);"
        "print(g.format(s, a))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("give "), done.stdout  # played on without the book
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "opening book" in lines[0] and said in lines[0], done.stderr


def shipped() -> dict[bool, qbook.Section]:
    found = qbook.load()
    if not found:
        pytest.skip("no book built (python -m bench.book)")
    return found


def test_the_shipped_book_agrees_with_the_solver_on_a_sample() -> None:
    """Each run: a sample of entries, each checked by the solver within a horizon it
    finishes (a forced end no sooner than the book says, none at all for a draw), and
    every entry above the deepest layer equal to what its children give."""
    from bench.book import derived, layer

    rng = random.Random()
    for squares, section in shipped().items():
        deepest = layer(squares, section.depth)
        for key in rng.sample(sorted(deepest), min(2, len(deepest))):
            state = deepest[key]
            value, placements = section.get(key) or (9, 9)
            horizon = 3
            within = value_within(state, horizon, nodes=3_000_000)
            if within is not None:
                expected = value if placements <= horizon else 0
                assert within == expected, (squares, key, value, placements, within)
        entries = {k: section.get(k) for k in deepest}
        for pieces in range(section.depth - 1, -1, -1):
            for key, state in layer(squares, pieces).items():
                assert section.get(key) == derived(state, entries, squares)  # type: ignore[arg-type]
                entries[key] = section.get(key)


def test_perfect_and_the_coach_read_the_book_from_the_first_move() -> None:
    from tabletop.coach.choose import turn_for
    from tabletop_quarto.agents.perfect import PerfectAgent
    from tabletop_quarto.coach import QuartoCoach

    sections = shipped()
    for squares in sections:
        options = GAME.info.options(squares=squares) if squares else OPTIONS
        state = GAME.new(2, options, 0)
        assert state.phase == GIVE
        known = qbook.choices(state)
        assert known is not None and len(known) == 16
        turn = Turn(GAME, 1, 2, options, GAME.view(state, 1), list(GAME.legal(state)),
                    random.Random(0), Budget(seconds=2.0))  # fmt: skip
        action = PerfectAgent(nodes=1000, playouts=10).act(turn)
        assert known[action][0] == max(v for v, _p in known.values())
        assessment = QuartoCoach(nodes=1000).assess(turn_for(GAME, state, 2, options))
        assert assessment.exact  # every give judged from the book
