"""A room's match brought up to the stored one (tabletop.web.catchup): seeded random
Quarto and Čtverák matches, the stored one ahead by some actions, after an undo, or
lost on time; the result always equals the stored match replayed from its record."""

from __future__ import annotations

import random
import time

import pytest

from tabletop.core.match import Match
from tabletop.core.registry import registry
from tabletop.web.catchup import catch_up
from tabletop.web.store import SeatRow, StoredMatch


def random_match(game_id: str, players: int, options: dict[str, str], rng: random.Random,
                 length: int) -> Match:  # fmt: skip
    game = registry().get(game_id)
    match = Match(game, players, game.info.options(**options), rng.randrange(2**31))
    while len(match.actions) < length and match.outcome() is None:
        match.play(rng.choice(match.listing_text()))
    return match


def stored_as(match: Match, undos: int, forfeit: int | None = None) -> StoredMatch:
    return StoredMatch(
        "m", time.time(), match.game.info.id, match.game.info.version, match.players, {},
        match.seed, [SeatRow(1, None, "t"), SeatRow(2, None, "u")], True, None,
        forfeit=forfeit, undos=undos, actions=list(match.texts),
    )  # fmt: skip


def copy_of(match: Match, count: int) -> Match:
    return match.again(match.texts[:count])  # its chance outcomes among the texts


@pytest.mark.parametrize(("game_id", "options"), [("quarto", {}), ("ctverak", {"deck": "half"})])
@pytest.mark.parametrize("seed", range(6))
def test_the_caught_up_match_is_the_stored_one(
    game_id: str, options: dict[str, str], seed: int
) -> None:
    rng = random.Random(seed)
    ahead = random_match(game_id, 2, options, rng, rng.randrange(4, 12))
    behind = copy_of(ahead, rng.randrange(0, len(ahead.texts) + 1))
    result = catch_up(behind, stored_as(ahead, 0), 0)
    assert result.match.texts == ahead.texts and not result.replayed
    assert result.changed == (len(ahead.texts) > result.first)
    assert result.match.state == ahead.state
    # an undo elsewhere, then other actions: replayed whole, from the first difference
    keep = rng.randrange(0, len(ahead.texts))
    other = copy_of(ahead, keep)
    while len(other.texts) < keep + 3 and other.outcome() is None:
        other.play(rng.choice(other.listing_text()))
    result = catch_up(copy_of(ahead, len(ahead.texts)), stored_as(other, 1), 0)
    assert result.replayed and result.match.texts == other.texts
    assert result.first <= keep or other.texts[: result.first] == ahead.texts[: result.first]
    assert result.match.state == other.state


def test_a_loss_on_time_elsewhere_is_caught_up() -> None:
    rng = random.Random(1)
    match = random_match("quarto", 2, {}, rng, 3)
    player = match.player()
    assert player is not None
    result = catch_up(match, stored_as(match, 0, forfeit=player), 0)
    assert result.changed and result.match.outcome() is not None
    assert result.match.player() is None
    again = catch_up(result.match, stored_as(match, 0, forfeit=player), 0)
    assert not again.changed


def test_a_stored_action_that_does_not_replay_leaves_the_match_as_it_was() -> None:
    """A catch-up that fails at its third new action leaves the room's match where it was
    (not two actions ahead of every connection), with its sealed choices."""
    match = random_match("quarto", 2, {}, random.Random(3), 10)
    behind = copy_of(match, 4)
    stored = stored_as(match, 0)
    stored.actions[6] = "place z9"  # a damaged row: the catch-up stops there
    with pytest.raises(Exception, match="z9"):
        catch_up(behind, stored, 0)
    assert behind.texts == match.texts[:4] and len(behind.states) == 5
    assert behind.state == copy_of(match, 4).state
