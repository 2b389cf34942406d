"""The JSON API through Flask's test client: every route and every error."""

import pytest
from api_helpers import make_api_app, token_client, total, toy_kinds  # noqa: F401  (toy_kinds is a fixture)
from conftest import make_app
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trainer.store import Store, open_db

pytestmark = pytest.mark.usefixtures("toy_kinds")


@pytest.fixture
def app(tmp_path):
    return make_api_app(tmp_path)


@pytest.fixture
def client(app):
    """A guest (a session cookie, no account)."""
    return app.test_client()


@pytest.fixture
def instructor(app):
    """An instructor calling with a bearer token: the only caller who may fix a seed."""
    return token_client(app, "teacher", "instructor")


def _new(client, **body):
    response = client.post("/api/v1/drills", json={"kind": "test.sum", "level": 1, **body})
    assert response.status_code == 201, response.json
    return response.json


def _rows(app, table):
    db = open_db(app.config["DATABASE"])
    return list(db.table(table).rows)


def test_kinds_lists_ids_titles_games_levels(client):
    kinds = {k["id"]: k for k in client.get("/api/v1/kinds").json["kinds"]}
    assert kinds["test.sum"] == {
        "id": "test.sum",
        "game": "test",
        "title": "Add two amounts",
        "version": 1,
        "levels": [1, 2],
    }
    assert kinds["test.even"]["levels"] == [1, 2, 3]


def test_trainee_is_a_guest_until_signed_up_and_kept_in_the_session(client, app):
    nobody = {"id": None, "name": None, "username": None, "role": None}
    assert client.get("/api/v1/trainee").json == nobody
    _new(client)  # the first drill makes the session's guest
    first = client.get("/api/v1/trainee").json
    assert first["username"] is None and first["id"] and client.get("/api/v1/trainee").json == first
    assert (
        client.post(
            "/api/v1/users", json={"username": "trainee.one", "password": "a long secret"}
        ).status_code
        == 201
    )
    assert app.test_client().get("/api/v1/trainee").json == nobody
    token = client.post("/api/v1/tokens", json={"username": "trainee.one", "password": "a long secret"}).json[
        "token"
    ]
    me = app.test_client().get("/api/v1/trainee", headers={"Authorization": f"Bearer {token}"}).json
    assert me == {"id": first["id"], "name": "trainee.one", "username": "trainee.one", "role": "trainee"}


def test_a_trainee_may_not_choose_a_seed(client, app):
    for caller in (client, token_client(app, "trainee.one")):
        response = caller.post("/api/v1/drills", json={"kind": "test.sum", "level": 1, "seed": 4})
        assert response.status_code == 403 and "Only instructors may choose a seed" in response.json["error"]
    assert _rows(app, "drills") == []
    assert client.post("/api/v1/drills", json={"kind": "test.sum", "level": 1}).status_code == 201


def test_whole_numbers_written_with_a_fraction_are_whole_numbers(instructor):
    """JSON Schema, and so the document, counts 1323.0 as an integer: the API reads it as one."""
    drill = instructor.post("/api/v1/drills", json={"kind": "test.sum", "level": 2.0, "seed": 1323.0})
    assert drill.status_code == 201 and drill.json["seed"] == 1323 and drill.json["level"] == 2
    half = instructor.post("/api/v1/drills", json={"kind": "test.sum", "level": 1, "seed": 1.5})
    assert half.status_code == 400


def test_drill_is_issued_without_its_answer(instructor, app):
    drill = _new(instructor, seed=12)
    assert set(drill) >= {"id", "kind", "level", "prompt", "situation", "answer_format", "seed", "version"}
    assert drill["prompt"] == f"Add {drill['situation']['a']} and {drill['situation']['b']}."
    assert drill["answer_format"] == {"kind": "amount", "choices": [], "labels": [], "label_messages": []}
    assert "expected" not in drill and "result" not in drill
    text = str(drill)
    assert str(total(drill)) not in text and f"{total(drill):,}" not in text
    location = instructor.get(f"/api/v1/drills/{drill['id']}")
    assert (
        location.status_code == 200 and location.json["answered"] is False and "result" not in location.json
    )
    assert _rows(app, "drills")[0]["seed"] == 12


def test_same_seed_same_situation(instructor):
    assert _new(instructor, seed=99)["situation"] == _new(instructor, seed=99)["situation"]
    assert _new(instructor, level=2, seed=99)["situation"] != _new(instructor, seed=99)["situation"]


def test_location_header_points_at_the_drill(client):
    response = client.post("/api/v1/drills", json={"kind": "test.even", "level": 3})
    assert response.headers["Location"].endswith(f"/api/v1/drills/{response.json['id']}")


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"level": 1}, 400, "Give the drill kind"),
        ({"kind": "", "level": 1}, 400, "Give the drill kind"),
        ({"kind": ["test.sum"], "level": 1}, 400, "Give the drill kind"),
        ({"kind": "test.sum"}, 400, "Give the level"),
        ({"kind": "test.sum", "level": 3}, 400, "levels 1, 2, not 3"),
        ({"kind": "test.sum", "level": "1"}, 400, "not '1'"),
        ({"kind": "test.sum", "level": None}, 400, "levels"),
        ({"kind": "test.sum", "level": 1, "seed": -4}, 400, "seed"),
        ({"kind": "test.sum", "level": 1, "seed": 2**60}, 400, "seed"),
        ({"kind": "test.sum", "level": 1, "seed": "abc"}, 400, "seed"),
        ({"kind": "test.sum", "level": 1, "rules": 5}, 400, "rules"),
        ({"kind": "no.such", "level": 1}, 404, "no drill kind 'no.such'"),
    ],
)
def test_drill_request_errors(instructor, app, body, status, message):
    response = instructor.post("/api/v1/drills", json=body)
    assert response.status_code == status
    assert message in response.json["error"] and response.json["status"] == status
    assert _rows(app, "drills") == []


@pytest.mark.parametrize(
    "url", ["/api/v1/drills", "/api/v1/users", "/api/v1/tokens", "/api/v1/drills/1/answer"]
)
@pytest.mark.parametrize(
    ("data", "content_type", "status"),
    [
        ("{bad json", "application/json", 400),
        ("[1, 2]", "application/json", 400),
        ('"text"', "application/json", 400),
        ("", "application/json", 400),
        ("kind=test.sum", "application/x-www-form-urlencoded", 415),
        ('{"kind": "test.sum"}', "text/plain", 415),
    ],
)
def test_bad_bodies_are_4xx(client, url, data, content_type, status):
    _new(client)
    response = client.post(url, data=data, content_type=content_type)
    assert response.status_code == status and response.json["error"]


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.binary(max_size=60) | st.text(max_size=60).map(str.encode))
def test_no_body_ever_gives_a_500(client, body):
    for url in ("/api/v1/drills", "/api/v1/users", "/api/v1/tokens", "/api/v1/drills/1/answer"):
        assert client.post(url, data=body, content_type="application/json").status_code < 500


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    answer=st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
        max_leaves=6,
    )
)
def test_no_answer_value_ever_gives_a_500(client, answer):
    drill = _new(client)
    response = client.post(f"/api/v1/drills/{drill['id']}/answer", json={"answer": answer})
    assert response.status_code in (200, 422), response.json


def test_right_answer(client, app):
    drill = _new(client)
    response = client.post(f"/api/v1/drills/{drill['id']}/answer", json={"answer": f"{total(drill):,}"})
    assert response.status_code == 200
    body = response.json
    assert body["correct"] is True and body["expected"] == total(drill) and body["answer"] == total(drill)
    assert (
        body["explanation"][0]["text"]
        == f"{drill['situation']['a']} + {drill['situation']['b']} = {total(drill)}"
    )
    assert body["expected_text"] == f"{total(drill):,}" and body["time_ms"] >= 0
    assert [r["correct"] for r in _rows(app, "attempts")] == [1]


def test_wrong_answer_and_choice_answers(client):
    drill = _new(client)
    body = client.post(f"/api/v1/drills/{drill['id']}/answer", json={"answer": total(drill) + 1}).json
    assert body["correct"] is False and body["expected"] == total(drill)
    even = client.post("/api/v1/drills", json={"kind": "test.even", "level": 1}).json
    right = "Yes" if even["situation"]["n"] % 2 == 0 else "NO"
    body = client.post(f"/api/v1/drills/{even['id']}/answer", json={"answer": right}).json
    assert body["correct"] is True and body["expected"] == right.lower()


def test_second_answer_is_409_and_changes_nothing(client, app):
    drill = _new(client)
    url = f"/api/v1/drills/{drill['id']}/answer"
    first = client.post(url, json={"answer": "1"}).json
    before = _rows(app, "attempts")
    second = client.post(url, json={"answer": str(total(drill))})
    assert second.status_code == 409 and "already been answered" in second.json["error"]
    assert _rows(app, "attempts") == before
    shown = client.get(f"/api/v1/drills/{drill['id']}").json
    assert shown["answered"] is True and shown["result"]["correct"] is False
    assert shown["result"]["answer"] == 1 and shown["result"]["expected"] == first["expected"]


@pytest.mark.parametrize("answer", ["", "lots", "12.5", None, [1], {"a": 1}, True])
def test_malformed_answer_is_422_and_the_drill_stays_open(client, app, answer):
    drill = _new(client)
    url = f"/api/v1/drills/{drill['id']}/answer"
    response = client.post(url, json={"answer": answer})
    assert response.status_code == 422 and "still open" in response.json["error"]
    assert _rows(app, "attempts") == []
    assert client.post(url, json={"answer": str(total(drill))}).json["correct"] is True


def test_answer_errors(client):
    drill = _new(client)
    missing = client.post(f"/api/v1/drills/{drill['id']}/answer", json={"reply": "1"})
    assert missing.status_code == 400 and "Give the answer" in missing.json["error"]
    unknown = client.post("/api/v1/drills/9999/answer", json={"answer": "1"})
    assert unknown.status_code == 404 and "no such question" in unknown.json["error"]
    assert client.get("/api/v1/drills/9999").status_code == 404


def test_another_trainees_drill_is_not_found(client, app):
    drill = _new(client)
    stranger = app.test_client()
    assert stranger.get(f"/api/v1/drills/{drill['id']}").status_code == 404
    assert stranger.post(f"/api/v1/drills/{drill['id']}/answer", json={"answer": "1"}).status_code == 404
    assert client.post(f"/api/v1/drills/{drill['id']}/answer", json={"answer": "1"}).status_code == 200


def test_drills_are_recorded_for_the_tokens_user(app):
    caller = token_client(app, "trainee.one")
    drill = _new(caller)
    caller.post(f"/api/v1/drills/{drill['id']}/answer", json={"answer": str(total(drill))})
    store = Store(open_db(app.config["DATABASE"]))
    user_id = (
        open_db(app.config["DATABASE"])
        .execute("SELECT id FROM users WHERE username = 'trainee.one'")
        .fetchone()[0]
    )
    row = store.drill(drill["id"])
    assert row["trainee_id"] == user_id and row["answered"] is True and row["mode"] == "practice"
    assert store.attempt(drill["id"])["correct"] is True


def test_unknown_routes_and_methods_answer_in_json(client):
    missing = client.get("/api/v1/nothing")
    assert missing.status_code == 404 and "no API route" in missing.json["error"]
    wrong = client.post("/api/v1/kinds")
    assert wrong.status_code == 405 and wrong.json["status"] == 405
    assert _methods(wrong.headers["Allow"]) == {"GET"}
    assert client.delete("/api/v1/drills/1").status_code == 405
    assert _methods(client.put("/api/v1/tokens/1").headers["Allow"]) == {"DELETE"}
    assert client.get("/api/v2/drills").json["status"] == 404
    for url in ("/api/v1/drills/abc", "/api/v1/drills/-1", "/api/v1/drills/1.5", "/api/v1/drills/1/answer/x"):
        response = client.get(url)
        assert response.status_code == 404 and response.json["status"] == 404, url


def _methods(allow: str) -> set[str]:
    """The methods of an Allow header, without the two every route answers (HEAD and OPTIONS)."""
    return {method.strip() for method in allow.split(",")} - {"HEAD", "OPTIONS"}


def test_options_lists_only_the_documented_methods(client):
    """No catch-all route adds methods: OPTIONS answers each path's own methods, unknown paths 404."""
    assert _methods(client.options("/api/v1/kinds").headers["Allow"]) == {"GET"}
    assert _methods(client.options("/api/v1/drills").headers["Allow"]) == {"POST"}
    assert _methods(client.options("/api/v1/drills/7").headers["Allow"]) == {"GET"}
    unknown = client.options("/api/v1/nothing")
    assert unknown.status_code == 404 and unknown.json["status"] == 404


def test_rules_side_by_side(client):
    response = client.get("/api/v1/rules")
    from trainer.engine.russian_poker.rules import presets_side_by_side

    assert response.status_code == 200
    assert response.json == presets_side_by_side()
    assert response.json["default"] in [p["name"] for p in response.json["presets"]]


def test_api_posts_need_no_csrf_token_but_must_be_json(tmp_path):

    app = make_app(DATABASE=str(tmp_path / "t.sqlite"))
    client = app.test_client()
    assert (
        client.post(
            "/api/v1/users", json={"username": "trainee.one", "password": "a long secret"}
        ).status_code
        == 201
    )
    # A plain HTML form (what another site can make a browser send) is refused.
    assert (
        client.post("/api/v1/users", data={"username": "x", "password": "a long secret"}).status_code == 415
    )
    assert client.post("/api/v1/drills", data={"kind": "test.sum", "level": "1"}).status_code == 415


def test_a_cookieless_get_creates_no_trainee(client, app):
    for _ in range(20):
        assert app.test_client().get("/api/v1/trainee").json["id"] is None
    assert _rows(app, "trainees") == []


def test_a_drill_of_a_kind_no_longer_installed_is_404_not_500(client, app):
    from api_helpers import SUM

    from trainer.drills.base import REGISTRY

    drill = _new(client)
    answered = _new(client)
    client.post(f"/api/v1/drills/{answered['id']}/answer", json={"answer": str(total(answered))})
    del REGISTRY[SUM.id]
    try:
        for drill_id in (drill["id"], answered["id"]):
            response = client.get(f"/api/v1/drills/{drill_id}")
            assert response.status_code == 404 and "no longer available" in response.json["error"]
        response = client.post(f"/api/v1/drills/{drill['id']}/answer", json={"answer": "1"})
        assert response.status_code == 404 and response.json["status"] == 404
    finally:
        REGISTRY[SUM.id] = SUM


def test_create_app_registers_the_api(tmp_path):
    from trainer.web import create_app

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "t"})
    assert app.test_client().get("/api/v1/kinds").status_code == 200


def test_advisor_ranks_the_options(client):
    response = client.post("/api/v1/advisor", json={"player": "Qh 9h 6h 3h 2c", "upcard": "Ad"})
    assert response.status_code == 200
    body = response.json
    assert (
        body["player"] == ["Qh", "9h", "6h", "3h", "2c"] and body["upcard"] == "Ad" and body["rules"] == "cis"
    )
    evs = [o["ev"] for o in body["options"]]
    assert evs == sorted(evs, reverse=True)
    assert {o["action"] for o in body["options"]} >= {"fold", "bet", "exchange", "sixth_card"}
    assert next(o for o in body["options"] if o["action"] == "fold")["ev"] == -1.0
    royal = client.post(
        "/api/v1/advisor", json={"player": ["As", "Ks", "Qs", "Js", "Ts"], "upcard": "2d"}
    ).json
    assert royal["options"][0]["action"] == "bet"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"upcard": "Ad"}, "five cards"),
        ({"player": "Qh 9h 6h 3h 2c"}, "up-card"),
        ({"player": "Qh 9h 6h 3h", "upcard": "Ad"}, "not 4"),
        ({"player": "Qh 9h 6h 3h Zz", "upcard": "Ad"}, "bad card"),
        ({"player": "Qh 9h 6h 3h 2c", "upcard": "Ad", "rules": "nosuch"}, "unknown house rules"),
        ({"player": "Qh 9h 6h 3h 2c", "upcard": "Ad", "rules": 3}, "rules"),
    ],
)
def test_advisor_errors(client, body, message):
    response = client.post("/api/v1/advisor", json=body)
    assert response.status_code == 400 and message in response.json["error"]


def test_advisor_a_card_given_twice_is_well_formed_but_unprocessable(client):
    """The document's patterns cannot say that the hand and the up-card come from one deck: 422."""
    for body in (
        {"player": "Qh 9h 6h 3h 2c", "upcard": "Qh"},
        {"player": ["Qh", "9h", "6h", "3h", "qh"], "upcard": "Ad"},
    ):
        response = client.post("/api/v1/advisor", json=body)
        assert response.status_code == 422 and "duplicate card Qh" in response.json["error"]


def test_advisor_a_bonus_where_the_table_offers_none_is_unprocessable(client):
    """Each field as the document allows, impossible only together (Lunar poker has no bonus): 422,
    as the document lists for this operation, and the same question without the bonus is answered."""
    question = {"player": "Qh 9h 6h 3h 2c", "upcard": "Ad", "rules": "lunar"}
    response = client.post("/api/v1/advisor", json={**question, "bonus": 5})
    assert response.status_code == 422 and "no bonus bet" in response.json["error"]
    assert client.post("/api/v1/advisor", json={**question, "bonus": 0}).status_code == 200


def test_rules_a_kind_cannot_use_are_refused(client):
    response = client.post("/api/v1/drills", json={"kind": "rp.bonus_payout", "level": 1, "rules": "lunar"})
    assert response.status_code == 422 and "no bonus" in response.json["error"]  # a preset of the game
    response = client.post("/api/v1/drills", json={"kind": "rp.settle", "level": 1, "rules": "../cis"})
    assert response.status_code == 400 and "unknown house rules" in response.json["error"]
    drill = client.post("/api/v1/drills", json={"kind": "rp.settle", "level": 3, "rules": "insured"}).json
    assert drill["rules"] == "insured" and drill["situation"]["rules"] == "insured"


@pytest.mark.parametrize("drill_id", [2**63, 10**23])
def test_drill_ids_beyond_sqlite_integers_are_404(client, drill_id):
    assert client.get(f"/api/v1/drills/{drill_id}").status_code == 404
    response = client.post(f"/api/v1/drills/{drill_id}/answer", json={"answer": "1"})
    assert response.status_code == 404


def test_oversized_body_is_refused(tmp_path):

    full_app = make_app(DATABASE=str(tmp_path / "big.sqlite"))
    response = full_app.test_client().post(
        "/api/v1/drills", data=b"{" + b" " * 300_000 + b"}", content_type="application/json"
    )
    assert response.status_code == 413


def test_a_token_id_beyond_sqlite_integers_is_not_found(app):
    """Found by Schemathesis: DELETE /api/v1/tokens/<id past 2**63> was an OverflowError (500)."""
    client = token_client(app, "trainee.one")
    assert client.delete(f"/api/v1/tokens/{2**63}").status_code == 404
    assert client.get("/api/v1/tokens").status_code == 200  # the token in use still works


def test_a_preset_without_insurance_is_refused_for_the_insurance_drill(client):
    """Found by Schemathesis: rp.insurance under a table without insurance raised a bare ValueError (500)."""
    response = client.post("/api/v1/drills", json={"kind": "rp.insurance", "level": 1, "rules": "cis"})
    assert response.status_code == 422 and "no insurance" in response.json["error"]
