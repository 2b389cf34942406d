"""Painted poker drills: reproducible, graded like the engine, every branch drawn often, answers kept out.

The expected answers here are recomputed from the engine's plain functions (`score`, `schedule`,
`forbidden_bid`, `trick_winner`, the sheet summed deal by deal), not from the drills' `solve`.
"""

from collections import Counter

import pytest
from conftest import DrawnOnUse

from trainer.drills import REGISTRY, AnswerError, DrillError, expected_of, grade, issue
from trainer.drills.painted_poker.common import score_branch
from trainer.engine import painted_poker as pp
from trainer.engine.cards import Card
from trainer.engine.painted_poker.rules import DealKind, SetPremium

KINDS = ("pp.score", "pp.schedule", "pp.hook", "pp.trick", "pp.sheet")
LEVELS = (1, 2, 3)
PRESETS = (None, "georgian-joker")
# Per kind and level: 1,000 cost the suite 20 s, 400 cost 8 s more than 250; every branch shows within 250.
COUNT = 250

# Exactly these keys make up a situation: the inputs a croupier sees, never the ruling.
KEYS = {
    "pp.score": {"rules", "players", "deal", "cards", "bid", "took"},
    "pp.schedule": {"rules", "players", "number"},
    "pp.hook": {"rules", "players", "cards", "deal", "dealer", "bids"},
    "pp.trick": {"rules", "players", "deal", "turned", "jokers", "plays"},  # jokers: as drawn (issue 26)
    "pp.sheet": {"rules", "players", "first_dealer", "seat", "before", "deals"},
}
ANSWER_WORDS = {"answer", "expected", "points", "score", "winner", "forbidden", "total", "totals", "premia"}


def _situations(kind, level, rules):
    return [issue(kind, level, seed=seed, rules=rules) for seed in range(COUNT)]


@pytest.fixture(scope="module")
def drawn():
    """COUNT situations per (kind, level, rules), each drawn when first asked for."""
    return DrawnOnUse(_situations)


def engine_answer(kind, data):
    """The ruling straight from the engine's plain functions."""
    rules = pp.load_rules(data["rules"])
    if kind == "pp.score":
        return pp.score(data["bid"], data["took"], data["deal"], rules, cards=data["cards"])
    if kind == "pp.schedule":
        deal = pp.schedule(data["players"], rules)[data["number"] - 1]
        return f"{deal.cards}:{deal.kind.value}"
    if kind == "pp.hook":
        banned = pp.forbidden_bid(data["cards"], [b["bid"] for b in data["bids"]], data["deal"], rules)
        return "none" if banned is None else str(banned)
    if kind == "pp.trick":
        turned = Card.from_text(data["turned"]) if data["turned"] else None
        plays = [pp.Play.parse(p["play"]) for p in data["plays"]]
        position = pp.trick_winner(plays, pp.trump_of(turned, rules, data["deal"]), rules)
        return str(data["plays"][position]["seat"])
    seat = data["seat"] - 1
    rows = data["deals"]
    scores = [
        pp.score(r["bids"] and r["bids"][seat], r["tricks"][seat], r["deal"], rules, cards=r["cards"])
        for r in rows
    ]
    total = data["before"] + sum(scores)
    deals = pp.schedule(data["players"], rules, data["first_dealer"] - 1)
    whole_set = (
        rules.scoring.set_premium is SetPremium.DOUBLE_BEST
        and len({deals[r["number"] - 1].set for r in rows}) == 1
        and [d.number for d in deals if d.set == deals[rows[0]["number"] - 1].set]
        == [r["number"] for r in rows]
    )
    if whole_set and all(r["bids"][seat] == r["tricks"][seat] for r in rows):
        total += max(scores)
    return total


def wrong_answer(fmt, expected):
    if fmt["kind"] == "amount":
        return str(expected + 10)
    return next(c["value"] for c in fmt["choices"] if c["value"] != expected)


@pytest.mark.parametrize("kind", KINDS)
def test_registered(kind):
    assert REGISTRY[kind].game == "painted_poker" and REGISTRY[kind].levels == LEVELS


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("rules", PRESETS)
def test_seeded_generation_is_reproducible(kind, level, rules):
    for seed in (0, 1, 99, 2**40):
        assert issue(kind, level, seed=seed, rules=rules) == issue(kind, level, seed=seed, rules=rules)
    assert len({str(issue(kind, level, seed=s, rules=rules).data) for s in range(20)}) > 5


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("rules", PRESETS)
def test_graded_against_the_engine(drawn, kind, level, rules):
    for situation in drawn[(kind, level, rules)]:
        data = situation.data
        answer = engine_answer(kind, data)
        result = grade(situation, str(answer))
        assert result.correct, (situation, answer, result.expected)
        assert result.explanation and all(str(s) for s in result.explanation)
        assert not grade(situation, wrong_answer(situation.answer_format.to_json(), answer)).correct


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("rules", PRESETS)
def test_situation_never_contains_the_answer(drawn, kind, level, rules):
    for situation in drawn[(kind, level, rules)][:200]:
        data = situation.data
        assert set(data) == KEYS[kind] | {"prompt"}
        # The prompt is messages: templates with their values apart (no number written into one).
        assert all(str(m) and not any(ch.isdigit() for ch in m.template) for m in situation.prompt)
        assert not ANSWER_WORDS & {key for m in situation.prompt for key in m.params}
        nested = [row for key in ("deals", "bids", "plays") for row in data.get(key, [])]
        assert all(isinstance(row, dict) and not ANSWER_WORDS & set(row) for row in nested)


@pytest.mark.parametrize(
    ("kind", "raw"),
    [
        ("pp.score", "ten"),
        ("pp.score", "12.5"),
        ("pp.score", ""),
        ("pp.score", None),
        ("pp.sheet", "1,40"),
        ("pp.sheet", [3]),
        ("pp.schedule", "seven"),
        ("pp.schedule", "99:dark"),
        ("pp.hook", "-1"),
        ("pp.hook", "maybe"),
        ("pp.trick", "seat 9"),
        ("pp.trick", "9"),
        ("pp.trick", ""),
    ],
)
def test_malformed_answers_are_rejected_not_graded(kind, raw):
    situation = issue(kind, 2, seed=7)
    with pytest.raises(AnswerError):
        grade(situation, raw)


def test_choice_answers_accept_value_or_label():
    situation = issue("pp.trick", 1, seed=3)
    value = expected_of(situation)[0]
    label = next(c["label"] for c in situation.answer_format.to_json()["choices"] if c["value"] == value)
    assert grade(situation, value).correct and grade(situation, label).correct
    hook = issue("pp.hook", 1, seed=3)
    assert set(c["value"] for c in hook.answer_format.to_json()["choices"]) == {"none"} | {
        str(b) for b in range(hook.data["cards"] + 1)
    }


def test_unknown_preset_is_a_drill_error():
    with pytest.raises(DrillError, match="no painted poker rules named 'lunar'"):
        issue("pp.score", 1, seed=1, rules="lunar")


# --- every branch comes up often --------------------------------------------------------------------


def _share(counter, total=COUNT):
    return {k: v / total for k, v in counter.items()}


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("rules", PRESETS)
def test_score_branches_are_drawn_evenly(drawn, level, rules):
    preset = pp.load_rules(rules)
    seen = Counter(
        score_branch(d["bid"], d["took"], d["cards"], DealKind(d["deal"]), preset)
        for d in (s.data for s in drawn[("pp.score", level, rules)])
    )
    expected = {"exact", "pass", "over", "under"} | (
        {"gold", "miser"} if rules is None else {"all_taken", "khishti"}
    )
    assert set(seen) == expected
    assert min(_share(seen).values()) > 0.1
    kinds = Counter(s.data["deal"] for s in drawn[("pp.score", level, rules)])
    if rules is None and level > 1:
        assert kinds["dark"] > 0.125 * COUNT and kinds["no_trump"] > 0.125 * COUNT


@pytest.mark.parametrize("level", LEVELS)
def test_schedule_asks_every_part(drawn, level):
    parts = Counter()
    for s in drawn[("pp.schedule", level, None)]:
        d = s.data
        parts[pp.schedule(d["players"])[d["number"] - 1].segment.value] += 1
    assert set(parts) == {"rising", "max", "falling", "dark", "gold", "miser", "no_trump"}
    assert min(_share(parts).values()) > 0.07


@pytest.mark.parametrize("level", LEVELS)
def test_hook_cases(drawn, level):
    cases = Counter()
    for s in drawn[("pp.hook", level, None)]:
        d, expected = s.data, expected_of(s)[0]
        if d["deal"] == "dark":
            cases["dark"] += 1
        elif expected == "none":
            cases["passed by"] += 1
        elif expected == "0":
            cases["zero"] += 1
        elif expected == str(d["cards"]):
            cases["all the cards"] += 1
        else:
            cases["middle"] += 1
    assert min(_share(cases).values()) > 0.1 and len(cases) == 5, cases


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("rules", PRESETS)
def test_trick_rules_come_up(drawn, level, rules):
    preset = pp.load_rules(rules)
    seen = Counter()
    for s in drawn[("pp.trick", level, rules)]:
        d = s.data
        plays = [pp.Play.parse(p["play"]) for p in d["plays"]]
        turned = Card.from_text(d["turned"]) if d["turned"] else None
        trump = pp.trump_of(turned, preset, d["deal"])
        won = plays[pp.trick_winner(plays, trump, preset)]
        seen[
            "joker wins"
            if preset.is_joker(won.card)
            else "trump wins"
            if won.card.suit == trump
            else "suit wins"
        ] += 1
        seen.update(f"led {plays[0].call.value}" for _ in [0] if preset.is_joker(plays[0].card))
        seen.update("thrown low" for p in plays[1:] if p.call is pp.JokerCall.LOW)
        seen["no trump"] += trump is None
        seen["two jokers"] += sum(preset.is_joker(p.card) for p in plays) == 2
    wanted = {"joker wins", "trump wins", "suit wins", "thrown low"}
    if level > 1:
        wanted |= {"led highest", "led highest_trump", "led low", "no trump"}
    if level > 1 and rules is not None:
        wanted.add("two jokers")
    assert all(seen[w] > 0.07 * COUNT for w in wanted), seen


def test_sheet_premia_and_special_deals(drawn):
    georgian = [expected_of(s) for s in drawn[("pp.sheet", 3, "georgian-joker")]]
    with_premium = sum(any("counts twice" in str(step) for step in e[2]) for e in georgian)
    assert with_premium > 0.3 * COUNT
    specials = Counter(r["deal"] for s in drawn[("pp.sheet", 2, None)] for r in s.data["deals"])
    assert all(specials[k] > 100 for k in ("dark", "gold", "miser", "no_trump")), specials
