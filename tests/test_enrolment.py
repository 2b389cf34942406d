"""Bulk enrolment: a class list made into invitations with one-time codes, and each trainee making
his own account with his code. The store (digests only, single use, expiry, withdrawal and new
slips, another instructor's group, a refused username leaving the code unused), one code redeemed
from many threads and processes against a real database file (exactly one gets in), the class
list read from pasted text and uploaded files, and the pages (the instructor's form and sheet of
slips, the trainee's page, CSRF, who may see what)."""

from __future__ import annotations

import io
import multiprocessing
import threading
from datetime import UTC, datetime, timedelta

import pytest
from accounts_helpers import PASSWORD, signed_in
from conftest import make_app, memory_db

from trainer.store import open_db
from trainer.store.accounts import CODE_ALPHABET, FAST_HASHER, AccountError, Accounts, Role
from trainer.store.groups import Groups
from trainer.store.invitations import INVITATION_DAYS, NAMES_MAX, Invitations, decode_list, read_names
from trainer.web.core import db as web_db


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def world():
    database = memory_db()
    clock = Clock()
    accounts = Accounts(database, hasher=FAST_HASHER, clock=clock)
    teacher = accounts.create_user("teacher", PASSWORD, role=Role.INSTRUCTOR)["id"]
    other = accounts.create_user("other.teacher", PASSWORD, role=Role.INSTRUCTOR)["id"]
    group = Groups(database, clock=clock).create(teacher, "Evening class")["id"]
    return database, clock, accounts, Invitations(database, accounts), teacher, other, group


def _tampered(code: str) -> str:
    """The code with one character changed to another of the alphabet."""
    first = code[0]
    return CODE_ALPHABET[(CODE_ALPHABET.index(first) + 1) % len(CODE_ALPHABET)] + code[1:]


def test_a_code_makes_the_trainees_own_account_in_the_group_once(world):
    database, _clock, accounts, invitations, teacher, _other, group = world
    slips = invitations.create(group, teacher, ["Trainee One", "Слушатель Два"])
    assert [s["name"] for s in slips] == ["Trainee One", "Слушатель Два"]
    # Only digests are kept: no column of any row holds a code.
    stored = "\n".join(str(v) for row in database.query("SELECT * FROM invitations") for v in row.values())
    assert all(s["code"] not in stored and s["code"].replace("-", "") not in stored for s in slips)
    with pytest.raises(AccountError, match="invitation_wrong"):
        invitations.redeem(_tampered(slips[0]["code"]), "trainee.one", PASSWORD)
    with pytest.raises(AccountError, match="invitation_wrong"):
        invitations.redeem("", "trainee.one", PASSWORD)
    user = invitations.redeem(slips[0]["code"].lower().replace("-", " "), "trainee.one", PASSWORD)
    assert user["display_name"] == "Trainee One" and user["role"] == Role.TRAINEE
    assert accounts.check_password("trainee.one", PASSWORD)["id"] == user["id"]  # his own password
    groups = Groups(database)
    assert [m["username"] for m in groups.members(group)] == ["trainee.one"]
    assert groups.practising_for(user["id"])["id"] == group  # he practises under its rules
    with pytest.raises(AccountError, match="invitation_wrong"):  # used once
        invitations.redeem(slips[0]["code"], "trainee.one.again", PASSWORD)
    assert {i["name"]: (i["status"], i["joined_as"]) for i in invitations.of_group(group, teacher)} == {
        "Trainee One": ("joined", "trainee.one"),
        "Слушатель Два": ("waiting", None),
    }


def test_a_refused_username_or_password_leaves_the_code_unused(world):
    _database, _clock, accounts, invitations, teacher, _other, group = world
    [slip] = invitations.create(group, teacher, ["Trainee One"])
    with pytest.raises(AccountError, match="username_taken"):
        invitations.redeem(slip["code"], "teacher", PASSWORD)
    with pytest.raises(AccountError, match="password_short"):
        invitations.redeem(slip["code"], "trainee.one", "short")
    assert invitations.redeem(slip["code"], "trainee.one", PASSWORD)["username"] == "trainee.one"
    assert accounts.user_named("teacher")["role"] == Role.INSTRUCTOR  # untouched


def test_codes_expire_and_withdrawn_or_replaced_codes_stop_working(world):
    _database, clock, _accounts, invitations, teacher, _other, group = world
    first, second, third = invitations.create(group, teacher, ["One", "Two", "Three"])
    assert invitations.withdraw(group, teacher, first["id"])
    assert not invitations.withdraw(group, teacher, first["id"])  # once
    assert not invitations.withdraw(group, teacher, 2**70)  # an id SQLite cannot hold: none
    with pytest.raises(AccountError, match="invitation_wrong"):
        invitations.redeem(first["code"], "one", PASSWORD)
    invitations.redeem(second["code"], "two", PASSWORD)
    clock.now += timedelta(days=INVITATION_DAYS, seconds=1)
    assert [i["status"] for i in invitations.of_group(group, teacher)] == ["expired", "joined", "withdrawn"]
    with pytest.raises(AccountError, match="invitation_wrong"):
        invitations.redeem(third["code"], "three", PASSWORD)
    # New slips for whoever has not joined: "Three" only (withdrawn and expired rows are not renewed
    # twice: the withdrawn one was taken off the list on purpose).
    [renewed] = invitations.renew(group, teacher)
    assert renewed["name"] == "Three" and renewed["code"] != third["code"]
    with pytest.raises(AccountError, match="invitation_wrong"):
        invitations.redeem(third["code"], "three", PASSWORD)
    assert invitations.redeem(renewed["code"], "three", PASSWORD)["display_name"] == "Three"
    assert invitations.renew(group, teacher) == []


def test_only_the_groups_own_instructor_makes_or_sees_its_codes(world):
    database, _clock, _accounts, invitations, teacher, other, group = world
    [slip] = invitations.create(group, teacher, ["Trainee One"])
    for act in (
        lambda: invitations.create(group, other, ["Intruder"]),
        lambda: invitations.renew(group, other),
        lambda: invitations.withdraw(group, other, slip["id"]),
        lambda: invitations.of_group(group, other),
        lambda: invitations.create(10**6, teacher, ["Nobody"]),
    ):
        with pytest.raises(AccountError, match="invitation_not_yours"):
            act()
    assert database.execute("SELECT count(*) FROM invitations").fetchone()[0] == 1
    assert invitations.redeem(slip["code"], "trainee.one", PASSWORD)  # the other's tries changed nothing


def test_a_signed_in_trainee_joins_with_his_code_and_an_instructor_cannot(world):
    database, _clock, accounts, invitations, teacher, other, group = world
    trainee = accounts.sign_up("trainee.one", PASSWORD)["id"]
    first, second = invitations.create(group, teacher, ["Trainee One", "Trainee One's friend"])
    with pytest.raises(AccountError, match="invitation_trainees_only"):
        invitations.join_with(first["code"], other)
    assert invitations.join_with(first["code"], trainee)["id"] == group
    assert Groups(database).is_member(group, trainee)
    with pytest.raises(AccountError, match="invitation_wrong"):
        invitations.join_with(first["code"], trainee)
    assert invitations.redeem(second["code"], "friend", PASSWORD)


def test_a_guests_practice_becomes_the_new_accounts(world):
    database, clock, _accounts, invitations, teacher, _other, group = world
    guest = database.execute(
        "INSERT INTO trainees (name, created_at) VALUES (NULL, ?)", [clock.now.isoformat()]
    ).lastrowid
    database.conn.commit()
    [slip] = invitations.create(group, teacher, ["Trainee One"])
    assert invitations.redeem(slip["code"], "trainee.one", PASSWORD, guest_id=guest)["id"] == guest


# One code, many at once, on a real database file -----------------------------------------------

RACERS = 8


def _redeem_from_own_connection(path, code, n, results, start):
    accounts = Accounts(open_db(path, migrate=False), hasher=FAST_HASHER)
    start.wait()
    try:
        Invitations(accounts.db, accounts).redeem(code, f"racer{n}", PASSWORD)
        results.put(("in", n))
    except AccountError as error:
        results.put((error.reason, n))
    finally:
        accounts.db.conn.close()


@pytest.fixture
def one_code(tmp_path):
    path = tmp_path / "class.sqlite"
    database = open_db(path)
    accounts = Accounts(database, hasher=FAST_HASHER)
    teacher = accounts.create_user("teacher", PASSWORD, role=Role.INSTRUCTOR)["id"]
    group = Groups(database).create(teacher, "Evening class")["id"]
    [slip] = Invitations(database, accounts).create(group, teacher, ["Trainee One"])
    database.conn.close()
    return path, slip["code"], group


def _outcome(path, group, results):
    database = open_db(path, migrate=False)
    members = Groups(database).members(group)
    trainees = database.execute("SELECT count(*) FROM users WHERE role = 'trainee'").fetchone()[0]
    database.conn.close()
    return sorted(r for r, _ in results), members, trainees


def test_one_code_redeemed_by_many_threads_at_once_lets_exactly_one_in(one_code):
    path, code, group = one_code
    import queue

    results: queue.Queue = queue.Queue()
    start = threading.Barrier(RACERS)
    threads = [
        threading.Thread(target=_redeem_from_own_connection, args=(path, code, n, results, start))
        for n in range(RACERS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    outcomes, members, trainees = _outcome(path, group, [results.get() for _ in range(RACERS)])
    assert outcomes == ["in"] + ["invitation_wrong"] * (RACERS - 1)
    assert len(members) == 1 and trainees == 1  # no account made for any refused racer


def test_one_code_redeemed_by_several_processes_at_once_lets_exactly_one_in(one_code):
    """Processes do not share the in-process writers' queue: SQLite's own lock is what orders them."""
    path, code, group = one_code
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    start = context.Barrier(3)
    processes = [
        context.Process(target=_redeem_from_own_connection, args=(path, code, n, results, start))
        for n in range(3)
    ]
    for process in processes:
        process.start()
    got = [results.get(timeout=30) for _ in processes]
    for process in processes:
        process.join(timeout=30)
    outcomes, members, trainees = _outcome(path, group, got)
    assert outcomes == ["in", "invitation_wrong", "invitation_wrong"]
    assert len(members) == 1 and trainees == 1


# The class list --------------------------------------------------------------------------------


def test_class_lists_pasted_or_uploaded():
    assert read_names("Trainee;One\r\nСлушатель;Два\r\n\r\n") == ["Trainee One", "Слушатель Два"]
    quoted = read_names('"Three, Trainee",12\nმსმენელი ერთი,14\n')
    assert quoted == ["Three, Trainee 12", "მსმენელი ერთი 14"]
    assert read_names("one\tname\n") == ["one name"]
    assert decode_list("\ufeffმსმენელი\n".encode()) == "მსმენელი\n"
    assert decode_list("Слушатель\n".encode("utf-16")) == "Слушатель\n"
    for text, reason, params in (
        ("\n  \n", "class_list_empty", {}),
        ("Trainee One\n" + "x" * 61, "class_list_name_long", {"line": 2, "max": 60}),
        ("Trainee One\n12345\n", "class_list_name_letters", {"line": 2}),
        ("Trainee One\x07\n", "class_list_name_letters", {"line": 1}),
        ("\n".join(f"Trainee {n}" for n in range(NAMES_MAX + 1)), "class_list_long", {"max": NAMES_MAX}),
    ):
        with pytest.raises(AccountError) as refused:
            read_names(text)
        assert (refused.value.reason, refused.value.params) == (reason, params)
    with pytest.raises(AccountError, match="class_list_encoding"):
        decode_list("Слушатель".encode("cp1251"))
    with pytest.raises(AccountError, match="class_list_big"):
        decode_list(b"x" * (64 * 1024 + 1))


# The pages -------------------------------------------------------------------------------------


def _group_of(app, client) -> int:
    response = client.post("/groups/new", data={"name": "Evening class"})
    assert response.status_code == 302
    return int(response.headers["Location"].rstrip("/").rsplit("/", 1)[1])


def _codes(page: str) -> list[str]:
    import re

    return re.findall(r'<p class="slip-code"><code>([A-Z0-9-]+)</code>', page)


def test_the_instructor_prints_slips_and_each_trainee_joins_on_his_own(app):
    teacher = signed_in(app, "teacher", "instructor")
    group = _group_of(app, teacher)
    assert b'id="invite-class"' in teacher.get(f"/groups/{group}").data
    assert teacher.get(f"/groups/{group}/invitations").status_code == 200
    refused = teacher.post(f"/groups/{group}/invitations", data={"names": "  \n"})
    assert refused.status_code == 400 and b"Paste the names, or choose a file with them." in refused.data
    refused = teacher.post(f"/groups/{group}/invitations", data={"names": "Trainee One\n" + "x" * 80})
    assert (
        refused.status_code == 400
        and b"The name on line 2 is longer than 60\xc2\xa0characters." in refused.data
    )
    upload = {"names_file": (io.BytesIO("\ufeffTrainee;One\nСлушатель;Два\n".encode()), "class.csv")}
    sheet = teacher.post(f"/groups/{group}/invitations", data=upload, content_type="multipart/form-data")
    assert sheet.status_code == 200
    page = sheet.get_data(as_text=True)
    codes = _codes(page)
    assert len(codes) == 2 and "Trainee One" in page and "Слушатель Два" in page
    assert "http://localhost/account/invitation" in page and 'id="print-slips"' in page
    assert "2 invitations waiting" in teacher.get(f"/groups/{group}").get_data(as_text=True)
    listing = teacher.get(f"/groups/{group}/invitations").get_data(as_text=True)
    assert "Слушатель Два" in listing and not any(code in listing for code in codes)  # shown once only
    wrong_file = {"names_file": (io.BytesIO(b"Trainee One"), "class.xlsx")}
    refused = teacher.post(
        f"/groups/{group}/invitations", data=wrong_file, content_type="multipart/form-data"
    )
    assert refused.status_code == 400 and b"Choose a file ending in .txt or .csv." in refused.data
    bad_bytes = {"names_file": (io.BytesIO("Слушатель".encode("cp1251")), "class.txt")}
    refused = teacher.post(f"/groups/{group}/invitations", data=bad_bytes, content_type="multipart/form-data")
    assert refused.status_code == 400 and b"Save it as UTF-8 text" in refused.data

    # A trainee with his slip: a wrong code is refused, his own code makes his account in the group.
    trainee = app.test_client()
    assert b'id="invitation-link"' in trainee.get("/account/sign-in").data
    form = {"code": _tampered(codes[0]), "username": "trainee.one", "password": PASSWORD, "confirm": PASSWORD}
    refused = trainee.post("/account/invitation", data=form)
    assert refused.status_code == 400 and b"This code is not right" in refused.data
    joined = trainee.post("/account/invitation", data={**form, "code": codes[0]})
    assert joined.status_code == 302 and joined.headers["Location"].endswith("/groups/")
    assert "Evening class" in trainee.get("/groups/").get_data(as_text=True)
    again = app.test_client().post(
        "/account/invitation", data={**form, "code": codes[0], "username": "x.y.z"}
    )
    assert again.status_code == 400  # used
    desk = teacher.get(f"/groups/{group}").get_data(as_text=True)
    assert "Trainee One" in desk  # the list's name, on the desk
    # An existing trainee, signed in, joins with the second code.
    trainee_five = signed_in(app, "trainee.five")
    assert b'id="invitation-link"' in trainee_five.get("/groups/").data
    assert b'name="username"' not in trainee_five.get("/account/invitation").data
    assert trainee_five.post("/account/invitation", data={"code": codes[1]}).status_code == 302
    with app.app_context():
        members = web_db.groups().members(group)
    assert sorted(m["username"] for m in members) == ["trainee.five", "trainee.one"]
    # New slips: asks first, then shows none left to print (everyone joined).
    assert b'id="confirm-button"' in teacher.post(f"/groups/{group}/invitations/renew").data
    done = teacher.post(f"/groups/{group}/invitations/renew", data={"confirm": "1"})
    assert done.status_code == 302


def test_another_instructor_or_a_trainee_gets_nothing_of_the_groups_invitations(app):
    teacher = signed_in(app, "teacher", "instructor")
    group = _group_of(app, teacher)
    page = teacher.post(f"/groups/{group}/invitations", data={"names": "Trainee One"}).get_data(as_text=True)
    [code] = _codes(page)
    with app.app_context():
        [invitation] = list(web_db.store().db.query("SELECT id FROM invitations"))
    other = signed_in(app, "other", "instructor")
    trainee = signed_in(app, "trainee.one")
    for url in (
        f"/groups/{group}/invitations",
        f"/groups/{group}/invitations/renew",
        f"/groups/{group}/invitations/{invitation['id']}/withdraw",
    ):
        for client, status in ((other, 404), (trainee, 403)):
            response = client.post(url, data={"names": "Intruder", "confirm": "1"})
            assert response.status_code in (status, 405), url
            assert client.get(f"/groups/{group}/invitations").status_code == status
    # Still waiting, the one code still works.
    assert teacher.post(f"/groups/{group}/invitations/{invitation['id']}/withdraw").status_code == 302
    assert teacher.post(f"/groups/{group}/invitations/{invitation['id']}/withdraw").status_code == 404
    refused = app.test_client().post(
        "/account/invitation",
        data={"code": code, "username": "trainee.one", "password": PASSWORD, "confirm": PASSWORD},
    )
    assert refused.status_code == 400  # withdrawn


def test_the_forms_keep_their_csrf_check(tmp_path):
    app = make_app(DATABASE=str(tmp_path / "csrf.sqlite"), FAST_PASSWORD_HASHING=True)
    visitor = app.test_client()
    form = {"code": "AAAA-BBBB-CCCC", "username": "trainee.one", "password": PASSWORD, "confirm": PASSWORD}
    assert visitor.post("/account/invitation", data=form).status_code == 400
    with app.app_context():
        accounts = Accounts(web_db.store().db, hasher=FAST_HASHER)
        teacher = accounts.create_user("teacher", PASSWORD, role=Role.INSTRUCTOR)["id"]
        group = web_db.groups().create(teacher, "Evening class")["id"]
    client = app.test_client()
    page = client.get("/account/sign-in").get_data(as_text=True)
    import re

    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    assert (
        client.post(
            "/account/sign-in", data={"username": "teacher", "password": PASSWORD, "csrf_token": token}
        ).status_code
        == 302
    )
    assert client.post(f"/groups/{group}/invitations", data={"names": "Trainee One"}).status_code == 400
    with app.app_context():
        assert web_db.store().db.execute("SELECT count(*) FROM invitations").fetchone()[0] == 0


def test_refusals_are_said_in_the_pages_language(app):
    teacher = signed_in(app, "teacher", "instructor")
    group = _group_of(app, teacher)
    teacher.post("/language", data={"lang": "ka"})
    page = teacher.post(f"/groups/{group}/invitations", data={"names": "12345"}).get_data(as_text=True)
    assert "has no letters" not in page
    with app.test_request_context(headers={"Accept-Language": "ka"}):
        from flask_babel import force_locale

        from trainer.web.core.auth import say

        with force_locale("ka"):
            said = say(AccountError("class_list_name_letters", line=1))
    assert said in page and "1" in said


def test_guessing_invitation_codes_meets_the_failed_sign_in_limit(tmp_path):
    app = make_app(
        DATABASE=str(tmp_path / "limits.sqlite"),
        WTF_CSRF_ENABLED=False,
        FAST_PASSWORD_HASHING=True,
        RATELIMIT_ENABLED=True,
        RATE_LIMIT_SIGN_IN_FAILURES="5 per minute",
    )
    with app.app_context():
        accounts = Accounts(web_db.store().db, hasher=FAST_HASHER)
        teacher = accounts.create_user("teacher", PASSWORD, role=Role.INSTRUCTOR)["id"]
        group = web_db.groups().create(teacher, "Evening class")["id"]
        [slip] = Invitations(web_db.store().db, accounts).create(group, teacher, ["Trainee One"])
    guesser = app.test_client()
    for n in range(5):
        form = {
            "code": f"AAAA-BBBB-CCC{n + 2}",
            "username": f"guess{n}",
            "password": PASSWORD,
            "confirm": PASSWORD,
        }
        assert guesser.post("/account/invitation", data=form).status_code == 400
    wrong = {"code": "AAAA-BBBB-CCC9", "username": "guess9", "password": PASSWORD, "confirm": PASSWORD}
    assert guesser.post("/account/invitation", data=wrong).status_code == 429
    # As for a password: beyond the limit a wrong code is refused unread, the right one still works.
    right = {**wrong, "code": slip["code"], "username": "trainee.one"}
    assert guesser.post("/account/invitation", data=right).status_code == 302
