"""Own questions: an instructor enters Russian poker hands (the player's five cards, the dealer's
five, the ante) into an assigned quiz. Each is checked by the engine when entered (an impossible one
refused by its line, in the page's language, and nothing assigned), settled under the group's house
rules, and graded by the engine like a drawn question when a trainee sits the quiz."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta

import pytest
from accounts_helpers import signed_in
from quiz_helpers import group_and_quiz_fields

from trainer.drills.base import expected_of, grade
from trainer.drills.omaha.own import own_showdown
from trainer.drills.omaha.own import parse_line as parse_omaha_line
from trainer.drills.own import OwnQuestionError
from trainer.drills.russian_poker.own import own_settle
from trainer.store.quizzes import ExamError, Exams
from trainer.web.core import db as web_db


def test_an_own_hand_is_settled_by_the_engine_known_answers():
    flush = own_settle("A♠ K♠ Q♠ J♠ 9♠", "2c 2d 7h 8s Kc", 25, "cis")
    assert flush.kind == "rp.settle" and flush.data["own"] is True
    assert expected_of(flush)[0] == {"Ante": 0, "Bet": 250, "Net": 250}  # flush 5 to 1 on a bet of 50
    assert grade(flush, {"Ante": "0", "Bet": "250", "Net": "250"}).correct
    assert not grade(flush, {"Ante": "25", "Bet": "250", "Net": "275"}).correct
    no_game = own_settle("Ah Kd 7c 5s 3h", "Qc Jd 9h 8s 2c", 40, "cis")
    assert expected_of(no_game)[0] == {"Ante": 40, "Bet": 0, "Net": 40}  # no game: the ante paid 1 to 1
    for player, dealer, ante, reason in (
        ("As Ks Qs Js Zz", "2c 2d 7h 8s Kc", 25, "cards"),
        ("As Ks Qs Js", "2c 2d 7h 8s Kc", 25, "count"),
        ("As Ks Qs Js 9s", "As 2d 7h 8s Kc", 25, "repeated"),
        ("As Ks Qs Js 9s", "2c 2c 7h 8s Kc", 25, "repeated"),
        ("As Ks Qs Js 9s", "2c 2d 7h 8s Kc", 0, "ante"),
        ("As Ks Qs Js 9s", "2c 2d 7h 8s Kc", None, "ante"),
    ):
        with pytest.raises(OwnQuestionError) as refused:
            own_settle(player, dealer, ante, "cis")
        assert refused.value.reason == reason


def test_the_store_refuses_an_own_question_it_is_handed_unchecked():
    database, group, fields = group_and_quiz_fields("Own", 1)
    with pytest.raises(ExamError, match="own_question"):
        Exams(database).create(group, **fields, own=[{"player": "As Ks", "dealer": "2c", "ante": 5}])
    exam = Exams(database).create(
        group, **fields, own=[{"player": "As Ks Qs Js 9s", "dealer": "2c 2d 7h 8s Kc", "ante": 25}]
    )
    assert exam["items"] == [] and exam["own"] == [
        {
            "kind": "rp.settle",
            "level": 1,
            "question": {
                "player": ["As", "Ks", "Qs", "Js", "9s"],
                "dealer": ["2c", "2d", "7h", "8s", "Kc"],
                "ante": 25,
            },
        }
    ]


def _form(**extra):
    now = datetime.now(UTC)
    return {
        "title": "Settling, own hands",
        "questions": "10",
        "attempts_allowed": "1",
        "opens_at": (now - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M"),
        "closes_at": (now + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"),
        "answers_before_close": "1",
        **extra,
    }


def test_an_assigned_quiz_of_own_questions_is_refused_by_line_then_sat_and_graded(app):
    teacher = signed_in(app, "teacher", "instructor")
    made = teacher.post("/groups/new", data={"name": "Evening class"})
    group_id = int(made.headers["Location"].rsplit("/", 1)[1])
    url = f"/exams/group/{group_id}/new"
    assert 'name="own"' in teacher.get(url).get_data(as_text=True)
    good = "As Ks Qs Js 9s / 2c 2d 7h 8s Kc / 25\nAh Kd 7c 5s 3h | Qc Jd 9h 8s 2c | 40"
    refused = teacher.post(url, data=_form(own=good + "\nAs Ks Qs Js 9s / As 2d 7h 8s Kc / 25\nnonsense"))
    assert refused.status_code == 400
    page = refused.get_data(as_text=True)
    assert "Line 3: a card is dealt twice" in page and "Line 4: write the player" in page
    assert "Line 1" not in page and "Line 2" not in page
    with app.app_context():
        assert web_db.exams().of_group(group_id) == []
    teacher.post("/language", data={"lang": "ka"})
    ka = teacher.post(url, data=_form(own="As Ks Qs Js 9s / 2c 2d 7h 8s Kc / 0")).get_data(as_text=True)
    assert "the ante is a whole number" not in ka and re.search(r"1[^<]*100[ ,\u00a0]?000", ka)
    teacher.post("/language", data={"lang": "en"})
    made = teacher.post(url, data=_form(own=good))
    assert made.status_code == 302
    exam_id = int(made.headers["Location"].split("/")[-2])
    with app.app_context():
        exam = web_db.exams().exam(exam_id)
        code = web_db.groups().group(group_id)["join_code"]
    assert exam["questions"] == 2 and len(exam["own"]) == 2  # own questions only: each asked once

    trainee_one = signed_in(app, "trainee.one")
    trainee_one.post("/groups/join", data={"code": code})
    started = trainee_one.post(f"/exams/{exam_id}/start")
    sitting_id = int(started.headers["Location"].rsplit("/", 1)[1])
    sitting = trainee_one.get(f"/exams/sittings/{sitting_id}").get_data(as_text=True)
    assert "A♠" in sitting and "K♣" in sitting  # the entered cards, drawn as any question's
    answers = {"q0-amount-0": "0", "q0-amount-1": "250", "q0-amount-2": "250"}  # right
    answers |= {"q1-amount-0": "0", "q1-amount-1": "0", "q1-amount-2": "0"}  # wrong: the ante is paid
    assert trainee_one.post(f"/exams/sittings/{sitting_id}", data=answers).status_code in (302, 303)
    with app.app_context():
        done = web_db.exams().sitting(sitting_id)
        rows = list(
            web_db.store().db.query(
                "SELECT d.kind, a.correct, json_extract(d.situation, '$.data.own') AS own FROM drills d "
                "JOIN attempts a ON a.drill_id = d.id WHERE d.sitting_id = ? ORDER BY d.id",
                [sitting_id],
            )
        )
    assert (done["answered"], done["correct"]) == (2, 1)
    assert [(r["kind"], r["correct"], r["own"]) for r in rows] == [("rp.settle", 1, 1), ("rp.settle", 0, 1)]
    with app.app_context():
        report = web_db.exams().report_rows(group_id, kind="rp.settle")
    assert [(r["quiz_id"], r["username"]) for r in report] == [
        (exam_id, "trainee.one")
    ] * 2  # a row a question


# Omaha and Omaha Hi/Lo showdowns ------------------------------------------------------------------

SHOWDOWN = "2c 7d 9h Jc Ks / Ah Ad 3c 4d 50 / Kd Kh 5c 6d 50 / * - 20"  # kings full beat aces: seat 2
HI_LO = "hilo 2c 4d 7h Jc Ks / Ah 3d 9c 9d 50 / K♦ K♥ 5♠ 6♠ 50 / * - 20"  # seat 2 high, seat 1 low


def _amounts(values):
    labels = ("Main pot", "Side pot 1", "Returned", "Seat 1", "Seat 2", "Seat 3")
    return dict(zip(labels, values, strict=True))


def test_an_own_omaha_showdown_is_settled_by_the_engine_known_answers():
    plain = own_showdown(**parse_omaha_line(SHOWDOWN), rules_name=None)
    assert (plain.kind, plain.level, plain.data["own"], plain.data["hi_lo"]) == (
        "om.side_pots",
        2,
        True,
        False,
    )
    assert plain.data["button"] == 2 and plain.data["contributions"] == [50, 50, 20]
    assert expected_of(plain)[0] == _amounts((120, 0, 0, 0, 120, 0))
    assert grade(plain, {k: str(v) for k, v in _amounts((120, 0, 0, 0, 120, 0)).items()}).correct
    assert not grade(plain, {k: str(v) for k, v in _amounts((120, 0, 0, 120, 0, 0)).items()}).correct
    split = own_showdown(**parse_omaha_line(HI_LO), rules_name=None)
    assert split.data["hi_lo"] is True and split.data["holes"][1] == ["Kd", "Kh", "5s", "6s"]
    assert expected_of(split)[0] == _amounts((120, 0, 0, 60, 60, 0))  # the pot halved, high and low
    # An uncalled bet: seat 1's last 30 goes back; the rest is one pot of 100 + 20.
    uncalled = own_showdown(
        **parse_omaha_line("2c 7d 9h Jc Ks / Ah Ad 3c 4d 80 / *Kd Kh 5c 6d 50 / - 20"), rules_name=None
    )
    assert expected_of(uncalled)[0] == _amounts((120, 0, 30, 30, 120, 0))
    # Two all-in levels: a side pot of its own.
    sides = own_showdown(
        **parse_omaha_line("2c 7d 9h Jc Ks / Kd Kh 5c 6d 20 / Ah Ad 3c 4d 50 / Qs Qh 8c 8d 50"),
        rules_name=None,
    )
    assert expected_of(sides)[0] == dict(
        zip(
            ("Main pot", "Side pot 1", "Side pot 2", "Returned", "Seat 1", "Seat 2", "Seat 3"),
            (60, 60, 0, 0, 60, 60, 0),
            strict=True,
        )
    )


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("2c 7d 9h Jc / Ah Ad 3c 4d 50 / Kd Kh 5c 6d 50", "board"),
        ("2c 7d 9h Jc Ks / Ah Ad 3c 50 / Kd Kh 5c 6d 50", "hole"),
        ("2c 7d 9h Jc Ks / Ah Ad 3c 4d 50 / Kd Kh 5c 2c 50", "repeated"),
        ("2c 7d 9h Jc Ks / Ah Ad 3c 4d 50 / Kd Kh 5c 6d 50 / As Ad 8c 8d 50", "repeated"),
        ("2c 7d 9h Jc Ks / Ah Ad 3c Zz 50 / Kd Kh 5c 6d 50", "cards"),
        ("2c 7d 9h Jc Ks / Ah Ad 3c 4d 50 / - 20", "seats"),
        ("2c 7d 9h Jc Ks / Ah Ad 3c 4d 50 / Kd Kh 5c 6d lots", "chips"),
        ("2c 7d 9h Jc Ks / Ah Ad 3c 4d 50 / Kd Kh 5c 6d 2000000", "chips"),
        ("2c 7d 9h Jc Ks / Ah Ad 3c 4d 50 / Kd Kh 5c 6d 0", "stacks"),  # a seat with cards put in nothing
        ("2c 7d 9h Jc Ks / Ah Ad 3c 4d 50 / Kd Kh 5c 6d 50 / - 70", "stacks"),  # folded over every bet
        ("2c 7d 9h Jc Ks / *Ah Ad 3c 4d 50 / *Kd Kh 5c 6d 50", "button"),
        ("2c 7d 9h Jc Ks", "shape"),
    ],
)
def test_an_impossible_omaha_showdown_is_refused_with_its_reason(line, reason):
    with pytest.raises(OwnQuestionError) as refused:
        own_showdown(**parse_omaha_line(line), rules_name=None)
    assert refused.value.reason == reason


def test_the_store_keeps_an_own_showdown_checked_and_refuses_a_forged_one():
    database, group, fields = group_and_quiz_fields("Own", 1)
    facts = {"kind": "om.side_pots", **parse_omaha_line(SHOWDOWN)}
    forged = {**facts, "holes": [["Ah", "Ad", "3c", "4d"], ["Ah", "Kh", "5c", "6d"], None]}
    for bad in (forged, {**facts, "kind": "om.winner"}, {**facts, "hi_lo": "yes"}):
        with pytest.raises(ExamError, match="own_question"):
            Exams(database).create(group, **fields, own=[bad])
    exam = Exams(database).create(group, **fields, own=[facts])
    assert exam["own"] == [
        {
            "kind": "om.side_pots",
            "level": 2,
            "question": {
                "board": ["2c", "7d", "9h", "Jc", "Ks"],
                "holes": [["Ah", "Ad", "3c", "4d"], ["Kd", "Kh", "5c", "6d"], None],
                "contributions": [50, 50, 20],
                "button": 2,
                "hi_lo": False,
            },
        }
    ]


def test_an_own_omaha_quiz_is_refused_by_line_in_georgian_then_sat_and_graded(app):
    teacher = signed_in(app, "teacher", "instructor")
    made = teacher.post("/groups/new", data={"name": "Evening class"})
    group_id = int(made.headers["Location"].rsplit("/", 1)[1])
    url = f"/exams/group/{group_id}/new"
    assert 'name="own_omaha"' in teacher.get(url).get_data(as_text=True)
    bad = "\n".join(
        (
            SHOWDOWN,
            "2c 7d 9h Jc Ks / Ah Ad 3c 4d 50 / Kd Kh 5c 6d 50 / - 70",
            "2c 7d 9h Jc Ks / Ah Ad 3c 4d 50 / Kd Kh 5c 2c 50",
        )
    )
    refused = teacher.post(url, data=_form(own_omaha=bad))
    assert refused.status_code == 400
    page = refused.get_data(as_text=True)
    assert "Line 2: these chips cannot come about" in page and "Line 3: a card is dealt twice" in page
    assert "Line 1" not in page
    teacher.post("/language", data={"lang": "ka"})
    ka = teacher.post(url, data=_form(own_omaha=bad)).get_data(as_text=True)
    assert "these chips cannot come about" not in ka and "Line 2" not in ka
    teacher.post("/language", data={"lang": "en"})
    with app.app_context():
        assert web_db.exams().of_group(group_id) == []
        code = web_db.groups().group(group_id)["join_code"]
    made = teacher.post(
        url, data=_form(own="As Ks Qs Js 9s / 2c 2d 7h 8s Kc / 25", own_omaha=f"{SHOWDOWN}\n{HI_LO}")
    )
    assert made.status_code == 302
    exam_id = int(made.headers["Location"].split("/")[-2])
    with app.app_context():
        exam = web_db.exams().exam(exam_id)
    assert exam["questions"] == 3 and [o["kind"] for o in exam["own"]] == [
        "rp.settle",
        "om.side_pots",
        "om.side_pots",
    ]

    trainee = signed_in(app, "trainee.one")
    trainee.post("/groups/join", data={"code": code})
    sitting_id = int(trainee.post(f"/exams/{exam_id}/start").headers["Location"].rsplit("/", 1)[1])
    sitting = trainee.get(f"/exams/sittings/{sitting_id}").get_data(as_text=True)
    assert "Omaha Hi/Lo, all bets are in." in sitting and "Side pot 1" in sitting
    answers = {f"q0-amount-{n}": v for n, v in enumerate(("0", "250", "250"))}
    answers |= {f"q1-amount-{n}": str(v) for n, v in enumerate((120, 0, 0, 0, 120, 0))}  # right
    answers |= {f"q2-amount-{n}": str(v) for n, v in enumerate((120, 0, 0, 0, 120, 0))}  # wrong: split
    assert trainee.post(f"/exams/sittings/{sitting_id}", data=answers).status_code in (302, 303)
    with app.app_context():
        done = web_db.exams().sitting(sitting_id)
        rows = list(
            web_db.store().db.query(
                "SELECT d.kind, a.correct FROM drills d JOIN attempts a ON a.drill_id = d.id "
                "WHERE d.sitting_id = ? ORDER BY d.id",
                [sitting_id],
            )
        )
    assert (done["answered"], done["correct"]) == (3, 2)
    assert [(r["kind"], r["correct"]) for r in rows] == [
        ("rp.settle", 1),
        ("om.side_pots", 1),
        ("om.side_pots", 0),
    ]
    # His result and the instructor's review show the showdowns with the right split.
    result = html.unescape(trainee.get(f"/exams/sittings/{sitting_id}").get_data(as_text=True))
    assert "2 of 3 right" in result and "Low: seat 1 with 7-4-3-2-A." in result
    review = teacher.get(f"/exams/sittings/{sitting_id}/review")
    assert review.status_code == 200 and "Seat 2 takes 120." in html.unescape(review.get_data(as_text=True))
