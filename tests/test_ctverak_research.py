"""Čtverák's research variants (issue 36, item 4): options that shrink the game until CFR
can walk its whole tree (``ranks``, ``suits``, ``hand``, ``piles``, ``max_turns``), with
their defaults the spec's game. The documented configuration's whole tree, CFR on a
smaller one, and the conformance kit's random games over the research configuration."""

from __future__ import annotations

import random
from typing import Any

import pytest
from pydantic import ValidationError

from tabletop.core.errors import OptionError
from tabletop.core.registry import registry
from tabletop_ctverak.cards import JOKER, deck
from tabletop_ctverak.rules import (
    DEAL,
    DISCARD,
    MELD_STEP,
    OVER,
    TURN_LIMIT,
    Config,
    CtverakOptions,
    State,
    apply,
    config,
    end_kind,
    legal,
    new_state,
    refusal,
    settled,
)

GAME = registry().get("ctverak")
AS = 0  # the ace of spades: rank 0, suit 0
# the documented configuration (docs/research.md, bench.bench_research.RESEARCH)
RESEARCH: dict[str, Any] = {"ranks": 1, "suits": 1, "hand": 2, "piles": 1, "max_turns": 4}


def _options(**values: Any) -> CtverakOptions:
    return CtverakOptions.model_validate(values)


def _dealt(options: dict[str, Any], order: list[int], players: int = 2) -> State:
    """A game of ``options`` after a deal of the cards in ``order`` (K2.1, K2.2)."""
    state = new_state(config(players, _options(**options)))
    for card in order:
        assert state.step == DEAL
        state = apply(state, (5, card))
    return state


def test_the_defaults_are_the_printed_rules() -> None:
    cfg = config(2, CtverakOptions())
    assert (cfg.ranks, cfg.suits, cfg.hand, cfg.piles, cfg.max_turns) == (13, 4, 4, 4, 0)
    assert cfg == Config(2, False, False, False, False, 1, False, 12)
    state = new_state(cfg)
    assert len(state.stock) == 108 and state.piles == ((),) * 4 and state.turns == 0
    assert deck(False) == deck(False, 13, 4) and len(deck(True)) == 54


@pytest.mark.parametrize(
    "bad",
    [
        {"ranks": 0},
        {"ranks": 14},
        {"suits": 0},
        {"suits": 5},
        {"hand": 1},
        {"hand": 5},
        {"piles": 0},
        {"piles": 5},
        {"max_turns": -1},
    ],
)
def test_out_of_range_options_are_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        CtverakOptions.model_validate(bad)


def test_a_deck_too_small_for_the_deal_and_a_stock_is_refused() -> None:
    with pytest.raises(OptionError) as caught:
        config(2, _options(ranks=1, suits=1))  # 6 cards for 2 hands of 4 and 4 bases
    assert "it needs 13" in str(caught.value) and "K2.1" in str(caught.value)
    with pytest.raises(OptionError):
        config(3, _options(**RESEARCH))  # 3 hands of 2 and a base: 7 of the 6 cards
    assert config(2, _options(**RESEARCH)).hand == 2


def test_the_research_deal_hands_piles_and_turn_limit() -> None:
    cfg = config(2, _options(**RESEARCH))
    assert new_state(cfg).stock == (AS, AS, JOKER, JOKER, JOKER, JOKER)  # K1.1: A and X
    # K2.1, K2.2: 2 cards to each player one at a time, then the one base
    state = _dealt(RESEARCH, [AS, JOKER, JOKER, JOKER, AS])
    assert state.hands == ((AS, JOKER), (JOKER, JOKER)) and state.bases == (AS,)
    assert state.step == MELD_STEP and state.stock == (JOKER,)
    actions = legal(state)
    assert (DISCARD, AS, 2) not in actions and (DISCARD, AS, 1) in actions
    assert "option piles" in refusal(state, (DISCARD, AS, 2))
    # player 1 discards; player 2 refills nothing (2 cards), melds 2 jokers (K3.1), refills
    state = apply(state, (DISCARD, AS, 1))
    assert state.player == 2 and state.turns == 1
    rng = random.Random(0).random
    while state.step != OVER:
        state = settled(apply(state, legal(state)[-1]), rng)
    # K5.2 scoring at the turn limit: nobody completed a čtverka, a draw
    assert state.ending == TURN_LIMIT and state.turns == 4 and end_kind(state) == "turn-limit"
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == () and "max_turns" in outcome.reason


def test_positions_of_the_research_variants_round_trip() -> None:
    options = _options(**RESEARCH)
    for seed in range(20):
        state = GAME.new(2, options, seed)
        rng = random.Random(seed)
        state = settled(state, rng.random)
        while True:
            data = GAME.to_json(state)
            assert data["turns"] == state.turns and len(data["piles"]) == 1
            assert GAME.from_json(data, 2, options, seed) == state
            if state.step == OVER:
                break
            state = settled(apply(state, rng.choice(legal(state))), rng.random)
    assert "turns" not in GAME.to_json(GAME.new(2, CtverakOptions(), 0))  # the spec's game


def test_a_stock_run_out_after_idle_turns_reads_back() -> None:
    """K5.2: the idle count of before stands until the turn that emptied the stock ends
    (seed 29 reaches such a position); its position JSON reads back."""
    options = _options(ranks=5, suits=1)
    state = GAME.new(2, options, 29)
    rng = random.Random(29)
    state = settled(state, rng.random)
    found = False
    while state.step != OVER:
        state = settled(apply(state, rng.choice(legal(state))), rng.random)
        if state.exhausted and state.idle > 4 and state.step != OVER:
            assert GAME.from_json(GAME.to_json(state), 2, options, 0) == state
            found = True
            break
    assert found


def test_the_documented_tree_and_cfr_on_a_smaller_one() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import cfr, exploitability

    from bench.bench_research import RESEARCH as STRINGS
    from bench.bench_research import whole_tree
    from tabletop.bridges import openspiel

    openspiel.register()
    documented = next(s for s in STRINGS if s.startswith("tabletop_ctverak("))
    size = whole_tree(pyspiel.load_game(documented))  # the numbers docs/research.md gives
    assert (size["histories"], size["chance"], size["decisions"], size["terminals"]) == (
        9473,
        350,
        5749,
        3374,
    )
    assert size["infos"] == [736, 2333]
    small = pyspiel.load_game(documented.replace("max_turns=4", "max_turns=2"))
    assert whole_tree(small)["histories"] == 859
    solver = cfr.CFRSolver(small)
    gaps = []
    for _ in range(4):
        solver.evaluate_and_update_policy()
        gaps.append(exploitability.exploitability(small, solver.average_policy()))
    assert gaps[0] > gaps[1] > gaps[3], gaps


def test_random_games_of_the_research_configuration_keep_every_invariant() -> None:
    from tabletop.testing import check_game

    report = check_game("ctverak", games=40, seed=0, players=2, options=RESEARCH)
    assert report.ok and report.configs, report.text()
    assert all(stats.runs > 0 for stats in report.checks.values()), report.text()
    wider = {"ranks": 4, "suits": 2, "hand": 3, "piles": 2, "max_turns": 8, "deck": "half"}
    report = check_game("ctverak", games=20, seed=0, players=2, options=wider)
    assert report.ok and report.configs, report.text()


def test_the_guide_gives_the_configuration() -> None:
    from pathlib import Path

    from bench.bench_research import RESEARCH as STRINGS

    guide = (Path(__file__).resolve().parent.parent / "docs" / "research.md").read_text("utf-8")
    assert any(s.startswith("tabletop_ctverak(") and s in guide for s in STRINGS)


VARIANTS: list[dict[str, Any]] = [
    RESEARCH,
    {"ranks": 2, "suits": 1, "hand": 2, "piles": 1, "max_turns": 6},
    {"ranks": 4, "suits": 2, "hand": 3, "piles": 2, "deck": "half", "discard_rule": "four-cards"},
    {"ranks": 4, "suits": 1, "hand": 2, "piles": 3, "reshuffle": True, "max_turns": 30},
    {"suits": 1, "scoring": "extended", "min_natural": 2, "max_turns": 40},
]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: "-".join(map(str, v.values())))
def test_random_and_basic_games_of_research_variants_keep_the_invariants(
    variant: dict[str, Any],
) -> None:
    """Cards conserved in the smaller deck (K1.1), hands within ``hand`` (K4.1), the piles
    ``piles`` (K2.2), melds legal (K3), the game over within the bound and the limit."""
    from collections import Counter

    from tabletop.agents.base import Agent, Turn
    from tabletop.agents.simple import RandomAgent
    from tabletop_ctverak.agents import BasicAgent
    from tabletop_ctverak.cards import deck_counts
    from tabletop_ctverak.rules import meld_problem

    options = _options(**variant)
    cfg = config(2, options)
    every = deck_counts(cfg.half, cfg.ranks, cfg.suits)
    bound = GAME.info.max_actions(2, options)
    for seed in range(6):
        rng = random.Random(seed)
        agents: list[Agent] = [BasicAgent(), RandomAgent()]
        if seed % 2:
            agents.reverse()
        state = settled(GAME.new(2, options, seed), rng.random)
        actions = 0
        while state.step != OVER:
            player = state.player
            turn = Turn(GAME, player, 2, options, GAME.view(state, player), legal(state), rng)
            action = agents[player - 1].act(turn)
            assert action in turn.legal
            state = settled(apply(state, action), rng.random)
            actions += 1
            assert actions <= bound
            laid = [c for mine in state.melds for m in mine for c in m]
            held = [*laid, *(c for h in state.hands for c in h), *state.bases, *state.stock]
            assert Counter([*held, *(c for p in state.piles for c in p)]) == every
            assert len(state.piles) == cfg.piles and all(len(h) <= cfg.hand for h in state.hands)
            assert all(meld_problem(cfg, (), m) is None for mine in state.melds for m in mine)
        assert GAME.outcome(state) is not None
        if cfg.max_turns:
            assert state.turns <= cfg.max_turns
