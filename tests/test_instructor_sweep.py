"""Every instructor page and endpoint of the URL map, asked for groups in unusual but reachable
states built through the pages (an empty group, a member who left, one who left and came back,
one with only questions passed over, one with only sprint answers, a quiz nobody sat, a quiz handed
in empty, a quiz closed with nobody sitting, a table test left midway, a live session nobody joined,
house rules changed after answers): each answers 200 or a 4xx, never a 500."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from accounts_helpers import signed_in
from live_helpers import open_live
from test_groups import _make_group, _practise, _trainee

from trainer.web.core import db as web_db

# The URL map's arguments filled from the states built; every GET rule taking only these is asked
# with every combination (the trainee-facing ones answer the instructor 403/404: fine, not a 5xx).
ARGUMENTS = ("group_id", "user_id", "exam_id", "sitting_id", "session_id", "drill_id", "test_id", "game_id")


def _quiz(teacher, group_id, opens, closes, title="Payouts"):
    made = teacher.post(
        f"/exams/group/{group_id}/new",
        data={
            "title": title,
            "item": ["rp.qualify:1"],
            "questions": "2",
            "attempts_allowed": "1",
            "opens_at": opens.strftime("%Y-%m-%dT%H:%M"),
            "closes_at": closes.strftime("%Y-%m-%dT%H:%M"),
        },
    )
    assert made.status_code == 302, made.get_data(as_text=True)[:400]
    return int(made.headers["Location"].split("/")[-2])


def _user_id(app, username):
    with app.app_context():
        row = web_db.store().db.execute("SELECT id FROM users WHERE username = ?", [username]).fetchone()
        return int(row[0])


def _build(app):
    """The states; returns the ids to fill the URL map's arguments with."""
    teacher = signed_in(app, "teacher", "instructor")
    empty_group, _ = _make_group(teacher, "Empty class")
    alone_group, alone_code = _make_group(teacher, "Deserted class")
    group_id, code = _make_group(teacher, "Evening & co's")
    now = datetime.now(UTC)

    # A group whose only member left after answering.
    gone = _trainee(app, "gone.one", alone_code)
    _practise(gone)
    assert gone.post(f"/groups/{alone_group}/leave").status_code == 302

    # In the main group: a member who left and came back (two stretches), one with only questions
    # passed over, one with only sprint answers, one who left a table test midway.
    back = _trainee(app, "back.again", code)
    _practise(back)
    assert back.post(f"/groups/{group_id}/leave").status_code == 302
    assert back.post("/groups/join", data={"code": code}).status_code == 302
    _practise(back, answer="999")
    skipper = _trainee(app, "skipper", code)
    for _ in range(2):
        assert skipper.post("/practice/rp.bet_payout", data={"level": 3}).status_code == 303
    sprinter = _trainee(app, "sprinter", code)
    started = sprinter.post(
        "/sprint/", data={"kind": "rp.bet_payout", "level": "1", "length": "10", "seconds": "180"}
    )
    assert started.status_code == 302, started.get_data(as_text=True)[:300]
    sprint_id = int(started.headers["Location"].rsplit("/", 1)[1])
    page = sprinter.get(f"/sprint/{sprint_id}").get_data(as_text=True)
    drill = re.search(r'name="drill" value="(\d+)"', page).group(1)
    sprinter.post(f"/sprint/{sprint_id}/answer", data={"drill": drill, "answer": "1"})
    sprinter.post(f"/sprint/{sprint_id}/skip", data={})
    sprinter.post(f"/sprint/{sprint_id}/finish", data={})
    tabler = _trainee(app, "tabler", code)
    assert tabler.post("/table/tests", data={"game": "omaha", "level": "1"}).status_code == 302
    with app.app_context():
        test_id = web_db.store().db.execute("SELECT max(id) FROM table_tests").fetchone()[0]
    _trainee(app, "idle", code)  # a member with nothing at all

    # Quizzes: one nobody sat, one handed in empty, one whose deadline passed with nobody sitting.
    _quiz(teacher, group_id, now - timedelta(hours=1), now + timedelta(days=1), "Nobody yet")
    empty_quiz = _quiz(teacher, group_id, now - timedelta(hours=1), now + timedelta(days=1), "Empty")
    started = back.post(f"/exams/{empty_quiz}/start")
    assert started.status_code == 303
    sitting_id = int(started.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    assert back.post(started.headers["Location"], data={}).status_code == 400  # left open
    closed_quiz = _quiz(teacher, group_id, now - timedelta(hours=2), now + timedelta(hours=1), "Closed")
    late = tabler.post(f"/exams/{closed_quiz}/start")
    assert late.status_code == 303
    with app.app_context():  # its deadline passes (the clock, not a row no store could write)
        store_db = web_db.store().db
        store_db.execute(
            "UPDATE exams SET closes_at = ? WHERE id = ?",
            [(now - timedelta(minutes=5)).isoformat(), closed_quiz],
        )
        store_db.conn.commit()
    # The sitting open at the deadline is closed with nothing answered when its page is handed in.
    assert tabler.post(late.headers["Location"], data={}).status_code == 409

    # House rules changed after the answers were recorded.
    assert (
        teacher.post(f"/groups/{group_id}/rules", data={"rules-russian_poker": "insured"}).status_code == 302
    )

    # A live session nobody joined, started and ended.
    session_id, _code = open_live(teacher, group_id, ["rp.bet_payout"])
    teacher.post(f"/live/{session_id}/control", data={"action": "start"})
    teacher.post(f"/live/{session_id}/control", data={"action": "end"})

    # A second one: a member answers its first question and leaves the group before it ends; the
    # second question is revealed with no answer, the session paused and ended.
    leaver = _trainee(app, "leaver", code)
    played, live_code = open_live(teacher, group_id, ["rp.bet_payout"], questions=3, seconds=0)
    assert leaver.post("/live/join", data={"code": live_code}).status_code == 303
    teacher.post(f"/live/{played}/control", data={"action": "start"})
    phone = leaver.get(f"/live/{played}/phone").get_data(as_text=True)
    question = re.search(r'name="question" value="(\d+)"', phone).group(1)
    assert (
        leaver.post(f"/live/{played}/answer", data={"question": question, "answer": "7"}).status_code == 303
    )
    for action in ("reveal", "next", "reveal", "pause", "resume"):
        assert teacher.post(f"/live/{played}/control", data={"action": action}).status_code in (303, 409), (
            action
        )
    assert leaver.post(f"/groups/{group_id}/leave").status_code == 302
    teacher.post(f"/live/{played}/control", data={"action": "end"})

    with app.app_context():
        exams = [int(r[0]) for r in web_db.store().db.execute("SELECT id FROM exams").fetchall()]
        drills = [int(r[0]) for r in web_db.store().db.execute("SELECT id FROM drills").fetchall()]
    users = [
        _user_id(app, n)
        for n in ("gone.one", "back.again", "skipper", "sprinter", "tabler", "idle", "leaver")
    ]
    return teacher, {
        "group_id": [empty_group, alone_group, group_id],
        "user_id": users,
        "exam_id": exams,
        "sitting_id": [sitting_id, int(late.headers["Location"].rsplit("/", 1)[1])],
        "session_id": [session_id, played],
        "drill_id": drills[:3],
        "test_id": [test_id],
        "game_id": ["russian_poker", "omaha", "painted_poker"],
    }


def _urls(app, ids):
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static":
            continue
        wanted = [a for a in rule.arguments if a in ARGUMENTS]
        if len(wanted) != len(rule.arguments) or not wanted:
            continue
        choices = [{}]
        for name in wanted:
            choices = [{**c, name: value} for c in choices for value in ids[name]]
        for values in choices:
            url = rule.rule
            for name, value in values.items():
                url = re.sub(rf"<(?:\w+:)?{name}>", str(value), url)
            yield url


def test_every_instructor_page_answers_unusual_groups_without_a_500(app):
    teacher, ids = _build(app)
    asked, failed, seen = 0, [], {}
    for url in _urls(app, ids):
        answer = teacher.get(url)
        asked += 1
        try:
            answer.get_data()  # a streamed export fails here, after its 200
        except Exception as error:  # any error mid-stream is the defect looked for
            failed.append((url, repr(error)))
        finally:
            answer.close()
        seen.setdefault(answer.status_code, []).append(url)
        if answer.status_code >= 500:
            failed.append((url, answer.status_code))
    assert asked > 100
    assert failed == []
    shown = set(seen[200])
    group_id = ids["group_id"][2]
    for wanted in (
        *(f"/groups/{g}" for g in ids["group_id"]),
        *(f"/api/v1/groups/{g}/report" for g in ids["group_id"]),
        *(f"/groups/{group_id}/trainees/{u}/readiness" for u in ids["user_id"][1:6]),
        f"/groups/{group_id}/answers.xlsx",
        f"/groups/{group_id}/quiz-report.xlsx",
        *(f"/exams/{e}/results" for e in ids["exam_id"]),
        f"/live/{ids['session_id'][0]}/summary",
        f"/exams/sittings/{ids['sitting_id'][1]}/review",
    ):
        assert wanted in shown, wanted
    # The member who left is no longer the instructor's to see; the one who came back is.
    assert f"/groups/{ids['group_id'][1]}/trainees/{ids['user_id'][0]}" in seen[404]
