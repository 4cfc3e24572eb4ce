"""Golden games: seeded playthroughs with the position after every action, written once
(:func:`record_golden`, ``tabletop check GAME --record``: ``tests/golden/``) and played
again by :func:`replay_golden`, which lists every difference."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tabletop.core.configured import Configured
from tabletop.core.errors import ActionError
from tabletop.core.i18n.text import Domain
from tabletop.core.legacy import seeded_chance_of
from tabletop.core.match import Match
from tabletop.core.registry import registry
from tabletop.core.shapes import actor_json
from tabletop.game import JSON, Game
from tabletop.kit.configurations import Config, configurations
from tabletop.kit.conformance import resolve
from tabletop.kit.jsonpaths import MISSING, first_difference, pick

_ = Domain("tabletop")

GOLDEN_FORMAT = "tabletop-golden/1"
GOLDEN_DIR = Path("tests/golden")


def playthrough(game: Game[Any, Any], config: Config, seed: int, level: str = "random") -> JSON:
    """A seeded game played by computer players of ``level`` (default uniform random),
    with the position, player to act and legal actions after each action.

    The level only chooses the actions; replaying a golden file needs no agent."""
    from tabletop.agents.seat import make_seat

    rng = random.Random(seed)
    match = Match.of(config, seed)
    seat = make_seat(game, level)
    steps: list[JSON] = []
    limit = config.max_actions
    while (player := match.player()) is not None and len(steps) <= limit:
        action = seat.choose(game, match.state, player, config.players, config.options, rng)
        text = game.format(match.state, action)
        match.push(action, player)
        steps.append(_snapshot(match, text))
    return {
        "format": GOLDEN_FORMAT,
        "game": game.info.id,
        "game_version": game.info.version,
        "players": config.players,
        "options": config.values,
        "seed": seed,
        "played_by": level,
        # chance drawn by the match from the seed; a file without this key was made before
        # the game declared chance steps (its legacy facet draws as then)
        "chance": "drawn",
        "initial": _snapshot(Match.of(config, seed), None),
        "steps": steps,
    }


def _snapshot(match: Match, action: str | None) -> JSON:
    game, state = match.game, match.state
    outcome = match.outcome()
    snap: JSON = {} if action is None else {"action": action}
    snap.update(
        {
            "position": game.to_json(state),
            "to_act": actor_json(match.to_act()),
            "legal": sorted(game.format(state, a) for a in game.legal(state)),
        }
    )
    if outcome is not None:
        snap["outcome"] = {"winners": list(outcome.winners), "reason": outcome.reason}
    return snap


def record_golden(
    game: str | Game[Any, Any], folder: Path = GOLDEN_DIR, count: int = 4, seed: int = 0
) -> list[Path]:
    """Write ``count`` golden playthroughs ``<game>-<n>.json``, spread over configurations."""
    resolved = resolve(game)
    configs = configurations(resolved, seed=seed)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number in range(count):
        data = _short_playthrough(resolved, configs, number * len(configs) // count, seed + number)
        path = folder / f"{resolved.info.id}-{number + 1}.json"
        path.write_text(_golden_text(data), encoding="utf-8")
        paths.append(path)
    return paths


GOLDEN_STEPS = (20, 200)
GOLDEN_TRIES = 12
# Uniform random play first; games where it never ends in time (random play that rarely
# finishes anything) are played by the greedy level instead.
GOLDEN_LEVELS = ("random", "2")


def _short_playthrough(
    game: Game[Any, Any], configs: Sequence[Config], first: int, seed: int
) -> JSON:
    """A playthrough from configuration ``first`` on: the first (level, configuration, seed)
    whose length is within ``GOLDEN_STEPS``, else the one nearest to it, so golden files
    say something yet stay small enough to review."""
    low, high = GOLDEN_STEPS
    low = min(low, configs[first].max_actions // 2)

    def distance(data: JSON) -> int:
        steps = len(data["steps"])
        return max(low - steps, steps - high, 0)

    best: JSON | None = None
    for level in GOLDEN_LEVELS:
        for attempt in range(GOLDEN_TRIES):
            config = configs[(first + attempt) % len(configs)]
            data = playthrough(game, config, seed + attempt * 1000, level)
            if best is None or distance(data) < distance(best):
                best = data
            if distance(best) == 0:
                return best
    assert best is not None
    return best


def _golden_text(data: JSON) -> str:
    """The file's text: one line per key, one line per step (a rule change is a line diff)."""

    def line(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    head = [f" {line(k)}: {line(v)}" for k, v in data.items() if k != "steps"]
    steps = ",\n".join(f"  {line(step)}" for step in data["steps"])
    return "{\n" + ",\n".join([*head, f' "steps": [\n{steps}\n ]']) + "\n}\n"


def replay_golden(path: Path, game: Game[Any, Any] | None = None) -> list[str]:
    """Play a golden file again; every difference as a line (empty: the rules agree)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if data.get("format") != GOLDEN_FORMAT:
        said = _(
            "{path}: not a golden playthrough (format is not {format})",
            path=str(path),
            format=repr(GOLDEN_FORMAT),
        )
        return [said]
    resolved = game or registry().get(data["game"])
    config = Configured.of(resolved, data["players"], data["options"])
    seeded = None if "chance" in data else seeded_chance_of(resolved)
    match = Match.of(config, data["seed"], seeded=seeded)
    found = _differences(
        data["initial"], _snapshot(match, None), _("{path}: initial", path=str(path))
    )
    for number, step in enumerate(data["steps"], start=1):
        try:
            match.play(step["action"])
        except ActionError as exc:
            found.append(
                _(
                    "{path}: action {number} {action} is now refused: {reason}",
                    path=str(path),
                    number=number,
                    action=repr(step["action"]),
                    reason=exc.reason,
                )
            )
            break
        found.extend(
            _differences(
                step,
                _snapshot(match, step["action"]),
                _("{path}: action {number}", path=str(path), number=number),
            )
        )
        if found:
            break
    else:
        if match.player() is not None:
            found.append(
                _.plural(
                    "{path}: the game no longer ends after {n} action",
                    "{path}: the game no longer ends after {n} actions",
                    len(data["steps"]),
                    path=str(path),
                )
            )
    return found


def _differences(expected: JSON, actual: JSON, where: str) -> list[str]:
    found: list[str] = []
    for key in sorted(set(expected) | set(actual)):
        want, got = expected.get(key, MISSING), actual.get(key, MISSING)
        if want != got:
            at = first_difference(want, got, (key,))
            found.append(
                _(
                    "{where} ({action}): {at}: expected {expected}, now {now}",
                    where=where,
                    action=expected.get("action", _("start")),
                    at=at,
                    expected=_show_at(want, key, at),
                    now=_show_at(got, key, at),
                )
            )
    return found


def _show_at(value: Any, key: str, at: str) -> str:
    """The part of a snapshot's ``key`` value at the path ``at`` (which starts with key)."""
    return _("(missing)") if value is MISSING else str(pick({key: value}, at))
