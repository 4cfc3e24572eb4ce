"""Quarto with the keyboard alone (issue 37, item 7), in Debian's Chromium against a real
`tabletop serve`: the pool and the free squares are one tab stop each, the arrow keys move
inside them, and the focus stays on the board while the computer plays, so a give and a
placement take a handful of keys (before: 2-23 Tabs for a give, the focus lost to the
page after it)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.browser_support import served, wait_number
from tests.test_web_hint_browser import create
from tests.web_audit import Audit


def test_a_give_and_a_placement_in_a_handful_of_keys(browser: Browser, tmp_path: Path) -> None:
    with served(tmp_path / "m.sqlite3") as base:
        page = browser.new_page()
        links = create(page, base, computer=True)
        page.goto(links["1"])
        wait_number(page, 0)
        pool = page.locator("[data-board=quarto] [data-piece]")
        tabs = 0
        while not pool.first.evaluate("node => node === document.activeElement"):
            page.keyboard.press("Tab")
            tabs += 1
            assert tabs <= 8, "the pool is not reached by a few Tabs"
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        expect(pool.nth(2)).to_be_focused()
        page.keyboard.press("Enter")
        wait_number(page, 3)  # the give, the computer's placement and its give
        board = page.locator("[data-board=quarto] .qt-legal[data-square]").first
        expect(board).to_be_focused()  # the turn comes back to where the keys are
        page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        wait_number(page, 4)
        assert tabs + 3 + 2 <= 12, tabs  # Tabs to the pool, two arrows and Enter; arrow, Enter
        assert Audit().run(page, "keys") == []
        page.close()


def test_a_quartino_placement_and_end_of_turn_in_a_few_keys(
    browser: Browser, tmp_path: Path
) -> None:
    """Tab to the supply, Enter picks a colour and takes the focus to the wheel, an arrow
    and Enter place; a few Tabs and Enter end the turn (29 key presses before)."""
    with served(tmp_path / "m.sqlite3") as base:
        page = browser.new_page()
        links = create(page, base, computer=True, game="quartino")
        page.goto(links["1"])
        board = page.locator("[data-board=quartino]")
        chips = board.locator("[data-colour].qn-legal")
        chips.first.wait_for(timeout=30_000)  # the deal drawn, player 1 to place
        keys = 0

        def press(key: str) -> None:
            nonlocal keys
            page.keyboard.press(key)
            keys += 1

        in_supply = "n => n.closest('.qn-supply').contains(document.activeElement)"
        while not chips.first.evaluate(in_supply):
            press("Tab")
            assert keys <= 10, "the supply is not reached by a few Tabs"
        press("Enter")
        expect(board.locator(".qn-wheel [data-field]:focus")).to_have_count(1)  # on the wheel
        press("ArrowRight")
        number = page.locator("#status").get_attribute("data-number")
        press("Enter")
        page.wait_for_selector(f'#status:not([data-number="{number}"])', timeout=30_000)
        end = board.get_by_role("button", name="End turn")
        while end.count() == 0:  # more placements owed: the same colour, the next field
            number = page.locator("#status").get_attribute("data-number")
            press("ArrowRight")
            press("Enter")
            page.wait_for_selector(f'#status:not([data-number="{number}"])', timeout=30_000)
            assert keys <= 30
        placed = keys
        while not end.evaluate("n => n === document.activeElement"):
            press("Tab")
            assert keys - placed <= 6, "End turn is not reached by a few Tabs"
        press("Enter")
        expect(end).to_have_count(0, timeout=30_000)
        assert keys <= 20, keys  # 9 here: 4 Tabs, Enter, arrow, Enter, a Tab, Enter
        page.close()
