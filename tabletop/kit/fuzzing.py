"""Hostile input for the conformance kit: action texts and mutated positions.

Two checks any game gets for free (``tabletop check``):

- ``refuse_all``: texts no game takes (Unicode digits, huge integers, invalid UTF-8 as
  lone surrogates, control characters, oversized lines) are each refused with a one-line
  :class:`ActionError` and change nothing.
- ``check_mutant``: a real position (``to_json``) with its types or counters mutated
  (bools and floats for ints, negative, huge, missing and extra keys, wrong nesting,
  swapped players, counters pushed past their range) is either refused with a one-line
  :class:`PositionError` or is a position that plays on to its end with every invariant
  intact (round trip, exact types, legal/outcome agreement, bounded length).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

from tabletop.core.errors import ActionError, PositionError, TabletopError
from tabletop.core.i18n.text import Domain, message_of
from tabletop.core.jsonvalues import describe
from tabletop.core.match import Match
from tabletop.game import CHANCE, JSON, Game
from tabletop.kit.jsonpaths import PathT, places

_ = Domain("tabletop")

MAX_MESSAGE = 2000  # characters of a refusal line
HUGE = 10**5000  # int() and repr() refuse its 5001 digits
UNICODE_DIGITS = "²³¹٣۴५৬๗၈０１２３４５６７８９𝟘𝟙𝟝"
CONTROL = "\x00\x07\x08\x1b\x7f\u200b\u202e\ufeff"


# -- action texts -------------------------------------------------------------------------------
def hostile_texts(rng: random.Random, listed: Sequence[str], huge: bool = True) -> list[str]:
    """Texts that are no action of any game, built from the listed actions (``huge``: with
    the 1 MB and 100 kB lines, the costliest to refuse)."""
    base = rng.choice(listed) if listed else "x 1"
    words = base.split() or ["x"]
    digits = "".join(rng.choice(UNICODE_DIGITS) for _ in range(rng.randrange(1, 3)))
    texts = [
        digits,
        " ".join([*words[:-1], digits]),
        " ".join([*words, digits]),
        "9" * 5000,
        " ".join([*words[:-1], "9" * 5000]),
        " ".join([*words[:-1], "1" + "0" * 30]),
        "-" + "9" * 4400,
        "\udcff",  # b"\xff" decoded with surrogateescape: invalid UTF-8 in a file
        " ".join([*words[:-1], words[-1] + "\udcff"]),
        "\ud800" + base,
        "\x1b[4~",
        " ".join(w + rng.choice(CONTROL) for w in words),
        rng.choice(CONTROL) + base.replace(" ", rng.choice(CONTROL)),
        *(("x" * 1_000_000, base + " " + "y" * 100_000) if huge else ()),
    ]
    return [t for t in texts if t.split() != base.split()]


def refuse_all(match: Match, texts: Sequence[str]) -> str | None:
    """None when every text is refused by one short ActionError line and nothing changes;
    else what went wrong."""
    state, count = match.state, len(match.actions)
    for text in texts:
        shown = describe(text)
        try:
            match.play(text)
        except ActionError as exc:
            reason = exc.reason
            if not reason.strip() or "\n" in reason or "\r" in reason:
                return _("the refusal of {text} is not one line", text=shown)
            if len(reason) > MAX_MESSAGE:
                return _(
                    "the refusal of {text} is {count} characters (at most {most})",
                    text=shown,
                    count=len(reason),
                    most=MAX_MESSAGE,
                )
        except Exception as exc:
            return _("{text} raised {kind}, not ActionError", text=shown, kind=type(exc).__name__)
        else:
            match.undo()
            return _("{text} was accepted as an action", text=shown)
        if len(match.actions) != count or match.state is not state:
            return _("{text} changed the match", text=shown)
    return None


# -- positions ----------------------------------------------------------------------------------
def _dotted(path: PathT) -> str:
    text = "".join(f"[{p}]" if isinstance(p, int) else f".{describe(p)}" for p in path)
    return text.lstrip(".") or "(top)"


def _replacements(value: Any) -> list[tuple[Any, bool]]:
    """Values to put in place of ``value``, each with whether it surely cannot arise
    (a JSON type other than the real one, a negative count or one past any game's length)."""
    if isinstance(value, bool):
        return [(int(value), True), (str(value).lower(), True), (None, False), (not value, False)]
    if isinstance(value, int):
        sure = value >= 0
        return [
            (True, True),
            (False, True),
            (float(value), True),
            (value + 0.5, True),
            (str(value), True),
            ([value], True),
            (-1, sure),
            (-value - 1, sure),
            (10**18, True),
            (HUGE, True),
            (value + 1, False),
            (value * 2 + 7, False),
            (None, False),
        ]
    if isinstance(value, str):
        return [
            (HUGE, True),
            (True, True),
            (1.5, True),
            ([value], True),
            ({value: value} if value else {"zz": 1}, True),
            ("", False),
            ("²", False),
            ("\udcff", False),
            (value + "\x00", False),
            ("z" * 10_000, False),
            (None, False),
        ]
    if value is None:
        return [(0, False), (True, False), ("", False), (10**18, False), ([], False)]
    if isinstance(value, list):
        nested: Any = value
        for _attempt in range(100):
            nested = [nested]
        return [({}, True), ("", True), (nested, True), (value[:-1], False), (value + value, False)]
    if isinstance(value, dict):
        return [([], True), (list(value.values()), True), (7, True), ({}, False)]
    return [(None, False)]


def mutate(data: JSON, rng: random.Random) -> tuple[Any, str, bool]:
    """A copy of a position with one thing changed: (mutant, what changed, surely impossible)."""
    mutant = copy.deepcopy(data)
    spots = list(places(mutant))
    path, value = rng.choice(spots)
    kind = rng.randrange(10)
    parent: Any = mutant
    for key in path[:-1]:
        parent = parent[key]
    if kind == 0 and path:  # a key or an item removed
        del parent[path[-1]]
        return mutant, _("{path} removed", path=_dotted(path)), False
    if kind == 1 and isinstance(value, dict):  # an extra key
        value["zz_extra"] = 1
        return mutant, _("{path} given an extra key", path=_dotted(path)), False
    if kind == 2 and isinstance(value, dict) and len(value) >= 2:  # two entries swapped
        one, two = rng.sample(sorted(value, key=str), 2)
        value[one], value[two] = value[two], value[one]
        what = _(
            "{path}: {one} and {two} swapped",
            path=_dotted(path),
            one=describe(one),
            two=describe(two),
        )
        return mutant, what, False
    new, sure = rng.choice(_replacements(value))
    if not path:
        return new, _("the position replaced by {value}", value=describe(new)), sure
    parent[path[-1]] = new
    return mutant, _("{path} set to {value}", path=_dotted(path), value=describe(new)), sure


def _type_drift(before: Any, after: Any, path: PathT = ()) -> str | None:
    """Where ``after`` holds a bool or float (or a non-text) where real positions hold an
    int (or text): an accepted position must keep the JSON types of the game."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in before.keys() & after.keys():
            found = _type_drift(before[key], after[key], (*path, key))
            if found:
                return found
        return None
    if isinstance(before, list) and isinstance(after, list):
        for index, (one, two) in enumerate(zip(before, after, strict=False)):
            found = _type_drift(one, two, (*path, index))
            if found:
                return found
        return None
    exact_int = isinstance(before, int) and not isinstance(before, bool)
    if exact_int and isinstance(after, bool | float | str):
        return _(
            "{path} became {value} where positions hold whole numbers",
            path=_dotted(path),
            value=describe(after),
        )
    if isinstance(before, str) and isinstance(after, int | float) and after is not None:
        return _(
            "{path} became {value} where positions hold text",
            path=_dotted(path),
            value=describe(after),
        )
    return None


def _exact_player(value: Any, players: int) -> bool:
    return type(value) is int and 1 <= value <= players


def play_on(
    game: Game[Any, Any], state: Any, players: int, options: Any, seed: int, rng: random.Random
) -> str | None:
    """Random legal actions from ``state`` to the end; None when every invariant held."""
    bound = game.info.max_actions(players, options)
    for _attempt in range(bound + 1):
        legal = list(game.legal(state))
        outcome = game.outcome(state)
        who = game.to_act(state)
        if bool(legal) == (outcome is not None):
            return _("legal actions and the outcome disagree on whether the game is over")
        if not legal:
            if who is not None:
                return _("the game is over but to_act is {who}", who=describe(who))
            winners = outcome.winners if outcome else ()
            if len(set(winners)) != len(winners) or not all(
                _exact_player(w, players) for w in winners
            ):
                return _(
                    "the winners {winners} are not distinct players 1-{players}",
                    winners=describe(list(winners)),
                    players=players,
                )
            return None
        step = who == CHANCE or isinstance(who, frozenset)  # the legal check looks closer
        if not step and not _exact_player(who, players):
            return _(
                "to_act is {who}, not a player 1-{players}", who=describe(who), players=players
            )
        action = legal[rng.randrange(len(legal))]
        text = game.format(state, action)
        if not isinstance(who, frozenset) and game.parse(state, text) != action:
            return _("parse(format(action)) differs for {text}", text=describe(text))
        game.view(state, None)
        state = game.apply(state, action)
    return _.plural(
        "no end within {n} action (info.max_actions)",
        "no end within {n} actions (info.max_actions)",
        bound,
    )


def check_mutant(
    game: Game[Any, Any], data: JSON, players: int, options: Any, seed: int, rng: random.Random
) -> tuple[str | None, bool, bool]:
    """Mutate the position ``data`` once and judge how ``from_json`` takes it.

    Returns (failure or None, whether it was accepted, whether it surely cannot arise).
    """
    mutant, what, sure = mutate(data, rng)
    try:
        state = game.from_json(mutant, players, options, seed)
    except PositionError as exc:
        message = str(exc)
        if "\n" in message or "\r" in message or not message.strip():
            said = _("the refusal of a mutated position ({what}) is not one line", what=what)
            return said, False, sure
        if len(message) > MAX_MESSAGE:
            said = _("the refusal of {what} is {count} characters", what=what, count=len(message))
            return said, False, sure
        return None, False, sure
    except Exception as exc:
        said = _(
            "from_json({what}) raised {kind}, not PositionError", what=what, kind=type(exc).__name__
        )
        return said, False, sure
    try:
        written = game.to_json(state)
        drift = _type_drift(data, written)
        if drift:
            return _("from_json accepted {what}: {drift}", what=what, drift=drift), True, sure
        again = game.from_json(copy.deepcopy(written), players, options, seed)
        if game.to_json(again) != written:
            said = _("from_json accepted {what}, but its to_json reads back otherwise", what=what)
            return said, True, sure
        problem: str | None = play_on(game, state, players, options, seed, rng)
    except TabletopError as exc:
        problem = _("{kind}: {reason}", kind=type(exc).__name__, reason=message_of(exc))
    except Exception as exc:
        problem = _("crashed with {kind}", kind=type(exc).__name__)
    if problem:
        return (
            _("from_json accepted {what}, then: {problem}", what=what, problem=problem),
            True,
            sure,
        )
    return None, True, sure
