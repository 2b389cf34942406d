"""Shared by the account tests: sign-up and sign-in through the pages (flaskr's AuthActions), and an
instructor made the way docs/running-a-school.md says (the CLI)."""

from __future__ import annotations

from trainer.web.core import db

PASSWORD = "a long secret"


class AuthActions:
    def __init__(self, client):
        self.client = client

    def sign_up(self, username: str, password: str = PASSWORD, **extra):
        data = {"username": username, "password": password, "confirm": password, **extra}
        return self.client.post("/account/sign-up", data=data)

    def sign_in(self, username: str, password: str = PASSWORD, **extra):
        return self.client.post(
            "/account/sign-in", data={"username": username, "password": password, **extra}
        )

    def sign_out(self):
        return self.client.post("/account/sign-out")


def add_user(app, username: str, role: str = "trainee", password: str = PASSWORD) -> int:
    """An account made through the CLI, as an operator would."""
    result = app.test_cli_runner().invoke(
        args=["user", "add", username, "--role", role], env={"TRAINER_PASSWORD": password}
    )
    assert result.exit_code == 0, result.output
    with app.app_context():
        return int(db.store().db.execute("SELECT id FROM users WHERE username = ?", [username]).fetchone()[0])


def signed_in(app, username: str, role: str = "trainee"):
    """A test client signed in as a new user of this role."""
    add_user(app, username, role)
    client = app.test_client()
    assert AuthActions(client).sign_in(username).status_code == 302
    return client
