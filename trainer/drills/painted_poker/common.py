"""Shared pieces of the painted poker drills: the preset, seats and hand sizes by level, and the
scoring cases (the branches a generator draws evenly)."""

from __future__ import annotations

import random

from trainer.drills.base import AnswerFormat, AnswerKind, RulesError
from trainer.drills.houses import in_use
from trainer.engine import painted_poker as pp
from trainer.engine.explain import Step, nstep
from trainer.engine.painted_poker.rules import PRESETS, DealKind, PaintedRules
from trainer.games import PAINTED_POKER

GAME = PAINTED_POKER.id
AMOUNT = AnswerFormat(AnswerKind.AMOUNT)

# Seat counts by level, kept to what the preset allows: 7 to 10 only where the house's deck seats them
# (the 54-card deck: "from 2 to 10 players").
_LEVEL_PLAYERS = {1: (3, 4), 2: (4, 5, 6), 3: (2, 3, 5, 6, 7, 8, 9, 10)}


def rules_of(name: str | None) -> PaintedRules:
    """A shipped preset, or a house preset of the call's `trainer.drills.houses.in_use()`, by name
    (the default when None), never a file path."""
    houses = in_use()
    if name is not None and not PRESETS.is_preset(name, houses):
        have = ", ".join(pp.available_rules())
        raise RulesError(f"no painted poker rules named {name!r:.60} (have: {have})")
    try:
        return pp.load_rules(name, houses)
    except ValueError as error:
        raise RulesError(str(error)) from None


def players_for(rng: random.Random, level: int, rules: PaintedRules) -> int:
    allowed = [n for n in _LEVEL_PLAYERS[level] if rules.min_players <= n <= rules.max_players]
    return rng.choice(allowed or list(range(rules.min_players, rules.max_players + 1)))


def cards_for(rng: random.Random, level: int, rules: PaintedRules, players: int, kind: DealKind) -> int:
    top = rules.max_hand(players)
    if kind is not DealKind.NORMAL or (level == 3 and rng.random() < 0.5):
        return top
    return rng.randint(1, min(top, 5)) if level == 1 else rng.randint(1, top)


def seat_names(players: int) -> list[str]:
    return [f"Seat {seat + 1}" for seat in range(players)]


def players_said(players: int) -> Step:
    """How many play, as a sentence of the question."""
    return nstep("{count}\u00a0player at the table.", "{count}\u00a0players at the table.", count=players)


def deal_said(kind: DealKind, cards: int) -> Step:
    """The kind of deal and the hand size, as a sentence of the question."""
    return nstep(
        "Deal: {deal}, {count}\u00a0card each.",
        "Deal: {deal}, {count}\u00a0cards each.",
        count=cards,
        deal=kind.term,
    )


# --- one deal's score -----------------------------------------------------------------------------


def score_branches(rules: PaintedRules) -> tuple[str, ...]:
    """The scoring cases of a preset (the drill draws them evenly)."""
    s = rules.scoring
    found = ["exact", "pass", "over", "under"]
    found += ["all_taken"] if s.all_taken_per_trick is not None else []
    found += ["khishti"] if s.khishti is not None else []
    found += [k.value for k in (DealKind.GOLD, DealKind.MISER) if k in rules.deal_kinds]
    return tuple(found)


def score_branch(bid: int | None, took: int, cards: int, kind: DealKind, rules: PaintedRules) -> str:
    """Which scoring case a (bid, took) falls in, read the way the scorekeeper reads it."""
    s = rules.scoring
    if bid is None:
        return kind.value
    if bid == took == 0:
        return "pass"
    if bid == took:
        return "all_taken" if s.all_taken_per_trick is not None and bid == cards else "exact"
    if took > bid:
        return "over"
    return "khishti" if s.khishti is not None and took == 0 else "under"


def bid_and_took(rng: random.Random, branch: str, cards: int, rules: PaintedRules) -> tuple[int, int] | None:
    """A (bid, took) of `branch` with `cards` in hand, or None when the hand is too small for it."""
    s = rules.scoring
    if branch == "pass":
        return 0, 0
    if branch == "all_taken":
        return cards, cards
    if branch == "exact":
        top = cards - 1 if s.all_taken_per_trick is not None else cards
        if top < 1:
            return None
        bid = rng.randint(1, top)
        return bid, bid
    if branch == "over":
        bid = rng.randint(0, cards - 1)
        return bid, rng.randint(bid + 1, cards)
    if branch == "khishti":
        return rng.randint(1, cards), 0
    low = 1 if s.khishti is not None else 0  # under, with something taken where khishti exists
    if cards < low + 1 or cards < 1:
        return None
    bid = rng.randint(low + 1, cards)
    return bid, rng.randint(low, bid - 1)


def bid_kind(rng: random.Random, level: int, rules: PaintedRules) -> DealKind:
    kinds = sorted(k for k in rules.deal_kinds if k.has_bids and k is not DealKind.NORMAL)
    if level == 1 or not kinds or rng.random() < 0.5:
        return DealKind.NORMAL
    return rng.choice(kinds)
