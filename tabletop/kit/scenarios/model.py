"""The scenario YAML format as pydantic models (one ``Case`` of ``cases:``, its steps and
expectations), and :func:`cites`, how a refusal is matched to the rule ID a case wants;
the format itself is documented in ``docs/scenarios.md``."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from tabletop.core.i18n.text import Domain

_ = Domain("tabletop")

FORMAT = "tabletop-scenarios/1"
FORMAT_LINE = re.compile(rf"^format:\s*['\"]?{re.escape(FORMAT)}\b", re.MULTILINE)
TOP_KEYS = ("format", "title", "game", "spec_rules", "define", "cases")
RULE_ID = re.compile(r"^[A-Z]+\d+(?:\.\d+)*$")


class _Model(BaseModel):
    # ``do: 15`` and ``rules: [8]`` mean the text "15" and "8"
    model_config = ConfigDict(extra="forbid", frozen=True, coerce_numbers_to_str=True)


class Expect(_Model):
    """What must hold after a step. Only the keys given are checked."""

    status: Literal["ongoing", "over"] | None = Field(None, description="ongoing or over")
    winners: list[int] | None = Field(None, description="the winners; [] for a draw")
    reason: str | None = Field(None, description="a fragment of the outcome's reason")
    to_act: int | list[int] | None = Field(
        None,
        description="the player to act (-1: chance; a list: the players still to choose at "
        "once); null when over",
    )
    legal: list[str] | None = Field(None, description="exactly these legal actions")
    legal_contains: list[str] | None = Field(None, description="these actions are legal")
    legal_excludes: list[str] | None = Field(None, description="these actions are not legal")
    listing: list[str] | None = Field(None, description="exactly these listed actions")
    listing_contains: list[str] | None = Field(None, description="these actions are listed")
    listing_excludes: list[str] | None = Field(None, description="these are not listed")
    scores: dict[int, int] | None = Field(None, description="points per player")
    prompt: str | None = Field(None, description="a fragment of the prompt (what is due)")
    end: str | None = Field(None, description="the outcome's kind (Outcome.kind), e.g. line")
    state: dict[str, Any] | None = Field(None, description="subset of the position JSON")
    view: dict[str, Any] | list[dict[str, Any]] | None = Field(
        None, description="{player: N or null, ...subset of that player's view}"
    )

    @model_validator(mode="after")
    def _views_name_a_player(self) -> Expect:
        for view in as_list(self.view):
            if "player" not in view:
                raise ValueError(_("a view expectation needs 'player: N' (or null for spectator)"))
            player = view["player"]
            if not (player is None or player == "spectator" or type(player) is int):
                raise ValueError(
                    _("view player must be a number or null, not {value}", value=repr(player))
                )
        return self


class Step(_Model):
    """One step: play ``do`` (text or list), or run the clock out, then check ``expect``."""

    do: str | list[str] | None = Field(None, description="action(s) to play, in notation")
    refused: str | None = Field(None, description="the action must be refused citing this")
    time_out: int | None = Field(None, description="this player runs out of time")
    expect: Expect | None = Field(None, description="what must hold after the step")
    note: str = Field("", description="a word for the reader")

    @model_validator(mode="after")
    def _one_kind(self) -> Step:
        if self.refused is not None and not isinstance(self.do, str):
            raise ValueError(_("'refused' needs 'do' with a single action"))
        if self.do is not None and self.time_out is not None:
            raise ValueError(_("a step has either 'do' or 'time_out', not both"))
        if self.do is None and self.time_out is None and self.expect is None:
            raise ValueError(_("an empty step: give 'do', 'time_out' or 'expect'"))
        return self


class Case(_Model):
    """One scenario: game, options, players, seed, a start, and steps."""

    name: str = Field(description="what the case shows, in a few words (unique in the file)")
    rules: list[str] = Field([], description="rule IDs the case covers")
    note: str = Field("", description="a word for the reader")
    game: str | None = Field(None, description="game id (default: the file's 'game')")
    options: dict[str, Any] = Field({}, description="game options (default: the defaults)")
    players: int | None = Field(None, description="player count (default: the minimum)")
    seed: int = Field(0, description="the seed of the game")
    position: dict[str, Any] | None = Field(None, description="start: the position JSON")
    actions: list[str] = Field([], description="start: actions played first (after position)")
    steps: list[Step] = Field([], description="the steps, checked in order")
    rest_in: str | None = Field(
        None,
        description="with 'position': the list (a dotted path, e.g. stock) that takes the "
        "cards of the seeded start the position does not place",
    )
    impossible: str | None = Field(
        None, description="the position must be refused as impossible, citing this"
    )
    setup_refused: str | None = Field(
        None, description="the game must refuse these options and players, citing this"
    )

    @model_validator(mode="after")
    def _steps_or_impossible(self) -> Case:
        if self.rest_in is not None and self.position is None:
            raise ValueError(_("'rest_in' needs a 'position' (the cards it places)"))
        if self.setup_refused is not None:
            if self.impossible is not None or self.position or self.steps or self.actions:
                raise ValueError(
                    _(
                        "'setup_refused' takes 'options' and 'players' only: no 'position', "
                        "'actions', 'steps' or 'impossible'"
                    )
                )
        elif self.impossible is None:
            if not self.steps:
                raise ValueError(
                    _(
                        "no steps: give 'steps' (or 'impossible' with a 'position', "
                        "or 'setup_refused')"
                    )
                )
        elif self.position is None or self.steps or self.actions:
            raise ValueError(_("'impossible' needs a 'position' and no 'steps' or 'actions'"))
        return self


NESTED: dict[str, type[BaseModel]] = {"steps": Step, "expect": Expect}


def as_list(value: dict[str, Any] | list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def cites(message: str, wanted: str) -> bool:
    """Whether a refusal ``message`` cites ``wanted``: a rule ID as a whole word, or else a
    case-insensitive fragment."""
    if RULE_ID.match(wanted):
        pattern = rf"(?<![\w.]){re.escape(wanted)}(?![\w]|\.\d)"
        return re.search(pattern, message) is not None
    return wanted.lower() in message.lower()
