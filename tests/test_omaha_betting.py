"""Omaha betting sizes and blinds: the rule page's examples, hand-made tables, PokerKit's pot limit."""

from __future__ import annotations

import random
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trainer.engine.omaha.betting import (
    BlindPost,
    MissedBlinds,
    OmahaRules,
    Street,
    limit_bet_size,
    limit_cap,
    limit_raise_to,
    load_rules,
    missed_blinds_post,
    no_limit_min_raise_to,
    post_blinds,
    pot_limit_max,
)

# ---------------------------------------------------------------------------------------------------
# Pot limit


@pytest.mark.parametrize(
    ("pot", "to_call", "stack", "most"),
    [
        (200, 100, None, 400),  # rule page: pot 100, X bets 100 -> Y may raise to 400
        (150, 50, None, 250),  # rule page: pot 100, bet 50 -> 250
        (15, 10, None, 35),  # rule page: blinds 5/10, first to act -> 35
        (100, 0, None, 100),  # no bet yet: a pot-sized bet
        (20, 5, None, 30),  # small blind completing pre-flop at 5/10 (pot 20 after the limp): 5 + 25
        (60, 30, None, 120),
        (200, 100, 250, 250),  # capped by the stack: all-in
        (200, 100, 400, 400),
    ],
)
def test_pot_limit_max(pot, to_call, stack, most):
    assert pot_limit_max(pot, to_call, stack=stack) == most


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((-1, 0), "the pot must be zero or more"),
        ((10, -1), "the amount to call must be zero or more"),
        ((10, 20), "cannot exceed the pot"),
        ((10.5, 0), "whole number"),
    ],
)
def test_pot_limit_rejects(args, message):
    with pytest.raises(ValueError, match=message):
        pot_limit_max(*args)


def test_pot_limit_agrees_with_pokerkit():
    """PokerKit's pot-limit raise-to is its own bet plus P + 2C, capped by the stack (notes)."""
    # Imported here, not when the suite is collected: PokerKit builds its tables on import (0.6 s).
    from pokerkit import Automation, Mode, PotLimitOmahaHoldem

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
        Automation.RUNOUT_COUNT_SELECTION,
    )
    rng = random.Random(5)
    checked = 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # so `can_fold` is False when a check is possible
        for _ in range(150):
            n = rng.randint(2, 6)
            stacks = [rng.randint(5, 400) for _ in range(n)]
            state = PotLimitOmahaHoldem.create_state(
                automations, False, 0, (5, 10), 10, stacks, n, mode=Mode.CASH_GAME
            )
            while state.status and state.actor_index is not None:
                actor = state.actor_index
                if state.can_complete_bet_or_raise_to():
                    pot = sum(p.amount for p in state.pots) + sum(state.bets)
                    to_call = max(state.bets) - state.bets[actor]
                    ours = state.bets[actor] + pot_limit_max(pot, to_call, stack=state.stacks[actor])
                    assert ours == state.max_completion_betting_or_raising_to_amount
                    checked += 1
                roll = rng.random()
                if roll < 0.1 and state.can_fold():
                    state.fold()
                elif roll < 0.5 or not state.can_complete_bet_or_raise_to():
                    state.check_or_call()
                else:
                    low = state.min_completion_betting_or_raising_to_amount
                    state.complete_bet_or_raise_to(
                        rng.randint(low, state.max_completion_betting_or_raising_to_amount)
                    )
    assert checked > 500


# ---------------------------------------------------------------------------------------------------
# Limit


@pytest.mark.parametrize(
    ("street", "size"), [("preflop", 5), ("flop", 5), ("turn", 10), ("river", 10), (Street.TURN, 10)]
)
def test_limit_bet_size(street, size):
    assert limit_bet_size(street, 5, 10) == size


@pytest.mark.parametrize(
    ("street", "bets_made", "players", "raise_to"),
    [
        ("preflop", 1, 6, 10),  # the big blind is the bet: a raise makes it 10
        ("preflop", 2, 6, 15),
        ("preflop", 3, 6, 20),  # cap: one bet and three raises = 4 bets
        ("preflop", 4, 6, None),
        ("flop", 0, 3, 5),
        ("flop", 3, 3, 20),
        ("flop", 4, 3, None),
        ("turn", 0, 4, 10),
        ("turn", 2, 4, 30),
        ("river", 4, 4, None),
        ("river", 4, 2, 50),  # heads-up: no cap
        ("river", 9, 2, 100),
        ("preflop", 6, 2, 35),
    ],
)
def test_limit_raise_to(street, bets_made, players, raise_to):
    assert limit_raise_to(street, 5, 10, bets_made=bets_made, players=players) == raise_to


def test_limit_cap_follows_the_house_rules(tmp_path):
    assert limit_cap(5) == 4 and limit_cap(2) is None
    strict = OmahaRules("strict", raises_per_round=2, uncapped_heads_up=False, small_only_posts_dead=True)
    assert limit_cap(2, strict) == 3
    assert limit_raise_to("turn", 5, 10, bets_made=3, players=2, rules=strict) is None
    path = tmp_path / "five.toml"
    path.write_text(
        'base = "standard"\n[limit]\nraises_per_round = 5\nuncapped_heads_up = false\n'
        "[missed_blinds]\nsmall_only_posts_dead = false\n"
    )
    assert limit_cap(2, load_rules(path)) == 6


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"street": "showdown"}, "unknown street 'showdown'"),
        ({"small_bet": 0}, "the small bet must be positive"),
        ({"big_bet": 4}, "cannot be smaller than the small bet"),
        ({"bets_made": -1}, "bets made must be a whole number"),
        ({"street": "preflop", "bets_made": 0}, "big blind is already the bet"),
        ({"bets_made": 5}, "5 bets in a round capped at 4"),
        ({"players": 1}, "at least 2 players"),
        ({"players": 11}, "2 to 10 players, not 11"),
    ],
)
def test_limit_rejects(kwargs, message):
    args = {"street": "flop", "small_bet": 5, "big_bet": 10, "bets_made": 1, "players": 4} | kwargs
    with pytest.raises(ValueError, match=message):
        limit_raise_to(args.pop("street"), args.pop("small_bet"), args.pop("big_bet"), **args)


# ---------------------------------------------------------------------------------------------------
# No limit


@pytest.mark.parametrize(
    ("bets", "big_blind", "least"),
    [
        ([], 10, 10),  # a bet is at least the big blind
        ([10], 10, 20),  # pre-flop: the big blind is the bet; a raise is at least 10 more
        ([10, 30], 10, 50),  # raised by 20: the next raise is at least 20 more
        ([10, 30, 100], 10, 170),
        ([25], 10, 50),  # a bet of 25 post-flop: raise to at least 50
        ([100, 150], 10, 250),  # a short all-in raise of 50 does not lower the minimum raise (100)
        ([100, 150, 300], 10, 450),
        ([4], 10, 14),  # an all-in bet below the big blind: a raise is at least the big blind more
    ],
)
def test_no_limit_min_raise(bets, big_blind, least):
    assert no_limit_min_raise_to(bets, big_blind) == least


def test_no_limit_rejects():
    with pytest.raises(ValueError, match="more than the one before: 20 after 30"):
        no_limit_min_raise_to([10, 30, 20], 10)
    with pytest.raises(ValueError, match="the big blind must be positive"):
        no_limit_min_raise_to([], 0)


@given(st.lists(st.integers(1, 500), max_size=6, unique=True), st.integers(1, 50))
def test_no_limit_min_raise_is_a_full_raise(raises, big_blind):
    bets = sorted(raises)
    least = no_limit_min_raise_to(bets, big_blind)
    previous = bets[-1] if bets else 0
    increments = [b - a for a, b in zip([0, *bets], bets, strict=False)]
    assert least - previous == max([big_blind, *increments])


# ---------------------------------------------------------------------------------------------------
# Blinds


@pytest.mark.parametrize(
    ("button", "stacks", "small", "big", "posted", "all_in", "first_pre", "first_post"),
    [
        # Six seats, button 0: blinds 1 and 2, seat 3 acts first pre-flop, seat 1 after the flop.
        (0, [100] * 6, 1, 2, (0, 5, 10, 0, 0, 0), (), 3, 1),
        # Wrapping round the table: button 4 of 6 -> blinds 5 and 0.
        (4, [100] * 6, 5, 0, (10, 0, 0, 0, 0, 5), (), 1, 5),
        # Empty seats are skipped.
        (0, [100, None, None, 100, None, 100], 3, 5, (0, 0, 0, 5, 0, 10), (), 0, 3),
        # Three players: the button acts first pre-flop.
        (1, [100, 100, 100], 2, 0, (10, 0, 5), (), 1, 2),
        # Heads-up: the button posts the small blind and acts first pre-flop, last after the flop.
        (0, [50, 50], 0, 1, (5, 10), (), 0, 1),
        (3, [None, 80, None, 40], 3, 1, (0, 10, 0, 5), (), 3, 1),
        # A player who cannot cover his blind posts what he has and is all-in.
        (2, [100, None, 100, 100, 3], 3, 4, (0, 0, 0, 5, 3), (4,), 0, 3),
        (0, [100, 4, 100], 1, 2, (0, 4, 10), (1,), 0, 1),
        (0, [100, 5, 10], 1, 2, (0, 5, 10), (1, 2), 0, 1),
    ],
)
def test_post_blinds(button, stacks, small, big, posted, all_in, first_pre, first_post):
    blinds = post_blinds(button, stacks, 5, 10)
    assert (blinds.small, blinds.big, blinds.posted, blinds.all_in) == (small, big, posted, all_in)
    assert (blinds.first_preflop, blinds.first_postflop) == (first_pre, first_post)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((1, [100, None, 100], 5, 10), "the button is on seat 1, which is empty"),
        ((3, [100, 100, 100], 5, 10), "button seat 3 is not a seat"),
        ((0, [100, None], 5, 10), "at least 2 players, 1 seated"),
        ((0, [100] * 11, 5, 10), "2 to 10 players, 11 seated"),
        ((0, [100, 0], 5, 10), "seat 1's stack must be positive"),
        ((0, [100, 100], 10, 5), "small blind \\(10\\) cannot exceed the big blind"),
        ((0, [100, 100], 0, 5), "the small blind must be positive"),
    ],
)
def test_post_blinds_rejects(args, message):
    with pytest.raises(ValueError, match=message):
        post_blinds(*args)


@pytest.mark.parametrize(
    ("missed", "post"),
    [
        ("both", BlindPost(10, 5)),  # big blind live plus the small blind dead
        # The rule document (omaha.ka.txt l.43): missing the big blind he sits out the small blind too.
        ("big", BlindPost(10, 5)),
        (MissedBlinds.SMALL, BlindPost(0, 5)),  # Robert's Rules: the small blind dead
        ("none", BlindPost(0, 0)),
    ],
)
def test_missed_blinds(missed, post):
    assert missed_blinds_post(missed, 5, 10) == post
    assert missed_blinds_post(missed, 5, 10).total == post.live + post.dead


def test_missed_small_blind_follows_the_house_rules():
    lenient = OmahaRules("lenient", raises_per_round=3, uncapped_heads_up=True, small_only_posts_dead=False)
    assert missed_blinds_post("small", 5, 10, lenient) == BlindPost(0, 0)
    with pytest.raises(ValueError, match="unknown missed blinds 'all'"):
        missed_blinds_post("all", 5, 10)


def test_load_rules_names_the_file_and_key(tmp_path):
    assert load_rules("standard") == load_rules()
    with pytest.raises(ValueError, match=r"Omaha rules: no preset 'nonexistent' \(have: standard"):
        load_rules("nonexistent")
    bad = tmp_path / "bad.toml"
    bad.write_text("[limit]\nraises_per_round = -1\nuncapped_heads_up = true\n")
    with pytest.raises(
        ValueError, match=r"bad\.toml: key 'limit\.raises_per_round': expected a whole number >= 0, got -1"
    ):
        load_rules(bad)
    bad.write_text("[limit]\nraises_per_round = 3\n")
    with pytest.raises(ValueError, match=r"bad\.toml: key 'limit\.uncapped_heads_up': missing"):
        load_rules(bad)
    bad.write_text("[limit\n")
    with pytest.raises(ValueError, match="not valid TOML"):
        load_rules(bad)
