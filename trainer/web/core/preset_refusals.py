"""A refused house-rules file said in the reader's language.

The engine's rules loader refuses with a `PresetError` carrying a reason `code` and named `params`
(and an English `str()` for the command line); every page that shows such a refusal asks `say` for
the sentence, so each code has one translatable message here with the same placeholders."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask_babel import gettext, ngettext

from trainer.engine.presets import PresetError


def _value(params: dict[str, Any], name: str = "value") -> str:
    return repr(params.get(name))[:60]


def _word(params: dict[str, Any], name: str) -> str:
    """A row's name (a key part of the presets, a catalog word) as the page words it."""
    value = params.get(name)
    return gettext(value) if isinstance(value, str) and value else ""


def _num(params: dict[str, Any], name: str) -> int:
    value = params.get(name)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


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
    # The games' own checks (their rules modules' `build`), which span keys or read a game's values.
    "at_most": lambda p: gettext(
        "A whole number of at most %(maximum)s is expected here, not %(value)s.",
        maximum=p.get("maximum", ""),
        value=_value(p),
    ),
    "below_other": lambda p: gettext(
        "This cannot be less than the value of key %(other)s (%(minimum)s); it is %(value)s.",
        other=p.get("other", ""),
        minimum=p.get("minimum", ""),
        value=_value(p),
    ),
    "pay_order": lambda p: gettext(
        "Row %(better)s pays %(better_odds)s to 1, less than the worse row %(worse)s "
        "(%(worse_odds)s to 1): a better row must never pay less.",
        better=_word(p, "better"),
        better_odds=p.get("better_odds", ""),
        worse=_word(p, "worse"),
        worse_odds=p.get("worse_odds", ""),
    ),
    "more_than_boxes": lambda p: ngettext(
        "This is more than the table has: it has only %(num)d box.",
        "This is more than the table has: it has only %(num)d\u00a0boxes.",
        _num(p, "boxes"),
    ),
    "bonus_tables": lambda p: gettext("A table that offers the bonus needs both bonus pay tables."),
    "super_table": lambda p: gettext("A table that offers the Super bet needs its pay table."),
    "rank": lambda p: gettext(
        "A rank from 2 to 14 (an ace) is expected here, not %(value)s.", value=_value(p)
    ),
    "cards": lambda p: gettext(
        "A list of cards such as %(example)s is expected here.", example=p.get("example", "")
    ),
    "bad_card": lambda p: gettext(
        "%(value)s is not a card: a rank and a suit are expected, such as %(example)s.",
        value=_value(p),
        example=p.get("example", ""),
    ),
    "joker_card": lambda p: gettext(
        "%(card)s is not a card of this deck, or it is named twice.", card=_value(p, "card")
    ),
    "real_jokers": lambda p: gettext("A deck has 0 or 2 real jokers, not %(value)s.", value=_value(p)),
    "list_of": lambda p: gettext(
        "A list of values from %(allowed)s is expected here.", allowed=p.get("allowed", "")
    ),
    "whole_or_word": lambda p: gettext(
        "A whole number of at least 1 or %(word)s is expected here, not %(value)s.",
        word=_value(p, "word"),
        value=_value(p),
    ),
    "deck_too_small": lambda p: ngettext(
        "The largest deal needs %(num)d\u00a0card (%(cards)s for each of up to %(players)s\u00a0players); "
        "the deck has only %(deck)s.",
        "The largest deal needs %(num)d\u00a0cards (%(cards)s for each of up to %(players)s\u00a0players); "
        "the deck has only %(deck)s.",
        _num(p, "cards") * _num(p, "players"),
        cards=p.get("cards", ""),
        players=p.get("players", ""),
        deck=p.get("deck", ""),
    ),
    "suit_order": lambda p: gettext(
        "The four suits are expected here, each once, in order, such as %(example)s.",
        example=p.get("example", ""),
    ),
    "no_chip_set": lambda p: gettext(
        "There is no chip set %(name)s; the chip sets are: %(allowed)s.",
        name=_value(p, "name"),
        allowed=p.get("allowed", ""),
    ),
    # `deal` is the English name of a kind of deal, a message id of the catalog.
    "needed_by_schedule": lambda p: gettext(
        "This key is missing, and the schedule has %(deal)s deals.",
        deal=gettext(str(p["deal"])) if p.get("deal") else "",
    ),
}


def say(error: PresetError | None, *, where: bool = True) -> str:
    """The refusal as sentences in the reader's language: where (key, row) and why; without
    `where`, why only (said beside the form's field of that key)."""
    if error is None:
        return gettext("The text is empty, too long, or not usable as house rules.")
    reason = REASONS.get(error.code, lambda p: gettext("This value cannot be used here."))(error.params)
    if not where:
        return reason
    if error.key is not None and error.row is not None:
        where = gettext("Key %(key)s, row %(row)s:", key=error.key, row=error.row)
    elif error.key is not None:
        where = gettext("Key %(key)s:", key=error.key)
    else:
        return reason
    return f"{where} {reason}"
