"""Buy decisions drill (`rp.decision`): fold, bet, exchange which cards, or buy a sixth card?

The trainee sees the player's five cards and the dealer's up-card and picks one of every legal option
(fold, bet, bet and insure where the house offers insurance, each exchange the house allows, the
sixth card). The advisor (`trainer.engine.russian_poker.strategy`) values the options exactly, so the
right answer is the best option, and any option worth exactly as much (a tie: two exchanges of
equal cards of different suits, say); every other answer is wrong, however close, and the
explanation says by how much. An exchange is named by its discards, in any order and card notation.

Hands are dealt live for any house: the generator first picks the answer it wants (bet, fold, a sixth
card, an exchange, by level), then deals hands that tend to call for it until the advisor's best
option (`best_options`: exact, without valuing the options that cannot be best) is of that kind. Level
1 keeps to hands whose right answers are bet or fold. A dealt hand the house pays at once (Lunar's
instant payouts) is dealt again.

>>> from trainer.drills.base import issue, grade, expected_of
>>> situation = issue("rp.decision", 1, seed=4)
>>> grade(situation, expected_of(situation)[0]).correct
True
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable
from itertools import combinations
from typing import Any

from trainer.drills.base import (
    AnswerFormat,
    AnswerKind,
    Data,
    DealError,
    DrillKind,
    RulesError,
    card_list,
    prompt,
    register,
)
from trainer.drills.russian_poker.deals import house_rules
from trainer.engine.cards import FULL_DECK, Card, format_cards, parse_cards
from trainer.engine.explain import N_, Cards, Step, Term, step
from trainer.engine.russian_poker.hands import evaluate
from trainer.engine.russian_poker.rules import HouseRules
from trainer.engine.russian_poker.strategy import Action, Option, best_options, bet_value
from trainer.engine.russian_poker.strategy.summary import load_summary, rule_for
from trainer.games import RUSSIAN_POKER

GAME = RUSSIAN_POKER.id
KIND_ID = "rp.decision"

# Which answer each level aims for, with weights: level 1 bet or fold, level 2 adds the sixth card and
# simple exchanges, level 3 leans on exchanges.
TARGETS = {
    1: (("bet", 1), ("fold", 1)),
    2: (("bet", 3), ("fold", 2), ("sixth_card", 3), ("exchange", 2)),
    3: (("bet", 2), ("fold", 2), ("sixth_card", 2), ("exchange", 4)),
}
ATTEMPTS = 12


def choice_value(option: Option) -> str:
    """The answer value of an option: "fold", "bet", "insure", "sixth_card" or "exchange Kh 5s 2c"."""
    if option.action is Action.EXCHANGE:
        return "exchange " + " ".join(card_list(option.discard))
    return option.action.value


LABELS = {
    Action.FOLD: Term(N_("Fold")),
    Action.BET: Term(N_("Bet")),
    Action.INSURE: Term(N_("Bet and insure")),
    Action.SIXTH_CARD: Term(N_("Buy a sixth card")),
    Action.INSTANT: Term(N_("Take the instant payout")),
}


def exchange_label(discard: Iterable[Card | str]) -> Step:
    return step("Exchange {cards}", cards=Cards.of(card_list(discard)))


def choice_message(option: Option) -> Step | Term:
    """What the pages show for an option, translated."""
    if option.action is Action.EXCHANGE:
        return exchange_label(option.discard)
    return LABELS[option.action]


def choice_label(option: Option) -> str:
    """The answer label of an option in English: "Fold", "Bet", "Bet and insure", "Buy a sixth card"
    or "Exchange Kh 5s 2c"."""
    return str(choice_message(option))


def _rules(rules_name: str) -> HouseRules:
    try:
        return house_rules(rules_name)
    except ValueError as error:
        raise RulesError(f"the buy-decision drill cannot use these house rules: {error}") from None


def _exchange_sizes(rules: HouseRules) -> range:
    if not rules.exchange_allowed or not rules.max_exchanges:
        return range(0)
    return range(rules.exchange_min_cards, rules.exchange_max_cards + 1)


def _answer_format(data: Data) -> AnswerFormat:
    rules = _rules(data["rules"])
    hand = parse_cards(data["player"])
    choices: list[tuple[str, Step | Term]] = [("fold", LABELS[Action.FOLD]), ("bet", LABELS[Action.BET])]
    if rules.insurance_offered and evaluate(hand).category.rank >= rules.insurance_min_category.rank:
        choices.append(("insure", LABELS[Action.INSURE]))
    for k in _exchange_sizes(rules):
        for discard in combinations(hand, k):
            cards = " ".join(card_list(discard))
            choices.append((f"exchange {cards}", exchange_label(discard)))
    if rules.sixth_card_allowed:
        choices.append(("sixth_card", LABELS[Action.SIXTH_CARD]))
    return AnswerFormat(AnswerKind.CHOICE, choices=tuple(choices))


@functools.lru_cache(maxsize=512)
def _best(player: str, upcard: str, rules_name: str) -> tuple[Option, ...]:
    """The advisor's best options (all tied) for a hand (cached: a situation is solved when issued,
    checked and graded)."""
    return tuple(best_options(player, upcard, rules=house_rules(rules_name)))


def _fits(best: tuple[Option, ...], level: int) -> bool:
    """Level 1 asks bet or fold only, so every right answer must be one of those."""
    return level > 1 or all(o.action in (Action.BET, Action.FOLD) for o in best)


def _deal(rng: random.Random, target: str, level: int) -> tuple[list[Card], Card]:
    """Five cards and an up-card that tend to call for the target answer."""
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    if target == "bet":
        # A pair of nines or better, or two pair and up: strong enough to bet as dealt.
        rank = rng.choice("9TJQKA" if level == 1 else "6789TJQKA")
        pair = [c for c in deck if str(c)[0] == rank][:2]
        rest = [c for c in deck if str(c)[0] != rank]
        hand = [*pair, *_no_pair(rest, 3)]
    elif target == "fold":
        # No pair, no ace-king, no four to a flush or a straight, against a high up-card.
        hand = _no_pair([c for c in deck if c.rank < 14], 5, no_draw=True)
    elif target == "sixth_card":
        suit = rng.choice("shdc")
        suited = [c for c in deck if c.suit == suit][:4]
        hand = [*suited, *_no_pair([c for c in deck if c.suit != suit and c not in suited], 1)]
    else:
        # A low pair with high kickers (keep the pair, change three), or one ace (keep it).
        rank = rng.choice("2345")
        pair = [c for c in deck if str(c)[0] == rank][:2]
        hand = [*pair, *_no_pair([c for c in deck if str(c)[0] != rank], 3)]
    high = [c for c in deck if c not in hand and c.rank >= (12 if target == "fold" else 2)]
    return _check_distinct(hand), rng.choice(high)


def _no_pair(cards: list[Card], count: int, *, no_draw: bool = False) -> list[Card]:
    """The first `count` cards of distinct ranks (and, with `no_draw`, no four to a flush or a
    straight in a five-card hand)."""
    out: list[Card] = []
    for c in cards:
        if c.rank in {x.rank for x in out}:
            continue
        trial = [*out, c]
        if no_draw and len(trial) >= 4 and (_four_flush(trial) or _four_straight(trial)):
            continue
        out.append(c)
        if len(out) == count:
            return out
    raise DealError("no hand could be dealt")


def _four_flush(cards: list[Card]) -> bool:
    return any(sum(c.suit == s for c in cards) >= 4 for s in "shdc")


def _four_straight(cards: list[Card]) -> bool:
    ranks = {c.rank for c in cards} | ({1} if any(c.rank == 14 for c in cards) else set())
    return any(len(ranks & set(range(low, low + 5))) >= 4 for low in range(1, 11))


def _check_distinct(hand: list[Card]) -> list[Card]:
    if len(set(hand)) != 5:
        raise DealError("no hand could be dealt")
    return hand


def _generate(rng: random.Random, level: int, rules_name: str | None) -> Data:
    rules = _rules(rules_name) if rules_name is not None else house_rules(None)
    wanted = [(t, w) for t, w in TARGETS[level] if t != "sixth_card" or rules.sixth_card_allowed]
    wanted = [(t, w) for t, w in wanted if t != "exchange" or _exchange_sizes(rules)]
    target = rng.choices([t for t, _ in wanted], [w for _, w in wanted])[0]
    fallback: Data | None = None
    for _ in range(ATTEMPTS):
        hand, up = _deal(rng, target, level)
        player = format_cards(hand)
        best = _best(player, str(up), rules.name)
        if best[0].action is Action.INSTANT or not _fits(best, level):
            continue  # paid at once, or a level-1 hand whose right answers include a buy
        data = _situation(rules.name, player, str(up))
        if best[0].action.value == target:
            return data
        fallback = fallback or data
    if fallback is None:
        raise DealError("no situation for this level could be dealt")
    return fallback


def _situation(rules_name: str, player: str, upcard: str) -> Data:
    return prompt(
        {"rules": rules_name, "player": player.split(), "upcard": upcard},
        step(
            "You hold {player}; the dealer shows {upcard}. Fold, bet, exchange (which cards?) "
            "or buy a sixth card?",
            player=Cards.of(player.split()),
            upcard=Cards.of([upcard]),
        ),
    )


def _solve(data: Data) -> tuple[str, str, tuple[Step, ...]]:
    """The rule of thumb of the house in words first (and whether it is the best play here), then the
    best options with their exact values; every option's value is on the advisor page (on demand)."""
    rules = _rules(data["rules"])
    player = format_cards(parse_cards(data["player"]))
    best = _best(player, data["upcard"], rules.name)
    first = best[0]
    # Values go into the sentences as numbers, so each language writes them its own way ("-1,000" in
    # Russian, where "-1.000" reads as minus a thousand).
    bet = bet_value(data["player"], data["upcard"], rules=rules)
    steps = [*_rule_of_thumb(data, {choice_value(o) for o in best})]
    steps.append(step("Best: {option}.", option=choice_message(first)))
    if len(best) > 1:
        steps.append(
            step(
                "Accepted as right: {options}. They are worth exactly the same.",
                options=[choice_message(o) for o in best],
            )
        )
    for o in best:
        if o.action not in (Action.FOLD, Action.BET):
            steps.append(step("{option}: {ev}\u00a0antes.", option=choice_message(o), ev=float(o.ev)))
    steps += [
        step("Bet now: {ev}\u00a0antes.", ev=float(bet)),
        step("Fold: {ev}\u00a0antes.", ev=-1.0),
        step(
            "Values in antes with the ante already staked (a fold loses it: -1), exact over every "
            "unseen card; after a buy the player makes the best of what follows."
        ),
    ]
    return choice_value(first), choice_label(first), tuple(steps)


def _rule_of_thumb(data: Data, accepted: set[str]) -> list[Step]:
    """The house's rule of thumb for this hand, and whether it is a right answer here (none when the
    bench has not computed the house's rules)."""
    summary = load_summary(_rules(data["rules"]).name)
    rule = rule_for(summary, parse_cards(data["player"]), Card.from_text(data["upcard"])) if summary else None
    if rule is None:
        return []
    says = "exchange " + " ".join(card_list(rule.discard)) if rule.action == "exchange" else rule.action
    if says in accepted:
        return [step("Rule of thumb at this table: {rule} Here it is the best play.", rule=rule.text)]
    return [step("Rule of thumb at this table: {rule} This hand is an exception to it.", rule=rule.text)]


def _accepts(data: Data, answer: Any) -> bool:
    """The best option, and every option worth exactly as much, is a right answer."""
    best = _best(format_cards(parse_cards(data["player"])), data["upcard"], _rules(data["rules"]).name)
    return answer in {choice_value(o) for o in best}


register(
    DrillKind(
        KIND_ID,
        GAME,
        N_("Buy decisions: the best play"),
        3,  # 3: exact values, live dealing, ties only are several right answers
        (1, 2, 3),
        _generate,
        _answer_format,
        _solve,
        _accepts,
    )
)
