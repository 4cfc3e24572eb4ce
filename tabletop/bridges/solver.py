"""Exact values from a game's solver for research: a pyspiel state's value and best
action (:func:`solve_state`), and endgame data sets (:func:`endgames`, the command).

    from tabletop.bridges.solver import solve_state

    solved = solve_state(state)  # state: a tabletop pyspiel state, e.g. of tabletop_quarto
    solved.value, solved.best, solved.values  # +1/0/-1 for the player to act, an id, returns

A game with a solver (:meth:`~tabletop.game.Game.solve`; Quarto's is exact) answers for
the player to act: ``value`` +1 (a win with best play), 0 (a draw), -1 (a loss), or None
when the time ran out first; ``values`` the same per player on the scale of the ``win``
returns (two players: zero-sum); ``best`` a best action's id (the solver's own choice,
an id of ``state.legal_actions()``); ``placements``-like details in ``details``. A game
without a solver gives None.

The endgame data set: ``python -m tabletop.bridges.solver quarto --positions 1000
--empty 8 --seed 0 --out quarto-endgames.jsonl`` writes that many distinct positions
with ``--empty`` squares left (Quarto: reached by random play from the seed's games),
one JSON object a line: ``position`` (the game's position JSON, ``tabletop`` reads it),
``player`` (to act, 1-based), ``value`` (``win``/``draw``/``loss`` for that player),
``best`` (a best action in notation) and ``best_id`` (its action id), ``observation``
(the player's observation vector) and ``legal_ids``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabletop.agents.facet import players_of
from tabletop.bridges.common import Setup, setup
from tabletop.core.errors import TabletopError, UsageError
from tabletop.core.i18n.languages import choose
from tabletop.core.i18n.text import Domain, message_of, translate
from tabletop.core.shapes import player_of

_ = Domain("tabletop")

VALUES = {"win": 1, "draw": 0, "loss": -1}
NO_SOLVER = _("{game} has no solver (Game.solve), so it has no exact values")


@dataclass(frozen=True)
class Solved:
    """A state's exact value for the player to act (0-based ``player``)."""

    player: int
    value: int | None  # +1 win, 0 draw, -1 loss; None: not known within the time
    values: list[float]  # per player, the win returns' scale (0.0 each when unknown)
    best: int | None  # a best action id (None: the solver named none)
    exact: bool
    details: dict[str, Any] = field(default_factory=dict)  # the solver's own JSON


def solve_state(state: Any, seconds: float | None = None) -> Solved | None:
    """The solver's answer for a tabletop pyspiel ``state`` (module docstring); None when
    the game has no solver. ``seconds``: its budget (None: until solved)."""
    config = state.shared.value
    return solve_position(config, state.tabletop, seconds)


def solve_position(config: Setup, position: Any, seconds: float | None = None) -> Solved | None:
    """:func:`solve_state` for a tabletop position of the configured game."""
    game = config.game
    if position is None or game.to_act(position) is None:
        return None
    answer = players_of(game).solve(position, seconds)
    if answer is None:
        return None
    player = (player_of(game.to_act(position)) or 1) - 1
    value = VALUES.get(str(answer.get("value")))
    values = [0.0] * config.players
    if value is not None and value != 0:
        values = [-float(value) / max(1, config.players - 1)] * config.players
        values[player] = float(value)
    best = None
    if answer.get("best"):
        best = config.encoding.action_id(position, game.parse(position, str(answer["best"])))
    return Solved(player, value, values, best, bool(answer.get("exact")), dict(answer))


def endgames(
    game: str, positions: int, empty: int, seed: int = 0, seconds: float | None = None
) -> Iterator[dict[str, Any]]:
    """``positions`` distinct solved positions of ``game`` with ``empty`` empty squares
    (Quarto) reached by random play, as the data set's records (module docstring)."""
    config = setup(game)
    rules = config.game
    if players_of(rules).solve(rules.new(config.players, config.options, 0), 0.001) is None:
        raise UsageError(NO_SOLVER.format(game=rules.info.id))
    from tabletop.bridges.encoder import Encoder

    encoder = Encoder(config)
    seen: set[str] = set()
    rng = random.Random(seed)
    tries = 0
    while len(seen) < positions and tries < positions * 50:
        tries += 1
        position = _random_endgame(config, empty, rng)
        if position is None:
            continue
        key = json.dumps(rules.to_json(position), sort_keys=True)
        if key in seen:
            continue
        solved = solve_position(config, position, seconds)
        if solved is None or solved.value is None or solved.best is None:
            continue
        seen.add(key)
        seat = solved.player + 1
        yield {
            "position": rules.to_json(position),
            "player": seat,
            "value": solved.details["value"],
            "best": solved.details["best"],
            "best_id": solved.best,
            "observation": [float(x) for x in encoder.observation(position, seat).ravel()],
            "legal_ids": sorted(int(i) for i in encoder.legal_ids(position)),
        }


def _random_endgame(config: Setup, empty: int, rng: random.Random) -> Any:
    """A position with ``empty`` empty squares left, not over, by random play: one of
    those the random game passes through (a give or a placement due), or None."""
    rules = config.game
    state = rules.new(config.players, config.options, rng.randrange(2**31))
    found: list[Any] = []
    while rules.to_act(state) is not None:
        data = rules.to_json(state)
        board = data.get("board") if isinstance(data, dict) else None
        left = 16 - len(board) if isinstance(board, dict) else -1
        if left == empty:
            found.append(state)
        elif left < empty:
            break
        state = rules.apply(state, rng.choice(list(rules.legal(state))))
    return rng.choice(found) if found else None


HELP = {
    "description": _("Write an endgame data set: positions, exact values, best actions."),
    "game": _("game id with a solver, e.g. quarto"),
    "positions": _("distinct positions to write"),
    "empty": _("empty squares left"),
    "seed": _("seed of the random games"),
    "out": _("file to write (JSON lines; -: stdout)"),
}
BAD_SIZE = _("write --positions 1-10000000 and --empty 1-16")


def main(argv: list[str] | None = None) -> int:
    """The command (module docstring): 0 written, 2 bad input (one line, in the reader's
    language: ``--lang``-less, so from the environment's locale)."""
    lang = choose(None, os.environ)

    def say(message: str) -> str:
        return translate(message, lang)

    parser = argparse.ArgumentParser(
        prog="python -m tabletop.bridges.solver", description=say(HELP["description"])
    )
    parser.add_argument("game", help=say(HELP["game"]))
    parser.add_argument("--positions", type=int, default=100, help=say(HELP["positions"]))
    parser.add_argument("--empty", type=int, default=8, help=say(HELP["empty"]))
    parser.add_argument("--seed", type=int, default=0, help=say(HELP["seed"]))
    parser.add_argument("--out", default="-", help=say(HELP["out"]))
    args = parser.parse_args(argv)
    if not 1 <= args.positions <= 10_000_000 or not 1 <= args.empty <= 16:
        print(say(BAD_SIZE), file=sys.stderr)
        return 2
    try:
        records = list(endgames(args.game, args.positions, args.empty, args.seed))
    except TabletopError as error:
        print(say(message_of(error)), file=sys.stderr)
        return 2
    text = "".join(json.dumps(record, sort_keys=True) + "\n" for record in records)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":  # pragma: no cover - the command
    sys.exit(main(sys.argv[1:]))
