"""A phone keeps the app: the favicon, the web app manifest, and a service worker that keeps the
reference pages and the last drills opened, so they open without a network (`static/js/sw.js`).

The worker is served from the site's root so that its scope is the whole site; it caches only pages
that show nothing private (the reference) and the trainee's own drill pages, never the API, accounts,
groups or exams, and it never answers a POST (an answer needs the server): a practice answer whose
post fails on the way is sent back to its question with `#kept`, where `static/js/answer-queue.js`
keeps it and sends it when the server answers again.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, render_template, send_from_directory, url_for
from flask_babel import gettext

from trainer.games import GAMES

bp = Blueprint("offline", __name__)

THEME = "#0b6138"  # the felt green of the icon


@bp.get("/favicon.ico")
def favicon() -> Response:
    """Browsers ask for /favicon.ico by themselves: the same drawing as the page's icon."""
    response = send_from_directory(
        current_app.static_folder or "static",
        "icons/icon.svg",
        mimetype="image/svg+xml",
        max_age=7 * 24 * 3600,
    )
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    response = jsonify(
        {
            "name": gettext("Croupier Trainer"),
            "short_name": gettext("Croupier Trainer"),
            "description": gettext(
                "Drills for Russian poker, Omaha and painted poker: pick a game and a drill, answer, see why."
            ),
            "start_url": url_for("home.home"),
            "scope": "/",
            "display": "standalone",
            "background_color": "#ffffff",
            "theme_color": THEME,
            "icons": [
                {
                    "src": url_for("static", filename="icons/icon.svg"),
                    "sizes": "any",
                    "type": "image/svg+xml",
                    "purpose": "any",
                }
            ],
        }
    )
    response.mimetype = "application/manifest+json"
    return response


def kept_pages() -> list[str]:
    """What the worker stores when it is installed: the reference pages, the offline page and assets."""
    pages = [
        url_for("reference.index"),
        url_for("reference.payouts"),
        url_for("reference.glossary"),
        *(url_for("reference.rules", slug=game.slug) for game in GAMES),
        url_for("offline.offline"),
    ]
    assets = [
        url_for("static", filename=name)
        for name in (
            "css/trainer.css",
            "js/early.js",
            "js/focus.js",
            "js/sw-register.js",
            "js/answer-queue.js",
            "icons/icon.svg",
        )
    ]
    return [*pages, url_for("table_css"), *assets]


@bp.get("/sw.js")
def service_worker() -> Response:
    """The worker's script with the list of pages to keep written in; served from the root so that
    it may control every page (a script under /static/ could only control /static/)."""
    script = render_template("offline/sw.js", kept=kept_pages(), offline=url_for("offline.offline"))
    response = Response(script, mimetype="text/javascript")
    response.cache_control.no_cache = True  # a new version of the worker is seen at the next visit
    return response


@bp.get("/offline")
def offline() -> str:
    return render_template("offline/offline.html", games=GAMES)
