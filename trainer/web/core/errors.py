"""Error pages: a clear sentence in the trainee's language, the right status, never a stack trace."""

from __future__ import annotations

from flask import Flask, Response, abort, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from trainer.web.core import kept

BEARER_CHALLENGE = {"WWW-Authenticate": 'Bearer realm="api"'}

# Statuses that get their own page; the API answers its own errors in JSON.
HANDLED = (400, 403, 404, 405, 409, 413, 415)


def _title(code: int) -> str:
    titles = {
        400: gettext("This form could not be read"),
        403: gettext("Not allowed"),
        404: gettext("Page not found"),
        405: gettext("This page cannot be used like that"),
        409: gettext("Already answered"),
        413: gettext("Too much data"),
        415: gettext("This form could not be read"),
    }
    return titles.get(code, gettext("Something went wrong"))


def _default_message(code: int) -> str:
    messages = {
        400: gettext(
            "The page sent something the trainer cannot use. Your progress is safe: go back and try again."
        ),
        403: gettext("You may not open this page."),
        404: gettext("There is no such page. Use the menu to find what you need."),
        405: gettext("Use the buttons on the page instead."),
        409: gettext("This question was already answered; the first answer counts."),
        413: gettext("The form sent too much data."),
        415: gettext("This page takes a filled-in form. Programs use the JSON API under /api/v1/."),
    }
    return messages.get(code, gettext("Please try again."))


def render_error(error: HTTPException) -> ResponseReturnValue:
    if request.path.startswith("/api/"):
        return json_error(error)  # the JSON API's own format, also for paths no route took
    code = error.code or 500
    # A view that knows better passes a translated sentence as the description.
    described = error.description if isinstance(error.description, str) else ""
    generic = type(error).description
    message = described if described and described != generic else _default_message(code)
    if kept.is_kept():  # the phone's queue reads the sentence, not a page
        return kept.reply(message, recorded=False, status=code)
    return render_template("error.html", code=code, title=_title(code), message=message), code


def render_csrf_error(error: CSRFError) -> tuple[str, int] | CSRFError:
    if request.path.startswith("/api/"):
        return error
    message = gettext(
        "The form has expired or was changed (security check failed). Your progress is safe: "
        "reload the page and answer again."
    )
    if kept.is_kept():
        return kept.reply(message, recorded=False, status=400)
    return render_template("error.html", code=400, title=_title(400), message=message), 400


def refuse_json_on_pages() -> None:
    """The pages read forms only: Flask-WTF would otherwise fill a form from a JSON body, where a number
    or a list in place of a text field, or JSON nested a thousand deep, breaks the validators (a 500)."""
    if request.method == "POST" and request.is_json and not request.path.startswith("/api/"):
        abort(415)


def init_app(app: Flask) -> None:
    app.before_request(refuse_json_on_pages)
    for code in HANDLED:
        app.register_error_handler(code, render_error)
    app.register_error_handler(CSRFError, render_csrf_error)


def json_error(error: HTTPException) -> Response:
    """An HTTP error under /api/ as the document promises: `{"error", "status"}`, its headers kept.

    Paths no route matches answer here too (the app's handlers send /api/ errors here), so that the
    URL map alone decides the methods a path allows: OPTIONS and 405's Allow list only those."""
    code = error.code or 500
    message = error.description if error.description != type(error).description else None
    if request.url_rule is None and code == 404:
        message = f"There is no API route {request.path}; GET /api/v1/openapi.json lists them."
    elif request.url_rule is None and code == 405:
        allowed = sorted(set(getattr(error, "valid_methods", None) or ()) - {"HEAD", "OPTIONS"})
        message = f"Use {' or '.join(allowed)} on {request.path}."
    response = jsonify(error=message or error.description or error.name, status=code)
    response.status_code = code
    for name, value in error.get_headers():
        if name.lower() != "content-type":
            response.headers[name] = value
    if code == 401:
        response.headers.update(BEARER_CHALLENGE)
    return response
