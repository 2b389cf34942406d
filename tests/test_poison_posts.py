"""Every POST route of the app (pages and API, taken from the URL map, with the trainee's own ids) given
poison values in every field it might read: never a 500, and what was recorded before is kept.

The caller is signed in again before each route: a failed sign-in or sign-up, or the sign-out routes,
end the session, and every route after them would only redirect to the sign-in page. An instructor who
owns a group posts them too, so the group and exam forms are reached."""

from __future__ import annotations

import sqlite3

import pytest
from accounts_helpers import AuthActions, signed_in
from test_get_changes_nothing import _ids
from werkzeug.datastructures import MultiDict

NINES = "9" * 4301  # one digit past Python's int() limit for text
POISON = [NINES, "²", "\x00", "1e309", "x" * 20_000, "[[[", "%s%n", " "]
FIELDS = [
    "answer",
    "amount-0",
    "amount-1",
    "level",
    "kind",
    "game",
    "length",
    "seconds",
    "drill",
    "step",
    "seats",
    "payout",
    "seed",
    "rules",
    "username",
    "password",
    "confirm",
    "current",
    "new",
    "code",
    "label",
    "next",
    "lang",
    "choice",
    "cards",
    "upcard",
    "player",
    "ante",
    # the groups' and exams' forms
    "group",
    "name",
    "item",
    "title",
    "questions",
    "attempts_allowed",
    "time_limit_min",
    "opens_at",
    "closes_at",
    "same_questions",
    "answers_before_close",
    "accuracy",
    "median_seconds",
    "min_level",
    "window",
    "text",
    "started",
]


def _posts(app, ids: dict[str, list[str]]) -> list[str]:
    urls = []
    for rule in app.url_map.iter_rules():
        if "POST" not in rule.methods or "<path:" in rule.rule:
            continue
        path = rule.rule
        for argument in rule.arguments:
            path = path.replace(f"<int:{argument}>", ids[argument][0]).replace(
                f"<{argument}>", ids[argument][0]
            )
        urls.append(path)
    return sorted(urls)


def _attempts(path: str) -> list[tuple]:
    with sqlite3.connect(path) as connection:
        return connection.execute("SELECT * FROM attempts ORDER BY id").fetchall()


def _poison_every_route(client, urls, value, sign_in):
    for url in urls:
        assert sign_in().status_code == 302  # signed in for this route, whatever the last one did
        form = {field: value for field in FIELDS}
        response = client.post(url, data=form)
        assert response.status_code < 500, (url, "form", response.status_code)
        response = client.post(url, json=form)
        assert response.status_code < 500, (url, "json", response.status_code)
        numbers = {field: int(NINES[:400]) for field in ("level", "seed", "seats", "step", "drill")}
        response = client.post(url, json={**form, **numbers})
        assert response.status_code < 500, (url, "numbers", response.status_code)
        lists = [(field, value) for field in ("item", "drill", "player")] + [("item", f"rp.qualify:{value}")]
        response = client.post(url, data=MultiDict(lists))
        assert response.status_code < 500, (url, "lists", response.status_code)


@pytest.mark.parametrize("value", POISON, ids=lambda v: repr(v[:12]))
def test_no_post_route_answers_500_to_poison_values(app, value):
    client = app.test_client()
    ids = _ids(client) | {"token_id": ["1"]}
    urls = _posts(app, ids)
    assert "/practice/drill/" + ids["drill_id"][1] in urls or len(urls) > 20
    before = _attempts(app.config["DATABASE"])
    _poison_every_route(client, urls, value, lambda: AuthActions(client).sign_in("quiet.trainee"))
    assert _attempts(app.config["DATABASE"])[: len(before)] == before
    # The trainee's drills were his own all along: the open one is still open, the answered one kept.
    assert b'name="answer"' in client.get(f"/practice/drill/{ids['drill_id'][1]}").data


@pytest.mark.parametrize("value", POISON[:5], ids=lambda v: repr(v[:12]))  # the numbers, NUL and length
def test_no_post_route_answers_500_to_an_instructors_poison_values(app, value):
    teacher = signed_in(app, "teacher", "instructor")
    assert teacher.post("/groups/new", data={"name": "Class A"}).status_code == 302
    ids = _ids(app.test_client()) | {"token_id": ["1"], "group_id": ["1"], "user_id": ["1"]}
    _poison_every_route(teacher, _posts(app, ids), value, lambda: AuthActions(teacher).sign_in("teacher"))
    assert teacher.get("/groups/1").status_code == 200


def test_a_page_refuses_a_json_body_with_415_and_a_clear_page(app):
    client = app.test_client()
    ids = _ids(client)
    for body in ({"level": 1}, "[" * 1000 + "]" * 1000):
        kwargs = {"json": body} if isinstance(body, dict) else {"data": body}
        response = client.post(f"/practice/{ids['kind_id'][0]}", content_type="application/json", **kwargs)
        assert response.status_code == 415 and b"/api/v1/" in response.data
    assert client.post(f"/practice/{ids['kind_id'][0]}", data={"level": "1"}).status_code == 303
