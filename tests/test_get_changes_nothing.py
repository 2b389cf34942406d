"""Every GET route of the app, with and without a trainee's session: it changes nothing (the database
stays byte for byte as it was: state changes only on POST, so another site's image link or a
prefetching browser cannot create drills, trainees, sprint results or rounds), it sends the security
headers, and under /api/ its errors are JSON.

The routes are taken from the app's URL map, so a new GET route is checked without editing this file;
ids in the URLs are real rows of the trainee (a drill answered and one open, a sprint running and one
whose clock ran out unscored, a live-table round and table test, API drills and rounds)."""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from accounts_helpers import AuthActions
from clock_helpers import sprint_clock_ahead

KIND = "rp.bet_payout"
QUERIES = {  # query strings worth trying beside the bare URL
    "practice.start": ["?level=1", "?level=2"],
    "api.practice_next": ["?game=omaha"],
    "reference.payouts": ["?ante=10"],
    "reference.advisor": ["?cards=AsKdQc7h2s&ante=10"],
    "today.show": ["?game=omaha"],
}


def _snapshot(path: str) -> list[str]:
    with sqlite3.connect(path) as connection:
        return list(connection.iterdump())


def _ids(client) -> dict[str, list[str]]:
    """A trainee with something of everything, by its POST routes; the ids for the URL map's args."""
    assert AuthActions(client).sign_up("quiet.trainee").status_code == 302
    answered = client.post(f"/practice/{KIND}", data={"level": "1"}).headers["Location"]
    client.post(answered, data={"drill": answered.rsplit("/", 1)[1], "answer": "0"})
    open_drill = client.post(f"/practice/{KIND}", data={"level": "1"}).headers["Location"]
    sprint = client.post("/sprint/", data={"kind": KIND, "level": "1", "length": "10", "seconds": "60"})
    assert client.post("/quiz/omaha/start").status_code in (302, 303)
    round_url = client.post("/table/rounds", data={"game": "omaha", "level": "1"}).headers["Location"]
    test_url = client.post("/table/tests", data={"game": "russian_poker", "level": "1"}).headers["Location"]
    api_drill = client.post("/api/v1/drills", json={"kind": "om.high", "level": 1}).get_json()["id"]
    api_round = client.post("/api/v1/rounds", json={"game": "painted_poker", "level": 1}).get_json()["id"]

    def last_number(url: str) -> str:
        return re.findall(r"\d+", url)[-1]

    return {
        "kind_id": [KIND, "om.high", "no.such-kind"],
        "drill_id": [last_number(answered), last_number(open_drill), str(api_drill), "999999"],
        "sprint_id": [last_number(sprint.headers["Location"]), "999999"],
        "round_id": [last_number(round_url), str(api_round), "999999"],
        "test_id": [last_number(test_url), "999999"],
        "game": ["omaha", "russian_poker", "russian-poker", "painted_poker", "nope"],
        "slug": ["russian-poker", "omaha", "painted-poker", "nope"],
        "filename": ["js/clock.js", "nope.js"],
        "_rest": ["nope"],
        "name": ["swagger-ui-bundle.js", "nope.js"],  # the API reference page's own files
        # Groups and assigned quizzes: this trainee has none, so each is another's or missing.
        "group_id": ["1", "999999"],
        "user_id": ["1", "999999"],
        "exam_id": ["1", "999999"],
        "sitting_id": ["1", "999999"],
        "invitation_id": ["1", "999999"],
        "game_id": ["russian_poker", "nope"],
        # Live sessions: this trainee has joined none, so each is another's or missing.
        "session_id": ["1", "999999"],
        "code": ["ABCDEF", "nope"],
        # Duels: this trainee is in none, so each is another's or missing.
        "duel_id": ["1", "999999"],
    }


def _urls(app, ids: dict[str, list[str]]) -> dict[str, list[str]]:
    urls: dict[str, list[str]] = {}
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods:
            continue
        paths = [rule.rule]
        for argument in rule.arguments:
            paths = [
                re.sub(rf"<(?:\w+:)?{argument}>", value, path) for path in paths for value in ids[argument]
            ]
        paths += [path + query for path in paths for query in QUERIES.get(rule.endpoint, [])]
        urls[rule.endpoint] = paths
    return urls


def _get_everything(client, urls: dict[str, list[str]]) -> dict[str, Any]:
    responses = {}
    for paths in urls.values():
        for path in paths:
            response = client.get(path)
            assert response.status_code < 500, (path, response.status_code)
            responses[path] = response
    return responses


def test_no_get_route_writes_anything(app, monkeypatch):
    named = app.test_client()
    urls = _urls(app, _ids(named))
    assert len(urls) >= 25 and "practice.start" in urls and "api.get_trainee" in urls
    path = app.config["DATABASE"]
    before = _snapshot(path)
    statuses = {path: response.status_code for path, response in _get_everything(named, urls).items()}
    _get_everything(app.test_client(), urls)  # no cookie: no trainee row, no anonymous trainee
    assert _snapshot(path) == before
    # The pages did show something: the trainee's own rows answer 200, not a 404 for all.
    assert statuses[f"/practice/{KIND}?level=1"] == 200
    assert statuses[urls["sprints.run"][0]] == 200 and statuses[urls["table.show"][0]] == 200
    # Even once the sprint's clock has run out, its run and result pages score nothing (a POST does).
    sprint_clock_ahead(monkeypatch, 120)
    _get_everything(named, urls)
    assert _snapshot(path) == before


def test_every_get_route_sends_the_security_headers_and_api_errors_are_json(app):
    named = app.test_client()
    urls = _urls(app, _ids(named))
    for client in (named, app.test_client()):
        for path, response in _get_everything(client, urls).items():
            policy = response.headers.get("Content-Security-Policy", "")
            assert "script-src 'self'" in policy and "unsafe-inline" not in policy, path
            assert response.headers["X-Content-Type-Options"] == "nosniff", path
            assert response.headers["X-Frame-Options"] == "DENY", path
            assert response.headers["Referrer-Policy"] == "same-origin", path
            if path.startswith("/api/") and response.status_code >= 400:
                assert response.is_json and response.json["status"] == response.status_code, path


# The POSTs that start something for a visitor (and the sign-ups): the only ones that may make a row.
STARTS = {
    "practice.new",
    "self_check.start",
    "sprints.start",
    "table.start",
    "table.start_test",
    "today.start",
    "accounts.sign_up",
    "api.sign_up",
    "api.create_drill",
    "api.create_round",
}


def _trainees(path: str) -> int:
    with sqlite3.connect(path) as connection:
        return int(connection.execute("SELECT count(*) FROM trainees").fetchone()[0])


def test_a_visitor_gets_a_row_only_by_starting_something(app):
    """A POST that acts on something existing (an answer, a skip, a finish, a quiz's hand-in, the next
    round of a test) finds nothing to act on for a visitor without a row, and makes none; a start whose
    form is refused makes none either. 30 such posts used to leave 30 guest rows behind."""
    ids = _ids(app.test_client())  # another trainee's drill, sprint, round and test
    path = app.config["DATABASE"]
    before = _trainees(path)
    posted = []
    for rule in app.url_map.iter_rules():
        if "POST" not in rule.methods or rule.endpoint in STARTS or "<path:" in rule.rule:
            continue
        url = rule.rule
        for argument in rule.arguments:
            url = re.sub(rf"<(?:\w+:)?{argument}>", (ids | {"token_id": ["1"]})[argument][0], url)
        form = {"drill": ids["drill_id"][0], "answer": "1", "level": "1", "game": "omaha", "group": "1"}
        app.test_client().post(url, data=form)
        posted.append(rule.endpoint)
    for url, form in [
        ("/sprint/", {"kind": "no.such-kind", "level": "1", "length": "10", "seconds": "60"}),
        ("/table/rounds", {"game": "nope", "level": "1"}),
        ("/table/tests", {"game": "omaha", "level": "9"}),
        ("/today/", {"game": "nope"}),
        (f"/practice/{KIND}", {"level": "9"}),
    ]:
        assert app.test_client().post(url, data=form).status_code in (400, 404), url
    assert {"practice.answer", "sprints.skip", "self_check.submit", "table.answer"} <= set(posted)
    assert _trainees(path) == before
    # A real start still makes the guest's row at once: a guest practises without an account.
    assert app.test_client().post(f"/practice/{KIND}", data={"level": "1"}).status_code == 303
    assert _trainees(path) == before + 1
