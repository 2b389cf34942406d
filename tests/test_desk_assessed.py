"""The instructor's desk for assessed classes (issue 28): the house rules a trainee practises under,
time zones, readable item analysis and exports, the quiz report, the timed quiz's countdown, the
desk's sections and confirmations; each route's access for another instructor."""

import csv
import io
import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from accounts_helpers import signed_in
from conftest import make_app, memory_db
from test_groups import _make_group, _practise, _trainee

from trainer.store.accounts import FAST_HASHER, Accounts, Role
from trainer.store.groups import Groups
from trainer.web.core import db as web_db


@pytest.fixture
def teacher(app):
    return signed_in(app, "teacher", "instructor")


# (1) Whichever way a trainee comes into a group, he practises under its rules -------------------


def _practising(store_db, user_id):
    return store_db.execute("SELECT practice_group_id FROM users WHERE id = ?", [user_id]).fetchone()[0]


def test_a_member_added_any_way_practises_for_the_group_and_leaving_falls_back_to_another():
    store_db = memory_db()
    accounts = Accounts(store_db, hasher=FAST_HASHER)
    teacher = accounts.create_user("teacher", "a long secret", role=Role.INSTRUCTOR)["id"]
    trainee_one = accounts.sign_up("trainee.one", "a long secret")["id"]
    groups = Groups(store_db)
    evening, morning = groups.create(teacher, "Evening")["id"], groups.create(teacher, "Morning")["id"]
    groups.add_member(evening, trainee_one)  # not by a join code: the store's own door in
    assert _practising(store_db, trainee_one) == evening
    groups.join(trainee_one, groups.group(morning)["join_code"])
    assert _practising(store_db, trainee_one) == evening  # a second group does not take over his choice
    groups.remove_member(evening, trainee_one)
    assert _practising(store_db, trainee_one) == morning  # still in a group: its rules, not the shipped ones
    groups.remove_member(morning, trainee_one)
    assert _practising(store_db, trainee_one) is None


def test_the_desk_shows_which_rules_each_trainee_practises_under(app, teacher):
    group_id, code = _make_group(teacher)
    assert (
        teacher.post(f"/groups/{group_id}/rules", data={"rules-russian_poker": "insured"}).status_code == 302
    )
    _other_id, other_code = _make_group(teacher, "Morning class")
    trainee_one = _trainee(app, "trainee.one", code)
    trainee_two = _trainee(app, "trainee.two", other_code)
    assert trainee_two.post("/groups/join", data={"code": code}).status_code == 302
    trainee_three = _trainee(app, "trainee.three", code)
    assert trainee_three.post("/groups/practise-for", data={"group": ""}).status_code == 302
    _practise(trainee_one)
    desk = teacher.get(f"/groups/{group_id}").get_data(as_text=True)
    cells = dict(re.findall(r'data-trainee="([\w.]+)">.*?data-practising="(\w+)"', desk, re.S))
    assert cells == {"trainee.one": "here", "trainee.two": "other", "trainee.three": "none"}
    trainee_one_row = re.search(r'data-trainee="trainee.one">.*?</tr>', desk, re.S).group(0)
    assert "Insured" in trainee_one_row or "insured" in trainee_one_row.lower()


# (2) Time zones ------------------------------------------------------------------------------------

TBILISI = ZoneInfo("Asia/Tbilisi")


def _local(moment, zone=TBILISI):
    return moment.astimezone(zone).strftime("%Y-%m-%dT%H:%M")


def _quiz_form(opens, closes, **extra):
    return {
        "title": "Payouts, week 1",
        "item": ["rp.qualify:1"],
        "questions": "2",
        "attempts_allowed": "1",
        "opens_at": opens,
        "closes_at": closes,
        **extra,
    }


def test_a_group_in_tbilisi_enters_and_shows_every_time_in_its_zone(app, teacher):
    group_id, code = _make_group(teacher)
    assert (
        teacher.post(f"/groups/{group_id}/time-zone", data={"time_zone": "Asia/Tbilisi"}).status_code == 302
    )
    form_page = teacher.get(f"/exams/group/{group_id}/new").get_data(as_text=True)
    assert "Asia/Tbilisi, UTC+04:00" in form_page and "(UTC)" not in form_page
    now = datetime.now(UTC).replace(second=0, microsecond=0)
    default_opens = re.search(r'id="opens_at" name="opens_at"[^>]*value="([^"]+)"', form_page).group(1)
    assert abs(
        datetime.fromisoformat(default_opens) - now.astimezone(TBILISI).replace(tzinfo=None)
    ) < timedelta(minutes=2)  # the form's "now" is Tbilisi's wall clock
    opens, closes = now - timedelta(hours=1), now + timedelta(hours=2)
    made = teacher.post(f"/exams/group/{group_id}/new", data=_quiz_form(_local(opens), _local(closes)))
    assert made.status_code == 302, made.get_data(as_text=True)[:500]
    exam_id = int(made.headers["Location"].split("/")[-2])
    with app.app_context():
        exam = web_db.exams().exam(exam_id)
    assert datetime.fromisoformat(exam["opens_at"]) == opens  # stored in UTC: entered minus four hours
    assert exam["is_open"]
    shown_close = closes.astimezone(TBILISI).strftime("%Y-%m-%d %H:%M")
    labelled = f'{shown_close} (<code class="zone">Asia/Tbilisi, UTC+04:00</code>)'
    desk = teacher.get(f"/groups/{group_id}").get_data(as_text=True)
    assert labelled in desk
    trainee_one = _trainee(app, "trainee.one", code)
    assert labelled in trainee_one.get("/groups/").get_data(as_text=True)
    start = trainee_one.get(f"/exams/{exam_id}").get_data(as_text=True)
    assert labelled in start
    results = teacher.get(f"/exams/{exam_id}/results").get_data(as_text=True)
    assert shown_close in results and "Asia/Tbilisi" in results
    _practise(trainee_one)
    last = re.search(
        r'data-trainee="trainee.one">.*?</tr>',
        teacher.get(f"/groups/{group_id}").get_data(as_text=True),
        re.S,
    )
    assert datetime.now(UTC).astimezone(TBILISI).strftime("%Y-%m-%d %H:") in last.group(0)


def test_the_instance_zone_is_the_default_and_a_group_may_go_back_to_it(tmp_path):
    app = make_app(
        DATABASE=str(tmp_path / "zone.sqlite"),
        WTF_CSRF_ENABLED=False,
        FAST_PASSWORD_HASHING=True,
        TIME_ZONE="Europe/Moscow",
    )
    teacher = signed_in(app, "teacher", "instructor")
    group_id, _code = _make_group(teacher)
    assert "Europe/Moscow, UTC+03:00" in teacher.get(f"/exams/group/{group_id}/new").get_data(as_text=True)
    teacher.post(f"/groups/{group_id}/time-zone", data={"time_zone": "Asia/Tbilisi"})
    assert "Asia/Tbilisi, UTC+04:00" in teacher.get(f"/exams/group/{group_id}/new").get_data(as_text=True)
    teacher.post(f"/groups/{group_id}/time-zone", data={"time_zone": ""})
    assert "Europe/Moscow, UTC+03:00" in teacher.get(f"/exams/group/{group_id}/new").get_data(as_text=True)


def test_the_time_zone_route_is_the_owners_and_refuses_unknown_zones(app, teacher):
    group_id, code = _make_group(teacher)
    other = signed_in(app, "other.teacher", "instructor")
    trainee = _trainee(app, "trainee.one", code)
    assert other.post(f"/groups/{group_id}/time-zone", data={"time_zone": "Asia/Tbilisi"}).status_code == 404
    assert (
        trainee.post(f"/groups/{group_id}/time-zone", data={"time_zone": "Asia/Tbilisi"}).status_code == 403
    )
    guest = app.test_client().post(f"/groups/{group_id}/time-zone", data={"time_zone": "Asia/Tbilisi"})
    assert guest.status_code == 302 and "sign-in" in guest.headers["Location"]
    for bad in ("Tbilisi", "../../etc/passwd", "x" * 5000):
        assert teacher.post(f"/groups/{group_id}/time-zone", data={"time_zone": bad}).status_code == 400
    with app.app_context():
        assert web_db.groups().group(group_id)["time_zone"] is None


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ({"title": ""}, "title"),
        ({"item": []}, "item"),
        ({"item": ["rp.qualify:9"]}, "item"),
        ({"questions": "0"}, "questions"),
        ({"questions": "٣"}, "questions"),
        ({"questions": "-1"}, "questions"),
        ({"time_limit_min": "181"}, "time_limit_min"),
        ({"attempts_allowed": ""}, "attempts_allowed"),
        ({"opens_at": "tomorrow"}, "opens_at"),
        ({"closes_at": "2020-01-01T10:00"}, "closes_at"),
    ],
)
def test_the_quiz_form_says_which_field_is_wrong_in_the_pages_language(app, teacher, bad, field):
    group_id, _code = _make_group(teacher)
    now = datetime.now(UTC)
    data = {**_quiz_form(_local(now, UTC), _local(now + timedelta(days=1), UTC)), **bad}
    said = {}
    for lang in ("en", "ka", "ru"):
        refused = teacher.post(f"/exams/group/{group_id}/new", data=data, headers={"Accept-Language": lang})
        assert refused.status_code == 400
        page = refused.get_data(as_text=True)
        said[lang] = re.search(rf'id="{field}-error">([^<]+)<', page).group(1)
    assert len(set(said.values())) == 3, said  # each language its own words
    with app.app_context():
        assert web_db.exams().of_group(group_id) == []


# (3) Readable item analysis and exports ---------------------------------------------------------


def _answer(client, kind, level, answer):
    made = client.post(f"/practice/{kind}", data={"level": level})
    drill_id = int(made.headers["Location"].rsplit("/", 1)[1])
    client.post(f"/practice/drill/{drill_id}", data={"drill": drill_id, "answer": answer})
    return drill_id


def _seed_group(app, teacher):
    """A group in Tbilisi with two trainees, Georgian and Russian names, wrong and right answers of
    a choice drill and an amount drill, and a quiz one sat and one did not."""
    group_id, code = _make_group(teacher)
    teacher.post(f"/groups/{group_id}/time-zone", data={"time_zone": "Asia/Tbilisi"})
    trainee_one = _trainee(app, "trainee.one", code)
    _trainee(app, "trainee.five", code)
    with app.app_context():
        store_db = web_db.store().db
        store_db.execute("UPDATE users SET display_name = 'მსმენელი ერთი' WHERE username = 'trainee.one'")
        store_db.execute("UPDATE users SET display_name = 'Слушатель Два' WHERE username = 'trainee.five'")
        store_db.conn.commit()
    for _ in range(2):
        _answer(trainee_one, "rp.combination", 1, "royal flush")
    _answer(trainee_one, "rp.bet_payout", 1, "=1+1")
    now = datetime.now(UTC)
    made = teacher.post(
        f"/exams/group/{group_id}/new",
        data=_quiz_form(_local(now - timedelta(hours=1)), _local(now + timedelta(days=1))),
    )
    exam_id = int(made.headers["Location"].split("/")[-2])
    started = trainee_one.post(f"/exams/{exam_id}/start")
    sitting_id = int(started.headers["Location"].rsplit("/", 1)[1])
    assert trainee_one.post(
        f"/exams/sittings/{sitting_id}", data={"q0-answer": "yes", "q1-answer": "no"}
    ).status_code in (
        302,
        303,
        400,
    )
    return group_id, exam_id, sitting_id


def test_item_analysis_words_answers_and_names_mistakes_per_level_and_mode(app, teacher):
    group_id, _exam, _sitting = _seed_group(app, teacher)
    for lang, royal in (("en", "Royal flush"), ("ka", None), ("ru", None)):
        desk = teacher.get(f"/groups/{group_id}", headers={"Accept-Language": lang}).get_data(as_text=True)
        items = re.search(r'<table class="data" id="items".*?</table>', desk, re.S).group(0)
        assert "royal_flush" not in items and "{'" not in items and "seat-" not in items
        row = re.search(
            r'data-kind="rp.combination" data-level="1" data-mode="practice">.*?</tr>', items, re.S
        )
        assert row is not None
        if royal:
            assert f'<span class="answer">{royal}</span> ×' in row.group(0)
        assert 'data-mode="quiz"' in items  # the quiz's questions are their own rows


def _sheet(response):
    from openpyxl import load_workbook

    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    book = load_workbook(io.BytesIO(response.get_data()))
    return [list(r) for r in book.active.iter_rows(values_only=True)]


def test_the_workbooks_read_back_names_worded_answers_and_local_times(app, teacher):
    group_id, _exam, _sitting = _seed_group(app, teacher)
    rows = _sheet(teacher.get(f"/groups/{group_id}/answers.xlsx"))
    assert rows[0][0] == "When (Asia/Tbilisi)"
    names = {r[1] for r in rows[1:]}
    assert "მსმენელი ერთი" in names
    combination = [r for r in rows[1:] if r[3] == "Combination" or "flush" in str(r[8]).lower()]
    assert combination and all("_" not in str(r[8]) for r in combination)
    first = rows[1][0]
    assert isinstance(first, datetime)
    assert abs(first - datetime.now(UTC).astimezone(TBILISI).replace(tzinfo=None)) < timedelta(minutes=5)
    quiz = _sheet(teacher.get(f"/groups/{group_id}/quiz-report.xlsx"))
    trainees = {r[1] for r in quiz[1:]}
    assert trainees == {"მსმენელი ერთი", "Слушатель Два"}  # every member, the one who did not sit it too
    absent = [r for r in quiz[1:] if r[1] == "Слушатель Два"]
    assert len(absent) == 1 and absent[0][4] == "not taken"


def test_the_csv_exports_have_a_byte_order_mark_and_local_times(app, teacher):
    group_id, _exam, _sitting = _seed_group(app, teacher)
    body = teacher.get(f"/groups/{group_id}/answers.csv").get_data()
    assert body.startswith("\ufeff".encode())
    table = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    assert table[0][0] == "When (Asia/Tbilisi)"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", table[1][0])
    today = datetime.now(UTC).astimezone(TBILISI).date().isoformat()
    assert len(
        list(
            csv.reader(
                io.StringIO(
                    teacher.get(f"/groups/{group_id}/answers.csv?since={today}&until={today}").get_data(
                        as_text=True
                    )
                )
            )
        )
    ) == len(table)
    assert (
        teacher.get(f"/groups/{group_id}/answers.csv?since=2000-01-01&until=2000-01-02")
        .get_data(as_text=True)
        .count("\n")
        == 1
    )
    assert teacher.get(f"/groups/{group_id}/answers.csv?since=soon").status_code == 400
    quiz = teacher.get(f"/groups/{group_id}/quiz-report.csv", headers={"Accept-Language": "ka"}).get_data()
    assert (
        quiz.startswith("\ufeff".encode()) and "Слушатель Два".encode() in quiz and b"not taken" not in quiz
    )


def test_the_exports_are_the_owners_only(app, teacher):
    group_id, _exam, _sitting = _seed_group(app, teacher)
    other = signed_in(app, "other.teacher", "instructor")
    trainee = app.test_client()
    from accounts_helpers import AuthActions

    AuthActions(trainee).sign_up("outsider")
    for url in ("answers.csv", "answers.xlsx", "quiz-report.csv", "quiz-report.xlsx"):
        assert other.get(f"/groups/{group_id}/{url}").status_code == 404, url
        assert trainee.get(f"/groups/{group_id}/{url}").status_code == 403, url
        assert app.test_client().get(f"/groups/{group_id}/{url}").status_code == 302, url
        assert other.get(f"/groups/999999/{url}").status_code == 404
    assert teacher.get(f"/groups/{group_id}/answers.pdf").status_code == 404


# (4) The quiz report -------------------------------------------------------------------------------


def test_the_statistics_by_hand():
    from trainer.store.quiz_report import discrimination_index, facility, point_biserial

    # Four sittings, three questions: q0 only the strong get right, q1 everyone, q2 only the weak.
    matrix = [[1, 1, 0], [1, 1, 0], [0, 1, 1], [0, 1, 1]]
    assert facility([row[0] for row in matrix]) == 0.5
    assert discrimination_index(matrix, 0) == 1.0  # top 27% of 4 = 1 sitting
    assert discrimination_index(matrix, 1) == 0.0
    assert point_biserial(matrix, 1) is None  # everyone right: no correlation to speak of
    ten = [[1] * 5] * 3 + [[0, 1, 1, 1, 1]] * 4 + [[0] * 5] * 3  # 27% of 10 = 3 a side
    assert discrimination_index(ten, 0) == 1.0
    assert discrimination_index(ten, 1) == 1.0
    assert discrimination_index([[1]], 0) is None


def _sit(client, exam_id, answers):
    started = client.post(f"/exams/{exam_id}/start")
    sitting_id = int(started.headers["Location"].rsplit("/", 1)[1])
    data = {f"q{i}-answer": a for i, a in enumerate(answers)}
    assert client.post(f"/exams/sittings/{sitting_id}", data=data).status_code in (302, 303)
    return sitting_id


def test_the_quiz_report_shows_facility_discrimination_answers_and_the_distribution(app, teacher):
    group_id, code = _make_group(teacher)
    now = datetime.now(UTC)
    made = teacher.post(
        f"/exams/group/{group_id}/new",
        data=_quiz_form(
            _local(now - timedelta(hours=1), UTC),
            _local(now + timedelta(days=1), UTC),
            same_questions="1",
            attempts_allowed="2",
        ),
    )
    exam_id = int(made.headers["Location"].split("/")[-2])
    with app.app_context():
        exam = web_db.exams().exam(exam_id)
    from trainer.drills import REGISTRY
    from trainer.drills.base import expected_of

    clients = [
        _trainee(app, name, code) for name in ("trainee.one", "trainee.two", "trainee.three", "trainee.four")
    ]
    sittings = [_sit(clients[0], exam_id, ["yes", "yes"])]  # draws the questions everyone gets
    with app.app_context():
        store = web_db.store()
        drills = [store.drill(d) for d in web_db.exams().drills(sittings[0])]
        right = [expected_of(d["situation"], REGISTRY[d["kind"]])[0] for d in drills]
    wrong = ["no" if r == "yes" else "yes" for r in right]
    # t1 both right, t2 first right, t3 none right: t0's sitting (already in) is whatever it was.
    _sit(clients[1], exam_id, right)
    _sit(clients[2], exam_id, [right[0], wrong[1]])
    _sit(clients[3], exam_id, wrong)
    _sit(clients[3], exam_id, right)  # a second attempt does not count in the report
    page = teacher.get(f"/exams/{exam_id}/results").get_data(as_text=True)
    assert 'id="question-stats"' in page and 'id="score-distribution"' in page
    with app.app_context():
        from trainer.store.quiz_report import quiz_report

        report = quiz_report(web_db.store().db, exam_id, exam["questions"])
    assert report["sittings"] == 4
    t0 = [int(a == r) for a, r in zip(["yes", "yes"], right, strict=True)]
    scores = [sum(t0), 2, 1, 0]
    assert report["average"] == sum(scores) / 4
    assert report["distribution"] == [scores.count(k) for k in range(3)]
    q1 = report["items"][0]
    assert q1["facility"] == (t0[0] + 1 + 1 + 0) / 4
    assert sum(a["count"] for a in q1["answers"]) == 4
    assert re.search(r'data-question="1">.*?(Yes, a game|No game).*?×', page, re.S)
    other = signed_in(app, "other.teacher", "instructor")
    assert other.get(f"/exams/{exam_id}/results").status_code == 404


# (5) The timed quiz's countdown, kept by the server ------------------------------------------------


def _clock_ahead(monkeypatch, seconds):
    from trainer.store.quizzes import Exams

    later = datetime.now(UTC) + timedelta(seconds=seconds)
    monkeypatch.setattr(web_db, "exams", lambda: Exams(web_db.store().db, clock=lambda: later))


def test_the_countdown_is_the_servers_and_hands_in_what_was_typed_at_zero(app, teacher, monkeypatch):
    group_id, code = _make_group(teacher)
    now = datetime.now(UTC)
    made = teacher.post(
        f"/exams/group/{group_id}/new",
        data=_quiz_form(
            _local(now - timedelta(hours=1), UTC), _local(now + timedelta(days=1), UTC), time_limit_min="10"
        ),
    )
    exam_id = int(made.headers["Location"].split("/")[-2])
    trainee_one = _trainee(app, "trainee.one", code)
    sitting_id = int(trainee_one.post(f"/exams/{exam_id}/start").headers["Location"].rsplit("/", 1)[1])
    remaining = lambda: int(  # noqa: E731
        re.search(
            r'id="quiz-clock" data-remaining="(\d+)"',
            trainee_one.get(f"/exams/sittings/{sitting_id}").get_data(as_text=True),
        ).group(1)
    )
    assert 590 <= remaining() <= 600
    page = trainee_one.get(f"/exams/sittings/{sitting_id}").get_data(as_text=True)
    assert page.index('id="hand-in-form"') < page.index(
        '<script src="/static/js/quiz_clock.js'
    )  # in the body
    _clock_ahead(monkeypatch, 9 * 60 + 30)
    assert 20 <= remaining() <= 30  # a reload reads the server's clock: it does not start again
    # A page claiming the time is up while the server has 20 s left: the usual refusal, nothing kept.
    early = trainee_one.post(f"/exams/sittings/{sitting_id}", data={"q0-answer": "yes", "time_up": "1"})
    assert early.status_code == 400
    _clock_ahead(monkeypatch, 10 * 60 + 2)  # past the deadline, within the grace
    assert remaining() == 0
    done = trainee_one.post(f"/exams/sittings/{sitting_id}", data={"q0-answer": "yes", "time_up": "1"})
    assert done.status_code == 303
    with app.app_context():
        sitting = (
            web_db.store()
            .db.execute("SELECT answered, finished_at FROM exam_sittings WHERE id = ?", [sitting_id])
            .fetchone()
        )
    assert sitting[0] == 1 and sitting[1] is not None  # the typed answer counts, the blank one is unanswered
    _clock_ahead(monkeypatch, 0)
    other = _trainee(app, "trainee.two", code)
    other_sitting = int(other.post(f"/exams/{exam_id}/start").headers["Location"].rsplit("/", 1)[1])
    assert trainee_one.get(f"/exams/sittings/{other_sitting}").status_code == 404  # his own sittings only


def test_an_untimed_quiz_has_no_countdown(app, teacher):
    group_id, code = _make_group(teacher)
    now = datetime.now(UTC)
    made = teacher.post(
        f"/exams/group/{group_id}/new",
        data=_quiz_form(_local(now - timedelta(hours=1), UTC), _local(now + timedelta(days=1), UTC)),
    )
    exam_id = int(made.headers["Location"].split("/")[-2])
    trainee_one = _trainee(app, "trainee.one", code)
    page = trainee_one.get(trainee_one.post(f"/exams/{exam_id}/start").headers["Location"]).get_data(
        as_text=True
    )
    assert 'id="quiz-clock"' not in page and "quiz_clock.js" not in page


# (6) Sections, confirmations -----------------------------------------------------------------------


def test_removing_a_trainee_and_a_new_join_code_ask_first(app, teacher):
    group_id, code = _make_group(teacher)
    _trainee(app, "trainee.one", code)
    with app.app_context():
        trainee_one_id = web_db.groups().members(group_id)[0]["id"]
    for lang in ("en", "ka"):
        asked = teacher.post(
            f"/groups/{group_id}/members/{trainee_one_id}/remove", headers={"Accept-Language": lang}
        )
        assert asked.status_code == 200 and 'id="confirm-question"' in asked.get_data(as_text=True)
    with app.app_context():
        assert len(web_db.groups().members(group_id)) == 1  # asking removed nobody
    asked = teacher.post(f"/groups/{group_id}/code").get_data(as_text=True)
    assert f"<code>{code}</code>" in asked
    with app.app_context():
        assert web_db.groups().group(group_id)["join_code"] == code  # asking changed nothing
    other = signed_in(app, "other.teacher", "instructor")
    assert other.post(f"/groups/{group_id}/code").status_code == 404  # not even the question
    assert other.post(f"/groups/{group_id}/members/{trainee_one_id}/remove").status_code == 404
    assert other.post(f"/groups/{group_id}/code", data={"confirm": "1"}).status_code == 404
    assert teacher.post(f"/groups/{group_id}/code", data={"confirm": "1"}).status_code == 302
    assert (
        teacher.post(f"/groups/{group_id}/members/{trainee_one_id}/remove", data={"confirm": "1"}).status_code
        == 302
    )
    with app.app_context():
        assert web_db.groups().group(group_id)["join_code"] != code
        assert web_db.groups().members(group_id) == []


def test_the_desk_has_sections_to_jump_to(app, teacher):
    group_id, code = _make_group(teacher)
    _trainee(app, "trainee.one", code)
    desk = teacher.get(f"/groups/{group_id}").get_data(as_text=True)
    nav = re.search(r'<nav class="desk-sections".*?</nav>', desk, re.S).group(0)
    for anchor in re.findall(r'href="#([\w-]+)"', nav):
        assert f'id="{anchor}"' in desk, anchor


# Comments on a sitting --------------------------------------------------------------------------------


def test_a_comment_on_a_sitting_is_seen_by_the_trainee_and_only_the_instructor_writes_it(app, teacher):
    _group_id, _exam_id, sitting_id = _seed_group(app, teacher)
    trainee_one = app.test_client()
    from accounts_helpers import AuthActions

    AuthActions(trainee_one).sign_in("trainee.one")
    assert 'id="unread-comments"' not in trainee_one.get("/").get_data(as_text=True)
    other = signed_in(app, "other.teacher", "instructor")
    url = f"/exams/sittings/{sitting_id}/comments"
    assert other.post(url, data={"text": "Hello"}).status_code == 404  # another instructor's sitting
    assert trainee_one.post(url, data={"text": "Nice"}).status_code == 403  # a trainee writes none
    assert teacher.post(url, data={"text": "   "}).status_code == 400
    assert teacher.post(url, data={"text": "x" * 2001}).status_code == 400
    assert teacher.post("/exams/sittings/999999/comments", data={"text": "Hi"}).status_code == 404
    assert (
        teacher.post(url, data={"text": "Check the dealer's qualifying hand first. <b>ok</b>"}).status_code
        == 302
    )
    review = teacher.get(f"/exams/sittings/{sitting_id}/review").get_data(as_text=True)
    assert (
        "Check the dealer&#39;s qualifying hand first. &lt;b&gt;ok&lt;/b&gt;" in review
    )  # text, never markup
    home = trainee_one.get("/").get_data(as_text=True)
    assert 'id="unread-comments"' in home and "1 comment on Payouts, week 1" in home
    assert 'id="unread-comments"' in trainee_one.get("/groups/").get_data(as_text=True)
    result = trainee_one.get(f"/exams/sittings/{sitting_id}").get_data(as_text=True)
    assert "Check the dealer&#39;s qualifying hand first." in result
    assert 'id="unread-comments"' not in trainee_one.get("/").get_data(as_text=True)  # read now
    trainee_two = _trainee(app, "trainee.two")
    assert trainee_two.get(f"/exams/sittings/{sitting_id}").status_code == 404  # not his sitting


# The printable readiness report ------------------------------------------------------------------


def test_the_readiness_report_is_dated_signed_and_the_owners_only(app, teacher):
    group_id, code = _make_group(teacher)
    trainee_one = _trainee(app, "trainee.one", code)
    drill = _practise(trainee_one)
    with app.app_context():
        trainee_one_id = web_db.groups().members(group_id)[0]["id"]
    url = f"/groups/{group_id}/trainees/{trainee_one_id}/readiness"
    page = teacher.get(url).get_data(as_text=True)
    assert 'id="report-readiness"' in page and 'data-kind="rp.bet_payout"' in page
    signature = re.sub(r"<[^>]+>", "", re.search(r'id="report-signature">(.*?)</p>', page).group(1))
    today = datetime.now(UTC).date().isoformat()
    assert today in signature and "teacher" in signature.lower()
    assert "@media print" in app.test_client().get("/static/css/trainer.css").get_data(as_text=True)
    other = signed_in(app, "other.teacher", "instructor")
    assert other.get(url).status_code == 404
    assert trainee_one.get(url).status_code == 403
    assert teacher.get(f"/groups/{group_id}/trainees/{trainee_one_id + 99}/readiness").status_code == 404
    ka = teacher.get(url, headers={"Accept-Language": "ka"}).get_data(as_text=True)
    assert "Readiness report" not in ka
    # The attempt page names the house rules by their title, not the preset's id.
    attempt = teacher.get(f"/groups/{group_id}/trainees/{trainee_one_id}/drills/{drill}").get_data(
        as_text=True
    )
    assert "<code>cis</code>" not in attempt and "CIS casinos" in attempt


def test_the_quiz_results_csv_lists_every_member_in_local_time(app, teacher):
    _group_id, exam_id, _sitting = _seed_group(app, teacher)
    body = teacher.get(f"/exams/{exam_id}/results.csv").get_data()
    assert body.startswith("\ufeff".encode())
    table = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    assert table[0][2] == "started_at (Asia/Tbilisi)"
    rows = {r[0]: r for r in table[1:]}
    assert (
        set(rows) == {"trainee.one", "trainee.five"}
        and rows["trainee.five"][2] == ""
        and rows["trainee.five"][1] == "Слушатель Два"
    )
    tbilisi_now = datetime.now(UTC).astimezone(TBILISI).replace(tzinfo=None)
    assert abs((datetime.fromisoformat(rows["trainee.one"][3]) - tbilisi_now).total_seconds()) < 600


# The house-rules text with line numbers -------------------------------------------------------------


def test_a_refused_house_rules_text_marks_the_line_it_refused(app, teacher):
    group_id, _code = _make_group(teacher)
    url = f"/groups/{group_id}/rules/russian_poker"
    page = teacher.get(url).get_data(as_text=True)
    assert 'id="rules-lines"' in page and "line-refused" not in page
    text = re.search(r'<textarea id="rules-text"[^>]*>(.*?)</textarea>', page, re.S).group(1)
    import html

    text = html.unescape(text)
    lines = text.split("\n")
    bad = text.replace("full_house = 7,", "full_house = -7,", 1)  # the bet's pay table, one line
    wanted = next(i for i, line in enumerate(bad.split("\n"), start=1) if "full_house = -7," in line)
    refused = teacher.post(url, data={"text": bad})
    assert refused.status_code == 400
    marked = re.search(r'<li id="line-(\d+)" class="line-refused"', refused.get_data(as_text=True))
    assert marked and int(marked.group(1)) == wanted
    broken = "\n".join([*lines[:3], "this is = = not toml", *lines[3:]])
    refused = teacher.post(url, data={"text": broken}).get_data(as_text=True)
    assert re.search(r'<li id="line-4" class="line-refused"', refused)
    assert 'href="#line-4"' in refused
