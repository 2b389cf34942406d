"""The same seeds give the same situations and answers as before the restructuring (see tests/pinned.py)."""

import json

import pytest

from tests.pinned import PINS, cases, key, pin

PINNED = json.loads(PINS.read_text())


def test_every_pinned_case_is_still_drawn() -> None:
    assert sorted(key(*c) for c in cases()) == sorted(PINNED)


@pytest.mark.parametrize("case", cases(), ids=lambda c: key(*c))
def test_same_seed_same_situation_and_answer(case) -> None:
    assert pin(*case) == PINNED[key(*case)]
