"""Limits on failed password checks that slow a guesser without locking out an account's owner or a
class behind one address.

What is counted, in the database (`trainer.store.sign_in_failures`, shared by every worker): each
failure of a password check (a wrong password on the sign-in page or at `POST /api/v1/tokens`, a
wrong current password when changing it, a wrong one-time code).

- A **trusted device** is a browser that has proved the account's password before (signed up, signed
  in, changed the password or redeemed a code there): it holds a signed cookie (`trainer_device`,
  a year) with a random id per account. Its failures for that account count against that device
  alone, under the per-username budget, never against the account or the address: the owner's phone
  is not refused because someone else guessed at his account, nor because a classmate's laptop
  sprayed passwords from the school's address.
- Any other client's failures count against the address (`RATE_LIMIT_SIGN_IN_FAILURES`) and the
  username tried (`RATE_LIMIT_SIGN_IN_USER`).
- **Beyond a budget** a wrong password is answered 429 (with `Retry-After`) instead of 401, and a right
  one still signs in: the budget that someone else spent never refuses the owner's right password.
- **Beyond the ceiling** (`RATE_LIMIT_SIGN_IN_CEILING` times a budget, 3 by default) the password is
  not checked at all (429): so a guesser gets at most three budgets of guesses at one account (30 per
  5 minutes by default), whatever the number of workers, instead of as many as the server can hash.
  Only a client that is not a trusted device of the account can meet that refusal, and only while
  someone is guessing at that account (or from that address) at three times the budget.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import (
    Response,
    after_this_request,
    current_app,
    g,
    jsonify,
    make_response,
    render_template,
    request,
)
from flask_babel import gettext
from itsdangerous import BadSignature, URLSafeSerializer
from limits import parse_many

from trainer.store.sign_in_failures import SignInFailures
from trainer.store.usernames import username_key
from trainer.web.core import db, identity

DEVICE_COOKIE = "trainer_device"
DEVICE_DAYS = 365
DEVICES_KEPT = 8  # accounts remembered per browser (a shared family tablet)
DEFAULT_CEILING = 3


def client_address() -> str:
    return f"address:{request.remote_addr or 'unknown'}"


def username_tried() -> str:
    """The username key a password check is about (form or JSON), else the signed-in user's (a
    password change)."""
    body = request.get_json(silent=True) if request.is_json else None
    raw = body.get("username") if isinstance(body, dict) else request.form.get("username")
    if not isinstance(raw, str) or not raw.strip():
        user = identity.current()
        raw = user.username if user is not None else ""
    return username_key(raw.strip())[:100]


def too_many_requests(retry_after: int | None = None) -> Response:
    """The 429 answer: JSON under /api/, a page elsewhere."""
    message = gettext("Too many requests in a short time. Wait a little and try again.")
    if request.path.startswith("/api/"):
        response = jsonify(error=message, status=429)
    else:
        title = gettext("Too many requests")
        response = make_response(render_template("error.html", code=429, title=title, message=message))
    response.status_code = 429
    if retry_after is not None:
        response.headers["Retry-After"] = str(retry_after)
    return response


# Trusted devices --------------------------------------------------------------------------------


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.secret_key or "", salt="trainer-device")


def _account_tag(key: str) -> str:
    # The cookie is signed, not secret: it names accounts by a digest, not by their usernames.
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def trusted_devices() -> dict[str, str]:
    """The accounts (digests of username keys) this browser proved the password of, each with its
    device id."""
    raw = request.cookies.get(DEVICE_COOKIE)
    if not raw:
        return {}
    try:
        found = _serializer().loads(raw)
    except BadSignature:
        return {}
    if not isinstance(found, dict):
        return {}
    return {k: v for k, v in found.items() if isinstance(k, str) and isinstance(v, str)}


def proved(row: dict[str, Any]) -> None:
    """This request proved `row`'s password: the browser becomes a trusted device of the account."""
    key = _account_tag(username_key(str(row["username"])))
    devices = trusted_devices()
    device = devices.pop(key, None) or secrets.token_urlsafe(12)
    devices[key] = device  # newest last; the oldest beyond DEVICES_KEPT are forgotten
    kept = dict(list(devices.items())[-DEVICES_KEPT:])

    @after_this_request
    def remember(response: Response) -> Response:
        response.set_cookie(
            DEVICE_COOKIE,
            _serializer().dumps(kept),
            max_age=DEVICE_DAYS * 24 * 3600,
            httponly=True,
            samesite="Lax",
            secure=bool(current_app.config.get("SECURE_COOKIES")),
        )
        return response


# Budgets ----------------------------------------------------------------------------------------


def _budgets(config_key: str) -> list[tuple[int, int]]:
    """(failures allowed, window in seconds) of a limit such as "30 per minute;200 per hour"."""
    return [(item.amount, item.get_expiry()) for item in parse_many(str(current_app.config[config_key]))]


def counted_against() -> dict[str, list[tuple[int, int]]]:
    """The keys this attempt's failure counts against, each with its budgets."""
    tried = username_tried()
    device = trusted_devices().get(_account_tag(tried)) if tried else None
    if device is not None:
        return {f"device:{device}": _budgets("RATE_LIMIT_SIGN_IN_USER")}
    return {
        client_address(): _budgets("RATE_LIMIT_SIGN_IN_FAILURES"),
        f"username:{tried}": _budgets("RATE_LIMIT_SIGN_IN_USER"),
    }


def limit_failures(view: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a view that checks a password (and sets `g.failed_sign_in` when it fails)."""

    @wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        if request.method != "POST" or not current_app.config.get("RATELIMIT_ENABLED"):
            return view(*args, **kwargs)
        failures = SignInFailures(db.store().db)
        ceiling = int(current_app.config.get("RATE_LIMIT_SIGN_IN_CEILING", DEFAULT_CEILING))
        attempt = failures.attempt(counted_against(), ceiling)
        if attempt.refused_for is not None:
            return too_many_requests(attempt.refused_for)  # not checked: the ceiling's guesses are spent
        try:
            response = make_response(view(*args, **kwargs))
        except Exception:  # the API's 401 is raised (an ApiError), so is a page's abort
            if not g.get("failed_sign_in"):
                failures.succeeded(attempt)  # not a failed check (a bad request): not counted
                raise
            if attempt.beyond_for is None:
                raise
            return too_many_requests(attempt.beyond_for)
        if not g.get("failed_sign_in"):
            failures.succeeded(attempt)
            return response
        return response if attempt.beyond_for is None else too_many_requests(attempt.beyond_for)

    return guarded
