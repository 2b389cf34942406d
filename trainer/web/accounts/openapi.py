"""The accounts part of the OpenAPI document: sign-up, bearer tokens and their security scheme.

`trainer.web.api.openapi.document` merges `paths()` and `SCHEMAS` in, and gives every operation its 401
(a request that sends a bad bearer token is refused whatever it asks for).
"""

from __future__ import annotations

from typing import Any

from trainer.store.accounts import PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN
from trainer.web.api.parts import UNAUTHORIZED
from trainer.web.api.parts import error as _error
from trainer.web.api.parts import json_body as _body
from trainer.web.api.parts import json_response as _json
from trainer.web.api.parts import ref as _ref

BEARER: dict[str, list[str]] = {"bearer": []}
SESSION: dict[str, list[str]] = {"session": []}
# Most routes serve guests too: credentials are optional there (`{}` means "none").
OPTIONAL = [{}, BEARER, SESSION]
SIGNED_IN = [BEARER, SESSION]

SECURITY_SCHEMES = {
    "bearer": {
        "type": "http",
        "scheme": "bearer",
        "description": "A token from POST /api/v1/tokens: `Authorization: Bearer <token>`. Without one "
        "the caller is the user signed in on the pages (session cookie), else the session's guest.",
    },
    "session": {
        "type": "apiKey",
        "in": "cookie",
        "name": "session",
        "description": "The pages' session cookie: the signed-in user, or the session's guest.",
    },
}

# What `clean_username` keeps: a letter or digit of any script at both ends, letters, digits and . _ -
# between, 3 to 32 in all, whitespace around it trimmed (Python `re` classes: \w is Unicode).
_USERNAME_PATTERN = rf"^\s*[^\W_][\w.-]{{{USERNAME_MIN - 2},{USERNAME_MAX - 2}}}[^\W_]\s*$"
_CREDENTIALS = {
    "type": "object",
    "required": ["username", "password"],
    "properties": {
        "username": {
            "type": "string",
            "pattern": _USERNAME_PATTERN,
            "description": f"{USERNAME_MIN} to {USERNAME_MAX} letters and digits of any script, with . _ - "
            "between; the pattern is read as Python's `re` reads it (see the document's description).",
            "examples": ["nino"],
        },
        "password": {
            "type": "string",
            "minLength": PASSWORD_MIN,
            "maxLength": PASSWORD_MAX,
            "description": "Not the username (422 when it is).",
        },
    },
}

SCHEMAS: dict[str, Any] = {
    "User": {
        "type": "object",
        "required": ["id", "username", "role"],
        "properties": {
            "id": {"type": "integer", "description": "Also the user's trainee id."},
            "username": {"type": "string"},
            "role": {"enum": ["trainee", "instructor"]},
        },
    },
    "Token": {
        "type": "object",
        "required": ["id", "label", "created_at"],
        "properties": {
            "id": {"type": "integer"},
            "label": {"type": "string"},
            "created_at": {"type": "string", "format": "date-time"},
        },
    },
    "NewToken": {
        "type": "object",
        "required": ["token", "id", "label", "created_at", "user"],
        "properties": {
            "token": {"type": "string", "description": "Shown once; only its digest is stored."},
            "id": {"type": "integer"},
            "label": {"type": "string"},
            "created_at": {"type": "string", "format": "date-time"},
            "user": _ref("User"),
        },
    },
}

_TOKEN_ID = {"name": "token_id", "in": "path", "required": True, "schema": {"type": "integer"}}


def paths() -> dict[str, Any]:
    return {
        "/api/v1/users": {
            "post": {
                "summary": "Sign up a trainee account (a guest of this session keeps his practice in it).",
                "security": [{}],
                "requestBody": _body(_CREDENTIALS),
                "responses": {
                    "201": _json(_ref("User"), "The new account."),
                    "400": _error("Bad JSON, or a username or password that breaks the rules (named)."),
                    "409": _error("The username is taken, or looks too much like one that is taken."),
                    "422": _error("The password is the username, or one of the most common passwords."),
                },
            }
        },
        "/api/v1/tokens": {
            "post": {
                "summary": "A bearer token for a username and password (failed tries are rate-limited).",
                "description": "A token works until it is revoked: by DELETE /api/v1/tokens/{token_id}, by "
                "signing out everywhere, or by a new password (changed, or set with a one-time code).",
                "security": [{}],
                "requestBody": _body(
                    {
                        **_CREDENTIALS,
                        "properties": {
                            **_CREDENTIALS["properties"],
                            "label": {
                                "type": "string",
                                "description": "A name for the token; kept to its first 60 characters "
                                "(a longer one is cut, not refused).",
                            },
                        },
                    }
                ),
                "responses": {
                    "201": {
                        **_json(_ref("NewToken"), "The token (shown once); Location is where to revoke it."),
                        "headers": {"Location": {"schema": {"type": "string"}}},
                    },
                    "400": _error("Bad JSON or a label that is not text."),
                    "401": UNAUTHORIZED,
                },
            },
            "get": {
                "summary": "The caller's tokens that still work (never the tokens themselves).",
                "security": SIGNED_IN,
                "responses": {
                    "200": _json(
                        {
                            "type": "object",
                            "required": ["tokens"],
                            "properties": {"tokens": {"type": "array", "items": _ref("Token")}},
                        },
                        "The tokens.",
                    ),
                },
            },
        },
        "/api/v1/tokens/{token_id}": {
            "delete": {
                "summary": "Revoke one of the caller's tokens (the one in use too).",
                "security": SIGNED_IN,
                "parameters": [_TOKEN_ID],
                "responses": {
                    "204": {"description": "Revoked."},
                    "404": _error("The caller has no such token that still works."),
                },
            }
        },
    }
