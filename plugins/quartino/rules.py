"""Quartino's rules as pure functions over an immutable :class:`State` (spec N1–N5).

Hot paths (``legal``, ``apply``) work on ints and tuples only: colours 0..3, fields 0..8
(see :mod:`.cards`), cards 0..23, players 1..N. The start check (N4.1) of a turn runs
inside ``apply`` when the turn passes, so a state always shows the turn after its check.

The deal (N2.1) and the lot for the first player (N2.2, ``start=lot``) are chance steps
(issue 35): ``to_act`` is ``CHANCE`` (-1) while a card is to be dealt (to the first player
with fewer than 4 (option ``hand``), one card a step, as the seeded shuffle once dealt
them) and then while
the first player is drawn by lot. The undealt cards are no order but the cards in no stand:
each comes with probability 1/(cards unseen), each player by lot with 1/players.

The research variants (issue 36; options ``hand``, ``cards``, ``ring``, ``pawns``,
``setup``, none in the printed rules) shrink the game for whole-tree solvers: fewer cards
dealt from a smaller deck, fewer ring fields in play, fewer pawns, a board that starts
with one pawn of each colour. Their defaults are the printed rules; the actions and the
encodings stay those of the whole game (a field or rotation not in play is refused).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from tabletop.game import CHANCE, Domain, Msg, OptionError, Outcome, options_as
from tabletop_quartino.cards import CARDS_PER_PLAYER, COLOUR_NAMES, FIELDS, PER_COLOUR, RING, deck

_ = Domain("tabletop_quartino")

NFIELDS = RING + 1
NCOLOURS = 4
COLUMN = 4  # N3.3: a field of 4 or more pawns
FOUR = 4  # N3.4: 4 or more pawns of one colour on the board


class Config(NamedTuple):
    """The options that change the rules, as plain values."""

    situations: bool = True  # N4.1 (False = learning variant)
    mirror: bool = False  # N3.2
    max_turns: int = 400  # N5.2
    by_lot: bool = False  # N2.2: the first player is drawn by lot (a chance step)
    # research variants (issue 36), not in the printed rules; the defaults are N1-N2's
    hand: int = CARDS_PER_PLAYER  # N2.1: cards dealt to each player
    cards: int = 24  # N1.3: the deck is the first this many cards of cards.json
    ring: int = RING  # N1.1: ring fields in play, r0 onwards (the others are not there)
    pawns: int = PER_COLOUR  # N1.2: pawns of each colour
    one_each: bool = False  # N2.1: the board starts with Y, B, G, P on c, r0, r1, r2


class Check(NamedTuple):
    """What the start check (N4.1) of ``player``'s turn found and did."""

    player: int
    situations: bool  # False: the learning variant, no check was made
    columns: tuple[int, ...]  # fields of 4+ pawns, emptied to the supply (N3.3)
    colours: tuple[int, ...]  # colours with 4+ pawns on the board (N3.4)
    owed: int  # 1 + four-colours + column
    lapsed: bool  # the whole supply was empty: the placements lapse (N4.2)


PLACE, CLAIM, END = 0, 1, 2
DEAL, LOT = 3, 4  # chance outcomes (N2.1, N2.2): a card dealt, the first player drawn


class Action(NamedTuple):
    """``Action(PLACE, colour, field)``, ``Action(CLAIM, card, k)`` or ``Action(END)``;
    at chance steps ``Action(DEAL, card)`` or ``Action(LOT, player)``."""

    kind: int
    a: int = 0
    b: int = 0


class State(NamedTuple):
    """A Quartino position. ``to_act`` is 0 once the game is over (``winner`` 0 = draw),
    ``CHANCE`` (-1) during the deal and the lot (N2); the undealt cards are those in no
    stand and not done: the state holds no seed and no order of them."""

    board: tuple[tuple[int, ...], ...]  # 9 stacks, bottom to top
    supply: tuple[int, ...]  # pawns left per colour
    stands: tuple[tuple[int, ...], ...]  # per player: cards still to do (sorted)
    done: tuple[tuple[int, ...], ...]  # per player: cards completed, in order
    to_act: int
    owed: int  # placements still owed this turn
    batch: int  # placements owed when the current batch began (for the prompt)
    turns: int  # turns ended so far (N5.2)
    winner: int
    check: Check | None  # the last start check
    cfg: Config


PLACES = tuple(Action(PLACE, c, f) for c in range(NCOLOURS) for f in range(NFIELDS))
CLAIMS = tuple(Action(CLAIM, card, k) for card in range(24) for k in range(RING))
END_TURN = Action(END)
DEALS = tuple(Action(DEAL, card) for card in range(24))
LOTS = tuple(Action(LOT, p) for p in range(5))  # LOTS[p]: player p starts (p >= 1)

# Placements by the mask of colours left in the supply (bit c set = colour c available).
_PLACES_BY_MASK = tuple(
    tuple(a for a in PLACES if mask >> a.a & 1) for mask in range(1 << NCOLOURS)
)
_CLAIMS_BY_STAND: dict[tuple[int, ...], tuple[Action, ...]] = {}
# the same on a smaller ring (research variant, N1.1), by (mask, ring), (stand, ring, mirror)
_PLACES_ON: dict[tuple[int, int], tuple[Action, ...]] = {}
_CLAIMS_ON: dict[tuple[tuple[int, ...], int, bool], tuple[Action, ...]] = {}


def in_play(field: int, cfg: Config) -> bool:
    """N1.1: the centre and the ring fields r0..r(ring-1) are on the board (all 9 by default)."""
    return field <= cfg.ring


def rotations(cfg: Config) -> tuple[int, ...]:
    """The rotations k a claim may name (N3.2): all 8 on the whole ring; on a smaller ring
    (research variant) those whose three ring fields, plain or with ``mirror`` turned over,
    are all in play."""
    if cfg.ring == RING:
        return tuple(range(RING))
    d = deck()
    return tuple(
        k
        for k in range(RING)
        if max(d.plain[k]) <= cfg.ring or (cfg.mirror and max(d.mirror[k]) <= cfg.ring)
    )


def _places_on(mask: int, ring: int) -> tuple[Action, ...]:
    """The placements of the colours in ``mask`` on the fields of a ring of ``ring``."""
    found = _PLACES_ON.get((mask, ring))
    if found is None:
        found = _PLACES_ON[mask, ring] = tuple(a for a in _PLACES_BY_MASK[mask] if a.b <= ring)
    return found


def place(colour: int, field: int) -> Action:
    """The action placing a pawn of ``colour`` on ``field``."""
    return PLACES[colour * NFIELDS + field]


def claim(card: int, k: int) -> Action:
    """The action claiming ``card`` at rotation ``k``."""
    return CLAIMS[card * RING + k]


def start_turn(
    board: tuple[tuple[int, ...], ...], supply: tuple[int, ...], player: int, cfg: Config
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int, Check]:
    """N4.1: judge both situations on the board as it stands, empty every 4+ field.

    Returns the board, the supply, the placements owed (0 when they lapse, N4.2) and
    the :class:`Check` record.
    """
    columns: tuple[int, ...] = ()
    colours: tuple[int, ...] = ()
    owed = 1
    if cfg.situations:
        # Pawns of a colour on the board = 7 - supply (N1.2), buried ones included (N3.4).
        pawns = cfg.pawns
        if min(supply) <= pawns - FOUR:
            colours = tuple(c for c in range(NCOLOURS) if pawns - supply[c] >= FOUR)
        if max(map(len, board)) >= COLUMN:
            columns = tuple(f for f in range(NFIELDS) if len(board[f]) >= COLUMN)
            b = list(board)
            s = list(supply)
            for f in columns:
                for c in b[f]:
                    s[c] += 1
                b[f] = ()
            board, supply = tuple(b), tuple(s)
        owed += (1 if colours else 0) + (1 if columns else 0)
    lapsed = not any(supply)
    check = Check(player, cfg.situations, columns, colours, owed, lapsed)
    return board, supply, 0 if lapsed else owed, check


def setup(cfg: Config) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """N2.1: the board and the supply before the deal: an empty board and a full supply,
    or with ``setup=one-each`` (research variant) one pawn of each colour on c, r0, r1, r2
    (yellow, blue, green, pink: the reading of the deck's first card, Y|BGP)."""
    if not cfg.one_each:
        return ((),) * NFIELDS, (cfg.pawns,) * NCOLOURS
    board = tuple((f,) if f < NCOLOURS else () for f in range(NFIELDS))  # field f, colour f
    return board, (cfg.pawns - 1,) * NCOLOURS


def new_state(players: int, cfg: Config) -> State:
    """N2: the board of :func:`setup`, no card dealt yet: the deal's chance steps come next
    (``hand`` cards to each player, player 1's first), then with ``by_lot`` the lot (N2.2)."""
    board, supply = setup(cfg)
    hands: tuple[tuple[int, ...], ...] = ((),) * players
    return State(board, supply, hands, hands, CHANCE, 0, 0, 0, 0, None, cfg)


def dealing(s: State) -> int:
    """At a chance step: the player the next card goes to (N2.1), 0 once all are dealt
    (the lot is due, N2.2)."""
    hand = s.cfg.hand
    for p, stand in enumerate(s.stands, start=1):
        if len(stand) < hand:
            return p
    return 0


def chance_legal(s: State) -> tuple[Action, ...]:
    """The outcomes of the chance step ``s``: each card in no stand (N2.1), else each player
    (the lot, N2.2)."""
    if dealing(s):
        held = {c for stand in s.stands for c in stand}
        return tuple(a for a in DEALS[: s.cfg.cards] if a.a not in held)
    return LOTS[1 : len(s.stands) + 1]


def chance_outcomes(s: State) -> list[tuple[Action, Fraction]]:
    """Each outcome of the chance step with its exact probability: 1 / the cards unseen
    (every card is in the deck once, N1.3), or 1 / the players by lot (N2.2)."""
    outcomes = chance_legal(s)
    p = Fraction(1, len(outcomes))
    return [(a, p) for a in outcomes]


def _chance(s: State, a: Action) -> State:
    """A card dealt to the player due (N2.1), or the lot's player starts (N2.2)."""
    cfg = s.cfg
    if a[0] == DEAL:
        p = dealing(s)
        stands = list(s.stands)
        stands[p - 1] = tuple(sorted((*stands[p - 1], a[1])))
        s = s._replace(stands=tuple(stands))
        if dealing(s) or cfg.by_lot:
            return s
        first = 1
    else:
        first = a[1]
    board, supply, owed, check = start_turn(s.board, s.supply, first, cfg)
    return State(board, supply, s.stands, s.done, first, owed, owed, 0, 0, check, cfg)


def claim_fields(
    board: tuple[tuple[int, ...], ...], card: int, k: int, mirror: bool
) -> tuple[int, ...] | None:
    """The 4 fields (centre first) where ``card`` matches at rotation ``k``, or None (N3.2).

    With ``mirror`` the turned-over reading also counts; the plain reading is tried first.
    """
    d = deck()
    centre = board[0]
    if not centre or centre[-1] != d.centre[card]:
        return None
    ring = d.ring[card]
    readings = (d.plain[k], d.mirror[k]) if mirror else (d.plain[k],)
    for fields in readings:
        for f, colour in zip(fields, ring, strict=True):
            stack = board[f]
            if not stack or stack[-1] != colour:
                break
        else:
            return (0, *fields)
    return None


def legal(state: State) -> tuple[Action, ...]:
    """Every action ``apply`` accepts: placements while owed, else ``end`` and all claims."""
    s = state
    if not s.to_act:
        return ()
    if s.owed:
        sp = s.supply
        mask = (sp[0] > 0) | (sp[1] > 0) << 1 | (sp[2] > 0) << 2 | (sp[3] > 0) << 3
        if s.cfg.ring != RING:
            return _places_on(mask, s.cfg.ring)
        return _PLACES_BY_MASK[mask]
    p = s.to_act
    if p < 0:  # a chance step (N2): the deal or the lot
        return chance_legal(s)
    stand = s.stands[p - 1]
    if s.cfg.ring != RING:
        key = (stand, s.cfg.ring, s.cfg.mirror)
        found = _CLAIMS_ON.get(key)
        if found is None:
            ks = rotations(s.cfg)
            found = _CLAIMS_ON[key] = (END_TURN, *(claim(c, k) for c in stand for k in ks))
        return found
    found = _CLAIMS_BY_STAND.get(stand)
    if found is None:
        found = (END_TURN, *(claim(card, k) for card in stand for k in range(RING)))
        _CLAIMS_BY_STAND[stand] = found
    return found


def apply(state: State, action: Action) -> State:
    """The state after the legal ``action`` (unchecked; ``state`` is never changed)."""
    s, a = state, action
    kind = a[0]
    if kind == PLACE:  # N4.2
        colour, field = a[1], a[2]
        board = list(s.board)
        board[field] = board[field] + (colour,)
        supply = list(s.supply)
        supply[colour] -= 1
        owed = s.owed - 1
        if owed and not any(supply):
            owed = 0  # N4.2 [decision]: whole supply empty, the rest lapses
        return State(
            tuple(board),
            tuple(supply),
            s.stands,
            s.done,
            s.to_act,
            owed,
            s.batch,
            s.turns,
            0,
            s.check,
            s.cfg,
        )
    if kind == END:  # N4.5
        return _end_turn(s, s.board, s.supply)
    if kind > END:  # a chance outcome (N2)
        return _chance(s, a)
    card, k = a[1], a[2]
    fields = claim_fields(s.board, card, k, s.cfg.mirror)
    if fields is None:  # N4.4: a false claim, the card stays, the turn passes
        return _end_turn(s, s.board, s.supply)
    # N4.3: a true claim; the 4 matched top pawns go back to the supply.
    board = list(s.board)
    supply = list(s.supply)
    for f in fields:
        stack = board[f]
        supply[stack[-1]] += 1
        board[f] = stack[:-1]
    p = s.to_act
    stand = tuple(c for c in s.stands[p - 1] if c != card)
    stands = (*s.stands[: p - 1], stand, *s.stands[p:])
    done = (*s.done[: p - 1], (*s.done[p - 1], card), *s.done[p:])
    if not stand:  # N5.1: the last card, the game ends at once
        return State(tuple(board), tuple(supply), stands, done, 0, 0, 0, s.turns, p, s.check, s.cfg)
    return State(tuple(board), tuple(supply), stands, done, p, 1, 1, s.turns, 0, s.check, s.cfg)


def _end_turn(s: State, board: tuple[tuple[int, ...], ...], supply: tuple[int, ...]) -> State:
    """The turn ends: count it (N5.2), pass to the next player, run their start check."""
    cfg = s.cfg
    turns = s.turns + 1
    if turns >= cfg.max_turns:  # N5.2: the game is a draw
        return State(board, supply, s.stands, s.done, 0, 0, 0, turns, 0, s.check, cfg)
    nxt = s.to_act % len(s.stands) + 1
    board, supply, owed, check = start_turn(board, supply, nxt, cfg)
    return State(board, supply, s.stands, s.done, nxt, owed, owed, turns, 0, check, cfg)


def owed_text(n: int) -> Msg:
    """``1 placement`` / ``3 placements``."""
    return _.plural("{n} placement", "{n} placements", n)


# The pawns' colours as a refusal names them (cards.COLOUR_NAMES), translatable.
COLOUR_PAWNS = (
    _("no yellow pawn left in the supply (N4.2)"),
    _("no blue pawn left in the supply (N4.2)"),
    _("no green pawn left in the supply (N4.2)"),
    _("no pink pawn left in the supply (N4.2)"),
)
assert [str(m).split()[1] for m in COLOUR_PAWNS] == list(COLOUR_NAMES)


def refusal(s: State, a: Action) -> str:
    """Why the well-formed action ``a`` is not legal in ``s`` (one line, with the rule ID)."""
    d = deck()
    kind = a[0]
    if not s.to_act:
        return _("the game is over (N5)")
    if s.to_act < 0:
        if kind == DEAL and s.cfg.cards <= a[1] < len(d):
            return _(
                "{card} is not in this game's deck of {n} cards (N1.3, option cards)",
                card=d.codes[a[1]],
                n=s.cfg.cards,
            )
        if kind == DEAL and 0 <= a[1] < len(d) and dealing(s):
            return _(
                "{card} is already dealt; a card comes from those not dealt (N2.1)",
                card=d.codes[a[1]],
            )
        if kind == LOT and not dealing(s):
            return _("the lot draws one of players 1-{n} (N2.2)", n=len(s.stands))
        return _(
            "the cards are being dealt: the next comes by chance (deal <card>, lot <player>, N2)"
        )
    if kind in (DEAL, LOT):
        return _("the deal is over; chance deals no more cards (N2.1)")
    if kind == PLACE and 0 <= a[1] < NCOLOURS and 0 <= a[2] < NFIELDS:
        if not in_play(a[2], s.cfg):
            return _(
                "field {field} is not on this board: its ring is r0-r{last} (N1.1, option ring)",
                field=FIELDS[a[2]],
                last=s.cfg.ring - 1,
            )
        if not s.owed:
            return _("no placement is owed now; claim a card of yours or end the turn (N4.2)")
        if not s.supply[a[1]]:
            return COLOUR_PAWNS[a[1]]
    elif kind == CLAIM and 0 <= a[1] < len(d) and 0 <= a[2] < RING:
        code = d.codes[a[1]]
        if a[1] in s.done[s.to_act - 1]:
            return _("{card} is already done; claim a card still on your stand (N4.4)", card=code)
        if a[1] not in s.stands[s.to_act - 1]:
            return _(
                "{card} is not on your stand; you may claim only your own cards (N4.4)", card=code
            )
        if a[2] not in rotations(s.cfg):
            return _(
                "rotation {k} does not lie on this board's ring r0-r{last} (N3.2, option ring)",
                k=a[2],
                last=s.cfg.ring - 1,
            )
        if s.owed:
            return _.plural(
                "{n} placement still owed; claim after placing (N4.4, N4.2)",
                "{n} placements still owed; claim after placing (N4.4, N4.2)",
                s.owed,
            )
    elif kind == END:
        if s.owed:
            return _.plural(
                "{n} placement still owed before the turn can end (N4.5, N4.2)",
                "{n} placements still owed before the turn can end (N4.5, N4.2)",
                s.owed,
            )
    else:
        return _("not an action of Quartino (N6)")
    return _("not a legal action now (N4)")


MAX_TURNS = 10_000  # N5.2: a bound far above any real game (400 by default)


class QuartinoOptions(BaseModel):
    """Quartino's variants and the choices the rules leave to the players."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)  # built at first use

    situations: bool = Field(
        default=True,
        title=_("situations"),
        description=_(
            "N4.1: start-of-turn check for the four-colours and column situations; "
            "false = the learning variant (1 placement a turn, columns stay)"
        ),
    )
    mirror: bool = Field(
        default=False,
        title=_("mirror image"),
        description=_("N3.2: a card also matches turned over (its mirror image)"),
    )
    max_turns: int = Field(
        default=400,
        ge=1,
        le=MAX_TURNS,
        title=_("turn limit"),
        description=_(
            "N5.2: the game is a draw when this many turns have ended (1-{max})", max=MAX_TURNS
        ),
    )
    start: Literal["first", "lot"] = Field(
        default="first",
        title=_("who starts"),
        json_schema_extra={"labels": {"first": _("player 1"), "lot": _("drawn by lot")}},
        description=_("N2.2: who starts: player 1 (first) or a player drawn by lot from the seed"),
    )
    # Research variants (issue 36): a game small enough for a whole-tree solver (CFR).
    hand: int = Field(
        default=CARDS_PER_PLAYER,
        ge=1,
        le=CARDS_PER_PLAYER,
        title=_("cards per player"),
        description=_(
            "N2.1: cards dealt to each player (1-4; research variant, not in the printed "
            "rules, which deal 4)"
        ),
    )
    cards: int = Field(
        default=24,
        ge=3,
        le=24,
        title=_("cards in the deck"),
        description=_(
            "N1.3: the deck is the first this many cards of the 24, more than the players "
            "are dealt (3-24; research variant, not in the printed rules)"
        ),
    )
    ring: int = Field(
        default=RING,
        ge=3,
        le=RING,
        title=_("ring fields"),
        description=_(
            "N1.1: the ring fields in play, r0 onwards; a card is claimed only at a rotation "
            "that lies on them (3-8; research variant, not in the printed rules)"
        ),
    )
    pawns: int = Field(
        default=PER_COLOUR,
        ge=1,
        le=PER_COLOUR,
        title=_("pawns per colour"),
        description=_(
            "N1.2: pawns of each colour (1-7; research variant, not in the printed rules, "
            "which have 7)"
        ),
    )
    setup: Literal["empty", "one-each"] = Field(
        default="empty",
        title=_("starting board"),
        json_schema_extra={
            "labels": {"empty": _("empty"), "one-each": _("one pawn of each colour")}
        },
        description=_(
            "N2.1: the board starts empty, or with one pawn of each colour from the supply: "
            "yellow on c, blue on r0, green on r1, pink on r2 (one-each: research variant, "
            "not in the printed rules)"
        ),
    )


def config(players: int, options: BaseModel) -> Config:
    """The rules' plain config from the options model (every plugin spells it so,
    docs/plugins.md); OptionError when the deck leaves no card out of play (N2.1)."""
    opts = options_as(QuartinoOptions, options)
    if opts.cards <= players * opts.hand:
        raise OptionError(
            _(
                "a deck of {cards} cards deals {players} players {hand} each with none left "
                "out of play, so every hand would be known; use -o cards={least} or more, or a "
                "smaller hand (N2.1)",
                cards=opts.cards,
                players=players,
                hand=opts.hand,
                least=players * opts.hand + 1,
            )
        )
    return Config(
        opts.situations,
        opts.mirror,
        opts.max_turns,
        opts.start == "lot",
        opts.hand,
        opts.cards,
        opts.ring,
        opts.pawns,
        opts.setup == "one-each",
    )


def outcome(state: State) -> Outcome | None:
    """A player completed their cards (N5.1) or the turn limit ended the game (N5.2)."""
    if state.to_act:
        return None
    if state.winner:
        said = _("player {player} completed their cards (N5.1)", player=state.winner)
        return Outcome((state.winner,), said, "completed")
    said = _.plural(
        "a draw: {n} turn ended without a winner (N5.2)",
        "a draw: {n} turns ended without a winner (N5.2)",
        state.cfg.max_turns,
    )
    return Outcome((), said, "turn-limit")


def prompt(state: State) -> str:
    """What the player to act is asked for (N4.1-N4.3)."""
    if not state.to_act:
        return _("the game is over")
    if state.to_act < 0:
        return _("the cards are being dealt")
    if state.owed:
        return _("place a pawn ({owed} of {batch} owed)", owed=state.owed, batch=state.batch)
    return _("claim a card or end the turn")


def hides(s: State, a: Action) -> bool:
    """N4.4: a false claim leaves the card on the actor's stand, unseen by the others, so
    its text (which names the card) is the actor's alone; a true claim shows the card."""
    return a[0] == CLAIM and claim_fields(s.board, a[1], a[2], s.cfg.mirror) is None
