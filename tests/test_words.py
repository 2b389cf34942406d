"""Every sentence a trainee reads is a marked message, translated, and written in the reader's script.

Drills and live-table rounds are drawn at seeds that no catalog was ever built from (the catalog comes
from extraction alone, see `trainer.web.core.messages`), for every kind and level; their prompts, answer
labels, explanations and mistake sentences are walked and rendered in Georgian and Russian.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from babel.messages.pofile import read_po
from conftest import make_app

from trainer.drills import REGISTRY, grade, issue
from trainer.drills import rounds as rounds_module
from trainer.drills.base import expected_of
from trainer.engine.cards import parse_cards
from trainer.engine.explain import Cards, Step, Term
from trainer.web.core import i18n, messages

SEEDS = (7001, 7002)  # not the first seeds: nothing in the catalogs depends on drawing them
SLOW_KINDS = {"rp.decision"}  # valued exactly when dealt: one situation per level
# Notation, not words: a low ("8-4-3-2-A"), a rank letter, a card code inside a card parameter.
NOTATION = re.compile(r"^[0-9TJQKA]{1,2}(?:-[0-9TJQKA]{1,2})*$")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def _situations() -> Iterator[tuple[str, Any]]:
    for kind in sorted(REGISTRY.values(), key=lambda k: k.id):
        if kind.id.startswith("toy."):
            continue
        for level in kind.levels:
            for seed in SEEDS[:1] if kind.id in SLOW_KINDS else SEEDS:
                yield f"{kind.id}/{level}/{seed}", issue(kind, level, seed=seed)


def _wrong_answer(situation: Any, expected: Any) -> Any:
    fmt = situation.answer_format
    if fmt.kind == "choice":
        return next((c.value for c in fmt.choices if c.value != expected), expected)
    if fmt.kind == "amount":
        return expected + 1 if isinstance(expected, int) else 1
    if fmt.kind == "amounts":
        return {label: 0 for label in fmt.labels}
    return []


def _drill_messages() -> Iterator[tuple[str, Any]]:
    """(where, message) for every message a drill shows: prompt, labels, explanation, mistakes."""
    for where, s in _situations():
        fmt = s.answer_format
        for m in s.prompt:
            yield where, m
        for label in [*fmt.label_messages, *(c.message for c in fmt.choices)]:
            yield where, label
        expected, _text, steps = expected_of(s)
        for m in steps:
            yield where, m
        wrong = grade(s, _wrong_answer(s, expected))
        for m in wrong.explanation:
            yield where, m
        if wrong.mistake is not None:
            yield where, wrong.mistake.text


def _round_messages() -> Iterator[tuple[str, Any]]:
    for game in rounds_module.GAMES:
        for level in rounds_module.LEVELS:
            r = rounds_module.deal(game, level, seed=SEEDS[0])
            for index, s in enumerate(r.steps):
                where = f"{game} round {level}, step {index} ({s.kind})"
                yield where, s.question
                fmt = s.answer_format
                for label in [*fmt.label_messages, *(c.message for c in fmt.choices)]:
                    yield where, label
                for m in rounds_module.solve_step(r, index)[2]:
                    yield where, m


@pytest.fixture(scope="module")
def shown() -> list[tuple[str, Any]]:
    return [*_drill_messages(), *_round_messages()]


def _parts(message: Any) -> Iterator[Any]:
    """The message and every message or plain value nested in its parameters."""
    yield message
    if isinstance(message, Step):
        for value in message.params.values():
            for item in value if isinstance(value, list | tuple) else [value]:
                yield from _parts(item)


def _is_cards(text: str) -> bool:
    """Card codes passed as text ("9h", "Ah Kd") would be shown as codes, not as "9♥ A♠"."""
    try:
        return bool(parse_cards(text))
    except ValueError:
        return False


def _catalog(locale: str) -> Any:
    with (messages.TRANSLATIONS / locale / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return read_po(handle, locale=locale)


def test_every_shown_message_is_marked_and_translated(shown):
    """Each sentence and word is in the catalog, translated into ka and ru: the catalog is extracted
    from the code, so a message built at run time, or a word passed as plain English text, fails."""
    catalogs = {locale: _catalog(locale) for locale in ("ka", "ru")}
    untranslated, plain = {}, {}
    for where, message in shown:
        for part in _parts(message):
            if isinstance(part, Step | Term):
                msgid = part.template if isinstance(part, Step) else part.text
                for locale, catalog in catalogs.items():
                    entry = catalog.get(msgid, context=part.context)
                    strings = entry.string if entry is not None and isinstance(entry.string, tuple) else ()
                    if entry is None or not (all(strings) if strings else entry.string):
                        untranslated.setdefault((locale, msgid), where)
            elif isinstance(part, str) and (
                _is_cards(part) or (LATIN_WORD.search(part) and not NOTATION.match(part))
            ):
                plain.setdefault(part, where)
    assert not untranslated, list(untranslated.items())[:20]
    assert not plain, list(plain.items())[:20]


@pytest.mark.parametrize("locale", ["ka", "ru"])
def test_drills_and_rounds_read_without_latin_words(shown, locale):
    """Rendered for a Georgian or Russian reader, no sentence keeps an English word: cards are written
    with suit symbols ("10♥", "A♠"), numbers for the locale, words translated."""
    app = make_app(DATABASE=":memory:")
    leaks = {}
    with app.test_request_context(headers={"Accept-Language": locale}):
        assert i18n.current_language() == locale
        for where, message in shown:
            text = i18n.label_text(message) if not isinstance(message, Step) else i18n.render(message)
            for word in LATIN_WORD.findall(text):
                leaks.setdefault(word, (where, text))
    assert not leaks, list(leaks.items())[:20]


def test_cards_are_written_as_a_croupier_reads_them():
    app = make_app(DATABASE=":memory:")
    with app.test_request_context(headers={"Accept-Language": "ru"}):
        said = i18n.render(Step("{cards}", {"cards": Cards.of(["Th", "As", "2c"])}))
    assert said == "10♥ A♠ 2♣"


@pytest.mark.parametrize("locale", ["ka", "ru"])
def test_no_translation_keeps_an_english_word(locale):
    """Every Georgian and Russian string of the catalog, whatever page shows it: placeholders aside,
    only the names of programming interfaces (API, JSON) stay in Latin letters."""
    notation = {"API", "JSON", "api"}
    found = {}
    for entry in _catalog(locale):
        if not entry.id:
            continue  # the header
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        for text in strings:
            bare = re.sub(r"%\(\w+\)[sd]|\{\w+\}|<[^>]+>", " ", text or "")
            for word in re.findall(r"[A-Za-z][A-Za-z']{2,}", bare):
                if word not in notation:
                    found.setdefault(word, entry.id)
    assert not found, found


def _plain_text_arguments() -> Iterator[str]:
    """Message parameters written as English text or card codes in the engines and drills: `str(...)`,
    `format_cards(...)`, an enum's English `.label`, a name looked up in `SUIT_NAMES`."""
    import ast
    from pathlib import Path

    root = Path(messages.ROOT) / "trainer"
    for path in sorted([*root.glob("engine/**/*.py"), *root.glob("drills/**/*.py")]):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call) and getattr(node.func, "id", None) in {"step", "nstep", "pstep"}
            ):
                continue
            for keyword in node.keywords:
                value = keyword.value
                texty = (
                    isinstance(value, ast.Call) and getattr(value.func, "id", None) in {"str", "format_cards"}
                ) or (isinstance(value, ast.Attribute) and value.attr == "label")
                suit = isinstance(value, ast.Subscript) and getattr(value.value, "id", None) == "SUIT_NAMES"
                if texty or suit:
                    yield f"{path.relative_to(root.parent)}:{node.lineno} {keyword.arg}={ast.unparse(value)}"


def test_no_message_parameter_is_english_text_or_a_card_code():
    """Read in the code rather than drawn: a parameter passed as text would be shown as it is (English
    words, "Kh" for K♥) on every branch, however rarely a drill reaches it. Words are `Term`s, cards
    `Cards`, hands `hand.said`."""
    assert list(_plain_text_arguments()) == []


@pytest.mark.parametrize("locale", ["ka", "ru"])
def test_an_answer_that_cannot_be_read_is_refused_in_the_language(locale):
    """The drills' refusals (a typed amount, a choice, labelled amounts, typed cards) are messages, so
    the pages write them in the trainee's language, not in English."""
    from trainer.drills import AnswerError, AnswerFormat, AnswerKind, parse_answer
    from trainer.drills.answers import seat_label

    choice = AnswerFormat(AnswerKind.CHOICE, choices=(("fold", Term("Fold")), ("bet", Term("Bet"))))
    amounts = AnswerFormat(AnswerKind.AMOUNTS, labels=(Term("Main pot"), seat_label(0)))
    cases = [
        (AnswerFormat(AnswerKind.AMOUNT), "12.5"),
        (AnswerFormat(AnswerKind.AMOUNT), "9" * 20),
        (choice, "7"),
        (choice, ""),
        (amounts, "1; 2; 3"),
        (amounts, {"Main pot": 5}),
        (amounts, {"Main pot": 5, "Seat 1": "1.5"}),
        (AnswerFormat(AnswerKind.CARDS), "As Zz"),
        (AnswerFormat(AnswerKind.CARDS), "As As"),
    ]
    app = make_app(DATABASE=":memory:")
    with app.test_request_context(headers={"Accept-Language": locale}):
        for fmt, raw in cases:
            with pytest.raises(AnswerError) as refused:
                parse_answer(fmt, raw)
            said = i18n.error_text(refused.value)
            assert said != str(refused.value) and not re.search(r"[A-Za-z]{3,}", said), (raw, said)
