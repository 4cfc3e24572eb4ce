"""Property-based tests (hypothesis) for the readers: actions, positions, saves, scenario
texts and options. Each input ends in exit status 0, or 1 or 2 with one bounded stderr
line; a save is never changed. Inputs are bounded in size, so time and memory are too.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from tabletop.core import reading
from tabletop.core.errors import InputError
from tabletop.kit.scenarios import load_text
from tests.test_hardening import LINE_MAX, SETTINGS, heap_installed, heap_save, invoke, refused

__all__ = ["heap_installed"]  # the fixture that installs the test game, used by name


# -- property-based: the readers never fail inside -----------------------------------------
hostile_text = st.one_of(
    st.text(max_size=60),
    st.text(alphabet="0123456789²³٣۴߅१൬๓໘༣၄០᠖᥈᧓᭙᮰᱕꘠꣔꤁꩓０", max_size=30),
    st.integers(min_value=19, max_value=5000).map(lambda n: "7" * n),
    st.sampled_from(["take ", "take  ", "take -", "take +1", "TAKE 1", "take 1.0"]).flatmap(
        lambda head: st.text(max_size=10).map(lambda tail: head + tail)
    ),
    st.text(alphabet=st.characters(max_codepoint=0x9F), max_size=20),
    st.integers(min_value=1, max_value=3000).map(lambda n: "take " + "9" * n),
)
hostile_bytes = st.one_of(
    hostile_text.map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.binary(max_size=80),
    st.integers(min_value=1000, max_value=20_000).map(lambda n: b"take " + b"1" * n),
)


@SETTINGS
@given(lines=st.lists(hostile_bytes, min_size=1, max_size=4))
def test_actions_files_never_fail_inside(tmp_path: Path, lines: list[bytes]) -> None:
    path = tmp_path / "actions.txt"
    path.write_bytes(b"\n".join(lines) + b"\n")
    code, _, err = invoke("run", "heap", "--actions", str(path), "--json")
    if code != 0:
        refused(code, err)
    code, _, err = invoke("run", "heap", "--actions", "-", stdin=path.read_bytes())
    if code != 0:
        refused(code, err)


json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=10),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


def position_texts() -> st.SearchStrategy[str]:
    near = st.fixed_dictionaries({"left": json_value, "player": json_value})
    deep = st.integers(min_value=1, max_value=5000).map(lambda n: "[" * n + "]" * n)
    raw = st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999", "1" * 5000, "{", ""])
    return st.one_of(near.map(json.dumps), json_value.map(json.dumps), deep, raw)


@SETTINGS
@given(text=position_texts())
def test_position_files_never_fail_inside(tmp_path: Path, text: str) -> None:
    path = tmp_path / "position.json"
    path.write_text(text, encoding="utf-8")
    code, _, err = invoke("run", "heap", "--from", str(path), "--json")
    if code != 0:
        refused(code, err)


save_fields = st.sampled_from(
    ["players", "seed", "options", "start", "actions", "seats", "move_time", "forfeit", "game"]
)


@SETTINGS
@given(field=save_fields, value=json_value)
def test_saves_never_fail_inside_and_stay_unchanged(
    tmp_path: Path, field: str, value: object
) -> None:
    path = heap_save(tmp_path, **{field: value})
    before = path.read_bytes()
    code, _, err = invoke("replay", str(path))
    if code != 0:
        refused(code, err)
    assert path.read_bytes() == before


@SETTINGS
@given(text=st.one_of(st.text(max_size=200), json_value.map(json.dumps)))
def test_scenario_texts_never_fail_inside(tmp_path: Path, text: str) -> None:
    suite = load_text("format: tabletop-scenarios/1\ngame: heap\n" + text, tmp_path / "s.yaml")
    messages = [suite.error] if suite.error else [c.error for c in suite.cases if c.error]
    for message in messages:
        assert message is not None and "\n" not in message and len(message) <= 2000


@SETTINGS
@given(key=st.sampled_from(["size", "take", "nope", ""]), value=hostile_text)
def test_option_values_never_fail_inside(key: str, value: str) -> None:
    code, _, err = invoke("run", "heap", "-o", f"{key}={value}")
    if code != 0:
        refused(code, err, (2,))


@SETTINGS
@given(data=hostile_bytes)
def test_the_line_reader_refuses_in_one_line(data: bytes) -> None:
    try:
        for line in reading.lines(io.BytesIO(data), "input", InputError):
            assert len(line) <= reading.MAX_LINE_CHARS and "\n" not in line
    except InputError as exc:
        assert "\n" not in str(exc) and len(str(exc)) <= LINE_MAX
