"""The buy-decision advisor: known answers, brute-force cross-checks and properties."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine.cards import FULL_DECK, parse_cards
from trainer.engine.evaluator import category_of, strength5
from trainer.engine.russian_poker.rules import load_rules
from trainer.engine.russian_poker.strategy import TOLERANCE, Action, bet_value, options
from trainer.engine.russian_poker.strategy.dealer import AK_FLOOR, TWO_PAIR_FLOOR, DealerModel
from trainer.engine.russian_poker.strategy.draws import final_strengths
from trainer.engine.russian_poker.strategy.terms import Terms

CIS = load_rules("cis")
INSURED = load_rules("insured")  # dealer replaces his lowest card; a failed bought game pays nothing


def idx(text: str) -> list[int]:
    return [c.index for c in parse_cards(text)]


def reference_bet(hand: str, up: str, rules=CIS) -> float:
    """Betting valued by walking every hidden dealer hand and every card a bought game can bring."""
    t = Terms.of(rules)
    h, u = idx(hand), idx(up)[0]
    p = strength5(*h)
    pool = [i for i in range(52) if i not in h and i != u]
    total, hands = 0.0, 0
    pick = max if t.replace == "highest" else min
    for hid in itertools.combinations(pool, 4):
        hands += 1
        d = strength5(u, *hid)
        if d >= AK_FLOOR:
            total += t.win[p] if p > d else t.lose if p < d else 0
            continue
        five = (u, *hid)
        out = pick(five, key=lambda i: i // 4)
        kept = [i for i in five if i != out]
        rest = [i for i in pool if i not in hid]
        v = 0.0
        for x in rest:
            d2 = strength5(*kept, x)
            v += t.buy_fail if d2 < AK_FLOOR else t.win[p] if p > d2 else t.lose if p < d2 else 0
        total += max(t.no_game, v / len(rest) - t.buy_fee) if t.buy_game else t.no_game
    return total / hands


@pytest.mark.parametrize(
    ("hand", "up", "rules"),
    [
        ("Jh Jd 4s 4c 9h", "Ad", CIS),  # two pair: buys the game against some dealers
        ("7h 8h 9h Th Jh", "2h", INSURED),  # straight flush, lowest card replaced, failed buy pays 0
        ("Ah Kd 8c 5s 3h", "Kc", CIS),  # ace-king: never buys
    ],
)
def test_bet_value_matches_walking_every_dealer_hand(hand, up, rules):
    expected = reference_bet(hand, up, rules)
    assert bet_value(hand, up, rules=rules) == pytest.approx(expected, rel=1e-12, abs=1e-12)


@pytest.mark.slow
def test_dealer_model_counts_match_enumeration():
    rng = random.Random(11)
    for replace in ("highest", "lowest"):
        cards = rng.sample(range(52), 6)
        up = cards[5]
        pool = [i for i in range(52) if i not in cards]
        model = DealerModel(up, pool, replace)
        hist: Counter[int] = Counter()
        no_game = 0
        buys: Counter[tuple[int, int, tuple[tuple[int, int], ...]]] = Counter()
        for hid in itertools.combinations(pool, 4):
            d = strength5(up, *hid)
            if d >= AK_FLOOR:
                hist[d] += 1
                continue
            no_game += 1
            five = (up, *hid)
            out = (max if replace == "highest" else min)(five, key=lambda i: i // 4)
            kept = [i for i in five if i != out]
            dead = low = 0
            high: Counter[int] = Counter()
            for x in pool:
                if x in hid:
                    continue
                d2 = strength5(*kept, x)
                if d2 < AK_FLOOR:
                    dead += 1
                elif d2 < TWO_PAIR_FLOOR:
                    low += 1
                else:
                    high[d2] += 1
            buys[(dead, low, tuple(sorted(high.items())))] += 1
        assert dict(zip(model.strengths, model.counts, strict=True)) == dict(hist)
        assert model.no_game == no_game and model.hands == 163185
        grouped: Counter[tuple[int, int, tuple[tuple[int, int], ...]]] = Counter()
        for hands, dead, low, high_outs in model.groups:
            merged: Counter[int] = Counter()
            for s, n in high_outs:
                merged[s] += n
            grouped[(dead, low, tuple(sorted(merged.items())))] += hands
        assert grouped == buys


def test_final_strengths_of_all_five_card_hands():
    counts: Counter[str] = Counter()
    for s, n in final_strengths([], list(range(52)), 5).items():
        counts[category_of(s).value] += n
    assert counts == {
        "royal_flush": 4,
        "straight_flush": 36,
        "four_of_a_kind": 624,
        "full_house": 3744,
        "flush": 5108,
        "straight": 10200,
        "three_of_a_kind": 54912,
        "two_pair": 123552,
        "pair": 1098240,
        "high_card": 167280 + 1135260,
    }


@pytest.mark.parametrize("k", [1, 2, 3])
def test_final_strengths_match_enumeration(k):
    rng = random.Random(k)
    for kept_suited in (False, True):
        if kept_suited:
            kept = idx("Ah Th 6h 3h 2h")[: 5 - k]
            pool = [i for i in range(52) if i not in idx("Ah Th 6h 3h 2h Kd")]
        else:
            cards = rng.sample(range(52), 6)
            kept, pool = cards[: 5 - k], [i for i in range(52) if i not in cards]
        walked = Counter(strength5(*kept, *d) for d in itertools.combinations(pool, k))
        assert final_strengths(kept, pool, k) == dict(walked)


def test_royal_flush_bets():
    opts = options("As Ks Qs Js Ts", "2d")
    assert opts[0].action is Action.BET
    assert opts[0].ev == pytest.approx(bet_value("As Ks Qs Js Ts", "2d"))
    assert opts[0].ev > 100 and opts[0].stderr == 0
    assert [o.action for o in opts if o.equivalent] == [Action.BET]


def test_flush_draw_against_an_ace_sixth_card_then_exchange_then_fold():
    # Q-9-6-3 of hearts and a deuce, no pair, no ace-king; the dealer shows an ace. Betting is worst
    # (-1.75: a queen-high hand wins only when the dealer has no game). Keeping all five and buying a
    # sixth card beats throwing the deuce: both draw to the same 9 hearts, but the sixth card also
    # pairs the deuce. Both are worth far more than folding.
    opts = {o.label: o for o in options("Qh 9h 6h 3h 2c", "Ad")}
    sixth, swap, fold, bet = opts["sixth card"], opts["exchange 2c"], opts["fold"], opts["bet"]
    assert sixth.ev > swap.ev > fold.ev > bet.ev
    assert list(opts)[:3] == ["sixth card", "exchange 2c", "fold"]
    assert sixth.stderr == swap.stderr == 0
    # Both exact values, rebuilt from bet_value over every card that can come.
    hand, up = parse_cards("Qh 9h 6h 3h 2c"), "Ad"
    unseen = [c for c in FULL_DECK if c not in hand and str(c) != up]
    six = sum(max(-1, bet_value([*hand, c], up)) for c in unseen) / len(unseen) - 1
    one = sum(max(-1, bet_value([*hand[:4], c], up, dead=hand[4:])) for c in unseen) / len(unseen) - 1
    assert sixth.ev == pytest.approx(six, abs=1e-12)
    assert swap.ev == pytest.approx(one, abs=1e-12)
    assert sixth.ev - swap.ev < TOLERANCE  # so close that both count as right
    assert sixth.equivalent and swap.equivalent and not fold.equivalent


def test_estimated_exchange_agrees_with_every_draw():
    # Keep the ace and king (discard three: 15,180 draws): exact by walking the draws with bet_value
    # would take long, so check the two-card exchange exactly and the estimate against it.
    hand, up = parse_cards("Ah Kd 8c 5s 3h"), "Kc"
    unseen = [c for c in FULL_DECK if c not in hand and str(c) != up]
    kept, discard = hand[:3], hand[3:]
    exact = (
        sum(
            max(-1, bet_value([*kept, *draw], up, dead=discard)) for draw in itertools.combinations(unseen, 2)
        )
        / (len(unseen) * (len(unseen) - 1) // 2)
        - 1
    )
    opt = next(o for o in options(hand, up) if o.label == "exchange 5s 3h")
    assert opt.stderr > 0
    assert abs(opt.ev - exact) < 3 * opt.stderr + 1e-3


def test_every_legal_option_is_listed():
    cis = options("9c 9d Kh 5s 2c", "Jd")
    assert len(cis) == 2 + 31 + 1  # fold, bet, every non-empty discard, sixth card
    assert [o.ev for o in cis] == sorted((o.ev for o in cis), reverse=True)
    assert next(o for o in cis if o.action is Action.FOLD).ev == -1
    caribbean = options("9c 9d Kh 5s 2c", "Jd", rules=load_rules("caribbean"))
    assert {o.action for o in caribbean} == {Action.FOLD, Action.BET}
    assert caribbean[0].action is Action.BET  # a pair of nines raises in Caribbean Stud


def test_rules_the_advisor_does_not_model_are_refused():
    with pytest.raises(ValueError, match="two combinations"):
        options("9c 9d Kh 5s 2c", "Jd", rules=load_rules("lunar"))


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
        options(player, up)


def test_same_hand_same_answer():
    a = options("Th 8d 7c 4s 2h", "Qc")
    b = options("Th 8d 7c 4s 2h", "Qc")
    assert [(o.label, o.ev, o.stderr) for o in a] == [(o.label, o.ev, o.stderr) for o in b]


SUIT_PERMS = list(itertools.permutations("shdc"))


@settings(max_examples=15, deadline=None)
@given(st.lists(st.sampled_from(FULL_DECK), min_size=6, max_size=6, unique=True), st.sampled_from(SUIT_PERMS))
def test_bet_value_does_not_depend_on_suit_names(cards, perm):
    # Renaming the suits changes no probability: a check on every suit-dependent count in the model.
    rename = dict(zip("shdc", perm, strict=True))
    moved = [f"{str(c)[0]}{rename[c.suit]}" for c in cards]
    assert bet_value(cards[:5], cards[5]) == pytest.approx(bet_value(moved[:5], moved[5]), abs=1e-12)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(FULL_DECK), min_size=6, max_size=6, unique=True))
def test_bet_value_bounds(cards):
    value = bet_value(cards[:5], cards[5])
    strength = strength5(*(c.index for c in cards[:5]))
    assert -3 <= value <= 201
    if strength < AK_FLOOR:
        # Below ace-king the player only ever wins the no-game ante (and never buys the game).
        assert value < 1


def test_changing_a_kicker_that_cannot_matter_costs_exactly_the_fee():
    # With four kings the kicker never decides anything, and drawing a random unseen card (into the
    # hand, out of the dealer's reach) leaves the dealer's hidden cards and bought-game card uniformly
    # random: exchanging the deuce, or buying a sixth card, is worth exactly the bet less one ante.
    opts = {o.label: o for o in options("Kd Ks Kh Kc 2d", "Qs")}
    bet = opts["bet"].ev
    assert opts["exchange 2d"].ev == pytest.approx(bet - 1, abs=1e-12)
    assert opts["sixth card"].ev == pytest.approx(bet - 1, abs=1e-12)
    assert opts["exchange 2d"].stderr == opts["sixth card"].stderr == 0
