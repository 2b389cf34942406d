"""Poison inputs: bodies and parameters built to crash a parser get a 4xx with a clear message."""

import json
import re

import pytest
from api_helpers import token_client
from conftest import make_app
from test_get_changes_nothing import _ids, _urls

DEEP = "[" * 1000 + "]" * 1000  # 2 KB
DEEP_OBJECT = '{"a": ' * 1000 + "1" + "}" * 1000
NINES = "9" * 4301  # one digit past Python's int() limit for text
# Every query parameter a GET view reads (`request.args` in trainer/web).
QUERY = ("ante", "bonus", "game", "kind", "level", "next", "preset", "rules", "sort", "upcard", "username")
QUERY_LISTS = ("player", "since", "until")


@pytest.fixture
def full_app(tmp_path):
    return make_app(DATABASE=str(tmp_path / "p.sqlite"))


def api_posts(app):
    return sorted(
        re.sub(r"<int:\w+>", "1", rule.rule)
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/") and "POST" in rule.methods and "<path:" not in rule.rule
    )


def test_every_api_post_refuses_json_nested_a_thousand_deep(full_app):
    client = full_app.test_client()
    client.post("/api/v1/drills", json={"kind": "rp.qualify", "level": 1})
    routes = api_posts(full_app)
    assert "/api/v1/drills" in routes and "/api/v1/drills/1/answer" in routes
    for url in routes:
        for body in (DEEP, DEEP_OBJECT, '{"answer": ' + DEEP + "}", '{"name": ' + DEEP_OBJECT + "}"):
            response = client.post(url, data=body, content_type="application/json")
            assert response.status_code == 400, (url, response.status_code)
            assert "nested too deeply" in response.json["error"], url


def test_json_just_within_the_depth_limit_is_read(full_app):
    client = full_app.test_client()
    drill = client.post("/api/v1/drills", json={"kind": "rp.bet_payout", "level": 1}).json
    nested = json.loads("[" * 31 + "]" * 31)
    response = client.post(f"/api/v1/drills/{drill['id']}/answer", json={"answer": nested})
    assert response.status_code == 422  # read, then refused as an answer; the drill stays open


@pytest.mark.parametrize("ante", ["²", "٣", NINES, "1" * 30, "-5", "0x10", "1e3"])
def test_a_poison_ante_is_400_with_the_rule(full_app, ante):
    response = full_app.test_client().get("/reference/payouts", query_string={"ante": ante})
    assert response.status_code == 400
    assert b"The ante must be a whole number from 1 to" in response.data


def test_huge_numbers_in_the_api_are_4xx(full_app):
    client = token_client(full_app, "teacher", "instructor")  # seeds are checked for instructors
    for body in (
        '{"kind": "rp.qualify", "level": 1, "seed": ' + NINES + "}",
        '{"kind": "rp.qualify", "level": ' + "9" * 400 + "}",
        '{"kind": "rp.qualify", "level": 1, "seed": ' + "9" * 400 + "}",
    ):
        response = client.post("/api/v1/drills", data=body, content_type="application/json")
        assert response.status_code == 400 and response.json["error"]
    drill = client.post("/api/v1/drills", json={"kind": "rp.bet_payout", "level": 1}).json
    url = f"/api/v1/drills/{drill['id']}/answer"
    for body in ('{"answer": "' + NINES + '"}', '{"answer": ' + "9" * 4000 + "}", '{"answer": 1e300}'):
        response = client.post(url, data=body, content_type="application/json")
        assert response.status_code == 422 and "too large" in response.json["error"]
    assert client.get(f"/api/v1/drills/{drill['id']}").json["answered"] is False


@pytest.mark.parametrize("stake", ["²", "٣", NINES, "-1"])
def test_a_poison_stake_on_the_advisor_is_400_with_the_rule(full_app, stake):
    client = full_app.test_client()
    cards = {"player": ["As", "Kd", "Qc", "7h", "2s"], "upcard": "9c"}
    for field in ("ante", "bonus"):
        response = client.get("/reference/advisor", query_string={**cards, field: stake})
        assert response.status_code == 400, (field, response.status_code)
        assert b"A stake is a whole number of chips from" in response.data


def test_no_get_route_answers_500_to_poison_query_parameters(app):
    named = app.test_client()
    urls = _urls(app, _ids(named))
    for paths in urls.values():
        for path in {path.split("?")[0] for path in paths}:
            for value in ("²", NINES, "\x00"):
                query = [(name, value) for name in QUERY] + [(name, value) for name in QUERY_LISTS * 2]
                response = named.get(path, query_string=query)
                assert response.status_code < 500, (path, value[:5], response.status_code)
