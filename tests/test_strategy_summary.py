"""Rules of thumb (bench/rules_of_thumb.py, trainer/engine/russian_poker/strategy/summary.py): hand
classes by hand-worked hands, the exact share of each class, thresholds and costs from exact values on
a small seeded slice, the sentences, and the advisor page showing the stored summary."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from trainer.engine.cards import parse_cards
from trainer.engine.russian_poker.rules import load_rules
from trainer.engine.russian_poker.strategy import best_options
from trainer.engine.russian_poker.strategy.summary import load_summary, rule_steps, total_step

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.fixture(scope="module")
def thumb():
    sys.path.insert(0, str(BENCH))
    try:
        import rules_of_thumb
    finally:
        sys.path.remove(str(BENCH))
    return rules_of_thumb


def _idx(text):
    return [c.index for c in parse_cards(text)]


@pytest.mark.parametrize(
    ("hand", "cls"),
    [
        ("Ah Ad 7c 7s 2h", "two_pair_up"),
        ("2h 5h 9h Jh Kh", "two_pair_up"),  # a flush
        ("9h 9d Kc 5s 2h", "pair"),
        ("Ah Kd 7c 5s 2h", "ace_king"),
        ("Ah Kh 7h 5h 2c", "ace_king"),  # ace-king before four to a flush
        ("Qh 9h 6h 3h 2c", "four_flush"),
        ("9h 8d 7c 6s 2h", "four_straight"),
        ("Ah 2d 3c 4s 9h", "four_straight"),  # the ace plays low
        ("Qh 9d 6c 3s 2h", "rest"),
    ],
)
def test_hand_classes(thumb, hand, cls):
    assert thumb.hand_class(_idx(hand)) == cls


def test_rule_steps_read_the_thresholds():
    def text(rule):
        return str(rule_steps(rule)[0])

    pair = {"class": "pair", "share": 0.42, "cost": 0.01}
    assert text({**pair, "params": {"bet_from": "2"}}) == "Bet any pair."
    assert "pair of 7s or higher" in text({**pair, "params": {"bet_from": "7"}})
    ak = {"class": "ace_king", "share": 0.06, "cost": 0.0}
    assert text({**ak, "params": {"bet_to": "A"}}) == "Bet ace-king against any up-card."
    assert text({**ak, "params": {"bet_to": None}}) == "Fold ace-king."
    assert "up-card of Q or lower" in text({**ak, "params": {"bet_to": "Q"}})
    cost = str(rule_steps({**pair, "params": {"bet_from": "2"}})[1])
    assert "42.0%" in cost and "0.0100" in cost
    assert "0.0520" in str(total_step({"cost": 0.052}))


def test_a_seeded_slice_is_exact_and_its_costs_are_never_negative(thumb, monkeypatch):
    # The class shares are fixed by hand here (the exact ones take a pass over every hand: the bench's).
    monkeypatch.setattr(thumb, "class_shares", lambda: dict.fromkeys(thumb.CLASSES, 1 / 6))
    summary = thumb.compute(load_rules("caribbean"), per_class=3, seed=7)
    rules = {r["class"]: r for r in summary["rules"]}
    assert list(rules) == list(thumb.CLASSES)
    # Every cost is best play minus a legal play: never below zero; best play is best_options's.
    assert all(r["gap"] >= -1e-12 for r in rules.values())
    assert rules["two_pair_up"]["gap"] == pytest.approx(0.0, abs=1e-12)  # always bets at Caribbean
    assert rules["rest"]["gap"] == pytest.approx(0.0, abs=1e-12)  # no pair, no ace-king: folds
    assert summary["cost"] == pytest.approx(sum(r["cost"] for r in rules.values()))
    assert rules["pair"]["params"] == {"bet_from": "2"}  # no exchange at Caribbean: every pair bets
    hand, up = thumb._sample(random.Random(1), "rest")
    assert thumb.hand_class(hand) == "rest" and up not in hand
    best = best_options(" ".join(_card(i) for i in hand), _card(up), rules="caribbean")
    assert [o.ev for o in best] == [-1.0]


def _card(i):
    from trainer.engine.cards import CARD_BY_INDEX

    return str(CARD_BY_INDEX[i])


def test_every_stored_summary_has_every_class_and_reads_as_sentences(thumb):
    for house in ("cis", "caribbean"):
        summary = load_summary(house)
        assert summary is not None, f"python3 bench/strategy.py --rules-of-thumb {house}"
        assert [r["class"] for r in summary["rules"]] == list(thumb.CLASSES)
        assert sum(r["share"] for r in summary["rules"]) == pytest.approx(1.0)
        assert summary["cost"] >= 0
        for rule in summary["rules"]:
            assert all(str(s) for s in rule_steps(rule))
    assert load_summary("no-such-house") is None


def test_the_advisor_page_shows_the_rules_of_thumb(client):
    page = client.get("/reference/advisor?rules=cis").get_data(as_text=True)
    assert 'id="rules-of-thumb"' in page and "Bet two pair or better." in page
    assert "All the rules together cost" in page
    page = client.get("/reference/advisor?rules=lunar").get_data(as_text=True)
    assert "With four to a straight, buy a sixth card." in page


def test_every_shipped_house_has_rules_of_thumb_and_the_page_says_when_one_has_none(client, monkeypatch):
    from trainer.engine.russian_poker.rules import preset_names
    from trainer.engine.russian_poker.strategy import summary

    assert all(load_summary(name) is not None for name in preset_names())
    monkeypatch.setattr(summary, "SUMMARY_FILE", ("advisor", "no-such-file.json"))
    page = client.get("/reference/advisor?rules=cis").get_data(as_text=True)
    assert "No rules of thumb have been computed for this house yet." in page


def test_every_shipped_house_has_its_edge_and_the_page_shows_it_in_every_language(client):
    from trainer.engine.russian_poker.rules import preset_names
    from trainer.engine.russian_poker.strategy.summary import load_edge

    for name in preset_names():
        edge = load_edge(name)
        assert edge is not None and edge["deals"] >= 40000, name
        assert edge["low"] < edge["edge"] < edge["high"], name
    page = client.get("/reference/advisor?rules=cis").get_data(as_text=True)
    assert 'id="house-edge"' in page and "the house keeps 9.546% of the ante" in page
    assert "second exchange" not in page
    # the insured house allows two exchanges: its one-draw figure is said to be an upper bound
    page = client.get("/reference/advisor?rules=insured").get_data(as_text=True)
    assert "10.072%" in page and "This house allows a second exchange" in page
    assert "the values here assume a single draw or buy" in page
    cis = client.get("/reference/advisor?rules=cis").get_data(as_text=True)
    assert "the values here assume a single draw or buy" not in cis
    # Each language writes the figure its own way (Babel): a decimal comma, Russian's space before %.
    for lang, word, figure in (
        ("ka", "კაზინოს უპირატესობა", "10,072%"),
        ("ru", "Преимущество казино", "10,072\u00a0%"),
    ):
        page = client.get("/reference/advisor?rules=insured", headers={"Accept-Language": lang}).get_data(
            as_text=True
        )
        assert word in page and figure in page and "Under best play" not in page, lang


def test_an_unknown_house_is_refused_before_anything_is_looked_up(client):
    reply = client.get("/reference/advisor?rules=no-such-house")
    assert reply.status_code == 400
    assert "There is no house-rules preset" in reply.get_data(as_text=True)
