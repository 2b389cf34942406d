"""The Omaha betting drills (pot limit, fixed limit) drawn as a table: chips in front of every seat
from the actions so far, the seat to act marked with its stack where the situation gives one, the
seats that folded; not only the text log."""

import re

import pytest
from flask import render_template_string

from trainer.drills import REGISTRY, issue
from trainer.web.situations.drawing import betting_round

TABLE = '{% set data = situation.data %}{% include "situations/omaha.html" %}'


def _seats(html: str) -> dict[str, str]:
    """Each drawn seat's number -> the seat's markup."""
    found = re.findall(r'<li class="seat at-[^"]*"[^>]*>(.*?)</li>', html, re.S)
    return {re.search(r'class="name">[^<]*?(\d+)<', s).group(1): s for s in found}


def _front(actions: list[dict]) -> dict[int, int]:
    """In front of each seat, worked out the way a dealer reads the log: a bet, a raise or a blind
    leaves its amount in front; a call matches the largest amount in front so far."""
    front: dict[int, int] = {}
    for a in actions:
        if a["action"] in ("small_blind", "big_blind", "bet", "raise"):
            front[a["seat"]] = a["amount"]
        elif a["action"] == "call":
            front[a["seat"]] = max(front.values())
    return front


@pytest.mark.parametrize("kind_id", ["om.pot_limit", "om.limit"])
@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_seat_shows_its_chips_in_front(app, kind_id, level):
    for seed in range(8):
        situation = issue(REGISTRY[kind_id], level, seed=seed)
        data = situation.data
        with app.test_request_context():
            html = render_template_string(TABLE, situation=situation)
        seats = _seats(html)
        front = _front(data["actions"])
        # The situation counts seats from 0; the table, like the question, from 1.
        assert str(data["actor"] + 1) in seats, (seed, "the seat to act is drawn")
        if "players" in data:
            assert len(seats) == data["players"], seed
        for seat, markup in seats.items():
            amount = front.get(int(seat) - 1)
            if amount:
                assert f"In front: {amount:,}<" in markup and 'class="chip ' in markup, (seed, seat, markup)
            else:
                assert "In front" not in markup, (seed, seat)
        acting = seats[str(data["actor"] + 1)]
        assert "to act" in acting
        if "stack" in data:
            assert f"Stack: {data['stack']:,}<" in acting
        assert html.count('aria-current="true"') == 1
        assert 'class="action-log"' in html or not data["actions"]  # the log stays beside the drawing
        # The log and "next to act" name the same seats as the question's sentences.
        log = re.search(r'<ol class="action-log".*?</ol>', html, re.S)
        asked = [int(n) for n in re.findall(r"Seat (\d+)", " ".join(map(str, situation.prompt)))]
        drawn = [int(n) for n in re.findall(r"Seat (\d+)", log.group(0))] if log else []
        assert drawn == asked[: len(drawn)] and asked[len(drawn)] == data["actor"] + 1, (asked, drawn)


def test_a_folded_seat_is_drawn_folded(app):
    data = {
        "street": "flop",
        "blinds": [25, 50],
        "pot_before": 300,
        "actions": [
            {"seat": 1, "action": "bet", "amount": 100},
            {"seat": 2, "action": "fold"},
            {"seat": 3, "action": "call"},
        ],
        "actor": 0,
    }
    drawn = betting_round(data)
    assert drawn == {"count": 4, "bets": [None, 100, None, 100], "folded": {2}, "actor": 0, "stack": None}


def test_showdowns_keep_their_own_drawing(app):
    """A situation with hole cards per seat is not a betting round, whatever else it holds."""
    data = issue(REGISTRY["om.showdown"], 2, seed=3).data
    assert betting_round(data) is None
