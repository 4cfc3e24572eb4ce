"""Clicking the built-in games' browser boards: one action's text becomes board clicks.

``click_action(page, "quarto", "place b2")`` clicks whatever the board on ``page`` shows
for that action, through the boards' documented ``data-*`` attributes (see the head of
each ``plugins/<game>/web/board.js``), inside the board's own ``[data-board="<game>"]``
element, so nothing else on the page is ever clicked. It works on any page that holds a
rendered board: the harness of ``tests/test_web_boards.py`` or the server's match page.
"""

from __future__ import annotations

from typing import Any

MAX_TABS = 400  # Tab presses to reach one control before giving up
_keyboard = [False]  # press keys instead of clicking (``click_action(..., keyboard=True)``)


def press_to(target: Any) -> None:
    """Reach ``target`` (a Playwright locator) with the keys alone, as a keyboard user
    does, and press Enter on it: Tab to it, or to the group of controls it belongs to (one
    tab stop for a board's pool or free squares), then the arrow keys inside the group;
    AssertionError when the keys never reach it."""
    page = target.page
    target.wait_for(state="visible")
    focused = "node => node === document.activeElement"
    in_group = "node => node.parentElement.contains(document.activeElement)"
    for _ in range(MAX_TABS):
        if target.evaluate(focused):
            page.keyboard.press("Enter")
            return
        if target.get_attribute("tabindex") == "-1" and target.evaluate(in_group):
            for _up in range(5):  # a row at a time (a grid), or round the group (a list)
                for _right in range(17):
                    if target.evaluate(focused):
                        page.keyboard.press("Enter")
                        return
                    page.keyboard.press("ArrowRight")
                page.keyboard.press("ArrowUp")
            break
        page.keyboard.press("Tab")
    raise AssertionError(f"the keys never reached {target}")


def _click(board: Any, selector: str) -> None:
    """Click (or, with the keyboard, Tab to and press Enter on) the first element matching
    ``selector`` in the board (waits until it is there)."""
    target = board.locator(selector).first
    if _keyboard[0]:
        press_to(target)
    else:
        target.click()


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _quarto(board: Any, words: list[str]) -> None:
    verb = words[0].lower()
    if verb == "give":
        _click(board, f"[data-piece={_quote(words[1].upper())}]")
    elif verb == "place":
        _click(board, f"[data-square={_quote(words[1].lower())}]")
    else:  # quarto, done
        _click(board, f"[data-action={_quote(verb)}]")


def _quartino(board: Any, words: list[str]) -> None:
    verb = words[0].lower()
    if verb == "place":
        _click(board, f"[data-colour={_quote(words[1].upper())}]")
        _click(board, f"[data-field={_quote(words[2].lower())}]")
    elif verb == "claim":
        _click(board, f"[data-card={_quote(words[1].upper())}]")
        _click(board, f"[data-rotation={_quote(words[2])}]")
    else:  # end
        _click(board, f"[data-action={_quote(verb)}]")


def _select_cards(board: Any, cards: list[str]) -> None:
    """Clear the hand's selection, then select ``cards`` (one hand card per code given)."""
    while board.locator('[data-card][aria-pressed="true"]').count():
        _click(board, '[data-card][aria-pressed="true"]')
    for code in cards:
        _click(board, f'[data-card={_quote(code.upper())}][aria-pressed="false"]')


def _ctverak(board: Any, words: list[str]) -> None:
    verb = words[0].lower()
    if verb == "draw":
        _click(board, f"[data-pile={_quote(words[1].lower())}]")
    elif verb == "meld":
        _select_cards(board, words[1:])
        _click(board, '[data-action="meld"]')
    elif verb == "add":
        _select_cards(board, words[2:])
        _click(board, f"[data-meld={_quote(words[1])}]")
    elif verb == "discard":
        _select_cards(board, words[1:2])
        _click(board, f"[data-pile={_quote(words[2])}]")
    else:  # end
        _click(board, f"[data-action={_quote(verb)}]")


CLICKERS = {"quarto": _quarto, "quartino": _quartino, "ctverak": _ctverak}


def click_action(page: Any, game_id: str, action_text: str, keyboard: bool = False) -> None:
    """Perform the board clicks that make the board send exactly ``action_text``
    (``keyboard``: reach each of them by Tab and press Enter instead).

    ``page`` is a Playwright (sync) page showing the board of ``game_id`` (quarto,
    quartino or ctverak); ``action_text`` is one action in the game's canonical notation,
    e.g. ``give DTRH``, ``place Y r3``, ``claim P|YBG 5``, ``meld 7S 7H X``, ``draw stock``.
    """
    words = action_text.split()
    if game_id not in CLICKERS or not words:
        raise ValueError(f"no board clicks for {game_id!r} action {action_text!r}")
    # Scoped to the board's element, so the rest of a page (a match page's own buttons)
    # can never be clicked instead.
    _keyboard[0] = keyboard
    try:
        CLICKERS[game_id](page.locator(f"[data-board={_quote(game_id)}]"), words)
    finally:
        _keyboard[0] = False
