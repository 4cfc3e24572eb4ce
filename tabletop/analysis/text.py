"""Every sentence ``analyse`` and ``compare`` show a person, in one place, marked for the
catalogues (``_``: translated where it is shown, :func:`tabletop.core.i18n.text.translate`).

Machine names (the JSON's measure names) stay as they are; ``MEASURE_WORDS`` says
them in words for tables, verdicts and plots.
"""

from __future__ import annotations

from tabletop.core.i18n.text import Domain, Msg

_ = Domain("tabletop")

MEASURE_WORDS = {
    "seat_win": _("seat {seat} wins"),
    "draw": _("draws"),
    "end": _("ends {kind}"),
    "length_turns": _("length (turns)"),
    "length_actions": _("length (actions)"),
    "branching": _("legal actions a decision"),
    "lead_changes": _("lead changes a game"),
    "decisiveness": _("decisiveness"),
    "drama": _("drama"),
    "stability": _("stability"),
    "clarity": _("clarity (spread of choices)"),
    "score_margin": _("score margin (points)"),
    "skill_gap": _("skill gap, {higher} vs {lower}"),
}

LEVEL = _("level {level} ({description})")
COMPARE_TITLE = _(
    "{game}: {changes} against the baseline ({baseline}); {games} paired games a level, "
    "seed {seed} (same seeds and seats in both)"
)
VERDICT_SAME = _(
    "Verdict at {level}: no difference at all; the variant played exactly the same "
    "{games} games as the baseline."
)
VERDICT_NONE = _(
    "Verdict at {level}: no finding over {games} paired games (5% level after Holm's "
    "correction for the {tests} measures that moved)."
)
VERDICT_SOME = _(
    "Verdict at {level}: {changes} (paired, {games} games; 5% level after Holm's "
    "correction for {tests} measures)."
)
VERDICT_SKILL = _("Verdict at {level}: {changes} (paired, {games} games, Holm-adjusted).")
VERDICT_TINY = _(
    "Verdict at {level}: no change of practical size over {games} paired games; only "
    "{measures} moved significantly, by less than 2 points or 5%."
)
VERDICT_SKILL_SAME = _("Skill: {changes}, not significant ({games} games).")
VERDICT_ITEM = _("{measure} {change}")
OF_BASELINE = _("% of the baseline")
UNDER_TEN = _("under 10")
ABOUT = _("about {games}")
RANGE = _("about {fewest} to {most}")
POWER = _(
    "Power at {level}: the change altered a seat's result in {changed} of the games; "
    "from these paired differences {games_rate} paired games detect a {points}-point "
    "change in a seat's win rate{length} (80% power, Holm's level)."
)
POWER_NEVER = _(
    "Power at {level}: the change altered a seat's result in only {changed} of the "
    "games, so it cannot move a seat's win rate by {points} points, however many games "
    "are played{length}."
)
P_PAIR = _("p={p}, {adjusted} after Holm's correction")
WIDE = _(
    "Warning at {level}: {measure} moved {change}, which is no finding ({p}): {games} "
    "games cannot support that difference; {needed} would."
)
WIDE_SEATS = _(
    "Warning at {level}: {count} seats' win rates moved, the most {seat} {largest} "
    "({p}), none a finding: {games} games cannot support those differences; {needed} "
    "would."
)
LEVEL_CHANGES = _("The conclusion changes with the level for {measure}: {findings}.")
LEVEL_FINDING = _("{change} (adjusted p={p}) at level {level}")
NOT_SIGNIFICANT = _("no finding at level {level} ({change}, adjusted p={p})")
UNCHANGED = _("no game changed at level {level}")
REPLICATED = _("{measure} {change} held in {held} of {count}")
REPLICATION_ONLY = _(
    "Found on a fresh seed but not in the run (chance, or too few games): {measures}."
)
SEAT_WIDE = _(
    "Warning ({where}): {games} games measure seat {seat} ({rate} against a fair {fair}) "
    "to ±{half} points, more than half its {gap}-point distance from fair, so they show "
    "the direction at most; about {needed} games would measure it to ±{target} points."
)
SEAT_WIDE_MANY = _(
    "Warning: in {count} of {rows} configurations and levels, {games} games measure a "
    "seat to more than half its distance from a fair share, so they show the direction "
    "at most; up to about {needed} games a row would bring every such interval to half "
    "the distance."
)
SEAT_LEVELS = _("The seat verdict changes with the level ({where}): {findings}.")
COMPLETION_LEVELS = _(
    "How games end changes with the level ({where}): ended by the rules {findings}."
)
COMPLETION_AT = _("{rate} at level {level}")
SEAT_FAIR = _("seats level at {level}")
SEAT_EDGE = _("seat {seat} {rate} against a fair {fair} at {level}")
PROGRESS = _("{what}: {done}/{total} games ({percent}%), {elapsed} so far, about {left} left")
PROGRESS_DONE = _("{what}: {total} games played in {elapsed}")
REPORT_WRITTEN = _("report written to {path}")
EXPORT_WRITTEN = _("{rows} games written to {path}")
EXPORT_WRITTEN_MEASURES = _("the measures, raw and adjusted p-values, written to {path}")
STOPPED = _(
    "Stopped: partial results of the {finished} of {planned} games finished; every "
    "number below speaks for those alone."
)
STOPPED_RESUME = _("Continue with the same words and --resume {path}.")
LEVEL_WORD = _("level {level}")
INTERVAL = _("{difference}{unit} [{low}, {high}]")
UNIT_POINTS = _(" pts")
UNITS = {
    "length_turns": _(" turns"),
    "length_actions": _(" actions"),
    "lead_changes": _(" changes"),
    "branching": _(" actions"),
    "score_margin": _(" points"),
}
MEASURE_AT = _("{measure}, level {level}")
MEASURE_LEVEL = _("{measure} ({level})")
WHERE = _("{configuration}, level {level}")


def power_length(turns: int, games: str | None) -> Msg:
    """The power hint's length clause: ``games`` paired games detect a change of ``turns``
    turns, or (None) the change moves too few games' length ever to."""
    if games is None:
        return _.plural(
            "; it changes too few games' length to move it by {n} turn",
            "; it changes too few games' length to move it by {n} turns",
            turns,
        )
    return _.plural(
        "; {games_turns} detect a change of {n} turn in length",
        "; {games_turns} detect a change of {n} turns in length",
        turns,
        games_turns=games,
    )


def replication(count: int, seeds: str, findings: Msg | None) -> Msg:
    """What the fresh seeds said: which findings held (None: the run has none)."""
    if findings is None:
        return _.plural(
            "Replication on {n} fresh seed ({seeds}): the run has no finding to replicate.",
            "Replication on {n} fresh seeds ({seeds}): the run has no finding to replicate.",
            count,
            seeds=seeds,
        )
    return _.plural(
        "Replication on {n} fresh seed ({seeds}): {findings}.",
        "Replication on {n} fresh seeds ({seeds}): {findings}.",
        count,
        seeds=seeds,
        findings=findings,
    )
