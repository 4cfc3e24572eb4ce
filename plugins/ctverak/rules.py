"""The rules of Čtverák (K2–K6) as pure functions over an immutable :class:`State`.

Actions are tagged int tuples (text lives in :mod:`notation`):

- ``(DRAW, source)``: source 0 is the stock, 1–4 a discard pile (K4.1);
- ``(MELD, card, card, ...)``: start a meld, cards sorted (K4.2);
- ``(ADD, meld, card, ...)``: add sorted cards to one's meld number ``meld`` (1..);
- ``(DISCARD, card, pile)`` (K4.3) and ``(END,)``;
- chance outcomes (issue 35): ``(DEAL, card)`` deals the next card of the deal (K2.1,
  K2.2) and ``(TAKE, card)`` is the card a ``draw stock`` brings (K4.1).

Nothing random lies in a state: the undealt cards and the stock are one sorted tuple (an
unordered multiset, K8: nobody sees the stock's order), and every card that leaves it is
a chance step (``to_act`` is CHANCE at the steps DEAL and DRAWING) whose outcomes are the
cards it holds, each as likely as its copies there. The deal is such a step per card, in
the order of K2.1 (one card at a time to players 1..N, four rounds, then the 4 bases);
the K5.2 reshuffle is a plain move of the piles' cards below each top into the stock.

A turn is a refill step (draws only) then a meld step (melds and adds, closed by a
discard when one is owed, else by ``end``). The blocked-end count of K5.2 lives in
``idle``: turns in a row that made no progress, where progress is laying a card or,
until the stock first runs out, drawing from the stock. From the turn after the stock
first runs out this is exactly the spec's count, which ends the game at 2N. Before it,
the limit is the option ``stall_limit`` (rounds): without it one card passed back and
forth between the piles could go on forever.

The options (:class:`CtverakOptions`, pydantic, at the edge) and the plain
:class:`Config` the rules read, stored in every state, are here too. The research
variants (issue 36; options ``ranks``, ``suits``, ``hand``, ``piles``, ``max_turns``, none
in the seed or the spec) shrink the game for whole-tree solvers: a deck of its first ranks
and suits, smaller hands, fewer piles, and a turn limit scored as a blocked game (K5.2).
Their defaults are the spec's game; the actions and encodings stay those of the whole game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import combinations
from typing import Literal, NamedTuple, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from tabletop.game import Domain, OptionError, Outcome
from tabletop_ctverak.cards import (
    JOKER,
    JOKER_RANK,
    card_code,
    deck,
    insert,
    missing,
    rank_code,
    take,
    value,
)

_ = Domain("tabletop_ctverak")


class CtverakOptions(BaseModel):
    """Variants; each ``[decision]`` of the spec that players may read otherwise."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)  # built at first use

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
    # Research variants (issue 36): a game small enough for a whole-tree solver (CFR).
    ranks: int = Field(
        default=13,
        ge=1,
        le=13,
        title=_("ranks"),
        description=_(
            "K1.1: the deck keeps only the first this many ranks (A, 2, 3, ...) "
            "(1-13; research variant, not in the printed rules)"
        ),
    )
    suits: int = Field(
        default=4,
        ge=1,
        le=4,
        title=_("suits"),
        description=_(
            "K1.1: the deck keeps only the first this many suits (S, H, D, C) "
            "(1-4; research variant, not in the printed rules)"
        ),
    )
    hand: int = Field(
        default=4,
        ge=2,
        le=4,
        title=_("hand size"),
        description=_(
            "K2.1, K4.1: cards dealt to each player, and the refill target "
            "(2-4; research variant, not in the printed rules, which have 4)"
        ),
    )
    piles: int = Field(
        default=4,
        ge=1,
        le=4,
        title=_("discard piles"),
        description=_(
            "K2.2: discard piles, each on a face-down base "
            "(1-4; research variant, not in the printed rules, which have 4)"
        ),
    )
    max_turns: int = Field(
        default=0,
        ge=0,
        le=10_000,
        title=_("turn limit"),
        description=_(
            "K5.2: after this many turns the game ends scored as a blocked game "
            "(0: no limit; research variant, not in the printed rules)"
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
    # research variants (issue 36); the defaults are the printed rules
    ranks: int = 13  # K1.1: the deck's first ranks
    suits: int = 4  # K1.1: the deck's first suits
    hand: int = 4  # K2.1, K4.1: cards dealt, the refill target
    piles: int = 4  # K2.2: discard piles (and bases)
    max_turns: int = 0  # K5.2: turns before the game ends scored as blocked; 0 none


def config(players: int, options: CtverakOptions) -> Config:
    """The config for a game; OptionError for a half deck with more than 3 players (K1.1)."""
    if options.deck == "half" and players > 3:
        raise OptionError(
            _(
                "the half deck (54 cards) is for 2-3 players, not {players}; "
                "use -o deck=full (K1.1)",
                players=players,
            )
        )
    size = len(deck(options.deck == "half", options.ranks, options.suits))
    least = players * options.hand + options.piles + 1
    if size < least:
        raise OptionError(
            _(
                "a deck of {size} cards cannot deal {players} hands of {hand} and {piles} "
                "bases and keep a stock: it needs {least} (K2.1-K2.3, options ranks, suits)",
                size=size,
                players=players,
                hand=options.hand,
                piles=options.piles,
                least=least,
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
        ranks=options.ranks,
        suits=options.suits,
        hand=options.hand,
        piles=options.piles,
        max_turns=options.max_turns,
    )


def action_bound(players: int, half: bool, stall_limit: int) -> int:
    """A true upper bound on the actions of one game (see the module docstring on the K5.2 count).

    At most 2D turns make progress (each lays a card or draws from the not yet exhausted
    stock, D cards in the deck), separated by runs of idle turns shorter than the K5.2
    limit (2N, or ``stall_limit`` rounds before the stock runs out); a turn is at most 4
    refill draws and a discard or end, plus 3 actions per card laid.
    """
    cards = 54 if half else 108  # a research deck (options ranks, suits) holds fewer
    turns = (2 * cards + 2) * max(2, stall_limit) * players
    return 9 * turns + 4 * cards  # every draw may be a chance step too (issue 35)


# steps of a turn; DEAL and DRAWING are chance steps (a card comes from the unseen cards)
REFILL, MELD_STEP, OVER, DEAL, DRAWING = 0, 1, 2, 3, 4
STEP_NAMES = ("refill", "meld", "over")  # the steps players see (views, observations)
PHASE_NAMES = (*STEP_NAMES, "deal", "draw")  # every step, as the position JSON writes it
CHANCE_STEPS = (DEAL, DRAWING)
# action kinds; DEAL and TAKE are chance outcomes (``deal 7H``, ``draw 7H``)
DRAW, MELD, ADD, DISCARD, END, DEAL_CARD, TAKE = 0, 1, 2, 3, 4, 5, 6
STOCK = 0
# how a game ended; TURN_LIMIT: option max_turns (research variant), scored as BLOCKED
ONGOING, CTVERAK, BLOCKED, TURN_LIMIT = 0, 1, 2, 3

Action = tuple[int, ...]
T = TypeVar("T")
Cards = tuple[int, ...]


class State(NamedTuple):
    """A position: every card's place, whose turn, the step and the K5.2 counters."""

    cfg: Config
    hands: tuple[Cards, ...]  # player p's hand is hands[p - 1], sorted
    melds: tuple[tuple[Cards, ...], ...]  # per player, in the order started; each sorted
    piles: tuple[Cards, ...]  # the 4 piles' face-up cards, bottom to top
    bases: Cards  # the 4 face-down bases (K2.2), fewer while dealing
    stock: Cards  # the unseen cards not dealt, sorted: a multiset, no order (K8)
    player: int  # whose turn it is (1..N)
    step: int  # REFILL, MELD_STEP, OVER, or the chance steps DEAL and DRAWING
    laid: bool  # a card was laid since the last refill (K4.3)
    progress: bool  # this turn laid a card or drew from a not yet exhausted stock
    exhausted: bool  # the stock has run out at least once (K5.2)
    idle: int  # turns in a row without progress (K5.2)
    reshuffles: int  # how many times the stock was rebuilt (K5.2)
    winners: tuple[int, ...]
    ending: int  # ONGOING, CTVERAK, BLOCKED or TURN_LIMIT
    turns: int = 0  # turns ended (read only by option max_turns)


# -- setup ------------------------------------------------------------------------------
def new_state(cfg: Config) -> State:
    """K2: every card undealt; the deal that follows is a chance step per card (K2.1)."""
    n = cfg.players
    return State(
        cfg=cfg,
        hands=((),) * n,
        melds=((),) * n,
        piles=((),) * cfg.piles,
        bases=(),
        stock=deck(cfg.half, cfg.ranks, cfg.suits),
        player=1,
        step=DEAL,
        laid=False,
        progress=False,
        exhausted=False,
        idle=0,
        reshuffles=0,
        winners=(),
        ending=ONGOING,
    )


def dealt(state: State) -> int:
    """How many cards the deal has dealt so far (K2.1, K2.2)."""
    return sum(map(len, state.hands)) + len(state.bases)


def deal_target(players: int, count: int, hand: int = 4) -> int:
    """Where card ``count`` (from 0) of the deal goes: a player 1..N (one card at a time,
    ``hand`` each, K2.1), else 0 for the next base (K2.2)."""
    return count % players + 1 if count < hand * players else 0


def distinct(cards: Cards) -> list[int]:
    """The different cards of a sorted tuple, in order."""
    out: list[int] = []
    last = -1
    for card in cards:
        if card != last:
            out.append(card)
            last = card
    return out


# Fraction(copies, total) for copies 0-4 (two decks hold at most 4 jokers), by total
_FRACTIONS: dict[int, tuple[Fraction, ...]] = {}


def chance_outcomes(state: State) -> list[tuple[Action, Fraction]]:
    """At a chance step: each card the unseen cards hold, as likely as its copies there
    (K2.1, K4.1); exact fractions summing to 1."""
    stock = state.stock
    kind = DEAL_CARD if state.step == DEAL else TAKE
    total = len(stock)
    row = _FRACTIONS.get(total)
    if row is None:
        row = _FRACTIONS[total] = tuple(Fraction(k, total) for k in range(5))
    out: list[tuple[Action, Fraction]] = []
    append = out.append
    last, copies = stock[0], 0
    for card in stock:
        if card == last:
            copies += 1
            continue
        append(((kind, last), row[copies]))
        last, copies = card, 1
    append(((kind, last), row[copies]))
    return out


def chance_card(state: State, rnd: Callable[[], float]) -> Action:
    """A chance outcome drawn with ``rnd`` (uniform in [0, 1)) by its probability: any of
    the unseen cards, each copy alike (what :func:`chance_outcomes` says, without the
    fractions: the fast path of playouts)."""
    stock = state.stock
    return (DEAL_CARD if state.step == DEAL else TAKE, stock[int(rnd() * len(stock))])


def settled(state: State, rnd: Callable[[], float]) -> State:
    """``state`` after every chance step now due, drawn with ``rnd`` (:func:`chance_card`):
    for code that plays the rules directly (playouts, tests), as the match does."""
    while state.step >= DEAL:
        state = apply(state, chance_card(state, rnd))
    return state


def opening_step(hand_size: int, stock: Cards, piles: tuple[Cards, ...], full: int = 4) -> int:
    """The step a turn starts at: refill while the hand is short of ``full`` (K4.1) and a
    source exists."""
    return REFILL if hand_size < full and has_source(stock, piles) else MELD_STEP


def has_source(stock: Cards, piles: tuple[Cards, ...]) -> bool:
    """K4.1: a card can be drawn (a reshuffle needs a pile of 2+, so a non-empty pile)."""
    return bool(stock) or any(piles)


def can_reshuffle(cfg: Config, piles: tuple[Cards, ...]) -> bool:
    """K5.2 option: some face-up card lies below a pile's top."""
    return cfg.reshuffle and any(len(pile) >= 2 for pile in piles)


# -- melds ------------------------------------------------------------------------------
def meld_key(meld: Cards) -> int:
    """The rank of a sorted meld (its first card), 13 for a joker meld."""
    return meld[0] >> 2


def ctverky(melds: Sequence[Cards]) -> int:
    """K3.2/K5.1: complete čtverky, a joker čtverka counting two."""
    return sum(2 if meld[0] == JOKER else 1 for meld in melds if len(meld) == 4)


def points(melds: Sequence[Cards]) -> int:
    """K6.2 without the čtverák bonus: clean čtverka 2x value, dirty 1x, joker čtverka 50."""
    total = 0
    for meld in melds:
        if len(meld) != 4:
            continue
        if meld[0] == JOKER:
            total += 50
        else:
            total += value(meld[0] >> 2) * (1 if meld[-1] == JOKER else 2)
    return total


def meld_problem(cfg: Config, mine: Sequence[Cards], cards: Cards) -> str | None:
    """Why ``cards`` (sorted, held) cannot start a meld (K3, K4.2), or None if they can."""
    if len(cards) < 2:
        return _("a new meld needs 2 or more cards (K4.2)")
    if len(cards) > 4:
        return _("a meld never exceeds 4 cards (K3.2)")
    naturals = [c for c in cards if c != JOKER]
    if naturals:
        key = naturals[0] >> 2
        if any(c >> 2 != key for c in naturals):
            shown = " ".join(card_code(c) for c in cards)
            return _("a meld is cards of one rank plus jokers, not {cards} (K3.1)", cards=shown)
        if len(naturals) < cfg.min_natural:
            return _(
                "a rank meld needs at least {n} natural cards (K3.1, option min_natural)",
                n=cfg.min_natural,
            )
    else:
        key = JOKER_RANK
        if cfg.half:
            return _("joker melds are played with the full deck only (K3.1)")
    for number, meld in enumerate(mine, 1):
        if meld_key(meld) != key:
            continue
        if len(meld) < 4:
            return _(
                "your {rank} meld {number} is unfinished; add to it: add {number} ... (K3.3)",
                rank=rank_code(key),
                number=number,
            )
        if cfg.distinct_ranks:
            return _(
                "you already own a {rank} čtverka; the four čtverky "
                "must be of different ranks (K3.3, option distinct_ranks)",
                rank=rank_code(key),
            )
    return None


def add_problem(mine: Sequence[Cards], number: int, cards: Cards) -> str | None:
    """Why ``cards`` cannot be added to one's meld ``number`` (K3, K4.2), or None."""
    if not 1 <= number <= len(mine):
        owned = (
            _("you have melds 1-{count}", count=len(mine)) if mine else _("you have no meld yet")
        )
        return _(
            "you have no meld {number} ({owned}); cards go to your own melds (K4.2)",
            number=number,
            owned=owned,
        )
    meld = mine[number - 1]
    if len(meld) == 4:
        return _("meld {number} is a čtverka and closed (K3.2)", number=number)
    if not cards:
        return _("add at least one card (K4.2)")
    if len(meld) + len(cards) > 4:
        return _(
            "meld {number} has {count} cards and a meld never exceeds 4 (K3.2)",
            number=number,
            count=len(meld),
        )
    key = meld_key(meld)
    for card in cards:
        if card == JOKER:
            continue
        if key == JOKER_RANK:
            return _("meld {number} is a joker meld: only jokers go there (K3.1)", number=number)
        if card >> 2 != key:
            return _(
                "{card} does not fit meld {number}, a {rank} meld (K3.1)",
                card=card_code(card),
                number=number,
                rank=rank_code(key),
            )
    return None


def owes_discard(state: State) -> bool:
    """K4.3: nothing laid since the last refill (option: the hand holds 4 cards)."""
    hand = state.hands[state.player - 1]
    if state.cfg.four_cards:
        return len(hand) == state.cfg.hand
    return bool(hand) and not state.laid


# -- legal ------------------------------------------------------------------------------
def legal(state: State) -> list[Action]:
    """Exactly the actions :func:`apply` accepts; empty once the game is over."""
    step = state.step
    if step == OVER:
        return []
    if step >= DEAL:  # a chance step: the cards that can come
        kind = DEAL_CARD if step == DEAL else TAKE
        return [(kind, card) for card in distinct(state.stock)]
    if step == REFILL:
        actions: list[Action] = []
        if state.stock or can_reshuffle(state.cfg, state.piles):
            actions.append((DRAW, STOCK))
        actions.extend((DRAW, i) for i, pile in enumerate(state.piles, 1) if pile)
        return actions
    hand = state.hands[state.player - 1]
    actions = lay_actions(state.cfg, state.melds[state.player - 1], hand)
    if owes_discard(state):
        cards = dict.fromkeys(hand)
        piles = range(1, state.cfg.piles + 1)
        actions.extend((DISCARD, card, pile) for card in cards for pile in piles)
    else:
        actions.append((END,))
    return actions


def lay_actions(cfg: Config, mine: tuple[Cards, ...], hand: Cards) -> list[Action]:
    """Every meld and add the hand allows (K4.2): the fast form of :func:`meld_problem`
    and :func:`add_problem` (the tests check that they agree)."""
    actions: list[Action] = []
    blocked = {meld_key(m) for m in mine if len(m) < 4 or cfg.distinct_ranks}  # K3.3
    jokers = hand.count(JOKER)
    by_rank: dict[int, list[int]] = {}
    for card in hand:
        if card != JOKER:
            by_rank.setdefault(card >> 2, []).append(card)
    for key, naturals in by_rank.items():
        if key in blocked:
            continue
        for count in range(cfg.min_natural, len(naturals) + 1):
            for cards in dict.fromkeys(combinations(naturals, count)):
                for wild in range(max(0, 2 - count), min(jokers, 4 - count) + 1):
                    actions.append((MELD, *cards, *(JOKER,) * wild))
    if not cfg.half and JOKER_RANK not in blocked:  # K3.1 joker melds
        actions.extend((MELD, *(JOKER,) * wild) for wild in range(2, min(jokers, 4) + 1))
    for number, meld in enumerate(mine, 1):
        if len(meld) == 4:
            continue
        key = meld_key(meld)
        fits = tuple(c for c in hand if c == JOKER or (key != JOKER_RANK and c >> 2 == key))
        for size in range(1, min(len(fits), 4 - len(meld)) + 1):
            for cards in dict.fromkeys(combinations(fits, size)):
                actions.append((ADD, number, *cards))
    return actions


# -- apply ------------------------------------------------------------------------------
def apply(state: State, action: Action) -> State:
    """The state after a legal action (unchecked; never mutates ``state``)."""
    kind = action[0]
    if kind == DRAW:
        return _draw(state, action[1])
    if kind == TAKE:
        return _take(state, action[1])
    if kind == DEAL_CARD:
        return _deal(state, action[1])
    index = state.player - 1
    hand = state.hands[index]
    if kind in (MELD, ADD):
        cards = action[1:] if kind == MELD else action[2:]
        rest = take(hand, cards)
        mine = state.melds[index]
        if kind == MELD:
            mine = (*mine, cards)
        else:
            number = action[1]
            grown = tuple(sorted(mine[number - 1] + cards))
            mine = (*mine[: number - 1], grown, *mine[number:])
        return _after_lay(state, rest, mine)
    if kind == DISCARD:
        card, pile = action[1], action[2]
        rest = take(hand, (card,))
        piles = tuple((*p, card) if i == pile else p for i, p in enumerate(state.piles, 1))
        return _end_turn(state, _put(state.hands, index, rest), piles)
    return _end_turn(state, state.hands, state.piles)


def _put(seq: tuple[T, ...], index: int, item: T) -> tuple[T, ...]:
    """``seq`` with ``seq[index]`` replaced by ``item``."""
    return (*seq[:index], item, *seq[index + 1 :])


def _draw(state: State, source: int) -> State:
    """K4.1: a pile's top comes at once; a stock draw leads to the chance step DRAWING
    (after the K5.2 reshuffle when the stock is empty)."""
    piles = state.piles
    if source == STOCK:
        stock, reshuffles = state.stock, state.reshuffles
        if not stock:
            stock, piles = reshuffled(piles)
            reshuffles += 1
        # the hot path builds states whole (a NamedTuple's _replace is several times slower)
        return State(
            state.cfg,
            state.hands,
            state.melds,
            piles,
            state.bases,
            stock,
            state.player,
            DRAWING,
            False,
            state.progress or not state.exhausted,
            state.exhausted,
            state.idle,
            reshuffles,
            state.winners,
            state.ending,
            state.turns,
        )
    pile = piles[source - 1]
    piles = _put(piles, source - 1, pile[:-1])
    return _drawn(state, pile[-1], state.stock, piles)


def _take(state: State, card: int) -> State:
    """The chance outcome of a stock draw: ``card`` leaves the stock for the hand (K4.1)."""
    return _drawn(state, card, _without(state.stock, card), state.piles)


def _drawn(state: State, card: int, stock: Cards, piles: tuple[Cards, ...]) -> State:
    index = state.player - 1
    hand = insert(state.hands[index], card)
    return State(
        state.cfg,
        _put(state.hands, index, hand),
        state.melds,
        piles,
        state.bases,
        stock,
        state.player,
        opening_step(len(hand), stock, piles, state.cfg.hand),
        False,
        state.progress,
        state.exhausted or not stock,
        state.idle,
        state.reshuffles,
        state.winners,
        state.ending,
        state.turns,
    )


def _deal(state: State, card: int) -> State:
    """The chance outcome of a deal step: ``card`` to the next player, or a base (K2)."""
    count = dealt(state)
    target = deal_target(state.cfg.players, count, state.cfg.hand)
    stock = _without(state.stock, card)
    hands, bases = state.hands, state.bases
    if target:
        hands = _put(hands, target - 1, insert(hands[target - 1], card))
    else:
        bases = (*bases, card)
    done = len(bases) == state.cfg.piles  # the rest is the stock; hands full (K2.3)
    return state._replace(hands=hands, bases=bases, stock=stock, step=MELD_STEP if done else DEAL)


def _without(stock: Cards, card: int) -> Cards:
    """The sorted ``stock`` less one ``card``."""
    at = stock.index(card)
    return stock[:at] + stock[at + 1 :]


def reshuffled(piles: tuple[Cards, ...]) -> tuple[Cards, tuple[Cards, ...]]:
    """K5.2 option: the face-up cards below each top become the stock (unordered: the
    shuffle is the chance of the draws that follow), each top stays."""
    pool = sorted(card for pile in piles for card in pile[:-1])
    return tuple(pool), tuple(pile[-1:] for pile in piles)


def _after_lay(state: State, hand: Cards, mine: tuple[Cards, ...]) -> State:
    index = state.player - 1
    melds = _put(state.melds, index, mine)
    hands = _put(state.hands, index, hand)
    if ctverky(mine) >= 4:  # K5.1: a čtverák wins at once, even mid-turn
        return state._replace(
            hands=hands,
            melds=melds,
            laid=True,
            progress=True,
            step=OVER,
            winners=(state.player,),
            ending=CTVERAK,
        )
    # K4.2: an emptied hand refills to 4 at once
    full = state.cfg.hand
    step = opening_step(len(hand), state.stock, state.piles, full) if not hand else MELD_STEP
    return State(
        state.cfg,
        hands,
        melds,
        state.piles,
        state.bases,
        state.stock,
        state.player,
        step,
        True,
        True,
        state.exhausted,
        state.idle,
        state.reshuffles,
        state.winners,
        state.ending,
        state.turns,
    )


def idle_limit(state: State) -> int:
    """K5.2: 2N idle turns once the stock has run out, else the ``stall_limit`` rounds."""
    return 2 * state.cfg.players if state.exhausted else state.cfg.stall_turns


def _end_turn(state: State, hands: tuple[Cards, ...], piles: tuple[Cards, ...]) -> State:
    """K4.4 and the K5.2 count: pass to the next player, or end the game blocked (the
    turn's last action left ``hands`` and ``piles``)."""
    idle = 0 if state.progress else state.idle + 1
    n = state.cfg.players
    limit = state.cfg.max_turns
    turns = state.turns + 1 if limit else 0  # counted only under option max_turns
    if idle >= idle_limit(state) or (limit and turns >= limit):
        return state._replace(
            hands=hands,
            piles=piles,
            idle=idle,
            step=OVER,
            winners=blocked_winners(state.melds),
            ending=BLOCKED if idle >= idle_limit(state) else TURN_LIMIT,
            turns=turns,
        )
    nxt = state.player % n + 1
    return State(
        state.cfg,
        hands,
        state.melds,
        piles,
        state.bases,
        state.stock,
        nxt,
        opening_step(len(hands[nxt - 1]), state.stock, piles, state.cfg.hand),
        False,
        False,
        state.exhausted,
        idle,
        state.reshuffles,
        state.winners,
        state.ending,
        turns,
    )


def blocked_winners(melds: Sequence[Sequence[Cards]]) -> tuple[int, ...]:
    """K5.2: most čtverky, then the higher extended score; still tied, nobody."""
    ranked = [(ctverky(mine), points(mine), p) for p, mine in enumerate(melds, 1)]
    best = max(ranked)
    tied = [r for r in ranked if r[:2] == best[:2]]
    return (best[2],) if len(tied) == 1 else ()


# -- end and scores ---------------------------------------------------------------------
def scores(state: State) -> dict[int, int]:
    """K6: simple = 1 per win (once over); extended = čtverky values + 100 for a čtverák."""
    n = state.cfg.players
    if not state.cfg.extended:
        return {p: int(p in state.winners) for p in range(1, n + 1)}
    return {
        p: points(state.melds[p - 1])
        + (100 if state.ending == CTVERAK and p in state.winners else 0)
        for p in range(1, n + 1)
    }


def end_kind(state: State) -> str:
    """The outcome's kind: ``ctverak`` (K5.1), ``blocked`` (K5.2) or ``turn-limit`` (option
    max_turns, scored as blocked)."""
    if state.ending == TURN_LIMIT:
        return "turn-limit"
    return "ctverak" if state.ending == CTVERAK else "blocked"


def reason(state: State) -> str:
    """Why the game ended, citing the rule."""
    if state.ending == CTVERAK:
        return _(
            "player {player} completed a čtverák, four čtverky (K5.1)", player=state.winners[0]
        )
    if not state.winners:
        who = _("tied on čtverky and points: a draw")
    else:
        winner = state.winners[0]
        most = ctverky(state.melds[winner - 1])
        tied = any(ctverky(mine) == most for p, mine in enumerate(state.melds, 1) if p != winner)
        who = (
            _("player {player} wins on points, tied on čtverky", player=winner)
            if tied
            else _("player {player} wins with the most čtverky", player=winner)
        )
    if state.ending == TURN_LIMIT:
        return _.plural(
            "the turn limit: {n} turn ended (option max_turns); {who} (K5.2)",
            "the turn limit: {n} turns ended (option max_turns); {who} (K5.2)",
            state.turns,
            who=who,
        )
    if state.exhausted:
        return _.plural(
            "blocked: {n} turn in a row with no card laid; {who} (K5.2)",
            "blocked: {n} turns in a row with no card laid; {who} (K5.2)",
            state.idle,
            who=who,
        )
    return _.plural(
        "blocked: {n} turn in a row with no card laid or drawn from the "
        "stock (option stall_limit); {who} (K5.2)",
        "blocked: {n} turns in a row with no card laid or drawn from the "
        "stock (option stall_limit); {who} (K5.2)",
        state.idle,
        who=who,
    )


# -- refusals ---------------------------------------------------------------------------
def refusal(state: State, action: Action) -> str:
    """One line, citing the rule, on why a well-formed ``action`` is not legal now."""
    if state.step == OVER:
        return _("the game is over (K5)")
    kind = action[0]
    if state.step in CHANCE_STEPS or kind in (DEAL_CARD, TAKE):
        return _chance_refusal(state, action)
    hand = state.hands[state.player - 1]
    if kind == DRAW:
        if state.step != REFILL:
            if len(hand) >= state.cfg.hand:
                return _(
                    "your hand already holds {n} cards; no draw now (K4.1)", n=state.cfg.hand
                )
            if not has_source(state.stock, state.piles):
                return _("there is nothing to draw: empty stock and piles (K4.1)")
            return _("you refill at the turn's start or when your hand is empty, not now (K4.1)")
        if action[1] > state.cfg.piles:
            return _piles_refusal(state)
        if action[1] == STOCK:
            if state.cfg.reshuffle:
                return _(
                    "the stock is empty and no pile has cards to reshuffle; draw from a pile (K4.1)"
                )
            return _("the stock is empty; draw from a pile (K4.1)")
        return _(
            "pile {pile} has no face-up card; its base is never taken (K4.1, K2.2)", pile=action[1]
        )
    if state.step == REFILL:
        return _.plural(
            "refill first: your hand has {n} card; draw stock or draw a pile (K4.1)",
            "refill first: your hand has {n} cards; draw stock or draw a pile (K4.1)",
            len(hand),
        )
    if kind in (MELD, ADD):
        cards = action[1:] if kind == MELD else action[2:]
        lacking = _lacking(hand, cards)
        if lacking:
            return _("you do not hold {card} (K4.2)", card=lacking)
        mine = state.melds[state.player - 1]
        problem = (
            meld_problem(state.cfg, mine, cards)
            if kind == MELD
            else add_problem(mine, action[1], cards)
        )
        return problem or _("not allowed now (K4.2)")
    if kind == DISCARD:
        if not owes_discard(state):
            if not hand:
                why = _("you hold no card")
            elif state.cfg.four_cards:
                why = _("you hold fewer than {n} cards", n=state.cfg.hand)
            else:
                why = _("you laid a card since your last refill")
            return _("no discard is owed: {why}; play end (K4.3)", why=why)
        if action[2] > state.cfg.piles:
            return _piles_refusal(state)
        lacking = _lacking(hand, action[1:2])
        return (
            _("you do not hold {card} (K4.3)", card=lacking)
            if lacking
            else _("not allowed now (K4.3)")
        )
    why = (
        _("you hold {n} cards", n=state.cfg.hand)
        if state.cfg.four_cards
        else _("you laid no card since your last refill")
    )
    return _("a discard is owed: {why}; discard <card> <pile> (K4.3)", why=why)


def _piles_refusal(state: State) -> str:
    """A pile the research variant does not have (option piles, K2.2)."""
    return _.plural(
        "there is {n} discard pile in this game (K2.2, option piles)",
        "there are {n} discard piles in this game: 1-{n} (K2.2, option piles)",
        state.cfg.piles,
    )


def _chance_refusal(state: State, action: Action) -> str:
    """Why a chance outcome, or a player's action at a chance step, is refused."""
    kind = action[0]
    if state.step == DEAL:
        if kind != DEAL_CARD:
            return _("the cards are being dealt: chance deals the next card, e.g. deal 7H (K2.1)")
        return _(
            "{card} cannot be dealt: no copy of it is left to deal (K1.1, K2.1)",
            card=card_code(action[1]),
        )
    if state.step == DRAWING:
        if kind != TAKE:
            return _(
                "player {player} draws from the stock: chance gives the card, e.g. draw 7H (K4.1)",
                player=state.player,
            )
        return _(
            "{card} cannot come from the stock: no copy of it is there (K4.1)",
            card=card_code(action[1]),
        )
    return _(
        "deal <card> and draw <card> are chance outcomes, played only while a card "
        "is dealt or drawn from the stock (K2.1, K4.1)"
    )


def _lacking(hand: Cards, cards: Cards) -> str:
    """The first of ``cards`` the hand lacks, as text ("another 7H" for a copy), or ""."""
    card = missing(hand, cards)
    if card is None:
        return ""
    return _("another {card}", card=card_code(card)) if card in hand else card_code(card)


def outcome(state: State) -> Outcome | None:
    """The winners, the reason and the kind of the end (K5, K6); None while playing."""
    if state.step != OVER:
        return None
    return Outcome(state.winners, reason(state), end_kind(state))


def prompt(state: State) -> str:
    """What the player to act is asked for (K4)."""
    if state.step == OVER:
        return _("the game is over")
    if state.step == DEAL:
        return _("dealing: deal <card>")
    if state.step == DRAWING:
        return _("drawing from the stock: draw <card>")
    if state.step == REFILL:
        return _("refill: draw stock or draw 1-4")
    if owes_discard(state):
        return _("meld <cards> / add <meld> <cards>, then discard <card> <pile>")
    return _("meld <cards> / add <meld> <cards>, then end")
