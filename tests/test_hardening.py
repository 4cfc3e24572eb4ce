"""Hostile input at every edge (issue 14): one line, exit 1 or 2, nothing changed.

Real processes for the issue's own examples; typer's in-process runner and hypothesis
for the readers (actions, positions, saves, scenario files, options). Time is bounded
by bounding the inputs (no timed assertions).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from typer.testing import CliRunner

from tabletop.cli.app import app
from tabletop.cli.session import LineReader, Session
from tabletop.core import options as opts
from tabletop.core import records
from tabletop.core.errors import ActionError, OptionError, RecordError
from tabletop.core.match import Match
from tabletop.core.records import Record
from tabletop.core.registry import Registry
from tabletop.kit.scenarios import MAX_YAML_NODES, load_text
from tests.hardening_game import HeapGame, HeapOptions, HeapPlugin

runner = CliRunner()
LINE_MAX = 600  # a message line: the refusal, a quoted input cut to 40 characters, a path
SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(autouse=True, scope="module")
def heap_installed() -> Iterator[None]:
    """The registry holds the installed games plus the test game ``heap``."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("tabletop.core.registry._default", Registry(extra=[HeapPlugin()]))
        yield


def invoke(*args: str, stdin: str | bytes | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def refused(code: int, err: str, codes: tuple[int, ...] = (1, 2)) -> None:
    """Exit 1 or 2 with exactly one bounded stderr line; never an internal error."""
    assert code in codes, err
    assert err.startswith("tabletop: ") and err.endswith("\n") and err.count("\n") == 1, err
    assert len(err) <= LINE_MAX and "internal error" not in err and "Traceback" not in err


def cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "tabletop", *args],
        input=stdin,
        capture_output=True,
        timeout=120,
        check=False,
    )


def proc_refused(done: subprocess.CompletedProcess[bytes], says: str, code: int = 1) -> None:
    err = done.stderr.decode()
    assert done.returncode == code, err
    assert err.count("\n") == 1 and len(err) <= LINE_MAX and says in err, err


def heap_save(tmp_path: Path, **changes: object) -> Path:
    """A heap save after two actions, with ``changes`` applied and the checksum recomputed."""
    match = Match(HeapGame(), 2, HeapOptions(), 0)
    match.play_all(["take 2", "take 1"])
    data = match.record(move_time=30.0).model_dump(mode="json")
    data.update(changes)
    body = json.dumps(data, sort_keys=True, ensure_ascii=False)
    import hashlib

    data["checksum"] = hashlib.sha256(body.encode()).hexdigest()
    path = tmp_path / "save.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


# -- the examples, as a user meets them (real processes) -------------------------
def test_unicode_digit_and_invalid_utf8_in_actions(tmp_path: Path) -> None:
    bad = tmp_path / "a.txt"
    bad.write_bytes(b"give DTRH\n\xff\n")
    proc_refused(cli("run", "quarto", "--actions", str(bad)), "line 2 is not UTF-8 text")
    proc_refused(cli("run", "quarto", "--actions", "-", stdin=b"x\x00y\n"), "control character")


def test_deeply_nested_and_huge_numbers_in_position_files(tmp_path: Path) -> None:
    nested = tmp_path / "p.json"
    nested.write_text("[" * 100_000 + "]" * 100_000)
    proc_refused(cli("run", "quarto", "--from", str(nested)), "nested deeper than 64 levels")
    huge = tmp_path / "n.json"
    huge.write_text('{"board": {}, "x": 1' + "0" * 5000 + "}")
    proc_refused(cli("run", "quarto", "--from", str(huge)), "whole number of 5001 digits")
    nan = tmp_path / "nan.json"
    nan.write_text('{"board": {}, "x": NaN}')
    proc_refused(cli("run", "quarto", "--from", str(nan)), "finite numbers only")


def test_unbounded_files_are_refused_in_one_line() -> None:
    proc_refused(cli("replay", "/dev/zero"), "larger than 4 MiB, the limit")
    proc_refused(cli("run", "quarto", "--from", "/dev/zero"), "larger than 4 MiB, the limit")
    proc_refused(cli("run", "quarto", "--actions", "/dev/zero"), "longer than 1000 characters")


def test_save_naming_a_folder_or_a_missing_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "d.json"
    folder.mkdir()
    proc_refused(cli("play", "quarto", "--save", str(folder), stdin=b""), "it is a folder")
    missing = tmp_path / "nodir" / "x.json"
    proc_refused(cli("play", "quarto", "--save", str(missing), stdin=b""), "no folder")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.json"]
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["play", "quarto", "--ai", "²"], "--ai '²': the seat must be a player number 1-2"),
        (["run", "quarto", "--frob"], "No such option: --frob"),
        (["run"], "Missing argument 'game'"),
        (["run", "quarto", "--seed", "-5"], "a whole number 0..9223372036854775807"),
        (["run", "quarto", "--seed", "1" * 30], "a whole number 0..9223372036854775807"),
        (["run", "quarto", "--players", "٣"], "a whole number 1..99 is allowed, not '٣'"),
        (["play", "quarto", "--move-time", "nan"], "seconds 1..86400"),
        (["play", "quarto", "--move-time", "1e-300"], "seconds 1..86400"),
        (["play", "quarto", "--games", "100000000000000000000"], "a whole number 1..1000"),
        (["check", "quarto", "--games", "0"], "a whole number 1..1000000"),
        (["solve", "quarto", "--seconds", "inf"], "seconds 0..86400"),
    ],
)
def test_flags_and_usage_errors_are_one_line_exit_2(args: list[str], says: str) -> None:
    proc_refused(cli(*args, stdin=b""), says, 2)


def test_yaml_alias_bomb_is_refused_fast_in_one_line(tmp_path: Path) -> None:
    bomb = ["format: tabletop-scenarios/1", "game: quarto", "a: &a [x, x, x, x, x, x, x, x, x]"]
    for n in range(1, 9):
        bomb.append(f"{chr(97 + n)}: &{chr(97 + n)} [{', '.join([f'*{chr(96 + n)}'] * 9)}]")
    bomb.append("cases: [*i]")
    path = tmp_path / "bomb.yaml"
    path.write_text("\n".join(bomb) + "\n")
    assert len(path.read_bytes()) < 600
    done = cli("test", str(path))
    out = done.stdout.decode() + done.stderr.decode()
    assert done.returncode in (1, 2) and f"more than {MAX_YAML_NODES} values" in out
    assert len(out) < 2000 and "Traceback" not in out


# -- play: a refused save changes nothing; piped input is bounded -------------------------
class Console:
    """Collects what the session prints."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def print(self, *parts: object, **_: object) -> None:
        self.lines.append(" ".join(str(p) for p in parts))

    def clear(self) -> None:
        pass


def scripted(words: list[str]) -> LineReader:
    feed = iter(words)

    def read(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return LineReader(read)


def test_save_to_a_folder_in_play_keeps_the_old_save_path(tmp_path: Path) -> None:
    folder = tmp_path / "d.json"
    folder.mkdir()
    good = tmp_path / "game.json"
    match = Match(HeapGame(), 2, HeapOptions(), 0)
    console = Console()
    session = Session(match, {}, console, scripted([f"save {folder}", "take 1"]), good)  # type: ignore[arg-type]
    session.run()
    assert any("it is a folder" in line for line in console.lines)
    assert session.save_path == good and records.load(good).actions == ["take 1"]
    assert list(folder.iterdir()) == []


def test_piped_play_input_is_bounded() -> None:
    code, _, err = invoke("play", "heap", stdin=b"take 1\n" + b"x" * 5000 + b"\n")
    refused(code, err, (1,))
    assert "longer than 1000 characters" in err
    code, out, err = invoke("play", "heap", stdin="take 1\ntake 2\n")
    assert code == 0 and '"left": 6' in out and err == ""


# -- saves: every field as strict as its flag; the outcome re-derived ---------------------
@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"forfeit": {"player": 7, "reason": "time"}}, "forfeit by player 7; the game has"),
        ({"forfeit": {"player": 2, "reason": "time"}}, "only the player to act"),
        ({"move_time": -5}, "move_time"),
        ({"move_time": 10**300}, "whole number of 301 digits"),
        ({"move_time": 1e300}, "move_time"),
        ({"move_time": float("nan")}, "NaN (finite numbers only)"),
        ({"move_time": 0.001}, "move_time"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**64}, "seed: Input should be less than or equal to 9223372036854775807"),
        ({"players": True}, "players"),
        ({"players": 2.0}, "players"),
        ({"seats": {"²": "3"}}, "seats the computer at '²'"),
        ({"seats": {"9": "3"}}, "seats the computer at '9'"),
    ],
)
def test_save_fields_are_checked_like_their_flags(
    tmp_path: Path, changes: dict[str, object], says: str
) -> None:
    path = heap_save(tmp_path, **changes)
    before = path.read_bytes()
    with pytest.raises(RecordError, match=None) as caught:
        Match.from_record(HeapGame(), records.load(path), "save")
    assert says in str(caught.value) and "\n" not in str(caught.value)
    code, _, err = invoke("play", "heap", "--load", str(path), stdin="")
    refused(code, err, (1,))
    assert path.read_bytes() == before


def test_a_forfeit_on_a_finished_game_is_refused(tmp_path: Path) -> None:
    match = Match(HeapGame(), 2, HeapOptions(), 0)
    match.play_all(["take 2", "take 2", "take 2", "take 2", "take 1"])
    assert match.outcome() is not None
    data = match.record().model_dump(mode="json") | {"forfeit": {"player": 1, "reason": "time"}}
    path = tmp_path / "over.json"
    path.write_text(Record.model_validate(data).to_text())
    with pytest.raises(RecordError, match="the rules had already ended"):
        Match.from_record(HeapGame(), records.load(path), "save")


def test_a_real_forfeit_replays(tmp_path: Path) -> None:
    path = heap_save(tmp_path, forfeit={"player": 1, "reason": "time"})
    match = Match.from_record(HeapGame(), records.load(path), "save")
    outcome = match.outcome()
    assert outcome is not None and outcome.winners == (2,) and outcome.kind == "time"


# -- options: whole numbers typed as text, from every source ------------------------------
def test_integer_literal_options_from_the_command_line_saves_and_scenarios(tmp_path: Path) -> None:
    code, out, err = invoke("run", "heap", "-o", "size=4", "-o", "take=3", "--json")
    assert code == 0, err
    assert json.loads(out)["options"] == {"size": 4, "take": 3}
    assert json.loads(out)["view"]["left"] == 12
    assert opts.build(HeapOptions, {"size": 4}, "heap") == HeapOptions(size=4)
    assert opts.build(HeapOptions, {"size": "4"}, "heap") == HeapOptions(size=4)
    for bad, says in [("5", "allowed: 3, 4"), ("٤", "not a whole number"), ("x", "allowed: 3, 4")]:
        with pytest.raises(OptionError, match=says):
            opts.build(HeapOptions, {"size": bad}, "heap")
    with pytest.raises(OptionError, match="not a whole number"):
        opts.build(HeapOptions, {"take": "1" * 30}, "heap")
    suite = load_text(
        "format: tabletop-scenarios/1\ngame: heap\ncases:\n"
        "  - name: big heap\n    rules: [H1]\n    options: {size: 4}\n"
        "    steps: [{do: take 2, expect: {status: ongoing}}]\n"
        "  - name: big heap as text\n    rules: [H1]\n    options: {size: '4'}\n"
        "    steps: [{do: take 2, expect: {status: ongoing}}]\n",
        tmp_path / "heap.yaml",
    )
    assert suite.error is None and all(case.error is None for case in suite.cases)
    path = tmp_path / "heap.yaml"
    path.write_text(
        "format: tabletop-scenarios/1\ngame: heap\ncases:\n"
        "  - name: big heap\n    rules: [H1]\n    options: {size: '4'}\n"
        "    actions: [take 2, take 2, take 2, take 2, take 2]\n"
        "    steps: [{do: take 2, expect: {status: over, winners: [2]}}]\n"
    )
    code, out, err = invoke("test", str(path))
    assert code == 0, out + err


# -- play on a terminal: line editing and history (a real pseudo-terminal) ---------------
def test_play_prompt_has_line_editing_and_history() -> None:
    """Home moves the cursor (no escape code is read as an action); up recalls a line."""
    import os
    import pty
    import select

    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "play", "quarto", "--seed", "1"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        close_fds=True,
    )
    os.close(slave)

    def until_prompt() -> str:
        seen = b""
        while not seen.endswith("› ".encode()):
            ready, _, _ = select.select([master], [], [], 60)
            assert ready, seen.decode(errors="replace")
            seen += os.read(master, 65536)
        return seen.decode(errors="replace")

    try:
        until_prompt()
        os.write(master, b"ive DTRH\x1b[Hg\r")  # Home, then the missing first letter
        assert "place the piece dark, tall, round, hollow on an empty square" in until_prompt()
        os.write(master, b"\x1b[A\r")  # up: 'give DTRH' again, refused by Q3.3
        assert "you hold DTRH" in until_prompt()
        os.write(master, b"quit\r")
        assert proc.wait(timeout=60) == 0
    finally:
        proc.kill()
        os.close(master)


def test_a_huge_action_is_quoted_short_in_its_refusal() -> None:
    """A 1 MB action through the API (no reader in between): the refusal stays short."""
    match = Match(HeapGame(), 2, HeapOptions(), 0)
    with pytest.raises(ActionError) as caught:
        match.play("take " + "x" * 1_000_000)
    assert len(str(caught.value)) < LINE_MAX and "(1000005 characters)" in str(caught.value)
    assert match.actions == []


def test_replay_pause_reads_bounded_lines(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    match = Match(HeapGame(), 2, HeapOptions(), 0)
    match.play_all(["take 1", "take 2"])
    records.save(match.record(), save)
    code, out, err = invoke("replay", str(save), "--pause", stdin=b"\n")
    assert code == 0 and out.count("Enter for the next move") == 2 and err == ""
    code, _, err = invoke("replay", str(save), "--pause", stdin=b"x" * 5000)
    refused(code, err, (1,))


@pytest.mark.parametrize(
    "args",
    [["rules", "x" * 100_000], ["play", "heap", "--ai", "2:" + "x" * 100_000]],
)
def test_long_words_are_cut_in_messages(args: list[str]) -> None:
    code, _, err = invoke(*args, stdin="")
    refused(code, err, (2,))
    assert "(100000 characters)" in err or "(100002 characters)" in err
