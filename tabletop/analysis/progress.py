"""Progress of a long run off a terminal: a line on stderr now and then (on a terminal
the command shows a rich bar instead: ``tabletop.cli.analyse.progress``).

Off a terminal (a log file, a CI job, a pipe) a bar would be noise or nothing; instead
one line every ``EVERY`` seconds says how many games are done and about how long the
rest will take, and a last line says how long it all took (only if any line was shown).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TextIO

import tabletop.analysis.text as text

EVERY = 10.0  # seconds between two progress lines off a terminal


def duration(seconds: float) -> str:
    """``42 s``, ``3 min 05 s``, ``1 h 02 min``."""
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    return f"{whole // 3600} h {whole % 3600 // 60:02d} min"


class Lines:
    """Counts finished games; writes a progress line with an ETA at most every ``every``
    seconds to ``stream``. The pace is measured from the first finished game, so a
    backend's start-up (Ray takes seconds) neither triggers a line nor skews the ETA."""

    def __init__(
        self,
        what: str,
        total: int,
        stream: TextIO,
        every: float = EVERY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.what, self.total, self.stream, self.every = what, total, stream, every
        self.clock = clock
        self.done = 0
        self.began = clock()
        self.first: float | None = None
        self.last = self.began
        self.shown = 0

    def __call__(self, _result: Any = None) -> None:
        self.done += 1
        now = self.clock()
        if self.first is None:
            self.first = self.last = now
            return
        if now - self.last >= self.every and self.done < self.total:
            self.last = now
            pace = (now - self.first) / (self.done - 1)
            self._write(
                text.PROGRESS.format(
                    what=self.what,
                    done=self.done,
                    total=self.total,
                    percent=self.done * 100 // self.total,
                    elapsed=duration(now - self.began),
                    left=duration(pace * (self.total - self.done)),
                )
            )

    def finish(self) -> None:
        if self.shown:
            elapsed = duration(self.clock() - self.began)
            self._write(
                text.PROGRESS_DONE.format(what=self.what, total=self.total, elapsed=elapsed)
            )

    def _write(self, line: str) -> None:
        self.shown += 1
        print(line, file=self.stream, flush=True)
