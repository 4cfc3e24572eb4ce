r"""A scenario case's verdict: :class:`CaseResult` (passed, failed or error), its
:class:`StepFailure`\ s and the diff-like report the CLI and pytest print."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tabletop.core.i18n.text import Domain, translate
from tabletop.kit.scenarios.loader import LoadedCase
from tabletop.kit.scenarios.subset import Mismatch

_ = Domain("tabletop")


@dataclass(frozen=True)
class StepFailure:
    """Why a step failed: a headline and the differences found."""

    step: int
    line: int
    action: str
    message: str
    mismatches: tuple[Mismatch, ...] = ()


@dataclass(frozen=True)
class CaseResult:
    """The verdict on one case: passed, failed (the game disagrees) or error (bad case)."""

    case: LoadedCase
    status: Literal["passed", "failed", "error"]
    failures: tuple[StepFailure, ...] = ()
    error: str | None = None
    crash: BaseException | None = None

    @property
    def ok(self) -> bool:
        """True when the case passed."""
        return self.status == "passed"

    def report(self) -> list[str]:
        """The diff-like report (plain lines; ``-`` expected, ``+`` actual), in the current
        language (the keys, paths, actions and JSON as they are)."""
        case = self.case
        if self.status == "error":
            return [translate(self.error or _("error"))]
        lines: list[str] = []
        expected, actual = translate(_("expected:")), translate(_("actual:"))
        width = max(len(expected), len(actual))
        for failure in self.failures:
            action = f": {translate(failure.action)}" if failure.action else ""
            where = f"{case.path}:{failure.line}"
            head = _(
                "{where}: case {name}, {message}",
                where=where,
                name=repr(case.name),
                message=failure.message,
            )
            lines.append(translate(head))
            if failure.step:
                lines.append("  " + translate(_("step {number}", number=failure.step)) + action)
            for mis in failure.mismatches:
                lines.append(f"    {mis.where}")
                lines.append(f"      - {expected:<{width}} {translate(mis.expected)}")
                lines.append(f"      + {actual:<{width}} {translate(mis.actual)}")
        if case.case and case.case.rules:
            lines.append("  " + translate(_("rules: {rules}", rules=", ".join(case.case.rules))))
        return lines
