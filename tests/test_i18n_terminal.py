"""In a real pseudo-terminal (stdlib ``pty``): ``tabletop play quarto --lang ru`` asks and
refuses in Russian (readline line editing and all), ``tabletop rules ctverak --lang cs``
is the Czech rules text."""

from __future__ import annotations

import codecs
import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


class Terminal:
    """A command on a pseudo-terminal of 120 columns; what it printed, without colours."""

    def __init__(self, *args: str) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"}
        env.pop("TABLETOP_LANG", None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tabletop", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            close_fds=True,
        )
        os.close(slave)
        self.seen = ""
        # one decoder for the whole stream: a character may arrive split over two reads
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def expect(self, text: str, seconds: float = 60) -> str:
        """Read until ``text`` has been printed (AssertionError with the output if not)."""
        deadline = time.monotonic() + seconds
        while text not in " ".join(ANSI.sub("", self.seen).split()):
            left = deadline - time.monotonic()
            assert left > 0, f"{text!r} never came; the terminal showed:\n{ANSI.sub('', self.seen)}"
            ready, _, _ = select.select([self.master], [], [], min(left, 1.0))
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the command ended and closed the terminal
                    chunk = b""
                if not chunk and self.process.poll() is not None:
                    continue
                self.seen += self.decoder.decode(chunk)
        return ANSI.sub("", self.seen)

    def type(self, line: str) -> None:
        os.write(self.master, line.encode("utf-8") + b"\r")

    def close(self) -> int:
        """Read the rest (a full terminal would block the command) until it ends."""
        deadline = time.monotonic() + 20
        try:
            while self.process.poll() is None and time.monotonic() < deadline:
                ready, _, _ = select.select([self.master], [], [], 0.2)
                if ready:
                    try:
                        self.seen += self.decoder.decode(os.read(self.master, 65536))
                    except OSError:
                        break
            if self.process.poll() is None:  # still waiting for input: a failed expect
                self.process.kill()
            return self.process.wait(timeout=10)
        finally:
            os.close(self.master)


def test_play_quarto_in_russian_prompts_and_refuses_in_russian() -> None:
    terminal = Terminal("play", "quarto", "--lang", "ru")
    try:
        terminal.expect("введите ход или помощь, подсказка, отмена")
        terminal.expect("игрок 1 — передайте сопернику фигуру из запаса ›")
        terminal.type("place a1")
        terminal.expect(
            "сейчас фигуру передают, а не ставят: сначала поставить, потом передать (Q3.3)"
        )
        terminal.expect("допустимо: give LSRF")
        terminal.type("give DTRH")
        terminal.expect(
            "игрок 2 — поставьте фигуру (тёмная, высокая, круглая, с выемкой) на свободную клетку ›"
        )
        terminal.type("кварто")
        terminal.expect("при claim=auto победу объявляет программа; 'quarto' не нужно (Q5.1)")
        terminal.type("выход")
        shown = terminal.expect("до свидания; игра не сохранена")
    finally:
        status = terminal.close()
    assert status == 0
    assert "светлая тёмная" in " ".join(shown.split())  # the board's legend
    assert "your action" not in shown and "refused" not in shown


def test_rules_ctverak_in_czech_is_the_czech_rules_text() -> None:
    terminal = Terminal("rules", "ctverak", "--lang", "cs")
    try:
        terminal.expect("Pozice v JSON")  # the core's heading after the rules text
    finally:
        status = terminal.close()
    assert status == 0
    flat = " ".join(ANSI.sub("", terminal.seen).split())
    assert "Karetní hra pro 2–6 hráčů" in flat
    assert "čtverky" in flat and "žolík" in flat and "balík" in flat
    assert "Volby" in flat and "Počítačoví hráči (--ai SEAT[:LEVEL], výchozí" in flat
    assert "Options" not in flat
