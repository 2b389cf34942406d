"""Russian poker drills: every ruling of the table as a graded question, under the house's rules.

Kinds: `rp.qualify`, `rp.combination`, `rp.bet_payout`, `rp.bonus_payout`, `rp.no_game`, `rp.buy`,
`rp.settle`. Each generator picks the branch first (the combination, game or no game, fold, push, a
bought game that succeeds or fails), deals cards that produce it (`russian_deals`), then checks the
situation with the engine; `solve` recomputes the answer from `trainer.engine.russian_poker`.

>>> from trainer.drills.base import issue, grade, expected_of
>>> situation = issue("rp.settle", 1, seed=3)
>>> grade(situation, expected_of(situation)[0]).correct
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from trainer.drills.base import (
    AnswerFormat,
    AnswerKind,
    Data,
    DealError,
    DrillKind,
    RulesError,
    Solution,
    define,
    prompt,
    retry,
)
from trainer.drills.russian_poker.deals import (
    BONUS_PAYING,
    PAYING,
    ante_for,
    bonus_for,
    build_hand,
    dealer_hand,
    house_rules,
    names,
    no_game_hand,
    other_cards,
    stake_super,
)
from trainer.engine.cards import FULL_DECK, Card, parse_cards
from trainer.engine.evaluator import strength5
from trainer.engine.explain import N_, Cards, Step, Term, nstep, step
from trainer.engine.russian_poker import (
    Category,
    HouseRules,
    Settlement,
    dealer_qualifies,
    evaluate,
    replaced_card,
    second_combination,
    settle,
)
from trainer.engine.russian_poker.rules import ReplaceCard
from trainer.games import RUSSIAN_POKER

GAME = RUSSIAN_POKER.id

YES_NO = AnswerFormat(
    AnswerKind.CHOICE, choices=(("yes", Term(N_("Yes, a game"))), ("no", Term(N_("No game"))))
)
CATEGORY_CHOICES = AnswerFormat(AnswerKind.CHOICE, choices=tuple((c.value, c.term) for c in Category))
AMOUNT = AnswerFormat(AnswerKind.AMOUNT)


def _cards(data: Data, key: str) -> tuple[Card, ...]:
    return parse_cards(data[key])


def settle_data(data: Data, rules: HouseRules | None = None) -> Settlement:
    """The engine's ruling on a whole-box situation (the fields every settling kind shares), under the
    situation's house rules or, for the mistake catalogue, `rules` changed in one respect."""
    return settle(
        _cards(data, "player"),
        _cards(data, "dealer"),
        data["ante"],
        bonus=data.get("bonus", 0),
        folded=data.get("folded", False),
        exchanges=data.get("exchanges", 0),
        buy_game_card=data.get("game_card"),
        rules=rules or house_rules(data["rules"]),
        dealt=data.get("dealt"),
        super_bet=data.get("super_bet", 0),
        super_on_dealer=data.get("super_on_dealer", False),
    )


def _text(amount: int) -> str:
    return f"{amount:,}"


def _amounts_text(values: dict[str, int]) -> str:
    return "; ".join(f"{label}: {_text(v)}" for label, v in values.items())


def _kind(kind_id: str, title: str, generate: Any, answer_format: Any, solve: Any) -> DrillKind:
    return define(GAME, kind_id, title, generate, answer_format, solve)


# rp.qualify ---------------------------------------------------------------------------------------


def _gen_qualify(rng: random.Random, level: int, rules_name: str | None) -> Data:
    rules = house_rules(rules_name)

    def make() -> Data:
        data: Data = {"rules": rules.name}
        if level == 3 and rules.buy_game_allowed and rng.random() < 0.5:
            dealer = no_game_hand(rng, ())
            gone = replaced_card(dealer, rules)
            kept = [c for c in dealer if c != gone]
            want = rng.random() < 0.5
            pool = [c for c in FULL_DECK if c not in dealer and dealer_qualifies([*kept, c]) == want]
            data.update(dealer=names(dealer), game_card=str(rng.choice(pool)))
            return prompt(
                data,
                step(
                    "The dealer shows {dealer} and has no game; the player buys the game and the dealer "
                    "draws {card}. Does the dealer have a game now?",
                    dealer=Cards.of(dealer),
                    card=Cards.of([data["game_card"]]),
                ),
            )
        if rng.random() < 0.5:
            dealer = no_game_hand(rng, ())
        else:
            weights = [4 if c is Category.ACE_KING else 3 if c is Category.PAIR else 1 for c in PAYING]
            dealer = build_hand(rng, rng.choices(PAYING, weights)[0], ())
        data["dealer"] = names(dealer)
        return prompt(
            data, step("The dealer opens {dealer}. Does the dealer have a game?", dealer=Cards.of(dealer))
        )

    return retry(make)


# One sentence per house rule: "highest" and "lowest" agree with "card" in Georgian and Russian.
_REPLACES = {
    ReplaceCard.HIGHEST: N_("The dealer replaces his highest card {removed} with {drawn}: {hand}."),
    ReplaceCard.LOWEST: N_("The dealer replaces his lowest card {removed} with {drawn}: {hand}."),
}


def _solve_qualify(data: Data) -> Solution:
    rules = house_rules(data["rules"])
    dealer = _cards(data, "dealer")
    steps = [step("Dealer's hand: {hand}.", hand=evaluate(dealer).said)]
    if data.get("game_card"):
        gone = replaced_card(dealer, rules)
        dealer = (*(c for c in dealer if c != gone), *parse_cards([data["game_card"]]))
        steps.append(
            step(
                _REPLACES[rules.buy_game_replaces],
                removed=Cards.of([gone]),
                drawn=Cards.of([data["game_card"]]),
                hand=evaluate(dealer).said,
            )
        )
    game = dealer_qualifies(dealer)
    if game:
        steps.append(step("Ace-king or better is a game: the dealer qualifies."))
    else:
        steps.append(step("Below ace-king (no pair, not both an ace and a king): no game."))
    return ("yes" if game else "no"), ("Yes, a game" if game else "No game"), tuple(steps)


_kind("rp.qualify", N_("Does the dealer have a game?"), _gen_qualify, lambda d: YES_NO, _solve_qualify)


# rp.combination -----------------------------------------------------------------------------------


def _gen_combination(rng: random.Random, level: int, rules_name: str | None) -> Data:
    rules = house_rules(rules_name)
    size = 6 if level == 3 and rng.random() < 0.7 else 5

    def make() -> Data:
        category = rng.choice(tuple(Category))
        hand = build_hand(rng, category, (), size=size)
        data: Data = {"rules": rules.name, "player": names(hand)}
        if size == 6:
            return prompt(
                data,
                step(
                    "The player bought a sixth card and holds {cards}. What is his paying combination?",
                    cards=Cards.of(hand),
                ),
            )
        return prompt(
            data, step("The player holds {cards}. What is his paying combination?", cards=Cards.of(hand))
        )

    return retry(make)


def _solve_combination(data: Data) -> Solution:
    cards = _cards(data, "player")
    hand = evaluate(cards)
    steps = [step("The best five cards: {hand}.", hand=hand.said)]
    if len(cards) == 6:
        steps.insert(0, step("With six cards the best five of the six play."))
    if hand.category is Category.ACE_KING:
        steps.append(step("No pair, but an ace and a king: ace-king, paid like a pair."))
    elif hand.category is Category.HIGH_CARD:
        steps.append(step("No pair and not both an ace and a king: no paying combination."))
    return hand.category.value, hand.category.label.capitalize(), tuple(steps)


_kind(
    "rp.combination",
    N_("The player's combination"),
    _gen_combination,
    lambda d: CATEGORY_CHOICES,
    _solve_combination,
)


# rp.bet_payout ------------------------------------------------------------------------------------


def _gen_bet_payout(rng: random.Random, level: int, rules_name: str | None) -> Data:
    rules = house_rules(rules_name)

    def make() -> Data:
        ante = ante_for(rng, level)
        category = rng.choice(PAYING)
        six = level == 3 and rules.sixth_card_allowed and rng.random() < 0.4
        accept = None
        kickers: tuple[int, ...] = ()
        if rules.two_combinations and rng.random() < 0.5:
            kickers = rng.choice(((14, 13), (13, 14), (14,), (13,)))

            def accept(cards: tuple[Card, ...]) -> bool:
                return second_combination(cards, rules) is not None

        player = build_hand(rng, category, (), size=6 if six else 5, kickers=kickers, accept=accept)
        dealer = dealer_hand(rng, player, "lower", ())
        # A dealt royal or straight flush is an instant payout where the house has one: this hand was
        # made by an exchange instead, so the bet is settled as usual.
        drew = not six and category in rules.instant_odds
        data: Data = {"rules": rules.name, "ante": ante, "player": names(player), "dealer": names(dealer)}
        if drew:
            data["exchanges"] = 1
        stake_super(rng, data, rules, level, dealer)
        settle_data(data)
        params = {"ante": ante, "player": Cards.of(player), "dealer": Cards.of(dealer)}
        if drew:
            return prompt(
                data,
                step(
                    "Ante {ante}. After an exchange the player holds {player}; the dealer has a game with "
                    "{dealer}, and the player's hand is higher. What is paid on the bet?",
                    **params,
                ),
            )
        return prompt(
            data,
            step(
                "Ante {ante}. The player holds {player}; the dealer has a game with {dealer}, "
                "and the player's hand is higher. What is paid on the bet?",
                **params,
            ),
        )

    return retry(make)


def _solve_bet_payout(data: Data) -> Solution:
    s = settle_data(data)
    return s.bet, _text(s.bet), s.steps


_kind("rp.bet_payout", N_("What is paid on the bet?"), _gen_bet_payout, lambda d: AMOUNT, _solve_bet_payout)


# rp.bonus_payout ----------------------------------------------------------------------------------


def _gen_bonus_payout(rng: random.Random, level: int, rules_name: str | None) -> Data:
    rules = house_rules(rules_name)
    if not rules.bonus_offered:
        raise RulesError(f"{rules.title}: the table offers no bonus bet")

    def make() -> Data:
        ante, bonus = ante_for(rng, level), bonus_for(rng, level)
        six = level == 3 and rules.sixth_card_allowed and rng.random() < 0.5
        if rng.random() < 0.75:
            category = rng.choice(BONUS_PAYING)
        else:
            category = rng.choice(
                (Category.THREE_OF_A_KIND, Category.TWO_PAIR, Category.PAIR, Category.HIGH_CARD)
            )
        player = build_hand(rng, category, (), size=6 if six else 5)
        dealer = other_cards(rng, player, 5)
        data: Data = {
            "rules": rules.name,
            "ante": ante,
            "bonus": bonus,
            "player": names(player),
            "dealer": names(dealer),
        }
        if not six and category in rules.instant_odds:
            data["exchanges"] = 1
        settle_data(data)
        question = step("What is the player's result on the bonus (a loss as a negative amount)?")
        if six:
            holds = step(
                "After buying a sixth card the player holds {player} and bets.", player=Cards.of(player)
            )
        elif data.get("exchanges"):
            holds = step("After an exchange the player holds {player} and bets.", player=Cards.of(player))
        else:
            holds = step("The player holds {player} and bets.", player=Cards.of(player))
        return prompt(
            data, _stakes(data), holds, step("The dealer has {dealer}.", dealer=Cards.of(dealer)), question
        )

    return retry(make)


def _solve_bonus_payout(data: Data) -> Solution:
    s = settle_data(data)
    return s.bonus, _text(s.bonus), s.steps


_kind(
    "rp.bonus_payout",
    N_("What does the bonus pay?"),
    _gen_bonus_payout,
    lambda d: AMOUNT,
    _solve_bonus_payout,
)


# rp.no_game ---------------------------------------------------------------------------------------


SPOTS = {"Ante": Term(N_("Ante")), "Bet": Term(N_("Bet")), "Bonus": Term(N_("Bonus"))}
SPOTS |= {"Super": Term(N_("Super")), "Buys": Term(N_("Buys")), "Net": Term(N_("Net"))}


def _spots(data: Data, *, buys: bool = False, net: bool = False) -> AnswerFormat:
    labels = ["Ante", "Bet"]
    if data.get("bonus"):
        labels.append("Bonus")
    if data.get("super_bet"):
        labels.append("Super")
    if buys:
        labels.append("Buys")
    if net:
        labels.append("Net")
    return AnswerFormat(AnswerKind.AMOUNTS, labels=tuple(SPOTS[label] for label in labels))


def spots_of(s: Settlement) -> dict[str, int]:
    """The result on every betting spot of a settled box, and the net, by answer label."""
    spots = {"Ante": s.ante, "Bet": s.bet, "Bonus": s.bonus, "Super": s.super_bet, "Buys": s.fees}
    return {**spots, "Net": s.net}


def _spot_values(s: Settlement, fmt: AnswerFormat) -> dict[str, int]:
    values = spots_of(s)
    return {label: values[label] for label in fmt.labels}


def _player_category(rng: random.Random, rules: HouseRules, strong: bool) -> Category:
    pool = [c for c in Category if (c.rank >= Category.PAIR.rank) == strong and c not in rules.instant_odds]
    return rng.choice(pool)


def _gen_no_game(rng: random.Random, level: int, rules_name: str | None) -> Data:
    rules = house_rules(rules_name)

    def make() -> Data:
        ante = ante_for(rng, level)
        branch = rng.choice(("strong", "weak", "fold"))
        player = build_hand(rng, _player_category(rng, rules, branch == "strong"), ())
        dealer = no_game_hand(rng, player)
        data: Data = {"rules": rules.name, "ante": ante, "player": names(player), "dealer": names(dealer)}
        if level >= 2 and rules.bonus_offered and rng.random() < 0.6:
            data["bonus"] = bonus_for(rng, level)
        data["folded"] = branch == "fold"
        stake_super(rng, data, rules, level, dealer)
        settle_data(data)
        return prompt(
            data,
            _stakes(data),
            _holds(data, player),
            step("The dealer opens {dealer}: no game.", dealer=Cards.of(dealer)),
            step("What is the result on each betting spot (a loss as a negative amount)?"),
        )

    return retry(make)


def _solve_spots(data: Data, fmt: AnswerFormat) -> Solution:
    s = settle_data(data)
    values = _spot_values(s, fmt)
    return values, _amounts_text(values), s.steps


_kind(
    "rp.no_game",
    N_("The dealer has no game"),
    _gen_no_game,
    lambda d: _spots(d),
    lambda d: _solve_spots(d, _spots(d)),
)


# rp.buy -------------------------------------------------------------------------------------------


def _buy_format(data: Data) -> AnswerFormat:
    if data["question"] == "cost":
        return AMOUNT
    labels = ("Ante", "Bet", "Super", "Buys") if data.get("super_bet") else ("Ante", "Bet", "Buys")
    return AnswerFormat(AnswerKind.AMOUNTS, labels=tuple(SPOTS[label] for label in labels))


def _draws(rng: random.Random, rules: HouseRules, level: int) -> tuple[int, bool]:
    """(exchanges, sixth card) allowed by the house: one draw-buy at levels 1-2, as many as allowed at 3."""
    options: list[tuple[int, bool]] = []
    exchanges = rules.max_exchanges if rules.exchange_allowed else 0
    for n in range(exchanges + 1):
        options.append((n, False))
        if rules.sixth_card_allowed and (n == 0 or rules.sixth_card_with_exchange):
            options.append((n, True))
    if level < 3:
        options = [o for o in options if o[0] + o[1] <= 1]
    return rng.choice(options)


def _gen_buy(rng: random.Random, level: int, rules_name: str | None) -> Data:
    rules = house_rules(rules_name)
    if not (rules.exchange_allowed or rules.sixth_card_allowed or rules.buy_game_allowed):
        raise RulesError(f"{rules.title}: the table sells no buys")

    def make() -> Data:
        ante = ante_for(rng, level)
        question = "game" if rules.buy_game_allowed and rng.random() < 0.6 else "cost"
        exchanges, six = (0, False) if question == "game" and level == 1 else _draws(rng, rules, level)
        game = question == "game" or (rules.buy_game_allowed and level == 3 and rng.random() < 0.5)
        if exchanges + six + game == 0:
            raise DealError("a buy question needs at least one buy")
        category = rng.choice(tuple(Category))
        player = build_hand(rng, category, (), size=6 if six else 5)
        data: Data = {"rules": rules.name, "question": question, "ante": ante, "player": names(player)}
        if exchanges:
            data["exchanges"] = exchanges
        if game:
            dealer = no_game_hand(rng, player)
            data["dealer"] = names(dealer)
            data["game_card"] = str(_game_card(rng, rules, player, dealer))
        else:
            data["dealer"] = names(other_cards(rng, player, 5))
        stake_super(
            rng, data, rules, level, [*_cards(data, "dealer"), *parse_cards(data.get("game_card") or [])]
        )
        settle_data(data)
        if question == "cost":
            return prompt(
                data,
                step("Ante {ante}.", ante=ante),
                *_buys(exchanges, six, game),
                step("What do his buys cost?"),
            )
        return prompt(
            data,
            step("Ante {ante}.", ante=ante),
            *_buys(exchanges, six, False),
            step("The player holds {player} and bets.", player=Cards.of(player)),
            step(
                "The dealer opens {dealer}: no game; the player buys the game and the dealer draws {card}.",
                dealer=Cards.of(dealer),
                card=Cards.of([data["game_card"]]),
            ),
            step("What is the result on each spot (ante, bet and the buys; a loss as a negative amount)?"),
        )

    return retry(make)


def _stakes(data: Data) -> Step:
    """The stakes of a box, as the question's first sentence."""
    if data.get("bonus"):
        return step("Ante {ante}, bonus {bonus}.", ante=data["ante"], bonus=data["bonus"])
    return step("Ante {ante}.", ante=data["ante"])


def _holds(data: Data, player: Sequence[Card]) -> Step:
    if data["folded"]:
        return step("The player holds {player} and folds.", player=Cards.of(player))
    return step("The player holds {player} and bets.", player=Cards.of(player))


def _buys(exchanges: int, six: bool, game: bool) -> list[Step]:
    """The buys of a hand, one sentence each."""
    said = []
    if exchanges:
        said.append(
            nstep("The player buys {count} exchange.", "The player buys {count} exchanges.", count=exchanges)
        )
    if six:
        said.append(step("The player buys a sixth card."))
    if game:
        said.append(step("The player buys the game from the dealer."))
    return said


def _game_card(
    rng: random.Random, rules: HouseRules, player: tuple[Card, ...], dealer: tuple[Card, ...]
) -> Card:
    """The card the dealer draws, picked for an outcome chosen first: the player wins, loses, pushes,
    or the dealer still has no game."""
    gone = replaced_card(dealer, rules)
    kept = [c for c in dealer if c != gone]
    k1, k2, k3, k4 = (c.index for c in kept)
    mine = evaluate(player).strength
    buckets: dict[str, list[Card]] = {"win": [], "lose": [], "push": [], "no_game": []}
    for card in FULL_DECK:
        if card in player or card in dealer:
            continue
        # The evaluator's strength numbers order hands exactly as `evaluate` does, at a fraction of
        # the cost; this loop runs over the whole remaining deck.
        theirs = strength5(k1, k2, k3, k4, card.index)
        if not dealer_qualifies([*kept, card]):
            buckets["no_game"].append(card)
        else:
            buckets["win" if mine > theirs else "lose" if mine < theirs else "push"].append(card)
    outcome = rng.choice([name for name, cards in buckets.items() if cards])
    return rng.choice(buckets[outcome])


def _solve_buy(data: Data) -> Solution:
    s = settle_data(data)
    if data["question"] == "cost":
        return -s.fees, _text(-s.fees), s.steps
    return _solve_spots(data, _buy_format(data))


_kind("rp.buy", N_("Buys: their cost and buying the game"), _gen_buy, _buy_format, _solve_buy)


# rp.settle ----------------------------------------------------------------------------------------

_OUTCOMES = {
    1: ("fold", "no_game", "dealer_wins", "player_wins", "player_wins"),
    2: ("fold", "no_game", "dealer_wins", "player_wins", "player_wins", "push"),
    3: ("fold", "no_game", "dealer_wins", "player_wins", "player_wins", "push", "buy_game"),
}


def _settle_format(data: Data) -> AnswerFormat:
    buys = bool(data.get("exchanges") or len(data["player"]) == 6 or data.get("game_card"))
    return _spots(data, buys=buys, net=True)


def _gen_settle(rng: random.Random, level: int, rules_name: str | None) -> Data:
    rules = house_rules(rules_name)

    def make() -> Data:
        outcome = rng.choice(_OUTCOMES[level])
        if outcome == "buy_game" and not rules.buy_game_allowed:
            outcome = "no_game"
        exchanges, six = _draws(rng, rules, level) if level == 3 and rng.random() < 0.6 else (0, False)
        ante = ante_for(rng, level)
        data: Data = {"rules": rules.name, "ante": ante}
        if level >= 2 and rules.bonus_offered and rng.random() < 0.5:
            data["bonus"] = bonus_for(rng, level)
        size = 6 if six else 5
        category: Category
        if outcome == "player_wins":
            category = rng.choice(PAYING)
        elif outcome == "push":
            category = rng.choice(
                (
                    Category.ACE_KING,
                    Category.PAIR,
                    Category.TWO_PAIR,
                    Category.THREE_OF_A_KIND,
                    Category.STRAIGHT,
                    Category.FULL_HOUSE,
                )
            )
            size = 5
            six = False
        elif outcome == "dealer_wins":
            category = rng.choice([c for c in Category if c.rank < Category.STRAIGHT_FLUSH.rank])
        else:
            category = rng.choice(tuple(Category))
        player = build_hand(rng, category, (), size=size)
        if outcome in ("player_wins", "dealer_wins", "push"):
            relation = {"player_wins": "lower", "dealer_wins": "higher", "push": "equal"}[outcome]
            dealer = dealer_hand(rng, player, relation, ())
        elif outcome == "fold":
            dealer = other_cards(rng, player, 5)
        else:
            dealer = no_game_hand(rng, player)
        data.update(player=names(player), dealer=names(dealer), folded=outcome == "fold")
        if exchanges:
            data["exchanges"] = exchanges
        elif not six and category in rules.instant_odds and outcome != "fold":
            data["exchanges"] = 1  # made by an exchange: no instant payout, the hand is played out
        if outcome == "buy_game":
            data["game_card"] = str(_game_card(rng, rules, player, dealer))
        stake_super(rng, data, rules, level, [*dealer, *parse_cards(data.get("game_card") or [])])
        settle_data(data)
        said = [
            _stakes(data),
            *_buys(data.get("exchanges", 0), six, False),
            _holds(data, player),
            step("The dealer opens {dealer}.", dealer=Cards.of(dealer)),
        ]
        if data.get("game_card"):
            said.append(
                step("The player buys the game; the dealer draws {card}.", card=Cards.of([data["game_card"]]))
            )
        said.append(step("What is the result on each spot and the net (a loss as a negative amount)?"))
        return prompt(data, *said)

    return retry(make)


_kind(
    "rp.settle",
    N_("Settle a whole hand"),
    _gen_settle,
    _settle_format,
    lambda d: _solve_spots(d, _settle_format(d)),
)
