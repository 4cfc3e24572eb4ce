"""Balance analysis of a game by self-play (``tabletop analyse``), the paired A/B test of
a rule change (``tabletop compare``), and the execution backends (local processes or a
Ray cluster) shared with ``tabletop arena``.

For notebooks: :func:`analyse` and :func:`compare_rules` (``tabletop.analysis.api``)
return the ``--json`` object and one dict per game, and a pandas DataFrame on request.

Nothing here is imported by ``tabletop play``, ``run`` or ``games``; matplotlib and Ray
are imported only by the functions that need them (extras ``analysis`` and ``cluster``),
and this package's own modules only when a name below is first used.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ABTest", "Sweep", "analyse", "compare_rules"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        import tabletop.analysis.api as api

        return getattr(api, name)
    raise AttributeError(f"module 'tabletop.analysis' has no attribute {name!r}")
