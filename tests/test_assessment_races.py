"""Assessments under a double tap, a second tab, a replayed cookie and a script: concurrent requests
on a real database file never make more sittings, rounds or questions than the assessment allows,
and a score never counts a question twice (issue 25, items 8-10)."""

import threading
from datetime import UTC, datetime, timedelta

import pytest
from accounts_helpers import AuthActions, signed_in
from conftest import memory_db

from trainer.drills.base import REGISTRY, issue
from trainer.store import open_db
from trainer.store.accounts import FAST_HASHER, Accounts, Role
from trainer.store.groups import Groups
from trainer.store.quizzes import ExamError, Exams
from trainer.web.core import db as web_db

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
    made = 0
    for trainee in trainees:
        sittings = exams.sittings(exam_id, trainee)
        # At least the first tap's sitting; never more than allowed. (Whether a second one is made
        # depends on whether some tap starts after another has handed in: timing, not the rule.)
        assert 1 <= len(sittings) <= attempts, trainee
        # Each sitting has exactly its own questions, none lost or doubled by the race.
        assert all(len(exams.drills(int(s["id"]))) == 3 for s in sittings)
        made += len(sittings)
    total = db.execute("SELECT count(*) FROM drills WHERE sitting_id IS NOT NULL").fetchone()[0]
    assert total == 3 * made


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
    AuthActions(trainee).sign_up("trainee.one")
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
        user = web_db.store().db.execute("SELECT id FROM users WHERE username = 'trainee.one'").fetchone()[0]
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


# Sprints: the questions, their count and the clock live on the server ------------------------------

SPRINT = {"kind": "toy.amount", "level": "1", "length": "10", "seconds": "180"}


def _sprint(client):
    started = client.post("/sprint/", data=SPRINT)
    assert started.status_code == 302
    return started.headers["Location"], int(started.headers["Location"].rsplit("/", 1)[1])


def _current(client, run_url):
    """The open question's drill id and its right answer, from the run page (None once it is over)."""
    import re

    page = client.get(run_url).get_data(as_text=True)
    drill = re.search(r'name="drill" value="(\d+)"', page)
    if drill is None:
        return None, None, page
    ante = int(re.search(r'<span class="v">(\d+)</span>', page).group(1))
    return drill.group(1), str(2 * ante), page


def _scored(app, sprint_id):
    from trainer.store import Store

    store = Store(open_db(app.config["DATABASE"], migrate=False))
    try:
        sprint = store.finish_sprint(sprint_id)
        # Read with SQL, not the store's newer reads, so the same test ran against the old code.
        questions = [
            {"id": r[0], "open": not r[1], "skipped": bool(r[1]) and r[2] is None, "correct": bool(r[2])}
            for r in store.db.execute(
                "SELECT d.id, d.answered, a.correct FROM drills d LEFT JOIN attempts a ON a.drill_id = d.id"
                " WHERE d.sprint_id = ? ORDER BY d.id",
                [sprint_id],
            )
        ]
        answers = store.db.execute(
            "SELECT count(*), count(DISTINCT a.drill_id) FROM attempts a JOIN drills d ON d.id = a.drill_id"
            " WHERE d.sprint_id = ?",
            [sprint_id],
        ).fetchone()
    finally:
        store.db.conn.close()
    return sprint, questions, answers


def test_a_replayed_cookie_and_skips_never_add_questions_to_a_sprint(app, named, toys):
    run_url, sprint_id = _sprint(named)
    first, _right, _page = _current(named, run_url)
    old_cookie = named.get_cookie("session").value  # signed, valid: taken at question 1
    for _cycle in range(14):
        # Replay the old cookie and skip the question it saw, then answer whatever is open.
        named.set_cookie("session", old_cookie)
        named.post(f"/sprint/{sprint_id}/skip", data={"drill": first})
        drill, right, _page = _current(named, run_url)
        if drill is None:
            break
        named.post(f"/sprint/{sprint_id}/answer", data={"drill": drill, "answer": right})
    sprint, questions, answers = _scored(app, sprint_id)
    assert len(questions) == 10 and sprint.get("questions") == 10
    assert sprint["correct"] <= sprint["answered"] <= 10
    assert answers[0] == answers[1] == sprint["answered"]  # each question counted once
    # The first question was skipped once (the replays did nothing more) and the nine others answered.
    assert questions[0]["skipped"] and (sprint["answered"], sprint["correct"]) == (9, 9)


def test_a_second_tab_cannot_answer_a_question_twice_and_is_told_so(app, named, toys):
    run_url, sprint_id = _sprint(named)
    other = app.test_client()
    other.set_cookie("session", named.get_cookie("session").value)
    drill, right, _page = _current(named, run_url)
    assert _current(other, run_url)[0] == drill  # both tabs show question 1
    named.post(f"/sprint/{sprint_id}/answer", data={"drill": drill, "answer": right})
    late = other.post(f"/sprint/{sprint_id}/answer", data={"drill": drill, "answer": right})
    assert late.status_code == 302
    page = other.get(late.headers["Location"]).get_data(as_text=True)
    assert "already answered or skipped in another tab" in page
    assert "Question 2 of 10" in page
    other.post(f"/sprint/{sprint_id}/skip", data={"drill": drill})  # the old tab's skip: nothing
    _sprint_row, questions, answers = _scored(app, sprint_id)
    assert len(questions) == 2 and questions[1]["open"] and answers[0] == 1


def test_concurrent_answers_and_skips_score_each_question_once_and_never_more_than_asked(app, named, toys):
    run_url, sprint_id = _sprint(named)
    cookie = named.get_cookie("session").value

    def tab(i):
        client = app.test_client()
        client.set_cookie("session", cookie)
        for _ in range(15):
            drill, right, page = _current(client, run_url)
            if drill is None:
                if "sprint-score" in page or "/result" in page:
                    return
                client.post(f"/sprint/{sprint_id}/finish")  # the rare moment between two questions
                continue
            action = "skip" if i % 4 == 3 else "answer"
            client.post(f"/sprint/{sprint_id}/{action}", data={"drill": drill, "answer": right})

    assert _together(TAPS, tab) == []
    sprint, questions, answers = _scored(app, sprint_id)
    assert len(questions) == 10 and len({q["id"] for q in questions}) == 10
    assert answers[0] == answers[1] == sprint["answered"] <= 10
    assert sprint["correct"] == sum(1 for q in questions if q["correct"])


def test_concurrent_next_question_calls_add_one_question(path):
    from trainer.store import Store
    from trainer.store.progress import SprintBusyError

    db = open_db(path, migrate=False)
    store = Store(db)
    trainee = store.trainee_named("Trainee One")["id"]
    sprint_id = store.start_sprint(trainee, "rp.qualify/3", 1, 60, questions=3, kinds=["rp.qualify"])
    seeds = iter(range(10_000))

    def draw(kind):
        return issue(REGISTRY[kind], 1, seed=next(seeds)), None

    for number in range(1, 5):
        given: list[int | None] = []

        def tap(_i, given=given):
            own = open_db(path, migrate=False)
            try:
                given.append(Store(own).next_sprint_question(sprint_id, draw))
            finally:
                own.conn.close()

        assert _together(TAPS, tap) == []
        asked = store.sprint_questions(sprint_id)
        assert len(asked) == min(number, 3)
        if number <= 3:
            assert set(given) == {asked[-1]["id"]}
            assert store.skip_sprint_question(asked[-1]["id"]) and not store.skip_sprint_question(
                asked[-1]["id"]
            )
        else:
            assert set(given) == {None}
    with pytest.raises(SprintBusyError):
        store.save_drill(
            trainee, issue(REGISTRY["rp.qualify"], 1, seed=1), mode="sprint", sprint_id=sprint_id
        )


def test_a_second_table_test_hands_in_the_open_one_so_the_worse_cannot_be_hidden(app, named):
    first = named.post("/table/tests", data={"game": "omaha", "level": "1"})
    other = app.test_client()
    other.set_cookie("session", named.get_cookie("session").value)
    second = other.post("/table/tests", data={"game": "omaha", "level": "1"})  # a second tab
    assert first.headers["Location"] != second.headers["Location"]
    with app.app_context():
        tests = (
            web_db.store()
            .db.execute("SELECT id, finished_at, passed FROM table_tests ORDER BY id")
            .fetchall()
        )
        assert len(tests) == 2 and tests[0][1] is not None and tests[0][2] == 0 and tests[1][1] is None
        listed = web_db.tables().table_test_results(
            web_db.store().db.execute("SELECT max(id) FROM users").fetchone()[0]
        )
        assert [r["id"] for r in listed] == [tests[0][0]]  # on the record, as it stood


def test_concurrent_table_test_starts_leave_one_open_and_every_other_handed_in(path):
    from trainer.store import Store
    from trainer.store.tables import TableStore

    db = open_db(path, migrate=False)
    trainee = Store(db).trainee_named("Trainee One")["id"]

    def tap(_i):
        own = open_db(path, migrate=False)
        try:
            TableStore(own).start_test(trainee, "omaha", 1)
        finally:
            own.conn.close()

    assert _together(TAPS, tap) == []
    open_, done = db.execute(
        "SELECT sum(finished_at IS NULL), sum(finished_at IS NOT NULL) FROM table_tests"
    ).fetchone()
    assert (open_, done) == (1, TAPS - 1)


# Checked and found sound: these tests pin it -------------------------------------------------------


def _quiz_answers(page):
    import re

    ids = re.findall(r'name="drill" value="(\d+)"', page)
    answers = {"drill": ids, **{f"q{i}-answer": "0" for i in range(len(ids))}}
    answers.update({f"q{i}-amount-{j}": "0" for i in range(len(ids)) for j in range(12)})
    for i in range(len(ids)):
        choice = re.search(rf'name="q{i}-answer" value="([^"]+)"', page)
        if choice:
            answers[f"q{i}-answer"] = choice.group(1)
    return ids, answers


def test_a_self_check_quiz_take_counts_each_question_once_against_tabs_and_replays(app, named):
    assert named.post("/quiz/russian_poker/start").status_code == 303
    ids, answers = _quiz_answers(named.get("/quiz/russian_poker").get_data(as_text=True))
    cookie = named.get_cookie("session").value  # the take is open in this cookie
    statuses: list[int] = []

    def tab(_i):
        client = app.test_client()
        client.set_cookie("session", cookie)
        statuses.append(client.post("/quiz/russian_poker", data=answers).status_code)

    assert _together(TAPS, tab) == []
    assert statuses.count(200) >= 1 and set(statuses) <= {200, 409}
    named.set_cookie("session", cookie)  # replayed once more, after the hand-in
    assert named.post("/quiz/russian_poker", data=answers).status_code == 409
    with app.app_context():
        rows = (
            web_db.store().db.execute("SELECT drill_id, count(*) FROM attempts GROUP BY drill_id").fetchall()
        )
    assert sorted(str(r[0]) for r in rows) == sorted(ids) and {r[1] for r in rows} == {1}


def test_a_practice_answer_counts_once_for_todays_goal_whatever_the_tabs(app, named, toys):
    import re

    drill_url = named.post("/practice/toy.amount", data={"level": "1"}).headers["Location"]
    drill_id = drill_url.rsplit("/", 1)[1]
    ante = int(
        re.search(r'<span class="v">(\d+)</span>', named.get(drill_url).get_data(as_text=True)).group(1)
    )
    cookie = named.get_cookie("session").value

    def tab(i):
        client = app.test_client()
        client.set_cookie("session", cookie)
        client.post(drill_url, data={"drill": drill_id, "answer": str(2 * ante if i % 2 else 1)})

    assert _together(TAPS, tab) == []
    with app.app_context():
        db = web_db.store().db
        assert db.execute("SELECT count(*) FROM attempts").fetchone()[0] == 1
        assert db.execute("SELECT reviews FROM cards").fetchone()[0] == 1  # the practice card too
    assert '<p id="goal">1 of ' in named.get("/today/").get_data(as_text=True)  # the goal counts it once


def test_the_sprint_migration_keeps_each_sprints_questions_and_kinds(tmp_path):
    import sqlite3

    from sqlite_utils import Database

    from trainer.store import Store
    from trainer.store.schema import MIGRATIONS

    file = tmp_path / "before-sprint-questions.sqlite"
    old = Database(sqlite3.connect(file))
    MIGRATIONS.apply(old, stop_before="m012_sprint_questions")
    old.execute("INSERT INTO trainees (id, name, created_at) VALUES (1, NULL, '2026-01-01')")
    for sprint_id, scope in ((1, "rp.qualify/10"), (2, "omaha/20"), (3, "test")):
        old.execute(
            "INSERT INTO sprints (id, trainee_id, scope, level, duration_s, started_at, answered, correct)"
            " VALUES (?, 1, ?, 1, 90, '2026-01-01', 0, 0)",
            [sprint_id, scope],
        )
    for drill_id, sprint_id, kind in (
        (1, 1, "rp.qualify"),
        (2, 2, "om.low"),
        (3, 1, "rp.qualify"),
        (4, 2, "om.hi"),
    ):
        old.execute(
            "INSERT INTO drills (id, trainee_id, kind, level, seed, version, situation, mode, sprint_id,"
            " issued_at, answered) VALUES (?, 1, ?, 1, 1, 1, '{}', 'sprint', ?, '2026-01-01', 0)",
            [drill_id, kind, sprint_id],
        )
    old.conn.commit()
    old.conn.close()
    db = open_db(file)
    rows = db.execute("SELECT id, questions, kinds FROM sprints ORDER BY id").fetchall()
    assert rows == [(1, 10, '["rp.qualify"]'), (2, 20, '["om.low", "om.hi"]'), (3, None, '["test"]')]
    positions = db.execute("SELECT id, position FROM drills ORDER BY id").fetchall()
    assert positions == [(1, 0), (2, 0), (3, 1), (4, 1)]
    assert Store(db).sprint_questions(1) == [
        {"id": 1, "open": True, "skipped": False, "correct": None},
        {"id": 3, "open": True, "skipped": False, "correct": None},
    ]


# Readiness: skipping the hard questions does not make a trainee ready ------------------------------


def test_skipped_questions_count_as_misses_for_readiness():
    from web_toys import toy_kinds

    from trainer.store import Store
    from trainer.store.readiness import Status, Target, readiness, readiness_of

    with toy_kinds():
        store = Store(memory_db())
        trainee = store.new_anonymous_trainee()["id"]
        target = Target(accuracy=0.75, window=4, min_level=1, median_seconds=10)
        seeds = iter(range(1000))

        def ruled():
            # The desk's batched read rules as the single one does (skips counted the same).
            one = readiness(store.db, trainee, ["toy.amount"], target)
            assert readiness_of(store.db, [trainee], {"toy": (["toy.amount"], target)})[trainee, "toy"] == one
            return one

        def drawn():
            return store.save_drill(trainee, issue(REGISTRY["toy.amount"], 1, seed=next(seeds)))

        def right(drill):
            ante = store.drill(drill)["situation"].data["ante"]
            store.answer(drill, str(2 * ante), time_ms=2000)

        for _ in range(4):
            drawn()  # a hard one, seen and passed over: the next question is drawn
            right(drawn())
        got = ruled()
        assert (got.status, got.answers, got.correct) == (Status.NOT_YET, 4, 2)
        for _ in range(4):
            right(drawn())
        assert ruled().status is Status.READY
        # A sprint's skipped question is a miss too; its answered ones count as before.
        sprint = store.start_sprint(trainee, "toy.amount/10", 1, 90, questions=10, kinds=["toy.amount"])

        def question(kind):
            return issue(REGISTRY[kind], 1, seed=next(seeds)), None

        skipped = store.next_sprint_question(sprint, question)
        assert store.skip_sprint_question(skipped)
        right(store.next_sprint_question(sprint, question))
        got = ruled()
        assert (got.status, got.answers, got.correct) == (Status.READY, 4, 3)
        assert store.skip_sprint_question(store.next_sprint_question(sprint, question))
        assert ruled().status is Status.NOT_YET
        # The open question (not yet passed over) is no miss.
        drawn()
        assert ruled().correct == 2


def test_an_answer_from_a_page_of_another_sprint_is_not_dropped_without_a_word(app, named, toys):
    """A tab left open on an earlier sprint sends its answer to the new sprint: nothing is recorded,
    and the page says why (it was dropped silently)."""
    first_url, _first = _sprint(named)
    old_drill, right, _page = _current(named, first_url)
    run_url, sprint_id = _sprint(named)
    assert _current(named, run_url)[0] != old_drill
    late = named.post(f"/sprint/{sprint_id}/answer", data={"drill": "999999", "answer": right})
    assert late.status_code == 302
    page = named.get(late.headers["Location"]).get_data(as_text=True)
    assert "out of date (another tab?) and was not recorded" in page
    _sprint_row, _questions, answers = _scored(app, sprint_id)
    assert answers[0] == 0
