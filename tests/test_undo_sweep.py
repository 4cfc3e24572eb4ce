"""Undo never reveals (issue 22): a sweep over whole seeded games of every
hidden-information game and player count, a person in seat 1 and computers elsewhere.

At every position after seat 1's action or another seat's, the table's undo plan for seat
1 is asked. Whatever it allows must take back only seat 1's own actions made since anyone
else last acted, none of which showed seat 1 anything hidden; the latter is checked
independently of the table, with many more sampled hidden states than it draws. And undo
within one's own turn must still be possible somewhere in every game.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tabletop.agents.seat import make_seat
from tabletop.core.match import Match
from tabletop.core.registry import registry
from tabletop.core.table import Table

PROBES = 12  # sampled hidden states per taken-back action (the table uses 4)
MAX_ACTIONS = 250  # per game: long enough to reach every phase, short enough to sweep
SEEDS = (0, 1)


def hidden_games() -> list[tuple[str, int]]:
    cases = []
    for game in map(registry().get, registry().ids()):
        if game.info.hidden_information:
            for players in range(game.info.min_players, game.info.max_players + 1):
                cases.append((game.info.id, players))
    return cases


def showed_something(match: Match, index: int, player: int, rng: random.Random) -> bool:
    """Whether action ``index`` (by ``player``) gave ``player`` a view that their view
    before it did not determine: tried on many states sampled from that view."""
    game = match.game
    before, action = match.states[index], match.actions[index]
    view = game.view(before, player)
    seen = game.view(match.states[index + 1], player)
    for _ in range(PROBES):
        sample = game.sample(view, player, match.players, match.options, rng)
        if game.view(game.apply(sample, action), player) != seen:
            return True
    return False


def actor(match: Match, index: int) -> int | None:
    return match.actors[index]


@pytest.mark.parametrize(("game_id", "players"), hidden_games())
def test_no_allowed_undo_takes_back_what_showed_the_requester_anything(
    game_id: str, players: int
) -> None:
    game = registry().get(game_id)
    allowed = own_turn = refused_after_others = 0
    for seed in SEEDS:
        match = Match(game, players, game.info.options(), seed)
        computers: dict[int, Any] = {p: make_seat(game, "1") for p in range(2, players + 1)}
        table = Table(match, computers)
        rng, probe = random.Random(seed), random.Random(f"probe:{seed}")
        while match.outcome() is None and len(match.actions) < MAX_ACTIONS:
            if table.computer_to_act() is not None:
                table.push(table.choose())
            else:
                legal = list(game.legal(match.state))
                table.play(1, game.format(match.state, rng.choice(legal)))
            plan = table.undo_plan(1)
            last = len(match.actions) - 1
            if plan.refusal:
                if actor(match, last) != 1:
                    refused_after_others += 1
                continue
            allowed += 1
            taken = range(len(match.actions) - plan.count, len(match.actions))
            assert all(actor(match, i) == 1 for i in taken), (seed, match.texts[-plan.count :])
            assert not any(showed_something(match, i, 1, probe) for i in taken), (
                seed,
                match.texts[-plan.count :],
            )
            if rng.random() < 0.5:  # take it back now and then, and play on from there
                before = match.states[len(match.actions) - plan.count]
                table.undo(1)
                assert match.state == before and match.player() == 1
                own_turn += 1
    assert allowed > 0 and own_turn > 0, "undo within one's own turn must still work"
    assert refused_after_others > 0


def test_perfect_information_keeps_undo_across_the_computers_reply() -> None:
    game = registry().get("quarto")
    match = Match(game, 2, game.info.options(), 0)
    table = Table(match, {2: make_seat(game, "1")})
    table.play(1, "give DTRH")
    table.advance()
    assert table.undo_plan(1).count == 3
