"""A painted poker deal at the live table: the bids round the table, the tricks, the deal's scores.

One deal of a game's schedule (level 1: the rising deals up to 4 cards; level 2: up to 6 cards, no-trump,
dark and frontal deals too; level 3: any deal, gold and miser included), dealt to 3 to 6 players (up to
10 at a house with the 54-card deck) from the house's deck, the trump turned up (the top card of the
stock, or the dealer's last card when the whole deck is dealt; a turned joker or a no-trump deal: no
trump) or, with circular trump, the house's suit for the deal's number (`deal_trump`). Simulated players
bid from their cards and play legal cards (`legal_cards`), trying to make their bids; a joker is led with
one of the calls the house allows (the highest trump, the highest of a suit, low; where the house has
them the lowest trump, the high or low card of a suit, or an ordinary card named), and played later high
or low. The presets: `classic` (the rule page's defaults), `odessa-house` (every joker call, the dealer
bids the maximum when everybody passed, frontal deals, specials x2) and `deck-54` (54 cards with two real
jokers, circular trump, the specials between the rising and falling parts, x3). The trainee as the
scorekeeper rules:

1. the dealer's forbidden bid (the hook) once the others have bid, or that he must bid all the cards
   where the house says so when everybody passed (none in a dark deal, no bids in gold and miser deals);
2. who takes each trick;
3. every player's score for the deal.

>>> from trainer.drills.rounds import deal
>>> r = deal("painted_poker", 1, seed=2, seats=4)
>>> r.steps[0].kind, r.steps[-1].kind
('pp.hook', 'pp.scores')
"""

from __future__ import annotations

import json
import random
from typing import Any

from trainer.drills.answers import AnswerFormat, AnswerKind, seat_label
from trainer.drills.chips import ChipSet
from trainer.drills.houses import in_use
from trainer.drills.painted_poker.kinds import MUST_BID_ALL
from trainer.drills.rounds import GameRounds, RoundStep, StepKind
from trainer.engine import painted_poker as pp
from trainer.engine.cards import Card
from trainer.engine.explain import N_, Step, Term, step
from trainer.engine.painted_poker.rules import DealKind, PaintedRules, TrumpMode
from trainer.engine.painted_poker.tricks import JokerCall, Play

# 2 (issue 26): the classic joker is 7s, followers obey the further joker calls, circular trump starts
# with spades and deck-54 seats up to 10: a round stored by version 1 deals differently now, so the store
# asks for a new one instead of grading it against another deal.
VERSION = 2
LEVEL_CARDS = {1: 4, 2: 6, 3: 99}
LEVEL_KINDS = {
    1: {DealKind.NORMAL},
    2: {DealKind.NORMAL, DealKind.NO_TRUMP, DealKind.DARK, DealKind.FRONTAL},
    3: set(DealKind),
}


def default_players(rng: random.Random, level: int) -> int:
    return {1: rng.randint(3, 4), 2: rng.randint(4, 5), 3: rng.randint(4, 6)}[level]


ANY_BID = Term(N_("Any bid is allowed"))


def _rules(name: str) -> PaintedRules:
    return pp.load_rules(name, in_use())


def _house_players(name: str) -> range:
    """The players the house's rules seat (Georgian joker: 4 only)."""
    rules = _rules(name)
    return range(rules.min_players, rules.max_players + 1)


class _Deal:
    """The deal while it is played; `table` is what the scorekeeper sees."""

    def __init__(self, rng: random.Random, level: int, players: int, rules_name: str) -> None:
        self.rng, self.n, self.rules_name = rng, players, rules_name
        self.rules = _rules(rules_name)
        first = rng.randrange(players)
        deals = [
            d
            for d in pp.schedule(players, self.rules, first)
            if d.cards <= LEVEL_CARDS[level] and d.kind in LEVEL_KINDS[level]
        ]
        # A house copy whose schedule has no deal of the level's kinds and sizes: any of its deals.
        self.deal = rng.choice(deals or pp.schedule(players, self.rules, first))
        self.kind = self.deal.kind
        self.cards = self.deal.cards
        self.dealer = self.deal.dealer
        deck = list(self.rules.deck)
        rng.shuffle(deck)
        # Dealt one by one from the dealer's left; the dealer gets the last card of each round.
        order = [(self.dealer + 1 + i) % players for i in range(players)]
        self.hands: dict[int, list[Card]] = {s: [] for s in range(players)}
        for _ in range(self.cards):
            for seat in order:
                self.hands[seat].append(deck.pop())
        self.stock = list(deck)  # undealt: a joker led as an ordinary card names one of these
        self.circular = self.rules.trump_mode is TrumpMode.CIRCULAR
        if self.circular:
            self.turned: Card | None = None  # no card is turned: the house's order names the trump
        elif deck:
            self.turned = deck[-1]
        else:
            self.turned = self.hands[self.dealer][-1]
        self.trump = pp.deal_trump(self.deal.number, self.kind.value, self.rules, self.turned)
        self.bids: list[int | None] = [None] * players
        self.took = [0] * players
        self.trick: list[dict[str, Any]] = []
        self.done_tricks: list[dict[str, Any]] = []
        self.steps: list[RoundStep] = []
        self.order = order

    def table(self, focus: int | None = None, phase: str = "bids") -> dict[str, Any]:
        return json.loads(
            json.dumps(
                {
                    "game": "painted_poker",
                    "rules": self.rules_name,
                    "players": self.n,
                    "deal": {"number": self.deal.number, "cards": self.cards, "kind": self.kind.value},
                    "dealer": self.dealer + 1,
                    "turned": str(self.turned)
                    if self.turned and self.kind is not DealKind.NO_TRUMP
                    else None,
                    "circular": self.circular,
                    "trump": self.trump,
                    "jokers": [str(j) for j in self.rules.jokers],
                    "phase": phase,
                    "bids": self.bids,
                    "took": self.took,
                    "trick": self.trick,
                    "tricks": len(self.done_tricks),
                    "focus": None if focus is None else focus + 1,
                }
            )
        )

    # Bids ------------------------------------------------------------------------------------------

    def strength(self, seat: int) -> int:
        """A player's bid from his cards: aces, trumps above ten, the joker."""
        count = 0.0
        for c in self.hands[seat]:
            if self.rules.is_joker(c):
                count += 1
            elif self.trump is not None and c.suit == self.trump and c.rank >= 11:
                count += 0.8
            elif c.rank == 14:
                count += 0.7
            elif c.rank == 13:
                count += 0.3
        return max(0, min(self.cards, round(count + self.rng.uniform(-0.6, 0.6))))

    def bidding(self) -> None:
        if not self.kind.has_bids:
            return
        # Dark: bid before looking; frontal: nobody sees his own cards. Either way a guess.
        dark = self.kind in (DealKind.DARK, DealKind.FRONTAL)
        for seat in self.order[:-1]:
            self.bids[seat] = self.rng.randint(0, min(self.cards, 2)) if dark else self.strength(seat)
        others = [b for b in self.bids if b is not None]
        choices = [*((str(b), str(b)) for b in range(self.cards + 1)), ("none", ANY_BID)]
        if self.rules.all_pass_dealer_max:
            choices.append(MUST_BID_ALL)
        self.steps.append(
            RoundStep(
                "pp.hook",
                step("The dealer, seat {seat}, bids last. Which bid may he not make?", seat=self.dealer + 1),
                AnswerFormat(AnswerKind.CHOICE, choices=tuple(choices)),
                self.table(self.dealer),
                {"cards": self.cards, "others": others, "deal": self.kind.value, "rules": self.rules_name},
            )
        )
        wanted = self.rng.randint(0, min(self.cards, 2)) if dark else self.strength(self.dealer)
        allowed = pp.dealer_bids(self.cards, others, self.kind.value, self.rules)
        self.bids[self.dealer] = wanted if wanted in allowed else min(allowed, key=lambda b: abs(b - wanted))

    # Play ------------------------------------------------------------------------------------------

    def wants(self, seat: int) -> bool:
        if self.kind is DealKind.MISER:
            return False
        bid = self.bids[seat]
        return bid is None or self.took[seat] < bid

    def choose(self, seat: int, plays: list[Play]) -> Play:
        legal = pp.legal_cards(self.hands[seat], plays, self.trump, self.rules)
        want = self.wants(seat)
        jokers = [c for c in legal if self.rules.is_joker(c)]
        plain = [c for c in legal if not self.rules.is_joker(c)] or legal
        if self.kind is DealKind.FRONTAL:
            # He cannot see his cards: the card he draws from his hand, played by the rules.
            card = self.rng.choice(legal)
            if not self.rules.is_joker(card):
                return Play(card)
            return (
                self.lead_joker(card, want)
                if not plays
                else Play(card, JokerCall.HIGH if want else JokerCall.LOW)
            )
        if jokers and ((want and self.rng.random() < 0.5) or len(legal) == len(jokers)):
            joker = jokers[0]
            if not plays:
                return self.lead_joker(joker, want)
            return Play(joker, JokerCall.HIGH if want else JokerCall.LOW)
        pick = max if want else min
        return Play(pick(plain, key=lambda c: (c.suit == self.trump, c.rank)))

    def lead_joker(self, joker: Card, want: bool) -> Play:
        """The joker led with a call the house allows: to take the trick (the highest trump or of a
        suit, the high card of a suit, a card named) or to lose it (low, the lowest trump, the low card
        of a suit, a card named). The classic calls are drawn as before the house options came."""
        allowed = set(self.rules.lead_calls)
        calls = [JokerCall.HIGHEST, JokerCall.LOW] + ([JokerCall.HIGHEST_TRUMP] if self.trump else [])
        calls += [
            c
            for c in (JokerCall.LOWEST_TRUMP, JokerCall.HIGH_CARD, JokerCall.LOW_CARD, JokerCall.AS_CARD)
            if c.value in allowed and (c is not JokerCall.LOWEST_TRUMP or self.trump)
        ]
        named = [c for c in self.stock if not self.rules.is_joker(c)]
        if not named and JokerCall.AS_CARD in calls:
            calls.remove(JokerCall.AS_CARD)  # every card is in play: no card left to name
        losing = [c for c in calls if c in (JokerCall.LOW, JokerCall.LOWEST_TRUMP, JokerCall.LOW_CARD)]
        call = (
            self.rng.choice(calls)
            if want
            else (self.rng.choice(losing) if len(losing) > 1 else JokerCall.LOW)
        )
        if call in (JokerCall.HIGHEST, JokerCall.HIGH_CARD, JokerCall.LOW_CARD):
            return Play(joker, call, self.rng.choice("shdc"))
        if call is JokerCall.AS_CARD:
            return Play(joker, call, named=self.rng.choice(named))
        return Play(joker, call)

    def play(self) -> None:
        leader = self.order[0]
        for number in range(1, self.cards + 1):
            plays: list[Play] = []
            seats: list[int] = []
            self.trick = []
            for i in range(self.n):
                seat = (leader + i) % self.n
                chosen = self.choose(seat, plays)
                self.hands[seat].remove(chosen.card)
                plays.append(chosen)
                seats.append(seat)
                self.trick.append({"seat": seat + 1, "play": str(chosen)})
            self.steps.append(
                RoundStep(
                    "pp.trick",
                    step("Trick {number}: who takes it?", number=number),
                    AnswerFormat(
                        AnswerKind.CHOICE, choices=tuple((str(s + 1), seat_label(s)) for s in seats)
                    ),
                    self.table(None, "play"),
                    {
                        "plays": [{"seat": s + 1, "play": str(p)} for s, p in zip(seats, plays, strict=True)],
                        "trump": self.trump,
                        "rules": self.rules_name,
                    },
                )
            )
            winner = seats[pp.trick_winner(plays, self.trump, self.rules)]
            self.took[winner] += 1
            self.done_tricks.append({"number": number, "winner": winner + 1})
            leader = winner
        self.trick = []

    def scores(self) -> dict[str, Any]:
        self.steps.append(
            RoundStep(
                "pp.scores",
                step("The deal is over. What does each player score?"),
                AnswerFormat(AnswerKind.AMOUNTS, labels=tuple(seat_label(s) for s in range(self.n))),
                self.table(None, "scores"),
                {
                    "bids": self.bids,
                    "took": self.took,
                    "deal": self.kind.value,
                    "cards": self.cards,
                    "rules": self.rules_name,
                },
            )
        )
        end = self.table(None, "over")
        end["scores"] = [
            pp.score(self.bids[s], self.took[s], self.kind.value, self.rules, cards=self.cards)
            for s in range(self.n)
        ]
        return end


def deal_steps(
    rng: random.Random, level: int, seats: int, rules: str, chips: ChipSet, payout: str
) -> tuple[list[RoundStep], dict[str, Any]]:
    hand = _Deal(rng, level, seats, rules)
    hand.bidding()
    hand.play()
    end = hand.scores()
    return hand.steps, end


def _solve_hook(data: dict[str, Any]) -> tuple[str, str, tuple[Step, ...]]:
    rules = _rules(data["rules"])
    forbidden, steps = pp.explain_hook(data["cards"], data["others"], data["deal"], rules)
    if pp.must_bid_max(data["others"], data["deal"], rules):
        return MUST_BID_ALL[0], str(MUST_BID_ALL[1]), steps
    if forbidden is None:
        return "none", str(ANY_BID), steps
    return str(forbidden), str(forbidden), steps


def _solve_trick(data: dict[str, Any]) -> tuple[str, str, tuple[Step, ...]]:
    plays = [Play.parse(p["play"]) for p in data["plays"]]
    position, steps = pp.explain_trick(plays, data["trump"], _rules(data["rules"]))
    seat = data["plays"][position]["seat"]
    return str(seat), f"Seat {seat}", (*steps, step("That is seat {seat}.", seat=seat))


def _solve_scores(data: dict[str, Any]) -> tuple[dict[str, int], str, tuple[Step, ...]]:
    rules = _rules(data["rules"])
    answer: dict[str, int] = {}
    steps: list[Step] = []
    for seat, (bid, took) in enumerate(zip(data["bids"], data["took"], strict=True)):
        points, why = pp.explain_score(bid, took, data["deal"], rules, data["cards"])
        answer[str(seat_label(seat))] = points
        steps.append(
            step("Seat {seat} took {took}.", seat=seat + 1, took=took)
            if bid is None
            else step("Seat {seat} bid {bid} and took {took}.", seat=seat + 1, bid=bid, took=took)
        )
        steps.extend(why)
    return answer, "; ".join(f"{k}: {v}" for k, v in answer.items()), tuple(steps)


ROUNDS = GameRounds(
    game="painted_poker",
    version=VERSION,
    seats=range(3, 11),  # narrowed by the house: 3 to 6 on 36 cards, up to 10 on the 54-card deck
    default_seats=default_players,
    house_seats=_house_players,
    default_rules="classic",
    deal_steps=deal_steps,
    seat_word=N_("Players"),
    kinds={
        "pp.hook": StepKind("pp.hook", _solve_hook),
        "pp.trick": StepKind("pp.trick", _solve_trick),
        "pp.scores": StepKind("pp.scores", _solve_scores),
    },
)
