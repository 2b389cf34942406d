"""Accounts in the store: sign-up rules, argon2 hashes, ending sessions, one-time codes, API tokens,
guests keeping their work, and the migration of name-only trainees into accounts to hand over."""

import sqlite3
import threading
from datetime import UTC, datetime, timedelta

import pytest
from conftest import memory_db
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlite_utils import Database

from trainer.drills import issue
from trainer.store import NotFoundError, Store, open_db
from trainer.store.accounts import (
    FAST_HASHER,
    AccountError,
    Accounts,
    Role,
    clean_username,
)
from trainer.store.groups import Groups
from trainer.store.schema import MIGRATIONS
from trainer.store.usernames import username_from_name, username_key


class Clock:
    def __init__(self):
        self.now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

    def __call__(self):
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def db():
    return memory_db()


@pytest.fixture
def accounts(db, clock):
    return Accounts(db, clock=clock, hasher=FAST_HASHER)


def test_sign_up_stores_an_argon2id_hash_never_the_password(accounts):
    user = accounts.sign_up("trainee.one", "correct horse")
    assert user["password_hash"].startswith("$argon2id$")
    assert "correct horse" not in user["password_hash"]
    assert user["role"] == "trainee" and user["display_name"] == "trainee.one"
    # The account is a trainee: the same id.
    assert accounts.db.execute("SELECT count(*) FROM trainees WHERE id = ?", [user["id"]]).fetchone()[0] == 1


def test_the_app_hashes_with_owasp_parameters_or_stronger():
    from trainer.store.accounts import HASHER

    assert HASHER.memory_cost >= 19456 and HASHER.time_cost >= 2


@pytest.mark.parametrize(
    ("username", "password", "message"),
    [
        ("", "long enough", "username_missing"),
        ("ab", "long enough", "username_length"),
        ("x" * 33, "long enough", "username_length"),
        ("two words", "long enough", "username_letters"),
        (".dot", "long enough", "username_letters"),
        ("under_", "long enough", "username_letters"),
        ("tab\tname", "long enough", "username_letters"),
        (None, "long enough", "username_missing"),
        ("trainee.one", "short", "password_short"),
        ("trainee.one", "x" * 201, "password_long"),
        ("trainee1", "Trainee1", "password_is_username"),
        ("trainee.one", 12345678, "password_short"),
    ],
)
def test_bad_usernames_and_passwords_are_refused_with_a_message(accounts, username, password, message):
    with pytest.raises(AccountError) as raised:
        accounts.sign_up(username, password)
    assert raised.value.reason == message
    assert accounts.db.execute("SELECT count(*) FROM users").fetchone()[0] == 0


def test_usernames_of_any_script_and_case_are_one_account(accounts):
    accounts.sign_up("Слушатель", "a long secret")
    with pytest.raises(AccountError, match="username_taken"):
        accounts.sign_up("слушатель", "another secret")
    accounts.sign_up("მსმენელი", "a long secret")
    assert accounts.check_password("СЛУШАТЕЛЬ", "a long secret") is not None
    assert clean_username("  Trainee.One ") == "Trainee.One"
    assert username_key("ＴＲＡＩＮＥＥ") == username_key("trainee")  # full-width letters are the same name


def test_wrong_or_unknown_credentials_give_nothing(accounts):
    accounts.sign_up("trainee.one", "a long secret")
    assert accounts.check_password("trainee.one", "a long secreT") is None
    assert accounts.check_password("nobody", "a long secret") is None
    assert accounts.check_password("trainee.one", None) is None
    assert accounts.check_password(["trainee.one"], "a long secret") is None
    assert accounts.check_password("trainee.one", "x" * 10_000) is None


def test_a_hash_with_old_parameters_is_upgraded_on_sign_in(db, clock):
    old = Accounts(db, clock=clock, hasher=FAST_HASHER)
    user = old.sign_up("trainee.one", "a long secret")
    from argon2 import PasswordHasher

    stronger = PasswordHasher(time_cost=2, memory_cost=1024, parallelism=1)
    Accounts(db, clock=clock, hasher=stronger).check_password("trainee.one", "a long secret")
    assert "m=1024,t=2" in old.user(user["id"])["password_hash"]


def test_change_password_needs_the_current_one_and_ends_other_sessions(accounts):
    user = accounts.sign_up("trainee.one", "a long secret")
    with pytest.raises(AccountError, match="password_wrong"):
        accounts.change_password(user["id"], "wrong one", "a new secret")
    changed = accounts.change_password(user["id"], "a long secret", "a new secret")
    assert changed["session_epoch"] == user["session_epoch"] + 1
    assert accounts.check_password("trainee.one", "a long secret") is None
    assert accounts.check_password("trainee.one", "a new secret") is not None


def test_ending_sessions_moves_the_epoch_and_revokes_every_token(accounts):
    user = accounts.sign_up("trainee.one", "a long secret")
    token, _row = accounts.new_token(user["id"])
    assert accounts.user_for_token(token)[0]["id"] == user["id"]
    ended = accounts.end_sessions(user["id"])
    assert ended["session_epoch"] == user["session_epoch"] + 1
    assert accounts.user_for_token(token) is None


def test_tokens_are_stored_as_digests_and_revoked_one_by_one(accounts):
    one = accounts.sign_up("trainee.one", "a long secret")
    two = accounts.sign_up("trainee.two", "a long secret")
    token, row = accounts.new_token(one["id"], "phone")
    other, _ = accounts.new_token(one["id"])
    assert token.startswith("ct_") and len(token) > 40
    stored = [r[0] for r in accounts.db.execute("SELECT token_hash FROM api_tokens")]
    assert token not in stored and all(len(h) == 64 for h in stored)
    assert not accounts.revoke_token(two["id"], row["id"])  # not hers to revoke
    assert accounts.user_for_token(token) is not None
    assert accounts.revoke_token(one["id"], row["id"])
    assert not accounts.revoke_token(one["id"], row["id"])
    assert accounts.user_for_token(token) is None
    assert accounts.user_for_token(other)[0]["id"] == one["id"]
    for junk in (None, "", "ct_", "Bearer " + other, other + "x", 7, "x" * 5000):
        assert accounts.user_for_token(junk) is None


def test_one_time_code_sets_the_password_once(accounts, clock):
    instructor = accounts.create_user("teacher", "a long secret", role=Role.INSTRUCTOR)
    user = accounts.sign_up("trainee.one", "forgotten one")
    with pytest.raises(AccountError, match="code_not_allowed"):  # not his trainee (in none of his groups)
        accounts.make_code(user["id"], instructor["id"])
    groups = Groups(accounts.db)
    groups.join(user["id"], groups.create(instructor["id"], "Evening")["join_code"])
    code = accounts.make_code(user["id"], instructor["id"])
    assert len(code) == 14 and code.count("-") == 2
    with pytest.raises(AccountError, match="code_wrong"):
        accounts.redeem_code("trainee.one", "AAAA-AAAA-AAAA", "a brand new one")
    with pytest.raises(AccountError, match="code_wrong"):
        accounts.redeem_code("trainee.two", code, "a brand new one")
    # Read aloud: lower case, no dashes, spaces are all fine.
    accounts.redeem_code("trainee.one", code.lower().replace("-", " "), "a brand new one")
    assert accounts.check_password("trainee.one", "a brand new one") is not None
    with pytest.raises(AccountError, match="code_wrong"):
        accounts.redeem_code("trainee.one", code, "yet another one")


def test_codes_expire_and_a_newer_code_replaces_an_older_one(accounts, clock):
    user = accounts.sign_up("trainee.one", "forgotten one")
    first = accounts.make_code(user["id"], None)
    second = accounts.make_code(user["id"], None)
    with pytest.raises(AccountError):
        accounts.redeem_code("trainee.one", first, "a brand new one")
    clock.now += timedelta(days=8)
    with pytest.raises(AccountError):
        accounts.redeem_code("trainee.one", second, "a brand new one")
    third = accounts.make_code(user["id"], None)
    with pytest.raises(AccountError, match="password_short"):
        accounts.redeem_code("trainee.one", third, "short")
    accounts.redeem_code("trainee.one", third, "a brand new one")  # a refused password did not use it up


@pytest.fixture(autouse=True)
def toy_kind():
    from web_toys import toy_kinds

    with toy_kinds():
        yield


def _answered_drill(store, trainee_id):
    drill = store.save_drill(trainee_id, issue("toy.amount", 1, seed=1))
    store.answer(drill, "0")
    return drill


def _guest_with_an_attempt(db, clock):
    store = Store(db, clock=clock)
    guest = store.new_anonymous_trainee()
    return guest, _answered_drill(store, guest["id"])


def test_a_guest_who_signs_up_keeps_every_attempt(db, accounts, clock):
    guest, drill = _guest_with_an_attempt(db, clock)
    user = accounts.sign_up("trainee.one", "a long secret", guest_id=guest["id"])
    assert user["id"] == guest["id"]
    assert Store(db).drill(drill)["trainee_id"] == user["id"]
    # The same guest row cannot become a second account.
    other = accounts.sign_up("trainee.two", "a long secret", guest_id=guest["id"])
    assert other["id"] != guest["id"]


def test_a_guest_who_signs_in_brings_the_work_along(db, accounts, clock):
    user = accounts.sign_up("trainee.one", "a long secret")
    guest, drill = _guest_with_an_attempt(db, clock)
    assert accounts.move_guest_work(guest["id"], user["id"]) == 1
    assert Store(db).drill(drill)["trainee_id"] == user["id"]
    assert db.execute("SELECT trainee_id FROM attempts").fetchone()[0] == user["id"]
    # An account is never treated as a guest: nothing moves out of it.
    other = accounts.sign_up("trainee.two", "a long secret")
    assert accounts.move_guest_work(user["id"], other["id"]) == 0


def test_migration_turns_name_only_trainees_into_accounts_to_hand_over(tmp_path, clock):
    path = tmp_path / "old.sqlite"
    old = Database(sqlite3.connect(path))
    MIGRATIONS.apply(old, stop_before="m005_accounts")
    store = Store(old, clock=clock)
    names = ["Trainee One", "trainee.one", "მსმენელი ერთი", "Слушатель", "x", "!!!"]
    rows = [store.trainee_named(n) for n in names]
    guest = store.new_anonymous_trainee()
    _answered_drill(store, rows[0]["id"])
    old.conn.close()

    db = open_db(path)
    accounts = Accounts(db, clock=clock, hasher=FAST_HASHER)
    users = {u["display_name"]: u for u in accounts.unclaimed()}
    assert set(users) == set(names)
    assert {u["username"] for u in users.values()} == {
        "Trainee.One",
        "trainee.one-2",
        "მსმენელი.ერთი",
        "Слушатель",
        "x00",
        "trainee",
    }
    assert all(u["password_hash"] is None and u["role"] == "trainee" for u in users.values())
    assert users["Trainee One"]["id"] == rows[0]["id"]  # the history stays where it was
    assert accounts.check_password("Trainee.One", "") is None
    with pytest.raises(NotFoundError):
        accounts.user(guest["id"])  # a nameless session stays a guest
    code = accounts.make_code(rows[0]["id"], None)
    accounts.redeem_code("trainee.ONE", code, "my own password")
    assert accounts.check_password("Trainee.One", "my own password")["id"] == rows[0]["id"]
    assert (
        db.execute("SELECT count(*) FROM attempts WHERE trainee_id = ?", [rows[0]["id"]]).fetchone()[0] == 1
    )


@settings(max_examples=60)
@given(st.text(min_size=1, max_size=80), st.sets(st.text(min_size=3, max_size=10), max_size=5))
def test_usernames_made_from_names_are_valid_and_unique(name, taken_names):
    taken = {username_key(t) for t in taken_names}
    made = username_from_name(name, taken)
    assert clean_username(made) == made
    assert username_key(made) not in taken


def test_a_racing_sign_up_of_the_same_name_makes_one_account(tmp_path):
    path = tmp_path / "race.sqlite"
    open_db(path).conn.close()
    results, errors = [], []

    def sign_up(i):
        try:
            results.append(
                Accounts(open_db(path, migrate=False), hasher=FAST_HASHER).sign_up("same", f"pw-{i}-long")
            )
        except AccountError as error:
            errors.append(error.reason)

    threads = [threading.Thread(target=sign_up, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 1 and errors == ["username_taken"] * 7
