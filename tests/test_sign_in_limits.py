"""Failed sign-ins are rate-limited per username tried and per address (`trainer.web.security`);
successes never count; the API answers 429 in JSON, the pages with a page."""

import pytest
from accounts_helpers import PASSWORD, AuthActions, add_user

from trainer.web import create_app


@pytest.fixture
def limited(tmp_path):
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "limits.sqlite"),
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "FAST_PASSWORD_HASHING": True,
            "RATELIMIT_ENABLED": True,
            "RATE_LIMIT_SIGN_IN_USER": "3 per minute",
            "RATE_LIMIT_SIGN_IN_FAILURES": "5 per minute",
        }
    )


def test_wrong_passwords_of_one_user_are_limited_not_his_successes(limited):
    add_user(limited, "nino")
    client = limited.test_client()
    for _ in range(5):  # successes are never counted
        assert AuthActions(client).sign_in("nino").status_code == 302
    for _ in range(3):
        assert AuthActions(client).sign_in("nino", "wrong password").status_code == 401
    refused = AuthActions(client).sign_in("nino")  # even the right password waits now
    assert refused.status_code == 429 and "Retry-After" in refused.headers
    api = limited.test_client().post("/api/v1/tokens", json={"username": "nino", "password": PASSWORD})
    assert api.status_code == 429 and api.json["status"] == 429
    add_user(limited, "lasha")
    assert AuthActions(client).sign_in("lasha").status_code == 302  # another user is not slowed down


def test_trying_many_usernames_from_one_address_is_limited(limited):
    client = limited.test_client()
    for i in range(5):
        assert (
            client.post("/api/v1/tokens", json={"username": f"user{i}", "password": "x" * 8}).status_code
            == 401
        )
    assert AuthActions(client).sign_in("someone.else", "whatever pw").status_code == 429


def test_wrong_one_time_codes_count_too(limited):
    add_user(limited, "nino")
    client = limited.test_client()
    wrong = {
        "username": "nino",
        "code": "AAAA-BBBB-CCCC",
        "password": "a new secret",
        "confirm": "a new secret",
    }
    for _ in range(3):
        assert client.post("/account/code", data=wrong).status_code == 400
    assert client.post("/account/code", data=wrong).status_code == 429


def test_limits_are_off_in_tests_unless_asked(app):
    add_user(app, "nino")
    client = app.test_client()
    for _ in range(15):
        AuthActions(client).sign_in("nino", "wrong password")
    assert AuthActions(client).sign_in("nino").status_code == 302
