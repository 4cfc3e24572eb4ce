"""Resigning and draws agreed at the table (tabletop.core.table, tabletop.core.endings):
who may, what the outcome is, what the record keeps, and what an old record still is."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tabletop.agents.seat import make_seat
from tabletop.core.errors import RecordError
from tabletop.core.match import Match
from tabletop.core.records import Ending, Forfeit, Record
from tabletop.core.registry import registry
from tabletop.core.table import Change, Table, TableRefused, UndoRefused


def table(
    game_id: str = "quarto", computers: dict[int, str] | None = None, players: int | None = None
) -> tuple[Table, list[Change]]:
    game = registry().get(game_id)
    match = Match(game, players or game.info.min_players, game.info.options(), 4)
    seats = {p: make_seat(game, level) for p, level in (computers or {}).items()}
    saved: list[Change] = []
    return Table(match, seats, 30.0, saved.append, clock=lambda: now[0]), saved


now = [100.0]  # the tables' clock, moved on by the tests


@pytest.mark.parametrize("who", [1, 2])
def test_either_seat_may_resign_at_any_moment_and_the_others_win(who: int) -> None:
    t, saved = table()
    t.play(1, "give DTRH")
    t.resign(who)  # player 2 is to act; player 1 may resign all the same
    outcome = t.match.outcome()
    assert outcome is not None and outcome.kind == "resigned"
    assert outcome.winners == (3 - who,) and outcome.reason == f"player {who} resigned"
    assert saved[-1] == Change("resigned", 1, who) and t.deadline is None  # the clock stops
    with pytest.raises(TableRefused, match="cannot resign: the game is over"):
        t.resign(3 - who)
    with pytest.raises(UndoRefused, match="the game is over"):
        t.undo(who)
    assert t.match.outcome() == outcome


def test_a_computer_seat_never_resigns_for_a_person_and_a_resignation_of_three() -> None:
    t, saved = table("connect4", computers={2: "1"})
    with pytest.raises(TableRefused, match="player 2 is not a person at this table"):
        t.resign(2)
    with pytest.raises(TableRefused, match="player 7 is not a person"):
        t.resign(7)
    assert saved == [] and t.match.outcome() is None
    three, _ = table("pig", players=3)
    three.resign(2)
    assert three.match.outcome() is not None and three.match.outcome().winners == (1, 3)  # type: ignore[union-attr]


def test_a_draw_offered_and_accepted_by_every_other_person_ends_drawn() -> None:
    t, saved = table("pig", players=3)
    deadline = t.deadline
    now[0] += 10
    assert t.offer_draw(2) is True and t.offer is not None
    assert saved[-1] == Change("draw-offer", 0, 2)
    assert deadline is not None and t.deadline == deadline  # the clock runs on, not restarted
    with pytest.raises(TableRefused, match="cannot answer the draw offer: you offered"):
        t.answer_draw(2, True)
    with pytest.raises(TableRefused, match="player 2 has offered a draw; accept or decline"):
        t.offer_draw(1)
    assert t.answer_draw(1, True) is False and t.match.outcome() is None
    assert t.deadline == deadline and t.time_left() == 20.0
    assert t.answer_draw(3, True) is True
    outcome = t.match.outcome()
    assert outcome is not None and outcome.kind == "agreed-draw" and outcome.winners == ()
    assert saved[-1] == Change("agreed-draw", 0, 2) and t.deadline is None


def test_a_declined_offer_ends_and_may_not_be_repeated_before_the_next_action() -> None:
    t, saved = table()
    t.offer_draw(1)
    assert t.answer_draw(2, False) is False and t.offer is None
    assert saved[-1] == Change("draw-declined", 0, 2)
    with pytest.raises(TableRefused, match="your offer was declined; offer again after"):
        t.offer_draw(1)
    t.play(1, "give DTRH")
    assert t.offer_draw(1) is True
    with pytest.raises(TableRefused, match="your offer waits for an answer"):
        t.offer_draw(1)
    with pytest.raises(TableRefused, match="no draw is offered"):
        table()[0].answer_draw(2, True)


def test_an_offer_lapses_when_the_other_player_acts_but_not_when_its_offerer_does() -> None:
    t, _ = table()
    t.offer_draw(1)
    t.play(1, "give DTRH")
    assert t.offer is not None and t.offer.offerer == 1
    t.play(2, "place a1")
    assert t.offer is None
    t.offer_draw(2)
    t.undo(2)
    assert t.offer is None  # an undo changes the position: the offer lapses too


def test_computers_always_decline_and_a_game_without_draws_refuses_an_offer() -> None:
    t, saved = table(computers={2: "1"})
    assert t.offer_draw(1) is False and t.offer is None and t.match.outcome() is None
    assert saved == [Change("draw-declined", 0, 2)]
    game = registry().get("connect4")
    nodraws: Any = type("NoDraws", (type(game),), {"draws": False})()
    match = Match(nodraws, 2, nodraws.info.options(), 1)
    strict = Table(match)
    with pytest.raises(TableRefused, match="cannot offer a draw: this game has no draws"):
        strict.offer_draw(1)
    strict.resign(1)  # resigning is always allowed
    assert match.outcome() is not None


def record_text(match: Match) -> str:
    return match.record().to_text()


@pytest.mark.parametrize("how", ["resign", "draw"])
def test_the_record_keeps_the_end_and_a_loaded_record_shows_the_same(how: str) -> None:
    t, _ = table()
    t.play(1, "give DTRH")
    if how == "resign":
        t.resign(1)
    else:
        t.offer_draw(2)
        t.answer_draw(1, True)
    record = Record.from_text(record_text(t.match))
    kind: Ending = "resigned" if how == "resign" else "agreed-draw"
    assert record.forfeit == Forfeit(player=1 if how == "resign" else 2, reason=kind)
    again = Match.from_record(t.match.game, record)
    assert again.outcome() == t.match.outcome() and again.to_act() is None


def test_an_old_record_keeps_its_checksum_and_a_record_of_a_draw_where_none_exists_fails() -> None:
    t, _ = table()
    t.play(1, "give DTRH")
    t.match.lose_on_time(2)
    data = json.loads(record_text(t.match))
    assert data["forfeit"] == {"player": 2, "reason": "time"}  # as saved before this change
    old = Record.from_text(record_text(t.match))
    assert Match.from_record(t.match.game, old).outcome().kind == "time"  # type: ignore[union-attr]
    game = registry().get("connect4")
    nodraws: Any = type("NoDraws", (type(game),), {"draws": False})()
    drawn = Record(game="connect4", game_version=game.info.version, players=2,
                   options={}, seed=1, chance="actions",
                   forfeit=Forfeit(player=1, reason="agreed-draw"))  # fmt: skip
    with pytest.raises(RecordError, match="records a draw agreed in a game with no draws"):
        Match.from_record(nodraws, drawn)
    assert Match.from_record(game, drawn).outcome().kind == "agreed-draw"  # type: ignore[union-attr]
