"""Rule scenarios: the YAML format (``model``), loading with line numbers (``loader``),
running one case (``runner``, ``subset``) and choosing cases (``select``).

A scenario file states, in a form a rules reviewer can read, "from this position these
actions lead to this outcome, and this action is refused because of that rule". The
format is documented in ``docs/scenarios.md``; in short::

    format: tabletop-scenarios/1
    game: quarto
    spec_rules: [Q1.1, Q1.2, ...]      # every rule ID of the spec (for --coverage)
    cases:
      - name: four tall pieces on rank 2 win
        rules: [Q4.2, Q7.1]
        options: {claim: auto}
        actions: [give DTRH, place a2, ...]    # or position: {...}, or nothing
        steps:
          - do: place d2
            expect: {status: over, winners: [2]}
          - do: place a1
            refused: game is over

Loading never raises for a bad file: :func:`load_file` returns a :class:`Suite` whose
``error`` (file-level) or cases' ``error`` (case-level) is a one-line message naming the
file, the line and the case. :func:`run_case` plays a case through the core's checked
path (:class:`tabletop.core.match.Match`) and returns a :class:`CaseResult` whose
:meth:`~CaseResult.report` is the diff-like text that the CLI and pytest print.
"""

from __future__ import annotations

from tabletop.kit.jsonpaths import PathT as Path_
from tabletop.kit.scenarios.loader import (
    MAX_SCENARIO_BYTES,
    MAX_YAML_NODES,
    LoadedCase,
    ScenarioFileError,
    Suite,
    is_scenario_file,
    load_file,
    load_text,
)
from tabletop.kit.scenarios.model import (
    FORMAT,
    FORMAT_LINE,
    RULE_ID,
    TOP_KEYS,
    Case,
    Expect,
    Step,
    cites,
)
from tabletop.kit.scenarios.results import CaseResult, StepFailure
from tabletop.kit.scenarios.runner import run_case
from tabletop.kit.scenarios.select import game_suites, keyword_filter, uncovered
from tabletop.kit.scenarios.subset import Mismatch, subset_diff

__all__ = [
    "FORMAT",
    "FORMAT_LINE",
    "MAX_SCENARIO_BYTES",
    "MAX_YAML_NODES",
    "RULE_ID",
    "TOP_KEYS",
    "Case",
    "CaseResult",
    "Expect",
    "LoadedCase",
    "Mismatch",
    "Path_",
    "ScenarioFileError",
    "Step",
    "StepFailure",
    "Suite",
    "cites",
    "game_suites",
    "is_scenario_file",
    "keyword_filter",
    "load_file",
    "load_text",
    "run_case",
    "subset_diff",
    "uncovered",
]
