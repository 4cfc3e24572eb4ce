"""The match page as people meet it, in a real headless Chromium (Debian's /usr/bin/chromium
through Playwright) against a real `tabletop serve` process: the tests act only as a person
can (click or press keys on visible, enabled elements, follow links by clicking them) and
read what is on the screen.

For each built-in game and the generic board (Connect Four, a plugin with no board): a whole
game between two browser contexts, one of them phone-sized (390×844), a spectator reading
the log, some turns played with the keyboard alone, and a rematch by clicking its link; on
every page at the start, mid-game and at the end: WCAG AA contrast of every control's text,
no sideways scroll, and an axe-core audit with no serious or critical violation. Also: the
lobby's rules pages and plain option labels, table talk shown as text, the clock waiting for
the players, your-turn signals, the host page for a lost link, "your matches", a click while
the server is down. Screenshots go to $TMPDIR/tabletop-page/ (desktop 1280 and phone 390).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize

from tabletop.core.registry import registry
from tests import web_clicks
from tests.browser_support import WAIT, create_match, served, shots, wait_number
from tests.test_web_hidden import choose
from tests.web_audit import Audit, low_contrast, sideways
from tests.web_support import Client, free_port, start_process

SHOTS = shots("tabletop-page")
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One server for the module (its tests use matches of their own)."""
    with served(tmp_path_factory.mktemp("page") / "m.sqlite3") as base:
        yield base


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


def check_page(page: Page, audit: Audit, where: str, shot: bool = True) -> None:
    """Contrast, width and axe on what ``page`` shows now; a screenshot when ``shot``."""
    assert low_contrast(page) == [], where
    assert sideways(page) == 0, where
    assert audit.run(page, where) == [], where
    if shot:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{where}.png"), full_page=True)





def play(page: Page, game_id: str, text: str, keyboard: bool = False) -> None:
    if game_id in web_clicks.CLICKERS:
        web_clicks.click_action(page, game_id, text, keyboard=keyboard)
    else:
        target = page.locator(f'#legal [data-legal="{text}"]')
        if keyboard:
            web_clicks.press_to(target)
        else:
            target.click()


GAMES = [
    ("quarto", {}, 2),
    ("quartino", {}, 2),
    ("ctverak", {"deck": '"half"'}, 2),
    ("connect4", {}, 2),
]


@pytest.mark.parametrize(("game_id", "options", "players"), GAMES)
def test_a_whole_game_on_a_desktop_and_a_phone_by_mouse_and_keys_then_a_rematch_by_its_link(
    browser: Browser, server: str, audit: Audit, game_id: str, options: dict[str, str],
    players: int,
) -> None:  # fmt: skip
    contexts = [context(browser), context(browser, phone=True), context(browser)]
    alice, bob, watcher = (c.new_page() for c in contexts)
    links = create_match(alice, server, game_id, options)
    alice.locator('[data-seat-link="1"]').click()  # the host follows their own link
    bob.goto(links["2"])
    watcher.goto(links["spectator"])
    seat_page = {1: alice, 2: bob}
    match_id = links["1"].split("/match/")[1].split("?")[0]
    eyes = {s: Client(server, match_id, links[str(s)].split("token=")[1]) for s in (1, 2)}
    game = registry().get(game_id)
    model = game.info.options(**{k: v.strip('"') for k, v in options.items()})
    rng = random.Random(11)
    number, keyed, middle, first = 0, 0, False, None
    while True:
        position: dict[str, Any] = eyes[1].at(number)
        eyes[2].at(number)
        number = position["number"]
        first = number if first is None else first  # after the deal's chance steps
        for page in (alice, bob):  # the spectators are told at most once a second: at the end
            wait_number(page, number)
        if number == first:
            check_page(alice, audit, f"{game_id}-start-desktop")
            check_page(bob, audit, f"{game_id}-start-phone")
            board = bob.locator(".board-box").bounding_box()
            controls = bob.locator("#act-box").bounding_box()
            assert board and controls and board["width"] <= PHONE["width"]
            below = controls["y"] - (board["y"] + board["height"])
            assert 0 <= below < 40  # the phone's controls follow the board, the panel after
        if position["status"] == "over":
            break
        seat = position["to_act"]
        page = seat_page[seat]
        assert page.inner_text("#status") == "Your turn"
        assert page.title().startswith("● Your turn")
        assert not seat_page[3 - seat].title().startswith("● Your turn")
        if not middle and number >= first + 6:
            middle = True
            wait_number(watcher, number)
            check_page(alice, audit, f"{game_id}-mid-desktop")
            check_page(bob, audit, f"{game_id}-mid-phone")
            check_page(watcher, audit, f"{game_id}-mid-spectator", shot=False)
        if game_id == "connect4":  # random clicks on the page's legal actions
            text = rng.choice(eyes[seat].position["legal"])
        else:
            text = choose(game, eyes[seat].position, seat, players, model, rng, set(), wild=0)
        keyboard = keyed < 4 and seat == 1
        keyed += keyboard
        play(page, game_id, text, keyboard=keyboard)
        number += 1
    assert keyed == 4 and middle
    wait_number(watcher, number)
    # the end: the result once, no action controls, the whole final position
    for page in (alice, bob, watcher):
        assert page.inner_text("#status").startswith("Game over")
        assert page.locator("#result").is_visible()
        assert not page.locator("#act-box").is_visible()
        assert page.locator("#result #reason").count() == (1 if position["reason"] else 0)
    final = eyes[1].position["view"]
    if game_id == "quartino":
        assert set(final["stands"]) == {"1", "2"}  # every stand, for every player
    if game_id == "ctverak":
        assert set(final["hands"]) == {"1", "2"} and final["bases"]
    # the spectator's log: every action, numbered, texts where they follow from the board
    entries = watcher.locator("#log li")
    assert entries.count() == number
    shown = entries.all_inner_texts()
    assert shown[first].startswith("player ")  # the first person's action, after the deal
    assert all(line.startswith("chance: ") for line in shown[:first])
    assert "played" not in " ".join(shown)  # an untold text is said as the game says it
    if game_id not in ("quarto", "connect4"):  # a card dealt to a seat, to the spectator
        assert any(line.endswith("was dealt a card") for line in shown[:first])
    check_page(alice, audit, f"{game_id}-end-desktop")
    check_page(bob, audit, f"{game_id}-end-phone")
    # the rematch, by clicking the button and then the link it shows
    alice.locator("#rematch").click()
    alice.locator("#rematch-url").click()
    alice.wait_for_url("**/match/*?token=*", timeout=WAIT)
    assert match_id not in alice.url and alice.url.startswith(server)
    alice.wait_for_selector("#status[data-number]", timeout=WAIT)
    assert alice.inner_text("#me") == "you are player 2"  # seats rotated
    # the spectator is offered to watch the rematch (not a seat), by the watchers' link
    offered = watcher.locator("#rematch-url")
    offered.wait_for(timeout=WAIT)
    assert offered.inner_text() == "Rematch: watch it"
    offered.click()
    watcher.wait_for_selector("#status[data-number]", timeout=WAIT)
    assert "token=" not in watcher.url and watcher.inner_text("#me") == "you are watching"
    for client in eyes.values():
        client.close()
    for c in contexts:
        c.close()


def test_the_checks_can_fail(browser: Browser, audit: Audit) -> None:
    """The contrast, width and axe checks find what they look for."""
    page = context(browser).new_page()
    page.set_content('<html lang="en"><title>t</title><body style="background:#fff">'
                     '<button style="color:#fff;background:#fff">End turn</button>'
                     '<img src="x.png"><div style="width:2000px">wide</div>')  # fmt: skip
    assert [f["name"] for f in low_contrast(page)] == ["End turn"]
    assert sideways(page) > 0
    assert {f["id"] for f in audit.run(page, "deliberately-bad")} >= {"image-alt"}
    audit.findings = [f for f in audit.findings if f["where"] != "deliberately-bad"]
    page.context.close()


def test_the_lobby_links_the_rules_and_labels_options_in_plain_words(
    browser: Browser, server: str, audit: Audit
) -> None:
    for phone in (False, True):
        ctx = context(browser, phone)
        page = ctx.new_page()
        page.goto(server)
        page.wait_for_selector('[data-create="ctverak"]', timeout=WAIT)
        page.locator('[data-create="ctverak"]').click()
        form = page.inner_text("#create-form")
        assert "[decision]" not in form and "[our addition]" not in form
        assert "rule K3.3" in form  # the rule ID as a small reference
        assert "K3.3:" not in form
        check_page(page, audit, f"lobby-{'phone' if phone else 'desktop'}")
        page.locator('[data-rules-link="quarto"]').click()
        page.wait_for_selector('[data-rules="quarto"]', timeout=WAIT)
        assert "Q4.2" in page.inner_text("main")
        check_page(page, audit, f"rules-{'phone' if phone else 'desktop'}")
        ctx.close()


def test_table_talk_is_text_only_and_spectators_read_it(browser: Browser, server: str) -> None:
    ctx = [context(browser) for _ in range(3)]
    alice, bob, watcher = (c.new_page() for c in ctx)
    links = create_match(alice, server, "quarto", {})
    alice.goto(links["1"])
    bob.goto(links["2"])
    watcher.goto(links["spectator"])
    wait_number(watcher, 0)
    assert not watcher.locator("#chat-text").is_visible()  # read-only for spectators
    assert "only the players write" in watcher.inner_text("#chat-note")
    said = '<b>bold</b><img src=x onerror="window.pwned=1"><script>window.pwned=2</script>'
    alice.locator("#chat-text").fill(said)
    alice.locator("#chat-text").press("Enter")
    for page in (bob, watcher):
        line = page.locator("#chat li").last
        line.wait_for(timeout=WAIT)
        assert said in line.inner_text() and "player 1:" in line.inner_text()
        assert page.locator("#chat b:text('bold'), #chat img, #chat script").count() == 0
        assert page.evaluate("window.pwned") is None
    bob.reload()  # stored with the match: there again after a reload
    bob.locator("#chat li").last.wait_for(timeout=WAIT)
    assert said in bob.inner_text("#chat")
    for c in ctx:
        c.close()


def test_the_clock_waits_for_every_person_and_the_host_page_gives_a_lost_link_again(
    browser: Browser, server: str
) -> None:
    ctx = [context(browser) for _ in range(2)]
    alice, bob = (c.new_page() for c in ctx)
    create_match(alice, server, "quarto", {}, move_time="5")
    alice.locator('[data-seat-link="1"]').click()
    wait_number(alice, 0)
    alice.wait_for_selector("#clock:has-text('starts once player 2 opened their link')")
    alice.wait_for_timeout(5_600)  # longer than the clock: nobody loses before sitting down
    assert alice.inner_text("#status") == "Your turn"
    # Bob lost his link; the host opens the host page from "your matches" and sends it again
    alice.goto(server)
    alice.locator('#my-matches a:has-text("open")').first.wait_for(timeout=WAIT)
    assert "Host page" in alice.inner_text("#my-matches")
    alice.locator('#my-matches tr:has-text("Host page") a').first.click()
    alice.wait_for_selector('[data-seat-link="2"]', timeout=WAIT)
    bob.goto(alice.get_attribute('[data-seat-link="2"]', "href") or "")
    wait_number(bob, 0)
    assert bob.inner_text("#me") == "you are player 2"
    alice.go_back()
    alice.go_back()
    alice.wait_for_selector("#clock:has-text('s left')", timeout=WAIT)
    for c in ctx:
        c.close()


def test_your_turn_signals_are_opt_in_and_remembered(browser: Browser, server: str) -> None:
    ctx = browser.new_context(viewport=DESKTOP, permissions=["notifications"])
    alice = ctx.new_page()
    other = context(browser)
    bob = other.new_page()
    links = create_match(alice, server, "quarto", {})
    alice.goto(links["1"])
    bob.goto(links["2"])
    wait_number(alice, 0)
    assert alice.get_attribute("#status", "aria-live") == "polite"
    assert alice.title().startswith("● Your turn") and not bob.title().startswith("●")
    alice.locator("#notify").check()
    alice.locator("#sound").check()
    alice.reload()
    wait_number(alice, 0)
    assert alice.locator("#notify").is_checked() and alice.locator("#sound").is_checked()
    # a double click plays once and leaves no stale error on the screen
    alice.locator('[data-piece="DTRH"]').dblclick()
    wait_number(alice, 1)
    alice.wait_for_timeout(500)
    assert alice.inner_text("#error") == ""
    assert not alice.title().startswith("●") and bob.title().startswith("● Your turn")
    # an undo asked twice: the second is refused, the wording says who
    alice.locator("#undo").click()
    bob.locator('[data-undo-answer="false"]').wait_for(timeout=WAIT)
    assert "Player 1 asks to take back 1 action." in bob.inner_text("#undo-banner")
    assert "You asked to take back" in alice.inner_text("#undo-banner")
    alice.locator("#undo").click()
    alice.wait_for_selector("#error:has-text('already waiting')", timeout=WAIT)
    agree = bob.locator('[data-undo-answer="true"]')
    decline = bob.locator('[data-undo-answer="false"]')
    looks = "e => getComputedStyle(e).backgroundColor + getComputedStyle(e).color"
    assert agree.evaluate(looks) != decline.evaluate(looks)
    decline.click()
    ctx.close()
    other.close()


def test_a_click_while_the_server_is_down_is_said_not_dropped(
    browser: Browser, tmp_path: Path
) -> None:
    port = free_port()
    db = tmp_path / "m.sqlite3"
    process = start_process(db, port)
    base = f"http://127.0.0.1:{port}/"
    ctx = context(browser)
    page = ctx.new_page()
    try:
        links = create_match(page, base, "quarto", {})
        page.goto(links["1"])
        wait_number(page, 0)
        process.kill()
        process.wait(30)
        page.wait_for_selector("#connection:has-text('Connection lost')", timeout=WAIT)
        page.locator('[data-piece="DTRH"]').click()
        assert "not sent" in page.inner_text("#error")
        assert "unknown" in page.inner_text("#presence")
        process = start_process(db, port)
        page.wait_for_selector("#connection", state="hidden", timeout=WAIT)
        wait_number(page, 0)
        page.locator('[data-piece="DTRH"]').click()
        wait_number(page, 1)
    finally:
        ctx.close()
        process.kill()
        process.wait(30)


def test_quartino_players_table_shows_your_own_cards_and_the_others_face_down(
    browser: Browser, server: str
) -> None:
    """The players table of Quartino's board: your own stand face up in your row (it was
    face down there, beside your stand drawn face up), the other player's face down."""
    page = context(browser).new_page()
    links = create_match(page, server, "quartino", {})
    page.locator('[data-seat-link="1"]').click()
    wait_number(page, 8)  # the deal: four cards each
    rows = page.locator(".qn-players tr")
    mine = rows.filter(has_text="(you)")
    assert mine.locator(".qn-card").count() == 4 and mine.locator(".qn-back").count() == 0
    theirs = rows.filter(has_not_text="(you)")
    assert theirs.locator(".qn-back").count() == 4 and theirs.locator(".qn-card").count() == 0
    assert links["2"]  # the other seat stays unopened: nothing of theirs is shown
