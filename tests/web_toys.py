"""Toy drill kinds for the page tests: one per answer kind, tiny and exact, so the pages' behaviour is
tested apart from the real drills (which have their own tests, and page tests of their own below)."""

from __future__ import annotations

import contextlib

from trainer.drills import REGISTRY
from trainer.drills.answers import AnswerFormat, AnswerKind
from trainer.drills.base import DrillKind
from trainer.engine.cards import Deck
from trainer.engine.explain import step


def _amount(rng, level, rules):
    return {
        "ante": rng.randint(1, 9) * 10 * level,
        "prompt": "Ante {ante}: what is the bet?",
        "prompt_params": {},
    }


def _choice(rng, level, rules):
    return {"n": rng.randint(1, 99), "prompt": "Is the number even?", "prompt_params": {}}


def _amounts(rng, level, rules):
    return {"a": rng.randint(1, 50), "b": rng.randint(1, 50), "prompt": "Double each.", "prompt_params": {}}


def _cards(rng, level, rules):
    hand = [str(c) for c in Deck(rng).draw(5)]
    return {"player": hand, "prompt": "Which cards are red?", "prompt_params": {}}


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
