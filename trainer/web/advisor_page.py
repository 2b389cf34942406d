"""The buy-decision advisor page: click five cards and the dealer's up-card, see every option's value.

The same engine as `POST /api/v1/advisor` (`trainer.engine.russian_poker.strategy.options`); the page is
a plain GET form, so it works without JavaScript and its address can be shared.
"""

from __future__ import annotations

from typing import Any

from flask import abort, current_app, render_template, request
from flask_babel import gettext

from trainer.engine.cards import FULL_DECK, Card
from trainer.engine.russian_poker.rules import load_rules, preset_names
from trainer.web.reference import bp

PLAYER_CARDS = 5
SUIT_ORDER = "shdc"


def _picker_rows() -> list[list[str]]:
    """The 52 cards in four rows, one per suit, ace first."""
    return [[str(c) for c in sorted(FULL_DECK, key=lambda c: -c.rank) if c.suit == s] for s in SUIT_ORDER]


def _read(raw_player: list[str], raw_up: str | None, rules_name: str) -> tuple[list[Card], Card, Any]:
    if rules_name not in preset_names():
        abort(400, description=gettext("There is no house-rules preset %(name)s.", name=rules_name))
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
    ante = _stake(request.args.get("ante", "1"), 1)
    bonus = _stake(request.args.get("bonus", "0"), 0)
    advice: Any = None
    if raw_player or raw_up:
        player, up, rules = _read(raw_player, raw_up, rules_name)
        if bonus and not rules.bonus_offered:
            abort(400, description=gettext("This table offers no bonus bet."))
        try:
            advice = strategy.advise(player, up, rules=rules, ante=ante, bonus=bonus)
        except ValueError as error:
            # The page checks the cards and stakes first; what the engine still refuses is said in the
            # trainee's language, the engine's English reason goes to the log.
            current_app.logger.info("advisor refused: %s", error)
            abort(400, description=gettext("The advisor cannot value this hand under these house rules."))
    return render_template(
        "reference/advisor.html",
        thumb=_rules_of_thumb(rules_name),
        rows=_picker_rows(),
        chosen=set(raw_player),
        upcard=raw_up,
        rules_name=rules_name,
        presets=[(name, load_rules(name).title) for name in preset_names()],
        table=advice.options if advice is not None else None,
        super_bet=advice.super_bet if advice is not None else None,
        ante=ante,
        bonus=bonus,
    )


def _stake(raw: str, low: int) -> int:
    """A stake in chips from the form (the table maximum depends on it)."""
    if not raw.isdigit() or len(raw) > 9 or int(raw) < low:
        abort(400, description=gettext("A stake is a whole number of chips from %(low)s.", low=low))
    return int(raw)


def _rules_of_thumb(rules_name: str) -> dict[str, Any] | None:
    """The house's rules of thumb as sentences, with the cost of all of them together (None when the
    bench has not computed them for this house)."""
    from trainer.engine.russian_poker.strategy.summary import load_summary, rule_steps, total_step

    summary = load_summary(rules_name)
    if summary is None:
        return None
    return {"rules": [rule_steps(rule) for rule in summary["rules"]], "total": total_step(summary)}
