"""What the browser tests share: Debian's Chromium (never a downloaded browser) launched
through Playwright, a real ``tabletop serve`` process, the lobby's create form, waiting
for a position, and the folder of screenshots.

The fixtures ``browser`` (one Chromium a module) and ``server`` (a ``tabletop serve``
process a test) are in ``tests/conftest.py`` and use these. Playwright is imported only
when a browser is launched, so a module may import this before skipping without it.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from tests.web_support import free_port, start_process

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip
WAIT = 30_000  # ms a page may take to show what a test waits for


def shots(name: str) -> Path:
    """The folder ``$TMPDIR/name`` where a test module leaves its screenshots."""
    return Path(os.environ.get("TMPDIR") or tempfile.gettempdir()) / name


@contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's Chromium, headless, closed on leaving."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def served(db: Path, *flags: str) -> Iterator[str]:
    """``tabletop serve`` (with ``flags``) on ``db`` in its own process on a free loopback
    port; yields its base URL (``http://127.0.0.1:P/``), kills it on leaving."""
    port = free_port()
    process = start_process(db, port, *flags)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        process.kill()
        process.wait(30)


def create_match(page: Page, base: str, game_id: str, options: dict[str, str],
                 move_time: str = "", spectator_chat: bool = False) -> dict[str, str]:  # fmt: skip
    """Open the lobby, fill the create form by clicking, return the links shown: ``host``,
    each seat's by its number, ``spectator`` when the match allows spectators."""
    page.goto(base)
    page.locator(f'[data-create="{game_id}"]').click()
    for name, value in options.items():
        page.locator(f'[data-option="{name}"]').select_option(value)
    if move_time:
        page.locator("#move-time").fill(move_time)
    if spectator_chat:
        page.locator("#spectator-chat").check()
    page.locator("#create-submit").click()
    page.wait_for_selector("[data-host-link]", timeout=WAIT)
    links = {"host": page.get_attribute("[data-host-link]", "href") or ""}
    for link in page.locator("[data-seat-link]").all():
        links[link.get_attribute("data-seat-link") or ""] = link.get_attribute("href") or ""
    if page.locator("[data-spectator-link]").count():
        links["spectator"] = page.get_attribute("[data-spectator-link]", "href") or ""
    return links


def wait_number(page: Page, number: int) -> None:
    """Wait until ``page`` shows the position after ``number`` actions."""
    page.wait_for_selector(f'#status[data-number="{number}"]', timeout=WAIT)
