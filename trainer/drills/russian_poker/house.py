"""Russian poker drills on the house rules beyond the pay tables: `rp.two_combinations` (what the bet
pays when two combinations are paid, with the rule's edge cases), `rp.insurance` (the most a box may
insure, the table maximum applied) and `rp.boxes` (may the croupier deal this placement of boxes, or
which rule does it break). Registered on import of `trainer.drills.russian_poker`.

Each kind falls back, when no preset is named, on the shipped preset that has its rule: `lunar` for two
combinations, `insured` for insurance, `cis` for boxes. Asked under a preset without the rule,
`rp.two_combinations` teaches that only the higher combination is paid and `rp.insurance` is refused.
"""

from __future__ import annotations

import random
from typing import Any

from trainer.drills.base import AnswerFormat, AnswerKind, DrillKind, attach_mistakes, prompt, register
from trainer.drills.errors import RulesError
from trainer.drills.mistakes import Mistake, mistake_type
from trainer.drills.russian_poker.deals import (
    PAYING,
    DealError,
    ante_for,
    build_hand,
    dealer_hand,
    house_rules,
    names,
)
from trainer.drills.russian_poker.mistakes import (
    CAP_IGNORED,
    ODDS_ON_ANTE,
    SECOND_FORGOTTEN,
    SECOND_PAID,
    STAKE_IN_PAYOUT,
)
from trainer.engine.cards import Card, parse_cards
from trainer.engine.explain import N_, Cards, Step, Term, nstep, step
from trainer.engine.russian_poker import (
    BoxError,
    BoxFault,
    Category,
    HouseRules,
    Table,
    bet_payout,
    evaluate,
    insurance_limits,
    second_combination,
    table_faults,
)
from trainer.engine.russian_poker.hands import named

GAME = "russian_poker"
Data = dict[str, Any]
Solution = tuple[Any, str, tuple[Step, ...]]
AMOUNT = AnswerFormat(AnswerKind.AMOUNT)
SUITS = "shdc"


def _retry(make: Any) -> Data:
    for _ in range(60):
        try:
            result: Data = make()
            return result
        except (DealError, ValueError, IndexError):
            continue
    raise DealError("no situation could be dealt")


def _preset(name: str | None, fallback: str) -> HouseRules:
    return house_rules(fallback if name is None else name)


# rp.two_combinations --------------------------------------------------------------------------------

WITH_KICKERS = (Category.PAIR, Category.TWO_PAIR, Category.THREE_OF_A_KIND, Category.FOUR_OF_A_KIND)
EDGE_CASES = ("quads_and_full_house", "two_full_houses", "same_straight_twice", "royal_and_spare_card")


def _edge_hand(rng: random.Random, case: str) -> tuple[Card, ...]:
    """Six cards of one of the rule's edge cases, ranks and suits drawn at random."""
    if case == "quads_and_full_house":  # X X X X Y Y: four of a kind + the full house X X X Y Y
        quad, pair = rng.sample(range(2, 15), 2)
        cards = [Card(quad, s) for s in SUITS] + [Card(pair, s) for s in rng.sample(SUITS, 2)]
    elif case == "two_full_houses":  # X X X Y Y Y: a full house, and another with the third Y
        one, two = rng.sample(range(2, 15), 2)
        cards = [Card(one, s) for s in rng.sample(SUITS, 3)] + [Card(two, s) for s in rng.sample(SUITS, 3)]
    elif case == "same_straight_twice":  # a straight with one of its ranks twice
        top = rng.randint(6, 14)
        ranks = [top - i for i in range(5)]
        cards = [Card(r, rng.choice(SUITS)) for r in ranks]
        extra = rng.choice(ranks)
        cards.append(Card(extra, rng.choice([s for s in SUITS if Card(extra, s) not in cards])))
    else:  # a royal (or straight) flush and a spare card of one of its ranks: the straight again
        top = 14 if rng.random() < 0.7 else rng.randint(6, 13)
        suit = rng.choice(SUITS)
        cards = [Card(top - i, suit) for i in range(5)]
        spare = top if top == 14 else rng.choice([top - i for i in range(5)])
        cards.append(Card(spare, rng.choice([s for s in SUITS if s != suit])))
    if len(set(cards)) != 6 or evaluate(cards).category is Category.FLUSH:
        raise DealError("the edge case came out otherwise")
    return tuple(rng.sample(cards, 6))


def _gen_two_combinations(rng: random.Random, level: int, rules_name: str | None) -> Data:
    rules = _preset(rules_name, "lunar")

    def make() -> Data:
        ante = ante_for(rng, level)
        six = level >= 2 and rules.sixth_card_allowed and (level == 3 or rng.random() < 0.6)
        case = rng.choice(EDGE_CASES) if level == 3 and rng.random() < 0.6 else None
        if case is not None:
            player = _edge_hand(rng, case)
        else:
            want_second = rng.random() < 0.6
            # Five cards whose best five use them all (straight, flush, full house, ...) or whose
            # kickers cannot pair (ace-king) never hold a second combination: drawing those and
            # rejecting 400 deals each made this drill the slowest to generate.
            category = rng.choice(
                [
                    c
                    for c in PAYING
                    if c is not Category.ROYAL_FLUSH and (six or not want_second or c in WITH_KICKERS)
                ]
            )
            kickers = rng.choice(((14, 13), (13, 14), (14,), (13,))) if want_second and not six else ()

            def accept(cards: tuple[Card, ...]) -> bool:
                lunar = house_rules("lunar")
                return (second_combination(cards, lunar) is not None) == want_second

            player = build_hand(rng, category, (), size=6 if six else 5, kickers=kickers, accept=accept)
        dealer = dealer_hand(rng, player, "lower", ())
        data: Data = {
            "rules": rules.name,
            "ante": ante,
            "player": names(player),
            "dealer": names(dealer),
        }
        if case is not None:
            data["edge_case"] = case
        if len(player) == 6:
            return prompt(
                data,
                step(
                    "Ante {ante}. The player bought a sixth card and holds {player}; the dealer has a game "
                    "with "
                    "{dealer}, and the player's hand is higher. What is paid on the bet?",
                    ante=ante,
                    player=Cards.of(player),
                    dealer=Cards.of(dealer),
                ),
            )
        return prompt(
            data,
            step(
                "Ante {ante}. The player holds {player}; the dealer has a game with {dealer}, and the "
                "player's "
                "hand is higher. What is paid on the bet?",
                ante=ante,
                player=Cards.of(player),
                dealer=Cards.of(dealer),
            ),
        )

    return _retry(make)


def _solve_two_combinations(data: Data) -> Solution:
    rules = house_rules(data["rules"])
    cards = parse_cards(data["player"])
    pay = bet_payout(cards, data["ante"], rules)
    first = rules.bet_odds[pay.hand.category]
    bet = 2 * data["ante"]
    # The first is named by its scoring cards: the second is paid for a card outside those, so a
    # kicker of the first (the ace beside four kings) may be the second's.
    scoring = named(pay.hand.category, pay.hand.scoring)
    steps = [step("First combination: {hand}, {odds} to 1.", hand=scoring, odds=first)]
    if not rules.two_combinations:
        steps.append(step("This house pays only the higher of two combinations."))
    elif pay.second is None:
        steps.append(
            step("No second combination: every other combination in the hand uses only the first's cards.")
        )
    else:
        outside = [c for c in pay.second.cards if c not in pay.hand.scoring]
        steps.append(
            step(
                "Second combination: {second}, with {cards} outside the first: {odds} to 1 more.",
                second=pay.second.said,
                cards=Cards.of(outside),
                odds=pay.odds - first,
            )
        )
    steps.append(step("The bet {bet} pays {odds} to 1 = {win}.", bet=bet, odds=pay.odds, win=pay.win))
    return pay.win, f"{pay.win:,}", tuple(steps)


# rp.insurance ---------------------------------------------------------------------------------------


def _gen_insurance(rng: random.Random, level: int, rules_name: str | None) -> Data:
    rules = _preset(rules_name, "insured")
    if not rules.insurance_offered:
        raise RulesError(f"{rules.title}: the table offers no insurance")

    def make() -> Data:
        insurable = [c for c in PAYING if c.rank >= rules.insurance_min_category.rank]
        category = rng.choice(insurable)
        capped = rules.table_max_payout and level >= 2 and rng.random() < 0.6
        ante = ante_for(rng, 3 if capped else level)
        player = build_hand(rng, category, ())
        if category in rules.instant_odds:
            raise DealError("a dealt instant-payout hand is paid at once, never insured")
        high = insurance_limits(player, ante, rules)[1]
        win = bet_payout(player, ante, rules).win
        if capped and win <= high:
            raise DealError("the cap was wanted")
        data: Data = {"rules": rules.name, "ante": ante, "player": names(player)}
        return prompt(
            data,
            step(
                "Ante {ante}. The player holds {player} and wants to insure his bet against the dealer "
                "having "
                "no game. What is the most he may insure?",
                ante=ante,
                player=Cards.of(player),
            ),
        )

    return _retry(make)


def solve_insurance(data: Data) -> Solution:
    """The most a box may insure (data: rules, player, ante), explained: the drill's answer and the live
    table's."""
    rules = house_rules(data["rules"])
    cards = parse_cards(data["player"])
    ante = data["ante"]
    high = insurance_limits(cards, ante, rules)[1]
    pay = bet_payout(cards, ante, rules)
    steps = [
        step(
            "Insurance is sold on {least} or better; the player holds {hand}.",
            least=rules.insurance_min_category.term,
            hand=pay.hand.said,
        ),
        step("The bet {bet} would win {odds} to 1 = {win}.", bet=2 * ante, odds=pay.odds, win=pay.win),
    ]
    if rules.table_max_payout and pay.win > rules.table_max_payout:
        steps.append(
            step(
                "Table maximum {cap}: the bet can really be paid {paid}, not {win}.",
                cap=rules.table_max_payout,
                paid=high,
                win=pay.win,
            )
        )
    steps.append(step("The most he may insure is what the bet can really be paid: {most}.", most=high))
    return high, f"{high:,}", tuple(steps)


# rp.boxes -------------------------------------------------------------------------------------------

LEGAL = "legal"
_PLAYERS = ("1", "2", "3", "4")
_BRANCHES = {
    1: (LEGAL, LEGAL, "too_many_open", "open_not_adjacent"),
    2: (LEGAL, LEGAL, "too_many_open", "open_not_adjacent", "blind_before_open", "box_taken"),
    3: (LEGAL, "too_many_open", "open_not_adjacent", "blind_before_open", "box_taken", "no_such_box"),
}


def _boxes_for(rng: random.Random, branch: str, rules: HouseRules) -> list[tuple[int, str, str]]:
    """A placement of boxes that breaks exactly the rule `branch` (or none)."""
    count = rules.boxes_count
    free = list(range(1, count + 1))
    rng.shuffle(free)
    placed: list[tuple[int, str, str]] = []
    main = "1"
    # The player the question is about: two adjacent open boxes, maybe further blind ones.
    start = rng.randint(1, count - 1)
    placed += [(start, main, "open"), (start + 1, main, "open")]
    rest = [n for n in range(1, count + 1) if n not in (start, start + 1)]
    rng.shuffle(rest)
    for n in rest[: rng.randint(0, 2)]:
        placed.append((n, main, "blind"))
    if branch == "too_many_open":
        blind = [p for p in placed if p[2] == "blind"]
        if blind:
            placed[placed.index(blind[0])] = (blind[0][0], main, "open")
        else:
            placed.append((rest[0], main, "open"))
    elif branch == "open_not_adjacent":
        far = [n for n in rest if abs(n - start) > 1]
        placed = [(start, main, "open"), (rng.choice(far), main, "open")]
    elif branch == "blind_before_open":
        placed = [(start, main, "open"), (rng.choice(rest), main, "blind")]
    used = {p[0] for p in placed}
    others = [n for n in range(1, count + 1) if n not in used]
    for player in _PLAYERS[1 : rng.randint(1, 3)]:
        if not others:
            break
        placed.append((others.pop(rng.randrange(len(others))), player, "open"))
    if branch == "box_taken":
        taken = rng.choice(placed)
        placed.append((taken[0], "4", "open"))
    elif branch == "no_such_box":
        placed.append((count + 1, "4", "open"))
    return placed


def _gen_boxes(rng: random.Random, level: int, rules_name: str | None) -> Data:
    rules = _preset(rules_name, "cis")

    def make() -> Data:
        branch = rng.choice(_BRANCHES[level])
        placed = _boxes_for(rng, branch, rules)
        faults = table_faults(Table.of(placed), rules)
        if [e.fault.value for e in faults] != ([] if branch == LEGAL else [branch]):
            raise DealError("the placement came out otherwise")
        placed.sort()
        data: Data = {
            "rules": rules.name,
            "box_count": rules.boxes_count,
            "boxes": [{"box": n, "player": int(p), "mode": m} for n, p, m in placed],
        }
        return prompt(
            data,
            step(
                "The table has {count}\u00a0boxes, numbered from the dealer's left; the stakes before "
                "the deal are on the table. May the croupier deal, or which rule does this break?",
                count=rules.boxes_count,
            ),
        )

    return _retry(make)


BOX_CHOICES = (
    (LEGAL, Term(N_("He may deal: every box is placed by the rules"))),
    *((f.value, Term(f.label)) for f in BoxFault if f is not BoxFault.NO_BLIND_BOX),
)


def _solve_boxes(data: Data) -> Solution:
    rules = house_rules(data["rules"])
    table = Table.of([(b["box"], str(b["player"]), b["mode"]) for b in data["boxes"]])
    faults: list[BoxError] = table_faults(table, rules)
    steps = [
        step(
            "Each player may play {open}\u00a0boxes open, next to each other; a further box only blind.",
            open=rules.boxes_open_per_player,
        )
    ]
    if not faults:
        steps.append(step("Every box is placed by the rules: the croupier deals."))
        return LEGAL, str(dict(BOX_CHOICES)[LEGAL]), tuple(steps)
    fault = faults[0]
    steps.append(_fault_step(fault, rules))
    return fault.fault.value, fault.fault.label, tuple(steps)


def _fault_step(fault: BoxError, rules: HouseRules) -> Step:
    """Why the croupier refuses, in a sentence naming the box or the player."""
    if fault.fault is BoxFault.NO_SUCH_BOX:
        return step(
            "Box {box} does not exist: the table has boxes 1 to {count}.",
            box=fault.box,
            count=rules.boxes_count,
        )
    if fault.fault is BoxFault.BOX_TAKEN:
        return step("Box {box} carries two players' stakes: one box, one player.", box=fault.box)
    if fault.fault is BoxFault.TOO_MANY_OPEN:
        return nstep(
            "Player {player} plays more than {count} box open: box {box} may only be played blind.",
            "Player {player} plays more than {count}\u00a0boxes open: box {box} may only be played blind.",
            count=rules.boxes_open_per_player,
            player=fault.player,
            box=fault.box,
        )
    if fault.fault is BoxFault.OPEN_NOT_ADJACENT:
        return step("Player {player}'s open boxes are not next to each other.", player=fault.player)
    if fault.fault is BoxFault.BLIND_BEFORE_OPEN:
        return step(
            "Player {player} plays box {box} blind while he may still play it open: a box is blind only "
            "beyond the open ones.",
            player=fault.player,
            box=fault.box,
        )
    return step("This house allows no box beyond the open ones.")


for _kind in (
    DrillKind(
        "rp.two_combinations",
        GAME,
        N_("Two combinations: what the bet pays"),
        1,
        (1, 2, 3),
        _gen_two_combinations,
        lambda d: AMOUNT,
        _solve_two_combinations,
    ),
    DrillKind(
        "rp.insurance",
        GAME,
        N_("Insurance: the most a box may insure"),
        1,
        (1, 2, 3),
        _gen_insurance,
        lambda d: AMOUNT,
        solve_insurance,
    ),
    DrillKind(
        "rp.boxes",
        GAME,
        N_("Several boxes: may the croupier deal?"),
        1,
        (1, 2, 3),
        _gen_boxes,
        lambda d: AnswerFormat(AnswerKind.CHOICE, choices=BOX_CHOICES),
        _solve_boxes,
    ),
):
    register(_kind)

__all__ = ["BOX_CHOICES", "EDGE_CASES"]


# Typical mistakes of the amount kinds (see trainer.drills.mistakes) ----------------------------------

INSURED_STAKE = mistake_type("rp.insured_stake", "The bet's stake taken for what it can win")


def _two_combinations_mistakes(data: Data) -> list[Mistake]:
    rules = house_rules(data["rules"])
    cards = parse_cards(data["player"])
    bet = 2 * data["ante"]
    pay = bet_payout(cards, data["ante"], rules)
    first = rules.bet_odds[pay.hand.category]
    found = [
        Mistake(
            STAKE_IN_PAYOUT,
            pay.win + bet,
            step("The bet {bet} is returned beside the win, not counted in it: {win}.", bet=bet, win=pay.win),
        ),
        Mistake(
            ODDS_ON_ANTE,
            pay.win // 2,
            step("The odds are paid on the bet, {bet}, not on the ante: {win}.", bet=bet, win=pay.win),
        ),
    ]
    if pay.second is not None:
        found.append(
            Mistake(
                SECOND_FORGOTTEN,
                first * bet,
                step(
                    "This house pays two combinations: the second, {second}, adds {odds} to 1, so the bet "
                    "wins {win}.",
                    second=pay.second.said,
                    odds=pay.odds - first,
                    win=pay.win,
                ),
            )
        )
    elif not rules.two_combinations:
        second = second_combination(cards, house_rules("lunar"))
        if second is not None:
            found.append(
                Mistake(
                    SECOND_PAID,
                    (first + rules.bet_odds[second.category]) * bet,
                    step(
                        "This house pays only the best combination: {second} adds nothing, so the bet wins "
                        "{win}.",
                        second=second.said,
                        win=pay.win,
                    ),
                )
            )
    return found


def _insurance_mistakes(data: Data) -> list[Mistake]:
    rules = house_rules(data["rules"])
    ante = data["ante"]
    high = insurance_limits(data["player"], ante, rules)[1]
    win = bet_payout(data["player"], ante, rules).win
    cap = rules.table_max_payout
    found = [
        Mistake(
            INSURED_STAKE,
            2 * ante,
            step(
                "The limit is what the bet can win, not the bet itself ({bet}): {most}.",
                bet=2 * ante,
                most=high,
            ),
        ),
        Mistake(
            STAKE_IN_PAYOUT,
            high + 2 * ante,
            step("The bet's stake is not part of what it wins: {most}.", most=high),
        ),
        Mistake(
            ODDS_ON_ANTE,
            min(win // 2, cap) if cap else win // 2,
            step("The odds are paid on the bet, {bet}, not on the ante: {most}.", bet=2 * ante, most=high),
        ),
    ]
    if cap and win > high:
        found.insert(
            0,
            Mistake(
                CAP_IGNORED,
                win,
                step(
                    "The table maximum is {cap}: the win {win} is cut to {paid}.", cap=cap, win=win, paid=high
                ),
            ),
        )
    return found


attach_mistakes("rp.two_combinations", _two_combinations_mistakes)
attach_mistakes("rp.insurance", _insurance_mistakes)
