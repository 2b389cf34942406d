"""The drill contract: answer parsing, issuing and grading (on a toy kind, independent of the games)."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trainer.drills.base import (
    REGISTRY,
    AnswerError,
    AnswerFormat,
    AnswerKind,
    DrillKind,
    LevelError,
    Situation,
    UnknownKindError,
    card_list,
    get_kind,
    grade,
    issue,
    parse_answer,
    prompt,
    register,
)
from trainer.engine.explain import Term, step

AMOUNT = AnswerFormat(AnswerKind.AMOUNT)
YES_NO = AnswerFormat(AnswerKind.CHOICE, choices=(("yes", "Yes"), ("no", "No")))
CATEGORY = AnswerFormat(AnswerKind.CHOICE, choices=(("two_pair", "Two pair"), ("pair", "Pair")))
POTS = AnswerFormat(AnswerKind.AMOUNTS, labels=("Main pot", "Side pot 1"))
CARDS = AnswerFormat(AnswerKind.CARDS)


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("1400", 1400),
        ("1 400", 1400),
        ("1,400", 1400),
        ("1\u00a0400", 1400),
        ("12 000 000", 12_000_000),
        ("+40", 40),
        ("-20", -20),
        ("\u221220", -20),
        ("  0 ", 0),
        ("- 5", -5),
        (1400, 1400),
        (-20, -20),
        (35.0, 35),
    ],
)
def test_amount_accepts(raw, value):
    assert parse_answer(AMOUNT, raw) == value


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "   ",
        "abc",
        "12.5",
        "1,40",
        "1 40 0",
        "1,4000",
        "--5",
        "+",
        "1e3",
        "0x10",
        "14OO",
        "١٤",
        12.5,
        True,
        None,
        [1],
        {"a": 1},
        "9" * 16,
    ],
)
def test_amount_rejects_with_a_message(raw):
    with pytest.raises(AnswerError) as info:
        parse_answer(AMOUNT, raw)
    assert str(info.value)


def test_amount_message_names_the_input():
    with pytest.raises(AnswerError, match="'twelve' is not a whole number of chips"):
        parse_answer(AMOUNT, "twelve")


@given(st.integers(min_value=-(10**12), max_value=10**12))
def test_amount_round_trips_in_every_written_form(n):
    grouped = f"{n:,}"
    assert parse_answer(AMOUNT, str(n)) == n
    assert parse_answer(AMOUNT, grouped) == n
    assert parse_answer(AMOUNT, grouped.replace(",", " ")) == n
    if n >= 0:
        assert parse_answer(AMOUNT, f"+{n}") == n


def test_choice_by_value_or_label_any_case():
    assert parse_answer(YES_NO, "YES") == "yes"
    assert parse_answer(YES_NO, " no ") == "no"
    assert parse_answer(CATEGORY, "Two pair") == "two_pair"
    assert parse_answer(CATEGORY, "two-pair") == "two_pair"
    assert parse_answer(CATEGORY, "TWO_PAIR") == "two_pair"


@pytest.mark.parametrize("raw", ["maybe", "", "   ", None, 1, ["yes"]])
def test_choice_rejects_and_lists_the_options(raw):
    with pytest.raises(AnswerError, match="Yes or No"):
        parse_answer(YES_NO, raw)


@pytest.mark.parametrize(
    "raw",
    [
        {"Main pot": "300", "Side pot 1": 120},
        {"main pot": 300, "side pot 1": "120"},
        [300, "120"],
        ("300", "120"),
        "300; 120",
        "300\n120",
        "Main pot: 300; Side pot 1: 120",
        "side pot 1 = 120\nmain pot = 300",
    ],
)
def test_amounts_accept_mapping_list_or_text(raw):
    assert parse_answer(POTS, raw) == {"Main pot": 300, "Side pot 1": 120}


def test_amounts_keep_thousands_separators_inside_an_entry():
    assert parse_answer(POTS, "1,400; 2 000") == {"Main pot": 1400, "Side pot 1": 2000}


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("300", "Give 2 amounts"),
        ([1, 2, 3], "Give 2 amounts"),
        ({"Main pot": 300}, "Give an amount for Side pot 1"),
        ({"Main pot": 300, "Side pot 1": 1, "Side pot 2": 4}, "'Side pot 2' is not one of"),
        ("300; lots", "Side pot 1: 'lots' is not a whole number"),
        ("Main pot: 1; main pot: 2", "only once"),
        (None, "Give 2 amounts"),
        (7, "Give 2 amounts"),
        ("", "Give 2 amounts"),
    ],
)
def test_amounts_reject_with_a_message(raw, message):
    with pytest.raises(AnswerError, match=message):
        parse_answer(POTS, raw)


def test_cards_are_a_set_in_canonical_order():
    assert parse_answer(CARDS, "7c as KD") == ["As", "Kd", "7c"]
    assert parse_answer(CARDS, ["Kd", "7c", "As"]) == ["As", "Kd", "7c"]
    assert parse_answer(CARDS, "A♠K♦") == ["As", "Kd"]
    assert parse_answer(CARDS, "none") == []
    assert parse_answer(CARDS, []) == []
    assert card_list(["2c", "2s", "2h", "2d"]) == ["2s", "2h", "2d", "2c"]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("", "Name the cards"),
        ("As Zz", "Bad card 'Zz'"),
        ("As As", "Duplicate card As"),
        (None, "Name"),
        (5, "Name"),
    ],
)
def test_cards_reject_with_a_message(raw, message):
    with pytest.raises(AnswerError, match=message):
        parse_answer(CARDS, raw)


def test_answer_error_is_a_value_error():
    assert issubclass(AnswerError, ValueError)


def test_format_to_json_and_validation():
    assert YES_NO.to_json() == {
        "kind": "choice",
        "choices": [
            {"value": "yes", "label": "Yes", "message": "Yes"},
            {"value": "no", "label": "No", "message": "No"},
        ],
        "labels": [],
        "label_messages": [],
    }
    assert AnswerFormat.from_json(YES_NO.to_json()) == YES_NO
    # Labels that are messages: the English text is what a trainee may type, the message what is shown.
    seats = AnswerFormat("amounts", labels=(step("Seat {seat}", seat=1), Term("Net")))
    assert seats.labels == ("Seat 1", "Net") and AnswerFormat.from_json(seats.to_json()) == seats
    assert parse_answer(seats, "seat 1: 30; net: -5") == {"Seat 1": 30, "Net": -5}
    assert AnswerFormat("amounts", labels=("A",)).kind is AnswerKind.AMOUNTS
    with pytest.raises(ValueError):
        AnswerFormat(AnswerKind.CHOICE)
    with pytest.raises(ValueError):
        AnswerFormat(AnswerKind.AMOUNTS, labels=("A", "a"))


# A toy kind: sum of two dealt amounts, with a branch picked first (as the game generators do).
def _toy_generate(rng: random.Random, level: int, rules: str | None) -> dict:
    scale = {1: 10, 2: 7, 3: 1000}[level]
    a, b = rng.randint(1, 9) * scale, rng.randint(1, 9) * scale
    return prompt({"a": a, "b": b, "rules": rules}, step("Add {a} and {b}.", a=a, b=b))


def _toy_solve(data: dict):
    total = data["a"] + data["b"]
    return total, f"{total:,}", (step("{a} + {b} = {total}", a=data["a"], b=data["b"], total=total),)


TOY = DrillKind(
    id="test.sum",
    game="test",
    title="Sum",
    version=1,
    generate=_toy_generate,
    answer_format=lambda data: AMOUNT,
    solve=_toy_solve,
)


def test_issue_envelope_and_reproducibility():
    situation = issue(TOY, 2, seed=42, rules="cis")
    assert set(situation.to_dict()) == {"kind", "level", "seed", "version", "rules", "data", "answer_format"}
    assert Situation.from_dict(situation.to_dict()) == situation
    assert situation.kind == "test.sum"
    assert (situation.level, situation.seed, situation.version, situation.rules) == (
        2,
        42,
        1,
        "cis",
    )
    assert situation.data["rules"] == "cis"
    assert situation.answer_format.to_json()["kind"] == "amount"
    assert issue(TOY, 2, seed=42, rules="cis") == situation
    assert {issue(TOY, 2, seed=s).data["a"] for s in range(40)} != {situation.data["a"]}


def test_issue_without_seed_draws_one():
    seeds = {issue(TOY, 1).seed for _ in range(20)}
    assert len(seeds) > 1


def test_seed_depends_on_kind_and_version():
    other = DrillKind("test.sum2", "test", "Sum", 2, (1, 2, 3), _toy_generate, lambda d: AMOUNT, _toy_solve)
    pairs = [(issue(TOY, 3, seed=s).data["a"], issue(other, 3, seed=s).data["a"]) for s in range(30)]
    assert any(x != y for x, y in pairs)


def test_grade_right_wrong_and_malformed():
    situation = issue(TOY, 1, seed=3)
    total = situation.data["a"] + situation.data["b"]
    right = grade(situation, f"{total:,}", kind=TOY)
    assert right.correct and right.expected == total
    assert str(right.explanation[0]) == f"{situation.data['a']} + {situation.data['b']} = {total}"
    wrong = grade(situation, str(total + 1), kind=TOY)
    assert not wrong.correct and wrong.expected == total
    assert wrong.to_json()["explanation"][0]["text"] == str(right.explanation[0])
    with pytest.raises(AnswerError):
        grade(situation, "a lot", kind=TOY)


def test_without_accepts_only_the_expected_answer_is_right():
    assert TOY.accepts is None
    situation = issue(TOY, 2, seed=8)
    total = situation.data["a"] + situation.data["b"]
    assert [grade(situation, str(total + d), kind=TOY).correct for d in (-1, 0, 1)] == [False, True, False]


def test_accepts_widens_the_right_answers_and_keeps_the_expected_one():
    calls = []

    def within_ten(data, answer):
        calls.append(answer)
        return abs(answer - data["a"] - data["b"]) <= 10

    lenient = DrillKind(
        "test.about", "test", "About", 1, (1, 2, 3), _toy_generate, lambda d: AMOUNT, _toy_solve, within_ten
    )
    situation = issue(lenient, 3, seed=4)
    total = situation.data["a"] + situation.data["b"]
    close, far = (
        grade(situation, str(total + 10), kind=lenient),
        grade(situation, str(total - 11), kind=lenient),
    )
    assert close.correct and not far.correct
    assert close.expected == far.expected == total  # the one best answer, for display
    assert calls == [total + 10, total - 11]  # it sees the parsed answer, not the raw text
    assert grade(situation, str(total), kind=lenient).correct
    assert calls == [total + 10, total - 11]  # the expected answer is right without asking
    # A kind's `accepts` can widen but never narrow: its own expected answer stays right.
    strict = DrillKind(
        "test.none",
        "test",
        "None",
        1,
        (1, 2, 3),
        _toy_generate,
        lambda d: AMOUNT,
        _toy_solve,
        accepts=lambda data, answer: False,
    )
    situation = issue(strict, 1, seed=4)
    total = situation.data["a"] + situation.data["b"]
    assert grade(situation, str(total), kind=strict).correct
    assert not grade(situation, str(total + 1), kind=strict).correct
    assert "accepts" not in lenient.to_json() and "accepts" not in close.to_json()


def test_choice_naming_cards_in_any_order_and_notation():
    fmt = AnswerFormat(
        AnswerKind.CHOICE,
        choices=(
            ("fold", "Fold"),
            ("exchange Kh 5s 2c", "Exchange Kh 5s 2c"),
            ("exchange Kh 5s", "Exchange Kh 5s"),
        ),
    )
    for raw in ("exchange 2c 5s Kh", "Exchange: 2c, 5s, kh", "EXCHANGE 2♣ K♥ 5♠", "exchange 2c5sKh"):
        assert parse_answer(fmt, raw) == "exchange Kh 5s 2c", raw
    assert parse_answer(fmt, "exchange 5s kh") == "exchange Kh 5s"
    for raw in (
        "exchange 2c 5s",
        "exchange 2c 2c 5s Kh",
        "discard 2c 5s Kh",
        "exchange 2c 5s Kh Qd",
        "fold 2c",
    ):
        with pytest.raises(AnswerError, match="not one of the options"):
            parse_answer(fmt, raw)


def test_registry_lookup_and_errors():
    register(TOY)
    try:
        assert get_kind("test.sum") is TOY
        assert issue("test.sum", 1, seed=1) == issue(TOY, 1, seed=1)
        with pytest.raises(ValueError, match="already registered"):
            register(
                DrillKind("test.sum", "test", "Other", 1, (1,), _toy_generate, lambda d: AMOUNT, _toy_solve)
            )
    finally:
        del REGISTRY["test.sum"]
    with pytest.raises(UnknownKindError, match=r"unknown drill kind 'test\.sum'"):
        issue("test.sum", 1)
    with pytest.raises(LevelError, match="levels 1, 2, 3, not 4"):
        issue(TOY, 4)
    with pytest.raises(LevelError):
        issue(TOY, True)
    with pytest.raises(ValueError, match="seed"):
        issue(TOY, 1, seed=-1)
    with pytest.raises(ValueError, match="seed"):
        issue(TOY, 1, seed="7")


def test_drill_kind_needs_its_functions():
    with pytest.raises(TypeError, match="needs generate"):
        DrillKind(id="x", game="g", title="t", version=1)
    with pytest.raises(ValueError):
        DrillKind("x", "g", "t", 0, (1,), _toy_generate, lambda d: AMOUNT, _toy_solve)
