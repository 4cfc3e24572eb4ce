"""Running one scenario case through the core's checked path (:class:`Match`): its
:class:`CaseResult` and the diff-like report the CLI and pytest print."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tabletop.core.configured import Configured
from tabletop.core.errors import ActionError, NotationError, PositionError, TabletopError, one_line
from tabletop.core.i18n.text import Domain, Msg, message_of, translate
from tabletop.core.match import Match
from tabletop.core.registry import Registry, registry
from tabletop.core.shapes import actor_json
from tabletop.game import Game
from tabletop.kit.scenarios.deal import DealError, deal_rest
from tabletop.kit.scenarios.loader import LoadedCase, broken
from tabletop.kit.scenarios.model import Case, Expect, Step, as_list, cites
from tabletop.kit.scenarios.results import CaseResult, StepFailure
from tabletop.kit.scenarios.subset import Mismatch, show, subset_diff

_ = Domain("tabletop")


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


def _said(exc: BaseException) -> str:
    """An exception's message on one line, still a Msg (translated where shown) if it is one."""
    message = message_of(exc)
    if isinstance(message, Msg) and "\n" not in message:
        return message
    return one_line(str(exc))


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
        return CaseResult(loaded, "error", error=broken(loaded, _said(exc)).error)
    except Exception as exc:
        crashed = f"{type(exc).__name__}: {one_line(str(exc))}"
        message = _("the game crashed while setting up: {error}", error=crashed)
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
            crashed = f"{type(exc).__name__}: {one_line(str(exc))}"
            message = _("the game crashed: {error}", error=crashed)
            failure = StepFailure(number, line, _step_text(step), message)
            return CaseResult(loaded, "failed", (failure,), crash=exc)
    return CaseResult(loaded, "passed")


def _step_text(step: Step) -> str:
    if step.time_out is not None:
        return _("(player {player} runs out of time)", player=step.time_out)
    if isinstance(step.do, list):
        return ", ".join(step.do)
    return step.do or _("(check only)")


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
            raise _CaseError(("game",), _said(exc)) from None
        info = game.info
        players = info.min_players if case.players is None else case.players
        if not info.min_players <= players <= info.max_players:
            raise _CaseError(
                ("players",),
                _(
                    "{game} takes {low}-{high} players, not {count}",
                    game=info.id,
                    low=info.min_players,
                    high=info.max_players,
                    count=players,
                ),
            )
        try:
            table = Configured.of(game, players, case.options)
        except TabletopError as exc:
            raise _CaseError(("options",), _said(exc)) from None
        position = case.position
        if position is not None and case.rest_in is not None:
            try:
                position = deal_rest(table, case.seed, position, case.rest_in)
            except DealError as exc:
                raise _CaseError(("rest_in",), message_of(exc)) from None
        try:
            self.match = Match.of(table, case.seed, position, draw_chance=False)
        except PositionError as exc:
            raise _CaseError(
                ("position",), _("impossible position: {reason}", reason=_said(exc))
            ) from None
        for index, text in enumerate(case.actions):
            try:
                self.match.play(text)
            except ActionError as exc:
                raise _CaseError(
                    ("actions", index),
                    _(
                        "setup action {number} {text} refused: {reason}",
                        number=index + 1,
                        text=repr(text),
                        reason=exc.reason,
                    ),
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
            message = _("the position was refused, but not for the expected reason")
            actual = exc.message
            if isinstance(actual, Msg) and "reason" in actual.params:
                actual = actual.params["reason"]  # without "impossible position: "
            else:
                actual = actual.removeprefix("impossible position: ")
        else:
            message = _("the position was accepted, but it must be refused as impossible")
            actual = _("accepted")
        mismatch = Mismatch(
            "impossible", _("a refusal citing {wanted}", wanted=repr(wanted)), actual
        )
        return CaseResult(loaded, "failed", (StepFailure(0, line, "", message, (mismatch,)),))

    def setup_refused(self, wanted: str) -> CaseResult:
        """The case's options and players must be refused (by the options, the player
        count or the game's ``new``) with a message citing ``wanted``."""
        loaded, case = self.loaded, self.case
        line = loaded.lines.line(("cases", loaded.index, "setup_refused"))
        try:
            game = self.games.get(loaded.game or "")
        except TabletopError as exc:
            return CaseResult(loaded, "error", error=broken(loaded, _said(exc), ("game",)).error)
        try:
            Configured.of(game, case.players, case.options).new(case.seed)
        except TabletopError as exc:
            refusal = _said(exc)
            if cites(refusal, wanted):
                return CaseResult(loaded, "passed")
            message = _("the set-up was refused, but not for the expected reason")
        else:
            message = _("the set-up was accepted, but it must be refused")
            refusal = _("accepted")
        citing = _("a refusal citing {wanted}", wanted=repr(wanted))
        mismatch = Mismatch("setup_refused", citing, refusal)
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
                raise _CaseError(("steps", number - 1, "time_out"), _("no such player"))
            match.lose_on_time(step.time_out)
        elif step.refused is not None and isinstance(step.do, str):
            self._refused(step.do, step.refused, stop)
        elif step.do is not None:
            for action in [step.do] if isinstance(step.do, str) else step.do:
                try:
                    match.play(action)
                except ActionError as exc:
                    raise stop(
                        _("action {action} was refused", action=repr(action)),
                        Mismatch(
                            "do",
                            _("{action} is played", action=repr(action)),
                            _("refused: {reason}", reason=exc.reason),
                        ),
                    ) from None
        if step.expect is not None:
            mismatches = self._expect(number, step.expect)
            if mismatches:
                raise stop(_("expectations not met"), *mismatches, key="expect")

    def _snapshot(self) -> tuple[Any, ...]:
        match = self.match
        outcome = match.outcome()
        return (self.game.to_json(match.state), len(match.actions), dict(match.sealed), outcome)

    def _refused(self, text: str, wanted: str, stop: Any) -> None:
        match = self.match
        before = self._snapshot()
        try:
            match.play(text)
        except ActionError as exc:
            message = message_of(exc)
            if not cites(message, wanted):
                raise stop(
                    _("refused, but not for the expected reason"),
                    Mismatch(
                        "refused", _("a refusal citing {wanted}", wanted=repr(wanted)), message
                    ),
                    key="refused",
                ) from None
            after = self._snapshot()
            if after != before:
                changed = subset_diff(before[0], after[0], "state") or [
                    Mismatch("match", show(before[1:]), show(after[1:]))
                ]
                raise stop(_("the refused action changed the state"), *changed) from None
            return
        raise stop(
            _("the action was played, but it must be refused"),
            Mismatch(
                "refused",
                _("a refusal citing {wanted}", wanted=repr(wanted)),
                _("played as {text}", text=repr(match.texts[-1])),
            ),
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
        ended = outcome.reason.lower() if outcome else ""
        if "reason" in given and expect.reason is not None and expect.reason.lower() not in ended:
            ends = show(translate(outcome.reason)) if outcome else _("(the game is not over)")
            found.append(Mismatch("reason", _("contains {text}", text=repr(expect.reason)), ends))
        if "end" in given:
            kind = outcome.kind if outcome else None
            if kind != expect.end:
                found.append(Mismatch("end", show(expect.end), show(kind)))
        if "prompt" in given and expect.prompt is not None:
            prompt = game.prompt(state)
            if expect.prompt.lower() not in prompt.lower():
                asked = _("contains {text}", text=repr(expect.prompt))
                found.append(Mismatch("prompt", asked, show(translate(prompt))))
        if "to_act" in given and (acting := actor_json(match.to_act())) != expect.to_act:
            found.append(Mismatch("to_act", show(expect.to_act), show(acting)))
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
                raise _CaseError(key, _("view of player {player}: no such player", player=seat))
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
                _(
                    "{key}: {text} is not an action here: {reason}",
                    key=key,
                    text=repr(text),
                    reason=_said(exc),
                ),
            ) from None

    def _actions(self, number: int, expect: Expect) -> list[Mismatch]:
        match, game = self.match, self.game
        state = match.state
        found: list[Mismatch] = []
        over = match.forfeit is not None
        sealed = isinstance(game.to_act(state), frozenset)  # then the next chooser's own
        pools = {
            kind: [] if over else list(match.options_of() if sealed else listed(state))
            for kind, listed in (("legal", game.legal), ("listing", game.listing))
        }
        for kind, pool in pools.items():
            exact: list[str] | None = getattr(expect, kind)
            contains: list[str] | None = getattr(expect, f"{kind}_contains")
            excludes: list[str] | None = getattr(expect, f"{kind}_excludes")
            legal = kind == "legal"
            for text in contains or []:
                action = self._parse(number, f"{kind}_contains", text)
                if action not in pool:
                    shown = repr(text)
                    wanted = (
                        _("{text} is legal", text=shown)
                        if legal
                        else _("{text} is listed", text=shown)
                    )
                    got = _("it is not")
                    if not over and legal:
                        got = _("it is not ({why})", why=game.refusal(state, action))
                    found.append(Mismatch(f"{kind}_contains", wanted, got))
            for text in excludes or []:
                action = self._parse(number, f"{kind}_excludes", text)
                if action in pool:
                    shown = repr(text)
                    wanted = (
                        _("{text} is not legal", text=shown)
                        if legal
                        else _("{text} is not listed", text=shown)
                    )
                    got = _("it is legal") if legal else _("it is listed")
                    found.append(Mismatch(f"{kind}_excludes", wanted, got))
            if exact is not None:
                wanted_actions = {self._parse(number, kind, text) for text in exact}
                missing = sorted(game.format(state, a) for a in wanted_actions if a not in pool)
                extra = sorted(game.format(state, a) for a in set(pool) if a not in wanted_actions)
                if missing or extra:
                    expected, actual = _too(missing, legal), _too(extra, legal)
                    found.append(Mismatch(kind, expected, actual))
        return found


def _too(actions: list[str], legal: bool) -> str:
    """``["a1"] legal too`` (or ``listed too``), or ``nothing more``."""
    if not actions:
        return _("nothing more")
    if legal:
        return _("{actions} legal too", actions=show(actions))
    return _("{actions} listed too", actions=show(actions))
