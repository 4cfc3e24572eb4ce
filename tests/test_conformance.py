"""The conformance kit: it passes on correct games (the toys, every installed game), each
check fails on a game broken on purpose, and the golden playthroughs replay unchanged."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from pydantic import BaseModel, ConfigDict, Field

from tabletop.core.errors import NotationError, PositionError, TabletopError
from tabletop.core.i18n.text import chosen
from tabletop.core.match import Match
from tabletop.core.numbers import quote
from tabletop.core.registry import registry
from tabletop.game import JSON, Game, GameInfo, Outcome
from tabletop.testing import (
    CHECKS,
    GAMES,
    assert_conformance,
    check_command,
    check_game,
    configurations,
    record_golden,
    replay_golden,
    spread_games,
)
from tests.test_scenarios import TicTacToe, TicTacToeOptions, TState

GOLDEN = Path(__file__).parent / "golden"


# -- a toy with hidden cards: high card -----------------------------------------------------
# H1 13 cards 2..A, shuffled; each player is dealt `cards`, the rest is the stock, unseen.
# H2 in turn each player plays a card of their hand, face up. H3 when all hands are empty,
# the highest total wins (a tie is a draw). A player sees their own hand only.
RANKS = "23456789TJQKA"


class HighCardOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    cards: int = Field(2, ge=1, le=3, description="H1: cards dealt to each player")


class HState(NamedTuple):
    hands: tuple[tuple[int, ...], ...]
    played: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    player: int


class HighCard(Game[HState, int]):
    """A correct little game with hidden hands and a hidden stock."""

    info = GameInfo(
        id="highcard",
        name="High card",
        version="1",
        min_players=2,
        max_players=3,
        options=HighCardOptions,
        hidden_information=True,
        max_actions=lambda players, options: players * 3,
    )

    def new(self, players: int, options: BaseModel, seed: int) -> HState:
        assert isinstance(options, HighCardOptions)
        deck = list(range(13))
        random.Random(seed).shuffle(deck)
        n = options.cards
        hands = tuple(tuple(sorted(deck[i * n : i * n + n])) for i in range(players))
        return HState(hands, ((),) * players, tuple(deck[players * n :]), 1)

    def to_act(self, state: HState) -> int | None:
        return None if self.outcome(state) else state.player

    def legal(self, state: HState) -> tuple[int, ...]:
        return () if self.outcome(state) else state.hands[state.player - 1]

    def apply(self, state: HState, action: int) -> HState:
        seat = state.player - 1
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != action)
        played = list(state.played)
        played[seat] = (*played[seat], action)
        return HState(tuple(hands), tuple(played), state.stock, state.player % len(hands) + 1)

    def outcome(self, state: HState) -> Outcome | None:
        if any(state.hands):
            return None
        totals = [sum(p) for p in state.played]
        best = max(totals)
        winners = [i + 1 for i, t in enumerate(totals) if t == best]
        return Outcome(tuple(winners) if len(winners) == 1 else (), "highest total (H3)")

    def refusal(self, state: HState, action: int) -> str:
        if self.outcome(state):
            return "the game is over (H3)"
        return f"H2: you hold no {RANKS[action]}"

    def parse(self, state: HState, text: str) -> int:
        words = text.upper().split()
        if len(words) != 2 or words[0] != "PLAY" or len(words[1]) != 1 or words[1] not in RANKS:
            raise NotationError(f"unknown action {quote(text)}; actions are play <rank 2..A>")
        return RANKS.index(words[1])

    def format(self, state: HState, action: int) -> str:
        return f"play {RANKS[action]}"

    def view(self, state: HState, player: int | None) -> JSON:
        if self.outcome(state) is not None:
            return self.to_json(state)
        data = self.to_json(state)
        hands = data.pop("hands")
        data.pop("stock")
        data["hand_sizes"] = {k: len(v) for k, v in hands.items()}
        data["stock_size"] = len(state.stock)
        if player is not None:
            data["hand"] = hands[str(player)]
        return data

    def to_json(self, state: HState) -> JSON:
        def cards(values: tuple[int, ...]) -> list[str]:
            return [RANKS[v] for v in values]

        return {
            "hands": {str(i + 1): cards(h) for i, h in enumerate(state.hands)},
            "played": {str(i + 1): cards(p) for i, p in enumerate(state.played)},
            "stock": cards(state.stock),
            "to_act": self.to_act(state),
        }

    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> HState:
        try:
            hands = tuple(
                tuple(sorted(RANKS.index(c) for c in data["hands"][str(p)]))
                for p in range(1, players + 1)
            )
            played = tuple(
                tuple(RANKS.index(c) for c in data["played"][str(p)]) for p in range(1, players + 1)
            )
            stock = tuple(RANKS.index(c) for c in data["stock"])
        except (KeyError, TypeError, ValueError, AttributeError):
            raise PositionError(
                "not a high card position: hands, played (per player) and stock of ranks 2..A"
            ) from None
        every = [c for part in (*hands, *played, stock) for c in part]
        if sorted(every) != list(range(13)):
            raise PositionError("every card 2..A exactly once (H1)")
        assert isinstance(options, HighCardOptions)
        done = [len(p) for p in played]
        if any(len(h) + d != options.cards for h, d in zip(hands, done, strict=True)) or (
            done != sorted(done, reverse=True) or done[0] - done[-1] > 1
        ):
            raise PositionError("each player holds or has played the cards dealt, in turn (H1, H2)")
        player = next((i + 1 for i in range(players) if done[i] == min(done)), 1)
        return HState(hands, played, stock, player)

    def rules_text(self) -> str:
        return "H1 deal. H2 play a card. H3 highest total wins."

    def sample(
        self, view: JSON, player: int, players: int, options: BaseModel, rng: random.Random
    ) -> HState:
        """Deal the cards ``player`` cannot see to the other hands and the stock."""
        if "hands" in view:  # over: nothing is hidden
            return self.from_json(view, players, options, 0)
        played = tuple(
            tuple(RANKS.index(c) for c in view["played"][str(p)]) for p in range(1, players + 1)
        )
        own = tuple(sorted(RANKS.index(c) for c in view["hand"]))
        seen = {*own, *(c for p in played for c in p)}
        unseen = [c for c in range(13) if c not in seen]
        rng.shuffle(unseen)
        hands = []
        for p in range(1, players + 1):
            size = view["hand_sizes"][str(p)]
            hands.append(own if p == player else tuple(sorted(unseen[:size])))
            if p != player:
                unseen = unseen[size:]
        state = HState(tuple(hands), played, tuple(unseen), 1)
        return state._replace(player=view["to_act"])


# -- broken on purpose ----------------------------------------------------------------------
class Cells:
    """A mutable board that hashes by identity: the mutation only shows in to_json."""

    def __init__(self, cells: list[int]) -> None:
        self.cells = cells

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cells) and other.cells == self.cells

    def __hash__(self) -> int:
        return id(self)


class MState(NamedTuple):
    board: Cells
    misere: bool


class MutatingApply(Game[MState, int]):
    """apply writes the mark into the input state's board."""

    info = GameInfo("mutating", "Mutating", "1", 2, 2, TicTacToeOptions)
    base = TicTacToe()

    def _t(self, state: MState) -> TState:
        return TState(tuple(state.board.cells), state.misere)

    def new(self, players: int, options: BaseModel, seed: int) -> MState:
        return MState(Cells([0] * 9), False)

    def to_act(self, state: MState) -> int | None:
        return self.base.to_act(self._t(state))

    def legal(self, state: MState) -> tuple[int, ...]:
        return self.base.legal(self._t(state))

    def apply(self, state: MState, action: int) -> MState:
        state.board.cells[action] = self.to_act(state) or 0
        return MState(Cells(list(state.board.cells)), state.misere)

    def outcome(self, state: MState) -> Outcome | None:
        return self.base.outcome(self._t(state))

    def refusal(self, state: MState, action: int) -> str:
        return self.base.refusal(self._t(state), action)

    def parse(self, state: MState, text: str) -> int:
        return self.base.parse(self._t(state), text)

    def format(self, state: MState, action: int) -> str:
        return self.base.format(self._t(state), action)

    def view(self, state: MState, player: int | None) -> JSON:
        return self.to_json(state)

    def to_json(self, state: MState) -> JSON:
        return self.base.to_json(self._t(state))

    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> MState:
        t = self.base.from_json(data, players, options, seed)
        return MState(Cells(list(t.cells)), t.misere)

    def rules_text(self) -> str:
        return ""


class ListState(TicTacToe):
    """States are lists: mutable, unhashable."""

    info = GameInfo("liststate", "List state", "1", 2, 2, TicTacToeOptions)

    def new(self, players: int, options: BaseModel, seed: int) -> TState:
        return TState([0] * 9, False)  # type: ignore[arg-type]

    def apply(self, state: TState, action: int) -> TState:
        cells = list(state.cells)
        cells[action] = self.to_act(state) or 0
        return TState(cells, state.misere)  # type: ignore[arg-type]


class WrongNotation(TicTacToe):
    """parse reads c3 as a1."""

    info = GameInfo("wrongnotation", "Wrong notation", "1", 2, 2, TicTacToeOptions)

    def parse(self, state: TState, text: str) -> int:
        square = super().parse(state, text)
        return 0 if square == 8 else square


_NONCE = itertools.count()


class NState(NamedTuple):
    cells: tuple[int, ...]
    misere: bool
    nonce: int


class NonDeterministic(TicTacToe):
    """new() differs from call to call although the seed is the same."""

    info = GameInfo("nondeterministic", "Non-deterministic", "1", 2, 2, TicTacToeOptions)

    def new(self, players: int, options: BaseModel, seed: int) -> TState:
        return NState((0,) * 9, False, next(_NONCE))  # type: ignore[return-value]

    def apply(self, state: TState, action: int) -> TState:
        cells = list(state.cells)
        cells[action] = self.to_act(state) or 0
        return NState(tuple(cells), state.misere, state[2])  # type: ignore[return-value,misc]


class PlaysOn(TicTacToe):
    """legal is not empty after a win."""

    info = GameInfo("playson", "Plays on", "1", 2, 2, TicTacToeOptions)

    def legal(self, state: TState) -> tuple[int, ...]:
        return tuple(i for i in range(9) if not state.cells[i])


class WrongWinners(TicTacToe):
    """Game.winners names player 1 at every end, whoever won (or a draw)."""

    info = GameInfo("wrongwinners", "Wrong winners", "1", 2, 2, TicTacToeOptions)

    def winners(self, state: TState) -> tuple[int, ...] | None:
        return None if self.outcome(state) is None else (1,)


class TooLong(TicTacToe):
    """Declares at most 4 actions."""

    info = GameInfo("toolong", "Too long", "1", 2, 2, TicTacToeOptions, max_actions=lambda p, o: 4)


class CrashingParse(TicTacToe):
    """parse crashes on three words."""

    info = GameInfo("crashingparse", "Crashing parse", "1", 2, 2, TicTacToeOptions)

    def parse(self, state: TState, text: str) -> int:
        if len(text.split()) >= 3:
            raise IndexError("list index out of range")
        return super().parse(state, text)


class ForgetfulPosition(TicTacToe):
    """from_json forgets the mark on b2."""

    info = GameInfo("forgetful", "Forgetful", "1", 2, 2, TicTacToeOptions)

    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> TState:
        state = super().from_json(data, players, options, seed)
        if state.cells[4] and self.outcome(state) is None:
            cells = list(state.cells)
            cells[4] = 0
            return TState(tuple(cells), state.misere)
        return state


class CrashingPosition(TicTacToe):
    """from_json crashes on a missing key instead of raising PositionError."""

    info = GameInfo("crashingposition", "Crashing position", "1", 2, 2, TicTacToeOptions)

    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> TState:
        data["board"]["x"] = data["to_act"]  # KeyError / TypeError on a damaged position
        del data["board"]["x"]
        return super().from_json(data, players, options, seed)


class LeakyView(HighCard):
    """Every player's view shows every hand."""

    info = GameInfo("leakyview", "Leaky view", "1", 2, 3, HighCardOptions, hidden_information=True)

    def view(self, state: HState, player: int | None) -> JSON:
        data = super().view(state, player)
        if player is not None:
            data["all_hands"] = self.to_json(state)["hands"]
        return data


class ShowsEverything(HighCard):
    """Every view, the spectator's too, is the whole position."""

    info = GameInfo(
        "showseverything", "Shows everything", "1", 2, 3, HighCardOptions, hidden_information=True
    )

    def view(self, state: HState, player: int | None) -> JSON:
        return self.to_json(state)


class LeakyRefusal(HighCard):
    """The refusal names the next player's cards."""

    info = GameInfo(
        "leakyrefusal", "Leaky refusal", "1", 2, 3, HighCardOptions, hidden_information=True
    )

    def refusal(self, state: HState, action: int) -> str:
        nxt = state.hands[state.player % len(state.hands)]
        return f"H2: you hold no {RANKS[action]} (the next player holds {nxt})"


class PeekingSample(HighCard):
    """Its determinisation deals the sampling player someone else's hand."""

    info = GameInfo(
        "peeking", "Peeking sample", "1", 2, 3, HighCardOptions, hidden_information=True
    )

    def sample(
        self, view: JSON, player: int, players: int, options: BaseModel, rng: random.Random
    ) -> HState:
        state = super().sample(view, player, players, options, rng)
        hands = list(state.hands)
        other = player % players
        hands[player - 1], hands[other] = hands[other], hands[player - 1]
        return state._replace(hands=tuple(hands))


BROKEN: list[tuple[Game[Any, Any], str, str]] = [
    (MutatingApply(), "pure", "apply('mark "),
    (ListState(), "pure", "is not hashable"),
    (WrongNotation(), "notation", "parse('mark c3') gave 0, not 8"),
    (WrongNotation(), "record", "the record replayed from the start"),
    (NonDeterministic(), "deterministic", "gave two different initial states"),
    (PlaysOn(), "legal", "the game is over but"),
    (WrongWinners(), "legal", "not the outcome's winners"),
    (TooLong(), "bound", "no end after 4 actions"),
    (CrashingParse(), "fuzz", "raised IndexError: list index out of range, not ActionError"),
    (ForgetfulPosition(), "position", "from_json(to_json(state)): to_json differs at board.b2"),
    (ForgetfulPosition(), "record", "the record replayed from the position after"),
    (CrashingPosition(), "position", "not PositionError"),
    (LeakyView(), "views", "sees a hidden change"),
    (ShowsEverything(), "views", "nothing is hidden"),
    (LeakyRefusal(), "views", "shows a hidden change"),
    (PeekingSample(), "samples", "shows them another view"),
]


@pytest.mark.parametrize(
    ("game", "check", "message"), BROKEN, ids=[f"{g.info.id}-{c}" for g, c, _ in BROKEN]
)
def test_each_check_fails_on_a_game_broken_for_it(
    game: Game[Any, Any], check: str, message: str
) -> None:
    report = check_game(game, games_per_config=20, seed=1, fuzz=30)
    assert not report.ok
    stats = report.checks[check]
    assert stats.failures > 0, report.text()
    assert stats.first is not None and message in stats.first.message, report.text()
    assert f"{check}: " in report.text()


def test_a_failure_names_a_game_that_replays() -> None:
    report = check_game(PlaysOn(), games_per_config=10, seed=3)
    first = report.checks["legal"].first
    assert first is not None
    ref = first.game
    assert (ref.game, ref.players, ref.options) == ("playson", 2, {"misere": False})
    match = Match(PlaysOn(), ref.players, TicTacToeOptions(**ref.options), ref.seed)
    match.play_all(ref.actions)
    outcome = match.outcome()
    assert outcome is not None and outcome.winners  # the win after which legal is not empty
    assert match.game.legal(match.state)
    assert ref.command().startswith("printf '%s\\n' 'mark ")
    assert "tabletop run playson -p 2 --seed " in ref.command()


# -- correct games pass -----------------------------------------------------------------------
@pytest.mark.parametrize("game", [TicTacToe(), HighCard()], ids=["tictactoe", "highcard"])
def test_a_correct_toy_passes_every_check(game: Game[Any, Any]) -> None:
    report = assert_conformance(game, games_per_config=40, seed=0)
    assert set(report.checks) == set(CHECKS)
    assert all(stats.runs > 0 for stats in report.checks.values()), report.text()
    assert report.games == 40 * len(report.configs)


def test_hidden_swaps_are_compared() -> None:
    report = check_game(HighCard(), games_per_config=20, seed=0)
    assert report.ok, report.text()
    assert report.checks["views"].runs > report.checks["notation"].runs  # swaps were compared
    assert report.checks["fuzz"].runs >= 1000  # "thousands" of bad inputs in one short run


def test_configurations_cover_every_option_value() -> None:
    labels = [c.label() for c in configurations(HighCard())]
    assert labels == ["2 players", "2 players, cards=1", "3 players", "3 players, cards=1"]
    quarto = configurations(registry().get("quarto"), max_configs=12, seed=0)
    assert len(quarto) == 10  # 2 squares × 5 attributes × 2 claims > 12: a pairwise sample
    dumped = [c.options.model_dump(mode="json") for c in quarto]
    pairs = {(a, b) for d in dumped for a in (d["squares"],) for b in (d["claim"],)}
    assert pairs == {(True, "auto"), (True, "manual"), (False, "auto"), (False, "manual")}
    assert {json.dumps(d["attributes"]) for d in dumped} >= {
        '["colour"]',
        '["height"]',
        '["shape"]',
        '["top"]',
        '["colour", "height", "shape", "top"]',
    }
    assert {d["claim"] for d in dumped} == {"auto", "manual"}
    assert {d["squares"] for d in dumped} == {True, False}


def test_players_outside_the_range_are_refused() -> None:
    with pytest.raises(TabletopError, match="High card is for 2-3 players, not 5"):
        check_game(HighCard(), players=5)


@pytest.mark.parametrize("game", registry().ids())
def test_every_installed_game_passes_the_kit(game: str) -> None:
    """A short run per installed game; ``tabletop check GAME --games-per-config 200`` is a
    long one."""
    assert_conformance(game, games_per_config=2, seed=0)


def test_quarto_passes_a_longer_run() -> None:
    report = assert_conformance("quarto", games_per_config=30, seed=7)
    assert report.checks["legal"].runs > 30 * 12 * 16  # every position of every game


def test_check_command(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert check_command("quarto", 30, 0, record=False, players=None) == 0
    out = capsys.readouterr().out
    assert "Quarto: 30 games, 10 configurations, seed 0" in out
    assert "configurations (a pairwise sample: 10 of 20 combinations" in " ".join(out.split())
    assert "fuzz" in out and "FAILED" not in out
    assert chosen() is None  # the language it spoke ended with it: the caller chose none
    assert not (tmp_path / "tests").exists()
    assert check_command("quarto", 2, 5, record=True, players=2) == 0
    written = sorted((tmp_path / "tests" / "golden").glob("quarto-*.json"))
    assert [p.name for p in written] == [f"quarto-{n}.json" for n in range(1, 5)]
    assert all(replay_golden(p) == [] for p in written)
    with pytest.raises(TabletopError, match="unknown game"):
        check_command("chess", 1, 0, record=False, players=None)


def test_check_command_reports_failures(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.test_scenarios import toy_registry

    monkeypatch.setattr("tabletop.core.registry._default", toy_registry(PlaysOn()))
    assert check_command("playson", 5, 0, record=True, players=None) == 1
    out = capsys.readouterr().out
    assert "FAILED" in out and "legal: the game is over but" in out and "replay:" in out


# -- golden playthroughs ----------------------------------------------------------------------
def test_golden_replay_catches_a_rule_change(tmp_path: Path) -> None:
    [path] = record_golden(TicTacToe(), tmp_path, count=1, seed=4)
    data = json.loads(path.read_text())
    assert data["format"] == "tabletop-golden/1" and data["game"] == "tictactoe"
    squares = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    assert data["initial"]["legal"] == sorted(f"mark {s}" for s in squares)
    assert data["steps"][-1]["to_act"] is None and "outcome" in data["steps"][-1]
    assert replay_golden(path, TicTacToe()) == []

    class Misere(TicTacToe):  # a silent rule change: three in a row now loses
        def new(self, players: int, options: BaseModel, seed: int) -> TState:
            return TState((0,) * 9, True)

    differences = replay_golden(path, Misere())
    winner_changed = any("outcome.winners" in d for d in differences)
    assert winner_changed or any("is now refused" in d for d in differences), differences

    data["steps"][1]["position"]["board"]["a1"] = "Z"
    path.write_text(json.dumps(data))
    [difference] = replay_golden(path, TicTacToe())
    assert "action 2" in difference and "position.board" in difference
    # the values shown are the ones at that path, not the whole position
    assert difference.endswith('position.board.a1: expected "Z", now (missing)')


def golden_files() -> list[Path]:
    return sorted(GOLDEN.glob("*.json"))


@pytest.mark.parametrize("path", golden_files(), ids=[p.name for p in golden_files()])
def test_golden_playthrough_replays_unchanged(path: Path) -> None:
    """``tabletop check GAME --record`` wrote these; a difference is a rule change."""
    game = json.loads(path.read_text())["game"]
    if game not in registry().ids():
        pytest.skip(f"{game} is not installed")
    assert replay_golden(path) == []


def test_quarto_has_golden_playthroughs() -> None:
    assert [p.name for p in golden_files() if p.name.startswith("quarto-")] == [
        f"quarto-{n}.json" for n in range(1, 5)
    ]


# -- the budget: --games in all, --games-per-config for depth (issue 29 item 4) -------------
def test_games_are_a_total_spread_over_the_configurations() -> None:
    assert spread_games(4, 10, None) == [3, 3, 2, 2]
    assert spread_games(3, None, 5) == [5, 5, 5]
    assert spread_games(5, 2, None) == [1, 1, 1, 1, 1]  # every configuration is played
    assert sum(spread_games(22, None, None)) == GAMES  # the default: a total, not per config
    report = check_game(HighCard(), games=10, seed=4)
    assert len(report.configs) == 4 and report.games == 10, report.text()
    deeper = check_game(HighCard(), games_per_config=5, seed=4)
    assert deeper.games == 20 and deeper.checks["legal"].runs > report.checks["legal"].runs


def test_a_total_and_a_count_per_configuration_together_are_refused() -> None:
    with pytest.raises(TabletopError, match="not both"):
        check_game(HighCard(), games=10, games_per_config=2)
    with pytest.raises(TabletopError, match="--games-per-config must be 1 or more, not 0"):
        check_game(HighCard(), games_per_config=0)


def test_game_n_of_the_run_has_seed_plus_n() -> None:
    """Game n (counted through the configurations in order) is seeded ``seed + n``: the
    failure of the first game of the second configuration names seed 13 + 3."""
    report = check_game(PlaysOn(), games=6, seed=13)
    first = report.checks["legal"].first
    assert first is not None and first.game.seed in range(13, 19)
    per_config = spread_games(len(report.configs), 6, None)
    assert sum(per_config) == report.games == 6


def test_check_flags(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tabletop.cli.app import app

    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    total = runner.invoke(app, ["check", "quarto", "--games", "10", "--seed", "1"])
    assert total.exit_code == 0, total.output
    assert "Quarto: 10 games, 10 configurations, seed 1" in total.output
    deep = runner.invoke(app, ["check", "quarto", "--games-per-config", "2", "-p", "2"])
    assert deep.exit_code == 0, deep.output
    assert "Quarto: 20 games, 10 configurations" in deep.output
    both = runner.invoke(app, ["check", "quarto", "--games", "3", "--games-per-config", "2"])
    assert both.exit_code != 0 and "not both" in both.output
    assert "Traceback" not in both.output
