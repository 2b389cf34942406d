"""The school's pace (data/pace.toml): figures for every registered drill kind and for no other, known
ratings at the edges, a figure a kind leaves out taken from the default, and a file with an impossible
figure refused with its name and the key."""

import pytest

from trainer.drills import REGISTRY
from trainer.drills.pace import KindPace, Pace, load, shipped_paces


def test_every_registered_kind_has_a_target_in_the_data_file():
    paces = shipped_paces()
    # A misspelt kind would be ignored in silence and the kind rated by the default figures.
    assert set(REGISTRY) == set(paces.kinds)
    assert paces.target_s("rp.bet_payout") == 9  # payout trainers' standard: about 9 s a bet


@pytest.mark.parametrize(
    ("time_ms", "pace"),
    [(0, Pace.FAST), (5_400, Pace.FAST), (5_401, Pace.ON_PACE), (9_000, Pace.ON_PACE), (9_001, Pace.SLOW)],
)
def test_ratings_at_the_edges(time_ms, pace):
    assert shipped_paces().rate("rp.bet_payout", time_ms) is pace


def test_a_figure_a_kind_leaves_out_is_the_defaults(tmp_path):
    path = tmp_path / "pace.toml"
    path.write_text(
        "fast_share = 0.5\ndefault = { target = 12, easy = 6, hard = 20 }\n"
        '[kinds]\n"rp.qualify" = { target = 6, hard = 10 }\n',
        encoding="utf-8",
    )
    paces = load(path)
    assert paces.of("rp.qualify") == KindPace(6, 6, 10)
    assert paces.of("om.high") == KindPace(12, 6, 20)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("fast_share = 0.5\ndefault = { target = 0, easy = 6, hard = 20 }\n", "default.target"),
        ("fast_share = 0.5\ndefault = { target = 12, easy = 6 }\n", "'hard'"),
        ("fast_share = 1\ndefault = { target = 12, easy = 6, hard = 20 }\n", "fast_share"),
        (
            "fast_share = 0.5\ndefault = { target = 12, easy = 6, hard = 20 }\n"
            '[kinds]\n"x" = { easy = 30 }\n',
            "kinds.x",
        ),
        (
            "fast_share = 0.5\ndefault = { target = 12, easy = 6, hard = 20 }\ndefault_seconds = 12\n",
            "default_seconds",
        ),
    ],
)
def test_an_impossible_figure_is_refused_with_the_file_and_key_named(tmp_path, text, key):
    bad = tmp_path / "pace.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=r"pace\.toml") as error:
        load(bad)
    assert key in str(error.value)
