"""What every JSON API route shares: the `api` blueprint, the JSON error contract, the request body,
the caller's token and who may choose a seed. The route modules (`api`, `api_accounts`, `groups_api`,
`rounds_api`) import from here, never from one another.

Every error is JSON `{"error": message, "status": code}`, bad JSON a 400, a body nested deeper than
`MAX_JSON_DEPTH` a 400 before anything recurses, a bug still a JSON 500 under /api/.
"""

from __future__ import annotations

import json
from typing import Any, NoReturn

from flask import Blueprint, Flask, jsonify, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException, InternalServerError, default_exceptions

from trainer.web.core import auth
from trainer.web.core.errors import BEARER_CHALLENGE, json_error

bp = Blueprint("api", __name__, url_prefix="/api/v1")


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def fail(status: int, message: str) -> NoReturn:
    raise ApiError(status, message)


def refuse_chosen_seed(seed: Any) -> None:
    """403 for a seed chosen by anyone but an instructor: a known seed replays a known question, so
    trainees and guests always get one the server draws (instructors fix seeds for their quizzes)."""
    user = auth.current()
    if seed is not None and (user is None or not user.is_instructor):
        fail(403, "Only instructors may choose a seed; leave it out and the server draws one.")


@bp.errorhandler(ApiError)
def _api_error(error: ApiError) -> ResponseReturnValue:
    headers = BEARER_CHALLENGE if error.status == 401 else {}
    return jsonify(error=error.message, status=error.status), error.status, headers


@bp.errorhandler(HTTPException)
def _http_error(error: HTTPException) -> ResponseReturnValue:
    return json_error(error)


def _app_http_error(error: HTTPException) -> ResponseReturnValue:
    """Errors of requests no blueprint took (unknown paths, wrong methods): JSON under /api/."""
    return json_error(error) if request.path.startswith("/api/") else error


@bp.before_request
def _bearer_token() -> None:
    """A request with an Authorization header is judged by its token alone: a bad one is a 401."""
    header = request.headers.get("Authorization")
    if header is not None and auth.authenticate_bearer(header) is None:
        fail(401, "The API token is not valid: it is mistyped, revoked, or not a Bearer token.")


# By status code as well: the pages register HTML handlers for some codes (404, 413, ...), and Flask
# prefers a handler for the exact code over this blueprint's catch-all. 429 keeps the app's own handler
# (JSON here too, with a translated sentence).
for _code in default_exceptions:
    if _code != 429:
        bp.register_error_handler(_code, _http_error)


def register_error_handlers(app: Flask) -> None:
    """The app-wide handlers: errors no blueprint took (unknown paths, wrong methods) and bugs answer
    in JSON under /api/."""
    app.register_error_handler(HTTPException, _app_http_error)
    app.register_error_handler(InternalServerError, _server_error)


def signed_in() -> auth.Account:
    """The signed-in user (bearer token or session), else a 401."""
    user = auth.current()
    if user is None:
        fail(401, "Send an API token (Authorization: Bearer <token>) or sign in.")
    return user


def _server_error(error: InternalServerError) -> ResponseReturnValue:
    """A bug under /api/ still answers in JSON (the pages keep the plain error page)."""
    if not request.path.startswith("/api/"):
        return error
    return jsonify(
        error="Something went wrong on the server. Try again; if it persists, tell your instructor.",
        status=500,
    ), 500


MAX_JSON_DEPTH = 32  # far beyond any request here; deeper bodies are refused before anything recurses


def json_body() -> dict[str, Any]:
    if not request.is_json:
        fail(415, "Send a JSON object with Content-Type: application/json.")
    data = request.get_data()  # a body over MAX_CONTENT_LENGTH stops here with 413, not as "not JSON"
    try:
        body = json.loads(data, parse_float=_number)
    except RecursionError:
        fail(400, f"The JSON is nested too deeply: at most {MAX_JSON_DEPTH} levels.")
    except ValueError:
        fail(400, "The request body is not valid JSON: send a JSON object.")
    if not isinstance(body, dict):
        fail(400, "The request body must be a JSON object.")
    if _depth(body) > MAX_JSON_DEPTH:
        fail(400, f"The JSON is nested too deeply: at most {MAX_JSON_DEPTH} levels.")
    return body


def _number(text: str) -> int | float:
    """A JSON number with a fraction: 1323.0 is the integer 1323, as JSON Schema (and the document)
    counts it; 1.5 stays a float, which no integer field takes."""
    value = float(text)
    return int(value) if value.is_integer() else value


def _depth(value: Any) -> int:
    """How deeply lists and objects nest, counted without recursion (a deep body must not crash it)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            if level <= MAX_JSON_DEPTH:
                stack.extend(
                    (child, level + 1) for child in (item.values() if isinstance(item, dict) else item)
                )
    return deepest
