"""Spot the mistake: hands the simulated dealer has already settled, zero, one or two of them wrong.

A spot kind (`rp.spot_mistake`, `om.spot_mistake`, `pp.spot_mistake`) is built from a game's
settling kinds that keep a mistake catalogue (`trainer.drills.mistakes`). Each hand is a situation of
such a base kind, drawn by its own generator; the dealer's result shown for it is either the engine's
ruling or the answer of one catalogued mistake of that hand (so a wrong result is a mistake a dealer
really makes, with this hand's numbers). `entries` picks what of the base answer the sheet shows (the
net of a Russian poker box, what each Omaha seat collects, a painted-poker score).

The answer is the right result of every entry (an "amounts" answer, one label per entry): writing the
shown amount keeps an entry, writing another marks it wrong. It is graded against the engine; the
explanation names every wrong entry with its ruling (the catalogued mistake's sentence and the
engine's steps for that hand).

A wrong result is never a mistake whose amounts are in fact right: a mistake is only injected where
the entries it changes differ from the engine's (the tests sweep seeds, levels and houses for it).

>>> from trainer.drills.base import issue, expected_of, grade
>>> situation = issue("rp.spot_mistake", 1, seed=7)
>>> shown = {e["label"]: e["shown"] for e in entries_of(situation.data)}
>>> right, _text, _steps = expected_of(situation)
>>> sum(shown[label] != right[label] for label in right)  # level 1: exactly one wrong result
1
>>> grade(situation, right).correct, grade(situation, shown).correct
(True, False)
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from trainer.drills.answers import AnswerFormat, AnswerKind, Label
from trainer.drills.base import (
    Data,
    DealError,
    DrillKind,
    Generate,
    Solution,
    attach_mistakes,
    canonical,
    define,
    get_kind,
    prompt,
)
from trainer.drills.mistakes import Catalogue, Mistake, mistake_type
from trainer.engine.explain import Step, Term, step

Pick = Callable[[AnswerFormat], tuple[int, ...]]
"""Which of a base kind's answer labels the sheet shows (their positions); all when None."""


@dataclass(frozen=True)
class Plan:
    """One level of a spot kind: the base kinds of its hands (drawn in order, each at `base_level`)
    and how many of them may be wrong, with the weight of each count."""

    hands: tuple[str, ...]
    base_level: int
    errors: dict[int, int]  # {number of wrong hands: weight}


def _question(s: Step) -> bool:
    return s.template.rstrip().endswith("?")


def _labels(fmt: AnswerFormat, pick: Pick | None) -> list[tuple[str | None, Label | None]]:
    """The base answer's (English label, shown label) pairs on the sheet; [(None, None)] for a single
    amount."""
    if fmt.kind is AnswerKind.AMOUNT:
        return [(None, None)]
    if fmt.kind is not AnswerKind.AMOUNTS:
        raise TypeError("a spot kind is built from amount kinds")
    keep = range(len(fmt.labels)) if pick is None else pick(fmt)
    return [(fmt.labels[i], fmt.label_messages[i]) for i in keep]


def _project(value: Any, labels: Sequence[tuple[str | None, Label | None]]) -> list[int]:
    if labels == [(None, None)]:
        return [int(value)]
    return [int(value[label]) for label, _ in labels]


def _mistakes(kind: DrillKind, data: Data) -> list[Mistake]:
    fmt = kind.answer_format(data)
    return [
        replace_answer(m, canonical(fmt, m.answer)) for m in (kind.mistakes(data) if kind.mistakes else ())
    ]


def replace_answer(m: Mistake, answer: Any) -> Mistake:
    return Mistake(m.type, answer, m.text)


def _right(kind: DrillKind, data: Data) -> tuple[Any, tuple[Step, ...]]:
    value, _text, steps = kind.solve(data)
    return canonical(kind.answer_format(data), value), tuple(steps)


def _hand(
    rng: random.Random, base: str, level: int, rules: str | None, wrong: bool, pick: Pick | None
) -> Data:
    """One hand of the sheet: the base situation, and the dealer's results (right, or one mistake's)."""
    kind = get_kind(base)
    for _ in range(30):
        data = json.loads(json.dumps(kind.generate(rng, level, rules)))
        labels = _labels(kind.answer_format(data), pick)
        right = _project(_right(kind, data)[0], labels)
        shown = right
        if wrong:
            wrongs = [p for m in _mistakes(kind, data) if (p := _project(m.answer, labels)) != right]
            if not wrongs:
                continue  # no catalogued mistake shows on this sheet: draw another hand
            shown = rng.choice(wrongs)
        return {"kind": base, "data": data, "shown": shown}
    raise DealError(f"no hand of {base} could be dealt with a mistake that shows")


def entries_of(data: Data) -> list[dict[str, Any]]:
    """Every entry on the sheet: its answer label (English), shown label (a message), hand number, the
    base label and the dealer's result."""
    out = []
    for number, hand in enumerate(data["hands"], 1):
        kind = get_kind(hand["kind"])
        labels = _labels(kind.answer_format(hand["data"]), _PICKS.get(hand["kind"]))
        for (label, shown_label), amount in zip(labels, hand["shown"], strict=True):
            if label is None:
                key, message = f"Hand {number}", step("Hand {hand}", hand=number)
            else:
                key = f"Hand {number} {label}"
                message = step("Hand {hand}, {label}", hand=number, label=shown_label)
            out.append(
                {"label": key, "message": message, "hand": number, "base_label": shown_label, "shown": amount}
            )
    return out


def answer_format(data: Data) -> AnswerFormat:
    entries = entries_of(data)
    return AnswerFormat(
        AnswerKind.AMOUNTS,
        labels=tuple(e["label"] for e in entries),
        label_messages=tuple(e["message"] for e in entries),
    )


def _shown_step(entry: dict[str, Any]) -> Step:
    if entry["base_label"] is None:
        return step("The result given: {amount}.", amount=entry["shown"])
    return step("{label}: the result given is {amount}.", label=entry["base_label"], amount=entry["shown"])


_PICKS: dict[str, Pick | None] = {}


def solve(data: Data) -> Solution:
    """The right result of every entry; the explanation rules on each hand the dealer got wrong."""
    right_all: dict[str, int] = {}
    steps: list[Step] = []
    entries = entries_of(data)
    for number, hand in enumerate(data["hands"], 1):
        kind = get_kind(hand["kind"])
        sub = hand["data"]
        labels = _labels(kind.answer_format(sub), _PICKS.get(hand["kind"]))
        value, hand_steps = _right(kind, sub)
        right = _project(value, labels)
        mine = [e for e in entries if e["hand"] == number]
        for entry, amount in zip(mine, right, strict=True):
            right_all[entry["label"]] = amount
        if right == list(hand["shown"]):
            steps.append(step("Hand {hand}: settled right.", hand=number))
            continue
        named = next(
            (m for m in _mistakes(kind, sub) if _project(m.answer, labels) == list(hand["shown"])), None
        )
        for entry, amount in zip(mine, right, strict=True):
            if entry["shown"] != amount:
                steps.append(
                    step(
                        "{label}: {shown} is wrong; the right result is {right}.",
                        label=entry["message"],
                        shown=entry["shown"],
                        right=amount,
                    )
                )
        if named is not None:
            steps.append(step("The mistake: {mistake}.", mistake=Term(named.type.title)))
            steps.append(named.text)
        steps.extend(s for s in hand_steps if named is None or s != named.text)
    text = "; ".join(f"{label}: {amount:,}" for label, amount in right_all.items())
    return right_all, text, tuple(steps)


def _catalogue(prefix: str) -> Catalogue:
    """The trainee's typical mistakes on a sheet: every wrong result taken for right; one of two wrong
    results missed; a wrong result caught but corrected by another of the dealer's mistakes."""
    all_missed = mistake_type(f"{prefix}.spot_all_missed", "A wrong result taken for right")
    one_missed = mistake_type(f"{prefix}.spot_one_missed", "One of two wrong results missed")
    miscorrected = mistake_type(f"{prefix}.spot_miscorrected", "A wrong result corrected by another mistake")

    def catalogue(data: Data) -> list[Mistake]:
        right, _text, _steps = solve(data)
        entries = entries_of(data)
        shown = {e["label"]: e["shown"] for e in entries}
        wrong_hands = sorted({e["hand"] for e in entries if shown[e["label"]] != right[e["label"]]})
        found: list[Mistake] = []
        if wrong_hands:
            found.append(Mistake(all_missed, shown, step("Every result given was taken for right.")))
        if len(wrong_hands) == 2:
            for hand in wrong_hands:
                answer = {e["label"]: (shown if e["hand"] == hand else right)[e["label"]] for e in entries}
                found.append(Mistake(one_missed, answer, step("Hand {hand} was taken for right.", hand=hand)))
        for hand in wrong_hands:
            base = data["hands"][hand - 1]
            kind = get_kind(base["kind"])
            labels = _labels(kind.answer_format(base["data"]), _PICKS.get(base["kind"]))
            correct = _project(_right(kind, base["data"])[0], labels)
            keys = [e["label"] for e in entries if e["hand"] == hand]
            for m in _mistakes(kind, base["data"]):
                other = _project(m.answer, labels)
                if other in (correct, list(base["shown"])):
                    continue
                answer = dict(right) | dict(zip(keys, other, strict=True))
                found.append(Mistake(miscorrected, answer, m.text))
        return found

    return catalogue


def draw_sheet(plan: Plan, rng: random.Random, rules: str | None) -> Data:
    """Draw the hands of one sheet by `plan`: how many are wrong first, then which, then each hand (a
    game's spot module calls this from its generator)."""
    counts, weights = zip(*plan.errors.items(), strict=True)
    wrong_count = min(rng.choices(counts, weights)[0], len(plan.hands))
    wrong = set(rng.sample(range(len(plan.hands)), wrong_count))
    hands = [
        _hand(rng, base, plan.base_level, rules, i in wrong, _PICKS.get(base))
        for i, base in enumerate(plan.hands)
    ]
    data: Data = {"hands": hands}
    if rules is not None:
        data["rules"] = rules
    said: list[Step] = [step("These hands have been settled. Check every result.")]
    for number, hand in enumerate(hands, 1):
        said.append(step("Hand {hand}:", hand=number))
        said.extend(s for s in (Step.from_json(m) for m in hand["data"]["prompt"]) if not _question(s))
        said.extend(_shown_step(e) for e in entries_of(data) if e["hand"] == number)
    said.append(step("Which results are wrong? Give the right result of every entry."))
    said.append(step("Where the result given is right, write it again."))
    return prompt(data, *said)


def spot_kind(
    game: str,
    kind_id: str,
    title: str,
    generate: Generate,
    picks: dict[str, Pick | None],
    levels: tuple[int, ...] = (1, 2, 3),
) -> DrillKind:
    """Define and register a spot kind with the game's generator (which calls `draw_sheet`); `picks`
    says, per base kind, what of its answer the sheet shows."""
    _PICKS.update(picks)
    define(game, kind_id, title, generate, answer_format, solve, levels=levels)
    return attach_mistakes(kind_id, _catalogue(kind_id.split(".", 1)[0]))
