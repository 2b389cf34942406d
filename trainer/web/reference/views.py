"""The public reference: rules, the payout cheat sheet, the glossary, house-rules presets, the advisor,
and the API reference (Swagger UI from the `swagger-ui-bundle-v2` package, served from here: no network
at run time, and no inline script or style, so the strict Content-Security-Policy holds)."""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Response, abort, render_template, request, send_from_directory
from flask_babel import gettext
from swagger_ui_bundle import swagger_ui_path

from trainer.engine.presets import HOUSE_NAME
from trainer.games import BY_SLUG, GAMES, RUSSIAN_POKER
from trainer.web.core import db, presets
from trainer.web.reference.examples import worked_examples

bp = Blueprint("reference", __name__, url_prefix="/reference")

DEFAULT_ANTES = (10, 100)
MAX_ANTE = 1_000_000
ANTE_DIGITS = re.compile(r"[0-9]{1,9}")
CHEAT_SHEET = RUSSIAN_POKER  # the payout cheat sheet is Russian poker's, from its default preset


@bp.get("/")
def index() -> str:
    return render_template("reference/index.html", games=GAMES)


# The two files the API reference page loads (the package ships source maps and presets besides).
SWAGGER_UI_FILES = ("swagger-ui-bundle.js", "swagger-ui.css")


@bp.get("/api")
def api() -> str:
    return render_template("reference/api.html")


@bp.get("/api/swagger-ui/<name>")
def swagger_ui(name: str) -> Response:
    if name not in SWAGGER_UI_FILES:
        abort(404)
    return send_from_directory(str(swagger_ui_path), name, max_age=24 * 3600)


@bp.get("/rules/<slug>")
def rules(slug: str) -> str:
    game = BY_SLUG.get(slug)
    if game is None:
        abort(404)
    # Numbers a rules page quotes come from the game's default preset, not from the template.
    preset = presets.load(game.slug, game.default_preset)
    return render_template(
        game.reference_page,
        game=game,
        preset=preset,
        preset_name=game.default_preset,
        examples=worked_examples(game),
    )


class BadAnte(ValueError):
    """The ante typed on the cheat sheet cannot be read; the message says what to type."""


def _ante_from(raw: str | None) -> int | None:
    if raw is None or raw.strip() == "":
        return None
    text = raw.strip().replace(" ", "").replace(",", "")
    # ASCII digits only and a bounded length: "²" passes isdigit() but not int(), and int() of
    # thousands of digits is slow or refused outright.
    if not ANTE_DIGITS.fullmatch(text) or not 1 <= int(text) <= MAX_ANTE:
        raise BadAnte(gettext("The ante must be a whole number from 1 to %(max)s.", max=MAX_ANTE))
    return int(text)


def payout_table(ante: int, preset: dict[str, Any]) -> dict[str, Any]:
    """Rows of the cheat sheet for one ante: the bet is 2 antes, the win is bet x odds."""
    bet = 2 * ante
    rows = [{"category": c, "odds": o, "win": bet * o} for c, o in preset["bet"]["odds"].items()]
    bonus = preset.get("bonus", {})
    odds6 = bonus.get("odds6", {})
    bonus_rows = [
        {
            "category": c,
            "odds5": o,
            "odds6": odds6.get(c),
            "win5": ante * o,
            "win6": ante * odds6[c] if c in odds6 else None,
        }
        for c, o in bonus.get("odds5", {}).items()
    ]
    no_game = ante * preset["bet"].get("no_game_ante_odds", 1)
    return {"ante": ante, "bet": bet, "rows": rows, "bonus_rows": bonus_rows, "no_game": no_game}


@bp.get("/payouts")
def payouts() -> str | tuple[str, int]:
    """The cheat sheet for antes 10 and 100, or for the ante asked; an ante that cannot be read is
    answered on the same page (400): the message beside the field, what was typed kept, the usual tables."""
    raw = request.args.get("ante")
    try:
        chosen, error = _ante_from(raw), None
    except BadAnte as bad:
        chosen, error = None, str(bad)
    preset = presets.load(CHEAT_SHEET.slug, CHEAT_SHEET.default_preset)
    antes = (chosen,) if chosen else DEFAULT_ANTES
    tables = [payout_table(a, preset) for a in antes]
    page = render_template(
        "reference/payouts.html", tables=tables, chosen=chosen, typed=raw or "", error=error, preset=preset
    )
    return (page, 400) if error else page


@bp.get("/glossary")
def glossary() -> str:
    return render_template("reference/glossary.html")


@bp.get("/presets/<game>")
def house_rules(game: str) -> str:
    if game not in presets.games():
        abort(404)
    highlight = request.args.get("preset")
    # A group's edited copy (house-<digest>, as a question's rules link names it) is shown beside the
    # shipped presets, so that a trainee can read the pay table he is graded by.
    extra = (highlight,) if isinstance(highlight, str) else ()
    # Only a house preset's name needs the database: the shipped presets' page works without it.
    houses = db.houses() if isinstance(highlight, str) and HOUSE_NAME.fullmatch(highlight) else None
    table = presets.side_by_side(game, extra=extra, houses=houses)
    if highlight not in {p["name"] for p in table["presets"]}:
        highlight = None  # an unknown name marks nothing rather than failing
    return render_template(
        "reference/presets.html", game=game, game_title=BY_SLUG[game].title, table=table, highlight=highlight
    )
