"""Positions as JSON (K10), read back with validation, and the per-player view (K8)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from tabletop.game import JSON, Domain, PositionError, and_joined, describe, player_key, whole
from tabletop_ctverak.cards import card_code, deck_counts, parse_card
from tabletop_ctverak.rules import (
    BLOCKED,
    CHANCE_STEPS,
    CTVERAK,
    DEAL,
    MELD_STEP,
    ONGOING,
    OVER,
    PHASE_NAMES,
    REFILL,
    TURN_LIMIT,
    Cards,
    Config,
    State,
    action_bound,
    blocked_winners,
    can_reshuffle,
    ctverky,
    deal_target,
    has_source,
    idle_limit,
    meld_key,
    meld_problem,
    new_state,
    opening_step,
    owes_discard,
    points,
    reason,
)

REQUIRED = ("hands", "melds", "piles", "bases", "stock", "to_act")
_ = Domain("tabletop_ctverak")

# What `tabletop rules` says of the position JSON, above an example.
POSITION_KEYS = _("""\
The keys are those of "Positions (K10)" above: `hands`, `melds`, `piles`, `bases`,
`stock`, `to_act`, and `phase`, `laid`, `turn_progress`, `idle_turns`, `stock_exhausted`,
`reshuffles`, `winners` as `--reveal` writes them. The stock has no order (nobody sees
it, K8; each draw is a chance step): it is written sorted and read in any order.""")


def codes(cards: Cards) -> list[str]:
    """Card codes of a tuple of cards."""
    return [card_code(c) for c in cards]


# -- full position ----------------------------------------------------------------------
def to_json(state: State) -> JSON:
    """The full position of K10 (hands, melds, piles, bases, stock, to_act) plus counters."""
    n = state.cfg.players
    out: JSON = {
        "hands": {str(p): codes(state.hands[p - 1]) for p in range(1, n + 1)},
        "melds": {str(p): [codes(m) for m in state.melds[p - 1]] for p in range(1, n + 1)},
        "piles": [codes(pile) for pile in state.piles],
        "bases": codes(state.bases),
        "stock": codes(state.stock),  # sorted: an unordered multiset (issue 35)
        "to_act": state.player,
        "phase": PHASE_NAMES[state.step],
        "laid": state.laid,
        "turn_progress": state.progress,
        "idle_turns": state.idle,
        "stock_exhausted": state.exhausted,
        "reshuffles": state.reshuffles,
        "winners": list(state.winners),
    }
    if state.cfg.max_turns:  # option max_turns (research variant): the turns ended
        out["turns"] = state.turns
    return out


def from_json(data: JSON, cfg: Config) -> State:
    """The state for a K10 position, at the refill step of ``to_act``'s turn (K10).

    Raises PositionError naming what cannot arise: unknown cards, more copies than the
    deck has, missing cards, hands of more than 4, melds that break K3, two players
    with a čtverák. A position where one player has four čtverky is a finished game.

    Optional keys: ``idle_turns``, ``stock_exhausted`` and ``reshuffles`` (K5.2 counters);
    ``phase`` with ``laid`` and ``turn_progress`` (as :func:`to_json` writes them) resume
    the turn in that step instead of starting it (``deal``: the deal under way, K2.1;
    ``draw``: a stock draw whose card chance gives next, K4.1); ``"stock_rest": true``
    appends every card not placed elsewhere to the stock, so that a hand-written position
    need not list the whole deck. The stock is read in any order: it has none (K8).
    """
    if not isinstance(data, dict):
        raise PositionError(_("a position is a JSON object with {keys}", keys=", ".join(REQUIRED)))
    absent = [key for key in REQUIRED if key not in data]
    if absent:
        raise PositionError(_("position lacks {keys} (K10)", keys=", ".join(absent)))
    if data.get("phase") == "deal":
        return _dealing(data, cfg)
    n = cfg.players
    hands = _per_player(data["hands"], "hands", n, required=True)
    melds_raw = _per_player(data["melds"], "melds", n, required=False)
    hand_cards: list[Cards] = []
    for p in range(1, n + 1):
        hand = tuple(sorted(_cards(hands[p], f"hands.{p}")))
        if len(hand) > cfg.hand:
            raise PositionError(
                _(
                    "hands.{player} has {count} cards; a hand never exceeds {n} (K4.1)",
                    player=p,
                    count=len(hand),
                    n=cfg.hand,
                )
            )
        hand_cards.append(hand)
    melds = tuple(_melds(melds_raw.get(p, []), p, cfg) for p in range(1, n + 1))
    piles_raw = data["piles"]
    if not isinstance(piles_raw, list) or len(piles_raw) != cfg.piles:
        raise PositionError(
            _("piles must be a list of the {n} piles' face-up cards (K10)", n=cfg.piles)
        )
    piles = tuple(tuple(_cards(pile, f"piles.{i}")) for i, pile in enumerate(piles_raw, 1))
    bases = tuple(_cards(data["bases"], "bases"))
    if len(bases) != cfg.piles:
        raise PositionError(
            _(
                "bases has {count} cards; there are exactly {n} (K2.2)",
                count=len(bases),
                n=cfg.piles,
            )
        )
    stock = tuple(_cards(data["stock"], "stock"))
    to_act = whole(data["to_act"], 1, n)
    if to_act is None:
        raise PositionError(
            _(
                "to_act must be a player number 1-{n}, not {value}",
                n=n,
                value=describe(data["to_act"]),
            )
        )
    every = [*hand_cards, *(m for mine in melds for m in mine), *piles, bases, stock]
    stock = _whole_deck(every, stock, data, cfg)
    state = State(
        cfg=cfg,
        hands=tuple(hand_cards),
        melds=melds,
        piles=piles,
        bases=bases,
        stock=stock,
        player=to_act,
        step=opening_step(len(hand_cards[to_act - 1]), stock, piles, cfg.hand),
        laid=False,
        progress=False,
        exhausted=not stock,
        idle=0,
        reshuffles=0,
        winners=(),
        ending=ONGOING,
    )
    state = _counters(state, data)
    if cfg.max_turns:  # option max_turns (research variant): the turns ended so far
        state = state._replace(turns=_count(data, "turns", cfg.max_turns))
    idle = state.idle
    done = [p for p in range(1, n + 1) if ctverky(melds[p - 1]) >= 4]
    if len(done) > 1:
        raise PositionError(
            _(
                "players {players} both have a čtverák; the first one ends the game (K5.1)",
                players=and_joined(map(str, done)),
            )
        )
    if done:  # K5.1: the čtverák ended the game at once, mid-turn, as a card was laid
        _last_meld_won(melds[done[0] - 1], done[0])
        state = state._replace(
            step=OVER, winners=(done[0],), ending=CTVERAK, laid=True, progress=True
        )
    elif idle == idle_limit(state):  # K5.2: blocked at the end of a turn without progress
        state = state._replace(step=OVER, winners=blocked_winners(melds), ending=BLOCKED)
    elif cfg.max_turns and state.turns >= cfg.max_turns:  # the turn limit, scored as K5.2
        laid, progress = _flag(data, "laid"), _flag(data, "turn_progress")
        if laid and not progress:
            raise PositionError(_("laid is true but turn_progress is false: laying is progress"))
        state = state._replace(
            step=OVER,
            winners=blocked_winners(melds),
            ending=TURN_LIMIT,
            laid=laid,
            progress=progress,
        )
    elif data.get("phase") is not None:
        state = _resume(state, data)
    _check_winners(data, state)
    return state


def _dealing(data: JSON, cfg: Config) -> State:
    """A position in the deal (phase ``deal``): each hand as dealt so far one card at a
    time (K2.1), then the bases (K2.2); nothing melded or discarded yet."""
    n = cfg.players
    hands = _per_player(data["hands"], "hands", n, required=True)
    hand_cards = tuple(tuple(sorted(_cards(hands[p], f"hands.{p}"))) for p in range(1, n + 1))
    bases = tuple(_cards(data["bases"], "bases"))
    piles = data["piles"]
    melds_raw = _per_player(data["melds"], "melds", n, required=False)
    melds = [_melds(melds_raw.get(p, []), p, cfg) for p in range(1, n + 1)]
    if piles != [[]] * cfg.piles or any(melds):
        raise PositionError(_("phase deal, but cards lie on the piles or in melds (K2)"))
    count = sum(map(len, hand_cards)) + len(bases)
    sizes = [0] * (n + 1)
    for i in range(count):
        sizes[deal_target(n, i, cfg.hand)] += 1
    if (
        [len(h) for h in hand_cards] != sizes[1:]
        or len(bases) != sizes[0]
        or len(bases) >= cfg.piles
    ):
        raise PositionError(
            _(
                "phase deal: {count} cards dealt one at a time give hands of {sizes} "
                "and {bases} bases, and the deal ends at the fourth base (K2.1, K2.2)",
                count=count,
                sizes=", ".join(map(str, sizes[1:])),
                bases=min(sizes[0], cfg.piles),
            )
        )
    if whole(data["to_act"], 1, 1) is None:
        raise PositionError(_("phase deal: player 1 starts (to_act 1), no counter runs (K2.3)"))
    _count(data, "reshuffles", 0)
    _count(data, "idle_turns", 0)
    for key in ("laid", "turn_progress", "stock_exhausted"):
        if data.get(key, False) is not False:
            raise PositionError(_("phase deal: {key} is false (K2)", key=key))
    stock = tuple(_cards(data["stock"], "stock"))
    stock = _whole_deck([*hand_cards, bases, stock], stock, data, cfg)
    state = new_state(cfg)._replace(hands=hand_cards, bases=bases, stock=stock)
    _check_winners(data, state)
    return state


def _counters(state: State, data: JSON) -> State:
    """The K5.2 counters, each in the range the rules can reach.

    ``stock_exhausted`` is true once the stock has run out (inferred from an empty stock
    when absent); without a reshuffle the stock never grows again, so it is empty then
    and no bigger than after the deal (K2.3; not checked with ``stock_rest``).
    ``reshuffles`` needs option ``reshuffle``
    and an exhausted stock, each one a draw of the game (``max_actions``); ``idle_turns``
    never passes the K5.2 limit (2N once exhausted, else ``stall_limit`` rounds).
    """
    cfg, stock = state.cfg, state.stock
    deal = sum(deck_counts(cfg.half, cfg.ranks, cfg.suits).values())
    limit = action_bound(cfg.players, cfg.half, cfg.stall_turns // cfg.players)
    if not cfg.reshuffle and data.get("reshuffles", 0) != 0:
        shown = describe(data.get("reshuffles"))
        raise PositionError(
            _(
                "reshuffles is {value} but option reshuffle is off: it stays 0 (K5.2)",
                value=shown,
            )
        )
    reshuffles = _count(data, "reshuffles", limit)
    given = data.get("stock_exhausted")
    exhausted = _flag(data, "stock_exhausted") if given is not None else not stock or reshuffles > 0
    if not exhausted and (not stock or reshuffles):
        raise PositionError(
            _("stock_exhausted is false but the stock is empty: it ran out (K5.2)")
            if not stock
            else _("stock_exhausted is false but the stock was reshuffled: it ran out (K5.2)")
        )
    initial = deal - cfg.hand * cfg.players - cfg.piles
    listed = data.get("stock_rest") is not True  # the rest: a hand-written convenience
    if not reshuffles and exhausted and stock:
        raise PositionError(
            _(
                "stock_exhausted is true but the stock has {count} cards: once exhausted "
                "it is refilled only by a reshuffle (K5.2, option reshuffle)",
                count=len(stock),
            )
        )
    if not reshuffles and listed and len(stock) > initial:
        raise PositionError(
            _(
                "the stock has {count} cards: it starts with {initial} and only a "
                "reshuffle refills it once exhausted (K2.3, K5.2, option reshuffle)",
                count=len(stock),
                initial=initial,
            )
        )
    state = state._replace(exhausted=exhausted, reshuffles=reshuffles)
    high = idle_limit(state)
    if exhausted and data.get("turn_progress") is True and data.get("phase") is not None:
        # the stock ran out this turn (a draw from it is progress): the count from before
        # still stands until the turn ends, under the limit of before (K5.2)
        high = max(high, cfg.stall_turns)
    idle = _count(data, "idle_turns", high)
    return state._replace(idle=idle)


def _last_meld_won(melds: tuple[Cards, ...], player: int) -> None:
    """K5.1: the game ends at the fourth čtverka, so one closed meld took it past 3."""
    count = ctverky(melds)
    if not any(len(m) == 4 and count - ctverky((m,)) <= 3 for m in melds):
        raise PositionError(
            _(
                "player {player} has {count} čtverky: the game ended at the fourth (K5.1)",
                player=player,
                count=count,
            )
        )


def _check_winners(data: JSON, state: State) -> None:
    """``winners`` (as :func:`to_json` writes it), when given, follows from the position."""
    given = data.get("winners")
    if given is None:
        return
    if given != list(state.winners) or any(whole(w, 1, state.cfg.players) is None for w in given):
        shown = ", ".join(map(str, state.winners)) or _("none: the game is not won")
        raise PositionError(
            _(
                "winners is {value}; this position's winners are {winners} (K5.1, K5.2)",
                value=describe(given),
                winners=shown,
            )
        )


def _resume(state: State, data: JSON) -> State:
    """The turn in the step ``phase`` names, checked against the hand and the sources."""
    phase = data["phase"]
    if phase not in PHASE_NAMES:
        raise PositionError(
            _(
                "phase must be one of {phases}, not {value}",
                phases=", ".join(PHASE_NAMES),
                value=describe(phase),
            )
        )
    laid, progress = _flag(data, "laid"), _flag(data, "turn_progress")
    if laid and not progress:
        raise PositionError(_("laid is true but turn_progress is false: laying is progress"))
    hand = state.hands[state.player - 1]
    source = has_source(state.stock, state.piles)
    who = state.player
    full = state.cfg.hand
    if phase == "refill" and (len(hand) >= full or not source):
        raise PositionError(
            _(
                "phase refill, but player {player} holds {count} cards or nothing is left",
                player=who,
                count=len(hand),
            )
        )
    if phase == "meld":
        if len(hand) == full and laid:
            raise PositionError(
                _(
                    "laid is true but player {player} holds {n} cards (K4.3)",
                    player=who,
                    n=full,
                )
            )
        if source and (not hand or (len(hand) < full and not laid)):
            raise PositionError(
                _("phase meld, but player {player} must refill first (K4.1)", player=who)
            )
    if phase == "over":
        raise PositionError(_("phase over, but nobody has a čtverák and the game is not blocked"))
    drawing = phase == "draw"  # a stock draw made, its card not come yet (K4.1)
    if drawing and (
        len(hand) >= full or not state.stock or laid or not (progress or state.exhausted)
    ):
        raise PositionError(
            _(
                "phase draw: player {player} drew from the stock, so holds fewer than "
                "{n} cards, the stock has a card, laid is false and turn_progress true "
                "while the stock was never exhausted (K4.1, K5.2)",
                player=who,
                n=full,
            )
        )
    step = PHASE_NAMES.index(phase)
    return state._replace(step=step, laid=laid, progress=progress)


def _flag(data: JSON, key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise PositionError(
            _("{key} must be true or false, not {value}", key=key, value=describe(value))
        )
    return value


def _per_player(raw: Any, key: str, n: int, required: bool) -> dict[int, Any]:
    if not isinstance(raw, dict):
        raise PositionError(
            _("{key} must map player numbers ('1'..'{n}') to lists (K10)", key=key, n=n)
        )
    out: dict[int, Any] = {}
    for name, value in raw.items():
        player = player_key(name, n)
        if player is None:
            raise PositionError(
                _(
                    "{key} names player {value}; this game has players 1-{n}",
                    key=key,
                    value=describe(name),
                    n=n,
                )
            )
        out[player] = value
    lacking = [str(p) for p in range(1, n + 1) if p not in out]
    if required and lacking:
        raise PositionError(
            _("{key} lacks player {players} (K10)", key=key, players=", ".join(lacking))
        )
    return out


def _cards(raw: Any, where: str) -> list[int]:
    if not isinstance(raw, list):
        raise PositionError(_("{where} must be a list of card codes", where=where))
    cards = []
    for item in raw:
        card = parse_card(item) if isinstance(item, str) else None
        if card is None:
            raise PositionError(
                _(
                    "{where}: {value} is not a card, e.g. 7H, TS, X (K1.2)",
                    where=where,
                    value=describe(item),
                )
            )
        cards.append(card)
    return cards


def _melds(raw: Any, player: int, cfg: Config) -> tuple[Cards, ...]:
    if not isinstance(raw, list):
        raise PositionError(_("melds.{player} must be a list of melds", player=player))
    mine: list[Cards] = []
    for number, item in enumerate(raw, 1):
        where = _("melds.{player} meld {number}", player=player, number=number)
        meld = tuple(sorted(_cards(item, where)))
        if len(meld) > 4:
            raise PositionError(
                _(
                    "{where} has {count} cards; a meld never exceeds 4 (K3.2)",
                    where=where,
                    count=len(meld),
                )
            )
        if len(meld) < 2:
            raise PositionError(
                _("{where} has 1 card; a meld starts with 2 or more (K4.2)", where=where)
            )
        problem = meld_problem(cfg, (), meld)
        if problem:
            raise PositionError(
                _(
                    "{where} ({cards}) cannot arise: {problem}",
                    where=where,
                    cards=" ".join(codes(meld)),
                    problem=problem,
                )
            )
        mine.append(meld)
    for key in {meld_key(m) for m in mine}:
        same = [m for m in mine if meld_key(m) == key]
        if sum(len(m) < 4 for m in same) > 1:
            raise PositionError(
                _(
                    "player {player} has two unfinished melds of one rank ({melds}) (K3.3)",
                    player=player,
                    melds=" / ".join(" ".join(codes(m)) for m in same),
                )
            )
        if cfg.distinct_ranks and len(same) > 1:
            raise PositionError(
                _(
                    "player {player} has {count} melds of one rank; option distinct_ranks "
                    "forbids it (K3.3)",
                    player=player,
                    count=len(same),
                )
            )
    return tuple(mine)


def _whole_deck(groups: Sequence[Cards], stock: Cards, data: JSON, cfg: Config) -> Cards:
    """K1.1: the cards of ``groups`` (the stock among them) are the deck, no card more often
    than it has copies and none missing, unless ``stock_rest`` puts the rest in the stock;
    the stock sorted (it has no order: each draw is a chance step)."""
    seen = Counter(c for group in groups for c in group)
    _check_copies(seen, cfg)
    rest = deck_counts(cfg.half, cfg.ranks, cfg.suits) - seen
    if data.get("stock_rest") is True:
        stock += tuple(rest.elements())
    elif rest:
        _refuse_missing(rest, cfg)
    return tuple(sorted(stock))


def _check_copies(seen: Counter[int], cfg: Config) -> None:
    wanted = deck_counts(cfg.half, cfg.ranks, cfg.suits)
    for card, count in sorted(seen.items()):
        if count > wanted[card]:
            raise PositionError(
                _(
                    "{card} appears {count} times; {deck} has {wanted} (K1.1)",
                    card=card_code(card),
                    count=count,
                    deck=_deck(cfg),
                    wanted=wanted[card],
                )
            )


def _refuse_missing(rest: Counter[int], cfg: Config) -> None:
    lacking = sorted(rest.elements())
    shown = " ".join(card_code(c) for c in lacking[:8]) + (" …" if len(lacking) > 8 else "")
    raise PositionError(
        _(
            "{count} cards of {deck} are nowhere ({cards}); every card is in a hand, meld, "
            "pile, base or the stock, or say {rest} (K1.1)",
            count=len(lacking),
            deck=_deck(cfg),
            cards=shown,
            rest='"stock_rest": true',
        )
    )


def _deck(cfg: Config) -> str:
    """The deck of K1.1 in words: ``the half deck`` or ``the full deck``."""
    return _("the half deck") if cfg.half else _("the full deck")


def _count(data: JSON, key: str, high: int) -> int:
    value = data.get(key, 0)
    number = whole(value, 0, high)
    if number is None:
        raise PositionError(
            _(
                "{key} must be a whole number 0-{high} for this game, not {value} (K5.2)",
                key=key,
                high=high,
                value=describe(value),
            )
        )
    return number


# -- views ------------------------------------------------------------------------------
def view(state: State, player: int | None) -> JSON:
    """What ``player`` sees (K8); ``None`` is a spectator. Everything once the game is over."""
    n = state.cfg.players
    over = state.step == OVER
    out: JSON = {
        "players": n,
        "player": player,
        "to_act": None if over else state.player,
        "turn_of": state.player,
        "step": PHASE_NAMES[state.step],
        "discard_owed": state.step == MELD_STEP and owes_discard(state),
        "allows": _allows(state),
        "hand": codes(state.hands[player - 1]) if player is not None else None,
        "hand_sizes": {str(p): len(state.hands[p - 1]) for p in range(1, n + 1)},
        "melds": {str(p): [codes(m) for m in state.melds[p - 1]] for p in range(1, n + 1)},
        "ctverky": {str(p): ctverky(state.melds[p - 1]) for p in range(1, n + 1)},
        "points": {str(p): points(state.melds[p - 1]) for p in range(1, n + 1)},
        "piles": [codes(pile) for pile in state.piles],
        "stock": len(state.stock),
        "laid": state.laid,
        "turn_progress": state.progress,
        "idle_turns": state.idle,
        "stock_exhausted": state.exhausted,
        "reshuffles": state.reshuffles,
        "deck": "half" if state.cfg.half else "full",
    }
    if state.cfg.max_turns:  # option max_turns (research variant): public
        out["turns"] = state.turns
    if state.step == DEAL:  # how many bases lie face down so far (K2.2): public
        out["bases_dealt"] = len(state.bases)
    if over:
        out["winners"] = list(state.winners)
        out["reason"] = reason(state)
        out["bases"] = codes(state.bases)
        out["hands"] = {str(p): codes(state.hands[p - 1]) for p in range(1, n + 1)}
    return out


def _allows(state: State) -> list[str]:
    """What the current step allows, in public terms (never derived from a hidden hand)."""
    if state.step == OVER or state.step in CHANCE_STEPS:
        return []
    if state.step == REFILL:
        sources = ["draw stock"] if state.stock or can_reshuffle(state.cfg, state.piles) else []
        return sources + [f"draw {i}" for i, pile in enumerate(state.piles, 1) if pile]
    close = "discard <card> <pile>" if owes_discard(state) else "end"
    return ["meld <cards>", "add <meld> <cards>", close]


def sample(view: JSON, player: int, cfg: Config, rng: random.Random) -> State:
    """A full state that shows ``player`` exactly ``view``: the cards this player cannot
    see (other hands, bases, stock) dealt at random (the determinisation of ISMCTS)."""
    n = cfg.players
    hand = tuple(sorted(_cards(view["hand"], "hand")))
    melds = tuple(
        tuple(tuple(sorted(_cards(m, "meld"))) for m in view["melds"][str(p)])
        for p in range(1, n + 1)
    )
    piles = tuple(tuple(_cards(pile, "pile")) for pile in view["piles"])
    over = view["step"] == "over"
    shown: dict[int, Cards] = {player: hand}
    bases: Cards = ()
    if over:  # everything but the stock's order is revealed once the game is over
        shown = {p: tuple(sorted(_cards(view["hands"][str(p)], "hand"))) for p in range(1, n + 1)}
        bases = tuple(_cards(view["bases"], "bases"))
    laid_out = [*piles, *(m for mine in melds for m in mine), *shown.values(), bases]
    every = deck_counts(cfg.half, cfg.ranks, cfg.suits)
    pool = sorted((every - Counter(c for g in laid_out for c in g)).elements())
    rng.shuffle(pool)
    hands = []
    for p in range(1, n + 1):
        if p not in shown:
            size = view["hand_sizes"][str(p)]
            shown[p], pool = tuple(sorted(pool[:size])), pool[size:]
        hands.append(shown[p])
    if not over:
        count = view.get("bases_dealt", cfg.piles)
        bases, pool = tuple(pool[:count]), pool[count:]
    step = PHASE_NAMES.index(view["step"])
    ending = ONGOING
    turns = view.get("turns", 0)
    if over:
        limit = 2 * n if view["stock_exhausted"] else cfg.stall_turns
        ending = CTVERAK if any(ctverky(mine) >= 4 for mine in melds) else BLOCKED
        if ending == BLOCKED and cfg.max_turns and turns >= cfg.max_turns:
            ending = BLOCKED if view["idle_turns"] >= limit else TURN_LIMIT
    return State(
        cfg=cfg,
        hands=tuple(hands),
        melds=melds,
        piles=piles,
        bases=bases,
        stock=tuple(sorted(pool)),
        player=view["turn_of"],
        step=step,
        laid=view["laid"],
        progress=view["turn_progress"],
        exhausted=view["stock_exhausted"],
        idle=view["idle_turns"],
        reshuffles=view["reshuffles"],
        winners=tuple(view.get("winners", ())),
        ending=ending,
        turns=turns,
    )
