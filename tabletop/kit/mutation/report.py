"""The mutation report: scores per module and per rule ID, and every surviving mutant's diff.

The **mutation score** is killed / (killed + survived), where killed counts the mutants
stopped by a case or a golden game and those that ran past the timeout, and survived
counts the mutants no case noticed, including those in functions the suite never calls
("not reached": no case can kill them). Mutants left out by ``--seconds`` are not counted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tabletop.kit.mutation.mutants import Mutant
from tabletop.kit.mutation.runner import Verdict
from tabletop.kit.mutation.session import Results

KILLED = {"killed", "timeout"}
NO_RULE = "(none)"


@dataclass
class Tally:
    """Counts of one group of mutants."""

    killed: int = 0
    timeout: int = 0
    survived: int = 0
    not_reached: int = 0

    def add(self, verdict: Verdict) -> None:
        """Count one verdict."""
        key = verdict.status.replace(" ", "_")
        setattr(self, key, getattr(self, key) + 1)

    @property
    def total(self) -> int:
        """Mutants counted."""
        return self.killed + self.timeout + self.survived + self.not_reached

    @property
    def score(self) -> float | None:
        """Killed (timeouts included) as a fraction of all counted; None for none."""
        return (self.killed + self.timeout) / self.total if self.total else None

    def as_dict(self) -> dict[str, Any]:
        """The counts and the score (percent, one decimal)."""
        score = self.score
        return {
            "mutants": self.total,
            "killed": self.killed,
            "timeout": self.timeout,
            "survived": self.survived,
            "not_reached": self.not_reached,
            "score": None if score is None else round(100 * score, 1),
        }


def tally(verdicts: Iterable[tuple[Mutant, Verdict]]) -> Tally:
    """The counts of some verdicts."""
    counts = Tally()
    for _, verdict in verdicts:
        counts.add(verdict)
    return counts


def by_module(results: Results) -> dict[str, Tally]:
    """Counts per module, in the order the modules were mutated."""
    groups = {name: Tally() for name in results.modules}
    for mutant, verdict in results.verdicts:
        groups[mutant.module].add(verdict)
    return groups


def filed_under(mutant: Mutant, verdict: Verdict) -> tuple[str, ...]:
    """The rule IDs a mutant counts for: a killed one, those of the cases that failed on it
    (what noticed it); a survivor (or a kill by a golden game or a timeout, which name no
    case), those its code cites; :data:`NO_RULE` when there are none."""
    if verdict.status in KILLED and verdict.rules:
        return verdict.rules
    return mutant.rules or (NO_RULE,)


def by_rule(results: Results) -> dict[str, Tally]:
    """Counts per rule ID (:func:`filed_under`; a mutant may count for several)."""
    groups: dict[str, Tally] = {}
    for mutant, verdict in results.verdicts:
        for rule in filed_under(mutant, verdict):
            groups.setdefault(rule, Tally()).add(verdict)
    return dict(sorted(groups.items(), key=lambda item: _rule_key(item[0])))


def _rule_key(rule: str) -> tuple[bool, str, list[int]]:
    found = re.match(r"([A-Z]+)([\d.]+)$", rule)
    if found is None:
        return (True, rule, [])
    return (False, found.group(1), [int(p) for p in found.group(2).split(".") if p])


def survivors(results: Results) -> list[tuple[Mutant, Verdict]]:
    """The surviving mutants (not reached included), in source order."""
    return [(m, v) for m, v in results.verdicts if v.status not in KILLED]


def summary(results: Results) -> dict[str, Any]:
    """The whole report as plain data (what ``--json`` prints)."""
    return {
        "game": results.game,
        "modules": {name: t.as_dict() for name, t in by_module(results).items()},
        "rules": {rule: t.as_dict() for rule, t in by_rule(results).items()},
        "total": tally(results.verdicts).as_dict(),
        "generated": results.total,
        "not_run": results.not_run,
        "seconds": round(results.seconds, 1),
        "survivors": [
            {
                "file": str(m.path),
                "line": m.line,
                "function": m.function,
                "operator": m.edit.operator,
                "change": m.edit.description,
                "rules": list(m.rules),
                "status": v.status,
                "diff": m.diff(results.sources[m.module]),
            }
            for m, v in survivors(results)
        ],
    }
