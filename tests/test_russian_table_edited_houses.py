"""Russian poker table rounds dealt under an instructor's edited copy of the insured house that the
loader and the house-rules editor accept: no exchange allowed (`max_exchanges = 0`), a table
maximum too low for any insurance stake (`table_max.payout = 1`), insurance from a high card. The
dealer let a box exchange past the house's limit, and offered insurance where the least stake was
above the most, both ValueErrors at settlement (a 500 on POST /table/rounds for the group's
trainees); now such a box draws without an exchange, and such a hand is not insured."""

import pytest

from trainer.drills.rounds import deal
from trainer.engine.presets import HouseTexts
from trainer.games import BY_ID

INSURED = (BY_ID["russian_poker"].rules_folder / "insured.toml").read_text()
EDITS = [
    ("max_exchanges = 2", "max_exchanges = 0"),
    ("payout = 5000", "payout = 1"),
    ('min_category = "three_of_a_kind"', 'min_category = "high_card"'),
]


@pytest.mark.parametrize("edit", EDITS, ids=[new for _, new in EDITS])
def test_rounds_deal_under_an_edited_insured_house(edit):
    from trainer.store.house_rules import house_name

    text = INSURED.replace(*edit, 1)
    assert text != INSURED
    name = house_name(text)
    houses = HouseTexts.of(BY_ID["russian_poker"].slug, name, text)
    for level in (1, 2, 3):
        for seed in range(25):
            deal("russian_poker", level, seed, rules=name, houses=houses)
