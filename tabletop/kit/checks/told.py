"""The ``told`` check (issue 35): what a player is told of a chance outcome or of another
player's sealed choice follows from what that player sees, in a hidden-information game.

The views are checked elsewhere (``views``); this one checks the texts a player is told
(the log, the last actions), which :meth:`Game.tells` may decide: when a player is told the
text of a card drawn or of a bid, no other outcome, and no other choice of that bidder,
may leave the player the same view with another text, else the text tells what the view
hides. (A chance outcome the game keeps to itself, the core's default, tells nothing.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tabletop.core.i18n.text import Domain
from tabletop.game import CHANCE
from tabletop.kit.checks.context import Context, Failed

_ = Domain("tabletop")


def told(ctx: Context, states: Sequence[Any], actions: Sequence[Any]) -> None:
    """Every chance outcome and sealed choice of a played game, as each viewer is told it
    right after it (see the module doc)."""
    game = ctx.game
    if not game.info.hidden_information:
        return
    for index, action in enumerate(actions):
        before, after = states[index], states[index + 1]
        actor = game.to_act(before)
        if actor == CHANCE:
            others = [o for o, _p in game.chance_outcomes(before) if o != action]
            _check(ctx, before, after, CHANCE, action, [(o, o) for o in others])
        elif isinstance(actor, frozenset):
            for place, player in enumerate(sorted(actor)):
                mine = action[place]
                swaps = [
                    (choice, (*action[:place], choice, *action[place + 1 :]))
                    for choice in game.choices(before, player)
                    if choice != mine
                ]
                _check(ctx, before, after, player, mine, swaps)


def _check(
    ctx: Context,
    before: Any,
    after: Any,
    actor: int,
    action: Any,
    others: list[tuple[Any, Any]],
) -> None:
    """``action`` (one part of what was applied) against each ``(other, applied)``."""
    game = ctx.game
    text = game.format(before, action)
    for viewer in [None, *range(1, ctx.players + 1)]:
        if viewer == actor or game.tells(before, action, actor, viewer, after) is not True:
            continue
        ctx.count("told", 1)
        seen = game.view(after, viewer)
        for other, applied in others:
            said = game.format(before, other)
            if said != text and game.view(game.apply(before, applied), viewer) == seen:
                raise Failed(
                    _(
                        "{viewer} is told {text}, yet {other} would leave the same view: "
                        "the text tells what the view hides (Game.tells)",
                        viewer=_("a spectator") if viewer is None else _("player {n}", n=viewer),
                        text=repr(text),
                        other=repr(said),
                    )
                )
