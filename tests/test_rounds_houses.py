"""Rounds at the live table under every house the loader accepts: Lunar (compulsory Super, two
combinations, instant payouts), Caribbean (no buys, the ante paid when the player wins), Georgian joker
(4 players, the black sixes as jokers) and a group's edited copy of a preset. Every step of a few dozen
seeded rounds is graded against the engines called on the table the step shows, not on the round's
own facts."""

import random
from collections import Counter

import pytest
from test_rounds_omaha import oracle as omaha_oracle
from test_rounds_painted import changed as painted_changed
from test_rounds_painted import oracle as painted_oracle
from test_rounds_russian import wrong

from trainer.drills import rounds as rounds_module
from trainer.drills.chips import load_chips
from trainer.drills.houses import in_use, using
from trainer.drills.rounds import RoundError, deal, dealt_presets, grade_step
from trainer.drills.russian_poker import players
from trainer.drills.russian_poker import round as rp_round
from trainer.engine.cards import FULL_DECK, Deck, parse_cards
from trainer.engine.omaha.betting import load_rules as omaha_rules
from trainer.engine.presets import HouseTexts
from trainer.engine.russian_poker import (
    Category,
    dealer_qualifies,
    evaluate,
    load_rules,
    replaced_card,
    settle,
    super_combinations,
)
from trainer.games import BY_ID

CHIPS = load_chips()


def russian(rules, levels=(1, 2, 3), seeds=range(20), **options):
    for level in levels:
        for seed in seeds:
            yield deal("russian_poker", level, seed, rules=rules, **options)


def focus_box(table):
    return next(b for b in table["boxes"] if b["box"] == table["focus"])


def super_result(box, dealer, rules):
    """The Super on its own: the best row of the house's table the five cards make, else lost."""
    if not box["super"]:
        return 0
    five = dealer if box["super_on_dealer"] else (box.get("dealt") or box["cards"][:5])
    odds = max((rules.super_odds.get(row, 0) for row in super_combinations(five)), default=0)
    return odds * box["super"] if odds else -box["super"]


def russian_oracle(s, payout="amount"):
    """The expected answer from the engine and the table the step shows alone."""
    table = s.table
    rules = load_rules(table["rules"], in_use())
    if s.kind == "rp.fee":
        return rules.buy_cost_antes * focus_box(table)["ante"]
    if s.kind == "rp.game":
        return "yes" if dealer_qualifies(table["dealer"]["cards"]) else "no"
    if s.kind == "rp.replaced":
        return [str(replaced_card(table["dealer"]["cards"], rules))]
    box = focus_box(table)
    instant = box["status"] == "instant"
    folded = box["status"] == "folded"
    # An instant payout is settled before the dealer opens: his cards do not count, any five will do.
    dealer = (
        table["dealer"]["cards"]
        or [c for c in ("2c", "3d", "4h", "5s", "7c", "8d", "9h", "Ts") if c not in box["cards"]][:5]
    )
    ruling = settle(
        box["cards"],
        dealer,
        box["ante"],
        bonus=box["bonus"],
        folded=folded,
        exchanges=1 if box["buy"] == "exchange" and not folded else 0,
        buy_game_card=box["game_card"],
        dealt=box.get("dealt"),
        super_bet=box["super"],
        super_on_dealer=box["super_on_dealer"],
        rules=rules,
    )
    assert ruling.super_bet == super_result(box, dealer, rules)
    if instant:
        category = evaluate(box["cards"]).category
        assert ruling.ante == rules.instant_odds[category] * box["ante"] and ruling.bet == 0
    if s.kind == "rp.results":
        values = {"Ante": ruling.ante} if folded else {"Ante": ruling.ante, "Bet": ruling.bet}
        if box["bonus"]:
            values["Bonus"] = ruling.bonus
        if box["super"]:
            values["Super"] = ruling.super_bet
        return values
    assert s.kind == "rp.payout"
    win = sum(v for v in (ruling.ante, ruling.bet, ruling.bonus, ruling.super_bet) if v > 0)
    return CHIPS.fewest(win) if payout == "chips" else win


def grade_all(r, seen):
    for i, s in enumerate(r.steps):
        want = russian_oracle(s)
        seen[s.kind] += 1
        assert grade_step(r, i, want).correct, (r.rules, r.level, r.seed, i, s.kind, want)
        assert not grade_step(r, i, wrong(want)).correct


def test_every_shipped_preset_is_dealt():
    for game in ("russian_poker", "omaha", "painted_poker"):
        assert dealt_presets(game) == BY_ID[game].preset_names()


def test_lunar_rounds():
    """Lunar: a Super of at least the ante on every box, settled on the first five (or the dealer's
    hand) whether the box bets or folds; two combinations paid; no bonus, no buying the game."""
    seen = Counter()
    lunar = load_rules("lunar")
    for r in russian("lunar", seeds=range(30)):
        grade_all(r, seen)
        for box in r.end_table["boxes"]:
            assert box["super"] >= lunar.super_min_antes * box["ante"] and box["bonus"] == 0
            seen["on dealer" if box["super_on_dealer"] else "on own box"] += 1
            seen["super won" if box["result"]["super"] > 0 else "super lost"] += 1
            seen["folded"] += box["status"] == "folded"
        for s in r.steps:
            if (
                s.kind == "rp.results"
                and s.table["dealer"]["open"]
                and focus_box(s.table)["status"] != "folded"
            ):
                box = focus_box(s.table)
                pay = settle(
                    box["cards"],
                    s.table["dealer"]["cards"],
                    box["ante"],
                    exchanges=1 if box["buy"] == "exchange" else 0,
                    dealt=box.get("dealt"),
                    super_bet=box["super"],
                    super_on_dealer=box["super_on_dealer"],
                    rules="lunar",
                )
                seen["two combinations"] += pay.second is not None
        kinds = [s.kind for s in r.steps]
        assert "rp.replaced" not in kinds and "rp.insurance" not in kinds
    for key in ("on dealer", "on own box", "super won", "super lost", "folded", "rp.fee", "rp.payout"):
        assert seen[key] >= 3, (key, seen)
    assert seen["two combinations"] >= 1, seen


def test_a_folded_lunar_box_is_asked_only_its_super():
    asked = 0
    for r in russian("lunar", levels=(2, 3), seeds=range(15)):
        for s in r.steps:
            if s.kind == "rp.results" and focus_box(s.table)["status"] == "folded":
                asked += 1
                labels = [str(label) for label in s.answer_format.labels]
                assert labels == ["Ante", "Super"] and "folded" in str(s.question)
    assert asked >= 5


class RoyalFirst(Deck):
    """A deck that deals a royal flush to the first box (after the dealer's five)."""

    def __init__(self, rng):
        super().__init__(rng)
        royal = parse_cards("As Ks Qs Js Ts")
        rest = [c for c in self._cards if c not in royal]
        self._cards[:] = [*rest[:5], *royal, *rest[5:]]  # the dealer's five, then box 1's


def test_lunar_instant_payout(monkeypatch):
    """A dealt royal flush is paid at once (1,000 to 1 on the ante) with its Super on its own five,
    before the dealer opens; the box then takes no further part."""
    monkeypatch.setattr(rp_round, "Deck", RoyalFirst)
    rounds_module._deal.cache_clear()
    try:
        for seed in range(6):
            r = rounds_module._deal("russian_poker", 2, 900 + seed, 3, "lunar", "amount")
            assert focus_box(r.steps[0].table)["box"] == r.end_table["boxes"][0]["box"]
            first = r.steps[0]
            box = focus_box(first.table)
            assert first.kind == "rp.results" and box["status"] == "instant" and box["cards"]
            assert not first.table["dealer"]["open"] and "instant payout" in str(first.question)
            assert evaluate(box["cards"]).category is Category.ROYAL_FLUSH
            want = russian_oracle(first)
            assert want["Ante"] == 1000 * box["ante"] and want["Bet"] == 0
            assert want["Super"] == 150 * box["super"]  # a same colored straight
            seen = Counter()
            grade_all(r, seen)
            assert r.steps[1].kind == "rp.payout"
            later = [s for s in r.steps[2:] if s.table["focus"] == box["box"]]
            assert not later  # paid at once: nothing more is asked about that box
    finally:
        rounds_module._deal.cache_clear()


def test_caribbean_rounds():
    """Caribbean: no exchange, sixth card or bought game (no fee is ever asked); the ante pays 1 to 1
    when the player beats a qualifying dealer; the bet by its pay table."""
    seen = Counter()
    for r in russian("caribbean", seeds=range(30)):
        grade_all(r, seen)
        kinds = {s.kind for s in r.steps}
        assert kinds <= {"rp.game", "rp.results", "rp.payout"}
        for s in r.steps:
            if s.kind == "rp.results":
                want = russian_oracle(s)
                if want["Bet"] > 0:
                    assert want["Ante"] == focus_box(s.table)["ante"]
                    seen["ante paid"] += 1
    assert seen["ante paid"] >= 5 and seen["rp.payout"] >= 10


def test_georgian_joker_rounds():
    """Georgian joker seats exactly 4 players (the level's other counts are brought to 4, a table of
    5 asked for is refused) and plays the black sixes as jokers."""
    seen = Counter()
    for level in (1, 2, 3):
        for seed in range(30):
            r = deal("painted_poker", level, seed, rules="georgian-joker")
            assert r.seats == 4 and r.end_table["players"] == 4
            for i, s in enumerate(r.steps):
                want = painted_oracle(s)
                seen[s.kind] += 1
                assert grade_step(r, i, want).correct, (level, seed, i, s.kind, want)
                assert not grade_step(r, i, painted_changed(s, want)).correct
                seen["joker"] += any(p["play"][:2] in ("6s", "6c") for p in s.table.get("trick", []))
    assert seen["pp.scores"] == 90 and seen["joker"] >= 5, seen
    for seats in (3, 5, 6):
        with pytest.raises(RoundError):
            deal("painted_poker", 1, 1, seats=seats, rules="georgian-joker")


@pytest.fixture
def house_folder():
    """Edited copies, handed over as text and held for the test (`using`): Russian poker CIS with a
    full house paying 9, a Lunar copy with an optional Super, Omaha with two raises a round, painted
    poker for 4 to 5 players. Nothing is written to a file, and nothing outlives the test."""
    copies = {}
    texts = {}

    def write(game, base, name, replace):
        text = (BY_ID[game].rules_folder / f"{base}.toml").read_text()
        for old, new in replace:
            assert old in text, old
            text = text.replace(old, new, 1)
        texts[BY_ID[game].slug, name] = text
        copies.setdefault((game, base), name)  # the first copy of a preset

    write("russian_poker", "cis", "house-00000000c150", [("full_house = 7,", "full_house = 9,")])
    write("russian_poker", "lunar", "house-00000000111a", [("compulsory = true", "compulsory = false")])
    sixth = '"Buys".\nallowed = true'
    write("russian_poker", "cis", "house-0000000005e6", [(sixth, '"Buys".\nallowed = false')])
    write("omaha", "standard", "house-000000000a1a", [("raises_per_round = 3", "raises_per_round = 2")])
    write("painted_poker", "classic", "house-0000000000cc", [("min = 2\nmax = 6", "min = 2\nmax = 5")])
    with using(HouseTexts(texts)):
        yield copies


def test_edited_copies_are_dealt_under_their_own_rules(house_folder):
    seen = Counter()
    cis9 = house_folder["russian_poker", "cis"]
    for r in russian(cis9, seeds=range(25)):
        assert r.rules == cis9
        grade_all(r, seen)
        for s in r.steps:
            if s.kind == "rp.results" and s.table["dealer"]["open"]:
                box = focus_box(s.table)
                hand = evaluate(box["cards"]).category
                want = russian_oracle(s)
                if hand is Category.FULL_HOUSE and want["Bet"] > 0:
                    assert want["Bet"] == 9 * 2 * box["ante"]
                    seen["full house paid 9"] += 1
    assert seen["rp.fee"] >= 10
    optional = house_folder["russian_poker", "lunar"]
    staked = Counter()
    for r in russian(optional, seeds=range(20)):
        grade_all(r, seen)
        for box in r.end_table["boxes"]:
            staked[bool(box["super"])] += 1
    assert staked[True] >= 5 and staked[False] >= 5  # an optional Super: some boxes stake none
    # Omaha with two raises a round: no fixed-limit round ever carries more than the bet and 2 raises.
    capped = house_folder["omaha", "standard"]
    assert omaha_rules(capped, in_use()).raises_per_round == 2
    for level in (1, 2, 3):
        for seed in range(25):
            r = deal("omaha", level, seed, rules=capped)
            for i, s in enumerate(r.steps):
                seen["raise asked"] += s.kind == "om.raise_legal"
                assert grade_step(r, i, omaha_oracle(s)).correct, (level, seed, i, s.kind)
    assert seen["raise asked"] >= 5
    # Painted poker for 3 to 5 players: 6 is refused, the level's 6 brought to 5.
    five = house_folder["painted_poker", "classic"]
    with pytest.raises(RoundError):
        deal("painted_poker", 3, 1, seats=6, rules=five)
    assert max(deal("painted_poker", 3, seed, rules=five).seats for seed in range(40)) == 5


def test_an_unknown_copy_or_a_path_is_refused():
    for bad in ("house-ffffffffffff", "../cis", "data/rules/russian-poker/lunar.toml", "Lunar"):
        with pytest.raises(RoundError):
            deal("russian_poker", 1, 1, rules=bad)


def test_a_copys_players_follow_the_rules_of_thumb_of_the_house_with_the_same_buys(house_folder):
    """A CIS copy with another pay table has no stored rules of thumb: its players follow CIS's. A
    copy that sells no sixth card matches no shipped house: the quick rule, which buys only what the
    copy sells."""
    cis9 = house_folder["russian_poker", "cis"]
    no_sixth = "house-0000000005e6"
    assert not load_rules(no_sixth, in_use()).sixth_card_allowed
    assert players.house_summary(cis9) == players.house_summary("cis") is not None
    assert players.house_summary(no_sixth) is None
    rng = random.Random(16)
    actions = Counter()
    for _ in range(400):
        cards = rng.sample(FULL_DECK, 6)
        hand, upcard = cards[:5], cards[5]
        advised = players.thumb_advice(hand, upcard, cis9)
        assert advised == players.thumb_advice(hand, upcard, "cis")
        quick = players.thumb_advice(hand, upcard, no_sixth)
        assert quick == players.quick_advice(hand, upcard, no_sixth) and quick.action != players.SIXTH
        actions[advised.action] += 1
    assert actions[players.EXCHANGE] and actions[players.SIXTH] and actions[players.FOLD]
