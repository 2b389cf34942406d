"""Groups and the instructor's desk: the store (codes, members, house rules, targets, the report with
known figures, item analysis, the CSV rows), the pages and the API of the whole story, and the access
rules as a matrix over roles and URLs (a trainee sees only his own work, an instructor only his
groups, another user's drill is a 404 whoever asks)."""

import csv
import io
import itertools
import re
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from accounts_helpers import AuthActions, signed_in
from api_helpers import token_client
from conftest import memory_db
from sqlite_utils import Database
from test_i18n_catalogs import _visible_latin_words

from trainer.drills import REGISTRY, base, issue
from trainer.drills.base import Situation, expected_of
from trainer.games import BY_ID
from trainer.store import NotFoundError, Store, open_db
from trainer.store.accounts import FAST_HASHER, AccountError, Accounts, Role
from trainer.store.groups import Groups, clean_join_code
from trainer.store.readiness import Target
from trainer.store.schema import MIGRATIONS
from trainer.web.core import db as web_db

# The store ------------------------------------------------------------------------------------------


@pytest.fixture
def store_db():
    return memory_db()


def _users(store_db):
    accounts = Accounts(store_db, hasher=FAST_HASHER)
    teacher = accounts.create_user("teacher", "a long secret", role=Role.INSTRUCTOR)
    one = accounts.sign_up("one", "a long secret")
    two = accounts.sign_up("two", "a long secret")
    return teacher["id"], one["id"], two["id"]


def _answer(store, trainee, kind, level, right, time_ms=3000, rules=None):
    situation = issue(kind, level, rules=rules)
    drill = store.save_drill(trainee, situation)
    expected = expected_of(situation)[0]
    if not right:  # another choice, or another amount
        choices = [c.value for c in situation.answer_format.choices]
        expected = next(c for c in choices if c != expected) if choices else expected + 1
    store.answer(drill, str(expected), time_ms=time_ms)
    return drill


def test_groups_codes_members_and_practising_for(store_db):
    teacher, one, two = _users(store_db)
    groups = Groups(store_db)
    with pytest.raises(AccountError):
        groups.create(one, "A trainee's group")  # trainees do not make groups
    with pytest.raises(AccountError):
        groups.create(teacher, "   ")
    evening = groups.create(teacher, "  Evening   class ")
    assert evening["name"] == "Evening class"
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", evening["join_code"])
    assert clean_join_code(evening["join_code"].replace("-", " ").lower()) == evening["join_code"]
    with pytest.raises(AccountError):
        groups.join(one, "NOPE-NOPE")
    groups.join(one, evening["join_code"].lower().replace("-", ""))
    groups.join(one, evening["join_code"])  # twice is fine
    assert [m["id"] for m in groups.members(evening["id"])] == [one]
    assert groups.instructs(teacher, one) and not groups.instructs(teacher, two)
    with pytest.raises(NotFoundError):
        groups.practise_for(two, evening["id"])  # not a member
    groups.practise_for(one, evening["id"])
    assert groups.practising_for(one)["id"] == evening["id"]
    old = evening["join_code"]
    fresh = groups.new_code(evening["id"])["join_code"]
    assert fresh != old
    with pytest.raises(AccountError):
        groups.join(two, old)
    groups.remove_member(evening["id"], one)
    assert groups.practising_for(one) is None and groups.members(evening["id"]) == []


def test_house_rules_and_targets_per_game(store_db):
    teacher = _users(store_db)[0]
    groups = Groups(store_db)
    gid = groups.create(teacher, "Shift A")["id"]
    assert groups.rules(gid) == {"russian_poker": "cis", "omaha": "standard", "painted_poker": "classic"}
    groups.set_rules(gid, "russian_poker", "insured")
    assert groups.rules_for_kind(gid, "rp.bet_payout") == "insured"
    assert groups.rules_for_kind(None, "rp.bet_payout") is None
    for game, preset in (("russian_poker", "lunar-2"), ("chess", "cis"), ("omaha", "../cis")):
        with pytest.raises(AccountError):
            groups.set_rules(gid, game, preset)
    assert groups.target(gid, "omaha") == Target(0.95, 40, 2, 10.0)  # data/readiness.toml
    groups.set_target(gid, "omaha", Target(0.9, 20, 1, 12.5))
    assert groups.target(gid, "omaha") == Target(0.9, 20, 1, 12.5)
    assert groups.target(gid, "russian_poker") == Target(0.95, 40, 2, 10.0)


def test_the_report_counts_each_members_answers(store_db):
    teacher, one, two = _users(store_db)
    groups, store = Groups(store_db), Store(store_db)
    gid = groups.create(teacher, "Shift B")["id"]
    groups.add_member(gid, one)
    groups.add_member(gid, two)
    groups.set_target(gid, "russian_poker", Target(0.75, 4, 1, 10))
    for right, ms in ((True, 2000), (True, 4000), (False, 9000), (True, 3000)):
        _answer(store, one, "rp.qualify", 1, right, ms)
    _answer(store, two, "rp.qualify", 1, False, 5000)
    stranger = Accounts(store_db, hasher=FAST_HASHER).sign_up("stranger", "a long secret")["id"]
    _answer(store, stranger, "rp.qualify", 1, True)  # not a member: not in the report
    report = groups.report(gid)
    assert report["kinds"] == ["rp.qualify"]
    by_name = {t["username"]: t for t in report["trainees"]}
    assert set(by_name) == {"one", "two"}
    cell = by_name["one"]["kinds"]["rp.qualify"]
    assert (cell["attempts"], cell["correct"], cell["median_ms"]) == (4, 3, 3500.0)
    assert by_name["one"]["readiness"]["russian_poker"]["status"] == "ready"  # 75% over the last 4
    assert by_name["two"]["readiness"]["russian_poker"]["status"] == "too_few"
    assert by_name["one"]["readiness"]["omaha"]["status"] == "too_few"
    assert by_name["one"]["last_activity"] is not None
    items = groups.item_analysis(gid)
    assert [(i["kind"], i["attempts"]) for i in items] == [("rp.qualify", 5)]
    assert sum(w["count"] for w in items[0]["wrong_answers"]) == 2
    rows = groups.attempts(gid)
    assert len(rows) == 5 and {r["username"] for r in rows} == {"one", "two"}
    assert groups.attempts(gid, kind="om.low") == []
    assert groups.attempts(gid, until="2000-01-01") == []
    assert len(groups.attempts(gid, trainee_id=two)) == 1


def test_the_groups_migration_keeps_accounts_and_drills(tmp_path):
    path = tmp_path / "before-groups.sqlite"
    old = Database(sqlite3.connect(path))
    MIGRATIONS.apply(old, stop_before="m006_groups")
    # An account as the store wrote it then (today's Accounts writes columns of later migrations).
    old.execute("INSERT INTO trainees (id, created_at) VALUES (1, '2026-01-01')")
    old.execute(
        "INSERT INTO users (id, username, username_key, display_name, password_hash, role, session_epoch, "
        "created_at) VALUES (1, 'one', 'one', 'one', ?, 'trainee', 0, '2026-01-01')",
        [FAST_HASHER.hash("a long secret")],
    )
    old.conn.commit()
    old.conn.close()
    db = open_db(path)
    assert db.execute("SELECT username, practice_group_id FROM users").fetchall() == [("one", None)]
    assert Accounts(db, hasher=FAST_HASHER).check_password("one", "a long secret") is not None


# The pages: the whole story -------------------------------------------------------------------------


@pytest.fixture
def teacher(app):
    return signed_in(app, "teacher", "instructor")


def _make_group(teacher, name="Evening class"):
    made = teacher.post("/groups/new", data={"name": name})
    assert made.status_code == 302
    group_id = int(made.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    page = teacher.get(f"/groups/{group_id}").get_data(as_text=True)
    code = re.search(r'id="join-code">([A-Z0-9-]+)<', page).group(1)
    return group_id, code


def _trainee(app, username, code=None):
    client = app.test_client()
    assert AuthActions(client).sign_up(username).status_code == 302
    if code is not None:
        assert client.post("/groups/join", data={"code": code}).status_code == 302
    return client


def _drill_rules(app, drill_id):
    with app.app_context():
        return web_db.store().drill(drill_id)["rules"]


def _practise(client, kind="rp.bet_payout", level=1, answer="1"):
    made = client.post(f"/practice/{kind}", data={"level": level})
    assert made.status_code in (302, 303), made.get_data(as_text=True)[:300]
    drill_id = int(made.headers["Location"].rsplit("/", 1)[1])
    client.post(f"/practice/drill/{drill_id}", data={"drill": drill_id, "answer": answer})
    return drill_id


def test_an_instructor_runs_a_group_from_the_pages(app, teacher):
    group_id, code = _make_group(teacher)
    assert (
        teacher.post(f"/groups/{group_id}/rules", data={"rules-russian_poker": "insured"}).status_code == 302
    )
    trainee_one = _trainee(app, "trainee.one", code)
    assert "Evening class" in trainee_one.get("/groups/").get_data(as_text=True)
    drill = _practise(trainee_one)
    assert _drill_rules(app, drill) == "insured"  # practising for the group: its house rules
    bonus = _practise(trainee_one, "rp.bonus_payout")  # insured tables have the bonus too
    assert _drill_rules(app, bonus) == "insured"
    # The live table deals under the group's preset too.
    dealt = trainee_one.post("/table/rounds", data={"game": "russian_poker", "level": 1})
    round_id = int(dealt.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        assert web_db.tables().round(round_id)["rules"] == "insured"
    # Without a group to practise for, the default rules again.
    trainee_one.post("/groups/practise-for", data={"group": ""})
    assert _drill_rules(app, _practise(trainee_one)) is None
    trainee_one.post("/groups/practise-for", data={"group": str(group_id)})
    # The desk: readiness, heat map, items, last activity; sorted on request.
    desk = teacher.get(f"/groups/{group_id}?sort=last").get_data(as_text=True)
    assert (
        'data-trainee="trainee.one"' in desk
        and 'id="heat-map"' in desk
        and 'data-kind="rp.bet_payout"' in desk
    )
    assert 'data-status="too_few"' in desk and 'id="items"' in desk
    assert teacher.get(f"/groups/{group_id}?sort=kind-rp.bet_payout").status_code == 200
    assert teacher.get(f"/groups/{group_id}?sort=ready-omaha").status_code == 200
    # The trainee's page and one attempt drawn again with the answer and the right one.
    user_id = int(re.search(rf"/groups/{group_id}/trainees/(\d+)", desk).group(1))
    page = teacher.get(f"/groups/{group_id}/trainees/{user_id}").get_data(as_text=True)
    assert f"/drills/{drill}" in page
    shown = teacher.get(f"/groups/{group_id}/trainees/{user_id}/drills/{drill}").get_data(as_text=True)
    assert (
        re.search(r"The trainee(')s answer:", shown)
        and "Expected answer:" in shown
        and "Insured house" in shown
    )
    # The export, with filters.
    exported = teacher.get(f"/groups/{group_id}/attempts.csv?kind=rp.bonus_payout")
    assert exported.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(exported.get_data(as_text=True))))
    assert [(r["username"], r["kind"], r["rules"]) for r in rows] == [
        ("trainee.one", "rp.bonus_payout", "insured")
    ]
    assert teacher.get(f"/groups/{group_id}/attempts.csv?since=yesterday").status_code == 400
    assert (
        len(
            list(
                csv.reader(
                    io.StringIO(
                        teacher.get(f"/groups/{group_id}/attempts.csv?until=2000-01-01").get_data(
                            as_text=True
                        )
                    )
                )
            )
        )
        == 1
    )
    # A readiness target, refused when out of range.
    good = {"game": "omaha", "accuracy": 90, "window": 20, "min_level": 1, "median_seconds": "12.5"}
    assert teacher.post(f"/groups/{group_id}/target", data=good).status_code == 302
    with app.app_context():
        assert web_db.groups().target(group_id, "omaha") == Target(0.9, 20, 1, 12.5)
    assert teacher.post(f"/groups/{group_id}/target", data={**good, "accuracy": 150}).status_code == 400
    assert teacher.post(f"/groups/{group_id}/rules", data={"rules-omaha": "../../etc"}).status_code == 400


def test_sprints_and_self_check_quizzes_use_the_groups_rules(app, teacher):
    group_id, code = _make_group(teacher)
    teacher.post(f"/groups/{group_id}/rules", data={"rules-russian_poker": "insured"})
    trainee_one = _trainee(app, "trainee.one", code)
    sprint = trainee_one.post(
        "/sprint/", data={"kind": "rp.bet_payout", "level": 1, "length": 10, "seconds": 90}
    )
    assert sprint.status_code in (302, 303), sprint.get_data(as_text=True)[:300]
    assert trainee_one.post("/quiz/russian_poker/start").status_code == 303
    with app.app_context():
        rows = web_db.store().db.execute("SELECT mode, rules, group_id FROM drills").fetchall()
    assert {mode for mode, _, _ in rows} == {"sprint", "quiz"}
    assert set(rows) == {("sprint", "insured", group_id), ("quiz", "insured", group_id)}, rows
    page = trainee_one.get("/quiz/russian_poker").get_data(as_text=True)
    assert "preset=insured" in page  # each question names the rules it is dealt under


def _order(desk: str) -> list[str]:
    return re.findall(r'<tr data-trainee="([^"]+)"', desk)


def test_the_desk_sorts_its_trainees_and_a_trainee_page_shows_his_work(app, teacher):
    group_id, code = _make_group(teacher)
    clients = {name: _trainee(app, name, code) for name in ("one", "three", "two")}
    good = {"game": "russian_poker", "accuracy": 95, "window": 1, "min_level": 1, "median_seconds": "10"}
    assert teacher.post(f"/groups/{group_id}/target", data=good).status_code == 302
    with app.app_context():
        store = web_db.store()
        ids = {m["username"]: m["id"] for m in web_db.groups().members(group_id)}
        _answer(store, ids["one"], "rp.qualify", 1, True, 2000)  # 100%, ready, answered first
        _answer(store, ids["two"], "rp.bet_payout", 1, True, 4000)
        _answer(store, ids["two"], "rp.qualify", 1, False, 6000)  # 0% on qualify, not yet; answered last
    desk = lambda sort: teacher.get(f"/groups/{group_id}?sort={sort}").get_data(as_text=True)  # noqa: E731
    assert _order(desk("name")) == ["one", "three", "two"]
    assert _order(desk("last")) == ["two", "one", "three"]  # newest activity first, none last
    assert _order(desk("kind-rp.qualify")) == ["two", "one", "three"]  # weakest first, unanswered last
    assert _order(desk("ready-russian_poker")) == ["one", "two", "three"]  # ready, not yet, too few
    assert 'aria-sort="descending"' in desk("last")
    # Two's page: readiness, the trend by day, his drills weakest first, his answers newest first.
    page = teacher.get(f"/groups/{group_id}/trainees/{ids['two']}").get_data(as_text=True)
    assert re.search(r'data-game="russian_poker">.*?Not yet', page, re.S)
    assert 'id="trend"' in page
    by_drill = page.split('id="by-drill"', 1)[1].split("</table>", 1)[0]
    assert re.findall(r'<th scope="row">([^<]+)</th>', by_drill) == [
        REGISTRY["rp.qualify"].title,
        REGISTRY["rp.bet_payout"].title,
    ]
    attempts = page.split('id="attempts"', 1)[1]
    assert re.findall(r'class="(correct|wrong)" data-drill', attempts) == ["wrong", "correct"]
    assert "<code>&#34;" not in attempts and "<code>&quot;" not in attempts  # yes, not "yes" in quotes
    assert "No quizzes taken yet." in page
    # The same in the API, for the group's owner.
    api = f"/api/v1/groups/{group_id}/trainees/{ids['two']}"
    shown = teacher.get(api).json
    assert shown["username"] == "two" and shown["readiness"]["russian_poker"]["status"] == "not_yet"
    assert [(k["kind"], k["attempts"], k["correct"]) for k in shown["kinds"]] == [
        ("rp.qualify", 1, 0),
        ("rp.bet_payout", 1, 1),
    ]  # weakest first
    assert [(d["attempts"], d["correct"]) for d in shown["trend"]] == [(2, 1)]
    assert shown["quizzes"] == []
    assert clients["two"].get(api).status_code == 404  # not his instructor's view
    assert teacher.get(f"/api/v1/groups/{group_id}/trainees/{ids['two'] + 99}").status_code == 404
    assert signed_in(app, "other.teacher", "instructor").get(api).status_code == 404
    # A quiz he took is listed with its score, linked to its review.
    now = datetime.now(UTC)
    form = {
        "title": "Qualification",
        "item": ["rp.qualify:1"],
        "questions": "1",
        "attempts_allowed": "1",
        "opens_at": (now - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M"),
        "closes_at": (now + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"),
    }
    exam_id = int(teacher.post(f"/exams/group/{group_id}/new", data=form).headers["Location"].split("/")[-2])
    sitting = int(clients["two"].post(f"/exams/{exam_id}/start").headers["Location"].rsplit("/", 1)[1])
    assert clients["two"].post(f"/exams/sittings/{sitting}", data={"q0-answer": "yes"}).status_code == 303
    page = teacher.get(f"/groups/{group_id}/trainees/{ids['two']}").get_data(as_text=True)
    row = page.split('id="quiz-results"', 1)[1].split("</tr>", 2)[1]
    assert (
        f"/exams/sittings/{sitting}/review" in row and "Qualification" in row and re.search(r"[01] / 1", row)
    )
    assert [(q["quiz_id"], q["sitting_id"], q["questions"]) for q in teacher.get(api).json["quizzes"]] == [
        (exam_id, sitting, 1)
    ]


def test_a_trainee_page_lists_every_answer_a_hundred_to_a_page(app, teacher):
    group_id, code = _make_group(teacher)
    _trainee(app, "one", code)
    with app.app_context():
        store = web_db.store()
        [member] = web_db.groups().members(group_id)
        drills = [_answer(store, member["id"], "rp.qualify", 1, True) for _ in range(101)]
    url = f"/groups/{group_id}/trainees/{member['id']}"
    first = teacher.get(url).get_data(as_text=True)
    shown = [int(d) for d in re.findall(r'data-drill="(\d+)"', first)]
    assert shown == drills[::-1][:100]  # the newest hundred, newest first
    assert "Answers 1 to 100 of 101" in first and f"{url}?page=2#attempts-title" in first
    second = teacher.get(f"{url}?page=2").get_data(as_text=True)
    assert [int(d) for d in re.findall(r'data-drill="(\d+)"', second)] == [drills[0]]  # the oldest
    assert "Answers 101 to 101 of 101" in second and f"{url}?page=1#attempts-title" in second
    assert teacher.get(f"{url}/drills/{drills[0]}").status_code == 200  # and it opens, redrawn
    for page in ("3", "0", "abc", "²", "9" * 4301):
        assert teacher.get(f"{url}?page={page}").status_code == 404, page


def test_a_trainee_in_several_groups_chooses_the_one_he_practises_for(app, teacher):
    morning, morning_code = _make_group(teacher, "Morning shift")
    teacher.post(f"/groups/{morning}/rules", data={"rules-russian_poker": "insured"})
    other = signed_in(app, "other.teacher", "instructor")
    evening, evening_code = _make_group(other, "Evening shift")
    other.post(f"/groups/{evening}/rules", data={"rules-russian_poker": "lunar"})
    trainee_one = _trainee(app, "trainee.one", morning_code)
    assert trainee_one.post("/groups/join", data={"code": evening_code}).status_code == 302
    page = trainee_one.get("/groups/").get_data(as_text=True)
    assert re.search(rf'name="group" value="{morning}" checked', page)  # the first group joined
    assert f'name="group" value="{evening}"' in page and "Evening shift" in page
    assert _drill_rules(app, _practise(trainee_one)) == "insured"
    assert trainee_one.post("/groups/practise-for", data={"group": str(evening)}).status_code == 302
    assert re.search(
        rf'name="group" value="{evening}" checked', trainee_one.get("/groups/").get_data(as_text=True)
    )
    drill = _practise(trainee_one)
    assert _drill_rules(app, drill) == "lunar"
    with app.app_context():
        assert web_db.store().drill(drill)["group_id"] == evening
    for instructor, group_id in ((teacher, morning), (other, evening)):  # in both desks
        assert 'data-trainee="trainee.one"' in instructor.get(f"/groups/{group_id}").get_data(as_text=True)


def test_members_join_themselves_get_a_code_and_are_removed(app, teacher):
    group_id, code = _make_group(teacher)
    trainee_two = _trainee(app, "trainee.two")
    # Nobody is put in a group by anyone else: the old add-by-username form is gone.
    assert teacher.post(f"/groups/{group_id}/members", data={"username": "trainee.two"}).status_code in (
        404,
        405,
    )
    with app.app_context():
        assert web_db.groups().members(group_id) == []
    assert trainee_two.post("/groups/join", data={"code": code}).status_code == 302
    with app.app_context():
        user_id = web_db.groups().members(group_id)[0]["id"]
    shown = teacher.post(f"/groups/{group_id}/members/{user_id}/code").get_data(as_text=True)
    code_made = re.search(r'<code class="token">([^<]+)</code>', shown).group(1)
    reset = {
        "username": "trainee.two",
        "code": code_made,
        "password": "a new secret",
        "confirm": "a new secret",
    }
    assert app.test_client().post("/account/code", data=reset).status_code == 302
    assert AuthActions(app.test_client()).sign_in("trainee.two", "a new secret").status_code == 302
    other = signed_in(app, "other.teacher", "instructor")
    colleague = signed_in(app, "colleague", "instructor")
    assert colleague.post("/groups/join", data={"code": code}).status_code == 302
    with app.app_context():
        members = web_db.groups().members(group_id)
    colleague_id = next(m["id"] for m in members if m["username"] == "colleague")
    assert teacher.post(f"/groups/{group_id}/members/{colleague_id}/code").status_code == 403
    assert other.post(f"/groups/{group_id}/members/{user_id}/code").status_code == 404
    asked = teacher.post(f"/groups/{group_id}/members/{user_id}/remove")
    assert asked.status_code == 200 and 'name="confirm" value="1"' in asked.get_data(as_text=True)
    remove, confirmed = f"/groups/{group_id}/members/{user_id}/remove", {"confirm": "1"}
    assert teacher.post(remove, data=confirmed).status_code == 302
    assert teacher.post(remove, data=confirmed).status_code == 404
    assert teacher.post(f"/groups/{group_id}/code", data={"confirm": "1"}).status_code == 302


def test_bad_group_forms(app, teacher):
    assert teacher.post("/groups/new", data={"name": ""}).status_code == 400
    assert teacher.post("/groups/new", data={"name": "x" * 61}).status_code == 400
    trainee = _trainee(app, "trainee.one")
    assert trainee.post("/groups/new", data={"name": "Mine"}).status_code == 403
    assert trainee.post("/groups/join", data={"code": "ABCD-EFGH"}).status_code == 400
    assert trainee.post("/groups/join", data={"code": ""}).status_code == 400
    assert trainee.post("/groups/practise-for", data={"group": "12345"}).status_code == 404


# Access rules: a matrix over roles and URLs ---------------------------------------------------------


def test_access_matrix_over_roles_and_urls(app, teacher):
    group_id, code = _make_group(teacher)
    member = _trainee(app, "member", code)
    drill = _practise(member)
    with app.app_context():
        user_id = web_db.groups().members(group_id)[0]["id"]
    base = f"/groups/{group_id}"
    gets = [
        base,
        f"{base}/trainees/{user_id}",
        f"{base}/trainees/{user_id}/drills/{drill}",
        f"{base}/attempts.csv",
    ]
    posts = [
        f"{base}/members/{user_id}/code",
        f"{base}/members/{user_id}/remove",
        f"{base}/code",
        f"{base}/rules",
        f"{base}/target",
    ]
    other_teacher = signed_in(app, "other.teacher", "instructor")
    outsider = _trainee(app, "outsider")
    guest = app.test_client()
    for url in gets:
        assert teacher.get(url).status_code == 200, url
        assert other_teacher.get(url).status_code == 404, url  # another instructor's group: no such group
        assert member.get(url).status_code == 403, url  # the desk is for instructors
        assert outsider.get(url).status_code == 403, url
        assert guest.get(url).status_code == 302 and "/account/sign-in" in guest.get(url).headers["Location"]
    for url in posts:
        for client, status in ((other_teacher, 404), (member, 403), (outsider, 403)):
            assert client.post(url, data={"username": "member", "game": "omaha"}).status_code == status, url
        assert guest.post(url).status_code == 302
    # Another trainee of the same group is not a way in either.
    assert teacher.get(f"{base}/trainees/{user_id + 100}").status_code == 404
    outsider_id = int(outsider.get("/api/v1/trainee").json["id"])
    assert teacher.get(f"{base}/trainees/{outsider_id}").status_code == 404  # not in the group
    other_drill = _practise(outsider)
    assert teacher.get(f"{base}/trainees/{user_id}/drills/{other_drill}").status_code == 404


def test_no_url_with_another_users_id_gives_his_work(app, teacher):
    """Every route of the URL map that takes a trainee's id (drill, sprint, round, table test, quiz
    sitting, token), asked with the ids of one trainee's own work by every other role: another
    trainee (session and bearer token), his own instructor, another instructor, a guest. None gets
    his work or changes it: 404 or 403 (a guest: the sign-in page, or 401 in the API)."""
    group_id, code = _make_group(teacher)
    owner = _trainee(app, "owner", code)
    ids = {"drill_id": _practise(owner, "rp.qualify", answer="yes")}
    open_drill = owner.post("/practice/rp.qualify", data={"level": 1}).headers["Location"]
    api_drill = owner.post("/api/v1/drills", json={"kind": "rp.qualify", "level": 1}).json["id"]
    sprint = owner.post("/sprint/", data={"kind": "rp.qualify", "level": 1, "length": 10, "seconds": 90})
    ids["sprint_id"] = int(sprint.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    owner.post("/quiz/russian_poker/start")
    ids["round_id"] = int(
        owner.post("/table/rounds", data={"game": "russian_poker", "level": 1})
        .headers["Location"]
        .rsplit("/", 1)[1]
    )
    owner.post("/table/tests", data={"game": "russian_poker", "level": 1})
    now = datetime.now(UTC)
    exam = {
        "title": "Check",
        "item": ["rp.qualify:1"],
        "questions": "1",
        "attempts_allowed": "1",
        "opens_at": (now - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M"),
        "closes_at": (now + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"),
    }
    exam_id = int(teacher.post(f"/exams/group/{group_id}/new", data=exam).headers["Location"].split("/")[-2])
    ids["sitting_id"] = int(owner.post(f"/exams/{exam_id}/start").headers["Location"].rsplit("/", 1)[1])
    ids["token_id"] = owner.post(
        "/api/v1/tokens", json={"username": "owner", "password": "a long secret"}
    ).json["id"]
    with app.app_context():
        db = web_db.store().db
        ids["test_id"] = db.execute("SELECT id FROM table_tests").fetchone()[0]
        quiz_drills = [
            r[0] for r in db.execute("SELECT id FROM drills WHERE mode = 'quiz' AND sitting_id IS NULL")
        ]
        tables = [t for t in db.table_names() if t not in ("users", "trainees", "memberships")]

    def snapshot():
        with app.app_context():
            db = web_db.store().db
            # sorted in Python: some tables are WITHOUT ROWID (kind_totals)
            return {t: sorted(db.execute(f"SELECT * FROM [{t}]").fetchall(), key=repr) for t in tables}

    roles = {
        "trainee": _trainee(app, "other", code),  # in the same group, even
        "bearer": token_client(app, "other.bearer"),
        "his instructor": teacher,
        "another instructor": signed_in(app, "other.teacher", "instructor"),
        "guest": app.test_client(),
    }
    before = snapshot()
    urls = []
    for rule in app.url_map.iter_rules():
        args = set(rule.arguments)
        if not args or not args <= set(ids):
            continue  # no trainee's id in it (group and quiz routes: the instructor matrices above)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            urls.append((method, rule.rule, rule.build({k: ids[k] for k in args})[1]))
    extra = [
        ("GET", "/practice/drill/<open>", open_drill),
        ("POST", "/practice/drill/<open>", open_drill),
        ("GET", "/api/v1/drills/<open>", f"/api/v1/drills/{api_drill}"),
        ("POST", "/api/v1/drills/<open>/answer", f"/api/v1/drills/{api_drill}/answer"),
    ]
    seen = []
    for role, client in roles.items():
        for method, rule, url in urls + extra:
            if role == "his instructor" and rule in (
                "/exams/sittings/<int:sitting_id>/review",
                "/exams/sittings/<int:sitting_id>/comments",
            ):
                continue  # his instructor reviews it and comments on it: the exam matrix, test_desk_assessed
            if url.startswith("/api/"):
                response = client.open(url, method=method, json={"answer": "yes", "step": 0})
            else:
                drill = re.findall(r"\d+", url)[-1]  # the question's own id, as its form sends it
                response = client.open(url, method=method, data={"drill": drill, "answer": "yes", "step": 0})
            status = response.status_code
            # A guest is not signed in; nor, on the pages, is a bearer token's user (pages use the session).
            anonymous = role == "guest" or (role == "bearer" and not url.startswith("/api/"))
            # ... and is sent to sign in, or home (no practice of his own yet), never to the work.
            signed_out = anonymous and (
                status == 401
                or (status == 302 and response.headers["Location"].split("?")[0] in ("/", "/account/sign-in"))
            )
            seen.append((role, method, rule, status))
            assert status in (403, 404) or signed_out, (
                role,
                method,
                url,
                status,
            )
        quiz = client.post("/quiz/russian_poker", data={"drill": quiz_drills, "answer": "yes"})
        assert quiz.status_code in (302, 400, 404), (role, quiz.status_code)
    assert snapshot() == before  # nothing of his read into a change, nothing answered, nothing revoked
    assert len({(method, rule) for _, method, rule, _ in seen}) == len(urls + extra) >= 25, seen


def test_another_user_cannot_see_or_answer_my_drill(app, teacher):
    code = _make_group(teacher)[1]
    owner = _trainee(app, "owner", code)
    made = owner.post("/practice/rp.qualify", data={"level": 1})
    drill = int(made.headers["Location"].rsplit("/", 1)[1])
    api_drill = owner.post("/api/v1/drills", json={"kind": "rp.qualify", "level": 1}).json["id"]
    others = [_trainee(app, "someone"), teacher, app.test_client()]  # a trainee, his instructor, a guest
    bearer = token_client(app, "bearer.user")
    for other in [*others, bearer]:
        assert other.get(f"/practice/drill/{drill}").status_code in (302, 404)
        assert other.post(f"/practice/drill/{drill}", data={"drill": drill, "answer": "yes"}).status_code in (
            302,
            404,
        )
        assert other.get(f"/api/v1/drills/{api_drill}").status_code == 404
        assert other.post(f"/api/v1/drills/{api_drill}/answer", json={"answer": "yes"}).status_code == 404
    assert owner.get(f"/api/v1/drills/{api_drill}").json["answered"] is False  # nobody answered it
    with app.app_context():
        assert web_db.store().drill(drill)["answered"] == 0


# The API --------------------------------------------------------------------------------------------


def test_groups_through_the_api(app):
    teacher = token_client(app, "teacher", "instructor")
    trainee = token_client(app, "trainee.one")
    assert trainee.post("/api/v1/groups", json={"name": "Mine"}).status_code == 403
    assert app.test_client().get("/api/v1/groups").status_code == 401
    made = teacher.post("/api/v1/groups", json={"name": "Shift C"})
    assert made.status_code == 201 and made.json["join_code"]
    group_id = made.json["id"]
    assert teacher.post("/api/v1/groups", json={"name": ""}).status_code == 400
    assert trainee.post("/api/v1/groups/join", json={"code": "nope"}).status_code == 404
    joined = trainee.post("/api/v1/groups/join", json={"code": made.json["join_code"]})
    assert joined.status_code == 200 and "join_code" not in joined.json
    assert trainee.get("/api/v1/groups").json["practising_for"] == group_id
    drill = trainee.post("/api/v1/drills", json={"kind": "rp.qualify", "level": 2}).json
    assert drill["rules"] == "cis"  # the group's (default) preset, recorded
    situation = Situation.from_dict({**drill, "data": drill["situation"]})
    trainee.post(f"/api/v1/drills/{drill['id']}/answer", json={"answer": str(expected_of(situation)[0])})
    wrong = trainee.post("/api/v1/drills", json={"kind": "rp.qualify", "level": 2}).json
    right = expected_of(Situation.from_dict({**wrong, "data": wrong["situation"]}))[0]
    trainee.post(f"/api/v1/drills/{wrong['id']}/answer", json={"answer": "no" if right == "yes" else "yes"})
    report = teacher.get(f"/api/v1/groups/{group_id}/report").json
    [row] = report["trainees"]
    assert row["username"] == "trainee.one" and row["kinds"]["rp.qualify"]["correct"] == 1
    assert row["kinds"]["rp.qualify"]["attempts"] == 2
    [item] = report["items"]  # the item analysis, as on the desk
    assert (item["kind"], item["attempts"], item["accuracy"]) == ("rp.qualify", 2, 0.5)
    assert item["wrong_answers"] == [{"answer": "no" if right == "yes" else "yes", "count": 1}]
    assert row["readiness"]["russian_poker"]["status"] == "too_few"
    exported = teacher.get(f"/api/v1/groups/{group_id}/attempts.csv")
    assert exported.mimetype == "text/csv" and "trainee.one,rp.qualify,2,cis" in exported.get_data(
        as_text=True
    )
    first = next(csv.DictReader(io.StringIO(exported.get_data(as_text=True))))
    assert first["answer"] == first["expected"] == expected_of(situation)[0]  # yes, not "yes" in quotes
    other = token_client(app, "other", "instructor")
    for url in (f"/api/v1/groups/{group_id}/report", f"/api/v1/groups/{group_id}/attempts.csv"):
        assert other.get(url).status_code == 404
        assert trainee.get(url).status_code == 404
        assert app.test_client().get(url).status_code == 401


# Languages ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("locale", ["ka", "ru"])
def test_group_pages_show_no_english_words(app, locale):
    teacher = signed_in(app, "მასწავლებელი", "instructor")
    group_id, code = _make_group(teacher, "საღამოს ჯგუფი")
    trainee_one = app.test_client()
    trainee_one.post("/language", data={"lang": locale})
    AuthActions(trainee_one).sign_up("მსმენელი")
    trainee_one.post("/groups/join", data={"code": code})
    trainee_one.get("/")  # the flashed welcome, shown once
    drill = _practise(trainee_one)
    with app.app_context():
        user_id = web_db.groups().members(group_id)[0]["id"]
    teacher.post("/language", data={"lang": locale})
    trainee_one.post("/language", data={"lang": locale})
    pages = {
        "index": teacher.get("/groups/"),
        "desk": teacher.get(f"/groups/{group_id}"),
        "trainee": teacher.get(f"/groups/{group_id}/trainees/{user_id}"),
        "attempt": teacher.get(f"/groups/{group_id}/trainees/{user_id}/drills/{drill}"),
        "member": trainee_one.get("/groups/"),
        "code made": teacher.post(f"/groups/{group_id}/members/{user_id}/code"),
    }
    # the code just made, listed with who made it
    pages["account with its codes"] = trainee_one.get("/account/")
    listed = pages["account with its codes"].get_data(as_text=True)
    assert '<ul id="codes">' in listed and "მასწავლებელი" in listed
    bad_targets = {"accuracy": "150", "window": "abc", "min_level": "²", "median_seconds": "x"}
    refused = teacher.post(f"/groups/{group_id}/target", data={"game": "omaha", **bad_targets})
    assert refused.status_code == 400 and refused.get_data(as_text=True).count('class="field-error"') >= 4
    pages["refused target"] = refused
    for name, response in pages.items():
        assert response.status_code == (400 if name == "refused target" else 200), name
        # Game names the catalog keeps in Latin letters (house rules presets named after them).
        words = _visible_latin_words(response.get_data(as_text=True)) - {
            "Caribbean",
            "Stud",
            "Lunar",
            "Poker",
        }
        assert not words, (name, words)


# The instructor's own house rules -------------------------------------------------------------------


def test_an_edited_copy_of_the_house_rules_grades_the_groups_drills(app, teacher, monkeypatch):
    group_id, code = _make_group(teacher)
    page = teacher.get(f"/groups/{group_id}/rules/russian_poker").get_data(as_text=True)
    assert "full_house = 7" in page  # the current preset's file, to edit
    cis = (BY_ID["russian_poker"].rules_folder / "cis.toml").read_text()
    edited = cis.replace("full_house = 7,", "full_house = 9,", 1).replace(
        'title = "CIS casinos (default)"', 'title = "Our house: full house pays 9"'
    )
    for bad, said in (
        (cis.replace("full_house = 7,", "full_house = -7,", 1), "A whole number of at least 1"),
        (cis.replace(" full_house = 7,", "", 1), "lacks the rows full_house"),
        (cis + "\nnonsense = 1\n", "Key boxes.nonsense: This key is unknown"),
        ("[[[", "not written correctly at line 1, column"),
        ("", "empty"),
    ):
        refused = teacher.post(f"/groups/{group_id}/rules/russian_poker", data={"text": bad})
        assert refused.status_code == 400 and said in refused.get_data(as_text=True), said
    for locale in ("ka", "ru"):  # the reason in the page's language, only the typed names in Latin
        teacher.post("/language", data={"lang": locale})
        for bad in (cis.replace(" full_house = 7,", "", 1), cis + "\nnonsense = 1\n", "[[["):
            refused = teacher.post(f"/groups/{group_id}/rules/russian_poker", data={"text": bad})
            TYPED = {"full", "house", "bet", "odds", "boxes", "nonsense"}
            alert = refused.get_data(as_text=True).split('id="rules-error">', 1)[1].split("</p>", 1)[0]
            words = _visible_latin_words("<main>" + alert)
            assert refused.status_code == 400 and words <= TYPED, (
                locale,
                alert,
            )
    teacher.post("/language", data={"lang": "en"})
    assert teacher.post(f"/groups/{group_id}/rules/russian_poker", data={"text": edited}).status_code == 302
    with app.app_context():
        name = web_db.groups().rules(group_id)["russian_poker"]
    assert name.startswith("house-")
    from trainer.engine.presets import PresetError
    from trainer.engine.russian_poker import load_rules

    with app.app_context():  # the copy is the database's, handed to the loader: no file, no registry
        assert load_rules(name, web_db.houses()).title == "Our house: full house pays 9"
    with pytest.raises(PresetError):
        load_rules(name)
    for folder in (Path(app.config["DATABASE"]).parent, Path(app.instance_path)):
        assert not list(folder.rglob("house-*")), folder  # nothing written beside the database
    desk = teacher.get(f"/groups/{group_id}").get_data(as_text=True)
    assert f'value="{name}" selected' in desk
    # A trainee of the group practises under it: the drill records it, and a full house pays 9 to 1.
    trainee_one = _trainee(app, "trainee.one", code)
    # The server draws the seeds; fixed here (0, 1, 2, ...) so that a winning full house comes up in
    # a repeatable few drills (about one bet payout in twelve has one: 80 random draws missed it once).
    seeds = itertools.count(0)
    monkeypatch.setattr(base.secrets, "randbelow", lambda _limit: next(seeds))
    for _ in range(80):
        drill = _practise(trainee_one, "rp.bet_payout")
        with app.app_context():
            row = web_db.store().drill(drill)
            assert row["rules"] == name
            why = " ".join(str(s) for s in expected_of(row["situation"], houses=web_db.houses())[2])
        if "player's hand: full house" in why.lower() and "player's hand is higher" in why.lower():
            assert "pays 9 to 1" in why
            break
    else:
        pytest.fail("no winning full house in 80 bet payouts")
    # The question links to its rules, and the presets page shows the edited copy beside the shipped
    # presets, marked, with its 9 for a full house: the trainee can read what he is graded by.
    question = trainee_one.get(f"/practice/drill/{drill}").get_data(as_text=True)
    assert f"/reference/presets/russian-poker?preset={name}" in question
    shown = trainee_one.get(f"/reference/presets/russian-poker?preset={name}").get_data(as_text=True)
    assert "Our house: full house pays 9" in shown and 'class="mine" aria-current="true"' in shown
    row = next(r for r in shown.split("<tr") if 'title="bet.odds.full_house"' in r)
    assert re.findall(r"<td[^>]*>(\d+)</td>", row)[-1] == "9" and '<td class="mine">9</td>' in row
    for other in ("house-000000000000", "../cis", "cis"):
        page = trainee_one.get(f"/reference/presets/russian-poker?preset={other}").get_data(as_text=True)
        assert "Our house" not in page, other
    # Another instructor cannot edit this group's rules; an unknown game is a 404.
    other = signed_in(app, "other.teacher", "instructor")
    assert other.get(f"/groups/{group_id}/rules/russian_poker").status_code == 404
    assert teacher.get(f"/groups/{group_id}/rules/chess").status_code == 404
    # A client cannot reach a file by naming it as house rules.
    assert (
        trainee_one.post(
            "/api/v1/drills", json={"kind": "rp.bet_payout", "level": 1, "rules": "../cis"}
        ).status_code
        == 400
    )
