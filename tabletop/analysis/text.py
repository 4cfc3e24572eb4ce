"""Every sentence ``analyse`` and ``compare`` show a person, in one place (for gettext).

Machine names (the JSON's measure names) stay as they are; ``MEASURE_WORDS`` says
them in words for tables, verdicts and plots.
"""

from __future__ import annotations

MEASURE_WORDS = {
    "seat_win": "seat {seat} wins",
    "draw": "draws",
    "end": "ends {kind}",
    "length_turns": "length (turns)",
    "length_actions": "length (actions)",
    "branching": "legal actions a decision",
    "lead_changes": "lead changes a game",
    "decisiveness": "decisiveness",
    "drama": "drama",
    "stability": "stability",
    "clarity": "clarity (spread of choices)",
    "score_margin": "score margin (points)",
    "skill_gap": "skill gap, {higher} vs {lower}",
}

LEVEL = "level {level} ({description})"
COMPARE_TITLE = (
    "{game}: {changes} against the baseline ({baseline}); {games} paired games a level, "
    "seed {seed} (same seeds and seats in both)"
)
VERDICT_SAME = (
    "Verdict at {level}: no difference at all; the variant played exactly the same "
    "{games} games as the baseline."
)
VERDICT_NONE = (
    "Verdict at {level}: no finding over {games} paired games (5% level after Holm's "
    "correction for the {tests} measures that moved)."
)
VERDICT_SOME = (
    "Verdict at {level}: {changes} (paired, {games} games; 5% level after Holm's "
    "correction for {tests} measures)."
)
VERDICT_SKILL = "Verdict at {level}: {changes} (paired, {games} games, Holm-adjusted)."
VERDICT_TINY = (
    "Verdict at {level}: no change of practical size over {games} paired games; only "
    "{measures} moved significantly, by less than 2 points or 5%."
)
VERDICT_SKILL_SAME = "Skill: {changes}, not significant ({games} games)."
VERDICT_ITEM = "{measure} {change}"
OF_BASELINE = "% of the baseline"
UNDER_TEN = "under 10"
ABOUT = "about {games}"
RANGE = "about {fewest} to {most}"
POWER = (
    "Power at {level}: the change altered a seat's result in {changed} of the games; from "
    "these paired differences {games_rate} paired games detect a {points}-point change in "
    "a seat's win rate{length} (80% power, Holm's level)."
)
POWER_NEVER = (
    "Power at {level}: the change altered a seat's result in only {changed} of the games, "
    "so it cannot move a seat's win rate by {points} points, however many games are "
    "played{length}."
)
POWER_LENGTH = "; {games_turns} detect a change of {turns} turn(s) in length"
POWER_LENGTH_NEVER = "; it changes too few games' length to move it by {turns} turn(s)"
P_PAIR = "p={p}, {adjusted} after Holm's correction"
WIDE = (
    "Warning at {level}: {measure} moved {change}, which is no finding ({p}): {games} "
    "games cannot support that difference; {needed} would."
)
WIDE_SEATS = (
    "Warning at {level}: {count} seats' win rates moved, the most {seat} {largest} "
    "({p}), none a finding: {games} games cannot support those differences; {needed} "
    "would."
)
LEVEL_CHANGES = "The conclusion changes with the level for {measure}: {findings}."
LEVEL_FINDING = "{change} (adjusted p={p}) at level {level}"
NOT_SIGNIFICANT = "no finding at level {level} ({change}, adjusted p={p})"
UNCHANGED = "no game changed at level {level}"
REPLICATION = "Replication on {count} fresh seed(s) ({seeds}): {findings}."
REPLICATED = "{measure} {change} held in {held} of {count}"
REPLICATION_NONE = (
    "Replication on {count} fresh seed(s) ({seeds}): the run has no finding to replicate."
)
REPLICATION_ONLY = (
    "Found on a fresh seed but not in the run (chance, or too few games): {measures}."
)
SEAT_WIDE = (
    "Warning ({where}): {games} games measure seat {seat} ({rate} against a fair {fair}) "
    "to ±{half} points, more than half its {gap}-point distance from fair, so they show "
    "the direction at most; about {needed} games would measure it to ±{target} points."
)
SEAT_WIDE_MANY = (
    "Warning: in {count} of {rows} configurations and levels, {games} games measure a "
    "seat to more than half its distance from a fair share, so they show the direction at "
    "most; up to about {needed} games a row would bring every such interval to half the "
    "distance."
)
SEAT_LEVELS = "The seat verdict changes with the level ({where}): {findings}."
COMPLETION_LEVELS = "How games end changes with the level ({where}): ended by the rules {findings}."
COMPLETION_AT = "{rate} at level {level}"
SEAT_FAIR = "seats level at {level}"
SEAT_EDGE = "seat {seat} {rate} against a fair {fair} at {level}"
MINUTES = "min (est., {seconds:g} s a turn)"
PROGRESS = "{what}: {done}/{total} games ({percent}%), {elapsed} so far, about {left} left"
PROGRESS_DONE = "{what}: {total} games played in {elapsed}"
REPORT_WRITTEN = "report written to {path}"
EXPORT_WRITTEN = "{rows} games written to {path}"
EXPORT_WRITTEN_MEASURES = "the measures, raw and adjusted p-values, written to {path}"
STOPPED = (
    "Stopped: partial results of the {finished} of {planned} games finished; every "
    "number below speaks for those alone."
)
STOPPED_RESUME = "Continue with the same words and --resume {path}."
