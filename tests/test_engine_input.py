"""Every public engine function rejects impossible input with a ValueError, never another exception.

Each entry below is a valid call; the test replaces one argument at a time with junk (None, numbers,
text, a huge list, negative numbers, nested junk) and accepts only a normal return or a ValueError.
"""

from __future__ import annotations

import contextlib
import random
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

JUNK: tuple[Any, ...] = (
    None,
    0,
    5,
    -1,
    -(10**9),
    10**30,
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
    ["As"] * 10_000,
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
    "Deck.remove": (lambda c: cards.Deck(random.Random(1)).remove(c), (cards.parse_cards("As"),), {}),
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


def _variants(args: tuple[Any, ...], kwargs: dict[str, Any], junk: Any) -> list[tuple[tuple[Any, ...], dict]]:
    out = []
    for i in range(len(args)):
        out.append(((*args[:i], junk, *args[i + 1 :]), kwargs))
    for key in kwargs:
        out.append((args, {**kwargs, key: junk}))
    return out


def _call_accepting_value_error(
    fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    with contextlib.suppress(ValueError):
        fn(*args, **kwargs)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_valid_call_works(name: str) -> None:
    fn, args, kwargs = CALLS[name]
    fn(*args, **kwargs)


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("junk", JUNK, ids=lambda j: repr(j)[:20])
def test_junk_gives_value_error(name: str, junk: Any) -> None:
    fn, args, kwargs = CALLS[name]
    for a, k in _variants(args, kwargs, junk):
        _call_accepting_value_error(fn, a, k)


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
    _call_accepting_value_error(fn, a, k)


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
