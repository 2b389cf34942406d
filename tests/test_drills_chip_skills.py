"""Chip handling drills (`rp.`/`om.` `chip_change`, `colour_up`, `chip_count`; trainer/drills/chip_skills.py):
answers worked by hand in both chip sets, a sweep over seeds, levels and houses, the API and the page."""

from __future__ import annotations

from typing import Any

import pytest
from accounts_helpers import signed_in
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spot_cases import CHIP_CASES

from trainer.drills import REGISTRY, Situation, expected_of, get_kind, grade, issue
from trainer.drills.base import mistakes_of
from trainer.drills.chips import load_chips
from trainer.games import BY_ID
from trainer.store import Store, open_db

CHIP_KINDS = (
    *(f"{g}.{k}" for g in ("rp", "om") for k in ("chip_change", "colour_up", "chip_count")),
    "rp.pay_box",
)
SET_OF = {"rp": "standard", "om": "poker-room"}


def _situation(kind_id: str, data: dict[str, Any]) -> Situation:
    kind = get_kind(kind_id)
    return Situation(kind_id, 1, 0, kind.version, None, data, kind.answer_format(data))


@pytest.mark.parametrize(("kind_id", "data", "right", "mistakes"), CHIP_CASES)
def test_hand_worked_answers(kind_id, data, right, mistakes) -> None:
    s = _situation(kind_id, data)
    assert expected_of(s)[0] == right and grade(s, right).correct
    for mistake_id, answer in mistakes.items():
        graded = grade(s, answer)
        assert not graded.correct and graded.mistake.id == mistake_id


def test_the_same_value_in_more_chips_is_not_the_fewest() -> None:
    s = _situation("rp.chip_change", {"chip_set": "standard", "amount": 1430, "task": "payout"})
    more = {"5000": 0, "1000": 0, "500": 2, "100": 4, "25": 0, "5": 6}  # 1,430 in 12 chips
    assert load_chips("standard").value_of(more) == 1430 and not grade(s, more).correct
    said = [str(m) for m in expected_of(s)[2]]
    assert "Fewest chips for 1430: 1 x 1000, 4 x 100, 1 x 25, 1 x 5." in said


def test_colouring_up_says_each_exchange() -> None:
    s = _situation("rp.colour_up", CHIP_CASES[2][1])
    said = [str(m) for m in expected_of(s)[2]]
    assert said[:3] == [
        "The chips are worth 160.",
        "Colour up: 10 x 5 make 2 x 25.",
        "Colour up: 4 x 25 make 1 x 100.",
    ]


@pytest.mark.parametrize("kind_id", CHIP_KINDS)
def test_each_kind_draws_in_its_games_chip_set(kind_id: str) -> None:
    game = REGISTRY[kind_id].game
    assert kind_id in BY_ID[game].kinds
    for level in (1, 2, 3):
        assert issue(kind_id, level, seed=level).data["chip_set"] == SET_OF[kind_id[:2]]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind_id=st.sampled_from(CHIP_KINDS),
    level=st.integers(1, 3),
    seed=st.integers(0, 2**31),
    house=st.integers(0, 9),
)
def test_every_situation_is_exact_and_no_mistake_is_right(kind_id, level, seed, house) -> None:
    presets = BY_ID[REGISTRY[kind_id].game].preset_names()
    s = issue(kind_id, level, seed=seed, rules=presets[house % len(presets)])
    chips = load_chips(s.data["chip_set"])
    right = expected_of(s)[0]
    assert grade(s, right).correct
    if kind_id == "rp.pay_box":
        win = expected_of(
            Situation(
                "rp.bet_payout", level, 0, 1, s.rules, s.data, get_kind("rp.bet_payout").answer_format(s.data)
            )
        )[0]
        assert win > 0 and chips.value_of(right) == win
    elif kind_id.endswith("chip_change"):
        assert chips.payable(s.data["amount"]) and s.data["amount"] > 0
        assert chips.value_of(right) == s.data["amount"]
    else:
        stacks = s.data["stacks"]
        assert all(1 <= st_["count"] <= chips.stack for st_ in stacks)
        total = sum(st_["value"] * st_["count"] for st_ in stacks)
        if kind_id.endswith("colour_up"):
            assert chips.value_of(right) == total
            assert chips.colour_up({str(x["value"]): x["count"] for x in stacks})  # something to colour up
        else:
            assert right == total
    for m in mistakes_of(s):
        assert m.answer != right and not grade(s, m.answer).correct


def test_the_api_grades_a_chips_answer(tmp_path) -> None:
    from api_helpers import make_api_app, token_client

    app = make_api_app(tmp_path)
    instructor = token_client(app, "chips.teacher", "instructor")
    made = instructor.post("/api/v1/drills", json={"kind": "om.chip_change", "level": 3, "seed": 8})
    assert made.status_code == 201, made.json
    right = expected_of(issue("om.chip_change", 3, seed=8))[0]
    answered = instructor.post(f"/api/v1/drills/{made.json['id']}/answer", json={"answer": right})
    assert answered.status_code == 200 and answered.json["correct"] is True


def test_the_practice_page_draws_every_chip(app) -> None:
    client = signed_in(app, "chips.ka")
    db = open_db(app.config["DATABASE"])
    trainee = next(db.query("SELECT id FROM users WHERE username = 'chips.ka'"))["id"]
    s = issue("rp.chip_count", 3, seed=5)
    drill = Store(db).save_drill(trainee, s, mode="practice")
    page = client.get(f"/practice/drill/{drill}", headers={"Accept-Language": "ka"}).get_data(as_text=True)
    towers = page[page.index('class="towers"') : page.index('class="chip-key"')]
    assert towers.count('class="chip ') == sum(x["count"] for x in s.data["stacks"])
    response = client.post(
        f"/practice/drill/{drill}", data={"drill": str(drill), "answer": str(expected_of(s)[0])}
    )
    assert response.status_code == 302 and Store(db).attempt(drill)["correct"]


@pytest.mark.parametrize("kind_id", CHIP_KINDS)
def test_a_house_the_game_does_not_have_is_refused(kind_id: str) -> None:
    from trainer.drills import RulesError

    with pytest.raises(RulesError):
        issue(kind_id, 1, seed=1, rules="no-such-house")


def _fewest_counts(values: list[int], most: int) -> list[int]:
    """The fewest chips of `values` making each amount 0..most (None when none makes it)."""
    fewest: list[int | None] = [0] + [None] * most
    for total in range(1, most + 1):
        made = [fewest[total - v] for v in values if v <= total and fewest[total - v] is not None]
        fewest[total] = min(made) + 1 if made else None
    return fewest


@pytest.mark.parametrize("name", ["standard", "poker-room"])
def test_the_fewest_chips_are_the_fewest_of_every_amount(name) -> None:
    # A shipped set (each chip a multiple of the one below) is cut largest chip first: checked here
    # against the fewest count of every amount up to two of the largest chip and more, worked out over
    # all ways independently (in units of the smallest chip).
    chips = load_chips(name)
    unit = chips.smallest
    least = _fewest_counts([c.value // unit for c in chips.chips], 12_000 // unit)
    for amount in range(0, 12_001, unit):
        counts = chips.fewest(amount)
        assert chips.value_of(counts) == amount and sum(counts.values()) == least[amount // unit], amount


def test_a_set_where_the_largest_chip_first_is_not_the_fewest() -> None:
    # Built directly (the loader refuses it): 3 does not divide 4, and 6 is two 3s, not 4 + 1 + 1.
    from trainer.drills.chips import Chip, ChipSet

    odd = ChipSet("odd", "odd", tuple(Chip(v, "#000000", "black") for v in (1, 3, 4)), "amount", 20)
    least = _fewest_counts([1, 3, 4], 300)
    assert odd.fewest(6) == {"4": 0, "3": 2, "1": 0}
    for amount in range(301):
        counts = odd.fewest(amount)
        assert odd.value_of(counts) == amount and sum(counts.values()) == least[amount], amount
