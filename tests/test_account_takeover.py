"""Issue 25, accounts and sessions: nobody becomes someone else.

- A signed-out session is ended on the server: a replayed copy of its cookie is signed out; sessions
  lapse after the idle and the absolute limits (`SESSION_IDLE_MINUTES`, `SESSION_MAX_HOURS`).
- A new password (changed, or set with a one-time code) revokes every API token and every other
  session of the account.
- The account-takeover chain, end to end through the test client: an instructor cannot put another
  group's trainee in his group, cannot read his records, cannot make a one-time code for him; a
  trainee who joins sees his instructor read only what he did while in the group; a one-time code is
  made only by the instructor of every group the trainee is in (or the administrator) and is listed,
  with who made it and whether it was used, on the trainee's account page.
"""

from __future__ import annotations

import contextlib
import csv
import io
import re
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
from accounts_helpers import PASSWORD, AuthActions, add_user, signed_in
from api_helpers import token_client
from conftest import make_app
from sqlite_utils import Database

from trainer.store import open_db
from trainer.store.accounts import FAST_HASHER, Accounts, Role
from trainer.store.groups import Groups
from trainer.store.schema import MIGRATIONS
from trainer.web.core import db as web_db
from trainer.web.core.settings import SettingError, from_environment

NEW = "a brand new secret"


def _replay(app, cookie: str):
    """A second browser holding a copy of the session cookie."""
    thief = app.test_client()
    thief.set_cookie("session", cookie)
    return thief


def _signed_in(client) -> bool:
    return client.get("/account/").status_code == 200


def _sessions(app, username: str) -> list[dict]:
    with app.app_context():
        return list(
            web_db.store().db.query(
                "SELECT s.* FROM sessions s JOIN users u ON u.id = s.user_id "
                "WHERE u.username = ? ORDER BY s.id",
                [username],
            )
        )


def _age_sessions(app, username: str, *, seen: timedelta = timedelta(0), created: timedelta = timedelta(0)):
    now = datetime.now(UTC)
    with app.app_context():
        store_db = web_db.store().db
        store_db.execute(
            "UPDATE sessions SET seen_at = ?, created_at = ? "
            "WHERE user_id = (SELECT id FROM users WHERE username = ?)",
            [
                (now - seen).isoformat(timespec="microseconds"),
                (now - created).isoformat(timespec="microseconds"),
                username,
            ],
        )
        store_db.conn.commit()


# Sign-out, idle and absolute limits ---------------------------------------------------------------


def test_a_cookie_replayed_after_sign_out_is_signed_out(app):
    add_user(app, "trainee.one")
    phone = app.test_client()
    AuthActions(phone).sign_in("trainee.one")
    cookie = phone.get_cookie("session").value
    assert _signed_in(_replay(app, cookie))  # a copy works while the session lives
    AuthActions(phone).sign_out()
    thief = _replay(app, cookie)
    assert not _signed_in(thief)
    assert thief.get("/api/v1/trainee").json.get("username") is None  # the API sees a guest too
    [row] = _sessions(app, "trainee.one")
    assert row["ended_at"] is not None


def test_sign_out_ends_only_that_session(app):
    add_user(app, "trainee.one")
    phone, laptop = app.test_client(), app.test_client()
    AuthActions(phone).sign_in("trainee.one")
    AuthActions(laptop).sign_in("trainee.one")
    AuthActions(phone).sign_out()
    assert not _signed_in(phone) and _signed_in(laptop)


def test_an_idle_session_ends_after_the_default_idle_time(app):
    add_user(app, "trainee.one")
    client = app.test_client()
    AuthActions(client).sign_in("trainee.one")
    _age_sessions(app, "trainee.one", seen=timedelta(hours=3, minutes=50), created=timedelta(hours=4))
    assert _signed_in(client)  # under four hours idle: still signed in, and the use moves on
    seen = datetime.fromisoformat(_sessions(app, "trainee.one")[0]["seen_at"])
    assert seen > datetime.now(UTC) - timedelta(minutes=1)
    _age_sessions(app, "trainee.one", seen=timedelta(hours=4, minutes=1), created=timedelta(hours=5))
    assert not _signed_in(client)


def test_every_session_ends_after_the_absolute_time_however_busy(app):
    add_user(app, "trainee.one")
    client = app.test_client()
    AuthActions(client).sign_in("trainee.one")
    _age_sessions(app, "trainee.one", seen=timedelta(0), created=timedelta(hours=23))
    assert _signed_in(client)
    _age_sessions(app, "trainee.one", seen=timedelta(0), created=timedelta(hours=24, minutes=1))
    assert not _signed_in(client)
    assert app.permanent_session_lifetime == timedelta(hours=24)  # nor does the cookie outlive it


def test_the_limits_are_settings(tmp_path):
    app = make_app(
        DATABASE=str(tmp_path / "t.sqlite"),
        WTF_CSRF_ENABLED=False,
        FAST_PASSWORD_HASHING=True,
        SESSION_IDLE_MINUTES=30,
        SESSION_MAX_HOURS=2,
    )
    add_user(app, "trainee.one")
    client = app.test_client()
    AuthActions(client).sign_in("trainee.one")
    _age_sessions(app, "trainee.one", seen=timedelta(minutes=20), created=timedelta(minutes=20))
    assert _signed_in(client)
    _age_sessions(app, "trainee.one", seen=timedelta(minutes=31), created=timedelta(minutes=31))
    assert not _signed_in(client)
    AuthActions(client).sign_in("trainee.one")
    _age_sessions(app, "trainee.one", seen=timedelta(0), created=timedelta(hours=2, minutes=1))
    assert not _signed_in(client)
    assert app.permanent_session_lifetime == timedelta(hours=2)


def test_session_settings_from_the_environment():
    found = from_environment({"TRAINER_SESSION_IDLE_MINUTES": "45", "TRAINER_SESSION_MAX_HOURS": "12"})
    assert found == {"SESSION_IDLE_MINUTES": 45, "SESSION_MAX_HOURS": 12}
    for variable, raw in (
        ("TRAINER_SESSION_IDLE_MINUTES", "0"),
        ("TRAINER_SESSION_IDLE_MINUTES", "four hours"),
        ("TRAINER_SESSION_MAX_HOURS", "2.5"),
        ("TRAINER_SESSION_MAX_HOURS", "100000"),
    ):
        with pytest.raises(SettingError, match=variable):
            from_environment({variable: raw})


def test_a_login_id_from_before_server_sessions_is_signed_out(app):
    """A cookie made before the sessions table (login id "<id>:<epoch>") names no session."""
    user_id = add_user(app, "trainee.one")
    client = app.test_client()
    with client.session_transaction() as held:
        held["_user_id"] = f"{user_id}:0"
        held["_fresh"] = True
    assert not _signed_in(client)


# A new password ends every token and every other session -----------------------------------------


def _token(client, password=PASSWORD) -> dict:
    made = client.post("/api/v1/tokens", json={"username": "trainee.one", "password": password})
    assert made.status_code == 201
    return {"Authorization": f"Bearer {made.json['token']}"}


def test_changing_the_password_revokes_every_token_and_other_session(app):
    add_user(app, "trainee.one")
    phone, laptop = app.test_client(), app.test_client()
    AuthActions(phone).sign_in("trainee.one")
    AuthActions(laptop).sign_in("trainee.one")
    bearer = _token(app.test_client())
    assert app.test_client().get("/api/v1/tokens", headers=bearer).status_code == 200
    changed = phone.post("/account/password", data={"current": PASSWORD, "password": NEW, "confirm": NEW})
    assert changed.status_code == 302
    assert app.test_client().get("/api/v1/tokens", headers=bearer).status_code == 401
    assert _signed_in(phone) and not _signed_in(laptop)
    with app.app_context():
        rows = list(web_db.store().db.query("SELECT revoked_at FROM api_tokens"))
    assert rows and all(r["revoked_at"] is not None for r in rows)


def test_a_reset_with_a_one_time_code_revokes_every_token_and_session(app):
    user_id = add_user(app, "trainee.one")
    laptop = app.test_client()
    AuthActions(laptop).sign_in("trainee.one")
    bearer = _token(app.test_client())
    with app.app_context():
        code = Accounts(web_db.store().db, hasher=FAST_HASHER).make_code(user_id, None)
    reset = {"username": "trainee.one", "code": code, "password": NEW, "confirm": NEW}
    phone = app.test_client()
    assert phone.post("/account/code", data=reset).status_code == 302
    assert app.test_client().get("/api/v1/tokens", headers=bearer).status_code == 401
    assert _signed_in(phone) and not _signed_in(laptop)


def test_the_store_revokes_tokens_on_a_new_password(tmp_path):
    accounts = Accounts(open_db(tmp_path / "s.sqlite"), hasher=FAST_HASHER)
    user = accounts.sign_up("trainee.one", PASSWORD)
    token, _row = accounts.new_token(user["id"])
    key = accounts.open_session(user["id"])
    accounts.change_password(user["id"], PASSWORD, NEW)
    assert accounts.user_for_token(token) is None
    assert not accounts.session_alive(user["id"], key, idle=timedelta(hours=1), absolute=timedelta(days=1))


# The account-takeover chain -------------------------------------------------------------------------


def _group(teacher, name):
    made = teacher.post("/groups/new", data={"name": name})
    group_id = int(made.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    page = teacher.get(f"/groups/{group_id}").get_data(as_text=True)
    return group_id, re.search(r'id="join-code">([A-Z0-9-]+)<', page).group(1)


def _answer(client, answer="1"):
    made = client.post("/practice/rp.bet_payout", data={"level": 1})
    drill = int(made.headers["Location"].rsplit("/", 1)[1])
    client.post(f"/practice/drill/{drill}", data={"drill": drill, "answer": answer})
    return drill


def _api_csv_rows(api, group_id) -> int:
    text = api.get(f"/api/v1/groups/{group_id}/attempts.csv").get_data(as_text=True)
    return len(list(csv.DictReader(io.StringIO(text))))


def _csv_drills(client, group_id) -> list[dict]:
    text = client.get(f"/groups/{group_id}/attempts.csv").get_data(as_text=True)
    return list(csv.DictReader(io.StringIO(text)))


def test_an_instructor_cannot_take_over_another_groups_trainee(app):
    intruder = signed_in(app, "intruder", "instructor")
    own, own_code = _group(intruder, "Intruder's class")
    teacher = signed_in(app, "teacher", "instructor")
    theirs, code = _group(teacher, "Evening class")
    trainee_one = app.test_client()
    AuthActions(trainee_one).sign_up("trainee.one")
    assert trainee_one.post("/groups/join", data={"code": code}).status_code == 302
    before = _answer(trainee_one)
    trainee_one_id = int(trainee_one.get("/api/v1/trainee").json["id"])

    # 1. He tries to put her in his group by username: there is no such way.
    added = intruder.post(f"/groups/{own}/members", data={"username": "trainee.one"})
    assert added.status_code in (404, 405)
    with app.app_context():
        assert not web_db.groups().is_member(own, trainee_one_id)
    # 2. He tries to read her records: not in his group, nothing.
    for url in (
        f"/groups/{own}/trainees/{trainee_one_id}",
        f"/groups/{own}/trainees/{trainee_one_id}/drills/{before}",
        f"/groups/{theirs}/trainees/{trainee_one_id}",
    ):
        assert intruder.get(url).status_code == 404, url
    assert _csv_drills(intruder, own) == []
    bearer = token_client(app, "intruder.api", "instructor")
    assert bearer.get(f"/api/v1/groups/{theirs}/trainees/{trainee_one_id}").status_code == 404
    # 3. He tries to make a one-time code for her: refused, and none is made.
    assert intruder.post(f"/groups/{own}/members/{trainee_one_id}/code").status_code == 404
    assert intruder.post(f"/groups/{theirs}/members/{trainee_one_id}/code").status_code == 404
    with app.app_context():
        assert web_db.store().db.execute("SELECT count(*) FROM one_time_codes").fetchone()[0] == 0
    # ... so nobody is signed in as her but herself.
    assert "trainee.one" not in intruder.get("/account/").get_data(as_text=True)

    # She joins his group herself: he sees only what she does from then on.
    assert trainee_one.post("/groups/join", data={"code": own_code}).status_code == 302
    assert intruder.get(f"/groups/{own}/trainees/{trainee_one_id}/drills/{before}").status_code == 404
    page = intruder.get(f"/groups/{own}/trainees/{trainee_one_id}")
    assert page.status_code == 200 and f"/drills/{before}" not in page.get_data(as_text=True)
    assert _csv_drills(intruder, own) == []
    after = _answer(trainee_one)
    assert intruder.get(f"/groups/{own}/trainees/{trainee_one_id}/drills/{after}").status_code == 200
    assert intruder.get(f"/groups/{own}/trainees/{trainee_one_id}/drills/{before}").status_code == 404
    assert len(_csv_drills(intruder, own)) == 1
    assert len(_csv_drills(teacher, theirs)) == 2  # her first instructor: both, she is still in his group
    # Still not a code: she is in another instructor's group too.
    refused = intruder.post(f"/groups/{own}/members/{trainee_one_id}/code")
    assert refused.status_code == 403
    assert "every group this trainee is in" in refused.get_data(as_text=True)
    assert teacher.post(f"/groups/{theirs}/members/{trainee_one_id}/code").status_code == 403
    with app.app_context():
        assert web_db.store().db.execute("SELECT count(*) FROM one_time_codes").fetchone()[0] == 0


def test_what_an_instructor_reads_is_what_the_trainee_did_while_in_his_group(app):
    api = token_client(app, "teacher", "instructor")  # the same instructor, on the API
    teacher = app.test_client()
    AuthActions(teacher).sign_in("teacher")
    group_id, code = _group(teacher, "Evening class")
    trainee_one = app.test_client()
    AuthActions(trainee_one).sign_up("trainee.one")
    trainee_one_id = int(trainee_one.get("/api/v1/trainee").json["id"])
    outside = [_answer(trainee_one, "1") for _ in range(2)]  # before she joins
    trainee_one.post("/groups/join", data={"code": code})
    inside = _answer(trainee_one, "1")
    report = teacher.get(f"/groups/{group_id}").get_data(as_text=True)
    assert 'data-trainee="trainee.one"' in report
    rows = _csv_drills(teacher, group_id)
    assert len(rows) == 1
    trainee_page = teacher.get(f"/groups/{group_id}/trainees/{trainee_one_id}").get_data(as_text=True)
    assert f"/drills/{inside}" in trainee_page
    assert all(f"/drills/{d}" not in trainee_page for d in outside)
    # The same through the API.
    member = api.get(f"/api/v1/groups/{group_id}/trainees/{trainee_one_id}").json
    assert sum(k["attempts"] for k in member["kinds"]) == 1
    assert sum(d["attempts"] for d in member["trend"]) == 1
    [row] = api.get(f"/api/v1/groups/{group_id}/report").json["trainees"]
    assert sum(c["attempts"] for c in row["kinds"].values()) == 1
    assert _api_csv_rows(api, group_id) == 1
    # She leaves: what she does next is hers alone; what she did in the group stays in its records.
    assert trainee_one.post(f"/groups/{group_id}/leave").status_code == 302
    assert trainee_one.post(f"/groups/{group_id}/leave").status_code == 404  # not a member any more
    _answer(trainee_one, "1")
    assert _api_csv_rows(api, group_id) == 1
    assert api.get(f"/api/v1/groups/{group_id}/trainees/{trainee_one_id}").status_code == 404
    # She comes back: a new period; the time between stays hers.
    trainee_one.post("/groups/join", data={"code": code})
    _answer(trainee_one, "1")
    assert _api_csv_rows(api, group_id) == 2
    with app.app_context():
        periods = web_db.groups().periods(group_id, trainee_one_id)
    assert len(periods) == 2 and periods[0]["left_at"] is not None and periods[1]["left_at"] is None


def test_readiness_and_mistakes_on_the_desk_count_only_the_groups_time(tmp_path):
    store_db = open_db(tmp_path / "r.sqlite")
    accounts = Accounts(store_db, hasher=FAST_HASHER)
    teacher = accounts.create_user("teacher", PASSWORD, role=Role.INSTRUCTOR)
    trainee_one = accounts.sign_up("trainee.one", PASSWORD)
    from trainer.drills import issue
    from trainer.drills.base import expected_of
    from trainer.store import Store

    store = Store(store_db)
    for _ in range(30):  # thirty right answers before she joins
        situation = issue("rp.qualify", 2)
        store.answer(
            store.save_drill(trainee_one["id"], situation), str(expected_of(situation)[0]), time_ms=1000
        )
    groups = Groups(store_db)
    group = groups.create(teacher["id"], "Evening class")
    groups.join(trainee_one["id"], group["join_code"])
    [row] = groups.report(group["id"])["trainees"]
    assert row["kinds"] == {} and row["last_activity"] is None
    assert row["readiness"]["russian_poker"]["status"] == "too_few"
    assert groups.item_analysis(group["id"]) == [] and groups.attempts(group["id"]) == []
    from trainer.store import stats

    assert stats.kind_summary(store_db, trainee_one["id"], group_id=group["id"]) == []
    assert len(stats.kind_summary(store_db, trainee_one["id"])[0:1]) == 1  # her own page keeps everything


def test_one_time_codes_are_made_only_with_authority_logged_and_shown_to_the_trainee(app):
    teacher = signed_in(app, "teacher", "instructor")
    group_id, code = _group(teacher, "Evening class")
    other = signed_in(app, "other.teacher", "instructor")
    _other_group, other_code = _group(other, "Morning class")
    trainee_one = app.test_client()
    AuthActions(trainee_one).sign_up("trainee.one")
    trainee_one_id = int(trainee_one.get("/api/v1/trainee").json["id"])
    assert "No one-time code was ever made" in trainee_one.get("/account/").get_data(as_text=True)
    trainee_one.post("/groups/join", data={"code": code})
    trainee_one.post("/groups/join", data={"code": other_code})
    assert teacher.post(f"/groups/{group_id}/members/{trainee_one_id}/code").status_code == 403
    trainee_one.post(f"/groups/{_other_group}/leave")
    shown = teacher.post(f"/groups/{group_id}/members/{trainee_one_id}/code")
    assert shown.status_code == 200
    made = re.search(r'<code class="token">([^<]+)</code>', shown.get_data(as_text=True)).group(1)
    page = trainee_one.get("/account/").get_data(as_text=True)
    assert "by teacher." in page and "Not used yet; it works until" in page
    with app.app_context():
        [row] = web_db.store().db.query("SELECT made_by, user_id FROM one_time_codes")
        teacher_id = (
            web_db.store().db.execute("SELECT id FROM users WHERE username = 'teacher'").fetchone()[0]
        )
    assert row == {"made_by": teacher_id, "user_id": trainee_one_id}
    reset = {"username": "trainee.one", "code": made, "password": NEW, "confirm": NEW}
    assert app.test_client().post("/account/code", data=reset).status_code == 302
    AuthActions(trainee_one).sign_in("trainee.one", NEW)
    page = trainee_one.get("/account/").get_data(as_text=True)
    assert "Used " in page and "the password was set with it." in page
    # The administrator's code (the command line) is listed as such.
    assert app.test_cli_runner().invoke(args=["user", "code", "trainee.one"]).exit_code == 0
    page = trainee_one.get("/account/").get_data(as_text=True)
    assert "by an administrator." in page


def test_the_store_refuses_a_code_without_authority(tmp_path):
    from trainer.store.accounts import AccountError

    store_db = open_db(tmp_path / "c.sqlite")
    accounts = Accounts(store_db, hasher=FAST_HASHER)
    teacher = accounts.create_user("teacher", PASSWORD, role=Role.INSTRUCTOR)
    colleague = accounts.create_user("colleague", PASSWORD, role=Role.INSTRUCTOR)
    trainee_one = accounts.sign_up("trainee.one", PASSWORD)
    groups = Groups(store_db)
    mine, theirs = groups.create(teacher["id"], "Mine"), groups.create(colleague["id"], "Theirs")
    with pytest.raises(AccountError, match="code_not_allowed"):
        accounts.make_code(trainee_one["id"], teacher["id"])  # in none of his groups
    groups.join(trainee_one["id"], mine["join_code"])
    groups.join(trainee_one["id"], theirs["join_code"])
    with pytest.raises(AccountError, match="code_not_allowed"):
        accounts.make_code(trainee_one["id"], teacher["id"])  # also in another instructor's group
    groups.join(colleague["id"], mine["join_code"])
    with pytest.raises(AccountError, match="code_not_allowed"):
        accounts.make_code(colleague["id"], teacher["id"])  # an instructor: the command line only
    groups.remove_member(theirs["id"], trainee_one["id"])
    assert accounts.make_code(trainee_one["id"], teacher["id"])
    assert accounts.make_code(trainee_one["id"], None)  # the administrator
    assert [c["made_by"] for c in accounts.codes_of(trainee_one["id"])] == [None, teacher["id"]]


# The migration ------------------------------------------------------------------------------------


JOINED = "2026-02-01T00:00:00.000000+00:00"


def test_the_migration_starts_each_members_period_when_he_joined(tmp_path):
    path = tmp_path / "before-sessions.sqlite"
    old = Database(sqlite3.connect(path))
    MIGRATIONS.apply(old, stop_before="m009_account_sessions")
    # Accounts as the store wrote them then (today's Accounts writes columns of later migrations).
    for uid, name, role in ((1, "teacher", "instructor"), (2, "trainee.one", "trainee")):
        old.execute("INSERT INTO trainees (id, created_at) VALUES (?, '2026-01-01')", [uid])
        old.execute(
            "INSERT INTO users (id, username, username_key, display_name, password_hash, role, "
            "session_epoch, created_at) VALUES (?, ?, ?, ?, ?, ?, 0, '2026-01-01')",
            [uid, name, name, name, FAST_HASHER.hash(PASSWORD), role],
        )
    teacher, trainee_one = {"id": 1}, {"id": 2}
    old.execute(
        "INSERT INTO groups (name, owner_id, join_code, created_at) "
        "VALUES ('G', ?, 'AAAA-BBBB', '2026-01-01')",
        [teacher["id"]],
    )
    old.execute(
        "INSERT INTO memberships (group_id, user_id, joined_at) VALUES (1, ?, ?)",
        [trainee_one["id"], JOINED],
    )
    old.conn.commit()
    old.conn.close()
    migrated = open_db(path)
    rows = list(migrated.query("SELECT group_id, user_id, joined_at, left_at FROM membership_periods"))
    assert rows == [
        {
            "group_id": 1,
            "user_id": trainee_one["id"],
            "joined_at": JOINED,
            "left_at": None,
        }
    ]
    assert "redeemed_at" in migrated.table("one_time_codes").columns_dict
    assert migrated.table("sessions").count == 0


# Concurrency: the check and its write are one transaction --------------------------------------------


def _threads(count, work):
    import threading

    barrier = threading.Barrier(count)
    errors: list[BaseException] = []

    def run(i):
        try:
            barrier.wait()
            work(i)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def test_joining_many_times_at_once_makes_one_membership_and_one_period(tmp_path):
    path = tmp_path / "j.sqlite"
    store_db = open_db(path)
    accounts = Accounts(store_db, hasher=FAST_HASHER)
    teacher = accounts.create_user("teacher", PASSWORD, role=Role.INSTRUCTOR)
    trainee_one = accounts.sign_up("trainee.one", PASSWORD)
    group = Groups(store_db).create(teacher["id"], "Evening class")

    def join(_i):
        Groups(open_db(path, migrate=False)).join(trainee_one["id"], group["join_code"])

    assert _threads(12, join) == []
    assert len(Groups(store_db).periods(group["id"], trainee_one["id"])) == 1
    assert store_db.execute("SELECT count(*) FROM memberships").fetchone()[0] == 1


def test_a_code_raced_against_joining_another_group_is_never_made_for_a_shared_trainee(tmp_path):
    """Instructor A asks for a code while the trainee joins instructor B's group: whichever comes
    first, no code exists once the trainee is in B's group too (unless it was made before he joined)."""
    from trainer.store.accounts import AccountError

    path = tmp_path / "r.sqlite"
    store_db = open_db(path)
    accounts = Accounts(store_db, hasher=FAST_HASHER)
    a = accounts.create_user("teacher.a", PASSWORD, role=Role.INSTRUCTOR)
    b = accounts.create_user("teacher.b", PASSWORD, role=Role.INSTRUCTOR)
    groups = Groups(store_db)
    mine, theirs = groups.create(a["id"], "A"), groups.create(b["id"], "B")
    for round_ in range(8):
        trainee_one = accounts.sign_up(f"trainee.one.{round_}", PASSWORD)
        groups.join(trainee_one["id"], mine["join_code"])
        made: list[str] = []

        def work(i, trainee_one=trainee_one, made=made):
            connection = open_db(path, migrate=False)
            if i == 0:
                Groups(connection).join(trainee_one["id"], theirs["join_code"])
            else:
                with contextlib.suppress(AccountError):
                    made.append(
                        Accounts(connection, hasher=FAST_HASHER).make_code(trainee_one["id"], a["id"])
                    )

        assert _threads(4, work) == []
        rows = list(
            store_db.query(
                "SELECT c.created_at, p.joined_at FROM one_time_codes c JOIN membership_periods p "
                "ON p.user_id = c.user_id AND p.group_id = ? WHERE c.user_id = ?",
                [theirs["id"], trainee_one["id"]],
            )
        )
        assert len(rows) == len(made)
        assert all(r["created_at"] < r["joined_at"] for r in rows), rows  # each code came before the join


def test_a_locked_database_does_not_sign_anyone_out_of_a_page_that_only_reads(tmp_path):
    path = tmp_path / "l.sqlite"
    app = make_app(
        DATABASE=str(path), WTF_CSRF_ENABLED=False, FAST_PASSWORD_HASHING=True, DATABASE_TIMEOUT=0.2
    )
    add_user(app, "trainee.one")
    client = app.test_client()
    AuthActions(client).sign_in("trainee.one")
    _age_sessions(app, "trainee.one", seen=timedelta(minutes=30), created=timedelta(minutes=30))
    holder = sqlite3.connect(path)
    holder.execute("BEGIN IMMEDIATE")  # another writer holds the lock past the timeout
    try:
        assert _signed_in(client)  # the last use could not be written: the page is served anyway
    finally:
        holder.rollback()
        holder.close()
    seen = datetime.fromisoformat(_sessions(app, "trainee.one")[0]["seen_at"])
    assert seen < datetime.now(UTC) - timedelta(minutes=29)  # nothing was written meanwhile
    assert _signed_in(client)
    seen = datetime.fromisoformat(_sessions(app, "trainee.one")[0]["seen_at"])
    assert seen > datetime.now(UTC) - timedelta(minutes=1)  # and now it is


def test_sessions_older_than_any_limit_are_dropped_at_the_next_sign_in(tmp_path):
    class Clock:
        now = datetime(2026, 1, 1, tzinfo=UTC)

        def __call__(self):
            return self.now

    clock = Clock()
    accounts = Accounts(open_db(tmp_path / "p.sqlite"), clock=clock, hasher=FAST_HASHER)
    user = accounts.sign_up("trainee.one", PASSWORD)
    old = accounts.open_session(user["id"])
    clock.now += timedelta(days=89)
    recent = accounts.open_session(user["id"])
    assert accounts.db.execute("SELECT count(*) FROM sessions").fetchone()[0] == 2
    clock.now += timedelta(days=2)
    accounts.open_session(user["id"])
    limits = {"idle": timedelta(days=90), "absolute": timedelta(days=90)}
    assert accounts.db.execute("SELECT count(*) FROM sessions").fetchone()[0] == 2
    assert not accounts.session_alive(user["id"], old, **limits)
    assert accounts.session_alive(user["id"], recent, **limits)
