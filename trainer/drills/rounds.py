"""Rounds at the live table: a whole hand of one game, ruled step by step by the trainee as the dealer.

A round is dealt from a seed by its game's `round` module (`trainer/drills/<game>/round.py`): the
cards, the simulated players' decisions and, in table order, every step where the dealer must rule.
Each `RoundStep` carries the table as the dealer sees it at that moment, the question (an English
template with named parameters, a message id) and its answer format (the drills' formats), and the
facts its solver reads. The expected answer is never part of a step: `grade_step` recomputes it from
the engines when the step is answered. The steps do not depend on the trainee's answers: a wrong step
is graded and explained, and the round goes on from the right value, as a pit boss would correct it.

A round is a pure function of (game, level, seed, seats, rules, payout form, generator version), so
the store keeps only those and deals the round again when it is needed (`deal` is cached).

>>> r = deal("russian_poker", 1, seed=7, seats=2)
>>> r == deal("russian_poker", 1, seed=7, seats=2), len(r.steps) > 0
(True, True)
>>> grade_step(r, 0, expected_answer(r, 0)).correct
True
"""

from __future__ import annotations

import importlib
import json
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from trainer import games as registry
from trainer.drills.answers import AnswerError, AnswerFormat, AnswerKind, canonical, parse_answer
from trainer.drills.base import MAX_SEED, DrillError
from trainer.drills.chips import CHIPS_FORMS, PAYOUT_FORMS, ChipSet, load_chips
from trainer.drills.houses import in_use, using
from trainer.engine.explain import N_, Step, step
from trainer.engine.presets import HouseSource, HouseTexts

GAMES = tuple(game.id for game in registry.GAMES)
LEVELS = (1, 2, 3)


class RoundError(DrillError):
    """A round cannot be dealt or answered as asked (the message says why)."""


class HouseSeatsError(RoundError):
    """Seats the game deals for, but not under these house rules (Georgian joker: 4 players only);
    `allowed` is what the house seats, for a page to say in its language."""

    def __init__(self, message: str, rules: str = "", allowed: range = range(0)) -> None:
        super().__init__(message)
        self.rules = rules
        self.allowed = allowed


@dataclass(frozen=True)
class RoundStep:
    """One ruling the dealer makes. `money` says whose chips a wrong answer moves: "pay" (the house pays
    it out: an answer above the expected gives chips away), "collect" (the house takes it in: an
    answer below the expected leaves chips with the player), "" (no house chips: a pot, a score)."""

    kind: str
    question: Step
    answer_format: AnswerFormat
    table: dict[str, Any]
    data: dict[str, Any]
    money: str = ""

    def to_json(self) -> dict[str, Any]:
        """What a client sees: the table, the question and its format; never the answer or the
        solver's facts (they are on the table anyway)."""
        return {
            "kind": self.kind,
            "question": {
                "template": self.question.template,
                "params": dict(self.question.params),
                "text": str(self.question),
            },
            "answer_format": self.answer_format.to_json(),
            "money": self.money,
            "table": self.table,
        }


# What `deal` takes to deal a round again, card for card (with `version`: the same generator).
DEALT_AGAIN = ("game", "level", "seed", "seats", "rules", "payout")


@dataclass(frozen=True)
class Round:
    """A dealt round: how to deal it again, its steps in the order a dealer takes them, and the table
    once every step is done (`end_table`)."""

    game: str
    level: int
    seed: int
    seats: int
    rules: str
    payout: str
    version: int
    steps: tuple[RoundStep, ...]
    end_table: dict[str, Any] = field(compare=False)

    def to_json(self) -> dict[str, Any]:
        dealt_again = (*DEALT_AGAIN, "version")
        return {**{name: getattr(self, name) for name in dealt_again}, "steps": len(self.steps)}


@dataclass(frozen=True)
class StepGrade:
    """The ruling on one step: right or not, the parsed answer, the expected one and how to say it,
    the explanation, and what the mistake costs the house in chips (negative: chips given away)."""

    correct: bool
    answer: Any
    expected: Any
    expected_text: str
    explanation: tuple[Step, ...]
    house_chips: int

    def to_json(self) -> dict[str, Any]:
        return {
            "correct": self.correct,
            "answer": self.answer,
            "expected": self.expected,
            "expected_text": self.expected_text,
            "explanation": [s.to_json() for s in self.explanation],
            "house_chips": self.house_chips,
        }


Solve = Callable[[dict[str, Any]], tuple[Any, str, tuple[Step, ...]]]


@dataclass(frozen=True)
class StepKind:
    """How one kind of step is solved from its facts, by the engines."""

    id: str
    solve: Solve


@dataclass(frozen=True)
class GameRounds:
    """What a game's `round` module gives: its generator version, the seats it deals for (and the
    default per level), `deal_steps(rng, level, seats, rules, chips, payout)` -> (steps, end table),
    its step kinds, the word for its seats, whether the house pays from its float, the chip set a
    house-rules preset pays in (`house_chips(rules)`; that set's `payout_answer` is the house's form of
    a payout answer), and `house_seats(rules)`: the seats a house's rules allow (Georgian joker: 4
    players only), where they narrow `seats`. A round deals under every preset the game's loader
    accepts, shipped or a group's edited copy (`house-<digest>`)."""

    game: str
    version: int
    seats: range
    default_seats: Callable[[random.Random, int], int]
    default_rules: str
    deal_steps: Callable[..., tuple[list[RoundStep], dict[str, Any]]]
    kinds: dict[str, StepKind]
    seat_word: str = N_("Seats")  # what `seats` counts at this table (a marked message id)
    payouts: bool = False  # the round has payout steps (boxes paid, pots pushed): answerable in chips
    house_chips: Callable[[str], ChipSet] = lambda _rules: load_chips()
    house_seats: Callable[[str], range] | None = None

    def seats_under(self, rules: str) -> range:
        """The seats a round may have under these house rules (empty: none can be dealt)."""
        allowed = self.house_seats(rules) if self.house_seats is not None else self.seats
        return range(max(self.seats.start, allowed.start), min(self.seats.stop, allowed.stop))


def dealt_presets(game: str) -> tuple[str, ...]:
    """The shipped presets a round of this game deals under, the default first (every one whose
    rules leave some seats at the table)."""
    rounds = game_rounds(game)
    return tuple(n for n in registry.BY_ID[game].preset_names() if rounds.seats_under(n))


def game_rounds(game: str) -> GameRounds:
    """The `ROUNDS` of the game's drills package's `round` module (`trainer.drills.<game>.round`)."""
    if game not in GAMES:
        raise RoundError(f"unknown game {game!r}: one of {', '.join(GAMES)}")
    module = importlib.import_module(f"{registry.BY_ID[game].drills}.round")
    rounds: GameRounds = module.ROUNDS
    return rounds


def _whole(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RoundError(f"{name} must be a whole number from {low} to {high}, not {value!r:.40}")
    return value


def check_request(
    game: str,
    level: int,
    seed: int | None,
    seats: int | None,
    rules: str | None,
    payout: str | None,
    houses: HouseSource | None = None,
) -> tuple[GameRounds, int, int, int | None, str, str]:
    """Validate what a client asks for; returns (game rounds, level, seed, seats, rules, payout).
    `rules` names a shipped preset or a house preset that `houses` holds."""
    houses = in_use() if houses is None else houses
    with using(houses):
        if not isinstance(game, str):
            raise RoundError(f"game must be one of {', '.join(GAMES)}")
        rounds = game_rounds(game)
        level = _whole("level", level, 1, 3)
        seed = secrets.randbelow(2**31) if seed is None else _whole("seed", seed, 0, MAX_SEED)
        if rules is None:
            rules = rounds.default_rules
        if not isinstance(rules, str) or not registry.BY_ID[game].presets.is_preset(rules, houses):
            shipped = ", ".join(registry.BY_ID[game].preset_names())
            raise RoundError(
                f"rules for {game} rounds: one of {shipped} or a group's copy, not {rules!r:.40}"
            )
        allowed = rounds.seats_under(rules)
        if not allowed:
            raise RoundError(f"the house rules {rules} leave no seats a {game} round can deal")
        if seats is not None:
            seats = _whole("seats", seats, rounds.seats.start, rounds.seats.stop - 1)
            if seats not in allowed:
                raise HouseSeatsError(
                    f"the house rules {rules} seat {allowed.start} to {allowed.stop - 1}, not {seats}",
                    rules,
                    allowed,
                )
        if payout is None:
            payout = rounds.house_chips(rules).payout_answer
        if payout not in PAYOUT_FORMS:
            raise RoundError(f"payout answers are 'amount', 'chips' or 'fewest', not {payout!r:.40}")
        return rounds, level, seed, seats, rules, payout


def deal(
    game: str,
    level: int,
    seed: int | None = None,
    *,
    seats: int | None = None,
    rules: str | None = None,
    payout: str | None = None,
    houses: HouseSource | None = None,
) -> Round:
    """Deal a round (the same arguments always deal the same round); `RoundError` for a bad request.

    `seats` is the number of boxes (Russian poker, 1 to 6), seats (Omaha, 4 to 10) or players (painted
    poker, 3 to 6, up to 10 where the house's 54-card deck seats them); by default the level chooses.
    `payout` is the form of a payout answer, "amount" or "chips" (default: the choice of the chip set
    the house rules pay in). `rules` may name a house preset that `houses` holds."""
    rounds, level, seed, seats, rules, payout = check_request(game, level, seed, seats, rules, payout, houses)
    folder = registry.BY_ID[rounds.game].presets
    text = folder.house_text(rules, in_use() if houses is None else houses)
    return _deal(rounds.game, level, seed, seats, rules, payout, text)


@lru_cache(maxsize=512)
def _deal(
    game: str, level: int, seed: int, seats: int | None, rules: str, payout: str, text: str | None = None
) -> Round:
    # The house preset's text is part of the key: the cache answers only what the caller's source holds.
    folder = registry.BY_ID[game].presets
    with using(None if text is None else HouseTexts.of(folder.game, rules, text)):
        return _dealt(game, level, seed, seats, rules, payout)


def _dealt(game: str, level: int, seed: int, seats: int | None, rules: str, payout: str) -> Round:
    rounds = game_rounds(game)
    # The string seed ties the deal to game, generator version and level, as drills do.
    rng = random.Random(f"round/{game}/{rounds.version}/{level}/{seed}")
    if seats is None:
        allowed = rounds.seats_under(rules)
        seats = min(max(rounds.default_seats(rng, level), allowed.start), allowed.stop - 1)
    rng = random.Random(f"round/{game}/{rounds.version}/{level}/{seed}/{seats}/{rules}")
    steps, end = rounds.deal_steps(rng, level, seats, rules, rounds.house_chips(rules), payout)
    # Through JSON, so a step is exactly what a client and the store see.
    frozen = tuple(
        RoundStep(s.kind, s.question, s.answer_format, _json(s.table), _json(s.data), s.money) for s in steps
    )
    return Round(game, level, seed, seats, rules, payout, rounds.version, frozen, _json(end))


def _json(value: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(json.dumps(value))
    return result


def _step(r: Round, index: int) -> RoundStep:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(r.steps):
        raise RoundError(f"this round has steps 0 to {len(r.steps) - 1}, not {index!r:.20}")
    return r.steps[index]


def solve_step(r: Round, index: int, houses: HouseSource | None = None) -> tuple[Any, str, tuple[Step, ...]]:
    """The expected answer of a step (canonical), its text and explanation, from the engines;
    `houses` holds the house preset the round was dealt under, if it names one."""
    s = _step(r, index)
    kind = game_rounds(r.game).kinds[s.kind]
    with using(houses):
        value, text, steps = kind.solve(s.data)
    return canonical(s.answer_format, value), text, tuple(steps)


def expected_answer(r: Round, index: int, houses: HouseSource | None = None) -> Any:
    return solve_step(r, index, houses)[0]


def house_chips(game: str, rules: str, houses: HouseSource | None = None) -> ChipSet:
    """The chip set the game's house rules `rules` pay in (a house preset of `houses` too)."""
    with using(houses):
        return game_rounds(game).house_chips(rules)


def _chips_value(s: RoundStep, answer: Any) -> Any:
    """A chips answer's value (for a chips step); otherwise the answer itself."""
    chips = s.data.get("chips")
    if chips and isinstance(answer, dict):
        return load_chips(chips).value_of(answer)
    return answer


def grade_step(r: Round, index: int, raw: Any, houses: HouseSource | None = None) -> StepGrade:
    """Grade a raw answer to step `index`; `AnswerError` when it cannot be read (nothing graded).

    A chips answer is right when its value is right (any chips that make the amount), unless the step
    is cut from the float (payout form "fewest", `cut` in its facts): then only the fewest chips are
    right. The expected answer shown is the fewest chips; the explanation adds how the given chips
    colour up to them (`chips_notes`)."""
    s = _step(r, index)
    if s.data.get("chips"):
        raw = fill_chips(s.answer_format, raw)
    answer = parse_answer(s.answer_format, raw)
    expected, text, steps = solve_step(r, index, houses)
    given, wanted = _chips_value(s, answer), _chips_value(s, expected)
    correct = given == wanted and (answer == expected or not s.data.get("cut"))
    steps = (*steps, *chips_notes(s, answer, expected))
    house = 0
    if isinstance(given, int) and isinstance(wanted, int) and s.money:
        # Paying 40 too much gives 40 away; collecting 10 too little leaves 10 with the player.
        house = wanted - given if s.money == "pay" else given - wanted
    return StepGrade(correct, answer, expected, text, steps, house)


def chips_notes(s: RoundStep, answer: Any, expected: Any) -> tuple[Step, ...]:
    """What the explanation of a chips step adds when the chips given are not the fewest: on a step cut
    from the float whose value is right, why it is still wrong; then how the given chips colour up.

    >>> r = deal("russian_poker", 1, seed=13, seats=1, payout="fewest")
    >>> i = next(i for i, s in enumerate(r.steps) if s.kind == "rp.payout")
    >>> fewest = expected_answer(r, i)
    >>> fives = dict.fromkeys(fewest, 0) | {"5": load_chips().value_of(fewest) // 5}
    >>> graded = grade_step(r, i, fives)
    >>> graded.correct, graded.house_chips  # the right value, not the right cut: no chip lost
    (False, 0)
    >>> str(chips_notes(r.steps[i], fives, fewest)[0]).startswith("The value")
    True
    """
    if not s.data.get("chips") or not isinstance(answer, dict) or answer == expected:
        return ()
    chips = load_chips(s.data["chips"])
    try:
        value = chips.value_of(answer)
    except ValueError:
        return ()
    tray = s.data.get("float") if s.data.get("cut") else None
    notes: list[Step] = []
    if s.data.get("cut") and isinstance(expected, dict) and value == chips.value_of(expected):
        cut = ", ".join(f"{n} x {v}" for v, n in expected.items() if n)
        notes.append(
            step(
                "The value {value} is right, but a payout is cut in the fewest chips: {chips}.",
                value=value,
                chips=cut,
            )
        )
    if tray is None:
        notes += chips.colour_up(answer)
    else:
        # A counted float: colouring up could call for chips it does not hold; say what it lacks.
        notes += [
            step("The float holds only {count} x {value}.", count=tray.get(label, 0), value=label)
            for label, n in answer.items()
            if n > tray.get(label, 0)
        ]
    return tuple(notes)


def fill_chips(fmt: AnswerFormat, raw: Any) -> Any:
    """A chips answer names only the chips paid: {"100": 4, "25": 1} or "100: 4; 25: 1" (the other
    denominations are none). Anything else is left for the parser to judge.

    >>> fill_chips(AnswerFormat(AnswerKind.AMOUNTS, labels=("100", "25", "5")), "100: 4; 25: 1")
    {'100': '4', '25': '1', '5': 0}
    """
    if isinstance(raw, str):
        entries = [e.strip() for e in raw.replace("\n", ";").split(";") if e.strip()]
        if not entries or not all(":" in e for e in entries):
            return raw
        pairs = [e.split(":", 1) for e in entries]
        raw = {k.strip(): v.strip() for k, v in pairs}
        if len(raw) != len(pairs):
            return "; ".join(entries)  # a denomination given twice: the parser says so
    if isinstance(raw, dict):
        given = {str(k).strip(): v for k, v in raw.items()}
        if not set(given) <= set(fmt.labels):
            return raw  # an unknown denomination: the parser names it
        return {label: given.get(label, 0) for label in fmt.labels}
    return raw


def payout_format(chips: ChipSet, payout: str) -> AnswerFormat:
    """A payout step's answer: one amount, or a count per denomination (any chips, or cut)."""
    return chips.answer_format() if payout in CHIPS_FORMS else AnswerFormat(AnswerKind.AMOUNT)


def payout_answer(chips: ChipSet, payout: str, amount: int) -> Any:
    """The expected payout in the step's form: the amount, or its fewest chips."""
    return chips.fewest(amount) if payout in CHIPS_FORMS else amount


def payout_facts(chips: ChipSet, payout: str) -> dict[str, Any]:
    """What a payout step's facts say of its form: the chip set it is counted in (None: an amount) and,
    cut from the float, `cut` (only the fewest chips are right)."""
    facts: dict[str, Any] = {"chips": chips.name if payout in CHIPS_FORMS else None}
    if payout == "fewest":
        facts["cut"] = True
    return facts


@dataclass(frozen=True)
class StepRecord:
    """One answered step as the store keeps it."""

    step: int
    correct: bool
    time_ms: int
    house_chips: int


def result(r: Round, records: Sequence[StepRecord]) -> dict[str, Any]:
    """The round's result: steps right, time per step and in all, chips the house lost or gained.

    >>> r = deal("russian_poker", 1, seed=3, seats=1)
    >>> done = [StepRecord(i, True, 2000, 0) for i in range(len(r.steps))]
    >>> summary = result(r, done)
    >>> summary["right"] == summary["steps"], summary["house_chips"]
    (True, 0)
    """
    return result_of(len(r.steps), records)


def result_of(steps: int, records: Sequence[StepRecord]) -> dict[str, Any]:
    """The result of a round of `steps` steps from its answered steps (no need to deal it again: the
    result of a round dealt by an older generator is still read)."""
    by_step = {rec.step: rec for rec in records}
    answered = [by_step[i] for i in range(steps) if i in by_step]
    total_ms = sum(rec.time_ms for rec in answered)
    return {
        "steps": steps,
        "answered": len(answered),
        "right": sum(rec.correct for rec in answered),
        "accuracy": round(sum(rec.correct for rec in answered) / len(answered), 4) if answered else 0.0,
        "time_ms": total_ms,
        "mean_step_ms": round(total_ms / len(answered)) if answered else 0,
        "step_times_ms": [rec.time_ms for rec in answered],
        "house_chips": sum(rec.house_chips for rec in answered),
        "finished": len(answered) == steps,
    }


__all__ = [
    "DEALT_AGAIN",
    "GAMES",
    "LEVELS",
    "AnswerError",
    "GameRounds",
    "HouseSeatsError",
    "Round",
    "RoundError",
    "RoundStep",
    "StepGrade",
    "StepKind",
    "StepRecord",
    "check_request",
    "chips_notes",
    "deal",
    "dealt_presets",
    "expected_answer",
    "game_rounds",
    "grade_step",
    "house_chips",
    "payout_answer",
    "payout_facts",
    "payout_format",
    "result",
    "result_of",
    "solve_step",
    "step",
]
