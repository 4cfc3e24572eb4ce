"""Quartino in play: seeded random games under every option, the basic agent, hints,
prompts, rendering and the registration."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest
from rich.console import Console

from tabletop.agents.base import Turn
from tabletop.agents.facet import players_of
from tabletop.agents.simple import RandomAgent
from tabletop.coach.facet import coaching_of
from tabletop.core.presentation import presentation_of
from tabletop.core.registry import Registry
from tabletop_quartino.cards import deck
from tabletop_quartino.game import QuartinoGame
from tabletop_quartino.legacy import dealt_as_before
from tabletop_quartino.rules import CLAIM, END, PLACE, QuartinoOptions, State, claim_fields
from tests.test_quartino import load, position

GAME = QuartinoGame()
COMBOS = [
    {"situations": sit, "mirror": mir, "start": start, "max_turns": turns}
    for sit, mir, start, turns in itertools.product(
        [True, False], [False, True], ["first", "lot"], [400, 5]
    )
]


def advice(view: Any, player: int, options: Any) -> str:
    """The game's own line of advice (its coaching facet, tabletop.coach.facet)."""
    said = coaching_of(GAME).hint(view, player, options)
    assert said is not None
    return said


def conserved(s: State) -> bool:
    """N1.2: every colour has 7 pawns, in the supply or on the board."""
    return all(
        s.supply[c] + sum(stack.count(c) for stack in s.board) == 7 for c in range(4)
    ) and all(n >= 0 for n in s.supply)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("combo", COMBOS, ids=lambda c: "-".join(map(str, c.values())))
def test_random_games_end_within_max_actions(players: int, combo: dict[str, Any]) -> None:
    options = QuartinoOptions(**combo)
    bound = GAME.info.max_actions(players, options)
    for seed in range(2):
        rng = random.Random(seed)
        s = dealt_as_before(players, options, seed)
        actions = 0
        while (legal := GAME.legal(s)) and actions <= bound:
            assert GAME.to_act(s) == s.to_act and GAME.outcome(s) is None
            a = legal[rng.randrange(len(legal))]
            nxt = GAME.apply(s, a)
            assert conserved(nxt)
            assert sum(len(x) for x in nxt.stands + nxt.done) == 4 * players
            if a.kind == CLAIM and claim_fields(s.board, a.a, a.b, options.mirror):
                assert len(nxt.done[s.to_act - 1]) == len(s.done[s.to_act - 1]) + 1
            s = nxt
            actions += 1
        assert actions <= bound
        assert GAME.to_act(s) is None and GAME.outcome(s) is not None
        assert s.turns <= options.max_turns


def _play(players: int, seed: int, levels: list[str], **options: Any) -> tuple[State, int, int]:
    """A game between agents (seat i plays levels[i]); returns the end, actions, claims."""
    opts = QuartinoOptions(**options)
    makers = {"random": RandomAgent, **players_of(GAME).agents()}
    agents = [makers[level]() for level in levels]
    rng = random.Random(seed)
    s = dealt_as_before(players, opts, seed)
    actions = claims = 0
    while (p := GAME.to_act(s)) is not None:
        turn = Turn(GAME, p, players, opts, GAME.view(s, p), GAME.legal(s), rng)
        a = agents[p - 1].act(turn)
        assert a in turn.legal
        if a.kind == CLAIM and levels[p - 1] == "basic":
            # the basic agent never makes a false claim
            assert claim_fields(s.board, a.a, a.b, opts.mirror) is not None
            claims += 1
        s = GAME.apply(s, a)
        actions += 1
    return s, actions, claims


@pytest.mark.parametrize(("players", "mirror"), [(2, False), (3, True), (4, False)])
def test_basic_agents_finish_games(players: int, mirror: bool) -> None:
    wins = 0
    for seed in range(3):
        s, _, claims = _play(players, seed, ["basic"] * players, mirror=mirror)
        outcome = GAME.outcome(s)
        assert outcome is not None and conserved(s)
        wins += bool(outcome.winners)
        assert claims >= 4 if outcome.winners else True
    assert wins >= 2  # basic agents complete their cards long before the safety valve


def test_basic_beats_random_mostly() -> None:
    won = 0
    for seed in range(6):
        s, _, _ = _play(2, seed, ["basic", "random"] if seed % 2 else ["random", "basic"])
        basic = 2 if seed % 2 == 0 else 1
        outcome = GAME.outcome(s)
        won += outcome is not None and outcome.winners == (basic,)
    assert won >= 5


def _turn(s: State, player: int = 1) -> Turn:
    return Turn(
        GAME, player, 2, QuartinoOptions(), GAME.view(s, player), GAME.legal(s), random.Random(0)
    )


def test_basic_agent_claims_a_match() -> None:
    s = load(position("c:P r5:Y r6:B r7:G", {1: ["Y|BGP", "P|YBG"], 2: ["B|YGP"]}))
    a = players_of(GAME).agents()["basic"]().act(_turn(s))
    assert GAME.format(s, a) == "claim P|YBG 5"


def test_basic_agent_places_the_missing_pawn_then_ends() -> None:
    s = load(position("c:P r5:Y r6:B", {1: ["P|YBG"], 2: ["B|YGP"]}, owed=1))
    agent = players_of(GAME).agents()["basic"]()
    a = agent.act(_turn(s))
    assert GAME.format(s, a) == "place G r7"
    nothing = load(position("", {1: ["P|YBG"], 2: ["B|YGP"]}, owed=0))
    assert agent.act(_turn(nothing)).kind == END


def test_basic_agent_uses_only_the_view() -> None:
    # Same view, different hidden cards of player 2: same choice.
    a = load(position("c:P r5:Y", {1: ["P|YBG"], 2: ["B|YGP"]}, owed=1))
    b = load(position("c:P r5:Y", {1: ["P|YBG"], 2: ["G|YBP"]}, owed=1))
    agent = players_of(GAME).agents()["basic"]()
    assert agent.act(_turn(a)) == agent.act(_turn(b))


# ---------------------------------------------------------------- hints and prompts


def test_hint_names_matching_card_and_rotation() -> None:
    s = load(position("c:P r5:Y r6:B r7:G", {1: ["Y|BGP", "P|YBG"], 2: ["B|YGP"]}))
    assert advice(GAME.view(s, 1), 1, QuartinoOptions()) == "P|YBG matches at k=5: claim P|YBG 5"
    assert GAME.to_json(s)["stands"]["1"] == ["Y|BGP", "P|YBG"]  # the hint claimed nothing
    other = advice(GAME.view(s, 2), 2, QuartinoOptions())
    assert other.startswith("no card matches now; closest: B|YGP")


def test_hint_closest_and_mirror_and_owed() -> None:
    s = load(position("c:P r0:G r1:B r2:Y", {1: ["P|YBG"], 2: ["B|YGP"]}, owed=1), mirror=True)
    assert advice(GAME.view(s, 1), 1, QuartinoOptions(mirror=True)).splitlines() == [
        "P|YBG matches at k=2: claim P|YBG 2",
        "(first place the 1 placement owed; they may change the board)",
    ]
    plain = load(position("c:P r0:G r1:B r2:Y", {1: ["P|YBG"], 2: ["B|YGP"]}, owed=1))
    assert advice(GAME.view(plain, 1), 1, QuartinoOptions()) == (
        "no card matches now; closest: P|YBG, 2 of 4 at k=0 (needs Y on r0, G on r2)"
    )
    assert (
        advice(GAME.view(plain, None), 1, QuartinoOptions())
        == "no hints: a spectator sees no cards"
    )


# ---------------------------------------------------------------- render


def _text(view: dict[str, Any], player: int | None) -> str:
    console = Console(width=100, record=True, color_system=None, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(presentation_of(GAME).render(view, player))
    return console.export_text()


def test_render_shows_board_supply_cards_and_turn() -> None:
    s = load(
        position("r3:GGBGP r5:GY c:P", {1: ["P|YBG", "Y|BGP"], 2: ["B|YGP"]}, owed=None),
    )
    text = _text(GAME.view(s, 1), 1)
    assert "your turn: place a pawn (3 of 3 owed)" in text
    assert (
        "start check (player 1): “column”: r3 emptied; “4 colours” (green); 3 placements owed"
        in text
    )
    assert "r5 (2)" in text and "r3 (0)" in text and "c (1)" in text
    assert "supply: Y×6" in text and "G×6" in text
    assert "P|YBG" in text and "Y|BGP" in text and "B|YGP" not in text
    other = _text(GAME.view(s, 2), 2)
    assert "player 1 to act" in other and "P|YBG" not in other and "B|YGP" in other


def test_render_game_over_reveals_to_spectator() -> None:
    s = load(position("c:P r5:Y r6:B r7:G", {1: ["P|YBG"], 2: ["B|YGP"]}))
    s = GAME.apply(s, GAME.parse(s, "claim P|YBG 5"))
    text = _text(GAME.view(s, None), None)
    assert "game over: player 1 wins" in text and "B|YGP" in text and "out of play" in text


# ---------------------------------------------------------------- registration, info, rules


def test_registered_with_info() -> None:
    game = Registry().get("quartino")
    info = game.info
    assert (info.id, info.name, info.min_players, info.max_players) == (
        "quartino",
        "Quartino",
        2,
        4,
    )
    assert info.hidden_information
    assert info.max_actions(4, QuartinoOptions(max_turns=10)) == 4 * 10 + 32
    assert (
        "claim P|YBG 5" in presentation_of(game).rules_text()
        and "N4.1" in presentation_of(game).rules_text()
    )
    assert set(players_of(GAME).agents()) == {"basic"}


def test_options_are_strict() -> None:
    assert QuartinoOptions().model_dump() == {
        "situations": True,
        "mirror": False,
        "max_turns": 400,
        "start": "first",
        "hand": 4,
        "cards": 24,
        "ring": 8,
        "pawns": 7,
        "setup": "empty",
    }
    with pytest.raises(ValueError):
        QuartinoOptions(max_turns=0)
    with pytest.raises(ValueError):
        QuartinoOptions.model_validate({"mirrors": True})


def test_same_seed_same_game() -> None:
    one = _play(3, 5, ["random"] * 3)
    two = _play(3, 5, ["random"] * 3)
    assert json.dumps(GAME.to_json(one[0])) == json.dumps(GAME.to_json(two[0]))
    assert one[1] == two[1]


def test_place_actions_only_while_owed() -> None:
    for s in [dealt_as_before(2, QuartinoOptions(), seed) for seed in range(3)]:
        assert {a.kind for a in GAME.legal(s)} == {PLACE}
        assert len(deck()) == 24


def test_evaluate_is_between_0_and_1_and_knows_the_end() -> None:
    s = load(position("c:P r5:Y r6:B", {1: ["P|YBG"], 2: ["B|YGP"]}, owed=1))
    before = players_of(GAME).evaluate(s, 1)
    after = players_of(GAME).evaluate(GAME.apply(s, GAME.parse(s, "place G r7")), 1)
    assert before is not None and after is not None and 0.5 < before < after < 1
    won = GAME.apply(GAME.apply(s, GAME.parse(s, "place G r7")), GAME.parse(s, "claim P|YBG 5"))
    assert players_of(GAME).evaluate(won, 1) == 1.0 and players_of(GAME).evaluate(won, 2) == 0.0
