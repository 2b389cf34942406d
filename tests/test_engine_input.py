"""Every public engine function rejects impossible input with a ValueError, never another exception.

Each entry of `CALLS` is a valid call; `test_junk_is_refused` replaces one argument at a time with junk
(None, numbers, text, a huge list, negative numbers, nested junk) and requires a ValueError, except where
`ACCEPTED` names the value as one the argument really takes (a default, a valid number or card); where
the refusal reaches a user, the message is checked too. The Hypothesis test draws junk it cannot sort
into valid and invalid, so it holds the weaker line: a normal return or a ValueError, nothing else.
"""

from __future__ import annotations

import contextlib
import inspect
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine import cards, omaha, russian_poker
from trainer.engine.omaha import betting as omaha_betting
from trainer.engine.omaha import explain as omaha_explain
from trainer.engine.omaha import pots as omaha_pots
from trainer.engine.painted_poker import deals as painted_deals
from trainer.engine.painted_poker import rules as painted_rules
from trainer.engine.painted_poker import tricks as painted_tricks
from trainer.engine.painted_poker.sheet import ScoreSheet
from trainer.engine.russian_poker import hands as russian_hands
from trainer.engine.russian_poker import rules as russian_rules
from trainer.engine.russian_poker import settlement as russian_settle
from trainer.engine.russian_poker import strategy

HUGE = 10**30
MANY_AS = ["As"] * 10_000
JUNK: tuple[Any, ...] = (
    None,
    0,
    5,
    -1,
    -(10**9),
    HUGE,
    2.5,
    True,
    "",
    "x",
    "As",
    "x" * 300,
    "../../etc/passwd",
    "nope",
    [],
    [None],
    [5, -1],
    ["As", 3],
    list(range(10_000)),
    MANY_AS,
    {"a": 1},
    object(),
    b"As Kd",
    ("As", ("Kd",)),
)

BOARD = "2c 7d 9h Jc Ks"
HOLES = ["Ah Ad 3c 4d", "Kd Kh 5c 6d"]

# name -> (function, positional args, keyword args) of a valid call.
CALLS: dict[str, tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]] = {
    "parse_cards": (cards.parse_cards, ("As Kd",), {}),
    "Card.from_text": (cards.Card.from_text, ("As",), {}),
    "Card": (cards.Card, (14, "s"), {}),
    "format_cards": (cards.format_cards, (cards.parse_cards("As Kd"),), {}),
    "Deck": (cards.Deck, (random.Random(1),), {"exclude": ()}),
    "Deck.draw": (lambda n: cards.Deck(random.Random(1)).draw(n), (2,), {}),
    "Deck.remove": (
        lambda cards_: cards.Deck(random.Random(1)).remove(cards_),
        (cards.parse_cards("As"),),
        {},
    ),
    "russian.evaluate": (russian_hands.evaluate, ("Jh Jd 4s 4c 9h",), {}),
    "russian.dealer_qualifies": (russian_hands.dealer_qualifies, ("As Kd 7c 5h 2d",), {}),
    "russian.second_combination": (
        russian_hands.second_combination,
        ("Kh Kd Ks Kc Ah", russian_rules.load_rules("lunar")),
        {},
    ),
    "russian.settle": (
        russian_poker.settle,
        ("Jh Jd 4s 4c 9h", "As Kd 7c 5h 2d", 10),
        {"bonus": 0, "exchanges": 0, "rules": "cis", "dealt": None, "insurance": 0},
    ),
    "russian.settle-lunar": (
        russian_poker.settle,
        ("Jh Jd 4s 4c 9h", "As Kd 7c 5h 2d", 10),
        {"rules": "lunar", "super_bet": 10, "super_on_dealer": False},
    ),
    "russian.settle-buy": (
        russian_poker.settle,
        ("Qs Qd 9c 5h 2d", "Js 8d 7c 4h 3d", 10),
        {"buy_game_card": "Jc", "folded": False},
    ),
    "russian.check_exchange": (russian_poker.check_exchange, (2, "lunar"), {}),
    "russian.bet_payout": (russian_settle.bet_payout, ("Kh Kd Ks Kc Ah", 10, "lunar"), {}),
    "russian.replaced_card": (russian_settle.replaced_card, ("Qs Jd 8c 4d 2s", "insured"), {}),
    "russian.load_rules": (russian_rules.load_rules, ("lunar",), {}),
    "strategy.parse_situation": (strategy.parse_situation, ("2c 3d 4h 5s 7c", "Ad"), {"dead": ()}),
    "strategy.bet_value": (strategy.bet_value, ("2c 3d 4h 5s 7c", "Ad"), {"rules": "cis"}),
    "strategy.options": (strategy.options, ("2c 3d 4h 5s 7c", "Ad"), {"rules": "cis", "rng": None}),
    "omaha.best_high": (omaha.best_high, ("Ah Kh Qh Jh", "Th 2c 3d 7s 9c"), {}),
    "omaha.best_low": (omaha.best_low, ("Ah 2h Kc Kd", "3c 4d 8h Kh Qs"), {}),
    "omaha.low_mask": (omaha.low_mask, ((0, 1, 2, 3), (4, 5, 6, 7, 8)), {}),
    "omaha.format_low": (omaha.format_low, ((8, 4, 3, 2, 1),), {}),
    "omaha.showdown": (omaha.showdown, (BOARD, HOLES, [50, 50]), {"hi_lo": False, "button": 0, "chip": 1}),
    "omaha.settle": (omaha.settle, (BOARD, [*HOLES, None], [50, 50, 20]), {"button": 2}),
    "omaha.side_pots": (omaha_pots.side_pots, ([100, 100, 30],), {"folded": {1}}),
    "omaha.uncalled": (omaha_pots.uncalled, ([100, 30],), {}),
    "omaha.split_evenly": (omaha_pots.split_evenly, (30, [0, 1], 1), {}),
    "omaha.clockwise_from_button": (omaha_pots.clockwise_from_button, ([0, 2], 1, 3), {}),
    "omaha.load_rules": (omaha_betting.load_rules, ("standard",), {}),
    "omaha.pot_limit_max": (omaha_betting.pot_limit_max, (100, 50), {"stack": 120}),
    "omaha.limit_bet_size": (omaha_betting.limit_bet_size, ("flop", 10, 20), {}),
    "omaha.limit_cap": (omaha_betting.limit_cap, (3,), {}),
    "omaha.no_limit_min_raise_to": (omaha_betting.no_limit_min_raise_to, ([10], 10), {}),
    "omaha.post_blinds": (omaha_betting.post_blinds, (0, [50, 50], 5, 10), {}),
    "omaha.missed_blinds_post": (omaha_betting.missed_blinds_post, ("both", 5, 10), {}),
    "omaha.explain_high": (omaha_explain.explain_high, ("Ah Kh Qh Jh", "Th 2c 3d 7s 9c"), {}),
    "omaha.explain_low": (omaha_explain.explain_low, ("Ah 2h Kc Kd", "3c 4d 8h Kh Qs"), {}),
    "omaha.explain_pot_limit": (omaha_explain.explain_pot_limit, (100, 50), {}),
    "omaha.explain_min_raise": (omaha_explain.explain_min_raise, ([10], 10), {}),
    "omaha.explain_blinds": (omaha_explain.explain_blinds, (0, [50, 50], 5, 10), {}),
    "omaha.explain_missed_blinds": (omaha_explain.explain_missed_blinds, ("both", 5, 10), {}),
    "painted.load_rules": (painted_rules.load_rules, ("classic",), {}),
    "painted.resolve": (painted_rules.resolve, ("classic",), {}),
    "painted.schedule": (painted_deals.schedule, (4, "classic"), {"first_dealer": 0}),
    "painted.explain_deal": (painted_deals.explain_deal, (4, 3, "classic"), {}),
    "painted.score": (painted_deals.score, (2, 2, "normal", "classic"), {"cards": 5}),
    "painted.forbidden_bid": (painted_deals.forbidden_bid, (5, [1, 2], "normal", "classic"), {}),
    "painted.trump_of": (painted_tricks.trump_of, (cards.Card(9, "h"), "classic", "normal"), {}),
    "painted.Play.parse": (painted_tricks.Play.parse, ("7c:high",), {}),
    "painted.Play.parse_all": (painted_tricks.Play.parse_all, ("9h Ah 6s",), {}),
    "painted.check_trick": (painted_tricks.check_trick, (painted_tricks.Play.parse_all("9h Ah"), "s"), {}),
    "painted.legal_cards": (
        painted_tricks.legal_cards,
        ("Ah 6h Ks 7c", painted_tricks.Play.parse_all("9h"), "s"),
        {"rules": "classic"},
    ),
    "painted.trick_winner": (
        painted_tricks.trick_winner,
        (painted_tricks.Play.parse_all("9h Ah 6s Kh"), "s"),
        {},
    ),
    "painted.explain_trick": (
        painted_tricks.explain_trick,
        (painted_tricks.Play.parse_all("9h Ah"), "s"),
        {},
    ),
    "painted.ScoreSheet.start": (ScoreSheet.start, (["a", "b", "c", "d"], "classic"), {"first_dealer": 0}),
    "painted.ScoreSheet.record": (
        lambda bids, tricks: ScoreSheet.start(["a", "b", "c", "d"]).record(bids, tricks),
        ([0, 1, 0, 1], [0, 1, 0, 0]),
        {},
    ),
}


# (call, argument) -> the values among JUNK that the argument really takes: not junk for it, so the call
# returns. Anything else in JUNK must raise ValueError.
_DEFAULT = (None,)  # None is the documented default (the default preset, no stack, no trump, ...)
ACCEPTED: dict[tuple[str, str], tuple[Any, ...]] = {
    # Card text: "As" is a card, "" and [] are no cards (an empty hand, nothing to exclude or remove);
    # the same card many times over is one card to exclude or remove.
    ("Card", "rank"): (5,),
    ("Card.from_text", "token"): ("As",),
    ("parse_cards", "cards"): ("", "As", []),
    ("format_cards", "cards"): ("", "As", []),
    ("Deck", "exclude"): ("", "As", [], MANY_AS),
    ("Deck.remove", "cards_"): ("", "As", [], MANY_AS),
    ("Deck.draw", "n"): (0, 5),
    ("painted.Play.parse", "text"): ("As",),
    ("painted.Play.parse_all", "text"): ("", "As", []),
    ("painted.legal_cards", "hand"): ("As",),
    ("russian.settle-buy", "buy_game_card"): (None, "As"),  # None: no buy; As is in neither hand
    ("strategy.bet_value", "upcard"): ("As",),
    ("strategy.options", "upcard"): ("As",),
    ("strategy.parse_situation", "upcard"): ("As",),
    ("strategy.parse_situation", "dead"): ("", "As", []),
    # Empty lists: no bets yet, nobody folded, no contributions, no seats to order, no bids before the
    # dealer's, an empty trick (the first card led). An empty low is written "" (the mistakes drill
    # shows a seat without a low that way).
    ("omaha.explain_min_raise", "bets"): ([],),
    ("omaha.no_limit_min_raise_to", "bets"): ([],),
    ("omaha.side_pots", "folded"): ([],),
    ("omaha.uncalled", "contributions"): ([],),
    ("omaha.clockwise_from_button", "seats"): ([],),
    ("omaha.format_low", "low"): ([],),
    ("painted.forbidden_bid", "other_bids"): ([],),
    ("painted.check_trick", "trick"): ([],),
    ("painted.legal_cards", "trick"): ([],),
    # Seats, counts and flags in range: seat 0 is a button or first dealer, 5 players or 5 cards is a
    # legal table or hand, 5 discards is Lunar's most, True is a flag.
    ("omaha.clockwise_from_button", "button"): (0,),
    ("omaha.clockwise_from_button", "count"): (5,),
    ("omaha.explain_blinds", "button"): (0,),
    ("omaha.post_blinds", "button"): (0,),
    ("omaha.settle", "button"): (0,),
    ("omaha.showdown", "button"): (0,),
    ("omaha.showdown", "hi_lo"): (True,),
    ("omaha.limit_cap", "players"): (5,),
    ("painted.ScoreSheet.start", "first_dealer"): (0,),
    ("painted.schedule", "first_dealer"): (0,),
    ("painted.schedule", "players"): (5,),
    ("painted.explain_deal", "players"): (5,),
    ("painted.explain_deal", "number"): (5,),
    ("painted.forbidden_bid", "cards"): (5,),
    ("painted.score", "cards"): (None, 5),
    ("painted.score", "bid"): (0, 5),
    ("painted.score", "took"): (0, 5),
    ("russian.check_exchange", "discards"): (5,),
    ("russian.settle-lunar", "super_on_dealer"): (True,),
    ("russian.settle", "dealt"): (None,),
    ("russian.settle", "exchanges"): (0,),
    ("russian.settle", "insurance"): (0,),
    ("strategy.options", "rng"): (None,),
    # Chip amounts: 0 and 5 are stakes, blinds, calls, bets and stacks a table has. HUGE too: the engine
    # counts chips exactly (Python integers) and sets no ceiling; the web and the API bound what a user
    # may send (the advisor's ADVISOR_MAX_CHIPS, the forms' ranges).
    ("omaha.explain_blinds", "small_blind"): (5,),
    ("omaha.explain_blinds", "big_blind"): (5, HUGE),
    ("omaha.post_blinds", "small_blind"): (5,),
    ("omaha.post_blinds", "big_blind"): (5, HUGE),
    ("omaha.explain_min_raise", "big_blind"): (5, HUGE),
    ("omaha.no_limit_min_raise_to", "big_blind"): (5, HUGE),
    ("omaha.explain_missed_blinds", "small_blind"): (5,),
    ("omaha.explain_missed_blinds", "big_blind"): (5, HUGE),
    ("omaha.missed_blinds_post", "small_blind"): (5,),
    ("omaha.missed_blinds_post", "big_blind"): (5, HUGE),
    ("omaha.explain_pot_limit", "pot"): (HUGE,),
    ("omaha.explain_pot_limit", "to_call"): (0, 5),
    ("omaha.pot_limit_max", "pot"): (HUGE,),
    ("omaha.pot_limit_max", "to_call"): (0, 5),
    ("omaha.pot_limit_max", "stack"): (None, 0, 5, HUGE),
    ("omaha.limit_bet_size", "small_bet"): (5,),
    ("omaha.limit_bet_size", "big_bet"): (HUGE,),
    ("omaha.showdown", "chip"): (5,),
    ("omaha.split_evenly", "amount"): (0, 5, HUGE),
    ("omaha.split_evenly", "chip"): (5,),
    ("russian.bet_payout", "ante"): (5, HUGE),
    ("russian.settle", "ante"): (5, HUGE),
    ("russian.settle", "bonus"): (0, 5, HUGE),
    ("russian.settle-buy", "ante"): (5, HUGE),
    ("russian.settle-lunar", "ante"): (5,),  # HUGE is refused: the compulsory Super bet is not its size
    ("russian.settle-lunar", "super_bet"): (HUGE,),
    # Rules and trumps left out.
    ("omaha.load_rules", "name_or_path"): _DEFAULT,
    ("painted.load_rules", "name_or_path"): _DEFAULT,
    ("painted.resolve", "rules"): _DEFAULT,
    ("painted.ScoreSheet.start", "rules"): _DEFAULT,
    ("painted.schedule", "rules"): _DEFAULT,
    ("painted.explain_deal", "rules"): _DEFAULT,
    ("painted.forbidden_bid", "rules"): _DEFAULT,
    ("painted.score", "rules"): _DEFAULT,
    ("painted.legal_cards", "rules"): _DEFAULT,
    ("painted.trump_of", "rules"): _DEFAULT,
    ("painted.trump_of", "turned"): _DEFAULT,  # no card turned: a deal without trumps
    ("painted.check_trick", "trump"): _DEFAULT,  # no trump suit
    ("painted.legal_cards", "trump"): _DEFAULT,
    ("painted.trick_winner", "trump"): _DEFAULT,
    ("painted.explain_trick", "trump"): _DEFAULT,
    ("russian.load_rules", "name_or_path"): _DEFAULT,
    ("russian.bet_payout", "rules"): _DEFAULT,
    ("russian.check_exchange", "rules"): _DEFAULT,
    ("russian.replaced_card", "rules"): _DEFAULT,
    ("russian.second_combination", "rules"): _DEFAULT,
    ("russian.settle", "rules"): _DEFAULT,
    ("strategy.bet_value", "rules"): _DEFAULT,
    ("strategy.options", "rules"): _DEFAULT,
}

# Calls whose refusal a user reads as it stands: card lists typed into an answer (trainer/drills/
# answers.py turns "bad card 'Zz'" and "duplicate card As" into its own messages, so the engine's must
# keep that shape) and the JSON advisor, which returns the engine's reason in its 400 (trainer/web/api/).
_CARD_REASON = r"bad cards? .{1,80}: expected |duplicate card \S+$"
USER_MESSAGES: dict[str, str] = {
    "parse_cards": _CARD_REASON,
    "strategy.parse_situation": _CARD_REASON + r"|the player holds \d+ cards|the dealer shows one up-card",
    "strategy.bet_value": _CARD_REASON + r"|the player holds \d+ cards|the dealer shows one up-card|"
    r"Russian poker rules: ",
    "russian.load_rules": r"Russian poker rules: (no preset '|bad preset name '|bad rules file name '|"
    r"expected a preset name such as 'cis', not )",
}


def _variants(args: tuple[Any, ...], kwargs: dict[str, Any], junk: Any) -> list[tuple[tuple[Any, ...], dict]]:
    out = []
    for i in range(len(args)):
        out.append(((*args[:i], junk, *args[i + 1 :]), kwargs))
    for key in kwargs:
        out.append((args, {**kwargs, key: junk}))
    return out


def _named_variants(name: str, junk: Any) -> list[tuple[str, tuple[Any, ...], dict[str, Any]]]:
    """The variants of one call with the name of the argument each replaces."""
    fn, args, kwargs = CALLS[name]
    slots = [*list(inspect.signature(fn).parameters)[: len(args)], *kwargs]
    return [(slot, a, k) for slot, (a, k) in zip(slots, _variants(args, kwargs, junk), strict=True)]


def _accepted(name: str, slot: str, junk: Any) -> bool:
    # By type and value, so that True is not taken for 1 nor 0 for False.
    return any(type(junk) is type(v) and junk == v for v in ACCEPTED.get((name, slot), ()))


def _returns_or_refuses(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Call, letting a ValueError pass and nothing else (for junk that may or may not be valid)."""
    with contextlib.suppress(ValueError):
        fn(*args, **kwargs)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_valid_call_works(name: str) -> None:
    fn, args, kwargs = CALLS[name]
    fn(*args, **kwargs)


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("junk", JUNK, ids=lambda j: repr(j)[:20])
def test_junk_is_refused(name: str, junk: Any) -> None:
    fn = CALLS[name][0]
    for slot, a, k in _named_variants(name, junk):
        if _accepted(name, slot, junk):
            fn(*a, **k)  # a value the argument takes: the call returns
            continue
        with pytest.raises(ValueError) as refused:
            fn(*a, **k)
        if name in USER_MESSAGES:
            message = str(refused.value)
            assert re.match(USER_MESSAGES[name], message), (slot, message)
            assert len(message) <= 200, (slot, message)


def test_accepted_names_only_real_arguments() -> None:
    # A misspelt entry would accept nothing and let its junk through as "refused" unnoticed.
    slots = {(name, slot) for name in CALLS for slot, _, _ in _named_variants(name, None)}
    assert set(ACCEPTED) <= slots, set(ACCEPTED) - slots
    assert set(USER_MESSAGES) <= set(CALLS)


_JUNK_VALUES = st.recursive(
    st.none() | st.integers() | st.floats() | st.text(max_size=20) | st.booleans(),
    lambda inner: st.lists(inner, max_size=6) | st.tuples(inner, inner),
    max_leaves=12,
)


@settings(max_examples=600)
@given(name=st.sampled_from(sorted(CALLS)), data=st.data())
def test_hypothesis_junk_gives_value_error(name: str, data: st.DataObject) -> None:
    fn, args, kwargs = CALLS[name]
    variants = _variants(args, kwargs, None)
    index = data.draw(st.integers(0, len(variants) - 1))
    junk = data.draw(_JUNK_VALUES)
    a, k = _variants(args, kwargs, junk)[index]
    _returns_or_refuses(fn, a, k)


@pytest.mark.parametrize(
    "call",
    [
        lambda: cards.parse_cards(None),  # type: ignore[arg-type]
        lambda: cards.parse_cards(5),  # type: ignore[arg-type]
        lambda: russian_hands.evaluate(None),  # type: ignore[arg-type]
        lambda: russian_poker.settle(None, "As Kd 7c 5h 2d", 10),  # type: ignore[arg-type]
        lambda: omaha.showdown(BOARD, None, [1, 1]),  # type: ignore[arg-type]
        lambda: omaha.showdown(BOARD, HOLES, None),  # type: ignore[arg-type]
        lambda: omaha_pots.side_pots(None),  # type: ignore[arg-type]
        lambda: omaha_betting.post_blinds(0, None, 5, 10),  # type: ignore[arg-type]
        lambda: omaha_betting.no_limit_min_raise_to(None, 10),  # type: ignore[arg-type]
        lambda: painted_tricks.trick_winner(None, "s"),  # type: ignore[arg-type]
        lambda: painted_tricks.Play.parse_all(None),  # type: ignore[arg-type]
        lambda: cards.Deck(None),  # type: ignore[arg-type]
        lambda: cards.Deck(random.Random(1)).draw("2"),  # type: ignore[arg-type]
        lambda: russian_rules.load_rules("x" * 300),
        lambda: russian_rules.load_rules("../cis"),
        lambda: omaha_pots.split_evenly(1, (None, []), 1),  # type: ignore[arg-type]
        lambda: russian_poker.settle("Jh Jd 4s 4c 9h", "As Kd 7c 5h 2d", 10, folded="no"),  # type: ignore[arg-type]
        lambda: russian_poker.settle("Jh Jd 4s 4c 9h", "As Kd 7c 5h 2d", 10, rules="no-such-house"),
        lambda: strategy.options("2c 3d 4h 5s 7c", "Ad", rng=5),  # type: ignore[arg-type]
        lambda: omaha_betting.load_rules("x" * 300),
        lambda: painted_rules.load_rules("x" * 300),
    ],
)
def test_audited_cases_raise_value_error(call: Callable[[], Any]) -> None:
    with pytest.raises(ValueError):
        call()


def test_rules_given_by_preset_name_match_the_object() -> None:
    super_bet = {"super_bet": 10, "super_on_dealer": True}  # Lunar's compulsory Super
    by_name = russian_poker.settle("Kh Kd Ks Kc Ah", "Qs Qd 7c 5h 2d", 10, rules="lunar", **super_bet)
    by_object = russian_poker.settle(
        "Kh Kd Ks Kc Ah", "Qs Qd 7c 5h 2d", 10, rules=russian_rules.load_rules("lunar"), **super_bet
    )
    assert by_name == by_object
    assert by_name.second is not None  # Lunar's two-combination rule was applied, not the CIS default
