"""``--report FILE.html``: one self-contained page for a designer (PNG embedded as base64).

The page opens with a summary table (per configuration and level: each seat's win rate
with its interval, draws, how games ended, length in turns and estimated minutes, points,
skill), then the warnings, then one plot per measure, then a link that downloads every
number as JSON (the numbers are not printed on the page). Configurations run down the
side of every plot, so their labels stay readable however many there are; levels are
named by their descriptions; each end kind has one colour on every page of every game.
``compare`` gets the same page shape: the verdict, the table of measures, and the
differences with their intervals as a plot.

matplotlib (extra ``analysis``) draws the plots: the established plotting library, static
PNGs need no JavaScript or network to open, and its object API (``Figure``) keeps no
global state. Every plot is drawn from the ``--json`` object alone.
"""

from __future__ import annotations

import base64
import html
import json
from pathlib import Path
from typing import Any

import tabletop.analysis.wording as w
from tabletop.analysis.findings import (
    completion_level_changes,
    fair_share,
    seat_level_changes,
    seat_warnings,
)
from tabletop.analysis.report_plots import figures, level_short, level_title, png
from tabletop.analysis.run import label
from tabletop.analysis.wording import pct as _pct
from tabletop.analysis.wording import say
from tabletop.core.errors import TabletopError
from tabletop.core.i18n.text import Domain, current, translate

_ = Domain("tabletop")


class MatplotlibMissing(TabletopError):
    """``--report`` without matplotlib installed."""

    exit_code = 2


def check_matplotlib() -> None:
    """MatplotlibMissing (how to install it) unless matplotlib can be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise MatplotlibMissing(
            _("--report needs matplotlib, which is not installed: pip install -e '.[analysis]'")
        ) from None


STYLE = (
    "body{font-family:sans-serif;max-width:1200px;margin:auto;padding:0 1em;color:#222}"
    "img{max-width:100%}table{border-collapse:collapse;font-size:13px;margin:1em 0}"
    ".scroll{overflow-x:auto;max-width:100%}tr.ns td,.ns{color:#666}"
    "tr.sig td,.sig{font-weight:bold;color:#222}"
    "th,td{border-bottom:1px solid #ddd;padding:3px 8px;text-align:right;vertical-align:top}"
    "th{background:#f4f4f4}td.l,th.l{text-align:left}td{white-space:nowrap}"
    "td.w{white-space:normal;min-width:6em;max-width:11em}.warn{color:#8a4b00}"
    ".ci{color:#595959;font-size:11px}.sig{font-weight:bold}a.dl{font-size:15px}"
    # a phone keeps a plot at a readable size and scrolls it inside its own box
    "@media (max-width:700px){.fig{overflow-x:auto}.fig img{max-width:none;width:680px}}"
)


def figure(image: bytes, alt: str, key: str) -> str:
    """A PNG plot in the page: its title as the text alternative (``key`` names it for
    programs), in a box that scrolls sideways on a narrow screen instead of shrinking the
    plot past reading."""
    encoded = base64.b64encode(image).decode("ascii")
    return (
        f"<div class='fig' data-plot='{_e(key)}'>"
        f"<img alt='{_e(alt)}' src='data:image/png;base64,{encoded}'></div>"
    )


def _e(value: Any) -> str:
    return html.escape(str(value))


def summary_table(data: dict[str, Any]) -> str:
    """The analysis at a glance: one row per configuration and level."""

    players = max(r["players"] for r in data["configurations"])
    skill: dict[str, list[str]] = {}
    for row in data["skill"]:
        low, high = row["higher_score_ci95"]
        style, mark = ("sig", "*") if row["significant"] else ("ns", f" ({say(w.NOT_SIGNIFICANT)})")
        skill.setdefault(label(row, data["swept"]), []).append(
            f"<span class={style}>{_e(say(w.versus(row['higher'], row['lower'])))}: "
            f"{_pct(row['higher_score'])}{_e(mark)}</span> <span class=ci>[{_pct(low)}-"
            f"{_pct(high)}] {_e(say(w.FAIR.format(rate=_pct(row['baseline']))))}</span>"
        )
    scored = any(r.get("points") for r in data["configurations"])
    head = [say(w.HEAD_CONFIGURATION), say(w.HEAD_LEVEL)]
    head += [say(w.HEAD_SEAT.format(seat=s)) for s in range(1, players + 1)]
    head += [say(h) for h in (w.HEAD_FAIR, w.HEAD_DRAWS, w.HEAD_ENDED, w.HEAD_TURNS)]
    head += [say(w.HEAD_MINUTES)]
    head += [say(w.HEAD_POINTS), say(w.HEAD_MARGIN)] if scored else []
    head += [say(w.HEAD_SKILL)] if data["skill"] else []
    out = ["<table><tr>" + "".join(f"<th class=l>{_e(h)}</th>" for h in head[:2])]
    out[0] += "".join(f"<th>{_e(h)}</th>" for h in head[2:]) + "</tr>"
    shown: set[str] = set()
    for row in data["configurations"]:
        name = label(row, data["swept"])
        cells = [
            f"<td class=l>{_e(name)}</td>",
            f"<td class='l w'>{_e(level_short(row['level'], data))}</td>",
        ]
        edges = {
            s
            for s, (lo, hi) in enumerate(row["seat_win_rate_ci95"], 1)
            if lo > fair_share(row) or hi < fair_share(row)
        }
        for seat in range(1, players + 1):
            if seat > row["players"]:
                cells.append("<td></td>")
                continue
            low, high = row["seat_win_rate_ci95"][seat - 1]
            style, mark = (" class=sig", "*") if seat in edges else (" class=ns", "")
            cells.append(
                f"<td{style}>{_pct(row['seat_win_rate'][seat - 1])}{mark}<br>"
                f"<span class=ci>{_pct(low)}-{_pct(high)}</span></td>"
            )
        ends = ", ".join(
            f"{_e(k)} {_pct(v / row['games'])}"
            for k, v in sorted(row["end_reasons"].items(), key=lambda kv: -kv[1])
        )
        turns = row["length_turns"]
        cells += [
            f"<td>{_pct(fair_share(row))}</td>",
            f"<td>{_pct(row['draw_rate'])}</td>",
            f"<td class='l w'>{ends}</td>",
            f"<td>{w.num(turns['mean'])} ({w.short(turns['median'])})</td>",
            f"<td>{w.num(row['length_minutes']['mean'])}</td>",
        ]
        if scored:
            points = row.get("points")
            if points:
                margin = points["score_margin"]
                seats = " / ".join(w.num(p, 1) for p in points["seat_points"])
                cells += [f"<td class=w>{seats}</td>", f"<td>{w.num(margin['mean'], 1)}</td>"]
            else:
                cells += ["<td></td>", "<td></td>"]
        if data["skill"]:
            text = "<br>".join(skill.get(name, [])) if name not in shown else ""
            shown.add(name)
            cells.append(f"<td class='l w'>{text}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def stopped(data: dict[str, Any]) -> str:
    """A stopped run's line: what it finished, of what."""
    from tabletop.analysis.text import STOPPED

    return STOPPED.format(finished=data["finished"], planned=data["planned"])


def scrolling(table: str) -> str:
    """A table that scrolls inside itself when the screen is narrower (a phone)."""
    return f"<div class=scroll>{table}</div>"


def _download(data: dict[str, Any], name: str) -> str:
    blob = base64.b64encode(json.dumps(data, indent=1, ensure_ascii=False).encode()).decode()
    rows = _e(say(w.PER_GAME_ROWS.format(flag="\x00"))).replace(
        "\x00", "<code>--export FILE.csv</code>"
    )
    return (
        f"<p><a class=dl download='{_e(name)}' href='data:application/json;base64,{blob}'>"
        f"{_e(say(w.DOWNLOAD.format(name=name)))}</a>; {rows}.</p>"
    )


def _images(made: dict[str, Any]) -> list[str]:
    parts = []
    for name, fig in made.items():
        title = say(w.TITLES.get(name, name))
        parts.append(f"<h2>{_e(title)}</h2><p>{_e(say(w.CAPTIONS.get(name, '')))}</p>")
        parts.append(figure(png(fig), title, name))
    return parts


def _write(parts: list[str], path: Path) -> None:
    try:
        path.write_text("\n".join(parts), encoding="utf-8")
    except OSError as exc:
        raise TabletopError(
            _(
                "cannot write the report {path}: {reason}",
                path=str(path),
                reason=exc.strerror or str(exc),
            )
        ) from None


def _page(title: str) -> list[str]:
    return [
        f"<!doctype html><html lang='{current()}'><head><meta charset='utf-8'>",
        f"<title>{_e(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
    ]


def write_report(data: dict[str, Any], path: Path) -> None:
    """Write the analysis page: summary, warnings, a plot per measure, the download."""

    parts = _page(say(w.BALANCE_TITLE.format(game=data["game"])))
    levels = "; ".join(level_title(level, data) for level in data["levels"])
    settings = w.SETTINGS.format(
        seed=data["seed"],
        swept=", ".join(data["swept"]) or w.NOTHING,
        levels=levels,
        seconds=w.short(data.get("seconds_per_turn", 20)),
    )
    parts.append(f"<p>{_e(say(w.games_per_row(data['games'])))}, {_e(say(settings))}</p>")
    if data.get("partial"):
        parts.append(f"<p class=warn>{_e(translate(stopped(data)))}</p>")
    parts.append(f"<h2>{_e(say(w.SUMMARY))}</h2>" + scrolling(summary_table(data)))
    notes = seat_level_changes(data) + completion_level_changes(data) + seat_warnings(data)
    if notes:
        parts.append(
            "<ul>" + "".join(f"<li class=warn>{_e(translate(n))}</li>" for n in notes) + "</ul>"
        )
    parts.append(_download(data, f"{data['game']}-analysis.json"))
    parts += _images(figures(data))
    parts.append("</body></html>")
    _write(parts, path)
