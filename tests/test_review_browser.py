"""The review page in a real headless Chromium (Debian's, through Playwright; issue 37,
item 7): a finished Quarto match between two people, the server restarted on its store,
seat 1's match page, the "Review the game" link clicked as a person would. The page has
its heading, a chart with axes and a text alternative (its numbers as a table), steps
through every action by its buttons and by the keyboard (the position after each action
on the game's board), passes axe-core with no violation at all and WCAG AA contrast, fits
a phone, and in Czech shows no English and writes percentages as Czech does. Screenshots
(1280 and 390 px wide) go to $TMPDIR/tabletop-review/."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser_support import CHROMIUM, chromium, served, shots
from tests.web_audit import Audit, low_contrast, sideways
from tests.web_support import Client, get, post

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="needs Debian's /usr/bin/chromium"
)
SHOTS = shots("tabletop-review")
REVIEWED = 180_000  # ms: the coach reviews every action of the game once (seconds each)


def finished_quarto(base: str) -> tuple[str, str]:
    """A Quarto match between two people, each playing its first legal action to the end
    over the websocket; its id and seat 1's token."""
    status, made = post(base, "/api/matches", {"game": "quarto"})
    assert status == 201, made
    tokens = [seat["token"] for seat in made["seats"]]
    clients = {n + 1: Client(base, made["id"], token) for n, token in enumerate(tokens)}
    try:
        position = clients[1].until(lambda m: m["type"] == "position")
        while position["status"] != "over":
            mover = clients[position["to_act"]]
            legal = mover.at(position["number"])["legal"]
            mover.act(legal[0])
            position = clients[1].at(position["number"] + 1)
    finally:
        for client in clients.values():
            client.close()
    return made["id"], tokens[0]


def shown(page: Any) -> str:
    return page.locator("#shown-title").text_content() or ""


def check_page(page: Any, audit: Audit, where: str) -> None:
    """axe-core finds nothing at all; contrast AA; nothing scrolls sideways."""
    audit.run(page, where)
    assert [f for f in audit.findings if f["where"] == where] == [], where
    assert low_contrast(page) == [], where
    assert sideways(page) == 0, where


def narrow(page: Any) -> None:
    """A phone's width; the chart redraws in its pixels on the next frame."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function(
        "Number(document.querySelector('#chart-box svg').getAttribute('width')) < 390"
    )


def open_review(page: Any, base: str, match_id: str, token: str) -> None:
    """Seat 1's match page, then the review link it shows once the game is over."""
    page.goto(f"{base}match/{match_id}?token={token}")
    page.wait_for_selector("#review-link:not([hidden])", timeout=30_000)
    page.click("#review-link")
    page.wait_for_selector("#shown-title[data-number]", timeout=REVIEWED)


def test_the_review_page_steps_through_every_action_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite3"
    with served(db) as base:
        match_id, token = finished_quarto(base)
    SHOTS.mkdir(parents=True, exist_ok=True)
    audit = Audit()
    with served(db) as base, chromium() as browser:  # a restarted server: the store's match
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        open_review(page, base, match_id, token)
        status, text = get(base, f"api/matches/{match_id}/review?token={token}")
        assert status == 200, text
        review = json.loads(text)
        actions = review["actions"]
        total = len(actions)
        assert total >= 8 and [a["number"] for a in actions] == list(range(1, total + 1))

        def title(a: dict[str, Any]) -> str:
            return f"Action {a['number']} of {total}: player {a['player']}, {a['said']}"

        assert page.locator("h1").text_content() == "Review: Quarto"
        assert page.locator("main").count() == 1 and page.locator("aside").count() == 1
        # the chart: a named group, described, with axes, ticks, and a point per action
        chart = page.locator("#chart-box svg")
        assert chart.get_attribute("aria-labelledby") == "chart-title"
        assert "win chance" in (page.locator("#chart-summary").text_content() or "")
        labels = page.locator("#chart-box .axis text").all_text_contents()
        assert {"0%", "50%", "100%", "action number", "win chance", "1", str(total)} <= set(labels)
        assert page.locator("#chart-box .point").count() == total
        assert page.locator('#chart-box .point[tabindex="0"]').count() == 1
        page.click("#chart-table >> xpath=ancestor::details/summary")
        assert page.locator("#chart-table tbody tr").count() == total

        # every action, by the buttons
        page.click("#first", force=True)  # (aria-disabled when it already shows action 1)
        assert shown(page) == title(actions[0])
        assert page.locator("#first").get_attribute("aria-disabled") == "true"
        page.click("#next")
        assert shown(page) == title(actions[1])
        placed = actions[1]["action"].split()[-1]  # "place a1": the board after it has a1
        assert actions[1]["action"].startswith("place ")
        assert page.locator(f'#board [data-square="{placed}"] svg').count() == 1
        page.click("#previous")
        assert shown(page) == title(actions[0])
        assert page.locator(f'#board [data-square="{placed}"] svg').count() == 0
        verdict = page.locator("#shown-verdict").text_content() or ""
        assert verdict.startswith(f"{actions[0]['verdict']}: win chance "), verdict
        for number in range(2, total + 1):
            page.click("#next")
            assert shown(page) == title(actions[number - 1])
            assert page.locator('#board [data-board="quarto"]').count() == 1  # it drew
        assert page.locator("#next").get_attribute("aria-disabled") == "true"
        page.click("#next", force=True)  # at the end: stays
        assert shown(page) == title(actions[-1])

        # ... and by the keyboard in the review area
        page.focus("#step")
        page.keyboard.press("Home")
        assert shown(page) == title(actions[0])
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        assert shown(page) == title(actions[2])
        page.keyboard.press("ArrowLeft")
        assert shown(page) == title(actions[1])
        page.keyboard.press("End")
        assert shown(page) == title(actions[-1])
        # a chart point: focusable, Enter shows it, the arrows move the focus along
        page.focus('#chart-box .point[data-point="3"]')
        page.keyboard.press("Enter")
        assert shown(page) == title(actions[2])
        page.keyboard.press("ArrowRight")
        assert shown(page) == title(actions[3])
        focused = page.evaluate("document.activeElement.getAttribute('data-point')")
        assert focused == "4"

        check_page(page, audit, "review en 1280")
        page.screenshot(path=str(SHOTS / "review-en-1280.png"), full_page=True)
        narrow(page)
        check_page(page, audit, "review en 390")
        page.screenshot(path=str(SHOTS / "review-en-390.png"), full_page=True)

        czech_review(browser, base, match_id, token, review, audit)
    audit.write(SHOTS / "axe.json")


ENGLISH = ("Review", "review", "Accuracy", "accuracy", "Mistakes", "Next", "Previous", "First",
           "Last", "player", "Player", "Action", "action", "win chance", "chance", "best",
           "reviewing", "mistake", "blunder", "inaccurac", "Arrow keys", "position")  # fmt: skip


def czech_review(browser: Any, base: str, match_id: str, token: str, review: Any,
                 audit: Audit) -> None:  # fmt: skip
    context = browser.new_context(
        locale="cs-CZ", extra_http_headers={"Accept-Language": "cs"},
        viewport={"width": 1280, "height": 900},
    )  # fmt: skip
    page = context.new_page()
    try:
        open_review(page, base, match_id, token)
        actions = review["actions"]
        total = len(actions)
        assert page.locator("h1").text_content() == "Rozbor: Quarto"
        page.click("#first", force=True)
        first = actions[0]
        # the give in Czech words ("dát kámen světlý, …"), not its notation
        assert shown(page).startswith(f"Krok 1 z {total}: hráč {first['player']}, dát kámen ")
        page.click("#next")
        assert shown(page).startswith(f"Krok 2 z {total}: hráč")
        page.click("#chart-table >> xpath=ancestor::details/summary")
        text = page.locator("body").inner_text()
        # game notation ("give LSRF", "place a1") is the same in every language: left out
        for a in actions:
            text = text.replace(a["action"], " ").replace(a["best"] or "", " ")
        left = [word for word in ENGLISH if word in text]
        assert left == [], (left, text)
        # percentages as Czech writes them: a no-break space before %, a decimal comma
        assert re.search(r"\d\u00a0%", text), text
        assert not re.search(r"\d%", text) and not re.search(r"\d\.\d", text), text
        labels = page.locator("#chart-box .axis text").all_text_contents()
        assert "50\u00a0%" in labels and "číslo kroku" in labels and "šance na výhru" in labels
        check_page(page, audit, "review cs 1280")
        page.screenshot(path=str(SHOTS / "review-cs-1280.png"), full_page=True)
        narrow(page)
        check_page(page, audit, "review cs 390")
        page.screenshot(path=str(SHOTS / "review-cs-390.png"), full_page=True)
    finally:
        context.close()
