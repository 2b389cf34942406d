"""Painted poker: presets, scoring (both presets), the schedule, the hook and the score sheet.

Known answers come from the rule page (shared/rules/painted-poker.md) and its seed article.
"""

import re
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine.painted_poker import (
    DealKind,
    ScoreSheet,
    explain_deal,
    explain_hook,
    explain_score,
    forbidden_bid,
    load_rules,
    schedule,
    score,
)
from trainer.engine.painted_poker import rules as painted_rules
from trainer.engine.painted_poker.rules import RULES_DIR, SetPremium, rules_from_mapping

GEORGIAN = load_rules("georgian-joker")


def classic_data():
    return tomllib.loads((RULES_DIR / "classic.toml").read_text(encoding="utf-8"))


# --- scoring, classic ------------------------------------------------------------------------------

CLASSIC_SCORES = [
    # (bid, took, deal, points) -- the seed's own examples are marked
    (1, 1, "normal", 10),
    (4, 4, "normal", 40),  # seed: "4 declared and taken: 40"
    (5, 5, "normal", 50),  # seed: "ordered 5 and made it: 50"
    (0, 0, "normal", 5),  # pass made
    (2, 4, "normal", 4),  # seed: "ordered 2, took 4: only 4 points"
    (0, 3, "normal", 3),  # a failed pass is "over": 1 per trick
    (1, 6, "normal", 6),
    (3, 2, "normal", -10),  # seed: "declared 3, took 2: loses 10"
    (4, 1, "normal", -30),
    (2, 0, "normal", -20),
    (9, 0, "normal", -90),
    (3, 3, "dark", 30),  # dark and no-trump deals score like normal ones
    (0, 0, "dark", 5),
    (2, 5, "dark", 5),
    (6, 2, "dark", -40),
    (2, 2, "no_trump", 20),
    (2, 1, "no_trump", -10),
    (0, 1, "no_trump", 1),
    (None, 3, "gold", 60),
    (None, 0, "gold", 0),
    (None, 9, "gold", 180),
    (None, 2, "miser", -20),
    (None, 0, "miser", 0),
    (None, 6, "miser", -60),
]


@pytest.mark.parametrize(("bid", "took", "deal", "points"), CLASSIC_SCORES)
def test_classic_scores(bid, took, deal, points):
    assert score(bid, took, deal) == points
    assert score(bid, took, deal, "classic", cards=9) == points
    value, steps = explain_score(bid, took, deal)
    assert value == points and steps and str(points) in str(steps[-1])


GEORGIAN_SCORES = [
    # (bid, took, cards, points)
    (0, 0, 5, 50),  # pass made
    (1, 1, 3, 100),  # exact: 50 b + 50
    (2, 2, 5, 150),
    (8, 8, 9, 450),
    (1, 1, 1, 100),  # all (one) card bid and taken: 100 per trick
    (8, 8, 8, 800),
    (9, 9, 9, 900),
    (2, 4, 9, 40),  # missed (over): 10 per trick taken
    (0, 2, 4, 20),  # failed pass
    (4, 2, 9, 20),  # missed (under): 10 per trick taken
    (3, 1, 5, 10),
    (9, 8, 9, 80),
    (1, 0, 3, -200),  # khishti
    (3, 0, 9, -200),
]


@pytest.mark.parametrize(("bid", "took", "cards", "points"), GEORGIAN_SCORES)
def test_georgian_scores(bid, took, cards, points):
    assert score(bid, took, rules=GEORGIAN, cards=cards) == points


def test_georgian_needs_cards_only_where_it_matters():
    with pytest.raises(ValueError, match="cards="):
        score(3, 3, rules=GEORGIAN)
    assert score(3, 1, rules=GEORGIAN) == 10
    assert score(0, 0, rules=GEORGIAN) == 50
    with pytest.raises(ValueError, match="no gold deals"):
        score(None, 3, "gold", GEORGIAN)


def test_multipliers_and_other_options_come_from_the_preset():
    data = classic_data()
    data["scoring"]["multiplier"]["gold"] = 2
    data["scoring"]["multiplier"]["dark"] = 3
    data["scoring"]["gold_per_trick"] = 10
    house = rules_from_mapping("house", data)
    assert score(None, 3, "gold", house) == 60
    points, steps = explain_score(2, 2, "dark", house)
    assert points == 60 and "x 3" in str(steps[-1])
    assert score(2, 2, "normal", house) == 20


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((None, 2, "normal"), "needs a bid"),
        ((2, 2, "gold"), "no bids"),
        ((-1, 0, "normal"), "bid"),
        ((1, -1, "normal"), "tricks taken"),
        ((1.5, 1, "normal"), "bid"),
        ((True, 1, "normal"), "bid"),
        ((1, 1, "blind"), "deal must be one of"),
    ],
)
def test_score_rejects_bad_input(args, message):
    with pytest.raises(ValueError, match=message):
        score(*args)


def test_score_checks_against_the_cards():
    with pytest.raises(ValueError, match="bid"):
        score(4, 1, cards=3)
    with pytest.raises(ValueError, match="tricks taken"):
        score(1, 4, cards=3)


# --- the schedule ----------------------------------------------------------------------------------

SPECIALS = ["dark", "gold", "miser", "no_trump"]


def expected_schedule(top, n):
    """The rule page's schedule spelt out: (cards, kind) pairs."""
    rising = [(k, "normal") for k in range(1, top)]
    at_max = [(top, "normal")] * n
    falling = [(k, "normal") for k in range(top - 1, 0, -1)]
    return rising + at_max + falling + [(top, kind) for kind in SPECIALS for _ in range(n)]


@pytest.mark.parametrize(
    ("players", "top", "count"), [(2, 18, 44), (3, 12, 37), (4, 9, 36), (5, 7, 37), (6, 6, 40)]
)
def test_classic_schedule(players, top, count):
    deals = schedule(players)
    assert len(deals) == count
    assert [(d.cards, d.kind.value) for d in deals] == expected_schedule(top, players)
    assert [d.number for d in deals] == list(range(1, count + 1))
    assert [d.dealer for d in deals] == [(k - 1) % players for k in range(1, count + 1)]
    assert max(d.cards for d in deals) == top


def test_four_players_spelt_out():
    deals = schedule(4)
    assert [d.cards for d in deals[:20]] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    assert [d.kind for d in deals[20:]] == [DealKind.DARK] * 4 + [DealKind.GOLD] * 4 + [
        DealKind.MISER
    ] * 4 + [DealKind.NO_TRUMP] * 4
    assert {d.cards for d in deals[20:]} == {9}
    assert [d.set for d in deals].count(1) == 8 and deals[-1].set == 7


def test_first_dealer_rotates_clockwise():
    assert [d.dealer for d in schedule(3, first_dealer=2)[:5]] == [2, 0, 1, 2, 0]


def test_georgian_schedule():
    deals = schedule(4, GEORGIAN)
    assert [d.cards for d in deals] == [*range(1, 9), 9, 9, 9, 9, *range(8, 0, -1), 9, 9, 9, 9]
    assert len(deals) == 24 and {d.kind for d in deals} == {DealKind.NORMAL}
    assert [d.set for d in deals] == [1] * 8 + [2] * 4 + [3] * 8 + [4] * 4
    with pytest.raises(ValueError, match="4 to 4 players"):
        schedule(5, GEORGIAN)


@pytest.mark.parametrize("players", [1, 7, 0, "4", 4.0, True])
def test_schedule_rejects_bad_player_counts(players):
    with pytest.raises(ValueError, match="players"):
        schedule(players)


def test_explain_deal():
    deal, steps = explain_deal(4, 21)
    assert (deal.cards, deal.kind) == (9, DealKind.DARK)
    text = " ".join(map(str, steps))
    assert (
        "The deck has 36\u00a0cards. For 4\u00a0players the largest hand is the deck divided by 4, "
        "rounded down: 9." in text
    )
    assert "Deals 21 to 24 are dealt at the maximum, 9\u00a0cards each; kind of deal: dark." in text
    assert "//" not in text  # no programmer's notation in what a trainee reads
    deal, steps = explain_deal(3, 20)  # rising 1-11, 12 x3 (12-14), falling 11 (15) .. 6 (20)
    assert deal.cards == 6 and "fall by one card from 11" in " ".join(map(str, steps))
    with pytest.raises(ValueError, match="deal number"):
        explain_deal(4, 37)


# --- the hook --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "others", "forbidden"),
    [
        (9, [5, 3], 1),  # the seed: 3 players, 9 cards, 5 + 3 ordered: the dealer may not order 1
        (1, [0], 1),
        (1, [1], 0),
        (2, [1, 1], 0),
        (2, [1, 0, 0], 1),
        (3, [2, 2], None),  # already over: anything goes
        (6, [0, 0, 0, 0, 0], 6),
        (9, [9, 0, 0], 0),
        (9, [3, 3, 3], 0),
        (9, [4, 3, 3], None),
        (18, [7], 11),
    ],
)
def test_forbidden_bid(cards, others, forbidden):
    assert forbidden_bid(cards, others) == forbidden
    assert forbidden_bid(cards, others, "no_trump") == forbidden
    value, steps = explain_hook(cards, others)
    assert value == forbidden and steps


def test_no_hook_in_dark_gold_miser_or_without_the_rule():
    assert forbidden_bid(9, [5, 3], "dark") is None
    assert forbidden_bid(9, [], "gold") is None
    assert forbidden_bid(9, [], "miser") is None
    data = classic_data()
    data["bidding"]["hook"] = False
    assert forbidden_bid(9, [5, 3], rules=rules_from_mapping("nohook", data)) is None
    assert forbidden_bid(9, [5, 3], rules=GEORGIAN) == 1


@pytest.mark.parametrize(("cards", "others"), [(0, []), (3, [4]), (3, [-1]), (3, "12"), (3, [1.0])])
def test_hook_rejects_bad_input(cards, others):
    with pytest.raises(ValueError):
        forbidden_bid(cards, others)


# --- presets ---------------------------------------------------------------------------------------


def test_presets():
    classic = load_rules("classic")
    assert [str(c) for c in classic.jokers] == ["7s"] and len(classic.deck) == 36
    assert (classic.min_players, classic.max_players) == (2, 6)
    assert [str(c) for c in GEORGIAN.jokers] == ["6s", "6c"] and len(GEORGIAN.deck) == 36
    assert GEORGIAN.scoring.set_premium is SetPremium.DOUBLE_BEST
    assert load_rules() is classic and load_rules(None) is classic
    assert set(painted_rules.available_rules()) >= {"classic", "georgian-joker"}


@pytest.mark.parametrize("name", ["nope", "../classic", "Classic", "", 3])
def test_unknown_preset(name):
    with pytest.raises(ValueError, match="painted poker rules"):
        load_rules(name)


def _mutated(path, value):
    data = classic_data()
    node = data
    for part in path[:-1]:
        node = node[part]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "key"),
    [
        (("scoring", "pass_made"), KeyError, "scoring.pass_made"),
        (("scoring", "pass_made"), "five", "scoring.pass_made"),
        (("scoring", "exact_per_trick"), 1.5, "scoring.exact_per_trick"),
        (("scoring", "multiplier", "gold"), 0, "scoring.multiplier.gold"),
        (("scoring", "set_premium"), "triple", "scoring.set_premium"),
        (("scoring", "gold_per_trick"), KeyError, "scoring.gold_per_trick"),
        (("scoring", "bonus_typo"), 3, "scoring.bonus_typo"),
        (("deck", "jokers"), ["7x"], "deck.jokers"),
        (("deck", "jokers"), "7c", "deck.jokers"),
        (("deck", "jokers"), ["5c"], "deck.jokers"),
        (("deck", "lowest_rank"), 1, "deck.lowest_rank"),
        (("players", "max"), 1, "players.max"),
        (("schedule", "segments"), ["rising", "sideways"], "schedule.segments"),
        (("schedule", "segments"), [], "schedule.segments"),
        (("schedule", "repeat"), "deck", "schedule.repeat"),
        (("schedule", "repeat"), 1_000_001, "schedule.repeat"),  # beyond the house rules' limit
        (("schedule", "max_cards"), 10, "schedule.max_cards"),
        (("bidding", "hook"), "yes", "bidding.hook"),
        (("title",), KeyError, "title"),
    ],
)
def test_malformed_preset_names_file_and_key(path, value, key):
    with pytest.raises(ValueError, match=rf"^broken\.toml: key '{re.escape(key)}': "):
        rules_from_mapping("broken", _mutated(path, value), "broken.toml")


def test_malformed_file_on_disk(tmp_path, monkeypatch):
    monkeypatch.setattr(painted_rules, "PRESETS", painted_rules.PRESETS.moved_to(tmp_path))
    (tmp_path / "bad-syntax.toml").write_text("title = \n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"painted-poker/bad-syntax\.toml: not valid TOML"):
        load_rules("bad-syntax")
    text = (RULES_DIR / "classic.toml").read_text(encoding="utf-8")
    (tmp_path / "bad-value.toml").write_text(
        text.replace("pass_made = 5", 'pass_made = "5"'), encoding="utf-8"
    )
    with pytest.raises(
        ValueError, match=r"painted-poker/bad-value\.toml: key 'scoring\.pass_made': expected a whole number"
    ):
        load_rules("bad-value")


# --- the score sheet -------------------------------------------------------------------------------


def test_sheet_rejects_the_hook():
    sheet = (
        ScoreSheet.start(["North", "East", "South"]).record([0, 0, 0], [0, 1, 0]).record([2, 1, 0], [1, 1, 0])
    )
    with pytest.raises(ValueError, match=r"deal 3: the dealer \(South\) may not bid 1 \(the hook\)"):
        sheet.record([1, 1, 1], [2, 1, 0])
    sheet = sheet.record([1, 1, 2], [2, 1, 0])
    with pytest.raises(ValueError, match="not over: deal 4 is next"):
        sheet.winner  # noqa: B018
    assert sheet.totals == (5 - 10 + 2, 1 + 10 + 10, 5 + 5 - 20)
    assert sheet.leaders() == ("East",)
    assert [r.scores for r in sheet.records] == [(5, 1, 5), (-10, 10, 5), (2, 10, -20)]


@pytest.mark.parametrize(
    ("bids", "tricks", "message"),
    [
        ([0, 0], [1, 1], "add up to 2, but 1 were played"),
        ([0, 0], [0, 0], "add up to 0"),
        ([2, 0], [1, 0], "bid must be a whole number 0..1"),
        ([0, 0, 0], [1, 0], "bids of all 2 players"),
        (None, [1, 0], "bids of all 2 players"),
        ([0, 0], [1], "tricks of all 2 players"),
        ([0, 0], [-1, 2], "tricks must be"),
        ([1, 0], [1, 0], "the hook"),  # North deals and bids last: 1 = 1 - 0
    ],
)
def test_sheet_rejects_bad_deals(bids, tricks, message):
    sheet = ScoreSheet.start(["North", "East"])
    with pytest.raises(ValueError, match=message):
        sheet.record(bids, tricks)
    assert sheet.records == ()


def test_sheet_players_and_rules():
    with pytest.raises(ValueError, match="2 to 6 players"):
        ScoreSheet.start(["North"])
    with pytest.raises(ValueError, match="must differ"):
        ScoreSheet.start(["North", "North"])
    with pytest.raises(ValueError, match="list of names"):
        ScoreSheet.start("North")
    with pytest.raises(ValueError, match="4 to 4 players"):
        ScoreSheet.start(["A", "B", "C"], "georgian-joker")
    with pytest.raises(ValueError, match="first_dealer"):
        ScoreSheet.start(["A", "B"], first_dealer=2)


def _valid_bids(deal, n, pick):
    """Bids where the dealer avoids the hook; `pick(seat, allowed)` chooses."""
    bids = [None] * n
    order = [(deal.dealer + 1 + i) % n for i in range(n)]  # left of the dealer first, dealer last
    for seat in order:
        allowed = list(range(deal.cards + 1))
        if seat == deal.dealer:
            others = [b for s, b in enumerate(bids) if s != seat]
            banned = forbidden_bid(deal.cards, others, deal.kind)
            allowed = [b for b in allowed if b != banned]
        bids[seat] = pick(seat, allowed)
    return bids


def test_whole_classic_game_special_deals():
    sheet = ScoreSheet.start(["A", "B"])
    while sheet.next_deal is not None and sheet.next_deal.kind is not DealKind.GOLD:
        deal = sheet.next_deal
        bids = _valid_bids(deal, 2, lambda seat, allowed: allowed[0])
        sheet = sheet.record(bids, [deal.cards, 0])
    assert sheet.next_deal.number == 39
    with pytest.raises(ValueError, match="gold deal has no bids"):
        sheet.record([1, 2], [9, 9])
    sheet = sheet.record(None, [18, 0]).record([None, None], [0, 18])
    assert sheet.records[-1].scores == (0, 360) and sheet.records[-2].scores == (360, 0)
    sheet = sheet.record(None, [3, 15])
    assert sheet.records[-1].scores == (-30, -150)
    sheet = sheet.record(None, [3, 15])
    sheet = sheet.record([0, 1], [0, 18]).record([0, 1], [0, 18])
    assert sheet.finished and sheet.next_deal is None
    assert sheet.winner == sheet.leaders() == (("A",) if sheet.totals[0] > sheet.totals[1] else ("B",))
    with pytest.raises(ValueError, match="game is over"):
        sheet.record([0, 0], [0, 18])
    assert sheet.totals == tuple(sum(r.scores[s] for r in sheet.records) for s in range(2))


def test_georgian_set_premium():
    sheet = ScoreSheet.start(["A", "B", "C", "D"], GEORGIAN)
    for k in range(1, 9):  # set 1: deals 1..8, k cards, dealer seat (k - 1) % 4
        a_bid = 1 if k == 8 else 0
        sheet = sheet.record([a_bid, 0, 0, 1 if k == 4 else 0], [a_bid, k - a_bid - (k == 4), 0, int(k == 4)])
    last = sheet.records[-1]
    # A passed seven times (50 each) and made 1 in deal 8 (100): best deal 100 counts twice.
    # C passed every time: best 50 again. D made 1 in deal 4 (100). B missed every bid: nothing.
    assert last.premia == (100, 0, 50, 100)
    assert all(r.premia == (0, 0, 0, 0) for r in sheet.records[:-1])
    assert sheet.totals[0] == 7 * 50 + 100 + 100
    assert sheet.totals[1] == 10 * (sum(range(1, 9)) - 1 - 1)  # B took the rest: 10 per trick
    assert sheet.premium_steps(last) and not sheet.premium_steps(sheet.records[0])
    # Set 2 (four 9s): A misses once, so no premium for A.
    for i in range(4):
        sheet = sheet.record([0, 9, 0, 1], [int(i == 0), 8 - int(i == 0) + 1, 0, 0])
    assert sheet.records[-1].premia[0] == 0


@st.composite
def played_sheets(draw):
    rules = draw(st.sampled_from(["classic", "georgian-joker"]))
    n = 4 if rules == "georgian-joker" else draw(st.integers(2, 6))
    sheet = ScoreSheet.start([f"P{i}" for i in range(n)], rules, draw(st.integers(0, n - 1)))
    deals = sheet.deals
    stop = draw(st.integers(1, len(deals)))
    for deal in deals[:stop]:
        cuts = sorted(draw(st.lists(st.integers(0, deal.cards), min_size=n - 1, max_size=n - 1)))
        tricks = [b - a for a, b in zip([0, *cuts], [*cuts, deal.cards], strict=True)]
        if deal.kind.has_bids:
            bids = _valid_bids(deal, n, lambda seat, allowed: draw(st.sampled_from(allowed)))
        else:
            bids = None
        sheet = sheet.record(bids, tricks)
    return sheet


@settings(max_examples=60)
@given(played_sheets())
def test_sheet_total_is_the_sum_of_deal_scores(sheet):
    n = len(sheet.players)
    for seat in range(n):
        from_engine = sum(
            score(r.bids[seat], r.tricks[seat], r.deal.kind, sheet.rules, cards=r.deal.cards) + r.premia[seat]
            for r in sheet.records
        )
        assert sheet.totals[seat] == from_engine
    assert all(sum(r.tricks) == r.deal.cards for r in sheet.records)
    assert set(sheet.leaders()) <= set(sheet.players)
    # Premia only where a set ends, and only in presets that have them.
    for r in sheet.records:
        if any(r.premia):
            assert sheet.rules.scoring.set_premium is not SetPremium.NONE
            assert r.deal.number == len(sheet.deals) or sheet.deals[r.deal.number].set != r.deal.set


def test_preset_inherits_its_base(tmp_path, monkeypatch):
    assert GEORGIAN.scoring.multiplier == load_rules("classic").scoring.multiplier  # from the base file
    assert GEORGIAN.not_applied and load_rules("classic").not_applied == ()
    monkeypatch.setattr(painted_rules, "PRESETS", painted_rules.PRESETS.moved_to(tmp_path))
    (tmp_path / "classic.toml").write_text((RULES_DIR / "classic.toml").read_text(encoding="utf-8"), "utf-8")
    (tmp_path / "doubled.toml").write_text('base = "classic"\n[scoring.multiplier]\ngold = 2\n', "utf-8")
    assert score(None, 3, "gold", load_rules("doubled")) == 120
    (tmp_path / "loop-a.toml").write_text('base = "loop-b"\n', "utf-8")
    (tmp_path / "loop-b.toml").write_text('base = "loop-a"\n', "utf-8")
    with pytest.raises(
        ValueError, match=r"loop-a\.toml: key 'base': presets inherit from each other in a loop"
    ):
        load_rules("loop-a")
    (tmp_path / "orphan.toml").write_text('base = "nowhere"\n', "utf-8")
    with pytest.raises(ValueError, match=r"orphan\.toml: key 'base': no preset 'nowhere' \(no file "):
        load_rules("orphan")
    (tmp_path / "gaps.toml").write_text('base = "classic"\nnot_applied = [3]\n', "utf-8")
    with pytest.raises(ValueError, match=r"gaps\.toml: key 'not_applied': expected a list"):
        load_rules("gaps")


def test_deal_kinds_outside_the_preset_are_refused():
    for kind in ("dark", "gold", "miser", "no_trump"):
        with pytest.raises(ValueError, match="georgian-joker rules have no"):
            score(None if kind in ("gold", "miser") else 1, 1, kind, GEORGIAN, cards=9)


def test_sheet_taken_over_mid_game():
    # Georgian Joker, taken over before deal 21 (the second set of four 9s starts at 21).
    sheet = ScoreSheet.resume(["A", "B", "C", "D"], GEORGIAN, 0, 21, [100, -50, 0, 7])
    assert sheet.next_deal.number == 21 and sheet.totals == (100, -50, 0, 7)
    for _ in range(4):  # A bids 2 and takes 2 every time: a whole set made, premium due
        sheet = sheet.record([2, 0, 0, 9], [2, 0, 0, 7])
    assert sheet.finished
    assert sheet.records[-1].premia == (150, 50, 50, 0)
    assert sheet.totals == (100 + 4 * 150 + 150, -50 + 4 * 50 + 50, 0 + 4 * 50 + 50, 7 + 4 * 70)
    # Taken over in the middle of a set: its earlier deals are unknown, so no premium at its end.
    late = ScoreSheet.resume(["A", "B", "C", "D"], GEORGIAN, 0, 23, [0, 0, 0, 0])
    late = late.record([2, 0, 0, 9], [2, 0, 0, 7]).record([2, 0, 0, 9], [2, 0, 0, 7])
    assert late.records[-1].premia == (0, 0, 0, 0) and late.totals == (300, 100, 100, 140)
    with pytest.raises(ValueError, match="carried"):
        ScoreSheet.resume(["A", "B"], "classic", 0, 3, [1])
    with pytest.raises(ValueError, match="first_deal"):
        ScoreSheet.resume(["A", "B"], "classic", 0, 45, [0, 0])
