"""The buy-decision drill `rp.decision`: issued situations, grading and explanations."""

from __future__ import annotations

from collections import Counter

import pytest

from trainer.drills import REGISTRY
from trainer.drills.base import AnswerError, DrillError, expected_of, grade, issue
from trainer.drills.decision import choice_value
from trainer.engine.russian_rules import load_rules
from trainer.engine.strategy import options

SEEDS = range(5)


@pytest.fixture(scope="module")
def situations():
    return {(level, seed): issue("rp.decision", level, seed=seed) for level in (1, 2, 3) for seed in SEEDS}


def test_registered():
    kind = REGISTRY["rp.decision"]
    assert kind.game == "russian_poker" and kind.levels == (1, 2, 3)


def test_expected_is_the_advisors_single_best_option(situations):
    for s in situations.values():
        data = s["data"]
        opts = options(data["player"], data["upcard"], rules=load_rules(data["rules"]))
        assert [o for o in opts if o.equivalent] == [opts[0]]  # issued only with one best answer
        expected, text, steps = expected_of(s)
        assert expected == choice_value(opts[0])
        assert text.lower() == opts[0].label.lower()
        assert expected in {c["value"] for c in s["answer_format"]["choices"]}
        # The explanation lists every option with its value in antes.
        listed = [str(x) for x in steps if "antes" in str(x)][1:]
        assert len(listed) == len(opts) == len(s["answer_format"]["choices"])
        assert str(steps[-1]) == f"Best: {opts[0].label}."


def test_grading_accepts_the_best_and_rejects_the_rest(situations):
    s = situations[(3, 0)]
    expected, _text, _steps = expected_of(s)
    assert grade(s, expected).correct
    others = [c["value"] for c in s["answer_format"]["choices"] if c["value"] != expected]
    assert others and not any(grade(s, other).correct for other in others)
    label = next(c["label"] for c in s["answer_format"]["choices"] if c["value"] == expected)
    assert grade(s, label.upper()).correct  # the label, in any case, is accepted too


def test_unreadable_answer_is_not_graded():
    s = issue("rp.decision", 1, seed=2)
    with pytest.raises(AnswerError):
        grade(s, "exchange the worst card")


def test_situations_are_reproducible():
    assert issue("rp.decision", 2, seed=9) == issue("rp.decision", 2, seed=9)


def test_levels_reach_every_kind_of_answer(situations):
    level1 = Counter(expected_of(situations[(1, seed)])[0] for seed in SEEDS)
    assert set(level1) <= {"bet", "fold"}
    actions = Counter(expected_of(s)[0].split()[0] for (level, _), s in situations.items() if level > 1)
    assert len(actions) >= 3  # of bet, fold, exchange, sixth_card


def test_house_rules_the_advisor_cannot_value_are_refused():
    with pytest.raises(DrillError, match="two combinations"):
        issue("rp.decision", 1, seed=1, rules="lunar")
