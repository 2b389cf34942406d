"""Who is asking: Flask-Login sessions for the pages, bearer tokens for the API, guests for both.

- A signed-in user's session holds "<user id>:<session epoch>:<session key>" as its login id. The key
  names a server-side session (`sessions` table), checked on every request: sign-out ends it, and it
  lapses after `SESSION_IDLE_MINUTES` without a request or `SESSION_MAX_HOURS` after sign-in, so a
  copy of the cookie replayed afterwards is signed out. Raising the epoch in the store (sign out
  everywhere, a new password) makes every older session's id stop matching.
- `Authorization: Bearer <token>` authenticates an API call (`api_user`); it wins over a cookie.
- A guest is a trainee row without an account, remembered in the session (`GUEST_KEY`); it is made
  only by a real action (a POST), and becomes the account on sign-up.

Store refusals come as `AccountError` reason codes; `say` turns them into a sentence in the user's
language, so every sentence is one message written here. Who is asking as the request already knows it
(no store) is `trainer.web.core.identity`, re-exported here; `trainer.web.core.db` reads it from there, so the
door to the store does not import this module back.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from functools import wraps
from typing import Any, TypeVar

from flask import Flask, abort, current_app, g, redirect, request, session, url_for
from flask_babel import gettext
from flask_login import LoginManager, current_user, login_user, logout_user
from werkzeug.wrappers import Response

from trainer.store import NotFoundError
from trainer.store.accounts import FAST_HASHER, HASHER, AccountError, Accounts
from trainer.store.invitations import Invitations
from trainer.web.core import db
from trainer.web.core.identity import GUEST_KEY as GUEST_KEY
from trainer.web.core.identity import Account as Account
from trainer.web.core.identity import Guest as Guest
from trainer.web.core.identity import bearer_user as bearer_user
from trainer.web.core.identity import current as current
from trainer.web.core.identity import forget_guest as forget_guest
from trainer.web.core.identity import guest_id as guest_id
from trainer.web.core.identity import user_id as user_id

F = TypeVar("F", bound=Callable[..., Any])
DEFAULT_IDLE_MINUTES = 240  # a session unused for four hours ends (a shift's break, not a night)
DEFAULT_MAX_HOURS = 24  # and any session ends a day after sign-in


def accounts() -> Accounts:
    """The accounts of this request's database (through the web's one door to the store)."""
    if "trainer_accounts" not in g:
        fast = current_app.config.get("FAST_PASSWORD_HASHING", False)
        g.trainer_accounts = Accounts(db.store().db, hasher=FAST_HASHER if fast else HASHER)
    held: Accounts = g.trainer_accounts
    return held


def invitations() -> Invitations:
    """The invitations of this request's database, with the accounts' hasher."""
    return Invitations(db.store().db, accounts())


def session_limits() -> tuple[timedelta, timedelta]:
    """How long a session lasts without a request, and at most after sign-in (the settings)."""
    config = current_app.config
    return (
        timedelta(minutes=config.get("SESSION_IDLE_MINUTES", DEFAULT_IDLE_MINUTES)),
        timedelta(hours=config.get("SESSION_MAX_HOURS", DEFAULT_MAX_HOURS)),
    )


def _load_user(login_id: str) -> Account | None:
    user_id, _, rest = str(login_id).partition(":")
    epoch, _, key = rest.partition(":")
    try:
        row = accounts().user(int(user_id))
    except (ValueError, NotFoundError):
        return None
    if str(row["session_epoch"]) != epoch or row["password_hash"] is None:
        return None  # signed out everywhere since, or the account is waiting for its hand-over
    idle, absolute = session_limits()
    if not accounts().session_alive(int(row["id"]), key, idle=idle, absolute=absolute):
        return None  # signed out, idle too long, or too old: a replayed cookie gets nothing
    return Account(row, key)


def start_session(row: dict[str, Any]) -> Account:
    """A new server-side session for this browser, signed in as `row` (the cookie names it)."""
    account = Account(row, accounts().open_session(int(row["id"])))
    login_user(account)
    session.permanent = True
    return account


def end_session() -> None:
    """Sign this browser out, on the server too: a copy of its cookie no longer signs in."""
    if current_user.is_authenticated:
        accounts().end_session(getattr(current_user, "session_key", ""))
    logout_user()


def init_app(app: Flask) -> None:
    """Flask-Login for the app (once, whether the pages or only the API are set up)."""
    if "login_manager" in app.extensions or hasattr(app, "login_manager"):
        return
    manager = LoginManager(app)
    manager.user_loader(_load_user)
    manager.anonymous_user = Guest
    manager.login_view = "accounts.sign_in"
    manager.unauthorized_handler(_unauthorized)
    # Flask-Login's own "strong" protection would sign users out when a phone changes networks;
    # sessions are ended on purpose instead (sign out everywhere, new password).
    manager.session_protection = "basic"
    # The cookie itself does not outlive the server-side session's absolute limit.
    app.config["PERMANENT_SESSION_LIFETIME"] = timedelta(
        hours=app.config.get("SESSION_MAX_HOURS", DEFAULT_MAX_HOURS)
    )
    app.jinja_env.globals.update(current_user=current_user)


def _unauthorized() -> Response:
    if request.path.startswith("/api/"):
        abort(401, description=gettext("Sign in first, or send an API token."))
    back = request.full_path if request.method == "GET" else request.referrer or url_for("home.home")
    return redirect(url_for("accounts.sign_in", next=back))


def authenticate_bearer(header: str) -> Account | None:
    """The user of an `Authorization: Bearer <token>` header (and remember it for this request);
    None for a malformed header or a token that is unknown or revoked."""
    scheme, _, token = header.strip().partition(" ")
    g.bearer_only = True  # a request that sends a token is judged by the token alone, never the cookie
    if scheme.lower() != "bearer" or not token.strip():
        return None
    found = accounts().user_for_token(token.strip())
    if found is None:
        return None
    user = Account(found[0])
    g.bearer_user, g.bearer_token_id = user, found[1]
    return user


def instructor_required(view: F) -> F:
    """Pages of the instructor's desk: sign in first; a trainee gets 403."""

    @wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        if current() is None:
            return current_app.login_manager.unauthorized()  # type: ignore[attr-defined]
        if not current_user.is_instructor:
            abort(403, description=gettext("This page is for instructors."))
        return view(*args, **kwargs)

    return guarded  # type: ignore[return-value]


def say(error: AccountError) -> str:
    """The sentence for a store refusal, in the user's language."""
    p = error.params
    reason = error.reason
    if reason == "username_missing":
        return gettext("Choose a username.")
    if reason == "username_length":
        return gettext("A username has %(min)s to %(max)s\u00a0characters.", min=p["min"], max=p["max"])
    if reason == "username_letters":
        return gettext(
            "A username may use letters, digits, dots, dashes and underscores, without spaces; "
            "it starts and ends with a letter or digit."
        )
    if reason == "username_taken":
        return gettext("The username %(username)s is taken. Choose another.", username=p["username"])
    if reason == "username_lookalike":
        return gettext(
            "The username %(username)s looks too much like one that is taken. Choose another.",
            username=p["username"],
        )
    if reason == "password_common":
        return gettext("This password is one of the most common ones and easy to guess. Choose another.")
    if reason == "password_short":
        return gettext("A password has at least %(min)s\u00a0characters.", min=p["min"])
    if reason == "password_long":
        return gettext("A password has at most %(max)s\u00a0characters.", max=p["max"])
    if reason == "password_is_username":
        return gettext("The password must not be the username.")
    if reason == "password_wrong":
        return gettext("The current password is not right.")
    if reason == "code_wrong":
        return gettext(
            "The username or the code is not right, or the code has expired. "
            "Ask your instructor for a new code."
        )
    if reason == "group_name_missing":
        return gettext("Give the group a name.")
    if reason == "group_name_long":
        return gettext("A group name has at most %(max)s\u00a0characters.", max=p["max"])
    if reason == "join_code_wrong":
        return gettext("There is no group with this code. Check it with your instructor.")
    if reason == "not_instructor":
        return gettext("Only instructors make groups.")
    if reason == "code_not_allowed":
        return gettext(
            "Only the instructor of every group this trainee is in can give him a one-time code. "
            "He can leave the other groups, or an administrator can make the code."
        )
    if reason == "invitation_wrong":
        return gettext(
            "This code is not right, was used already or has expired. Ask your instructor for a new slip."
        )
    if reason == "invitation_trainees_only":
        return gettext("Only a trainee joins a group with an invitation code.")
    if reason == "invitation_not_yours":
        return gettext("There is no such group.")
    if reason == "class_list_empty":
        return gettext("The list has no names. Put one name on each line.")
    if reason == "class_list_long":
        return gettext("A list has at most %(max)s names. Split the class into several lists.", max=p["max"])
    if reason == "class_list_name_long":
        return gettext(
            "The name on line %(line)s is longer than %(max)s\u00a0characters.", line=p["line"], max=p["max"]
        )
    if reason == "class_list_name_letters":
        return gettext(
            "The name on line %(line)s has no letters, or has signs a name cannot have.", line=p["line"]
        )
    if reason == "class_list_encoding":
        return gettext(
            "The file cannot be read. Save it as %(encoding)s text (%(txt)s or %(csv)s) and choose it again.",
            encoding="UTF-8",
            txt=".txt",
            csv=".csv",
        )
    if reason == "class_list_big":
        return gettext("The file is larger than %(kib)s kilobytes.", kib=p["kib"])
    if reason == "guest_taken":
        return gettext("This guest practice already belongs to an account.")
    return gettext("This could not be done. Please try again.")
