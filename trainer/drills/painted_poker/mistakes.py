"""The typical mistakes of painted poker scoring, computed from the engine (pure).

One deal's score (`pp.score`, and every row of `pp.sheet`): a missed bid scored as made, taking more
than the bid scored as an exact bid of the tricks taken, a penalty written as a plus, the under
penalty counted on the whole bid, the deal's multiplier forgotten, a made pass scored 0, all the cards
bid and taken scored as an ordinary exact bid, khishti scored as an ordinary under. A sheet adds the
points carried from before forgotten, a set premium forgotten and the last deal left off. The hook
(`pp.hook`): the hook ignored, or applied in a dark deal.

The sentence of each mistake is the engine's own explanation step that the mistake gets wrong.

>>> [m.id for m in catalogue_score({"rules": "classic", "deal": "normal", "cards": 5, "bid": 3, "took": 1})]
['pp.missed_as_made', 'pp.penalty_as_plus', 'pp.under_on_whole_bid']
"""

from __future__ import annotations

from typing import Any

from trainer.drills.base import attach_mistakes
from trainer.drills.mistakes import Mistake, MistakeType, mistake_type
from trainer.drills.painted_poker.common import rules_of
from trainer.drills.painted_poker.play import trick_rules
from trainer.engine import painted_poker as pp
from trainer.engine.cards import Card
from trainer.engine.explain import Step, step
from trainer.engine.painted_poker.rules import DealKind, PaintedRules
from trainer.engine.painted_poker.tricks import Play

Data = dict[str, Any]

MISSED_AS_MADE = mistake_type("pp.missed_as_made", "A missed bid scored as made")
OVER_AS_EXACT = mistake_type("pp.over_as_exact", "Tricks over the bid scored as an exact bid")
PENALTY_AS_PLUS = mistake_type("pp.penalty_as_plus", "A penalty written as a plus")
UNDER_ON_WHOLE_BID = mistake_type("pp.under_on_whole_bid", "The under penalty counted on the whole bid")
MULTIPLIER_FORGOTTEN = mistake_type("pp.multiplier_forgotten", "The deal's multiplier forgotten")
PASS_NOT_SCORED = mistake_type("pp.pass_not_scored", "A made pass scored 0")
ALL_TAKEN_AS_EXACT = mistake_type(
    "pp.all_taken_as_exact", "All cards bid and taken scored as an ordinary bid"
)
KHISHTI_AS_UNDER = mistake_type("pp.khishti_as_under", "Khishti scored as an ordinary under")
BEFORE_FORGOTTEN = mistake_type("pp.carried_forgotten", "The points from before the sheet forgotten")
PREMIUM_FORGOTTEN = mistake_type("pp.premium_forgotten", "A set premium forgotten")
LAST_DEAL_LEFT_OFF = mistake_type("pp.last_deal_left_off", "The last deal left off")
HOOK_IGNORED = mistake_type("pp.hook_ignored", "The hook ignored")
HOOK_IN_DARK = mistake_type("pp.hook_in_dark", "The hook applied in a dark deal")
TRUMP_IGNORED = mistake_type("pp.trump_ignored", "The trump ignored")
SUIT_IGNORED = mistake_type("pp.led_suit_ignored", "The highest card of another suit taken for the winner")

Found = list[tuple[MistakeType, int, Step]]


def score_mistakes(bid: int | None, took: int, deal: str, rules: PaintedRules, cards: int) -> Found:
    """(type, points, the engine's step it gets wrong) for each mistake that applies to one deal."""
    right, steps = pp.explain_score(bid, took, deal, rules, cards)
    kind = DealKind(deal)
    s = rules.scoring
    factor = s.multiplier[kind]
    main = steps[0]
    found: Found = []
    if bid is not None and bid != took:
        found.append((MISSED_AS_MADE, pp.score(bid, bid, deal, rules, cards=cards), main))
        if took > bid:
            found.append((OVER_AS_EXACT, pp.score(took, took, deal, rules, cards=cards), main))
    if right < 0:
        found.append((PENALTY_AS_PLUS, -right, main))
    if bid is not None and 0 < took < bid:
        whole = (s.under_per_missing * bid + s.under_per_taken * took) * factor
        found.append((UNDER_ON_WHOLE_BID, whole, main))
    if factor != 1:
        found.append((MULTIPLIER_FORGOTTEN, right // factor, steps[-1]))
    if bid == took == 0:
        found.append((PASS_NOT_SCORED, 0, main))
    if bid is not None and bid == took == cards and s.all_taken_per_trick is not None:
        found.append((ALL_TAKEN_AS_EXACT, (s.exact_per_trick * bid + s.exact_bonus) * factor, main))
    if bid and took == 0 and s.khishti is not None:
        under = (s.under_per_missing * bid) * factor
        found.append((KHISHTI_AS_UNDER, under, main))
    return found


def catalogue_score(data: Data) -> list[Mistake]:
    rules = rules_of(data["rules"])
    found = score_mistakes(data["bid"], data["took"], data["deal"], rules, data["cards"])
    return [Mistake(kind, points, text) for kind, points, text in found]


def catalogue_sheet(data: Data) -> list[Mistake]:
    rules = rules_of(data["rules"])
    seat = data["seat"] - 1
    first = data["deals"][0]["number"]
    carried = [0] * data["players"]
    carried[seat] = data["before"]
    names = [f"Seat {n + 1}" for n in range(data["players"])]
    sheet = pp.ScoreSheet.resume(names, rules, data["first_dealer"] - 1, first, carried)
    for row in data["deals"]:
        sheet = sheet.record(row["bids"], row["tricks"])
    total = sheet.totals[seat]
    found: list[Mistake] = []
    if data["before"]:
        text = step("Before deal {number}: {before}.", number=first, before=data["before"])
        found.append(Mistake(BEFORE_FORGOTTEN, total - data["before"], text))
    for rec in sheet.records:
        bid = rec.bids[seat]
        for kind, points, text in score_mistakes(bid, rec.tricks[seat], rec.deal.kind, rules, rec.deal.cards):
            found.append(Mistake(kind, total - rec.scores[seat] + points, text))
        if rec.premia[seat]:
            premium = next(s for s in sheet.premium_steps(rec) if s.params["player"] == names[seat])
            found.append(Mistake(PREMIUM_FORGOTTEN, total - rec.premia[seat], premium))
    last = sheet.records[-1]
    if len(sheet.records) > 1 and last.points[seat]:
        text = step("Deal {number} counts too: {points}.", number=last.deal.number, points=last.points[seat])
        found.append(Mistake(LAST_DEAL_LEFT_OFF, total - last.points[seat], text))
    return found


def catalogue_hook(data: Data) -> list[Mistake]:
    others = [b["bid"] for b in data["bids"]]
    total, cards = sum(others), data["cards"]
    forbidden, steps = pp.explain_hook(cards, others, data["deal"], rules_of(data["rules"]))
    if forbidden is not None:
        return [Mistake(HOOK_IGNORED, "none", steps[-1])]
    if data["deal"] == DealKind.DARK.value and 0 <= cards - total <= cards:
        return [Mistake(HOOK_IN_DARK, str(cards - total), steps[-1])]
    return []


def catalogue_trick(data: Data) -> list[Mistake]:
    """Who takes the trick for a trainee who forgets the trump, or who takes the highest card whatever
    its suit (when no joker and no trump is in the trick); the sentence is the engine's last reason."""
    rules = trick_rules(data)
    turned = Card.from_text(data["turned"]) if data["turned"] else None
    plays = [Play.parse(p["play"]) for p in data["plays"]]
    trump = pp.trump_of(turned, rules, data["deal"])
    _, reasons = pp.explain_trick(plays, trump, rules)
    seats = [p["seat"] for p in data["plays"]]
    found = []
    if trump is not None:
        found.append(Mistake(TRUMP_IGNORED, str(seats[pp.trick_winner(plays, None, rules)]), reasons[-1]))
    plain = [p for p in plays if p.call is None and not rules.is_joker(p.card)]
    if len(plain) == len(plays) and all(p.card.suit != trump for p in plays):
        highest = max(range(len(plays)), key=lambda i: plays[i].card.rank)
        found.append(Mistake(SUIT_IGNORED, str(seats[highest]), reasons[-1]))
    return found


attach_mistakes("pp.score", catalogue_score)
attach_mistakes("pp.trick", catalogue_trick)
attach_mistakes("pp.sheet", catalogue_sheet)
attach_mistakes("pp.hook", catalogue_hook)

__all__ = ["catalogue_hook", "catalogue_score", "catalogue_sheet", "score_mistakes"]
