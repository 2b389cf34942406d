"""Every drill kind's question, explanation and named mistakes, at every level under every house the
loaders accept (each game's shipped presets, and an Omaha house copy playing the rule document's
heads-up blinds), rendered in Georgian, Russian and English (issue 26, "Explanations the audit read
wrong"). A few seeds each, so the sweep stays a few seconds; the drill tests grade thousands.

It fails on
- a placeholder left unfilled (`{seat}`, `%(num)s` in the rendered sentence);
- a count of 1 with a plural noun: a sentence that is not a plural message (`nstep`) whose template
  puts a plural noun next to a parameter holding one item ("seats {seats}" with [1], "{count} cards"
  with 1), and in the rendered text "seats 1" / "места 1" / "ადგილები 1" or "1 cards";
- a card named in two roles: within one sentence two card lists that share a card without one being
  part of the other, and across an explanation the cards a sentence names as outside a combination
  found in that combination (`EXCLUSIVE`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import make_app
from flask_babel import force_locale

from trainer.drills import REGISTRY, expected_of, issue, mistakes_of
from trainer.drills.errors import RulesError
from trainer.engine.explain import Cards, Either, Step
from trainer.engine.presets import HouseTexts
from trainer.games import BY_ID
from trainer.store.groups import house_name
from trainer.web.core.i18n import render

LOCALES = ("ka", "ru", "en")
# rp.decision asks the advisor (a few tenths of a second a situation): one seed there.
# A spot-the-mistake sheet is made of the settling kinds' hands, each swept under its own kind: one seed.
SEEDS = {"rp.decision": range(1)} | {f"{g}.spot_mistake": range(1) for g in ("rp", "om", "pp")}
DEFAULT_SEEDS = range(3)

# Nouns a count or a list of one must not stand beside in a sentence that has no plural forms (words
# that are also verbs, "raises", "bets", "deals", are left out: "Seat {seat} raises to {amount}.").
BEFORE = "seats|players|boxes|cards|hands|spots|pots"
AFTER = "seats|cards|players|boxes|chips|tricks|combinations|pots|exchanges|jokers|suits|ranks|hands"
NEXT_TO_PARAM = [
    re.compile(rf"\b(?i:{BEFORE})\s+\{{(\w+)\}}(?!\s*(?:,|and)\s*\{{)"),  # "seats {seats}", not "{a} and {b}"
    re.compile(rf"\{{(\w+)\}}\s+(?:[a-z-]+\s+)?(?:{AFTER})\b"),  # "{count} cards", "{count} more cards"
]
_LIST_GOES_ON = r"(?![\d\s]*(?:,|-|–|{and}))"
# The rendered text: a plural word for seats followed by one number, or "1" before a plural noun.
# Russian "места" is also the genitive singular ("до места 1"): only its plural-only forms, and
# "места" opening a sentence or after a colon or dash, count.
ONE_WITH_PLURAL = {
    "en": [
        re.compile(r"\b[Ss]eats (\d+)" + _LIST_GOES_ON.format(**{"and": r"and\b|or\b|to\b"})),
        re.compile(rf"(?<![\d,.])\b1 (?:{AFTER})\b"),
    ],
    "ru": [
        re.compile(r"(?:^|[:—] )[Мм]еста (\d+)" + _LIST_GOES_ON.format(**{"and": r"и\b|или\b"})),
        re.compile(r"\b[Мм]ест(?:ам|ами|ах) (\d+)" + _LIST_GOES_ON.format(**{"and": r"и\b|или\b"})),
    ],
    "ka": [re.compile(r"ადგილებ\w* (\d+)" + _LIST_GOES_ON.format(**{"and": r"და\b|ან\b"}))],
}
UNFILLED = re.compile(r"\{\w+\}|%\(\w+\)[sd]")

# Sentences whose card parameters must never share a card across one explanation: (a template's
# start, its parameter) against (another template's start, its parameter); None: all its cards.
EXCLUSIVE = [
    (("First combination:", "hand"), ("Second combination:", "cards")),
    (("Two combinations:", "scoring"), ("Two combinations:", "outside")),
]
# Card lists of one sentence that may share cards: a second combination shares cards with the first
# (only its card outside the first must not be the first's, as `EXCLUSIVE` says).
SHARING = {("Two combinations:", "cards", "scoring")}


def _document_house() -> tuple[str, HouseTexts]:
    """An Omaha house copy playing the rule document's heads-up blinds (`blinds.heads_up`), handed
    over as text."""
    game = BY_ID["omaha"]
    text = (game.rules_folder / "standard.toml").read_text()
    text = text.replace('heads_up = "button_posts_small"', 'heads_up = "button_posts_big"')
    name = house_name(text)
    return name, HouseTexts.of(game.slug, name, text)


DOCUMENT_NAME, HOUSES = _document_house()


def _houses(game_id: str) -> list[str]:
    names = list(BY_ID[game_id].preset_names())
    if game_id == "omaha":
        names.append(DOCUMENT_NAME)
    return names


def _cases() -> Iterator[tuple[str, int, str]]:
    for kind_id in sorted(REGISTRY):
        for level in REGISTRY[kind_id].levels:
            yield kind_id, level


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(DATABASE=str(tmp_path_factory.mktemp("sweep") / "test.sqlite"))


def _walk(message: Step) -> Iterator[Step]:
    yield message
    for value in message.params.values():
        for item in value if isinstance(value, list | tuple) else [value]:
            if isinstance(item, Step):
                yield from _walk(item)
            elif isinstance(item, Either):
                yield from (i for v in item.items if isinstance(v, Step) for i in _walk(v))


def _cards(value: Any) -> set[str]:
    """Every card a parameter names (a nested sentence's cards too)."""
    if isinstance(value, Cards):
        return set(value.codes)
    if isinstance(value, Step):
        return set().union(*(_cards(v) for v in value.params.values()))
    if isinstance(value, list | tuple):
        return set().union(*(_cards(v) for v in value)) if value else set()
    return set()


def _one(value: Any) -> bool:
    """A parameter holding one item: the number 1, a list of one, a text naming one number."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value == 1
    if isinstance(value, list | tuple):
        return len(value) == 1 and not isinstance(value[0], Cards)
    if isinstance(value, str):
        return re.fullmatch(r"\d+", value.strip()) is not None
    return False


def structural_faults(messages: list[Step]) -> list[str]:
    faults = []
    for top in messages:
        for m in _walk(top):
            if m.plural is None:
                for pattern in NEXT_TO_PARAM:
                    for match in pattern.finditer(m.template):
                        if _one(m.params.get(match.group(1))):
                            faults.append(f"one item beside a plural noun: {m.template!r} {dict(m.params)}")
            cards = [(k, _cards(v)) for k, v in m.params.items() if _cards(v)]
            shared = {(a, b) for start, a, b in SHARING if m.template.startswith(start)}
            for i, (a, first) in enumerate(cards):
                for b, second in cards[i + 1 :]:
                    if {(a, b), (b, a)} & shared:
                        continue
                    if first & second and not (first <= second or second <= first):
                        faults.append(f"{sorted(first & second)} both {a} and {b} in {str(m)!r}")
    for (start_a, param_a), (start_b, param_b) in EXCLUSIVE:
        named_a = [_cards(m.params.get(param_a)) for m in messages if m.template.startswith(start_a)]
        named_b = [_cards(m.params.get(param_b)) for m in messages if m.template.startswith(start_b)]
        for a in named_a:
            for b in named_b:
                if a & b:
                    said = " / ".join(str(m) for m in messages)
                    faults.append(f"{sorted(a & b)} named as {param_a} and as {param_b}: {said!r}")
    return faults


def text_faults(locale: str, sentence: str) -> list[str]:
    faults = []
    if UNFILLED.search(sentence):
        faults.append(f"{locale}: placeholder left unfilled: {sentence!r}")
    for pattern in ONE_WITH_PLURAL[locale]:
        if pattern.search(sentence):
            faults.append(f"{locale}: one item with a plural noun: {sentence!r}")
    return faults


def test_the_checks_catch_the_audits_examples(app):
    """The two explanations the audit read wrong, as they were, fail the checks."""
    shown = Step(
        "At the showdown seats {shown} have shown their hands, in turn; seat {seat} is next.",
        {"shown": "1", "seat": 4},
    )
    assert structural_faults([shown])
    with app.test_request_context(), force_locale("en"):
        assert text_faults("en", render(shown))
    first = Step(
        "First combination: {hand}, {odds} to 1.",
        {"hand": Cards.of(["Kd", "Kc", "Kh", "Ks", "2c"]), "odds": 20},
    )
    second = Step(
        "Second combination: {second}, with {cards} outside the first: {odds} to 1 more.",
        {"second": Cards.of(["Kh", "Kd", "Kc", "2d", "2c"]), "cards": Cards.of(["2d", "2c"]), "odds": 7},
    )
    assert structural_faults([first, second])
    assert text_faults("ru", "Уже показали: места 1.") and not text_faults("ru", "Места 3 и 4 сбросили")
    assert not text_faults("ru", "когда тот дойдёт до места 1; раздач до этого: 4.")
    assert text_faults("ka", "ადგილებმა 1 აჩვენეს") and not text_faults("ka", "ადგილებმა 1, 3 და 4")
    assert text_faults("en", "seat {seat} is next") and text_faults("ka", "%(num)s ბოქსი")
    assert not text_faults("en", "Seats 1 and 3 have shown their hands; seats 2 to 4.")


@pytest.mark.parametrize(("kind_id", "level"), list(_cases()), ids=lambda v: str(v))
def test_every_explanation_reads_right_in_three_languages(app, kind_id, level):
    kind = REGISTRY[kind_id]
    faults: list[str] = []
    drawn = 0
    for house in _houses(kind.game):
        for seed in SEEDS.get(kind_id, DEFAULT_SEEDS):
            try:
                situation = issue(kind_id, level, seed=seed, rules=house, houses=HOUSES)
            except RulesError:
                continue  # a kind this house does not play (the bonus under Lunar)
            drawn += 1
            _value, _text, steps = expected_of(situation, houses=HOUSES)
            said = [*situation.prompt, *steps]
            named = [m.text for m in mistakes_of(situation, houses=HOUSES)]
            where = f"{kind_id} level {level} seed {seed} {house}"
            faults += [f"{where}: {f}" for f in structural_faults([*steps]) + structural_faults(said)]
            faults += [f"{where}: {f}" for f in structural_faults(list(situation.prompt))]
            faults += [f"{where}: {f}" for f in structural_faults(named)]
            for locale in LOCALES:
                with app.test_request_context(), force_locale(locale):
                    for message in [*said, *named]:
                        faults += [f"{where}: {f}" for f in text_faults(locale, render(message))]
    assert drawn, kind_id
    assert not faults, "\n".join(sorted(set(faults))[:40])
