"""The plugin hooks: this module is the plugin author's manual.

A game plugin is a module named in the ``tabletop`` entry-point group of its
distribution's ``pyproject.toml``::

    [project.entry-points.tabletop]
    mygame = "mygame_package.plugin"

The module implements the hooks below with ``@tabletop.hookimpl``. Hooks are for
discovery only: the core resolves a game once and then calls it directly. Every hook is
optional: a plugin may add games, commands or both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pluggy

PROJECT = "tabletop"

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def tabletop_register_games(register: Callable[[Any], None]) -> None:
    """Register the games this plugin provides.

    Call ``register(game)`` once for each :class:`tabletop.game.Game` instance. The
    game's ``info.id`` must be unique among installed games: a second game with the
    same id is an error naming both plugins. Keep the module light to import: the
    core loads every plugin to answer ``tabletop games``.

    Example::

        @hookimpl
        def tabletop_register_games(register):
            register(MyGame())
    """


@hookspec
def tabletop_register_commands(app: Any) -> None:
    """Add commands to the ``tabletop`` command line (optional).

    ``app`` is a ``typer.Typer``: declare commands on it with ``@app.command()`` as in any
    typer program (annotated parameters become its options; the plugin module itself
    need not import typer). They are listed by ``tabletop --help`` after the built-in
    ones and run behind the same error boundary (a ``TabletopError`` is one line on
    stderr, no traceback). A built-in command's name cannot be taken. The hook is asked
    only for ``--help`` and for a name that is not built in; import heavy things inside
    the command: ``tabletop games`` loads the plugin module.

    Example::

        @hookimpl
        def tabletop_register_commands(app):
            @app.command(help="Say hello.")
            def hello(name: str = "world") -> None:
                print(f"hello {name}")
    """


@hookspec
def tabletop_register_agents(register: Callable[[str, Callable[[Any, str], Any]], None]) -> None:
    """Register agents that any game can be played against by a prefixed name (optional).

    Call ``register(prefix, level)`` for each: ``--ai 2:PREFIX:ARGS`` (and the arena's and
    the web's agent names) then seat ``level(game, "PREFIX:ARGS")``, a
    :class:`tabletop.agents.base.Level` (or a UsageError saying what is wrong). Keep the
    module light: import the agent's stack inside ``level``, when it is asked for. The
    research extra registers ``openspiel-mcts`` this way (:mod:`tabletop.research_agents`).

    Example::

        @hookimpl
        def tabletop_register_agents(register):
            def level(game, name):
                from my_bots import make_level

                return make_level(game, name)

            register("my-bot", level)
    """
