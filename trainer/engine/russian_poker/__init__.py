"""Russian poker: hands, dealer qualification and the settlement of one box, under house rules.

The rules (pay tables, buys, house options) come from a `HouseRules` object loaded from
`data/rules/russian-poker/*.toml` (default: `cis.toml`). Every amount in a `Settlement` is the player's
signed result in chips: a win > 0, a loss < 0, a stake returned = 0.

The rule page's worked examples:

1. Ante 10, two pair against the dealer's ace-king: the bet 20 pays 2 to 1, the ante is returned.

>>> settle("Jh Jd 4s 4c 9h", "As Kd 7c 5h 2d", 10).net
40

2. Ante 25, bonus 5, straight flush against a dealer with no game: ante paid, bet returned, bonus 500 to 1.

>>> s = settle("6h 7h 8h 9h Th", "Qs Jd 8c 4d 2s", 25, bonus=5)
>>> s.ante, s.bet, s.bonus, s.net
(25, 0, 2500, 2525)

3. Ante 10, bonus 10, a bought sixth card makes a flush; the dealer has a lower pair.

>>> s = settle("Ah Jh 9h 6h 2h 3c", "8s 8d Kc 7s 2c", 10, bonus=10)
>>> s.bet, s.bonus, s.fees, s.net
(100, 150, -10, 240)

4. Ante 50, pair of eights against pair of eights with the same kickers: push.

>>> settle("8h 8d Kc 7s 2c", "8s 8c Kd 7h 2d", 50).net
0

5. Ante 20, the player folds.

>>> settle("9h 7d 5c 3s 2c", "As Kd 7c 5h 2d", 20, folded=True).net
-20
"""

from __future__ import annotations

from trainer.engine.cards import Card, parse_cards
from trainer.engine.russian_poker.boxes import (
    BoxError,
    BoxFault,
    BoxMode,
    Table,
    TableBox,
    check_blind_box,
    check_table,
    table_faults,
)
from trainer.engine.russian_poker.hands import (
    CardsLike,
    Combination,
    Hand,
    dealer_qualifies,
    evaluate,
    second_combination,
    super_combinations,
)
from trainer.engine.russian_poker.rules import (
    Category,
    HouseRules,
    SuperCombination,
    load_rules,
    presets_side_by_side,
    resolve_rules,
)
from trainer.engine.russian_poker.settlement import (
    BetPayout,
    Box,
    Settlement,
    bet_payout,
    bonus_odds,
    insurance_limits,
    replaced_card,
    settle_box,
    super_row,
)

__all__ = [
    "BetPayout",
    "BoxError",
    "BoxFault",
    "BoxMode",
    "Category",
    "Combination",
    "Hand",
    "HouseRules",
    "Settlement",
    "SuperCombination",
    "Table",
    "TableBox",
    "bet_payout",
    "bonus_odds",
    "check_blind_box",
    "check_exchange",
    "check_table",
    "dealer_qualifies",
    "evaluate",
    "insurance_limits",
    "load_rules",
    "presets_side_by_side",
    "replaced_card",
    "second_combination",
    "settle",
    "super_combinations",
    "super_row",
    "table_faults",
]


def check_exchange(discards: int, rules: HouseRules | str | None = None) -> None:
    """Raise `ValueError` unless the house lets a player exchange this many cards at once.

    >>> check_exchange(1)
    >>> check_exchange(1, load_rules("lunar"))
    Traceback (most recent call last):
    ...
    ValueError: Lunar Poker: an exchange is 2 to 5 cards, not 1
    """
    rules = resolve_rules(rules)
    if not rules.exchange_allowed:
        raise ValueError(f"{rules.title}: no exchange")
    if (
        isinstance(discards, bool)
        or not isinstance(discards, int)
        or not rules.exchange_min_cards <= discards <= rules.exchange_max_cards
    ):
        raise ValueError(
            f"{rules.title}: an exchange is {rules.exchange_min_cards} to {rules.exchange_max_cards} cards, "
            f"not {discards}"
        )


def _amount(name: str, value: int, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{name} must be a whole number of chips >= {minimum}, got {value!r}")
    return value


def _flag(name: str, value: bool) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be True or False, got {value!r:.60}")
    return value


def settle(
    player: CardsLike,
    dealer: CardsLike,
    ante: int,
    *,
    bonus: int = 0,
    folded: bool = False,
    exchanges: int = 0,
    buy_game_card: str | Card | None = None,
    rules: HouseRules | str | None = None,
    dealt: CardsLike | None = None,
    super_bet: int = 0,
    super_on_dealer: bool = False,
    insurance: int = 0,
    blind: bool = False,
) -> Settlement:
    """Settle one player's box against the dealer.

    `player` is the final 5 cards, or 6 after a bought sixth card; `exchanges` the exchanges paid for;
    `buy_game_card` the card the dealer draws when the player buys the game from a dealer with no game
    (the engine picks the replaced card by the house rule). `dealt` is the player's first five cards,
    needed for the Super bet and instant payouts when he drew cards (by default the final five when he
    bought nothing). `super_bet` is settled on the player's first five cards, or on the dealer's five
    with `super_on_dealer`. `insurance` is a stake against the dealer having no game (as dealt).
    `blind` marks a box played blind (a player's third or further box, see `boxes`): it buys no
    exchange and no sixth card. Illegal input raises `ValueError`.

    >>> s = settle("Qs Qd 9c 5h 2d", "Js 8d 7c 4h 3d", 10, buy_game_card="Jc")
    >>> s.replaced, s.dealer_hand.category, s.bet, s.fees, s.net
    ((Card('Js'), Card('Jc')), <Category.HIGH_CARD: 'high_card'>, 0, -10, 0)
    """
    rules = resolve_rules(rules)
    ante = _amount("ante", ante, 1)
    p = parse_cards(player)
    if _flag("blind", blind):
        check_blind_box(exchanges=exchanges, sixth_card=len(p) == 6)
    d = parse_cards(dealer)
    if len(p) not in (5, 6):
        raise ValueError(f"the player has 5 cards, or 6 after buying a sixth card, not {len(p)}")
    if len(d) != 5:
        raise ValueError(f"the dealer has 5 cards, not {len(d)}")
    first = parse_cards(dealt) if dealt is not None else (p if len(p) == 5 and exchanges == 0 else None)
    if first is not None and len(first) != 5:
        raise ValueError(f"the dealt hand has 5 cards, not {len(first)}")
    drawn = parse_cards([buy_game_card]) if buy_game_card is not None else ()
    on_table = [*p, *d, *drawn, *(c for c in first or () if c not in p)]
    if len(set(on_table)) != len(on_table):
        dup = next(c for c in on_table if on_table.count(c) > 1)
        raise ValueError(f"card {dup} is dealt twice")
    box = Box(
        player=p,
        dealer=d,
        ante=ante,
        bonus=_amount("bonus", bonus, 0),
        folded=_flag("folded", folded),
        exchanges=_amount("exchanges", exchanges, 0),
        game_card=drawn[0] if drawn else None,
        dealt=first,
        super_bet=_amount("super bet", super_bet, 0),
        super_on_dealer=_flag("super_on_dealer", super_on_dealer),
        insurance=_amount("insurance", insurance, 0),
    )
    return settle_box(box, rules)
