"""Everything the trainee's pages add to the app: languages, CSRF forms, error pages, blueprints."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response
from flask_wtf.csrf import generate_csrf

from trainer import shipped
from trainer.web.accounts import cli as account_cli
from trainer.web.core import auth, db, errors, i18n, local_time
from trainer.web.situations import drawing
from trainer.web.situations.answers import exchange_choices
from trainer.web.situations.catalog import game_title, rules_in_force, sprint_title
from trainer.web.situations.questions import amount_may_be_negative, short_question

CSRF_TIME_LIMIT = 12 * 3600  # seconds
TRANSLATIONS = shipped("translations")


def init_pages(app: Flask) -> None:
    from trainer.web.accounts import views as account
    from trainer.web.core import offline
    from trainer.web.groups import boards as group_boards  # noqa: F401
    from trainer.web.groups import enrolment as group_enrolment  # noqa: F401
    from trainer.web.groups import exports as group_exports  # noqa: F401
    from trainer.web.groups import pace as group_pace  # noqa: F401
    from trainer.web.groups import readiness as readiness_report  # noqa: F401
    from trainer.web.groups import time_zone as group_zone  # noqa: F401
    from trainer.web.groups import views as groups
    from trainer.web.live import views as live
    from trainer.web.practice import duels, progress, today
    from trainer.web.practice import home as pages
    from trainer.web.practice import self_check as quiz
    from trainer.web.practice import sprints as sprint
    from trainer.web.practice import views as practice
    from trainer.web.quizzes import comments as sitting_comments  # noqa: F401
    from trainer.web.quizzes import views as exams
    from trainer.web.reference import advisor as advisor_page  # noqa: F401
    from trainer.web.reference import views as reference
    from trainer.web.table import views as table

    # A trainee may leave a question open for a while; a form stays valid for a working shift.
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", CSRF_TIME_LIMIT)
    i18n.init_app(app, TRANSLATIONS)
    db.init_app(app)
    auth.init_app(app)
    account_cli.init_app(app)
    errors.init_app(app)
    local_time.init_filters(app)
    app.jinja_env.globals.update(
        drawing.TEMPLATE_GLOBALS,
        csrf_token=generate_csrf,
        exchange_choices=exchange_choices,
        short_question=short_question,
        amount_may_be_negative=amount_may_be_negative,
        rules_in_force=_rules_in_force,
        game_title=game_title,
        sprint_title=sprint_title,
        reason_label=today.reason_label,
        SUIT_WORDS=drawing.SUIT_WORDS,
        SUIT_NOUNS=drawing.SUIT_NOUNS,
    )
    for module in (
        pages,
        account,
        groups,
        exams,
        practice,
        sprint,
        quiz,
        progress,
        reference,
        table,
        today,
        offline,
        live,
        duels,
    ):
        app.register_blueprint(module.bp)
    app.add_url_rule("/table.css", "table_css", table_css)
    app.add_url_rule("/health", "health", health)


def health() -> Response:
    """A liveness answer that touches neither the database nor a template: what a load balancer asks,
    and the bare endpoint the page benchmarks (bench/pages.py) compare every page with."""
    response = Response("ok\n", mimetype="text/plain")
    response.cache_control.no_store = True
    return response


def table_css() -> Response:
    """Seat positions and chip colours as a stylesheet (no inline styles under the CSP)."""
    response = Response(drawing.table_stylesheet(), mimetype="text/css")
    response.cache_control.public = True
    response.cache_control.max_age = 3600
    return response


def init_api(app: Flask) -> None:
    """The JSON API: every area's routes on the one blueprint (importing a route module adds its
    routes), the database created and migrated once (`db.init_app`), and the app-wide handlers that
    answer /api/ errors in JSON."""
    from trainer.web.accounts import api as accounts_api  # noqa: F401
    from trainer.web.api import drills  # noqa: F401
    from trainer.web.api.shared import bp, register_error_handlers
    from trainer.web.groups import api as groups_api  # noqa: F401
    from trainer.web.table import api as table_api  # noqa: F401

    db.init_app(app)
    auth.init_app(app)
    app.register_blueprint(bp)
    register_error_handlers(app)


def _rules_in_force(kind_id: str, rules: str | None = None) -> dict[str, Any] | None:
    """`rules_in_force` for the templates: a question dealt under a group's edited copy shows its title."""
    return rules_in_force(kind_id, rules, db.houses())
