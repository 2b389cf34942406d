"""Assigned quizzes (exams): composed by a group's instructor, listed on the trainee's home page,
drawn on the server (the same questions for everyone, or a fresh draw), time limit and attempts
enforced, right answers shown only when allowed, results and per-question review for the owner only,
and the pages in ka and ru."""

import csv
import io
import re
from datetime import UTC, datetime, timedelta

import pytest
from accounts_helpers import AuthActions, signed_in
from conftest import memory_db
from test_i18n_catalogs import _visible_latin_words

from trainer.drills.base import expected_of
from trainer.store.accounts import FAST_HASHER, Accounts, Role
from trainer.store.groups import Groups
from trainer.store.quizzes import ExamError, Exams, question_seed
from trainer.web.core import db as web_db


def _fmt(moment):
    return moment.strftime("%Y-%m-%dT%H:%M")


def _form(**extra):
    now = datetime.now(UTC)
    return {
        "title": "Payouts, week 1",
        "item": ["rp.qualify:1", "rp.bet_payout:1"],
        "questions": "4",
        "attempts_allowed": "2",
        "opens_at": _fmt(now - timedelta(hours=1)),
        "closes_at": _fmt(now + timedelta(days=1)),
        **extra,
    }


@pytest.fixture
def setup(app):
    teacher = signed_in(app, "teacher", "instructor")
    made = teacher.post("/groups/new", data={"name": "Evening class"})
    group_id = int(made.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        code = web_db.groups().group(group_id)["join_code"]
    trainees = []
    for name in ("trainee.one", "trainee.two"):
        client = app.test_client()
        AuthActions(client).sign_up(name)
        client.post("/groups/join", data={"code": code})
        trainees.append(client)
    return teacher, group_id, trainees


def _assign(teacher, group_id, **extra):
    made = teacher.post(f"/exams/group/{group_id}/new", data=_form(**extra))
    assert made.status_code == 302, made.get_data(as_text=True)[:500]
    return int(made.headers["Location"].split("/")[-2])


def _sitting(client, exam_id):
    started = client.post(f"/exams/{exam_id}/start")
    assert started.status_code == 303, started.get_data(as_text=True)[:300]
    return int(started.headers["Location"].rsplit("/", 1)[1])


def _answers(app, sitting_id, right=True):
    with app.app_context():
        store = web_db.store()
        drills = [store.drill(i) for i in Exams(store.db).drills(sitting_id)]
    form = {}
    for i, drill in enumerate(drills):
        value = expected_of(drill["situation"])[0]
        choices = [c.value for c in drill["situation"].answer_format.choices]
        if not right:
            value = next(c for c in choices if c != value) if choices else value + 1
        form[f"q{i}-answer"] = str(value)
    return drills, form


def test_the_whole_exam_story(app, setup):
    teacher, group_id, (trainee_one, trainee_two) = setup
    exam_id = _assign(teacher, group_id, same_questions="1")
    assert "Payouts, week 1" in trainee_one.get("/").get_data(as_text=True)  # on the home page
    assert f"/exams/{exam_id}" in trainee_one.get("/groups/").get_data(as_text=True)
    one, two = _sitting(trainee_one, exam_id), _sitting(trainee_two, exam_id)
    assert _sitting(trainee_one, exam_id) == one  # an unfinished sitting is continued, not drawn again
    drills_one, right = _answers(app, one)
    drills_two, _ = _answers(app, two)
    same = [(d["kind"], d["level"], d["seed"]) for d in drills_one]
    assert same == [(d["kind"], d["level"], d["seed"]) for d in drills_two]  # the same questions
    assert [d["kind"] for d in drills_one] == ["rp.qualify", "rp.bet_payout"] * 2
    page = trainee_one.get(f"/exams/sittings/{one}").get_data(as_text=True)
    assert page.count('class="panel quiz-question"') == 4
    assert (
        trainee_one.post(f"/exams/sittings/{one}", data={**right, "q0-answer": ""}).status_code == 400
    )  # nothing kept
    done = trainee_one.post(f"/exams/sittings/{one}", data=right)
    assert done.status_code == 303
    result = trainee_one.get(f"/exams/sittings/{one}").get_data(as_text=True)
    assert "4 of 4 right" in result and "The right answers are shown when the quiz closes." in result
    assert trainee_one.post(f"/exams/sittings/{one}", data=right).status_code == 409  # handed in once
    wrong = _answers(app, two, right=False)[1]
    trainee_two.post(f"/exams/sittings/{two}", data=wrong)
    # The results table and each sitting question by question, for the owner.
    table = teacher.get(f"/exams/{exam_id}/results").get_data(as_text=True)
    assert re.search(r'data-trainee="trainee.one">.*?4 / 4', table, re.S)
    assert re.search(r'data-trainee="trainee.two">.*?0 / 4', table, re.S)
    body = teacher.get(f"/exams/{exam_id}/results.csv").get_data()
    assert body.startswith("\ufeff".encode())  # a byte-order mark: Windows spreadsheets read UTF-8
    exported = body.decode("utf-8-sig").splitlines()
    assert exported[0] == "username,name,started_at (UTC),finished_at (UTC),answered,correct,questions"
    assert sorted(line.split(",")[0] + ":" + line.split(",")[5] for line in exported[1:]) == [
        "trainee.one:4",
        "trainee.two:0",
    ]
    assert trainee_one.get(f"/exams/{exam_id}/results.csv").status_code == 403
    # The same results in the API, with the quiz as composed.
    [quiz] = teacher.get(f"/api/v1/groups/{group_id}/quizzes").json["quizzes"]
    assert (quiz["id"], quiz["title"], quiz["questions"], quiz["attempts_allowed"]) == (
        exam_id,
        "Payouts, week 1",
        4,
        2,
    )
    assert quiz["items"] == [{"kind": "rp.qualify", "level": 1}, {"kind": "rp.bet_payout", "level": 1}]
    assert quiz["same_questions"] is True and quiz["is_open"] is True and quiz["time_limit_s"] is None
    best = {
        r["username"]: (r["best"], [(x["id"], x["correct"]) for x in r["sittings"]]) for r in quiz["results"]
    }
    assert best == {"trainee.one": (4, [(one, 4)]), "trainee.two": (0, [(two, 0)])}
    assert trainee_one.get(f"/api/v1/groups/{group_id}/quizzes").status_code == 404
    assert app.test_client().get(f"/api/v1/groups/{group_id}/quizzes").status_code == 401
    review = teacher.get(f"/exams/sittings/{two}/review").get_data(as_text=True)
    assert "0 of 4 right" in review and "Expected answer:" in review
    # A second attempt is a fresh sitting with the same questions; a third is refused.
    third = _sitting(trainee_one, exam_id)
    assert third != one
    trainee_one.post(f"/exams/sittings/{third}", data=_answers(app, third)[1])
    assert trainee_one.post(f"/exams/{exam_id}/start").status_code == 409


def test_a_fresh_draw_answers_shown_and_a_time_limit(app, setup):
    teacher, group_id, (trainee_one, trainee_two) = setup
    exam_id = _assign(teacher, group_id, answers_before_close="1", time_limit_min="5", questions="3")
    one = _sitting(trainee_one, exam_id)
    chosen = trainee_two.post(f"/exams/{exam_id}/start", data={"seed": "5"}, query_string={"seed": "5"})
    two = int(chosen.headers["Location"].rsplit("/", 1)[1])  # a seed sent along is not read
    seeds = [d["seed"] for d in _answers(app, one)[0]], [d["seed"] for d in _answers(app, two)[0]]
    assert seeds[0] != seeds[1]  # a fresh draw for each
    with app.app_context():
        drawn = web_db.store().db.execute("SELECT seed FROM exam_sittings WHERE id = ?", [two]).fetchone()[0]
    assert drawn != 5 and seeds[1] == [question_seed(drawn, i) for i in range(3)]
    assert "Hand in by" in trainee_one.get(f"/exams/sittings/{one}").get_data(as_text=True)
    trainee_one.post(f"/exams/sittings/{one}", data=_answers(app, one)[1])
    shown = trainee_one.get(f"/exams/sittings/{one}").get_data(as_text=True)
    assert "3 of 3 right" in shown and "Expected answer:" in shown  # answers shown at once
    # The second trainee's time runs out: his late hand-in is refused and nothing he sends counts.
    with app.app_context():
        db = web_db.store().db
        past = (datetime.now(UTC) - timedelta(minutes=10)).isoformat()
        db.execute("UPDATE exam_sittings SET deadline = ? WHERE id = ?", [past, two])
        db.conn.commit()
    assert trainee_two.post(f"/exams/sittings/{two}", data=_answers(app, two)[1]).status_code == 409
    assert "0 of 3 right" in trainee_two.get(f"/exams/sittings/{two}").get_data(as_text=True)


def test_bad_compositions_are_refused(app, setup):
    teacher, group_id, _ = setup
    for bad in (
        {"title": ""},
        {"item": []},
        {"item": ["rp.qualify:9"]},
        {"item": ["no.such:1"]},
        {"questions": "0"},
        {"questions": "51"},
        {"attempts_allowed": "0"},
        {"time_limit_min": "999"},
        {"opens_at": "tomorrow"},
        {"closes_at": _fmt(datetime.now(UTC) - timedelta(days=2))},
    ):
        refused = teacher.post(f"/exams/group/{group_id}/new", data=_form(**bad))
        assert refused.status_code == 400, bad
        assert 'id="exam-error"' in refused.get_data(as_text=True)


def test_exam_access_for_every_role(app, setup):
    teacher, group_id, (trainee_one, _trainee_two) = setup
    exam_id = _assign(teacher, group_id)
    sitting = _sitting(trainee_one, exam_id)
    outsider = app.test_client()
    AuthActions(outsider).sign_up("outsider")
    other_teacher = signed_in(app, "other.teacher", "instructor")
    guest = app.test_client()
    owner_only = [
        f"/exams/{exam_id}/results",
        f"/exams/sittings/{sitting}/review",
        f"/exams/group/{group_id}/new",
    ]
    review = f"/exams/sittings/{sitting}/review"
    for url in owner_only:
        # The review of a sitting not handed in yet is the owner's 409 (tests/test_quiz_review_unfinished.py).
        assert teacher.get(url).status_code == (409 if url == review else 200), url
        assert other_teacher.get(url).status_code == 404, url
        assert trainee_one.get(url).status_code == 403, url
        assert guest.get(url).status_code == 302, url
    assert trainee_one.post(f"/exams/sittings/{sitting}", data=_answers(app, sitting)[1]).status_code == 303
    assert teacher.get(review).status_code == 200
    assert (other_teacher.get(review).status_code, trainee_one.get(review).status_code) == (404, 403)
    for client in (outsider, other_teacher, teacher):  # not his sitting, not his group's exam to take
        assert client.get(f"/exams/sittings/{sitting}").status_code == 404
        assert client.post(f"/exams/sittings/{sitting}", data={"q0-answer": "1"}).status_code == 404
    assert outsider.get(f"/exams/{exam_id}").status_code == 404
    assert outsider.post(f"/exams/{exam_id}/start").status_code == 404
    assert guest.get(f"/exams/{exam_id}").status_code == 302
    assert "Payouts" not in outsider.get("/").get_data(as_text=True)


def test_closed_exams_are_not_listed_or_started():
    db = memory_db()
    accounts = Accounts(db, hasher=FAST_HASHER)
    teacher = accounts.create_user("teacher", "a long secret", role=Role.INSTRUCTOR)["id"]
    trainee_one = accounts.sign_up("trainee.one", "a long secret")["id"]
    groups = Groups(db)
    group = groups.create(teacher, "Shift")
    groups.join(trainee_one, group["join_code"])
    exams = Exams(db)
    past = datetime.now(UTC) - timedelta(days=2)
    exam = exams.create(
        group["id"],
        title="Old quiz",
        items=[("rp.qualify", 1)],
        questions=2,
        time_limit_s=None,
        attempts_allowed=1,
        same_questions=True,
        opens_at=past,
        closes_at=past + timedelta(days=1),
        answers_before_close=False,
        made_by=teacher,
    )
    assert exams.assigned_to(trainee_one) == [] and exams.exam(exam["id"])["is_closed"]
    with pytest.raises(ExamError):
        exams.start(exam["id"], trainee_one, lambda *_: pytest.fail("a closed exam draws nothing"))
    assert exams.results(exam["id"])[0]["best"] is None


@pytest.mark.parametrize("locale", ["ka", "ru"])
def test_exam_pages_show_no_english_words(app, locale):
    teacher = signed_in(app, "მასწავლებელი", "instructor")
    made = teacher.post("/groups/new", data={"name": "საღამოს ჯგუფი"})
    group_id = int(made.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        code = web_db.groups().group(group_id)["join_code"]
    trainee_one = app.test_client()
    for client in (teacher, trainee_one):
        client.post("/language", data={"lang": locale})
    AuthActions(trainee_one).sign_up("მსმენელი")
    trainee_one.post("/groups/join", data={"code": code})
    trainee_one.get("/")  # the flashed welcome, shown once
    exam_id = _assign(teacher, group_id, title="გამოცდა", answers_before_close="1", time_limit_min="30")
    sitting = _sitting(trainee_one, exam_id)
    pages = {
        "new": teacher.get(f"/exams/group/{group_id}/new"),
        "start": trainee_one.get(f"/exams/{exam_id}"),
    }
    pages["sitting"] = trainee_one.get(f"/exams/sittings/{sitting}")
    trainee_one.post(f"/exams/sittings/{sitting}", data=_answers(app, sitting)[1])
    pages["result"] = trainee_one.get(f"/exams/sittings/{sitting}")
    pages["results"] = teacher.get(f"/exams/{exam_id}/results")
    pages["review"] = teacher.get(f"/exams/sittings/{sitting}/review")
    pages["home"] = trainee_one.get("/")
    for name, response in pages.items():
        assert response.status_code == 200, name
        words = _visible_latin_words(response.get_data(as_text=True))
        assert not words, (name, words)


def test_a_quiz_question_is_answered_on_its_page_only(app, setup):
    """The API serves practice drills only: a question of an assigned quiz (or a sprint, or the
    self-check quiz) read or answered there would be off the quiz's clock and show its right answer
    before the quiz allows."""
    teacher, group_id, (trainee_one, _trainee_two) = setup
    exam_id = _assign(teacher, group_id, time_limit_min="5")
    sitting = _sitting(trainee_one, exam_id)
    drills, right = _answers(app, sitting)
    token = trainee_one.post(
        "/api/v1/tokens", json={"username": "trainee.one", "password": "a long secret"}
    ).json["token"]
    bearer = app.test_client()
    bearer.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    sprint = trainee_one.post(
        "/sprint/", data={"kind": "rp.qualify", "level": 1, "length": 10, "seconds": 90}
    )
    assert sprint.status_code in (302, 303), sprint.get_data(as_text=True)[:300]
    quiz = trainee_one.post("/quiz/russian_poker/start")
    assert quiz.status_code in (302, 303), quiz.get_data(as_text=True)[:300]
    with app.app_context():
        modes = dict(web_db.store().db.execute("SELECT id, mode FROM drills").fetchall())
    assert {"sprint", "quiz"} <= set(modes.values())
    for client in (trainee_one, bearer):
        for drill_id, mode in modes.items():
            if mode == "practice":
                continue
            assert client.get(f"/api/v1/drills/{drill_id}").status_code == 404, mode
            answered = client.post(f"/api/v1/drills/{drill_id}/answer", json={"answer": "1"})
            assert answered.status_code == 404 and "expected" not in answered.json, mode
    with app.app_context():
        assert all(not web_db.store().drill(d["id"])["answered"] for d in drills)  # nothing recorded
    # the page takes them
    assert trainee_one.post(f"/exams/sittings/{sitting}", data=right).status_code == 303
    practice = trainee_one.post("/api/v1/drills", json={"kind": "rp.qualify", "level": 1}).json["id"]
    assert bearer.get(f"/api/v1/drills/{practice}").status_code == 200


def test_quiz_results_export_a_row_per_question_filtered_by_days_and_kind(app, setup):
    teacher, group_id, (trainee_one, trainee_two) = setup
    exam_id = _assign(teacher, group_id, same_questions="1")
    one, two = _sitting(trainee_one, exam_id), _sitting(trainee_two, exam_id)
    trainee_one.post(f"/exams/sittings/{one}", data=_answers(app, one)[1])
    trainee_two.post(f"/exams/sittings/{two}", data=_answers(app, two, right=False)[1])
    _sitting(trainee_one, exam_id)  # a second sitting, not handed in: not a result yet
    url = f"/groups/{group_id}/quiz-results.csv"

    def rows(client, query=""):
        response = client.get(url + query)
        assert response.status_code == 200 and response.mimetype == "text/csv", response.status_code
        return list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))

    every = rows(teacher)
    assert [(r["username"], r["question"], r["kind"], r["correct"], r["score"]) for r in every] == [
        ("trainee.one", str(i + 1), kind, "1", "4")
        for i, kind in enumerate(["rp.qualify", "rp.bet_payout"] * 2)
    ] + [
        ("trainee.two", str(i + 1), kind, "0", "0")
        for i, kind in enumerate(["rp.qualify", "rp.bet_payout"] * 2)
    ]
    assert {(r["quiz_id"], r["quiz"], r["questions"], r["rules"]) for r in every} == {
        (str(exam_id), "Payouts, week 1", "4", "cis")
    }
    assert all(r["answer"] == r["expected"] for r in every[:4])  # trainee.one's, right, written alike
    assert all(r["answer"] and not r["answer"].startswith('"') for r in every)
    qualify = rows(teacher, "?kind=rp.qualify")
    assert [(r["username"], r["question"]) for r in qualify] == [
        ("trainee.one", "1"),
        ("trainee.one", "3"),
        ("trainee.two", "1"),
        ("trainee.two", "3"),
    ]
    today = datetime.now(UTC).date().isoformat()
    assert len(rows(teacher, f"?since={today}&until={today}")) == 8
    assert rows(teacher, "?until=2000-01-01") == [] and rows(teacher, "?since=2999-01-01") == []
    assert teacher.get(url + "?since=yesterday").status_code == 400
    # The same through the API, for the group's owner only.
    from api_helpers import token_client

    token = teacher.post("/api/v1/tokens", json={"username": "teacher", "password": "a long secret"}).json
    bearer = app.test_client()
    bearer.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token['token']}"
    api = f"/api/v1/groups/{group_id}/quiz-results.csv"
    assert bearer.get(api + "?kind=rp.qualify").get_data(as_text=True) == teacher.get(
        url + "?kind=rp.qualify"
    ).get_data(as_text=True)
    other = token_client(app, "other.teacher", "instructor")
    assert other.get(api).status_code == 404 and trainee_one.get(api).status_code == 404
    assert app.test_client().get(api).status_code == 401
    assert trainee_one.get(url).status_code == 403 and app.test_client().get(url).status_code == 302
    assert 'id="export-quiz-results"' in teacher.get(f"/groups/{group_id}").get_data(as_text=True)
