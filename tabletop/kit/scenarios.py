"""Rule scenarios: the YAML format, loading with line numbers, and running one case.

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

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from tabletop.core import options as opts
from tabletop.core.errors import ActionError, NotationError, PositionError, TabletopError, one_line
from tabletop.core.match import Match
from tabletop.core.registry import Registry, registry
from tabletop.game import Game

FORMAT = "tabletop-scenarios/1"
FORMAT_LINE = re.compile(rf"^format:\s*['\"]?{re.escape(FORMAT)}\b", re.MULTILINE)
TOP_KEYS = ("format", "title", "game", "spec_rules", "define", "cases")
RULE_ID = re.compile(r"^[A-Z]+\d+(?:\.\d+)*$")

Path_ = tuple[str | int, ...]


# -- the format ----------------------------------------------------------------------------
class _Model(BaseModel):
    # ``do: 15`` and ``rules: [8]`` mean the text "15" and "8"
    model_config = ConfigDict(extra="forbid", frozen=True, coerce_numbers_to_str=True)


class Expect(_Model):
    """What must hold after a step. Only the keys given are checked."""

    status: Literal["ongoing", "over"] | None = Field(None, description="ongoing or over")
    winners: list[int] | None = Field(None, description="the winners; [] for a draw")
    reason: str | None = Field(None, description="a fragment of the outcome's reason")
    to_act: int | None = Field(None, description="the player to act; null when over")
    legal: list[str] | None = Field(None, description="exactly these legal actions")
    legal_contains: list[str] | None = Field(None, description="these actions are legal")
    legal_excludes: list[str] | None = Field(None, description="these actions are not legal")
    listing: list[str] | None = Field(None, description="exactly these listed actions")
    listing_contains: list[str] | None = Field(None, description="these actions are listed")
    listing_excludes: list[str] | None = Field(None, description="these are not listed")
    scores: dict[int, int] | None = Field(None, description="points per player")
    state: dict[str, Any] | None = Field(None, description="subset of the position JSON")
    view: dict[str, Any] | list[dict[str, Any]] | None = Field(
        None, description="{player: N or null, ...subset of that player's view}"
    )

    @model_validator(mode="after")
    def _views_name_a_player(self) -> Expect:
        for view in _as_list(self.view):
            if "player" not in view:
                raise ValueError("a view expectation needs 'player: N' (or null for spectator)")
            player = view["player"]
            if not (player is None or player == "spectator" or type(player) is int):
                raise ValueError(f"view player must be a number or null, not {player!r}")
        return self


class Step(_Model):
    """One step: play ``do`` (text or list), or run the clock out, then check ``expect``."""

    do: str | list[str] | None = Field(None, description="action(s) to play, in notation")
    refused: str | None = Field(None, description="the action must be refused citing this")
    time_out: int | None = Field(None, description="this player runs out of time")
    expect: Expect | None = Field(None, description="what must hold after the step")
    note: str = Field("", description="a word for the reader")

    @model_validator(mode="after")
    def _one_kind(self) -> Step:
        if self.refused is not None and not isinstance(self.do, str):
            raise ValueError("'refused' needs 'do' with a single action")
        if self.do is not None and self.time_out is not None:
            raise ValueError("a step has either 'do' or 'time_out', not both")
        if self.do is None and self.time_out is None and self.expect is None:
            raise ValueError("an empty step: give 'do', 'time_out' or 'expect'")
        return self


class Case(_Model):
    """One scenario: game, options, players, seed, a start, and steps."""

    name: str = Field(description="what the case shows, in a few words (unique in the file)")
    rules: list[str] = Field([], description="rule IDs the case covers")
    note: str = Field("", description="a word for the reader")
    game: str | None = Field(None, description="game id (default: the file's 'game')")
    options: dict[str, Any] = Field({}, description="game options (default: the defaults)")
    players: int | None = Field(None, description="player count (default: the minimum)")
    seed: int = Field(0, description="the seed of the game")
    position: dict[str, Any] | None = Field(None, description="start: the position JSON")
    actions: list[str] = Field([], description="start: actions played first (after position)")
    steps: list[Step] = Field(min_length=1, description="the steps, checked in order")


_NESTED: dict[str, type[BaseModel]] = {"steps": Step, "expect": Expect}


def _as_list(value: dict[str, Any] | list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


# -- loading -------------------------------------------------------------------------------
class _Lines:
    """Line numbers (1-based) of every key and list item of a YAML document, by path."""

    def __init__(self) -> None:
        self.at: dict[Path_, int] = {}

    def line(self, path: Sequence[str | int]) -> int:
        """The line of ``path`` or of its nearest ancestor that has one."""
        key: Path_ = tuple(str(p) if not isinstance(p, int) else p for p in path)
        while key:
            if key in self.at:
                return self.at[key]
            key = key[:-1]
        return self.at.get((), 1)


class ScenarioFileError(TabletopError):
    """A scenario file that cannot be read as a whole, at ``line`` (when known)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def _walk(node: yaml.Node, path: Path_, lines: _Lines, walked: set[int]) -> None:
    lines.at.setdefault(path, node.start_mark.line + 1)
    if id(node) in walked:  # an alias of an anchored node: its lines are the anchor's
        return
    walked.add(id(node))
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, int] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = str(key_node.value)
            line = key_node.start_mark.line + 1
            if key in seen:
                raise ScenarioFileError(f"duplicate key {key!r} (first at line {seen[key]})", line)
            seen[key] = line
            lines.at[(*path, key)] = line
            _walk(value_node, (*path, key), lines, walked)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            lines.at[(*path, index)] = item.start_mark.line + 1
            _walk(item, (*path, index), lines, walked)


def _parse_yaml(text: str) -> tuple[Any, _Lines]:
    lines = _Lines()
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, lines
        _walk(node, (), lines, set())
        return loader.construct_document(node), lines
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        what = one_line(" ".join(p for p in (exc.context, exc.problem) if p))
        raise ScenarioFileError(f"bad YAML: {what}", mark.line + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise ScenarioFileError(f"bad YAML: {one_line(str(exc))}") from None
    finally:
        loader.dispose()


@dataclass(frozen=True)
class LoadedCase:
    """A case as read from a file: the model, or the one-line error that replaced it."""

    path: Path
    index: int
    name: str
    line: int
    game: str | None
    case: Case | None
    error: str | None
    lines: _Lines = field(repr=False, compare=False)

    @property
    def rules(self) -> list[str]:
        """The rule IDs the case covers (none for a broken case)."""
        return list(self.case.rules) if self.case else []

    def where(self, path: Sequence[str | int] = ()) -> str:
        """``file:line`` of the case or of a key inside it."""
        line = self.lines.line(("cases", self.index, *path)) if path else self.line
        return f"{self.path}:{line}"

    def keywords(self) -> str:
        """What ``-k`` matches against: file name, game, case name and rule IDs."""
        return " ".join([self.path.stem, self.game or "", self.name, *self.rules]).lower()


@dataclass(frozen=True)
class Suite:
    """A scenario file: its header, its cases, or the error that stopped its reading."""

    path: Path
    title: str = ""
    game: str | None = None
    spec_rules: tuple[str, ...] = ()
    cases: tuple[LoadedCase, ...] = ()
    error: str | None = None


def is_scenario_file(path: Path) -> bool:
    """Cheap test used by the pytest plugin: a YAML file with the format line near the top."""
    if path.suffix not in {".yaml", ".yml"}:
        return False
    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            head = handle.read(4096)
    except OSError:
        return False
    return FORMAT_LINE.search(head) is not None


def load_file(path: Path) -> Suite:
    """Read a scenario file; problems come back as one-line errors, never exceptions."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return Suite(path, error=f"{path}: cannot read: {one_line(str(exc))}")
    return load_text(text, path)


def load_text(text: str, path: Path) -> Suite:
    """Read scenario text (``path`` names it in messages)."""
    try:
        data, lines = _parse_yaml(text)
        return _suite(data, lines, path)
    except ScenarioFileError as exc:
        where = f"{path}:{exc.line}" if exc.line else str(path)
        return Suite(path, error=f"{where}: {exc}")


def _suite(data: Any, lines: _Lines, path: Path) -> Suite:
    def fail(key: Sequence[str | int], message: str) -> ScenarioFileError:
        return ScenarioFileError(message, lines.line(key))

    if not isinstance(data, dict):
        raise fail((), f"not a scenario file: expected keys {', '.join(TOP_KEYS)}")
    for key in data:
        if key not in TOP_KEYS:
            raise fail((key,), f"unknown key {key!r}; allowed at the top: {', '.join(TOP_KEYS)}")
    if data.get("format") != FORMAT:
        raise fail(("format",), f"not a tabletop scenario file: 'format: {FORMAT}' is missing")
    title, game, spec = data.get("title", ""), data.get("game"), data.get("spec_rules", [])
    if not isinstance(title, str):
        raise fail(("title",), "'title' must be text")
    if game is not None and not isinstance(game, str):
        raise fail(("game",), "'game' must be a game id")
    if not isinstance(spec, list) or not all(isinstance(r, str) for r in spec):
        raise fail(("spec_rules",), "'spec_rules' must be a list of rule IDs")
    cases = data.get("cases")
    if not isinstance(cases, list) or not cases:
        raise fail(("cases",), "'cases' must be a non-empty list of cases")
    loaded: list[LoadedCase] = []
    names: dict[str, int] = {}
    for index, raw in enumerate(cases):
        case = _load_case(raw, index, game, lines, path)
        if case.name in names and case.error is None:
            case = _broken(
                case, f"case name {case.name!r} is used twice (first at line {names[case.name]})"
            )
        names.setdefault(case.name, case.line)
        loaded.append(case)
    return Suite(path, title, game, tuple(spec), tuple(loaded))


def _broken(case: LoadedCase, message: str, key: Sequence[str | int] = ()) -> LoadedCase:
    error = f"{case.where(key)}: case {case.name!r}: {message}"
    return LoadedCase(
        case.path, case.index, case.name, case.line, case.game, None, error, case.lines
    )


def _load_case(raw: Any, index: int, game: str | None, lines: _Lines, path: Path) -> LoadedCase:
    line = lines.line(("cases", index))
    name = f"case {index + 1}"
    if isinstance(raw, dict) and isinstance(raw.get("name"), str) and raw["name"].strip():
        name = raw["name"].strip()
    if isinstance(raw, dict) and isinstance(raw.get("game"), str):
        game = raw["game"]
    bare = LoadedCase(path, index, name, line, game, None, None, lines)
    if not isinstance(raw, dict):
        return _broken(bare, "a case must be a mapping with name, steps, ...")
    try:
        case = Case.model_validate(raw)
    except ValidationError as exc:
        key, message = _explain(exc)
        return _broken(bare, message, key)
    if case.game is None and game is None:
        return _broken(bare, "no game: give 'game:' at the top of the file or in the case")
    return LoadedCase(path, index, name, line, case.game or game, case, None, lines)


def _explain(exc: ValidationError) -> tuple[list[str | int], str]:
    """The path and a one-line message for the first pydantic error of a case."""
    errors = exc.errors()
    err = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])  # typos first
    loc = list(err["loc"])
    model: type[BaseModel] = Case
    known: list[str | int] = []
    words: list[str] = []
    for part in loc:
        fields = model.model_fields
        if isinstance(part, str) and part in fields:
            known.append(part)
            words.append(part)
            model = _NESTED.get(part, model)
        elif isinstance(part, int) and known and known[-1] == "steps":
            known.append(part)
            words[-1] = f"step {part + 1}"
        else:
            if err["type"] == "extra_forbidden":
                known.append(part)
            break
    where = " ".join(words) or "the case"
    if err["type"] == "extra_forbidden":
        allowed = ", ".join(model.model_fields)
        return known, f"unknown key {loc[-1]!r} in {where}; allowed: {allowed}"
    if err["type"] == "missing":
        where = " ".join(words[:-1]) or "the case"
        return known[:-1], f"missing key {loc[-1]!r} in {where}"
    message = err["msg"].removeprefix("Value error, ")
    got = err.get("input")
    shown = "" if isinstance(got, dict) or err["type"] == "value_error" else f" (got {got!r})"
    return known, f"{where}: {message}{shown}"


# -- JSON subset matching ------------------------------------------------------------------
@dataclass(frozen=True)
class Mismatch:
    """One difference: where (a dotted path or a check name), expected and actual text."""

    where: str
    expected: str
    actual: str


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _same(expected: Any, actual: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    return bool(expected == actual)


_ABSENT = object()


def _step_into(actual: Any, key: str) -> Any:
    if isinstance(actual, dict):
        return actual.get(key, _ABSENT)
    if isinstance(actual, list) and key.lstrip("-").isdigit():
        index = int(key)
        return actual[index] if -len(actual) <= index < len(actual) else _ABSENT
    return _ABSENT


def _lookup(actual: Any, key: str) -> Any:
    """``actual[key]``, where a key with dots not present as such is a path (``board.b2``)."""
    direct = _step_into(actual, key)
    if direct is not _ABSENT or "." not in key:
        return direct
    for part in key.split("."):
        actual = _step_into(actual, part)
        if actual is _ABSENT:
            break
    return actual


def subset_diff(expected: Any, actual: Any, where: str) -> list[Mismatch]:
    """How ``actual`` fails to contain ``expected``: mappings are matched on the keys given
    (dotted keys are paths; ``null`` also matches a missing key; ``{}`` only matches an
    empty mapping), lists item by item with the same length, other values by equality
    (``true`` is not ``1``)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict | list) or (not expected and actual):
            return [Mismatch(where, _show(expected), _show(actual))]
        found: list[Mismatch] = []
        for key, value in expected.items():
            sub = _lookup(actual, str(key))
            path = f"{where}.{key}" if where else str(key)
            if sub is _ABSENT:
                if value is not None:
                    found.append(Mismatch(path, _show(value), "(missing)"))
                continue
            found.extend(subset_diff(value, sub, path))
        return found
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [Mismatch(where, _show(expected), _show(actual))]
        found = []
        for index, (exp, act) in enumerate(zip(expected, actual, strict=True)):
            found.extend(subset_diff(exp, act, f"{where}[{index}]"))
        return found
    if _same(expected, actual):
        return []
    return [Mismatch(where, _show(expected), _show(actual))]


# -- running -------------------------------------------------------------------------------
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
        """The diff-like report (plain lines; ``-`` expected, ``+`` actual)."""
        case = self.case
        if self.status == "error":
            return [self.error or "error"]
        lines: list[str] = []
        for failure in self.failures:
            action = f": {failure.action}" if failure.action else ""
            lines.append(f"{case.path}:{failure.line}: case {case.name!r}, {failure.message}")
            lines.append(f"  step {failure.step}{action}")
            for mis in failure.mismatches:
                lines.append(f"    {mis.where}")
                lines.append(f"      - expected: {mis.expected}")
                lines.append(f"      + actual:   {mis.actual}")
        if case.case and case.case.rules:
            lines.append(f"  rules: {', '.join(case.case.rules)}")
        return lines


class _Stop(Exception):
    """A step failed; the case cannot go on (later steps depend on it)."""

    def __init__(self, failure: StepFailure) -> None:
        super().__init__(failure.message)
        self.failure = failure


class _CaseError(Exception):
    """The case itself is wrong (unknown game or action, impossible position, ...)."""

    def __init__(self, key: Sequence[str | int], message: str) -> None:
        super().__init__(message)
        self.key = key
        self.message = message


def cites(message: str, wanted: str) -> bool:
    """Whether a refusal ``message`` cites ``wanted``: a rule ID as a whole word, or else a
    case-insensitive fragment."""
    if RULE_ID.match(wanted):
        pattern = rf"(?<![\w.]){re.escape(wanted)}(?![\w]|\.\d)"
        return re.search(pattern, message) is not None
    return wanted.lower() in message.lower()


def run_case(loaded: LoadedCase, games: Registry | None = None) -> CaseResult:
    """Play one case through the checked path and check every step's expectations."""
    if loaded.case is None or loaded.game is None:
        return CaseResult(loaded, "error", error=loaded.error)
    runner = _Runner(loaded, loaded.case, games or registry())
    try:
        runner.setup()
    except _CaseError as exc:
        return CaseResult(loaded, "error", error=_broken(loaded, exc.message, exc.key).error)
    except TabletopError as exc:
        return CaseResult(loaded, "error", error=_broken(loaded, one_line(str(exc))).error)
    except Exception as exc:
        message = f"the game crashed while setting up: {type(exc).__name__}: {one_line(str(exc))}"
        return CaseResult(loaded, "failed", (StepFailure(0, loaded.line, "", message),), crash=exc)
    for number, step in enumerate(loaded.case.steps, start=1):
        try:
            runner.step(number, step)
        except _Stop as stop:
            return CaseResult(loaded, "failed", (stop.failure,))
        except _CaseError as exc:
            return CaseResult(loaded, "error", error=_broken(loaded, exc.message, exc.key).error)
        except Exception as exc:
            line = loaded.lines.line(("cases", loaded.index, "steps", number - 1))
            message = f"the game crashed: {type(exc).__name__}: {one_line(str(exc))}"
            failure = StepFailure(number, line, _step_text(step), message)
            return CaseResult(loaded, "failed", (failure,), crash=exc)
    return CaseResult(loaded, "passed")


def _step_text(step: Step) -> str:
    if step.time_out is not None:
        return f"(player {step.time_out} runs out of time)"
    if isinstance(step.do, list):
        return ", ".join(step.do)
    return step.do or "(check only)"


class _Runner:
    """The state of one case while it runs."""

    def __init__(self, loaded: LoadedCase, case: Case, games: Registry) -> None:
        self.loaded = loaded
        self.case = case
        self.games = games
        self.match: Match

    def setup(self) -> None:
        case = self.case
        try:
            game = self.games.get(self.loaded.game or "")
        except TabletopError as exc:
            raise _CaseError(("game",), one_line(str(exc))) from None
        info = game.info
        try:
            options = opts.build(info.options, case.options, info.id)
        except TabletopError as exc:
            raise _CaseError(("options",), one_line(str(exc))) from None
        players = info.min_players if case.players is None else case.players
        if not info.min_players <= players <= info.max_players:
            raise _CaseError(
                ("players",),
                f"{info.id} takes {info.min_players}-{info.max_players} players, not {players}",
            )
        try:
            self.match = Match(game, players, options, case.seed, case.position)
        except PositionError as exc:
            raise _CaseError(("position",), f"impossible position: {one_line(str(exc))}") from None
        for index, text in enumerate(case.actions):
            try:
                self.match.play(text)
            except ActionError as exc:
                raise _CaseError(
                    ("actions", index), f"setup action {index + 1} {text!r} refused: {exc.reason}"
                ) from None

    @property
    def game(self) -> Game[Any, Any]:
        return self.match.game

    def _line(self, number: int, *key: str | int) -> int:
        return self.loaded.lines.line(("cases", self.loaded.index, "steps", number - 1, *key))

    def step(self, number: int, step: Step) -> None:
        text = _step_text(step)
        line = self._line(number)

        def stop(message: str, *mismatches: Mismatch, key: str = "") -> _Stop:
            at = self._line(number, key) if key else line
            return _Stop(StepFailure(number, at, text, message, tuple(mismatches)))

        match = self.match
        if step.time_out is not None:
            if not 1 <= step.time_out <= match.players:
                raise _CaseError(("steps", number - 1, "time_out"), "no such player")
            match.lose_on_time(step.time_out)
        elif step.refused is not None and isinstance(step.do, str):
            self._refused(step.do, step.refused, stop)
        elif step.do is not None:
            for action in [step.do] if isinstance(step.do, str) else step.do:
                try:
                    match.play(action)
                except ActionError as exc:
                    raise stop(
                        f"action {action!r} was refused",
                        Mismatch("do", f"{action!r} is played", f"refused: {exc.reason}"),
                    ) from None
        if step.expect is not None:
            mismatches = self._expect(number, step.expect)
            if mismatches:
                raise stop("expectations not met", *mismatches, key="expect")

    def _snapshot(self) -> tuple[Any, ...]:
        match = self.match
        outcome = match.outcome()
        return (self.game.to_json(match.state), len(match.actions), match.to_act(), outcome)

    def _refused(self, text: str, wanted: str, stop: Any) -> None:
        match = self.match
        before = self._snapshot()
        try:
            match.play(text)
        except ActionError as exc:
            message = str(exc)
            if not cites(message, wanted):
                raise stop(
                    "refused, but not for the expected reason",
                    Mismatch("refused", f"a refusal citing {wanted!r}", message),
                    key="refused",
                ) from None
            after = self._snapshot()
            if after != before:
                changed = subset_diff(before[0], after[0], "state") or [
                    Mismatch("match", _show(before[1:]), _show(after[1:]))
                ]
                raise stop("the refused action changed the state", *changed) from None
            return
        raise stop(
            "the action was played, but it must be refused",
            Mismatch("refused", f"a refusal citing {wanted!r}", f"played as {match.texts[-1]!r}"),
            key="refused",
        )

    def _expect(self, number: int, expect: Expect) -> list[Mismatch]:
        match, game = self.match, self.game
        state = match.state
        given = expect.model_fields_set
        found: list[Mismatch] = []
        outcome = match.outcome()
        if "status" in given:
            status = "ongoing" if outcome is None else "over"
            if status != expect.status:
                found.append(Mismatch("status", _show(expect.status), _show(status)))
        if "winners" in given:
            winners = sorted(outcome.winners) if outcome else None
            wanted = sorted(expect.winners or [])
            if winners != wanted:
                found.append(Mismatch("winners", _show(wanted), _show(winners)))
        if "reason" in given and expect.reason is not None:
            reason = outcome.reason if outcome else "(the game is not over)"
            if expect.reason.lower() not in reason.lower():
                found.append(Mismatch("reason", f"contains {expect.reason!r}", _show(reason)))
        if "to_act" in given and match.to_act() != expect.to_act:
            found.append(Mismatch("to_act", _show(expect.to_act), _show(match.to_act())))
        found.extend(self._actions(number, expect))
        if "scores" in given and expect.scores is not None:
            scores = game.scores(state)
            got = None if scores is None else {str(k): v for k, v in scores.items()}
            want = {str(k): v for k, v in expect.scores.items()}
            if got is None or any(got.get(k) != v for k, v in want.items()):
                found.append(Mismatch("scores", _show(want), _show(got)))
        if expect.state is not None:
            found.extend(subset_diff(expect.state, game.to_json(state), "state"))
        for wanted_view in _as_list(expect.view):
            player = wanted_view["player"]
            seat = None if player in (None, "spectator") else int(player)
            if seat is not None and not 1 <= seat <= match.players:
                key = ("steps", number - 1, "expect", "view")
                raise _CaseError(key, f"view of player {seat}: no such player")
            subset = {k: v for k, v in wanted_view.items() if k != "player"}
            label = "view" if seat is None else f"view[{seat}]"
            found.extend(subset_diff(subset, game.view(state, seat), label))
        return found

    def _parse(self, number: int, key: str, text: str) -> Any:
        try:
            return self.game.parse(self.match.state, text)
        except NotationError as exc:
            raise _CaseError(
                ("steps", number - 1, "expect", key),
                f"{key}: {text!r} is not an action here: {one_line(str(exc))}",
            ) from None

    def _actions(self, number: int, expect: Expect) -> list[Mismatch]:
        match, game = self.match, self.game
        state = match.state
        found: list[Mismatch] = []
        over = match.forfeit is not None
        pools = {
            "legal": [] if over else list(game.legal(state)),
            "listing": [] if over else list(game.listing(state)),
        }
        for kind, pool in pools.items():
            exact: list[str] | None = getattr(expect, kind)
            contains: list[str] | None = getattr(expect, f"{kind}_contains")
            excludes: list[str] | None = getattr(expect, f"{kind}_excludes")
            word = "legal" if kind == "legal" else "listed"
            for text in contains or []:
                action = self._parse(number, f"{kind}_contains", text)
                if action not in pool:
                    why = "" if over or kind == "listing" else f" ({game.refusal(state, action)})"
                    found.append(
                        Mismatch(f"{kind}_contains", f"{text!r} is {word}", f"it is not{why}")
                    )
            for text in excludes or []:
                action = self._parse(number, f"{kind}_excludes", text)
                if action in pool:
                    found.append(
                        Mismatch(f"{kind}_excludes", f"{text!r} is not {word}", f"it is {word}")
                    )
            if exact is not None:
                wanted = {self._parse(number, kind, text) for text in exact}
                missing = sorted(game.format(state, a) for a in wanted if a not in pool)
                extra = sorted(game.format(state, a) for a in set(pool) if a not in wanted)
                if missing or extra:
                    expected = f"{_show(missing)} {word} too" if missing else "nothing more"
                    actual = f"{_show(extra)} {word} too" if extra else "nothing more"
                    found.append(Mismatch(kind, expected, actual))
        return found


# -- selection -----------------------------------------------------------------------------
def keyword_filter(expr: str) -> Any:
    """A predicate for ``-k EXPR``: words (case-insensitive substrings of the file name, game,
    case name and rule IDs) joined by ``and``, ``or``, ``not`` and parentheses.
    Raises ValueError for an expression that does not parse."""
    tokens: list[str] = re.findall(r"\(|\)|[^\s()]+", expr)
    if not tokens:
        raise ValueError("empty -k expression")
    pos = 0

    def peek() -> str | None:
        return tokens[pos].lower() if pos < len(tokens) else None

    def take() -> str:
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    def orexpr() -> Any:
        left = andexpr()
        while peek() == "or":
            take()
            right = andexpr()
            left = (lambda a, b: lambda s: a(s) or b(s))(left, right)
        return left

    def andexpr() -> Any:
        left = notexpr()
        while peek() == "and":
            take()
            right = notexpr()
            left = (lambda a, b: lambda s: a(s) and b(s))(left, right)
        return left

    def notexpr() -> Any:
        token = peek()
        if token is None:
            raise ValueError(f"-k expression {expr!r} ends too early")
        if token == "not":
            take()
            inner = notexpr()
            return lambda s: not inner(s)
        if token == "(":
            take()
            inner = orexpr()
            if peek() != ")":
                raise ValueError(f"-k expression {expr!r}: missing ')'")
            take()
            return inner
        if token in {")", "and", "or"}:
            raise ValueError(f"-k expression {expr!r}: unexpected {token!r}")
        word = take().lower()
        return lambda s: word in s

    predicate = orexpr()
    if pos != len(tokens):
        raise ValueError(f"-k expression {expr!r}: unexpected {tokens[pos]!r}")
    return predicate


def uncovered(suites: Sequence[Suite]) -> dict[str, tuple[list[str], list[str]]]:
    """Per game: the spec's rule IDs no case covers, and cited IDs the spec does not list."""
    spec: dict[str, list[str]] = {}
    cited: dict[str, set[str]] = {}
    for suite in suites:
        for case in suite.cases:
            if case.game:
                cited.setdefault(case.game, set()).update(case.rules)
        if suite.game:
            listed = spec.setdefault(suite.game, [])
            listed.extend(r for r in suite.spec_rules if r not in listed)
    result: dict[str, tuple[list[str], list[str]]] = {}
    for game in sorted(set(spec) | set(cited)):
        rules, used = spec.get(game, []), cited.get(game, set())
        result[game] = ([r for r in rules if r not in used], sorted(used - set(rules)))
    return result


def game_suites(games: Registry, only: str | None = None) -> list[Path]:
    """The scenario files every installed game ships (or only game ``only``)."""
    ids = [games.get(only).info.id] if only else games.ids()
    return [path for gid in ids for path in games.get(gid).scenarios()]
