"""Spot the mistake (`rp.spot_mistake`, `om.spot_mistake`, `pp.spot_mistake`, trainer/drills/spot.py):
sheets worked by hand, a sweep over seeds, levels and houses, and the drill through the pages and the
API in Georgian."""

from __future__ import annotations

import re
from typing import Any

import pytest
from accounts_helpers import signed_in
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spot_cases import RP_ONE, RP_TWO, SPOT_CASES

from trainer.drills import REGISTRY, Situation, expected_of, get_kind, grade, issue
from trainer.drills.base import mistakes_of
from trainer.drills.spot import entries_of
from trainer.games import BY_ID
from trainer.store import Store, open_db

SPOT_KINDS = ("rp.spot_mistake", "om.spot_mistake", "pp.spot_mistake")
MOST_WRONG = {1: (1, 1), 2: (0, 1), 3: (0, 2)}  # level: (fewest, most) wrong hands


def _situation(kind_id: str, data: dict[str, Any]) -> Situation:
    kind = get_kind(kind_id)
    return Situation(kind_id, 1, 0, kind.version, data.get("rules"), data, kind.answer_format(data))


def _wrong_hands(s: Situation) -> set[int]:
    right = expected_of(s)[0]
    return {e["hand"] for e in entries_of(s.data) if e["shown"] != right[e["label"]]}


def test_the_kinds_are_in_each_games_catalogue() -> None:
    for kind_id, game in zip(SPOT_KINDS, ("russian_poker", "omaha", "painted_poker"), strict=True):
        assert kind_id in BY_ID[game].kinds and REGISTRY[kind_id].game == game
        assert REGISTRY[kind_id].levels == (1, 2, 3) and REGISTRY[kind_id].mistakes is not None


@pytest.mark.parametrize(("kind_id", "data", "right", "mistakes"), SPOT_CASES)
def test_hand_worked_sheets_are_graded_against_the_engine(kind_id, data, right, mistakes) -> None:
    s = _situation(kind_id, data)
    assert expected_of(s)[0] == right
    assert grade(s, right).correct
    shown = {e["label"]: e["shown"] for e in entries_of(data)}
    assert not grade(s, shown).correct  # taking the dealer's word misses the mistake
    for answer in mistakes.values():
        assert not grade(s, answer).correct


def test_the_feedback_rules_on_each_wrong_entry() -> None:
    said = [str(m) for m in expected_of(_situation("rp.spot_mistake", RP_ONE))[2]]
    assert said[:2] == [
        "Hand 1, Net: 60 is wrong; the right result is 40.",
        "The mistake: The stake counted in the win.",
    ]
    assert "Hand 2: settled right." in said
    said = [str(m) for m in expected_of(_situation("rp.spot_mistake", RP_TWO))[2]]
    assert "Hand 2, Net: 0 is wrong; the right result is 10." in said
    assert "The mistake: The ante not paid when the dealer has no game." in said


def test_a_trainee_who_misses_one_of_two_mistakes_is_told_which() -> None:
    s = _situation("rp.spot_mistake", RP_TWO)
    graded = grade(s, {"Hand 1 Net": 40, "Hand 2 Net": 0})
    assert not graded.correct and graded.mistake.id == "rp.spot_one_missed"
    assert str(graded.mistake.text) == "Hand 2 was taken for right."


@pytest.mark.parametrize("kind_id", SPOT_KINDS)
def test_each_level_has_the_issues_number_of_wrong_hands(kind_id: str) -> None:
    for level, (fewest, most) in MOST_WRONG.items():
        counts = {len(_wrong_hands(issue(kind_id, level, seed=seed))) for seed in range(12)}
        assert min(counts) >= fewest and max(counts) <= most, (level, counts)
        if level == 3:
            assert len(counts) >= 2, counts  # not always the same number of mistakes


def _presets(kind_id: str) -> tuple[str, ...]:
    return BY_ID[REGISTRY[kind_id].game].preset_names()


def _project(answer: Any, labels: list[Any]) -> list[int]:
    return [answer] if labels == [None] else [answer[str(label)] for label in labels]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind_id=st.sampled_from(SPOT_KINDS),
    level=st.integers(1, 3),
    seed=st.integers(0, 2**31),
    house=st.integers(0, 9),
)
def test_every_sheet_is_solvable_and_every_injected_error_is_a_real_one(kind_id, level, seed, house) -> None:
    presets = _presets(kind_id)
    s = issue(kind_id, level, seed=seed, rules=presets[house % len(presets)])
    right, _text, steps = expected_of(s)
    assert grade(s, right).correct and steps
    fewest, most = MOST_WRONG[level]
    wrong = _wrong_hands(s)
    assert fewest <= len(wrong) <= most
    for number in wrong:
        hand = s.data["hands"][number - 1]
        base = Situation(
            hand["kind"],
            level,
            0,
            1,
            s.rules,
            hand["data"],
            get_kind(hand["kind"]).answer_format(hand["data"]),
        )
        base_right = expected_of(base)[0]
        # The wrong result is one catalogued mistake of that hand, and never the right amount.
        given = [m.answer for m in mistakes_of(base)]
        labels = [e["base_label"] for e in entries_of(s.data) if e["hand"] == number]
        assert list(hand["shown"]) in [_project(a, labels) for a in given]
        assert list(hand["shown"]) != _project(base_right, labels)
    for m in mistakes_of(s):
        assert m.answer != right


def test_the_api_serves_and_grades_a_sheet(tmp_path) -> None:
    from api_helpers import make_api_app, token_client

    app = make_api_app(tmp_path)
    instructor = token_client(app, "spot.teacher", "instructor")
    made = instructor.post("/api/v1/drills", json={"kind": "om.spot_mistake", "level": 2, "seed": 5})
    assert made.status_code == 201, made.json
    s = issue("om.spot_mistake", 2, seed=5)
    assert made.json["situation"]["hands"] == s.data["hands"]
    right = expected_of(s)[0]
    answered = instructor.post(f"/api/v1/drills/{made.json['id']}/answer", json={"answer": right})
    assert answered.status_code == 200 and answered.json["correct"] is True


def test_the_practice_page_draws_every_hand_in_georgian(app) -> None:
    client = signed_in(app, "spot.ka")
    db = open_db(app.config["DATABASE"])
    trainee = next(db.query("SELECT id FROM users WHERE username = 'spot.ka'"))["id"]
    for kind_id in SPOT_KINDS:
        s = issue(kind_id, 3, seed=2)
        drill = Store(db).save_drill(trainee, s, mode="practice")
        page = client.get(f"/practice/drill/{drill}", headers={"Accept-Language": "ka"}).get_data(
            as_text=True
        )
        assert page.count('class="spot-hand"') == len(s.data["hands"])
        assert ("ხელი 1" in page and "მოცემული შედეგი" in page) or "ხელი 1" in page
        fields = len(re.findall(r'name="amount-\d+"', page))
        assert fields == len(s.answer_format.labels)
        right = expected_of(s)[0]
        form = {"drill": str(drill)} | {
            f"amount-{i}": str(right[label]) for i, label in enumerate(s.answer_format.labels)
        }
        assert client.post(f"/practice/drill/{drill}", data=form).status_code == 302
        assert Store(db).attempt(drill)["correct"]


@pytest.mark.parametrize(
    ("kind_id", "drawn"), [("pp.spot_mistake", 'class="spot-hand"'), ("om.colour_up", "chips-drill")]
)
def test_a_sprint_asks_the_new_kinds_drawn(app, kind_id: str, drawn: str) -> None:
    client = signed_in(app, "spot.sprint")
    made = client.post("/sprint/", data={"kind": kind_id, "level": 3, "length": 10, "seconds": 120})
    assert made.status_code == 302, made.get_data(as_text=True)[:300]
    page = client.get(made.headers["Location"], headers={"Accept-Language": "ka"}).get_data(as_text=True)
    assert drawn in page and 'name="amount-0"' in page


def test_a_quiz_with_a_spot_sheet_and_a_box_in_chips_is_handed_in_right(app, monkeypatch) -> None:
    from trainer.web.practice import self_check as quiz

    picked = [{"kind": "rp.spot_mistake", "level": 2}, {"kind": "rp.pay_box", "level": 1}]
    monkeypatch.setattr(quiz, "draw", lambda game, rng: picked)
    client = signed_in(app, "spot.quiz")
    assert client.post("/quiz/russian_poker/start").status_code == 303
    page = client.get("/quiz/russian_poker", headers={"Accept-Language": "ka"}).get_data(as_text=True)
    assert 'class="spot-hand"' in page and 'name="q1-amount-0"' in page
    db = open_db(app.config["DATABASE"])
    rows = list(db.query("SELECT id FROM drills WHERE mode = 'quiz' ORDER BY id"))
    form: dict[str, Any] = {"drill": [str(r["id"]) for r in rows]}
    for index, row in enumerate(rows):
        s = Store(db).drill(row["id"])["situation"]
        right = expected_of(s)[0]
        for i, label in enumerate(s.answer_format.labels):
            form[f"q{index}-amount-{i}"] = str(right[label])
    done = client.post("/quiz/russian_poker", data=form)
    assert done.status_code == 200, done.get_data(as_text=True)[:400]
    assert all(Store(db).attempt(r["id"])["correct"] for r in rows)
