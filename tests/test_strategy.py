"""The buy-decision advisor's public functions: known answers, today's solver's exact paths, every
house's special rules, the cache. (The counting engine itself is checked against brute force in
tests/test_advisor_exact.py.)"""

from __future__ import annotations

import itertools
import random
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from trainer.engine.cards import CARD_BY_INDEX, FULL_DECK, parse_cards
from trainer.engine.evaluator import strength5
from trainer.engine.russian_poker.hands import evaluate, second_combination
from trainer.engine.russian_poker.rules import RULES_DIR, SuperCombination, load_rules
from trainer.engine.russian_poker.strategy import (
    Action,
    advise,
    best_options,
    bet_value,
    clear_cache,
    options,
)
from trainer.engine.russian_poker.strategy.counting import AK_FLOOR
from trainer.engine.russian_poker.strategy.payoffs import Payoffs
from trainer.engine.russian_poker.strategy.solver import Context, Valuation

BENCH = Path(__file__).resolve().parents[1] / "bench"
CIS = load_rules("cis")
INSURED = load_rules("insured")  # dealer replaces his lowest card; a failed bought game pays nothing


def idx(text: str) -> list[int]:
    return [c.index for c in parse_cards(text)]


def reference_bet(hand: str, up: str, rules=CIS) -> float:
    """Betting valued by walking every hidden dealer hand and every card a bought game can bring."""
    pay = Payoffs.of(rules)
    h, u = idx(hand), idx(up)[0]
    p = strength5(*h)
    o = pay.outcomes(p)
    pool = [i for i in range(52) if i not in h and i != u]
    total, hands = 0.0, 0
    pick = max if pay.replace_highest else min
    for hid in itertools.combinations(pool, 4):
        hands += 1
        d = strength5(u, *hid)
        if d >= AK_FLOOR:
            total += o.win if p > d else o.lose if p < d else o.tie
            continue
        five = (u, *hid)
        out = pick(five, key=lambda i: i // 4)
        kept = [i for i in five if i != out]
        rest = [i for i in pool if i not in hid]
        v = 0.0
        for x in rest:
            d2 = strength5(*kept, x)
            v += o.fail if d2 < AK_FLOOR else o.win if p > d2 else o.lose if p < d2 else o.tie
        total += max(o.no_game, v / len(rest) - pay.fee) if pay.buy_game else o.no_game
    return total / hands


@pytest.mark.parametrize(
    ("hand", "up", "rules"),
    [
        ("Jh Jd 4s 4c 9h", "Ad", CIS),  # two pair: buys the game against some dealers
        ("7h 8h 9h Th Jh", "2h", INSURED),  # straight flush, lowest card replaced, failed buy pays 0
    ],
)
def test_bet_value_matches_walking_every_dealer_hand(hand, up, rules):
    assert bet_value(hand, up, rules=rules) == pytest.approx(reference_bet(hand, up, rules), rel=1e-12)


@pytest.fixture(scope="module")
def reference():
    sys.path.insert(0, str(BENCH))
    try:
        import reference_strategy
    finally:
        sys.path.remove(str(BENCH))
    return reference_strategy


@pytest.mark.parametrize("seed", [1, 2])
def test_todays_exact_paths_agree(reference, seed):
    # Today's solver (kept in bench/ as the speed reference) is exact for betting, the sixth card and
    # one-card exchanges (its options with no standard error): the new engine gives the same values.
    rng = random.Random(seed)
    for rules in (CIS, INSURED):
        cards = rng.sample(range(52), 6)
        hand, up = cards[:5], cards[5]
        pool = tuple(i for i in range(52) if i not in cards)
        v = Valuation(Context(up, pool, Payoffs.of(rules)))
        old = [o for o in reference.options(_text(hand), str(FULL_DECK[up]), rules=rules) if o.stderr == 0]
        assert {o.label for o in old} >= {"fold", "bet", "sixth card"}
        for o in old:
            if o.label == "fold":
                value = Fraction(-1)
            elif o.label == "bet":
                value = v.stand_now(hand)[1]
            elif o.label == "sixth card":
                value = v.sixth_card(hand) - 1
            else:
                kept = [c for c in hand if c not in {d.index for d in o.discard}]
                value = v.exchange(kept, 1) - 1
            assert float(value) == pytest.approx(o.ev, abs=1e-9), o.label


def _text(cards):
    return " ".join(str(FULL_DECK[i]) for i in cards)


def test_flush_draw_against_an_ace_buys_the_sixth_card():
    # Q-9-6-3 of hearts and a deuce, no pair, no ace-king; the dealer shows an ace. The sixth card keeps
    # the deuce, which can still pair: its exact value is the mean over the 46 unseen cards of the better
    # of folding and betting six cards, less the card's price.
    best = best_options("Qh 9h 6h 3h 2c", "Ad")
    assert [o.label for o in best] == ["sixth card"] and best[0].equivalent
    hand = parse_cards("Qh 9h 6h 3h 2c")
    unseen = [c for c in FULL_DECK if c not in hand and str(c) != "Ad"]
    six = sum(max(-1, bet_value([*hand, c], "Ad")) for c in unseen) / len(unseen) - 1
    assert best[0].ev == pytest.approx(six, abs=1e-12)
    assert best[0].exact == Fraction(best[0].exact.numerator, best[0].exact.denominator)


def test_every_legal_option_is_listed_and_ties_are_exact():
    # With four kings the kicker never decides anything, and drawing a random unseen card (into the
    # hand, out of the dealer's reach) leaves the dealer's hidden cards and bought-game card uniformly
    # random: exchanging the deuce, or buying a sixth card, is worth exactly the bet less one ante.
    opts = options("Kd Ks Kh Kc 2d", "Qs")
    assert len(opts) == 2 + 31 + 1  # fold, bet, every non-empty discard, sixth card
    assert [o.exact for o in opts] == sorted((o.exact for o in opts), reverse=True)
    by = {o.label: o for o in opts}
    assert by["fold"].exact == -1
    assert by["exchange 2d"].exact == by["sixth card"].exact == by["bet"].exact - 1
    assert opts[0].label == "bet" and [o.label for o in opts if o.equivalent] == ["bet"]
    assert all(o.stderr == 0 for o in opts)


def test_caribbean_offers_fold_or_raise():
    caribbean = options("9c 9d Kh 5s 2c", "Jd", rules="caribbean")
    assert {o.action for o in caribbean} == {Action.FOLD, Action.BET}
    assert caribbean[0].action is Action.BET  # a pair of nines raises in Caribbean Stud


def test_lunar_two_combinations_instant_payouts_and_the_super():
    # Four kings and an ace pay four of a kind and ace-king on the Lunar table (2 antes more when the
    # dealer qualifies, a little over half the time); four kings and a queen pay only the four.
    assert (
        bet_value("Kh Kd Ks Kc Ah", "2d", rules="lunar") - bet_value("Kh Kd Ks Kc Qh", "2d", rules="lunar")
        > 1
    )
    # A dealt royal flush is paid at once, 1000 to 1 on the ante: the only option.
    advice = advise("Ah Kh Qh Jh Th", "2d", rules="lunar")
    assert [(o.action, o.ev) for o in advice.options] == [(Action.INSTANT, 1000.0)]
    # The Super bet on the dealt five is shown beside the options and changes none of them.
    assert advice.super_bet is not None and advice.super_bet.row is SuperCombination.SAME_COLORED_STRAIGHT
    flush = advise("Ah 9h 6h 4h 2h", "Kd", rules="lunar")
    assert flush.super_bet.row is SuperCombination.FLUSH and flush.super_bet.result == 60
    assert advise("Ah 9h 6h 4h 2h", "Kd").super_bet is None
    # Lunar exchanges 2 to 5 cards: no one-card exchange is offered.
    assert all(len(o.discard) != 1 for o in best_options("Qh 9h 6h 3h 2c", "Ad", rules="lunar"))


def test_six_cards_second_combination_is_the_rule_engines_though_kept_by_ranks():
    # Payoffs keeps a six-card hand's second combination by its ranks and the ranks of a suit holding
    # five or six: every hand below, many sharing a key with one seen before, gets the odds the rule
    # engine gives it (flushes beside pairs, and hands of three ranks, whose keys repeat most).
    lunar = load_rules("lunar")
    pay = Payoffs(lunar, 1, 0)
    rng = random.Random(5)
    for i in range(900):
        if i % 3 == 0:
            cards = rng.sample(FULL_DECK, 6)
        elif i % 3 == 1:
            suit = rng.choice("cdhs")
            suited = [c for c in FULL_DECK if c.suit == suit]
            n = rng.choice([5, 6])
            cards = rng.sample(suited, n) + rng.sample([c for c in FULL_DECK if c.suit != suit], 6 - n)
        else:
            ranks = rng.sample(sorted({c.rank for c in FULL_DECK}), 3)
            cards = rng.sample([c for c in FULL_DECK if c.rank in ranks], 6)
        combo = second_combination(cards, lunar)
        expected = lunar.bet_odds[combo.category] if combo is not None else 0
        assert pay.outcomes6(tuple(cards)) == pay._outcomes(evaluate(cards).category, 6, expected)
    assert len(pay._second6) < 900  # some hands were answered from what was kept


def test_insurance_is_a_decision_on_three_of_a_kind_or_better():
    trips = options("9h 9d 9c 6s 2h", "4d", rules="insured")
    by = {o.action: o for o in trips if o.action in (Action.BET, Action.INSURE)}
    assert set(by) == {Action.BET, Action.INSURE}
    # Insuring forgoes buying the game and stakes up to the bet's win (6 antes) at even money against
    # the dealer having a game: worse than betting alone here.
    assert by[Action.INSURE].exact < by[Action.BET].exact
    assert Action.INSURE not in {o.action for o in best_options("9h 9d 8c 6s 2h", "4d", rules="insured")}


def test_the_table_maximum_depends_on_the_stake():
    # Insured house: one box is paid 5000 at most. Ante 100: a royal's bet wins 20000, cut to 5000.
    small = bet_value("As Ks Qs Js Ts", "2d", rules="insured")
    big = best_options("As Ks Qs Js Ts", "2d", rules="insured", ante=100)[0]
    assert big.action is Action.BET and big.ev < small / 2


def test_the_cache_never_answers_for_another_house(tmp_path):
    clear_cache()
    hand, up = "9h 9d 9c 6s 2h", "4d"  # three of a kind: buying the game matters, and differs by house
    cis = best_options(hand, up, rules="cis")[0]
    insured = best_options(hand, up, rules="insured")[0]
    assert cis.exact != insured.exact
    # A rules file named like a preset, but paying more on three of a kind, is its own house.
    text = (
        (RULES_DIR / "cis.toml")
        .read_text(encoding="utf-8")
        .replace("three_of_a_kind = 3", "three_of_a_kind = 4")
    )
    (tmp_path / "cis.toml").write_text(text, encoding="utf-8")
    richer = best_options(hand, up, rules=load_rules(tmp_path / "cis.toml"))[0]
    assert richer.exact > cis.exact
    assert best_options(hand, up, rules="cis")[0].exact == cis.exact


def test_suits_renamed_give_the_same_answer_in_the_players_cards():
    a = best_options("8c 7c 6c 2c Kd", "Ah")
    b = best_options("8h 7h 6h 2h Ks", "Ad")
    assert [o.exact for o in a] == [o.exact for o in b]
    rename = {"c": "h", "d": "s", "h": "c", "s": "d"}
    assert [[f"{c}"[0] + rename[f"{c}"[1]] for c in o.discard] for o in a] == [
        [str(c) for c in o.discard] for o in b
    ]


@pytest.mark.parametrize(
    ("player", "up", "message"),
    [
        ("9c 9d Kh 5s", "Jd", "5 cards"),
        ("9c 9d Kh 5s 2c", "9c", "twice|duplicate"),
        ("9c 9d Kh 5s 2c", "Jd Qd", "one up-card"),
        ("9c 9d Kh 5s 2c", "Zz", "bad card"),
    ],
)
def test_bad_input_is_a_value_error(player, up, message):
    with pytest.raises(ValueError, match=message):
        best_options(player, up)
    with pytest.raises(ValueError, match=message):
        options(player, up)


def test_bad_stakes_are_value_errors():
    with pytest.raises(ValueError, match="ante"):
        best_options("9c 9d Kh 5s 2c", "Jd", ante=0)
    with pytest.raises(ValueError, match="no bonus"):
        best_options("9c 9d Kh 5s 2c", "Jd", rules="lunar", bonus=5)


@pytest.mark.parametrize(
    ("player", "up", "house"),
    [
        ("Qh 9h 6h 3h 2c", "Ad", "cis"),  # the sixth card
        ("5h 5d Kc 9s 2h", "Qd", "cis"),  # an exchange of three
        ("Kd Ks Kh Kc 2d", "Qs", "insured"),  # the bet, at a house with insurance
        ("Ah Kd 7c 4s 2h", "5c", "lunar"),
    ],
)
def test_best_options_are_the_ties_of_every_option_on_each_path(player, up, house, monkeypatch):
    # `best_options` values only the exchanges whose quick bounds reach the best so far (the
    # kernel's bounds, or NumPy's without it): it must find the same options and values as `options`.
    from trainer.engine.russian_poker.strategy import kernel

    clear_cache()
    best = best_options(player, up, rules=house)
    clear_cache()
    every = options(player, up, rules=house)
    assert best == [o for o in every if o.equivalent] and best[0] == every[0]
    clear_cache()
    monkeypatch.setattr(kernel, "available", lambda: False)
    assert best_options(player, up, rules=house) == best
    clear_cache()


@pytest.mark.parametrize("house", ["cis", "insured"])
def test_best_options_equal_the_ties_of_every_option_on_random_deals(house):
    # Random deals (seeded), each asked fresh both ways: the bounds must never hide a best option.
    rng = random.Random(f"best {house}")
    for _ in range(4):
        cards = [str(CARD_BY_INDEX[i]) for i in rng.sample(range(52), 6)]
        clear_cache()
        best = best_options(cards[:5], cards[5], rules=house)
        clear_cache()
        assert best == [o for o in options(cards[:5], cards[5], rules=house) if o.equivalent], cards
    clear_cache()


def test_best_options_read_an_answer_options_has_cached(monkeypatch):
    import trainer.engine.russian_poker.strategy as strategy

    clear_cache()
    every = options("5h 5d Kc 9s 2h", "Qd", rules="cis")
    monkeypatch.setattr(strategy, "_solve", lambda *a, **k: pytest.fail("solved again"))
    assert best_options("5d 5h Kc 9s 2h", "Qd", rules="cis") == [o for o in every if o.equivalent]
    clear_cache()
