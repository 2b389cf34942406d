"""Spot-the-mistake sheets (`trainer.drills.spot`) and chip drills (`trainer.drills.chip_skills`)
worked out by hand, shared by their tests and the mistake-catalogue tests: (kind, the data, the right
answer, {mistake id: the answer it gives})."""

from __future__ import annotations

from typing import Any


def _cards(text: str) -> list[str]:
    return text.split()


def _box(player: str, dealer: str) -> dict[str, Any]:
    return {"rules": "cis", "ante": 10, "player": _cards(player), "dealer": _cards(dealer), "folded": False}


def _hand(kind: str, data: dict[str, Any], *shown: int) -> dict[str, Any]:
    return {"kind": kind, "data": data, "shown": list(shown)}


# Box 1: two pair beats the dealer's ace-king on ante 10: ante 0, bet 20 x 2 = 40, net 40; given 60
# (the stake counted in the win). Box 2: the dealer's Q-J high is no game: the ante pays 1 to 1, the bet
# comes back: net 10; given 10, right.
TWO_PAIR = _box("Jh Jd 4s 4c 9h", "As Kd 7c 5h 2d")
NO_GAME = _box("Kh Kd 7s 4c 2h", "Qs Jd 7c 5h 2d")
RP_ONE = {"rules": "cis", "hands": [_hand("rp.settle", TWO_PAIR, 60), _hand("rp.settle", NO_GAME, 10)]}
# The same boxes, the second given 0 (the ante not paid when the dealer has no game): two wrong.
RP_TWO = {"rules": "cis", "hands": [_hand("rp.settle", TWO_PAIR, 60), _hand("rp.settle", NO_GAME, 0)]}

# Hi/lo, pot 95 (seat 4 folded 5): high to seat 2's three kings (48 with the odd chip), low to seat 1's
# 8-5-3-2-A (47); given the whole pot to the high hand.
HILO = {
    "board": _cards("2c 5d 8h Kc Ks"),
    "holes": [_cards("Ah 3h Qd Qs"), _cards("Kd Jh Jc 9d"), _cards("4c 6d 7s 6s"), None],
    "contributions": [30, 30, 30, 5],
    "button": 0,
    "chip": 1,
}
OM_ONE = {"hands": [_hand("om.split", HILO, 0, 95, 0, 0)]}
# No low: seats 1 and 2 tie with aces and kings for 45 (seat 3 folded 5): 22 each, the odd chip to the
# first of them left of the button (seat 3), seat 1: 23; given to seat 2. With the hi/lo pot: two wrong.
TIE = {
    "board": _cards("Kc Kd Qh Js 9s"),
    "holes": [_cards("Ah As 2c 3d"), _cards("Ad Ac 4c 5d"), None],
    "contributions": [20, 20, 5],
    "button": 2,
    "chip": 1,
}
OM_TWO = {"hands": [_hand("om.split", HILO, 0, 95, 0, 0), _hand("om.split", TIE, 22, 23, 0)]}

# Painted poker (classic): bid 3, took 1: -10 x 2 missing = -20, given 30 (scored as made); bid 2,
# took 4: 1 a trick = 4, given 4; a pass made: 5, given 5.
PP_ONE = {
    "rules": "classic",
    "hands": [
        _hand(
            "pp.score",
            {"rules": "classic", "players": 4, "deal": "normal", "cards": 5, "bid": 3, "took": 1},
            30,
        ),
        _hand(
            "pp.score",
            {"rules": "classic", "players": 4, "deal": "normal", "cards": 5, "bid": 2, "took": 4},
            4,
        ),
        _hand(
            "pp.score",
            {"rules": "classic", "players": 4, "deal": "normal", "cards": 5, "bid": 0, "took": 0},
            5,
        ),
    ],
}

# The same sheet with the made pass given 0 (a made pass not scored): two wrong.
PP_TWO = {"rules": "classic", "hands": [*PP_ONE["hands"][:2], {**PP_ONE["hands"][2], "shown": [0]}]}

SPOT_CASES: list[tuple[str, dict[str, Any], Any, dict[str, Any]]] = [
    (
        "rp.spot_mistake",
        RP_ONE,
        {"Hand 1 Net": 40, "Hand 2 Net": 10},
        {
            "rp.spot_all_missed": {"Hand 1 Net": 60, "Hand 2 Net": 10},
            # Caught, but corrected with the stakes in the net (70) or the ante paid too (50).
            "rp.spot_miscorrected": {"Hand 1 Net": 70, "Hand 2 Net": 10},
        },
    ),
    (
        "rp.spot_mistake",
        RP_TWO,
        {"Hand 1 Net": 40, "Hand 2 Net": 10},
        {
            "rp.spot_all_missed": {"Hand 1 Net": 60, "Hand 2 Net": 0},
            "rp.spot_one_missed": {"Hand 1 Net": 40, "Hand 2 Net": 0},
        },
    ),
    (
        "om.spot_mistake",
        OM_ONE,
        {"Hand 1 Seat 1": 47, "Hand 1 Seat 2": 48, "Hand 1 Seat 3": 0, "Hand 1 Seat 4": 0},
        {
            "om.spot_all_missed": {
                "Hand 1 Seat 1": 0,
                "Hand 1 Seat 2": 95,
                "Hand 1 Seat 3": 0,
                "Hand 1 Seat 4": 0,
            },
            # Caught, but the odd chip then given to the low half.
            "om.spot_miscorrected": {
                "Hand 1 Seat 1": 48,
                "Hand 1 Seat 2": 47,
                "Hand 1 Seat 3": 0,
                "Hand 1 Seat 4": 0,
            },
        },
    ),
    (
        "pp.spot_mistake",
        PP_ONE,
        {"Hand 1": -20, "Hand 2": 4, "Hand 3": 5},
        {
            "pp.spot_all_missed": {"Hand 1": 30, "Hand 2": 4, "Hand 3": 5},
            # Caught, but the penalty written as a plus, or counted on the whole bid.
            "pp.spot_miscorrected": {"Hand 1": 20, "Hand 2": 4, "Hand 3": 5},
        },
    ),
    (
        "om.spot_mistake",
        OM_TWO,
        {"Hand 1 Seat 1": 47, "Hand 1 Seat 2": 48, "Hand 1 Seat 3": 0, "Hand 1 Seat 4": 0}
        | {"Hand 2 Seat 1": 23, "Hand 2 Seat 2": 22, "Hand 2 Seat 3": 0},
        {
            "om.spot_one_missed": {"Hand 1 Seat 1": 47, "Hand 1 Seat 2": 48, "Hand 1 Seat 3": 0}
            | {"Hand 1 Seat 4": 0, "Hand 2 Seat 1": 22, "Hand 2 Seat 2": 23, "Hand 2 Seat 3": 0},
        },
    ),
    (
        "pp.spot_mistake",
        PP_TWO,
        {"Hand 1": -20, "Hand 2": 4, "Hand 3": 5},
        {
            "pp.spot_all_missed": {"Hand 1": 30, "Hand 2": 4, "Hand 3": 0},
            "pp.spot_one_missed": {"Hand 1": -20, "Hand 2": 4, "Hand 3": 0},
        },
    ),
]


def _counts(chip_set: str, **counts: int) -> dict[str, int]:
    labels = {"standard": (5000, 1000, 500, 100, 25, 5), "poker-room": (1000, 500, 100, 25, 5, 1)}[chip_set]
    return {str(v): counts.get(f"c{v}", 0) for v in labels}


def _stacks(*pairs: tuple[int, int]) -> list[dict[str, int]]:
    return [{"value": v, "count": n} for v, n in pairs]


CHIP_CASES: list[tuple[str, dict[str, Any], Any, dict[str, Any]]] = [
    # 1,430 in the standard set: 1 x 1000 + 4 x 100 + 1 x 25 + 1 x 5 (7 chips). Without the 1000:
    # 2 x 500; without the 100s: 17 x 25; one 5 short or over.
    (
        "rp.chip_change",
        {"chip_set": "standard", "amount": 1430, "task": "payout"},
        _counts("standard", c1000=1, c100=4, c25=1, c5=1),
        {
            "chips.bigger_chip_unused": _counts("standard", c500=2, c100=4, c25=1, c5=1),
            "chips.one_chip_short": _counts("standard", c1000=1, c100=4, c25=1),
            "chips.one_chip_over": _counts("standard", c1000=1, c100=4, c25=1, c5=2),
        },
    ),
    # 772 in the poker-room set: 1 x 500 + 2 x 100 + 2 x 25 + 4 x 5 + 2 x 1; without the 500: 7 x 100.
    (
        "om.chip_change",
        {"chip_set": "poker-room", "amount": 772, "task": "buy_in"},
        _counts("poker-room", c500=1, c100=2, c25=2, c5=4, c1=2),
        {
            "chips.bigger_chip_unused": _counts("poker-room", c100=7, c25=2, c5=4, c1=2),
            "chips.one_chip_short": _counts("poker-room", c500=1, c100=2, c25=2, c5=4, c1=1),
            "chips.one_chip_over": _counts("poker-room", c500=1, c100=2, c25=2, c5=4, c1=3),
        },
    ),
    # 12 x 5 + 4 x 25 = 160: 1 x 100 + 2 x 25 + 2 x 5. Handed back as they were; or the reds only
    # coloured up (10 x 5 make 2 x 25: 6 x 25 + 2 x 5); or one 5 short.
    (
        "rp.colour_up",
        {"chip_set": "standard", "stacks": _stacks((5, 12), (25, 4)), "task": "colour_up"},
        _counts("standard", c100=1, c25=2, c5=2),
        {
            "chips.not_coloured_up": _counts("standard", c25=4, c5=12),
            "chips.one_colour_up": _counts("standard", c25=6, c5=2),
            "chips.one_chip_short": _counts("standard", c100=1, c25=2, c5=1),
        },
    ),
    # 13 x 1 + 6 x 5 + 3 x 25 = 118 in the poker-room set: 1 x 100 + 3 x 5 + 3 x 1.
    (
        "om.colour_up",
        {"chip_set": "poker-room", "stacks": _stacks((1, 13), (5, 6), (25, 3)), "task": "colour_up"},
        _counts("poker-room", c100=1, c5=3, c1=3),
        {
            "chips.not_coloured_up": _counts("poker-room", c25=3, c5=6, c1=13),
            "chips.one_colour_up": _counts("poker-room", c25=3, c5=8, c1=3),
            "chips.one_chip_over": _counts("poker-room", c100=1, c5=3, c1=4),
        },
    ),
    # 7 x 25 + 4 x 100 = 575. The greens taken for blacks: 700 + 400 = 1,100; the greens left out: 400;
    # one green too many: 600.
    (
        "rp.chip_count",
        {"chip_set": "standard", "stacks": _stacks((25, 7), (100, 4)), "task": "count"},
        575,
        {"chips.wrong_colour": 1100, "chips.stack_left_out": 400, "chips.chip_miscounted": 600},
    ),
    # 9 x 1 + 5 x 5 + 6 x 500 = 3,034 in the poker-room set. The blues taken for reds: 3,070.
    (
        "om.chip_count",
        {"chip_set": "poker-room", "stacks": _stacks((1, 9), (5, 5), (500, 6)), "task": "count"},
        3034,
        {"chips.wrong_colour": 3070, "chips.stack_left_out": 3025, "chips.chip_miscounted": 3035},
    ),
    # The rule page's box paid in chips: two pair beats ace-king on ante 10, the bet 20 wins 40: 1 x 25
    # + 3 x 5. The stake counted in the win: 60 (2 x 25 + 2 x 5); the odds on the ante: 20 (4 x 5); the
    # green not used: 8 x 5.
    (
        "rp.pay_box",
        TWO_PAIR | {"chip_set": "standard"},
        _counts("standard", c25=1, c5=3),
        {
            "rp.stake_in_payout": _counts("standard", c25=2, c5=2),
            "rp.odds_on_ante": _counts("standard", c5=4),
            "chips.bigger_chip_unused": _counts("standard", c5=8),
            "chips.one_chip_short": _counts("standard", c25=1, c5=2),
        },
    ),
]
