"""Failed password checks are limited per username tried and per address
(`trainer.web.core.sign_in_limits`),
counted in the database so that every worker of a server counts the same; beyond a budget a wrong
password gets 429 and a right one still signs in, a browser that proved the password before (a
trusted device) counts only its own failures, and beyond three budgets (the ceiling) nothing is
checked; the API answers 429 in JSON, the pages with a page."""

import threading

import pytest
from accounts_helpers import PASSWORD, AuthActions, add_user
from conftest import make_app, memory_db

from trainer.store import open_db
from trainer.store.accounts import FAST_HASHER, Accounts
from trainer.store.sign_in_failures import KEEP_S, SignInFailures
from trainer.web.core import auth, db

LIMITS = {
    "WTF_CSRF_ENABLED": False,
    "FAST_PASSWORD_HASHING": True,
    "RATELIMIT_ENABLED": True,
    "RATE_LIMIT_SIGN_IN_USER": "3 per minute",
    "RATE_LIMIT_SIGN_IN_FAILURES": "5 per minute",
}


@pytest.fixture
def limited(tmp_path):
    return make_app(**LIMITS, DATABASE=str(tmp_path / "limits.sqlite"))


def _token(app, username, password=PASSWORD):
    return app.test_client().post("/api/v1/tokens", json={"username": username, "password": password})


def test_someone_elses_failures_never_refuse_the_owners_right_password(limited):
    add_user(limited, "trainee.one")
    for _ in range(3):  # a guesser, without cookies, uses up the account's budget
        assert AuthActions(limited.test_client()).sign_in("trainee.one", "wrong password").status_code == 401
    refused = AuthActions(limited.test_client()).sign_in("trainee.one", "wrong password")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    api = _token(limited, "trainee.one", "wrong password")
    assert api.status_code == 429 and api.json["status"] == 429
    # The owner, on any device, with the right password: signed in (it was 429 before).
    assert AuthActions(limited.test_client()).sign_in("trainee.one").status_code == 302
    assert _token(limited, "trainee.one").status_code == 201
    add_user(limited, "trainee.two")
    assert AuthActions(limited.test_client()).sign_in("trainee.two").status_code == 302  # another user


def test_a_trusted_device_counts_only_its_own_failures(limited):
    add_user(limited, "trainee.one")
    phone = limited.test_client()
    assert AuthActions(phone).sign_in("trainee.one").status_code == 302  # the phone proves the password
    AuthActions(phone).sign_out()
    for _ in range(12):  # a guesser goes past the budget and the ceiling (3 x 3 failures)
        AuthActions(limited.test_client()).sign_in("trainee.one", "wrong password")
    # The phone's own typos are answered 401, not 429: the guesser's failures are not the phone's.
    assert [AuthActions(phone).sign_in("trainee.one", "a typo here").status_code for _ in range(3)] == [
        401
    ] * 3
    assert AuthActions(phone).sign_in("trainee.one", "a typo here").status_code == 429  # its own budget
    assert AuthActions(phone).sign_in("trainee.one").status_code == 302


def test_one_client_spraying_from_the_schools_address_does_not_refuse_the_class(limited):
    add_user(limited, "trainee.one")
    add_user(limited, "trainee.two")
    trainee_two_phone = limited.test_client()
    assert AuthActions(trainee_two_phone).sign_in("trainee.two").status_code == 302
    AuthActions(trainee_two_phone).sign_out()
    for i in range(5):  # one client tries a password on five usernames from the school's address
        assert _token(limited, f"user{i}", "x" * 8).status_code == 401
    assert AuthActions(limited.test_client()).sign_in("someone.else", "whatever pw").status_code == 429
    # Every trainee behind that address still signs in with his right password.
    assert AuthActions(limited.test_client()).sign_in("trainee.one").status_code == 302
    assert _token(limited, "trainee.one").status_code == 201
    # A trusted device's typo is counted against that device, not against the sprayed address.
    assert AuthActions(trainee_two_phone).sign_in("trainee.two", "a typo here").status_code == 401


def test_beyond_the_ceiling_nothing_is_checked_but_the_owners_device_still_signs_in(tmp_path, monkeypatch):
    app = make_app(**LIMITS, DATABASE=str(tmp_path / "c.sqlite"), RATE_LIMIT_SIGN_IN_CEILING=2)
    add_user(app, "trainee.one")
    phone = app.test_client()
    assert AuthActions(phone).sign_in("trainee.one").status_code == 302
    AuthActions(phone).sign_out()
    for _ in range(6):  # two budgets of 3
        AuthActions(app.test_client()).sign_in("trainee.one", "wrong password")
    checked = []

    class Counting:
        def verify(self, *args):
            checked.append(1)
            return FAST_HASHER.verify(*args)

        def __getattr__(self, name):
            return getattr(FAST_HASHER, name)

    monkeypatch.setattr(auth, "FAST_HASHER", Counting())  # what each request's Accounts hashes with
    refused = AuthActions(app.test_client()).sign_in("trainee.one")  # right, but from an untrusted client
    assert refused.status_code == 429 and checked == []  # refused before any hashing
    assert AuthActions(phone).sign_in("trainee.one").status_code == 302 and checked == [1]


def test_the_counters_are_shared_by_two_apps_on_one_database(tmp_path):
    """Two workers of one server: each app has its own memory, the database is the same."""
    config = {**LIMITS, "DATABASE": str(tmp_path / "shared.sqlite")}
    first, second = make_app(**config), make_app(**config)
    add_user(first, "trainee.one")
    assert AuthActions(first.test_client()).sign_in("trainee.one", "wrong password").status_code == 401
    assert AuthActions(second.test_client()).sign_in("trainee.one", "wrong password").status_code == 401
    assert AuthActions(first.test_client()).sign_in("trainee.one", "wrong password").status_code == 401
    # Three failures in all, over two workers: the budget of three is spent for both.
    assert AuthActions(second.test_client()).sign_in("trainee.one", "wrong password").status_code == 429
    assert AuthActions(first.test_client()).sign_in("trainee.one", "wrong password").status_code == 429
    assert AuthActions(second.test_client()).sign_in("trainee.one").status_code == 302


def test_a_forged_device_cookie_is_not_trusted(limited):
    add_user(limited, "trainee.one")
    for _ in range(3):
        AuthActions(limited.test_client()).sign_in("trainee.one", "wrong password")
    for forged in ('{"trainee.one": "abc"}', "eyJ0cmFpbmVlLm9uZSI6ImFiYyJ9.not-a-signature"):
        client = limited.test_client()
        client.set_cookie("trainer_device", forged)
        assert AuthActions(client).sign_in("trainee.one", "wrong password").status_code == 429


def test_wrong_one_time_codes_count_too_and_the_right_code_still_works(limited):
    add_user(limited, "trainee.one")
    client = limited.test_client()
    wrong = {
        "username": "trainee.one",
        "code": "AAAA-BBBB-CCCC",
        "password": "a new secret",
        "confirm": "a new secret",
    }
    for _ in range(3):
        assert client.post("/account/code", data=wrong).status_code == 400
    assert client.post("/account/code", data=wrong).status_code == 429
    with limited.app_context():
        accounts = Accounts(db.store().db, hasher=FAST_HASHER)
        code = accounts.make_code(accounts.user_named("trainee.one")["id"], None)
    assert client.post("/account/code", data={**wrong, "code": code}).status_code == 302


def test_a_password_change_is_not_refused_for_the_failures_of_others(limited):
    add_user(limited, "trainee.one")
    for _ in range(3):
        AuthActions(limited.test_client()).sign_in("trainee.one", "wrong password")
    laptop = limited.test_client()
    # now a trusted device of trainee.one
    assert AuthActions(laptop).sign_in("trainee.one").status_code == 302
    change = {"current": "not it at all", "password": "a new secret", "confirm": "a new secret"}
    assert laptop.post("/account/password", data=change).status_code == 400  # its own first failure
    change["current"] = PASSWORD
    assert laptop.post("/account/password", data=change).status_code == 302


def test_limits_are_off_in_tests_unless_asked(app):
    add_user(app, "trainee.one")
    client = app.test_client()
    for _ in range(15):
        AuthActions(client).sign_in("trainee.one", "wrong password")
    assert AuthActions(client).sign_in("trainee.one").status_code == 302


# The store's counters ------------------------------------------------------------------------------


class Clock:
    now = 1_000_000.0

    def __call__(self):
        return self.now


def test_failures_are_counted_in_a_sliding_window_and_old_ones_deleted():
    clock = Clock()
    failures = SignInFailures(memory_db(), clock=clock)
    budgets = {"username:trainee.one": [(3, 60)]}
    for step in range(3):
        clock.now = 1_000_000.0 + 20 * step  # at 0 s, 20 s and 40 s
        assert failures.attempt(budgets, ceiling=2).beyond_for is None
    assert failures.count("username:trainee.one", 60) == 3
    assert failures.retry_after("username:trainee.one", 60, 3) == 20  # the first leaves the window at 60 s
    assert failures.retry_after("username:trainee.one", 60, 2) == 40
    assert failures.attempt(budgets, ceiling=2).beyond_for == 20  # a budget is used: 429 for 20 s
    clock.now += 30  # at 70 s the failure at 0 s is out of the window
    assert failures.count("username:trainee.one", 60) == 3
    clock.now += KEEP_S
    failures.attempt({"username:trainee.two": [(3, 60)]}, ceiling=2)  # rows older than a day are deleted
    assert failures.db.execute("SELECT key FROM sign_in_failures").fetchall() == [("username:trainee.two",)]


def test_a_successful_check_takes_its_failure_back():
    failures = SignInFailures(memory_db())
    budgets = {"username:trainee.one": [(3, 60)], "address:10.0.0.7": [(30, 60)]}
    for _ in range(10):
        failures.succeeded(failures.attempt(budgets, ceiling=1))
    assert failures.count("username:trainee.one", 60) == failures.count("address:10.0.0.7", 60) == 0


def test_concurrent_checks_never_get_past_the_ceiling(tmp_path):
    """Twelve checks at once from many threads: the count and the failure written in advance are one
    transaction, so exactly the ceiling's number of checks is let through (2 budgets of 3)."""
    path = tmp_path / "burst.sqlite"
    open_db(path).conn.close()
    start = threading.Barrier(12)
    let_through = []

    def check():
        failures = SignInFailures(open_db(path, migrate=False))
        start.wait()
        attempt = failures.attempt(
            {"username:trainee.one": [(3, 300)], "address:10.0.0.7": [(30, 60)]}, ceiling=2
        )
        let_through.append(attempt.refused_for is None)

    threads = [threading.Thread(target=check) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(let_through) == [False] * 6 + [True] * 6
    failures = SignInFailures(open_db(path, migrate=False))
    assert failures.count("username:trainee.one", 300) == failures.count("address:10.0.0.7", 60) == 6
