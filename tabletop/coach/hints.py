"""An assessment as a hint for people: exact values grouped, estimates with their confidence.

Exact actions are listed in full under what they lead to (every winning and every
losing action is named); estimated ones best first, at most :data:`SHOWN`, each with its
win chance, a 95% margin from its visits, and the game's sentence of why.
"""

from __future__ import annotations

import math

from tabletop.coach.base import DRAW, LOSS, WIN, Assessment, Judgement
from tabletop.core.i18n.text import Domain, Msg

_ = Domain("tabletop")

SHOWN = 5  # estimated actions listed in a hint
FEWEST = 10  # playouts an estimate needs to be shown with its percent

# Every sentence a person reads, in one place (for the catalogues).
# (Msgs: translated where shown; the hint is a Msg too, its lines translated one by one)
EXACT_ALL = _("Exact ({method}): every action settled.")
EXACT_SOME = _("Exact ({method}) where settled:")
ESTIMATED = _("Estimates ({method}), not proof:")
GROUPS: dict[str, str] = {WIN: _("winning:"), DRAW: _("holding the draw:"), LOSS: _("losing:")}
SHARED = _("shared win:")
VALUE_WORDS: dict[str, str] = {
    WIN: _("wins with best play"),
    DRAW: _("draws with best play"),
    LOSS: _("loses"),
}
MORE = _("… and {count} more; last in the ranking: {text} at {percent}%")
ONLY = _("only one legal action: {text}")


def margin(chance: float, visits: int) -> float:
    """The 95% normal margin of a mean of ``visits`` rewards around ``chance`` (0 to 1),
    the chance taken with one win and one loss added (Laplace): 0 of 3 playouts is no
    sure loss (a margin of 0 would say it is)."""
    if visits <= 0:
        return 1.0
    shrunk = (chance * visits + 1) / (visits + 2)
    return 1.96 * math.sqrt(shrunk * (1 - shrunk) / visits)


def estimate_text(j: Judgement) -> str:
    """``63% to win (±4%, 1200 playouts)``."""
    return _.plural(
        "{percent}% to win (±{margin}%, {n} playout)",
        "{percent}% to win (±{margin}%, {n} playouts)",
        j.visits,
        percent=round(100 * j.chance),
        margin=round(100 * (margin(j.chance, j.visits) if j.margin is None else j.margin)),
    )


def words(j: Judgement) -> str:
    """The action as people read it: in the game's words, else its notation."""
    return j.said or j.text


def line(j: Judgement) -> str:
    """One action: its words, what it is worth, and why."""
    if j.exact:
        said = j.why or VALUE_WORDS.get(j.value or "", SHARED)
        return Msg.joined("", ("  ", words(j), ": ", said))
    said = estimate_text(j)
    return Msg.joined("", ("  ", words(j), ": ", said, *(("; ", j.why) if j.why else ())))


def hint_text(assessment: Assessment) -> str:
    """The hint: exact actions grouped by value (all of them), then the estimates."""
    judged = assessment.judgements
    if len(judged) == 1:
        return ONLY.format(text=words(judged[0]))
    exact = [j for j in judged if j.exact]
    guessed = [j for j in judged if not j.exact]
    lines: list[str] = []
    if exact:
        header = EXACT_ALL if not guessed else EXACT_SOME
        lines.append(header.format(method=assessment.method))
        for value in (WIN, DRAW, LOSS, None):
            group = [j for j in exact if j.value == value]
            if group:
                lines.append(GROUPS.get(value or "", SHARED))
                lines.extend(line(j) for j in group)
    if guessed:
        lines.append(ESTIMATED.format(method=assessment.method))
        lines.extend(estimate_lines(guessed))
    return Msg.joined("\n", lines)


def estimate_lines(guessed: list[Judgement]) -> list[str]:
    """The estimated actions, best first: those resting on at least :data:`FEWEST`
    playouts, actions judged alike (the same chance on the same playouts, e.g. Quartino's
    false claims, each as good as ``end``) on one line, at most :data:`SHOWN` lines; the
    ones tried too little counted on one line, with no number they cannot support."""
    sound = [j for j in guessed if j.visits >= FEWEST]
    thin = len(guessed) - len(sound)
    groups: list[list[Judgement]] = []
    for j in sound:
        last = groups[-1][0] if groups else None
        if last is not None and (last.chance, last.visits, last.why) == (j.chance, j.visits, j.why):
            groups[-1].append(j)
        else:
            groups.append([j])
    lines: list[str] = []
    for group in groups[:SHOWN]:
        first = group[0]
        if len(group) == 1:
            lines.append(line(first))
        else:
            said = Msg.joined("", (estimate_text(first), *(("; ", first.why) if first.why else ())))
            lines.append(
                _.plural(
                    "  {text} and {n} more action alike: {said}",
                    "  {text} and {n} more actions alike: {said}",
                    len(group) - 1,
                    text=words(first),
                    said=said,
                )
            )
    rest = [j for group in groups[SHOWN:] for j in group]
    if rest:
        last = rest[-1]
        lines.append(
            MORE.format(count=len(rest), text=words(last), percent=round(100 * last.chance))
        )
    if thin:
        lines.append(
            _.plural(
                "… and {n} more the search tried too little to judge "
                "(under {fewest} playouts each)",
                "… and {n} more the search tried too little to judge "
                "(under {fewest} playouts each)",
                thin,
                fewest=FEWEST,
            )
        )
    return lines
