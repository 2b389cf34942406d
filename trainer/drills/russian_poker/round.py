"""A Russian poker round at the live table: 1 to 6 boxes against the dealer, ruled in table order.

The deal: antes (and bonus bets where the house has them) of different sizes on the occupied boxes,
a player on one box or on two adjacent boxes (played open), five cards each, the dealer's up-card.
Then, box by box from the dealer's left, the simulated players decide (`players`), and the trainee as
the dealer rules:

1. each buy of an exchange or a sixth card: the fee taken (the draw is then dealt);
2. where the house sells insurance (`insured`), each open box that bet with the combination it needs
   and wants to insure: the most it may insure (`insurance_limits`: what the bet can really be paid,
   the table maximum applied); the player then stakes up to that;
3. the dealer's hand opened: whether it has a game;
4. each box that bet, from the dealer's left: if the dealer has no game and the player buys the game,
   the fee and which dealer card is replaced (a card is drawn for that box; the dealer's hand as
   dealt stays for the other boxes); then the result on each spot (ante, bet, bonus, insurance) and the payout
   (the wins paid out from the float: as an amount, as any chips of that value, or as the dealer cuts
   it from the float, the fewest chips only: as the house chooses, or the trainee).

Folded boxes lose their stakes when they fold; nothing is asked about them. A draw is sold only
while the stock keeps a card for every box's bought game (six boxes can empty it); a player refused
one bets or folds his dealt hand. Every answer is the
engine's (`settle`, `dealer_qualifies`, `replaced_card`, the house's buy price) on the cards shown.

>>> from trainer.drills.rounds import deal, expected_answer
>>> r = deal("russian_poker", 2, seed=0, seats=6)
>>> [s.kind for s in r.steps][:4]
['rp.fee', 'rp.game', 'rp.fee', 'rp.replaced']
>>> first = r.steps[0]
>>> ante = next(b["ante"] for b in first.table["boxes"] if b["box"] == first.table["focus"])
>>> str(first.question), ante, expected_answer(r, 0)
('Box 2 buys a sixth card. What fee do you take?', 110, 110)
"""

from __future__ import annotations

import json
import random
from typing import Any

from trainer.drills.answers import AnswerFormat, AnswerKind, card_list
from trainer.drills.chips import ChipSet, load_chips
from trainer.drills.rounds import GameRounds, RoundStep, StepKind, payout_answer, payout_facts, payout_format
from trainer.drills.russian_poker import players
from trainer.drills.russian_poker.deals import house_rules
from trainer.drills.russian_poker.house import solve_insurance
from trainer.drills.russian_poker.kinds import SPOTS, YES_NO
from trainer.engine.cards import Deck
from trainer.engine.explain import N_, Cards, Step, Term, step
from trainer.engine.russian_poker import (
    HouseRules,
    dealer_qualifies,
    evaluate,
    insurance_limits,
    replaced_card,
    settle,
)
from trainer.engine.russian_poker.boxes import Table, check_table
from trainer.engine.russian_poker.rules import ReplaceCard

# 2: insurance asked and staked at the insured house; 3: players follow the advisor's rules of thumb
VERSION = 3
BOXES = 6
AMOUNT = AnswerFormat(AnswerKind.AMOUNT)
CARDS = AnswerFormat(AnswerKind.CARDS)
# Two adjacent boxes for one player, at levels 2 and 3 (the multi-box rule: two boxes played open).
TWO_BOXES_SHARE = {1: 0.0, 2: 0.25, 3: 0.4}
BLIND_SHARE = {1: 0.0, 2: 0.0, 3: 0.5}  # a third box, played blind, after two open ones
BONUS_SHARE = {1: 0.0, 2: 0.4, 3: 0.6}
INSURE_SHARE = 0.7  # of the boxes that may insure (open, bet, the combination the house asks for)
SUPER_SHARE = {1: 0.5, 2: 0.5, 3: 0.6}  # boxes that stake an optional Super (compulsory: every box)
ON_DEALER_SHARE = 0.3  # Super stakes on the dealer's hand, where the house allows it
# Payouts cut from a counted float: at level 3 the float opens short of purple or yellow in these rounds.
SHORT_FLOAT_SHARE = {1: 0.0, 2: 0.0, 3: 0.5}
SHORT_FLOAT = (500, 1000)


def default_boxes(rng: random.Random, level: int) -> int:
    return {1: rng.randint(1, 3), 2: rng.randint(3, 6), 3: 6}[level]


def _ante(rng: random.Random, level: int) -> int:
    """Level 1 round antes, level 2 odd fives, level 3 large ones; all payable in the house's chips."""
    if level == 1:
        return rng.choice((10, 20, 25, 50, 100))
    if level == 2:
        return rng.choice([n for n in range(15, 300, 5) if n % 50])
    return rng.choice([n for n in range(105, 2500, 5) if n % 100])


def _bonus(rng: random.Random, level: int) -> int:
    return rng.choice(range(5, 55, 5) if level == 2 else range(10, 255, 5))


def _super(rng: random.Random, level: int, ante: int, rules: HouseRules) -> tuple[int, bool]:
    """The Super stake (at least the house's least, in antes: Lunar "at least the ante") and whether
    it is on the dealer's hand; (0, False) where the house has no Super or the player stakes none."""
    if not rules.super_offered or (not rules.super_compulsory and rng.random() >= SUPER_SHARE[level]):
        return 0, False
    least = max(1, rules.super_min_antes)
    stake = ante * (least if level == 1 else rng.randint(least, least + 2))
    return stake, rules.super_on_dealer and rng.random() < ON_DEALER_SHARE


def _house_boxes(name: str) -> range:
    """The boxes the house's table has (`boxes.count`)."""
    return range(1, house_rules(name).boxes_count + 1)


def _seat_players(
    rng: random.Random, level: int, count: int, rules: HouseRules
) -> list[tuple[int, int, str]]:
    """(box, player, open or blind) for the occupied boxes: `count` of the table's boxes; a player on
    one box, on two adjacent boxes open, or (level 3) with a further box played blind, as the house's
    multi-box rule allows (`check_table` confirms every placement)."""
    boxes = sorted(rng.sample(range(1, min(BOXES, rules.boxes_count) + 1), count))
    seated: list[tuple[int, int, str]] = []
    player = 0
    i = 0
    while i < len(boxes):
        player += 1
        seated.append((boxes[i], player, "open"))
        adjacent = i + 1 < len(boxes) and boxes[i + 1] == boxes[i] + 1
        if adjacent and rules.boxes_open_per_player >= 2 and rng.random() < TWO_BOXES_SHARE[level]:
            seated.append((boxes[i + 1], player, "open"))
            i += 1
            blind = i + 1 < len(boxes) and rules.boxes_blind_beyond_open and rng.random() < BLIND_SHARE[level]
            if blind:
                seated.append((boxes[i + 1], player, "blind"))
                i += 1
        i += 1
    check_table(Table.of([(box, str(who), mode) for box, who, mode in seated]), rules)
    return seated


class _Table:
    """The table while the round is dealt; `snapshot` is what the dealer sees at a step."""

    def __init__(self, rules: str) -> None:
        self.state: dict[str, Any] = {
            "game": "russian_poker",
            "rules": rules,
            "phase": "decisions",
            "dealer": {"upcard": None, "cards": None, "open": False},
            "boxes": [],
            "focus": None,
        }
        self.hidden: dict[int, dict[str, Any]] = {}  # per box: the cards the dealer cannot see yet
        self.steps: list[RoundStep] = []
        self.opening: dict[str, int] = {}  # the float as the table opened (payouts cut from it only)

    def open_float(self, rng: random.Random, level: int, chips: ChipSet, payout: str) -> None:
        """Lay out the float when payouts are cut from it and the chip set counts one (`float` in its
        file): the opening count of each colour, at level 3 now and then one large colour short."""
        opening = chips.opening_float()
        if payout != "fewest" or opening is None:
            return
        # Its own random stream, so that the cards and the players are those of every payout form.
        own = random.Random(repr(rng.getstate()[1][:8]))
        if own.random() < SHORT_FLOAT_SHARE[level]:
            short = str(own.choice([v for v in SHORT_FLOAT if str(v) in opening]))
            opening[short] = min(opening[short], own.randint(0, 3))
        self.opening = opening
        self.state["float"] = dict(opening)

    def fill_for(self, chips: ChipSet, amount: int) -> bool:
        """Make sure the float can cut `amount`; True when the cage had to fill it first: when what is
        left cannot make the amount, each colour comes back to its opening count, and stacks of the
        largest chip follow until it can."""
        tray: dict[str, int] = self.state["float"]
        if chips.cut(amount, tray) is not None:
            return False
        filled = {label: max(tray[label], n) for label, n in self.opening.items()}
        top = str(chips.by_size[0].value)
        while chips.cut(amount, filled) is None:
            filled[top] += chips.stack
        self.state["float"] = filled
        return True

    def take_from_float(self, chips: ChipSet, amount: int) -> None:
        """The box paid: its cut leaves the float."""
        for label, n in (chips.cut(amount, self.state["float"]) or {}).items():
            self.state["float"][label] -= n

    def box(self, number: int) -> dict[str, Any]:
        box: dict[str, Any] = next(b for b in self.state["boxes"] if b["box"] == number)
        return box

    def snapshot(self, focus: int | None = None) -> dict[str, Any]:
        self.state["focus"] = focus
        copied: dict[str, Any] = json.loads(json.dumps(self.state))  # much faster than deepcopy
        return copied

    def ask(
        self,
        kind: str,
        question: Step,
        answer_format: AnswerFormat,
        data: dict[str, Any],
        box: int | None = None,
        money: str = "",
    ) -> None:
        """A ruling the dealer makes now, on the table as it stands (`box` in focus)."""
        self.steps.append(RoundStep(kind, question, answer_format, self.snapshot(box), data, money))


def deal_steps(
    rng: random.Random, level: int, seats: int, rules_name: str, chips: ChipSet, payout: str
) -> tuple[list[RoundStep], dict[str, Any]]:
    rules = house_rules(rules_name)
    deck = Deck(rng)
    table = _Table(rules_name)
    table.open_float(rng, level, chips, payout)
    dealer = deck.draw(5)
    table.state["dealer"]["upcard"] = str(dealer[0])
    boxes: list[dict[str, Any]] = []
    for number, player, mode in _seat_players(rng, level, seats, rules):
        ante = _ante(rng, level)
        bonus = _bonus(rng, level) if rules.bonus_offered and rng.random() < BONUS_SHARE[level] else 0
        super_bet, on_dealer = _super(rng, level, ante, rules)
        dealt = deck.draw(5)
        if on_dealer and evaluate(dealt).category in rules.instant_odds:
            on_dealer = False  # an instant payout is settled at once: on its own five, not the dealer's
        boxes.append({"box": number, "dealt": dealt, "cards": dealt, "exchanges": 0})
        table.state["boxes"].append(
            {
                "box": number,
                "player": player,
                "mode": mode,
                "ante": ante,
                "bonus": bonus,
                "bet": 0,
                "insurance": 0,
                "super": super_bet,
                "super_on_dealer": on_dealer,
                "cards": None,
                "count": 5,
                "status": "waiting",
                "buy": None,
                "discards": 0,
                "game_card": None,
                "replaced": None,
                "result": None,
                "paid": None,
            }
        )

    # Decisions, box by box from the dealer's left; the dealer takes each buy's fee, then deals.
    amateurs: dict[int, bool] = {}
    for box in boxes:
        shown = table.box(box["box"])
        if evaluate(box["dealt"]).category in rules.instant_odds:
            # A dealt royal or straight flush: paid at once, the round is over for this box.
            shown["cards"] = [str(c) for c in box["dealt"]]
            shown["status"] = "instant"
            _settle_box(table, chips, payout, rules_name, box, shown, dealer, None)
            continue
        if shown["mode"] == "blind":
            # Played unseen: no buys; the player bets it (now and then an amateur folds it).
            decision, amateur = players.Decision(players.BET if rng.random() < 0.9 else players.FOLD), True
        else:
            decision, amateur = players.first_decision(box["dealt"], dealer[0], rules, rng, level)
        amateurs[box["box"]] = amateur
        if not _stock_sells(decision, len(deck), len(boxes)) or (
            # An edited house may allow the exchange but none per hand (`max_exchanges = 0`).
            decision.action == players.EXCHANGE and rules.max_exchanges < 1
        ):
            decision = players.without_draw(box["dealt"])
        if decision.action in (players.EXCHANGE, players.SIXTH):
            shown["buy"] = decision.action
            shown["discards"] = len(decision.discard)
            shown["status"] = "buying"
            fee_data = {"ante": shown["ante"], "rules": rules_name, "buy": decision.action}
            question = (
                step("Box {box} buys an exchange. What fee do you take?", box=box["box"])
                if decision.action == players.EXCHANGE
                else step("Box {box} buys a sixth card. What fee do you take?", box=box["box"])
            )
            table.ask("rp.fee", question, AMOUNT, fee_data, box["box"], "collect")
            if decision.action == players.SIXTH:
                box["cards"] = (*box["dealt"], *deck.draw(1))
                shown["count"] = 6
            else:
                kept = tuple(c for c in box["dealt"] if c not in decision.discard)
                box["cards"] = (*kept, *deck.draw(len(decision.discard)))
                box["exchanges"] = 1
            bets = players.bets_after_draw(box["cards"], rng, amateur)
        else:
            bets = decision.action == players.BET
        shown["status"] = "bet" if bets else "folded"
        shown["bet"] = 2 * shown["ante"] if bets else 0

    # Insurance, box by box: the player shows his hand to insure it before the dealer opens.
    if rules.insurance_offered:
        for box in boxes:
            shown = table.box(box["box"])
            if shown["status"] != "bet" or shown["mode"] != "open":
                continue
            if evaluate(box["cards"]).category.rank < rules.insurance_min_category.rank:
                continue
            if rng.random() >= INSURE_SHARE:
                continue
            low, high = insurance_limits(box["cards"], shown["ante"], rules)
            if low > high:
                continue  # an edited house's table maximum leaves this hand no stake to insure
            shown["cards"] = [str(c) for c in box["cards"]]
            shown["status"] = "insuring"
            data = {"player": shown["cards"], "ante": shown["ante"], "rules": rules_name}
            table.ask(
                "rp.insurance",
                step("Box {box} insures his hand. What is the most he may insure?", box=box["box"]),
                AMOUNT,
                data,
                box["box"],
            )
            middle = min(high, max(low, (low + high) // 10 * 5))
            shown["insurance"] = rng.choice(sorted({low, middle, high}))
            shown["status"] = "bet"

    # The dealer opens his hand.
    table.state["phase"] = "open"
    table.state["dealer"].update(cards=[str(c) for c in dealer], open=True)
    table.ask(
        "rp.game",
        step("You open your hand. Do you have a game?"),
        YES_NO,
        {"dealer": [str(c) for c in dealer], "rules": rules_name},
    )
    game = dealer_qualifies(dealer)

    # Settlement, box by box from the dealer's left.
    table.state["phase"] = "settlement"
    for box in boxes:
        shown = table.box(box["box"])
        if shown["status"] in ("folded", "settled"):
            if shown["status"] == "folded" and shown["super"]:
                # The Super is settled on the first five cards (or the dealer's), fold or not.
                shown["cards"] = [str(c) for c in box["dealt"]]
                _settle_box(table, chips, payout, rules_name, box, shown, dealer, None, folded=True)
            continue
        shown["cards"] = [str(c) for c in box["cards"]]  # the player opens his hand
        game_card = None
        # An insured box takes the no-game payout of its insurance: it does not buy the game.
        buys = (
            shown["mode"] == "open"
            and not shown["insurance"]
            and players.buys_game(box["cards"], rng, amateurs[box["box"]])
        )
        if not game and rules.buy_game_allowed and buys:
            shown["buy_game"] = True
            fee_data = {"ante": shown["ante"], "rules": rules_name, "buy": "game"}
            table.ask(
                "rp.fee",
                step("Box {box} buys the game. What fee do you take?", box=box["box"]),
                AMOUNT,
                fee_data,
                box["box"],
                "collect",
            )
            table.ask(
                "rp.replaced",
                step("Box {box} bought the game. Which of your cards do you replace?", box=box["box"]),
                CARDS,
                {"dealer": [str(c) for c in dealer], "rules": rules_name},
                box["box"],
            )
            game_card = deck.draw(1)[0]
            shown["game_card"] = str(game_card)
            shown["replaced"] = str(replaced_card(dealer, rules))
        _settle_box(table, chips, payout, rules_name, box, shown, dealer, game_card)
    table.state["phase"] = "over"
    return table.steps, table.snapshot()


def _settle_box(
    table: _Table,
    chips: ChipSet,
    payout: str,
    rules_name: str,
    box: dict[str, Any],
    shown: dict[str, Any],
    dealer: Any,
    game_card: Any,
    *,
    folded: bool = False,
) -> None:
    """Ask the result on each spot of a box and, when it wins anything, the payout; then mark it settled.
    An instant payout is asked when it is dealt; a folded box only for its Super."""
    facts = {
        "player": [str(c) for c in (box["dealt"] if folded else box["cards"])],
        "dealt": [str(c) for c in box["dealt"]],
        "dealer": [str(c) for c in dealer],
        "ante": shown["ante"],
        "bonus": shown["bonus"],
        "insurance": shown["insurance"],
        "exchanges": 0 if folded else box["exchanges"],
        "game_card": str(game_card) if game_card else None,
        "rules": rules_name,
    }
    if shown["super"]:
        facts |= {"super": shown["super"], "super_on_dealer": shown["super_on_dealer"]}
        if facts["dealt"] != facts["player"]:
            shown["dealt"] = facts[
                "dealt"
            ]  # the first five, kept beside the box: the Super is settled on them
    if folded:
        facts["folded"] = True
    if shown["status"] == "instant":
        question = step(
            "Box {box} shows a dealt {hand}: an instant payout. What is the result on each spot?",
            box=box["box"],
            hand=evaluate(box["dealt"]).category.term,
        )
    elif folded:
        question = step(
            "Box {box} folded; its Super is settled. What is the result on each spot?", box=box["box"]
        )
    else:
        question = step("Box {box} opens. What is the result on each spot?", box=box["box"])
    table.ask("rp.results", question, _spots_format_of(facts), facts, box["box"])
    ruling = _settle(facts)
    win = _paid(ruling)
    if win > 0:
        paid = {**facts, "payout": payout, **payout_facts(chips, payout)}
        question = step("What do you pay box {box}?", box=box["box"])
        if payout == "fewest":
            question = step("Pay box {box} as you cut it from the float: which chips?", box=box["box"])
        if payout == "fewest" and "float" in table.state:
            if table.fill_for(chips, win):
                question = step(
                    "The cage has filled the float. Pay box {box} as you cut it from the float: which chips?",
                    box=box["box"],
                )
            paid["float"] = dict(table.state["float"])
        table.ask("rp.payout", question, payout_format(chips, payout), paid, box["box"], "pay")
        if "float" in paid:
            table.take_from_float(chips, win)
    shown["result"] = {
        "ante": ruling.ante,
        "bet": ruling.bet,
        "bonus": ruling.bonus,
        "insurance": ruling.insurance,
        "super": ruling.super_bet,
    }
    shown["paid"] = win
    shown["status"] = "folded" if folded else "settled"


def _stock_sells(decision: players.Decision, stock: int, boxes: int) -> bool:
    """Six boxes can empty the stock (5 + 6 x 5 cards dealt, 17 left): a draw is sold only while the
    stock keeps a card for every box's bought game after it."""
    needs = {players.SIXTH: 1, players.EXCHANGE: len(decision.discard)}.get(decision.action, 0)
    return needs <= stock - boxes


def _spots_format(bonus: int, insurance: int = 0, super_bet: int = 0, folded: bool = False) -> AnswerFormat:
    labels = (SPOTS["Ante"],) if folded else (SPOTS["Ante"], SPOTS["Bet"])
    labels += (SPOTS["Bonus"],) if bonus else ()
    labels += (Term(N_("Insurance")),) if insurance else ()
    labels += (SPOTS["Super"],) if super_bet else ()
    return AnswerFormat(AnswerKind.AMOUNTS, labels=labels)


def _spots_format_of(facts: dict[str, Any]) -> AnswerFormat:
    return _spots_format(
        facts["bonus"], facts.get("insurance", 0), facts.get("super", 0), facts.get("folded", False)
    )


def _settle(facts: dict[str, Any]) -> Any:
    player, dealt = facts["player"], facts["dealt"]
    return settle(
        player,
        facts["dealer"],
        facts["ante"],
        bonus=facts["bonus"],
        insurance=facts.get("insurance", 0),
        super_bet=facts.get("super", 0),
        super_on_dealer=facts.get("super_on_dealer", False),
        folded=facts.get("folded", False),
        exchanges=facts["exchanges"],
        buy_game_card=facts["game_card"],
        dealt=dealt,
        rules=house_rules(facts["rules"]),
    )


def _paid(ruling: Any) -> int:
    """What the dealer counts out from the float: every winning spot's win (returned stakes and the
    losing spots collected are not part of it)."""
    return sum(
        v for v in (ruling.ante, ruling.bet, ruling.bonus, ruling.insurance, ruling.super_bet) if v > 0
    )


def _solve_fee(data: dict[str, Any]) -> tuple[int, str, tuple[Step, ...]]:
    rules = house_rules(data["rules"])
    fee = rules.buy_cost_antes * data["ante"]
    return (
        fee,
        str(fee),
        (
            step(
                "Every buy costs {cost}\u00a0ante: {ante} x {cost} = {fee}, "
                "kept by the house whatever happens.",
                cost=rules.buy_cost_antes,
                ante=data["ante"],
                fee=fee,
            ),
        ),
    )


def _solve_game(data: dict[str, Any]) -> tuple[str, str, tuple[Step, ...]]:
    hand = evaluate(data["dealer"])
    has = dealer_qualifies(data["dealer"])
    why = step("Dealer's hand: {hand}.", hand=hand.said)
    rule = step("The dealer has a game with ace-king or better.")
    return ("yes" if has else "no"), ("Yes, a game" if has else "No game"), (why, rule)


def _solve_replaced(data: dict[str, Any]) -> tuple[list[str], str, tuple[Step, ...]]:
    rules = house_rules(data["rules"])
    card = replaced_card(data["dealer"], rules)
    why = (
        step("The house replaces the dealer's highest card: {card}.", card=Cards.of([card]))
        if rules.buy_game_replaces is ReplaceCard.HIGHEST
        else step("The house replaces the dealer's lowest card: {card}.", card=Cards.of([card]))
    )
    return card_list([card]), str(card), (why,)


def _solve_results(data: dict[str, Any]) -> tuple[dict[str, int], str, tuple[Step, ...]]:
    ruling = _settle(data)
    values = {
        "Ante": ruling.ante,
        "Bet": ruling.bet,
        "Bonus": ruling.bonus,
        "Insurance": ruling.insurance,
        "Super": ruling.super_bet,
    }
    labels = _spots_format_of(data).labels
    answer = {label: values[label] for label in labels}
    return answer, "; ".join(f"{k}: {v}" for k, v in answer.items()), tuple(ruling.steps)


def _solve_payout(data: dict[str, Any]) -> tuple[Any, str, tuple[Step, ...]]:
    ruling = _settle(data)
    win = _paid(ruling)
    parts = [v for v in (ruling.ante, ruling.bet, ruling.bonus, ruling.insurance, ruling.super_bet) if v > 0]
    explanation = [
        *ruling.steps,
        step(
            "Pay the winning spots: {parts} = {total}.",
            parts=" + ".join(str(p) for p in parts),
            total=win,
        ),
    ]
    chips = load_chips(data["chips"]) if data.get("chips") else load_chips()
    if data.get("float") is not None:
        # Cut from the float as it stands: the fewest chips of what it holds, largest first.
        cut = chips.cut(win, data["float"])
        if cut is None:
            raise ValueError(f"the float {data['float']} cannot make {win}")
        explanation.append(
            step(
                "The float holds {float}: cut largest first, {chips}.",
                float=", ".join(f"{n} x {v}" for v, n in data["float"].items()),
                chips=", ".join(f"{n} x {v}" for v, n in cut.items() if n),
            )
        )
        return cut, str(win), tuple(explanation)
    if chips.payable(win):
        explanation.append(chips.fewest_step(win))
    return payout_answer(chips, data["payout"], win), str(win), tuple(explanation)


ROUNDS = GameRounds(
    game="russian_poker",
    version=VERSION,
    seats=range(1, BOXES + 1),
    default_seats=default_boxes,
    house_seats=_house_boxes,
    default_rules="cis",
    deal_steps=deal_steps,
    seat_word=N_("Boxes"),
    payouts=True,
    kinds={
        "rp.fee": StepKind("rp.fee", _solve_fee),
        "rp.game": StepKind("rp.game", _solve_game),
        "rp.replaced": StepKind("rp.replaced", _solve_replaced),
        "rp.insurance": StepKind("rp.insurance", solve_insurance),
        "rp.results": StepKind("rp.results", _solve_results),
        "rp.payout": StepKind("rp.payout", _solve_payout),
    },
)
