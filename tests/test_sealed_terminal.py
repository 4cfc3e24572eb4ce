"""Hot-seat of a sealed step in a real terminal (tmux): nothing of one player's entry is
left on the screen or in its scrollback for the next, and the round is told to everyone
once it is shown (issue 35 item 2)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tests" / "sealed_play.py"


class Terminal:
    """One tmux session running a command, read with its whole scrollback."""

    def __init__(self, command: str) -> None:
        self.name = f"sealed-{uuid.uuid4().hex[:8]}"
        subprocess.run(
            ["tmux", "new-session", "-d", "-s", self.name, "-x", "100", "-y", "40", command],
            check=True,
        )

    def screen(self) -> str:
        done = subprocess.run(
            ["tmux", "capture-pane", "-p", "-t", self.name, "-S", "-2000"],
            capture_output=True, text=True, check=True,
        )
        return done.stdout

    def wait_for(self, text: str, seconds: float = 60.0) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never showed; the screen:\n{self.screen()}")

    def type(self, line: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.name, line, "Enter"], check=True)

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], check=False)


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    if shutil.which("tmux") is None:
        pytest.skip("needs tmux (Debian's package)")
    command = f"cd {ROOT} && {sys.executable} {SCRIPT} play coinbids -o rounds=2; sleep 60"
    term = Terminal(command)
    yield term
    term.close()


def test_a_sealed_choice_leaves_nothing_for_the_next_player(terminal: Terminal) -> None:
    terminal.wait_for("Pass to player 1 and press Enter")
    terminal.type("")
    terminal.wait_for("player 1 — your action")
    terminal.type("pick 1")
    screen = terminal.wait_for("Pass to player 2 and press Enter")
    assert "pick" not in screen  # player 1's entry is gone, scrollback too
    terminal.type("")
    screen = terminal.wait_for("player 2 — your action")
    assert "pick" not in screen
    terminal.type("pick 0")
    terminal.wait_for("Pass to player 1 and press Enter")
    terminal.type("")
    screen = terminal.wait_for("player 1 — your action")
    # once both are in, the round is shown to the next person at the screen, both choices
    assert "player 1: pick 1" in screen and "player 2: pick 0" in screen
    assert "chance: " in screen  # and what chance drew for the next round
