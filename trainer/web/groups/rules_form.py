"""The house-rules editor as a form: one field per rule of a game's preset, the pay tables as tables.

The fields are not listed here: they are the keys the game's own `build` reads (the engine's
`SchemaReader` records each key, its converter and whether it is required), so the form has exactly
the rules the loader checks, in the order the preset file gives them. A field's kind follows its
converter (a whole number and its least value, a choice and its values, a yes-or-no, a pay table
and its rows) or, for a key `build` checks itself, the value's type (a list: one item a line; a
word or a number, such as "players"). The form is a WTForms form made per request, CSRF on.

Saved, the form is written out as a whole TOML text (`toml_text`) and handed to the store's
`save_house_rules`, which loads it with the game's loader like any preset; a refusal of the loader
names the key and row, and is put beside that field. The text starts with `# from: <preset>`, the
shipped preset the copy was made from, whose values the form shows beside each field.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, Field, StringField, TextAreaField
from wtforms.validators import StopValidation

from trainer.engine.presets import (
    META_KEYS,
    WORD_OR_WHOLE,
    Choice,
    PayTable,
    SchemaReader,
    Whole,
    flag,
    flatten,
)
from trainer.games import Game
from trainer.web.core.forms import whole_number
from trainer.web.core.i18n import number_text

FROM = re.compile(r"\A# from: ([a-z0-9][a-z0-9_-]{0,63})\n")
# Where a preset comes from and what it does not apply: notes of the files' authors, kept as they
# are (the advanced text edits them), not rules a form asks for.
KEPT = ("source", "not_applied")
LIST_ITEMS_MAX = 40
TEXT_MAX = 2000


@dataclass
class Rule:
    """One rule of the form: its dotted `key`, `kind` ("flag", "whole", "choice", "text", "lines",
    "word_or_whole", "pay_table"), the field's name, its range and the two values shown."""

    key: str
    kind: str
    required: bool
    current: Any
    shipped: Any
    minimum: int | None = None
    maximum: int | None = None
    values: tuple[str, ...] = ()
    rows: tuple[str, ...] = ()
    complete: bool = False
    word: str | None = None
    vocabulary: tuple[str, ...] = ()  # a list's items as the shipped files write them
    errors: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return field_name(self.key)

    @property
    def section(self) -> str:
        return self.key.split(".")[0] if "." in self.key else ""

    @property
    def parts(self) -> list[str]:
        """The key's parts under its section (the field's label is their words, translated)."""
        parts = self.key.split(".")
        return parts[1:] if len(parts) > 1 else parts

    def row_name(self, row: str) -> str:
        return field_name(f"{self.key}.{row}")


def field_name(key: str) -> str:
    """A form field's name for a dotted key (WTForms names are Python identifiers)."""
    return "r__" + key.replace(".", "__").replace("-", "_")


def _lookup(table: dict[str, Any], key: str) -> Any:
    node: Any = table
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def rules_of(game: Game, current: dict[str, Any], shipped: dict[str, Any]) -> list[Rule]:
    """The form's rules for a preset's merged table `current` (a valid preset: the game's `build`
    reads it), beside the shipped preset's merged table, in the order of the preset's keys."""
    reader = SchemaReader("form", current)
    game.build("form", reader)
    order = {key: i for i, key in enumerate(flatten(current))}
    top = {key: i for i, key in enumerate(current)}
    rules = []
    for key, convert, required in reader.read:
        value, was = _lookup(current, key), _lookup(shipped, key)
        rule = Rule(key=key, kind="text", required=required, current=value, shipped=was)
        if key in KEPT:
            rule.kind = "kept"
        elif isinstance(convert, PayTable):
            rule.kind, rule.rows, rule.complete, rule.minimum, rule.maximum = (
                "pay_table",
                tuple(str(r) for r in convert.rows),
                convert.complete,
                convert.minimum,
                convert.maximum,
            )
        elif isinstance(convert, Whole):
            rule.kind, rule.minimum, rule.maximum = "whole", convert.low, convert.high
        elif isinstance(convert, Choice):
            rule.kind, rule.values = "choice", convert.values
        elif convert is flag:
            rule.kind = "flag"
        elif isinstance(value, list):
            rule.kind, rule.vocabulary = "lines", _vocabulary(game, key, value)
        elif isinstance(value, str) and key.split(".")[0] not in META_KEYS and convert is None:
            rule.kind, rule.word = "word_or_whole", value
        elif isinstance(value, int) and not isinstance(value, bool) and convert is None:
            rule.kind, rule.word = "word_or_whole", was if isinstance(was, str) else None
        if rule.kind == "word_or_whole":
            rule.minimum, rule.maximum = WORD_OR_WHOLE.low, WORD_OR_WHOLE.high
        rules.append(rule)

    def place(rule: Rule) -> tuple[int, int, int]:
        section = top.get(rule.key.split(".")[0], len(top)) if rule.section else -1
        inside = (i for k, i in order.items() if k == rule.key or k.startswith(rule.key + "."))
        return (section, min(inside, default=10**6), 0)

    return sorted(rules, key=place)


def _vocabulary(game: Game, key: str, value: list[Any]) -> tuple[str, ...]:
    """The items a list of the game's presets holds at `key` in any shipped file (and `value`'s):
    what a line of the field may name, in the page's language or as the file writes it."""
    items = [str(v) for v in value]
    for name in game.preset_names():
        found = _lookup(game.presets.table_of(name), key)
        items.extend(str(v) for v in found or [])
    return tuple(dict.fromkeys(items))


def _item(line: str, vocabulary: tuple[str, ...]) -> str:
    """A typed line as the file writes it: an item of the vocabulary by its own name or its
    translation (any case); anything else as typed, for the loader to refuse."""
    for item in vocabulary:
        if line.casefold() in (item.casefold(), gettext(item).casefold()):
            return item
    return line


def sections_of(rules: list[Rule]) -> list[tuple[str, list[Rule]]]:
    """The form's rules by section ("": the preset's own top-level rules), in the file's order."""
    sections: dict[str, list[Rule]] = {}
    for rule in rules:
        if rule.kind != "kept":
            sections.setdefault(rule.section, []).append(rule)
    return list(sections.items())


# The fields ------------------------------------------------------------------------------------


class _WholeInRange:
    def __init__(self, minimum: int | None, maximum: int | None, required: bool) -> None:
        self.minimum, self.maximum, self.required = minimum, maximum, required

    def __call__(self, form: FlaskForm, found: Field) -> None:
        raw = (found.data or "").strip()
        if not raw:
            if self.required:
                raise StopValidation(gettext("Fill in this field."))
            return
        number = whole_number(raw)
        if number is None and raw.startswith("-") and whole_number(raw[1:]) is not None:
            number = -int(raw[1:])
        low, high = self.minimum, self.maximum
        if number is None or (low is not None and number < low) or (high is not None and number > high):
            if low is None or high is None:
                raise StopValidation(gettext("Give a whole number, such as 40."))
            raise StopValidation(
                gettext(
                    "Give a whole number from %(min)s to %(max)s.",
                    min=number_text(low),
                    max=number_text(high),
                )
            )


class _OneOf:
    def __init__(self, values: tuple[str, ...], required: bool) -> None:
        self.values, self.required = values, required

    def __call__(self, form: FlaskForm, found: Field) -> None:
        raw = found.data or ""
        if not raw and not self.required:
            return
        if raw not in self.values:
            raise StopValidation(gettext("Choose one of the values offered."))


class _WordOrWhole:
    def __init__(self, word: str | None) -> None:
        self.word = word

    def __call__(self, form: FlaskForm, found: Field) -> None:
        raw = (found.data or "").strip()
        low, high = WORD_OR_WHOLE.low, WORD_OR_WHOLE.high
        if is_word(raw, self.word) or low <= (whole_number(raw) or 0) <= high:
            return
        if self.word is None:
            raise StopValidation(
                gettext(
                    "Give a whole number from %(min)s to %(max)s.",
                    min=number_text(low),
                    max=number_text(high),
                )
            )
        raise StopValidation(
            gettext(
                "Give a whole number from %(min)s to %(max)s, or the word %(word)s.",
                min=number_text(low),
                max=number_text(high),
                word=gettext(self.word),
            )
        )


def is_word(raw: str, word: str | None) -> bool:
    """The rule's word ("players": as many as there are players) as stored or in the page's language."""
    return word is not None and raw.casefold() in (word.casefold(), gettext(word).casefold())


class _Filled:
    def __init__(self, required: bool, most: int) -> None:
        self.required, self.most = required, most

    def __call__(self, form: FlaskForm, found: Field) -> None:
        raw = (found.data or "").strip()
        if self.required and not raw:
            raise StopValidation(gettext("Fill in this field."))
        if len(raw) > self.most:
            raise StopValidation(gettext("At most %(max)s\u00a0characters.", max=self.most))


def form_class(rules: list[Rule]) -> type[FlaskForm]:
    """A WTForms form with a field per rule (a pay table: a field per row)."""
    fields: dict[str, Field] = {}
    for rule in rules:
        if rule.kind == "flag":
            fields[rule.name] = BooleanField()
        elif rule.kind == "whole":
            fields[rule.name] = StringField(
                validators=[_WholeInRange(rule.minimum, rule.maximum, rule.required)]
            )
        elif rule.kind == "choice":
            fields[rule.name] = StringField(validators=[_OneOf(rule.values, rule.required)])
        elif rule.kind == "word_or_whole":
            fields[rule.name] = StringField(validators=[_WordOrWhole(rule.word)])
        elif rule.kind == "lines":
            fields[rule.name] = TextAreaField(validators=[_Filled(rule.required, TEXT_MAX)])
        elif rule.kind == "kept":
            continue
        elif rule.kind == "pay_table":
            for row in rule.rows:
                paid = _WholeInRange(rule.minimum, rule.maximum, rule.complete)
                fields[rule.row_name(row)] = StringField(validators=[paid])
        else:
            fields[rule.name] = StringField(validators=[_Filled(rule.required, TEXT_MAX)])
    return type("HouseRulesForm", (FlaskForm,), fields)


def fill(form: FlaskForm, rules: list[Rule]) -> None:
    """The form's fields set to the rules' current values (the page as first shown)."""
    for rule in rules:
        value = rule.current
        if rule.kind == "pay_table":
            for row in rule.rows:
                odds = value.get(row) if isinstance(value, dict) else None
                form[rule.row_name(row)].data = "" if odds is None else str(odds)
        elif rule.kind == "flag":
            form[rule.name].data = bool(value)
        elif rule.kind == "lines":
            form[rule.name].data = "\n".join(gettext(str(v)) for v in value or [])
        elif (rule.kind == "word_or_whole" and value == rule.word) or rule.key == "title":
            form[rule.name].data = gettext(str(value))  # a shipped title is shown as the page words it
        elif rule.kind == "kept":
            continue
        else:
            form[rule.name].data = "" if value is None else str(value)


def table_of_form(form: FlaskForm, rules: list[Rule]) -> dict[str, Any]:
    """The preset table the submitted (valid) form gives: nested by the dotted keys; an optional
    rule left empty is left out."""
    table: dict[str, Any] = {}
    for rule in rules:
        value: Any
        if rule.kind == "pay_table":
            value = {}
            for row in rule.rows:
                raw = (form[rule.row_name(row)].data or "").strip()
                if raw:
                    value[row] = int(raw)
        elif rule.kind == "flag":
            value = bool(form[rule.name].data)
        elif rule.kind == "whole":
            raw = (form[rule.name].data or "").strip()
            if not raw:
                continue
            value = int(raw)
        elif rule.kind == "word_or_whole":
            raw = (form[rule.name].data or "").strip()
            value = rule.word if is_word(raw, rule.word) else int(raw)
        elif rule.kind == "lines":
            lines = (line.strip() for line in (form[rule.name].data or "").splitlines())
            value = [_item(line, rule.vocabulary) for line in lines if line]
            if not value and not rule.required:
                continue
        elif rule.kind == "kept":
            if rule.current is None:
                continue
            value = rule.current
        else:
            value = (form[rule.name].data or "").strip()
            if not value and not rule.required:
                continue
        node = table
        *parents, last = rule.key.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = value
    return table


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        # JSON's escapes are TOML's basic-string escapes; TOML also forbids a raw DEL, JSON leaves it.
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }" if value else "{}"
    raise TypeError(f"no TOML for {value!r}")


def toml_text(table: dict[str, Any], made_from: str) -> str:
    """The preset as TOML: top-level values first, then a `[section]` per table and a
    `[section.table]` per table inside it (a pay table a row a line), every line short.

    >>> print(toml_text({"title": "Ours", "bet": {"odds": {"pair": 1}, "offered": True}}, "cis"))
    # from: cis
    title = "Ours"
    <BLANKLINE>
    [bet]
    offered = true
    <BLANKLINE>
    [bet.odds]
    pair = 1
    <BLANKLINE>
    """
    lines = [f"# from: {made_from}"]

    def section(node: dict[str, Any], path: list[str]) -> None:
        scalars = [(k, v) for k, v in node.items() if not (isinstance(v, dict) and v)]
        tables = [(k, v) for k, v in node.items() if isinstance(v, dict) and v]
        if path and (scalars or not tables):
            lines.extend(["", f"[{'.'.join(path)}]"])
        lines.extend(f"{k} = {_toml_value(v)}" for k, v in scalars)
        for k, v in tables:
            section(v, [*path, k])

    section(table, [])
    return "\n".join(lines) + "\n"


def made_from(game: Game, text: str | None, current: str) -> str:
    """The shipped preset a copy was made from: its `# from:` line, else the preset of the same
    title, else the game's default; `current` itself when it is a shipped preset."""
    shipped = game.preset_names()
    if current in shipped:
        return current
    found = FROM.match(text or "")
    if found and found[1] in shipped:
        return found[1]
    title = re.search(r'^title\s*=\s*"([^"]*)"', text or "", re.M)
    for name in shipped:
        if title and game.load_rules(name).title == title[1]:
            return name
    return game.default_preset


def place_refusal(rules: list[Rule], refusal: Any, said: str) -> Rule | None:
    """Put the loader's refusal beside the field of its key (a pay table's row: that table); the
    rule it was put on, or None when no field has that key."""
    key = getattr(refusal, "key", None)
    for rule in rules:
        if rule.key == key:
            rule.errors.append(said)
            return rule
    return None


LABELS = {"title": _l("Title")}
