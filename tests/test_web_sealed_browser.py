"""Sealed (simultaneous) steps and chance steps in a real headless Chromium (issue 35).

Debian's /usr/bin/chromium driven by Playwright against a real ``tabletop serve``
process, every choice made by clicking a visible button, every check on the text a
person sees:

- two people play a whole 3-card Goofspiel (desktop 1280 px and phone 390 px): the first
  to bid reads "Waiting for 1 of 2" and their own bid, the other reads that player 1 has
  chosen and never what; the first takes the bid back and bids another; once both are
  in, both logs show both bids;
- a person plays Pig against the computer: the die's rolls appear in the log as chance
  events, and the page never waits for anyone to roll.

Both match pages pass the axe-core audit (no serious or critical violation), WCAG AA
contrast and no sideways scroll; screenshots go to $TMPDIR/tabletop-sealed/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from tests.browser_support import WAIT, shots
from tests.web_audit import Audit, low_contrast, sideways

pytest.importorskip("tabletop_goofspiel")
pytest.importorskip("tabletop_pig")

SHOTS = shots("tabletop-sealed")
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}
OVER = re.compile("Game over")


@pytest.fixture(scope="module")
def audit() -> Iterator[Audit]:
    found = Audit()
    yield found
    found.write(SHOTS / "axe-findings.json")


def context(browser: Browser, phone: bool = False) -> BrowserContext:
    if phone:
        return browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True,
                                   has_touch=True)  # fmt: skip
    return browser.new_context(viewport=DESKTOP)


def check_page(page: Page, audit: Audit, where: str) -> None:
    """Contrast, width and axe on what ``page`` shows now, and its screenshot."""
    assert low_contrast(page) == [], where
    assert sideways(page) == 0, where
    assert audit.run(page, where) == [], where
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{where}.png"), full_page=True)


def create(page: Page, base: str, game_id: str, options: dict[str, str],
           computers: dict[int, str] | None = None) -> dict[str, str]:  # fmt: skip
    """Create a match in the lobby by clicking and typing; the seats' links shown."""
    page.goto(base)
    page.locator(f'[data-create="{game_id}"]').click()
    for name, value in options.items():
        field = page.locator(f'[data-option="{name}"]')
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    for seat, level in (computers or {}).items():
        page.locator(f'[data-seat="{seat}"]').select_option(level)
    page.locator("#create-submit").click()
    page.wait_for_selector("[data-seat-link]", timeout=WAIT)
    links = {
        link.get_attribute("data-seat-link") or "": link.get_attribute("href") or ""
        for link in page.locator("[data-seat-link]").all()
    }
    links["spectator"] = page.get_attribute("[data-spectator-link]", "href") or ""
    return links


def bid(page: Page, text: str) -> None:
    page.locator("#legal").get_by_role("button", name=text, exact=True).click()


def test_two_people_bid_sealed_in_goofspiel(browser: Browser, server: str, audit: Audit) -> None:
    desk, phone = context(browser), context(browser, phone=True)
    alice, bob, watcher = desk.new_page(), phone.new_page(), desk.new_page()
    links = create(alice, server, "goofspiel", {"num_cards": "3"})
    alice.goto(links["1"])
    bob.goto(links["2"])
    watcher.goto(links["spectator"] + "?lang=cs")  # a Czech spectator
    for page in (alice, bob):
        expect(page.locator("#status")).to_have_text("Your turn", timeout=WAIT)
        expect(page.locator("#sealed")).to_contain_text("Everyone chooses at once")
    bid(alice, "bid 2")
    expect(alice.locator("#status")).to_contain_text("Waiting for 1 of 2", timeout=WAIT)
    expect(alice.locator("#sealed")).to_contain_text("Your choice (only you see it): bid 2")
    expect(bob.locator("#sealed")).to_contain_text("Has chosen: player 1", timeout=WAIT)
    expect(bob.locator("#status")).to_have_text("Your turn")
    check_page(alice, audit, "goofspiel-bid-desktop")
    check_page(bob, audit, "goofspiel-choosing-phone")
    # what Bob reads: that player 1 has chosen, never what (his own buttons aside)
    for part in ("#status", "#sealed", "#log", "#undo-banner", "#error", "#presence"):
        assert "bid" not in bob.locator(part).inner_text(), part
    assert "Your choice" not in bob.locator("main").inner_text()
    expect(watcher.locator("#status")).to_have_text(
        "Čeká se na 1 z 2: ještě volí 1 hráč.", timeout=WAIT
    )  # the count in the spectator's language, its plural by CLDR
    expect(watcher.locator("#sealed")).to_have_text("Už zvolili: hráč 1")
    assert "bid" not in watcher.locator("#log").inner_text()
    # Alice takes her bid back and bids another; Bob still sees only that she chose
    alice.get_by_role("button", name="Take back my choice").click()
    expect(alice.locator("#undo-banner")).to_contain_text("Your choice is taken back")
    expect(alice.locator("#status")).to_have_text("Your turn")
    expect(bob.locator("#sealed")).not_to_contain_text("Has chosen", timeout=WAIT)
    bid(alice, "bid 3")
    expect(alice.locator("#sealed")).to_contain_text("Your choice (only you see it): bid 3")
    expect(bob.locator("#sealed")).to_contain_text("Has chosen: player 1", timeout=WAIT)
    assert "bid" not in bob.locator("#log").inner_text()
    bid(bob, "bid 1")
    # the round is whole: both bids are told to both, in the log
    expect(alice.locator("#log")).to_contain_text("you: bid 3", timeout=WAIT)
    expect(alice.locator("#log")).to_contain_text("player 2: bid 1")
    expect(bob.locator("#log")).to_contain_text("player 1: bid 3", timeout=WAIT)
    expect(bob.locator("#log")).to_contain_text("you: bid 1")
    expect(bob.locator("#log")).to_contain_text("chance: deal")  # the next prize, drawn
    # the other rounds: whoever reads "Your turn" clicks their first card, to the end
    while OVER.search(alice.locator("#status").inner_text()) is None:
        for page in (bob, alice):
            expect(page.locator("#status")).to_have_text(
                re.compile("Your turn|Waiting for|Game over"), timeout=WAIT
            )
            if page.locator("#status").inner_text() == "Your turn":
                page.locator("#legal button").first.click()
                expect(page.locator("#status")).not_to_have_text("Your turn", timeout=WAIT)
        expect(alice.locator("#status")).not_to_contain_text("Waiting for", timeout=WAIT)
    expect(bob.locator("#status")).to_contain_text("Game over", timeout=WAIT)
    assert alice.locator("#sealed").is_hidden()
    check_page(alice, audit, "goofspiel-end-desktop")
    check_page(bob, audit, "goofspiel-end-phone")
    desk.close()
    phone.close()


def test_pig_rolls_appear_in_the_log(browser: Browser, server: str, audit: Audit) -> None:
    desk, phone = context(browser), context(browser, phone=True)
    page = desk.new_page()
    # 50 to win: four rolls (at most 24) and holds cannot end it before the computer rolls
    links = create(page, server, "pig", {"winscore": "50"}, {2: "3"})
    page.goto(links["1"])
    status, log = page.locator("#status"), page.locator("#log")
    expect(status).to_have_text("Your turn", timeout=WAIT)
    rolled = 0
    while rolled < 4 and OVER.search(status.inner_text()) is None:
        page.locator("#legal").get_by_role("button", name="roll", exact=True).click()
        rolled += 1
        # the die is rolled by the server at once: nobody is waited for at a chance step
        # (after a 1 the computer's own rolls may follow within milliseconds: at least)
        expect(log.locator("[data-chance]").nth(rolled - 1)).to_be_visible(timeout=WAIT)
        expect(status).to_have_text(re.compile("Your turn|Waiting for|Game over"))
        if status.inner_text() != "Your turn":
            break  # a 1: the turn passed to the computer (or the game ended)
    entries = log.inner_text()
    assert re.search(r"you: roll", entries), entries
    assert re.search(r"chance: die [1-6]", entries), entries
    # the computer plays its turns, its rolls told as chance events too: we hold (or
    # roll once) each turn until it has rolled
    for _turn in range(10):
        if "player 2: roll" in log.inner_text() or OVER.search(status.inner_text()):
            break
        if status.inner_text() == "Your turn":
            shown = log.locator("li").count()
            page.locator("#legal").get_by_role("button", name="hold", exact=True).click()
            expect(log.locator("li")).not_to_have_count(shown, timeout=WAIT)
        expect(status).to_have_text(re.compile("Your turn|Game over"), timeout=WAIT)
    expect(log).to_contain_text("player 2: roll", timeout=WAIT)
    assert len(re.findall(r"chance: die", log.inner_text())) > rolled
    check_page(page, audit, "pig-desktop")
    other = phone.new_page()
    other.goto(links["1"])
    expect(other.locator("#log")).to_contain_text("chance: die", timeout=WAIT)
    check_page(other, audit, "pig-phone")
    desk.close()
    phone.close()
