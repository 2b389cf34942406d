"""Toy drill kinds for the page tests: one per answer kind, tiny and exact, so the pages' behaviour is
tested apart from the real drills (which have their own tests, and page tests of their own below)."""

from __future__ import annotations

import contextlib

from trainer.drills import REGISTRY
from trainer.drills.answers import AnswerFormat, AnswerKind
from trainer.drills.base import DrillKind, prompt
from trainer.engine.cards import Deck
from trainer.engine.explain import step


def _amount(rng, level, rules):
    ante = rng.randint(1, 9) * 10 * level
    return prompt({"ante": ante}, step("Ante {ante}: what is the bet?", ante=ante))


def _choice(rng, level, rules):
    return prompt({"n": rng.randint(1, 99)}, step("Is the number even?"))


def _amounts(rng, level, rules):
    return prompt({"a": rng.randint(1, 50), "b": rng.randint(1, 50)}, step("Double each."))


def _cards(rng, level, rules):
    hand = [str(c) for c in Deck(rng).draw(5)]
    return prompt({"player": hand}, step("Which cards are red?"))


TOYS = (
    DrillKind(
        "toy.amount",
        "toy",
        "Toy amount",
        1,
        (1, 2),
        _amount,
        lambda d: AnswerFormat(AnswerKind.AMOUNT),
        lambda d: (2 * d["ante"], str(2 * d["ante"]), (step("Bet = 2 x {ante}.", ante=d["ante"]),)),
    ),
    DrillKind(
        "toy.choice",
        "toy",
        "Toy choice",
        1,
        (1,),
        _choice,
        lambda d: AnswerFormat(AnswerKind.CHOICE, choices=(("yes", "yes"), ("no", "no"))),
        lambda d: ("yes" if d["n"] % 2 == 0 else "no", "", (step("{n} mod 2", n=d["n"]),)),
    ),
    DrillKind(
        "toy.amounts",
        "toy",
        "Toy amounts",
        1,
        (1,),
        _amounts,
        lambda d: AnswerFormat(AnswerKind.AMOUNTS, labels=("A", "B")),
        lambda d: ({"A": 2 * d["a"], "B": 2 * d["b"]}, "", ()),
    ),
    DrillKind(
        "toy.cards",
        "toy",
        "Toy cards",
        1,
        (1,),
        _cards,
        lambda d: AnswerFormat(AnswerKind.CARDS),
        lambda d: ([c for c in d["player"] if c[-1] in "hd"], "", ()),
    ),
)


@contextlib.contextmanager
def toy_kinds():
    added = [k for k in TOYS if k.id not in REGISTRY]
    for kind in added:
        REGISTRY[kind.id] = kind
    try:
        yield TOYS
    finally:
        for kind in added:
            REGISTRY.pop(kind.id, None)
