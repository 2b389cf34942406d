"""Who is asking, as this request already knows it without the store: the signed-in account (the
bearer token's, set by `trainer.web.core.auth` before the view, else the session's) and the session's
guest. The web's door to the store (`trainer.web.core.db`) reads the caller here; `trainer.web.core.auth`
signs in, checks tokens and re-exports these names.
"""

from __future__ import annotations

from typing import Any

from flask import g, session
from flask_login import AnonymousUserMixin, UserMixin, current_user

from trainer.store.accounts import Role

GUEST_KEY = "anonymous_trainee_id"  # the same guest for the pages and the API


class Account(UserMixin):
    """The signed-in user as the pages see it (a snapshot of the `users` row)."""

    def __init__(self, row: dict[str, Any], session_key: str = "") -> None:
        self.id = int(row["id"])
        self.username = str(row["username"])
        self.display_name = str(row["display_name"])
        self.role = Role(row["role"])
        self.epoch = int(row["session_epoch"])
        self.session_key = session_key  # the server-side session's key ("" for a bearer token)

    def get_id(self) -> str:
        return f"{self.id}:{self.epoch}:{self.session_key}"

    @property
    def is_instructor(self) -> bool:
        return self.role is Role.INSTRUCTOR


class Guest(AnonymousUserMixin):
    is_instructor = False
    username = ""
    display_name = ""


def bearer_user() -> Account | None:
    """The user of this API call's bearer token (checked by the API before the view), if any."""
    found = g.get("bearer_user")
    return found if isinstance(found, Account) else None


def current() -> Account | None:
    """The signed-in user: the bearer token's on an API call that sends one, else the session's."""
    bearer = bearer_user()
    if bearer is not None:
        return bearer
    if g.get("bearer_only"):
        return None
    return current_user if current_user.is_authenticated else None  # type: ignore[return-value]


def user_id() -> int | None:
    user = current()
    return None if user is None else user.id


def forget_guest() -> None:
    session.pop(GUEST_KEY, None)


def guest_id() -> int | None:
    held = session.get(GUEST_KEY)
    return held if isinstance(held, int) and not isinstance(held, bool) else None
