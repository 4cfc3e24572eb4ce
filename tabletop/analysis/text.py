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
    "Verdict at {level}: no measure changed significantly over {games} paired games (5% level)."
)
VERDICT_SOME = "Verdict at {level}: {changes} (paired, 5% level, {games} games)."
VERDICT_TINY = (
    "Verdict at {level}: no change of practical size over {games} paired games; only "
    "{measures} moved significantly, by less than 2 points or 5%."
)
VERDICT_SKILL_SAME = "Skill: {changes}, not significant ({games} games)."
VERDICT_ITEM = "{measure} {change}"
UNDER_TEN = "under 10"
ABOUT = "about {games}"
RANGE = "about {fewest} to {most}"
POWER = (
    "Power at {level}: with these spreads {games_rate} paired games detect a {points}-point "
    "change in a seat's win rate{length}."
)
POWER_LENGTH = ", {games_turns} a change of {turns} turn(s) in length"
WIDE = (
    "Warning at {level}: {measure} moved {change}, an interval that holds 0: {games} games "
    "cannot support that difference; {needed} would."
)
WIDE_SEATS = (
    "Warning at {level}: {count} seats' win rates moved, the most {seat} {largest}, with "
    "intervals that hold 0: {games} games cannot support those differences; {needed} "
    "would."
)
LEVEL_CHANGES = "The conclusion changes with the level for {measure}: {findings}."
LEVEL_FINDING = "{change} (p={p}) at level {level}"
NOT_SIGNIFICANT = "n.s. at level {level}"
SEAT_WIDE = (
    "Warning ({where}): {games} games are too few for seat differences this size (seat "
    "{seat}: {rate} against a fair {fair}, ±{half} points); they show at most the "
    "direction; about {needed} games would measure a seat to ±2 points."
)
SEAT_WIDE_MANY = (
    "Warning: in {count} of {rows} configurations and levels, {games} games are too few "
    "for the seat differences they show (an interval at least half as wide as the "
    "difference): they give the direction at most; about {needed} games a row would "
    "measure a seat to ±2 points."
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
