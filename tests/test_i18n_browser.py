"""In a real headless Chromium (Debian's /usr/bin/chromium, driven by Playwright): one
Quartino match, seat 1 in a browser that sends ``Accept-Language: cs``, seat 2 in one that
sends ``pl``; each page and each prompt is in its own language, and the header's switcher
changes the language without losing the seat. Screenshots go to $TMPDIR/tabletop-i18n/."""

from __future__ import annotations

import json
import urllib.request

from playwright.sync_api import Browser

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


def test_two_friends_each_in_their_language_and_the_switcher_keeps_the_seat(
    browser: Browser, server: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    made = create(server)
    seats = made["seats"]
    assert isinstance(seats, list)
    czech = browser.new_context(locale="cs-CZ").new_page()
    polish = browser.new_context(locale="pl-PL").new_page()
    try:
        czech.goto(f"{server}match/{made['id']}?token={seats[0]['token']}")
        polish.goto(f"{server}match/{made['id']}?token={seats[1]['token']}")
        czech.wait_for_function(
            "document.getElementById('prompt').textContent.includes('položte figurku')",
            timeout=WAIT,
        )
        polish.wait_for_function(
            "document.getElementById('prompt').textContent.includes('połóż pionek')", timeout=WAIT
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
            "document.getElementById('prompt').textContent.includes('поставьте фишку')",
            timeout=WAIT,
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
    finally:
        czech.context.close()
        polish.context.close()
