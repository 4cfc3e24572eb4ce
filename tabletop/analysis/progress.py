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
import tabletop.analysis.wording as wording
from tabletop.core.i18n.text import translate

EVERY = 10.0  # seconds between two progress lines off a terminal


def every() -> float:
    """Seconds between two lines: ``TABLETOP_PROGRESS_EVERY`` (0 to 3600) or ``EVERY``
    (a log that wants a line a game, or a test that waits for the first games)."""
    import os

    from tabletop.core.flags import seconds

    found = seconds(os.environ.get("TABLETOP_PROGRESS_EVERY", ""), 0.0, 3600.0)
    return EVERY if found is None else found


def duration(seconds: float) -> str:
    """``42 s``, ``3 min 05 s``, ``1 h 02 min`` (a message: the units in the reader's
    language where it is shown)."""
    whole = round(seconds)
    if whole < 60:
        return wording.DURATION_SECONDS.format(s=whole)
    if whole < 3600:
        return wording.DURATION_MINUTES.format(m=whole // 60, s=f"{whole % 60:02d}")
    return wording.DURATION_HOURS.format(h=whole // 3600, m=f"{whole % 3600 // 60:02d}")


class Lines:
    """Counts finished games; writes a progress line with an ETA at most every ``every``
    seconds to ``stream``. The pace is measured from the first finished game, so a
    backend's start-up (Ray takes seconds) neither triggers a line nor skews the ETA.

    With ``todo`` (games to play by kind of block: player count, options, levels) and
    results that carry their ``key`` and ``seconds`` (:class:`~tabletop.analysis.run.Done`),
    the time left weighs every kind by its own measured cost a game: six-player games
    that take five times as long count five times (a kind not measured yet counts the
    mean of those measured). Without them, every game counts the same."""

    def __init__(
        self,
        what: str,
        total: int,
        stream: TextIO,
        every: float = EVERY,
        clock: Callable[[], float] = time.monotonic,
        todo: dict[Any, int] | None = None,
    ) -> None:
        self.what, self.total, self.stream, self.every = what, total, stream, every
        self.clock = clock
        self.done = 0
        self.began = clock()
        self.first: float | None = None
        self.last = self.began
        self.shown = 0
        self.todo = dict(todo) if todo else None
        self.cost: dict[Any, list[float]] = {}  # key: [seconds played, games]
        self.after_first = 0.0  # seconds of the games finished after the first one

    def __call__(self, result: Any = None) -> None:
        self.done += 1
        now = self.clock()
        key, seconds = getattr(result, "key", None), getattr(result, "seconds", None)
        weighed = self.todo is not None and key is not None and seconds is not None
        if weighed:
            assert self.todo is not None and seconds is not None
            spent = self.cost.setdefault(key, [0.0, 0])
            spent[0] += seconds
            spent[1] += 1
            self.todo[key] = self.todo.get(key, 1) - 1
        if self.first is None:
            self.first = self.last = now
            return
        if weighed:
            assert seconds is not None
            self.after_first += seconds
        if now - self.last >= self.every and self.done < self.total:
            self.last = now
            self._write(
                text.PROGRESS.format(
                    what=self.what,
                    done=self.done,
                    total=self.total,
                    percent=self.done * 100 // self.total,
                    elapsed=duration(now - self.began),
                    left=duration(self.left(now)),
                )
            )

    def left(self, now: float) -> float:
        """Seconds left: the games to play, each at its kind's cost, at the pace seen."""
        assert self.first is not None
        wall = now - self.first
        if self.todo is None or not self.cost or self.after_first <= 0:
            return wall / (self.done - 1) * (self.total - self.done)
        mean = sum(c for c, _ in self.cost.values()) / sum(n for _, n in self.cost.values())
        remaining = sum(
            count * (self.cost[key][0] / self.cost[key][1] if key in self.cost else mean)
            for key, count in self.todo.items()
            if count > 0
        )
        return float(remaining * wall / self.after_first)  # wall seconds a second of play

    def finish(self) -> None:
        if self.shown:
            elapsed = duration(self.clock() - self.began)
            self._write(
                text.PROGRESS_DONE.format(what=self.what, total=self.total, elapsed=elapsed)
            )

    def _write(self, line: str) -> None:
        self.shown += 1
        print(translate(line), file=self.stream, flush=True)
