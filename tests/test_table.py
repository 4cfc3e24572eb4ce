"""The UI-free table (tabletop.core.table): computer seats, undo and its refusals as data,
the move clock as data, the autosave callback. Driven directly, no terminal."""

from __future__ import annotations

import pytest

from tabletop.agents.seat import make_seat
from tabletop.core.errors import ActionError
from tabletop.core.match import Match
from tabletop.core.registry import registry
from tabletop.core.table import Change, Table, UndoRefused


def table(
    game_id: str,
    seed: int = 4,
    computers: dict[int, str] | None = None,
    move_time: float | None = None,
    **options: object,
) -> tuple[Table, list[Change]]:
    game = registry().get(game_id)
    match = Match(game, game.info.min_players, game.info.options(**options), seed)
    seats = {p: make_seat(game, level) for p, level in (computers or {}).items()}
    saved: list[Change] = []
    return Table(match, seats, move_time, saved.append, clock=lambda: now[0]), saved


now = [100.0]


def test_a_person_acts_only_on_their_turn_and_a_refusal_changes_nothing() -> None:
    t, saved = table("quarto")
    with pytest.raises(ActionError, match="it is player 1's turn, not yours"):
        t.play(2, "give DTRH")
    with pytest.raises(ActionError, match="allowed: give"):
        t.play(1, "place a1")
    assert t.match.actions == [] and saved == []
    assert t.play(1, "give dtrh") == "give DTRH"
    assert saved == [Change("action", 1, 1, "give DTRH")]


def test_advance_plays_the_computer_seats_until_a_person_is_to_act() -> None:
    t, saved = table("quarto", computers={2: "1"})
    t.play(1, "give DTRH")
    played = t.advance()
    assert [p for p, _ in played] == [2, 2] and t.to_act() == 1
    assert [c.number for c in saved] == [1, 2, 3]
    with pytest.raises(ActionError, match="computer player"):
        Table(t.match, {1: make_seat(t.match.game, "1")}).play(None, "place a1")


def test_undo_takes_back_the_computers_replies_and_the_persons_action() -> None:
    t, saved = table("quarto", computers={2: "1"})
    t.play(1, "give DTRH")
    t.advance()
    assert t.undo_plan(1).count == 3
    assert t.undo(1) == 3 and t.match.actions == []
    assert saved[-1] == Change("undo", 0, 1)
    assert t.undo_plan(1).refusal == "nothing to undo"


def test_undo_never_crosses_a_draw_from_the_stock_but_may_take_back_a_pile_draw() -> None:
    """The rule of `tabletop play` (K: a stock card once seen stays seen)."""
    for draw, allowed in (("s", False), ("1", True)):
        t, _ = table("ctverak", seed=4, computers={2: "basic"}, deck="half")
        t.play(1, "d #1 1")
        t.advance()
        t.play(1, draw)
        plan = t.undo_plan(1)
        if allowed:
            assert plan.refusal == "" and plan.count >= 1
        else:
            card = t.match.texts[-1]  # the card chance drew for player 1 (K4.1)
            assert card.startswith("draw ") and t.match.texts[-2] == "draw stock"
            code = card.split()[1]  # "draw 8H": the card, as player 1 reads it "8♥"
            face = ("10" if code[0] == "T" else code[0]) + "♠♥♦♣"["SHDC".index(code[1])]
            assert plan.refusal == f"chance acted after it (the stock gave {face}); it stands"
            with pytest.raises(UndoRefused, match="cannot undo: chance acted after it"):
                t.undo(1)
            assert t.match.texts[-1] == card
            # asked by the other player, the refusal does not name the card they never saw
            other = t.undo_plan(2).refusal
            assert card not in other and face not in other
            assert other.startswith("chance acted after it (player 1 ")


def test_with_hidden_information_a_person_takes_back_only_their_own_action() -> None:
    t, _ = table("ctverak", seed=4, deck="half")
    t.play(1, "d #1 1")
    assert t.undo_plan(2).refusal == (
        "the last action was player 1's; you can only take back your own"
    )
    assert t.undo_plan(1).count == 1


def test_the_move_clock_is_data_and_expiring_ends_the_game_on_time() -> None:
    now[0] = 100.0
    t, saved = table("quarto", move_time=30)
    assert t.deadline == 130.0 and t.time_left() == 30.0
    now[0] = 129.0
    assert not t.expire()
    t.play(1, "give DTRH")
    assert t.deadline == 159.0
    now[0] = 160.0
    assert t.expire() and t.match.outcome() is not None
    outcome = t.match.outcome()
    assert outcome is not None and outcome.winners == (1,) and outcome.kind == "time"
    assert saved[-1] == Change("forfeit", 1, 2) and t.deadline is None
    assert t.undo_plan(1).refusal == "the game is over"


def test_no_clock_for_a_computer_seat() -> None:
    now[0] = 0.0
    t, _ = table("quarto", computers={1: "1"}, move_time=5)
    assert t.deadline is None and not t.expire()


def test_told_hides_a_false_claim_from_the_others_but_not_a_placement() -> None:
    """N4.4/N7: a false claim names a card of a hidden stand; any other false claim would
    have shown the others the same view, so its text is not told to them."""
    from tabletop.core.table import told

    game = registry().get("quartino")
    match = Match(game, 2, game.info.options(), 3)
    match.play(next(t for t in match.listing_text() if t.startswith("place")))
    false_claims = []
    for text in match.listing_text():
        if text.startswith("claim"):
            trial = match.again([*match.texts, text])
            if trial.to_act() == 2:  # the turn passed: a false claim
                false_claims.append(text)
    assert false_claims
    match.play(false_claims[0])
    place = len(match.actions) - 2  # after the deal's chance steps
    assert told(match, place, 2) and told(match, place, 1) and told(match, place, None)
    claim = place + 1
    assert told(match, claim, 1) and not told(match, claim, 2) and not told(match, claim, None)
    quarto = registry().get("quarto")
    plain = Match(quarto, 2, quarto.info.options(), 0)
    plain.play("give DTRH")
    assert told(plain, 0, 2) and told(plain, 0, None)


def test_names_say_how_refusals_call_a_player_and_a_front_end_may_restart_the_clock() -> None:
    """What the terminal needs: its names (``player 2 (seat 1)`` in a series) in the
    refusals, and the clock started when the person is first asked, not at the change."""
    now[0] = 10.0
    game = registry().get("ctverak")
    match = Match(game, 2, game.info.options(deck="half"), 4)
    t = Table(match, {}, 20, clock=lambda: now[0], names=lambda p: f"player {p} (seat {3 - p})")
    with pytest.raises(ActionError, match=r"it is player 1 \(seat 2\)'s turn, not yours"):
        t.play(2, "d #1 1")
    t.play(1, "d #1 1")
    assert t.undo_plan(2).refusal == (
        "the last action was player 1 (seat 2)'s; you can only take back your own"
    )
    assert t.deadline == 30.0
    now[0] = 25.0
    t.start_clock()
    assert t.deadline == 45.0 and t.time_left() == 20.0


def test_the_table_imports_nothing_above_the_core() -> None:
    """Computer seats come in from the caller (anything with ``move(match)``)."""
    import ast
    from pathlib import Path

    import tabletop.core.table as module

    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    ours = [name for name in names if name.split(".")[0] == "tabletop"]
    assert ours and all(name.startswith("tabletop.core.") for name in ours), ours
