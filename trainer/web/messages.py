"""The message catalog: every string the pages can show, and the check that each language has it.

Two sources: strings marked in code and templates (`_()`, `gettext`, `ngettext`, `pgettext`,
`lazy_gettext`, and the engines' and drills' `step(...)`, `nstep(...)`, `pstep(...)`, `N_(...)`,
`pN_(...)`; see `trainer.engine.explain`), extracted with Babel; and, until every drill writes its
words with those markers, the drills' words collected by drawing situations of every kind at every
level.

    flask --app trainer.web messages update   # refresh translations/messages.pot and merge into *.po
    flask --app trainer.web messages check    # list what each catalog misses
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po
from flask.cli import AppGroup

from trainer.web.i18n import message_ids

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "translations"
LOCALES = ("ka", "en", "ru")
KEYWORDS: dict[str, Any] = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "lazy_gettext": None,
    "lazy_pgettext": ((1, "c"), 2),
    "_l": None,
    "step": None,
    "Step": None,
    "mistake_type": (2,),  # a mistake's title (`trainer.drills.mistakes`)
    "nstep": (1, 2),
    "pstep": ((1, "c"), 2),
    "N_": None,
    "pN_": ((1, "c"), 2),
}
METHODS = [("trainer/**.py", "python"), ("templates/**.html", "jinja2")]
_IDENTIFIER = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)+")
SAMPLES_PER_LEVEL = 100
SLOW_SOLVE = 0.2  # seconds: a solver this slow is sampled SLOW_SAMPLES times per level
SLOW_SAMPLES = 3
# Kinds that value every situation they deal (a second or so each) and whose words do not depend on
# the hand dealt: SLOW_SAMPLES situations per level are enough.
DEALT_LIVE = {"rp.decision"}


Key = str | tuple[str, str]
"""A message: its id, or (context, id) for a message with a context."""
Messages = dict[Key, tuple[str, str] | None]
"""Message -> None, or -> (singular, plural) for a message with plural forms."""


def key_of(msgid: str, context: str | None) -> Key:
    return (context, msgid) if context else msgid


def static_messages() -> Messages:
    """Marked strings in the code and the templates."""
    found: Messages = {}
    options = {"extensions": "jinja2.ext.do"}
    for _file, _line, message, _comments, context in extract_from_dir(
        str(ROOT), METHODS, keywords=KEYWORDS, options_map={"templates/**.html": options}
    ):
        if isinstance(message, tuple):
            if message[0]:
                found[key_of(message[0], context)] = (message[0], message[1])
        elif message:
            found[key_of(message, context)] = None
    return found


def _is_card_text(text: str) -> bool:
    from trainer.engine.cards import parse_cards

    try:
        parse_cards(text)
    except ValueError:
        return False
    return True


def _word_params(params: dict[str, Any]) -> Iterator[str]:
    for value in params.values():
        values = value if isinstance(value, list | tuple) else [value]
        for item in values:
            if isinstance(item, str) and not _is_card_text(item):
                yield from message_ids(item, lists=True)


def _steps_messages(steps: Iterable[Any]) -> Iterator[str]:
    for s in steps:
        if s.plural is None and s.context is None:
            yield s.template
        yield from _word_params(dict(s.params))


def _label_messages(label: Any) -> Iterator[str]:
    """A label's message ids: a `Step` or `Term` is marked where it is written (extracted), so only
    its plain-text parameters are looked up here; plain text is looked up as it is."""
    from trainer.engine.explain import Step, Term

    if isinstance(label, Step):
        yield from _word_params(dict(label.params))
    elif not isinstance(label, Term):
        yield from message_ids(str(label))


def is_template(prompt: str, params: dict[str, Any]) -> bool:
    """A prompt is a message id only if it is the template: its parameters are not baked in."""
    return not params or "{" in prompt


def formatted_prompts(samples: int = 3) -> list[str]:
    """Kinds whose prompts arrive already formatted (numbers inside), so no catalog can hold them."""
    from trainer.drills import REGISTRY, issue

    bad = set()
    for kind in REGISTRY.values():
        for level in kind.levels:
            for seed in range(samples):
                for message in issue(kind, level, seed=seed).prompt:
                    if not is_template(message.template, dict(message.params)):
                        bad.add(kind.id)
    return sorted(bad)


def drill_messages(samples: int = SAMPLES_PER_LEVEL) -> set[str]:
    """Words of every registered drill kind, from `samples` situations per level (only a few for a
    kind whose situations take a second to draw or solve, such as the buy-decision advisor's, which
    deals and values hands live; its words do not depend on the hand)."""
    from trainer.drills import REGISTRY, issue
    from trainer.drills.base import expected_of

    found: set[str] = set()
    for kind in REGISTRY.values():
        found.update(message_ids(kind.title))
        slow = False
        for level in kind.levels:
            for seed in range(SLOW_SAMPLES if kind.id in DEALT_LIVE else samples):
                situation = issue(kind, level, seed=seed)
                found.update(_steps_messages(situation.prompt))
                fmt = situation.answer_format
                for label in [*fmt.label_messages, *(c.message for c in fmt.choices)]:
                    found.update(_label_messages(label))
                if slow and seed >= SLOW_SAMPLES:
                    continue  # drawing is cheap, solving is not: fewer explanations of a slow kind
                started = time.perf_counter()
                _value, _text, steps = expected_of(situation, kind)
                slow = slow or time.perf_counter() - started > SLOW_SOLVE
                found.update(_steps_messages(steps))
    return {m for m in found if m}


def data_words() -> set[str]:
    """Ids shown as words on the reference pages: hand categories and house-rules games."""
    from trainer.engine.evaluator import Category
    from trainer.web import presets

    words = {str(c) for c in Category} | {"ace_king"} | set(presets.games())
    for game in presets.games():
        words.update(presets.key_words(game))
    # The advisor names an exchange by its cards ("exchange 7c 4d"): one message per number of cards,
    # since a few sampled situations cannot be relied on to show all five.
    for n in range(1, 6):
        words.add("exchange " + " ".join(f"{{{i}}}" for i in range(n)))
        words.add("Exchange " + " ".join(f"{{{i}}}" for i in range(n)))
    # A second paid combination is named with its own cards ("three of a kind (Kh Kd Ks)"): one message
    # per category, since sampled situations rarely reach fours or straight flushes.
    from trainer.engine.russian_poker.hands import scoring_count
    from trainer.engine.russian_poker.rules import Category as Combination

    for combination in Combination:
        count = scoring_count(combination)
        if count:
            words.add(f"{combination.label} (" + " ".join(f"{{{i}}}" for i in range(count)) + ")")
    # Rare paths a few sampled situations seldom reach: at the insured house a bought game that still
    # fails (ante and bet returned), a win cut to the table maximum and insurance settled (the live
    # table); the dealer made to bid all the cards when everybody passed (odessa-house: pp.hook, table).
    words.add("Still no game: the ante {ante} and the bet {bet} are returned unpaid.")
    words.add("Table maximum {cap}: the win {win} is cut to {paid}.")
    words.add("Table maximum {cap}: the bonus win {win} is cut to {paid}.")
    words.add("Insurance {stake} loses: the dealer has a game.")
    words.add("Insurance {stake}: the dealer has no game, it pays {odds} to 1 = {win}.")
    # (The "must bid all" choice is a marked term in trainer.drills.painted_poker.kinds: extracted.)
    # The live table's answer labels and choices (seats and pots are looked up as "Seat {0}").
    from trainer.drills.rounds import LABELS

    words.update(LABELS)
    return words


def all_messages() -> Messages:
    messages = static_messages()
    for word in sorted(drill_messages() | data_words()):
        messages.setdefault(word, None)
    return messages


def template_catalog() -> Catalog:
    catalog = Catalog(project="croupier-trainer", fuzzy=False)
    for key, plural in sorted(all_messages().items(), key=lambda item: _sort_key(item[0])):
        context, msgid = key if isinstance(key, tuple) else (None, key)
        catalog.add(plural if plural else msgid, context=context)
    return catalog


def _sort_key(key: Key) -> tuple[str, str]:
    return (key[1], key[0]) if isinstance(key, tuple) else (key, "")


def update() -> None:
    """Write messages.pot and merge it into every language's messages.po (translations kept)."""
    template = template_catalog()
    with (TRANSLATIONS / "messages.pot").open("wb") as handle:
        write_po(handle, template, width=110, sort_output=True)
    for locale in LOCALES:
        path = TRANSLATIONS / locale / "LC_MESSAGES" / "messages.po"
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            with path.open("rb") as handle:
                catalog = read_po(handle, locale=locale)
        else:
            catalog = Catalog(locale=locale, project="croupier-trainer")
        catalog.update(template, update_header_comment=False, no_fuzzy_matching=True)
        with path.open("wb") as handle:
            write_po(handle, catalog, width=110, sort_output=True, ignore_obsolete=True)


def missing(locale: str, messages: Messages | None = None) -> list[Key]:
    """Messages the locale's catalog lacks or leaves untranslated (English may keep the id)."""
    messages = all_messages() if messages is None else messages
    path = TRANSLATIONS / locale / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=locale)
    gaps: list[Key] = []
    for key in messages:
        context, msgid = key if isinstance(key, tuple) else (None, key)
        entry = catalog.get(msgid, context=context)
        # English may keep an English message id, but an identifier ("no_game_ante_odds") needs words.
        needs_words = locale != "en" or _IDENTIFIER.fullmatch(msgid) is not None
        if entry is None or entry.fuzzy or (needs_words and not _translated(entry.string)):
            gaps.append(key)
    return sorted(gaps, key=_sort_key)


def _translated(string: str | tuple[str, ...]) -> bool:
    return all(string) if isinstance(string, tuple) else bool(string)


cli = AppGroup("messages", help="The translation catalogs (translations/*/LC_MESSAGES/messages.po).")


@cli.command("update")
def update_command() -> None:
    """Extract every message into messages.pot and merge it into each language's catalog."""
    update()
    print(f"updated {TRANSLATIONS / 'messages.pot'} and the {', '.join(LOCALES)} catalogs")


@cli.command("check")
def check_command() -> None:
    """List what each catalog misses; exit status 1 when anything is missing."""
    messages = all_messages()
    bad = 0
    for locale in LOCALES:
        gaps = missing(locale, messages)
        bad += len(gaps)
        print(f"{locale}: {len(gaps)} missing", *gaps[:50], sep="\n  ")
    if bad:
        raise SystemExit(1)
