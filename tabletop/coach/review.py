"""A game reviewed: every action judged from the view its player had when acting.

For action *n* the coach assesses the turn its player faced (:func:`turn_for`: their
view only, never cards they could not see). ``before`` is the best action's win chance
(the position's value for that player), ``after`` the chosen action's, both from that
one assessment, so nothing revealed by the action itself (a card drawn) is used. The
verdict (thresholds in ``docs/coach.md``):

- exact, both values proven (Quarto's solver): ``best`` when the value is the best's,
  as fast a win or as long a resistance, ``good`` for the same value otherwise, and
  ``blunder`` when it changes the solved value (a win thrown to a draw or a loss, a
  draw to a loss);
- the action played proven, the best only estimated: ``blunder`` (exact) when another
  action is proven better, else ``good``: an estimate never condemns a proven value (a
  perfect player's move is never a mistake);
- otherwise by the win chance lost, ``before - after`` rounded to thousandths (as
  shown): ``best`` for the coach's first choice, ``good`` below :data:`GOOD` or while
  the two estimates' 95% intervals overlap (``margin``, the sum of their margins: what
  they cannot tell apart; Quarto's coach gives its unsettled estimates ±50%),
  ``inaccuracy`` below :data:`INACCURACY`, ``mistake`` below :data:`MISTAKE`, else
  ``blunder``.

A player's accuracy is the share of their actions judged ``best`` or ``good``, forced
ones (a single legal action) left out.

A review is read by someone (``reader``: a seat, or None for a spectator) and never
shows them more than they saw (rule of hidden information, docs/coach.md "Who reads a
review"). In a game of perfect information every action is judged for every reader. In a
game with hidden information a judgement rests on the actor's view (their cards), so only
the reader's own actions are judged; another player's action is listed as the reader was
told it then (:func:`tabletop.core.table.told`, else "a hidden action") and marked
``unseen``: no best action, no values, nothing counted in the summary.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tabletop.agents.base import Budget
from tabletop.coach.base import Assessment, Coach, Judgement
from tabletop.coach.choose import in_words, turn_for
from tabletop.coach.hints import margin
from tabletop.core.i18n.text import Domain
from tabletop.core.match import Match
from tabletop.game import CHANCE, JSON

_ = Domain("tabletop")

GOOD = 0.05
INACCURACY = 0.10
MISTAKE = 0.20
VERDICTS = ("best", "good", "inaccuracy", "mistake", "blunder")
UNSEEN = "unseen"  # another player's action in a hidden-information game: not judged


@dataclass(frozen=True)
class Reviewed:
    """One action of the game as the coach judged it (``why``: the game's sentence on the
    action played, ``best_why`` on the best)."""

    number: int
    player: int
    action: str
    best: str
    before: float
    after: float
    verdict: str
    exact: bool
    forced: bool = False
    why: str = ""
    best_why: str = ""
    judged: bool = True
    margin: float = 0.0  # an estimate's 95% margin (0 when exact)
    said: str = ""  # ``action`` in the reader's words (the game's ``action_text``)
    best_said: str = ""  # ``best`` likewise

    def json(self) -> JSON:
        """The entry of ``tabletop review --json`` (exactly the issue's keys: the actions
        in notation); an unseen action has no best action and no values (null)."""
        if not self.judged:
            return {
                "number": self.number,
                "player": self.player,
                "action": self.action,
                "best": None,
                "before": None,
                "after": None,
                "verdict": UNSEEN,
                "exact": False,
                "forced": False,
                "margin": None,
            }
        return {
            "number": self.number,
            "player": self.player,
            "action": self.action,
            "best": self.best,
            "before": round(self.before, 3),
            "after": round(self.after, 3),
            "verdict": self.verdict,
            "exact": self.exact,
            "forced": self.forced,
            "margin": None if self.exact else round(self.margin, 3),
        }


def margin_of(j: Judgement) -> float:
    """The 95% margin of an estimated judgement (its own, else from its playouts as a
    hint shows it); 0 for an exact one."""
    if j.exact:
        return 0.0
    if j.margin is not None:
        return j.margin
    return margin(j.chance, j.visits)


def verdict(assessment: Assessment, action: Any) -> tuple[str, bool]:
    """The verdict on playing ``action`` and whether it is exact (see the module doc)."""
    best, chosen = assessment.best, assessment.of(action)
    exact = best.exact and chosen.exact
    if exact:
        if chosen.value != best.value or abs(chosen.chance - best.chance) > 1e-9:
            return "blunder", True
        same = chosen.action == best.action or chosen.moves == best.moves
        return ("best" if same else "good"), True
    if chosen.action == best.action:
        return "best", False
    if chosen.exact:
        # Proven itself, compared with estimates: only a proven better value condemns it.
        proven = [j.chance for j in assessment.judgements if j.exact]
        if max(proven) > chosen.chance + 1e-9:
            return "blunder", True
        return "good", False
    lost = round(best.chance - chosen.chance, 3)  # as the JSON shows the chances
    if lost < GOOD or lost <= margin_of(best) + margin_of(chosen):
        return "good", False  # the two intervals overlap: the estimates cannot tell
    if lost < INACCURACY:
        return "inaccuracy", False
    if lost < MISTAKE:
        return "mistake", False
    return "blunder", False


def judge(number: int, assessment: Assessment, action: Any, forced: bool) -> Reviewed:
    """Action ``number`` (``action``, judged in ``assessment``) as a review entry."""
    best, chosen = assessment.best, assessment.of(action)
    said, exact = verdict(assessment, action)
    return Reviewed(
        number,
        assessment.player,
        chosen.text,
        best.text,
        best.chance,
        chosen.chance,
        said,
        exact,
        forced,
        chosen.why,
        best.why,
        margin=0.0 if exact else margin_of(best) + margin_of(chosen),
        said=chosen.said,
        best_said=best.said,
    )


def judged_for(match: Match, index: int, reader: int | None) -> bool:
    """Whether ``reader`` (a seat, None for a spectator) may read the judgement of action
    ``index``: always in a game of perfect information, else only for their own action
    (the judgement rests on the actor's cards)."""
    game = match.game
    if not game.info.hidden_information:
        return True
    return reader is not None and game.to_act(match.states[index]) == reader


def unseen(match: Match, index: int, reader: int | None) -> Reviewed:
    """Action ``index`` as ``reader`` was told it, not judged (see the module doc)."""
    from tabletop.core.table import shown_text

    player = match.actors[index]
    text = shown_text(match, index, reader)
    return Reviewed(index + 1, player, text, "", 0.0, 0.0, UNSEEN, False, judged=False)


def review(
    match: Match,
    coach: Coach,
    budget: Budget | None = None,
    progress: Callable[[int, int], None] | None = None,
    reader: int | None = None,
) -> list[Reviewed]:
    """Every action of ``match`` as ``reader`` (a seat; None: a spectator) may read it:
    judged by ``coach`` from its player's view then where :func:`judged_for`, else
    :func:`unseen`; ``progress(done, total)`` after each."""
    game = match.game
    total = len(match.actions)
    entries = []
    for index, action in enumerate(match.actions):
        if match.actors[index] == CHANCE or not judged_for(match, index, reader):
            entries.append(unseen(match, index, reader))
            if progress is not None:
                progress(index + 1, total)
            continue
        state = match.states[index]
        turn = turn_for(game, state, match.players, match.options, budget, match.actors[index])
        forced = len(turn.legal) == 1
        assessment = in_words(coach.assess(turn), game, state)
        entries.append(judge(index + 1, assessment, action, forced))
        if progress is not None:
            progress(index + 1, total)
    return entries


def summary(entries: list[Reviewed], players: int) -> JSON:
    """Per player (keys ``"1"``...) with an action judged: actions, forced ones, each
    verdict's count and the accuracy in percent (best or good among the unforced; null
    when none). Unseen actions count for nothing (a player with none judged is left out)."""
    out: JSON = {}
    for player in range(1, players + 1):
        if any(e.player == player and not e.judged for e in entries):
            continue  # (in a game with hidden information: another player)
        mine = [e for e in entries if e.player == player]
        free = [e for e in mine if not e.forced]
        counts = {name: sum(1 for e in free if e.verdict == name) for name in VERDICTS}
        sound = counts["best"] + counts["good"]
        accuracy = round(100.0 * sound / len(free), 1) if free else None
        out[str(player)] = {
            "actions": len(mine),
            "forced": len(mine) - len(free),
            **counts,
            "accuracy": accuracy,
        }
    return out
