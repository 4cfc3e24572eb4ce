"""The conformance kit's entry points: :func:`check_game` plays seeded random games in
every configuration (:mod:`tabletop.kit.configurations`) and runs the checks of
:mod:`tabletop.kit.checks` on them; :func:`assert_conformance` raises with the report."""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from tabletop.core.registry import registry
from tabletop.core.setup import player_count
from tabletop.game import Game
from tabletop.kit import encoding as kit_encoding
from tabletop.kit.checks import (
    CHECKS,
    FAILED,
    Context,
    Tally,
    play,
    positions,
    run,
    translations,
    views,
)
from tabletop.kit.checks import fuzz as fuzz_check
from tabletop.kit.checks.context import Failed
from tabletop.kit.configurations import plan_configurations
from tabletop.kit.report import CheckReport, CheckStats

DEEP_POSITIONS = 3  # positions per game that get the expensive checks
DEEP_GAMES = 25  # games per configuration that get them (then every tenth)
MUTANTS = 4  # mutated positions tried per deep game (mutants, see tabletop.kit.fuzzing)


def resolve(game: str | Game[Any, Any]) -> Game[Any, Any]:
    """The game itself, or the installed game of that id."""
    return registry().get(game) if isinstance(game, str) else game


def check_game(
    game: str | Game[Any, Any],
    games: int = 200,
    seed: int = 0,
    players: int | None = None,
    fuzz: int = 40,
    max_configs: int = 12,
    options: BaseModel | Mapping[str, Any] | None = None,
) -> CheckReport:
    """Play ``games`` seeded random games per configuration and run every check.

    ``fuzz`` bad inputs are tried at each of a few positions per game; the first
    ``DEEP_GAMES`` games of a configuration (and every tenth after) also get the costliest
    checks (a deep copy around every apply, a real save/load). The configurations are
    :func:`plan_configurations`'s (with ``options``: only that one). Game ``i`` of configuration
    ``c`` uses seed ``seed + c * games + i``.
    """
    resolved = resolve(game)
    info = resolved.info
    if players is not None:
        player_count(resolved, players)  # UsageError naming the allowed counts
    plan = plan_configurations(resolved, players, max_configs, seed, options)
    configs = plan.configs
    report = CheckReport(info.id, games * len(configs), seed, [c.label() for c in configs])
    report.how, report.refused = plan.how, plan.refused
    report.checks = {name: CheckStats(name, text) for name, text in CHECKS.items()}
    if kit_encoding.provided(resolved):
        report.checks[kit_encoding.NAME] = CheckStats(kit_encoding.NAME, kit_encoding.DESCRIPTION)
    tally, last = Tally(report), None
    started = time.perf_counter()
    for index, config in enumerate(configs):
        for number in range(games):
            deep = number < DEEP_GAMES or number % 10 == 0
            last = Context(resolved, config, seed + index * games + number, tally, fuzz)
            play_game(last, deep, save_load=number == 0)
    if last is not None:
        views.hides_something(last)  # a failure names the last game played
        run(last, "translations", translations.check)
    report.seconds = time.perf_counter() - started
    return report


def play_game(ctx: Context, deep: bool, save_load: bool = False) -> None:
    """Play one seeded random game and run the checks on it (``deep``: all of them)."""
    game, players, options = ctx.game, ctx.players, ctx.options
    rng = random.Random(ctx.seed)
    state = run(ctx, "legal", _new)
    if state is FAILED:
        return
    states: list[Any] = [state]
    actions: list[Any] = []
    texts: list[str] = []
    bound = game.info.max_actions(players, options)
    ended = False
    while True:
        here = ctx.at(texts)
        legal = run(here, "legal", play.legal, state)
        if legal is FAILED:
            break
        if not legal:
            ended = True
            break
        if len(actions) >= bound:
            here.fail("bound", f"no end after {bound} actions (info.max_actions)")
            break
        action = legal[rng.randrange(len(legal))]
        after = run(here, "pure", play.pure, state, action, deep)
        if after is FAILED:
            break
        texts.append(here.text_of(state, action))
        state = after
        states.append(state)
        actions.append(action)
    whole = ctx.at(texts)
    if ended:
        whole.count("bound", 1)
    run(whole, "deterministic", play.deterministic, states, actions)
    if not ended or not deep:
        return
    run(whole, "record", play.record, states, actions, rng, save_load)
    for index in sorted(rng.sample(range(len(states)), min(DEEP_POSITIONS, len(states)))):
        here, position = ctx.at(texts[:index]), states[index]
        run(here, "notation", positions.notation, position)
        run(here, "position", positions.position, position)
        run(here, "views", views.views, position, rng)
        run(here, "samples", positions.samples, position, rng)
        run(here, "fuzz", fuzz_check.fuzz, actions[:index], rng)
        if kit_encoding.NAME in ctx.tally.report.checks:
            run(here, kit_encoding.NAME, _encoding, position, rng)
    run(whole, "position", positions.damaged, rng.choice(states), rng)
    for _ in range(MUTANTS):
        run(whole, "mutants", positions.mutant, rng.choice(states), rng)


def _encoding(ctx: Context, state: Any, rng: random.Random) -> None:
    """The encoding check (for games with action ids) at ``state``."""
    try:
        kit_encoding.check(ctx.game, ctx.players, ctx.options, state, rng)
    except kit_encoding.EncodingFailure as exc:
        raise Failed(str(exc)) from None


def _new(ctx: Context) -> Any:
    return ctx.game.new(ctx.players, ctx.options, ctx.seed)


def assert_conformance(
    game: str | Game[Any, Any],
    games: int = 200,
    seed: int = 0,
    players: int | None = None,
    options: BaseModel | Mapping[str, Any] | None = None,
) -> CheckReport:
    """:func:`check_game`, raising AssertionError with the report when a check fails."""
    report = check_game(game, games=games, seed=seed, players=players, options=options)
    if not report.ok:
        raise AssertionError(report.text())
    return report
