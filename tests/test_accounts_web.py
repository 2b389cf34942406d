"""Account pages: sign up, sign in, sign out (here and everywhere), change password, one-time codes,
tokens on the account page, guests keeping their work, every page in ka/en/ru, and the CLI."""

import re

import pytest
from accounts_helpers import PASSWORD, AuthActions, add_user, signed_in
from conftest import make_app

from trainer.store.accounts import FAST_HASHER, Accounts
from trainer.web.core import db


@pytest.fixture
def auth(client):
    return AuthActions(client)


def _users(app):
    with app.app_context():
        return list(db.store().db.query("SELECT * FROM users ORDER BY id"))


def test_sign_up_signs_in_and_shows_the_account(client, auth):
    response = auth.sign_up("trainee.one")
    assert response.status_code == 302 and response.headers["Location"] == "/"
    page = client.get("/account/").get_data(as_text=True)
    assert "Signed in as trainee.one." in page and "Role: trainee." in page
    assert "Signed in as trainee.one" in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize(
    ("username", "password", "confirm", "message"),
    [
        ("ab", PASSWORD, PASSWORD, "A username has 3 to 32\u00a0characters."),
        ("two words", PASSWORD, PASSWORD, "A username may use letters"),
        ("trainee.one", "short", "short", "A password has at least 8\u00a0characters."),
        ("trainee.one", PASSWORD, "another one", "The two passwords are not the same."),
        ("trainee.one", "", "", "Fill in this field."),
    ],
)
def test_sign_up_refusals_name_the_problem(app, client, auth, username, password, confirm, message):
    response = client.post(
        "/account/sign-up", data={"username": username, "password": password, "confirm": confirm}
    )
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert _users(app) == []


def test_a_taken_username_is_refused(client, auth):
    auth.sign_up("trainee.one")
    auth.sign_out()
    response = auth.sign_up("TRAINEE.ONE", "another secret")
    assert response.status_code == 400
    assert "The username TRAINEE.ONE is taken. Choose another." in response.get_data(as_text=True)


def test_sign_in_wrong_password_and_unknown_user_say_the_same(app, client, auth):
    add_user(app, "trainee.one")
    wrong = auth.sign_in("trainee.one", "not the password")
    unknown = auth.sign_in("nobody", PASSWORD)
    assert wrong.status_code == unknown.status_code == 401
    message = "The username or the password is not right."
    assert message in wrong.get_data(as_text=True) and message in unknown.get_data(as_text=True)
    assert client.get("/account/").status_code == 302  # still signed out


def test_sign_in_goes_back_to_a_same_site_page_only(app, client, auth):
    add_user(app, "trainee.one")
    assert auth.sign_in("trainee.one", next="/progress/").headers["Location"] == "/progress/"
    auth.sign_out()
    assert auth.sign_in("trainee.one", next="https://example.org/").headers["Location"] == "/"
    auth.sign_out()
    assert auth.sign_in("trainee.one", next="//example.org/x").headers["Location"] == "/"


def test_pages_for_signed_in_users_send_guests_to_sign_in_and_back(client):
    response = client.get("/account/")
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/account/sign-in?next=")


def test_sign_out_ends_the_session(client, auth):
    auth.sign_up("trainee.one")
    assert auth.sign_out().status_code == 302
    assert client.get("/account/").status_code == 302


def test_sign_out_everywhere_ends_every_session_and_token(app):
    add_user(app, "trainee.one")
    phone, laptop = app.test_client(), app.test_client()
    AuthActions(phone).sign_in("trainee.one")
    AuthActions(laptop).sign_in("trainee.one")
    token = phone.post("/api/v1/tokens", json={"username": "trainee.one", "password": PASSWORD}).json["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    assert laptop.get("/api/v1/tokens", headers=bearer).status_code == 200
    response = phone.post("/account/sign-out-everywhere")
    assert response.status_code == 302 and response.headers["Location"] == "/account/sign-in"
    assert phone.get("/account/").status_code == 302
    assert laptop.get("/account/").status_code == 302
    assert app.test_client().get("/api/v1/tokens", headers=bearer).status_code == 401
    assert AuthActions(laptop).sign_in("trainee.one").status_code == 302  # the password still works


def test_change_password_keeps_this_session_and_ends_the_others(app):
    add_user(app, "trainee.one")
    phone, laptop = app.test_client(), app.test_client()
    AuthActions(phone).sign_in("trainee.one")
    AuthActions(laptop).sign_in("trainee.one")
    wrong = phone.post(
        "/account/password",
        data={"current": "nope nope", "password": "new secret!", "confirm": "new secret!"},
    )
    assert wrong.status_code == 400 and "The current password is not right." in wrong.get_data(as_text=True)
    done = phone.post(
        "/account/password", data={"current": PASSWORD, "password": "new secret!", "confirm": "new secret!"}
    )
    assert done.status_code == 302
    assert phone.get("/account/").status_code == 200
    assert laptop.get("/account/").status_code == 302
    assert AuthActions(app.test_client()).sign_in("trainee.one", "new secret!").status_code == 302
    assert AuthActions(app.test_client()).sign_in("trainee.one").status_code == 401


def test_one_time_code_sets_the_password_and_signs_in(app, client):
    user_id = add_user(app, "trainee.one")
    with app.app_context():
        code = Accounts(db.store().db, hasher=FAST_HASHER).make_code(user_id, None)
    assert "One-time code" in client.get("/account/code").get_data(as_text=True)
    bad = client.post(
        "/account/code",
        data={
            "username": "trainee.one",
            "code": "AAAA-BBBB-CCCC",
            "password": "new secret!",
            "confirm": "new secret!",
        },
    )
    assert bad.status_code == 400 and "the code has expired" in bad.get_data(as_text=True)
    good = client.post(
        "/account/code",
        data={"username": "trainee.one", "code": code, "password": "new secret!", "confirm": "new secret!"},
    )
    assert good.status_code == 302
    assert "Signed in as trainee.one." in client.get("/account/").get_data(as_text=True)
    again = app.test_client().post(
        "/account/code",
        data={"username": "trainee.one", "code": code, "password": "third one!", "confirm": "third one!"},
    )
    assert again.status_code == 400


def test_tokens_are_made_shown_once_and_revoked_on_the_account_page(app):
    client = signed_in(app, "trainee.one")
    page = client.post("/account/tokens", data={"label": "phone"}).get_data(as_text=True)
    token = re.search(r'id="new-token">(ct_[^<]+)<', page).group(1)
    bearer = {"Authorization": f"Bearer {token}"}
    assert app.test_client().get("/api/v1/tokens", headers=bearer).json["tokens"][0]["label"] == "phone"
    listed = client.get("/account/").get_data(as_text=True)
    assert token not in listed and "phone" in listed
    token_id = re.search(r"/account/tokens/(\d+)/revoke", listed).group(1)
    assert client.post(f"/account/tokens/{token_id}/revoke").status_code == 302
    assert app.test_client().get("/api/v1/tokens", headers=bearer).status_code == 401
    assert client.post(f"/account/tokens/{token_id}/revoke").status_code == 404


def test_a_guest_practises_at_once_and_keeps_it_on_sign_up(app, client, auth):
    from web_toys import toy_kinds

    with toy_kinds():
        drill = client.post("/api/v1/drills", json={"kind": "toy.amount", "level": 1}).json
        client.post(f"/api/v1/drills/{drill['id']}/answer", json={"answer": "0"})
        guest = client.get("/api/v1/trainee").json["id"]
        auth.sign_up("trainee.one")
        me = client.get("/api/v1/trainee").json
        assert me["id"] == guest and me["username"] == "trainee.one"
        assert client.get(f"/api/v1/drills/{drill['id']}").json["answered"] is True


def test_a_guest_who_signs_in_brings_the_practice_along(app, client, auth):
    from web_toys import toy_kinds

    user_id = add_user(app, "trainee.one")
    with toy_kinds():
        drill = client.post("/api/v1/drills", json={"kind": "toy.amount", "level": 1}).json
        client.post(f"/api/v1/drills/{drill['id']}/answer", json={"answer": "0"})
        auth.sign_in("trainee.one")
        assert client.get("/api/v1/trainee").json["id"] == user_id
        assert client.get(f"/api/v1/drills/{drill['id']}").json["answered"] is True


def test_an_unclaimed_account_cannot_sign_in_until_handed_over(app, client, auth):
    with app.app_context():
        Accounts(db.store().db, hasher=FAST_HASHER).create_user("trainee.one", None)
    assert auth.sign_in("trainee.one", "").status_code == 400
    assert auth.sign_in("trainee.one", "anything at all").status_code == 401


@pytest.mark.parametrize("lang", ["ka", "en", "ru"])
@pytest.mark.parametrize("url", ["/account/sign-in", "/account/sign-up", "/account/code"])
def test_account_pages_in_every_language(client, lang, url):
    client.post("/language", data={"lang": lang})
    page = client.get(url).get_data(as_text=True)
    assert f'<html lang="{lang}">' in page
    if lang == "ka":
        assert re.search("[\u10d0-\u10ff]{3}", page)
    if lang == "ru":
        assert re.search("[а-яА-Я]{3}", page)


def test_account_page_in_georgian(app):
    client = signed_in(app, "trainee.one")
    client.post("/language", data={"lang": "ka"})
    page = client.get("/account/").get_data(as_text=True)
    assert "Signed in as" not in page and "trainee.one" in page


def test_cli_adds_an_instructor_with_a_prompted_password(app):
    runner = app.test_cli_runner()
    result = runner.invoke(
        args=["user", "add", "teacher", "--role", "instructor"], input="a long secret\n" * 2
    )
    assert result.exit_code == 0, result.output
    assert "Added instructor teacher" in result.output
    assert result.output.count("Password") >= 1 and "a long secret" not in result.output
    client = app.test_client()
    assert AuthActions(client).sign_in("teacher").status_code == 302
    assert "Role: instructor." in client.get("/account/").get_data(as_text=True)


def test_cli_takes_the_password_from_the_environment_and_refuses_bad_ones(app):
    runner = app.test_cli_runner()
    ok = runner.invoke(args=["user", "add", "teacher"], env={"TRAINER_PASSWORD": "a long secret"})
    assert ok.exit_code == 0 and "Added trainee teacher" in ok.output
    taken = runner.invoke(args=["user", "add", "Teacher"], env={"TRAINER_PASSWORD": "a long secret"})
    assert taken.exit_code != 0 and "The username Teacher is taken" in taken.output
    short = runner.invoke(args=["user", "add", "other"], env={"TRAINER_PASSWORD": "short"})
    assert short.exit_code != 0 and "at least 8\u00a0characters" in short.output
    bad_role = runner.invoke(
        args=["user", "add", "x3x", "--role", "admin"], env={"TRAINER_PASSWORD": "a long secret"}
    )
    assert bad_role.exit_code != 0


def test_cli_role_code_and_list(app, client):
    runner = app.test_cli_runner()
    add_user(app, "trainee.one")
    assert (
        "trainee.one is now instructor."
        in runner.invoke(args=["user", "role", "trainee.one", "instructor"]).output
    )
    listed = runner.invoke(args=["user", "list"]).output
    assert re.search(r"trainee.one\s+instructor", listed)
    made = runner.invoke(args=["user", "code", "trainee.one"]).output
    code = re.search(r"([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})", made).group(1)
    data = {"username": "trainee.one", "code": code, "password": "new secret!", "confirm": "new secret!"}
    assert client.post("/account/code", data=data).status_code == 302
    assert runner.invoke(args=["user", "code", "nobody"]).exit_code != 0


def test_flask_cli_finds_the_app_factory(tmp_path):
    """The docs' command: `flask --app trainer.web user add ...` (the factory, real argon2)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "TRAINER_PASSWORD": "a long secret", "PYTHONPATH": str(root)}
    # The factory with a test database instead of instance/trainer.sqlite.
    target = f"trainer.web:create_app({{'DATABASE': {str(tmp_path / 'cli.sqlite')!r}}})"
    result = subprocess.run(
        [sys.executable, "-m", "flask", "--app", target, "user", "add", "teacher", "--role", "instructor"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "Added instructor teacher" in result.stdout
    app = make_app(TESTING=False, DATABASE=str(tmp_path / "cli.sqlite"), WTF_CSRF_ENABLED=False)
    assert AuthActions(app.test_client()).sign_in("teacher").status_code == 302
