"""Payouts at the live table cut from the float (the payout form "fewest"): a Russian poker box or an
Omaha pot's share answered in chips, right only as the fewest chips of the house's denominations (the
"chips" form takes any chips of the right value). Known answers worked by hand, the grading of a right
value in the wrong chips, the forms through the API and the pages, and properties over seeded rounds
(small Hypothesis budgets): the graded right answer always makes the payout, uses only the float's
denominations, and is the one cut that is right."""

import pytest
from api_helpers import make_api_app, token_client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_table_pages import dealt_of, form_for

from trainer.drills.chips import load_chips
from trainer.drills.rounds import (
    RoundError,
    chips_notes,
    deal,
    dealt_presets,
    expected_answer,
    grade_step,
    solve_step,
)

CHIPS = load_chips("standard")  # the Russian poker float
ROOM = load_chips("poker-room")  # the Omaha house's chips
PAYOUTS = ("rp.payout", "om.payout", "om.uncontested")


def payout_steps(r):
    return [i for i, s in enumerate(r.steps) if s.kind in PAYOUTS]


# Known answers, worked by hand --------------------------------------------------------------------


def test_a_box_cut_from_the_float_by_hand():
    """Seed 1 at level 2, step 9: box 3 holds three nines (9d 9s 9c Kc 8h) on an ante of 185, the bet
    370. The dealer has no game (Qc 5s 4d 3c 2h); the player buys the game, the queen is replaced by
    the 5d: a pair of fives. Three of a kind pays 3 to 1 on the bet: 370 x 3 = 1110, the ante returned.
    Cut from the float: one yellow 1000, one black 100 and two reds (1000 + 100 + 5 + 5)."""
    r = deal("russian_poker", 2, seed=1, payout="fewest")
    s = r.steps[8]
    assert s.kind == "rp.payout" and s.money == "pay" and s.data["cut"] is True
    assert str(s.question) == "Pay box 3 as you cut it from the float: which chips?"
    box = next(b for b in s.table["boxes"] if b["box"] == 3)
    assert (box["ante"], box["bet"], box["cards"]) == (185, 370, ["9d", "Kc", "9s", "8h", "9c"])
    cut = {"5000": 0, "1000": 1, "500": 0, "100": 1, "25": 0, "5": 2}
    assert expected_answer(r, 8) == cut
    right = grade_step(r, 8, "1000: 1; 100: 1; 5: 2")
    assert right.correct and right.house_chips == 0
    # The right value in blacks: not the cut (ten blacks colour up to a yellow), no chip lost.
    blacks = grade_step(r, 8, {"100": 11, "5": 2})
    assert not blacks.correct and blacks.house_chips == 0 and blacks.expected == cut
    said = [str(x) for x in blacks.explanation]
    assert (
        "The value 1110 is right, but a payout is cut in the fewest chips: 1 x 1000, 1 x 100, 2 x 5." in said
    )
    # The float as it stands when box 3 is paid (box 2 took 2 x 100, 1 x 25, 1 x 5 before it).
    assert s.data["float"] == {"5000": 20, "1000": 40, "500": 40, "100": 98, "25": 99, "5": 99}
    assert s.table["float"] == s.data["float"]
    assert said[-2].startswith("The float holds 20 x 5000, 40 x 1000, 40 x 500, 98 x 100, 99 x 25, 99 x 5:")
    # A chip too many is wrong and costs the house the chip.
    over = grade_step(r, 8, {"1000": 1, "100": 1, "5": 3})
    assert not over.correct and over.house_chips == -5
    assert not any(str(x).startswith("The value") for x in over.explanation)
    # The same box in the "chips" form: any chips of the value are right.
    same = deal("russian_poker", 2, seed=1, payout="chips")
    assert str(same.steps[8].question) == "What do you pay box 3?" and "cut" not in same.steps[8].data
    assert grade_step(same, 8, {"100": 11, "5": 2}).correct


def test_an_omaha_share_cut_in_the_fewest_chips():
    """An Omaha pot's share in the poker room's chips (1, 5, 25, 100, 500, 1000): the fewest chips
    only; the same value in blue ones is right in the "chips" form, not cut."""
    found = 0
    for seed in range(30):
        r = deal("omaha", 2, seed, payout="fewest")
        loose = deal("omaha", 2, seed, payout="chips")
        assert [s.kind for s in r.steps] == [s.kind for s in loose.steps]
        for i in payout_steps(r):
            want = expected_answer(r, i)
            value = ROOM.value_of(want)
            assert r.steps[i].data["cut"] is True and r.steps[i].data["chips"] == "poker-room"
            assert grade_step(r, i, want).correct
            blues = {"1": value}
            if blues != want:
                found += 1
                assert not grade_step(r, i, blues).correct
                assert grade_step(r, i, blues).house_chips == 0
                assert grade_step(loose, i, blues).correct
    assert found >= 10


def test_a_chips_step_without_a_cut_adds_no_cut_note():
    r = deal("russian_poker", 2, seed=1, payout="chips")
    s = r.steps[8]
    notes = chips_notes(s, {"100": 11, "5": 2}, expected_answer(r, 8))
    assert notes and not any(str(x).startswith("The value") for x in notes)
    assert chips_notes(s, expected_answer(r, 8), expected_answer(r, 8)) == ()


def test_the_payout_form_is_checked():
    with pytest.raises(RoundError, match="'amount', 'chips' or 'fewest'"):
        deal("russian_poker", 1, seed=1, payout="cut")
    # The amount form's rounds are dealt as before: the cut changes only how payouts are answered.
    a, b = deal("russian_poker", 3, seed=5), deal("russian_poker", 3, seed=5, payout="fewest")
    assert [s.kind for s in a.steps] == [s.kind for s in b.steps]
    # The same tables but for the float the cut is counted from.
    assert [s.table for s in a.steps] == [{k: v for k, v in s.table.items() if k != "float"} for s in b.steps]
    assert "float" not in a.steps[0].table and "float" in b.steps[0].table


# Properties over seeded rounds ----------------------------------------------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(["russian_poker", "omaha"]),
    level=st.sampled_from([1, 2, 3]),
    seed=st.integers(0, 10**6),
    house=st.integers(0, 3),
)
def test_the_graded_cut_makes_the_payout_in_the_floats_chips(game, level, seed, house):
    presets = dealt_presets(game)
    rules = presets[house % len(presets)]  # every shipped house the game's rounds deal under
    r = deal(game, level, seed, rules=rules, payout="fewest")
    amounts = deal(game, level, seed, rules=rules, payout="amount")
    for i in payout_steps(r):
        s = r.steps[i]
        chips = load_chips(s.data["chips"])
        want, text, _ = solve_step(r, i)
        # Only the float's denominations, none negative, and they make the payout the engine rules.
        assert set(want) == {str(c.value) for c in chips.chips}
        assert all(isinstance(n, int) and n >= 0 for n in want.values())
        assert chips.value_of(want) == int(text)
        if game == "russian_poker":  # the same box's step asked as an amount
            assert expected_answer(amounts, i) == int(text)
        # Cut from what the float holds (a counted float: Russian poker), and the fewest of those
        # chips: wherever the float has a chip left over, the chips cut below it are worth less than
        # it (else one of it would replace two or more of them).
        tray = s.data.get("float")
        if game == "russian_poker":
            assert tray is not None and s.table["float"] == tray
        for chip in chips.chips:
            label = str(chip.value)
            if tray is not None:
                assert want[label] <= tray[label]
            if tray is None or want[label] < tray[label]:
                below = sum(c.value * want[str(c.value)] for c in chips.chips if c.value < chip.value)
                assert below < chip.value
        graded = grade_step(r, i, want)
        assert graded.correct and graded.house_chips == 0 and graded.expected == want


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(["standard", "poker-room"]),
    counts=st.lists(st.integers(0, 30), min_size=6, max_size=6),
)
def test_only_the_fewest_chips_are_the_cut(name, counts):
    """Any count per denomination: it is the cut exactly when it is the fewest chips of its value, and
    the fewest chips of a value are one count per colour (the cut is unique)."""
    chips = load_chips(name)
    given_chips = {c: n for c, n in zip(chips.labels(), counts, strict=False)}
    value = chips.value_of(given_chips)
    fewest = chips.fewest(value)
    assert chips.value_of(fewest) == value
    assert chips.is_fewest(given_chips) == (given_chips == fewest)
    assert sum(fewest.values()) <= sum(given_chips.values())


# Through the API and the pages ----------------------------------------------------------------------


def test_a_box_cut_from_the_float_through_the_api(tmp_path):
    client = token_client(make_api_app(tmp_path), "teacher", "instructor")  # an instructor fixes seeds
    made = client.post(
        "/api/v1/rounds", json={"game": "russian_poker", "level": 2, "seed": 1, "payout": "fewest"}
    )
    assert made.status_code == 201 and made.json["payout"] == "fewest"
    refused = client.post("/api/v1/rounds", json={"game": "russian_poker", "level": 2, "payout": "cut"})
    assert refused.status_code == 400 and "fewest" in refused.get_data(as_text=True)
    r = deal("russian_poker", 2, seed=1, payout="fewest")
    url = made.json["answer_url"]
    for i in range(8):
        client.post(url, json={"answer": expected_answer(r, i)})
    graded = client.post(url, json={"answer": {"100": 11, "5": 2}}).json  # box 3's 1110 in blacks
    assert graded["index"] == 8 and not graded["correct"] and graded["house_chips"] == 0
    assert any(x["template"].startswith("The value {value} is right") for x in graded["explanation"])


def test_the_cut_offered_and_graded_through_the_page(named):
    """The live table's form offers the cut; a round dealt so answers the first box paid in fives
    wrong (the right value, not the cut) and says why, with the hint to cut it."""
    page = named.get("/table/").get_data(as_text=True)
    assert 'name="payout" value="fewest"' in page
    for _ in range(40):
        response = named.post(
            "/table/rounds", data={"game": "russian_poker", "level": 3, "seats": 6, "payout": "fewest"}
        )
        url = response.headers["Location"]
        dealt = dealt_of(named.application, url)
        assert dealt.payout == "fewest"
        if any(s.kind == "rp.payout" for s in dealt.steps):
            break
    for i, s in enumerate(dealt.steps):
        want = expected_answer(dealt, i)
        if s.kind != "rp.payout":
            named.post(url, data={"step": i, **form_for(s, want)})
            continue
        page = named.get(url).get_data(as_text=True)
        assert "Cut it in the fewest chips" in page and 'class="chip-answer"' in page
        value = CHIPS.value_of(want)
        labels = s.answer_format.labels
        page = named.post(
            url, data={"step": i, f"amount-{labels.index('5')}": str(value // 5)}, follow_redirects=True
        ).get_data(as_text=True)
        assert value // 5 != want["5"]  # a level-3 win is at least 105: larger chips cut it
        assert "✗" in page and "is right, but a payout is cut in the fewest chips" in page
        break
    else:
        pytest.fail("no round of 40 paid a box")


def test_a_house_that_cuts_from_the_float(monkeypatch):
    """A chip set whose `payout_answer` is "fewest" makes the cut the rounds' default form; the file
    key takes the three forms only."""
    from dataclasses import replace

    import trainer.drills.russian_poker.round as rp_round
    from trainer.drills.chips import chips_from_mapping

    rows = [
        {"value": 5, "colour": "#c62828", "name": "red"},
        {"value": 25, "colour": "#1f7a3a", "name": "green"},
    ]
    assert chips_from_mapping("t", {"payout_answer": "fewest", "chip": rows}).payout_answer == "fewest"
    with pytest.raises(ValueError, match="'amount', 'chips' or 'fewest'"):
        chips_from_mapping("t", {"payout_answer": "cut", "chip": rows})
    assert deal("russian_poker", 2, seed=1).payout == "amount"  # data/chips/standard.toml
    cutting = replace(CHIPS, payout_answer="fewest")
    monkeypatch.setattr(rp_round, "ROUNDS", replace(rp_round.ROUNDS, house_chips=lambda _rules: cutting))
    chosen = deal("russian_poker", 2, seed=1)
    assert chosen.payout == "fewest" and chosen.steps[8].data["cut"] is True
    assert deal("russian_poker", 2, seed=1, payout="chips").payout == "chips"  # the trainee may still choose


def test_a_float_short_of_yellows_by_hand():
    """Seed 11 at level 3 opens the float with only 3 yellow 1000s. Box 2 (aces, the bet 4170 paid
    1 to 1 against the dealer's nines) takes 4170: 3 x 1000 (all there are), 2 x 500, 1 x 100,
    2 x 25, 4 x 5. Box 6 is then paid 7470 with no yellow left: 1 x 5000, 4 x 500, 4 x 100, 2 x 25,
    4 x 5. The fewest chips of a full float (4 x 1000 for box 2) are not the cut: the float lacks one."""
    r = deal("russian_poker", 3, seed=11, payout="fewest")
    assert r.steps[0].table["float"] == {"5000": 20, "1000": 3, "500": 40, "100": 100, "25": 100, "5": 100}
    s2, s6 = r.steps[5], r.steps[8]
    assert (s2.kind, s2.table["focus"], s6.kind, s6.table["focus"]) == ("rp.payout", 2, "rp.payout", 6)
    assert expected_answer(r, 5) == {"5000": 0, "1000": 3, "500": 2, "100": 1, "25": 2, "5": 4}
    assert s6.table["float"]["1000"] == 0
    assert expected_answer(r, 8) == {"5000": 1, "1000": 0, "500": 4, "100": 4, "25": 2, "5": 4}
    unbounded = CHIPS.fewest(4170)
    assert unbounded["1000"] == 4
    graded = grade_step(r, 5, unbounded)
    assert not graded.correct and graded.house_chips == 0
    said = [str(x) for x in graded.explanation]
    assert "The float holds only 3 x 1000." in said
    assert "cut largest first, 3 x 1000, 2 x 500, 1 x 100, 2 x 25, 4 x 5." in said[-3]
    assert grade_step(r, 5, "1000: 3; 500: 2; 100: 1; 25: 2; 5: 4").correct


def test_the_cage_fills_a_float_that_cannot_pay():
    from trainer.drills.russian_poker.round import _Table

    table = _Table("cis")
    table.opening = {"5000": 1, "1000": 2, "500": 2, "100": 5, "25": 5, "5": 5}
    table.state["float"] = {"5000": 0, "1000": 0, "500": 1, "100": 0, "25": 5, "5": 5}
    assert not table.fill_for(CHIPS, 550)  # 1 x 500, 2 x 25: what is left makes it
    assert table.fill_for(CHIPS, 1600)  # no black left: filled back to the opening float
    assert table.state["float"] == {"5000": 1, "1000": 2, "500": 2, "100": 5, "25": 5, "5": 5}
    assert table.fill_for(CHIPS, 23000)  # more than the opening float: stacks of orange come with it
    assert table.state["float"]["5000"] == 21 and CHIPS.cut(23000, table.state["float"]) is not None


@settings(max_examples=30, deadline=None)
@given(
    name=st.sampled_from(["standard", "poker-room"]),
    tray=st.lists(st.integers(0, 3), min_size=6, max_size=6),
    units=st.integers(0, 400),
)
def test_the_cut_from_a_counted_float_is_the_one_fewest(name, tray, units):
    """Against every combination the float holds (brute force): the cut makes the amount from chips
    the float has, no combination of them uses fewer chips, none other uses as few, and there is no
    cut exactly when no combination makes the amount."""
    import itertools

    chips = load_chips(name)
    held = dict(zip(chips.labels(), tray, strict=True))
    amount = units * chips.smallest
    made = [
        dict(zip(chips.labels(), combo, strict=True))
        for combo in itertools.product(*(range(n + 1) for n in tray))
        if sum(int(v) * n for v, n in zip(chips.labels(), combo, strict=True)) == amount
    ]
    cut = chips.cut(amount, held)
    if not made:
        assert cut is None
        return
    assert cut is not None and chips.value_of(cut) == amount
    assert all(cut[label] <= held[label] for label in held)
    fewest = min(sum(m.values()) for m in made)
    assert sum(cut.values()) == fewest
    assert [m for m in made if sum(m.values()) == fewest] == [cut]


def test_a_fill_before_a_box_in_a_round():
    """Lunar, level 3, seed 5: the boxes before box 4 have taken chips, and box 4 wins 165,550 (its
    Super). What is left cannot make it, so the cage fills the float back to its opening count, and
    the box is cut from all of it: 20 x 5000 (100,000) + 40 x 1000 (40,000) + 40 x 500 (20,000)
    + 55 x 100 (5,500) + 2 x 25 (50)."""
    r = deal("russian_poker", 3, seed=5, rules="lunar", payout="fewest")
    s = r.steps[8]
    assert (
        str(s.question)
        == "The cage has filled the float. Pay box 4 as you cut it from the float: which chips?"
    )
    opening = r.steps[0].table["float"]
    assert s.data["float"] == s.table["float"] == opening
    assert r.steps[7].table["float"] != opening  # the chips the boxes before took
    assert expected_answer(r, 8) == {"5000": 20, "1000": 40, "500": 40, "100": 55, "25": 2, "5": 0}
    assert solve_step(r, 8)[1] == "165550"
