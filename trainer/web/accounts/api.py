"""API accounts: sign up (`POST /api/v1/users`), bearer tokens (`POST /api/v1/tokens`, list, revoke).

A token is made from the username and password and returned once; the store keeps only its digest.
Send it as `Authorization: Bearer <token>`. Signing out everywhere on the pages, changing the password
and setting one with a one-time code revoke every token of the account.
"""

from __future__ import annotations

from typing import Any

from flask import g, jsonify, url_for
from flask.typing import ResponseReturnValue

from trainer.store.accounts import AccountError
from trainer.web.api import schemas
from trainer.web.api.document import ANYONE, SIGNED_IN, link, operation
from trainer.web.api.shared import bp, fail, signed_in
from trainer.web.core import auth, sign_in_limits

ENGLISH = {
    "username_missing": "Give a username.",
    "username_length": "A username has {min} to {max} characters.",
    "username_letters": "A username may use letters, digits, dots, dashes and underscores, without spaces; "
    "it starts and ends with a letter or digit.",
    "username_taken": "The username {username} is taken.",
    "password_short": "A password has at least {min} characters.",
    "password_long": "A password has at most {max} characters.",
    "password_is_username": "The password must not be the username.",
}


def _refusal(error: AccountError) -> str:
    """The refusal's sentence: the English one above, else the pages' sentence in the language the
    request asks for (`Accept-Language`), as a common password or a look-alike username is said."""
    if error.reason in ENGLISH:
        return ENGLISH[error.reason].format(**error.params)
    return auth.say(error)


def _user_json(row: dict[str, Any]) -> dict[str, Any]:
    return {"id": row["id"], "username": row["username"], "role": row["role"]}


def _token_json(row: dict[str, Any]) -> dict[str, Any]:
    return {"id": row["id"], "label": row["label"] or "", "created_at": row["created_at"]}


@bp.post("/users")
@operation(
    "signUp",
    "Accounts",
    "Sign up a trainee account (a guest of this session keeps his practice in it).",
    body=schemas.Credentials,
    security=ANYONE,
    example={"username": "trainee.one", "password": "a long secret"},
    responses={
        201: (schemas.User, "The new account."),
        400: "Bad JSON, or a username or password that breaks the rules (named).",
        409: "The username is taken, or looks too much like one that is taken.",
        422: "The password is the username, or one of the most common passwords.",
    },
    links={
        201: {
            "SignIn": link(
                "createToken",
                "A bearer token for the new account.",
                body={"username": "$request.body#/username", "password": "$request.body#/password"},
            )
        }
    },
)
def sign_up(body: schemas.Credentials) -> ResponseReturnValue:
    """A new trainee account. A guest of this session (cookie) keeps his practice in it."""
    try:
        row = auth.accounts().sign_up(body.username, body.password, guest_id=auth.guest_id())
    except AccountError as error:
        # Taken (or drawn like a taken name): the state conflicts; the password equal to the username
        # or a common one: each field follows the document, the value cannot be (422); any other
        # refusal breaks the document's rules (400).
        status = {
            "username_taken": 409,
            "username_lookalike": 409,
            "password_is_username": 422,
            "password_common": 422,
        }.get(error.reason, 400)
        fail(status, _refusal(error))
    auth.forget_guest()
    sign_in_limits.proved(row)
    response = jsonify(_user_json(row))
    response.status_code = 201
    return response


@bp.post("/tokens")
@operation(
    "createToken",
    "Accounts",
    "A bearer token for a username and password (failed tries are rate-limited).",
    description="A token works until it is revoked: by DELETE /api/v1/tokens/{token_id}, by signing out "
    "everywhere, or by a new password (changed, or set with a one-time code).",
    body=schemas.TokenRequest,
    security=ANYONE,
    example={"username": "trainee.one", "password": "a long secret", "label": "results sheet"},
    location=True,
    responses={
        201: (schemas.NewToken, "The token (shown once); Location is where to revoke it."),
        400: "Bad JSON or a label that is not text.",
    },
    links={
        201: {
            "RevokeToken": link(
                "revokeToken",
                "Revoke it (with that token, or signed in as its user).",
                parameters={"token_id": "$response.body#/id"},
            )
        }
    },
)
def new_token(body: schemas.TokenRequest) -> ResponseReturnValue:
    """A bearer token for the username and password (shown once). Failed tries are rate-limited."""
    label = body.label
    row = auth.accounts().check_password(body.username, body.password)
    if row is None:
        g.failed_sign_in = True
        fail(401, "The username or the password is not right.")
    sign_in_limits.proved(row)
    token, token_row = auth.accounts().new_token(int(row["id"]), label.strip())
    response = jsonify(token=token, **_token_json(token_row), user=_user_json(row))
    response.status_code = 201
    response.headers["Location"] = url_for("api.revoke_token", token_id=token_row["id"])
    return response


@bp.get("/tokens")
@operation(
    "listTokens",
    "Accounts",
    "The caller's tokens that still work (never the tokens themselves).",
    security=SIGNED_IN,
    responses={200: (schemas.Tokens, "The tokens.")},
)
def list_tokens() -> ResponseReturnValue:
    """The caller's tokens that still work (never the tokens themselves)."""
    user = signed_in()
    live = [t for t in auth.accounts().tokens_of(user.id) if t["revoked_at"] is None]
    return jsonify(tokens=[_token_json(t) for t in live])


@bp.delete("/tokens/<int:token_id>")
@operation(
    "revokeToken",
    "Accounts",
    "Revoke one of the caller's tokens (the one in use too).",
    security=SIGNED_IN,
    responses={204: (None, "Revoked."), 404: "The caller has no such token that still works."},
)
def revoke_token(token_id: int) -> ResponseReturnValue:
    """Revoke one of the caller's tokens (the one in use too); another user's token is a 404."""
    user = signed_in()
    if not auth.accounts().revoke_token(user.id, token_id):
        fail(404, f"You have no token {token_id} that still works.")
    return "", 204
