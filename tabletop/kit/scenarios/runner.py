"""Running one scenario case through the core's checked path (:class:`Match`): its
:class:`CaseResult` and the diff-like report the CLI and pytest print."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from tabletop.core import options as opts
from tabletop.core.errors import ActionError, NotationError, PositionError, TabletopError, one_line
from tabletop.core.match import Match
from tabletop.core.registry import Registry, registry
from tabletop.core.setup import player_count
from tabletop.game import Game
from tabletop.kit.scenarios.deal import DealError, deal_rest
from tabletop.kit.scenarios.loader import LoadedCase, broken
from tabletop.kit.scenarios.model import RULE_ID, Case, Expect, Step, as_list
from tabletop.kit.scenarios.subset import Mismatch, show, subset_diff


@dataclass(frozen=True)
class StepFailure:
    """Why a step failed: a headline and the differences found."""

    step: int
    line: int
    action: str
    message: str
    mismatches: tuple[Mismatch, ...] = ()


@dataclass(frozen=True)
class CaseResult:
    """The verdict on one case: passed, failed (the game disagrees) or error (bad case)."""

    case: LoadedCase
    status: Literal["passed", "failed", "error"]
    failures: tuple[StepFailure, ...] = ()
    error: str | None = None
    crash: BaseException | None = None

    @property
    def ok(self) -> bool:
        """True when the case passed."""
        return self.status == "passed"

    def report(self) -> list[str]:
        """The diff-like report (plain lines; ``-`` expected, ``+`` actual)."""
        case = self.case
        if self.status == "error":
            return [self.error or "error"]
        lines: list[str] = []
        for failure in self.failures:
            action = f": {failure.action}" if failure.action else ""
            lines.append(f"{case.path}:{failure.line}: case {case.name!r}, {failure.message}")
            if failure.step:
                lines.append(f"  step {failure.step}{action}")
            for mis in failure.mismatches:
                lines.append(f"    {mis.where}")
                lines.append(f"      - expected: {mis.expected}")
                lines.append(f"      + actual:   {mis.actual}")
        if case.case and case.case.rules:
            lines.append(f"  rules: {', '.join(case.case.rules)}")
        return lines


class _Stop(Exception):
    """A step failed; the case cannot go on (later steps depend on it)."""

    def __init__(self, failure: StepFailure) -> None:
        super().__init__(failure.message)
        self.failure = failure


class _CaseError(Exception):
    """The case itself is wrong (unknown game or action, impossible position, ...)."""

    def __init__(self, key: Sequence[str | int], message: str) -> None:
        super().__init__(message)
        self.key = key
        self.message = message


def cites(message: str, wanted: str) -> bool:
    """Whether a refusal ``message`` cites ``wanted``: a rule ID as a whole word, or else a
    case-insensitive fragment."""
    if RULE_ID.match(wanted):
        pattern = rf"(?<![\w.]){re.escape(wanted)}(?![\w]|\.\d)"
        return re.search(pattern, message) is not None
    return wanted.lower() in message.lower()


def run_case(loaded: LoadedCase, games: Registry | None = None) -> CaseResult:
    """Play one case through the checked path and check every step's expectations."""
    if loaded.case is None or loaded.game is None:
        return CaseResult(loaded, "error", error=loaded.error)
    runner = _Runner(loaded, loaded.case, games or registry())
    try:
        if loaded.case.impossible is not None:
            return runner.impossible(loaded.case.impossible)
        if loaded.case.setup_refused is not None:
            return runner.setup_refused(loaded.case.setup_refused)
        runner.setup()
    except _CaseError as exc:
        return CaseResult(loaded, "error", error=broken(loaded, exc.message, exc.key).error)
    except TabletopError as exc:
        return CaseResult(loaded, "error", error=broken(loaded, one_line(str(exc))).error)
    except Exception as exc:
        message = f"the game crashed while setting up: {type(exc).__name__}: {one_line(str(exc))}"
        return CaseResult(loaded, "failed", (StepFailure(0, loaded.line, "", message),), crash=exc)
    for number, step in enumerate(loaded.case.steps, start=1):
        try:
            runner.step(number, step)
        except _Stop as stop:
            return CaseResult(loaded, "failed", (stop.failure,))
        except _CaseError as exc:
            return CaseResult(loaded, "error", error=broken(loaded, exc.message, exc.key).error)
        except Exception as exc:
            line = loaded.lines.line(("cases", loaded.index, "steps", number - 1))
            message = f"the game crashed: {type(exc).__name__}: {one_line(str(exc))}"
            failure = StepFailure(number, line, _step_text(step), message)
            return CaseResult(loaded, "failed", (failure,), crash=exc)
    return CaseResult(loaded, "passed")


def _step_text(step: Step) -> str:
    if step.time_out is not None:
        return f"(player {step.time_out} runs out of time)"
    if isinstance(step.do, list):
        return ", ".join(step.do)
    return step.do or "(check only)"


class _Runner:
    """The state of one case while it runs."""

    def __init__(self, loaded: LoadedCase, case: Case, games: Registry) -> None:
        self.loaded = loaded
        self.case = case
        self.games = games
        self.match: Match

    def setup(self) -> None:
        case = self.case
        try:
            game = self.games.get(self.loaded.game or "")
        except TabletopError as exc:
            raise _CaseError(("game",), one_line(str(exc))) from None
        info = game.info
        try:
            options = opts.build(info.options, case.options, info.id)
        except TabletopError as exc:
            raise _CaseError(("options",), one_line(str(exc))) from None
        players = info.min_players if case.players is None else case.players
        if not info.min_players <= players <= info.max_players:
            raise _CaseError(
                ("players",),
                f"{info.id} takes {info.min_players}-{info.max_players} players, not {players}",
            )
        position = case.position
        if position is not None and case.rest_in is not None:
            try:
                position = deal_rest(game, players, options, case.seed, position, case.rest_in)
            except DealError as exc:
                raise _CaseError(("rest_in",), str(exc)) from None
        try:
            self.match = Match(game, players, options, case.seed, position)
        except PositionError as exc:
            raise _CaseError(("position",), f"impossible position: {one_line(str(exc))}") from None
        for index, text in enumerate(case.actions):
            try:
                self.match.play(text)
            except ActionError as exc:
                raise _CaseError(
                    ("actions", index), f"setup action {index + 1} {text!r} refused: {exc.reason}"
                ) from None

    def impossible(self, wanted: str) -> CaseResult:
        """The case's position must be refused (PositionError) citing ``wanted``."""
        loaded = self.loaded
        line = loaded.lines.line(("cases", loaded.index, "impossible"))
        try:
            self.setup()
        except _CaseError as exc:
            if exc.key != ("position",):
                error = broken(loaded, exc.message, exc.key).error
                return CaseResult(loaded, "error", error=error)
            if cites(exc.message, wanted):
                return CaseResult(loaded, "passed")
            message = "the position was refused, but not for the expected reason"
            actual = exc.message.removeprefix("impossible position: ")
        else:
            message = "the position was accepted, but it must be refused as impossible"
            actual = "accepted"
        mismatch = Mismatch("impossible", f"a refusal citing {wanted!r}", actual)
        return CaseResult(loaded, "failed", (StepFailure(0, line, "", message, (mismatch,)),))

    def setup_refused(self, wanted: str) -> CaseResult:
        """The case's options and players must be refused (by ``opts.build``, the player
        count or the game's ``new``) with a message citing ``wanted``."""
        loaded, case = self.loaded, self.case
        line = loaded.lines.line(("cases", loaded.index, "setup_refused"))
        try:
            game = self.games.get(loaded.game or "")
        except TabletopError as exc:
            return CaseResult(
                loaded, "error", error=broken(loaded, one_line(str(exc)), ("game",)).error
            )
        info = game.info
        players = info.min_players if case.players is None else case.players
        try:
            options = opts.build(info.options, case.options, info.id)
            player_count(game, players)
            game.new(players, options, case.seed)
        except TabletopError as exc:
            refusal = one_line(str(exc))
            if cites(refusal, wanted):
                return CaseResult(loaded, "passed")
            message = "the set-up was refused, but not for the expected reason"
        else:
            message = "the set-up was accepted, but it must be refused"
            refusal = "accepted"
        mismatch = Mismatch("setup_refused", f"a refusal citing {wanted!r}", refusal)
        return CaseResult(loaded, "failed", (StepFailure(0, line, "", message, (mismatch,)),))

    @property
    def game(self) -> Game[Any, Any]:
        return self.match.game

    def _line(self, number: int, *key: str | int) -> int:
        return self.loaded.lines.line(("cases", self.loaded.index, "steps", number - 1, *key))

    def step(self, number: int, step: Step) -> None:
        text = _step_text(step)
        line = self._line(number)

        def stop(message: str, *mismatches: Mismatch, key: str = "") -> _Stop:
            at = self._line(number, key) if key else line
            return _Stop(StepFailure(number, at, text, message, tuple(mismatches)))

        match = self.match
        if step.time_out is not None:
            if not 1 <= step.time_out <= match.players:
                raise _CaseError(("steps", number - 1, "time_out"), "no such player")
            match.lose_on_time(step.time_out)
        elif step.refused is not None and isinstance(step.do, str):
            self._refused(step.do, step.refused, stop)
        elif step.do is not None:
            for action in [step.do] if isinstance(step.do, str) else step.do:
                try:
                    match.play(action)
                except ActionError as exc:
                    raise stop(
                        f"action {action!r} was refused",
                        Mismatch("do", f"{action!r} is played", f"refused: {exc.reason}"),
                    ) from None
        if step.expect is not None:
            mismatches = self._expect(number, step.expect)
            if mismatches:
                raise stop("expectations not met", *mismatches, key="expect")

    def _snapshot(self) -> tuple[Any, ...]:
        match = self.match
        outcome = match.outcome()
        return (self.game.to_json(match.state), len(match.actions), match.to_act(), outcome)

    def _refused(self, text: str, wanted: str, stop: Any) -> None:
        match = self.match
        before = self._snapshot()
        try:
            match.play(text)
        except ActionError as exc:
            message = str(exc)
            if not cites(message, wanted):
                raise stop(
                    "refused, but not for the expected reason",
                    Mismatch("refused", f"a refusal citing {wanted!r}", message),
                    key="refused",
                ) from None
            after = self._snapshot()
            if after != before:
                changed = subset_diff(before[0], after[0], "state") or [
                    Mismatch("match", show(before[1:]), show(after[1:]))
                ]
                raise stop("the refused action changed the state", *changed) from None
            return
        raise stop(
            "the action was played, but it must be refused",
            Mismatch("refused", f"a refusal citing {wanted!r}", f"played as {match.texts[-1]!r}"),
            key="refused",
        )

    def _expect(self, number: int, expect: Expect) -> list[Mismatch]:
        match, game = self.match, self.game
        state = match.state
        given = expect.model_fields_set
        found: list[Mismatch] = []
        outcome = match.outcome()
        if "status" in given:
            status = "ongoing" if outcome is None else "over"
            if status != expect.status:
                found.append(Mismatch("status", show(expect.status), show(status)))
        if "winners" in given:
            winners = sorted(outcome.winners) if outcome else None
            wanted = sorted(expect.winners or [])
            if winners != wanted:
                found.append(Mismatch("winners", show(wanted), show(winners)))
        if "reason" in given and expect.reason is not None:
            reason = outcome.reason if outcome else "(the game is not over)"
            if expect.reason.lower() not in reason.lower():
                found.append(Mismatch("reason", f"contains {expect.reason!r}", show(reason)))
        if "end" in given:
            kind = outcome.kind if outcome else None
            if kind != expect.end:
                found.append(Mismatch("end", show(expect.end), show(kind)))
        if "prompt" in given and expect.prompt is not None:
            prompt = game.prompt(state)
            if expect.prompt.lower() not in prompt.lower():
                found.append(Mismatch("prompt", f"contains {expect.prompt!r}", show(prompt)))
        if "to_act" in given and match.to_act() != expect.to_act:
            found.append(Mismatch("to_act", show(expect.to_act), show(match.to_act())))
        found.extend(self._actions(number, expect))
        if "scores" in given and expect.scores is not None:
            scores = game.scores(state)
            got = None if scores is None else {str(k): v for k, v in scores.items()}
            want = {str(k): v for k, v in expect.scores.items()}
            if got is None or any(got.get(k) != v for k, v in want.items()):
                found.append(Mismatch("scores", show(want), show(got)))
        if expect.state is not None:
            found.extend(subset_diff(expect.state, game.to_json(state), "state"))
        for wanted_view in as_list(expect.view):
            player = wanted_view["player"]
            seat = None if player in (None, "spectator") else int(player)
            if seat is not None and not 1 <= seat <= match.players:
                key = ("steps", number - 1, "expect", "view")
                raise _CaseError(key, f"view of player {seat}: no such player")
            subset = {k: v for k, v in wanted_view.items() if k != "player"}
            label = "view" if seat is None else f"view[{seat}]"
            found.extend(subset_diff(subset, game.view(state, seat), label))
        return found

    def _parse(self, number: int, key: str, text: str) -> Any:
        try:
            return self.game.parse(self.match.state, text)
        except NotationError as exc:
            raise _CaseError(
                ("steps", number - 1, "expect", key),
                f"{key}: {text!r} is not an action here: {one_line(str(exc))}",
            ) from None

    def _actions(self, number: int, expect: Expect) -> list[Mismatch]:
        match, game = self.match, self.game
        state = match.state
        found: list[Mismatch] = []
        over = match.forfeit is not None
        pools = {
            "legal": [] if over else list(game.legal(state)),
            "listing": [] if over else list(game.listing(state)),
        }
        for kind, pool in pools.items():
            exact: list[str] | None = getattr(expect, kind)
            contains: list[str] | None = getattr(expect, f"{kind}_contains")
            excludes: list[str] | None = getattr(expect, f"{kind}_excludes")
            word = "legal" if kind == "legal" else "listed"
            for text in contains or []:
                action = self._parse(number, f"{kind}_contains", text)
                if action not in pool:
                    why = "" if over or kind == "listing" else f" ({game.refusal(state, action)})"
                    found.append(
                        Mismatch(f"{kind}_contains", f"{text!r} is {word}", f"it is not{why}")
                    )
            for text in excludes or []:
                action = self._parse(number, f"{kind}_excludes", text)
                if action in pool:
                    found.append(
                        Mismatch(f"{kind}_excludes", f"{text!r} is not {word}", f"it is {word}")
                    )
            if exact is not None:
                wanted = {self._parse(number, kind, text) for text in exact}
                missing = sorted(game.format(state, a) for a in wanted if a not in pool)
                extra = sorted(game.format(state, a) for a in set(pool) if a not in wanted)
                if missing or extra:
                    expected = f"{show(missing)} {word} too" if missing else "nothing more"
                    actual = f"{show(extra)} {word} too" if extra else "nothing more"
                    found.append(Mismatch(kind, expected, actual))
        return found
