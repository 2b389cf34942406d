"""The drill contract: a registry of drill kinds, issuing situations and grading answers.

A `DrillKind` is three pure functions over plain data: `generate(rng, level, rules_name)` draws the
facts of a situation (JSON-able, never the answer) with its question set by `prompt(data, step(...))`,
`answer_format(data)` says what shape the answer takes, and `solve(data)` recomputes the expected
answer and its explanation from the engine. `issue` returns a `Situation`: the facts with what
reproduces them (kind, level, seed, generator version, rules); `grade` parses a raw answer and
compares it with `solve`. `Situation.to_dict`/`from_dict` are the stored form (the store keeps it as
JSON; rows written before the typed situation load the same way).

Every refusal is a `DrillError` (see `trainer.drills.errors`); the shared helpers of the game modules
(`define`, `prompt`, `retry`, `Data`, `Solution`) live here once.

A kind where more than one answer is right (two plays worth the same) also gives
`accepts(data, answer)`: the parsed answer is graded right when it equals the expected one or
`accepts` says yes. Without it only the expected answer is right. `Grade.expected` stays the one best
answer, the one shown to the trainee.

>>> import random
>>> from trainer.engine.explain import step
>>> toy = DrillKind(
...     id="doc.double", game="doc", title="Double it", version=1,
...     generate=lambda rng, level, rules: prompt({"n": rng.randint(1, 9) * 10}, step("Double it.")),
...     answer_format=lambda data: AnswerFormat(AnswerKind.AMOUNT),
...     solve=lambda data: (2 * data["n"], str(2 * data["n"]), (step("{n} x 2", n=data["n"]),)),
... )
>>> situation = issue(toy, 1, seed=5)
>>> situation == issue(toy, 1, seed=5) == Situation.from_dict(situation.to_dict())
True
>>> [str(line) for line in situation.prompt]
['Double it.']
>>> grade(situation, str(situation.data["n"] * 2), kind=toy).correct
True
>>> lenient = DrillKind(  # within 10 of the double is right too; the expected answer stays the double
...     id="doc.about", game="doc", title="About double", version=1, generate=toy.generate,
...     answer_format=toy.answer_format, solve=toy.solve,
...     accepts=lambda data, answer: abs(answer - 2 * data["n"]) <= 10,
... )
>>> situation = issue(lenient, 1, seed=5)
>>> [grade(situation, str(situation.data["n"] * 2 + d), kind=lenient).correct for d in (5, 11)]
[True, False]
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from trainer.drills.answers import (
    AnswerFormat,
    AnswerKind,
    Choice,
    canonical,
    card_list,
    parse_amount,
    parse_answer,
)
from trainer.drills.errors import (
    AnswerError,
    DealError,
    DrillError,
    LevelError,
    RulesError,
    UnknownKindError,
)
from trainer.drills.houses import using
from trainer.drills.mistakes import Catalogue, Mistake
from trainer.engine.explain import Step
from trainer.engine.presets import HouseSource

__all__ = [
    "REGISTRY",
    "AnswerError",
    "AnswerFormat",
    "AnswerKind",
    "Choice",
    "Data",
    "DealError",
    "DrillError",
    "DrillKind",
    "Grade",
    "LevelError",
    "RulesError",
    "Situation",
    "Solution",
    "UnknownKindError",
    "attach_mistakes",
    "card_list",
    "define",
    "diagnose",
    "expected_of",
    "get_kind",
    "grade",
    "issue",
    "mistakes_of",
    "parse_amount",
    "parse_answer",
    "prompt",
    "register",
    "retry",
]

Data = dict[str, Any]
"""The facts of a situation: JSON-able, cards as strings, never the answer."""
Solution = tuple[Any, str, tuple[Step, ...]]
"""What `solve` returns: the expected answer, how to say it in English, the explanation steps."""

Generate = Callable[[random.Random, int, str | None], Data]
Solve = Callable[[Data], Solution]
Accepts = Callable[[Data, Any], bool]

MAX_SEED = 2**53 - 1  # seeds stay exact as JSON numbers in a browser


@dataclass(frozen=True)
class Grade:
    """The ruling on one answer: right or not, the answer as read, the expected answer (canonical,
    comparable with the answer), how to say it, and the engine's explanation."""

    correct: bool
    expected: Any
    expected_text: str
    explanation: tuple[Step, ...]
    answer: Any = None
    mistake: Mistake | None = None  # the catalogued mistake a wrong answer matches

    def to_json(self) -> dict[str, Any]:
        return {
            "correct": self.correct,
            "expected": self.expected,
            "expected_text": self.expected_text,
            "explanation": [s.to_json() for s in self.explanation],
            "mistake": None
            if self.mistake is None
            else {
                "id": self.mistake.id,
                "title": self.mistake.type.title,
                "text": str(self.mistake.text),
            },
        }


@dataclass(frozen=True, init=False)
class DrillKind:
    """One kind of question. Accepts the fields positionally in this order or by keyword.

    `accepts(data, answer)` (optional) says whether a parsed answer other than the expected one is
    also right; the expected answer is always right. `mistakes(data)` (optional, usually attached
    by the game's `mistakes` module with `attach_mistakes`) lists the typical mistakes of a situation
    (`trainer.drills.mistakes`)."""

    id: str
    game: str
    title: str
    version: int
    levels: tuple[int, ...]
    generate: Generate
    answer_format: Callable[[dict[str, Any]], AnswerFormat]
    solve: Solve
    accepts: Accepts | None
    mistakes: Catalogue | None

    def __init__(
        self,
        id: str,
        game: str,
        title: str,
        version: int,
        levels: tuple[int, ...] = (1, 2, 3),
        generate: Generate | None = None,
        answer_format: Callable[[dict[str, Any]], AnswerFormat] | None = None,
        solve: Solve | None = None,
        accepts: Accepts | None = None,
        mistakes: Catalogue | None = None,
    ) -> None:
        if generate is None or answer_format is None or solve is None:
            raise TypeError(f"drill kind {id!r} needs generate, answer_format and solve")
        if not id or not isinstance(version, int) or version < 1 or not levels:
            raise ValueError(f"drill kind {id!r}: needs an id, a version >= 1 and at least one level")
        for name, value in (
            ("id", id),
            ("game", game),
            ("title", title),
            ("version", version),
            ("levels", tuple(levels)),
            ("generate", generate),
            ("answer_format", answer_format),
            ("solve", solve),
            ("accepts", accepts),
            ("mistakes", mistakes),
        ):
            object.__setattr__(self, name, value)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "title": self.title,
            "version": self.version,
            "levels": list(self.levels),
        }


REGISTRY: dict[str, DrillKind] = {}


def register(kind: DrillKind) -> DrillKind:
    """Add a kind to `REGISTRY` (game modules call this at import); an id may be registered once."""
    if kind.id in REGISTRY and REGISTRY[kind.id] is not kind:
        raise ValueError(f"drill kind {kind.id!r} is already registered")
    REGISTRY[kind.id] = kind
    return kind


def attach_mistakes(kind_id: str, mistakes: Catalogue) -> DrillKind:
    """Register a registered kind's mistake catalogue (the game's `mistakes` module does, after the
    kinds: the catalogue asks the engines the way the kind's solver does)."""
    kind = replace(get_kind(kind_id), mistakes=mistakes)
    REGISTRY[kind_id] = kind
    return kind


def get_kind(kind_id: str) -> DrillKind:
    """The registered kind, or `UnknownKindError` naming the id."""
    kind = REGISTRY.get(kind_id) if isinstance(kind_id, str) else None
    if kind is None:
        raise UnknownKindError(f"unknown drill kind {kind_id!r}")
    return kind


def _rng(kind: DrillKind, level: int, seed: int) -> random.Random:
    # The string seed ties the draw to kind, level and generator version, so the same seed number
    # gives unrelated situations in different kinds and a new generator version cannot replay old ones.
    return random.Random(f"{kind.id}/{kind.version}/{level}/{seed}")


@dataclass(frozen=True)
class Situation:
    """One issued question: what reproduces it (kind, level, seed, generator version, house rules),
    its facts (`data`: JSON-able, never the answer) and the shape of its answer.

    `to_dict` is the stored and API form (the envelope {kind, level, seed, version, rules, data,
    answer_format}); `from_dict` reads it back, including rows stored before this class existed (their
    question is an English template with `prompt_params`)."""

    kind: str
    level: int
    seed: int
    version: int
    rules: str | None
    data: Data
    answer_format: AnswerFormat

    @property
    def prompt(self) -> tuple[Step, ...]:
        """The question, sentence by sentence."""
        return prompt_of(self.data)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "level": self.level,
            "seed": self.seed,
            "version": self.version,
            "rules": self.rules,
            "data": self.data,
            "answer_format": self.answer_format.to_json(),
        }

    @classmethod
    def from_dict(cls, envelope: Mapping[str, Any], *, houses: HouseSource | None = None) -> Situation:
        """The situation from its stored form. The answer format is recomputed from the facts when the
        kind is registered (so a drill shows the choices it is graded against), else read as stored;
        `houses` holds the house presets the situation may name (see `trainer.drills.houses`)."""
        try:
            kind_id, data = str(envelope["kind"]), dict(envelope["data"])
            kind = REGISTRY.get(kind_id)
            with using(houses):
                fmt = kind.answer_format(data) if kind else AnswerFormat.from_json(envelope["answer_format"])
            return cls(
                kind_id,
                int(envelope["level"]),
                int(envelope["seed"]),
                int(envelope["version"]),
                envelope.get("rules"),
                data,
                fmt,
            )
        except (KeyError, TypeError, ValueError) as error:
            raise DrillError(f"not a stored situation: {error}") from None


def prompt_of(data: Mapping[str, Any]) -> tuple[Step, ...]:
    """The question of a situation's facts: its messages, or (a row stored before the messages) the
    English template with its parameters."""
    stored = data.get("prompt")
    if isinstance(stored, str):
        return (Step(stored, dict(data.get("prompt_params") or {})),)
    if not isinstance(stored, list) or not stored:
        raise DrillError("the situation has no question")
    return tuple(Step.from_json(m) for m in stored)


def prompt(data: Data, *messages: Step) -> Data:
    """Set the question of a situation, one message per sentence; returns `data`."""
    if not messages or not all(isinstance(m, Step) for m in messages):
        raise TypeError("a prompt is one or more messages: prompt(data, step(...), ...)")
    data["prompt"] = [m.to_json() for m in messages]
    return data


def retry(make: Callable[[], Data], attempts: int = 50) -> Data:
    """Call `make` until it returns a situation: it rejects cards by raising `DealError`, or any
    `ValueError` / `IndexError` (an engine refusing a dealt hand); `DealError` after `attempts`."""
    for _ in range(attempts):
        try:
            return make()
        except (ValueError, IndexError):
            continue
    raise DealError("no situation could be dealt for this branch")


def define(
    game: str,
    kind_id: str,
    title: str,
    generate: Generate,
    answer_format: Callable[[Data], AnswerFormat],
    solve: Solve,
    *,
    levels: tuple[int, ...] = (1, 2, 3),
    version: int = 1,
    accepts: Accepts | None = None,
) -> DrillKind:
    """Create and register a kind (what each game module calls at import)."""
    return register(DrillKind(kind_id, game, title, version, levels, generate, answer_format, solve, accepts))


def issue(
    kind_id: str | DrillKind,
    level: int,
    seed: int | None = None,
    rules: str | None = None,
    *,
    houses: HouseSource | None = None,
) -> Situation:
    """Draw a situation of this kind and level; `seed=None` draws a fresh seed. `rules` names a
    shipped preset, or a house preset that `houses` holds (`trainer.drills.houses`).

    `data` has been through JSON, so it is exactly what the store will give back later, and `solve`
    sees the same thing now and then. Refusals are `DrillError`s.
    """
    kind = kind_id if isinstance(kind_id, DrillKind) else get_kind(kind_id)
    if isinstance(level, bool) or not isinstance(level, int) or level not in kind.levels:
        levels = ", ".join(str(n) for n in kind.levels)
        raise LevelError(f"drill kind {kind.id!r} has levels {levels}, not {level!r}")
    if seed is None:
        seed = secrets.randbelow(2**31)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise DrillError(f"seed must be a whole number from 0 to {MAX_SEED}, not {seed!r}")
    if rules is not None and not isinstance(rules, str):
        raise RulesError(f"rules must be the name of a house-rules preset, not {rules!r}")
    with using(houses):
        data = json.loads(json.dumps(kind.generate(_rng(kind, level, seed), level, rules)))
        if not isinstance(data.get("prompt"), list):
            raise TypeError(f"drill kind {kind.id!r} generated a situation without a prompt(data, step(...))")
        return Situation(kind.id, level, seed, kind.version, rules, data, kind.answer_format(data))


def expected_of(
    situation: Situation, kind: DrillKind | None = None, *, houses: HouseSource | None = None
) -> Solution:
    """The canonical expected answer of an issued situation, its text and explanation; `houses` holds
    the house preset the situation was issued under, if it names one."""
    kind = kind or get_kind(situation.kind)
    data = situation.data
    with using(houses):
        value, text, steps = kind.solve(data)
        return canonical(_format_of(situation, kind), value), text, tuple(steps)


def _format_of(situation: Situation, kind: DrillKind) -> AnswerFormat:
    """The situation's answer format: the one it was built with (by `issue` or `Situation.from_dict`,
    from its facts, by its own kind), else this kind's for its facts."""
    return situation.answer_format if kind.id == situation.kind else kind.answer_format(situation.data)


def grade(
    situation: Situation, raw: Any, *, kind: DrillKind | None = None, houses: HouseSource | None = None
) -> Grade:
    """Grade a raw answer to an issued situation; `AnswerError` if the answer cannot be read.

    Right when the parsed answer equals the expected one, or the kind `accepts` it."""
    kind = kind or get_kind(situation.kind)
    data = situation.data
    with using(houses):
        answer = parse_answer(_format_of(situation, kind), raw)
        expected, text, steps = expected_of(situation, kind)
        correct = _right(kind, data, expected, answer)
        mistake = None if correct else diagnose(situation, answer, kind=kind, expected=expected)
        return Grade(correct, expected, text, steps, answer, mistake)


def _right(kind: DrillKind, data: dict[str, Any], expected: Any, answer: Any) -> bool:
    return answer == expected or (kind.accepts is not None and bool(kind.accepts(data, answer)))


def mistakes_of(
    situation: Situation,
    *,
    kind: DrillKind | None = None,
    expected: Any = None,
    houses: HouseSource | None = None,
) -> list[Mistake]:
    """The kind's catalogued mistakes for this situation with their answers in canonical form, most
    common first; one per distinct answer (the first named), none whose answer is right."""
    kind = kind or get_kind(situation.kind)
    if kind.mistakes is None:
        return []
    with using(houses):
        return _mistakes_of(situation, kind, expected)


def _mistakes_of(situation: Situation, kind: DrillKind, expected: Any) -> list[Mistake]:
    assert kind.mistakes is not None
    data = situation.data
    fmt = kind.answer_format(data)
    if expected is None:
        expected = expected_of(situation, kind)[0]
    try:
        candidates = list(kind.mistakes(data))
    except (ValueError, KeyError, TypeError):
        # Naming the mistake is an aid, never a reason to fail: a situation the catalogue cannot read
        # (a row stored under house rules edited since) is graded all the same, with no mistake named.
        return []
    found: list[Mistake] = []
    seen: list[Any] = []
    for mistake in candidates:
        try:
            answer = canonical(fmt, mistake.answer)
        except ValueError:  # a choice the question does not offer cannot be the trainee's answer
            continue
        if answer in seen or _right(kind, data, expected, answer):
            continue
        seen.append(answer)
        found.append(replace(mistake, answer=answer))
    return found


def diagnose(
    situation: Situation,
    answer: Any,
    *,
    kind: DrillKind | None = None,
    expected: Any = None,
    houses: HouseSource | None = None,
) -> Mistake | None:
    """The catalogued mistake that leads to this parsed answer, or None (a right answer has none)."""
    found = mistakes_of(situation, kind=kind, expected=expected, houses=houses)
    return next((m for m in found if m.answer == answer), None)
