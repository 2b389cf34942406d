"""Russian poker drills: every situation graded against the engine called directly, every branch
drawn often, the house rules followed, and the rule page's worked examples."""

import random
from collections import Counter

import pytest
from conftest import DrawnOnUse

from trainer.drills.base import REGISTRY, AnswerError, Situation, expected_of, grade, issue
from trainer.drills.russian_poker.deals import build_hand, dealer_hand, no_game_hand
from trainer.engine.russian_poker import (
    Category,
    dealer_qualifies,
    evaluate,
    load_rules,
    replaced_card,
    settle,
)
from trainer.engine.russian_poker.rules import preset_names

RP_KINDS = (
    "rp.qualify",
    "rp.combination",
    "rp.bet_payout",
    "rp.bonus_payout",
    "rp.no_game",
    "rp.buy",
    "rp.settle",
)
LEVELS = (1, 2, 3)
COUNT = 250  # situations per kind and level (1,000 cost 30 s of the suite, 400 8 s more than 250)


def _settled(data):
    return settle(
        data["player"],
        data["dealer"],
        data["ante"],
        bonus=data.get("bonus", 0),
        folded=data.get("folded", False),
        exchanges=data.get("exchanges", 0),
        buy_game_card=data.get("game_card"),
        rules=load_rules(data["rules"]),
        dealt=data.get("dealt"),
        super_bet=data.get("super_bet", 0),
        super_on_dealer=data.get("super_on_dealer", False),
    )


def _spots(data, s, labels):
    values = {
        "Ante": s.ante,
        "Bet": s.bet,
        "Bonus": s.bonus,
        "Super": s.super_bet,
        "Buys": s.fees,
        "Net": s.net,
    }
    return {label: values[label] for label in labels}


def oracle(kind, data):
    """The expected answer straight from the engine, written apart from the drills' solvers."""
    if kind == "rp.qualify":
        dealer = data["dealer"]
        if "game_card" in data:
            gone = replaced_card(dealer, load_rules(data["rules"]))
            dealer = [c for c in dealer if c != str(gone)] + [data["game_card"]]
        return "yes" if dealer_qualifies(dealer) else "no"
    if kind == "rp.combination":
        return evaluate(data["player"]).category.value
    s = _settled(data)
    if kind == "rp.bet_payout":
        return s.bet
    if kind == "rp.bonus_payout":
        return s.bonus
    side = (["Bonus"] if data.get("bonus") else []) + (["Super"] if data.get("super_bet") else [])
    if kind == "rp.no_game":
        return _spots(data, s, ["Ante", "Bet", *side])
    if kind == "rp.buy":
        return -s.fees if data["question"] == "cost" else _spots(data, s, ["Ante", "Bet", *side, "Buys"])
    labels = ["Ante", "Bet", *side]
    if data.get("exchanges") or len(data["player"]) == 6 or data.get("game_card"):
        labels.append("Buys")
    return _spots(data, s, [*labels, "Net"])


def _wrong(expected, fmt):
    if isinstance(expected, int):
        return expected + 1
    if isinstance(expected, dict):
        first = next(iter(expected))
        return {**expected, first: expected[first] - 1}
    return next(c["value"] for c in fmt["choices"] if c["value"] != expected)


def _written(expected):
    """The expected answer as a trainee would type it."""
    if isinstance(expected, int):
        return f"{expected:,}".replace(",", " ")
    if isinstance(expected, dict):
        return "; ".join(f"{label}: {value}" for label, value in expected.items())
    return expected.upper()


@pytest.fixture(scope="module")
def situations():
    """COUNT situations per kind and level (default rules), shared by the tests below, each list drawn
    when first asked for."""
    return DrawnOnUse(lambda kind, level: [issue(kind, level, seed=seed) for seed in range(COUNT)])


def test_all_russian_kinds_are_registered():
    assert {k for k in REGISTRY if k.startswith("rp.")} >= set(RP_KINDS)
    assert all(REGISTRY[k].levels == LEVELS and REGISTRY[k].game == "russian_poker" for k in RP_KINDS)


@pytest.mark.slow
@pytest.mark.parametrize("kind", RP_KINDS)
def test_graded_against_the_engine(situations, kind):
    for level in LEVELS:
        for situation in situations[(kind, level)]:
            expected = oracle(kind, situation.data)
            assert expected_of(situation)[0] == expected, situation
            assert grade(situation, _written(expected)).correct, situation
            assert not grade(situation, _wrong(expected, situation.answer_format.to_json())).correct


def _share(values, predicate):
    return sum(1 for v in values if predicate(v)) / len(values)


@pytest.mark.slow
def test_every_branch_comes_up_often(situations):
    for level in LEVELS:
        combos = Counter(expected_of(s)[0] for s in situations[("rp.combination", level)])
        assert set(combos) == {c.value for c in Category} and min(combos.values()) > COUNT * 0.05, combos
        games = Counter(expected_of(s)[0] for s in situations[("rp.qualify", level)])
        assert min(games["yes"], games["no"]) > COUNT * 0.35
        dealers = [evaluate(s.data["dealer"]).category for s in situations[("rp.qualify", level)]]
        assert _share(dealers, lambda c: c is Category.ACE_KING) > 0.05  # the borderline game
        paid = Counter(evaluate(s.data["player"]).category for s in situations[("rp.bet_payout", level)])
        assert set(paid) == set(Category) - {Category.HIGH_CARD} and min(paid.values()) > COUNT * 0.05
        bonus = [_settled(s.data) for s in situations[("rp.bonus_payout", level)]]
        assert 0.15 < _share(bonus, lambda s: s.bonus < 0) < 0.4
        bonus_hands = Counter(s.player_hand.category for s in bonus if s.bonus > 0)
        rare = (Category.ROYAL_FLUSH, Category.STRAIGHT, Category.FLUSH)
        assert min(bonus_hands[c] for c in rare) > COUNT * 0.05
        no_game = [s.data for s in situations[("rp.no_game", level)]]
        assert 0.2 < _share(no_game, lambda d: d["folded"]) < 0.45
        assert _share(no_game, lambda d: evaluate(d["player"]).category.rank < Category.PAIR.rank) > 0.25
        assert all(not dealer_qualifies(d["dealer"]) for d in no_game)
        outcomes = Counter(_outcome(s.data) for s in situations[("rp.settle", level)])
        wanted = {"fold", "no_game", "dealer_wins", "player_wins"} | ({"push"} if level > 1 else set())
        wanted |= {"bought_game_wins", "bought_still_no_game"} if level == 3 else set()
        assert all(outcomes[o] > COUNT * 0.03 for o in wanted), outcomes
        buys = [s.data for s in situations[("rp.buy", level)]]
        assert 0.25 < _share(buys, lambda d: d["question"] == "cost") < 0.6
        bought = Counter(_outcome(d) for d in buys if d["question"] == "game")
        wanted = ("bought_game_wins", "bought_game_loses", "bought_still_no_game")
        assert all(bought[o] > COUNT * 0.05 for o in wanted), bought


def _outcome(data):
    s = _settled(data)
    if data.get("folded"):
        return "fold"
    if data.get("game_card"):
        if not s.dealer_qualifies:
            return "bought_still_no_game"
        return "bought_game_wins" if s.bet > 0 else "bought_game_loses" if s.bet < 0 else "bought_push"
    if not s.dealer_qualifies:
        return "no_game"
    return "player_wins" if s.bet > 0 else "dealer_wins" if s.bet < 0 else "push"


@pytest.mark.slow
def test_levels_set_amounts_cards_and_buys(situations):
    antes = {level: [s.data["ante"] for s in situations[("rp.settle", level)]] for level in LEVELS}
    assert all(a % 5 == 0 and a <= 100 for a in antes[1])
    assert _share(antes[2], lambda a: a % 10) == 1.0
    assert min(antes[3]) > 100 and _share(antes[3], lambda a: a >= 1000) > 0.5
    for level in (1, 2):
        settle_data = [s.data for s in situations[("rp.settle", level)]]
        assert not any(len(d["player"]) == 6 or d.get("game_card") for d in settle_data)
        assert all(len(s.data["player"]) == 5 for s in situations[("rp.combination", level)])
    top = [s.data for s in situations[("rp.settle", 3)]]
    assert (
        _share(top, lambda d: len(d["player"]) == 6) > 0.1 and _share(top, lambda d: d.get("exchanges")) > 0.1
    )
    assert _share(top, lambda d: d.get("bonus")) > 0.3
    six = [s.data for s in situations[("rp.bonus_payout", 3)]]
    assert 0.3 < _share(six, lambda d: len(d["player"]) == 6) < 0.7
    assert not any(s.data.get("bonus") for s in situations[("rp.settle", 1)])


def test_house_rules_are_followed():
    lunar = [
        issue("rp.bet_payout", level, seed=seed, rules="lunar") for level in LEVELS for seed in range(60)
    ]
    assert all(s.rules == "lunar" and s.data["rules"] == "lunar" for s in lunar)
    two = [s for s in lunar if _settled(s.data).second is not None]
    assert len(two) > len(lunar) * 0.3
    assert all(expected_of(s)[0] == _settled(s.data).bet for s in lunar)
    with pytest.raises(ValueError, match="no bonus"):
        issue("rp.bonus_payout", 1, seed=1, rules="lunar")
    lunar_buys = [
        issue("rp.buy", level, seed=seed, rules="lunar").data for level in LEVELS for seed in range(60)
    ]
    assert all(d["question"] == "cost" and "game_card" not in d for d in lunar_buys)
    insured = [issue("rp.settle", 3, seed=seed, rules="insured") for seed in range(300)]
    assert any(_settled(s.data).capped for s in insured)  # the table maximum comes up
    assert all(expected_of(s)[0] == oracle("rp.settle", s.data) for s in insured)
    lowest = [s.data for s in (issue("rp.qualify", 3, seed=n, rules="insured") for n in range(80))]
    assert any("game_card" in d for d in lowest)
    assert all(expected_of(_situation("rp.qualify", **d))[0] == oracle("rp.qualify", d) for d in lowest)


@pytest.mark.parametrize("rules", ["nosuch", "../../etc/passwd", "/tmp/cis.toml", ""])
def test_only_shipped_presets(rules):
    with pytest.raises(ValueError, match="unknown house rules"):
        issue("rp.qualify", 1, seed=1, rules=rules)


# The rule page's worked examples, as drills.
def _situation(kind, **data):
    data.setdefault("rules", "cis")
    return Situation.from_dict({"kind": kind, "level": 1, "seed": 0, "version": 1, "data": data})


def test_worked_examples():
    one = _situation(
        "rp.bet_payout", ante=10, player=["Jh", "Jd", "4s", "4c", "9h"], dealer=["As", "Kd", "7c", "5h", "2d"]
    )
    assert expected_of(one)[0] == 40 and grade(one, "40").correct
    two = _situation(
        "rp.settle",
        ante=25,
        bonus=5,
        folded=False,
        player=["6h", "7h", "8h", "9h", "Th"],
        dealer=["Qs", "Jd", "8c", "4d", "2s"],
    )
    assert expected_of(two)[0] == {"Ante": 25, "Bet": 0, "Bonus": 2500, "Net": 2525}
    three = _situation(
        "rp.settle",
        ante=10,
        bonus=10,
        folded=False,
        player=["Ah", "Jh", "9h", "6h", "2h", "3c"],
        dealer=["8s", "8d", "Kc", "7s", "2c"],
    )
    assert expected_of(three)[0] == {"Ante": 0, "Bet": 100, "Bonus": 150, "Buys": -10, "Net": 240}
    assert grade(three, "0; 100; 150; -10; 240").correct
    four = _situation(
        "rp.settle",
        ante=50,
        folded=False,
        player=["8h", "8d", "Kc", "7s", "2c"],
        dealer=["8s", "8c", "Kd", "7h", "2d"],
    )
    assert expected_of(four)[0] == {"Ante": 0, "Bet": 0, "Net": 0}
    five = _situation(
        "rp.no_game",
        ante=20,
        folded=True,
        player=["9h", "7d", "5c", "3s", "2c"],
        dealer=["Qs", "Jd", "8c", "4d", "2s"],
    )
    assert expected_of(five)[0] == {"Ante": -20, "Bet": 0}
    straight = _situation(
        "rp.bet_payout", ante=10, player=["5d", "6c", "7h", "8s", "9d"], dealer=["As", "Kd", "7c", "5h", "2d"]
    )
    assert expected_of(straight)[0] == 80  # the self-check convention: the win, not the stake
    ace_king = _situation("rp.combination", player=["Ah", "Kd", "7c", "5s", "2h"])
    assert expected_of(ace_king)[0] == "ace_king" and grade(ace_king, "Ace-king").correct
    no_king = _situation("rp.qualify", dealer=["Ac", "Qd", "7h", "5s", "2c"])
    assert expected_of(no_king)[0] == "no" and grade(no_king, "no game").correct
    bought = _situation("rp.qualify", dealer=["Qs", "Jd", "8c", "4d", "2s"], game_card="Jc")
    assert expected_of(bought)[0] == "yes"  # the queen goes, the jack pairs
    cost = _situation(
        "rp.buy",
        question="cost",
        ante=30,
        player=["Ah", "Jh", "9h", "6h", "2h", "3c"],
        dealer=["Qs", "Jd", "8c", "4d", "2s"],
        game_card="Jc",
    )
    assert expected_of(cost)[0] == 60  # a sixth card and the game: one ante each


def test_every_answer_format_rejects_malformed_input():
    for kind in RP_KINDS:
        fmt_json = issue(kind, 3, seed=2).answer_format.to_json()
        situation = issue(kind, 3, seed=2)
        for raw in ("", "abc", None, "1.5", "Ante: x"):
            with pytest.raises(AnswerError):
                grade(situation, raw)
        if fmt_json["kind"] == "amounts":
            with pytest.raises(AnswerError, match=f"Give {len(fmt_json['labels'])} amounts"):
                grade(situation, "1")


def test_dealing_helpers_make_what_they_promise():
    rng = random.Random(5)
    for category in Category:
        for size in (5, 6):
            hand = build_hand(rng, category, (), size=size)
            assert len(set(hand)) == size and evaluate(hand).category is category
    for _ in range(200):
        assert not dealer_qualifies(no_game_hand(rng, ()))
        player = build_hand(rng, rng.choice([Category.PAIR, Category.FLUSH, Category.TWO_PAIR]), ())
        lower, higher = dealer_hand(rng, player, "lower", ()), dealer_hand(rng, player, "higher", ())
        assert dealer_qualifies(lower) and evaluate(lower) < evaluate(player) < evaluate(higher)
        assert not set(lower) & set(player)
    pair = build_hand(rng, Category.PAIR, ())
    assert evaluate(dealer_hand(rng, pair, "equal", ())) == evaluate(pair)


@pytest.mark.parametrize("rules", preset_names())
def test_every_preset_either_deals_or_says_why_not(rules):
    for kind in RP_KINDS:
        for level in LEVELS:
            try:
                situations = [issue(kind, level, seed=seed, rules=rules) for seed in range(20)]
            except ValueError as error:
                assert "offers no" in str(error) or "sells no" in str(error)
                continue
            for situation in situations:
                assert expected_of(situation)[0] == oracle(kind, situation.data)
