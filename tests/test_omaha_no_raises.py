"""An Omaha house copy with no raises in a limit round (`limit.raises_per_round = 0`, which the
loader and the instructor's house-rules editor accept: one bet a round, pre-flop the big blind):
every limit question draws and is graded under it. Drawing one with bets still to be made failed
(randrange over an empty range, a 500 for the trainee practising for the group) whenever the round
was already capped before the first action."""

import pytest

from trainer.drills import expected_of, issue
from trainer.engine.presets import HouseTexts
from trainer.games import BY_ID
from trainer.store.house_rules import house_name

STANDARD = (BY_ID["omaha"].rules_folder / "standard.toml").read_text()


@pytest.mark.parametrize("level", [1, 2, 3])
def test_limit_questions_draw_and_grade_under_a_house_with_no_raises(level):
    text = STANDARD.replace("raises_per_round = 3", "raises_per_round = 0", 1)
    assert text != STANDARD
    name = house_name(text)
    houses = HouseTexts.of(BY_ID["omaha"].slug, name, text)
    for seed in range(60):
        drawn = issue("om.limit", level, seed=seed, rules=name, houses=houses)
        right = expected_of(drawn, houses=houses)[0]
        assert right is not None
        # One bet a round: no bet nor raise is ever shown beyond the first.
        bets = [a for a in drawn.data["actions"] if a["action"] in ("bet", "raise")]
        assert len(bets) <= 1 or drawn.data["players"] == 2, drawn.data
