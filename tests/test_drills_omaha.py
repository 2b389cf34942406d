"""Omaha drills: reproducible, graded right on the engine's own answer (computed here by calling the
engine directly, not through the drill's solver) on 1,000 situations per kind and level, every branch
drawn often, malformed answers refused, and no answer inside the situation."""

from __future__ import annotations

import json
from collections import Counter
from functools import cache

import pytest

from trainer.drills import REGISTRY
from trainer.drills.base import AnswerError, grade, issue
from trainer.drills.omaha.bets import replay
from trainer.drills.omaha.kinds import classify
from trainer.engine.omaha import best_high, best_low, format_low, settle, showdown, side_pots
from trainer.engine.omaha.betting import (
    Street,
    limit_raise_to,
    load_rules,
    missed_blinds_post,
    post_blinds,
    pot_limit_max,
)

KINDS = (
    "om.high",
    "om.winner",
    "om.low",
    "om.split",
    "om.side_pots",
    "om.pot_limit",
    "om.limit",
    "om.blinds",
)
# Per kind and level: 1,000 cost the suite 20 s, 400 cost 8 s more than 250; every branch shows within 250.
COUNT = 250


@cache
def situations(kind: str, level: int) -> tuple[dict, ...]:
    return tuple(issue(kind, level, seed=seed) for seed in range(COUNT))


def engine_answer(kind: str, data: dict):
    """The answer straight from the engine, in the shape the trainee gives it."""
    if kind == "om.high":
        return best_high(data["hole"], data["board"]).category.value
    if kind == "om.low":
        low = best_low(data["hole"], data["board"])
        return "none" if low is None else format_low(low)
    if kind == "om.winner":
        hands = [best_high(h, data["board"]) for h in data["holes"]]
        seats = [s for s, h in enumerate(hands) if h == max(hands)]
        # Seats as the table numbers them, from 1.
        return ("seat-" if len(seats) == 1 else "seats-") + "-".join(str(s + 1) for s in seats)
    if kind == "om.split":
        paid = showdown(
            data["board"],
            data["holes"],
            data["contributions"],
            hi_lo=True,
            button=data["button"],
            chip=data["chip"],
        )
        return {f"Seat {s}": v for s, v in enumerate(paid, start=1)}
    if kind == "om.side_pots":
        folded = [s for s, h in enumerate(data["holes"]) if h is None]
        built = side_pots(data["contributions"], folded)
        live = len(data["holes"]) - len(folded)
        answer = {"Main pot" if i == 0 else f"Side pot {i}": 0 for i in range(live)}
        for i, amount in enumerate(built.amounts):
            answer["Main pot" if i == 0 else f"Side pot {i}"] = amount
        if data["level"] >= 2:
            answer["Returned"] = sum(built.returned)
        paid = showdown(
            data["board"],
            data["holes"],
            data["contributions"],
            hi_lo=data["hi_lo"],
            button=data["button"],
            chip=data["chip"],
        )
        return answer | {f"Seat {s}": v for s, v in enumerate(paid, start=1)}
    if kind == "om.pot_limit":
        bets = replay(data["actions"])
        own = bets.get(data["actor"], 0)
        to_call = max(bets.values(), default=0) - own
        return own + pot_limit_max(data["pot_before"] + sum(bets.values()), to_call, stack=data.get("stack"))
    if kind == "om.limit":
        made = sum(a["action"] in ("bet", "raise") for a in data["actions"]) + (data["street"] == "preflop")
        small, big = data["stakes"]
        raise_to = limit_raise_to(
            data["street"],
            small,
            big,
            bets_made=made,
            players=data["players"],
            rules=load_rules(data["preset"]),
        )
        return raise_to or 0
    assert kind == "om.blinds"
    sb, bb = data["blinds"]
    if "missed" in data:
        post = missed_blinds_post(data["missed"], sb, bb, load_rules(data["preset"]))
        return {"Live": post.live, "Dead": post.dead}
    blinds = post_blinds(data["button"], data["stacks"], sb, bb)
    return {f"Seat {s + 1}": blinds.posted[s] for s, c in enumerate(data["stacks"]) if c is not None}


def test_all_kinds_registered():
    assert set(KINDS) <= set(REGISTRY)
    assert all(REGISTRY[k].game == "omaha" and REGISTRY[k].levels == (1, 2, 3) for k in KINDS)


@pytest.mark.parametrize("kind", KINDS)
def test_reproducible_from_seed(kind):
    for level in (1, 2, 3):
        first = [issue(kind, level, seed=seed) for seed in range(20)]
        assert [issue(kind, level, seed=seed) for seed in range(20)] == first
        assert len({json.dumps(s.data, sort_keys=True) for s in first}) > 10


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("kind", KINDS)
def test_engine_answer_is_graded_correct(kind, level):
    for situation in situations(kind, level):
        answer = engine_answer(kind, situation.data)
        result = grade(situation, answer)
        assert result.correct, (situation, answer, result.expected)
        assert result.explanation and all(str(s) for s in result.explanation)


MALFORMED = {
    "amount": ["", "twelve", "1.5", None, [], "1 2 3 4"],
    "choice": ["", "full boat", None, 7, "seat 99"],
    "amounts": ["", "abc", None, {"Seat 99": 1}, [1]],
}


@pytest.mark.parametrize("kind", KINDS)
def test_malformed_answers_are_refused(kind):
    for level in (1, 2, 3):
        for situation in situations(kind, level)[:20]:
            for raw in MALFORMED[situation.answer_format.to_json()["kind"]]:
                with pytest.raises(AnswerError):
                    grade(situation, raw)


def _strings(value):
    if isinstance(value, dict):
        for key, item in value.items():
            yield str(key).lower()
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    else:
        yield str(value).lower()


@pytest.mark.parametrize("kind", KINDS)
def test_situation_never_contains_the_answer(kind):
    for level in (1, 2, 3):
        for situation in situations(kind, level)[:300]:
            data = situation.data
            assert not {"answer", "expected", "solution", "result", "payouts"} & set(data)
            answer = engine_answer(kind, data)
            if situation.answer_format.to_json()["kind"] == "choice":
                prompt = " ".join(str(m) for m in situation.prompt).lower()
                leaves = set(_strings({k: v for k, v in data.items() if not k.startswith("prompt")}))
                assert answer.lower() not in leaves and answer.lower() not in prompt
                if kind in ("om.high", "om.low"):  # seat numbers are naturally in om.winner's prompt
                    label = next(
                        c["label"]
                        for c in situation.answer_format.to_json()["choices"]
                        if c["value"] == answer
                    )
                    assert label.lower() not in prompt


# ---------------------------------------------------------------------------------------------------
# Every branch comes up often


def _share(kind, level, predicate):
    return sum(bool(predicate(s.data)) for s in situations(kind, level)) / COUNT


def test_high_draws_every_category():
    for level in (2, 3):
        counts = Counter(
            best_high(s.data["hole"], s.data["board"]).category for s in situations("om.high", level)
        )
        assert len(counts) == 10 and min(counts.values()) > COUNT * 0.05, counts


def test_winner_draws_ties():
    for level in (1, 2, 3):
        assert (
            0.2
            < _share("om.winner", level, lambda d: engine_answer("om.winner", d).startswith("seats-"))
            < 0.45
        )


def test_low_draws_no_low_and_counterfeits():
    for level in (1, 2, 3):
        none = _share("om.low", level, lambda d: best_low(d["hole"], d["board"]) is None)
        assert 0.2 < none < 0.75
    for level in (2, 3):
        # Counterfeit: the board has three low ranks and the hand two, yet no low.
        def counterfeit(d):
            board = {1 if c[0] == "A" else int(c[0]) for c in d["board"] if c[0] in "A2345678"}
            hole = {1 if c[0] == "A" else int(c[0]) for c in d["hole"] if c[0] in "A2345678"}
            return best_low(d["hole"], d["board"]) is None and len(board) >= 3 and len(hole) >= 2

        assert _share("om.low", level, counterfeit) > 0.15


def test_split_draws_every_hi_lo_branch():
    for level in (1, 2, 3):
        branches = Counter(
            classify(
                settle(
                    d["board"], d["holes"], d["contributions"], hi_lo=True, button=d["button"], chip=d["chip"]
                )
            )
            for d in (s.data for s in situations("om.split", level))
        )
        assert len(branches) == 6 and min(branches.values()) > COUNT * 0.05, branches


def test_split_levels():
    def odd_chips(d):
        ruling = settle(
            d["board"], d["holes"], d["contributions"], hi_lo=True, button=d["button"], chip=d["chip"]
        )
        return any(p.pot.amount // d["chip"] % 2 for p in ruling.pots if p.low_winners)

    # Level 1: round amounts, two or three players, one pot.
    assert all(all(c % 10 == 0 for c in s.data["contributions"]) for s in situations("om.split", 1))
    assert all(len(s.data["holes"]) <= 3 for s in situations("om.split", 1))
    # Level 2: odd amounts and folded chips make odd chips; level 3 side pots and chip 5.
    assert _share("om.split", 2, odd_chips) > 0.2
    assert _share("om.split", 3, lambda d: len(set(d["contributions"])) > 1) > 0.9
    assert 0.3 < _share("om.split", 3, lambda d: d["chip"] == 5) < 0.7


def test_side_pots_draw_all_ins_folds_and_uncalled_bets():
    for level in (1, 2, 3):
        assert _share("om.side_pots", level, lambda d: len(side_pots(d["contributions"], []).pots) >= 2) > 0.9

    def live_all_ins(d):
        live = [c for c, h in zip(d["contributions"], d["holes"], strict=True) if h is not None]
        return sum(c < max(live) for c in live)

    assert _share("om.side_pots", 3, lambda d: live_all_ins(d) >= 2) > 0.3
    assert _share("om.side_pots", 3, lambda d: live_all_ins(d) >= 3) > 0.1
    for level in (2, 3):
        assert _share("om.side_pots", level, lambda d: None in d["holes"]) > 0.9
        uncalled = _share(
            "om.side_pots", level, lambda d: sum(side_pots(d["contributions"], []).returned) > 0
        )
        assert 0.25 < uncalled < 0.8
    assert _share("om.side_pots", 3, lambda d: d["hi_lo"]) > 0.3


def test_pot_limit_draws_stacks_and_streets():
    assert _share("om.pot_limit", 3, lambda d: "stack" in d) > 0.2
    for level in (1, 2, 3):
        assert 0.3 < _share("om.pot_limit", level, lambda d: d["street"] == "preflop") < 0.7
    assert _share("om.pot_limit", 2, lambda d: any(a["action"] == "raise" for a in d["actions"])) > 0.3


def test_limit_draws_caps_and_heads_up():
    capped = lambda d: engine_answer("om.limit", d) == 0  # noqa: E731
    heads_up_beyond_cap = lambda d: d["players"] == 2 and engine_answer("om.limit", d) > 4 * min(d["stakes"])  # noqa: E731
    assert _share("om.limit", 1, capped) > 0.1
    for level in (2, 3):
        assert _share("om.limit", level, capped) > 0.2
        assert _share("om.limit", level, heads_up_beyond_cap) > 0.1
    assert {Street(s.data["street"]) for s in situations("om.limit", 2)} == set(Street)


def test_blinds_draw_missed_blinds_heads_up_and_short_stacks():
    assert {s.data["missed"] for s in situations("om.blinds", 1)} == {"big", "both"}
    assert {s.data["missed"] for s in situations("om.blinds", 2)} == {"small", "big", "both"}
    level3 = [s.data for s in situations("om.blinds", 3)]
    heads_up = sum(sum(c is not None for c in d["stacks"]) == 2 for d in level3)
    short = sum(bool(post_blinds(d["button"], d["stacks"], *d["blinds"]).all_in) for d in level3)
    assert heads_up > COUNT * 0.25 and short > COUNT * 0.1


def test_unknown_house_rules_are_refused():
    assert issue("om.limit", 2, seed=1, rules="standard").data["preset"] == "standard"
    with pytest.raises(ValueError, match="unknown Omaha house rules 'lunar'"):
        issue("om.limit", 2, seed=1, rules="lunar")


@pytest.mark.parametrize("kind", sorted(k for k in REGISTRY if k.startswith("om.")))
@pytest.mark.parametrize("rules", ["no-such-house", "cis", "", "x" * 300])
def test_a_preset_omaha_does_not_have_is_refused(kind, rules):
    with pytest.raises(ValueError):
        issue(kind, 1, seed=1, rules=rules)
