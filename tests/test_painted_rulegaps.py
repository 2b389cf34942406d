"""Painted poker rules of issue 15, each a house option with the rule page's default: the joker's further
calls and the joker led as a card, "if everybody passes, the dealer must bid the maximum", the frontal
deal, circular trump, the 54-card deck with two real jokers, the special deals between the rising and
the falling part, and special deals scored x2 or x3. Each test quotes the sentence of
shared/rules/painted-poker.md (or of the seed, in translation) that it checks.
"""

import pytest

from trainer.engine import painted_poker as pp
from trainer.engine.painted_poker import (
    REAL_JOKERS,
    DealKind,
    Play,
    ScoreSheet,
    deal_trump,
    dealer_bids,
    explain_trick,
    forbidden_bid,
    legal_cards,
    load_rules,
    painted_cards,
    schedule,
    score,
    trick_winner,
)

CLASSIC = load_rules("classic")
ODESSA = load_rules("odessa-house")
DECK54 = load_rules("deck-54")


def plays(text):
    return Play.parse_all(text)


def test_the_defaults_are_the_rule_pages():
    # "Leading the joker, the player calls one of: highest trump, highest <suit>, low"; 36 cards; the
    # turned card shows trump; specials after the falling part; scored like a normal deal.
    assert CLASSIC.lead_calls == ("highest_trump", "highest", "low")
    assert (len(CLASSIC.deck), CLASSIC.real_jokers, CLASSIC.trump_mode.value) == (36, 0, "turned")
    assert not CLASSIC.all_pass_dealer_max
    assert set(CLASSIC.scoring.multiplier.values()) == {1}
    assert DealKind.FRONTAL not in CLASSIC.deal_kinds


# --- the joker's further calls (the seed's first article: "high trump", "low trump", "high card",
# "low card"; the older article: "you can lead the joker as an ordinary card of any value and suit") --


@pytest.mark.parametrize(
    ("trick", "trump", "winner"),
    [
        # Led as the lowest trump: the highest trump played takes it.
        ("7s:lowest_trump 6s Ks Ah", "s", 2),
        # ... and the joker, a trump, takes it when nobody else plays one.
        ("7s:lowest_trump Ah Kd 9h", "s", 0),
        # Led as the highest heart: hearts follow; only a trump beats it.
        ("7s:high_card:h Ah Kh 9h", "s", 0),
        ("7s:high_card:h Ah 6s 9h", "s", 2),
        # The highest card of the trump suit: nothing beats it.
        ("7s:high_card:s As Ks", "s", 0),
        # Led as the lowest heart: the highest heart takes it, a trump beats them all.
        ("7s:low_card:h 6h Qh 9h", "s", 2),
        ("7s:low_card:h 6h 6s Ah", "s", 2),
        ("7s:low_card:h Ad Kc", "s", 0),  # nobody followed or trumped: the joker, a heart, takes it
        # Led as the nine of hearts: it counts as that card.
        ("7s:as_card:9h 8h Th 6s", None, 2),
        ("7s:as_card:9h 8h 6h", "s", 0),
        ("7s:as_card:9h 8h 6s", "s", 2),
        # A later joker played high still beats the led joker's card.
        ("X1:low_card:h Ah X2:high", "s", 2),
    ],
)
def test_further_joker_calls_decide_the_trick(trick, trump, winner):
    rules = ODESSA if not trick.startswith("X") else _deck54_with_all_calls()
    assert trick_winner(plays(trick), trump, rules) == winner


def _deck54_with_all_calls():
    import dataclasses

    return dataclasses.replace(DECK54, lead_calls=ODESSA.lead_calls)


def test_the_joker_led_as_a_card_and_the_real_card_the_first_played_wins():
    # Our choice, stated in tricks.py: of two equal cards the first played ranks higher.
    assert trick_winner(plays("7s:as_card:9h 9h 8h"), None, ODESSA) == 0


@pytest.mark.parametrize(
    ("hand", "trick", "trump", "legal"),
    [
        # "lowest trump": everybody plays his lowest trump (issue 26: the seed's "everyone must play
        # according to the call"); without a trump, anything.
        ("Ks 6s Ah", "7s:lowest_trump", "s", ["6s"]),
        ("Ah Kd", "7s:lowest_trump", "s", ["Ah", "Kd"]),
        # "high card"/"low card" of hearts: his highest / lowest heart, else any trump, else anything.
        ("Ah 9h 6s", "7s:high_card:h", "s", ["Ah"]),
        ("Ah 9h 6s", "7s:low_card:h", "s", ["9h"]),
        ("Kd 6s 8s", "7s:low_card:h", "s", ["6s", "8s"]),
        # Led as the nine of hearts: hearts follow.
        ("Ah 6s", "7s:as_card:9h", "s", ["Ah"]),
    ],
)
def test_what_follows_a_joker_led_as_a_card(hand, trick, trump, legal):
    assert [str(c) for c in legal_cards(hand, plays(trick), trump, ODESSA)] == legal


def test_the_rule_pages_house_refuses_the_further_calls():
    # Rule page, "Play": "Leading the joker, the player calls one of" highest trump, highest <suit>, low;
    # the classic house (the page's default) knows no other call. "If the turned card is the joker, the
    # deal is played without trump": no trump to call for then.
    for call in ("7s:lowest_trump", "7s:high_card:h", "7s:low_card:h", "7s:as_card:9h"):
        with pytest.raises(ValueError, match="in this house"):
            trick_winner(plays(f"{call} Ah"), "s", CLASSIC)
    with pytest.raises(ValueError, match="without trump"):
        trick_winner(plays("7s:lowest_trump Ah"), None, ODESSA)
    with pytest.raises(ValueError, match="ordinary card of the deck"):
        trick_winner(plays("7s:as_card:2h Ah"), None, ODESSA)  # the 36-card deck has no two
    with pytest.raises(ValueError, match="led as a card names it"):
        Play.parse("7s:as_card")


def test_the_steps_name_the_call():
    # The first article: the joker called "low card" (of hearts); "everybody must then play a card from
    # his hand according to the call", so the step names the call and what follows from it.
    _winner, steps = explain_trick(plays("7s:low_card:h 6h Qh 9h"), "s", ODESSA)
    texts = [str(s) for s in steps]
    expected = (
        "The joker 7s was led as the lowest card of hearts: everybody must play his lowest card of that "
        "suit (without one, a trump), and the highest card takes the trick."
    )
    assert expected in texts
    assert texts[-1] == "Play 3 (Qh) takes the trick."


# --- "if players pass, the dealer must order the maximum" (the older article) -------------------------


def test_everybody_passes_the_dealer_must_bid_the_maximum():
    assert dealer_bids(5, [0, 0, 0], rules=ODESSA) == (5,)
    forbidden, steps = pp.explain_hook(5, [0, 0, 0], "normal", ODESSA)
    assert forbidden is None and "dealer bid the maximum, 5" in str(steps[0])
    # Not everybody passed: the hook as usual ("the dealer may not bid ... cards - sum").
    assert dealer_bids(5, [0, 2, 0], rules=ODESSA) == (0, 1, 2, 4, 5)
    # The rule page's house: everybody passed, so the hook forbids exactly the maximum.
    assert forbidden_bid(5, [0, 0, 0]) == 5 and dealer_bids(5, [0, 0, 0]) == (0, 1, 2, 3, 4)


def test_everybody_passes_in_a_dark_deal_too():
    # "if players pass, the dealer must order the maximum": the article names no deal, so a dark deal
    # (no hook) is bound as well, and the explanation says so rather than "no hook".
    forbidden, steps = pp.explain_hook(4, [0, 0, 0], "dark", ODESSA)
    assert forbidden is None and "dealer bid the maximum, 4" in str(steps[0])
    assert dealer_bids(4, [0, 0, 0], "dark", ODESSA) == (4,)
    assert dealer_bids(4, [0, 1, 0], "dark", ODESSA) == (0, 1, 2, 3, 4)  # no hook in the dark


def test_the_sheet_enforces_the_dealers_maximum():
    sheet = ScoreSheet.start(["N", "E", "S"], ODESSA)  # N deals deal 1 (1 card)
    with pytest.raises(ValueError, match="must bid all 1 cards, not 0"):
        sheet.record([0, 0, 0], [0, 1, 0])
    sheet = sheet.record([1, 0, 0], [1, 0, 0])
    assert sheet.totals == (10, 5, 5)


# --- "Frontal deal: players do not see their own cards but see the others'" --------------------------


def test_frontal_deals_are_specials_scored_like_a_normal_deal():
    deals = schedule(4, ODESSA)
    frontal = [d for d in deals if d.kind is DealKind.FRONTAL]
    assert [d.number for d in frontal] == [37, 38, 39, 40] and {d.cards for d in frontal} == {9}
    # A frontal deal is bid, and the hook applies as in a normal deal (only the dark deal is exempt).
    assert forbidden_bid(9, [5, 3], "frontal", ODESSA) == 1
    assert score(3, 3, "frontal", ODESSA) == 60  # 10 x 3, special deals x2 in this house


# --- "Circular trump: the trump suit rotates each deal in a fixed order" ------------------------------


def test_circular_trump_rotates_in_the_houses_order():
    # Issue 26: the seed's "ყვავიდან გულამდე" (from spades to hearts): spades, clubs, diamonds, hearts.
    assert [deal_trump(n, rules=DECK54) for n in range(1, 7)] == ["s", "c", "d", "h", "s", "c"]
    assert deal_trump(3, "no_trump", DECK54) is None
    # The rule page's default: the turned card's suit; a turned-up joker means no trump.
    assert deal_trump(3, turned=painted_cards("Kh")[0]) == "h"
    assert deal_trump(3, turned=painted_cards("7s")[0]) is None


# --- "a 54-card deck with two real jokers" -----------------------------------------------------------


def test_the_54_card_deck_and_its_real_jokers():
    assert len(DECK54.deck) == 54 and DECK54.jokers == REAL_JOKERS
    assert [DECK54.max_hand(n) for n in range(2, 11)] == [27, 18, 13, 10, 9, 7, 6, 6, 5]
    x1, x2 = REAL_JOKERS
    assert painted_cards("X1 As x2") == (x1, painted_cards("As")[0], x2)
    assert str(x1) == "X1" and x1 != painted_cards("As")[0] and x1 in DECK54.deck
    # A real joker beats every card, trumps included, and "the last high joker played wins".
    assert trick_winner(plays("9h X1:high 6s"), "s", DECK54) == 1
    assert trick_winner(plays("9h X1:high X2:high"), "s", DECK54) == 2
    assert trick_winner(plays("X2:highest:d Qd As 2d"), "s", DECK54) == 0
    # The joker is always allowed; otherwise follow suit.
    assert [str(c) for c in legal_cards("Ah 2h X2 Ks", plays("9h"), "s", DECK54)] == ["Ah", "2h", "X2"]
    with pytest.raises(ValueError, match="not in the 36-card deck"):
        trick_winner(plays("9h X1:high"), "s", CLASSIC)


# --- the specials "between the rising and the falling part (one article's order)" --------------------


def test_specials_between_rising_and_falling():
    deals = schedule(4, DECK54)
    # (max - 1) rising + N at max + 4 N specials + (max - 1) falling: 12 + 4 + 16 + 12 = 44.
    assert len(deals) == 44
    kinds = [d.kind.value for d in deals]
    assert (
        kinds[:16] == ["normal"] * 16
        and kinds[16:32] == ["dark"] * 4 + ["gold"] * 4 + ["miser"] * 4 + ["no_trump"] * 4
    )
    assert [d.cards for d in deals[32:]] == list(range(12, 0, -1))


# --- "Scoring for special deals multiplied by 2 or 3" -------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "args", "points"),
    [
        (CLASSIC, (None, 3, "gold"), 60),
        (ODESSA, (None, 3, "gold"), 60),  # 10 x 3, x2 (issue 26: the multiplier applies once)
        (DECK54, (None, 3, "gold"), 90),  # 10 x 3, x3
        (DECK54, (2, 2, "dark"), 60),
        (DECK54, (None, 2, "miser"), -60),
        (DECK54, (2, 2, "normal"), 20),  # the ordinary deals are not multiplied
    ],
)
def test_special_deals_multiplied(rules, args, points):
    assert score(*args[:2], args[2], rules) == points
    if rules is not CLASSIC and args[2] != "normal":
        _points, steps = pp.explain_score(*args[:2], args[2], rules)
        assert f"Deals of this kind ({args[2]}) count x" in str(steps[-1])
