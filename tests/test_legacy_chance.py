"""Records made before a game declared its chance steps replay to the same position
(issue 35, :mod:`tabletop.core.legacy`): a game that drew its cards from a shuffle seeded
at ``new`` now draws each card at a chance step, and ships ``seeded_chance`` so that
every old record, save and golden file still loads."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar, NamedTuple

import pytest
from pydantic import BaseModel, ConfigDict

from tabletop.core import records
from tabletop.core.errors import NotationError, RecordError
from tabletop.core.match import Match
from tabletop.game import CHANCE, JSON, Actor, Game, GameInfo, Outcome

CARDS = tuple(range(1, 7))
TAKE = 0


class NoOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Old(NamedTuple):
    deck: tuple[int, ...]  # the shuffled order, top first: the seed inside the state
    hands: tuple[tuple[int, ...], ...]


class New(NamedTuple):
    stock: tuple[int, ...]  # unordered (sorted): what is left
    hands: tuple[tuple[int, ...], ...]
    drawing: int  # the player drawing now (a chance step), 0 when none


def _old_deck(seed: int) -> list[int]:
    deck = list(CARDS)
    random.Random(seed).shuffle(deck)
    return deck


class _Common:
    """Take turns to take the top card; the higher sum wins (D1)."""

    def outcome(self, state: Any) -> Outcome | None:
        if any(len(h) < 3 for h in state.hands):
            return None
        one, two = (sum(h) for h in state.hands)
        return Outcome((1,) if one > two else (2,), "D1 the higher sum", "sum")

    def refusal(self, state: Any, action: int) -> str:
        return "D1 only take"

    def format(self, state: Any, action: int) -> str:
        return "take" if action == TAKE else f"card {action}"

    def to_json(self, state: Any) -> JSON:
        return {"hands": {str(p): list(h) for p, h in enumerate(state.hands, 1)}}


class OldDeal(_Common, Game[Old, int]):
    """The game as it was: the deck shuffled by the seed at ``new``."""

    info = GameInfo("deal", "Deal", "1.0", 2, 2, NoOptions, "A test of old records.")

    def new(self, players: int, options: BaseModel, seed: int) -> Old:
        return Old(tuple(_old_deck(seed)), ((), ()))

    def to_act(self, state: Old) -> Actor:
        taken = sum(map(len, state.hands))
        return None if taken == 6 else 1 + taken % 2

    def legal(self, state: Old) -> Sequence[int]:
        return () if self.to_act(state) is None else (TAKE,)

    def apply(self, state: Old, action: int) -> Old:
        player = self.to_act(state)
        assert isinstance(player, int)
        hands = list(state.hands)
        hands[player - 1] += (state.deck[0],)
        return Old(state.deck[1:], tuple(hands))

    def parse(self, state: Old, text: str) -> int:
        if text != "take":
            raise NotationError(f"not an action: {text}")
        return TAKE

    def view(self, state: Old, player: int | None) -> JSON:
        return self.to_json(state)

    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> Old:
        raise NotImplementedError


def seeded_chance(states: Sequence[New], seed: int) -> int:
    """The card the old version dealt next: its seeded deck, past the cards taken."""
    return _old_deck(seed)[sum(map(len, states[-1].hands))]


class NewDeal(_Common, Game[New, int]):
    """The same game with each card drawn at a chance step."""

    info = GameInfo("deal", "Deal", "2.0", 2, 2, NoOptions, "A test of old records.")
    facets: ClassVar[Mapping[str, Any]] = {"legacy": SimpleNamespace(seeded_chance=seeded_chance)}

    def new(self, players: int, options: BaseModel, seed: int) -> New:
        return New(CARDS, ((), ()), 0)

    def to_act(self, state: New) -> Actor:
        if state.drawing:
            return CHANCE
        taken = sum(map(len, state.hands))
        return None if taken == 6 else 1 + taken % 2

    def chance_outcomes(self, state: New) -> Sequence[tuple[int, Fraction]]:
        return [(card, Fraction(1, len(state.stock))) for card in state.stock]

    def legal(self, state: New) -> Sequence[int]:
        if state.drawing:
            return state.stock
        return () if self.to_act(state) is None else (TAKE,)

    def apply(self, state: New, action: int) -> New:
        if action == TAKE:
            player = self.to_act(state)
            assert isinstance(player, int)
            return state._replace(drawing=player)
        hands = list(state.hands)
        hands[state.drawing - 1] += (action,)
        stock = tuple(c for c in state.stock if c != action)
        return New(stock, tuple(hands), 0)

    def parse(self, state: New, text: str) -> int:
        if text == "take":
            return TAKE
        if text.startswith("card ") and text[5:].isdigit():
            return int(text[5:])
        raise NotationError(f"not an action: {text}")

    def view(self, state: New, player: int | None) -> JSON:
        return self.to_json(state)

    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> New:
        raise NotImplementedError


def _old_record(seed: int, takes: int) -> tuple[records.Record, Match]:
    old = Match(OldDeal(), 2, NoOptions(), seed)
    for _ in range(takes):
        old.play("take")
    data = old.record().model_dump(mode="json")
    del data["chance"]  # as the earlier release wrote it
    return records.Record.model_validate(data), old


@pytest.mark.parametrize("seed", [0, 1, 5, 12345])
@pytest.mark.parametrize("takes", [0, 3, 6])
def test_an_old_record_replays_to_the_same_position(tmp_path: Path, seed: int, takes: int) -> None:
    record, old = _old_record(seed, takes)
    path = tmp_path / "old.json"
    path.write_text(record.to_text(), encoding="utf-8")
    assert '"chance"' not in path.read_text()  # an earlier release's file, checksum and all
    new = Match.from_record(NewDeal(), records.load(path))
    assert new.game.to_json(new.state) == old.game.to_json(old.state)
    assert [t for t in new.texts if t == "take"] == old.texts
    # it goes on with the cards the earlier version would have dealt, and saves anew
    while new.to_act() is not None:
        new.play("take")
    while old.to_act() is not None:
        old.play("take")
    assert new.game.to_json(new.state) == old.game.to_json(old.state)
    saved = new.record()
    assert saved.chance == "actions" and '"chance": "actions"' in saved.to_text()
    again = Match.from_record(NewDeal(), records.Record.from_text(saved.to_text()))
    assert again.texts == new.texts and again.state == new.state


def test_a_new_record_states_its_chance_and_needs_no_seed() -> None:
    match = Match(NewDeal(), 2, NoOptions(), 3)
    match.play("take")
    assert match.texts[1].startswith("card ") and match.actors[1] == CHANCE
    record = match.record()
    other_seed = record.model_copy(update={"seed": 4})  # the outcomes are in the actions
    assert Match.from_record(NewDeal(), other_seed).state == match.state


def test_an_old_record_that_no_longer_fits_is_refused_in_one_line() -> None:
    record, _old = _old_record(0, 2)
    card = _old_deck(0)[0]

    def wrong(states: Sequence[New], seed: int) -> int:
        return card  # always the first card: gone after one draw

    class Wrong(NewDeal):
        facets: ClassVar[Mapping[str, Any]] = {"legacy": SimpleNamespace(seeded_chance=wrong)}

    with pytest.raises(RecordError) as refused:
        Match.from_record(Wrong(), record)
    said = str(refused.value)
    assert "\n" not in said and said.startswith("record does not replay (saved with deal 1.0")
    assert f"action 4 'card {card}' refused: not a possible outcome (possible: card " in said


class SecretDeal(NewDeal):
    """The same game with hidden hands: each player sees their own cards, and of the
    other's only how many; a card drawn is told to its taker."""

    info = GameInfo(
        "secret", "Secret deal", "1.0", 2, 2, NoOptions, "A test of told.", hidden_information=True
    )

    def view(self, state: New, player: int | None) -> JSON:
        return {
            "hands": {
                str(p): list(h) if p == player else len(h) for p, h in enumerate(state.hands, 1)
            }
        }

    def tells(
        self, state: New, action: int, actor: int, viewer: int | None, now: New
    ) -> bool | None:
        return viewer == state.drawing if actor == CHANCE else None

    def sample(
        self, view: JSON, player: int, players: int, options: BaseModel, rng: random.Random
    ) -> New:
        raise NotImplementedError


class TellsAll(SecretDeal):
    """Wrong: it tells every card drawn to everyone, though no view shows it."""

    def tells(
        self, state: New, action: int, actor: int, viewer: int | None, now: New
    ) -> bool | None:
        return True if actor == CHANCE else None


def test_the_kit_checks_what_a_card_drawn_tells() -> None:
    """The kit's ``told`` check: a card drawn told to its taker passes; told to everyone,
    though the others' views show only how many cards a hand holds, it fails."""
    from tabletop.kit.conformance import check_game

    def told_failures(game: Game[Any, Any]) -> list[str]:
        report = check_game(game, games=4, seed=0)
        assert report.checks["told"].runs > 0
        return [f.message for f in report.failures() if f.check == "told"]

    assert told_failures(SecretDeal()) == []
    [said] = told_failures(TellsAll())
    assert said.startswith("a spectator is told 'card ")  # the first viewer asked
    assert "would leave the same view: the text tells what the view hides" in said
