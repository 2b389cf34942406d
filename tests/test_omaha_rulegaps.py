"""Omaha rules of issue 15: pot-limit arithmetic step by step, a new player's entry, who shows first and
the right to muck a losing hand. Each test quotes the sentence of shared/rules/omaha.md (or of the seed
omaha.ka.txt, in translation, where the rule page is silent) that it checks. Seats are 0-based in the
engine; the explanation steps count from 1.
"""

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine.cards import FULL_DECK
from trainer.engine.omaha import showdown
from trainer.engine.omaha.betting import SidePotShowing, load_rules, pot_limit_max
from trainer.engine.omaha.explain import explain_pot_limit
from trainer.engine.omaha.reveal import explain_order, muck_rulings, showdown_order
from trainer.engine.omaha.seating import between, new_player_entry

STANDARD = load_rules("standard")
ROBERTS = dataclasses.replace(STANDARD, side_pot_showing=SidePotShowing.SIDE_POT_FIRST)


# --- pot limit: "Maximum total wager = P + 2C" -------------------------------------------------------


@pytest.mark.parametrize(
    ("pot", "call", "right", "school"),
    [
        # "Example: pot 100, X bets 100 -> Y may raise to 400 (call 100 makes the pot 300, raise 300)."
        # The seed's translation: "pot 100, X bets 100, Y goes to 300".
        (200, 100, 400, 300),
        # The seed: "pot 10, the first player bets 10, the second raises to 30" (standard: 40).
        (20, 10, 40, 30),
        # "Pre-flop the blinds count as bets: at 5/10 with no other action the first player may raise to 35."
        (15, 10, 35, 25),
        # "Example: pot 100, bet 50 -> maximum total 250."
        (150, 50, 250, 200),
    ],
)
def test_pot_limit_explanation_names_the_schools_figure_as_the_mistake(pot, call, right, school):
    total, steps = explain_pot_limit(pot=pot, to_call=call)
    texts = [str(s) for s in steps]
    assert total == right == pot_limit_max(pot, call)
    assert texts[1] == f"First he calls {call}: the pot becomes {pot} + {call} = {pot + call}."
    assert f"he puts in {call} + {pot + call} = {right} (P + 2 x C = {pot} + 2 x {call})" in texts[2]
    assert texts[3].startswith(
        f"Common mistake: raising by the pot before the call, {call} + {pot} = {school}"
    )
    assert "pot 10, bet 10, raise to 30; pot 100, bet 100, raise to 300" in texts[3]
    assert texts[-1] == f"The most he may raise to is 0 + {right} = {right}."


def test_pot_limit_with_nothing_to_call_is_the_pot():
    # "Maximum total wager = P + 2C": with C = 0 that is the pot, and there is no call to misplace, so
    # no common mistake is named.
    total, steps = explain_pot_limit(pot=90, to_call=0)
    assert total == 90 and "Nothing to call: he may bet the whole pot, 90." in [str(s) for s in steps]
    assert not any("Common mistake" in str(s) for s in steps)


# --- a new player: "post an entry fee equal to the big blind, or wait until the big blind reaches him" --


def _seats(count, empty):
    return [s != empty for s in range(count)]


@pytest.mark.parametrize(
    ("seat", "button", "count", "may_post", "to_button", "to_big"),
    [
        # Nine seats, button 2, blinds 3 and 4. Seat 5 (after the big blind): post now, or the big blind
        # reaches him next hand.
        (5, 2, 9, True, 0, 1),
        # Seat 1, just right of the button: he may post; waiting, the big blind needs 6 hands (5 .. 0, 1).
        (1, 2, 9, True, 0, 6),
        # Robert's Rules: "A new player may not post in between the blinds and the button": seat 3 lies
        # between the button (2) and the small blind (4) when seat 3 is empty; waiting, the big blind
        # (now 5) needs 7 hands to come round to him.
        (3, 2, 9, False, 1, 7),
        # Between the small blind (3) and the big blind (5): two hands until the button has passed him.
        (4, 2, 9, False, 2, 8),
    ],
)
def test_new_player_entry(seat, button, count, may_post, to_button, to_big):
    ruling = new_player_entry(seat, button=button, seats=_seats(count, seat), big_blind=10)
    assert (ruling.may_post_now, ruling.hands_to_button, ruling.hands_to_big_blind) == (
        may_post,
        to_button,
        to_big,
    )
    assert ruling.post == (10 if may_post else 0)
    texts = [str(s) for s in ruling.steps]
    assert texts[-1].endswith(f"hands until then: {to_big}.")
    if may_post:
        assert "He may post the big blind, 10, live, and be dealt in at once." in texts


def test_heads_up_the_new_player_between_button_and_big_blind_waits():
    # "Heads-up (two players): the button posts the small blind": button 0 = small, big blind 2.
    ruling = new_player_entry(1, button=0, seats=[True, False, True], big_blind=20)
    assert not ruling.may_post_now and ruling.hands_to_big_blind == 2
    after = new_player_entry(0, button=1, seats=[False, True, True], big_blind=20)
    assert after.may_post_now  # seat 0 is after the big blind (2), before the button (1)


def test_house_options_for_new_players():
    strict = dataclasses.replace(STANDARD, new_player_may_post=False)
    ruling = new_player_entry(5, button=2, seats=_seats(9, 5), big_blind=10, rules=strict)
    assert not ruling.may_post_now and ruling.post == 0
    assert "may not post to come in" in str(ruling.steps[1])
    lenient = dataclasses.replace(STANDARD, new_player_waits_between=False)
    assert new_player_entry(3, button=2, seats=_seats(9, 3), big_blind=10, rules=lenient).may_post_now


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"seat": 2, "button": 2, "seats": [True] * 5, "big_blind": 10}, "seat 2 is taken"),
        ({"seat": 1, "button": 0, "seats": [False, False, True], "big_blind": 10}, "empty"),
        ({"seat": 9, "button": 0, "seats": [True, False, True], "big_blind": 10}, "seat 0..2"),
        ({"seat": 1, "button": 0, "seats": [True, False, True], "big_blind": 0}, "big blind"),
        ({"seat": 1, "button": 0, "seats": "TFT", "big_blind": 10}, "list of True"),
        ({"seat": 1, "button": 0, "seats": [True, False, False], "big_blind": 10}, "two players"),
    ],
)
def test_new_player_errors(args, message):
    seat = args.pop("seat")
    with pytest.raises(ValueError, match=message):
        new_player_entry(seat, **args)


@settings(max_examples=120)
@given(
    st.integers(3, 10).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n - 1), st.integers(0, n - 1)))
)
def test_waiting_takes_exactly_until_his_big_blind(case):
    # An independent count: move the big blind one seat a hand over the players and his seat.
    count, seat, button = case
    if seat == button:
        return
    seats = _seats(count, seat)
    ruling = new_player_entry(seat, button=button, seats=seats, big_blind=10)
    active = [s for s in range(count) if seats[s]]
    order = sorted(active, key=lambda s: (s - button) % count)
    big = order[2] if len(active) > 2 else order[1]  # order[0] is the button
    hands, current = 0, big
    while current != seat:
        current = (current + 1) % count
        while current != seat and not seats[current]:
            current = (current + 1) % count
        hands += 1
    assert ruling.hands_to_big_blind == hands
    assert ruling.may_post_now == (not between(seat, button, big, count))


# --- who shows first: "the last player who bet or raised on the river shows first; if everybody checked
# the river, the first active player left of the button shows first" ---------------------------------


def test_the_last_aggressor_shows_first_then_clockwise():
    assert showdown_order([1, 4, 6], button=5, seats=8, last_aggressor=4) == (4, 6, 1)
    _order, steps = explain_order([1, 4, 6], button=5, seats=8, last_aggressor=4)
    assert [str(s) for s in steps] == [
        "Seat 5 made the last bet or raise on the river.",
        "Seat 5 shows first; the others follow clockwise.",
    ]


def test_everybody_checked_the_first_left_of_the_button_shows():
    assert showdown_order([1, 4, 6], button=5, seats=8, last_aggressor=None) == (6, 1, 4)
    assert showdown_order([1, 4, 6], button=6, seats=8, last_aggressor=None) == (1, 4, 6)


def test_side_pot_showdown_the_all_in_player_shows_first():
    # Issue 15: "in a side-pot showdown the all-in player" shows first (the house default).
    chips = [0, 30, 0, 0, 100, 0, 100, 0]
    assert showdown_order([1, 4, 6], button=5, seats=8, last_aggressor=6, contributions=chips) == (1, 6, 4)
    # Two all-ins: the one all-in for the least first.
    chips = [0, 30, 0, 0, 100, 0, 60, 0]
    assert showdown_order([1, 4, 6], button=0, seats=8, last_aggressor=None, contributions=chips) == (1, 6, 4)


def test_roberts_rules_show_the_side_pot_first():
    # Robert's Rules: "players involved in the side pot should show their hands before anyone who is
    # all-in for only the main pot" (the house option side_pots = "side_pot_first").
    chips = [0, 30, 0, 0, 100, 0, 100, 0]
    order, steps = explain_order(
        [1, 4, 6], button=5, seats=8, last_aggressor=6, contributions=chips, rules=ROBERTS
    )
    assert order == (6, 4, 1)
    assert "Order of showing: 7, 5, 2." in [str(s) for s in steps]


def test_showdown_order_errors():
    with pytest.raises(ValueError, match="not in the showdown"):
        showdown_order([1, 2], button=0, seats=4, last_aggressor=3)
    with pytest.raises(ValueError, match="at least two"):
        showdown_order([1], button=0, seats=4, last_aggressor=None)
    with pytest.raises(ValueError, match="listed twice"):
        showdown_order([1, 1], button=0, seats=4, last_aggressor=None)
    with pytest.raises(ValueError, match="one per seat"):
        showdown_order([1, 2], button=0, seats=4, last_aggressor=None, contributions=[1, 2])


# --- "A player may muck a losing hand." --------------------------------------------------------------

BOARD = "2c 7d 9h Jc Ks"
HOLES = ["Ah Ad 3c 4d", "Kd Kh 5c 6d", "Qs Qd 8c 8d", None]  # aces, three kings, queens


def test_a_beaten_hand_may_be_mucked_a_winner_must_show():
    rulings = muck_rulings(BOARD, HOLES, [0, 1, 2])
    assert [(r.seat, r.may_muck) for r in rulings] == [(0, False), (1, False), (2, True)]
    assert str(rulings[2].steps[0]) == "Seat 3's hand is beaten by a hand already shown: he may muck it."
    assert "he must show it to win his share" in str(rulings[1].steps[0])
    # Kings show first: the aces and the queens are both beaten.
    assert [r.may_muck for r in muck_rulings(BOARD, HOLES, [1, 0, 2])] == [False, True, True]


def test_a_tie_must_be_shown_to_share():
    # "A player may muck a losing hand": a tying hand is not a losing one. Both make kings with A-J-9
    # (A-K from the hand, K-J-9 from the board) and split the pot, so the second must show.
    holes = ["Ah Kd 3c 4d", "As Kc 5c 6d"]
    rulings = muck_rulings("2c 7d 9h Jc Ks", holes, [0, 1])
    assert showdown("2c 7d 9h Jc Ks", holes, [10, 10]) == [10, 10]
    assert not rulings[1].may_muck


def test_hi_lo_a_hand_beaten_high_but_with_the_best_low_shows():
    board = "2c 3d 8h Kc Ks"
    holes = ["Kd Qs Jc Jd", "Ah 4h 9c 9d", "Qh Qc 5c 6d"]  # trips; the best low; a worse low
    rulings = muck_rulings(board, holes, [0, 1, 2], hi_lo=True)
    assert [r.may_muck for r in rulings] == [False, False, True]
    assert "beaten, high and low" in str(rulings[2].steps[0])


def test_side_pots_a_hand_beaten_in_the_main_pot_may_still_win_the_side_pot():
    # "A player may muck a losing hand", pot by pot: seat 0, all-in for 30, shows three kings (best);
    # seats 1 and 2 are also in the side pot, where seat 2's queens beat seat 1's deuces. Seat 1 may
    # muck only once the queens are shown: the kings alone do not beat him in the side pot.
    holes = ["Kd Kh 5c 6d", "Ah 2d 3c 4d", "Qs Qd 8c 8d"]
    chips = [30, 100, 100]
    rulings = muck_rulings(BOARD, holes, [0, 1, 2], contributions=chips)
    assert [r.may_muck for r in rulings] == [False, False, False]
    rulings = muck_rulings(BOARD, holes, [0, 2, 1], contributions=chips)
    assert [r.may_muck for r in rulings] == [False, False, True]


def test_a_house_that_shows_every_hand():
    show_all = dataclasses.replace(STANDARD, muck_losing=False)
    rulings = muck_rulings(BOARD, HOLES, [0, 1, 2], rules=show_all)
    assert not any(r.may_muck for r in rulings)
    assert "shows every hand" in str(rulings[2].steps[0])


def test_the_standard_file_sets_the_options():
    assert STANDARD.new_player_may_post and STANDARD.new_player_waits_between
    assert STANDARD.side_pot_showing is SidePotShowing.ALL_IN_FIRST and STANDARD.muck_losing


def test_muck_exactly_when_the_shown_hands_leave_him_nothing():
    # "A player may muck a losing hand", checked against the pot engine: in random showdowns (high and
    # hi/lo, side pots, folded chips), a player may muck exactly when, with the hands shown before him
    # and his own, `showdown` pays him nothing. Chips are multiples of 600, so no share rounds to 0.
    rng = random.Random(15)
    checked = mucked = 0
    while checked < 600:
        live_count, seats = rng.randint(2, 6), rng.randint(6, 8)
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        board = deck[:5]
        live = rng.sample(range(seats), live_count)
        holes = [None] * seats
        for n, s in enumerate(live):
            holes[s] = deck[5 + 4 * n : 9 + 4 * n]
        chips = [rng.choice((600, 1200, 2400)) if s in live else rng.choice((0, 600)) for s in range(seats)]
        if [chips[s] for s in live].count(max(chips[s] for s in live)) < 2:
            continue  # an uncalled top bet: returned before the showdown
        hi_lo, order = rng.random() < 0.5, rng.sample(live, live_count)
        shown = [order[0]]
        for ruling in muck_rulings(board, holes, order, contributions=chips, hi_lo=hi_lo)[1:]:
            s = ruling.seat
            seen = [hole if t in shown or t == s else None for t, hole in enumerate(holes)]
            try:
                paid = showdown(board, seen, chips, hi_lo=hi_lo)[s]
            except ValueError:  # chips above every shown hand's level came only from unshown seats
                paid = None
            if paid is not None:
                assert ruling.may_muck == (paid == 0), (board, holes, order, chips, hi_lo, s)
                checked += 1
                mucked += ruling.may_muck
            if not ruling.may_muck:
                shown.append(s)
    assert 100 < mucked < 500
