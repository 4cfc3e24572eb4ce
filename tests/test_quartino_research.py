"""Quartino's research variants (issue 36, item 4): options that shrink the game until CFR
can walk its whole tree (``hand``, ``cards``, ``ring``, ``pawns``, ``setup``), with their
defaults the printed rules. The documented configuration's whole tree, CFR on a smaller
one, and the conformance kit's random games over the research configuration."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tabletop.core.errors import OptionError, PositionError
from tabletop.game import CHANCE
from tabletop_quartino.cards import deck
from tabletop_quartino.position import from_json, to_json
from tabletop_quartino.rules import (
    CLAIM,
    DEAL,
    PLACE,
    Action,
    Config,
    QuartinoOptions,
    State,
    apply,
    claim,
    config,
    legal,
    new_state,
    place,
    refusal,
)

# the documented configuration (docs/research.md, bench.bench_research.RESEARCH)
RESEARCH = {
    "hand": 1,
    "cards": 3,
    "ring": 3,
    "pawns": 2,
    "setup": "one-each",
    "max_turns": 2,
}


def _dealt(options: dict[str, object], players: int = 2) -> State:
    """A game of ``options`` after its deal, the cards in deck order."""
    state = new_state(players, config(players, QuartinoOptions.model_validate(options)))
    while state.to_act == CHANCE:
        state = apply(state, legal(state)[0])
    return state


def test_the_defaults_are_the_printed_rules() -> None:
    cfg = config(2, QuartinoOptions())
    assert cfg == Config() == Config(True, False, 400, False, 4, 24, 8, 7, False)
    state = new_state(2, cfg)
    assert state.board == ((),) * 9 and state.supply == (7, 7, 7, 7)
    assert len(legal(state)) == 24  # N2.1: any of the 24 cards comes first
    dealt = _dealt({})
    assert [len(s) for s in dealt.stands] == [4, 4]
    assert len(legal(dealt)) == 36  # N4.2: 4 colours on 9 fields


@pytest.mark.parametrize(
    "bad",
    [
        {"hand": 0},
        {"hand": 5},
        {"cards": 2},
        {"cards": 25},
        {"ring": 2},
        {"ring": 9},
        {"pawns": 0},
        {"pawns": 8},
        {"setup": "full"},
    ],
)
def test_out_of_range_options_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        QuartinoOptions.model_validate(bad)


def test_a_deck_that_leaves_no_card_out_of_play_is_refused() -> None:
    with pytest.raises(OptionError) as caught:
        config(2, QuartinoOptions(cards=8))
    assert "cards=9" in str(caught.value) and "(N2.1)" in str(caught.value)
    with pytest.raises(OptionError):
        config(3, QuartinoOptions(hand=1, cards=3))
    assert config(2, QuartinoOptions(hand=1, cards=3)).cards == 3


def test_the_deal_comes_from_the_smaller_deck_and_hand() -> None:
    cfg = config(2, QuartinoOptions.model_validate(RESEARCH))
    state = new_state(2, cfg)
    assert [a.a for a in legal(state)] == [0, 1, 2]  # N1.3: the deck's first 3 cards
    far = Action(DEAL, 5)
    assert "deck of 3 cards" in refusal(state, far) and "N1.3" in refusal(state, far)
    dealt = _dealt(RESEARCH)
    assert dealt.stands == ((0,), (1,)) and dealt.to_act == 1  # N2.1: 1 card each


def test_the_one_each_board_and_the_smaller_ring() -> None:
    state = _dealt(RESEARCH)
    # N2.1 research variant: Y on c, B on r0, G on r1, P on r2, one of each left in supply
    assert state.board[:4] == ((0,), (1,), (2,), (3,)) and not any(state.board[4:])
    assert state.supply == (1, 1, 1, 1)
    places = legal(state)
    assert {a.b for a in places} == {0, 1, 2, 3} and len(places) == 16  # N1.1: c, r0-r2
    outside = place(0, 5)
    assert outside not in places and "r0-r2" in refusal(state, outside)
    state = apply(state, place(0, 0))  # yellow again on c: the board still reads Y|BGP
    # N3.2: on a ring of 3 only rotation 0 lies on the board
    assert legal(state) == (Action(2), claim(0, 0))
    assert "rotation 4" in refusal(state, claim(0, 4))
    won = apply(state, claim(0, 0))  # N4.3, N5.1: Y|BGP matches, the only card: a win
    assert won.to_act == 0 and won.winner == 1


def test_positions_of_the_research_variants_round_trip_and_are_checked() -> None:
    state = apply(_dealt(RESEARCH), place(3, 1))
    cfg = state.cfg
    data = to_json(state)
    assert from_json(data, 2, cfg) == state
    assert data["out_of_play"] == [deck().codes[2]]
    with pytest.raises(PositionError, match="pawns"):
        from_json({**data, "supply": {"Y": 1, "B": 1, "G": 1, "P": 2}}, 2, cfg)
    with pytest.raises(PositionError, match="r5"):
        from_json({**data, "board": {**data["board"], "r5": ["Y"]}}, 2, cfg)
    with pytest.raises(PositionError, match="deck of 3 cards"):
        from_json({**data, "stands": {"1": [deck().codes[9]], "2": ["Y|BPG"]}}, 2, cfg)


def test_the_documented_tree_and_cfr_on_a_smaller_one() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import cfr, exploitability

    from bench.bench_research import RESEARCH as STRINGS
    from bench.bench_research import whole_tree
    from tabletop.bridges import openspiel

    openspiel.register()
    game = pyspiel.load_game(STRINGS[0])
    size = whole_tree(game)  # the numbers docs/research.md gives
    assert (size["histories"], size["chance"], size["decisions"], size["terminals"]) == (
        6922,
        4,
        2494,
        4424,
    )
    assert size["infos"] == [51, 624]
    # one pawn of each colour, all on the board: no placements (N4.2), claim or end only
    small = pyspiel.load_game(
        "tabletop_quartino(players=2,hand=1,cards=3,ring=3,pawns=1,setup=one-each,"
        "max_turns=4,reward=win_loss)"
    )
    assert whole_tree(small)["histories"] == 130
    solver = cfr.CFRSolver(small)
    gaps = []
    for _ in range(4):
        solver.evaluate_and_update_policy()
        gaps.append(exploitability.exploitability(small, solver.average_policy()))
    assert gaps[0] > gaps[1] > gaps[3] and gaps[3] < 0.03, gaps


def test_random_games_of_the_research_configuration_keep_every_invariant() -> None:
    from tabletop.testing import check_game

    report = check_game("quartino", games=30, seed=0, players=2, options=RESEARCH)
    assert report.ok and report.configs, report.text()
    assert all(stats.runs > 0 for stats in report.checks.values()), report.text()
    smallest = {**RESEARCH, "pawns": 1, "max_turns": 6, "start": "lot"}
    report = check_game("quartino", games=20, seed=0, players=2, options=smallest)
    assert report.ok and report.configs, report.text()


def test_claims_and_placements_stay_on_the_smaller_board_in_play() -> None:
    state = _dealt({**RESEARCH, "max_turns": 40, "ring": 4, "mirror": True})
    seen = set()
    while state.to_act:
        for action in legal(state):
            if action.kind == PLACE:
                assert action.b <= 4
            elif action.kind == CLAIM:
                seen.add(action.b)
        state = apply(state, legal(state)[-1])
    # N3.2 with mirror on a ring of 4: plain k=0,1 and mirrored k=2,3 lie on r0-r3
    assert seen == {0, 1, 2, 3}


def test_the_hint_names_only_rotations_a_claim_may_name_on_the_smaller_ring() -> None:
    """Quartino's own hint (its coach facet) on a ring of 4: every k it names (a match, or
    the closest fit) is one a claim may name there (N3.2), in random play from each seat's
    view (it named k=2, 3, 6 and 7 before)."""
    import random
    import re

    from tabletop.core.registry import registry
    from tabletop_quartino.coach import hint
    from tabletop_quartino.rules import rotations

    game = registry().get("quartino")
    options = QuartinoOptions.model_validate({"ring": 4, "max_turns": 40})  # the whole deck
    allowed = set(rotations(config(2, options)))
    state, rng, named = _dealt(dict(options.model_dump())), random.Random(4), set()
    while state.to_act:
        for player in (1, 2):
            said = str(hint(game.view(state, player), player, options))
            named |= {int(k) for k in re.findall(r"k=(\d)", said)}
        state = apply(state, rng.choice(legal(state)))
    assert named and named <= allowed, (named, allowed)


def test_the_guide_gives_the_configuration_and_the_command() -> None:
    from pathlib import Path

    from bench.bench_research import RESEARCH as STRINGS

    guide = (Path(__file__).resolve().parent.parent / "docs" / "research.md").read_text("utf-8")
    assert "python -m bench.bench_research research" in guide
    for game_string in STRINGS:
        assert game_string in guide


VARIANTS: list[dict[str, object]] = [
    RESEARCH,
    {**RESEARCH, "pawns": 1, "max_turns": 6, "start": "lot"},
    {"hand": 2, "cards": 6, "ring": 4, "pawns": 3, "max_turns": 40, "mirror": True},
    {"hand": 1, "cards": 5, "ring": 5, "pawns": 4, "setup": "one-each", "max_turns": 30},
    {"hand": 3, "cards": 9, "pawns": 5, "situations": False, "max_turns": 60},
]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: "-".join(map(str, v.values())))
def test_random_and_agent_games_of_research_variants_keep_the_invariants(
    variant: dict[str, object],
) -> None:
    """Pawns conserved at ``pawns`` a colour (N1.2), ``hand`` cards each from the deck's
    first ``cards`` (N1.3, N2.1), pawns and claims on the ring in play (N1.1, N3.2), the
    game over within the bound and the turn limit (N5.2)."""
    import random

    from tabletop.agents.base import Turn
    from tabletop.agents.facet import players_of
    from tabletop.agents.simple import RandomAgent
    from tabletop.core.registry import registry

    game = registry().get("quartino")
    options = QuartinoOptions.model_validate(variant)
    cfg = config(2, options)
    bound = game.info.max_actions(2, options)
    searcher = players_of(game).agents()["basic"]
    for seed in range(4):
        rng = random.Random(seed)
        agents = [searcher(), RandomAgent()] if seed % 2 else [RandomAgent(), searcher()]
        state = new_state(2, cfg)
        actions = 0
        while state.to_act:
            if state.to_act == CHANCE:
                outcomes = legal(state)
                state = apply(state, outcomes[rng.randrange(len(outcomes))])
                continue
            p = state.to_act
            turn = Turn(game, p, 2, options, game.view(state, p), game.legal(state), rng)
            action = agents[p - 1].act(turn)
            assert action in turn.legal
            if action.kind == PLACE:
                assert action.b <= cfg.ring
            state = apply(state, action)
            actions += 1
            assert actions <= bound
            for c in range(4):
                on_board = sum(stack.count(c) for stack in state.board)
                assert on_board + state.supply[c] == cfg.pawns
            assert not any(state.board[cfg.ring + 1 :])
            held = [c for cards in (*state.stands, *state.done) for c in cards]
            assert len(held) == 2 * cfg.hand and max(held) < cfg.cards
        assert game.outcome(state) is not None and state.turns <= cfg.max_turns


def test_a_view_holds_only_the_fields_in_play() -> None:
    """The board a view shows (and the browser draws) is the centre and the ring fields in
    play: all nine by default, five on a ring of 4 (N1.1)."""
    from tabletop.core.registry import registry

    game = registry().get("quartino")
    whole = _dealt({})
    assert list(game.view(whole, 1)["board"]) == ["c", *(f"r{i}" for i in range(8))]
    small = _dealt({"ring": 4})
    assert list(game.view(small, 1)["board"]) == ["c", "r0", "r1", "r2", "r3"]
    import random

    options = QuartinoOptions.model_validate({"ring": 4})  # the view's board is read back
    sampled = game.sample(game.view(small, 1), 1, 2, options, random.Random(1))
    assert sampled.board == small.board
