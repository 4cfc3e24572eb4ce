"""The built-in games' browser boards in a real headless Chromium (no game server).

Each board module is served at ``/games/{id}/board.js`` by a loopback harness and given
real ``position`` messages built from a :class:`Match`; the tests click the board through
its ``data-*`` attributes (``tests/web_clicks.py``) and check that ``act`` receives exactly
the listed action, that whole games are played to their end by clicks alone, and that a
board never shows a card its seat may not see (K8, N7). Screenshots of the start, middle and
end of each game go to ``$TMPDIR/tabletop-web-boards`` (not committed).
"""

from __future__ import annotations

import os
import random
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tabletop.core import options as opts
from tabletop.core.match import Match
from tabletop.core.registry import registry
from tabletop_quartino.rules import CLAIM
from tests import web_harness as harness
from tests.browser_support import CHROMIUM, chromium
from tests.web_clicks import click_action

sync_api = pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():  # pragma: no cover - CI installs Debian's chromium
    pytest.skip(f"no Chromium at {CHROMIUM}", allow_module_level=True)

SHOTS = Path(os.environ.get("TMPDIR") or tempfile.gettempdir()) / "tabletop-web-boards"
SUIT = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

# (game, players, options): every variant and player count family of the three games.
CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("quarto", 2, {}),
    ("quarto", 2, {"squares": True, "claim": "manual"}),
    ("quarto", 2, {"attributes": "colour,height", "claim": "manual"}),
    ("quartino", 2, {"max_turns": 14}),
    ("quartino", 3, {"mirror": True, "max_turns": 12}),
    ("quartino", 4, {"situations": False, "max_turns": 10, "start": "lot"}),
    ("ctverak", 2, {}),
    ("ctverak", 3, {"deck": "half", "scoring": "extended", "min_natural": 2}),
    ("ctverak", 4, {"discard_rule": "four-cards", "distinct_ranks": True}),
]
IDS = [f"{g}-{p}p-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for g, p, o in CASES]


@pytest.fixture(scope="module")
def board_page() -> Iterator[tuple[Any, list[str]]]:
    """One Chromium page on the harness for the module, and its JavaScript errors."""
    with harness.serve() as url, chromium() as browser:
        tab = browser.new_page(viewport={"width": 1100, "height": 900})
        errors: list[str] = []
        tab.on("pageerror", lambda exc: errors.append(str(exc)))
        tab.goto(url)
        tab.wait_for_function("window.ready === true")
        yield tab, errors


@pytest.fixture
def page(board_page: tuple[Any, list[str]]) -> Iterator[Any]:
    """The harness page; after each test: no JavaScript error, no click off the board."""
    tab, errors = board_page
    tab.evaluate("window.decoyClicked = undefined")
    yield tab
    assert not errors, f"JavaScript errors on the board page: {errors}"
    assert tab.evaluate("window.decoyClicked") is None, "a click landed off the board"


def new_match(game_id: str, players: int, options: dict[str, Any], seed: int) -> Match:
    game = registry().get(game_id)
    return Match(game, players, opts.build(game.info.options, options, game_id), seed)


def legal_texts(match: Match) -> list[str]:
    """The actions ``apply`` accepts (the listing may offer more, e.g. a false quarto)."""
    game, state = match.game, match.state
    return [game.format(state, a) for a in game.legal(state)]


def walk(match: Match, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if match.outcome() is not None:
            return
        match.play(rng.choice(legal_texts(match)))


def _done(match: Match, state: Any) -> int:
    return sum(len(cards) for cards in match.game.to_json(state)["done"].values())


def _true_claims(match: Match, state: Any) -> list[str]:
    game = match.game
    return [
        game.format(state, a)
        for a in game.legal(state)
        if a[0] == CLAIM and _done(match, game.apply(state, a)) > _done(match, state)
    ]


def choose(match: Match, rng: random.Random) -> str:
    """A random legal action, nudged so games progress (true claims, melds, the stock)."""
    texts = legal_texts(match)
    game_id = match.game.info.id
    if game_id == "quartino":
        claims = _true_claims(match, match.state)
        if claims:
            return claims[0]
        placing = [t for t in texts if t.startswith("place")]
        return rng.choice(placing) if placing else "end"
    if game_id == "ctverak":
        laying = [t for t in texts if t.startswith(("meld", "add"))]
        if laying:
            return rng.choice(laying)
        if "draw stock" in texts and rng.random() < 0.8:
            return "draw stock"
    return rng.choice(texts)


def show(page: Any, match: Match, seat: int | None) -> dict[str, Any]:
    message = harness.position(match, seat)
    harness.show(page, match.game.info.id, message, seat)
    return message


@pytest.mark.parametrize(("game_id", "players", "options"), CASES, ids=IDS)
def test_listed_actions_are_clicked_into_exactly_that_notation(
    page: Any, game_id: str, players: int, options: dict[str, Any]
) -> None:
    rng = random.Random(f"{game_id}{players}{options}")
    for seed in range(3):
        match = new_match(game_id, players, options, seed)
        walk(match, rng, rng.randrange(0, 40))
        seat = match.player()
        if seat is None:
            continue
        listed = show(page, match, seat)["legal"]
        assert listed
        for text in rng.sample(listed, min(len(listed), 12)):
            show(page, match, seat)
            click_action(page, game_id, text)
            assert harness.acted(page) == [text]


@pytest.mark.parametrize(("game_id", "players", "options"), CASES, ids=IDS)
def test_a_whole_game_is_played_by_clicks_alone(
    page: Any, game_id: str, players: int, options: dict[str, Any]
) -> None:
    match = new_match(game_id, players, options, seed=7)
    rng = random.Random(7)
    SHOTS.mkdir(parents=True, exist_ok=True)
    name = IDS[CASES.index((game_id, players, options))]
    limit = match.game.info.max_actions(players, match.options)
    middle = {"quarto": 9, "quartino": 20, "ctverak": 60}[game_id]
    while match.outcome() is None:
        assert len(match.actions) < limit
        seat = match.player()
        listed = show(page, match, seat)["legal"]
        if len(match.actions) in (0, middle):
            shot = SHOTS / f"{name}-{len(match.actions):03d}.png"
            page.screenshot(path=str(shot), full_page=True)
        text = choose(match, rng)
        assert text in listed
        click_action(page, game_id, text)
        sent = harness.acted(page)
        assert sent == [text]
        match.play(sent[0])
    for seat in (1, None):
        show(page, match, seat)
        page.screenshot(path=str(SHOTS / f"{name}-end-{seat}.png"), full_page=True)
        assert page.locator("[class*='-legal']").count() == 0


def test_quarto_highlights_the_last_piece_and_the_winning_line(page: Any) -> None:
    match = new_match("quarto", 2, {}, seed=0)
    match.play_all(
        [
            "give LTRF",
            "place a2",
            "give LTQH",
            "place b2",
            "give DTRH",
            "place c2",
            "give DTQF",
            "place d2",
        ]
    )
    outcome = match.outcome()
    assert outcome is not None and outcome.winners == (1,)
    show(page, match, 1)
    page.screenshot(path=str(SHOTS / "quarto-won-line.png"), full_page=True)
    won = page.eval_on_selector_all(".qt-win", "els => els.map(e => e.dataset.square)")
    assert sorted(won) == ["a2", "b2", "c2", "d2"]
    assert page.get_attribute(".qt-last", "data-square") == "d2"


def test_quarto_arrow_keys_rove_over_the_free_squares_and_the_focus_survives_a_redraw(
    page: Any,
) -> None:
    """The shared keyboard module (``/static/board-keys.js``) on Quarto's board: arrows move
    between the squares that take the piece, passing over occupied ones and wrapping at the
    edges; a redraw gives the focus back to the same square; Enter plays it."""
    match = new_match("quarto", 2, {}, seed=0)
    match.play_all(["give LTRF", "place b1", "give LTQH"])  # player 1 places; b1 is taken
    show(page, match, 1)
    focused = "document.activeElement.dataset.square"
    page.focus('[data-square="a1"]')
    for key, square in [
        ("ArrowRight", "c1"),  # b1 is occupied: passed over
        ("ArrowLeft", "a1"),
        ("ArrowLeft", "d1"),  # wraps
        ("ArrowUp", "d2"),
        ("ArrowDown", "d1"),
        ("ArrowDown", "d4"),  # wraps
    ]:
        page.keyboard.press(key)
        assert page.evaluate(focused) == square, key
    show(page, match, 1)  # the board is drawn again from scratch
    assert page.evaluate(focused) == "d4"
    page.keyboard.press("Enter")
    assert harness.acted(page) == ["place d4"]


def test_quartino_claim_marks_the_matching_turn_and_wins_by_clicks(page: Any) -> None:
    start = {  # N8.1's pattern at k=5, player 1's last card (N5.1)
        "board": {"c": ["P"], "r5": ["Y"], "r6": ["B"], "r7": ["G"], "r1": ["G", "Y", "B"]},
        "supply": {"Y": 5, "B": 5, "G": 5, "P": 6},
        "stands": {"1": ["P|YBG"], "2": ["Y|BPG", "B|GYP", "G|PYB", "P|GBY"]},
        "done": {"1": ["Y|BGP", "B|YGP", "G|YBP"], "2": []},
        "to_act": 1,
        "owed": 0,
    }
    game = registry().get("quartino")
    match = Match(game, 2, opts.build(game.info.options, {}, "quartino"), 0, start)
    show(page, match, 1)
    assert "✓ k=5" in page.inner_text('[data-card="P|YBG"]')  # the stand says where it lies
    page.click('[data-card="P|YBG"]')
    matching = page.eval_on_selector_all(
        ".qn-rot.qn-match", "els => els.map(e => e.dataset.rotation)"
    )
    assert matching == ["5"]
    page.hover('[data-rotation="5"]')  # the wheel shows the fields the card covers there
    covered = page.eval_on_selector_all(".qn-cover", "els => els.map(e => e.dataset.field)")
    assert sorted(covered) == ["c", "r5", "r6", "r7"]
    page.screenshot(path=str(SHOTS / "quartino-claim-choice.png"), full_page=True)
    page.click('[data-rotation="5"]')
    assert harness.acted(page) == ["claim P|YBG 5"]
    match.play("claim P|YBG 5")
    assert match.outcome() is not None and match.outcome().winners == (1,)  # type: ignore[union-attr]
    show(page, match, 2)
    page.screenshot(path=str(SHOTS / "quartino-won.png"), full_page=True)
    shown = page.inner_text("#root")  # the board: over, the winner marked in its table (the
    assert "Game over" in shown and "★ winner" in shown  # page's status line says who won)


@pytest.mark.parametrize("game_id", ["quarto", "quartino", "ctverak"])
def test_nothing_is_offered_to_a_seat_not_to_act_or_a_spectator(page: Any, game_id: str) -> None:
    match = new_match(game_id, 3 if game_id != "quarto" else 2, {}, seed=3)
    walk(match, random.Random(3), 5)
    to_act = match.player()
    assert to_act is not None
    other = 1 if to_act != 1 else 2
    for seat in (other, None):
        show(page, match, seat)
        assert page.locator("[class*='-legal']").count() == 0
        for element in (
            page.locator("#root")
            .locator(
                "[data-square], [data-piece], [data-field], [data-colour], "
                "[data-card], [data-pile], [data-meld]"
            )
            .all()[:20]
        ):
            element.click()
        assert harness.acted(page) == []


def _shown(page: Any) -> str:
    """Everything the board put in the page: its text and its markup (tooltips, data-*)."""
    html: str = page.inner_html("#root")
    text: str = page.inner_text("#root")
    return html + "\n" + text


def test_quartino_board_never_shows_another_stand_or_the_cards_out_of_play(page: Any) -> None:
    rng = random.Random(11)
    for seed in range(4):
        match = new_match("quartino", 4, {}, seed)
        walk(match, rng, rng.randrange(0, 60))
        full = match.game.to_json(match.state)
        for seat in range(1, 5):
            show(page, match, seat)
            shown = _shown(page)
            visible = set(full["stands"][str(seat)]) | {c for d in full["done"].values() for c in d}
            hidden = {c for p, s in full["stands"].items() if p != str(seat) for c in s}
            hidden |= set(full["out_of_play"])
            assert all(code in shown for code in full["stands"][str(seat)])  # it can fail
            leaked = sorted(code for code in hidden - visible if code in shown)
            assert not leaked, f"seat {seat} is shown {leaked}"


def _display(code: str) -> str:
    return "Joker" if code == "X" else ("10" if code[0] == "T" else code[0]) + SUIT[code[1]]


def test_ctverak_board_never_shows_other_hands_the_bases_or_the_stock(page: Any) -> None:
    rng = random.Random(12)
    for seed, deck in [(0, "full"), (1, "half"), (2, "full")]:
        players = 4 if deck == "full" else 3
        match = new_match("ctverak", players, {"deck": deck}, seed)
        walk(match, rng, rng.randrange(0, 80))
        full = match.game.to_json(match.state)
        for seat in range(1, players + 1):
            show(page, match, seat)
            shown = _shown(page)
            own = full["hands"][str(seat)]
            visible = set(own) | {c for pile in full["piles"] for c in pile}
            visible |= {c for melds in full["melds"].values() for m in melds for c in m}
            hidden = {c for p, h in full["hands"].items() if p != str(seat) for c in h}
            hidden |= set(full["bases"]) | set(full["stock"])
            cards = page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)")
            assert sorted(cards) == sorted(own)  # the own hand is there: the check can fail
            for code in sorted(hidden - visible):
                word = re.compile(rf"(?<![\w#]){re.escape(code)}(?!\w)")
                assert not word.search(shown), f"seat {seat} is shown {code}"
                assert _display(code) not in shown, f"seat {seat} is shown {_display(code)}"
