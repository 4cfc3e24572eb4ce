"""The options of Čtverák (pydantic, at the edge) and the small config the rules read."""

from __future__ import annotations

from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from tabletop.core.i18n.text import Domain
from tabletop.game import OptionError

_ = Domain("tabletop_ctverak")


class CtverakOptions(BaseModel):
    """Variants; each ``[decision]`` of the spec that players may read otherwise."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    deck: Literal["full", "half"] = Field(
        default="full",
        title=_("deck"),
        json_schema_extra={"labels": {"full": _("full (108 cards)"), "half": _("half (54 cards)")}},
        description=_(
            "K1.1: full = 2 decks + 4 jokers (108 cards, 2-6 players); "
            "half = 1 deck + 2 jokers (54 cards, 2-3 players, no joker melds)"
        ),
    )
    scoring: Literal["simple", "extended"] = Field(
        default="simple",
        title=_("scoring"),
        json_schema_extra={"labels": {"simple": _("simple"), "extended": _("extended")}},
        description=_(
            "K6: simple = 1 point per game won; extended = rank value per "
            "čtverka (doubled when clean), 50 per joker čtverka, 100 for a čtverák"
        ),
    )
    reshuffle: bool = Field(
        default=False,
        title=_("reshuffle the piles"),
        description=_(
            "K5.2: when drawing from the empty stock, shuffle the piles' face-up "
            "cards except each top card into a new stock"
        ),
    )
    distinct_ranks: bool = Field(
        default=False,
        title=_("different ranks"),
        description=_(
            "K3.3 [decision]: the four čtverky must be of different ranks "
            "(no second meld of a rank one already owns)"
        ),
    )
    min_natural: int = Field(
        default=1,
        ge=1,
        le=4,
        title=_("natural cards in a meld"),
        json_schema_extra={"allowed": [1, 2, 3, 4]},  # listed, so the kit plays each value
        description=_(
            "K3.1 [decision]: least number of natural cards in a rank meld "
            "(1: 7S X may start a meld; 2: the seed's 'two cards of one rank'; "
            "4: jokers only in joker melds); 1-4"
        ),
    )
    discard_rule: Literal["nothing-laid", "four-cards"] = Field(
        default="nothing-laid",
        title=_("when a discard is owed"),
        json_schema_extra={
            "labels": {
                "nothing-laid": _("nothing laid since the refill"),
                "four-cards": _("4 cards in the hand"),
            }
        },
        description=_(
            "K4.3 [decision]: a discard is owed when nothing was laid since the "
            "last refill (spec), or when the hand holds 4 cards (seed's wording)"
        ),
    )
    stall_limit: int = Field(
        default=6,
        ge=2,
        le=50,
        title=_("rounds without progress"),
        description=_(
            "K5.2 [our addition]: while the stock still has cards, this many rounds "
            "in a row with no card laid and none drawn from the stock end the game blocked "
            "(so no game can go on forever); 2-50"
        ),
    )


class Config(NamedTuple):
    """The options as the rules read them, stored in every state."""

    players: int
    half: bool
    extended: bool
    reshuffle: bool
    distinct_ranks: bool
    min_natural: int
    four_cards: bool
    stall_turns: int  # stall_limit rounds, in turns
    seed: int


def config(players: int, options: CtverakOptions, seed: int) -> Config:
    """The config for a game; OptionError for a half deck with more than 3 players (K1.1)."""
    if options.deck == "half" and players > 3:
        raise OptionError(
            _(
                "the half deck (54 cards) is for 2-3 players, not {players}; "
                "use -o deck=full (K1.1)",
                players=players,
            )
        )
    return Config(
        players=players,
        half=options.deck == "half",
        extended=options.scoring == "extended",
        reshuffle=options.reshuffle,
        distinct_ranks=options.distinct_ranks,
        min_natural=options.min_natural,
        four_cards=options.discard_rule == "four-cards",
        stall_turns=options.stall_limit * players,
        seed=seed,
    )


def action_bound(players: int, half: bool, stall_limit: int) -> int:
    """A true upper bound on the actions of one game (see :mod:`rules` on the K5.2 count).

    At most 2D turns make progress (each lays a card or draws from the not yet exhausted
    stock, D cards in the deck), separated by runs of idle turns shorter than the K5.2
    limit (2N, or ``stall_limit`` rounds before the stock runs out); a turn is at most 4
    refill draws and a discard or end, plus 3 actions per card laid.
    """
    cards = 54 if half else 108
    turns = (2 * cards + 2) * max(2, stall_limit) * players
    return 5 * turns + 3 * cards
