"""Failed sign-ins are rate-limited (Flask-Limiter): a wrong password on the sign-in page or at
`POST /api/v1/tokens`, a wrong current password when changing it, a wrong one-time code.

Only failures count (`g.failed_sign_in`, set by the views): a class signing in from the school's one
address is never slowed down by its own successes. Two limits, both checked before the view runs:
per username (`RATE_LIMIT_SIGN_IN_USER`, 10 failures per 5 minutes: guessing one account's password
is hopeless, and its owner waits five minutes at most) and per client address
(`RATE_LIMIT_SIGN_IN_ADDRESS`, 100 per hour: trying many usernames from one place). Over a limit: 429
with `Retry-After`, a page, or JSON under /api/. Limits are off when `TESTING` unless
`RATELIMIT_ENABLED` is set; counters live in `RATELIMIT_STORAGE_URI` (`memory://` by default: per
process).
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, current_app, g, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from flask_limiter import Limiter, RateLimitExceeded
from werkzeug.wrappers import Response

from trainer.store.accounts import username_key

DEFAULT_LIMITS = {
    "RATE_LIMIT_SIGN_IN_USER": "10 per 5 minutes",
    "RATE_LIMIT_SIGN_IN_ADDRESS": "100 per hour",
}
ENDPOINTS = ("account.sign_in", "account.redeem_code", "account.change_password", "api.new_token")


def _address() -> str:
    return f"address:{request.remote_addr or 'unknown'}"


def _username() -> str:
    """The username tried (form or JSON), else the signed-in user's (changing a password)."""
    body = request.get_json(silent=True) if request.is_json else None
    raw = body.get("username") if isinstance(body, dict) else request.form.get("username")
    if not isinstance(raw, str) or not raw.strip():
        from trainer.web.auth import current

        user = current()
        raw = user.username if user is not None else ""
    return f"user:{username_key(raw.strip())[:100]}"


def _failed(_response: Response) -> bool:
    return bool(g.get("failed_sign_in"))


def init_app(app: Flask) -> None:
    """Wrap the sign-in views (call after the blueprints are registered)."""
    for key, value in DEFAULT_LIMITS.items():
        app.config.setdefault(key, value)
    app.config.setdefault("RATELIMIT_ENABLED", not app.testing)
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)  # Retry-After on a 429
    limiter = Limiter(key_func=_address, app=app)
    app.extensions["trainer_sign_in_limiter"] = limiter  # the wrapped views hold it only weakly
    for key, counted_per in (
        ("RATE_LIMIT_SIGN_IN_USER", _username),
        ("RATE_LIMIT_SIGN_IN_ADDRESS", _address),
    ):
        shared = limiter.shared_limit(
            _configured(key), scope=key.lower(), key_func=counted_per, deduct_when=_failed
        )
        for endpoint in ENDPOINTS:
            if endpoint in app.view_functions:
                app.view_functions[endpoint] = shared(app.view_functions[endpoint])
    app.register_error_handler(RateLimitExceeded, _too_many)


def _configured(key: str) -> Callable[[], str]:
    return lambda: str(current_app.config[key])


def _too_many(_error: RateLimitExceeded) -> ResponseReturnValue:
    message = gettext("Too many failed sign-ins in a short time. Wait a few minutes and try again.")
    if request.path.startswith("/api/"):
        response = jsonify(error=message, status=429)
        response.status_code = 429
        return response
    title = gettext("Too many tries")
    return render_template("error.html", code=429, title=title, message=message), 429
