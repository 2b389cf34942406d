"""Everything the trainee's pages add to the app: languages, CSRF forms, error pages, blueprints."""

from __future__ import annotations

from flask import Flask, Response
from flask_wtf.csrf import generate_csrf

from trainer import shipped
from trainer.web import account_cli, auth, db, drawing, errors, i18n, local_time
from trainer.web.answer_input import exchange_choices
from trainer.web.catalog import game_title, rules_in_force, sprint_title
from trainer.web.questions import amount_may_be_negative, short_question

CSRF_TIME_LIMIT = 12 * 3600  # seconds
TRANSLATIONS = shipped("translations")


def init_pages(app: Flask) -> None:
    from trainer.web import (  # noqa: F401
        account,
        advisor_page,
        exams,
        group_exports,
        group_zone,
        groups,
        offline,
        pages,
        practice,
        progress,
        quiz,
        readiness_report,
        reference,
        sitting_comments,
        sprint,
        table,
        today,
    )

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
        rules_in_force=rules_in_force,
        game_title=game_title,
        sprint_title=sprint_title,
        reason_label=today.reason_label,
        SUIT_WORDS=drawing.SUIT_WORDS,
        SUIT_NOUNS=drawing.SUIT_NOUNS,
    )
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
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
