"""What ``tabletop games``, ``rules`` and ``run`` print about games and positions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop.agents.levels import DEFAULT_LEVEL, agent_levels
from tabletop.core import options as opts
from tabletop.core.registry import registry
from tabletop.game import JSON, Game

if TYPE_CHECKING:
    from tabletop.core.match import Match


def describe_game(game: Game[Any, Any]) -> JSON:
    """One game's entry of ``tabletop games --json``."""
    info = game.info
    return {
        "id": info.id,
        "name": info.name,
        "version": info.version,
        "summary": info.summary,
        "min_players": info.min_players,
        "max_players": info.max_players,
        "players": list(range(info.min_players, info.max_players + 1)),
        "hidden_information": info.hidden_information,
        "options": opts.describe(info.options),
        "ai_levels": [
            {"name": name, "description": lv.description} for name, lv in agent_levels(game).items()
        ],
        "default_ai_level": DEFAULT_LEVEL,
    }


def catalogue() -> list[JSON]:
    """Every installed game, sorted by id."""
    reg = registry()
    return [describe_game(reg.get(gid)) for gid in reg.ids()]


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return "|".join(_value(v) for v in value) if value else "-"
    return str(value)


def print_catalogue(rows: list[JSON]) -> None:
    """The installed games as plain aligned text (no rich: ``games`` must start fast)."""
    import typer

    for row in rows:
        players = f"{row['min_players']}-{row['max_players']}"
        if row["min_players"] == row["max_players"]:
            players = str(row["min_players"])
        typer.echo(f"{row['id']:<10} {row['name']} {row['version']}: {row['summary']}")
        typer.echo(
            f"{'':<10} players {players}; computer players (--ai SEAT:LEVEL, "
            f"default {DEFAULT_LEVEL}):"
        )
        for level in row["ai_levels"]:
            typer.echo(f"{'':<12} {level['name']:<8} {level['description']}")
        for o in row["options"]:
            default = _value(o["default"]).replace("|", ",")
            typer.echo(f"{'':<10} -o {o['name']}={default}  ({_value(o['allowed'])}) {o['help']}")
    typer.echo("Rules and notation: tabletop rules GAME. As JSON: tabletop games --json.")


def print_rules(game: Game[Any, Any]) -> None:
    """The rules (Markdown), then the options and AI levels."""
    from rich.console import Console
    from rich.markdown import Markdown

    console = Console()
    console.print(Markdown(game.rules_text()))
    rows = opts.describe(game.info.options)
    if rows:
        lines = [
            f"- `-o {r['name']}=…` (default `{_value(r['default'])}`; "
            f"allowed {_value(r['allowed'])}): {r['help']}"
            for r in rows
        ]
        console.print(Markdown("## Options\n" + "\n".join(lines)))
    levels = "\n".join(f"- `{name}`: {lv.description}" for name, lv in agent_levels(game).items())
    console.print(
        Markdown(f"## Computer players (`--ai SEAT[:LEVEL]`, default {DEFAULT_LEVEL})\n" + levels)
    )


def print_summary(match: Match, summary: JSON) -> None:
    """The human form of ``tabletop run``'s result: the board and the status."""
    from rich.console import Console

    console = Console(highlight=False)
    game = match.game
    console.print(game.render(summary["view"], summary["to_act"]))
    if summary["status"] == "over":
        winners = summary["winners"]
        who = " and ".join(f"player {w}" for w in winners) if winners else "nobody (a draw)"
        console.print(f"over: {who} won. {summary.get('reason', '')}".rstrip())
    else:
        console.print(
            f"ongoing: player {summary['to_act']} to act: {game.prompt(match.state)}; "
            f"{len(summary['legal'])} legal actions"
        )
