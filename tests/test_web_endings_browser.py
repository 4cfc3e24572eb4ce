"""Resigning and draws in a real headless Chromium (Debian's), by clicking visible buttons
only: a draw offered, declined, offered again and accepted; a resignation asked once more,
then shown to both players, and still shown after the server restarts; a computer seat
declining. Every page passes the axe-core audit, WCAG AA contrast and no sideways scroll,
at 1280 and at 390 pixels wide; screenshots go to $TMPDIR/tabletop-endings/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests import web_clicks
from tests.browser_support import WAIT, served, shots, wait_number
from tests.test_web_sealed_browser import context, create
from tests.web_audit import Audit, low_contrast, sideways

SHOTS = shots("tabletop-endings")


@pytest.fixture(scope="module")
def audit() -> Iterator[Audit]:
    found = Audit()
    yield found
    found.write(SHOTS / "axe-findings.json")


def check_page(page: Page, audit: Audit, where: str) -> None:
    """Contrast, width and axe on what ``page`` shows now, and its screenshot."""
    assert low_contrast(page) == [], where
    assert sideways(page) == 0, where
    assert audit.run(page, where) == [], where
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{where}.png"), full_page=True)


def click(page: Page, selector: str) -> None:
    """Click ``selector`` once it is visible (a person clicks only what they see)."""
    button = page.locator(selector)
    expect(button).to_be_visible(timeout=WAIT)
    button.click()


def test_a_draw_offered_declined_then_accepted(browser: Browser, server: str, audit: Audit) -> None:
    desk, phone = context(browser), context(browser, phone=True)
    alice, bob = desk.new_page(), phone.new_page()
    links = create(alice, server, "quarto", {})
    alice.goto(links["1"])
    bob.goto(links["2"])
    wait_number(alice, 0)
    web_clicks.click_action(alice, "quarto", "give DTRH")  # on the board
    wait_number(bob, 1)
    click(bob, "#offer-draw")
    expect(alice.locator("#draw-banner")).to_contain_text("Player 2 offers a draw.", timeout=WAIT)
    expect(bob.locator("#draw-banner")).to_contain_text("You offered a draw. Waiting for player 1.")
    expect(bob.locator("#offer-draw")).to_be_hidden()  # one offer at a time
    expect(bob.locator("[data-draw-answer]")).to_have_count(0)  # the offerer does not answer
    check_page(alice, audit, "draw-offered-desktop")
    check_page(bob, audit, "draw-offered-phone")
    click(alice, '[data-draw-answer="false"]')
    expect(bob.locator("#draw-banner")).to_contain_text(
        "No draw: player 1 declines the draw; play on.", timeout=WAIT
    )
    web_clicks.click_action(bob, "quarto", "place a1")  # the game goes on
    wait_number(alice, 2)
    wait_number(bob, 2)
    click(bob, "#offer-draw")  # the offerer acted since: may offer again
    click(alice, '[data-draw-answer="true"]')
    for page in (alice, bob):
        expect(page.locator("#status")).to_have_text("Game over: a draw", timeout=WAIT)
        expect(page.locator("#status")).to_have_attribute("data-end", "agreed-draw")
        expect(page.locator("#reason")).to_have_text("Why: the players agreed to a draw")
        expect(page.locator("#act-box")).to_be_hidden()
    check_page(bob, audit, "draw-agreed-phone")
    desk.close()
    phone.close()


def test_resign_asks_once_more_and_the_end_survives_a_restart(
    browser: Browser, tmp_path: Path, audit: Audit
) -> None:
    db = tmp_path / "m.sqlite3"
    desk, phone = context(browser), context(browser, phone=True)
    alice, bob = desk.new_page(), phone.new_page()
    with served(db) as base:
        links = create(alice, base, "quarto", {})
        alice.goto(links["1"])
        bob.goto(links["2"])
        wait_number(alice, 0)
        click(alice, "#resign")
        expect(alice.locator("#resign-ask")).to_contain_text("Really resign? The others win.")
        check_page(alice, audit, "resign-asked-desktop")
        click(bob, "#resign")
        check_page(bob, audit, "resign-asked-phone")
        click(bob, "#resign-no")  # thought better of it: nothing sent
        expect(bob.locator("#resign")).to_be_visible()
        click(alice, "#resign-yes")
        expect(bob.locator("#status")).to_have_text("Game over: you won", timeout=WAIT)
        expect(alice.locator("#status")).to_have_text("Game over: player 2 won", timeout=WAIT)
        for page in (alice, bob):
            expect(page.locator("#reason")).to_have_text("Why: player 1 resigned")
            expect(page.locator("#status")).to_have_attribute("data-end", "resigned")
        check_page(bob, audit, "resigned-phone")
    with served(db) as base:  # a restart: the stored end is shown again
        again = desk.new_page()
        again.goto(base + links["2"].split("/", 3)[3])
        expect(again.locator("#status")).to_have_text("Game over: you won", timeout=WAIT)
        expect(again.locator("#reason")).to_have_text("Why: player 1 resigned")
    desk.close()
    phone.close()


def test_the_computer_declines_a_draw(browser: Browser, server: str) -> None:
    desk = context(browser)
    page = desk.new_page()
    links = create(page, server, "connect4", {}, computers={2: "1"})
    page.goto(links["1"])
    wait_number(page, 0)
    click(page, "#offer-draw")
    expect(page.locator("#draw-banner")).to_contain_text(
        re.compile("No draw: player 2 \\(computer\\) declines the draw; play on"), timeout=WAIT
    )
    expect(page.locator("#status")).to_have_text("Your turn")
    desk.close()
