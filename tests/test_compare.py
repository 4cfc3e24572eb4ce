"""``tabletop compare`` (issue 27): the paired tests, a self-comparison that is exactly 0,
a planted rule change found at its known size, a no-op change that stays insignificant
over many seeds, the JSON contract, the export, the notebook API and the progress lines.

The planted effects use a test game (``tests/countdown_game.py``) whose length and
winner its deal decides; the rest is Quarto at level 1, which is fast.
"""

from __future__ import annotations

import csv
import io
import json
import math
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tabletop.analysis import paired, progress
from tabletop.analysis.arena import game_seed
from tabletop.analysis.compare import make_comparison, paired_measures, result_json
from tabletop.analysis.observe import measure_game
from tabletop.analysis.run import blocks, play, total_games
from tabletop.analysis.verdict import verdicts
from tabletop.cli.app import app
from tabletop.core.errors import TabletopError
from tabletop.core.registry import Registry
from tests.countdown_game import SHORTER, CountdownPlugin

runner = CliRunner()
KEYS = {"game", "baseline", "variant", "games", "measures"}
MEASURE_KEYS = {"name", "a", "b", "difference", "ci", "p", "test"}


@pytest.fixture(autouse=True)
def countdown_installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The registry holds the installed games plus the test game ``countdown``."""
    monkeypatch.setattr("tabletop.core.registry._default", Registry(extra=[CountdownPlugin()]))
    yield


def run_json(*args: str) -> dict[str, Any]:
    done = runner.invoke(app, ["compare", *args, "--json"])
    assert done.exit_code == 0, done.output
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def by_name(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {m["name"]: m for m in data["measures"]}


# ------------------------------------------------------------------------------ the tests


def test_the_exact_tests_give_their_textbook_values() -> None:
    assert paired.mcnemar(0, 0) == 1.0
    assert paired.mcnemar(10, 0) == pytest.approx(2 / 2**10)
    assert paired.mcnemar(6, 4) == pytest.approx(sum(math.comb(10, i) for i in range(5)) / 512)
    # every difference positive: the one most extreme sign pattern, both tails
    assert paired.wilcoxon([1, 2, 3, 4, 5]) == pytest.approx(2 / 32)
    assert paired.wilcoxon([0, 0, 0]) == 1.0
    assert paired.wilcoxon([1, -1, 2, -2]) == 1.0  # symmetric: no evidence either way
    assert paired.t_quantile(0.975, 1) == pytest.approx(12.706, abs=1e-3)
    assert paired.t_quantile(0.975, 10) == pytest.approx(2.228, abs=2e-3)
    assert paired.t_quantile(0.975, 30) == pytest.approx(2.042, abs=1e-3)


def test_the_normal_approximation_meets_the_exact_signed_rank_test() -> None:
    """Just above EXACT_WILCOXON the approximation must agree with the exact count."""
    diffs = [(-1) ** (i % 3 == 0) * (i + 1) for i in range(paired.EXACT_WILCOXON + 1)]
    ranks = [float(i + 1) for i in range(len(diffs))]
    exact = paired._exact_signed_rank(
        ranks, sum(r for r, d in zip(ranks, diffs, strict=True) if d > 0)
    )
    assert paired.wilcoxon(diffs) == pytest.approx(exact, abs=0.01)


def test_binary_measures_use_mcnemar_and_the_others_wilcoxon() -> None:
    assert paired.compare([0, 1, 1], [1, 1, 0]).test == paired.MCNEMAR
    assert paired.compare([3, 4, 5], [2, 4, 4]).test == paired.WILCOXON
    result = paired.compare([10, 12, 14, 16], [8, 10, 12, 14])
    assert result.difference == -2 and result.ci == (-2, -2) and result.sd == 0


# ------------------------------------------------------------------------------ the command


def test_a_configuration_compared_with_itself_differs_by_exactly_0_everywhere() -> None:
    data = run_json("quarto", "--change", "squares=false", "--agents", "1,2", "--games", "12")
    assert set(data) == KEYS and data["games"] == 12
    assert data["baseline"]["options"] == data["variant"]["options"]
    assert set(data["baseline"]["agents"]) == {"1", "2"}  # the levels are on record
    names = {m["name"] for m in data["measures"]}
    assert {"seat_1_win@1", "draw@2", "length_turns@1", "skill_gap@2-vs-1"} <= names
    for m in data["measures"]:
        assert set(m) == MEASURE_KEYS
        assert m["a"] == m["b"] and m["difference"] == 0.0 and m["ci"] == [0.0, 0.0]
        assert m["p"] == 1.0, m


def test_a_planted_change_that_shortens_every_game_by_3_turns_is_found_at_that_size() -> None:
    data = run_json("countdown", "--change", "short=true", "--agents", "1", "--games", "40")
    found = by_name(data)
    turns = found["length_turns@1"]
    assert turns["difference"] == -SHORTER and turns["ci"] == [-SHORTER, -SHORTER]
    assert turns["p"] < 1e-6 and turns["test"] == paired.WILCOXON
    assert found["length_actions@1"]["difference"] == -SHORTER
    # the same deal decides the same winner: the seats and the points do not move
    assert found["seat_1_win@1"]["difference"] == 0.0 and found["seat_1_win@1"]["p"] == 1.0
    assert found["score_margin@1"]["difference"] == 0.0
    assert data["variant"]["changes"] == {"short": "true"}


def test_the_verdict_names_the_planted_change() -> None:
    comparison = make_comparison("countdown", None, [], ["short=true"], "1", 30, 0)
    found = paired_measures(play(comparison.plan))
    line = verdicts(comparison, found)[0]
    assert line.startswith("Verdict at level 1:") and "length (turns) -3.00 [-3.00, -3.00]" in line


def test_a_no_op_change_is_rarely_significant_over_many_seeds() -> None:
    """``salt`` deals other games with the same odds: at the 5% level about 1 seed in 20
    may read as significant by chance, never most of them."""
    significant = {"seat_1_win@1": 0, "length_turns@1": 0, "score_margin@1": 0}
    p_values = []
    for seed in range(20):
        comparison = make_comparison("countdown", None, [], ["salt=7"], "1", 60, seed)
        found = {m.name: m for m in paired_measures(play(comparison.plan))}
        for name in significant:
            significant[name] += found[name].significant
        p_values.append(found["length_turns@1"].result.p)
    assert all(count <= 3 for count in significant.values()), significant
    assert sum(p > 0.5 for p in p_values) >= 5  # p-values spread out, not all small
    assert sum(found[n].result.difference != 0 for n in significant) >= 1  # the games differed


def test_bad_words_are_one_line_and_play_nothing() -> None:
    for args, says in (
        (["quarto"], "compare needs at least one --change"),
        (["quarto", "--change", "bogus=1"], "unknown option 'bogus'"),
        (["quarto", "--change", "squares=maybe"], "bad value 'maybe'"),
        (["quarto", "--change", "squares=true", "--change", "squares=false"], "given twice"),
        (["ctverak", "--players", "4", "--change", "deck=half"], "(K1.1)"),
        (["quarto", "--change", "squares=true", "--export", "x.txt"], ".jsonl or .csv"),
        (["quarto", "--change", "squares=true", "--agents", "1,x"], "unknown AI level 'x'"),
    ):
        done = runner.invoke(app, ["compare", *args, "--games", "2"])
        assert done.exit_code == 2, (args, done.output)
        assert says in done.output and done.output.count("\n") == 1, done.output


def test_the_tables_print_every_measure_uncut_when_piped() -> None:
    done = runner.invoke(
        app, ["compare", "countdown", "--change", "short=true", "--agents", "1", "--games", "12"]
    )
    assert done.exit_code == 0, done.output
    out = done.stdout
    assert "length (turns)" in out and "Wilcoxon signed-rank" in out and "exact McNemar" in out
    assert "Verdict at level 1" in out and "…" not in out
    assert max(len(line) for line in out.splitlines()) > 80  # not cut at 80 columns


# ------------------------------------------------------------------------------ export


def test_the_export_has_one_row_per_game_played_matching_the_games(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    done = runner.invoke(
        app,
        ["compare", "countdown", "--change", "short=true", "--agents", "1,2", "--games", "5",
         "--seed", "3", "--export", str(path)],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    comparison = make_comparison("countdown", None, [], ["short=true"], "1,2", 5, 3)
    assert len(rows) == total_games(comparison.plan) == 2 * 3 * 5  # 2 arms x (2 levels + skill)
    assert {r["arm"] for r in rows} == {"baseline", "variant"}
    tasks = [(setup, i) for _, _, setup, _ in blocks(comparison.plan) for i in range(5)]
    for row, task in zip(rows, tasks, strict=True):
        replayed = measure_game(task)  # the same game, played again from its seed
        assert row["seed"] == game_seed(3, row["index"]) == replayed.seed
        assert row["seats"] == list(replayed.seats)
        assert (row["turns"], row["actions"], row["winners"]) == (
            replayed.turns,
            replayed.actions,
            list(replayed.winners),
        )
        assert row["scores"] == list(replayed.scores or ())
    short = [r for r in rows if r["arm"] == "variant" and r["block"] == "self"]
    assert all(r["options"]["short"] is True for r in short)


def test_the_csv_export_of_analyse_has_a_column_per_option(tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    done = runner.invoke(
        app, ["analyse", "countdown", "-o", "short=false,true", "--agents", "1", "--games", "4",
              "--export", str(path)],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    rows = list(csv.DictReader(io.StringIO(path.read_text("utf-8"))))
    assert len(rows) == 8 and {"option:short", "option:salt", "winners", "kind"} <= set(rows[0])
    assert {r["option:short"] for r in rows} == {"False", "True"}
    assert all(json.loads(r["winners"]) in ([1], [2]) for r in rows)
    assert f"8 games written to {path}" in done.stdout


# ------------------------------------------------------------------------------ API


def test_the_notebook_api_returns_rows_and_the_json(monkeypatch: pytest.MonkeyPatch) -> None:
    from tabletop.analysis import analyse, compare_rules

    sweep = analyse("countdown", options=["short=false,true"], agents="1", games=6)
    assert len(sweep.rows) == 12 and sweep.summary["game"] == "countdown"
    assert [r["turns"] for r in sweep.rows[6:]] == [r["turns"] - SHORTER for r in sweep.rows[:6]]
    ab = compare_rules("countdown", ["short=true"], agents="1", games=6)
    assert set(ab.result) == KEYS and ab.verdict[0].startswith("Verdict at level 1")
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(TabletopError, match="pip install pandas"):
        sweep.frame()
    fake = types.ModuleType("pandas")
    fake.DataFrame = lambda rows: ("frame", rows)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pandas", fake)
    assert sweep.frame() == ("frame", sweep.rows)
    kind, measures = ab.measures_frame()
    assert kind == "frame" and measures[0]["ci_low"] == ab.result["measures"][0]["ci"][0]


# ------------------------------------------------------------------------------ progress


def test_progress_off_a_terminal_is_a_line_now_and_then_with_an_eta() -> None:
    now = [0.0]
    out = io.StringIO()
    lines = progress.Lines("quarto", 10, out, every=10.0, clock=lambda: now[0])
    now[0] = 20.0  # a backend that takes 20 s to start: not counted in the pace
    for _ in range(10):
        lines()
        now[0] += 4.0  # then one game every 4 s: a line every 10 s or so
    lines.finish()
    text = out.getvalue().splitlines()
    assert text[0] == "quarto: 4/10 games (40%), 32 s so far, about 24 s left"
    assert len(text) == 3 and text[-1] == "quarto: 10 games played in 1 min 00 s"


def test_the_command_writes_progress_lines_to_stderr_when_not_a_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(progress, "EVERY", 0.0)
    done = runner.invoke(
        app, ["compare", "countdown", "--change", "short=true", "--agents", "1", "--games", "3",
              "--json"],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    assert set(json.loads(done.stdout)) == KEYS  # stdout stays one JSON object
    lines = done.stderr.splitlines()
    assert lines[0].startswith("countdown compare: 2/6 games (33%)") and "left" in lines[0]
    assert lines[-1].startswith("countdown compare: 6 games played in")


def test_result_json_rounds_without_negative_zero() -> None:
    comparison = make_comparison("countdown", None, [], ["salt=1"], "1", 4, 0)
    data = result_json(comparison, paired_measures(play(comparison.plan)))
    assert "-0.0" not in json.dumps(data)


def test_the_compare_report_has_the_verdict_the_measures_and_the_differences_plot(
    tmp_path: Path,
) -> None:
    pytest.importorskip("matplotlib")
    import base64
    import re

    page = tmp_path / "ab.html"
    args = ["compare", "countdown", "--change", "short=true", "--agents", "1", "--games", "8"]
    done = runner.invoke(app, [*args, "--report", str(page), "--json"])
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    text = page.read_text("utf-8")
    assert text.index("Verdict at level 1") < text.index("<h2>Measures</h2>")
    assert "length (turns), level 1" in text and text.count("<tr>") == 1 + len(data["measures"])
    (image,) = re.findall(r"<img alt='differences' src='data:image/png;base64,([^']+)'", text)
    assert base64.b64decode(image).startswith(b"\x89PNG")
    (blob,) = re.findall(r"href='data:application/json;base64,([^']+)'", text)
    assert json.loads(base64.b64decode(blob)) == data


def test_every_compare_command_of_the_guide_is_a_valid_comparison() -> None:
    """docs/analysis.md states the command of each compare finding: each must plan."""
    import shlex

    from typer.main import get_command

    text = (Path(__file__).resolve().parent.parent / "docs" / "analysis.md").read_text("utf-8")
    text = text.replace("\\\n", " ")
    command = get_command(app).commands["compare"]  # type: ignore[attr-defined]
    found = 0
    for line in text.splitlines():
        line = line.strip().removeprefix("$ ").strip("`")
        if line.startswith("tabletop compare ") and "[" not in line:
            words = shlex.split(line.split(" # ")[0].split(" > ")[0])[2:]
            params = command.make_context("compare", words).params
            comparison = make_comparison(
                params["game"],
                params["players"],
                params["option"] or [],
                params["change"] or [],
                params["agents"],
                params["games"],
                params["seed"],
            )
            assert comparison.changes
            found += 1
    assert found >= 6
