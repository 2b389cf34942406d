"""The buy-decision drill `rp.decision`: live situations for any house, exact grading, explanations."""

from __future__ import annotations

from collections import Counter

import pytest
from api_helpers import make_api_app, token_client

from trainer.drills import REGISTRY
from trainer.drills.base import AnswerError, Situation, expected_of, grade, issue
from trainer.drills.russian_poker import decision
from trainer.drills.russian_poker.decision import choice_label, choice_value
from trainer.engine.russian_poker.strategy import Action, best_options
from trainer.store import Store, open_db

SEEDS = range(3)


@pytest.fixture(scope="module")
def situations():
    return {(level, seed): issue("rp.decision", level, seed=seed) for level in (1, 2, 3) for seed in SEEDS}


def _situation(player, upcard, rules="cis", level=2):
    """The situation `issue` would give for this hand."""
    data = decision._situation(rules, player, upcard)
    kind = REGISTRY["rp.decision"]
    return Situation(kind.id, level, 0, kind.version, rules, data, kind.answer_format(data))


def _best(s):
    data = s.data
    return best_options(data["player"], data["upcard"], rules=data["rules"])


def test_registered():
    kind = REGISTRY["rp.decision"]
    assert kind.game == "russian_poker" and kind.levels == (1, 2, 3) and kind.accepts is not None


def test_expected_is_the_advisors_best_and_the_explanation_names_it(situations):
    for s in situations.values():
        expected, text, steps = expected_of(s)
        best = _best(s)
        assert expected == choice_value(best[0])
        choices = s.answer_format.to_json()["choices"]
        assert text == next(c["label"] for c in choices if c["value"] == expected)
        # The rule of thumb leads (every shipped house has one computed), then the best option.
        assert str(steps[0]).startswith("Rule of thumb at this table: ")
        assert str(steps[1]) == f"Best: {choice_label(best[0])}."
        assert any(str(x).startswith("Fold: -1.000\u00a0antes") for x in steps)
        # Only the best and any option worth exactly as much are right.
        right = {c["value"] for c in choices if grade(s, c["value"]).correct}
        assert right == {choice_value(o) for o in best}


def test_grading_accepts_the_best_in_any_notation_and_rejects_the_rest():
    s = _situation("Jh Th 9h 4c 4s", "Ad")  # keep the pair of fours: exchange J-T-9
    expected, _text, _steps = expected_of(s)
    assert expected == "exchange Jh Th 9h"
    symbols = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
    for raw in (
        "exchange 9h Th Jh",
        "Exchange: jh, th, 9h",
        "exchange " + "".join(symbols["h"] + r for r in "JT9"),
    ):
        graded = grade(s, raw)
        assert graded.correct and graded.expected == expected, raw
    others = [c["value"] for c in s.answer_format.to_json()["choices"] if c["value"] != expected]
    assert len(others) == 2 + 30 + 1 and not any(grade(s, other).correct for other in others[:6])
    assert grade(s, "EXCHANGE JH TH 9H").correct


def test_level_1_asks_bet_or_fold_only(situations):
    for seed in SEEDS:
        s = situations[(1, seed)]
        assert {o.action for o in _best(s)} <= {Action.BET, Action.FOLD}


def test_levels_reach_several_kinds_of_answer(situations):
    actions = Counter(expected_of(s)[0].split()[0] for (level, _), s in situations.items() if level > 1)
    assert len(actions) >= 2  # of bet, fold, exchange, sixth_card


def test_every_house_is_dealt_live():
    for rules in ("insured", "lunar", "caribbean"):
        s = issue("rp.decision", 2, seed=1, rules=rules)
        data = s.data
        best = best_options(data["player"], data["upcard"], rules=rules)
        assert expected_of(s)[0] == choice_value(best[0])
        values = {c["value"] for c in s.answer_format.to_json()["choices"]}
        if rules == "caribbean":
            assert values == {"bet", "fold"}
        if rules == "lunar":
            assert not any(v.startswith("exchange") and len(v.split()) == 2 for v in values)  # 2 to 5 cards


def test_insurance_is_offered_for_three_of_a_kind_at_the_insured_house():
    s = _situation("9h 9d 9c 6s 2h", "4d", rules="insured")
    assert "insure" in {c["value"] for c in s.answer_format.to_json()["choices"]}
    trips_not = _situation("9h 9d 8c 6s 2h", "4d", rules="insured")
    assert "insure" not in {c["value"] for c in trips_not.answer_format.to_json()["choices"]}


def test_unreadable_answer_is_not_graded():
    s = issue("rp.decision", 1, seed=2)
    with pytest.raises(AnswerError):
        grade(s, "exchange the worst card")


def test_situations_are_reproducible():
    assert issue("rp.decision", 2, seed=9) == issue("rp.decision", 2, seed=9)


def test_an_answer_through_the_api_is_recorded(tmp_path):
    app = make_api_app(tmp_path)
    client = token_client(app, "teacher", "instructor")  # seeds are for instructors
    store = Store(open_db(app.config["DATABASE"]))
    drill = client.post("/api/v1/drills", json={"kind": "rp.decision", "level": 2, "seed": 3}).json
    situation = store.drill(drill["id"])["situation"]
    best = choice_value(_best(situation)[0])
    body = client.post(f"/api/v1/drills/{drill['id']}/answer", json={"answer": best}).json
    assert body["correct"] is True and body["expected"] == best
    assert store.attempt(drill["id"])["correct"] is True


@pytest.mark.parametrize(
    ("player", "upcard", "rules", "rule", "says"),
    [
        # CIS: bet a pair of 9s or higher, else exchange the other three (the bench's threshold).
        ("5h 5d Kc 9s 2h", "Qd", "cis", "Bet a pair of 9s or higher", "exchange Kc 9s 2h"),
        ("9h 9d Ad Qc 7d", "5d", "cis", "Bet a pair of 9s or higher", "bet"),
        ("Ah Kd 7c 4s 2h", "5c", "cis", "Fold ace-king.", "fold"),
        ("Qc Qs 9d 2d 5d", "As", "caribbean", "Bet any pair.", "bet"),
        ("2h 6h 9h Jh Kc", "Qs", "cis", "With four to a flush, buy a sixth card.", "sixth_card"),
    ],
)
def test_the_explanation_leads_with_the_houses_rule_of_thumb(player, upcard, rules, rule, says):
    """The rule of thumb in words first; "the best play here" exactly when what it says is a right
    answer (checked against the advisor's best options), "an exception" otherwise."""
    s = _situation(player, upcard, rules)
    _expected, _text, steps = expected_of(s)
    first = str(steps[0])
    assert first.startswith(f"Rule of thumb at this table: {rule}"), first
    right = {choice_value(o) for o in _best(s)}
    if says in right:
        assert first.endswith("Here it is the best play."), (first, right)
    else:
        assert first.endswith("This hand is an exception to it."), (first, right)
    assert not any("±" in str(x) or "standard error" in str(x) for x in steps)  # exact values
