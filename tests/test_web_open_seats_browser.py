"""Open seats in a real headless Chromium (Debian's /usr/bin/chromium through Playwright),
acting only by clicking what a person sees: the host creates a Quarto match with seat 2
open from the lobby's form, copies a link with its "Copy link" button (the clipboard read
back), a stranger in another browser clicks "Take seat 2" in the lobby and lands on the
match page as player 2, whose turn it is after the host's give; the button is gone for
everyone then, and the host page copies the taken seat's link. On a page served over
plain http (no secure context, no navigator.clipboard) the button still copies.
Contrast, width and axe on the lobby with the new buttons at 1280 px and 390 px and on
the host page; screenshots in $TMPDIR/tabletop-open-seats/.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize

from tests import web_clicks
from tests.browser_support import ARGS, CHROMIUM, WAIT, served, shots, wait_number
from tests.web_audit import Audit, low_contrast, sideways

SHOTS = shots("tabletop-open-seats")
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}
CLIPBOARD = ["clipboard-read", "clipboard-write"]


def context(browser: Browser, viewport: ViewportSize) -> BrowserContext:
    phone = viewport["width"] < 600
    return browser.new_context(viewport=viewport, permissions=CLIPBOARD, is_mobile=phone,
                               has_touch=phone)  # fmt: skip


def check(page: Page, audit: Audit, where: str) -> None:
    """Contrast, no sideways scroll, axe; and a screenshot of the whole page."""
    assert low_contrast(page) == [], where
    assert sideways(page) == 0, where
    assert audit.run(page, where) == [], where
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{where}.png"), full_page=True)


def clipboard(page: Page) -> str:
    text: str = page.evaluate("() => navigator.clipboard.readText()")
    return text


def test_a_stranger_takes_the_open_seat_from_the_lobby(browser: Browser, server: str) -> None:
    audit = Audit()
    hosts, strangers = context(browser, DESKTOP), context(browser, PHONE)
    host = hosts.new_page()
    host.goto(server)
    host.get_by_role("button", name="New match of Quarto").click()
    host.locator("#seat-2").select_option(label="open: the first to take it in the lobby")
    host.get_by_role("button", name="Create match").click()
    opened = host.locator('[data-open-seat="2"]')
    opened.wait_for(timeout=WAIT)
    assert "first person to take it" in opened.inner_text()
    assert host.locator('[data-seat-link="2"]').count() == 0  # no link for an open seat
    seat_1 = host.get_attribute('[data-seat-link="1"]', "href") or ""
    match_id = re.search(r"/match/([^?]+)\?", seat_1)[1]  # type: ignore[index]

    host.get_by_role("button", name="Copy link: Seat 1").click()
    host.locator("#created .copied", has_text="Copied").wait_for(timeout=WAIT)
    assert clipboard(host) == seat_1
    host.get_by_role("button", name="Copy link: Host page").click()
    assert clipboard(host) == host.get_attribute("[data-host-link]", "href")
    take_2 = host.get_by_role("button", name=f"Take seat 2, Quarto {match_id}")
    take_2.wait_for(timeout=WAIT)  # the host's own lobby offers it too
    check(host, audit, "lobby-created-1280")

    stranger = strangers.new_page()
    stranger.goto(server)
    button = stranger.get_by_role("button", name=f"Take seat 2, Quarto {match_id}")
    button.wait_for(timeout=WAIT)
    assert button.inner_text() == "Take seat 2"
    check(stranger, audit, "lobby-open-seat-390")
    button.click()
    stranger.wait_for_url(re.compile(rf"/match/{match_id}\?token="), timeout=WAIT)
    stranger.locator("#me", has_text="you are player 2").wait_for(timeout=WAIT)
    taken = stranger.url

    host.locator('[data-seat-link="1"]').click()  # the host sits down and gives a piece
    wait_number(host, 0)
    web_clicks.click_action(host, "quarto", "give DTRH")
    wait_number(stranger, 1)
    assert stranger.inner_text("#status") == "Your turn"

    late = hosts.new_page()  # the lobby now: nothing left to take
    late.goto(server)
    late.locator(f'[data-match="{match_id}"]').wait_for(timeout=WAIT)
    assert late.locator("[data-take]").count() == 0
    # the host page, from "Your matches": the taken seat's link, copied with its button
    late.get_by_role("link", name=f"open Quarto {match_id}, Host page").click()
    late.locator('[data-seat-link="2"]').wait_for(timeout=WAIT)
    assert late.get_attribute('[data-seat-link="2"]', "href") == taken
    late.get_by_role("button", name="Copy link: Seat 2").click()
    late.locator(".copied", has_text="Copied").first.wait_for(timeout=WAIT)
    assert clipboard(late) == taken
    check(late, audit, "host-page-1280")
    for ctx in (hosts, strangers):
        ctx.close()
    audit.write(SHOTS / "axe-findings.json")


def test_copy_link_on_a_page_served_over_plain_http(browser: Browser, tmp_path: Path) -> None:
    """A server reached by name over plain http (a club's machine on the LAN) is no secure
    context, so the page has no navigator.clipboard: the button copies the older way."""
    name = "tabletop.test"
    with served(tmp_path / "m.sqlite3", "--allowed-host", name) as base:
        port = base.rstrip("/").rpartition(":")[2]
        mapped = browser.browser_type.launch(  # the same Chromium, the name on loopback
            executable_path=CHROMIUM, args=[*ARGS, f"--host-resolver-rules=MAP {name} 127.0.0.1"]
        )
        try:
            ctx = mapped.new_context(viewport=DESKTOP, permissions=CLIPBOARD)
            page = ctx.new_page()
            page.goto(f"http://{name}:{port}/")
            assert page.evaluate("() => window.isSecureContext") is False
            page.get_by_role("button", name="New match of Quarto").click()
            page.get_by_role("button", name="Create match").click()
            page.get_by_role("button", name="Copy link: Spectators").click()
            page.locator("#created .copied", has_text="Copied").wait_for(timeout=WAIT)
            spectators = page.get_attribute("[data-spectator-link]", "href")
            assert spectators and spectators.startswith(f"http://{name}:{port}/match/")
            reader = ctx.new_page()  # a secure page of the same browser reads it back
            reader.goto(base)
            assert clipboard(reader) == spectators
        finally:
            mapped.close()
