"""The school's pace (data/pace.toml): a target for every registered drill kind, known ratings at the
edges, and a file with an impossible figure refused with its name."""

import pytest

from trainer.drills import REGISTRY
from trainer.drills.pace import Pace, load, shipped_paces


def test_every_registered_kind_has_a_target_in_the_data_file():
    paces = shipped_paces()
    assert set(REGISTRY) <= set(paces.kinds)
    assert paces.target_s("rp.bet_payout") == 9  # payout trainers' standard: about 9 s a bet


@pytest.mark.parametrize(
    ("time_ms", "pace"),
    [(0, Pace.FAST), (5_400, Pace.FAST), (5_401, Pace.ON_PACE), (9_000, Pace.ON_PACE), (9_001, Pace.SLOW)],
)
def test_ratings_at_the_edges(time_ms, pace):
    assert shipped_paces().rate("rp.bet_payout", time_ms) is pace


def test_an_impossible_figure_is_refused_with_the_file_named(tmp_path):
    bad = tmp_path / "pace.toml"
    bad.write_text("default_seconds = 0\nfast_share = 0.5\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"pace\.toml"):
        load(bad)
