"""Buy decisions drill (`rp.decision`): fold, bet, exchange which cards, or buy a sixth card?

The trainee sees the player's five cards and the dealer's up-card and picks one of every legal option
(fold, bet, each exchange the house allows, the sixth card). `solve` asks the advisor
(`trainer.engine.russian_poker.strategy.options`) for the value of every option in antes and expects
the best; the explanation lists them all.

Every option the advisor marks equivalent (the best, or within its tolerance, 0.02 ante, of the best)
is graded right (`accepts`); the expected answer shown is the best, and the explanation says which
choices were accepted and why. An exchange is named by its discards, in any order and card notation.
The generator first picks the answer it wants (bet, fold, a sixth card, an exchange, by level), then a
hand that calls for it. At levels 2 and 3 a share (`CLOSE_SHARE`) of the hands are close calls, with
more than one right answer; level 1 keeps to hands whose right answers are bet or fold.

Valuing a hand takes the advisor about half a second, so the hands come from a bank of situations the
advisor has already valued, `data/drills/decision-bank.json` (rebuilt with
`python3 -m trainer.drills.russian_poker.decision`; a test re-values a sample of it). A situation
that is not in the bank (a preset without a bank) is dealt and valued live: a hand that tends to call
for the target, kept when the advisor agrees.

>>> from trainer.drills.base import issue, grade, expected_of
>>> situation = issue("rp.decision", 1, seed=4)
>>> grade(situation, expected_of(situation)[0]).correct
True
"""

from __future__ import annotations

import functools
import json
import random
from itertools import combinations
from typing import Any

from trainer.drills.base import (
    AnswerFormat,
    AnswerKind,
    Data,
    DealError,
    DrillError,
    DrillKind,
    RulesError,
    card_list,
    prompt,
    register,
)
from trainer.drills.russian_poker.deals import house_rules
from trainer.engine.cards import FULL_DECK, Card, format_cards, parse_cards
from trainer.engine.explain import Step, step
from trainer.engine.presets import data_path
from trainer.engine.russian_poker.strategy import TOLERANCE, Action, Option, options
from trainer.engine.russian_poker.strategy.terms import Terms
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
CLOSE_SHARE = 0.25  # of the hands at levels 2 and 3 drawn from the close calls (several right answers)
ATTEMPTS = 12
_RANKS = "23456789TJQKA"


def choice_value(option: Option) -> str:
    """The answer value of an option: "fold", "bet", "sixth_card" or "exchange Kh 5s 2c"."""
    if option.action is Action.EXCHANGE:
        return "exchange " + " ".join(card_list(option.discard))
    return option.action.value


def choice_label(option: Option) -> str:
    """The answer label of an option: "Fold", "Bet", "Buy a sixth card" or "Exchange Kh 5s 2c"."""
    if option.action is Action.EXCHANGE:
        return "Exchange " + " ".join(card_list(option.discard))
    return {Action.FOLD: "Fold", Action.BET: "Bet", Action.SIXTH_CARD: "Buy a sixth card"}[option.action]


def _terms(rules_name: str) -> Terms:
    try:
        return Terms.of(house_rules(rules_name))
    except ValueError as error:
        raise RulesError(f"the buy-decision drill cannot use these house rules: {error}") from None


def _answer_format(data: Data) -> AnswerFormat:
    terms = _terms(data["rules"])
    hand = parse_cards(data["player"])
    choices = [("fold", "Fold"), ("bet", "Bet")]
    for k in terms.exchange_sizes:
        for discard in combinations(hand, k):
            cards = " ".join(card_list(discard))
            choices.append((f"exchange {cards}", f"Exchange {cards}"))
    if terms.sixth_card:
        choices.append(("sixth_card", "Buy a sixth card"))
    return AnswerFormat(AnswerKind.CHOICE, choices=tuple(choices))


BANK_FILE = data_path("drills", "decision-bank.json")


@functools.cache
def _bank() -> dict[str, dict[tuple[str, str], tuple[Option, ...]]]:
    """{rules: {(player, upcard): options}} from the bank file (empty when there is none)."""
    if not BANK_FILE.exists():
        return {}
    raw = json.loads(BANK_FILE.read_text(encoding="utf-8"))
    bank: dict[str, dict[tuple[str, str], tuple[Option, ...]]] = {}
    for rules_name, entries in raw["presets"].items():
        table = bank.setdefault(rules_name, {})
        for e in entries:
            table[(e["player"], e["upcard"])] = tuple(
                Option(Action(a), parse_cards(d), ev, se, eq) for a, d, ev, se, eq in e["options"]
            )
    return bank


def _close(opts: tuple[Option, ...] | list[Option]) -> bool:
    """A close call: more than one option is the best or within the tolerance of it."""
    return sum(o.equivalent for o in opts) > 1


def _fits(opts: tuple[Option, ...] | list[Option], level: int) -> bool:
    """Level 1 asks bet or fold only, so every right answer must be one of those."""
    return level > 1 or all(o.action in (Action.BET, Action.FOLD) for o in opts if o.equivalent)


@functools.cache
def _banked(rules_name: str, answer: str, level: int, close: bool) -> tuple[tuple[str, str], ...]:
    """The banked (player, upcard) situations of a preset for a level: close calls (any best answer),
    or hands with one best option of this kind."""
    table = _bank().get(rules_name, {})
    if close:
        return tuple(sorted(key for key, opts in table.items() if _fits(opts, level) and _close(opts)))
    return tuple(
        sorted(key for key, opts in table.items() if not _close(opts) and opts[0].action.value == answer)
    )


@functools.lru_cache(maxsize=256)
def _options(player: str, upcard: str, rules_name: str) -> tuple[Option, ...]:
    """The advisor's table for a hand: from the bank when it has it, else valued now (and cached: a
    situation is solved when issued, checked and graded)."""
    banked = _bank().get(rules_name, {}).get((player, upcard))
    if banked is not None:
        return banked
    return tuple(options(player, upcard, rules=house_rules(rules_name)))


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
    rules = house_rules(rules_name)
    terms = _terms(rules.name)
    wanted = [(t, w) for t, w in TARGETS[level] if t != "sixth_card" or terms.sixth_card]
    wanted = [(t, w) for t, w in wanted if t != "exchange" or terms.exchange_sizes]
    target = rng.choices([t for t, _ in wanted], [w for _, w in wanted])[0]
    close = level > 1 and rng.random() < CLOSE_SHARE
    banked = _banked(rules.name, target, level, close) or _banked(rules.name, target, level, False)
    if banked:
        player, upcard = rng.choice(banked)
        return _situation(rules.name, player, upcard)
    fallback: Data | None = None
    for _ in range(ATTEMPTS):
        hand, up = _deal(rng, target, level)
        player = format_cards(hand)
        opts = _options(player, str(up), rules.name)
        if not _fits(opts, level):
            continue  # a level-1 hand whose right answers include a buy
        data = _situation(rules.name, player, str(up))
        if opts[0].action.value == target:
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
            player=player,
            upcard=upcard,
        ),
    )


def _solve(data: Data) -> tuple[str, str, tuple[Step, ...]]:
    _terms(data["rules"])
    opts = _options(format_cards(parse_cards(data["player"])), data["upcard"], data["rules"])
    best = opts[0]
    steps = [
        step(
            "Values in antes with the ante already staked (a fold loses it: -1); after a buy the player "
            "folds or bets, whichever is worth more."
        )
    ]
    for o in opts:
        if o.stderr:
            steps.append(step("{option}: {ev} antes (estimate, standard error {se}).", **_params(o)))
        else:
            steps.append(step("{option}: {ev} antes.", **_params(o)))
    accepted = [choice_label(o) for o in opts if o.equivalent]
    if len(accepted) > 1:
        steps.append(
            step(
                "Accepted as right: {options}. Each is within {tolerance} ante of the best, too small a "
                "difference to count as a mistake.",
                options=", ".join(accepted),
                tolerance=f"{TOLERANCE:g}",
            )
        )
    steps.append(step("Best: {option}.", option=choice_label(best)))
    return choice_value(best), choice_label(best), tuple(steps)


def _accepts(data: Data, answer: Any) -> bool:
    """Any option the advisor marks equivalent to the best is a right answer."""
    opts = _options(format_cards(parse_cards(data["player"])), data["upcard"], data["rules"])
    return answer in {choice_value(o) for o in opts if o.equivalent}


def _params(o: Option) -> dict[str, Any]:
    return {"option": choice_label(o), "ev": f"{o.ev:+.3f}", "se": f"{o.stderr:.3f}"}


register(
    DrillKind(
        KIND_ID,
        GAME,
        "Buy decisions: the best play",
        2,  # 2: close calls with several right answers are issued
        (1, 2, 3),
        _generate,
        _answer_format,
        _solve,
        _accepts,
    )
)


def build_bank(presets: tuple[str, ...], per_answer: int, per_close: int, seed: int) -> dict[str, Any]:
    """Deal and value hands until each preset has `per_answer` situations with a single best option for
    each kind of answer (bet, fold, sixth card, exchange) its rules allow, and `per_close` close calls
    (more than one option within the tolerance of the best), kept as they come up among the deals (at
    most two thirds of them with the same set of right actions, so they are not all one pattern; fewer
    if `20 * per_close` deals past the single-best hands do not find them)."""
    out: dict[str, Any] = {}
    for name in presets:
        rng = random.Random(f"{seed}/{name}")  # each preset alone, so presets can be built in parallel
        terms = _terms(name)
        rules = house_rules(name)
        targets = [t for t, _ in TARGETS[3] if (t != "sixth_card" or terms.sixth_card)]
        targets = [t for t in targets if t != "exchange" or terms.exchange_sizes]
        entries: list[dict[str, Any]] = []
        seen: set[tuple[str, str]] = set()
        single = dict.fromkeys(targets, 0)
        close: dict[frozenset[str], int] = {}
        limit = 60 * per_answer * len(targets)
        deal = extra = 0
        while min(single.values()) < per_answer or (
            sum(close.values()) < per_close and extra < 20 * per_close
        ):
            if deal >= limit:
                raise DrillError(f"{name}: {limit} deals did not fill the bank")
            deal += 1
            extra += min(single.values()) >= per_answer
            # Round the targets still short of hands (all of them once those are full: close calls).
            short = [t for t in targets if single[t] < per_answer] or targets
            hand, up = _deal(rng, short[deal % len(short)], rng.choice((1, 2)))
            key = (format_cards(hand), str(up))
            if key in seen:
                continue
            opts = options(*key, rules=rules)
            if _close(opts):
                pattern = frozenset(o.action.value for o in opts if o.equivalent)
                if sum(close.values()) >= per_close or 3 * close.get(pattern, 0) >= 2 * per_close:
                    continue
                close[pattern] = close.get(pattern, 0) + 1
            elif single.get(opts[0].action.value, per_answer) < per_answer:
                single[opts[0].action.value] += 1
            else:
                continue
            seen.add(key)
            entries.append({"player": key[0], "upcard": key[1], "options": [_bank_row(o) for o in opts]})
        out[name] = entries
    return {
        "about": "Situations for the rp.decision drill, valued by "
        "trainer.engine.russian_poker.strategy.options; "
        "rebuild with python3 -m trainer.drills.russian_poker.decision",
        "presets": out,
    }


def _bank_row(o: Option) -> list[Any]:
    return [o.action.value, [str(c) for c in o.discard], round(o.ev, 6), round(o.stderr, 6), o.equivalent]


if __name__ == "__main__":
    BANK_FILE.parent.mkdir(parents=True, exist_ok=True)
    bank = build_bank(("cis", "insured"), per_answer=30, per_close=30, seed=20261129)
    BANK_FILE.write_text(json.dumps(bank, separators=(",", ":")) + "\n", encoding="utf-8")
