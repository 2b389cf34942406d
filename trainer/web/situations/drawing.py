"""What the table drawings need: card faces with spoken names, chip stacks, seats around an oval.

The SVG itself is in `templates/macros/`; this module only turns situation data (card strings such as
"As", amounts, seat lists) into the few numbers and words the templates place.
"""

from __future__ import annotations

import math
import re
from typing import Any

from flask_babel import gettext, lazy_gettext, lazy_pgettext

from trainer import games
from trainer.drills.chips import CHIPS_DIR, load_chips
from trainer.drills.omaha.bets import replay
from trainer.engine.cards import Card
from trainer.web.core.i18n import RANK_TEXT, SUIT_SYMBOLS

# Spoken names, translated: the screen-reader text of every card face.
RANK_WORDS = {
    2: lazy_gettext("two"),
    3: lazy_gettext("three"),
    4: lazy_gettext("four"),
    5: lazy_gettext("five"),
    6: lazy_gettext("six"),
    7: lazy_gettext("seven"),
    8: lazy_gettext("eight"),
    9: lazy_gettext("nine"),
    10: lazy_gettext("ten"),
    11: lazy_gettext("jack"),
    12: lazy_gettext("queen"),
    13: lazy_gettext("king"),
    14: lazy_gettext("ace"),
}
# In the card's name the suit stands in the genitive where the language has one ("туз пик").
SUIT_WORDS = {
    "s": lazy_pgettext("genitive", "spades"),
    "h": lazy_pgettext("genitive", "hearts"),
    "d": lazy_pgettext("genitive", "diamonds"),
    "c": lazy_pgettext("genitive", "clubs"),
}
# A suit named on its own ("Trump: spades", a quoted suit name) stands in the nominative: Georgian
# "ყვავი", Russian "пики".
SUIT_NOUNS = {
    "s": lazy_gettext("spades"),
    "h": lazy_gettext("hearts"),
    "d": lazy_gettext("diamonds"),
    "c": lazy_gettext("clubs"),
}

# Chips drawn in the house's colours (data/chips/standard.toml); an amount below the smallest chip
# shows one plain chip.
CHIP_DEFAULT_COLOUR = "#f5f5f5"


FACTS_TEMPLATE = "situations/facts.html"


def table_template(game_id: str) -> str:
    """The template drawing a situation of the game; a plain list of facts for a game not registered."""
    game = games.get(game_id)
    return game.table_template if game is not None else FACTS_TEMPLATE


def card_face(card: Any) -> dict[str, Any]:
    """Rank text, suit symbol, colour and the translated spoken name of one card ("As", Card); a
    54-card deck's real jokers ("X1", "X2") are drawn as a star."""
    if str(card).upper() in ("X1", "X2"):
        return {
            "code": str(card).upper(),
            "rank": "★",
            "symbol": "★",
            "red": str(card) == "X1",
            "label": gettext("joker"),
        }
    parsed = card if isinstance(card, Card) else Card.from_text(str(card))
    return {
        "code": str(parsed),
        "rank": RANK_TEXT.get(parsed.rank, str(parsed.rank)),
        "symbol": SUIT_SYMBOLS[parsed.suit],
        "red": parsed.suit in "hd",
        "label": gettext("%(rank)s of %(suit)s", rank=RANK_WORDS[parsed.rank], suit=SUIT_WORDS[parsed.suit]),
    }


def cards_of(value: Any) -> list[str]:
    """Card strings from a situation field that is a list of cards or one "As Kd" string."""
    if value is None:
        return []
    if isinstance(value, str):
        return value.split()
    return [str(v) for v in value]


def chip_stack(amount: Any, max_chips: int = 6) -> list[str]:
    """Colours of the chips drawn for an amount (a few chips, the largest denominations first)."""
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        return []
    colours: list[str] = []
    rest = amount
    for chip in load_chips().by_size:
        while rest >= chip.value and len(colours) < max_chips:
            colours.append(chip.colour)
            rest -= chip.value
    if rest > 0 and len(colours) < max_chips:
        colours.append(CHIP_DEFAULT_COLOUR)
    return colours


def seat_positions(count: int, width: float = 100.0, height: float = 60.0) -> list[tuple[float, float]]:
    """Percent positions of `count` seats around an oval, seat 1 at the bottom, clockwise.

    >>> [tuple(round(v) for v in p) for p in seat_positions(2)]
    [(50, 100), (50, 0)]
    """
    positions = []
    for i in range(count):
        angle = math.pi / 2 + 2 * math.pi * i / max(count, 1)
        x = width / 2 + width / 2 * math.cos(angle)
        y = height / 2 + height / 2 * math.sin(angle)
        positions.append((round(x / width * 100, 2), round(y / height * 100, 2)))
    return positions


MAX_TABLE_SEATS = 12


def chip_class(colour: str) -> str:
    """The class that paints a chip this colour ("#f2c200" -> "chip-f2c200")."""
    return "chip-" + colour.lstrip("#").lower()


_CSS_COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}|[a-z]{3,20}")


def chip_colours() -> list[str]:
    """Every colour a chip can be drawn in: each house chip set's (data/chips/) and the plain chip."""
    found = {CHIP_DEFAULT_COLOUR}
    for path in sorted(CHIPS_DIR.glob("*.toml")):
        found.update(chip.colour for chip in load_chips(path.stem).chips)
    # Only plain colour values reach the stylesheet, whatever a data file holds.
    return sorted(colour for colour in found if _CSS_COLOUR.fullmatch(colour))


def table_stylesheet() -> str:
    """CSS for what varies from table to table: seat positions around the oval and chip colours.

    Served as a stylesheet of the app's own, so the pages carry no inline style attributes and the
    Content-Security-Policy needs no 'unsafe-inline'.

    >>> ".at-2-1 { --x: 50.0; --y: 0.0; }" in table_stylesheet()
    True
    """
    rules = [
        f".at-{count}-{i} {{ --x: {x}; --y: {y}; }}"
        for count in range(1, MAX_TABLE_SEATS + 1)
        for i, (x, y) in enumerate(seat_positions(count))
    ]
    rules += [f".{chip_class(colour)} {{ background: {colour};{_ink(colour)} }}" for colour in chip_colours()]
    return "\n".join(rules) + "\n"


def _ink(colour: str) -> str:
    """Dark writing on a light chip (a yellow 1,000): the face's white value would not be readable
    (WCAG contrast); named colours keep the white."""
    digits = colour.lstrip("#")
    if not colour.startswith("#") or len(digits) not in (3, 6):
        return ""
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    channels = [int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    # White on it reaches 4.5:1 only below this luminance (1.05 / 4.5 - 0.05).
    return " color: #111; text-shadow: none;" if luminance > 0.183 else ""


# Situation fields that hold the cards a trainee may click, most specific first.
PICKABLE_KEYS = ("player", "player_cards", "hand", "cards", "hole")
HIDDEN_FACTS = {"prompt", "prompt_params"}


def pickable_cards(data: dict[str, Any]) -> list[str]:
    """The cards offered for a "cards" answer: the player's hand in the situation."""
    for key in PICKABLE_KEYS:
        value = data.get(key)
        if isinstance(value, list | str) and value:
            try:
                return [card_face(c)["code"] for c in cards_of(value)]
            except ValueError:
                continue
    return []


def table_facts(data: dict[str, Any], shown: tuple[str, ...] = ()) -> list[tuple[str, Any]]:
    """Plain facts of a situation not drawn elsewhere: (field name, value) for numbers and words."""
    facts = []
    for key, value in data.items():
        if key in HIDDEN_FACTS or key in shown:
            continue
        if isinstance(value, bool | int | str):
            facts.append((key, value))
    return facts


BET_ANTES = 2  # the bet ("game") is always two antes (rule page, "Bets")
BET_MADE = ("rp.bet_payout", "rp.bonus_payout", "rp.two_combinations", "rp.insurance", "rp.pay_box")


def russian_poker_table(data: dict[str, Any], kind_id: str) -> dict[str, Any]:
    """What lies on a Russian poker box: the dealer's cards, the player's, and the betting spots."""
    ante = data.get("ante") if isinstance(data.get("ante"), int) else None
    # The bet is on the table when the situation says the player bet (not folded), or the drill is
    # about a bet that was made.
    betting = data.get("folded") is False or kind_id in BET_MADE
    betting = betting or data.get("question") == "game"
    spots = []
    if ante is not None:
        spots.append({"name": "ante", "amount": ante})
        if data.get("bonus"):
            spots.append({"name": "bonus", "amount": data["bonus"]})
        spots.append(
            {"name": "bet", "amount": BET_ANTES * ante if betting else 0, "folded": data.get("folded")}
        )
        if data.get("super_bet"):
            on_dealer = data.get("super_on_dealer")
            spots.append({"name": "super", "amount": data["super_bet"], "on_dealer": on_dealer})
    dealer = cards_of(data.get("dealer"))
    up_card = data.get("upcard") or data.get("up_card") or data.get("dealer_up")
    return {
        "dealer": dealer,
        "up_card": None if dealer else up_card,
        "game_card": data.get("game_card"),
        "player": cards_of(data.get("player")),
        "spots": spots,
        "exchanges": data.get("exchanges", 0),
        "shown": (
            "dealer",
            "player",
            "ante",
            "bonus",
            "folded",
            "game_card",
            "up_card",
            "dealer_up",
            "rules",
            "super_bet",
            "super_on_dealer",
            "box_count",
            "edge_case",
        ),
    }


def painted_plays(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The cards of a trick in the order played: seat, card, and how a joker was played."""
    plays = []
    for play in data.get("plays") or []:
        code, _, how = str(play.get("play", "")).partition(":")
        how, _, suit = how.partition(":")  # "7c:highest:h": the joker led, calling the highest heart
        plays.append({"seat": play.get("seat"), "card": code, "how": how, "suit": suit})
    return plays


def _per_seat(data: dict[str, Any], *keys: str) -> list[Any]:
    for key in keys:
        value = data.get(key)
        if isinstance(value, list):
            return value
    return []


def betting_round(data: dict[str, Any]) -> dict[str, Any] | None:
    """A betting drill's round (pot limit, fixed limit) as the table shows it: each seat's chips in
    front of it after the actions so far, the seats that folded, the seat to act and its stack behind
    where the situation gives one. None for a situation that is not a round of actions.

    >>> r = betting_round({"actions": [{"seat": 1, "action": "small_blind", "amount": 25},
    ...     {"seat": 2, "action": "big_blind", "amount": 50}, {"seat": 3, "action": "fold"}], "actor": 0})
    >>> r["bets"], r["folded"], r["count"]
    ([None, 25, 50, None], {3}, 4)
    """
    actions = [a for a in data.get("actions") or [] if isinstance(a, dict) and isinstance(a.get("seat"), int)]
    actor = data.get("actor")
    if not isinstance(actor, int) or isinstance(actor, bool) or "holes" in data:
        return None
    in_front = replay(actions)
    named = {a["seat"] for a in actions} | {actor}
    players = data.get("players")
    count = max(max(named) + 1, players if isinstance(players, int) and not isinstance(players, bool) else 0)
    count = min(count, MAX_TABLE_SEATS)
    return {
        "count": count,
        "bets": [in_front.get(seat) or None for seat in range(count)],
        "folded": {a["seat"] for a in actions if a.get("action") == "fold"},
        "actor": actor,
        "stack": data.get("stack") if isinstance(data.get("stack"), int) else None,
    }


def omaha_table(data: dict[str, Any]) -> dict[str, Any]:
    """Seats around the Omaha table: hole cards (None when folded), stacks, chips in front, button;
    in a betting drill, each seat's chips in front of it from the actions so far.

    Seats are shown numbered from 1, as at the table and in the drill's sentences, whether the
    situation counts them from 0 or (with `first_seat` = 1) from 1: the drawing, the action log, the
    seat to act and a returning player name the same seats as the question.

    >>> t = omaha_table({"actions": [{"seat": 0, "action": "bet", "amount": 50}], "actor": 1})
    >>> [s["seat"] for s in t["seats"]], t["actions"][0]["seat"], t["actor"]
    ([1, 2], 1, 2)
    """
    holes = _per_seat(data, "holes", "hands", "hole_cards")
    stacks = _per_seat(data, "stacks")
    bets = _per_seat(data, "contributions", "bets", "in_pot")
    count = max(len(holes), len(stacks), len(bets), int(data.get("players") or data.get("seats") or 0))
    base = int(data.get("first_seat", 0))

    def shown(seat: Any) -> Any:
        """A seat of the situation as the table numbers it (from 1)."""
        return seat - base + 1 if isinstance(seat, int) and not isinstance(seat, bool) else seat

    folded = set(_per_seat(data, "folded"))
    acting = None
    betting = betting_round(data) if not (holes or stacks or bets) else None
    if betting is not None:
        count, bets, folded = betting["count"], betting["bets"], betting["folded"]
        acting = betting["actor"]
        stacks = [betting["stack"] if seat == acting else None for seat in range(count)]
    seats = []
    for i, (x, y) in enumerate(seat_positions(count)):
        hole = holes[i] if i < len(holes) else None
        seats.append(
            {
                "seat": i + 1,
                "cards": cards_of(hole) if hole else [],
                "folded": (i < len(holes) and hole is None) or (i + base) in folded,
                "stack": stacks[i] if i < len(stacks) else None,
                "bet": bets[i] if i < len(bets) else None,
                "button": data.get("button") == i + base,
                "to_act": acting == i,
                "in_front": betting is not None,
                "x": x,
                "y": y,
                "place": f"{count}-{i}",  # the class that positions it (`table_stylesheet`)
            }
        )
    pair = data.get("blinds") or data.get("stakes")
    return {
        "board": cards_of(data.get("board")),
        "seats": seats,
        "pot": data.get("pot"),
        "hole": cards_of(data.get("hole")),
        "actions": [
            {**a, "seat": shown(a.get("seat"))} for a in data.get("actions") or [] if isinstance(a, dict)
        ],
        "actor": shown(data.get("actor")),
        "returning": shown(data.get("seat")),
        "blinds": pair if isinstance(pair, list) and len(pair) == 2 else None,
        "stakes": "stakes" in data,
        "pot_chips": data.get("pot_before") or data.get("pot"),
    }


def spot_hands(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The hands of a spot-the-mistake situation (`trainer.drills.spot`) to draw one under another:
    each hand's number, its base kind (whose game template draws it), its facts, and the results given
    ({label, shown}; label None for a single amount)."""
    from trainer.drills import REGISTRY
    from trainer.drills.spot import entries_of

    hands = data.get("hands") if isinstance(data, dict) else None
    if not isinstance(hands, list):
        return []
    try:
        entries = entries_of(data)
    except (KeyError, TypeError, ValueError):
        return []
    out = []
    for number, hand in enumerate(hands, 1):
        kind = REGISTRY.get(hand.get("kind")) if isinstance(hand, dict) else None
        if kind is None:
            continue
        given = [{"label": e["base_label"], "shown": e["shown"]} for e in entries if e["hand"] == number]
        out.append({"number": number, "kind": kind, "data": hand.get("data") or {}, "given": given})
    return out


def chips_of(data: dict[str, Any]) -> dict[str, Any]:
    """The chip set a chips drill (`trainer.drills.chip_skills`) is drawn in: its chips smallest first,
    and by value (the stacks' colours)."""
    try:
        chips = load_chips(str(data.get("chip_set")))
    except (OSError, ValueError):
        chips = load_chips()
    return {"chips": chips.chips, "by_value": {c.value: c for c in chips.chips}}


# What the templates may call (registered as Jinja globals by `trainer.web.site`).
TEMPLATE_GLOBALS = {
    f.__name__: f
    for f in (
        table_template,
        card_face,
        cards_of,
        chip_stack,
        chip_class,
        pickable_cards,
        seat_positions,
        table_facts,
        russian_poker_table,
        painted_plays,
        omaha_table,
        spot_hands,
        chips_of,
    )
}
