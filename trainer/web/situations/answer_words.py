"""An answer (given or expected) as a sentence-free text in the reader's language, for the desk's
item analysis and the exports: a choice as the page words it ("Royal flush", "Seat 2"), several
amounts as "Ante: 150; Bet: 150", cards with their suit symbols, a number written for the locale.
The same wording as the pages' `show_value` macro (templates/macros/answer.html), in Python.

Stored answers are JSON (`attempts.answer`, `expected`); the answer's shape comes from the drill's
stored answer format, so an export reads it from `drills.situation` without rebuilding the drill.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from flask_babel import get_locale, gettext
from flask_babel import lazy_gettext as _l

from trainer.drills.answers import AnswerFormat, AnswerKind
from trainer.drills.mistakes import mistake_title
from trainer.web.core.i18n import amount_label, card_text, label_text, number_text


def worded(fmt: AnswerFormat | None, value: Any) -> str:
    """The answer `value` (parsed) in the current language; "" for none."""
    if value is None:
        return ""
    if fmt is not None and fmt.kind is AnswerKind.CHOICE:
        for choice in fmt.choices:
            if choice.value == value:
                return label_text(choice.message)
        return str(value)
    if isinstance(value, dict):
        parts = []
        for label, amount in value.items():
            shown = amount_label(fmt, label) if fmt is not None else label_text(label)
            parts.append(f"{shown}: {_number(amount)}")
        return "; ".join(parts)
    if fmt is not None and fmt.kind is AnswerKind.CARDS and isinstance(value, list):
        return " ".join(card_text(code) for code in value) if value else gettext("No cards")
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return _number(value)


def _number(value: Any) -> str:
    return (
        number_text(value) if isinstance(value, int | float) and not isinstance(value, bool) else str(value)
    )


def worded_json(fmt_json: str | None, stored: str | None, *, language: str | None = None) -> str:
    """`worded` for a stored answer (JSON text) and a stored answer format (JSON text), both as the
    database has them; cached per language (`language`: the current one, given by a caller that
    words thousands), so an export words each distinct answer once."""
    if stored is None:
        return ""
    return _worded_cached(language or str(get_locale() or "en"), fmt_json, stored)


@lru_cache(maxsize=8192)
def _worded_cached(_language: str, fmt_json: str | None, stored: str) -> str:
    try:
        value = json.loads(stored)
    except ValueError:
        return stored
    return worded(_format(fmt_json), value)


@lru_cache(maxsize=1024)
def _format(fmt_json: str | None) -> AnswerFormat | None:
    if not fmt_json:
        return None
    try:
        return AnswerFormat.from_json(json.loads(fmt_json))
    except (TypeError, ValueError, KeyError):
        return None


def typed(raw: str | None) -> str:
    """What the trainee typed, as he typed it (the raw input is kept as JSON text)."""
    if raw is None:
        return ""
    try:
        value = json.loads(raw)
    except ValueError:
        return raw
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


MODES = {"practice": _l("Practice"), "sprint": _l("Sprint"), "quiz": _l("Quiz")}


def mode_title(mode: str) -> str:
    """A drill's mode (practice, sprint, quiz) in the current language."""
    return str(MODES[mode]) if mode in MODES else mode


def readable_items(details: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`Groups.item_details` as the desk shows it: wrong answers worded as the page words them and
    mistakes by their translated names (each mode and mistake translated once per call, the page's
    language looked up once: a desk shows hundreds of rows)."""
    language = str(get_locale() or "en")
    modes: dict[str, str] = {}
    titles: dict[str, str] = {}
    for row in details:
        if row["mode"] not in modes:
            modes[row["mode"]] = mode_title(row["mode"])
        for m in row["mistakes"]:
            if m["mistake"] not in titles:
                titles[m["mistake"]] = gettext(mistake_title(m["mistake"]))
    return [
        {
            **row,
            "mode_title": modes[row["mode"]],
            "wrong_answers": [
                {"text": worded_json(w["format"], w["answer"], language=language), "count": w["count"]}
                for w in row["wrong_answers"]
            ],
            "mistakes": [
                {"mistake": m["mistake"], "title": titles[m["mistake"]], "count": m["count"]}
                for m in row["mistakes"]
            ],
        }
        for row in details
    ]
