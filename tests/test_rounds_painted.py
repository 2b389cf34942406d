"""Painted poker deals at the live table: every step of a few hundred seeded deals graded against the
engine called on what the table shows (the bids, the cards of each trick, the tricks taken), the
order of the steps, and the correction rule."""

from collections import Counter

from trainer.drills.rounds import deal, grade_step
from trainer.engine.painted_poker import Play, score, trick_winner

SEEDS = range(120)


def deals(levels=(1, 2, 3), seeds=SEEDS, **options):
    for level in levels:
        for seed in seeds:
            yield deal("painted_poker", level, seed, **options)


def oracle(s):
    t = s.table
    if s.kind == "pp.hook":
        others = [b for b in t["bids"] if b is not None]
        if t["rules"] == "odessa-house" and not any(others):
            return "max"  # the older article: "if players pass, the dealer must order the maximum"
        if t["deal"]["kind"] == "dark":
            return "none"
        forbidden = t["deal"]["cards"] - sum(others)  # the rule page: cards - sum(other bids)
        return str(forbidden) if 0 <= forbidden <= t["deal"]["cards"] else "none"
    if s.kind == "pp.trick":
        plays = [Play.parse(p["play"]) for p in t["trick"]]
        return str(t["trick"][trick_winner(plays, t["trump"], t["rules"])]["seat"])
    assert s.kind == "pp.scores"
    cards, kind = t["deal"]["cards"], t["deal"]["kind"]
    return {
        f"Seat {seat + 1}": score(bid, took, kind, t["rules"], cards=cards)
        for seat, (bid, took) in enumerate(zip(t["bids"], t["took"], strict=True))
    }


def changed(s, value):
    """Another answer of the same form: one point more, or another of the choices."""
    if isinstance(value, dict):
        first = next(iter(value))
        return {**value, first: value[first] + 1}
    return next(c for c in (ch.value for ch in s.answer_format.choices) if c != value)


def test_every_step_graded_against_the_engine():
    kinds = Counter()
    for r in deals():
        for i, s in enumerate(r.steps):
            want = oracle(s)
            kinds[s.kind] += 1
            assert grade_step(r, i, want).correct, (r.level, r.seed, i, s.kind, want)
            assert not grade_step(r, i, changed(s, want)).correct
    assert kinds["pp.hook"] >= 200 and kinds["pp.trick"] >= 500 and kinds["pp.scores"] == 360


def test_steps_follow_the_table():
    seen = Counter()
    for r in deals():
        kinds = [s.kind for s in r.steps]
        end = r.end_table
        cards, kind = end["deal"]["cards"], end["deal"]["kind"]
        seen[kind] += 1
        has_bids = kind in ("normal", "no_trump", "dark", "frontal")
        assert kinds == ["pp.hook"] * has_bids + ["pp.trick"] * cards + ["pp.scores"]
        assert sum(end["took"]) == cards
        if has_bids:
            hook = r.steps[0].table
            assert hook["bids"][end["dealer"] - 1] is None  # the dealer bids last
            assert sum(b is not None for b in hook["bids"]) == end["players"] - 1
            assert str(end["bids"][end["dealer"] - 1]) != oracle(r.steps[0])
        tricks = [s for s in r.steps if s.kind == "pp.trick"]
        # The first trick is led by the player left of the dealer; each next one by the last winner.
        leader = end["dealer"] % end["players"] + 1
        for s in tricks:
            assert s.table["trick"][0]["seat"] == leader
            leader = int(oracle(s))
        seen["joker"] += any(":" in p["play"] for s in tricks for p in s.table["trick"])
    for key in ("normal", "no_trump", "dark", "gold", "miser", "joker"):
        assert seen[key] >= 5, seen


def test_the_scores_step_shows_bids_and_tricks_but_not_the_scores():
    for r in deals(seeds=range(40)):
        last = r.steps[-1]
        assert "scores" not in last.table and sum(last.table["took"]) == last.table["deal"]["cards"]
        assert "scores" in r.end_table


def test_a_wrong_step_does_not_poison_the_next():
    for r in deals(seeds=range(30)):
        for i, s in enumerate(r.steps):
            want = oracle(s)
            grade_step(r, i, changed(s, want))
            assert grade_step(r, i, want).correct


def test_players_and_reproducibility():
    for players in range(3, 7):
        r = deal("painted_poker", 3, 4, seats=players)
        assert r.end_table["players"] == players == len(r.end_table["took"])
        assert r == deal("painted_poker", 3, 4, seats=players)


def test_house_options_at_the_table():
    """The odessa-house and deck-54 presets dealt at the table: every step graded by the oracle, and
    the options the rule page lists under "Known variants" come up."""
    seen = Counter()
    for rules in ("odessa-house", "deck-54"):
        for r in deals(seeds=range(60), rules=rules):
            end = r.end_table
            seen[(rules, end["deal"]["kind"])] += 1
            if rules == "deck-54" and end["deal"]["kind"] != "no_trump":
                # "the trump changes with every deal in a fixed order of suits, from spades to hearts"
                # (ყვავიდან გულამდე: spades, clubs, diamonds, hearts)
                assert end["trump"] == "scdh"[(end["deal"]["number"] - 1) % 4] and end["turned"] is None
            for i, s in enumerate(r.steps):
                want = oracle(s)
                assert grade_step(r, i, want).correct, (rules, r.level, r.seed, i, s.kind, want)
                assert not grade_step(r, i, changed(s, want)).correct
                if s.kind == "pp.hook":
                    seen[(rules, want)] += 1
                for p in s.table["trick"] if s.kind == "pp.trick" else ():
                    code, _, call = p["play"].partition(":")
                    seen[(rules, "call " + call.partition(":")[0])] += bool(call)
                    seen[(rules, "real joker")] += code in ("X1", "X2")
            if end["deal"]["kind"] not in ("normal", "dark", "no_trump", "frontal"):
                continue
            # The dealer bid what the house allows: the maximum after every pass (odessa-house).
            others = [b for s, b in enumerate(end["bids"]) if s != end["dealer"] - 1]
            if rules == "odessa-house" and not any(others):
                assert end["bids"][end["dealer"] - 1] == end["deal"]["cards"]
    wanted = [
        ("odessa-house", "frontal"),
        ("odessa-house", "max"),
        ("odessa-house", "call lowest_trump"),
        ("odessa-house", "call low_card"),
        ("deck-54", "real joker"),
        ("deck-54", "gold"),
    ]
    for key in wanted:
        assert seen[key] >= 2, (key, seen)
