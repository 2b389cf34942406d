"""Security headers and cookie flags (Flask-Talisman) and rate limits (Flask-Limiter).

Headers on every response: a Content-Security-Policy that allows scripts, styles and images from the
app itself only (no inline script or style anywhere: the pages' scripts and styles are static files,
the table's positions and chip colours a generated stylesheet), `X-Content-Type-Options: nosniff`,
`X-Frame-Options: DENY` with `frame-ancestors 'none'`, `Referrer-Policy: same-origin`. The session
cookie is HttpOnly and SameSite=Lax, and Secure when `SECURE_COOKIES` is on (then HSTS is sent too).

Rate limits on what an outsider can hammer, each shared between the pages and the API:

- new accounts (`RATE_LIMIT_SIGN_UPS`, 120/minute and 1000/hour per client address): the sign-up
  page's POST and `POST /api/v1/users`;
- failed sign-ins (`RATE_LIMIT_SIGN_IN_FAILURES`, 30/minute and 200/hour per client address, and
  `RATE_LIMIT_SIGN_IN_USER`, 10 per 5 minutes per username tried; only failures count): the sign-in
  page, a password change, a one-time code and `POST /api/v1/tokens`; counted in the database, and
  never refusing an owner's right password for failures of others (`trainer.web.core.sign_in_limits`);
- new drills (`RATE_LIMIT_DRILLS`, 60/minute per trainee, else per address): practice, today's
  practice, sprint, quiz and assigned-quiz starts, `POST /api/v1/drills`, and the live table's new
  rounds and table tests (`POST /table/rounds`, `POST /table/tests`, `POST /api/v1/rounds`); a
  guest's trainee row is made by the first of these, so they also bound the guests an outsider can
  create;
- the advisor (`RATE_LIMIT_ADVISOR`, 30/minute per trainee, else per address): the advisor page and
  `POST /api/v1/advisor`.

Trainees are counted per trainee (the signed-in user, by session or API token, else the session's
guest) rather than per address because a whole class often shares one address (the school's). Over a
limit: 429 with `Retry-After`, JSON under /api/, a page elsewhere. Limits are off when `TESTING` unless
`RATELIMIT_ENABLED` is set; counters live in `RATELIMIT_STORAGE_URI` (`memory://`, per process, by
default); when that store is unreachable each process counts in its own memory until it is back.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, Response, current_app
from flask.typing import ResponseReturnValue
from flask_limiter import Limiter, RateLimitExceeded
from flask_talisman import Talisman
from limits.errors import ConfigurationError

from trainer.web.core import auth, sign_in_limits
from trainer.web.core.settings import SettingError
from trainer.web.core.sign_in_limits import client_address

CONTENT_SECURITY_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}

DEFAULT_LIMITS = {
    "RATE_LIMIT_SIGN_UPS": "120 per minute;1000 per hour",
    "RATE_LIMIT_SIGN_IN_FAILURES": "30 per minute;200 per hour",
    "RATE_LIMIT_SIGN_IN_USER": "10 per 5 minutes",
    "RATE_LIMIT_DRILLS": "60 per minute",
    "RATE_LIMIT_ADVISOR": "30 per minute",
}


def trainee_or_address() -> str:
    """The trainee asking (the signed-in user, by session or API token, else the session's guest),
    else the client's address."""
    user = auth.user_id()
    if user is not None:
        return f"user:{user}"
    guest = auth.guest_id()
    if guest is not None:
        return f"guest:{guest}"
    return client_address()


DRILL_STARTS = (
    "practice.new",
    "today.start",
    "sprints.start",
    "self_check.start",
    "quizzes.start",
    "api.create_drill",
)
ROUND_STARTS = ("table.start", "table.start_test", "api.create_round")  # a round is a drill too
PASSWORD_CHECKS = (
    "accounts.sign_in",
    "accounts.change_password",
    "accounts.redeem_code",
    "accounts.invitation",  # a guessed invitation code is a guessed password
    "api.new_token",
)

# limit config key -> (counted per, endpoints, methods, counted only when)
LIMITED: dict[
    str,
    tuple[Callable[[], str], tuple[str, ...], list[str] | None, Callable[[Response], bool] | None],
] = {
    "RATE_LIMIT_SIGN_UPS": (client_address, ("accounts.sign_up", "api.sign_up"), ["POST"], None),
    "RATE_LIMIT_DRILLS": (trainee_or_address, DRILL_STARTS + ROUND_STARTS, ["POST"], None),
    "RATE_LIMIT_ADVISOR": (trainee_or_address, ("reference.advisor", "api.advisor"), None, None),
}


def init_app(app: Flask) -> None:
    """Headers, cookie flags and limits for every view registered so far (call it last)."""
    secure = bool(app.config.get("SECURE_COOKIES"))
    Talisman(
        app,
        force_https=False,  # TLS is the proxy's business; it may end before the app
        strict_transport_security=secure,
        session_cookie_secure=secure,
        session_cookie_http_only=True,
        session_cookie_samesite="Lax",
        frame_options="DENY",
        content_security_policy=CONTENT_SECURITY_POLICY,
        referrer_policy="same-origin",
        x_content_type_options=True,
    )
    app.config["SESSION_COOKIE_SECURE"] = secure
    for key, value in DEFAULT_LIMITS.items():
        app.config.setdefault(key, value)
    # Times a sign-in budget beyond which no password is checked (trainer.web.core.sign_in_limits).
    app.config.setdefault("RATE_LIMIT_SIGN_IN_CEILING", sign_in_limits.DEFAULT_CEILING)
    app.config.setdefault("RATELIMIT_ENABLED", not app.testing)
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    # A shared store (Redis) that goes down must not stop a class: count in this process's memory
    # meanwhile (logged), and try the store again with growing pauses.
    app.config.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED", True)
    # One limiter per app: its counters and the views it wraps belong to that app alone.
    try:
        limiter = Limiter(key_func=trainee_or_address, app=app)
    except ConfigurationError as error:
        # An unknown scheme, or redis:// without the `redis` package: say so at start-up.
        raise SettingError(
            f"TRAINER_RATELIMIT_STORAGE {app.config['RATELIMIT_STORAGE_URI']!r} cannot be used: {error}"
        ) from error
    app.extensions["trainer_limiter"] = limiter  # the wrapped views hold it only weakly
    for endpoint in PASSWORD_CHECKS:  # failed password checks: counted in the database
        if endpoint in app.view_functions:
            app.view_functions[endpoint] = sign_in_limits.limit_failures(app.view_functions[endpoint])
    for key, (counted_per, endpoints, methods, only_when) in LIMITED.items():
        shared = limiter.shared_limit(
            _configured(key), scope=key.lower(), key_func=counted_per, methods=methods, deduct_when=only_when
        )
        for endpoint in endpoints:
            if endpoint in app.view_functions:
                app.view_functions[endpoint] = shared(app.view_functions[endpoint])
    app.register_error_handler(RateLimitExceeded, _too_many)


def _configured(key: str) -> Callable[[], str]:
    return lambda: str(current_app.config[key])


def _too_many(error: RateLimitExceeded) -> ResponseReturnValue:
    return sign_in_limits.too_many_requests()
