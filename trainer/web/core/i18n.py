"""Languages: Georgian, English, Russian through Flask-Babel.

The locale comes from the trainee's remembered choice (session), else the browser's Accept-Language.
Compiled catalogs (.mo) are git-ignored, so `compile_catalogs` builds them from the .po files at
start-up whenever a .po is newer: a fresh clone then shows translated pages on its first run.
"""

from __future__ import annotations

import os
import re
import shutil
import weakref
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from babel import Locale
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent
from flask import Flask, g, request, session
from flask_babel import Babel, get_locale, gettext
from flask_babel import get_translations as _babel_translations
from markupsafe import Markup

from trainer.engine.cards import Card
from trainer.engine.explain import Cards, Either, Fixed, Percent, Step, Term

LANGUAGES: dict[str, str] = {"ka": "ქართული", "en": "English", "ru": "Русский"}
LANGUAGE_CODES: dict[str, str] = {"ka": "ქა", "en": "EN", "ru": "РУ"}  # the switch on a phone
DEFAULT_LANGUAGE = "en"


def compile_catalogs(directory: Path) -> list[Path]:
    """Write `messages.mo` beside every `messages.po` that is newer; return the files written."""
    written = []
    for po_path in sorted(directory.glob("*/LC_MESSAGES/messages.po")):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        with po_path.open("rb") as po_file:
            catalog = read_po(po_file, locale=po_path.parts[-3])
        tmp_path = mo_path.with_suffix(f".mo.{os.getpid()}.tmp")
        with tmp_path.open("wb") as mo_file:
            write_mo(mo_file, catalog)
        # Atomic swap from a file of this process's own: two app processes (test workers, server
        # workers) starting together never read or write a half-written catalog.
        tmp_path.replace(mo_path)
        written.append(mo_path)
    return written


def select_locale() -> str:
    """The remembered choice first, then the best match for the browser, then English."""
    chosen = session.get("lang")
    if chosen in LANGUAGES:
        return str(chosen)
    return request.accept_languages.best_match(list(LANGUAGES)) or DEFAULT_LANGUAGE


def init_app(app: Flask, translations: Path) -> None:
    """Compile the catalogs and attach Babel plus the template helpers."""
    try:
        compile_catalogs(translations)
    except OSError:
        # A read-only checkout: compile a copy in the instance folder instead.
        copy = Path(app.instance_path) / "translations"
        shutil.copytree(translations, copy, dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.mo*"))
        compile_catalogs(copy)
        translations = copy
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(translations))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    Babel(app, locale_selector=select_locale)
    # The templates' _() and ngettext() write every number they insert for the locale ("Pot: 21 000",
    # not "Pot: 21000"), so no template has to remember to.
    app.jinja_env.globals.update(gettext=template_gettext, ngettext=template_ngettext)
    app.jinja_env.globals.update(
        LANGUAGES=LANGUAGES,
        LANGUAGE_CODES=LANGUAGE_CODES,
        current_language=current_language,
        translate_step=render,
        render_prompt=render_prompt,
        label_text=label_text,
        amount_label=amount_label,
        num=number_text,
        percent=percent_text,
        seconds=seconds_text,
        signed=signed_text,
        tr=translate_word,
    )


def current_language() -> str:
    return str(get_locale() or DEFAULT_LANGUAGE)


def translate_word(text: Any) -> Any:
    """A word or phrase that arrives as data, looked up as it is: a drill's title, a house-rules key
    part or preset title (their ids are marked in code or read from the rules files by
    `trainer.web.core.messages`). Sentences with numbers or cards are messages with parameters instead."""
    if not isinstance(text, str) or not text:
        return text
    return gettext(text)


SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
RANK_TEXT = {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}


def card_text(card: Card | str) -> str:
    """A card as the table shows it and a croupier writes it: rank and suit symbol ("10♥", "A♠")."""
    if not isinstance(card, Card) and str(card)[:1] == "X":
        return "🃏" + str(card)[1:]  # a real joker of a 54-card deck (X1, X2)
    parsed = card if isinstance(card, Card) else Card.from_text(str(card))
    return RANK_TEXT.get(parsed.rank, str(parsed.rank)) + SUIT_SYMBOLS[parsed.suit]


NBSP = "\u00a0"  # between a number and its unit ("0,5 с"), so a line never breaks between them


def number_text(value: int | float, digits: int | None = None) -> str:
    """A number written for the locale ("1,400" in English, "1 400" in Georgian and Russian, the
    space a no-break one); `digits` fixes the decimals shown (a float otherwise shows up to three)."""
    if value is None or isinstance(value, bool) or not isinstance(value, int | float):
        return "" if value is None else str(value)
    if digits is None:
        pattern = "#,##0" if isinstance(value, int) else "#,##0.###"
    else:
        pattern = "#,##0." + "0" * digits if digits else "#,##0"
    return format_decimal(value, format=pattern, locale=current_language())


def signed_text(value: float, digits: int = 3) -> str:
    """A value that may be a gain or a loss, with its sign ("+0,363", "-1,000" in Russian)."""
    body = "#,##0." + "0" * digits if digits else "#,##0"
    return format_decimal(value, format=f"+{body};-{body}", locale=current_language())


def percent_text(share: float, digits: int = 0) -> str:
    """A share (0.93) as the locale writes a percentage ("93%", Russian "93 %" with a no-break space)."""
    lang = current_language()
    pattern = Locale.parse(lang).percent_formats[None].pattern  # "#,##0%", Russian "#,##0\xa0%"
    if digits:
        pattern = re.sub(r"0(?![0-9#,.])", "0." + "0" * digits, pattern, count=1)
    return format_percent(share, format=pattern, locale=lang)


def seconds_text(milliseconds: float | None, digits: int = 1) -> str:
    """A duration in seconds with its unit, joined by a no-break space ("0,5 с", "12.3 s")."""
    if milliseconds is None:
        return "—"
    return number_text(milliseconds / 1000, digits) + NBSP + str(gettext("s"))


def get_translations() -> Any:
    """Flask-Babel's catalog for the request's locale, kept on `g` beside the locale object it is for:
    a page asks for it once per message (221 times on the home page), and Flask-Babel finds it again
    each time (5.8 us, 13% of rendering the home page). `force_locale` and `refresh` put another
    locale object in place, which finds its own catalog."""
    locale = get_locale()
    if locale is None:  # outside a request: Flask-Babel's own answer (no translations)
        return _babel_translations()
    kept = g.get("_trainer_translations")
    if kept is None or kept[0] is not locale:
        kept = g._trainer_translations = (locale, _babel_translations())
    return kept[1]


def _numbers(variables: dict[str, Any]) -> dict[str, Any]:
    return {
        k: number_text(v) if isinstance(v, int | float) and not isinstance(v, bool) else v
        for k, v in variables.items()
    }


def template_gettext(string: str, **variables: Any) -> Markup:
    """The templates' `_()`: as Jinja's own newstyle gettext (the message is markup, the inserted
    values are escaped), with numbers written for the locale."""
    return Markup(get_translations().gettext(string)) % _numbers(variables)


def template_ngettext(singular: str, plural: str, num: int, **variables: Any) -> Markup:
    variables.setdefault("num", num)
    return Markup(get_translations().ngettext(singular, plural, num)) % _numbers(variables)


_SPACED_FORMS: weakref.WeakKeyDictionary[Any, dict[str, str]] = weakref.WeakKeyDictionary()


def _spaced_forms(translations: Any) -> dict[str, str]:
    """A message as drills stored it before the catalogs put a no-break space between a number and its
    unit ("{count} cards"), mapped to the catalog's form ("{count}\u00a0cards"): an old explanation
    is still translated. Read once per loaded catalog."""
    forms = _SPACED_FORMS.get(translations)
    if forms is None:
        forms = {}
        for key in getattr(translations, "_catalog", None) or {}:
            msgid = key[0] if isinstance(key, tuple) else key
            if isinstance(msgid, str) and NBSP in msgid:
                msgid = msgid.rpartition("\x04")[2]  # "context\x04message" for a message with a context
                forms[msgid.replace(NBSP, " ")] = msgid
        _SPACED_FORMS[translations] = forms
    return forms


def _translate(template: str, context: str | None, plural: str | None = None, count: Any = None) -> str:
    translations = get_translations()
    if " " in template:
        forms = _spaced_forms(translations)
        template = forms.get(template, template)
        plural = None if plural is None else forms.get(plural, plural)
    if plural is not None:
        n = count if isinstance(count, int) else 2
        if context:
            return str(translations.npgettext(context, template, plural, n))
        return str(translations.ngettext(template, plural, n))
    if context:
        return str(translations.pgettext(context, template))
    return str(translations.gettext(template))


def _value(value: Any) -> Any:
    """One parameter written for the reader: numbers for the locale, cards with suit symbols, words
    and nested messages translated, lists as a list in the language."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, float):
        return signed_text(value, 3)  # floats in sentences are values in antes: "+0,363", "-1,000"
    if isinstance(value, int):
        return number_text(value)
    if isinstance(value, Percent):
        return percent_text(value.share, value.places)
    if isinstance(value, Fixed):
        return number_text(value.value, value.places)
    if isinstance(value, Cards):
        return " ".join(card_text(code) for code in value.codes)
    if isinstance(value, Term):
        return _translate(value.text, value.context)
    if isinstance(value, Step):
        return render(value)
    if isinstance(value, list | tuple):
        items = [str(_value(v)) for v in value]
        return format_list(items, locale=current_language()) if items else ""
    if isinstance(value, Either):
        items = [str(_value(v)) for v in value.items]
        return format_list(items, style="or", locale=current_language()) if items else ""
    return translate_word(value)


def render(message: Step | Mapping[str, Any]) -> str:
    """One message (a `Step` or its JSON form) as a sentence in the current language."""
    m = message if isinstance(message, Step) else Step.from_json(message)
    params = {key: _value(v) for key, v in m.params.items()}
    translated = _translate(m.template, m.context, m.plural, m.params.get(m.count or ""))
    try:
        return translated.format(**params)
    except (KeyError, IndexError, ValueError):
        pass
    # A broken translation must not hide the explanation: fall back to the English sentence.
    try:
        return m.english.format(**params)
    except (KeyError, IndexError, ValueError):
        return str(m)


def error_text(error: Exception) -> str:
    """A refused answer's sentence for the reader: the drills' message (`AnswerError.said`) written in
    the language, else the page's own sentence (already translated where it was raised)."""
    said = getattr(error, "said", None)
    return render(said) if isinstance(said, Step) else str(gettext(str(error)))


def label_text(label: Any) -> str:
    """An answer option or amount label (`Step`, `Term` or text shown as it is) for the reader; a word
    standing alone starts with a capital where the language writes one (Georgian has no capitals)."""
    if isinstance(label, Step):
        return render(label)
    if isinstance(label, Term):
        text = str(_value(label))
        return text if current_language() == "ka" else text[:1].upper() + text[1:]
    # Plain text: numbers and lows ("8-4-3-2-A") are shown as they are; a label stored before the drills
    # wrote terms ("No game") is still looked up.
    return str(translate_word(str(label)))


def amount_label(fmt: Any, label: str) -> str:
    """The shown label of an amounts answer's key (the English label)."""
    for key, shown in zip(fmt.labels, fmt.label_messages, strict=False):
        if key == label:
            return label_text(shown)
    return label


def render_prompt(situation: Any) -> str:
    """The question of a `Situation`, sentence by sentence."""
    return " ".join(render(m) for m in situation.prompt)


def translate_step(step: Any) -> str:
    """One explanation step as a sentence in the current language (the same as `render`)."""
    return render(step)
