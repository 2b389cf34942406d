"""Painted poker drills on the play and the sheet: who takes a trick (`pp.trick`) and a player's total
after a few deals (`pp.sheet`). Registered by `trainer.drills.painted_poker`."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from trainer.drills.base import AnswerFormat, AnswerKind, prompt
from trainer.drills.painted_poker.common import (
    bid_and_took,
    players_for,
    players_said,
    rules_of,
    score_branches,
    seat_names,
)
from trainer.engine import painted_poker as pp
from trainer.engine.cards import SUIT_NAMES, Card
from trainer.engine.explain import N_, Cards, Step, Term, nstep, step
from trainer.engine.painted_poker.rules import DealKind, PaintedRules, SetPremium, TrumpMode
from trainer.engine.painted_poker.tricks import JokerCall, Play

SUITS = "shdc"
_TRICKS = (
    "follow",
    "trumped",
    "trump_led",
    "joker_high",
    "joker_low",
    "led_highest",
    "led_highest_trump",
    "led_low",
    "no_trump",
    "turned_joker",
)
# Level 1 asks the first five; level 2 every one but a trump led; level 3 all (in this order: seeded
# drills draw from these tuples).
TRICK_BRANCHES = {
    1: _TRICKS[:5],
    2: tuple(b for b in _TRICKS if b != "trump_led"),
    3: _TRICKS,
}


def _play_text(play: Play) -> str:
    """The play in English (the situation keeps it as `text`; the pages show `_play_said`)."""
    return str(_play_said(play))


# A joker led calling a suit: one sentence per call.
_SUIT_CALLS = {
    JokerCall.HIGHEST: N_("{card} (joker, led calling for the highest card of a suit: {suit})"),
    JokerCall.HIGH_CARD: N_("{card} (joker, led as the highest card of a suit: {suit})"),
    JokerCall.LOW_CARD: N_("{card} (joker, led as the lowest card of a suit: {suit})"),
}


def _play_said(play: Play) -> Step | Cards:
    card = Cards.of([play.card])
    if play.call is None:
        return card
    if play.call in _SUIT_CALLS:
        assert play.suit is not None
        return step(_SUIT_CALLS[play.call], card=card, suit=Term(SUIT_NAMES[play.suit]))
    if play.call is JokerCall.AS_CARD:
        assert play.named is not None
        return step("{card} (joker, led as {named})", card=card, named=Cards.of([play.named]))
    if play.call is JokerCall.HIGH:
        return step("{card} (joker, high)", card=card)
    if play.call is JokerCall.LOW:
        return step("{card} (joker, low)", card=card)
    if play.call is JokerCall.LOWEST_TRUMP:
        return step("{card} (joker, led as the lowest trump)", card=card)
    return step("{card} (joker, led calling the highest trump)", card=card)


# Branches for the joker's further lead calls, drawn only in a house that allows the call.
_FURTHER_CALLS = {
    "led_lowest_trump": JokerCall.LOWEST_TRUMP,
    "led_high_card": JokerCall.HIGH_CARD,
    "led_low_card": JokerCall.LOW_CARD,
    "led_as_card": JokerCall.AS_CARD,
}


def _branches(level: int, rules: PaintedRules) -> tuple[str, ...]:
    found = TRICK_BRANCHES[level] + (("two_jokers",) if len(rules.jokers) > 1 and level > 1 else ())
    if rules.trump_mode is TrumpMode.CIRCULAR:
        found = tuple(b for b in found if b != "turned_joker")
    if level > 1:
        found += tuple(b for b, call in _FURTHER_CALLS.items() if call.value in rules.lead_calls)
    return found


def _build_trick(
    rng: random.Random, branch: str, rules: PaintedRules, players: int, number: int | None = None
) -> tuple[DealKind, Card | None, list[Play]]:
    """A trick of `players` cards that teaches `branch` (any trick is possible for some hands)."""
    jokers = list(rules.jokers)
    rng.shuffle(jokers)
    plain = [c for c in rules.deck if not rules.is_joker(c)]
    rng.shuffle(plain)
    kind, turned = DealKind.NORMAL, None
    if branch == "no_trump":
        kind = DealKind.NO_TRUMP
    elif branch == "turned_joker":
        turned = jokers.pop()
    elif number is None:
        turned = plain.pop()
    trump = pp.trump_of(turned, rules, kind) if number is None else pp.deal_trump(number, kind, rules)

    def take(wanted: str, led: str | None) -> Card:
        tests = {
            "suit": lambda c: c.suit == led,
            "trump": lambda c: c.suit == trump,
            "discard": lambda c: c.suit not in (led, trump),
        }
        card = next((c for c in plain if tests[wanted](c)), plain[0])
        plain.remove(card)
        return card

    plays: list[Play] = []
    led: str | None
    if branch in _FURTHER_CALLS:
        call = _FURTHER_CALLS[branch]
        if call is JokerCall.LOWEST_TRUMP:
            if trump is None:
                raise ValueError("the lowest trump needs a trump")
            led = trump
            plays.append(Play(jokers.pop(), call))
        elif call is JokerCall.AS_CARD:
            named = rng.choice(plain)  # left in the deck: a player may hold the card itself
            led = named.suit
            plays.append(Play(jokers.pop(), call, None, named))
        else:
            led = rng.choice(SUITS)
            plays.append(Play(jokers.pop(), call, led))
    elif branch in ("led_highest", "led_highest_trump", "led_low") or (
        branch == "two_jokers" and rng.random() < 0.5
    ):
        call = {"led_highest": JokerCall.HIGHEST, "led_highest_trump": JokerCall.HIGHEST_TRUMP}.get(branch)
        if call is None:
            calls = [JokerCall.LOW, JokerCall.HIGHEST] + ([JokerCall.HIGHEST_TRUMP] if trump else [])
            call = JokerCall.LOW if branch == "led_low" else rng.choice(calls)
        led = (
            trump
            if call is JokerCall.HIGHEST_TRUMP
            else (rng.choice(SUITS) if call is JokerCall.HIGHEST else None)
        )
        plays.append(Play(jokers.pop(), call, led if call is JokerCall.HIGHEST else None))
    else:
        led = trump if branch == "trump_led" else rng.choice([s for s in SUITS if s != trump])
        plays.append(Play(take("suit", led)))
    extra: list[Play] = []
    if branch == "joker_high":
        extra.append(Play(jokers.pop(), JokerCall.HIGH))
    elif branch == "joker_low":
        extra.append(Play(jokers.pop(), JokerCall.LOW))
    elif branch == "two_jokers" or (jokers and branch in ("no_trump", "turned_joker") and rng.random() < 0.3):
        extra.extend(Play(j, rng.choice([JokerCall.HIGH, JokerCall.LOW])) for j in jokers)
    slots = sorted(rng.sample(range(1, players), min(len(extra), players - 1)))
    roles = ["suit", "discard"] + (["trump"] if trump and branch != "follow" else [])
    ordinary = [i for i in range(1, players) if i not in slots]
    forced_trump = rng.choice(ordinary) if branch == "trumped" and ordinary else None
    for position in range(1, players):
        if position in slots:
            plays.append(extra[slots.index(position)])
            continue
        if led is None:  # after a joker led low the first ordinary card sets the suit
            card = plain.pop()
            led = card.suit
            plays.append(Play(card))
            continue
        role = "trump" if position == forced_trump else rng.choice([*roles, "suit"])
        plays.append(Play(take(role, led)))
    return kind, turned, plays


def generate_trick(rng: random.Random, level: int, rules_name: str | None) -> dict[str, Any]:
    rules = rules_of(rules_name)
    players = players_for(rng, level, rules)
    branches = _branches(level, rules)
    circular = rules.trump_mode is TrumpMode.CIRCULAR
    for _ in range(50):
        branch = rng.choice(branches)
        number = None
        if circular:
            # A deal of the schedule whose kind fits the branch (a no-trump deal, or one with trump).
            fits = [
                d.number
                for d in pp.schedule(players, rules)
                if (d.kind is DealKind.NO_TRUMP) == (branch == "no_trump")
            ]
            number = rng.choice(fits)
        try:
            kind, turned, plays = _build_trick(rng, branch, rules, players, number)
            trump = pp.trump_of(turned, rules, kind) if number is None else pp.deal_trump(number, kind, rules)
            pp.check_trick(plays, trump, rules)
            break
        except ValueError:
            continue
    else:
        raise ValueError("no trick could be dealt")
    leader = rng.randrange(players)
    shown = [
        {"seat": (leader + i) % players + 1, "play": str(p), "text": _play_text(p)}
        for i, p in enumerate(plays)
    ]
    table = (
        step("A no-trump deal.")
        if kind is DealKind.NO_TRUMP or turned is None
        else step("The turned-up card is {card}.", card=Cards.of([turned]))
    )
    jokers = nstep(
        "Joker: {cards}.", "Jokers: {cards}.", count=len(rules.jokers), cards=Cards.of(rules.jokers)
    )
    played = [
        step("seat {seat}: {play}", seat=s["seat"], play=_play_said(p))
        for s, p in zip(shown, plays, strict=True)
    ]
    data = {
        "rules": rules.name,
        "players": players,
        "deal": kind.value,
        "turned": str(turned) if turned else None,
        "jokers": [str(j) for j in rules.jokers],
        "plays": shown,
    }
    if number is not None:
        # Circular trump: the deal's number says the trump; no card is turned.
        data["number"] = number
        order = [Term(SUIT_NAMES[s]) for s in rules.trump_order]
        table = (
            step("Deal {number}, a no-trump deal.", number=number)
            if kind is DealKind.NO_TRUMP
            else step(
                "Deal {number} of a game with circular trump (the order: {order}; one suit a deal).",
                number=number,
                order=order,
            )
        )
    return prompt(
        data,
        players_said(players),
        table,
        jokers,
        step("Played in order: {plays}.", plays=played),
        step("Who takes the trick?"),
    )


def trick_rules(data: dict[str, Any]) -> PaintedRules:
    """The house's rules with the jokers the trick was drawn with. A situation keeps its `jokers`, so
    one stored before a house changed its joker (issue 26: the classic 7c became 7s) is still solved
    as it was asked; one stored before the key came takes as jokers the cards that carry a call, and
    the house's jokers not played or turned up as ordinary cards."""
    rules = rules_of(data["rules"])
    if "jokers" in data:
        jokers = tuple(pp.painted_card(j) for j in data["jokers"])
    else:
        plays = [Play.parse(p["play"]) for p in data["plays"]]
        called = [p.card for p in plays if p.call is not None]
        plain = {p.card for p in plays if p.call is None}
        plain |= {pp.painted_card(data["turned"])} if data.get("turned") else set()
        jokers = (*called, *(j for j in rules.jokers if j not in plain and j not in called))
    if set(jokers) == set(rules.jokers):
        return rules
    return dataclasses.replace(rules, jokers=jokers)


def format_trick(data: dict[str, Any]) -> AnswerFormat:
    return AnswerFormat(
        AnswerKind.CHOICE,
        choices=tuple(
            (
                str(p["seat"]),
                step("Seat {seat} ({play})", seat=p["seat"], play=_play_said(Play.parse(p["play"]))),
            )
            for p in data["plays"]
        ),
    )


def solve_trick(data: dict[str, Any]) -> tuple[Any, str, tuple[Step, ...]]:
    rules = trick_rules(data)
    turned = pp.painted_card(data["turned"]) if data["turned"] else None
    plays = [Play.parse(p["play"]) for p in data["plays"]]
    steps: list[Step] = []
    if turned is not None and rules.is_joker(turned):
        steps.append(step("The turned-up card {card} is a joker: no trump.", card=Cards.of([turned])))
    elif data["deal"] == DealKind.NO_TRUMP.value:
        steps.append(step("A no-trump deal."))
    if data.get("number") is not None:
        trump = pp.deal_trump(data["number"], data["deal"], rules)
        if trump is not None:
            steps.append(
                step(
                    "Circular trump: deal {number} takes the suit number {place} of the order, {suit}.",
                    number=data["number"],
                    place=(data["number"] - 1) % len(rules.trump_order) + 1,
                    suit=Term(SUIT_NAMES[trump]),
                )
            )
    else:
        trump = pp.trump_of(turned, rules, data["deal"])
    position, reasons = pp.explain_trick(plays, trump, rules)
    seat = data["plays"][position]["seat"]
    steps.extend(reasons)
    steps.append(step("That is seat {seat}.", seat=seat))
    return str(seat), f"Seat {seat}", tuple(steps)


# --- the sheet ------------------------------------------------------------------------------------


def _spread(rng: random.Random, total: int, seats: int, cap: int) -> list[int]:
    values = [0] * seats
    for _ in range(total):
        values[rng.choice([i for i in range(seats) if values[i] < cap])] += 1
    return values


def _row(
    rng: random.Random, deal: pp.Deal, players: int, seat: int, rules: PaintedRules, streak: bool
) -> dict[str, Any]:
    """One deal of the sheet with the asked seat's result drawn from a scoring case."""
    cards, others = deal.cards, [s for s in range(players) if s != seat]
    row: dict[str, Any] = {
        "number": deal.number,
        "cards": cards,
        "deal": deal.kind.value,
        "dealer": deal.dealer + 1,
    }
    if not deal.kind.has_bids:
        took = rng.randint(0, cards)
        rest = _spread(rng, cards - took, len(others), cards)
        tricks = [0] * players
        tricks[seat] = took
        for s, t in zip(others, rest, strict=True):
            tricks[s] = t
        row.update(bids=None, tricks=tricks)
        return row
    cases = [b for b in score_branches(rules) if b not in ("gold", "miser")]
    if streak:
        cases = [b for b in cases if b in ("exact", "pass", "all_taken")]
    while (pair := bid_and_took(rng, rng.choice(cases), cards, rules)) is None:
        pass
    tricks = [0] * players
    tricks[seat] = pair[1]
    for s, t in zip(others, _spread(rng, cards - pair[1], len(others), cards), strict=True):
        tricks[s] = t
    bids = [max(0, min(cards, t + rng.choice((-1, 0, 0, 1)))) for t in tricks]
    bids[seat] = pair[0]
    dealer = deal.dealer
    banned = pp.forbidden_bid(cards, [b for s, b in enumerate(bids) if s != dealer], deal.kind, rules)
    if banned == bids[dealer]:
        # Keep the asked seat's case: move the dealer's bid, or (if the dealer is asked) another seat's.
        mover = dealer if dealer != seat else others[0] if others[0] != dealer else others[1]
        bids[mover] = bids[mover] + 1 if bids[mover] < cards else bids[mover] - 1
    row.update(bids=bids, tricks=tricks)
    return row


def _dealer_must_bid_all(row: dict[str, Any], seat: int, rules: PaintedRules) -> None:
    """Where everybody else passed and the house makes the dealer bid all the cards, the dealer does,
    or (when the asked seat is the dealer, whose case must stay) one other player bids a trick."""
    bids, dealer = row["bids"], row["dealer"] - 1
    if bids is None:
        return
    others = [b for s, b in enumerate(bids) if s != dealer]
    if not pp.must_bid_max(others, row["deal"], rules) or bids[dealer] == row["cards"]:
        return
    if dealer != seat:
        bids[dealer] = row["cards"]
        return
    mover = next(s for s in range(len(bids)) if s != dealer)
    bids[mover] = 1
    banned = pp.forbidden_bid(
        row["cards"], [b for s, b in enumerate(bids) if s != dealer], row["deal"], rules
    )
    if banned == bids[dealer]:
        bids[mover] = 2 if row["cards"] >= 2 else 0
        if bids[mover] == 0:
            raise ValueError("no bids fit this deal")


def generate_sheet(rng: random.Random, level: int, rules_name: str | None) -> dict[str, Any]:
    rules = rules_of(rules_name)
    players = players_for(rng, level, rules)
    first_dealer = rng.randrange(players) if level > 1 else 0
    deals = pp.schedule(players, rules, first_dealer)
    premia = rules.scoring.set_premium is not SetPremium.NONE
    streak = False
    if level == 1:
        window = deals[: rng.randint(2, 3)]
    elif premia and level == 3:
        # A whole short set, so a set premium can be earned and checked from what the sheet shows.
        sets = [n for n in sorted({d.set for d in deals}) if sum(d.set == n for d in deals) <= 5]
        chosen = rng.choice(sets)
        window = [d for d in deals if d.set == chosen]
        streak = rng.random() < 0.5
    else:
        length = 3 if level == 2 else rng.randint(4, 5)
        if premia:
            # Stay inside one set and short of its last deal: no premium falls due on hidden deals.
            starts = [
                d.number - 1
                for d in deals
                if d.number - 1 + length < len(deals)
                and all(x.set == d.set for x in deals[d.number - 1 : d.number + length])
            ]
        else:
            starts = list(range(len(deals) - length + 1))
            specials = [i for i in starts if deals[i + length - 1].kind is not DealKind.NORMAL]
            starts = specials if specials and rng.random() < 0.5 else starts
        start = rng.choice(starts)
        window = deals[start : start + length]
    seat = rng.randrange(players)
    scale = 5 if rules.scoring.exact_per_trick >= 50 else 1
    before = (
        0
        if window[0].number == 1
        else rng.randint(-30, 90) * scale * (1 if level == 2 else 7) + rng.randint(0, 9)
    )
    for _ in range(50):
        rows = [_row(rng, d, players, seat, rules, streak) for d in window]
        try:
            for row in rows:
                _dealer_must_bid_all(row, seat, rules)
            break
        except ValueError:
            continue  # a house rule left no bids that keep the asked seat's case: deal the rows again
    else:
        raise ValueError("no sheet could be written")
    first, last = window[0].number, window[-1].number
    said = (
        [
            step(
                "From the sheet of deals {first} to {last}, what is the total of seat {seat}?",
                first=first,
                last=last,
                seat=seat + 1,
            )
        ]
        if first == 1
        else [
            step("Seat {seat} has {before} before deal {first}.", seat=seat + 1, before=before, first=first),
            step(
                "From the sheet of deals {first} to {last}, what is the "
                "total of seat {seat} after deal {last}?",
                first=first,
                last=last,
                seat=seat + 1,
            ),
        ]
    )
    data = {
        "rules": rules.name,
        "players": players,
        "first_dealer": first_dealer + 1,
        "seat": seat + 1,
        "before": before,
        "deals": rows,
    }
    prompt(data, players_said(players), *said)
    solve_sheet(data)  # the engine accepts every row (tricks add up, no hook broken)
    return data


def solve_sheet(data: dict[str, Any]) -> tuple[Any, str, tuple[Step, ...]]:
    rules = rules_of(data["rules"])
    players, seat = data["players"], data["seat"] - 1
    first = data["deals"][0]["number"]
    carried = [0] * players
    carried[seat] = data["before"]
    sheet = pp.ScoreSheet.resume(seat_names(players), rules, data["first_dealer"] - 1, first, carried)
    for row in data["deals"]:
        sheet = sheet.record(row["bids"], row["tricks"])
    total = data["before"]
    steps = [step("Before deal {number}: {before}.", number=first, before=total)]
    for rec in sheet.records:
        bid = rec.bids[seat]
        _, reasons = pp.explain_score(bid, rec.tricks[seat], rec.deal.kind, rules, rec.deal.cards)
        steps.append(step("Deal {number}:", number=rec.deal.number))
        steps.extend(reasons)
        if rec.premia[seat]:
            steps.append(
                step(
                    "Seat {seat} made every bid of set {set}: the best "
                    "deal of the set, {best}, counts twice.",
                    seat=seat + 1,
                    set=rec.deal.set,
                    best=rec.premia[seat],
                )
            )
        total += rec.points[seat]
        steps.append(step("Running total: {total}.", total=total))
    assert total == sheet.totals[seat]
    return total, str(total), tuple(steps)
