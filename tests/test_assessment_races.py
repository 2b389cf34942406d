"""Assessments under a double tap, a second tab, a replayed cookie and a script: concurrent requests
on a real database file never make more sittings, rounds or questions than the assessment allows,
and a score never counts a question twice (issue 25, items 8-10)."""

import threading
from datetime import UTC, datetime, timedelta

import pytest
from accounts_helpers import AuthActions, signed_in

from trainer.drills.base import REGISTRY, issue
from trainer.store import open_db
from trainer.store.accounts import FAST_HASHER, Accounts, Role
from trainer.store.exams import ExamError, Exams
from trainer.store.groups import Groups
from trainer.web import db as web_db

TRAINEES = 10
TAPS = 12


def _together(count, work):
    """Run `work(i)` in `count` threads released at once; every exception is kept, none lost."""
    gate = threading.Barrier(count)
    errors: list[BaseException] = []

    def run(i):
        gate.wait()
        try:
            work(i)
        except BaseException as error:  # every failure counts, whatever it is
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


@pytest.fixture
def path(tmp_path):
    target = tmp_path / "class.sqlite"
    open_db(target).conn.close()
    return target


def _draw(kind, level, seed):
    return issue(REGISTRY[kind], level, seed=seed), None


def _class_with_exam(path, attempts):
    db = open_db(path, migrate=False)
    accounts = Accounts(db, hasher=FAST_HASHER)
    teacher = accounts.create_user("teacher", "a long secret", role=Role.INSTRUCTOR)["id"]
    groups = Groups(db)
    group = groups.create(teacher, "Shift")
    trainees = []
    for n in range(TRAINEES):
        trainee = accounts.sign_up(f"trainee{n}", "a long secret")["id"]
        groups.join(trainee, group["join_code"])
        trainees.append(trainee)
    now = datetime.now(UTC)
    exam = Exams(db).create(
        group["id"],
        title="Payouts",
        items=[("rp.qualify", 1)],
        questions=3,
        time_limit_s=None,
        attempts_allowed=attempts,
        same_questions=False,
        opens_at=now - timedelta(hours=1),
        closes_at=now + timedelta(hours=1),
        answers_before_close=False,
        made_by=teacher,
    )
    db.conn.close()
    return exam["id"], trainees


@pytest.mark.parametrize("attempts", [1, 2])
def test_concurrent_starts_never_make_more_sittings_than_allowed(path, attempts):
    exam_id, trainees = _class_with_exam(path, attempts)
    refused: list[str] = []

    def tap(i):
        # Each tap starts and hands in at once (a script): a second sitting would be counted.
        db = open_db(path, migrate=False)
        try:
            exams = Exams(db)
            sitting = exams.start(exam_id, trainees[i % TRAINEES], _draw)
            exams.finish(int(sitting["id"]))
        except ExamError as error:
            refused.append(error.reason)
        finally:
            db.conn.close()

    assert _together(TRAINEES * TAPS, tap) == []
    assert set(refused) <= {"no_attempts_left"}
    db = open_db(path, migrate=False)
    exams = Exams(db)
    for trainee in trainees:
        sittings = exams.sittings(exam_id, trainee)
        assert len(sittings) == attempts, trainee
        # Each sitting has exactly its own questions, none lost or doubled by the race.
        assert all(len(exams.drills(int(s["id"]))) == 3 for s in sittings)
    total = db.execute("SELECT count(*) FROM drills WHERE sitting_id IS NOT NULL").fetchone()[0]
    assert total == 3 * attempts * TRAINEES


def test_concurrent_starts_through_the_web_make_one_sitting(app):
    teacher = signed_in(app, "teacher", "instructor")
    made = teacher.post("/groups/new", data={"name": "Evening class"})
    group_id = int(made.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        code = web_db.groups().group(group_id)["join_code"]
    now = datetime.now(UTC)
    made = teacher.post(
        f"/exams/group/{group_id}/new",
        data={
            "title": "Once only",
            "item": ["rp.qualify:1"],
            "questions": "2",
            "attempts_allowed": "1",
            "opens_at": (now - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M"),
            "closes_at": (now + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"),
        },
    )
    exam_id = int(made.headers["Location"].split("/")[-2])
    trainee = app.test_client()
    AuthActions(trainee).sign_up("nino")
    trainee.post("/groups/join", data={"code": code})
    cookie = trainee.get_cookie("session").value
    statuses: list[int] = []
    sittings: set[str] = set()

    def tap(_i):
        tab = app.test_client()
        tab.set_cookie("session", cookie)
        started = tab.post(f"/exams/{exam_id}/start")
        statuses.append(started.status_code)
        if started.status_code == 303:
            sittings.add(started.headers["Location"])
            # Handed in at once, empty: a second sitting started after this would be a retake.
            tab.post(started.headers["Location"], data={})

    assert _together(TAPS, tap) == []
    assert set(statuses) <= {303, 409} and 303 in statuses
    with app.app_context():
        user = web_db.store().db.execute("SELECT id FROM users WHERE username = 'nino'").fetchone()[0]
        assert len(web_db.exams().sittings(exam_id, user)) == 1


# The live table's test: its rounds ------------------------------------------------------------------


def test_concurrent_next_round_requests_never_deal_a_test_more_rounds(path):
    from trainer.store import Store
    from trainer.store.tables import TableStore, exam_settings

    db = open_db(path, migrate=False)
    trainee = Store(db).trainee_named("Trainee One")["id"]
    tables = TableStore(db)
    test_id = tables.start_test(trainee, "omaha", 1)
    wanted = exam_settings()["omaha"]["rounds"]
    for wave in range(wanted + 1):
        given: list[int | None] = []

        def tap(_i, given=given):
            own = open_db(path, migrate=False)
            try:
                given.append(TableStore(own).next_test_round(test_id))
            finally:
                own.conn.close()

        assert _together(TAPS, tap) == []
        rounds = tables.test_rounds(test_id)
        if wave < wanted:
            # Twelve taps at once: one new round between them, the same one given to every tap.
            assert len(rounds) == wave + 1 and set(given) == {rounds[-1]["id"]}
            db.execute("UPDATE rounds SET finished_at = started_at WHERE id = ?", [rounds[-1]["id"]])
            db.conn.commit()
        else:
            assert len(rounds) == wanted and set(given) == {None}


def test_concurrent_next_round_posts_through_the_web_open_one_round(app, named):
    started = named.post("/table/tests", data={"game": "omaha", "level": "1"})
    assert started.status_code == 302
    with app.app_context():
        test_id = web_db.store().db.execute("SELECT max(id) FROM table_tests").fetchone()[0]
        round_id = web_db.tables().test_rounds(test_id)[0]["id"]
        web_db.store().db.execute("UPDATE rounds SET finished_at = started_at WHERE id = ?", [round_id])
        web_db.store().db.conn.commit()
    cookie = named.get_cookie("session").value

    def tap(_i):
        tab = app.test_client()
        tab.set_cookie("session", cookie)
        assert tab.post(f"/table/test/{test_id}/next").status_code == 302

    assert _together(TAPS, tap) == []
    with app.app_context():
        assert len(web_db.tables().test_rounds(test_id)) == 2
