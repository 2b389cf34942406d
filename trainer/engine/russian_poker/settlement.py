"""The ruling for one Russian poker box, step by step, under a house's rules.

`trainer.engine.russian_poker.settle` parses and checks the cards, then calls `settle_box`. The order
follows the table: instant payout and Super on the dealt cards, buys, fold, the dealer's game (and a
bought game), the comparison and the bet's pay table, the bonus, insurance, then the table maximum.

>>> from trainer.engine.russian_poker import settle
>>> for line in settle("Jh Jd 4s 4c 9h", "As Kd 7c 5h 2d", 10).steps:
...     print(line)
Player's hand: two pair (Jh Jd 4s 4c 9h).
Dealer's hand: ace-king (As Kd 7c 5h 2d).
The player's hand is higher: the bet 20 pays 2 to 1 = 40; the ante 10 is returned.
Net result: 40.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainer.engine.cards import Card, parse_cards
from trainer.engine.explain import Cards, Step, nstep, step
from trainer.engine.russian_poker.hands import (
    CardsLike,
    Combination,
    Hand,
    evaluate,
    second_combination,
    super_combinations,
)
from trainer.engine.russian_poker.rules import (
    CapScope,
    Category,
    FailedBuy,
    HouseRules,
    InsuranceMax,
    ReplaceCard,
    SuperCombination,
    resolve_rules,
)


@dataclass(frozen=True, slots=True)
class BetPayout:
    """What the bet wins when the player's hand beats a qualifying dealer (before any table maximum)."""

    hand: Hand
    odds: int  # the first and the second combination together
    second: Combination | None
    win: int


def bet_payout(cards: CardsLike, ante: int, rules: HouseRules | str | None = None) -> BetPayout:
    """The bet's win (bet = 2 x ante) for a hand that beats a qualifying dealer.

    >>> bet_payout("Kh Kd Ks Kc Ah", 10, "lunar").win  # 20 + 1 = 21 to 1 on a bet of 20
    420
    >>> bet_payout("Kh Kd Ks Kc Ah", 10).win  # CIS: only the higher combination
    400
    """
    rules = resolve_rules(rules)
    if isinstance(ante, bool) or not isinstance(ante, int) or ante < 1:
        raise ValueError(f"ante must be a whole number of chips >= 1, got {ante!r:.60}")
    hand = evaluate(cards)
    if hand.category is Category.HIGH_CARD:
        return BetPayout(hand, 0, None, 0)
    odds = rules.bet_odds[hand.category]
    second = second_combination(cards, rules) if rules.two_combinations else None
    if second is not None:
        odds += rules.bet_odds[second.category]
    return BetPayout(hand, odds, second, odds * 2 * ante)


def bonus_odds(hand: Hand, card_count: int, rules: HouseRules | str | None = None) -> int:
    """Bonus odds for a hand of 5 cards, or of 6 (after a bought sixth card); 0 below the table."""
    rules = resolve_rules(rules)
    if not isinstance(hand, Hand):
        raise ValueError(f"expected a Russian poker Hand (from evaluate), not {hand!r}")
    if isinstance(card_count, bool) or card_count not in (5, 6):
        raise ValueError(f"the bonus is paid on 5 cards, or 6 after a bought sixth card, not {card_count!r}")
    table = rules.bonus_odds6 if card_count == 6 else rules.bonus_odds5
    return table.get(hand.category, 0)


def replaced_card(dealer: CardsLike, rules: HouseRules | str | None = None) -> Card:
    """The dealer card swapped when a player buys the game: his highest or lowest, per house. A dealer
    without a game holds five different ranks, so the card is always unique.

    >>> replaced_card("Qs Jd 8c 4d 2s"), replaced_card("Qs Jd 8c 4d 2s", "insured")
    (Card('Qs'), Card('2s'))
    """
    cards = parse_cards(dealer)
    if len(cards) != 5:
        # one card, or six, has no "highest of the dealer's hand" that a buy could replace
        raise ValueError(f"the dealer holds 5 cards, not {len(cards)}")
    rules = resolve_rules(rules)
    pick = max if rules.buy_game_replaces is ReplaceCard.HIGHEST else min
    return pick(cards, key=lambda c: c.rank)


@dataclass(frozen=True, slots=True)
class Settlement:
    """One box settled. Amounts are the player's signed results in chips; `net` is their sum."""

    ante: int
    bet: int
    bonus: int
    fees: int  # <= 0: the buys, never returned
    insurance: int
    super_bet: int
    net: int
    dealer_qualifies: bool  # whether the dealer's final hand (after a bought game) has a game
    dealer_hand: Hand  # the dealer's final hand
    player_hand: Hand
    second: Combination | None  # the second combination paid under the two-combination rule
    instant: bool  # paid by an instant payout: the round ended there
    capped: int  # chips the table maximum kept back (>= 0)
    replaced: tuple[Card, Card] | None  # (dealer card removed, card drawn) when the game was bought
    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Box:
    """One box's cards and stakes, already parsed and checked for duplicates."""

    player: tuple[Card, ...]
    dealer: tuple[Card, ...]
    ante: int
    bonus: int
    folded: bool
    exchanges: int
    game_card: Card | None
    dealt: tuple[Card, ...] | None
    super_bet: int
    super_on_dealer: bool
    insurance: int


def _check_buys(box: Box, rules: HouseRules, dealer_game: bool) -> None:
    six = len(box.player) == 6
    if six and not rules.sixth_card_allowed:
        raise ValueError(f"{rules.title}: buying a sixth card is not allowed")
    allowed = rules.max_exchanges if rules.exchange_allowed else 0
    if box.exchanges > allowed:
        raise ValueError(f"{rules.title}: at most {allowed} exchange(s) per hand, not {box.exchanges}")
    if six and box.exchanges and not rules.sixth_card_with_exchange:
        raise ValueError(f"{rules.title}: exchange and sixth card are alternatives, not both")
    if box.game_card is not None:
        if not rules.buy_game_allowed:
            raise ValueError(f"{rules.title}: the game cannot be bought from the dealer")
        if box.folded:
            raise ValueError("a player who folded cannot buy the game")
        if dealer_game:
            raise ValueError("the dealer has a game: there is no game to buy")


def _check_dealt(box: Box, rules: HouseRules) -> None:
    """The dealt five must fit the final hand: without an exchange they are the final cards (all five,
    or five of the six after a sixth card); an exchange discards cards that never come back, so the
    dealt cards missing from the final hand are the discards, as many as the exchanges allow."""
    if box.dealt is None:
        return
    dealt, final = set(box.dealt), set(box.player)
    discarded = dealt - final
    if not box.exchanges:
        if discarded:
            raise ValueError(
                f"without an exchange the dealt cards stay in the hand, but {_cards(discarded)} "
                "of the dealt five are not in the player's final cards"
            )
        return
    low, high = rules.exchange_min_cards, min(5, box.exchanges * rules.exchange_max_cards)
    if not low <= len(discarded) <= high:
        raise ValueError(
            f"{box.exchanges} exchange(s) discard {low} to {high} of the dealt cards, but "
            f"{len(discarded)} of them ({_cards(discarded) or 'none'}) are missing from the final cards"
        )


def _cards(cards: set[Card]) -> str:
    return " ".join(str(c) for c in sorted(cards, key=lambda c: (-c.rank, c.index)))


def insurance_limits(cards: CardsLike, ante: int, rules: HouseRules | str | None = None) -> tuple[int, int]:
    """The least and the most a box may insure: from `insurance.min_antes` antes up to what the bet
    can really be paid (its win with this hand, the table maximum applied), or a number of antes.
    Under a table maximum below the ante the least is more than the most: no stake is allowed.

    >>> insurance_limits("Ah Kh Qh Jh Th", 500, "insured")  # the win 100,000 is cut to the maximum
    (500, 5000)
    >>> insurance_limits("9c 9d 9h Kc 3s", 10, "insured")  # three of a kind: 3 to 1 on the bet 20
    (10, 60)
    """
    rules = resolve_rules(rules)
    if isinstance(ante, bool) or not isinstance(ante, int) or ante < 1:
        raise ValueError(f"ante must be a whole number of chips >= 1, got {ante!r:.60}")
    low = rules.insurance_min_antes * ante
    if rules.insurance_max is InsuranceMax.ANTES:
        return low, rules.insurance_max_antes * ante
    win = bet_payout(cards, ante, rules).win
    return low, min(win, rules.table_max_payout) if rules.table_max_payout else win


def _check_side_bets(box: Box, rules: HouseRules, hand: Hand) -> None:
    if box.bonus and not rules.bonus_offered:
        raise ValueError(f"{rules.title}: the table offers no bonus bet")
    if rules.super_offered and rules.super_compulsory and not box.super_bet:
        raise ValueError(
            f"{rules.title}: the Super bet is compulsory: stake at least {rules.super_min_antes * box.ante} "
            "on the player's own box or on the dealer's hand"
        )
    if box.super_bet:
        if not rules.super_offered:
            raise ValueError(f"{rules.title}: the table offers no Super bet")
        if box.super_on_dealer and not rules.super_on_dealer:
            raise ValueError(f"{rules.title}: no Super bet on the dealer's hand")
        if box.super_bet < rules.super_min_antes * box.ante:
            raise ValueError(f"the Super bet must be at least {rules.super_min_antes * box.ante}")
        if box.dealt is None and not box.super_on_dealer:
            raise ValueError("the Super bet is settled on the dealt five cards: give `dealt`")
    if box.insurance:
        if not rules.insurance_offered:
            raise ValueError(f"{rules.title}: the table offers no insurance")
        if box.folded:
            raise ValueError("a player who folded cannot insure his bet")
        if box.game_card is not None:
            raise ValueError("an insured player takes the no-game payout: he cannot also buy the game")
        if hand.category.rank < rules.insurance_min_category.rank:
            raise ValueError(f"insurance needs {rules.insurance_min_category.label} or better")
        low, high = insurance_limits(box.player, box.ante, rules)
        if low > high:
            raise ValueError(
                f"this box cannot be insured: the least stake, {low}, is more than the most, {high} "
                "(what the bet can really be paid, the table maximum applied)"
            )
        if box.insurance < low:
            raise ValueError(f"insurance must be at least {low}, not {box.insurance}")
        if box.insurance > high:
            if rules.insurance_max is InsuranceMax.ANTES:
                most = f"{rules.insurance_max_antes} antes = {high}"
                raise ValueError(f"insurance may be at most {most}, not {box.insurance}")
            win = bet_payout(box.player, box.ante, rules).win
            reason = (
                f"the bet's win {win} cut to the table maximum {high}"
                if win > high
                else f"the bet's win with {hand.category.label}"
            )
            raise ValueError(
                f"insurance may be at most what the bet can really be paid, {high} ({reason}), "
                f"not {box.insurance}"
            )


class _Ruling:
    """Collects amounts and explanation steps while `settle_box` walks through the rules."""

    def __init__(self) -> None:
        self.ante = self.bet = self.bonus = self.insurance = self.super_bet = 0
        self.steps: list[Step] = []

    def say(self, message: Step) -> None:
        self.steps.append(message)


def settle_box(box: Box, rules: HouseRules) -> Settlement:
    """Settle a checked box (see `trainer.engine.russian_poker.settle`)."""
    a = box.ante
    hand = evaluate(box.player)
    dealer_first = evaluate(box.dealer)
    dealer_game = dealer_first.category.rank >= Category.ACE_KING.rank
    _check_buys(box, rules, dealer_game)
    _check_dealt(box, rules)
    _check_side_bets(box, rules, hand)
    r = _Ruling()
    r.say(step("Player's hand: {hand} ({cards}).", hand=hand.category.term, cards=Cards.of(hand.cards)))
    dealt = evaluate(box.dealt) if box.dealt is not None else None
    instant = dealt is not None and dealt.category in rules.instant_odds
    buys = box.exchanges + (len(box.player) == 6) + (box.game_card is not None)
    if instant and (buys or box.folded or box.insurance):
        raise ValueError("a dealt royal or straight flush is paid at once: the round is over")
    fees = -buys * rules.buy_cost_antes * a
    if buys:
        r.say(
            nstep(
                "Buys: {count} buy at {cost} = {fees}, kept by the house.",
                "Buys: {count} buys at {cost} each = {fees}, kept by the house.",
                count=buys,
                cost=rules.buy_cost_antes * a,
                fees=-fees,
            )
        )
    if box.super_bet:
        _super(r, box, rules)
    dealer_hand, replaced = dealer_first, None
    main_win = 0  # the win the table maximum may limit: the bet's, or an instant payout
    second = None
    if instant and dealt is not None:
        odds = rules.instant_odds[dealt.category]
        r.ante = main_win = odds * a
        r.say(
            step(
                "Instant payout (dealt hand: {category}): the ante {ante} pays {odds} to 1 = {win}; "
                "the round is over.",
                category=dealt.category.term,
                odds=odds,
                ante=a,
                win=r.ante,
            )
        )
    elif box.folded:
        r.ante = -a
        r.say(step("The player folds: the ante {ante} is lost.", ante=a))
    else:
        r.say(
            step(
                "Dealer's hand: {hand} ({cards}).",
                hand=dealer_first.category.term,
                cards=Cards.of(dealer_first.cards),
            )
        )
        if not dealer_game and box.game_card is not None:
            removed = replaced_card(box.dealer, rules)
            replaced = (removed, box.game_card)
            dealer_hand = evaluate([c for c in box.dealer if c != removed] + [box.game_card])
            params = {"removed": Cards.of([removed]), "drawn": Cards.of([box.game_card])}
            if rules.buy_game_replaces is ReplaceCard.HIGHEST:
                r.say(
                    step(
                        "No game; the player buys the game: the dealer replaces his highest card "
                        "{removed} with {drawn}.",
                        **params,
                    )
                )
            else:
                r.say(
                    step(
                        "No game; the player buys the game: the dealer replaces his lowest card "
                        "{removed} with {drawn}.",
                        **params,
                    )
                )
            r.say(
                step(
                    "Dealer's new hand: {hand} ({cards}).",
                    hand=dealer_hand.category.term,
                    cards=Cards.of(dealer_hand.cards),
                )
            )
        if dealer_hand.category.rank < Category.ACE_KING.rank:
            _no_game(r, a, rules, bought=replaced is not None)
        else:
            main_win, second = _compare(r, box, rules, hand, dealer_hand)
    final_game = dealer_hand.category.rank >= Category.ACE_KING.rank
    if box.bonus:
        _bonus(r, box, rules, dealt if instant and dealt else hand, 5 if instant else len(box.player))
    if box.insurance:
        _insurance(r, box, rules, dealer_game)
    capped = _cap(r, rules, main_win, instant)
    net = r.ante + r.bet + r.bonus + fees + r.insurance + r.super_bet
    r.say(step("Net result: {net}.", net=net))
    return Settlement(
        ante=r.ante,
        bet=r.bet,
        bonus=r.bonus,
        fees=fees,
        insurance=r.insurance,
        super_bet=r.super_bet,
        net=net,
        dealer_qualifies=final_game,
        dealer_hand=dealer_hand,
        player_hand=hand,
        second=second,
        instant=instant,
        capped=capped,
        replaced=replaced,
        steps=tuple(r.steps),
    )


def _no_game(r: _Ruling, a: int, rules: HouseRules, *, bought: bool) -> None:
    if bought and rules.buy_game_on_fail is FailedBuy.ANTE_RETURNED:
        r.say(
            step("Still no game: the ante {ante} and the bet {bet} are returned unpaid.", ante=a, bet=2 * a)
        )
        return
    odds = rules.no_game_ante_odds
    r.ante = odds * a
    params = {"ante": a, "odds": odds, "win": r.ante, "bet": 2 * a}
    if bought:
        r.say(
            step(
                "Still no game: the ante {ante} is paid {odds} to 1 = {win}; the bet {bet} is returned.",
                **params,
            )
        )
    else:
        r.say(
            step(
                "The dealer has no game: the ante {ante} is paid {odds} "
                "to 1 = {win}; the bet {bet} is returned.",
                **params,
            )
        )


def _compare(
    r: _Ruling, box: Box, rules: HouseRules, hand: Hand, dealer: Hand
) -> tuple[int, Combination | None]:
    a = box.ante
    if hand < dealer:
        r.ante, r.bet = -a, -2 * a
        r.say(
            step(
                "The dealer's hand is higher: the ante {ante} and the bet {bet} are lost.", ante=a, bet=2 * a
            )
        )
        return 0, None
    if hand == dealer:
        r.say(step("Equal hands: the ante {ante} and the bet {bet} are returned (push).", ante=a, bet=2 * a))
        return 0, None
    pay = bet_payout(box.player, a, rules)
    r.bet = pay.win
    first_odds = rules.bet_odds[hand.category]
    if rules.win_ante_odds:
        r.ante = rules.win_ante_odds * a
        r.say(step("The ante {ante} pays {odds} to 1 = {win}.", ante=a, odds=rules.win_ante_odds, win=r.ante))
    params = {"bet": 2 * a, "odds": first_odds, "win": first_odds * 2 * a, "ante": a}
    if rules.win_ante_odds:
        r.say(
            step(
                "The player's hand is higher: the bet {bet} pays {odds} "
                "to 1 = {win}; the ante is paid as above.",
                **params,
            )
        )
    else:
        r.say(
            step(
                "The player's hand is higher: the bet {bet} pays {odds} to "
                "1 = {win}; the ante {ante} is returned.",
                **params,
            )
        )
    if pay.second is not None:
        # Name the card the second has outside the first's scoring cards: the hand named above shows
        # the first's kicker too, and the kicker may be the very card ("four of a kind (Ad Ac Ah As
        # Kc)", the second ace-king Ad Kc).
        outside = [c for c in pay.second.cards if c not in pay.hand.scoring]
        common = {
            "second": pay.second.category.term,
            "cards": Cards.of(pay.second.cards),
            "odds": pay.odds - first_odds,
            "total": pay.odds,
            "win": pay.win,
        }
        r.say(
            step(
                "Two combinations: the second ({second}: {cards}) uses {outside}, not one of the cards "
                "that make the first ({scoring}), and pays {odds} to 1 more: {total} to 1 = {win}.",
                outside=Cards.of(outside),
                scoring=Cards.of(pay.hand.scoring),
                **common,
            )
            if outside
            # Equally best fives (two straights sharing four ranks): the second is outside another.
            else step(
                "Two combinations: the second ({second}: {cards}) uses a card outside the first and pays "
                "{odds} to 1 more: {total} to 1 = {win}.",
                **common,
            )
        )
    return pay.win, pay.second


def _bonus(r: _Ruling, box: Box, rules: HouseRules, hand: Hand, count: int) -> None:
    if box.folded and rules.bonus_requires_bet:
        r.bonus = -box.bonus
        r.say(step("The bonus {bonus} is lost with the fold.", bonus=box.bonus))
        return
    odds = bonus_odds(hand, count, rules)
    if odds:
        r.bonus = odds * box.bonus
        r.say(
            nstep(
                "The bonus {bonus} pays {odds} to 1 = {win} (hand: {category}, {count}\u00a0card).",
                "The bonus {bonus} pays {odds} to 1 = {win} (hand: {category}, {count}\u00a0cards).",
                count=count,
                bonus=box.bonus,
                category=hand.category.term,
                odds=odds,
                win=r.bonus,
            )
        )
    else:
        r.bonus = -box.bonus
        r.say(
            step(
                "The bonus {bonus} loses: the hand ({category}) is below a straight.",
                bonus=box.bonus,
                category=hand.category.term,
            )
        )


def _insurance(r: _Ruling, box: Box, rules: HouseRules, dealer_game: bool) -> None:
    if dealer_game:
        r.insurance = -box.insurance
        r.say(step("Insurance {stake} loses: the dealer has a game.", stake=box.insurance))
    else:
        r.insurance = rules.insurance_odds * box.insurance
        r.say(
            step(
                "Insurance {stake}: the dealer has no game, it pays {odds} to 1 = {win}.",
                stake=box.insurance,
                odds=rules.insurance_odds,
                win=r.insurance,
            )
        )


def super_row(cards: CardsLike, rules: HouseRules | str | None = None) -> SuperCombination | None:
    """The row of the house's Super table that five cards are paid by: the best row they make that
    the table has, or None (the Super bet loses).

    >>> super_row("Ah Kh Qh Jh Th", "lunar"), super_row("Qs Qd 9c 5h 2d", "lunar")
    (<SuperCombination.SAME_COLORED_STRAIGHT: 'same_colored_straight'>, None)
    """
    rules = resolve_rules(rules)
    return next((c for c in super_combinations(cards) if c in rules.super_odds), None)


def _super(r: _Ruling, box: Box, rules: HouseRules) -> None:
    on = box.dealer if box.super_on_dealer else box.dealt
    assert on is not None
    row = super_row(on, rules)
    if row is not None:
        odds = rules.super_odds[row]
        r.super_bet = odds * box.super_bet
        params = {"stake": box.super_bet, "combination": row.term, "odds": odds, "win": r.super_bet}
        if box.super_on_dealer:
            r.say(
                step(
                    "The Super bet {stake} on the dealer's first five cards pays {odds} to 1 = {win} "
                    "(row: {combination}).",
                    **params,
                )
            )
        else:
            r.say(
                step(
                    "The Super bet {stake} on the player's first five cards pays {odds} to 1 = {win} "
                    "(row: {combination}).",
                    **params,
                )
            )
    else:
        r.super_bet = -box.super_bet
        params = {"stake": box.super_bet, "category": evaluate(on).category.term}
        if box.super_on_dealer:
            r.say(
                step(
                    "The Super bet {stake} on the dealer's first five cards loses: no Super combination "
                    "(hand: {category}).",
                    **params,
                )
            )
        else:
            r.say(
                step(
                    "The Super bet {stake} on the player's first five cards loses: no Super combination "
                    "(hand: {category}).",
                    **params,
                )
            )


def _cap(r: _Ruling, rules: HouseRules, main_win: int, instant: bool) -> int:
    """Apply the table maximum; returns the chips kept back."""
    cap = rules.table_max_payout
    if not cap:
        return 0
    paid_main = min(main_win, cap)
    kept = main_win - paid_main
    if instant:
        r.ante = paid_main
    elif main_win:
        r.bet = paid_main
    if kept:
        r.say(
            step(
                "Table maximum {cap}: the win {win} is cut to {paid}.", cap=cap, win=main_win, paid=paid_main
            )
        )
    if r.bonus > 0 and rules.table_max_scope is not CapScope.BET:
        room = cap if rules.table_max_scope is CapScope.EACH else cap - paid_main
        paid_bonus = min(r.bonus, room)
        if paid_bonus < r.bonus:
            r.say(
                step(
                    "Table maximum {cap}: the bonus win {win} is cut to {paid}.",
                    cap=cap,
                    win=r.bonus,
                    paid=paid_bonus,
                )
            )
            kept += r.bonus - paid_bonus
            r.bonus = paid_bonus
    return kept


__all__ = [
    "BetPayout",
    "Box",
    "Settlement",
    "bet_payout",
    "bonus_odds",
    "insurance_limits",
    "replaced_card",
    "settle_box",
    "super_row",
]
