"""Numbers as each language writes them (issue 29): every amount, value, percentage and duration goes
through Babel for the page's locale, the same in sentences, on tables and in the templates' own
messages, and a number stays on one line with its unit."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from conftest import make_app
from flask import render_template_string
from flask_babel import force_locale

from trainer.engine.explain import Percent, Step, nstep, step
from trainer.web.core.i18n import (
    NBSP,
    number_text,
    percent_text,
    render,
    seconds_text,
    signed_text,
)


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    path = tmp_path_factory.mktemp("numbers") / "trainer.sqlite"
    return make_app(DATABASE=str(path))


def written(app, lang, fn, *args):
    with app.test_request_context(), force_locale(lang):
        return fn(*args)


@pytest.mark.parametrize(
    ("lang", "amount", "value", "share", "duration"),
    [
        ("en", "21,000", "-1.000", "9.546%", "0.5" + NBSP + "s"),
        ("ru", "21" + NBSP + "000", "-1,000", "9,546" + NBSP + "%", "0,5" + NBSP + "с"),
        ("ka", "21" + NBSP + "000", "-1,000", "9,546%", "0,5" + NBSP + "წმ"),
    ],
)
def test_each_kind_of_number_in_each_language(app, lang, amount, value, share, duration):
    assert written(app, lang, number_text, 21000) == amount
    assert written(app, lang, signed_text, -1.0) == value
    assert written(app, lang, percent_text, 0.09546, 3) == share
    assert written(app, lang, seconds_text, 500) == duration


def test_values_in_antes_keep_their_sign_and_decimals(app):
    assert written(app, "ru", signed_text, 0.3634) == "+0,363"
    assert written(app, "en", number_text, 0.5, 1) == "0.5"
    assert written(app, "ru", number_text, 2.0) == "2"  # a float shows no needless decimals


def test_sentences_write_their_numbers_for_the_locale(app):
    """The advisor's 'Fold: -1.000 antes' read in Russian as minus a thousand antes."""
    fold = step("Fold: {ev} antes.", ev=-1.0)
    edge = step(
        "Under best play the house keeps {edge} of the ante ({confidence} interval {low} to {high}; "
        "random deals valued exactly: {deals}).",
        edge=Percent(0.09546, 3),
        confidence=Percent(0.95),
        low=Percent(0.08246, 3),
        high=Percent(0.10845, 3),
        deals=40000,
    )
    with app.test_request_context(), force_locale("ru"):
        assert "-1,000" in render(fold) and "-1.000" not in render(fold)
        text = render(edge)
        assert "9,546" + NBSP + "%" in text and "40" + NBSP + "000" in text, text
    # The stored form (JSON) keeps the kinds, so an answer reviewed later is written the same way.
    assert Step.from_json(edge.to_json()) == edge


def test_template_messages_write_their_numbers_for_the_locale(app):
    """A number handed to _() in a template ("Pot: %(amount)s") is grouped as the locale groups it;
    inserted text is still escaped."""
    source = '{{ _("Pot: %(amount)s", amount=21000) }}|{{ _("Seat %(seat)s", seat="<b>") }}'
    with app.test_request_context(), force_locale("ru"):
        pot, seat = render_template_string(source).split("|")
    assert pot.endswith("21" + NBSP + "000"), pot
    assert "&lt;b&gt;" in seat


@pytest.mark.parametrize("lang", ["ka", "ru"])
def test_odds_and_seconds_never_break_from_their_unit(app, lang):
    """ "100 1-ზე" broke as "100 1-" / "ზე": the catalog joins a number and its "to 1" with no-break
    spaces, and a duration with its unit."""
    with app.test_request_context(), force_locale(lang):
        odds = render_template_string('{{ _("%(odds)s to 1", odds=100) }}')
        time = render_template_string('{{ _("Time taken: %(seconds)s\u00a0s", seconds=num(12.5, 1)) }}')
    assert " " not in odds, repr(odds)
    assert ("12,5" + NBSP) in time, repr(time)


# A count or a placeholder for one, then a unit: the words a number is read with ("25 chips", "3 s").
UNITS = (
    "chips?|s|min|ms|seconds?|minutes?|cards?|antes?|characters?|players?|questions?|answers?|attempts?|"
    "boxes|points?|tricks?|days?|hours?"
)
NUMBER_THEN_UNIT = re.compile(r"(%\(\w+\)[sd]|\{\w+\}|\b\d+(?:[,.]\d+)*) (" + UNITS + r")\b")
TOKEN_THEN_WORD = r"{token} (?=\w)"


def _catalog(lang: str):
    path = Path(__file__).parent.parent / "translations" / lang / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as handle:
        return read_po(handle, locale=lang)


def _ids(message) -> tuple[str, ...]:
    return message.id if isinstance(message.id, tuple) else (message.id,)


def test_no_message_breaks_a_number_from_its_unit_in_any_language():
    """ "25 chips" and "3 s" broke at the end of a line on a phone ("25" / "chips"): every English
    message puts a no-break space between a number and its unit, and the Georgian and Russian ones
    keep the number of such a message on one line with the word after it."""
    english = _catalog("en")
    broken = [i for m in english if m.id for i in _ids(m) if NUMBER_THEN_UNIT.search(i)]
    assert not broken, broken[:10]
    joined = [m for m in english if m.id and any(NBSP in i for i in _ids(m))]
    assert len(joined) > 80  # the counts of chips, cards, players, seconds... of the whole app
    for lang in ("ka", "ru"):
        catalog = _catalog(lang)
        for m in joined:
            tokens = {t for i in _ids(m) for t in re.findall(r"(%\(\w+\)[sd]|\{\w+\})" + NBSP, i)}
            translated = catalog.get(m.id, context=m.context)
            strings = translated.string if isinstance(translated.string, tuple) else (translated.string,)
            for text in strings:
                for token in tokens:
                    assert not re.search(TOKEN_THEN_WORD.format(token=re.escape(token)), text), (lang, text)


def test_an_english_count_and_its_unit_stay_on_one_line(app):
    source = (
        '{{ ngettext("%(num)s\u00a0chip of %(value)s", "%(num)s\u00a0chips of %(value)s", 25, value=5) }}|'
        '{{ _("Time taken: %(seconds)s\u00a0s", seconds=num(3.5, 1)) }}'
    )
    with app.test_request_context(), force_locale("en"):
        chips, seconds = render_template_string(source).split("|")
        cards = render(nstep("The deck has {count}\u00a0card.", "The deck has {count}\u00a0cards.", count=36))
    assert chips.startswith("25" + NBSP + "chips") and seconds.endswith("3.5" + NBSP + "s")
    assert cards == "The deck has 36" + NBSP + "cards."


def test_an_explanation_stored_before_the_no_break_spaces_is_still_translated(app):
    """A drill answered before the catalogs joined "{count} cards" keeps the plain space in its stored
    explanation: it is still looked up, and read in Georgian."""
    stored = Step.from_json(
        nstep("The deck has {count} card.", "The deck has {count} cards.", count=36).to_json()
    )
    with app.test_request_context(), force_locale("ka"):
        text = render(stored)
    assert "deck" not in text and "36" in text, text


def test_a_georgian_suffix_stays_on_its_number():
    """ "100 1-ზე" still broke as "100 1-" / "ზე" once the number and its "1" were joined: a line may
    break after a hyphen. Every Georgian message joins a number (or its placeholder) to the suffix
    after it with a no-break hyphen (U+2011), never a plain one."""
    breakable = re.compile(r"(\d|\}|%\(\w+\)[sd])-(?=[\u10d0-\u10ff])")
    found = []
    for m in _catalog("ka"):
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        found += [s for s in strings if s and breakable.search(s)]
    assert not found, found[:5]
    assert _catalog("ka").get("%(odds)s to 1").string == "%(odds)s\u00a01\u2011ზე"
