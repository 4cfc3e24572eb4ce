"""Records made before a game declared its chance steps (issue 35): they still replay.

A game that once drew its chance from the seed inside its state (a shuffle at ``new``)
and now declares chance steps made records, saves and golden games whose actions hold
no chance outcome. To replay them to the same position it ships a ``legacy`` facet, the
module ``<package>.legacy`` (or the one its class's ``facets`` names), with::

    def seeded_chance(states: Sequence[S], seed: int) -> A:
        '''The outcome the game's earlier version drew at the chance step now due at
        ``states[-1]`` (``states`` is the whole path from the first state), for a match
        made then with ``seed``.'''

A match replaying such a record (:class:`~tabletop.core.records.Record` whose ``chance``
is "seed", a golden file with no ``chance`` key) asks it at every chance step, for the
rest of its life (so a loaded game goes on with the cards its earlier version would have
dealt). A game without the facet replays such a record as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tabletop.core.facets import Accessor, facet_module
from tabletop.game import Game

SeededChance = Callable[[Sequence[Any], int], Any]


def _build(game: Game[Any, Any]) -> SeededChance | None:
    module = facet_module(game, "legacy")
    found: SeededChance | None = getattr(module, "seeded_chance", None)
    return found


seeded_chance_of: Accessor[SeededChance | None] = Accessor(_build)
"""``seeded_chance_of(game)``: the game's ``seeded_chance`` (see the module), or None."""
