"""Issue 36, item 5: in two-player Čtverák player 1's opening view no longer determines
the deal. Before the deal became chance steps (K2.1, issue 35) the bridge's deal was one
of 65,536 seeds and player 1's first information state determined the opponent's hand
and the stock's order in 81% of them (79% with the half deck). Now the deal is a chance
step per card with the rules' probabilities: for each sampled deal we look, through the
pyspiel bridge, for another deal that gives player 1 (player 0 in OpenSpiel) the same
information state at their first decision but the opponent another hand: one card dealt
to player 2 (K2.1: the deal goes one card at a time, players 1..N) replaced by a card
nobody was dealt. A deal for which no such replacement exists is determined by player
1's view; at most 1% may be."""

from __future__ import annotations

from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from bench.bench_deals import determined_fraction  # noqa: E402

DEALS = 300


@pytest.mark.parametrize(
    "game_string", ["tabletop_ctverak(players=2)", "tabletop_ctverak(players=2,deck=half)"]
)
def test_player_one_s_opening_view_determines_at_most_one_percent_of_deals(
    game_string: str,
) -> None:
    assert determined_fraction(game_string, DEALS) <= 0.01


def test_a_view_that_shows_the_opponent_s_hand_determines_every_deal() -> None:
    """The check can fail: with a view that holds player 2's hand (their own information
    state) no replacement of one of their cards looks the same."""

    def player_two(state: Any) -> str:
        return str(state.information_state_string(1))

    assert determined_fraction("tabletop_ctverak(players=2,deck=half)", 20, 1, player_two) == 1
