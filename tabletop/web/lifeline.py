"""No orphans: every process the server starts dies with the process that started it.

``tabletop serve`` starts worker processes (the computer players' pools; with
``--workers N`` uvicorn's N server processes, each with its own pools). A graceful stop
ends them all, but a ``kill -9`` of the main process used to leave them running, some
still answering on the port. Each one now asks the kernel, as it starts, for SIGKILL
when its parent dies (Linux ``prctl(PR_SET_PDEATHSIG)``, called through ctypes), and
ends itself at once if the parent is already gone. The chain holds down the tree: the
main process killed, its server workers die, then their pools. Elsewhere than Linux
this does nothing (a graceful stop still ends every worker).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int | None = None) -> bool:
    """Ask for SIGKILL when this process's parent dies; if ``parent`` (the pid that
    started us) is already gone, exit now. False where the kernel offers no such call."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    if parent is not None and os.getppid() != parent:
        os._exit(1)  # the parent died before we asked: nobody would end us
    return True


def child_dies_with_us() -> None:
    """For ``subprocess.Popen(preexec_fn=...)``: the child is killed when we die (the
    benchmarks' and the tests' servers)."""
    die_with_parent()
