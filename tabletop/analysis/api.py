"""The analysis for notebooks: ``tabletop.analysis.analyse`` and ``compare_rules``.

    >>> from tabletop.analysis import analyse, compare_rules
    >>> sweep = analyse("quarto", options=["squares=false,true"], agents="1,2", games=50)
    >>> sweep.summary["configurations"][0]["seat_win_rate"]     # what --json prints
    >>> sweep.rows[0]["winners"], sweep.rows[0]["turns"]         # one dict per game
    >>> sweep.frame()                                            # a pandas DataFrame
    >>> ab = compare_rules("ctverak", ["reshuffle=true"], players=3, agents="3", games=200)
    >>> ab.result["measures"], ab.verdict, ab.measures_frame()

The words are the command line's (``options`` are ``-o`` pairs, ``agents`` a comma list),
checked the same way, so an error reads as it would in the terminal. pandas is optional:
``frame()`` says how to install it when it is missing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tabletop.core import selfplay
from tabletop.core.errors import TabletopError

PANDAS_MISSING = "a DataFrame needs pandas, which is not installed: pip install pandas"


def _frame(rows: list[dict[str, Any]]) -> Any:
    import importlib

    try:
        pandas = importlib.import_module("pandas")  # optional: not a dependency
    except ImportError:
        raise TabletopError(PANDAS_MISSING) from None
    return pandas.DataFrame(rows)


@dataclass(frozen=True)
class Sweep:
    """A finished ``analyse``: the ``--json`` object and one dict per game played."""

    summary: dict[str, Any]
    rows: list[dict[str, Any]]

    def frame(self) -> Any:
        """The games as a pandas DataFrame (one row per game)."""
        return _frame(self.rows)


@dataclass(frozen=True)
class ABTest:
    """A finished ``compare``: the ``--json`` object, the verdict lines, the games."""

    result: dict[str, Any]
    verdict: list[str]
    rows: list[dict[str, Any]]

    def frame(self) -> Any:
        """The games of both arms as a pandas DataFrame (column ``arm``)."""
        return _frame(self.rows)

    def measures_frame(self) -> Any:
        """The compared measures as a pandas DataFrame (one row per measure)."""
        return _frame(
            [dict(m, ci_low=m["ci"][0], ci_high=m["ci"][1]) for m in self.result["measures"]]
        )


def analyse(
    game: str,
    players: str | None = None,
    options: Sequence[str] = (),
    agents: str = selfplay.ANALYSE_AGENTS,
    games: int = selfplay.ANALYSE_GAMES,
    seed: int = selfplay.SEED,
    jobs: int = selfplay.JOBS,
    backend: str = selfplay.BACKEND,
    seconds_per_turn: float = selfplay.SECONDS_PER_TURN,
) -> Sweep:
    """``tabletop analyse`` as a function (no progress output)."""
    from tabletop.analysis.backends import check_backend
    from tabletop.analysis.export import game_rows
    from tabletop.analysis.run import play, summarise
    from tabletop.analysis.sweep import make_plan

    plan = make_plan(game, players, options, agents, games, seed)
    check_backend(backend, jobs, None)
    played = play(plan, jobs, backend)
    summary = summarise(played, jobs, backend, seconds_per_turn)
    return Sweep(summary, game_rows(played, seconds_per_turn=seconds_per_turn))


def compare_rules(
    game: str,
    changes: Sequence[str],
    players: int | None = None,
    options: Sequence[str] = (),
    agents: str = selfplay.COMPARE_AGENTS,
    games: int = selfplay.COMPARE_GAMES,
    seed: int = selfplay.SEED,
    jobs: int = selfplay.JOBS,
    backend: str = selfplay.BACKEND,
    seconds_per_turn: float = selfplay.SECONDS_PER_TURN,
) -> ABTest:
    """``tabletop compare`` as a function: ``changes`` are the ``--change`` pairs."""
    from tabletop.analysis.backends import check_backend
    from tabletop.analysis.compare import make_comparison, paired_measures, result_json
    from tabletop.analysis.export import game_rows
    from tabletop.analysis.run import play
    from tabletop.analysis.verdict import verdicts

    comparison = make_comparison(game, players, options, changes, agents, games, seed)
    check_backend(backend, jobs, None)
    played = play(comparison.plan, jobs, backend)
    found = paired_measures(played)
    rows = game_rows(played, ("baseline", "variant"), seconds_per_turn)
    return ABTest(result_json(comparison, found), verdicts(comparison, found), rows)
