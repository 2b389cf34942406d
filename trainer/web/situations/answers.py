"""Reading an answer from a submitted form, per answer kind, into what `trainer.drills.grade` takes.

Field names: `answer` (amount or choice), `amount-<i>` (one per label), `cards` (checked cards, or
`cards_text` typed). Prefix `q<i>-` when several questions share one form (the quiz).
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from trainer.drills import AnswerError, AnswerFormat, AnswerKind
from trainer.drills.answers import card_list, parse_amount, parse_answer
from trainer.web.core.i18n import error_text, label_text


class FieldError(AnswerError):
    """An answer that cannot be read, and which of several amount fields it is (0 for a single one),
    so the page marks that field."""

    def __init__(self, message: str, field: int = 0) -> None:
        super().__init__(message)
        self.field = field


def read_answer(fmt: AnswerFormat, form: MultiDict[str, str], prefix: str = "") -> Any:
    """The raw answer for the situation's answer format from the form fields."""
    kind = fmt.kind
    if kind is AnswerKind.CHOICE and form.get(prefix + "answer") == EXCHANGE:
        return _exchange(form.getlist(prefix + "discard"))
    if kind is AnswerKind.CHOICE:
        value = form.get(prefix + "answer", "")
        if not value.strip():
            raise _blank(
                AnswerError,
                prefix,
                _("Nothing is chosen yet: choose one of the answers."),
                _("Nothing is chosen yet: choose one of the answers, then press Check."),
            )
        if form.getlist(prefix + "discard") and exchange_choices(fmt):
            shown = next((c.message for c in fmt.choices if c.value == value), value)
            raise AnswerError(
                _(
                    "You chose %(choice)s but also clicked cards to exchange. Which did you mean? "
                    "To exchange them, choose the exchange; otherwise clear the cards.",
                    choice=label_text(shown),
                )
            )
        return value
    if kind is AnswerKind.AMOUNT:
        value = form.get(prefix + "answer", "")
        if not value.strip():
            raise _blank(
                FieldError, prefix, _("Type the amount first."), _("Type the amount first, then press Check.")
            )
        _check_amount(value, None, 0)
        return value
    if kind is AnswerKind.AMOUNTS:
        labels = fmt.label_messages
        values = [form.get(f"{prefix}amount-{i}", "") for i in range(len(labels))]
        if not any(v.strip() for v in values):
            raise _blank(
                FieldError,
                prefix,
                _("Type an amount in every field."),
                _("Type an amount in every field, then press Check."),
            )
        for i, (label, value) in enumerate(zip(labels, values, strict=True)):
            _check_amount(value, label_text(label), i)
        return values
    if kind is AnswerKind.CARDS:
        picked = form.getlist(prefix + "cards")
        typed = form.get(prefix + "cards_text", "").strip()
        if picked and typed:
            raise AnswerError(_("Either click the cards or type them, not both."))
        if typed:
            return typed
        if form.get(prefix + "cards_none") or picked:
            return picked
        raise AnswerError(_("No answer was given."))
    raise AnswerError(_("This question cannot be answered here."))


def _blank(error: type[AnswerError], prefix: str, on_a_page: str, alone: str) -> AnswerError:
    """The refusal of an answer left blank: `on_a_page` where several questions share the form (the
    quiz, an exam: the page is handed in, not checked, so the sentence names no button), else `alone`."""
    return error(on_a_page if prefix else alone)


def _check_amount(value: str, label: str | None, field: int) -> None:
    """Say what is wrong with a typed amount in the trainee's language (the drills say it in English)."""
    try:
        parse_amount(value)
    except AnswerError:
        if label is None:
            raise FieldError(_("Enter a whole number of chips, such as 1400 or 1 400."), field) from None
        if not value.strip():
            raise FieldError(_("%(label)s: enter an amount.", label=label), field) from None
        message = _("%(label)s: enter a whole number of chips, such as 1400 or 1 400.", label=label)
        raise FieldError(message, field) from None


EXCHANGE = "__exchange__"  # the radio "exchange the cards I click" of a buy decision


def exchange_choices(fmt: AnswerFormat) -> bool:
    """A choice among exchanges ("exchange 7c 4d") is answered by clicking the cards instead."""
    return fmt.kind is AnswerKind.CHOICE and any(c.value.startswith("exchange ") for c in fmt.choices)


def _exchange(discards: list[str]) -> str:
    if not discards:
        raise AnswerError(_("Click the cards to exchange."))
    try:
        return "exchange " + " ".join(card_list(discards))
    except ValueError:
        raise AnswerError(_("Click the cards to exchange.")) from None


def kept_input(
    fmt: AnswerFormat, form: MultiDict[str, str], prefix: str = "", error: Exception | None = None
) -> dict[str, Any]:
    """What the trainee typed, to put back into the form after a rejected answer, and which amount
    field could not be read (`invalid`)."""
    return {
        "invalid": getattr(error, "field", None),
        "answer": form.get(prefix + "answer", ""),
        "amounts": [form.get(f"{prefix}amount-{i}", "") for i in range(len(fmt.labels))],
        "cards": form.getlist(prefix + "cards"),
        "cards_text": form.get(prefix + "cards_text", ""),
        "discard": form.getlist(prefix + "discard"),
    }


def read_all(
    formats: list[AnswerFormat], form: MultiDict[str, str]
) -> tuple[list[Any], dict[int, str], dict[int, dict[str, Any]]]:
    """The answers of a page of questions (fields `q<i>-...`), all read before any is recorded: the
    raw answers, the sentence for each that cannot be read (by question index), and what was typed."""
    raws: list[Any] = []
    errors: dict[int, str] = {}
    kept: dict[int, dict[str, Any]] = {}
    for i, fmt in enumerate(formats):
        kept[i] = kept_input(fmt, form, f"q{i}-")
        try:
            raw = read_answer(fmt, form, f"q{i}-")
            parse_answer(fmt, raw)
            raws.append(raw)
        except AnswerError as error:
            errors[i] = error_text(error)
            kept[i]["invalid"] = getattr(error, "field", None)  # the field to mark
    return raws, errors, kept
