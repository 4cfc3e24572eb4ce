"""How these fixtures were made, with the code BEFORE Quartino declared chance steps
(commit d05f19f, issue 35): kept for the record, it does not run on the new code (it
plays the deal from the seed). Each fixture: <name>.record.json (a saved game as tabletop
wrote it before the change: no "chance" key) and <name>.position.json (game.to_json of
the position it reaches, hidden parts included). Run: python generate.py <folder>
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from tabletop.core.match import Match
from tabletop.core.records import save
from tabletop.core.registry import registry
from tabletop_quartino.rules import CLAIM, claim_fields

# name, players, options, seed, actions (None: to the end; -1: play to win)
CASES: list[tuple[str, int, dict[str, Any], int, int | None]] = [
    ("p2-first-mid", 2, {}, 11, 40),
    ("p2-first-end", 2, {}, 12, None),
    ("p3-lot-mid", 3, {"start": "lot"}, 13, 25),
    ("p4-lot-end", 4, {"start": "lot", "mirror": True}, 14, None),
    ("p4-first-mid", 4, {"situations": False, "max_turns": 60}, 15, 70),
    ("p3-first-turnlimit", 3, {"max_turns": 12}, 16, None),
    ("p2-lot-start", 2, {"start": "lot"}, 17, 0),
    ("p2-won", 2, {}, 18, -1),
    ("p3-lot-won", 3, {"start": "lot", "mirror": True}, 19, -1),
]


def main(out: Path) -> None:
    game = registry().get("quartino")
    for name, players, options, seed, count in CASES:
        match = Match(game, players, game.info.options(**options), seed)
        rng = random.Random(seed)
        n = 0
        while match.outcome() is None and (count is None or count < 0 or n < count):
            state = match.state
            acts = list(game.legal(state))
            if count is not None and count < 0:  # play to win: a true claim when there is one
                mirror = state.cfg.mirror
                true = [
                    a
                    for a in acts
                    if a.kind == CLAIM and claim_fields(state.board, a.a, a.b, mirror)
                ]
                acts = true or [a for a in acts if a.kind != CLAIM]
            match.play(game.format(state, rng.choice(acts)))
            n += 1
        record = match.record().model_copy(update={"chance": "seed"})  # as before d05f19f
        save(record, out / f"{name}.record.json")
        position = json.dumps(game.to_json(match.state), indent=1, ensure_ascii=False)
        (out / f"{name}.position.json").write_text(position + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
