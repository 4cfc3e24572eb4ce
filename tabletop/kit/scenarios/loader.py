"""Reading scenario files: YAML with the line of every key, guarded against alias bombs and
oversized files, into a :class:`Suite` of :class:`LoadedCase` (never raising for a bad file)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from tabletop.core import reading
from tabletop.core.errors import TabletopError, one_line
from tabletop.core.i18n.text import Domain, Msg, message_of, read_back
from tabletop.core.numbers import quote
from tabletop.kit.jsonpaths import PathT
from tabletop.kit.scenarios.model import FORMAT, FORMAT_LINE, NESTED, TOP_KEYS, Case

_ = Domain("tabletop")


class Lines:
    """Line numbers (1-based) of every key and list item of a YAML document, by path."""

    def __init__(self) -> None:
        self.at: dict[PathT, int] = {}

    def line(self, path: Sequence[str | int]) -> int:
        """The line of ``path`` or of its nearest ancestor that has one."""
        key: PathT = tuple(str(p) if not isinstance(p, int) else p for p in path)
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


def _walk(node: yaml.Node, path: PathT, lines: Lines, walked: set[int]) -> None:
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
                raise ScenarioFileError(
                    _("duplicate key {key} (first at line {line})", key=quote(key), line=seen[key]),
                    line,
                )
            seen[key] = line
            lines.at[(*path, key)] = line
            _walk(value_node, (*path, key), lines, walked)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            lines.at[(*path, index)] = item.start_mark.line + 1
            _walk(item, (*path, index), lines, walked)


MAX_YAML_NODES = 100_000
MAX_SCENARIO_BYTES = 1024 * 1024
# libyaml's parser when PyYAML has it (several times faster), else the pure-Python one
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _check_expansion(root: yaml.Node) -> None:
    """Refuse YAML whose aliases add more than :data:`MAX_YAML_NODES` values to what the
    file spells out (an alias bomb: a few hundred bytes that expand to gigabytes) or refer
    to themselves. Each node is visited once, its expanded size memoized: linear."""
    sizes: dict[int, int] = {}
    open_: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            open_.discard(key)
            sizes[key] = 1 + sum(sizes[id(child)] for child in _children(node))
            if sizes[key] > len(sizes) + MAX_YAML_NODES:
                raise ScenarioFileError(
                    _(
                        "the YAML expands to more than {most} values through its "
                        "aliases (*name); a scenario file needs far fewer",
                        most=MAX_YAML_NODES,
                    ),
                    node.start_mark.line + 1,
                )
            continue
        if key in sizes:
            continue
        if key in open_:
            raise ScenarioFileError(
                _("a YAML alias (*name) refers to a value that contains it; no cycles"),
                node.start_mark.line + 1,
            )
        open_.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in _children(node) if id(child) not in sizes)


def _parse_yaml(text: str) -> tuple[Any, Lines]:
    lines = Lines()
    try:
        loader = _Loader(text)  # refuses unprintable characters at once
    except yaml.YAMLError as exc:
        raise ScenarioFileError(_("bad YAML: {problem}", problem=one_line(str(exc)))) from None
    try:
        node = loader.get_single_node()
        if node is None:
            return None, lines
        _check_expansion(node)
        _walk(node, (), lines, set())
        return loader.construct_document(node), lines
    except RecursionError:  # PyYAML composes nested collections recursively
        raise ScenarioFileError(
            _("the YAML is nested too deep; a scenario file needs far less")
        ) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        what = one_line(" ".join(p for p in (exc.context, exc.problem) if p))
        raise ScenarioFileError(
            _("bad YAML: {problem}", problem=what), mark.line + 1 if mark else None
        ) from None
    except yaml.YAMLError as exc:
        raise ScenarioFileError(_("bad YAML: {problem}", problem=one_line(str(exc)))) from None
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
    lines: Lines = field(repr=False, compare=False)
    cited: tuple[str, ...] = ()  # the rule IDs a broken case names (for the rules table)

    @property
    def rules(self) -> list[str]:
        """The rule IDs the case covers (of a broken case: those its ``rules:`` names)."""
        return list(self.case.rules) if self.case else list(self.cited)

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
        text = reading.read_text(
            path, _("scenario file"), ScenarioFileError, limit=MAX_SCENARIO_BYTES
        )
    except ScenarioFileError as exc:
        return Suite(path, error=message_of(exc))
    return load_text(text, path)


def load_text(text: str, path: Path) -> Suite:
    """Read scenario text (``path`` names it in messages)."""
    try:
        data, lines = _parse_yaml(text)
        return _suite(data, lines, path)
    except ScenarioFileError as exc:
        where = f"{path}:{exc.line}" if exc.line else str(path)
        return Suite(path, error=Msg.joined(": ", (where, message_of(exc))))


def _suite(data: Any, lines: Lines, path: Path) -> Suite:
    def fail(key: Sequence[str | int], message: Msg) -> ScenarioFileError:
        return ScenarioFileError(message, lines.line(key))

    if not isinstance(data, dict):
        raise fail((), _("not a scenario file: expected keys {keys}", keys=", ".join(TOP_KEYS)))
    for key in data:
        if key not in TOP_KEYS:
            raise fail(
                (key,),
                _(
                    "unknown key {key}; allowed at the top: {keys}",
                    key=quote(str(key)),
                    keys=", ".join(TOP_KEYS),
                ),
            )
    if data.get("format") != FORMAT:
        raise fail(
            ("format",),
            _("not a tabletop scenario file: 'format: {format}' is missing", format=FORMAT),
        )
    title, game, spec = data.get("title", ""), data.get("game"), data.get("spec_rules", [])
    if not isinstance(title, str):
        raise fail(("title",), _("'title' must be text"))
    if game is not None and not isinstance(game, str):
        raise fail(("game",), _("'game' must be a game id"))
    if not isinstance(spec, list) or not all(isinstance(r, str) for r in spec):
        raise fail(("spec_rules",), _("'spec_rules' must be a list of rule IDs"))
    cases = data.get("cases")
    if not isinstance(cases, list) or not cases:
        raise fail(("cases",), _("'cases' must be a non-empty list of cases"))
    loaded: list[LoadedCase] = []
    names: dict[str, int] = {}
    for index, raw in enumerate(cases):
        case = _load_case(raw, index, game, lines, path)
        if case.name in names and case.error is None:
            case = broken(
                case,
                _(
                    "case name {name} is used twice (first at line {line})",
                    name=repr(case.name),
                    line=names[case.name],
                ),
            )
        names.setdefault(case.name, case.line)
        loaded.append(case)
    return Suite(path, title, game, tuple(spec), tuple(loaded))


def broken(case: LoadedCase, message: str, key: Sequence[str | int] = ()) -> LoadedCase:
    """``case`` as an error: ``message`` (a Msg stays one) with the file, line and name."""
    error = _("{where}: case {name}: {message}", where=case.where(key), name=repr(case.name),
              message=message)  # fmt: skip
    return LoadedCase(
        case.path,
        case.index,
        case.name,
        case.line,
        case.game,
        None,
        error,
        case.lines,
        tuple(case.rules),
    )


def _load_case(raw: Any, index: int, game: str | None, lines: Lines, path: Path) -> LoadedCase:
    line = lines.line(("cases", index))
    name = f"case {index + 1}"  # a name, as the file would give it (-k matches it)
    if isinstance(raw, dict) and isinstance(raw.get("name"), str) and raw["name"].strip():
        name = raw["name"].strip()
    if isinstance(raw, dict) and isinstance(raw.get("game"), str):
        game = raw["game"]
    named = raw.get("rules") if isinstance(raw, dict) else None
    cited = tuple(str(r) for r in named) if isinstance(named, list) else ()
    bare = LoadedCase(path, index, name, line, game, None, None, lines, cited)
    if not isinstance(raw, dict):
        return broken(bare, _("a case must be a mapping with name, steps, ..."))
    try:
        case = Case.model_validate(raw)
    except ValidationError as exc:
        key, message = _explain(exc)
        return broken(bare, message, key)
    if case.game is None and game is None:
        return broken(bare, _("no game: give 'game:' at the top of the file or in the case"))
    return LoadedCase(path, index, name, line, case.game or game, case, None, lines)


# pydantic's messages for a value of the wrong kind (its English, read back: read_back)
PYDANTIC = (
    _("Input should be a valid list"),
    _("Input should be a valid string"),
    _("Input should be a valid dictionary"),
    _("Input should be a valid integer"),
    _("Input should be a valid integer, unable to parse string as an integer"),
    _("Input should be a valid integer, got a number with a fractional part"),
    _("Input should be a valid boolean"),
    _("Input should be a valid boolean, unable to interpret input"),
    _("Input should be less than or equal to {limit}"),
    _("Input should be greater than or equal to {limit}"),
    _("Input should be {expected}"),
)


def _explain(exc: ValidationError) -> tuple[list[str | int], Msg]:
    """The path and a one-line message for the first pydantic error of a case."""
    errors = exc.errors()
    err = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])  # typos first
    loc = list(err["loc"])
    model: type[BaseModel] = Case
    known: list[str | int] = []
    words: list[str] = []  # the keys (machine words) and "step N"
    for part in loc:
        fields = model.model_fields
        if isinstance(part, str) and part in fields:
            known.append(part)
            words.append(part)
            model = NESTED.get(part, model)
        elif isinstance(part, int) and known and known[-1] == "steps":
            known.append(part)
            words[-1] = _("step {number}", number=part + 1)
        else:
            if err["type"] == "extra_forbidden":
                known.append(part)
            break
    the_case = _("the case")
    where = Msg.joined(" ", words) if words else the_case
    if err["type"] == "extra_forbidden":
        allowed = ", ".join(model.model_fields)
        return known, _(
            "unknown key {key} in {where}; allowed: {allowed}",
            key=repr(loc[-1]),
            where=where,
            allowed=allowed,
        )
    if err["type"] == "missing":
        where = Msg.joined(" ", words[:-1]) if words[:-1] else the_case
        return known, _("missing key {key} in {where}", key=repr(loc[-1]), where=where)
    raised = (err.get("ctx") or {}).get("error")
    english = err["msg"].removeprefix("Value error, ")
    message: str = english
    if isinstance(raised, ValueError) and str(raised) == english:
        message = message_of(raised)  # a validator's own message (model.py)
    else:
        message = read_back(PYDANTIC, english) or english
    got = err.get("input")
    if isinstance(got, dict) or err["type"] == "value_error":
        return known, Msg.joined(": ", (where, message))
    return known, _(
        "{where}: {message} (got {value})", where=where, message=message, value=repr(got)
    )
