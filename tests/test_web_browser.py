"""End to end in a real headless Chromium (Debian's /usr/bin/chromium, driven by
Playwright; never a downloaded browser): for Quarto, Quartino and Čtverák, two people
open the lobby, one creates a match, each takes a seat by its link, they play a whole
game to its end by clicking, a spectator watches, and one player reloads mid-game and
carries on. A screenshot of every page at the end goes to $TMPDIR/tabletop-e2e/.

The choices are made by the games' basic agents on each seat's own view, read through a
second websocket of that seat; the clicks go through ``click_action``: the pieces, cards
and fields of the game's own board (``tests/web_clicks.py``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tabletop.core.registry import registry
from tests import web_clicks
from tests.browser_support import WAIT, create_match, shots, wait_number
from tests.test_web_hidden import choose
from tests.web_support import Client

SHOTS = shots("tabletop-e2e")


def click_action(page: Page, game_id: str, action: str) -> None:
    """Play ``action`` on ``page`` by clicking the game's own board (its pieces, cards and
    fields); a game without a board of its own by the shell's legal-action button."""
    if game_id in web_clicks.CLICKERS:
        web_clicks.click_action(page, game_id, action)
    else:
        page.locator(f'#legal [data-legal="{action}"]').click()


@pytest.mark.parametrize(
    ("game_id", "options"),
    [("quarto", {}), ("quartino", {}), ("ctverak", {"deck": '"half"'})],
)
def test_two_people_play_a_whole_game_in_the_browser(
    browser: Browser, server: str, game_id: str, options: dict[str, str]
) -> None:
    contexts = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in range(3)]
    pages = [c.new_page() for c in contexts]
    alice, bob, watcher = pages
    links = create_match(alice, server, game_id, options)
    bob.goto(server)  # Bob opens the lobby too, then his seat's link
    bob.wait_for_selector(f'[data-game="{game_id}"]', timeout=WAIT)
    alice.goto(links["1"])
    bob.goto(links["2"])
    watcher.goto(links["spectator"])
    seat_page = {1: alice, 2: bob}
    match_id = links["1"].split("/match/")[1].split("?")[0]
    tokens = {s: links[str(s)].split("token=")[1] for s in (1, 2)}
    eyes = {s: Client(server, match_id, tokens[s]) for s in (1, 2)}  # the agents' own view
    game = registry().get(game_id)
    model = game.info.options(**{k: v.strip('"') for k, v in options.items()})
    rng = random.Random(7)
    number, reloaded, first = 0, False, None
    while True:
        position: dict[str, Any] = eyes[1].at(number)
        eyes[2].at(number)
        number = position["number"]
        first = number if first is None else first  # after the deal's chance steps
        for page in (alice, bob):  # the spectator is told at most once a second: at the end
            wait_number(page, number)
        if position["status"] == "over":
            break
        seat = position["to_act"]
        assert seat_page[seat].inner_text("#status") == "Your turn"
        if number >= first + 4 and not reloaded:
            bob.reload()  # a reload brings back exactly the current position
            wait_number(bob, number)
            reloaded = True
        text = choose(game, eyes[seat].position, seat, 2, model, rng, set(), wild=0)
        click_action(seat_page[seat], game_id, text)
        number += 1
    assert reloaded
    wait_number(watcher, number)
    for page in pages:
        assert page.inner_text("#status").startswith("Game over")
        assert page.locator("#result").is_visible()
    assert alice.locator("#rematch").is_visible() and watcher.locator("#rematch").count() == 0
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name, page in zip(("seat1", "seat2", "spectator"), pages, strict=True):
        page.screenshot(path=str(SHOTS / f"{game_id}-{name}.png"), full_page=True)
    for client in eyes.values():
        client.close()
    for context in contexts:
        context.close()


def test_the_text_box_the_undo_by_agreement_and_a_refusal_in_the_browser(
    browser: Browser, server: str
) -> None:
    contexts = [browser.new_context() for _ in range(2)]
    alice, bob = (c.new_page() for c in contexts)
    links = create_match(alice, server, "quarto", {})
    alice.goto(links["1"])
    bob.goto(links["2"])
    wait_number(alice, 0)
    alice.fill("#action", "place a1")  # refused: a piece must be given first (the CLI's words)
    alice.press("#action", "Enter")
    alice.wait_for_selector("#error:has-text('allowed: give')", timeout=WAIT)
    alice.fill("#action", "give dtrh")  # the terminal's notation, any case
    alice.press("#action", "Enter")
    wait_number(bob, 1)
    assert bob.inner_text("#status") == "Your turn"
    assert "player 1: give the piece dark, tall, round, hollow" in bob.inner_text("#log")
    alice.locator("#undo").click()
    bob.locator('[data-undo-answer="true"]').click(timeout=WAIT)
    wait_number(alice, 0)
    wait_number(bob, 0)
    assert alice.inner_text("#status") == "Your turn"
    assert bob.locator('[data-presence="1"]').inner_text() == "player 1: online"
    for context in contexts:
        context.close()
