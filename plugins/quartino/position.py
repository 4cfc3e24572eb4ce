"""Positions as JSON (N9) and the players' views (N7).

``to_json`` is the full position (used by ``--reveal``); ``from_json`` reads it back and
refuses, with a PositionError naming the problem, any position that cannot arise.
``view`` is the only door to hidden information: a player sees the board, the supply,
every completed card and their own stand, never another stand nor the cards out of play.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tabletop.game import (
    CHANCE,
    JSON,
    Domain,
    PositionError,
    and_joined,
    describe,
    player_key,
    whole,
)
from tabletop_quartino.cards import (
    COLOURS,
    FIELDS,
    card_colours,
    deck,
)
from tabletop_quartino.rules import (
    NCOLOURS,
    NFIELDS,
    Check,
    Config,
    State,
    owed_text,
    setup,
    start_turn,
)

_ = Domain("tabletop_quartino")
# The pawns' colours in words, translatable (the catalogue has them: the legend's words).
COLOUR_WORDS = (_("yellow"), _("blue"), _("green"), _("pink"))

# What `tabletop rules` says of the position JSON, above an example.
POSITION_KEYS = _("""\
The keys are those of "Position JSON (N9)" above: `board`, `supply`, `stands`,
`done`, `to_act`, `owed`, and the optional `turns`, `batch`, `check`, `out_of_play`.""")


def board_json(s: State, keep_empty: bool) -> dict[str, list[str]]:
    """Field -> colours bottom to top (empty fields only with ``keep_empty``; only the
    fields in play: a research variant's smaller ring has fewer, N1.1)."""
    return {
        FIELDS[f]: [COLOURS[c] for c in stack]
        for f, stack in enumerate(s.board)
        if (stack or keep_empty) and f <= s.cfg.ring
    }


def supply_json(s: State) -> dict[str, int]:
    """Colour -> pawns left in the supply."""
    return {COLOURS[c]: n for c, n in enumerate(s.supply)}


def codes(cards: tuple[int, ...] | list[int]) -> list[str]:
    """Card codes of card ints."""
    d = deck()
    return [d.codes[c] for c in cards]


def out_of_play(s: State) -> list[int]:
    """Cards in no stand and not done (N2.1): never shown while the game runs."""
    dealt = {c for cards in (*s.stands, *s.done) for c in cards}
    return [c for c in range(s.cfg.cards) if c not in dealt]


def check_text(check: Check) -> str:
    """``column: r3 emptied; four colours (G); 3 placements owed``."""
    if not check.situations:
        parts = ["no start check (learning variant)"]
    else:
        parts = []
        if check.columns:
            parts.append(f"column: {', '.join(FIELDS[f] for f in check.columns)} emptied")
        if check.colours:
            parts.append(f"four colours ({', '.join(COLOURS[c] for c in check.colours)})")
        if not parts:
            parts.append("no situation")
    if check.lapsed:
        parts.append("the supply is empty, placements lapse")
    else:
        parts.append(f"{owed_text(check.owed)} owed")
    return "; ".join(parts)


def check_json(check: Check | None) -> JSON | None:
    """The last start check (N4.1) as JSON, with a one-line ``text`` for announcements."""
    if check is None:
        return None
    return {
        "player": check.player,
        "situations": check.situations,
        "column": [FIELDS[f] for f in check.columns],
        "four_colours": [COLOURS[c] for c in check.colours],
        "owed": check.owed,
        "lapsed": check.lapsed,
        "text": check_text(check),
    }


def to_json(s: State) -> JSON:
    """The full position (N9).

    Extra keys, optional on read: ``turns`` (turns ended, N5.2; absent = counted from this
    position), ``batch`` (placements owed when the current batch began), ``check`` (the last
    start check, N4.1); ``out_of_play`` is derived and ignored on read.
    """
    players = range(1, len(s.stands) + 1)
    return {
        "board": board_json(s, keep_empty=False),
        "supply": supply_json(s),
        "stands": {str(p): codes(s.stands[p - 1]) for p in players},
        "done": {str(p): codes(s.done[p - 1]) for p in players},
        "to_act": s.to_act or None,
        "owed": s.owed,
        "turns": s.turns,
        "batch": s.batch,
        "check": _check_record(s.check),
        "out_of_play": codes(out_of_play(s)),
    }


def _check_record(check: Check | None) -> JSON | None:
    data = check_json(check)
    if data is not None:
        del data["text"]
    return data


def view(s: State, player: int | None) -> JSON:
    """What ``player`` may see (N7); ``None`` is a spectator. Once the game is over
    everyone sees everything: every stand and the cards out of play."""
    n = len(s.stands)
    over = not s.to_act
    data: JSON = {
        "players": n,
        "status": "over" if over else "ongoing",
        "to_act": s.to_act or None,
        "winner": s.winner or None,
        "owed": s.owed,
        "batch": s.batch,
        "turns": s.turns,
        "max_turns": s.cfg.max_turns,
        "situations": s.cfg.situations,
        "mirror": s.cfg.mirror,
        "board": board_json(s, keep_empty=True),
        "supply": supply_json(s),
        "check": check_json(s.check),
        "done": {str(p): codes(s.done[p - 1]) for p in range(1, n + 1)},
        "stand_size": {str(p): len(s.stands[p - 1]) for p in range(1, n + 1)},
    }
    if player is not None:
        data["player"] = player
        data["stand"] = codes(s.stands[player - 1])
    if over:
        data["stands"] = {str(p): codes(s.stands[p - 1]) for p in range(1, n + 1)}
        data["out_of_play"] = codes(out_of_play(s))
    return data


# -- reading -------------------------------------------------------------------------


def _mapping(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key)
    if not isinstance(value, Mapping):
        raise PositionError(_("position needs '{key}' as an object (N9)", key=key))
    return value


def _colour(letter: Any, where: str) -> int:
    if not isinstance(letter, str) or letter.upper() not in COLOURS or len(letter) != 1:
        raise PositionError(
            _(
                "unknown colour {value} in {where}; colours are Y, B, G, P",
                value=describe(letter),
                where=where,
            )
        )
    return COLOURS.index(letter.upper())


def _board(data: Mapping[str, Any], cfg: Config) -> tuple[tuple[int, ...], ...]:
    stacks: list[tuple[int, ...]] = [()] * NFIELDS
    for name, stack in _mapping(data, "board").items():
        key = str(name).lower()
        if key not in FIELDS:
            raise PositionError(
                _("unknown field {value} in board; fields are c, r0…r7", value=describe(name))
            )
        if FIELDS.index(key) > cfg.ring and stack:  # N1.1, option ring (research variant)
            raise PositionError(
                _(
                    "field {field} is not on this board: its ring is r0-r{last} "
                    "(N1.1, option ring)",
                    field=key,
                    last=cfg.ring - 1,
                )
            )
        if not isinstance(stack, list):
            raise PositionError(
                _("board field {field} must be a list of colours, bottom to top", field=key)
            )
        where = _("board field {field}", field=key)
        stacks[FIELDS.index(key)] = tuple(_colour(c, where) for c in stack)
    return tuple(stacks)


def _supply(data: Mapping[str, Any], cfg: Config) -> tuple[int, ...]:
    raw = _mapping(data, "supply")
    counts = [0] * NCOLOURS
    for letter, n in raw.items():
        c = _colour(letter, "supply")
        if whole(n, 0, cfg.pawns) is None:
            raise PositionError(
                _(
                    "supply of {colour} must be a count 0…{pawns}, not {value} (N1.2)",
                    colour=COLOURS[c],
                    pawns=cfg.pawns,
                    value=describe(n),
                )
            )
        counts[c] = n
    missing = [ch for ch in COLOURS if ch not in {str(k).upper() for k in raw}]
    if missing:
        raise PositionError(_("supply lacks colour {colours} (N9)", colours=", ".join(missing)))
    return tuple(counts)


def _cards(data: Mapping[str, Any], key: str, players: int, cfg: Config) -> list[list[int]]:
    per_player: list[list[int]] = [[] for _ in range(players)]
    for name, cards in _mapping(data, key).items():
        player = player_key(name, players)
        if player is None:
            raise PositionError(
                _(
                    "'{key}' names player {value}; players are 1…{players}",
                    key=key,
                    value=describe(name),
                    players=players,
                )
            )
        if not isinstance(cards, list):
            raise PositionError(
                _("{key} of player {player} must be a list of card codes", key=key, player=name)
            )
        for code in cards:
            if not isinstance(code, str) or card_colours(code) is None:
                raise PositionError(
                    _(
                        "unknown card {value} in {key} of player {player}",
                        value=describe(code),
                        key=key,
                        player=name,
                    )
                )
            card = deck().index[code.strip().upper()]
            if card >= cfg.cards:  # N1.3, option cards (research variant)
                raise PositionError(
                    _(
                        "{card} is not in this game's deck of {n} cards (N1.3, option cards)",
                        card=code.strip().upper(),
                        n=cfg.cards,
                    )
                )
            per_player[player - 1].append(card)
    return per_player


def from_json(data: Mapping[str, Any], players: int, cfg: Config) -> State:
    """The state of a position JSON (N9); PositionError names what cannot arise.

    ``out_of_play`` is derived (the cards in no stand and not done, N2.1): written for
    ``--reveal`` and ignored when read, as the rules text (README, N9) says, whatever it
    holds and in whatever order.
    """
    return _read(data, players, cfg)


def _read(data: Mapping[str, Any], players: int, cfg: Config) -> State:
    """The state of a position JSON (N9), before the derived keys are compared.

    Without ``owed`` the player to act starts their turn with the start check (N4.1).
    The turn count of N5.2 starts at 0 here. A player may hold fewer than 4 cards (a
    hand-written position may leave some out) but not none (N2.1); who empties their
    stand wins (N5.1). The last start check, when given, is the player to act's.
    """
    if not isinstance(data, Mapping):
        raise PositionError(_("a Quartino position is a JSON object (N9)"))
    board = _board(data, cfg)
    supply = _supply(data, cfg)
    for c in range(NCOLOURS):
        on_board = sum(stack.count(c) for stack in board)
        name = COLOUR_WORDS[c]
        if on_board > cfg.pawns:
            raise PositionError(
                _(
                    "{n} {colour} pawns on the board; there are {pawns} (N1.2)",
                    n=on_board,
                    colour=name,
                    pawns=cfg.pawns,
                )
            )
        if on_board + supply[c] != cfg.pawns:
            raise PositionError(
                _(
                    "{colour} pawns: {board} on the board + {supply} in the supply "
                    "= {total}, not {pawns} (N1.2)",
                    colour=name,
                    board=on_board,
                    supply=supply[c],
                    total=on_board + supply[c],
                    pawns=cfg.pawns,
                )
            )
    stands = _cards(data, "stands", players, cfg)
    done = _cards(data, "done", players, cfg)
    seen: dict[int, str] = {}
    for key, hands in (("stands", stands), ("done", done)):
        for p, cards in enumerate(hands, start=1):
            for card in cards:
                where = _("{key} of player {player}", key=key, player=p)
                if card in seen:
                    code = deck().codes[card]
                    raise PositionError(
                        _(
                            "card {code} is held twice: {first} and {second}",
                            code=code,
                            first=seen[card],
                            second=where,
                        )
                    )
                seen[card] = where
    to_act = data.get("to_act")
    if to_act == CHANCE and not isinstance(to_act, bool):
        return _dealing(data, board, supply, stands, done, cfg)
    for p in range(1, players + 1):
        total = len(stands[p - 1]) + len(done[p - 1])
        if total > cfg.hand:
            raise PositionError(
                _(
                    "player {player} has {total} cards (stand + done); at most {hand} (N2.1)",
                    player=p,
                    total=total,
                    hand=cfg.hand,
                )
            )
        if not total:
            raise PositionError(
                _(
                    "player {player} holds no card: {hand} are dealt to each (N2.1)",
                    player=p,
                    hand=cfg.hand,
                )
            )
    finished = [p for p in range(1, players + 1) if not stands[p - 1]]
    if len(finished) > 1:
        raise PositionError(
            _(
                "players {players} have completed all their cards; the first one ended the "
                "game (N5.1)",
                players=and_joined(map(str, finished)),
            )
        )
    turns = _count(data, "turns", 0, cfg.max_turns, 0)
    if to_act is None:
        if data.get("owed"):
            raise PositionError(_("owed must be 0 when the game is over (to_act null)"))
        if not finished:
            if "turns" in data and turns < cfg.max_turns:
                raise PositionError(
                    _(
                        "to_act is null but nobody won and only {turns} of {max_turns} "
                        "turns have ended (N5.1, N5.2)",
                        turns=turns,
                        max_turns=cfg.max_turns,
                    )
                )
            turns = max(turns, cfg.max_turns)
        winner = finished[0] if finished else 0
        check = _check(data.get("check"), players, cfg)
        return _state(board, supply, stands, done, 0, 0, 0, turns, winner, check, cfg)
    if whole(to_act, 1, players) is None:
        raise PositionError(
            _(
                "to_act must be a player 1…{players} (or null, or -1 during the deal), "
                "not {value}",
                players=players,
                value=describe(to_act),
            )
        )
    if finished:
        raise PositionError(
            _(
                "player {player} has completed all their cards: the game is over and "
                "to_act must be null (N5.1)",
                player=finished[0],
            )
        )
    if turns >= cfg.max_turns:
        raise PositionError(
            _(
                "{turns} turns have ended: with max_turns={max_turns} the game is over (N5.2)",
                turns=turns,
                max_turns=cfg.max_turns,
            )
        )
    if data.get("owed") is None:
        board, supply, owed, first = start_turn(board, supply, to_act, cfg)
        return _state(board, supply, stands, done, to_act, owed, owed, turns, 0, first, cfg)
    owed = _count(data, "owed", 0, 3, 0)
    if owed and not any(supply):
        raise PositionError(_("placements owed with an empty supply cannot arise (N4.2)"))
    batch = _count(data, "batch", owed, 3, owed)
    check = _check(data.get("check"), players, cfg)
    if check is not None and check.player != to_act:
        raise PositionError(
            _(
                "the last start check is player {checked}'s but player {player} is to act: "
                "each turn begins with its player's check (N4.1)",
                checked=check.player,
                player=to_act,
            )
        )
    return _state(board, supply, stands, done, to_act, owed, batch, turns, 0, check, cfg)


def _dealing(
    data: Mapping[str, Any],
    board: tuple[tuple[int, ...], ...],
    supply: tuple[int, ...],
    stands: list[list[int]],
    done: list[list[int]],
    cfg: Config,
) -> State:
    """A position during the deal or the lot (``to_act`` -1, chance, N2): an empty board, a
    full supply, nothing done, the stands dealt in turn (4 to player 1, then to player 2,
    ...), no turn counted; with every card dealt only when the lot is still to come."""
    if (board, supply) != setup(cfg) or any(done):
        if not cfg.one_each:
            raise PositionError(
                _(
                    "during the deal (to_act -1) the board is empty, the supply full, "
                    "nothing done (N2.1)"
                )
            )
        raise PositionError(
            _(
                "during the deal (to_act -1) the board holds one pawn of each colour on "
                "c, r0, r1, r2 (setup=one-each) and nothing is done (N2.1)"
            )
        )
    if data.get("owed") or data.get("turns") or data.get("check") is not None:
        raise PositionError(
            _(
                "during the deal (to_act -1) no turn has begun: owed, turns and check "
                "are empty (N2)"
            )
        )
    sizes = [len(cards) for cards in stands]
    due = next((i for i, n in enumerate(sizes) if n < cfg.hand), len(sizes))
    if any(sizes[due + 1 :]):
        raise PositionError(
            _(
                "the deal gives {hand} cards to player 1, then to player 2, and so on (N2.1)",
                hand=cfg.hand,
            )
        )
    if due == len(sizes) and not cfg.by_lot:
        raise PositionError(
            _("every card is dealt and player 1 starts: to_act must be 1, not -1 (N2.2)")
        )
    hands = tuple(tuple(sorted(cards)) for cards in stands)
    return State(board, supply, hands, ((),) * len(stands), CHANCE, 0, 0, 0, 0, None, cfg)


def _count(data: Mapping[str, Any], key: str, low: int, high: int | None, default: int) -> int:
    """An optional int ``data[key]`` in low…high (absent or null: ``default``)."""
    value = data.get(key)
    if value is None:
        return default
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < low
        or (high is not None and value > high)
    ):
        span = f"{low}…{high}" if high is not None else _("at least {low}", low=low)
        raise PositionError(
            _(
                "{key} must be an integer {span}, not {value}",
                key=key,
                span=span,
                value=describe(value),
            )
        )
    return value


def _check(raw: Any, players: int, cfg: Config) -> Check | None:
    """The recorded last start check (extra key ``check``), validated."""
    if raw is None:
        return None
    bad = PositionError(
        _(
            "check must be the last start check: player, situations, column, "
            "four_colours, owed, lapsed, made with situations={situations} (N4.1)",
            situations=str(cfg.situations).lower(),
        )
    )
    if not isinstance(raw, Mapping):
        raise bad
    player, situations, lapsed = raw.get("player"), raw.get("situations"), raw.get("lapsed")
    column, colours, owed = raw.get("column"), raw.get("four_colours"), raw.get("owed")
    if (
        isinstance(player, bool)
        or not isinstance(player, int)
        or not 1 <= player <= players
        or not isinstance(situations, bool)
        or not isinstance(lapsed, bool)
        or not isinstance(column, list)
        or not all(isinstance(f, str) and f in FIELDS for f in column)
        or not isinstance(colours, list)
        or not all(isinstance(c, str) and c in COLOURS and len(c) == 1 for c in colours)
        or isinstance(owed, bool)
        or not isinstance(owed, int)
        or owed != 1 + bool(colours) + bool(column)
        or situations != cfg.situations
        or (not situations and (column or colours))
    ):
        raise bad
    fields = tuple(sorted({FIELDS.index(f) for f in column}))
    hues = tuple(sorted({COLOURS.index(c) for c in colours}))
    return Check(player, situations, fields, hues, owed, lapsed)


def _state(
    board: tuple[tuple[int, ...], ...],
    supply: tuple[int, ...],
    stands: list[list[int]],
    done: list[list[int]],
    to_act: int,
    owed: int,
    batch: int,
    turns: int,
    winner: int,
    check: Check | None,
    cfg: Config,
) -> State:
    return State(
        board,
        supply,
        tuple(tuple(sorted(cards)) for cards in stands),
        tuple(tuple(cards) for cards in done),
        to_act,
        owed,
        batch,
        turns,
        winner,
        check,
        cfg,
    )


def unseen_cards(view_data: JSON, cards: int = 24) -> list[int]:
    """The cards of a deck of ``cards`` (option cards, N1.3) a player's view does not show
    (neither on their stand nor done), in deck order: the other stands and the cards out
    of play are among them (N7)."""
    seen = set(view_data.get("stand", []))
    for done in view_data.get("done", {}).values():
        seen.update(done)
    return [i for i, code in enumerate(deck().codes[:cards]) if code not in seen]


def sample(view_data: JSON, player: int, players: int, cfg: Config, seed: int) -> State:
    """A full state consistent with ``player``'s view: the other stands are drawn (seeded)
    from the cards that player has not seen (neither on their stand nor done). Once the
    game is over the view shows every stand (N7): then those are the stands."""
    import random

    if "stands" in view_data:
        known: JSON = {
            key: view_data.get(key)
            for key in ("board", "supply", "done", "to_act", "owed", "batch", "turns", "check")
        }
        known["stands"] = {k: list(v) for k, v in view_data["stands"].items()}
        return from_json(known, players, cfg)
    codes = deck().codes
    unseen = [codes[i] for i in unseen_cards(view_data, cfg.cards)]
    random.Random(seed).shuffle(unseen)
    stands: dict[str, list[str]] = {}
    for p in range(1, players + 1):
        if p == player:
            stands[str(p)] = list(view_data.get("stand", []))
        else:
            size = int(view_data.get("stand_size", {}).get(str(p), 0))
            stands[str(p)], unseen = unseen[:size], unseen[size:]
    position: JSON = {
        key: view_data.get(key)
        for key in ("board", "supply", "done", "to_act", "owed", "batch", "turns", "check")
    }
    position["stands"] = stands
    return from_json(position, players, cfg)
