"""The ``fuzz`` check: bad action texts (random strings, near misses of the listed actions,
and :mod:`tabletop.kit.fuzzing`'s hostile texts) are refused in one line, changing nothing."""

from __future__ import annotations

import random
import string
from collections.abc import Sequence
from typing import Any

from tabletop.core.errors import ActionError, one_line
from tabletop.core.i18n.text import Domain
from tabletop.core.match import Match
from tabletop.kit import fuzzing
from tabletop.kit.checks.context import Context, Failed
from tabletop.kit.checks.play import push

_ = Domain("tabletop")

JUNK = string.ascii_letters + string.digits + string.punctuation + " \t\n" + "žčřßΩ€😀\x00\u200b"


def fuzz(ctx: Context, actions: list[Any], rng: random.Random, huge: bool = True) -> None:
    """``ctx.fuzz`` bad texts after ``actions``: each raises a one-line ActionError (or is
    a legal action, undone) and leaves the match as it was (``huge``: the oversized lines
    among the hostile texts too)."""
    game = ctx.game
    match = Match.of(ctx.config, ctx.seed, draw_chance=False)
    for action in actions:
        push(match, action)
    listed = match.listing_text()
    state, count, before = match.state, len(match.actions), game.to_json(match.state)
    texts = fuzz_texts(rng, listed, match.texts, ctx.fuzz)
    ctx.count("fuzz", len(texts) - 1)
    for text in texts:
        try:
            match.play(text)
        except ActionError as exc:
            message = str(exc)
            if not exc.reason.strip() or "\n" in message or "\r" in message:
                raise Failed(
                    _(
                        "the refusal of {text} is not one line: {message}",
                        text=repr(text),
                        message=repr(message),
                    )
                ) from None
        except Exception as exc:
            raise Failed(
                _(
                    "{text} raised {kind}: {reason}, not ActionError",
                    text=repr(text),
                    kind=type(exc).__name__,
                    reason=one_line(str(exc)),
                )
            ) from None
        else:
            match.undo()
        if len(match.actions) != count or match.state is not state:
            raise Failed(_("{text} changed the match", text=repr(text)))
    hostile = fuzzing.hostile_texts(rng, listed, huge)
    ctx.count("fuzz", len(hostile))
    problem = fuzzing.refuse_all(match, hostile)
    if problem:
        raise Failed(problem)
    if game.to_json(state) != before:
        raise Failed(_("the refused actions changed the state"))


def fuzz_texts(
    rng: random.Random, listed: Sequence[str], played: Sequence[str], n: int
) -> list[str]:
    """Random strings and near misses of the listed actions (see the ``fuzz`` check)."""
    vocab = sorted({w for t in [*listed, *played] for w in t.split()}) or ["x"]
    texts = ["", " ", "\n", "a" * 300, *played[-4:]]

    def junk() -> str:
        return "".join(rng.choice(JUNK) for _ in range(rng.randrange(1, 16)))

    def mutate(word: str) -> str:
        if not word:
            return junk()
        index = rng.randrange(len(word))
        char = rng.choice(string.ascii_letters + string.digits + "-_.")
        choice = rng.randrange(5)
        if choice == 0:
            return word[:index] + char + word[index + 1 :]
        if choice == 1:
            return word[:index] + word[index + 1 :]
        if choice == 2:
            return word + char
        if choice == 3:
            return rng.choice(["0", "-1", "16", "99", "z9", "e5", "a0", "1.5"])
        return rng.choice(vocab)

    while len(texts) < n:
        kind = rng.randrange(6)
        base = rng.choice(listed).split() if listed else [junk()]
        if kind == 0:
            texts.append(junk())
        elif kind == 1:
            texts.append(" ".join(rng.choice(vocab) for _ in range(rng.randrange(1, 4))))
        elif kind == 2:  # a word changed
            index = rng.randrange(len(base))
            texts.append(" ".join([*base[:index], mutate(base[index]), *base[index + 1 :]]))
        elif kind == 3:  # extra words
            texts.append(" ".join([*base, *(mutate(rng.choice(vocab)) for _ in range(2))][:6]))
        elif kind == 4:  # a word dropped
            texts.append(" ".join(base[: rng.randrange(len(base))]))
        else:  # an action already played, or the verb of one with another's argument
            if played:
                words = rng.choice(played).split()
                texts.append(" ".join([words[0], *rng.choice(played).split()[1:]]))
            else:
                texts.append(junk())
    return texts[:n]
