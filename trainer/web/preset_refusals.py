"""A refused house-rules file said in the reader's language.

The engine's rules loader refuses with a `PresetError` carrying a reason `code` and named `params`
(and an English `str()` for the command line); every page that shows such a refusal asks `say` for
the sentence, so each code has one translatable message here with the same placeholders."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask_babel import gettext

from trainer.engine.presets import PresetError


def _value(params: dict[str, Any]) -> str:
    return repr(params.get("value"))[:60]


REASONS: dict[str, Callable[[dict[str, Any]], str]] = {
    "no_file": lambda p: gettext("The rules file cannot be found."),
    "unreadable": lambda p: gettext("The rules file cannot be read."),
    "toml_syntax": lambda p: gettext(
        "The text is not written correctly at line %(line)s, column %(column)s.",
        line=p.get("line", 0),
        column=p.get("column", 0),
    ),
    "preset_name_expected": lambda p: gettext("That is not the name of any house rules."),
    "bad_file_name": lambda p: gettext("That is not the name of any house rules."),
    "bad_preset_name": lambda p: gettext("That is not the name of any house rules."),
    "no_preset": lambda p: gettext("There are no house rules named %(name)s.", name=str(p.get("name"))[:40]),
    "base_loop": lambda p: gettext("These rules are based on each other in a loop."),
    "base_not_name": lambda p: gettext("The rules these are based on must be given by name."),
    "missing_key": lambda p: gettext("This key is missing."),
    "unknown_key": lambda p: gettext("This key is unknown: is it misspelt?"),
    "whole_number": lambda p: (
        gettext("A whole number is expected here, not %(value)s.", value=_value(p))
        if p.get("minimum") is None
        else gettext(
            "A whole number of at least %(minimum)s is expected here, not %(value)s.",
            minimum=p["minimum"],
            value=_value(p),
        )
    ),
    "flag": lambda p: gettext("A yes-or-no value is expected here, not %(value)s.", value=_value(p)),
    "text": lambda p: gettext("A text is expected here, not %(value)s.", value=_value(p)),
    "texts": lambda p: gettext("A list of sentences is expected here."),
    "choice": lambda p: gettext(
        "One of %(allowed)s is expected here, not %(value)s.", allowed=p.get("allowed", ""), value=_value(p)
    ),
    "pay_table": lambda p: gettext("A table of rows and their odds is expected here."),
    "unknown_row": lambda p: gettext(
        "This table has no row %(row)s; its rows are: %(allowed)s.",
        row=p.get("row", ""),
        allowed=p.get("allowed", ""),
    ),
    "missing_rows": lambda p: gettext("This pay table lacks the rows %(rows)s.", rows=p.get("rows", "")),
}


def say(error: PresetError | None) -> str:
    """The refusal as sentences in the reader's language: where (key, row) and why."""
    if error is None:
        return gettext("The text is empty, too long, or not usable as house rules.")
    reason = REASONS.get(error.code, lambda p: gettext("This value cannot be used here."))(error.params)
    if error.key is not None and error.row is not None:
        where = gettext("Key %(key)s, row %(row)s:", key=error.key, row=error.row)
    elif error.key is not None:
        where = gettext("Key %(key)s:", key=error.key)
    else:
        return reason
    return f"{where} {reason}"
