"""The conformance kit: checks any game plugin can run on itself, and golden playthroughs.

From a plugin's own tests::

    from tabletop.testing import assert_conformance

    def test_conformance():
        assert_conformance("mygame", games=200, seed=0)

or from the terminal: ``tabletop check mygame --games 200 --seed 0``.

:func:`check_game` plays seeded random games for every player count and option value
combination (:func:`configurations`) and runs the checks named in :data:`CHECKS`;
:class:`CheckReport` counts runs and failures per check and keeps the first failing game
(configuration, seed, actions) to replay. :func:`record_golden` writes seeded games with
the position after every action (``tabletop check GAME --record``: ``tests/golden/``);
:func:`replay_golden` plays one again and lists every difference. What each check
demands, and how the ``views`` check finds hidden information without help from the
game, is in ``docs/scenarios.md`` ("The conformance kit").
"""

from __future__ import annotations

import copy
import itertools
import json
import random
import string
import tempfile
import time
import typing
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from tabletop.core import options as opts
from tabletop.core.errors import ActionError, PositionError, RecordError, TabletopError, one_line
from tabletop.core.match import Match
from tabletop.core.records import Record, load, save
from tabletop.core.registry import registry
from tabletop.core.setup import player_count
from tabletop.game import JSON, Game
from tabletop.kit import encoding as kit_encoding
from tabletop.kit import fuzzing
from tabletop.kit.pairwise import pairwise

CHECKS: dict[str, str] = {
    "legal": "legal is empty exactly when the game is over; listing agrees",
    "pure": "apply never mutates its input; states and actions are values",
    "deterministic": "same seed and actions give the same game",
    "record": "records round-trip through save/load and replay",
    "position": "from_json(to_json(s)) is s; damaged positions are refused",
    "notation": "parse(format(a)) == a for every listed action",
    "views": "a view shows nothing hidden from that player",
    "samples": "sample(view) agrees with the view, is a possible position, same legal actions",
    "bound": "games end within info.max_actions",
    "fuzz": "bad input raises ActionError, one line, changes nothing",
    "mutants": "mutated positions are refused in one line or play on with every invariant",
}
GOLDEN_FORMAT = "tabletop-golden/1"
GOLDEN_DIR = Path("tests/golden")
DEEP_POSITIONS = 3  # positions per game that get the expensive checks
DEEP_GAMES = 25  # games per configuration that get them (then every tenth)
SWAPS = 6  # value swaps tried per deep position (views)
SAMPLES = 2  # determinisations drawn per player and deep position (samples)
MIN_SWAPS = 20  # accepted swaps before "nothing is hidden from a seat" is concluded
DAMAGED = 4  # damaged position JSONs tried per game (position)
MUTANTS = 4  # mutated positions tried per deep game (mutants, see tabletop.kit.fuzzing)
JUNK = string.ascii_letters + string.digits + string.punctuation + " \t\n" + "žčřßΩ€😀\x00\u200b"


# -- configurations ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Config:
    """A player count and an options model: one configuration the kit plays."""

    players: int
    options: BaseModel

    def label(self) -> str:
        """``2 players, squares=true claim=manual`` (only the non-default options)."""
        defaults = type(self.options)().model_dump(mode="json")
        changed = {k: v for k, v in opts.dump(self.options).items() if defaults.get(k) != v}
        words = " ".join(f"{k}={_option_text(v)}" for k, v in changed.items())
        return f"{self.players} players" + (f", {words}" if words else "")


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return str(value)


def _field_values(model: type[BaseModel], name: str) -> list[Any]:
    """Candidate values of one option: the default first, then the others worth a game."""
    info = model.model_fields[name]
    default = model().model_dump(mode="json")[name]
    candidates: list[Any] = [default]
    allowed = opts.allowed_values(info)
    annotation = info.annotation
    origin = typing.get_origin(annotation)
    if origin in (frozenset, set, list, tuple):
        args = typing.get_args(annotation)
        inner = args[0] if args else None
        if typing.get_origin(inner) is typing.Literal:
            candidates.extend([v] for v in typing.get_args(inner))
    elif isinstance(allowed, list):
        candidates.extend(allowed)
    elif annotation is int:
        low = next((getattr(m, "ge", None) for m in info.metadata if hasattr(m, "ge")), None)
        candidates.append(low if low is not None else 1)
    values: list[Any] = []
    seen: set[str] = set()
    for value in candidates:
        try:
            dumped = model.model_validate({name: value}).model_dump(mode="json")[name]
        except ValidationError:
            continue
        key = json.dumps(dumped, sort_keys=True)
        if key not in seen:
            seen.add(key)
            values.append(dumped)
    return values


@dataclass(frozen=True)
class ConfigPlan:
    """The configurations the kit plays, how they were chosen, and those the game refused."""

    configs: list[Config]
    how: str  # "all 8 combinations", "a pairwise sample: ...", "the chosen options"
    refused: list[str]  # labels of refused combinations, with the game's reason


def plan_configurations(
    game: Game[Any, Any],
    players: int | None = None,
    max_configs: int = 12,
    seed: int = 0,
    options: BaseModel | Mapping[str, Any] | None = None,
) -> ConfigPlan:
    """Player counts × option values: every combination when there are at most
    ``max_configs``, else a pairwise sample (every pair of two values of two options, or
    of an option and a player count, is played in some game). With ``options`` only that
    configuration (for each player count). Combinations the game refuses at ``new`` are
    left out and listed with the reason."""
    info = game.info
    counts = [players] if players else list(range(info.min_players, info.max_players + 1))
    names = list(info.options.model_fields)
    if options is not None:
        given = opts.dump(options) if isinstance(options, BaseModel) else dict(options)
        chosen = opts.build(info.options, given, info.id)
        axes: list[list[Any]] = [counts, *([v] for v in opts.dump(chosen).values())]
    else:
        axes = [counts, *(_field_values(info.options, n) for n in names)]
    total = 1
    for axis in axes:
        total *= len(axis)
    refused: dict[tuple[Any, ...], str] = {}
    built: dict[tuple[Any, ...], Config] = {}

    def allowed(combo: tuple[Any, ...]) -> bool:
        key = tuple(json.dumps(v, sort_keys=True) for v in combo)
        if key in built:
            return True
        if key in refused:
            return False
        values = dict(zip(names, combo[1:], strict=True))
        try:
            config_options = opts.build(info.options, values, info.id)
            game.new(combo[0], config_options, seed)
        except TabletopError as exc:
            refused[key] = f"{_combo_label(combo, names, info.options)}: {one_line(str(exc))}"
            return False
        built[key] = Config(combo[0], config_options)
        return True

    if options is not None:
        how = "the chosen options"
        combos = [c for c in itertools.product(*axes) if allowed(c)]
    elif total <= max_configs:
        how = f"all {total} combinations"
        combos = [c for c in itertools.product(*axes) if allowed(c)]
    else:
        missed: list[tuple[int, Any, int, Any]] = []
        combos = pairwise(axes, seed, allowed, missed)
        how = (
            f"a pairwise sample: {len(combos)} of {total} combinations, every pair of "
            "values of two options (or of an option and a player count) played together"
        )
        words = ["players", *names]
        reasons = list(refused.values())
        refused = {}
        for i, a, j, b in missed:  # report the pairs never played, not every candidate
            pair = f"{_pair_text(words[i], a)} with {_pair_text(words[j], b)}"
            why = next((r.split(": ", 1)[1] for r in reasons if _has(r, words, i, a, j, b)), "")
            refused[(pair,)] = f"{pair}: {why}" if why else pair
    configs = [built[tuple(json.dumps(v, sort_keys=True) for v in c)] for c in combos]
    return ConfigPlan(configs, how, list(refused.values()))


def _pair_text(word: str, value: Any) -> str:
    return f"{value} players" if word == "players" else f"{word}={_option_text(value)}"


def _has(label: str, words: list[str], i: int, a: Any, j: int, b: Any) -> bool:
    """Whether a refused combination's label holds both values (defaults are not shown)."""
    head = label.split(": ", 1)[0]
    return all(
        _pair_text(words[k], v) in head or (k and f"{words[k]}=" not in head)
        for k, v in ((i, a), (j, b))
    )


def _combo_label(combo: tuple[Any, ...], names: list[str], model: type[BaseModel]) -> str:
    """``3 players, size=3 k=4`` (the options that differ from the defaults)."""
    defaults = model().model_dump(mode="json")
    words = [
        f"{n}={_option_text(v)}" for n, v in zip(names, combo[1:], strict=True) if defaults[n] != v
    ]
    return f"{combo[0]} players" + (f", {' '.join(words)}" if words else "")


def configurations(
    game: Game[Any, Any], players: int | None = None, max_configs: int = 12, seed: int = 0
) -> list[Config]:
    """The configurations of :func:`plan_configurations`."""
    return plan_configurations(game, players, max_configs, seed).configs


# -- the report ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameRef:
    """What replays a game: configuration, seed and the actions up to the failure."""

    game: str
    players: int
    options: dict[str, Any]
    seed: int
    actions: tuple[str, ...]
    defaults: dict[str, Any] = field(default_factory=dict)

    def command(self) -> str:
        """A shell command that replays the game with ``tabletop run`` (the actions given
        on standard input, inline when they are few)."""
        words = [
            f" -o {k}={_option_text(v)}"
            for k, v in self.options.items()
            if self.defaults.get(k, _MISSING) != v
        ]
        run = (
            f"tabletop run {self.game} -p {self.players} --seed {self.seed}{''.join(words)} "
            "--actions - --trace --reveal"
        )
        if len(self.actions) > 12:
            return f"{run}  (the actions above on standard input, one a line)"
        quoted = " ".join("'" + a.replace("'", "'\\''") + "'" for a in self.actions)
        return f"printf '%s\\n' {quoted} | {run}" if self.actions else run


@dataclass(frozen=True)
class CheckFailure:
    """One failed check: what was wrong, in which game."""

    check: str
    message: str
    game: GameRef


@dataclass
class CheckStats:
    """How often a check ran and failed, and its first failure."""

    name: str
    description: str
    runs: int = 0
    failures: int = 0
    first: CheckFailure | None = None


@dataclass
class CheckReport:
    """The result of :func:`check_game`: per check, and the configurations played."""

    game: str
    games: int
    seed: int
    configs: list[str]
    checks: dict[str, CheckStats] = field(default_factory=dict)
    seconds: float = 0.0
    how: str = ""  # how the configurations were chosen (plan_configurations)
    refused: list[str] = field(default_factory=list)  # combinations the game refused

    @property
    def ok(self) -> bool:
        """True when no check failed."""
        return all(stats.failures == 0 for stats in self.checks.values())

    def failures(self) -> list[CheckFailure]:
        """The first failure of every failing check."""
        return [s.first for s in self.checks.values() if s.first is not None]

    def text(self) -> str:
        """The report as plain text (what ``assert_conformance`` raises)."""
        lines = [
            f"{self.game}: {self.games} games in {len(self.configs)} configurations "
            f"({self.how}), seed {self.seed}, {self.seconds:.1f}s"
        ]
        lines.extend(f"  refused by the game: {label}" for label in self.refused)
        for stats in self.checks.values():
            verdict = "ok" if stats.failures == 0 else f"FAILED {stats.failures}×"
            lines.append(
                f"  {stats.name:<13} {verdict:<12} {stats.runs:>8} runs  {stats.description}"
            )
        for failure in self.failures():
            lines.extend(_failure_lines(failure))
        return "\n".join(lines)


def _failure_lines(failure: CheckFailure) -> list[str]:
    ref = failure.game
    actions = ", ".join(ref.actions) or "(none)"
    return [
        f"{failure.check}: {failure.message}",
        f"  game: {ref.players} players, options {json.dumps(ref.options)}, seed {ref.seed}",
        f"  actions: {actions}",
        f"  replay: {ref.command()}",
    ]


# -- the checker --------------------------------------------------------------------------------
class _Failed(Exception):
    """A check failed (the message says how)."""


FAILED: Any = object()  # what _Checker.run returns for a failed check


class _Checker:
    """Runs every check over the games of one :func:`check_game` call."""

    def __init__(self, game: Game[Any, Any], report: CheckReport, fuzz: int) -> None:
        self.game = game
        self.report = report
        self.fuzz = fuzz
        self.config = Config(0, game.info.options())
        self.seed = 0
        self.texts: list[str] = []
        # per seat (None: spectator): swaps of two values that from_json accepted, and of
        # those, the ones the seat's view does not show (the views check)
        self.swaps: dict[int | None, int] = {}
        self.hidden_from: dict[int | None, int] = {}

    # bookkeeping
    def run(self, check: str, body: Callable[..., Any], *args: Any) -> Any:
        """Run one check, ``body(*args)``: its result, or FAILED after recording the
        failure (or crash) with the current game."""
        stats = self.report.checks[check]
        stats.runs += 1
        try:
            return body(*args)
        except (_Failed, kit_encoding.EncodingFailure) as exc:
            self.fail(check, str(exc))
        except Exception as exc:
            self.fail(check, f"crashed: {type(exc).__name__}: {one_line(str(exc))}")
        return FAILED

    def count(self, check: str, runs: int) -> None:
        """Count more runs of a check than the one :meth:`run` counts (e.g. fuzz inputs)."""
        self.report.checks[check].runs += runs

    def fail(self, check: str, message: str) -> None:
        stats = self.report.checks[check]
        stats.failures += 1
        if stats.first is None:
            ref = GameRef(
                self.game.info.id,
                self.config.players,
                opts.dump(self.config.options),
                self.seed,
                tuple(self.texts),
                self.game.info.options().model_dump(mode="json"),
            )
            stats.first = CheckFailure(check, one_line(message), ref)

    def text_of(self, state: Any, action: Any) -> str:
        try:
            return self.game.format(state, action)
        except Exception:
            return repr(action)

    # one game
    def play(self, config: Config, seed: int, deep: bool, save_load: bool = False) -> None:
        """Play one seeded random game and run the checks (``deep``: all of them)."""
        game, info = self.game, self.game.info
        self.config, self.seed, self.texts = config, seed, []
        players, options = config.players, config.options
        rng = random.Random(seed)
        state = self.run("legal", game.new, players, options, seed)
        if state is FAILED:
            return
        states: list[Any] = [state]
        actions: list[Any] = []
        bound = info.max_actions(players, options)
        ended = False
        while True:
            legal = self.run("legal", self._legal, state, players)
            if legal is FAILED:
                break
            if not legal:
                ended = True
                break
            if len(actions) >= bound:
                self.fail("bound", f"no end after {bound} actions (info.max_actions)")
                break
            action = legal[rng.randrange(len(legal))]
            after = self.run("pure", self._pure, state, action, deep)
            if after is FAILED:
                break
            self.texts.append(self.text_of(state, action))
            state = after
            states.append(state)
            actions.append(action)
        if ended:
            self.count("bound", 1)
        self.run("deterministic", self._deterministic, config, seed, states, actions)
        if not ended or not deep:
            return
        self.run("record", self._record, config, seed, states, actions, rng, save_load)
        texts = self.texts
        for index in sorted(rng.sample(range(len(states)), min(DEEP_POSITIONS, len(states)))):
            self.texts = texts[:index]
            here = states[index]
            self.run("notation", self._notation, here)
            self.run("position", self._position, config, seed, here)
            self.run("views", self._views, config, seed, here, rng)
            self.run("samples", self._samples, config, seed, here, rng)
            self.run("fuzz", self._fuzz, config, seed, actions[:index], rng)
            if kit_encoding.NAME in self.report.checks:
                self.run(kit_encoding.NAME, kit_encoding.check, game, players, options, here, rng)
        self.texts = texts
        self.run("position", self._damaged, config, seed, rng.choice(states), rng)
        for _ in range(MUTANTS):
            self.run("mutants", self._mutant, config, seed, rng.choice(states), rng)

    def hides_something(self) -> None:
        """After all games: a game that declares hidden information must hide something
        from every seat (else every view shows every change: the views leak)."""
        if not self.game.info.hidden_information:
            return
        for seat, swaps in self.swaps.items():
            if swaps >= MIN_SWAPS and not self.hidden_from.get(seat):
                who = "the spectator" if seat is None else f"player {seat}"
                self.fail(
                    "views",
                    f"the game declares hidden information, but {who} saw every one of "
                    f"{swaps} swaps of two values in the position: nothing is hidden",
                )

    # the checks
    def _legal(self, state: Any, players: int) -> list[Any]:
        game = self.game
        to_act, outcome, legal = game.to_act(state), game.outcome(state), list(game.legal(state))
        if outcome is None:
            if to_act is None or not 1 <= to_act <= players:
                raise _Failed(f"the game is not over but to_act is {to_act!r}")
            if not legal:
                raise _Failed("legal actions are empty before the end")
        else:
            if to_act is not None:
                raise _Failed(f"the game is over ({outcome}) but to_act is {to_act}")
            if legal:
                raise _Failed(f"the game is over but {len(legal)} actions are legal")
            if not all(1 <= w <= players for w in outcome.winners):
                raise _Failed(f"winners {outcome.winners} are not players")
        listing = set(game.listing(state))
        legal_set = set(legal)
        unlisted = legal_set - listing
        if unlisted:
            text = self.text_of(state, next(iter(unlisted)))
            raise _Failed(f"legal {text!r} is not listed")
        for action in listing - legal_set:
            reason = game.refusal(state, action)
            if not isinstance(reason, str) or not reason.strip() or "\n" in reason:
                raise _Failed(f"listed, refused {self.text_of(state, action)!r}: bad refusal")
        return legal

    def _pure(self, state: Any, action: Any, deep: bool) -> Any:
        game = self.game
        hashes = []
        for what, value in (("state", state), ("action", action)):
            try:
                hashes.append(hash(value))
            except TypeError:
                raise _Failed(f"the {what} {value!r:.60} is not hashable: not a value") from None
        if isinstance(action, str):
            raise _Failed(f"action {action!r} is a string; text belongs in parse/format")
        before = game.to_json(state) if deep else None
        after = game.apply(state, action)
        if hash(state) != hashes[0] or (deep and game.to_json(state) != before):
            raise _Failed(f"apply({self.text_of(state, action)!r}) changed its input state")
        return after

    def _deterministic(
        self, config: Config, seed: int, states: list[Any], actions: list[Any]
    ) -> None:
        game = self.game
        again = game.new(config.players, config.options, seed)
        if again != states[0] or game.to_json(again) != game.to_json(states[0]):
            raise _Failed(f"new(seed={seed}) gave two different initial states")
        for number, action in enumerate(actions, start=1):
            again = game.apply(again, action)
            if again != states[number]:
                raise _Failed(f"replaying the same actions differs after action {number}")

    def _record(
        self,
        config: Config,
        seed: int,
        states: list[Any],
        actions: list[Any],
        rng: random.Random,
        save_load: bool,
    ) -> None:
        game = self.game
        start = rng.randrange(len(states)) if len(states) > 1 else 0
        for first in sorted({0, start}):
            position = None if first == 0 else game.to_json(states[first])
            match = Match(game, config.players, config.options, seed, position)
            for number, action in enumerate(actions[first:], start=first + 1):
                try:
                    match.push(action)
                except ActionError:
                    raise _Failed(
                        f"from the position after action {first} (via to_json/from_json), "
                        f"action {number} {self.text_of(states[number - 1], action)!r} is not "
                        "legal: the position JSON loses something"
                    ) from None
            record = match.record()
            if first == 0 and save_load:
                with tempfile.TemporaryDirectory() as folder:
                    path = Path(folder) / "game.json"
                    save(record, path)
                    loaded = load(path)
            else:
                loaded = Record.from_text(record.to_text())
            if loaded != record:
                raise _Failed("the record read back differs from the one written")
            where = "from the start" if first == 0 else f"from the position after {first}"
            try:
                again = Match.from_record(game, loaded)
            except RecordError as exc:
                raise _Failed(f"the record replayed {where} fails: {exc}") from None
            if again.texts != match.texts:
                raise _Failed(f"the record replayed {where} gives other action texts")
            one, two = game.to_json(states[-1]), game.to_json(again.state)
            if one != two:
                at = _first_difference(one, two)
                raise _Failed(
                    f"the record replayed {where} ends in another position: at {at}, "
                    f"{_pick(one, at)} -> {_pick(two, at)}"
                )
            if again.outcome() != match.outcome():
                raise _Failed(f"the record replayed {where} has another outcome")

    def _notation(self, state: Any) -> None:
        game = self.game
        for action in game.listing(state):
            text = game.format(state, action)
            for variant in dict.fromkeys([text, text.upper(), text.lower()]):
                try:
                    back = game.parse(state, variant)
                except TabletopError as exc:
                    raise _Failed(f"parse({variant!r}) refused its own format: {exc}") from None
                if back != action:
                    raise _Failed(f"parse({variant!r}) gave {back!r}, not {action!r}")

    def _same_position(self, config: Config, first: Any, second: Any, what: str) -> None:
        game = self.game
        one, two = game.to_json(first), game.to_json(second)
        if one != two:
            at = _first_difference(one, two)
            raise _Failed(f"{what}: to_json differs at {at}: {_pick(one, at)} -> {_pick(two, at)}")
        if game.to_act(second) != game.to_act(first):
            raise _Failed(f"{what}: to_act differs")
        if game.outcome(second) != game.outcome(first):
            raise _Failed(f"{what}: outcome differs")
        texts = sorted(game.format(first, a) for a in game.legal(first))
        if sorted(game.format(second, a) for a in game.legal(second)) != texts:
            raise _Failed(f"{what}: legal actions differ")
        for player in [None, *range(1, config.players + 1)]:
            if game.view(second, player) != game.view(first, player):
                raise _Failed(f"{what}: the view of player {player} differs")

    def _position(self, config: Config, seed: int, state: Any) -> None:
        game = self.game
        text = json.loads(json.dumps(game.to_json(state)))  # what a file would give back
        again = game.from_json(text, config.players, config.options, seed)
        self._same_position(config, state, again, "from_json(to_json(state))")

    def _damaged(self, config: Config, seed: int, state: Any, rng: random.Random) -> None:
        game = self.game
        data = game.to_json(state)
        for _ in range(DAMAGED):
            broken, what = _damage(data, rng)
            try:
                got = game.from_json(broken, config.players, config.options, seed)
            except PositionError:
                continue
            except Exception as exc:
                raise _Failed(
                    f"from_json on a damaged position ({what}) raised "
                    f"{type(exc).__name__}: {one_line(str(exc))}, not PositionError"
                ) from None
            try:
                game.to_json(got)
                game.legal(got)
                game.to_act(got)
                game.view(got, None)
            except Exception as exc:
                raise _Failed(
                    f"from_json accepted a damaged position ({what}) that then crashes: "
                    f"{type(exc).__name__}: {one_line(str(exc))}"
                ) from None

    def _samples(self, config: Config, seed: int, state: Any, rng: random.Random) -> None:
        """Each player's determinisations (``Game.sample``, what search agents play on):
        the player sees exactly their view in every sample, the sample survives
        ``from_json(to_json(...))`` (the game's conservation laws and impossibility checks),
        and the player to act has the same legal actions there as in the true state."""
        game = self.game
        if game.outcome(state) is not None:
            return
        to_act = game.to_act(state)
        for player in range(1, config.players + 1):
            view = game.view(state, player)
            for _ in range(SAMPLES):
                try:
                    sample = game.sample(view, player, config.players, config.options, rng)
                except NotImplementedError:
                    if game.info.hidden_information:
                        raise _Failed(
                            "hidden information but no sample(): search agents "
                            "cannot play this game"
                        ) from None
                    return
                if game.view(sample, player) != view:
                    raise _Failed(f"a sample for player {player} shows them another view")
                data = json.loads(json.dumps(game.to_json(sample)))
                try:
                    game.from_json(data, config.players, config.options, seed)
                except PositionError as exc:
                    raise _Failed(f"a sample for player {player} is impossible: {exc}") from None
                if player == to_act and list(game.legal(sample)) != list(game.legal(state)):
                    raise _Failed(f"a sample for player {player} changes their legal actions")
                self.count("samples", 1)

    def _views(self, config: Config, seed: int, state: Any, rng: random.Random) -> None:
        """Swap two text values of the position JSON (two cards); when ``from_json`` takes
        it and the spectator sees no change, a player owning neither place (a key ``"N"``
        of a mapping keyed by player numbers is player N's) must see no change either."""
        game = self.game
        players = range(1, config.players + 1)
        for player in [None, *players]:
            json.dumps(game.view(state, player))
        if game.outcome(state) is not None:
            return
        data = game.to_json(state)
        seats: list[int | None] = [None, *players]
        leaves = list(_text_leaves(data))
        for number in range(SWAPS):
            pair = _swap_pair(leaves, seats[number % len(seats)], rng)
            if pair is None:
                continue
            (path_a, value_a, owner_a), (path_b, value_b, owner_b) = pair
            swapped = copy.deepcopy(data)
            _put(swapped, path_a, value_b)
            _put(swapped, path_b, value_a)
            try:
                other = game.from_json(swapped, config.players, config.options, seed)
            except PositionError:
                continue
            if game.to_json(other) == data:
                continue  # the game reads both the same way: nothing was swapped
            for seat in seats:
                self.swaps[seat] = self.swaps.get(seat, 0) + 1
                if game.view(other, seat) == game.view(state, seat):
                    self.hidden_from[seat] = self.hidden_from.get(seat, 0) + 1
            if game.view(other, None) != game.view(state, None):
                continue
            where = f"{_dotted(path_a)} <-> {_dotted(path_b)}"
            for player in players:
                if player in (owner_a, owner_b):
                    continue
                self.count("views", 1)
                mine, theirs = game.view(state, player), game.view(other, player)
                if mine != theirs:
                    raise _Failed(
                        f"player {player} sees a hidden change ({where}): view differs at "
                        f"{_first_difference(mine, theirs)}"
                    )
                if game.to_act(state) == player == game.to_act(other):
                    self._same_answers(config, seed, data, swapped, where, player)

    def _same_answers(
        self, config: Config, seed: int, data: JSON, swapped: JSON, where: str, player: int
    ) -> None:
        game = self.game
        one = Match(game, config.players, config.options, seed, data)
        two = Match(game, config.players, config.options, seed, swapped)
        if sorted(one.listing_text()) != sorted(two.listing_text()):
            raise _Failed(f"player {player}'s listing shows a hidden change ({where})")
        if game.prompt(one.state) != game.prompt(two.state):
            raise _Failed(f"player {player}'s prompt shows a hidden change ({where})")
        played = sorted(set(self.texts))
        texts = [*one.listing_text(), *two.listing_text(), *played[:: max(1, len(played) // 20)]]
        for text in texts:
            if _answer(one, text) != _answer(two, text):
                raise _Failed(f"the answer to {text!r} shows a hidden change ({where})")

    def _fuzz(self, config: Config, seed: int, actions: list[Any], rng: random.Random) -> None:
        game = self.game
        match = Match(game, config.players, config.options, seed)
        for action in actions:
            match.push(action)
        listed = match.listing_text()
        state, count, before = match.state, len(match.actions), game.to_json(match.state)
        texts = _fuzz_texts(rng, listed, match.texts, self.fuzz)
        self.count("fuzz", len(texts) - 1)
        for text in texts:
            try:
                match.play(text)
            except ActionError as exc:
                message = str(exc)
                if not exc.reason.strip() or "\n" in message or "\r" in message:
                    raise _Failed(f"the refusal of {text!r} is not one line: {message!r}") from None
            except Exception as exc:
                raise _Failed(
                    f"{text!r} raised {type(exc).__name__}: {one_line(str(exc))}, not ActionError"
                ) from None
            else:
                match.undo()
            if len(match.actions) != count or match.state is not state:
                raise _Failed(f"{text!r} changed the match")
        hostile = fuzzing.hostile_texts(rng, listed)
        self.count("fuzz", len(hostile))
        problem = fuzzing.refuse_all(match, hostile)
        if problem:
            raise _Failed(problem)
        if game.to_json(state) != before:
            raise _Failed("the refused actions changed the state")

    def _mutant(self, config: Config, seed: int, state: Any, rng: random.Random) -> None:
        data = self.game.to_json(state)
        players, options = config.players, config.options
        problem = fuzzing.check_mutant(self.game, data, players, options, seed, rng)[0]
        if problem:
            raise _Failed(problem)


def _answer(match: Match, text: str) -> str:
    try:
        return "accepted " + repr(match.check(text))
    except ActionError as exc:
        return str(exc)


# -- JSON helpers -------------------------------------------------------------------------------
PathT = tuple[str | int, ...]


def _text_leaves(
    data: Any, path: PathT = (), owner: int | None = None
) -> Iterator[tuple[PathT, str, int | None]]:
    """Every text value with its path and its owner (see the ``views`` check)."""
    if isinstance(data, dict):
        by_player = bool(data) and all(isinstance(k, str) and k.isdigit() for k in data)
        for key, value in data.items():
            who = int(key) if by_player else owner
            yield from _text_leaves(value, (*path, key), who)
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _text_leaves(value, (*path, index), owner)
    elif isinstance(data, str) and path:
        yield path, data, owner


Leaf = tuple[PathT, str, int | None]


def _swap_pair(
    leaves: list[Leaf], seat: int | None, rng: random.Random
) -> tuple[Leaf, Leaf] | None:
    """Two text values to swap, chosen to probe what ``seat`` may not see: none of the
    seat's own, and mostly one of another player's (a hand, a stand)."""
    mine = [leaf for leaf in leaves if seat is None or leaf[2] != seat]
    theirs = [leaf for leaf in mine if leaf[2] is not None]
    for _ in range(10):
        first = rng.choice(theirs) if theirs and rng.random() < 0.7 else rng.choice(mine or [None])
        if first is None:
            return None
        second = rng.choice(mine)
        if first[1] != second[1]:
            return first, second
    return None


def _put(data: Any, path: PathT, value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def _dotted(path: PathT) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def _first_difference(one: Any, two: Any, path: PathT = ()) -> str:
    if isinstance(one, dict) and isinstance(two, dict):
        for key in sorted(set(one) | set(two), key=str):
            if one.get(key, _MISSING) != two.get(key, _MISSING):
                return _first_difference(one.get(key), two.get(key), (*path, key))
    if isinstance(one, list) and isinstance(two, list) and len(one) == len(two):
        for index, (a, b) in enumerate(zip(one, two, strict=True)):
            if a != b:
                return _first_difference(a, b, (*path, index))
    return _dotted(path) or "(top)"


_MISSING = object()


def _pick(data: Any, dotted: str) -> str:
    """The JSON text of the value at a path written by :func:`_dotted` (short)."""
    for part in filter(None, dotted.replace("[", ".[").split(".")):
        if part == "(top)":
            break
        key: str | int = int(part[1:-1]) if part.startswith("[") else part
        try:
            data = data[key]
        except (KeyError, IndexError, TypeError):
            return "(missing)"
    text = json.dumps(data, ensure_ascii=False)
    return text if len(text) <= 120 else text[:120] + "…"


def _damage(data: JSON, rng: random.Random) -> tuple[JSON, str]:
    """A copy of a position JSON with one thing broken, and what was broken."""
    broken = copy.deepcopy(data)
    places: list[PathT] = []

    def walk(node: Any, path: PathT) -> None:
        if path:
            places.append(path)
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, (*path, key))
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, (*path, index))

    walk(broken, ())
    if not places:
        return {"junk": 1}, "an unrelated object"
    path = rng.choice(places)
    junk: list[Any] = [None, -1, 10**9, "zz", "", [], {}, True, 3.5, ["zz"], {"zz": 1}]
    if rng.random() < 0.3:
        parent: Any = broken
        for key in path[:-1]:
            parent = parent[key]
        del parent[path[-1]]
        return broken, f"{_dotted(path)} removed"
    value = rng.choice(junk)
    _put(broken, path, value)
    return broken, f"{_dotted(path)} set to {json.dumps(value)}"


def _fuzz_texts(
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


# -- the public functions -----------------------------------------------------------------------
def _resolve(game: str | Game[Any, Any]) -> Game[Any, Any]:
    return registry().get(game) if isinstance(game, str) else game


def check_game(
    game: str | Game[Any, Any],
    games: int = 200,
    seed: int = 0,
    players: int | None = None,
    fuzz: int = 40,
    max_configs: int = 12,
    options: BaseModel | Mapping[str, Any] | None = None,
) -> CheckReport:
    """Play ``games`` seeded random games per configuration and run every check.

    ``fuzz`` bad inputs are tried at each of a few positions per game; the first
    ``DEEP_GAMES`` games of a configuration (and every tenth after) also get the costliest
    checks (a deep copy around every apply, a real save/load). The configurations are
    :func:`plan_configurations`'s (with ``options``: only that one). Game ``i`` of configuration
    ``c`` uses seed ``seed + c * games + i``.
    """
    resolved = _resolve(game)
    info = resolved.info
    if players is not None:
        player_count(resolved, players)  # UsageError naming the allowed counts
    plan = plan_configurations(resolved, players, max_configs, seed, options)
    configs = plan.configs
    report = CheckReport(info.id, games * len(configs), seed, [c.label() for c in configs])
    report.how, report.refused = plan.how, plan.refused
    report.checks = {name: CheckStats(name, text) for name, text in CHECKS.items()}
    if kit_encoding.provided(resolved):
        report.checks[kit_encoding.NAME] = CheckStats(kit_encoding.NAME, kit_encoding.DESCRIPTION)
    checker = _Checker(resolved, report, fuzz)
    started = time.perf_counter()
    for index, config in enumerate(configs):
        for number in range(games):
            deep = number < DEEP_GAMES or number % 10 == 0
            checker.play(config, seed + index * games + number, deep, save_load=number == 0)
    checker.hides_something()
    report.seconds = time.perf_counter() - started
    return report


def assert_conformance(
    game: str | Game[Any, Any],
    games: int = 200,
    seed: int = 0,
    players: int | None = None,
    options: BaseModel | Mapping[str, Any] | None = None,
) -> CheckReport:
    """:func:`check_game`, raising AssertionError with the report when a check fails."""
    report = check_game(game, games=games, seed=seed, players=players, options=options)
    if not report.ok:
        raise AssertionError(report.text())
    return report


# -- golden playthroughs ------------------------------------------------------------------------
def playthrough(game: Game[Any, Any], config: Config, seed: int, level: str = "random") -> JSON:
    """A seeded game played by computer players of ``level`` (default uniform random),
    with the position, player to act and legal actions after each action.

    The level only chooses the actions; replaying a golden file needs no agent."""
    from tabletop.agents.seat import make_seat

    rng = random.Random(seed)
    match = Match(game, config.players, config.options, seed)
    seat = make_seat(game, level)
    steps: list[JSON] = []
    limit = game.info.max_actions(config.players, config.options)
    while (player := match.to_act()) is not None and len(steps) <= limit:
        match.push(seat.choose(game, match.state, player, config.players, config.options, rng))
        steps.append(_snapshot(match, match.texts[-1]))
    return {
        "format": GOLDEN_FORMAT,
        "game": game.info.id,
        "game_version": game.info.version,
        "players": config.players,
        "options": opts.dump(config.options),
        "seed": seed,
        "played_by": level,
        "initial": _snapshot(Match(game, config.players, config.options, seed), None),
        "steps": steps,
    }


def _snapshot(match: Match, action: str | None) -> JSON:
    game, state = match.game, match.state
    outcome = match.outcome()
    snap: JSON = {} if action is None else {"action": action}
    snap.update(
        {
            "position": game.to_json(state),
            "to_act": match.to_act(),
            "legal": sorted(game.format(state, a) for a in game.legal(state)),
        }
    )
    if outcome is not None:
        snap["outcome"] = {"winners": list(outcome.winners), "reason": outcome.reason}
    return snap


def record_golden(
    game: str | Game[Any, Any], folder: Path = GOLDEN_DIR, count: int = 4, seed: int = 0
) -> list[Path]:
    """Write ``count`` golden playthroughs ``<game>-<n>.json``, spread over configurations."""
    resolved = _resolve(game)
    configs = configurations(resolved, seed=seed)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number in range(count):
        data = _short_playthrough(resolved, configs, number * len(configs) // count, seed + number)
        path = folder / f"{resolved.info.id}-{number + 1}.json"
        path.write_text(_golden_text(data), encoding="utf-8")
        paths.append(path)
    return paths


GOLDEN_STEPS = (20, 200)
GOLDEN_TRIES = 12
# Uniform random play first; games where it never ends in time (random play that rarely
# finishes anything) are played by the greedy level instead.
GOLDEN_LEVELS = ("random", "2")


def _short_playthrough(
    game: Game[Any, Any], configs: Sequence[Config], first: int, seed: int
) -> JSON:
    """A playthrough from configuration ``first`` on: the first (level, configuration, seed)
    whose length is within ``GOLDEN_STEPS``, else the one nearest to it, so golden files
    say something yet stay small enough to review."""
    low, high = GOLDEN_STEPS
    low = min(low, game.info.max_actions(configs[first].players, configs[first].options) // 2)

    def distance(data: JSON) -> int:
        steps = len(data["steps"])
        return max(low - steps, steps - high, 0)

    best: JSON | None = None
    for level in GOLDEN_LEVELS:
        for attempt in range(GOLDEN_TRIES):
            config = configs[(first + attempt) % len(configs)]
            data = playthrough(game, config, seed + attempt * 1000, level)
            if best is None or distance(data) < distance(best):
                best = data
            if distance(best) == 0:
                return best
    assert best is not None
    return best


def _golden_text(data: JSON) -> str:
    """The file's text: one line per key, one line per step (a rule change is a line diff)."""

    def line(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    head = [f" {line(k)}: {line(v)}" for k, v in data.items() if k != "steps"]
    steps = ",\n".join(f"  {line(step)}" for step in data["steps"])
    return "{\n" + ",\n".join([*head, f' "steps": [\n{steps}\n ]']) + "\n}\n"


def replay_golden(path: Path, game: Game[Any, Any] | None = None) -> list[str]:
    """Play a golden file again; every difference as a line (empty: the rules agree)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if data.get("format") != GOLDEN_FORMAT:
        return [f"{path}: not a golden playthrough (format is not {GOLDEN_FORMAT!r})"]
    resolved = game or registry().get(data["game"])
    options = opts.build(resolved.info.options, data["options"], resolved.info.id)
    config = Config(data["players"], options)
    match = Match(resolved, config.players, config.options, data["seed"])
    found = _differences(data["initial"], _snapshot(match, None), f"{path}: initial")
    for number, step in enumerate(data["steps"], start=1):
        try:
            match.play(step["action"])
        except ActionError as exc:
            found.append(f"{path}: action {number} {step['action']!r} is now refused: {exc.reason}")
            break
        found.extend(
            _differences(step, _snapshot(match, step["action"]), f"{path}: action {number}")
        )
        if found:
            break
    else:
        if match.to_act() is not None:
            found.append(f"{path}: the game no longer ends after {len(data['steps'])} actions")
    return found


def _differences(expected: JSON, actual: JSON, where: str) -> list[str]:
    found = []
    for key in sorted(set(expected) | set(actual)):
        want, got = expected.get(key, _MISSING), actual.get(key, _MISSING)
        if want != got:
            at = _first_difference(want, got, (key,))
            found.append(
                f"{where} ({expected.get('action', 'start')}): {at}: expected "
                f"{_show_at(want, key, at)}, now {_show_at(got, key, at)}"
            )
    return found


def _show_at(value: Any, key: str, at: str) -> str:
    """The part of a snapshot's ``key`` value at the path ``at`` (which starts with key)."""
    return "(missing)" if value is _MISSING else _pick({key: value}, at)


# -- the command ---------------------------------------------------------------------------------
def check_command(
    game: str,
    games: int,
    seed: int,
    record: bool,
    players: int | None,
    options: Sequence[str] = (),
) -> int:
    """The body of ``tabletop check``: the report with rich; with ``record`` (and all checks
    passing), golden playthroughs written to ``tests/golden/``. Returns the exit status."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console(highlight=False)
    resolved = registry().get(game)
    chosen = opts.parse_pairs(options) if options else None
    report = check_game(resolved, games=games, seed=seed, players=players, options=chosen)
    table = Table(
        title=f"{resolved.info.name}: {report.games} games, {len(report.configs)} configurations, "
        f"seed {seed}, {report.seconds:.1f}s",
        title_justify="left",
    )
    for column in ("check", "result", "runs", "what it checks"):
        table.add_column(column, justify="right" if column == "runs" else "left")
    for stats in report.checks.values():
        verdict = (
            Text("ok", style="green")
            if stats.failures == 0
            else Text(f"FAILED {stats.failures}×", style="red bold")
        )
        table.add_row(stats.name, verdict, str(stats.runs), stats.description)
    console.print(table)
    console.print(
        Text(f"configurations ({report.how}): " + "; ".join(report.configs)), soft_wrap=True
    )
    for label in report.refused:
        console.print(Text(f"refused by the game: {label}", style="yellow"), soft_wrap=True)
    for failure in report.failures():
        lines = _failure_lines(failure)
        console.print(Text(lines[0], style="red bold"), soft_wrap=True)
        for line in lines[1:]:
            console.print(Text(line), soft_wrap=True)
    if not report.ok:
        return 1
    if record:
        for path in record_golden(resolved, seed=seed):
            console.print(Text(f"wrote {path}", style="green"))
    return 0
