"""Drills of issue 15's rules: each drawn situation is graded against the engine called directly."""

from trainer.drills import expected_of, issue
from trainer.engine.russian_poker import settle

SETTLING = ("rp.bet_payout", "rp.no_game", "rp.buy", "rp.settle")


def test_lunar_drills_always_stake_the_super():
    # Rule page, variants table: Lunar's "compulsory bets | ante and Super (at least the ante), on own
    # or dealer's hand".
    places = set()
    for kind in SETTLING:
        for level in (1, 2, 3):
            for seed in range(12):
                data = issue(kind, level, seed=seed, rules="lunar")["data"]
                assert data["super_bet"] >= data["ante"], (kind, level, seed)
                places.add(data["super_on_dealer"])
                s = settle(
                    data["player"],
                    data["dealer"],
                    data["ante"],
                    folded=data.get("folded", False),
                    exchanges=data.get("exchanges", 0),
                    rules="lunar",
                    dealt=data.get("dealt"),
                    super_bet=data["super_bet"],
                    super_on_dealer=data["super_on_dealer"],
                )
                expected = expected_of(issue(kind, level, seed=seed, rules="lunar"))[0]
                if isinstance(expected, dict) and "Super" in expected:
                    assert expected["Super"] == s.super_bet
    assert places == {True, False}  # on the player's own five and on the dealer's hand


def test_other_houses_stake_no_super():
    for kind in SETTLING:
        data = issue(kind, 2, seed=1)["data"]
        assert "super_bet" not in data
