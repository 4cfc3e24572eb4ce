"""The conformance kit's entry points: :func:`check_game` plays seeded random games in
every configuration (:mod:`tabletop.kit.configurations`) and runs the checks of
:mod:`tabletop.kit.checks` on them; :func:`assert_conformance` raises with the report."""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain, message_of
from tabletop.core.match import draw
from tabletop.core.registry import registry
from tabletop.core.setup import player_count
from tabletop.game import CHANCE, Game
from tabletop.kit import encoding as kit_encoding
from tabletop.kit.checks import (
    CHECKS,
    FAILED,
    Context,
    Tally,
    play,
    positions,
    run,
    told,
    translations,
    views,
)
from tabletop.kit.checks import fuzz as fuzz_check
from tabletop.kit.checks.context import Failed
from tabletop.kit.configurations import plan_configurations
from tabletop.kit.report import CheckReport, CheckStats

_ = Domain("tabletop")

GAMES = 200  # random games of a check in all, spread over its configurations
DEEP_POSITIONS = 3  # positions per game that get the expensive checks
DEEP_GAMES = 25  # games per configuration that get them (then every tenth)
MUTANTS = 4  # mutated positions tried per deep game (mutants, see tabletop.kit.fuzzing)
PURE_EVERY = 4  # in a deep game, the input's JSON is compared around every 4th apply (pure)


def resolve(game: str | Game[Any, Any]) -> Game[Any, Any]:
    """The game itself, or the installed game of that id."""
    return registry().get(game) if isinstance(game, str) else game


def spread_games(configs: int, games: int | None, per_config: int | None) -> list[int]:
    """How many games each of ``configs`` configurations gets: ``per_config`` each, else a
    total of ``games`` (default :data:`GAMES`) spread evenly, the first ones taking the
    remainder, and at least one each (a configuration never played is never checked)."""
    if games is not None and per_config is not None:
        raise UsageError(
            _("give the games in all (--games) or per configuration (--games-per-config), not both")
        )
    for what, value in (("--games", games), ("--games-per-config", per_config)):
        if value is not None and value < 1:
            raise UsageError(_("{flag} must be 1 or more, not {value}", flag=what, value=value))
    if per_config is not None:
        return [per_config] * configs
    total = GAMES if games is None else games
    return [max(1, total // configs + (index < total % configs)) for index in range(configs)]


def check_game(
    game: str | Game[Any, Any],
    games: int | None = None,
    seed: int = 0,
    players: int | None = None,
    fuzz: int = 40,
    max_configs: int = 12,
    options: BaseModel | Mapping[str, Any] | None = None,
    games_per_config: int | None = None,
) -> CheckReport:
    """Play seeded random games in every configuration and run every check.

    ``games`` is the number of games in all (default :data:`GAMES`), spread evenly over the
    configurations (at least one each), so a run takes about as long however many
    configurations a game has; ``games_per_config`` plays that many in each instead (for
    depth). ``fuzz`` bad inputs are tried at each of a few positions per game; the first
    ``DEEP_GAMES`` games of a configuration (and every tenth after) also get the costliest
    checks (the input's JSON compared around the first applies and every
    :data:`PURE_EVERY`-th, a real save/load). The configurations are
    :func:`plan_configurations`'s (with ``options``: only that one). The games are numbered
    from 0 through the configurations in order; game ``n`` uses seed ``seed + n`` (so with
    ``games_per_config=G``, game ``i`` of configuration ``c`` has seed ``seed + c * G + i``).
    """
    resolved = resolve(game)
    info = resolved.info
    if players is not None:
        player_count(resolved, players)  # UsageError naming the allowed counts
    plan = plan_configurations(resolved, players, max_configs, seed, options)
    configs = plan.configs
    counts = spread_games(len(configs), games, games_per_config) if configs else []
    report = CheckReport(info.id, sum(counts), seed, [c.label() for c in configs])
    report.how, report.refused = plan.how, plan.refused
    report.checks = {name: CheckStats(name, text) for name, text in CHECKS.items()}
    if kit_encoding.provided(resolved):
        report.checks[kit_encoding.NAME] = CheckStats(kit_encoding.NAME, kit_encoding.DESCRIPTION)
    tally, last = Tally(report), None
    started = time.perf_counter()
    number_in_all = seed
    for config, count in zip(configs, counts, strict=True):
        for number in range(count):
            deep = number < DEEP_GAMES or number % 10 == 0
            last = Context(resolved, config, number_in_all, tally, fuzz)
            number_in_all += 1
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
    here = ctx.at(texts)  # the texts so far, read when a check fails (not copied each action)
    while True:
        legal = run(here, "legal", play.legal, state)
        if legal is FAILED:
            break
        if not legal:
            ended = True
            break
        if len(actions) >= bound:
            here.fail(
                "bound",
                _.plural(
                    "no end after {n} action (info.max_actions)",
                    "no end after {n} actions (info.max_actions)",
                    bound,
                ),
            )
            break
        if game.to_act(state) == CHANCE:
            action = draw(game.chance_outcomes(state), rng)
        else:
            action = legal[rng.randrange(len(legal))]
        whole_json = deep and (len(actions) < PURE_EVERY * 2 or len(actions) % PURE_EVERY == 0)
        after = run(here, "pure", play.pure, state, action, whole_json)
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
    run(whole, "told", told.told, states, actions)
    chosen = sorted(rng.sample(range(len(states)), min(DEEP_POSITIONS, len(states))))
    for index in chosen:
        here, position = ctx.at(texts[:index]), states[index]
        run(here, "notation", positions.notation, position)
        run(here, "position", positions.position, position)
        run(here, "views", views.views, position, rng)
        run(here, "samples", positions.samples, position, rng)
        huge = index == chosen[0]  # the 1 MB lines once a game: a third of Quarto's time
        run(here, "fuzz", fuzz_check.fuzz, actions[:index], rng, huge)
        if kit_encoding.NAME in ctx.tally.report.checks:
            run(here, kit_encoding.NAME, _encoding, position, rng)
    run(whole, "position", positions.damaged, rng.choice(states), rng)
    for _mutant in range(MUTANTS):
        run(whole, "mutants", positions.mutant, rng.choice(states), rng)


def _encoding(ctx: Context, state: Any, rng: random.Random) -> None:
    """The encoding check (for games with action ids) at ``state``."""
    try:
        kit_encoding.check(ctx.game, ctx.players, ctx.options, state, rng)
    except kit_encoding.EncodingFailure as exc:
        raise Failed(message_of(exc)) from None


def _new(ctx: Context) -> Any:
    return ctx.config.new(ctx.seed)


def assert_conformance(
    game: str | Game[Any, Any],
    games: int | None = None,
    seed: int = 0,
    players: int | None = None,
    options: BaseModel | Mapping[str, Any] | None = None,
    games_per_config: int | None = None,
) -> CheckReport:
    """:func:`check_game`, raising AssertionError with the report when a check fails."""
    report = check_game(
        game,
        games=games,
        seed=seed,
        players=players,
        options=options,
        games_per_config=games_per_config,
    )
    if not report.ok:
        raise AssertionError(report.text())
    return report
