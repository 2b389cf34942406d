"""The buy-decision drill `rp.decision`: issued situations, grading and explanations."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from trainer.drills import REGISTRY, decision
from trainer.drills.base import AnswerError, DrillError, expected_of, grade, issue
from trainer.drills.decision import choice_label, choice_value
from trainer.engine.russian_rules import load_rules
from trainer.engine.strategy import options

SEEDS = range(5)


@pytest.fixture(scope="module")
def situations():
    return {(level, seed): issue("rp.decision", level, seed=seed) for level in (1, 2, 3) for seed in SEEDS}


def test_registered():
    kind = REGISTRY["rp.decision"]
    assert kind.game == "russian_poker" and kind.levels == (1, 2, 3)


def test_expected_is_the_single_best_option_and_every_option_is_explained(situations):
    for s in situations.values():
        expected, text, steps = expected_of(s)
        choices = s["answer_format"]["choices"]
        assert expected in {c["value"] for c in choices}
        assert text == next(c["label"] for c in choices if c["value"] == expected)
        # The explanation lists every option with its value in antes, then names the best.
        listed = [str(x) for x in steps if "antes" in str(x)][1:]
        assert len(listed) == len(choices)
        assert not any("as good" in str(x) for x in steps)  # no second option within 0.02 ante


@pytest.mark.parametrize("key", [(1, 0), (2, 1), (3, 2)])
def test_expected_is_what_the_advisor_says_now(situations, key):
    s = situations[key]
    data = s["data"]
    opts = options(data["player"], data["upcard"], rules=load_rules(data["rules"]))
    assert [o for o in opts if o.equivalent] == [opts[0]]  # issued only with one best answer
    expected, _text, steps = expected_of(s)
    assert expected == choice_value(opts[0])
    assert str(steps[-1]) == f"Best: {choice_label(opts[0])}."


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


def test_the_bank_has_every_kind_of_answer_for_each_preset():
    bank = decision._bank()
    assert set(bank) >= {"cis", "insured"}
    for table in bank.values():
        assert {opts[0].action.value for opts in table.values()} == {"bet", "fold", "sixth_card", "exchange"}
        assert all(sum(o.equivalent for o in opts) == 1 for opts in table.values())


@pytest.mark.parametrize("rules_name", ["cis", "insured"])
def test_banked_values_are_the_advisors(rules_name):
    # The bank is a cache of the advisor's tables: re-value a few of its hands now.
    table = decision._bank()[rules_name]
    for player, upcard in random.Random(rules_name).sample(sorted(table), 2):
        banked = table[(player, upcard)]
        now = options(player, upcard, rules=load_rules(rules_name))
        assert choice_value(now[0]) == choice_value(banked[0])
        by_label = {o.label: o for o in now}
        for o in banked:
            fresh = by_label[o.label]
            assert abs(fresh.ev - o.ev) <= 3 * (fresh.stderr + o.stderr) + 1e-5, o.label


def test_a_preset_without_a_bank_is_dealt_and_valued_live():
    s = issue("rp.decision", 1, seed=0, rules="caribbean")
    data = s["data"]
    best = options(data["player"], data["upcard"], rules=load_rules("caribbean"))[0]
    assert expected_of(s)[0] == choice_value(best) in {"bet", "fold"}
    assert {c["value"] for c in s["answer_format"]["choices"]} == {"bet", "fold"}
