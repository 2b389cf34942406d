"""Russian poker house rules: pay tables and options loaded from `data/rules/russian-poker/*.toml`.

Every number a croupier pays by lives in a rules file, never in code. The files are read by the one
house-rules loader (`trainer.engine.presets`): a file may name a `base` preset and give only what
differs; every key is checked on load, and a malformed file fails with a `PresetError` (a
`ValueError`) naming the file, the key and the row. This module keeps the schema and `build`.

>>> rules = load_rules("cis")
>>> rules.bet_odds[Category.TWO_PAIR], rules.bonus_odds6[Category.FLUSH], rules.buy_game_replaces
(2, 15, <ReplaceCard.HIGHEST: 'highest'>)
>>> load_rules("lunar").two_combinations, load_rules("lunar").exchange_min_cards
(True, 2)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, TypeVar

from trainer.engine.evaluator import HandCategory
from trainer.engine.explain import N_, Worded
from trainer.engine.presets import (
    HouseSource,
    PresetFolder,
    Reader,
    choice,
    flag,
    pay_table,
    side_by_side,
    text,
    texts,
    whole,
)

DEFAULT_RULES = "cis"


class Category(HandCategory):
    """Russian poker hand categories, best first: the standard ones (`evaluator.Category`, same values)
    with ace-king between a pair and high card. The list is written out because the order is the
    ranking and seeded drills draw from it."""

    ROYAL_FLUSH = "royal_flush"
    STRAIGHT_FLUSH = "straight_flush"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three_of_a_kind"
    TWO_PAIR = "two_pair"
    PAIR = "pair"
    ACE_KING = "ace_king"
    HIGH_CARD = "high_card"

    @property
    def label(self) -> str:
        """English name: "two pair", "ace-king" (a message id)."""
        # Ace-king is the one category of Russian poker that standard poker lacks.
        return N_("ace-king") if self is Category.ACE_KING else super().label

    @property
    def rank(self) -> int:
        """0 for high card up to 10 for a royal flush, so categories compare by strength."""
        return len(CATEGORIES) - 1 - CATEGORIES.index(self)


CATEGORIES: tuple[Category, ...] = tuple(Category)


class SuperCombination(Worded, StrEnum):
    """The rows of Lunar Poker's Super pay table, best first, judged on the first five cards.

    Not the bet's categories: a straight whose five cards are all red or all black (straight flushes
    included) is a "same colored straight"; ace, king and queen among the five, and five cards of one
    colour, are rows of their own; a pair or two pair pays nothing.
    """

    FOUR_OF_A_KIND = "four_of_a_kind"
    SAME_COLORED_STRAIGHT = "same_colored_straight"
    FULL_HOUSE = "full_house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three_of_a_kind"
    ACE_KING_QUEEN = "ace_king_queen"
    SAME_COLORED = "same_colored"

    @property
    def label(self) -> str:
        """English name: "same colored straight", "ace-king-queen", "5 same colored cards"."""
        return _SUPER_LABELS[self]


SUPER_COMBINATIONS: tuple[SuperCombination, ...] = tuple(SuperCombination)
_SUPER_LABELS = {
    SuperCombination.FOUR_OF_A_KIND: N_("four of a kind"),
    SuperCombination.SAME_COLORED_STRAIGHT: N_("same colored straight"),
    SuperCombination.FULL_HOUSE: N_("full house"),
    SuperCombination.FLUSH: N_("flush"),
    SuperCombination.STRAIGHT: N_("straight"),
    SuperCombination.THREE_OF_A_KIND: N_("three of a kind"),
    SuperCombination.ACE_KING_QUEEN: N_("ace-king-queen"),
    SuperCombination.SAME_COLORED: N_("5 same colored cards"),
}


class ReplaceCard(StrEnum):
    """Which dealer card is swapped when a player buys the game."""

    HIGHEST = "highest"
    LOWEST = "lowest"


class FailedBuy(StrEnum):
    """What the player gets when a bought game still leaves the dealer without a game."""

    ANTE_PAID = "ante_paid"  # ante paid as for no game, bet returned, fee kept by the house
    ANTE_RETURNED = "ante_returned"  # ante and bet returned unpaid, fee kept by the house


class CapScope(StrEnum):
    """Which wins the table maximum limits (see docs/house-rules.md)."""

    BET = "bet"  # the bet's win (and an instant payout) only
    EACH = "each"  # the bet's win and the bonus win, each on its own
    TOTAL = "total"  # bet plus bonus together; the bet is paid first, the bonus up to what is left


class InsuranceMax(StrEnum):
    """The largest insurance stake a house accepts."""

    BET_PAYOUT = "bet_payout"  # what the bet would win with the player's hand
    ANTES = "antes"  # `insurance_max_antes` x ante


@dataclass(frozen=True)
class HouseRules:
    """One house's Russian poker rules. Odds are "x to 1" (the win per chip staked)."""

    name: str
    title: str
    source: str
    not_applied: tuple[str, ...]
    bet_odds: Mapping[Category, int]
    no_game_ante_odds: int
    win_ante_odds: int
    bonus_offered: bool
    bonus_requires_bet: bool
    bonus_odds5: Mapping[Category, int]
    bonus_odds6: Mapping[Category, int]
    buy_cost_antes: int
    exchange_allowed: bool
    exchange_min_cards: int
    exchange_max_cards: int
    max_exchanges: int
    sixth_card_allowed: bool
    sixth_card_with_exchange: bool
    buy_game_allowed: bool
    buy_game_replaces: ReplaceCard
    buy_game_on_fail: FailedBuy
    two_combinations: bool
    instant_odds: Mapping[Category, int]
    super_offered: bool
    super_compulsory: bool
    super_min_antes: int
    super_on_dealer: bool
    super_odds: Mapping[SuperCombination, int]
    insurance_offered: bool
    insurance_min_category: Category
    insurance_odds: int
    insurance_min_antes: int
    insurance_max: InsuranceMax
    insurance_max_antes: int
    table_max_payout: int
    table_max_scope: CapScope
    boxes_count: int
    boxes_open_per_player: int
    boxes_open_adjacent: bool
    boxes_blind_beyond_open: bool


# The schema: TOML key -> (HouseRules field, converter); the converters are the loader's.
_PAYING = CATEGORIES[: CATEGORIES.index(Category.ACE_KING) + 1]
_STRAIGHT_UP = CATEGORIES[: CATEGORIES.index(Category.STRAIGHT) + 1]

SCHEMA: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "title": ("title", text),
    "source": ("source", text),
    "not_applied": ("not_applied", texts),
    "bet.odds": ("bet_odds", pay_table(_PAYING, complete=True)),
    "bet.no_game_ante_odds": ("no_game_ante_odds", whole(1)),
    "bet.win_ante_odds": ("win_ante_odds", whole(0)),
    "bonus.offered": ("bonus_offered", flag),
    "bonus.requires_bet": ("bonus_requires_bet", flag),
    "bonus.odds5": ("bonus_odds5", pay_table(_STRAIGHT_UP, complete=False)),
    "bonus.odds6": ("bonus_odds6", pay_table(_STRAIGHT_UP, complete=False)),
    "buys.cost_antes": ("buy_cost_antes", whole(1)),
    "exchange.allowed": ("exchange_allowed", flag),
    "exchange.min_cards": ("exchange_min_cards", whole(1, 5)),  # a hand has five cards
    "exchange.max_cards": ("exchange_max_cards", whole(1, 5)),
    "exchange.max_exchanges": ("max_exchanges", whole(0)),
    "sixth_card.allowed": ("sixth_card_allowed", flag),
    "sixth_card.with_exchange": ("sixth_card_with_exchange", flag),
    "buy_game.allowed": ("buy_game_allowed", flag),
    "buy_game.replaces": ("buy_game_replaces", choice(ReplaceCard)),
    "buy_game.on_fail": ("buy_game_on_fail", choice(FailedBuy)),
    "two_combinations.enabled": ("two_combinations", flag),
    "instant_payout.odds": ("instant_odds", pay_table(_STRAIGHT_UP, complete=False)),
    "super.offered": ("super_offered", flag),
    "super.compulsory": ("super_compulsory", flag),
    "super.min_antes": ("super_min_antes", whole(0)),
    "super.on_dealer": ("super_on_dealer", flag),
    "super.odds": ("super_odds", pay_table(SUPER_COMBINATIONS, complete=False, noun="Super combination")),
    "insurance.offered": ("insurance_offered", flag),
    "insurance.min_category": ("insurance_min_category", choice(Category)),
    "insurance.odds": ("insurance_odds", whole(1)),
    "insurance.min_antes": ("insurance_min_antes", whole(0)),
    "insurance.max": ("insurance_max", choice(InsuranceMax)),
    "insurance.max_antes": ("insurance_max_antes", whole(1)),
    "table_max.payout": ("table_max_payout", whole(0)),
    "table_max.scope": ("table_max_scope", choice(CapScope)),
    "boxes.count": ("boxes_count", whole(1)),
    "boxes.open_per_player": ("boxes_open_per_player", whole(1)),
    "boxes.open_adjacent": ("boxes_open_adjacent", flag),
    "boxes.blind_beyond_open": ("boxes_blind_beyond_open", flag),
}
# A file that gives a pay table gives all of it: a row it leaves out is not paid (not the base's).
PAY_TABLES = frozenset(
    key for key, (_f, convert) in SCHEMA.items() if key.endswith(("odds", "odds5", "odds6"))
)
PRESETS = PresetFolder("russian-poker", "Russian poker", DEFAULT_RULES, PAY_TABLES)
RULES_DIR = PRESETS.folder
OPTIONAL = {"not_applied"}  # each file states its own gaps; none is none


def build(name: str, reader: Reader) -> HouseRules:
    """The frozen rules of a checked preset table (`PresetFolder.load` reads it)."""
    values: dict[str, Any] = {"name": name}
    for key, (field_name, convert) in SCHEMA.items():
        found = reader.value(key, convert, required=key not in OPTIONAL)
        values[field_name] = () if found is None else found
    rules = HouseRules(**values)
    _check(reader, rules)
    return rules


def _check(reader: Reader, r: HouseRules) -> None:
    """Checks that span several keys; each refusal has a `code` and named params (see `PresetError`)."""
    cards = "must be >= exchange.min_cards and <= 5"
    if r.exchange_min_cards > 5:
        raise reader.fail("exchange.min_cards", cards, code="at_most", maximum=5, value=r.exchange_min_cards)
    if r.exchange_max_cards > 5:
        raise reader.fail("exchange.max_cards", cards, code="at_most", maximum=5, value=r.exchange_max_cards)
    if r.exchange_max_cards < r.exchange_min_cards:
        raise reader.fail(
            "exchange.max_cards",
            cards,
            code="below_other",
            other="exchange.min_cards",
            minimum=r.exchange_min_cards,
            value=r.exchange_max_cards,
        )
    _check_order(reader, "bet.odds", r.bet_odds, "hand")
    if r.boxes_open_per_player > r.boxes_count:
        raise reader.fail(
            "boxes.open_per_player",
            f"more than the table's {r.boxes_count} boxes",
            code="more_than_boxes",
            boxes=r.boxes_count,
            value=r.boxes_open_per_player,
        )
    if r.bonus_offered and not (r.bonus_odds5 and r.bonus_odds6):
        key = "bonus.odds5" if not r.bonus_odds5 else "bonus.odds6"
        raise reader.fail(key, "a table that offers the bonus needs both bonus tables", code="bonus_tables")
    if r.super_offered and not r.super_odds:
        raise reader.fail(
            "super.odds", "a table that offers the Super bet needs its pay table", code="super_table"
        )
    _check_order(reader, "super.odds", r.super_odds, "Super combination")


def _check_order(reader: Reader, key: str, odds: Mapping[Any, int], noun: str) -> None:
    """A pay table's rows, best first, must never pay less than a worse row."""
    for (top, high), (next_row, low) in itertools.pairwise(odds.items()):
        if high < low:
            raise reader.fail(
                key,
                f"row {top.value!r} pays {high} to 1, less than the worse row {next_row.value!r} "
                f"({low} to 1): a better {noun} must never pay less",
                code="pay_order",
                better=top.value,
                better_odds=high,
                worse=next_row.value,
                worse_odds=low,
            )


def load_rules(name_or_path: str | Path = DEFAULT_RULES, houses: HouseSource | None = None) -> HouseRules:
    """Load a preset by name ("cis", "lunar", ...) from `data/rules/russian-poker/`, or a rules file by
    path. Cached: the same file gives the same (frozen) object.

    >>> load_rules("nosuch")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    trainer.engine.presets.PresetError: Russian poker rules: no preset 'nosuch' (have: cis, caribbean, ...)
    """
    return PRESETS.load(name_or_path, build, houses)


def resolve_rules(rules: HouseRules | str | Path | None) -> HouseRules:
    """House rules from a `HouseRules` object, a preset name or path, or None (the default preset).

    >>> resolve_rules("lunar") is load_rules("lunar"), resolve_rules(None).name
    (True, 'cis')
    """
    if isinstance(rules, HouseRules):
        return rules
    return load_rules(DEFAULT_RULES if rules is None else rules)


def preset_names() -> tuple[str, ...]:
    """The names of the shipped presets, the default first."""
    return PRESETS.names()


_Row = tuple[str, str, Callable[[HouseRules], Any]]
_Combination = TypeVar("_Combination", Category, SuperCombination)


def _pay_rows(
    key: str,
    label: str,
    table: Callable[[HouseRules], Mapping[_Combination, int]],
    combinations: Sequence[_Combination],
) -> tuple[_Row, ...]:
    """The side-by-side rows of one pay table, a row per combination (None where it is not paid)."""

    def cell(c: _Combination) -> Callable[[HouseRules], int | None]:
        return lambda r: table(r).get(c)

    return tuple((f"{key}.{c.value}", label.format(hand=c.label), cell(c)) for c in combinations)


# Rows of the side-by-side table: (key, English label, function giving the cell's value).
_ROWS: tuple[_Row, ...] = (
    *_pay_rows("bet.odds", "Bet pays on {hand}", lambda r: r.bet_odds, _PAYING),
    ("bet.no_game_ante_odds", "Ante pays when the dealer has no game", lambda r: r.no_game_ante_odds),
    ("bet.win_ante_odds", "Ante pays when the player wins (0 = returned)", lambda r: r.win_ante_odds),
    ("bonus.offered", "Bonus side bet", lambda r: r.bonus_offered),
    ("bonus.requires_bet", "Bonus paid only to a player who bet", lambda r: r.bonus_requires_bet),
    *_pay_rows("bonus.odds5", "Bonus pays on {hand}, 5 cards", lambda r: r.bonus_odds5, _STRAIGHT_UP),
    *_pay_rows("bonus.odds6", "Bonus pays on {hand}, 6 cards", lambda r: r.bonus_odds6, _STRAIGHT_UP),
    ("buys.cost_antes", "Each buy costs (antes)", lambda r: r.buy_cost_antes),
    ("exchange.allowed", "Exchange", lambda r: r.exchange_allowed),
    ("exchange.cards", "Cards per exchange", lambda r: f"{r.exchange_min_cards} to {r.exchange_max_cards}"),
    ("exchange.max_exchanges", "Exchanges per hand", lambda r: r.max_exchanges),
    ("sixth_card.allowed", "Sixth card", lambda r: r.sixth_card_allowed),
    ("sixth_card.with_exchange", "Exchange and sixth card in one hand", lambda r: r.sixth_card_with_exchange),
    ("buy_game.allowed", "Buying the game from the dealer", lambda r: r.buy_game_allowed),
    ("buy_game.replaces", "Dealer card replaced", lambda r: r.buy_game_replaces.value),
    ("buy_game.on_fail", "Bought game still fails", lambda r: r.buy_game_on_fail.value),
    ("two_combinations.enabled", "Two combinations paid", lambda r: r.two_combinations),
    *_pay_rows(
        "instant_payout.odds",
        "Instant payout on {hand}",
        lambda r: r.instant_odds,
        (Category.ROYAL_FLUSH, Category.STRAIGHT_FLUSH),
    ),
    ("super.offered", "Super bet", lambda r: r.super_offered),
    ("super.compulsory", "Super bet compulsory", lambda r: r.super_compulsory),
    ("super.min_antes", "Super bet minimum (antes)", lambda r: r.super_min_antes),
    ("super.on_dealer", "Super bet on the dealer's hand", lambda r: r.super_on_dealer),
    *_pay_rows("super.odds", "Super pays on {hand}", lambda r: r.super_odds, SUPER_COMBINATIONS),
    ("insurance.offered", "Insurance", lambda r: r.insurance_offered),
    ("insurance.min_category", "Insurance from", lambda r: r.insurance_min_category.value),
    ("insurance.odds", "Insurance pays", lambda r: r.insurance_odds),
    ("insurance.stake", "Insurance stake", lambda r: _insurance_stake(r)),
    ("table_max.payout", "Table maximum per box (0 = none)", lambda r: r.table_max_payout),
    ("table_max.scope", "Table maximum applies to", lambda r: r.table_max_scope.value),
    ("boxes.count", "Boxes at the table", lambda r: r.boxes_count),
    ("boxes.open_per_player", "Boxes one player may play open", lambda r: r.boxes_open_per_player),
    ("boxes.open_adjacent", "A player's open boxes next to each other", lambda r: r.boxes_open_adjacent),
    ("boxes.blind_beyond_open", "Further boxes played blind", lambda r: r.boxes_blind_beyond_open),
)


def _insurance_stake(r: HouseRules) -> str:
    top = (
        "the bet's possible win"
        if r.insurance_max is InsuranceMax.BET_PAYOUT
        else f"{r.insurance_max_antes} antes"
    )
    return f"{r.insurance_min_antes} ante(s) to {top}"


def presets_side_by_side() -> dict[str, Any]:
    """The shipped presets side by side, as JSON-able data generated from the rules files (for the
    reference pages and `GET /api/v1/rules`). Shape:

    ``{"game": "russian-poker", "default": "cis",
       "presets": [{"name": "cis", "title": ..., "source": ..., "not_applied": [...]}, ...],
       "rows": [{"key": "bet.odds.royal_flush", "label": "Bet pays on royal flush",
                 "values": {"cis": 100, "lunar": 100, ...}, "same": true}, ...]}``

    `values` holds, per preset name, an int (odds "x to 1", chips or antes), a bool, a string (an
    option's value such as "highest", or a range "2 to 5"), or null when the preset has no such row
    (e.g. no Super table). `same` is true when every preset agrees, so a page can highlight the rest.
    Rows come in the order of the rules files' sections.

    >>> table = presets_side_by_side()
    >>> row = next(r for r in table["rows"] if r["key"] == "buy_game.replaces")
    >>> row["values"]["cis"], row["values"]["insured"], row["same"]
    ('highest', 'lowest', False)
    """
    return side_by_side(PRESETS, load_rules, _ROWS)
