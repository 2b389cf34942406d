"""The readiness rule: figures from data/readiness.toml, the verdict on known answer lists, and the
query over a trainee's last answers at level 2 or above in one game."""

from datetime import UTC, datetime, timedelta

import pytest
from conftest import memory_db
from web_toys import toy_kinds

from trainer.drills import issue
from trainer.store import Store
from trainer.store.readiness import Status, Target, default_target, readiness, verdict


def test_default_target_is_the_data_file():
    assert default_target() == Target(accuracy=0.95, window=40, min_level=2, median_seconds=10.0)


@pytest.mark.parametrize(
    ("answers", "status"),
    [
        ([(True, 9000)] * 40, Status.READY),
        ([(True, 9000)] * 38 + [(False, 9000)] * 2, Status.READY),  # 95% exactly
        ([(True, 9000)] * 37 + [(False, 9000)] * 3, Status.NOT_YET),  # 92.5%
        ([(True, 10_000)] * 40, Status.NOT_YET),  # median must be under 10 s, not equal
        ([(True, 9000)] * 39, Status.TOO_FEW),
        ([], Status.TOO_FEW),
        ([(False, 1)] * 10 + [(True, 9000)] * 40, Status.READY),  # only the last 40 count
    ],
)
def test_verdict_on_known_answer_lists(answers, status):
    assert verdict(answers, default_target()).status is status


@pytest.mark.parametrize(
    "raw",
    [
        {"accuracy": 1.5, "window": 40, "min_level": 2, "median_seconds": 10},
        {"accuracy": 0.9, "window": 0, "min_level": 2, "median_seconds": 10},
        {"accuracy": 0.9, "window": 40.5, "min_level": 2, "median_seconds": 10},
        {"accuracy": 0.9, "window": 40, "min_level": 4, "median_seconds": 10},
        {"accuracy": 0.9, "window": 40, "min_level": 2, "median_seconds": -1},
        {"accuracy": True, "window": 40, "min_level": 2, "median_seconds": 10},
        {"accuracy": 0.9, "window": 40, "min_level": 2},
        {"accuracy": 0.9, "window": 40, "min_level": 2, "median_seconds": 10, "extra": 1},
    ],
)
def test_bad_figures_are_refused_naming_the_key(raw):
    with pytest.raises(ValueError):
        Target.from_mapping(raw)


def test_readiness_counts_the_last_answers_at_the_minimum_level_of_the_game_only():
    with toy_kinds():
        now = [datetime(2026, 3, 2, 9, 0, tzinfo=UTC)]

        def clock():
            now[0] += timedelta(seconds=1)
            return now[0]

        store = Store(memory_db(), clock=clock)
        trainee = store.new_anonymous_trainee()["id"]
        target = Target(accuracy=0.75, window=4, min_level=2, median_seconds=10)

        def answer(kind, level, right):
            drill = store.save_drill(trainee, issue(kind, level, seed=len(now) + int(now[0].timestamp())))
            ante = store.drill(drill)["situation"].data["ante"]
            store.answer(drill, str(2 * ante if right else 1), time_ms=2000)

        for _ in range(4):
            answer("toy.amount", 1, True)  # level 1: not counted
        assert readiness(store.db, trainee, ["toy.amount"], target).status is Status.TOO_FEW
        for right in (False, True, True, True):
            answer("toy.amount", 2, right)
        got = readiness(store.db, trainee, ["toy.amount"], target)
        assert (got.status, got.answers, got.correct) == (Status.READY, 4, 3)
        answer("toy.amount", 2, False)  # now the last four are T T T F: still 75%
        assert readiness(store.db, trainee, ["toy.amount"], target).status is Status.READY
        answer("toy.amount", 2, False)
        assert readiness(store.db, trainee, ["toy.amount"], target).status is Status.NOT_YET
        assert readiness(store.db, trainee, ["toy.choice"], target).status is Status.TOO_FEW
        assert readiness(store.db, trainee, [], target).answers == 0
