"""Hints people can use (issue 37, item 5), in Debian's Chromium against a real
`tabletop serve` process, acting only by clicks: on a phone the hint wraps to the width
(no sideways scroll) and the hinted action is outlined on the board; the coach still
answers after the server is killed and started again on the same database, without a
reload; a match between people, which has no hints, shows no empty coach box."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.browser_support import WAIT, served, shots, wait_number
from tests.web_audit import Audit, low_contrast, sideways
from tests.web_support import free_port, start_process

SHOTS = shots("tabletop-hint")


def create(page: Page, base: str, computer: bool, game: str = "quarto") -> dict[str, str]:
    """A match of ``game`` made by clicking the lobby's form (seat 2 the computer's level 1
    when ``computer``); the links it shows."""
    page.goto(base)
    page.locator(f'[data-create="{game}"]').click()
    if computer:
        page.select_option("#seat-2", "1")
    page.locator("#create-submit").click()
    page.wait_for_selector("[data-seat-link]", timeout=WAIT)
    return {
        link.get_attribute("data-seat-link") or "": link.get_attribute("href") or ""
        for link in page.locator("[data-seat-link]").all()
    }


def test_a_hint_wraps_on_a_phone_marks_the_board_and_outlives_a_restart(
    browser: Browser, tmp_path: Path
) -> None:
    db, port = tmp_path / "m.sqlite3", free_port()
    base = f"http://127.0.0.1:{port}/"
    server = start_process(db, port)
    try:
        host = browser.new_page()
        links = create(host, base, computer=True)
        phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                    has_touch=True)  # fmt: skip
        page = phone.new_page()
        page.goto(links["1"])
        wait_number(page, 0)
        page.get_by_role("button", name="Hint").click()
        out = page.locator("#hint-text")
        expect(out).not_to_have_text("thinking…", timeout=WAIT)
        expect(out).not_to_be_empty()
        marked = page.locator("[data-board=quarto] .hinted")
        expect(marked.first).to_be_visible()
        assert sideways(page) == 0  # the hint's lines wrap (951 px wide before)
        assert low_contrast(page) == []
        assert Audit().run(page, "hint-phone") == []
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "hint-phone.png"), full_page=True)
        marked.first.click()  # the hinted give, played by clicking it
        wait_number(page, 3)  # the computer placed it and gave (the page may skip 2)
        server.kill()
        server.wait(30)
        server = start_process(db, port)  # the same database, the same port (listening)
        page.get_by_role("button", name="Hint").click()
        expect(out).not_to_have_text("thinking…", timeout=WAIT)
        expect(out).not_to_contain_text("cannot be reached", timeout=WAIT)
        expect(page.locator("[data-board=quarto] .hinted").first).to_be_visible(timeout=WAIT)
        phone.close()
        host.close()
    finally:
        server.kill()
        server.wait(30)


def test_no_empty_coach_box_between_people(browser: Browser, tmp_path: Path) -> None:
    with served(tmp_path / "m.sqlite3") as base:
        page = browser.new_page()
        links = create(page, base, computer=False)
        with page.expect_response(lambda answer: "/coach?" in answer.url, timeout=WAIT):
            page.goto(links["1"])  # the coach asks the server what it may offer
        wait_number(page, 0)
        page.wait_for_timeout(500)  # and has drawn what it would draw (nothing, here)
        assert page.locator("#coach").count() == 0
        expect(page.get_by_role("heading", name="Coach")).to_have_count(0)
        page.close()


def test_a_ctverak_hint_to_draw_is_outlined_on_the_board(browser: Browser, tmp_path: Path) -> None:
    """At Čtverák's refill step the hinted draw (the stock or a pile) is outlined where a
    click plays it (the board's data-act)."""
    with served(tmp_path / "m.sqlite3") as base:
        page = browser.new_page()
        links = create(page, base, computer=True, game="ctverak")
        page.goto(links["1"])
        board = page.locator("[data-board=ctverak]")
        first = page.locator('#legal [data-legal^="discard"]').first
        first.wait_for(state="attached", timeout=WAIT)
        if not first.is_visible():
            page.locator("#legal-title").click()  # open the list of legal actions
        first.click()  # the first turn has no refill (K4.1): a discard, by its button
        board.locator('[data-act="draw stock"]').wait_for(timeout=WAIT)  # player 1 to draw
        page.get_by_role("button", name="Hint").click()
        expect(page.locator("#hint-text")).not_to_have_text("thinking…", timeout=WAIT)
        expect(board.locator(".hinted").first).to_be_visible(timeout=WAIT)
        page.close()
