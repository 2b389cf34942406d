"""The typical mistakes of a Russian poker settlement, computed by the engine (pure).

Every settling kind (`rp.bet_payout`, `rp.bonus_payout`, `rp.no_game`, `rp.buy`, `rp.settle`) shares
one catalogue: each mistake is the whole box settled with exactly one error (the stake counted in the
win, the ante paid although the dealer has a game, a pay-table row too high...), as results on the
spots (ante, bet, bonus, buys and the net, the net always their sum unless the mistake is in the net
itself). A kind's answer is then read off those spots the way the kind reads the right one, so a
mistake that does not show in what a kind asks (the ante, when only the bet is asked) drops out: its
answer is the right one.

Most errors are the engine's ruling under house rules changed in one respect (`dataclasses.replace`
on the preset: the two-combination rule, the table maximum, a pay-table row, the bonus column, the
card replaced in a bought game); the rest change one spot of the right ruling. `rp.qualify` (a choice)
has its own: half of ace-king taken for a game, ace-king not taken for one, the other card replaced.

The rule page's first example (ante 10, two pair beats the dealer's ace-king: ante 0, bet 40, net 40):

>>> data = {"rules": "cis", "ante": 10, "player": "Jh Jd 4s 4c 9h".split()}
>>> data["dealer"] = "As Kd 7c 5h 2d".split()
>>> for m in catalogue("rp.settle", data)[:4]:
...     print(m.id, m.answer)
rp.stake_in_payout {'Ante': 0, 'Bet': 60, 'Net': 60}
rp.stake_in_net {'Ante': 0, 'Bet': 40, 'Net': 70}
rp.ante_paid_with_game {'Ante': 10, 'Bet': 40, 'Net': 50}
rp.odds_on_ante {'Ante': 0, 'Bet': 20, 'Net': 20}
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from trainer.drills.base import AnswerKind, attach_mistakes, get_kind
from trainer.drills.mistakes import Mistake, MistakeType, mistake_type
from trainer.drills.russian_poker.deals import BONUS_PAYING, PAYING, house_rules
from trainer.drills.russian_poker.kinds import settle_data, spots_of
from trainer.engine.cards import parse_cards
from trainer.engine.explain import N_, Cards, Step, step
from trainer.engine.russian_poker import (
    Category,
    HouseRules,
    Settlement,
    bet_payout,
    dealer_qualifies,
    evaluate,
    replaced_card,
)
from trainer.engine.russian_poker.rules import FailedBuy, ReplaceCard

Data = dict[str, Any]
Spots = dict[str, int]

STAKE_IN_PAYOUT = mistake_type("rp.stake_in_payout", "The stake counted in the win")
STAKE_IN_NET = mistake_type("rp.stake_in_net", "The returned stakes counted in the net")
ANTE_PAID_WITH_GAME = mistake_type("rp.ante_paid_with_game", "The ante paid although the dealer has a game")
BET_PAID_NO_GAME = mistake_type("rp.bet_paid_no_game", "The bet paid although the dealer has no game")
ANTE_RETURNED_NO_GAME = mistake_type(
    "rp.ante_returned_no_game", "The ante not paid when the dealer has no game"
)
ODDS_ON_ANTE = mistake_type("rp.odds_on_ante", "The odds applied to the ante instead of the bet")
ROW_UP = mistake_type("rp.row_up", "A pay-table row too high")
ROW_DOWN = mistake_type("rp.row_down", "A pay-table row too low")
SECOND_FORGOTTEN = mistake_type("rp.second_forgotten", "The second combination forgotten")
SECOND_PAID = mistake_type("rp.second_paid", "A second combination paid where only one is")
CAP_IGNORED = mistake_type("rp.cap_ignored", "The table maximum ignored")
BONUS_FORGOTTEN = mistake_type("rp.bonus_forgotten", "The bonus win forgotten")
BONUS_LOSS_MISSED = mistake_type("rp.bonus_loss_missed", "A lost bonus not taken")
BONUS_WRONG_COLUMN = mistake_type("rp.bonus_wrong_column", "The bonus paid from the wrong column")
FEES_FORGOTTEN = mistake_type("rp.fees_forgotten", "The buys forgotten")
FEES_NOT_IN_NET = mistake_type("rp.fees_not_in_net", "The buys left out of the net")
ONE_FEE = mistake_type("rp.one_fee", "One price for several buys")
FEE_ON_BET = mistake_type("rp.fee_on_bet", "A buy priced on the bet")
FOLD_BET_LOST = mistake_type("rp.fold_bet_lost", "A bet taken from a player who folded")
FOLD_PAID = mistake_type("rp.fold_paid", "The ante paid to a player who folded")
PUSH_PAID = mistake_type("rp.push_paid", "A push paid as a win")
LOSS_ANTE_KEPT = mistake_type("rp.loss_ante_kept", "The ante not taken when the dealer wins")
BOUGHT_GAME_IGNORED = mistake_type("rp.bought_game_ignored", "The bought game ignored")
WRONG_CARD_REPLACED = mistake_type("rp.wrong_card_replaced", "The wrong dealer card replaced")
FAILED_BUY_RULE = mistake_type("rp.failed_buy_rule", "The wrong ruling for a bought game that fails")
ACE_HIGH_GAME = mistake_type("rp.half_ace_king_game", "An ace or a king alone counted as a game")
ACE_KING_NO_GAME = mistake_type("rp.ace_king_no_game", "Ace-king not counted as a game")


@dataclass(frozen=True)
class _Box:
    """One settled situation: the right ruling and what the mistakes are built from."""

    data: Data
    rules: HouseRules
    right: Settlement

    @property
    def ante(self) -> int:
        return int(self.data["ante"])

    @property
    def bonus(self) -> int:
        return int(self.data.get("bonus", 0))

    @property
    def folded(self) -> bool:
        return bool(self.data.get("folded"))

    @property
    def buys(self) -> int:
        player = self.data["player"]
        return int(self.data.get("exchanges", 0)) + (len(player) == 6) + bool(self.data.get("game_card"))

    @property
    def win(self) -> bool:
        """The player beat a dealer with a game."""
        return not self.folded and self.right.dealer_qualifies and self.right.bet > 0

    @property
    def no_game(self) -> bool:
        return not self.folded and not self.right.dealer_qualifies

    def spots(self, **changes: int) -> Spots:
        """The right results with some spots changed; the net is their sum unless given."""
        s = self.right
        values = {"Ante": s.ante, "Bet": s.bet, "Bonus": s.bonus, "Super": s.super_bet, "Buys": s.fees}
        values.update({k: v for k, v in changes.items() if k != "Net"})
        values["Net"] = changes.get("Net", sum(values.values()))
        return values

    def under(self, **rule_changes: Any) -> Settlement | None:
        """The ruling under house rules changed in one respect (None if the engine refuses it)."""
        try:
            return settle_data(self.data, replace(self.rules, **rule_changes))
        except ValueError:
            return None


def _settled(s: Settlement) -> Spots:
    return spots_of(s)


Found = Iterator[tuple[MistakeType, Spots, Step]]


def _stakes(box: _Box) -> Found:
    s, a = box.right, box.ante
    if s.bet > 0:
        yield (
            STAKE_IN_PAYOUT,
            box.spots(Bet=s.bet + 2 * a),
            step(
                "You added the stake {stake} to the win: a payout is the win alone, {win}, and the stake "
                "is returned beside it.",
                stake=2 * a,
                win=s.bet,
            ),
        )
    if s.bonus > 0:
        yield (
            STAKE_IN_PAYOUT,
            box.spots(Bonus=s.bonus + box.bonus),
            step(
                "You added the stake {stake} to the win: a payout is the win alone, {win}, and the stake "
                "is returned beside it.",
                stake=box.bonus,
                win=s.bonus,
            ),
        )
    returned = (0 if box.folded or s.ante < 0 else a) + (0 if box.folded or s.bet < 0 else 2 * a)
    returned += box.bonus if box.bonus and s.bonus >= 0 else 0
    if returned:
        yield (
            STAKE_IN_NET,
            box.spots(Net=s.net + returned),
            step(
                "You counted the stakes returned to the player ({stakes}) in the net: the net is only what "
                "he wins or loses, {net}.",
                stakes=returned,
                net=s.net,
            ),
        )


def _game_or_not(box: _Box) -> Found:
    s, a, rules = box.right, box.ante, box.rules
    if box.win and s.ante == 0 and rules.no_game_ante_odds:
        yield (
            ANTE_PAID_WITH_GAME,
            box.spots(Ante=rules.no_game_ante_odds * a),
            step(
                "The dealer has a game, so the ante {ante} is returned unpaid; it is paid only when the "
                "dealer has no game.",
                ante=a,
            ),
        )
    if box.no_game and s.player_hand.category is not Category.HIGH_CARD:
        paid = bet_payout(box.data["player"], a, rules).win
        yield (
            BET_PAID_NO_GAME,
            box.spots(Ante=0, Bet=paid),
            step(
                "The dealer has no game, so the bet {bet} is returned unpaid: the pay table applies only "
                "against a dealer with a game.",
                bet=2 * a,
            ),
        )
    if box.no_game and s.ante > 0:
        yield (
            ANTE_RETURNED_NO_GAME,
            box.spots(Ante=0),
            step(
                "The dealer has no game, so the ante {ante} is paid {odds} to 1 = {win}, not just returned.",
                ante=a,
                odds=rules.no_game_ante_odds,
                win=s.ante,
            ),
        )


def _bet_table(box: _Box) -> Found:
    s, a, rules = box.right, box.ante, box.rules
    if not box.win:
        return
    pay = bet_payout(box.data["player"], a, rules)
    if not s.capped:
        yield (
            ODDS_ON_ANTE,
            box.spots(Bet=pay.odds * a),
            step(
                "The odds apply to the bet, which is twice the ante: {bet} x {odds} = {win}.",
                bet=2 * a,
                odds=pay.odds,
                win=pay.win,
            ),
        )
    yield from _rows(box, s.player_hand.category, rules.bet_odds, PAYING, "bet_odds")
    if s.second is not None:
        mistaken = box.under(two_combinations=False)
        if mistaken is not None:
            yield (
                SECOND_FORGOTTEN,
                _settled(mistaken),
                step(
                    "This house pays two combinations: the second, {second}, adds {odds} to 1, so the bet "
                    "wins {win}.",
                    second=s.second.said,
                    odds=rules.bet_odds[s.second.category],
                    win=s.bet,
                ),
            )
    elif not rules.two_combinations:
        mistaken = box.under(two_combinations=True)
        if mistaken is not None and mistaken.second is not None:
            yield (
                SECOND_PAID,
                _settled(mistaken),
                step(
                    "This house pays only the best combination: {second} adds nothing, so the bet wins "
                    "{win}.",
                    second=mistaken.second.said,
                    win=s.bet,
                ),
            )
    if s.capped:
        mistaken = box.under(table_max_payout=0)
        if mistaken is not None:
            yield (
                CAP_IGNORED,
                _settled(mistaken),
                step(
                    "The table maximum is {cap}: the win {win} is cut to {paid}.",
                    cap=rules.table_max_payout,
                    win=mistaken.bet,
                    paid=s.bet,
                ),
            )


def _rows(
    box: _Box, category: Category, table: Mapping[Category, int], order: Sequence[Category], field: str
) -> Found:
    """The pay-table row above and below the hand's (where it pays differently), on the bet table or a
    bonus column (`field`, the `HouseRules` attribute)."""
    at = order.index(category)
    odds = table[category]
    for kind, other in ((ROW_UP, at - 1), (ROW_DOWN, at + 1)):
        if not 0 <= other < len(order):
            continue
        wrong = order[other]
        wrong_odds = table.get(wrong, 0)
        if not wrong_odds or wrong_odds == odds:
            continue
        mistaken = box.under(**{field: {**table, category: wrong_odds}})
        if mistaken is not None:
            text = step(
                "The pay table gives {category} {odds} to 1; {wrong_odds} to 1 is the row of {wrong}.",
                category=category.term,
                odds=odds,
                wrong_odds=wrong_odds,
                wrong=wrong.term,
            )
            yield kind, _settled(mistaken), text


def _bonus(box: _Box) -> Found:
    s, rules, b = box.right, box.rules, box.bonus
    if not b:
        return
    if s.bonus > 0:
        yield (
            BONUS_FORGOTTEN,
            box.spots(Bonus=0),
            step("The bonus {bonus} is settled too: it wins {win}.", bonus=b, win=s.bonus),
        )
    if s.bonus < 0:
        text = (
            step("The bonus {bonus} is lost with the fold.", bonus=b)
            if box.folded
            else step(
                "{category} is below the bonus table, so the bonus {bonus} is lost.",
                category=s.player_hand.category.term,
                bonus=b,
            )
        )
        yield BONUS_LOSS_MISSED, box.spots(Bonus=0), text
    if box.folded:
        return
    count = len(box.data["player"])
    table = rules.bonus_odds6 if count == 6 else rules.bonus_odds5
    odds = table.get(s.player_hand.category, 0)
    if s.bonus > 0:
        swapped = box.under(bonus_odds5=rules.bonus_odds6, bonus_odds6=rules.bonus_odds5)
        if swapped is not None:
            yield (
                BONUS_WRONG_COLUMN,
                _settled(swapped),
                step(
                    "A bonus on {count}\u00a0cards is paid from the table for {count}\u00a0cards: "
                    "{odds} to 1 = {win}.",
                    count=count,
                    odds=odds,
                    win=s.bonus,
                ),
            )
        field = "bonus_odds6" if count == 6 else "bonus_odds5"
        yield from _rows(box, s.player_hand.category, table, BONUS_PAYING, field)


def _buys(box: _Box) -> Found:
    s, rules, a = box.right, box.rules, box.ante
    if not s.fees:
        return
    cost = rules.buy_cost_antes * a
    yield (
        FEES_FORGOTTEN,
        box.spots(Buys=0),
        step(
            "Every buy costs {cost} and is never returned: the buys come to {fees}.", cost=cost, fees=s.fees
        ),
    )
    yield (
        FEES_NOT_IN_NET,
        box.spots(Net=s.net - s.fees),
        step("The buys, {fees}, count in the net: {net}.", fees=s.fees, net=s.net),
    )
    if box.buys > 1:
        yield (
            ONE_FEE,
            box.spots(Buys=-cost),
            step(
                "Every buy is paid for: {count} x {cost} = {fees}.", count=box.buys, cost=cost, fees=-s.fees
            ),
        )
    yield (
        FEE_ON_BET,
        box.spots(Buys=2 * s.fees),
        step(
            "A buy is priced on the ante, not on the bet: {count} x {cost} = {fees}.",
            count=box.buys,
            cost=cost,
            fees=-s.fees,
        ),
    )


def _fold_push_loss(box: _Box) -> Found:
    s, a, rules = box.right, box.ante, box.rules
    if box.folded:
        yield (
            FOLD_BET_LOST,
            box.spots(Bet=-2 * a),
            step("A player who folds has made no bet: only the ante {ante} is lost.", ante=a),
        )
        if not s.dealer_qualifies:
            yield (
                FOLD_PAID,
                box.spots(Ante=rules.no_game_ante_odds * a),
                step(
                    "The player folded, so the ante {ante} is lost even though the dealer has no game.",
                    ante=a,
                ),
            )
        return
    push = s.dealer_qualifies and s.ante == 0 and s.bet == 0
    if push and s.player_hand.category is not Category.HIGH_CARD:
        yield (
            PUSH_PAID,
            box.spots(Bet=bet_payout(box.data["player"], a, rules).win),
            step("Equal hands are a push: the ante and the bet are returned and nothing is paid."),
        )
    if s.ante < 0 and s.bet < 0:
        yield (
            LOSS_ANTE_KEPT,
            box.spots(Ante=0),
            step("The dealer's hand is higher, so the ante {ante} is lost as well as the bet.", ante=a),
        )


def _other_card(rules: HouseRules) -> ReplaceCard:
    """The card a bought game replaces in the houses that do it the other way."""
    return ReplaceCard.LOWEST if rules.buy_game_replaces is ReplaceCard.HIGHEST else ReplaceCard.HIGHEST


_REPLACES = {
    ReplaceCard.HIGHEST: N_(
        "In this house the dealer replaces his highest card, {removed}, when the game is bought."
    ),
    ReplaceCard.LOWEST: N_(
        "In this house the dealer replaces his lowest card, {removed}, when the game is bought."
    ),
}


def replaces_said(rules: HouseRules, removed: Any) -> Step:
    """The house's rule on the card a bought game replaces, one sentence per rule (the adjective agrees
    with "card" in Georgian and Russian)."""
    return step(_REPLACES[rules.buy_game_replaces], removed=Cards.of([removed]))


def _bought_game(box: _Box) -> Found:
    s, a, rules = box.right, box.ante, box.rules
    if not box.data.get("game_card") or box.folded:
        return
    if s.dealer_qualifies:
        yield (
            BOUGHT_GAME_IGNORED,
            box.spots(Ante=rules.no_game_ante_odds * a, Bet=0),
            step(
                "After the bought game the dealer holds {hand}, a game: the hands are compared as usual.",
                hand=s.dealer_hand.said,
            ),
        )
    mistaken = box.under(buy_game_replaces=_other_card(rules))
    if mistaken is not None and s.replaced is not None:
        yield (
            WRONG_CARD_REPLACED,
            _settled(mistaken),
            replaces_said(rules, s.replaced[0]),
        )
    if not s.dealer_qualifies:
        flipped = (
            FailedBuy.ANTE_RETURNED if rules.buy_game_on_fail is FailedBuy.ANTE_PAID else FailedBuy.ANTE_PAID
        )
        mistaken = box.under(buy_game_on_fail=flipped)
        if mistaken is not None:
            text = (
                step(
                    "When a bought game still has no game, this house pays the ante {odds} to 1 and returns "
                    "the bet.",
                    odds=rules.no_game_ante_odds,
                )
                if rules.buy_game_on_fail is FailedBuy.ANTE_PAID
                else step(
                    "When a bought game still has no game, this house returns the ante and the bet unpaid."
                )
            )
            yield FAILED_BUY_RULE, _settled(mistaken), text


# Most common first: when two mistakes lead to the same answer, the first is the one named.
_FINDERS = (_stakes, _game_or_not, _fold_push_loss, _bet_table, _bonus, _buys, _bought_game)


def _answer(kind_id: str, data: Data, spots: Spots) -> Any:
    """What a trainee with these results answers to this kind's question."""
    fmt = get_kind(kind_id).answer_format(data)
    if fmt.kind is AnswerKind.AMOUNTS:
        return {label: spots[label] for label in fmt.labels}
    if kind_id == "rp.bonus_payout":
        return spots["Bonus"]
    if kind_id == "rp.buy":
        return -spots["Buys"]
    return spots["Bet"]


def catalogue(kind_id: str, data: Data) -> list[Mistake]:
    """Every catalogued mistake that applies to this situation, most common first."""
    box = _Box(data, house_rules(data["rules"]), settle_data(data))
    return [
        Mistake(kind, _answer(kind_id, data, spots), text)
        for finder in _FINDERS
        for kind, spots, text in finder(box)
    ]


def catalogue_qualify(data: Data) -> list[Mistake]:
    """Does the dealer have a game: the half of ace-king taken for a game, ace-king not taken for one,
    and, after a bought game, the other card replaced."""
    rules = house_rules(data["rules"])
    dealer = parse_cards(data["dealer"])
    if data.get("game_card"):
        gone = replaced_card(dealer, rules)
        other = replaced_card(dealer, replace(rules, buy_game_replaces=_other_card(rules)))
        drawn = parse_cards([data["game_card"]])
        right = dealer_qualifies([*(c for c in dealer if c != gone), *drawn])
        wrong = dealer_qualifies([*(c for c in dealer if c != other), *drawn])
        if wrong == right:
            return []
        text = replaces_said(rules, gone)
        return [Mistake(WRONG_CARD_REPLACED, "yes" if wrong else "no", text)]
    hand = evaluate(dealer).category
    ranks = {c.rank for c in dealer}
    if hand is Category.HIGH_CARD and (14 in ranks) != (13 in ranks):
        return [
            Mistake(
                ACE_HIGH_GAME, "yes", step("Below ace-king (no pair, not both an ace and a king): no game.")
            )
        ]
    if hand is Category.ACE_KING:
        return [Mistake(ACE_KING_NO_GAME, "no", step("Ace-king or better is a game: the dealer qualifies."))]
    return []


attach_mistakes("rp.qualify", catalogue_qualify)

SETTLING_KINDS = ("rp.bet_payout", "rp.bonus_payout", "rp.no_game", "rp.buy", "rp.settle")

for _kind_id in SETTLING_KINDS:
    attach_mistakes(_kind_id, lambda data, kind_id=_kind_id: catalogue(kind_id, data))
