"""Čtverák's coach: level 5 (the expert) playing on from each legal action, over deals
sampled from the player's own view, with a sentence of why from what that player sees.

For every action the coach plays the expert (:func:`~tabletop_ctverak.agents.expert_policy`,
for every player) from the action until the acting player's next turn begins, on the
same sampled deals for every action (common samples), and scores the end by the game's
evaluation (:func:`~tabletop_ctverak.agents.evaluation.evaluate`; a finished game by its
outcome). The mean is the action's estimated win chance. Samples come from
:meth:`Game.sample` of the view, so no hidden card is ever read; the why-sentences read
only the view (:class:`~tabletop_ctverak.agents.Seen`): "keeps your pair of kings",
"feeds the next player's open meld of sevens".
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable

from pydantic import BaseModel

from tabletop.agents.base import Turn
from tabletop.coach.base import Assessment, Judgement, ranked
from tabletop.game import JSON, Count, Domain, Msg
from tabletop_ctverak.agents import Seen, choose, evaluation, expert_policy
from tabletop_ctverak.agents import hint as advice
from tabletop_ctverak.cards import JOKER, card_code
from tabletop_ctverak.rules import (
    ADD,
    DISCARD,
    DRAW,
    END,
    MELD,
    OVER,
    REFILL,
    STOCK,
    State,
    settled,
)

_ = Domain("tabletop_ctverak")
SAMPLES = 64  # deals sampled a turn unless the budget says otherwise
MIN_SAMPLES = 2  # at least this many, whatever the clock says
HORIZON = 200  # plies at most in one playout (the next turn normally comes far sooner)

# Every sentence a person reads, in one place (for the catalogues).
METHOD = _("level 5 (the expert) playing on over {samples} deals sampled from your view")
PLURALS = (_("aces"), _("twos"), _("threes"), _("fours"), _("fives"), _("sixes"), _("sevens"),
           _("eights"), _("nines"), _("tens"), _("jacks"), _("queens"), _("kings"),
           _("jokers"))  # fmt: skip
STOCK_DRAW = _("draws an unseen card from the stock")
TAKES_JOKER = _("takes the joker on pile {pile}")
TAKES_FOR_MELD = _("takes {card} for your open meld of {rank}")
TAKES_PAIR = _("takes {card}, making a pair of {rank}")
TAKES_MORE = _("takes {card} to go with your {rank}")
TAKES_IDLE = _("takes {card}, which fits nothing of yours")
LAYS_CTVERKA = _("lays a čtverka of {rank}")
STARTS_MELD = _("starts a meld of {rank}")
COMPLETES = _("completes your čtverka of {rank}")
ADDS = _("adds to your meld of {rank}")
ENDS = _("ends the turn, keeping your cards")
FEEDS_NEXT = _("feeds the next player's open meld of {rank}")
FEEDS_JOKER = _("hands the next player a joker")
FEEDS_OTHER = _("fits an opponent's open meld of {rank}")
BREAKS_PAIR = _("breaks your pair of {rank}")
LEAVES_MELD = _("gives up a card your open meld of {rank} wants")
KEEPS_PAIR = _("keeps your pair of {rank}")
COVERS = _("covers {card}, which the next player's meld wants")
EXPERT_PICK = _("level 5's choice")
JOIN = "; "


def rank_plural(card: int) -> str:
    return PLURALS[13 if card == JOKER else card >> 2]


def why(seen: Seen, action: tuple[int, ...]) -> str:
    """A sentence on ``action`` from what the player sees (their hand, the table)."""
    kind = action[0]
    if kind == DRAW:
        return _draw_why(seen, action[1])
    if kind == MELD:
        cards = action[1:]
        natural = next((c for c in cards if c != JOKER), JOKER)
        form = LAYS_CTVERKA if len(cards) == 4 else STARTS_MELD
        return form.format(rank=rank_plural(natural))
    if kind == ADD:
        meld = seen.mine[action[1] - 1]
        natural = next((c for c in meld if c != JOKER), JOKER)
        form = COMPLETES if len(meld) + len(action) - 2 == 4 else ADDS
        return form.format(rank=rank_plural(natural))
    if kind == END:
        return ENDS
    if kind == DISCARD:
        return _discard_why(seen, action[1], action[2])
    return ""


def _draw_why(seen: Seen, source: int) -> str:
    if source == STOCK:
        return STOCK_DRAW
    top = seen.tops[source - 1]
    if top is None:
        return ""
    if top == JOKER:
        return TAKES_JOKER.format(pile=source)
    if top >> 2 in seen.my_open:
        return TAKES_FOR_MELD.format(card=card_code(top), rank=rank_plural(top))
    held = sum(1 for c in seen.hand if c != JOKER and c >> 2 == top >> 2)
    if held:
        form = TAKES_PAIR if held == 1 else TAKES_MORE
        return form.format(card=card_code(top), rank=rank_plural(top))
    return TAKES_IDLE.format(card=card_code(top))


def _discard_why(seen: Seen, card: int, pile: int) -> str:
    notes = []
    if seen.feeds_next(card):
        notes.append(FEEDS_JOKER if card == JOKER else FEEDS_NEXT.format(rank=rank_plural(card)))
    elif card != JOKER and card >> 2 in seen.others_open:
        notes.append(FEEDS_OTHER.format(rank=rank_plural(card)))
    if card != JOKER and card >> 2 in seen.my_open:
        notes.append(LEAVES_MELD.format(rank=rank_plural(card)))
    elif card != JOKER and seen.wanted(card, held=True) == 4:
        notes.append(BREAKS_PAIR.format(rank=rank_plural(card)))
    counts = Counter(c >> 2 for c in seen.hand if c != JOKER)
    kept = [k for k, n in sorted(counts.items()) if n - (card >> 2 == k) >= 2]
    if kept:
        notes.append(KEEPS_PAIR.format(rank=PLURALS[kept[0]]))
    top = seen.tops[pile - 1]
    if top is not None and seen.feeds_next(top):
        notes.append(COVERS.format(card=card_code(top)))
    return Msg.joined(JOIN, notes)


def playout(state: State, player: int, rnd: Callable[[], float]) -> float:
    """The expert for everyone until ``player``'s next turn (or the end): their reward;
    the cards drawn from the stock by chance (``rnd``, K4.1)."""
    left_turn = False
    for _ in range(HORIZON):
        state = settled(state, rnd)
        if state.step == OVER:
            break
        if state.player != player:
            left_turn = True
        elif left_turn and state.step == REFILL:
            break
        state = _apply(state, expert_policy(state))
    if state.step == OVER:
        if not state.winners:
            return 1.0 / state.cfg.players
        return 1.0 / len(state.winners) if player in state.winners else 0.0
    return evaluation.evaluate(state, player)


def _apply(state: State, action: tuple[int, ...]) -> State:
    from tabletop_ctverak.rules import apply

    return apply(state, action)


class CtverakCoach:
    """Judges a turn by the expert playing on (see the module doc), ``samples`` deals."""

    def __init__(self, samples: int = SAMPLES) -> None:
        self.samples = samples
        self.method = METHOD.format(samples=Count(samples, grouped=False))

    def assess(self, turn: Turn) -> Assessment:
        game, player, rng = turn.game, turn.player, turn.rng
        seen = Seen.of(turn.view)
        legal = list(turn.legal)
        pick = choose(seen, legal, expert=True)
        wanted = turn.budget.iterations or self.samples
        seconds = turn.budget.seconds
        deadline = None if seconds is None else time.monotonic() + seconds
        totals = dict.fromkeys(legal, 0.0)
        squares = dict.fromkeys(legal, 0.0)
        done = 0
        if len(legal) > 1:
            last = 0.0  # how long the last deal took: one more must fit in the budget
            while done < wanted:
                started = time.monotonic()
                late = deadline is not None and started + last > deadline
                if done >= MIN_SAMPLES and late:
                    break
                deal = game.sample(turn.view, player, turn.players, turn.options, rng)
                for action in legal:
                    reward = playout(_apply(deal, action), player, rng.random)
                    totals[action] += reward
                    squares[action] += reward * reward
                done += 1
                last = time.monotonic() - started
        base = game.sample(turn.view, player, turn.players, turn.options, rng)
        judged = []
        for action in legal:
            chance = totals[action] / done if done else 1.0 / turn.players
            spread = max(squares[action] / done - chance * chance, 0.0) if done else 0.25
            said = why(seen, action)
            if action == pick:
                said = Msg.joined(JOIN, [s for s in (EXPERT_PICK, said) if s])
            text = game.format(base, action)
            margin = 1.96 * math.sqrt(spread / max(done, 1))
            judged.append(Judgement(action, text, chance, False, None, None, done, said, margin))
        return Assessment(player, ranked(judged), METHOD.format(samples=Count(done, grouped=False)))


def coach(level: str) -> CtverakCoach:
    """Every level's coach is the expert playing on over sampled deals, the number of
    deals growing with the level."""
    return CtverakCoach(samples={"1": 4, "2": 8, "3": 16, "4": 32}.get(level, 64))


def hint(view: JSON, player: int, options: BaseModel) -> str:
    """Advice from the player's own view: useful pile tops, lays, cards not to discard."""
    return advice(view)
