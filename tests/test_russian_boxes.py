"""Several boxes per player (issue 15): the table's boxes, open and blind, and the faults a croupier refuses.

The rule is not in the rule page (shared/rules/russian-poker.md is silent on boxes); it is the common
rule of the casinos that deal the game, stated in the issue and in cis.toml's [boxes] comment:
"a player may play two adjacent boxes open, and a third or further box must be played blind",
"up to six boxes". Each test quotes the part of that sentence it checks.
"""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine.russian_poker import (
    BoxError,
    BoxFault,
    BoxMode,
    Table,
    TableBox,
    check_table,
    load_rules,
    settle,
    table_faults,
)

CIS = load_rules("cis")
D_AK = "As Kd 7c 5h 2d"


def faults(placements, rules=CIS):
    return [e.fault for e in table_faults(Table.of(placements), rules)]


def test_the_default_house_has_six_boxes_two_open_further_blind():
    # "up to six boxes; a player may play two adjacent boxes open, and a third or further box blind"
    assert (CIS.boxes_count, CIS.boxes_open_per_player) == (6, 2)
    assert CIS.boxes_open_adjacent and CIS.boxes_blind_beyond_open
    for name in ("lunar", "insured", "caribbean"):
        assert load_rules(name).boxes_count == 6  # inherited from cis.toml


@pytest.mark.parametrize(
    "placements",
    [
        # "a player may play two adjacent boxes open"
        [(1, "A", "open"), (2, "A", "open")],
        [(5, "A", "open"), (6, "A", "open"), (1, "B", "open")],
        # "a third or further box must be played blind" (anywhere at the table)
        [(2, "A", "open"), (3, "A", "open"), (6, "A", "blind")],
        [(1, "A", "open"), (2, "A", "open"), (3, "A", "blind"), (4, "A", "blind"), (5, "A", "blind")],
        # "up to six boxes": six players, one box each
        [(n, f"P{n}", "open") for n in range(1, 7)],
        [(4, "A", "open")],
    ],
)
def test_legal_placements(placements):
    table = Table.of(placements)
    check_table(table)
    assert table_faults(table) == []


@pytest.mark.parametrize(
    ("placements", "fault", "words"),
    [
        # "up to six boxes": there is no seventh box, nor a box 0
        ([(7, "A", "open")], BoxFault.NO_SUCH_BOX, "box 7: the table has boxes 1 to 6"),
        ([(0, "A", "open")], BoxFault.NO_SUCH_BOX, "box 0"),
        ([(3, "A", "open"), (3, "B", "open")], BoxFault.BOX_TAKEN, "box 3: staked by A and by B"),
        # "two ... boxes open, and a third ... must be played blind": a third open box is refused
        (
            [(1, "A", "open"), (2, "A", "open"), (3, "A", "open")],
            BoxFault.TOO_MANY_OPEN,
            "A plays 3 boxes open; at most 2 may be open, any further box blind",
        ),
        # "two adjacent boxes open": open boxes 2 and 4 are not adjacent
        (
            [(2, "A", "open"), (4, "A", "open")],
            BoxFault.OPEN_NOT_ADJACENT,
            "boxes 2 and 4: A's open boxes must be next to each other",
        ),
        # "a third or further box" is blind: a second box is played open, not blind
        (
            [(1, "A", "open"), (4, "A", "blind")],
            BoxFault.BLIND_BEFORE_OPEN,
            "box 4: A plays it blind with only 1 of his 2 boxes open",
        ),
    ],
)
def test_faults_are_named(placements, fault, words):
    assert faults(placements) == [fault]
    with pytest.raises(BoxError, match=words) as raised:
        check_table(Table.of(placements))
    assert raised.value.fault is fault and isinstance(raised.value, ValueError)


def test_a_house_without_blind_boxes_refuses_a_third_box():
    # The option "blind_beyond_open = false": a player plays two boxes and no more.
    strict = dataclasses.replace(CIS, boxes_blind_beyond_open=False)
    assert faults([(1, "A", "open"), (2, "A", "open"), (5, "A", "blind")], strict) == [BoxFault.NO_BLIND_BOX]
    assert "may be played" in str(table_faults(Table.of([(n, "A", "open") for n in (1, 2, 3)]), strict)[0])


def test_a_four_box_house_and_a_house_without_adjacency():
    four = dataclasses.replace(CIS, boxes_count=4)
    assert faults([(5, "A", "open")], four) == [BoxFault.NO_SUCH_BOX]
    loose = dataclasses.replace(CIS, boxes_open_adjacent=False)
    assert faults([(1, "A", "open"), (6, "A", "open")], loose) == []


def test_several_faults_are_all_listed_in_box_order():
    found = faults([(1, "A", "open"), (1, "B", "open"), (3, "A", "open"), (8, "C", "open")])
    assert found == [BoxFault.BOX_TAKEN, BoxFault.NO_SUCH_BOX, BoxFault.OPEN_NOT_ADJACENT]


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("boxes", "a table is a list"),
        ([(1, "A")], "a box in play is"),
        ([(1, "", "open")], "named player"),
        ([(1, "A", "half")], "open or blind"),
        ([("1", "A", "open")], "whole number"),
        ([(True, "A", "open")], "whole number"),
    ],
)
def test_malformed_tables(bad, message):
    with pytest.raises(ValueError, match=message):
        Table.of(bad)
    with pytest.raises(ValueError, match="expected a Table"):
        table_faults("1 A open")


def test_table_helpers():
    table = Table.of([(4, "B", "open"), TableBox(1, "A"), (2, "A", BoxMode.OPEN), (6, "A", "blind")])
    assert [b.number for b in table.boxes] == [1, 2, 4, 6]
    assert table.players == ("A", "B")
    assert [b.blind for b in table.of_player("A")] == [False, False, True]


def test_a_blind_box_buys_no_exchange_and_no_sixth_card():
    # "a third or further box must be played blind": the player never sees its cards, so he cannot
    # choose cards to exchange, nor see a sixth card.
    with pytest.raises(ValueError, match="no exchange and no sixth card"):
        settle("Jh Jd 4s 4c 9h", D_AK, 10, exchanges=1, blind=True)
    with pytest.raises(ValueError, match="no exchange and no sixth card"):
        settle("Jh Jd 4s 4c 9h 2c", D_AK, 10, blind=True)
    with pytest.raises(ValueError, match="blind must be True or False"):
        settle("Jh Jd 4s 4c 9h", D_AK, 10, blind="yes")
    # Bet blind, it is settled like any box: two pair against ace-king pays 2 to 1 on the bet.
    assert settle("Jh Jd 4s 4c 9h", D_AK, 10, blind=True).net == 40
    assert settle("Jh Jd 4s 4c 9h", D_AK, 10, blind=True, folded=True).net == -10


def test_a_house_file_cannot_open_more_boxes_than_the_table_has(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('base = "cis"\n[boxes]\ncount = 4\nopen_per_player = 5\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"key 'boxes\.open_per_player': more than the table's 4 boxes"):
        load_rules(path)


_PLAYERS = st.sampled_from("ABC")


@settings(max_examples=150)
@given(st.lists(st.tuples(st.integers(1, 6), _PLAYERS, st.sampled_from(["open", "blind"])), max_size=6))
def test_legal_exactly_when_every_player_keeps_the_rule(placements):
    # An independent reading of "two adjacent boxes open, and a third or further box blind".
    numbers = [n for n, _p, _m in placements]
    ok = len(set(numbers)) == len(numbers)
    for player in "ABC":
        opened = sorted(n for n, p, m in placements if p == player and m == "open")
        blind = [n for n, p, m in placements if p == player and m == "blind"]
        ok &= len(opened) <= 2 and (len(opened) < 2 or opened[1] - opened[0] == 1)
        ok &= not blind or len(opened) == 2
    assert (table_faults(Table.of(placements)) == []) == ok
