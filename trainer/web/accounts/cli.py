"""`flask --app trainer.web user ...`: accounts from the command line (the first instructor is made here).

flask --app trainer.web user add USERNAME --role instructor   # asks for the password twice
TRAINER_PASSWORD=... flask --app trainer.web user add USERNAME  # for scripts: no prompt
flask --app trainer.web user code USERNAME                      # a one-time code to set a password
flask --app trainer.web user role USERNAME instructor
flask --app trainer.web user list
"""

from __future__ import annotations

import os
from typing import Any

import click
from flask import Flask, current_app
from flask.cli import AppGroup

from trainer.store import NotFoundError
from trainer.store.accounts import CODE_DAYS, AccountError, Role
from trainer.web.core.auth import accounts, say

user = AppGroup("user", help="Add accounts, give roles and one-time codes.")
ROLES = click.Choice([str(r) for r in Role])


def _explain(error: AccountError) -> click.ClickException:
    # The sentences are the pages' own messages, in English (no browser language here).
    with current_app.test_request_context():
        return click.ClickException(say(error))


def _user(username: str) -> dict[str, Any]:
    try:
        return accounts().user_named(username)
    except NotFoundError:
        raise click.ClickException(f"There is no user {username!r}.") from None


@user.command("add")
@click.argument("username")
@click.option("--role", type=ROLES, default=str(Role.TRAINEE), show_default=True)
@click.option("--name", "display_name", default=None, help="Name shown to instructors (default: username).")
def add(username: str, role: str, display_name: str | None) -> None:
    """Add an account. The password comes from TRAINER_PASSWORD, or is asked for (twice)."""
    password = os.environ.get("TRAINER_PASSWORD")
    if not password:
        password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    try:
        row = accounts().create_user(username, password, role=role, display_name=display_name)
    except AccountError as error:
        raise _explain(error) from None
    click.echo(f"Added {row['role']} {row['username']} (id {row['id']}).")


@user.command("code")
@click.argument("username")
def code(username: str) -> None:
    """Print a one-time code with which USERNAME sets a new password at /account/code."""
    row = _user(username)
    made = accounts().make_code(int(row["id"]), None)
    click.echo(f"One-time code for {row['username']}: {made} (valid {CODE_DAYS} days, once)")


@user.command("role")
@click.argument("username")
@click.argument("role", type=ROLES)
def set_role(username: str, role: str) -> None:
    """Make USERNAME a trainee or an instructor."""
    row = _user(username)
    accounts().set_role(int(row["id"]), role)
    click.echo(f"{row['username']} is now {role}.")


@user.command("list")
def list_users() -> None:
    """Every account: id, username, role, and whether it still waits for its hand-over."""
    for row in accounts().db.query("SELECT id, username, role, password_hash FROM users ORDER BY id"):
        waiting = "  (no password yet: give a one-time code)" if row["password_hash"] is None else ""
        click.echo(f"{row['id']:>6}  {row['username']:<32} {row['role']}{waiting}")


def init_app(app: Flask) -> None:
    app.cli.add_command(user)
