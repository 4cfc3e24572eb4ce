"""The compiled search (``_kernel.c``) behind the solver's root interface, when it is built.

``pip install -e .`` builds ``tabletop_quarto._kernel`` when a C compiler is present (an
optional extension: without a compiler the install still succeeds and the solver uses the
plain-Python search). The kernel holds one transposition table in the process; each
:class:`KernelRoot` (one ``solve`` call) starts it afresh, so answers do not depend on
earlier calls.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from tabletop_quarto.rules import Rules, State
from tabletop_quarto.search import BudgetExceeded, clock, search_config
from tabletop_quarto.symmetry import board_symmetries

_module: ModuleType | None = None
_configured: Rules | None = None
_owner: object = None  # the KernelRoot whose search the table holds


def _load() -> ModuleType | None:
    global _module
    if _module is None:
        try:
            _module = importlib.import_module("tabletop_quarto._kernel")
        except ImportError:
            return None
    return _module


def available() -> bool:
    """Whether the compiled kernel is importable."""
    return _load() is not None


def table_bits(bits: int) -> None:
    """Size the kernel's transposition table: 2**bits entries of 16 bytes (default 22)."""
    kernel = _load()
    if kernel is None:
        raise RuntimeError("the compiled Quarto kernel is not built")
    kernel.table_bits(bits)


class KernelRoot:
    """One solve's search in the kernel: ``root(rem, alpha, beta) -> (score, square, give)``."""

    def __init__(self, state: State, max_nodes: int | None, deadline: float | None) -> None:
        kernel = _load()
        if kernel is None:
            raise RuntimeError("the compiled Quarto kernel is not built")
        self.kernel = kernel
        self.rules = state.rules
        self._claim()
        self.board = bytes(
            (state.board >> (8 * s)) & 15 if state.occupied >> s & 1 else 255 for s in range(16)
        )
        self.pool = state.pool
        self.hand = state.hand
        self.max_nodes = -1 if max_nodes is None else max_nodes
        self.deadline = deadline
        self.nodes = 0

    def _claim(self) -> None:
        """Make the kernel's table this search's: the variant's tables, an empty table.

        Another solve in between (another thread) takes it over; this one then starts
        afresh, which costs time but never mixes two searches.
        """
        global _configured, _owner
        if _configured != self.rules:
            cfg = search_config(self.rules)
            patterns = bytes(s for pattern in self.rules.patterns for s in pattern)
            syms = bytes(s for perm in board_symmetries(cfg.squares) for s in perm)
            self.kernel.configure(patterns, self.rules.attr8, cfg.counted, syms)
            _configured = self.rules
        self.kernel.reset()
        _owner = self

    def root(self, rem: int, alpha: int, beta: int) -> tuple[int, int, int]:
        if _owner is not self:
            self._claim()
        seconds = -1.0
        if self.deadline is not None:
            seconds = max(0.0, self.deadline - clock())
        score, square, give, nodes, aborted = self.kernel.root(
            self.board, self.pool, self.hand, rem, alpha, beta, self.max_nodes, seconds
        )
        self.nodes = nodes
        if aborted:
            raise BudgetExceeded
        return score, square, give
