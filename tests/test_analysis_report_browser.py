"""Issue 40, reports that read right, looked at in Debian's Chromium: the summary table
of a six-player sweep fits a 1,280 px screen and, on a 390 px phone, scrolls inside
itself (the page does not); a measure that cannot vary gets no plot; the export keeps
full precision and the decisions of every game."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from tabletop.analysis import measures
from tabletop.analysis.observe import GameStats
from tests.browser_support import chromium, shots


def game(players: int, rng: random.Random, margin: int | None) -> GameStats:
    winner = rng.randrange(1, players + 1)
    scores = [rng.randrange(3) for _ in range(players)]
    scores[winner - 1] = max(scores) + (margin if margin is not None else rng.randrange(1, 4))
    if margin is not None:  # simple scoring: the margin is always the same
        scores = [0] * players
        scores[winner - 1] = margin
    turns = rng.randrange(40, 400)
    return GameStats(
        ("1",) * players, (winner,), rng.choice(["blocked", "ctverak"]), turns * 2, turns,
        turns, turns * 7, rng.randrange(6), turns, rng.random(), 0, 0, tuple(scores),
        rng.random(), rng.random() * 1e-3, 3e-4 + rng.random() * 1e-4, ((5, turns),),
    )  # fmt: skip


def sweep(margin: int | None = None) -> dict[str, Any]:
    """Two to six players at two levels, 200 hand-made games a row."""
    rng = random.Random(40)
    rows = []
    for players in range(2, 7):
        for level in ("1", "2"):
            made = measures.self_play([game(players, rng, margin) for _ in range(200)], players)
            rows.append({"players": players, "options": {}, "level": level, **made})
    agents = {"1": "random legal actions", "2": "greedy: one ply with the game's evaluation"}
    return {
        "game": "ctverak", "seed": 0, "games": 200, "levels": ["1", "2"], "agents": agents,
        "swept": ["players"], "seconds_per_turn": 20.0, "configurations": rows, "skill": [],
    }  # fmt: skip


def test_the_six_player_table_fits_1280_px_and_scrolls_inside_itself_on_a_phone(
    tmp_path: Path,
) -> None:
    pytest.importorskip("matplotlib")
    pytest.importorskip("playwright")
    from tabletop.analysis.report import write_report

    page_file = tmp_path / "ctverak.html"
    write_report(sweep(), page_file)
    folder = shots("analysis-report")
    folder.mkdir(parents=True, exist_ok=True)
    measure = """() => ({page: document.documentElement.scrollWidth,
        table: document.querySelector('table').scrollWidth,
        box: document.querySelector('div.scroll').clientWidth,
        scrolls: getComputedStyle(document.querySelector('div.scroll')).overflowX})"""
    with chromium() as browser:
        for width in (1280, 390):
            page = browser.new_page(viewport={"width": width, "height": 900})
            page.goto(page_file.as_uri())
            seen = page.evaluate(measure)
            page.screenshot(path=str(folder / f"summary-{width}.png"), full_page=True)
            page.close()
            assert seen["page"] <= width, seen  # the page never scrolls sideways
            assert seen["scrolls"] == "auto"
            if width == 1280:
                assert seen["table"] <= seen["box"], seen  # the whole table in view
            else:
                assert seen["table"] > seen["box"], seen  # wider: it scrolls in its box


def test_a_measure_that_cannot_vary_gets_no_plot_and_every_mean_has_its_interval() -> None:
    pytest.importorskip("matplotlib")
    from tabletop.analysis.report_plots import figures

    varied = figures(sweep())
    assert {"score_margin", "drama", "clarity", "seat_win_rates"} <= set(varied)
    simple = figures(sweep(margin=1))  # simple scoring: every margin is 1 point
    assert "score_margin" not in simple and "drama" in simple
    for row in sweep()["configurations"]:
        for key in ("lead_changes", "decisiveness", "drama", "stability", "clarity"):
            low, high = row[f"{key}_ci95"]
            assert low < row[key] < high, (key, row[key], low, high)
        assert row["clarity"] > 1e-4  # four significant digits, not four decimals


def test_the_export_keeps_full_precision_and_the_decisions_of_every_game(
    tmp_path: Path,
) -> None:
    from typer.testing import CliRunner

    from tabletop.cli.app import app

    path = tmp_path / "games.jsonl"
    done = CliRunner().invoke(
        app, ["analyse", "quarto", "--agents", "2", "--games", "3", "--export", str(path)]
    )
    assert done.exit_code == 0, done.output
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    for row in rows:
        assert row["decisions"] > 0 and row["legal_actions"] >= row["decisions"]
        assert row["branching"] == row["legal_actions"] / row["decisions"]  # not rounded
        assert row["minutes_estimate"] == row["turns"] * 20.0 / 60
