"""The buy-decision advisor page: click five cards and the dealer's up-card, see every option's value.

The same engine as `POST /api/v1/advisor` (`trainer.engine.russian_poker.strategy.options`); the page is
a plain GET form, so it works without JavaScript and its address can be shared.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from flask import abort, current_app, render_template, request
from flask_babel import gettext
from markupsafe import Markup, escape

from trainer.engine.cards import FULL_DECK, Card
from trainer.engine.russian_poker.rules import load_rules, preset_names
from trainer.web.core.forms import whole_number
from trainer.web.core.i18n import current_language, translate_step
from trainer.web.reference.views import bp
from trainer.web.situations.drawing import card_face

PLAYER_CARDS = 5
SUIT_ORDER = "shdc"


def _picker_rows() -> list[list[str]]:
    """The 52 cards in four rows, one per suit, ace first."""
    return [[str(c) for c in sorted(FULL_DECK, key=lambda c: -c.rank) if c.suit == s] for s in SUIT_ORDER]


# The pickers' 104 labelled cards, rendered once per language: a repeated question is then answered
# without re-rendering them (the advice itself comes from the engine's cache).
_PICKER_CARDS: dict[tuple[str, str, str], tuple[tuple[tuple[str, str, str], ...], ...]] = {}
_PICKER_LOCK = threading.Lock()
# The options table of recent questions, by (language, house, cards, stakes).
_OPTIONS_HTML: OrderedDict[tuple[object, ...], Markup] = OrderedDict()
_OPTIONS_SIZE = 512
_OPTIONS_LOCK = threading.Lock()


def picker_html(name: str, kind: str, selected: Any) -> Markup:
    """One picker (checkboxes or radio buttons named `name`), the `selected` card codes ticked."""
    key = (current_language(), name, kind)
    rows = _PICKER_CARDS.get(key)
    if rows is None:
        rows = tuple(tuple(_picker_card(code, name, kind) for code in row) for row in _picker_rows())
        with _PICKER_LOCK:
            _PICKER_CARDS[key] = rows
    chosen = {str(c) for c in selected}
    out = [f'<div class="picker" role="group" aria-label="{escape(gettext("Cards"))}">']
    for row in rows:
        out.append('<div class="picker-row">')
        out.extend(f"{head}{' checked' if code in chosen else ''}{tail}" for code, head, tail in row)
        out.append("</div>")
    out.append("</div>")
    return Markup("\n".join(out))


def _picker_card(code: str, name: str, kind: str) -> tuple[str, str, str]:
    f = card_face(code)
    red = " red" if f["red"] else ""
    head = (
        f'<label class="mini-card{red}"><input type="{escape(kind)}" name="{escape(name)}" '
        f'value="{escape(code)}"'
    )
    tail = (
        f'><span aria-hidden="true">{escape(f["rank"])}{escape(f["symbol"])}</span>'
        f'<span class="visually-hidden">{escape(f["label"])}</span></label>'
    )
    return code, head, tail


def _read(raw_player: list[str], raw_up: str | None, rules_name: str) -> tuple[list[Card], Card, Any]:
    try:
        player = [Card.from_text(c) for c in raw_player]
        up = Card.from_text(raw_up or "")
    except ValueError:
        abort(400, description=gettext("Choose cards from the table of cards."))
    if len(set(player)) != PLAYER_CARDS:
        abort(
            400,
            description=gettext(
                "Choose exactly %(count)s different cards for the player.", count=PLAYER_CARDS
            ),
        )
    if up in player:
        abort(400, description=gettext("The up-card cannot be one of the player's cards."))
    return player, up, load_rules(rules_name)


@bp.get("/advisor")
def advisor() -> str:
    from trainer.engine.russian_poker import strategy

    raw_player = request.args.getlist("player")
    raw_up = request.args.get("upcard")
    rules_name = request.args.get("rules", "cis")
    if rules_name not in preset_names():
        # before anything is looked up or cached under the name (the caches are keyed by it)
        abort(400, description=gettext("There is no house-rules preset %(name)s.", name=rules_name))
    ante = _stake(request.args.get("ante", "1"), 1)
    bonus = _stake(request.args.get("bonus", "0"), 0)
    options_html = Markup()
    if raw_player or raw_up:
        player, up, rules = _read(raw_player, raw_up, rules_name)
        if bonus and not rules.bonus_offered:
            abort(400, description=gettext("This table offers no bonus bet."))
        key = (current_language(), rules_name, tuple(map(str, player)), str(up), ante, bonus)
        with _OPTIONS_LOCK:
            options_html = _OPTIONS_HTML.get(key, Markup())
            if options_html:
                _OPTIONS_HTML.move_to_end(key)
        if not options_html:
            try:
                advice = strategy.advise(player, up, rules=rules, ante=ante, bonus=bonus)
            except ValueError as error:
                # The page checks the cards and stakes first; what the engine still refuses is said in
                # the trainee's language, the engine's English reason goes to the log.
                current_app.logger.info("advisor refused: %s", error)
                abort(400, description=gettext("The advisor cannot value this hand under these house rules."))
            options_html = Markup(
                render_template(
                    "reference/advisor_options.html", table=advice.options, super_bet=advice.super_bet
                )
            )
            with _OPTIONS_LOCK:
                _OPTIONS_HTML[key] = options_html
                while len(_OPTIONS_HTML) > _OPTIONS_SIZE:
                    _OPTIONS_HTML.popitem(last=False)
    return render_template(
        "reference/advisor.html",
        thumb=_rules_of_thumb(rules_name),
        edge=_house_edge(rules_name),
        second_draw=load_rules(rules_name).max_exchanges > 1,
        picker_html=picker_html,
        chosen=set(raw_player),
        upcard=raw_up,
        rules_name=rules_name,
        presets=_presets(),
        options_html=options_html,
        ante=ante,
        bonus=bonus,
    )


_PRESETS: dict[tuple[str, ...], list[tuple[str, str]]] = {}


def _presets() -> list[tuple[str, str]]:
    """(name, title) of every house preset (the loader reads each file once while running)."""
    names = preset_names()
    if names not in _PRESETS:
        _PRESETS[names] = [(name, load_rules(name).title) for name in names]
    return _PRESETS[names]


def _stake(raw: str, low: int) -> int:
    """A stake in chips from the form (the table maximum depends on it)."""
    stake = whole_number(raw)
    if stake is None or stake < low:
        abort(400, description=gettext("A stake is a whole number of chips from %(low)s.", low=low))
    return stake


_THUMBS: dict[tuple[object, ...], dict[str, Any] | None] = {}


def _rules_of_thumb(rules_name: str) -> dict[str, Any] | None:
    """The house's rules of thumb as sentences in the current language, with the cost of all of them
    together (None when the bench has not computed them for this house); worded once per language
    and version of the stored file."""
    from trainer.engine.presets import data_path
    from trainer.engine.russian_poker.strategy.summary import (
        SUMMARY_FILE,
        load_summary,
        rule_steps,
        total_step,
    )

    path = data_path(*SUMMARY_FILE)
    key = (current_language(), rules_name, path.stat().st_mtime_ns if path.is_file() else None)
    if key not in _THUMBS:
        summary = load_summary(rules_name)
        _THUMBS[key] = (
            None
            if summary is None
            else {
                "rules": [[translate_step(s) for s in rule_steps(rule)] for rule in summary["rules"]],
                "total": translate_step(total_step(summary)),
            }
        )
    return _THUMBS[key]


_EDGES: dict[tuple[object, ...], list[str] | None] = {}


def _house_edge(rules_name: str) -> list[str] | None:
    """The house's edge under best play as sentences in the current language (None when the bench has
    not computed it), worded once per language and version of the stored file."""
    from trainer.engine.presets import data_path
    from trainer.engine.russian_poker.strategy.summary import EDGE_FILE, edge_steps, load_edge

    path = data_path(*EDGE_FILE)
    key = (current_language(), rules_name, path.stat().st_mtime_ns if path.is_file() else None)
    if key not in _EDGES:
        edge = load_edge(rules_name)
        second_draw = load_rules(rules_name).max_exchanges > 1
        _EDGES[key] = None if edge is None else [translate_step(s) for s in edge_steps(edge, second_draw)]
    return _EDGES[key]
