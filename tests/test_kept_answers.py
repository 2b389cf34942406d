"""Answers kept on the phone while it was offline and sent back later (`X-Kept-Answer: 1`, sent by
static/js/answer-queue.js): each view that takes an answer judges the kept copy as any other, by the
server's clock and by what is recorded, and says its fate in JSON in the page's language. A second
copy (another tab, a replay of the kept form) records nothing more. In-process, no browser."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from accounts_helpers import AuthActions
from clock_helpers import sprint_clock_ahead
from test_exams import _answers, _assign, _sitting
from test_exams import setup as setup
from test_table_pages import dealt_of, form_for, start
from test_web_pages import start_sprint

from trainer.drills.rounds import expected_answer
from trainer.web.core import db as web_db

KEPT = {"X-Kept-Answer": "1"}


def _count(app, sql, params):
    with app.app_context():
        return web_db.store().db.execute(sql, params).fetchone()[0]


def test_a_kept_sprint_answer_is_recorded_once_and_a_late_one_refused_in_words(app, named, toys, monkeypatch):
    run = start_sprint(named).headers["Location"]
    sprint_id = int(run.rstrip("/").rsplit("/", 1)[1])
    page = named.get(run).get_data(as_text=True)
    drill = re.search(r'name="drill" value="(\d+)"', page).group(1)
    ante = int(re.search(r'<span class="v">(\d+)</span>', page).group(1))
    sent = {"drill": drill, "answer": str(2 * ante)}
    first = named.post(f"/sprint/{sprint_id}/answer", data=sent, headers=KEPT)
    assert first.status_code == 200 and first.json["recorded"] is True
    assert first.json["href"] == f"/sprint/{sprint_id}" and first.json["link"] == "Go on with the sprint"
    # The same kept copy again (a second tab, a replay): refused, said, nothing more recorded.
    again = named.post(f"/sprint/{sprint_id}/answer", data=sent, headers=KEPT)
    assert again.status_code == 409 and again.json["recorded"] is False
    assert "already answered or skipped in another tab" in again.json["message"]
    assert _count(app, "SELECT count(*) FROM attempts WHERE drill_id = ?", [int(drill)]) == 1
    # The next question answered offline, sent after the sprint's time ran out on the server's clock:
    # refused and not recorded, whatever the phone's clock said; the sprint is scored.
    page = named.get(run).get_data(as_text=True)
    second = re.search(r'name="drill" value="(\d+)"', page).group(1)
    sprint_clock_ahead(monkeypatch, 91)
    late = named.post(
        f"/sprint/{sprint_id}/answer",
        data={"drill": second, "answer": "20"},
        headers={**KEPT, "Accept-Language": "ru"},
    )
    assert late.status_code == 409 and late.json["recorded"] is False
    assert late.json["message"].startswith("Время спринта вышло"), late.json["message"]
    assert late.json["href"] == f"/sprint/{sprint_id}/result"
    assert _count(app, "SELECT count(*) FROM attempts WHERE drill_id = ?", [int(second)]) == 0
    assert _count(app, "SELECT finished_at IS NOT NULL FROM sprints WHERE id = ?", [sprint_id]) == 1


def test_a_kept_quiz_hand_in_counts_once_in_time_and_not_after_it(app, setup):
    teacher, group_id, (trainee_one, trainee_two) = setup
    exam_id = _assign(teacher, group_id, time_limit_min="10")
    one, two = _sitting(trainee_one, exam_id), _sitting(trainee_two, exam_id)
    drills, right = _answers(app, one)
    handed = trainee_one.post(f"/exams/sittings/{one}", data=right, headers=KEPT)
    assert handed.status_code == 200 and handed.json["recorded"] is True
    assert handed.json["href"] == f"/exams/sittings/{one}"
    again = trainee_one.post(f"/exams/sittings/{one}", data=right, headers=KEPT)
    assert again.status_code == 409 and again.json["message"] == "This quiz was already handed in."
    ids = [d["id"] for d in drills]
    marks = ",".join("?" * len(ids))
    assert _count(app, f"SELECT count(*) FROM attempts WHERE drill_id IN ({marks})", ids) == len(ids)
    # Kept past the deadline and its grace (the phone stayed offline): the server's clock refuses it.
    with app.app_context():
        db = web_db.store().db
        past = (datetime.now(UTC) - timedelta(minutes=10)).isoformat()
        db.execute("UPDATE exam_sittings SET deadline = ? WHERE id = ?", [past, two])
        db.conn.commit()
    late_drills, late_right = _answers(app, two)
    late = trainee_two.post(
        f"/exams/sittings/{two}",
        data={**late_right, "time_up": "1"},
        headers={**KEPT, "Accept-Language": "ka"},
    )
    assert late.status_code == 409 and late.json["recorded"] is False
    assert late.json["message"].startswith("ტესტის დრო ამოიწურა, სანამ"), late.json["message"]
    ids = [d["id"] for d in late_drills]
    marks = ",".join("?" * len(ids))
    assert _count(app, f"SELECT count(*) FROM attempts WHERE drill_id IN ({marks})", ids) == 0


def test_a_kept_table_step_is_recorded_once(app, client):
    """Seed 0 at level 2: step 0 is a choice, step 1 chips; the replayed step 0 is said to be answered
    already, not read as a wrong answer to step 1."""
    AuthActions(client).sign_up("kept.table")
    start(client, "russian_poker", level=2)  # the guest's form, as a trainee starts one
    with app.app_context():
        found = web_db.store().db.execute("SELECT id FROM users WHERE username = 'kept.table'")
        trainee = found.fetchone()[0]
        round_id = web_db.tables().start_round(trainee, "russian_poker", 2, seed=0)
    url = f"/table/round/{round_id}"
    dealt = dealt_of(app, url)
    assert dealt.steps[0].answer_format.kind != dealt.steps[1].answer_format.kind
    data = {"step": 0, **form_for(dealt.steps[0], expected_answer(dealt, 0))}
    first = client.post(url, data=data, headers=KEPT)
    assert first.status_code == 200 and first.json["recorded"] is True and first.json["href"] == url
    again = client.post(url, data=data, headers=KEPT)
    assert again.status_code == 409 and again.json["recorded"] is False
    assert again.json["message"] == "This step was already answered; the first answer counts."
    assert _count(app, "SELECT count(*) FROM round_steps WHERE round_id = ?", [round_id]) == 1


def test_a_kept_practice_answer_and_a_refused_form_answer_in_json(app, named, toys):
    made = named.post("/practice/toy.amount", data={"level": "1"})
    url = made.headers["Location"]
    drill = url.rsplit("/", 1)[1]
    unreadable = named.post(url, data={"drill": drill, "answer": "lots"}, headers=KEPT)
    assert unreadable.status_code == 400 and unreadable.json["recorded"] is False
    assert unreadable.json["message"] and unreadable.json["href"] == url
    assert named.post(url, data={"drill": drill, "answer": "1"}, headers=KEPT).json["recorded"] is True
    replay = named.post(url, data={"drill": drill, "answer": "2"}, headers=KEPT)
    assert replay.status_code == 409 and "first answer counts" in replay.json["message"]
    # A refusal the views leave to the error pages (another question's form) is JSON too.
    other = named.post(url, data={"drill": "999999", "answer": "2"}, headers=KEPT)
    assert other.status_code == 400 and other.json == {
        "recorded": False,
        "message": "The answer was sent for another question. Reload the page.",
        "href": None,
        "link": None,
    }
    assert _count(app, "SELECT count(*) FROM attempts WHERE drill_id = ?", [int(drill)]) == 1


def test_a_kept_table_test_step_after_the_tests_time_is_recorded_but_said_not_to_count(app, client):
    """A table test's step sent back after the test's time (the phone was offline): recorded (the round
    goes on; the test's score counts only steps within its time) and the phone is told it does not count."""
    AuthActions(client).sign_up("kept.table.test")
    url = client.post("/table/tests", data={"game": "russian_poker", "level": 1}).headers["Location"]
    dealt = dealt_of(app, url)
    round_id = int(url.rsplit("/", 1)[1])
    with app.app_context():
        db = web_db.store().db
        test_id = db.execute("SELECT test_id FROM rounds WHERE id = ?", [round_id]).fetchone()[0]
        past = (datetime.now(UTC) - timedelta(hours=2)).isoformat()
        db.execute("UPDATE table_tests SET started_at = ? WHERE id = ?", [past, test_id])
        db.conn.commit()
    data = {"step": 0, **form_for(dealt.steps[0], expected_answer(dealt, 0))}
    late = client.post(url, data=data, headers={**KEPT, "Accept-Language": "ru"})
    assert late.status_code == 200 and late.json["recorded"] is True
    assert late.json["message"].startswith("Ваш ответ дошёл до сервера после того"), late.json["message"]
    assert _count(app, "SELECT count(*) FROM round_steps WHERE round_id = ?", [round_id]) == 1
