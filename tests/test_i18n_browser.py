"""In a real headless Chromium (Debian's /usr/bin/chromium, driven by Playwright): one
Quartino match, seat 1 in a browser that sends ``Accept-Language: cs``, seat 2 in one that
sends ``pl``; each page and each prompt is in its own language, and the header's switcher
changes the language without losing the seat. Screenshots go to $TMPDIR/tabletop-i18n/."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.browser_support import WAIT, shots
from tests.web_support import OPENER

SHOTS = shots("tabletop-i18n")


def create(base: str) -> dict[str, object]:
    body = {"game": "quartino", "players": 2, "options": {}, "spectators": True, "move_time": None}
    request = urllib.request.Request(
        base + "api/matches",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with OPENER.open(request, timeout=30) as answer:
        made: dict[str, object] = json.load(answer)
    return made


@contextmanager
def two_friends(browser: Browser, server: str) -> Iterator[tuple[list[Any], Page, Page]]:
    """A new Quartino match for 2: its seats, seat 1's page in a browser that sends
    ``Accept-Language: cs`` and seat 2's in one that sends ``pl``, both opened."""
    made = create(server)
    seats = made["seats"]
    assert isinstance(seats, list)
    czech = browser.new_context(locale="cs-CZ").new_page()
    polish = browser.new_context(locale="pl-PL").new_page()
    try:
        czech.goto(f"{server}match/{made['id']}?token={seats[0]['token']}")
        polish.goto(f"{server}match/{made['id']}?token={seats[1]['token']}")
        yield seats, czech, polish
    finally:
        czech.context.close()
        polish.context.close()


def test_two_friends_each_in_their_language_and_the_switcher_keeps_the_seat(
    browser: Browser, server: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with two_friends(browser, server) as (seats, czech, polish):
        czech.wait_for_function(
            "document.getElementById('prompt').textContent.includes('položte figurku')",
            timeout=WAIT,
        )
        assert czech.locator("#act-title").inner_text() == "Váš tah"
        assert polish.locator("#act-title").inner_text() == "Twój ruch"
        # what each reads on screen: the status line and the board's own labels
        czech.wait_for_function(
            "document.getElementById('status').textContent === 'Jste na tahu'", timeout=WAIT
        )
        polish.wait_for_function(
            "document.getElementById('status').textContent.startsWith('Czekamy na: ')",
            timeout=WAIT,
        )
        # the instruction is the player's to act: the one who waits reads none
        assert polish.locator("#prompt").inner_text() == ""
        czech_board = czech.locator("#board").inner_text()
        polish_board = polish.locator("#board").inner_text()
        assert "Zásoba (vyberte barvu, kterou položíte)" in czech_board, czech_board
        assert "Hráči" in czech_board and "Supply" not in czech_board
        assert "Zapas (wybierz kolor do położenia)" in polish_board, polish_board
        assert "Gracze" in polish_board and "Players" not in polish_board
        assert czech.locator("#me").inner_text() == "jste hráč 1"
        assert polish.locator("#me").inner_text() == "jesteś graczem 2"
        assert czech.locator(".qn-wheel").get_attribute("aria-label") == "Deska"
        assert czech.evaluate("document.documentElement.lang") == "cs"
        czech.screenshot(path=str(SHOTS / "match-cs.png"), full_page=True)
        polish.screenshot(path=str(SHOTS / "match-pl.png"), full_page=True)
        # the switcher: Polish -> Russian, the seat's token stays in the address
        polish.select_option("#lang", "ru")
        polish.wait_for_function(
            "document.getElementById('status').textContent.startsWith('Ждём: ')", timeout=WAIT
        )
        assert f"token={seats[1]['token']}" in polish.url and "lang=ru" in polish.url
        assert polish.locator("#act-title").inner_text() == "Ваш ход"
        polish.screenshot(path=str(SHOTS / "match-ru.png"), full_page=True)
        # the browser remembers: the lobby opens in Russian without ?lang=
        polish.goto(server)
        polish.wait_for_function(
            "document.querySelector('h2').textContent === 'Игры'", timeout=WAIT
        )
        polish.screenshot(path=str(SHOTS / "lobby-ru.png"), full_page=True)


def test_a_false_claim_is_a_hidden_action_in_the_other_players_language(
    browser: Browser, server: str
) -> None:
    """N4.4: a false claim names a card only its claimant may see; the other player's log
    says a hidden action was played, in their language, and the claimant's own log names
    the claim."""
    with two_friends(browser, server) as (_, czech, polish):
        czech.wait_for_function(
            "document.getElementById('prompt').textContent.includes('položte figurku')",
            timeout=WAIT,
        )
        board = czech.locator('[data-board="quartino"]')
        board.locator("[data-colour]").first.click()  # one piece: no card can match yet
        board.locator('[data-field="r0"]').click()
        card = board.locator("[data-card]").first
        card.wait_for(state="visible", timeout=WAIT)
        code = card.get_attribute("data-card")
        card.click()
        board.locator('[data-rotation="0"]').click()
        polish.wait_for_function(
            "document.getElementById('log').innerText.includes('gracz 1: ukryty ruch')",
            timeout=WAIT,
        )
        claim = f"vy: ohlásit Quartino: karta {card_in(str(code), CZECH_COLOURS)} při otočení 0"
        czech.wait_for_function(  # the claimant's own log: the claim in Czech words
            f"document.getElementById('log').innerText.includes('{claim}')", timeout=WAIT
        )
        seen = polish.locator("#log").inner_text()
        assert str(code) not in seen and card_in(str(code), POLISH_COLOURS) not in seen
        assert "played" not in seen


CZECH_COLOURS = {"Y": "žlutá", "B": "modrá", "G": "zelená", "P": "růžová"}
POLISH_COLOURS = {"Y": "żółty", "B": "niebieski", "G": "zielony", "P": "różowy"}


def card_in(code: str, colours: dict[str, str]) -> str:
    """A Quartino card as the log says it in a language: ``P|YBG`` is "růžová | žlutá
    modrá zelená" in Czech."""
    centre, ring = code.split("|")
    return f"{colours[centre]} | {' '.join(colours[c] for c in ring)}"


def overflowing(page: Page) -> list[str]:
    """The visible elements wider than the page (text that no longer fits its box), and
    the page itself when it scrolls sideways."""
    found: list[str] = page.evaluate(
        """() => {
          const width = document.documentElement.clientWidth;
          const wide = [...document.querySelectorAll('main *')].filter((el) => {
            const box = el.getBoundingClientRect();
            return box.width > 0 && box.right > width + 1 && !el.closest('.table-wrap, pre');
          }).map((el) => `${el.tagName}#${el.id}.${el.className}: ${el.textContent.slice(0, 40)}`);
          if (document.documentElement.scrollWidth > width + 1) wide.push('page scrolls sideways');
          return wide;
        }"""
    )
    return found


@pytest.mark.parametrize("lang", ["pl", "bg"])
@pytest.mark.parametrize("width", [1280, 390])
def test_the_lobby_form_and_the_generic_board_in_the_language_at_each_width(
    browser: Browser, server: str, lang: str, width: int
) -> None:
    """The new-match form names options, values, ranges and computer levels in the
    language (the values sent stay the machine's), the listing names the game, the generic
    board names its fields; nothing overflows at a phone's 390 px."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    words = {
        "pl": ("talia", "pełna talia (108 kart)", "liczba całkowita 2..50",
               "losowe dozwolone ruchy", "plansza", "na ruchu"),
        "bg": ("карти", "всички карти (108 карти)", "цяло число 2..50",
               "случайни позволени ходове", "дъска", "на ход"),
    }[lang]  # fmt: skip
    deck, full, integer, random_level, board, to_act = words
    page = browser.new_context(
        locale=lang, viewport={"width": width, "height": 900}
    ).new_page()
    try:
        page.goto(f"{server}?lang={lang}")
        page.wait_for_selector("[data-create='ctverak']", timeout=WAIT)
        title = {"pl": "tabletop — poczekalnia", "bg": "tabletop — фоайе"}[lang]
        page.wait_for_function(f"document.title === {title!r}", timeout=WAIT)
        pages = {"pl": "strony partii", "bg": "страници с партии"}[lang]
        assert page.locator("#pages").get_attribute("aria-label") == pages
        page.click("[data-create='ctverak']")
        page.wait_for_selector("#opt-deck", timeout=WAIT)
        assert page.locator("label[for='opt-deck']").inner_text() == deck
        assert page.locator("#opt-deck option").first.inner_text() == full
        assert page.locator("#opt-deck").input_value() == '"full"'  # the machine's value
        assert integer in page.locator("#opt-stall_limit-help").inner_text()
        seat = page.locator("#seat-1 option").all_inner_texts()
        assert any(random_level in text for text in seat), seat
        form = page.locator("#create").inner_text()
        for english in ("integer", "random legal", "stall limit", "discard rule", "playouts"):
            assert english not in form, (english, form)
        assert overflowing(page) == []
        page.locator("#create").screenshot(path=str(SHOTS / f"form-{lang}-{width}.png"))
        # a match of the example game (the generic board), listed by the game's name
        page.click("[data-create='connect4']")
        page.select_option("#seat-2", "1")
        page.click("#create-submit")
        page.wait_for_selector("[data-seat-link='1']", timeout=WAIT)
        page.wait_for_function(
            "[...document.querySelectorAll('#matches td')]"
            ".some((td) => td.textContent === 'Connect Four')",
            timeout=WAIT,
        )
        assert overflowing(page) == []
        page.screenshot(path=str(SHOTS / f"lobby-{lang}-{width}.png"), full_page=True)
        page.click("[data-seat-link='1']")
        page.wait_for_selector("#board dt", timeout=WAIT)
        fields = page.locator("#board dt").all_inner_texts()
        assert board in fields and to_act in fields, fields
        assert "to act" not in fields
        assert overflowing(page) == []
        page.screenshot(path=str(SHOTS / f"match-generic-{lang}-{width}.png"), full_page=True)
        # a built-in board: Quartino's wheel, stand and supply
        made = create(server)
        seats = made["seats"]
        assert isinstance(seats, list)
        page.goto(f"{server}match/{made['id']}?token={seats[0]['token']}")
        page.wait_for_selector(".qn-wheel", timeout=WAIT)
        page.wait_for_function("document.getElementById('prompt').textContent !== ''", timeout=WAIT)
        assert overflowing(page) == []
        page.screenshot(path=str(SHOTS / f"match-quartino-{lang}-{width}.png"), full_page=True)
    finally:
        page.context.close()


def test_the_clock_is_a_czech_number_on_a_czech_page(browser: Browser, server: str) -> None:
    """An hour to move: the seconds left grouped as Czech writes them (CLDR through the
    browser's Intl: "3 599", a no-break space), not "3599"."""
    body = {"game": "quarto", "players": 2, "options": {}, "move_time": 3600}
    request = urllib.request.Request(
        server + "api/matches",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with OPENER.open(request, timeout=30) as answer:
        made = json.load(answer)
    page = browser.new_context(locale="cs-CZ").new_page()
    other = browser.new_context(locale="cs-CZ").new_page()  # the clock runs once both came
    try:
        page.goto(f"{server}match/{made['id']}?token={made['seats'][0]['token']}")
        other.goto(f"{server}match/{made['id']}?token={made['seats'][1]['token']}")
        page.wait_for_function(
            "/\\b3\\u00a0[0-9]{3} s\\b/.test(document.getElementById('clock').textContent)",
            timeout=WAIT,
        )
    finally:
        page.context.close()
        other.context.close()
        other.context.close()
