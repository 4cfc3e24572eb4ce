"""The ``tabletop`` command: the typer app and its one error boundary.

Every user error is a :class:`~tabletop.core.errors.TabletopError`, printed as one line on
stderr with exit status 1 or 2; never a traceback. Each command is a function in its own
module of :mod:`tabletop.cli` (its options declared there), named in :data:`COMMANDS` and
run behind :func:`guarded`. A command's module is imported only when that command runs
(or ``--help`` lists them all), so ``tabletop games`` does not pay for ``run``'s records,
``analyse``'s statistics or ``serve``'s web stack (issue 34).
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar

import typer
from typer.core import TyperGroup

from tabletop.cli import parsers
from tabletop.cli.language import own_language
from tabletop.cli.options import SEED_HELP, GameArg, OptionsOpt, PlayersOpt
from tabletop.cli.usage_errors import args_language, usage_message
from tabletop.core import flags
from tabletop.core.errors import TabletopError, UsageError, one_line
from tabletop.core.i18n.text import Domain, chosen, message_of, translate

_ = Domain("tabletop")

# Every built-in command: its name, and the module and function that run it (``--help``
# lists them in this order). ``test`` and ``check`` are the conformance kit's commands,
# declared below in this module; their bodies are the kit's.
COMMANDS: dict[str, tuple[str, str]] = {
    "games": ("tabletop.cli.games", "games"),
    "rules": ("tabletop.cli.games", "rules"),
    "play": ("tabletop.cli.play", "play"),
    "run": ("tabletop.cli.run", "run"),
    "replay": ("tabletop.cli.replay", "replay"),
    "review": ("tabletop.cli.review", "review"),
    "test": ("tabletop.cli.app", "test_"),
    "check": ("tabletop.cli.app", "check"),
    "arena": ("tabletop.cli.arena", "arena"),
    "analyse": ("tabletop.cli.analyse", "analyse"),
    "compare": ("tabletop.cli.compare", "compare"),
    "solve": ("tabletop.cli.solve", "solve"),
    "new": ("tabletop.cli.scaffold", "new"),
    "serve": ("tabletop.cli.serve", "serve"),
}


class Commands(TyperGroup):
    """typer's command group, with every usage error (unknown flag, missing argument, bad
    value) printed as one line on stderr with exit status 2, like every other error: in
    the console script, ``python -m tabletop`` and typer's test runner alike.

    A built-in command (:data:`COMMANDS`) is built when it is asked for; commands that
    plugins add (the ``tabletop_register_commands`` hook) are looked up only for ``--help``
    and for a name that is not built in: ``tabletop games`` never asks."""

    plugins: tuple[object, ...] = ()  # extra plugin objects (see with_plugins)
    _loaded = False

    def list_commands(self, ctx: Any) -> list[str]:
        built = {name: self._built_in(name) for name in COMMANDS}
        with contextlib.suppress(TabletopError):  # a broken plugin: help lists the built-ins
            self._add_plugin_commands()
        return [*built, *(name for name in super().list_commands(ctx) if name not in built)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        found = super().get_command(ctx, cmd_name)
        if found is None and cmd_name in COMMANDS:
            found = self._built_in(cmd_name)
        if found is None and not self._loaded:
            self._add_plugin_commands()
            found = super().get_command(ctx, cmd_name)
        return found

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        if args and args[0] not in self.commands and args[0] not in COMMANDS:
            self.list_commands(ctx)  # typer suggests the closest of the commands it knows
        return super().resolve_command(ctx, args)

    def _built_in(self, name: str) -> Any:
        """The built-in command ``name``, its module imported and its click command made
        the first time it is asked for."""
        if name not in self.commands:
            module, function = COMMANDS[name]
            callback = getattr(importlib.import_module(module), function)
            info = typer.models.CommandInfo(name=name, callback=guarded(callback))
            made = typer.main.get_command_from_info(
                info, pretty_exceptions_short=True, rich_markup_mode=None
            )
            self.add_command(made, name)
        return self.commands[name]

    def _add_plugin_commands(self) -> None:
        """Every plugin's commands, behind the error boundary; a built-in name wins."""
        if self._loaded:
            return
        self._loaded = True
        from tabletop.core.plugins import plugin_manager

        extra = typer.Typer(add_completion=False, rich_markup_mode=None)
        plugin_manager(list(self.plugins)).hook.tabletop_register_commands(app=extra)
        for info in extra.registered_commands:
            if info.callback is not None:
                info.callback = guarded(info.callback)
        if extra.registered_commands or extra.registered_groups:
            for name, command in typer.main.get_group(extra).commands.items():
                if name not in self.commands and name not in COMMANDS:
                    self.add_command(command, name)

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        usage_error, click_error = _click_errors()
        words = sys.argv[1:] if args is None else list(args)  # for the language of an error
        try:
            code = super().main(
                args,
                prog_name,
                complete_var,
                standalone_mode=False,
                windows_expand_args=windows_expand_args,
                **extra,
            )
        except usage_error as exc:
            ctx = getattr(exc, "ctx", None)
            if type(exc).__name__ == "NoArgsIsHelpError" and ctx is not None:
                typer.echo(ctx.get_help())  # a bare ``tabletop``: the help, as before
                code = 2
            else:
                where = ctx.command_path if ctx is not None else "tabletop"
                if ctx is None and words[:1] and words[0] in self.commands:
                    where = f"tabletop {words[0]}"  # click's parser leaves some without one
                fail(usage_message(exc, where), 2, args_language(words))
                code = 2
        except click_error as exc:
            fail(exc.format_message(), exc.exit_code)
            code = exc.exit_code
        except typer.Abort:
            fail(_("interrupted"), 130, args_language(words))
            code = 130
        except TabletopError as exc:  # loading the plugins' commands failed
            fail(message_of(exc), exc.exit_code, args_language(words))
            code = exc.exit_code
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)


def _click_errors() -> tuple[type[Any], type[Any]]:
    """click's UsageError and ClickException, wherever this typer keeps click (typer 0.2x
    vendors it privately): the bases of the public ``typer.BadParameter``."""
    found = {cls.__name__: cls for cls in typer.BadParameter.__mro__}
    return found["UsageError"], found["ClickException"]


def _typer(cls: type[Commands]) -> typer.Typer:
    return typer.Typer(
        cls=cls,
        name="tabletop",
        help="Play, test and study tabletop games: every installed game plugin.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
    )


app = _typer(Commands)


@app.callback()
def _tabletop() -> None:
    """The group's own step (none): the commands are built when asked (:data:`COMMANDS`)."""

P = ParamSpec("P")
R = TypeVar("R")


def fail(message: str, code: int = 1, lang: str | None = None) -> typer.Exit:
    """Print ``message`` (translated into the command's language, or ``lang``) as the one
    error line and return the Exit to raise."""
    sys.stderr.write(f"tabletop: {one_line(translate(message, lang))}\n")
    sys.stderr.flush()
    return typer.Exit(code)


def guarded(command: Callable[P, R]) -> Callable[P, R]:
    """The error boundary: TabletopError -> one line, its exit status; no traceback.
    The command runs in a context of its own: the language it chose (``--lang``) ends
    with it (a test runner or a host program calling commands one after another)."""

    @functools.wraps(command)
    def boundary(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except TabletopError as exc:  # a command that chose no language: the environment's
            lang = None if chosen() else args_language(())
            raise fail(message_of(exc), exc.exit_code, lang) from None
        except KeyboardInterrupt:
            raise fail(_("interrupted"), 130, None if chosen() else args_language(())) from None
        except BrokenPipeError:
            raise typer.Exit(1) from None
        except (typer.Exit, typer.Abort, SystemExit):
            raise
        except Exception as exc:  # a bug: still one line, unless debugging
            if os.environ.get("TABLETOP_DEBUG"):
                raise
            error = f"{type(exc).__name__}: {exc}"
            raise fail(
                _(
                    "internal error ({error}); "
                    "rerun with TABLETOP_DEBUG=1 for the traceback and please report it",
                    error=error,
                ),
                3,
                None if chosen() else args_language(()),
            ) from None

    return own_language(boundary)


def test_(
    paths: Annotated[list[Path] | None, typer.Argument(help="Scenario files or folders.")] = None,
    game: Annotated[str | None, typer.Option("--game", help="Only this game's scenarios.")] = None,
    k: Annotated[str | None, typer.Option("-k", help="Only cases matching EXPR.")] = None,
    coverage: Annotated[
        bool, typer.Option("--coverage", help="List rule IDs no scenario covers.")
    ] = False,
    mutate: Annotated[
        bool, typer.Option("--mutate", help="Mutation score of the suite (needs --game).")
    ] = False,
    module: Annotated[
        list[str] | None, typer.Option("--module", help="With --mutate: mutate this module.")
    ] = None,
    max_mutants: Annotated[
        int | None, typer.Option("--max-mutants", help="With --mutate: at most N mutants.")
    ] = None,
    seconds: Annotated[
        float | None, typer.Option("--seconds", help="With --mutate: stop after S seconds.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="With --mutate: print JSON.")] = False,
) -> None:
    """Run rule scenario files (default: those every installed game ships)."""
    if not mutate and (module or max_mutants is not None or seconds is not None or as_json):
        raise UsageError(_("--module, --max-mutants, --seconds and --json go with --mutate"))
    if mutate:
        from tabletop.cli.mutate import mutate_command

        status = mutate_command(paths or [], game, k, module or [], max_mutants, seconds, as_json)
        raise typer.Exit(status)
    from tabletop.cli.scenarios import test_command

    raise typer.Exit(test_command(list(paths or []), game, k, coverage))


def check(
    game: GameArg,
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            help=f"Random games in all, spread over the configurations (default 200), "
            f"1..{flags.GAMES_MAX}.",
            parser=parsers.games,
        ),
    ] = None,
    per_config: Annotated[
        int | None,
        typer.Option(
            "--games-per-config",
            help=f"Random games in each configuration instead (for depth), 1..{flags.GAMES_MAX}.",
            parser=parsers.games,
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help=SEED_HELP, parser=parsers.seed)] = 0,
    record: Annotated[bool, typer.Option("--record", help="Write golden playthroughs.")] = False,
    players: PlayersOpt = None,
    option: OptionsOpt = None,
) -> None:
    """Conformance kit: seeded random games checking the game's invariants."""
    from tabletop.cli.check import check_command

    status = check_command(game, games, seed, record, players, option or [], per_config)
    raise typer.Exit(status)


def with_plugins(plugins: Sequence[object]) -> typer.Typer:
    """The ``tabletop`` app with ``plugins`` registered besides the installed ones: to try a
    plugin's ``tabletop_register_commands`` without installing it (tests, the guide)."""
    extended = _typer(type("Commands", (Commands,), {"plugins": tuple(plugins)}))
    extended.callback()(_tabletop)
    return extended


def main(argv: Sequence[str] | None = None) -> int:
    """Console entry point (``tabletop``, ``python -m tabletop``); returns the exit status."""
    code = app(args=list(argv) if argv is not None else None, standalone_mode=False)
    return code if isinstance(code, int) else 0
