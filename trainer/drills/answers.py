"""Answer formats and the lenient parsing of what a trainee types.

A drill states the shape of its answer with an `AnswerFormat`; `parse_answer` turns the raw input
(text from a form, or JSON from the API) into a canonical value that compares with the expected one.
Input that cannot be read raises `AnswerError` with a sentence for the trainee: it is never graded as
wrong, the question stays open.

>>> parse_answer(AnswerFormat(AnswerKind.AMOUNT), "1 400")
1400
>>> parse_answer(AnswerFormat(AnswerKind.AMOUNTS, labels=("Main pot", "Side pot")), "300; 120")
{'Main pot': 300, 'Side pot': 120}
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from trainer.drills.errors import AnswerError
from trainer.engine.cards import Card, parse_cards
from trainer.engine.explain import Cards, Either, Step, Term, nstep, step


class AnswerKind(StrEnum):
    """The four shapes of answer a drill can ask for."""

    AMOUNT = "amount"  # one integer number of chips
    CHOICE = "choice"  # one of the listed options
    AMOUNTS = "amounts"  # several labelled integers (per seat, per pot, per betting spot)
    CARDS = "cards"  # a set of cards (for example the cards to discard)


Label = str | Step | Term
"""What names an option or an amount: a message (`Step`), a word (`Term`), or text shown as it is
(numbers, a low such as "8-4-3-2-A")."""


def seat_label(seat: int) -> Step:
    """An answer label naming a seat numbered from 1, as at the table ("Seat 3" for the engine's seat 2).

    >>> str(seat_label(2))
    'Seat 3'
    """
    return step("Seat {seat}", seat=seat + 1)


class Choice(NamedTuple):
    """One option of a choice answer: the value graded, the English label (read back from what a
    trainee types) and what the pages show, translated."""

    value: str
    label: str
    message: Label


@dataclass(frozen=True)
class AnswerFormat:
    """What a drill expects: `choices` are (value, label) pairs and `labels` name the amounts; a label
    is a `Step` or a `Term` (translated where shown) or plain text. `labels` keep the English text
    (the keys of an amounts answer) and `label_messages` what is shown."""

    kind: AnswerKind
    choices: tuple[Choice, ...] = ()
    labels: tuple[str, ...] = ()
    label_messages: tuple[Label, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", AnswerKind(self.kind))
        choices = tuple(
            c if isinstance(c, Choice) else Choice(str(c[0]), str(c[1]), c[1]) for c in self.choices
        )
        object.__setattr__(self, "choices", choices)
        shown = self.label_messages or self.labels
        object.__setattr__(self, "labels", tuple(str(label) for label in self.labels))
        object.__setattr__(self, "label_messages", tuple(shown))
        if len(self.label_messages) != len(self.labels):
            raise ValueError("one message per label")
        if self.kind is AnswerKind.CHOICE and not self.choices:
            raise ValueError("a choice answer needs at least one choice")
        if self.kind is AnswerKind.AMOUNTS and not self.labels:
            raise ValueError("an amounts answer needs at least one label")
        if len({_norm(c.value) for c in self.choices}) != len(self.choices):
            raise ValueError(f"duplicate choice values in {self.choices!r}")
        if len({_norm(label) for label in self.labels}) != len(self.labels):
            raise ValueError(f"duplicate labels in {self.labels!r}")

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": str(self.kind),
            "choices": [
                {"value": c.value, "label": c.label, "message": _label_json(c.message)} for c in self.choices
            ],
            "labels": list(self.labels),
            "label_messages": [_label_json(m) for m in self.label_messages],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> AnswerFormat:
        """The format back from `to_json` (as stored with a drill)."""
        choices = tuple(
            Choice(str(c["value"]), str(c["label"]), _label_from_json(c.get("message", c["label"])))
            for c in data.get("choices") or ()
        )
        labels = tuple(data.get("labels") or ())
        shown = data.get("label_messages") or labels
        return cls(AnswerKind(data["kind"]), choices, labels, tuple(_label_from_json(m) for m in shown))


def _label_json(label: Label) -> Any:
    if isinstance(label, Step):
        return label.to_json()
    if isinstance(label, Term):
        return {"term": label.text, **({"context": label.context} if label.context else {})}
    return label


def _label_from_json(value: Any) -> Label:
    if isinstance(value, Mapping) and "template" in value:
        return Step.from_json(value)
    if isinstance(value, Mapping) and "term" in value:
        return Term(str(value["term"]), value.get("context"))
    return str(value)


# Whole chips, with optional thousands separators in groups of three ("1 400", "1,400", "12 000 000").
_PLAIN = re.compile(r"[0-9]+")
_GROUPED = re.compile(r"[0-9]{1,3}(?:[ ,'_][0-9]{3})+")
_MAX_DIGITS = 15  # beyond any table stake; keeps numbers exact in JSON and SQLite
_NONE_WORDS = {"none", "no cards", "nothing", "-", "—"}


def _norm(text: str) -> str:
    """Lower case with spaces, underscores and hyphens treated alike ("Two pair" == "two_pair")."""
    return re.sub(r"[\s_\-]+", " ", text.strip().lower())


def parse_amount(raw: Any) -> int:
    """One whole number of chips: 1400, "1400", "1 400", "1,400", "+40", "-20", "−20".

    >>> parse_amount("+1,400")
    1400
    >>> parse_amount("12.5")
    Traceback (most recent call last):
    ...
    trainer.drills.errors.AnswerError: '12.5' is not a whole number of chips: write it like 1400 or 1 400.
    """
    if isinstance(raw, bool):
        raise AnswerError(step("Enter an amount of chips, such as 1400."))
    if isinstance(raw, int):
        if abs(raw) >= 10**_MAX_DIGITS:
            raise AnswerError(step("This number is too large to be an amount of chips."))
        return raw
    if isinstance(raw, float):
        if raw.is_integer():
            return parse_amount(int(raw))
        raise AnswerError(step("{answer} is not a whole number of chips.", answer=repr(raw)))
    if not isinstance(raw, str):
        raise AnswerError(step("Enter an amount of chips, such as 1400."))
    # Non-breaking and narrow spaces are what many keyboards and locales put between thousands.
    text = raw.strip().replace("\u00a0", " ").replace("\u202f", " ").replace("\u2212", "-")
    if not text:
        raise AnswerError(step("Enter an amount of chips, such as 1400."))
    sign = 1
    if text[0] in "+-":
        sign = -1 if text[0] == "-" else 1
        text = text[1:].strip()
    if not (_PLAIN.fullmatch(text) or _GROUPED.fullmatch(text)):
        raise AnswerError(
            step(
                "{answer} is not a whole number of chips: write it like 1400 or 1 400.",
                answer=repr(raw.strip()),
            )
        )
    digits = re.sub(r"[^0-9]", "", text)
    if len(digits.lstrip("0")) > _MAX_DIGITS:
        raise AnswerError(step("{answer} is too large to be an amount of chips.", answer=repr(raw.strip())))
    return sign * int(digits)


def parse_choice(fmt: AnswerFormat, raw: Any) -> str:
    """The value of the choice named by its value or its label, in any case; a choice naming cards
    ("exchange Kh 5s 2c") also by its word and the same cards in any order and notation.

    >>> fmt = AnswerFormat(AnswerKind.CHOICE, choices=(("fold", "Fold"), ("exchange Kh 2c", "Exchange")))
    >>> parse_choice(fmt, "Exchange 2♣, K♥")
    'exchange Kh 2c'
    """
    options = Either(tuple(c.message for c in fmt.choices))
    if not isinstance(raw, str) or not raw.strip():
        raise AnswerError(step("Choose one of: {options}.", options=options))
    wanted = _norm(raw)
    for value, label, _shown in fmt.choices:
        if wanted in (_norm(value), _norm(label)):
            return value
    said = _word_and_cards(raw)
    if said is not None:
        for value, label, _shown in fmt.choices:
            if said in (_word_and_cards(value), _word_and_cards(label)):
                return value
    raise AnswerError(
        step("{answer} is not one of the options: {options}.", answer=repr(raw.strip()), options=options)
    )


_WORD_AND_CARDS = re.compile(r"\s*([^\W\d_]+)[\s:]+(.+?)\s*", re.DOTALL)


def _word_and_cards(text: str) -> tuple[str, frozenset[Card]] | None:
    """("exchange", {Kh, 2c}) for "exchange Kh 2c" or "Exchange: 2c, Kh"; None for text that is not a
    word followed by distinct cards."""
    match = _WORD_AND_CARDS.fullmatch(text)
    if match is None:
        return None
    try:
        cards = parse_cards(match.group(2))
    except ValueError:
        return None
    return (match.group(1).lower(), frozenset(cards)) if cards else None


def parse_amounts(fmt: AnswerFormat, raw: Any) -> dict[str, int]:
    """Labelled amounts from a mapping {label: amount}, a list in label order, or text.

    Text holds one entry per label separated by ';' or new lines (a comma is a thousands separator),
    each either an amount (in label order) or "label: amount".
    """
    labels = fmt.labels
    wanted = list(fmt.label_messages)
    if isinstance(raw, Mapping):
        return _from_mapping(fmt, raw)
    if isinstance(raw, str):
        entries = [e.strip() for e in re.split(r"[;\n]", raw) if e.strip()]
        if entries and all(re.fullmatch(r"[^:=]+[:=].*", e) for e in entries):
            pairs = [re.split(r"[:=]", e, maxsplit=1) for e in entries]
            if len({_norm(k) for k, _ in pairs}) != len(pairs):
                raise AnswerError(step("Each label may be given only once."))
            return _from_mapping(fmt, {k.strip(): v for k, v in pairs})
        raw = entries
    if isinstance(raw, list | tuple):
        if len(raw) != len(labels):
            raise AnswerError(
                nstep(
                    "Give {count} amount ({labels}), separated by ';'; got {got}.",
                    "Give {count} amounts ({labels}), separated by ';'; got {got}.",
                    count=len(labels),
                    labels=wanted,
                    got=len(raw),
                )
            )
        return {label: _labelled_amount(fmt, label, value) for label, value in zip(labels, raw, strict=True)}
    raise AnswerError(
        nstep(
            "Give {count} amount ({labels}), separated by ';'.",
            "Give {count} amounts ({labels}), separated by ';'.",
            count=len(labels),
            labels=wanted,
        )
    )


def _from_mapping(fmt: AnswerFormat, raw: Mapping[Any, Any]) -> dict[str, int]:
    by_norm = {_norm(label): label for label in fmt.labels}
    result: dict[str, int] = {}
    for key, value in raw.items():
        label = by_norm.get(_norm(str(key)))
        if label is None:
            said = step(
                "{answer} is not one of: {labels}.",
                answer=repr(f"{key}".strip()),
                labels=list(fmt.label_messages),
            )
            raise AnswerError(said)
        result[label] = _labelled_amount(fmt, label, value)
    missing = [label for label in fmt.labels if label not in result]
    if missing:
        shown = dict(zip(fmt.labels, fmt.label_messages, strict=True))
        raise AnswerError(step("Give an amount for {labels}.", labels=[shown[label] for label in missing]))
    return {label: result[label] for label in fmt.labels}


def _labelled_amount(fmt: AnswerFormat, label: str, value: Any) -> int:
    try:
        return parse_amount(value)
    except AnswerError as error:
        shown = dict(zip(fmt.labels, fmt.label_messages, strict=True))[label]
        raise AnswerError(step("{label}: {error}", label=shown, error=error.said or f"{error}")) from None


def parse_card_set(raw: Any) -> list[str]:
    """A set of cards as sorted card strings ("none" or an empty list for no cards)."""
    if isinstance(raw, str):
        if raw.strip().lower() in _NONE_WORDS:
            return []
        if not raw.strip():
            raise AnswerError(step("Name the cards, such as 'As Kd', or write 'none'."))
    elif not isinstance(raw, list | tuple):
        raise AnswerError(step("Name the cards, such as 'As Kd', or write 'none'."))
    try:
        cards = parse_cards(raw)
    except ValueError as error:
        raise AnswerError(_card_error(f"{error}")) from None
    return card_list(cards)


def _card_error(message: str) -> Step:
    """The engine's refusal of a card list ("bad card 'Zz': ...", "duplicate card As") as a message."""
    bad = re.match(r"bad card ('.*?')", message)
    if bad:
        return step(
            "Bad card {card}: write a rank (2 to 10, J, Q, K, A) and a suit (s, h, d, c), such as As or 10h.",
            card=bad.group(1),
        )
    twice = re.match(r"duplicate card (\S+)", message)
    if twice:
        return step("Duplicate card {card}: name each card once.", card=Cards.of([twice.group(1)]))
    return step("Name the cards, such as 'As Kd', or write 'none'.")


def card_list(cards: Iterable[Card | str]) -> list[str]:
    """The canonical form of a set of cards: strings, highest rank first, then suit order s h d c.

    >>> card_list(["7c", "As", "Kd"])
    ['As', 'Kd', '7c']
    """
    return [str(c) for c in sorted(parse_cards(list(cards)), key=lambda c: (-c.rank, "shdc".index(c.suit)))]


def parse_answer(fmt: AnswerFormat, raw: Any) -> Any:
    """The canonical answer for `fmt` (int, choice value, {label: int} or card list); `AnswerError` if
    the input cannot be read."""
    if fmt.kind is AnswerKind.AMOUNT:
        return parse_amount(raw)
    if fmt.kind is AnswerKind.CHOICE:
        return parse_choice(fmt, raw)
    if fmt.kind is AnswerKind.AMOUNTS:
        return parse_amounts(fmt, raw)
    return parse_card_set(raw)


def canonical(fmt: AnswerFormat, value: Any) -> Any:
    """Bring a solver's expected answer to the form `parse_answer` produces, so the two compare.

    Solvers may return tuples of `Card`s, a list of amounts in label order or an enum choice.

    >>> canonical(AnswerFormat(AnswerKind.AMOUNTS, labels=("A", "B")), (10, 20))
    {'A': 10, 'B': 20}
    """
    if fmt.kind is AnswerKind.AMOUNT:
        return int(value)
    if fmt.kind is AnswerKind.CHOICE:
        text = str(value)
        if text not in {c.value for c in fmt.choices}:
            raise ValueError(f"expected choice {text!r} is not among {fmt.choices!r}")
        return text
    if fmt.kind is AnswerKind.AMOUNTS:
        items = (
            [value[label] for label in fmt.labels] if isinstance(value, Mapping) else [int(v) for v in value]
        )
        if len(items) != len(fmt.labels):
            raise ValueError(f"expected {len(fmt.labels)} amounts, solver gave {len(items)}")
        return {label: int(v) for label, v in zip(fmt.labels, items, strict=True)}
    return card_list(value)
