"""How these fixtures were made, with the code BEFORE Quartino declared chance steps
(commit d05f19f, issue 35): kept for the record, it does not run on the new code (it
plays the deal from the seed). Each fixture: <name>.record.json (a saved game as tabletop
wrote it before the change: no "chance" key) and <name>.position.json (game.to_json of
the position it reaches, hidden parts included)."""
import json, random, sys
from pathlib import Path
from tabletop.core.match import Match
from tabletop.core.records import save
from tabletop.core.registry import registry

out = Path(sys.argv[1])
game = registry().get("quartino")
cases = [  # name, players, options, seed, actions to play (None = to the end)
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
from tabletop_quartino.rules import CLAIM, END, claim_fields
for name, players, options, seed, count in cases:
    opts = game.info.options(**options)
    match = Match(game, players, opts, seed)
    rng = random.Random(seed)
    n = 0
    while match.outcome() is None and (count is None or count < 0 or n < count):
        state = match.state
        acts = list(game.legal(state))
        if count is not None and count < 0:  # play to win: a true claim when there is one
            true = [a for a in acts if a.kind == CLAIM
                    and claim_fields(state.board, a.a, a.b, state.cfg.mirror)]
            acts = true or [a for a in acts if a.kind != CLAIM]
        match.play(game.format(state, rng.choice(acts)))
        n += 1
    record = match.record().model_copy(update={"chance": "seed"})  # as written before d05f19f
    save(record, out / f"{name}.record.json")
    (out / f"{name}.position.json").write_text(
        json.dumps(game.to_json(match.state), indent=1, ensure_ascii=False) + "\n")
    print(name, n, match.outcome())
