"""What each viewer may be told of the actions of a match: whether an action showed its
actor something hidden (:func:`reveals`, for undo), whether a viewer may read an action's
text (:func:`told`), how it is said when told (:func:`spoken`: the game's words in the
reader's language) and what is said instead (:func:`unseen`, :func:`shown_text`).
"""

from __future__ import annotations

import random

from tabletop.core.i18n.text import Domain, Msg
from tabletop.core.match import Match
from tabletop.core.presentation import presentation_of
from tabletop.core.shapes import CHANCE

_ = Domain("tabletop")

SAMPLES = 4
HIDDEN_ACTION = _("a hidden action")


def reveals(match: Match, index: int, player: int) -> bool:
    """Whether action ``index`` showed ``player`` something they could not know before.

    Generic test: apply the action to a few states sampled from the player's view before
    it; if the player's view afterwards differs between them, it depended on hidden parts.
    """
    game = match.game
    before, action = match.states[index], match.actions[index]
    if match.groups[index] != index or match.actors[index] == CHANCE:
        return True  # a joint action or a chance outcome: never taken back in any case
    view = game.view(before, player)
    seen = game.view(match.states[index + 1], player)
    rng = random.Random(index)
    for _ in range(SAMPLES):
        try:
            sample = game.sample(view, player, match.players, match.options, rng)
            if game.view(game.apply(sample, action), player) != seen:
                return True
        except Exception:  # a game that cannot sample: be safe, count it as revealing
            return True
    return False


def told(match: Match, index: int, viewer: int | None, now: int | None = None) -> bool:
    """Whether ``viewer`` may be told the text of action ``index`` (e.g. as 'the last
    action of player 2', or in the game log): always for perfect information and for the
    actor; otherwise when the text follows from what ``viewer`` saw before and after it,
    or names nothing ``viewer`` does not know.

    Generic test, in a few states sampled from the viewer's view before the action: the
    text follows when no other action text leads to the viewer's view after it (a meld, a
    discard, a placement); it names nothing hidden when it is a legal action's text in
    every sample (``end``, ``draw stock``). A false claim naming a card of a hidden stand
    is neither (any other false claim would look the same, and the card is not in every
    sample), so it is not told; since a card can land in the actor's hand in every
    sample late in a game, a game says so for sure with :meth:`Game.hides`, asked first.
    A spectator (``viewer`` None) sees less than every player: the states are sampled
    from each other player's view in turn and compared by what a spectator sees.
    ``now``: as it was told once ``now`` actions had been played (a replay), else today.
    """
    game = match.game
    before = match.states[index]
    actor = match.actors[index]
    reached = match.state if now is None else match.states[now]
    said = game.tells(before, match.actions[index], actor, viewer, reached)
    if said is not None:
        return said
    if not game.info.hidden_information or viewer == actor:
        return True
    if actor == CHANCE or isinstance(game.to_act(before), frozenset):
        return False  # a card drawn, a sealed choice: the game says when it is shown
    if game.hides(before, match.actions[index]):
        return False
    if viewer is None:
        others = [p for p in range(1, match.players + 1) if p != actor]
        return bool(others) and all(_sampled_told(match, index, p, None) for p in others)
    return _sampled_told(match, index, viewer, viewer)


def unseen(match: Match, index: int) -> str | Msg:
    """What is said of action ``index`` to whoever is not told its text: the game's own
    sentence (its render module's ``unseen_text(state, action)``: "player 2 drew a
    card"), else "a hidden action"."""
    state, action = match.states[index], match.actions[index]
    said = presentation_of(match.game).unseen_text(state, action)
    return HIDDEN_ACTION if said is None else said


def spoken(match: Match, index: int) -> str:
    """Action ``index`` in the reader's words (the game's ``action_text``, a message
    translated where it is shown; the notation where the game has none): for whoever
    is told it (:func:`told`)."""
    state, action = match.states[index], match.actions[index]
    return presentation_of(match.game).action_text(state, action)


def shown_text(match: Match, index: int, viewer: int | None, now: int | None = None) -> str | Msg:
    """What ``viewer`` (None: a spectator) reads of action ``index``: its words when told
    (:func:`told`, as of ``now`` actions played when given; :func:`spoken`), else
    :func:`unseen`."""
    return spoken(match, index) if told(match, index, viewer, now) else unseen(match, index)


def _sampled_told(match: Match, index: int, sampler: int, viewer: int | None) -> bool:
    """The test of :func:`told` on states sampled from ``sampler``'s view before action
    ``index``, comparing what ``viewer`` sees after it."""
    game = match.game
    text = match.texts[index]
    view = game.view(match.states[index], sampler)
    after = game.view(match.states[index + 1], viewer)
    rng = random.Random(index)
    follows = public = True
    for _ in range(SAMPLES):
        try:
            sample = game.sample(view, sampler, match.players, match.options, rng)
            texts = [(game.format(sample, a), a) for a in game.legal(sample)]
            public = public and any(t == text for t, _ in texts)
            if follows:
                follows = not any(
                    t != text and game.view(game.apply(sample, a), viewer) == after
                    for t, a in texts
                )
        except Exception:  # a game that cannot sample: be safe, tell nothing
            return False
        if not (follows or public):
            return False
    return True
