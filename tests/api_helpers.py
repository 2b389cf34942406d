"""Shared by the API tests: an app holding just the API blueprint, and toy drill kinds.

The API is tested on its own app so its tests do not depend on the pages; one test checks that
`create_app` registers it.
"""

import random

import pytest
from flask import Flask

from trainer.drills.base import REGISTRY, AnswerFormat, AnswerKind, DrillKind, prompt
from trainer.engine.explain import step
from trainer.web.core import i18n
from trainer.web.site import TRANSLATIONS, init_api


def _generate(rng: random.Random, level: int, rules: str | None) -> dict:
    a, b = rng.randint(100, 999), rng.randint(100, 999)
    return prompt({"a": a, "b": b}, step("Add {a} and {b}.", a=a, b=b))


def _solve(data):
    total = data["a"] + data["b"]
    return total, f"{total:,}", (step("{a} + {b} = {total}", a=data["a"], b=data["b"], total=total),)


def _generate_choice(rng: random.Random, level: int, rules: str | None) -> dict:
    n = rng.randint(1, 99)
    return prompt({"n": n}, step("Is {n} even?", n=n))


def _solve_choice(data):
    answer = "yes" if data["n"] % 2 == 0 else "no"
    return answer, answer.capitalize(), (step("{n} mod 2 = {r}", n=data["n"], r=data["n"] % 2),)


SUM = DrillKind(
    "test.sum", "test", "Add two amounts", 1, (1, 2), _generate, lambda d: AnswerFormat("amount"), _solve
)
EVEN = DrillKind(
    "test.even",
    "test",
    "Even or odd",
    1,
    (1, 2, 3),
    _generate_choice,
    lambda d: AnswerFormat(AnswerKind.CHOICE, choices=(("yes", "Yes"), ("no", "No"))),
    _solve_choice,
)


@pytest.fixture
def toy_kinds():
    for kind in (SUM, EVEN):
        REGISTRY[kind.id] = kind
    yield
    for kind in (SUM, EVEN):
        del REGISTRY[kind.id]


def make_api_app(tmp_path, **config) -> Flask:
    app = Flask("api_test")
    app.config.update(
        TESTING=True,
        DATABASE=str(tmp_path / "api.sqlite"),
        SECRET_KEY="test",
        FAST_PASSWORD_HASHING=True,
        **config,
    )
    # Babel as in the real app: the messages the API shares with the pages (drill-or-404) are translated.
    i18n.init_app(app, TRANSLATIONS)
    init_api(app)
    return app


def total(drill_json) -> int:
    return drill_json["situation"]["a"] + drill_json["situation"]["b"]


def token_client(app, username: str, role: str = "trainee", password: str = "a long secret"):
    """A test client that sends a bearer token of a new account of this role on every request."""
    from trainer.store import open_db
    from trainer.store.accounts import FAST_HASHER, Accounts

    Accounts(open_db(app.config["DATABASE"]), hasher=FAST_HASHER).create_user(username, password, role=role)
    client = app.test_client()
    made = client.post("/api/v1/tokens", json={"username": username, "password": password})
    assert made.status_code == 201, made.json
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {made.json['token']}"
    return client
