#!/usr/bin/env python3
"""Screenshots of ``tabletop serve`` in every language, for a person to look at.

Starts a real ``tabletop serve`` (its own process, a free loopback port, a temporary
database) and drives Debian's Chromium (``/usr/bin/chromium``, through Playwright, which
never downloads a browser). For each language (en, cs, pl, bg, ru), in a browser context
whose ``Accept-Language`` is that language and whose first page is opened with
``?lang=CODE``, it does what a person does: opens the lobby, creates a match of each
built-in game by clicking the lobby's form (Quarto for 2, Quartino and Čtverák for 3 or
4 players, the counts alternating by language), opens each seat's link, and plays a few
actions by clicking the board (each seat in its own tab), until it is seat 1's turn with
pieces or cards on the board and lines in the log. Then it writes, at 1280×800 (desktop)
and at 390×844 (phone), full-page PNGs::

    OUT/<lang>-<width>-lobby.png          the lobby: games, the form, the links, the lists
    OUT/<lang>-<width>-quarto.png         seat 1's match page of each game
    OUT/<lang>-<width>-quartino-<n>p.png
    OUT/<lang>-<width>-ctverak-<n>p.png
    OUT/<lang>-<width>-quarto-end.png     the Quarto match played on to its end
    OUT/<lang>-<width>-ctverak-end.png    a Čtverák for 2 ended blocked (K5.2), with scores

and prints, for each, what a DOM read finds that no longer fits: an element wider than the
page, or a control whose text is wider than its box (``scrollWidth > clientWidth``). That
is a hint where to look, not a substitute for looking. ``--tiles`` also writes each page
cut into viewport-sized pieces (``OUT/tiles/``), which are easier to read than a long page.

Run from the checkout, with the test extra installed (``pip install -e '.[test]'``)::

    python3 tools/screenshots.py --out /tmp/shots            # all five languages
    python3 tools/screenshots.py --out /tmp/shots --lang cs --lang ru --tiles

Nothing is committed from ``OUT``; the default is a new temporary folder, printed.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # the tests' helpers: Chromium, a served process, clicks
    sys.path.insert(0, str(ROOT))

from tests.browser_support import WAIT, chromium, served  # noqa: E402
from tests.web_clicks import click_action  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, FloatRect, Page

LANGUAGES = ("en", "cs", "pl", "bg", "ru")
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
MOVES = {"quarto": 6, "quartino": 8, "ctverak": 8}  # at least this many actions first
END_OPTIONS = {"scoring": '"extended"', "stall_limit": "2"}  # Čtverák's quick end, scored

# The visible elements wider than the page, and the controls and labels whose text is
# wider than their own box; a scrolling table or the log is allowed to scroll.
PROBLEMS_JS = r"""() => {
  const width = document.documentElement.clientWidth;
  const name = (el) => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}`
    + `${typeof el.className === 'string' && el.className ? '.' + el.className.split(' ')[0] : ''}`
    + ` "${(el.textContent || '').trim().slice(0, 40)}"`;
  const seen = [];
  for (const el of document.querySelectorAll('body *')) {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || el.closest('.table-wrap, pre, .visually-hidden')) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden') continue;
    if (box.right > width + 1 || box.left < -1) seen.push(`off the page: ${name(el)}`);
    const leaf = ['BUTTON', 'A', 'LABEL', 'SUMMARY', 'TH', 'TD', 'SELECT', 'OPTION', 'DT', 'DD',
                  'SPAN', 'B', 'H2', 'H3', 'LI', 'P'].includes(el.tagName)
      || el.getAttribute('role') === 'button';
    if (leaf && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0
        && style.overflowX !== 'auto' && style.overflowX !== 'scroll') {
      seen.push(`text wider than its box (${el.scrollWidth} > ${el.clientWidth}): ${name(el)}`);
    }
  }
  // one word broken across lines (a code such as "DTR|H" in a box too narrow for it)
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const word = node.textContent.trim();
    if (word.length < 2 || /\s/.test(word) || !node.parentElement
        || node.parentElement.closest('.visually-hidden, .table-wrap, pre, .links')) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0)
      .map((r) => Math.round(r.top)));
    if (tops.size > 1) seen.push(`a word broken across lines: ${name(node.parentElement)}`);
  }
  if (document.documentElement.scrollWidth > width + 1) seen.push('the page scrolls sideways');
  return seen;
}"""


def problems(page: Page) -> list[str]:
    """What a DOM read finds that no longer fits (see PROBLEMS_JS)."""
    found: list[str] = page.evaluate(PROBLEMS_JS)
    return found


class Shooter:
    """Writes each page at both sizes into ``out`` and keeps what did not fit."""

    def __init__(self, out: Path, tiles: bool) -> None:
        self.out = out
        self.tiles = tiles
        self.report: dict[str, list[str]] = {}

    def shoot(self, page: Page, lang: str, name: str) -> None:
        for width, height in SIZES.values():
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(300)  # the layout settles
            stem = f"{lang}-{width}-{name}"
            path = self.out / f"{stem}.png"
            page.screenshot(path=str(path), full_page=True)
            self.report[path.name] = problems(page)
            if self.tiles:
                self._tiles(page, stem, width, height)
        page.set_viewport_size({"width": SIZES["desktop"][0], "height": SIZES["desktop"][1]})

    def _tiles(self, page: Page, stem: str, width: int, height: int) -> None:
        folder = self.out / "tiles"
        folder.mkdir(exist_ok=True)
        total: int = page.evaluate("document.documentElement.scrollHeight")
        for n, top in enumerate(range(0, total, height)):
            clip: FloatRect = {"x": 0, "y": top, "width": width, "height": min(height, total - top)}
            page.screenshot(path=str(folder / f"{stem}-{n}.png"), full_page=True, clip=clip)


def create_in_lobby(lobby: Page, game_id: str, players: int,
                    options: dict[str, str] | None = None) -> list[str]:  # fmt: skip
    """Click the lobby's "New match" of ``game_id``, choose ``players`` and ``options``
    (a select's value is its JSON, ``'"extended"'``; a text field's its text), every seat
    a person, create it; the seats' links as shown, seat 1 first."""
    lobby.locator(f'[data-create="{game_id}"]').click()
    lobby.locator("#players").select_option(str(players))
    lobby.wait_for_selector(f"#seat-{players}", timeout=WAIT)
    for name, value in (options or {}).items():
        field = lobby.locator(f'[data-option="{name}"]')
        if field.evaluate("node => node.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    lobby.locator("#create-submit").click()
    lobby.wait_for_selector(f'[data-seat-link="{players}"]', timeout=WAIT)
    links = lobby.locator("[data-seat-link]")
    return [links.nth(i).get_attribute("href") or "" for i in range(links.count())]


def number(page: Page) -> int:
    return int(page.get_attribute("#status", "data-number") or "-1")


def wait_at(page: Page, at: int) -> None:
    page.wait_for_selector(f'#status[data-number="{at}"]', timeout=WAIT)


def choose(game_id: str, legal: list[str], rng: random.Random, stall: bool = False) -> str:
    """A legal action a player might take that moves the game along and shows something:
    no claims (a false one would only end the turn), Čtverák's melds and the stock first
    (``stall``: Čtverák's piles and discards only, which ends the game blocked, K5.2)."""
    plain = [t for t in legal if not t.startswith(("claim", "quarto"))] or legal
    if stall:
        stalling: tuple[tuple[str, ...], ...] = (("draw 1", "draw 2", "draw 3", "draw 4"),
                                                 ("discard",), ("end",))  # fmt: skip
        for start in stalling:
            some = [t for t in plain if t.startswith(start)]
            if some:
                return rng.choice(some)
    if game_id == "quartino":
        placing = [t for t in plain if t.startswith("place")]
        return rng.choice(placing) if placing else "end"
    if game_id == "ctverak":
        moving: tuple[tuple[str, ...], ...] = (("meld", "add"), ("draw stock",), ("draw",),
                                               ("discard",))  # fmt: skip
        for start in moving:
            some = [t for t in plain if t.startswith(start)]
            if some:
                return rng.choice(some)
    return rng.choice(plain)


def play(seats: list[Page], game_id: str, at_least: int, rng: random.Random,
         to_end: bool = False, stall: bool = False) -> None:  # fmt: skip
    """Act by clicking the board of whichever seat is to act, until at least ``at_least``
    actions are played and it is seat 1's turn (``to_end``: until the game is over)."""
    while True:
        page = seats[0]
        done = number(page)
        state = page.get_attribute("#status", "data-state")
        if state == "over" or (not to_end and done >= at_least and seat_to_act(page) == 1):
            return
        actor = seats[seat_to_act(page) - 1]
        wait_at(actor, done)
        legal = [b.get_attribute("data-legal") or "" for b in actor.locator("[data-legal]").all()]
        click_action(actor, game_id, choose(game_id, legal, rng, stall))
        for seat in seats:
            wait_at(seat, done + 1)


def seat_to_act(page: Page) -> int:
    return int(page.get_attribute("#status", "data-to-act") or "0")


@contextmanager
def language(browser: Browser, lang: str) -> Iterator[BrowserContext]:
    width, height = SIZES["desktop"]
    context = browser.new_context(locale=lang, viewport={"width": width, "height": height})
    try:
        yield context
    finally:
        context.close()


def one_language(browser: Browser, base: str, lang: str, shooter: Shooter, index: int) -> None:
    rng = random.Random(f"tabletop-screenshots-{lang}")
    counts = {"quarto": 2, "quartino": 3 + index % 2, "ctverak": 4 - index % 2}
    with language(browser, lang) as context:
        lobby = context.new_page()
        lobby.goto(f"{base}?lang={lang}")
        lobby.wait_for_selector('[data-create="ctverak"]', timeout=WAIT)
        quarto: list[Page] = []
        for game_id, players in counts.items():
            links = create_in_lobby(lobby, game_id, players)
            # a person takes seat 1 by following its link; the others open theirs
            with context.expect_page() as opened:
                lobby.locator('[data-seat-link="1"]').click(modifiers=["Control"])
            seats = [opened.value]
            for link in links[1:]:
                seats.append(context.new_page())
                seats[-1].goto(link)
            for page in seats:
                wait_at(page, 0)
                page.wait_for_selector(f'[data-board="{game_id}"]', timeout=WAIT)
            play(seats, game_id, MOVES[game_id], rng)
            page = seats[0]
            page.wait_for_timeout(1200)  # presence is told a second after joins
            name = game_id if game_id == "quarto" else f"{game_id}-{players}p"
            shooter.shoot(page, lang, name)
            if game_id == "quarto":
                quarto = seats
            else:
                for other in seats:
                    other.close()
        lobby.wait_for_timeout(5500)  # the listing refreshes every 5 s
        shooter.shoot(lobby, lang, "lobby")
        play(quarto, "quarto", 0, rng, to_end=True)
        quarto[0].wait_for_selector("#result:not([hidden])", timeout=WAIT)
        shooter.shoot(quarto[0], lang, "quarto-end")
        # Čtverák's end with scores: two rounds without a card laid end it blocked (K5.2)
        links = create_in_lobby(lobby, "ctverak", 2, END_OPTIONS)
        seats = [context.new_page() for _ in links]
        for page, link in zip(seats, links, strict=True):
            page.goto(link)
            page.wait_for_selector('[data-board="ctverak"]', timeout=WAIT)
        play(seats, "ctverak", 0, rng, to_end=True, stall=True)
        seats[0].wait_for_selector("#result:not([hidden])", timeout=WAIT)
        shooter.shoot(seats[0], lang, "ctverak-end")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, help="folder for the PNGs (default: a new temp folder)")
    parser.add_argument("--lang", action="append", choices=LANGUAGES,
                        help="only this language (repeatable; default: all five)")  # fmt: skip
    parser.add_argument("--tiles", action="store_true",
                        help="also write each page cut into viewport-sized tiles")  # fmt: skip
    args = parser.parse_args(argv)
    out: Path = args.out or Path(tempfile.mkdtemp(prefix="tabletop-shots-"))
    out.mkdir(parents=True, exist_ok=True)
    shooter = Shooter(out, args.tiles)
    with (
        tempfile.TemporaryDirectory() as tmp,
        served(Path(tmp) / "matches.sqlite3") as base,
        chromium() as browser,
    ):
        for index, lang in enumerate(args.lang or LANGUAGES):
            one_language(browser, base, lang, shooter, index)
            print(f"{lang}: done", flush=True)
    for name, found in shooter.report.items():
        print(f"{name}: {'; '.join(found) if found else 'fits'}")
    print(f"screenshots in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
