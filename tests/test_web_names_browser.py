"""Names on the match page in a real headless Chromium (Debian's /usr/bin/chromium through
Playwright), acting only by clicking and typing what a person sees: the host creates a
Quarto match in the lobby with seat 2 open, opens seat 1, types a name and saves it; the
players list says "Alice (player 1, you)", seat 2 says it is open to anyone in the lobby;
a hostile name typed in another browser is refused or shown as text; a chat line of her
own is marked "you"; after a reload the name is still in the field and the list. Contrast,
width and axe at 1280 px and 390 px; screenshots in $TMPDIR/tabletop-names/.
"""

from __future__ import annotations

from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests import web_clicks
from tests.browser_support import WAIT, shots, wait_number
from tests.web_audit import Audit, low_contrast, sideways

SHOTS = shots("tabletop-names")
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}


def check(page: Page, audit: Audit, where: str) -> None:
    """Contrast, no sideways scroll, axe; and a screenshot of the whole page."""
    assert low_contrast(page) == [], where
    assert sideways(page) == 0, where
    assert audit.run(page, where) == [], where
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{where}.png"), full_page=True)


def save_name(page: Page, name: str, label: str = "Name shown at the table",
              button: str = "Save name") -> None:  # fmt: skip
    page.get_by_label(label).fill(name)
    page.get_by_role("button", name=button).click()


def test_a_name_typed_on_the_match_page_is_shown_marked_and_remembered(
    browser: Browser, server: str
) -> None:
    audit = Audit()
    desk = browser.new_context(viewport=DESKTOP)
    host = desk.new_page()
    host.goto(server)
    host.get_by_role("button", name="New match of Quarto").click()
    host.locator("#seat-2").select_option(label="open: the first to take it in the lobby")
    host.get_by_role("button", name="Create match").click()
    host.locator('[data-seat-link="1"]').click()
    wait_number(host, 0)
    seat_2 = host.locator('[data-presence="2"]')
    expect(seat_2).to_have_text("player 2: open, anyone may take this seat in the lobby",
                                timeout=WAIT)  # fmt: skip

    save_name(host, "  Alice ")
    expect(host.locator("#name-note")).to_have_text("Saved: the table calls you Alice.",
                                                    timeout=WAIT)  # fmt: skip
    expect(host.locator('[data-presence="1"]')).to_have_text("Alice (player 1, you): online")
    expect(host.locator("#me")).to_have_text("you are Alice (player 1)")
    save_name(host, "Player 2")  # a seat's label: refused, the name stays
    expect(host.locator("#name-note")).to_contain_text("how the page calls a seat", timeout=WAIT)
    expect(host.locator('[data-presence="1"]')).to_have_text("Alice (player 1, you): online")

    host.get_by_label("Message").fill("good luck")
    host.get_by_role("button", name="Say").click()
    line = host.locator("#chat li").last
    expect(line).to_contain_text("Alice", timeout=WAIT)
    assert line.locator(".badge.you").inner_text() == "you"
    assert "player 1" in line.inner_text() and line.inner_text().endswith(": good luck")
    web_clicks.click_action(host, "quarto", "give DTRH")
    wait_number(host, 1)
    given = "you: give the piece dark, tall, round, hollow"  # give DTRH, as people read it
    expect(host.locator("#log li").first).to_have_text(given)
    check(host, audit, "match-named-1280")

    host.reload()  # remembered by the browser, and by the server
    wait_number(host, 1)
    expect(host.get_by_label("Name shown at the table")).to_have_value("Alice")
    expect(host.locator('[data-presence="1"]')).to_have_text("Alice (player 1, you): online",
                                                             timeout=WAIT)  # fmt: skip
    watcher_url = host.url.split("?")[0]

    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    watcher = phone.new_page()  # a spectator, in another browser, reading Czech
    watcher.goto(watcher_url + "?lang=cs")
    wait_number(watcher, 1)
    expect(watcher.locator('[data-presence="1"]')).to_contain_text("Alice (hráč 1): ")
    expect(watcher.locator('[data-presence="2"]')).to_have_text(
        "hráč 2: volné, toto místo si může v lobby obsadit kdokoli"
    )
    # whose turn: the open seat's, waiting for someone to take it (not for "player 2")
    expect(watcher.locator("#status")).to_have_text(
        "Čeká se, až někdo v lobby obsadí volné místo: hráč 2"
    )
    logged = "Alice (hráč 1): dát kámen tmavý, vysoký, okrouhlý, s důlkem"  # in Czech words
    expect(watcher.locator("#log li").first).to_have_text(logged)
    chat = watcher.locator("#chat li").last
    expect(chat).to_contain_text("Alice hráč 1: good luck")
    assert chat.locator(".badge.you").count() == 0  # hers, not the watcher's
    czech = {"label": "Jméno, které u stolu uvidí ostatní", "button": "Uložit jméno"}
    save_name(watcher, "Hráč 2", **czech)  # a seat's label: refused, in Czech
    expect(watcher.locator("#name-note")).to_contain_text("tak stránka označuje místo",
                                                          timeout=WAIT)  # fmt: skip
    save_name(watcher, "<img src=x onerror=alert(1)>", **czech)  # 28 characters: refused
    expect(watcher.locator("#name-note")).to_contain_text("jméno má 1 až 24 znaků",
                                                          timeout=WAIT)  # fmt: skip
    save_name(watcher, "<b>Bo</b>", **czech)  # kept, and shown as the text it is
    expect(watcher.locator("#name-note")).to_have_text("Uloženo: u stolu se jmenujete <b>Bo</b>.",
                                                       timeout=WAIT)  # fmt: skip
    expect(watcher.locator("#me")).to_have_text("díváte se jako <b>Bo</b>")
    assert watcher.locator("#name-note b, #me b").count() == 0
    check(watcher, audit, "match-spectator-390")
    host.set_viewport_size(PHONE)
    check(host, audit, "match-named-390")
    for ctx in (desk, phone):
        ctx.close()
    audit.write(SHOTS / "axe-findings.json")
