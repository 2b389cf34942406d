"""Spot-the-mistake sheets worked out by hand (`trainer.drills.spot`), shared by the spot tests and the
mistake-catalogue tests: (kind, the sheet's data, the right answer, {mistake id: the answer it gives})."""

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
