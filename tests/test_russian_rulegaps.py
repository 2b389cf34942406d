"""Russian poker rules of issue 15: the insurance cap, Lunar's compulsory Super and the two-combination
edge cases. Each test quotes the sentence of shared/rules/russian-poker.md (or of the preset's source
comment, where the rule page only names the variant) that it checks.
"""

import dataclasses

import pytest

from trainer.engine.russian_poker import (
    bet_payout,
    insurance_limits,
    load_rules,
    second_combination,
    settle,
)

D_NG = "Qs Jd 8c 4d 2s"
D_AK = "As Kd 7c 5h 2d"
INSURED = load_rules("insured")
LUNAR = load_rules("lunar")


# --- insurance: "at most what the bet could win" (insured.toml's source), the table maximum applied --


def test_the_issue_example_is_refused_with_a_clear_error():
    # "insurance on three of a kind or better" (rule page, other house differences) and insured.toml:
    # "stake from 1 ante up to what the bet could win". A royal flush on ante 500 would win 100,000 on
    # the bet, but the table maximum (5,000) cuts that win: the bet can really be paid 5,000.
    with pytest.raises(ValueError) as raised:
        settle("Ah Kh Qh Jh Th", D_NG, 500, rules="insured", insurance=100000, bonus=100)
    assert str(raised.value) == (
        "insurance may be at most what the bet can really be paid, 5000 "
        "(the bet's win 100000 cut to the table maximum 5000), not 100000"
    )


def test_insuring_up_to_the_capped_win_is_paid():
    s = settle("Ah Kh Qh Jh Th", D_NG, 500, rules="insured", insurance=5000)
    assert (s.insurance, s.ante, s.bet) == (5000, 500, 0)
    assert "Insurance 5000: the dealer has no game, it pays 1 to 1 = 5000." in [str(x) for x in s.steps]
    with pytest.raises(ValueError, match="at most what the bet can really be paid, 5000"):
        settle("Ah Kh Qh Jh Th", D_NG, 500, rules="insured", insurance=5001)


@pytest.mark.parametrize(
    ("cards", "ante", "limits"),
    [
        ("9c 9d 9h Kc 3s", 10, (10, 60)),  # three of a kind: the bet 20 wins 3 to 1 = 60, under the cap
        ("Kh Kd Ks Kc 3h", 10, (10, 400)),  # four of a kind 20 to 1 on 20
        ("Kh Kd Ks Kc 3h", 200, (200, 5000)),  # 8,000 cut to the table maximum 5,000
        ("Ah Kh Qh Jh Th", 25, (25, 5000)),  # 5,000: exactly the maximum
        ("Ah Kh Qh Jh Th", 24, (24, 4800)),
    ],
)
def test_insurance_limits(cards, ante, limits):
    assert insurance_limits(cards, ante, INSURED) == limits
    assert insurance_limits(cards, ante, INSURED)[1] == min(bet_payout(cards, ante, INSURED).win, 5000)


def test_a_box_whose_least_stake_is_over_the_maximum_cannot_be_insured():
    # "stake from 1 ante up to what the bet could win", the win cut to the table maximum: an ante of
    # 6,000 under the 5,000 maximum leaves no stake between the two, and the error says so rather than
    # refusing 5,000 as too little and 6,000 as too much.
    assert insurance_limits("9c 9d 9h Kc 3s", 6000, INSURED) == (6000, 5000)
    for stake in (5000, 6000):
        with pytest.raises(ValueError, match="this box cannot be insured: the least stake, 6000, is more"):
            settle("9c 9d 9h Kc 3s", D_NG, 6000, rules="insured", insurance=stake)


def test_without_a_table_maximum_the_whole_win_may_be_insured():
    uncapped = dataclasses.replace(INSURED, table_max_payout=0)
    assert insurance_limits("Ah Kh Qh Jh Th", 500, uncapped) == (500, 100000)
    assert settle("Ah Kh Qh Jh Th", D_NG, 500, rules=uncapped, insurance=100000).insurance == 100000


def test_an_antes_house_names_its_limit():
    antes = dataclasses.replace(INSURED, insurance_max=type(INSURED.insurance_max)("antes"))
    assert insurance_limits("9c 9d 9h Kc 3s", 10, antes) == (10, 10)
    with pytest.raises(ValueError, match="insurance may be at most 1 antes = 10, not 20"):
        settle("9c 9d 9h Kc 3s", D_NG, 10, rules=antes, insurance=20)


# --- Lunar: "compulsory bets | ante | ante and Super (at least the ante), on own or dealer's hand" -----


def test_lunar_refuses_a_box_without_the_super():
    with pytest.raises(ValueError, match="Lunar Poker: the Super bet is compulsory: stake at least 10"):
        settle("Jh Jd 4s 4c 9h", D_AK, 10, rules="lunar")
    with pytest.raises(ValueError, match="Super bet is compulsory"):
        settle("Jh Jd 4s 4c 9h", D_AK, 10, rules="lunar", folded=True)


def test_the_super_on_own_box_or_on_the_dealer_satisfies_it():
    # "(at least the ante), on own or dealer's hand"
    own = settle("Jh Jd 4s 4c 9h", D_AK, 10, rules="lunar", super_bet=10)
    dealer = settle("Jh Jd 4s 4c 9h", D_AK, 10, rules="lunar", super_bet=10, super_on_dealer=True)
    assert (own.super_bet, own.bet, own.net) == (-10, 40, 30)  # two pair pays nothing on the Super
    assert (dealer.super_bet, dealer.net) == (-10, 30)
    with pytest.raises(ValueError, match="at least 10"):
        settle("Jh Jd 4s 4c 9h", D_AK, 10, rules="lunar", super_bet=9)


def test_a_house_may_make_the_super_optional(tmp_path):
    # lunar.toml: "The rule page lists the Super bet as compulsory; the manufacturer calls it optional".
    path = tmp_path / "optional.toml"
    path.write_text('base = "lunar"\n[super]\ncompulsory = false\n', encoding="utf-8")
    s = settle("Jh Jd 4s 4c 9h", D_AK, 10, rules=load_rules(path))
    assert (s.super_bet, s.net) == (0, 40)
    assert LUNAR.super_compulsory and LUNAR.super_min_antes == 1


# --- two combinations: "both are paid if the second uses a card not in the first" (Lunar) ------------


@pytest.mark.parametrize(
    ("cards", "odds", "second"),
    [
        # Four kings are the first; three of those kings with the two sevens make a full house that
        # uses cards not in the first (the sevens): 20 + 7, the full house built from the same kings.
        ("Kh Kd Ks Kc 7h 7d", 27, "full house (Ks Kh Kd 7h 7d)"),
        # K-K-K-7-7 is the first; the kings with the third seven make a second full house: 7 + 7.
        ("Kh Kd Ks 7c 7h 7d", 14, "full house (Ks Kh Kd 7h 7c)"),
        # 5-6-7-8-9 with one nine is the first; the other nine makes the same straight again: 4 + 4.
        ("5c 6d 7h 8s 9c 9d", 8, "straight (9c 8s 7h 6d 5c)"),
        # The royal flush is the first; the spare ace makes A-K-Q-J-T again, a straight: 100 + 4.
        ("Ah Kh Qh Jh Th As", 104, "straight (As Kh Qh Jh Th)"),
    ],
)
def test_the_edge_cases_of_the_two_combination_rule(cards, odds, second):
    pay = bet_payout(cards, 10, LUNAR)
    assert pay.odds == odds and pay.win == odds * 20
    assert str(second_combination(cards, LUNAR)) == second
    # "CIS casinos: only the higher one is paid"
    cis = bet_payout(cards, 10, "cis")
    assert cis.second is None and cis.odds == load_rules("cis").bet_odds[cis.hand.category]


def test_the_edge_cases_settle_with_a_sixth_card_bought():
    # Kh Kd Ks Kc 7h 7d: the sixth card was bought (fee 1 ante); the bet 20 pays 27 to 1 = 540.
    dealer = "Qs Qd 8c 5h 2d"
    s = settle("Kh Kd Ks Kc 7h 7d", dealer, 10, rules="lunar", super_bet=10, dealt="Kh Kd Ks Kc 7h")
    assert (s.bet, s.fees, s.super_bet) == (540, -10, 2500)
    assert any("27 to 1 = 540" in str(x) for x in s.steps)
