"""``tabletop games`` and ``tabletop rules``: the installed games as plain text, a game's
rules as rich Markdown (``games`` stays rich-free: it must start fast)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import typer

from tabletop.cli.language import speak
from tabletop.cli.options import GameArg, JsonOpt, LangOpt
from tabletop.core.i18n.text import Domain, translate

if TYPE_CHECKING:
    from tabletop.game import JSON, Game

_ = Domain("tabletop")


def games(as_json: JsonOpt = False, lang: LangOpt = None) -> None:
    """List the installed games with their players, options and AI levels."""
    from tabletop.cli.catalogue_cache import catalogue_rows
    from tabletop.core.i18n.text import translated_json

    # the JSON is for scripts: English unless --lang says otherwise (as for `run`)
    speak(lang, {} if as_json else None)
    rows = translated_json(catalogue_rows())
    if as_json:
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
    else:
        print_catalogue(rows)


def rules(game: GameArg, lang: LangOpt = None) -> None:
    """Show a game's rules and its action notation."""
    from tabletop.core.setup import resolve

    speak(lang)
    print_rules(resolve(game))


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return "|".join(_value(v) for v in value) if value else "-"
    return str(value)


def print_catalogue(rows: list[JSON]) -> None:
    """The installed games as plain aligned text (no rich: ``games`` must start fast)."""
    for row in rows:
        players = f"{row['min_players']}-{row['max_players']}"
        if row["min_players"] == row["max_players"]:
            players = str(row["min_players"])
        typer.echo(f"{row['id']:<10} {row['name']} {row['version']}: {row['summary']}")
        said = _(
            "players {players}; computer players (--ai SEAT:LEVEL, default {level}):",
            players=players,
            level=row["default_ai_level"],
        )
        typer.echo(f"{'':<10} {translate(said)}")
        for level in row["ai_levels"]:
            typer.echo(f"{'':<12} {level['name']:<8} {level['description']}")
        for o in row["options"]:
            default = _value(o["default"]).replace("|", ",")
            typer.echo(f"{'':<10} -o {o['name']}={default}  ({_value(o['allowed'])}) {o['help']}")
    typer.echo(
        translate(_("Rules and notation: tabletop rules GAME. As JSON: tabletop games --json."))
    )


def print_rules(game: Game[Any, Any]) -> None:
    """The rules (Markdown), then the options and AI levels."""
    from rich.console import Console
    from rich.markdown import Markdown

    from tabletop.agents.levels import DEFAULT_LEVEL, agent_levels
    from tabletop.core import options as opts
    from tabletop.core.presentation import presentation_of

    console = Console()
    shown = presentation_of(game)
    console.print(Markdown(shown.rules_text()))
    rows = opts.describe(game.info.options)
    if rows:
        lines = [
            translate(
                _(
                    "- `-o {name}=…` (default `{default}`; allowed {allowed}): {help}",
                    name=r["name"],
                    default=_value(r["default"]),
                    allowed=translate(r["allowed"])
                    if isinstance(r["allowed"], str)
                    else _value(r["allowed"]),
                    help=r["help"],
                )
            )
            for r in rows
        ]
        console.print(Markdown(translate(_("## Options")) + "\n" + "\n".join(lines)))
    console.print(Markdown(translate(_("## Position JSON")) + "\n" + shown.position_format()))
    levels = "\n".join(
        f"- `{name}`: {translate(lv.description)}" for name, lv in agent_levels(game).items()
    )
    heading = _("## Computer players (`--ai SEAT[:LEVEL]`, default {level})", level=DEFAULT_LEVEL)
    console.print(Markdown(translate(heading) + "\n" + levels))
