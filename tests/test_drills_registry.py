"""Every registered drill kind, whatever its game, keeps the drill contract: reproducible from kind,
level and seed; graded right on its own expected answer and wrong otherwise, on 200 situations per
level; malformed answers rejected, never graded; the situation never carries the answer."""

import json
import random
import re

import pytest

from trainer.drills import REGISTRY
from trainer.drills.base import (
    AnswerError,
    Situation,
    card_list,
    expected_of,
    get_kind,
    grade,
    issue,
    parse_answer,
)
from trainer.engine.cards import FULL_DECK

KINDS = sorted(REGISTRY)
# Per level: with 26 kinds, 1,000 took the suite past 5 minutes on 2 cores, 300 still 5:02; the per-game
# sweeps check 250 against the engines.
COUNT = 120
# Kinds whose solver values a hand exactly over every unseen card (a second or so each): fewer seeds.
COUNT_OF = {"rp.decision": 8}
SEEDS_OF = {"rp.decision": 8}  # 25 took two minutes of one worker on a loaded machine
# Kinds made of other kinds' situations (spot-the-mistake sheets of two to four settled hands, a box
# paid in chips), whose parts are swept here under their own kinds: fewer seeds (9 s -> 2 s).
COMPOSITE = ("rp.spot_mistake", "om.spot_mistake", "pp.spot_mistake", "rp.pay_box")
COUNT_OF |= dict.fromkeys(COMPOSITE, 30)
SEEDS_OF |= dict.fromkeys(COMPOSITE, 10)
ANSWER_KEYS = {"answer", "expected", "expected_text", "solution", "correct", "explanation", "result"}


def test_kinds_are_well_formed():
    assert KINDS, "no drill kinds registered"
    for kind_id in KINDS:
        kind = get_kind(kind_id)
        assert re.fullmatch(r"[a-z]+\.[a-z_]+", kind.id) and kind.title and kind.game
        assert kind.levels == (1, 2, 3) and kind.version >= 1


@pytest.mark.parametrize("kind_id", KINDS)
def test_seeded_generation_is_reproducible(kind_id):
    seeds = range(SEEDS_OF.get(kind_id, 25))
    for level in (1, 2, 3):
        first = [issue(kind_id, level, seed=seed) for seed in seeds]
        assert [issue(kind_id, level, seed=seed) for seed in seeds] == first
        assert len({json.dumps(s.data, sort_keys=True) for s in first}) > 5  # seeds matter
        assert all(Situation.from_dict(json.loads(json.dumps(s.to_dict()))) == s for s in first)


def _leaves(value):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item)
            yield key
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


def _keys(value):
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


def _wrong(expected, fmt, rng):
    if fmt["kind"] == "amount":
        return expected + rng.choice((-1, 1, 10))
    if fmt["kind"] == "choice":
        return rng.choice([c["value"] for c in fmt["choices"] if c["value"] != expected])
    if fmt["kind"] == "amounts":
        label = rng.choice(list(expected))
        return {**expected, label: expected[label] + 1}
    spare = next(str(c) for c in FULL_DECK if str(c) not in expected)
    return card_list([*expected, spare])


@pytest.mark.slow
@pytest.mark.parametrize("kind_id", KINDS)
def test_graded_by_its_own_solution_on_many_situations(kind_id):
    rng = random.Random(kind_id)
    for level in (1, 2, 3):
        leaks = [0, 0]
        for seed in range(COUNT_OF.get(kind_id, COUNT)):
            situation = issue(kind_id, level, seed=seed)
            data, fmt = situation.data, situation.answer_format.to_json()
            assert situation.prompt and all(str(m) for m in situation.prompt)  # every field has its value
            assert not ANSWER_KEYS & set(_keys(data)), f"{kind_id}: situation carries an answer key"
            expected, text, steps = expected_of(situation)
            json.dumps(expected)
            assert text and steps and all(str(s) for s in steps)
            # `grade` is parse + compare with `solve`: run in full on every tenth situation, and on the
            # rest compare the parsed answers directly, sparing two more solves per situation.
            answer_format = get_kind(kind_id).answer_format(data)
            wrong = (
                None if fmt["kind"] == "choice" and len(fmt["choices"]) < 2 else _wrong(expected, fmt, rng)
            )
            kind = get_kind(kind_id)
            if kind.accepts is not None and fmt["kind"] == "choice":
                # Several right answers (rp.decision: options worth exactly as much): the wrong one is
                # none of them.
                others = [
                    c["value"]
                    for c in fmt["choices"]
                    if c["value"] != expected and not kind.accepts(data, c["value"])
                ]
                wrong = rng.choice(others) if others else None
            if seed % 10 == 0:
                right = grade(situation, expected)
                assert right.correct and right.expected == expected
                assert wrong is None or not grade(situation, wrong).correct, (situation, wrong)
            else:
                assert parse_answer(answer_format, expected) == expected
                assert wrong is None or parse_answer(answer_format, wrong) != expected, (situation, wrong)
            if fmt["kind"] == "choice" and len(fmt["choices"]) > 1:
                strings = {
                    str(v).lower() for v in _leaves({k: v for k, v in data.items() if "prompt" not in k})
                }
                leaks[0] += expected.lower() in strings
                leaks[1] += str(_wrong(expected, fmt, rng)).lower() in strings
        # A choice answer written into the situation would appear far more often than a wrong choice.
        assert leaks[0] <= leaks[1] + COUNT * 0.2, (
            f"{kind_id} level {level}: the answer shows in the situation"
        )


MALFORMED = {
    "amount": ["", "abc", "1.5", "12 34 5", None, [], {}],
    "choice": ["", "no such option at all", None, 5, []],
    "amounts": ["", "abc", None, 5, {"no such label": 1}],
    "cards": ["", "Zz", "As As", None, 5],
}


@pytest.mark.parametrize("kind_id", KINDS)
def test_malformed_answers_are_rejected_not_graded(kind_id):
    for level in (1, 2, 3):
        situation = issue(kind_id, level, seed=level)
        for raw in MALFORMED[situation.answer_format.to_json()["kind"]]:
            with pytest.raises(AnswerError) as info:
                grade(situation, raw)
            assert str(info.value)
