"""Drills of issue 15's rules: each drawn situation is graded against the engine called directly."""

import pytest

from trainer.drills import expected_of, grade, issue
from trainer.drills.russian_poker.house import EDGE_CASES
from trainer.engine import painted_poker as pp
from trainer.engine.omaha.reveal import muck_rulings, showdown_order
from trainer.engine.omaha.seating import new_player_entry
from trainer.engine.russian_poker import Table, bet_payout, insurance_limits, settle, table_faults

SETTLING = ("rp.bet_payout", "rp.no_game", "rp.buy", "rp.settle")


def test_lunar_drills_always_stake_the_super():
    # Rule page, variants table: Lunar's "compulsory bets | ante and Super (at least the ante), on own
    # or dealer's hand".
    places = set()
    for kind in SETTLING:
        for level in (1, 2, 3):
            for seed in range(12):
                data = issue(kind, level, seed=seed, rules="lunar").data
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


@pytest.mark.parametrize("kind", SETTLING)
def test_lunar_drill_pages_show_the_super_spot(client, kind):
    # The compulsory Super lies on the table the trainee settles: its stake and where it is placed ("on
    # own or dealer's hand"), or an answer with a Super spot could not be worked out.
    client.post("/practice/rules", data={"rules-russian_poker": "lunar"})
    for _ in range(3):
        page = client.get(client.post(f"/practice/{kind}", data={"level": 2}).headers["Location"])
        text = page.get_data(as_text=True).replace("&#39;", "'")
        assert page.status_code == 200 and ">Super<" in text
        assert "on the dealer's hand" in text or "on the player's first five cards" in text


def test_other_houses_stake_no_super():
    # Rule page, variants table: the CIS casinos' "compulsory bets | ante" (no Super at the table).
    for kind in SETTLING:
        data = issue(kind, 2, seed=1).data
        assert "super_bet" not in data


# --- Omaha -------------------------------------------------------------------------------------------


def _seen(kind, levels=(1, 2, 3), seeds=60, rules=None):
    return [issue(kind, level, seed=seed, rules=rules) for level in levels for seed in range(seeds)]


def test_new_player_drill_is_graded_by_the_engine():
    # Seed (omaha.ka.txt): a new player "must post an entry fee equal to the big blind, or wait until the
    # big blind reaches him"; Robert's Rules: not between the blinds and the button.
    outcomes = set()
    for situation in _seen("om.new_player"):
        data = situation.data
        ruling = new_player_entry(
            data["new_seat"] - 1,
            button=data["button"] - 1,
            seats=[s is not None for s in data["stacks"]],
            big_blind=data["blinds"][1],
        )
        expected = expected_of(situation)[0]
        if data["question"] == "wait":
            assert expected == ruling.hands_to_big_blind
        else:
            assert expected == ("post" if ruling.may_post_now else "wait_button")
        outcomes.add((data["question"], expected if data["question"] == "entry" else "n"))
        assert grade(situation, str(expected)).correct
    assert outcomes == {("entry", "post"), ("entry", "wait_button"), ("wait", "n")}


def test_showdown_drill_is_graded_by_the_engine():
    # Rule page: "the last player who bet or raised on the river shows first; if everybody checked the
    # river, the first active player left of the button shows first. A player may muck a losing hand."
    seen = set()
    for situation in _seen("om.showdown"):
        data = situation.data
        live = [s for s, hole in enumerate(data["holes"]) if hole is not None]
        aggressor = data["last_aggressor"]
        order = showdown_order(
            live,
            button=data["button"] - 1,
            seats=data["seats"],
            last_aggressor=None if aggressor is None else aggressor - 1,
            contributions=data["contributions"],
        )
        expected = expected_of(situation)[0]
        if data["question"] == "first":
            assert expected == str(order[0] + 1)
            if aggressor is not None and not data["all_in"]:
                assert expected == str(aggressor)
            seen.add(("first", bool(data["all_in"]), aggressor is None))
        else:
            shown = [s - 1 for s in data["shown"]]
            ruling = muck_rulings(
                data["board"],
                data["holes"],
                [*shown, data["asked"] - 1],
                contributions=data["contributions"],
                hi_lo=data["hi_lo"],
            )[-1]
            assert expected == ("muck" if ruling.may_muck else "show")
            seen.add(("muck", expected, data["hi_lo"]))
        assert grade(situation, expected).correct
    assert {("first", False, True), ("first", False, False), ("first", True, False)} <= seen
    assert {("muck", "muck", False), ("muck", "show", False), ("muck", "muck", True)} <= seen


def test_pot_limit_drill_names_the_schools_figure():
    # Rule page: "Maximum total wager = P + 2C"; the seed's 30 and 300 are named as the common mistake.
    named = 0
    for situation in _seen("om.pot_limit", seeds=20):
        texts = [str(s) for s in expected_of(situation)[2]]
        if any(t.startswith("First he calls") for t in texts):
            assert any(t.startswith("Common mistake: raising by the pot before the call") for t in texts)
            named += 1
    assert named > 20


# --- Russian poker: two combinations, insurance, boxes -----------------------------------------------


def test_two_combination_drill_meets_every_edge_case():
    # Rule page, variants: Lunar pays "both ... if the second uses a card not in the first".
    cases = set()
    for situation in _seen("rp.two_combinations"):
        data = situation.data
        pay = bet_payout(data["player"], data["ante"], data["rules"])
        assert expected_of(situation)[0] == pay.win
        cases.add(data.get("edge_case"))
        if data.get("edge_case") == "quads_and_full_house":
            assert pay.odds == 27
        if data.get("edge_case") == "two_full_houses":
            assert pay.odds == 14
        if data.get("edge_case") == "same_straight_twice":
            assert pay.odds == 8
        if data.get("edge_case") == "royal_and_spare_card":
            assert pay.odds in (104, 54)  # royal 100 + 4, straight flush 50 + 4
    assert cases == {None, *EDGE_CASES}
    assert all(issue("rp.two_combinations", 1, seed=s).data["rules"] == "lunar" for s in range(3))


def test_two_combination_drill_under_cis_pays_the_higher_only():
    # Rule page, variants: "CIS casinos: only the higher one is paid".
    for situation in _seen("rp.two_combinations", levels=(3,), seeds=30, rules="cis"):
        data = situation.data
        pay = bet_payout(data["player"], data["ante"], "cis")
        assert pay.second is None and expected_of(situation)[0] == pay.win


def test_insurance_drill_is_the_capped_bet_payout():
    # Rule page, other house differences: "insurance on three of a kind or better"; insured.toml: "stake
    # from 1 ante up to what the bet could win", the win cut to the table maximum (issue 15: "what its
    # bet can really be paid").
    capped = 0
    for situation in _seen("rp.insurance"):
        data = situation.data
        most = insurance_limits(data["player"], data["ante"], data["rules"])[1]
        assert expected_of(situation)[0] == most
        win = bet_payout(data["player"], data["ante"], data["rules"]).win
        capped += win > most
    assert capped > 40
    with pytest.raises(ValueError, match="offers no insurance"):
        issue("rp.insurance", 1, seed=1, rules="cis")


def test_boxes_drill_is_graded_by_table_faults():
    # cis.toml [boxes] (not in the rule page): "up to six boxes; a player may play two adjacent boxes
    # open, and a third or further box must be played blind".
    answers = set()
    for situation in _seen("rp.boxes"):
        boxes = situation.data["boxes"]
        faults = table_faults(Table.of([(b["box"], str(b["player"]), b["mode"]) for b in boxes]))
        expected = expected_of(situation)[0]
        assert expected == (faults[0].fault.value if faults else "legal")
        answers.add(expected)
    assert answers == {
        "legal",
        "too_many_open",
        "open_not_adjacent",
        "blind_before_open",
        "box_taken",
        "no_such_box",
    }


# --- painted poker -----------------------------------------------------------------------------------


def test_trick_drill_reaches_the_further_joker_calls_and_the_real_jokers():
    # Seed's first article: the joker calls "high trump", "low trump", "high card", "low card"; the
    # older article: the joker led as any card; the second article: 54 cards with two jokers.
    calls, circular = set(), set()
    for rules in ("odessa-house", "deck-54"):
        for situation in _seen("pp.trick", levels=(2, 3), seeds=80, rules=rules):
            data = situation.data
            plays = [pp.Play.parse(p["play"]) for p in data["plays"]]
            if data.get("number") is not None:
                trump = pp.deal_trump(data["number"], data["deal"], rules)
                circular.add(trump)
            else:
                turned = pp.painted_card(data["turned"]) if data["turned"] else None
                trump = pp.trump_of(turned, rules, data["deal"])
            winner = pp.trick_winner(plays, trump, rules)
            assert expected_of(situation)[0] == str(data["plays"][winner]["seat"])
            if plays[0].call is not None:
                calls.add((rules, plays[0].call.value))
            if any(str(p.card) in ("X1", "X2") for p in plays):
                calls.add((rules, "real joker"))
    further = {"lowest_trump", "high_card", "low_card", "as_card"}
    assert {("odessa-house", c) for c in further} <= calls
    assert ("deck-54", "real joker") in calls and circular == {"c", "d", "h", "s", None}


def test_hook_drill_under_the_all_pass_rule():
    # Older article: "if players pass, the dealer must order the maximum".
    musts = 0
    for situation in _seen("pp.hook", rules="odessa-house"):
        data = situation.data
        others = [b["bid"] for b in data["bids"]]
        expected = expected_of(situation)[0]
        if pp.must_bid_max(others, data["deal"], "odessa-house"):
            assert expected == "max"
            musts += 1
        else:
            assert expected != "max"
    assert musts > 10
    assert all(expected_of(s)[0] != "max" for s in _seen("pp.hook", seeds=20))


def test_schedule_and_score_drills_under_the_variant_houses():
    # Rule page, known variants: "Frontal deal: players do not see their own cards but see the others'";
    # "Scoring for special deals multiplied by 2 or 3"; deals: "one article in the seed plays the
    # specials between the rising and the falling part".
    scored = _seen("pp.score", rules="odessa-house")
    assert "frontal" in {situation.data["deal"] for situation in scored}
    classic_most = len(pp.load_rules("classic").deck) // 2  # the largest classic hand (two players)
    for rules, factor in (("odessa-house", 2), ("deck-54", 3)):
        multiplied = 0
        for situation in _seen("pp.score", rules=rules, seeds=30):
            data = situation.data
            expected, _text, steps = expected_of(situation)
            assert expected == pp.score(data["bid"], data["took"], data["deal"], rules, cards=data["cards"])
            if data["deal"] != "normal":
                # Frontal deals are "scored like a normal deal"; the classic house multiplies nothing.
                kind = "normal" if data["deal"] == "frontal" else data["deal"]
                if kind == "gold":
                    # The seed: "10 ქულა თითო ილეთზე ნებისმიერ შემთხვევაში" (10 a trick in any case),
                    # multiplied once at these houses; the classic house's 20 is already doubled.
                    assert expected == factor * 10 * data["took"]
                elif data["cards"] <= classic_most:  # deck-54's larger hands are no classic hand
                    classic = pp.score(data["bid"], data["took"], kind, "classic", cards=data["cards"])
                    assert expected == factor * classic
                assert f"count x {factor}" in str(steps[-1])
                multiplied += 1
        assert multiplied > 20, rules
    frontal = {expected_of(s)[0] for s in _seen("pp.schedule", rules="odessa-house", seeds=40)}
    assert any(str(answer).endswith(":frontal") for answer in frontal)
    answers = {expected_of(s)[0] for s in _seen("pp.schedule", rules="deck-54", seeds=40)}
    assert {"13:dark", "13:normal"} <= answers  # four players: specials at 13 cards, in the middle
