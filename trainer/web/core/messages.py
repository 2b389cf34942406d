"""The message catalog: every string the pages can show, and the check that each language has it.

Two sources: strings marked in code and templates (`_()`, `gettext`, `ngettext`, `pgettext`,
`lazy_gettext`, and the engines' and drills' `step(...)`, `nstep(...)`, `pstep(...)`, `N_(...)`,
`pN_(...)`; see `trainer.engine.explain`), extracted with Babel without running any drill; and the
words of the house-rules files (key parts, word values, preset titles), read from every file.

    flask --app trainer.web messages update   # refresh translations/messages.pot and merge into *.po
    flask --app trainer.web messages check    # list what each catalog misses
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po
from flask.cli import AppGroup

ROOT = Path(__file__).resolve().parents[3]
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


def data_words() -> set[str]:
    """Words that come from the house-rules files, not from code, shown on the reference and preset
    pages: the parts of the presets' keys, their word values and the presets' titles (read from every
    file, so none is missed)."""
    from trainer.web.core import presets

    words: set[str] = set()
    for game in presets.games():
        words.update(presets.key_words(game))
    return words


def all_messages() -> Messages:
    messages = static_messages()
    for word in sorted(data_words()):
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
