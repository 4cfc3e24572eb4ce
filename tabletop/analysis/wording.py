"""The words of the analysis' pages, plots and terminal tables (headings, column heads,
axis labels, legends, captions), marked for the catalogues like :mod:`tabletop.analysis.text`
(its sentences), and numbers in the reader's language.

Each is translated where it is drawn or printed (:func:`say`); machine words (JSON keys,
``data-plot`` names, CSV heads, end kinds, option keys) never pass through here. English
stays byte for byte what the analysis always printed.
"""

from __future__ import annotations

from typing import Any, cast

from tabletop.core.i18n.catalogues import ENGLISH
from tabletop.core.i18n.formats import number, percent
from tabletop.core.i18n.text import Domain, Msg, current, translate

_ = Domain("tabletop")


def say(message: object) -> str:
    """``message`` in the current language (a plain string as it is)."""
    return translate(message)


def pct(share: float, digits: int = 0, lang: str | None = None) -> str:
    """A share (0..1) in percent: ``83%`` in English, ``83 %`` in Czech."""
    lang = lang or current()
    if lang == ENGLISH:
        return f"{share * 100:.{digits}f}%"
    if not digits:
        return percent(round(share * 100), lang)
    # the language's percent pattern ("50 %", "50%") around the number with its decimals
    return percent(50, lang).replace("50", number(share * 100, lang, digits))


def num(value: float, digits: int = 0) -> str:
    """A number with ``digits`` decimals: ``0.33`` in English, ``0,33`` in Czech."""
    return number(value, current(), digits)


def short(value: float) -> str:
    """A number as short as it goes (``20``, ``12.5``: ``:g``), in the reader's digits."""
    lang = current()
    if lang == ENGLISH:
        return f"{value:g}"
    from babel.numbers import format_decimal

    return str(format_decimal(float(f"{value:g}"), locale=lang))


class Share(Msg):
    """A share inside a message, in percent in the reader's language where it is shown
    (``83%``, ``83 %``): pass it as a parameter, as :class:`~tabletop.core.i18n.formats.Count`."""

    share: float
    digits: int

    def __new__(cls, share: float, digits: int = 0) -> Share:
        self = cast("Share", super().__new__(cls, f"{share * 100:.{digits}f}%", None, ""))
        self.share, self.digits = share, digits
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Share, (self.share, self.digits))

    def translated(self, lang: str) -> str:
        return str(self) if lang == ENGLISH else pct(self.share, self.digits, lang)


class Digits(Msg):
    """A number already written in English digits (``+1.7``, ``0.016``): its decimal point
    the reader's (``+1,7`` in Czech) where it is shown."""

    def __new__(cls, english: str) -> Digits:
        return cast("Digits", super().__new__(cls, english, None, ""))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Digits, (str(self),))

    def translated(self, lang: str) -> str:
        if lang == ENGLISH:
            return str(self)
        from babel.numbers import get_decimal_symbol

        return str(self).replace(".", get_decimal_symbol(lang))


def versus(higher: object, lower: object) -> Msg:
    """``2 vs 1``: a higher level against a lower one."""
    return _("{higher} vs {lower}", higher=higher, lower=lower)


def level_named(level: str, description: object) -> Msg:
    """``level 3: novice (...)``."""
    return _("level {level}: {description}", level=level, description=description)


NOT_SIGNIFICANT = _("n.s.")
FAIR = _("fair {rate}")
NOTHING = _("nothing")

# -- analyse --report ---------------------------------------------------------------------
BALANCE_TITLE = _("{game}: balance report")
SETTINGS = _(
    "seed {seed}; swept: {swept}. Played by: {levels}. Every number speaks for these levels "
    "only. Minutes are an estimate at {seconds} s a turn. The measures are explained in "
    "docs/analysis.md."
)


def games_per_row(games: int) -> Msg:
    return _.plural(
        "{n} game per configuration and level", "{n} games per configuration and level", games
    )


SUMMARY = _("Summary")
DOWNLOAD = _("Download every number (JSON, {name})")
PER_GAME_ROWS = _("the per-game rows come with {flag}")
HEAD_CONFIGURATION = _("configuration")
HEAD_LEVEL = _("level")
HEAD_SEAT = _("seat {seat}")  # also the plots' seat legend
HEAD_FAIR = _("fair")
HEAD_DRAWS = _("draws")
HEAD_ENDED = _("how games ended")
HEAD_TURNS = _("turns (median)")
HEAD_MINUTES = _("minutes (est.)")
HEAD_POINTS = _("points a seat")
HEAD_MARGIN = _("margin")
HEAD_SKILL = _("skill")

# -- the plots --------------------------------------------------------------------------
PLOT_SEATS = _(
    "Seat win rates against a fair share, in points, 95% intervals (filled: clear of fair; "
    "hollow: not)"
)
AXIS_SEATS = _("points above (+) or below (−) a fair seat's share")
PLOT_ENDINGS = _("How games ended (warm colours: not the rules' own end)")
AXIS_SHARE = _("share of games")
WITH_INTERVALS = _("{title}, 95% intervals")
PLOT_MARGIN = _("Score margin: first minus second in points, 95% intervals")
AXIS_POINTS = _("points")
AXIS_SKILL = _("higher level's score (a draw counts 1/N); red dashes: 1/N")
PLOT_SKILL = _("Skill: the higher level in one seat, the lower in the others")
BOXES = {
    "length_turns": _("Length of a game in turns"),
    "length_actions": _("Length of a game in actions"),
    "branching_spread": _("Legal actions a decision (branching)"),
}
BOX_UNITS = {"length_actions": _("actions"), "branching_spread": _("legal actions")}
AXIS_TURNS = _("turns (1 turn ≈ {seconds} s of play: an estimate)")
MEANS = {
    "lead_changes": (_("Lead changes a game"), _("changes")),
    "decisiveness": (_("Decisiveness (0: decided at the end)"), _("share of the game")),
    "drama": (_("Drama: how far the winner lagged"), _("evaluation")),
    "stability": (_("Stability: evaluation variance"), _("variance")),
    "clarity": (_("Clarity: spread of a choice's results"), _("var.")),
}
CAPTIONS = {
    "seat_win_rates": _(
        "Each seat's win rate minus a fair seat's share, in points, with its 95% interval "
        "(AdvantageP1, Balance). A filled dot is an interval clear of the red dashes (0: "
        "fair), a seat edge, bold in the summary; a hollow dot's interval crosses them: no "
        "evidence, not fairness. A shared win counts 1/k for each of k winners."
    ),
    "endings": _(
        "The rules' own ends against cuts (turn limit, block, stall): a cut is a game the "
        "rules did not decide. Each kind keeps its colour in every game's report."
    ),
    "length_turns": _(
        "Box: the middle half of games; whiskers: shortest and longest; line: median; "
        "triangle: mean. A turn ends when the player to act changes."
    ),
    "length_actions": _("The same in actions (every decision a player takes)."),
    "branching": _(
        "The number of legal actions at a decision, over all decisions (Ludii's "
        "BranchingFactor): how wide the choices are."
    ),
    "lead_changes": _("How often the leader by the game's evaluation changed (LeadChange)."),
    "decisiveness": _(
        "The share of a game after the winner passed everyone's best evaluation "
        "(DecisivenessMoves): near 0 a close game, near 1 decided early."
    ),
    "drama": _(
        "How far below the leader the eventual winner was, on average (Drama): 0 when the "
        "winner always led; higher, more comebacks."
    ),
    "stability": _(
        "The variance of each player's evaluation over a game (Stability): low, steady "
        "games; high, swings."
    ),
    "clarity": _(
        "The spread of the mover's evaluation over its choices (ClarityVariance): near 0 "
        "every choice looks alike; higher, some choices are clearly better."
    ),
    "score_margin": _("The winner's points minus the next player's (ScoreDifference)."),
    "skill": _(
        "Jaffe's restricted play: the higher level's score in one seat; green bars are "
        "significantly away from 1/N (the game rewards skill), grey are not."
    ),
}
TITLES = {
    "seat_win_rates": _("Seat win rates"),
    "endings": _("How games ended"),
    "length_turns": _("Length in turns"),
    "length_actions": _("Length in actions"),
    "branching": _("Branching distribution"),
    "lead_changes": _("Lead changes"),
    "decisiveness": _("Decisiveness"),
    "drama": _("Drama"),
    "stability": _("Stability"),
    "clarity": _("Clarity (uncertainty of the choices)"),
    "score_margin": _("Score margin"),
    "skill": _("Skill"),
}

# -- compare --report -----------------------------------------------------------------------
COMPARE_PAGE_TITLE = _("{game}: {changes} against the baseline")


def compare_intro(games: int, players: int, agents: str) -> Msg:
    """The compare page's first line: the games, the players, who played."""
    first = _.plural("{n} paired game a level", "{n} paired games a level", games)
    rest = _(
        "({players}): game i of both arms has the same seed and seats. Played by: {agents}.",
        players=players_word(players),
        agents=agents,
    )
    return Msg.joined(" ", [first, rest])


def players_word(players: int) -> Msg:
    return _.plural("{n} player", "{n} players", players)


HEAD_MEASURES = _("Measures")
HEAD_DIFFERENCES = _("Differences")
HEAD_MEASURE = _("measure")
HEAD_BASELINE = _("baseline")
HEAD_VARIANT = _("variant")
HEAD_DIFFERENCE = _("difference [95% interval]")
HEAD_DIFFERENCE_CI = _("difference [95% CI]")
HEAD_P_HOLM = _("p (Holm)")
HEAD_TEST = _("test")
TESTS = {"exact McNemar": _("exact McNemar"), "Wilcoxon signed-rank": _("Wilcoxon signed-rank")}
PLOT_CAPTION = _(
    "Each measure's difference (variant − baseline) with its 95% paired interval: rates in "
    "percentage points, the other measures in % of the baseline. Filled red: a finding (the "
    "Holm-adjusted p-value below 5% and the interval clear of 0). Hollow grey: no finding, "
    "even where the interval clears 0: tested together, some intervals clear 0 by chance, "
    "which the adjusted p-value allows for."
)


def table_caption(tests: int) -> Msg:
    """What the compare table's p-values are, for ``tests`` measures tested together."""
    return _.plural(
        "p: the measure's own paired test; p (Holm): adjusted for the {n} measure that "
        "moved, tested at once. Bold: a finding; grey: none.",
        "p: the measure's own paired test; p (Holm): adjusted for the {n} measures that "
        "moved, tested at once. Bold: a finding; grey: none.",
        tests,
    )


AXIS_POINTS_DIFFERENCE = _("difference in percentage points (variant − baseline)")
AXIS_RELATIVE_DIFFERENCE = _("difference in % of the baseline (variant − baseline)")
PANEL_RATES = _("shares of games")
PANEL_OTHERS = _("lengths and per-game measures")
PLOT_DIFFERENCES = _(
    "Differences with 95% intervals (filled red: a finding after Holm's correction; hollow "
    "grey: none)"
)

# -- the terminal ---------------------------------------------------------------------------


def games_a_row(game: str, games: int, seed: int) -> Msg:
    """``quarto: 100 games a row, seed 0``."""
    return _.plural(
        "{game}: {n} game a row, seed {seed}",
        "{game}: {n} games a row, seed {seed}",
        games,
        game=game,
        seed=seed,
    )


def speed(seconds: str, rate: str, jobs: int, backend: str) -> Msg:
    """The last line: how long the run took, at what pace, on how many jobs."""
    return _.plural(
        "{seconds} s, {rate} games/s on {n} job, backend {backend}",
        "{seconds} s, {rate} games/s on {n} jobs, backend {backend}",
        jobs,
        seconds=seconds,
        rate=rate,
        backend=backend,
    )


LEVELS = _("levels: {names}")
PLAYING = _("{what}: playing")
COLUMNS = {
    "lvl": _("lvl"),
    "seats won %": _("seats won %"),
    "bal": _("bal"),
    "draw": _("draw"),
    "done": _("done"),
    "turns": _("turns"),
    "min": _("min"),
    "acts": _("acts"),
    "bf": _("bf"),
    "lead": _("lead"),
    "dec": _("dec"),
    "drama": _("drama"),
    "points": _("points"),
    "margin": _("margin"),
}
LEGEND = _(
    "seats won %: each seat's win rate, seat 1 first (a shared win counts 1/k), ± the widest "
    "half 95% interval, * and bold: an interval clear of a fair share (an edge), dim: not; "
    "bal: balance (1 = all seats equal); done: ended by the rules (no cut, block or stall); "
    "turns: mean; min: minutes, an estimate at {seconds} s a turn (--seconds-per-turn); "
    "acts: actions mean±sd; bf: legal actions per decision"
)
EVALUATED = _("; lead: lead changes a game; dec: decisiveness; drama (Ludii; docs/analysis.md)")
SCORED = _("; points: mean points per seat; margin: first minus second, 95% interval")
SKILL_TITLE = _("skill: higher level in one seat, lower in the others")
SKILL_COLUMNS = (
    _("configuration"),
    _("levels"),
    _("won"),
    _("score, 95% CI"),
    _("fair"),
    _("gap"),
    _("draws"),
)
GAP = _("{gap} pts")
COMPARE_LEGEND = _(
    "difference: variant − baseline (pts: percentage points; drama, stability, clarity and "
    "decisiveness in % of the baseline), 95% paired t interval; p: exact McNemar for "
    "won/drawn/ended-so measures, Wilcoxon signed-rank for the others; p (Holm): adjusted "
    "for testing every measure that moved at once; * and bold: a finding (p (Holm) < 0.05 "
    "and the interval clear of 0); dim: no finding (docs/analysis.md)"
)
DEFAULTS = _("defaults")
DURATION_SECONDS = _("{s} s")
DURATION_MINUTES = _("{m} min {s} s")
DURATION_HOURS = _("{h} h {m} min")
