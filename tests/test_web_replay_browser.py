"""The replay page as people meet it (issue 37, item 3), in Debian's Chromium against a
real `tabletop serve`: a Quarto match played by clicking its board, then a player follows
the match page's "Replay move by move" link and steps through the game with the buttons
and the keys; in English on a desktop and in Czech on a phone, with axe-core, contrast
and no sideways scroll. Screenshots go to $TMPDIR/tabletop-replay/."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests import web_clicks
from tests.browser_support import WAIT, create_match, served, shots, wait_number
from tests.web_audit import Audit, low_contrast, sideways

SHOTS = shots("tabletop-replay")
MOVES = [(1, "give DTRH"), (2, "place a1"), (2, "give LSRF"), (1, "place b2")]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(tmp_path_factory.mktemp("replay") / "m.sqlite3") as base:
        yield base


def check(page: Page, where: str) -> None:
    audit = Audit()
    assert low_contrast(page) == [], where
    assert sideways(page) == 0, where
    assert audit.run(page, where) == [], where
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{where}.png"), full_page=True)


def played_match(browser: Browser, base: str) -> dict[str, str]:
    """A Quarto match with the four MOVES played by clicking the two players' boards."""
    host = browser.new_page()
    links = create_match(host, base, "quarto", {})
    one, two = browser.new_page(), browser.new_page()
    one.goto(links["1"])
    two.goto(links["2"])
    for number, (player, text) in enumerate(MOVES):
        page = one if player == 1 else two
        wait_number(page, number)
        web_clicks.click_action(page, "quarto", text)
    wait_number(one, len(MOVES))
    one.close()
    two.close()
    host.close()
    return links


def test_a_player_steps_through_the_game_by_clicks_and_keys(browser: Browser, server: str) -> None:
    links = played_match(browser, server)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(links["1"])
    wait_number(page, len(MOVES))
    page.get_by_role("link", name="Replay move by move").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Replay: Quarto", timeout=WAIT)
    where = page.locator("#where")
    expect(where).to_have_text("position 0 of 4")
    expect(page.locator("#played")).to_have_text("The start of the game.")
    expect(page.get_by_role("button", name="Previous")).to_be_disabled()
    page.get_by_role("button", name="Next").click()
    expect(where).to_have_text("position 1 of 4")
    expect(page.locator("#played")).to_have_text(
        "Player 1: give the piece dark, tall, round, hollow"
    )
    page.keyboard.press("ArrowRight")
    expect(where).to_have_text("position 2 of 4")
    expect(page.locator("#played")).to_have_text("Player 2: place it on a1")
    page.keyboard.press("End")
    expect(where).to_have_text("position 4 of 4")
    expect(page.get_by_role("button", name="Next")).to_be_disabled()
    check(page, "replay-desktop-end")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#played")).to_have_text(
        "Player 2: give the piece light, short, round, solid"
    )
    page.get_by_role("button", name="First").click()
    expect(where).to_have_text("position 0 of 4")
    page.get_by_role("link", name="Back to the match").click()
    wait_number(page, len(MOVES))
    page.close()


def test_the_replay_speaks_czech_on_a_phone(browser: Browser, server: str) -> None:
    links = played_match(browser, server)
    czech = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                has_touch=True, locale="cs-CZ")  # fmt: skip
    page = czech.new_page()
    page.goto(links["2"])
    wait_number(page, len(MOVES))
    page.get_by_role("link", name="Přehrát tah po tahu").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Přehrání: Quarto", timeout=WAIT)
    page.get_by_role("button", name="Další").click()
    expect(page.locator("#where")).to_have_text("pozice 1 z 4")
    expect(page.locator("#played")).to_have_text(
        "Hráč 1: dát kámen tmavý, vysoký, okrouhlý, s důlkem"
    )
    text = page.locator("main").inner_text()
    for english in ("Previous", "Next", "position", "Player", "Keys", "give"):
        assert english not in text, (english, text)
    check(page, "replay-phone-cs")
    czech.close()
