"""The OpenAPI document is valid 3.1, names every route with its methods, and every response the API
gives in a full tour (every route, every error) matches the documented status and schema."""

import re

import pytest
from api_helpers import make_api_app, total, toy_kinds  # noqa: F401  (toy_kinds is a fixture)
from conftest import make_app
from jsonschema import Draft202012Validator

pytestmark = pytest.mark.usefixtures("toy_kinds")


@pytest.fixture
def app(tmp_path):
    return make_api_app(tmp_path, MAX_CONTENT_LENGTH=256 * 1024)  # as create_app sets it


@pytest.fixture
def doc(app):
    return app.test_client().get("/api/v1/openapi.json").json


def test_document_is_valid_openapi_3_1(doc):
    # Imported here, not when the suite is collected (0.2 s of CPU in every worker).
    from openapi_spec_validator import validate

    assert doc["openapi"].startswith("3.1")
    validate(doc)


def test_every_route_is_documented_and_every_documented_route_exists(app, doc):
    routes = {}
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith("api."):
            path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
            routes.setdefault(path, set()).update(m.lower() for m in rule.methods - {"HEAD", "OPTIONS"})
    documented = {path: set(item) - {"parameters"} for path, item in doc["paths"].items()}
    assert routes == documented


def test_each_operation_names_the_endpoint_that_answers_it(app, doc):
    """Every API endpoint has its `@operation` and each operation id is used once; a route without one
    (or an operation without a route) makes no document."""
    from trainer.web.api.document import OPERATIONS

    served = {rule.endpoint for rule in app.url_map.iter_rules() if rule.endpoint.startswith("api.")}
    assert set(OPERATIONS) == served
    ids = [op["operationId"] for item in doc["paths"].values() for op in item.values()]
    assert (
        len(ids)
        == len(set(ids))
        == sum(
            len(rule.methods - {"HEAD", "OPTIONS"})
            for rule in app.url_map.iter_rules()
            if rule.endpoint.startswith("api.")
        )
    )


def test_every_rate_limited_operation_answers_its_documented_429(tmp_path, doc):
    """On the real app (Flask-Limiter), every limit at 1 a day: a 429 as documented comes soon."""
    from trainer.web.core.security import DEFAULT_LIMITS

    limits = dict.fromkeys(DEFAULT_LIMITS, "1 per day")
    app = make_app(DATABASE=str(tmp_path / "t.sqlite"), RATELIMIT_ENABLED=True, **limits)
    tour = Tour(app, app.test_client().get("/api/v1/openapi.json").json)
    bodies = {
        "/api/v1/drills": {"kind": "test.sum", "level": 1},
        "/api/v1/rounds": {"game": "omaha", "level": 1},
        "/api/v1/advisor": {"player": "Qh 9h 6h 3h 2c", "upcard": "Ad"},
        "/api/v1/users": {"username": "limited", "password": "a long secret"},
        "/api/v1/tokens": {"username": "nobody", "password": "a wrong password"},  # failures count
    }
    limited = {
        (path, method)
        for path, item in tour.doc["paths"].items()
        for method, op in item.items()
        if "429" in op["responses"]
    }
    assert limited == {(path, "post") for path in bodies}
    for path, body in bodies.items():
        # The first call may count against the address, the next ones against the guest it made.
        statuses = [tour.call("post", path, path, json=body).status_code for _ in range(3)]
        assert statuses[-1] == 429, (path, statuses)


def test_kind_enum_lists_the_registry(doc):
    from trainer.drills import REGISTRY

    schema = doc["paths"]["/api/v1/drills"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    kinds = [kind for variant in schema["oneOf"] for kind in variant["properties"]["kind"]["enum"]]
    assert sorted(kinds) == sorted(REGISTRY) and len(kinds) == len(REGISTRY)


class Tour:
    """Calls the API and checks each response against the document; remembers what it saw."""

    def __init__(self, app, doc):
        self.client = app.test_client()
        self.doc = doc
        self.seen = set()
        self.headers = {}  # sent with every call that names no headers of its own

    def call(self, method, url, template, **kwargs):
        kwargs.setdefault("headers", self.headers)
        response = getattr(self.client, method)(url, **kwargs)
        operation = self.doc["paths"][template][method]
        status = str(response.status_code)
        assert status in operation["responses"], f"{method.upper()} {url} gave undocumented {status}"
        documented = operation["responses"][status]
        if "content" not in documented:
            assert response.data == b"", f"{method.upper()} {url} {status} should have no body"
        elif "application/json" not in documented["content"]:
            assert response.mimetype in documented["content"], f"{method.upper()} {url}: {response.mimetype}"
        else:
            schema = documented["content"]["application/json"]["schema"]
            # Refs resolve against the document's components, so the schema is checked as served.
            Draft202012Validator({**schema, "components": self.doc["components"]}).validate(response.json)
        for name in operation["responses"][status].get("headers", {}):
            assert name in response.headers
        self.seen.add((template, method, status))
        return response


def test_every_documented_response_is_given_and_matches_its_schema(app, doc):
    tour = Tour(app, doc)
    drills, one, answer = "/api/v1/drills", "/api/v1/drills/{drill_id}", "/api/v1/drills/{drill_id}/answer"
    tour.call("get", "/api/v1/kinds", "/api/v1/kinds")
    tour.call("get", "/api/v1/openapi.json", "/api/v1/openapi.json")
    tour.call("get", "/api/v1/rules", "/api/v1/rules")
    tour.call("get", "/api/v1/trainee", "/api/v1/trainee")
    users, tokens, token = "/api/v1/users", "/api/v1/tokens", "/api/v1/tokens/{token_id}"
    teacher = {"username": "teacher", "password": "a long secret"}
    tour.call("post", users, users, json=teacher)
    tour.call("post", users, users, json=teacher)  # taken
    tour.call("post", users, users, json={"username": "x", "password": "a long secret"})
    tour.call("post", users, users, json={"username": "samename", "password": "SameName"})  # 422
    tour.call("post", users, users, data="username=x")
    from trainer.store import open_db

    open_db(app.config["DATABASE"]).execute("UPDATE users SET role = 'instructor'")
    made = tour.call("post", tokens, tokens, json={**teacher, "label": "tour"}).json
    tour.call("post", tokens, tokens, json={**teacher, "password": "wrong password"})
    tour.call("post", tokens, tokens, json={**teacher, "label": 5})
    tour.call("post", tokens, tokens, data="username=x")
    bearer = {"Authorization": f"Bearer {made['token']}"}
    tour.call("get", tokens, tokens, headers=bearer)
    tour.call("get", tokens, tokens, headers={"Authorization": "Bearer ct_nonsense"})
    spare = tour.call("post", tokens, tokens, json=teacher).json
    tour.call("delete", f"/api/v1/tokens/{spare['id']}", token, headers=bearer)
    tour.call("delete", f"/api/v1/tokens/{spare['id']}", token, headers=bearer)
    tour.call("post", drills, drills, json={"kind": "test.sum", "level": 2, "seed": 8})  # a guest's seed
    drill = tour.call("post", drills, drills, json={"kind": "test.sum", "level": 2}).json
    tour.call("post", drills, drills, json={"kind": "test.sum", "level": 9})
    tour.call("post", drills, drills, json={"kind": "nope", "level": 1})
    tour.call("post", drills, drills, data="{", content_type="application/json")
    tour.call("post", drills, drills, data="kind=x", content_type="text/plain")
    url = f"/api/v1/drills/{drill['id']}"
    tour.call("get", url, one)
    tour.call("get", "/api/v1/drills/999", one)
    tour.call("post", url + "/answer", answer, json={"answer": "one thousand"})
    tour.call("post", url + "/answer", answer, json={})
    tour.call("post", url + "/answer", answer, data="answer=1")
    tour.call("post", "/api/v1/drills/999/answer", answer, json={"answer": "1"})
    tour.call("post", url + "/answer", answer, json={"answer": str(total(drill))})
    tour.call("post", url + "/answer", answer, json={"answer": str(total(drill))})
    assert tour.call("get", url, one).json["result"]["correct"] is True
    practice = "/api/v1/practice/next"
    assert tour.call("get", practice, practice).json["answered_today"] == 1
    tour.call("get", practice + "?game=omaha", practice)
    tour.call("get", practice + "?game=chess", practice)
    advisor = "/api/v1/advisor"
    tour.call("post", advisor, advisor, json={"player": "Qh 9h 6h 3h 2c", "upcard": "Ad"})
    tour.call("post", advisor, advisor, json={"player": "Qh 9h 6h 3h 2c", "upcard": "Qh"})
    tour.call("post", advisor, advisor, json={"player": "Qh 9h 6h 3h Zz", "upcard": "Ad"})
    tour.call("post", advisor, advisor, data="player=x")
    tour.call("post", drills, drills, json={"kind": "rp.bonus_payout", "level": 1, "rules": "lunar"})
    tour.call("post", "/api/v1/rounds", "/api/v1/rounds", json={"game": "omaha", "level": 1, "seed": 3})
    tour.headers = bearer  # the rounds below fix their seed: an instructor's right
    round_id = tour_rounds(tour, app)
    tour_groups(tour, bearer)
    tour.headers = {}
    # Whatever it asks for, a request with a bad token is refused with 401.
    for path, item in doc["paths"].items():
        for method in set(item) - {"parameters"}:
            url = path.replace("{drill_id}", str(drill["id"])).replace("{token_id}", "1")
            url = url.replace("{round_id}", "1").replace("{group_id}", "1").replace("{user_id}", "1")
            tour.call(method, url, path, headers={"Authorization": "Basic dGVhY2hlcg=="})
    ids = {"drill_id": drill["id"], "round_id": round_id, "token_id": made["id"], "group_id": 1, "user_id": 1}
    tour_every_route(tour, app, ids, bearer)
    documented = {
        (path, method, status)
        for path, item in doc["paths"].items()
        for method, operation in item.items()
        if method != "parameters"
        for status in operation["responses"]
        if status != "429"  # the rate limits' own test below
    }
    assert documented - tour.seen == set()


def tour_groups(tour, bearer):
    """Groups: make one (an instructor), join it (a trainee), its report and CSVs, and the errors."""
    groups, join = "/api/v1/groups", "/api/v1/groups/join"
    report, export = "/api/v1/groups/{group_id}/report", "/api/v1/groups/{group_id}/attempts.csv"
    made = tour.call("post", groups, groups, json={"name": "Evening class"}).json
    tour.call("post", groups, groups, json={"name": ""})
    tour.call("post", groups, groups, data="name=x", content_type="text/plain")
    trainee = {"username": "tour.trainee", "password": "a long secret"}
    tour.call("post", "/api/v1/users", "/api/v1/users", json=trainee)
    token = tour.call("post", "/api/v1/tokens", "/api/v1/tokens", json=trainee).json["token"]
    as_trainee = {"Authorization": f"Bearer {token}"}
    tour.call("post", groups, groups, json={"name": "Mine"}, headers=as_trainee)
    tour.call("post", join, join, json={"code": made["join_code"]}, headers=as_trainee)
    tour.call("post", join, join, json={"code": "NOPE-NOPE"}, headers=as_trainee)
    tour.call("post", join, join, data="{", content_type="application/json", headers=as_trainee)
    tour.call("post", join, join, data="code=x", content_type="text/plain", headers=as_trainee)
    tour.call("get", groups, groups, headers=as_trainee)
    tour.call("get", groups, groups)
    url = f"/api/v1/groups/{made['id']}"
    tour.call("get", url + "/report", report)
    tour.call("get", "/api/v1/groups/999/report", report)
    tour.call("get", url + "/attempts.csv?since=2026-01-01&kind=test.sum", export)
    tour.call("get", url + "/attempts.csv?since=yesterday", export)
    tour.call("get", "/api/v1/groups/999/attempts.csv", export)
    member = "/api/v1/groups/{group_id}/trainees/{user_id}"
    [one] = tour.call("get", url + "/report", report).json["trainees"]
    tour.call("get", f"{url}/trainees/{one['id']}", member)
    tour.call("get", f"{url}/trainees/999", member)
    listed = "/api/v1/groups/{group_id}/quizzes"
    tour.call("get", url + "/quizzes", listed)
    tour.call("get", "/api/v1/groups/999/quizzes", listed)
    quizzes = "/api/v1/groups/{group_id}/quiz-results.csv"
    tour.call("get", url + "/quiz-results.csv?until=2026-12-31&kind=rp.qualify", quizzes)
    tour.call("get", url + "/quiz-results.csv?until=soon", quizzes)
    tour.call("get", "/api/v1/groups/999/quiz-results.csv", quizzes)
    board = "/api/v1/groups/{group_id}/leaderboard"
    tour.call("get", url + "/leaderboard?week=2026-12-07", board, headers=as_trainee)
    tour.call("get", url + "/leaderboard?week=soon", board)
    tour.call("get", "/api/v1/groups/999/leaderboard", board)
    leave = "/api/v1/groups/{group_id}/membership"
    tour.call("delete", url + "/membership", leave, headers=as_trainee)
    tour.call("delete", url + "/membership", leave, headers=as_trainee)  # not a member any more: 404


def tour_rounds(tour, app):
    """The live table's routes: deal, answer every step (once wrong), the errors, the result."""
    from trainer.drills.rounds import deal, expected_answer
    from trainer.store.schema import open_db

    rounds, one, answer = "/api/v1/rounds", "/api/v1/rounds/{round_id}", "/api/v1/rounds/{round_id}/answer"
    tour.call("post", rounds, rounds, json={"game": "painted_poker", "level": 9})
    tour.call("post", rounds, rounds, json={"game": "painted_poker", "level": 1, "colour": "red"})
    tour.call("post", rounds, rounds, data="game=x", content_type="text/plain")
    # Seats the game deals for, but not the house (Georgian joker seats 4): 422.
    tour.call(
        "post",
        rounds,
        rounds,
        json={"game": "painted_poker", "level": 1, "seats": 5, "rules": "georgian-joker"},
    )
    new = {"game": "painted_poker", "level": 1, "seed": 3, "seats": 3}
    made = tour.call("post", rounds, rounds, json=new)
    url = f"/api/v1/rounds/{made.json['id']}"
    dealt = deal("painted_poker", 1, 3, seats=3)
    tour.call("get", url, one)
    tour.call("get", "/api/v1/rounds/999", one)
    tour.call("post", url + "/answer", answer, json={"answer": "forty"})
    tour.call("post", url + "/answer", answer, json={})
    tour.call("post", url + "/answer", answer, json={"answer": "1", "step": 5})
    tour.call("post", url + "/answer", answer, data="answer=1")
    tour.call("post", "/api/v1/rounds/999/answer", answer, json={"answer": "1"})
    for i in range(len(dealt.steps)):
        tour.call("post", url + "/answer", answer, json={"answer": expected_answer(dealt, i), "step": i})
        if i == 0:
            tour.call("post", url + "/answer", answer, json={"answer": expected_answer(dealt, 0), "step": 0})
    assert tour.call("get", url, one).json["result"]["right"] == len(dealt.steps)
    db = open_db(app.config["DATABASE"], migrate=False)
    db.execute("UPDATE rounds SET version = version + 100 WHERE id = ?", [made.json["id"]])
    db.conn.commit()
    db.conn.close()
    tour.call("get", url, one)
    return made.json["id"]


# A body each route reads up to the store (to meet a broken database there).
GOOD_BODIES = {
    "/api/v1/users": {"username": "tourist", "password": "a long password"},
    "/api/v1/tokens": {"username": "tourist", "password": "a long password"},
    "/api/v1/drills": {"kind": "test.sum", "level": 1},
    "/api/v1/drills/{drill_id}/answer": {"answer": "1"},
    "/api/v1/rounds": {"game": "painted_poker", "level": 1},
    "/api/v1/rounds/{round_id}/answer": {"answer": "1"},
}


def tour_every_route(tour, app, ids, bearer):
    """The errors every route shares: a body not JSON (415), too large (413), a broken store (503)."""
    from pathlib import Path

    operations = [
        (path, method, operation)
        for path, item in tour.doc["paths"].items()
        for method, operation in item.items()
        if method != "parameters"
    ]
    for path, method, operation in operations:
        url = path.format(**ids)
        if "415" in operation["responses"]:
            tour.call(method, url, path, data="answer=1", content_type="text/plain")
        if "413" in operation["responses"]:
            tour.call(method, url, path, data="[" + " " * 300_000 + "]", content_type="application/json")
    for file in Path(app.config["DATABASE"]).parent.glob("api.sqlite*"):
        file.unlink()
    for path, method, operation in operations:
        if "503" in operation["responses"]:
            # With the caller's token: the routes for signed-in callers meet the store too.
            tour.call(method, path.format(**ids), path, json=GOOD_BODIES.get(path), headers=bearer)


def test_every_link_leads_to_an_operation_and_fills_its_path(doc):
    """The links a client (or Schemathesis) follows name real operations and fill their path ids."""
    operations = {
        operation["operationId"]: path
        for path, item in doc["paths"].items()
        for method, operation in item.items()
        if method != "parameters"
    }
    links = [
        link
        for item in doc["paths"].values()
        for operation in item.values()
        for response in operation["responses"].values()
        for link in response.get("links", {}).values()
    ]
    assert len(links) >= 10
    for link in links:
        target = operations[link["operationId"]]
        assert set(re.findall(r"{(\w+)}", target)) == set(link.get("parameters", {})), link


def _patterns(node):
    if isinstance(node, dict):
        if isinstance(node.get("pattern"), str):
            yield node
        for value in node.values():
            yield from _patterns(value)
    elif isinstance(node, list):
        for value in node:
            yield from _patterns(value)


def test_patterns_say_how_they_are_read(doc):
    """JSON Schema asks for ECMA-262 patterns; the server checks with Python's `re`, which reads `\\w` as
    any script's letters. The document says how the two differ, a schema whose pattern uses `\\w` says
    so too, and no pattern uses `\\d` (Unicode digits in Python, ASCII in JavaScript)."""
    found = list(_patterns(doc))
    assert len(found) >= 5
    for schema in found:
        compiled = re.compile(schema["pattern"])
        if re.search(r"\\[wW]", schema["pattern"]):
            assert "Python's `re`" in schema.get("description", ""), schema
            # any script, as the server takes
            assert compiled.match("მსმენელი") and compiled.match("Слушатель")
        assert "\\d" not in schema["pattern"], schema
    assert "ECMA-262" in doc["info"]["description"] and "`re`" in doc["info"]["description"]


def test_a_day_is_ascii_digits(app):
    """`format: date` is RFC 3339's YYYY-MM-DD: Arabic-Indic digits match Python's `\\d` but are no date."""
    from trainer.web.groups.views import DAY

    assert DAY.fullmatch("2026-12-01") and not DAY.fullmatch("٢٠٢٦-١٢-٠١")


def _body_schema(doc, path):
    schema = doc["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
    return Draft202012Validator({**schema, "components": doc["components"]})


@pytest.mark.parametrize(
    ("body", "status"),
    [
        # Six copies of one card (issue 26): the list form says its items are unique.
        ({"player": ["10C"] * 6, "upcard": "Ad"}, 422),
        ({"player": ["Qh", "9h", "6h", "3h", "Qh"], "upcard": "Ad"}, 422),
        # The ante and the bonus have the server's maximum.
        ({"player": "Qh 9h 6h 3h 2c", "upcard": "Ad", "ante": 10**9 + 1}, 400),
        ({"player": "Qh 9h 6h 3h 2c", "upcard": "Ad", "bonus": 10**9 + 1}, 400),
        ({"player": ["Qh", "9h", "6h", "3h"], "upcard": "Ad"}, 400),
    ],
)
def test_what_the_advisor_refuses_the_document_refuses_too(app, doc, body, status):
    """A request the server refuses and a schema can describe is not schema-valid: a generated client
    is not surprised by the refusal."""
    assert not _body_schema(doc, "/api/v1/advisor").is_valid(body)
    assert app.test_client().post("/api/v1/advisor", json=body).status_code == status


def test_the_advisor_document_says_what_no_schema_can(app, doc):
    """Repeats the schema cannot see (in the text form, in two notations, the up-card in the hand) are
    valid by the schema, refused with the documented 422, and the document says so."""
    schema = _body_schema(doc, "/api/v1/advisor")
    operation = doc["paths"]["/api/v1/advisor"]["post"]
    player = operation["requestBody"]["content"]["application/json"]["schema"]["properties"]["player"]
    assert "422" in player["description"] and "422" in operation["responses"]
    for body in (
        {"player": "10C 10C 10C 10C 10C", "upcard": "Ad"},
        {"player": ["Th", "10h", "6h", "3h", "2c"], "upcard": "Ad"},
        {"player": "Qh 9h 6h 3h 2c", "upcard": "Qh"},
        {"player": "Qh 9h 6h 3h 2c", "upcard": "Ad", "ante": 10**9},
    ):
        assert schema.is_valid(body), body
        expected = 200 if "ante" in body else 422
        assert app.test_client().post("/api/v1/advisor", json=body).status_code == expected, body
    # Six cards: the options are for the five dealt cards, so the document allows five only (it said
    # six, and a schema-valid six-card list got 400, found by Schemathesis on a fresh install).
    six = ["4S", "8s", "K\u2663", "j\u2667", "2S", "6s"]
    assert not schema.is_valid({"player": six, "upcard": "Ad"})
    assert not schema.is_valid({"player": "Qh 9h 6h 3h 2c 4d", "upcard": "Ad"})


def _models():
    from pydantic import BaseModel

    from trainer.web.api import schemas

    return [
        value
        for value in vars(schemas).values()
        if isinstance(value, type)
        and issubclass(value, BaseModel)
        and value.__module__ == schemas.__name__
        and value not in (schemas.Body, schemas.Out)
        and not value.__name__.startswith("_")  # a base of others, not a body
    ]


def test_every_model_is_in_the_document_and_each_once(doc):
    """No schema piece the document never uses, and no two copies of one: each request model is one
    operation's body, each response model one component."""
    from trainer.web.api import schemas
    from trainer.web.api.document import OPERATIONS

    bodies = [op.body for op in OPERATIONS.values() if op.body is not None]
    assert len(bodies) == len(set(bodies))
    for model in _models():
        if issubclass(model, schemas.Body):
            assert model in bodies, model
        else:
            assert model.__name__ in doc["components"]["schemas"], model
    components = [str(sorted(schema.items())) for schema in doc["components"]["schemas"].values()]
    assert len(components) == len(set(components))


def test_each_refusal_names_a_field_of_its_model():
    from trainer.web.api import schemas

    for model in _models():
        if issubclass(model, schemas.Body):
            for key in model.refusals:
                assert key == "extra" or key.removesuffix(".missing") in model.model_fields, (model, key)


def test_a_refused_field_is_a_400_with_the_models_sentence(app):
    """The models read the bodies: what they refuse is a 400 in the API's error body, with the
    sentence the model names (the value sent quoted where the sentence shows it)."""
    client = app.test_client()
    refused = client.post("/api/v1/rounds", json={"game": "omaha", "level": 1, "colour": "red"})
    assert refused.status_code == 400
    assert refused.json == {
        "error": "Unknown field 'colour': a round takes game, level, seats, seed, rules and payout.",
        "status": 400,
    }
    refused = client.post("/api/v1/rounds", json={"game": "omaha", "level": True})
    assert refused.status_code == 400 and refused.json["error"].endswith("not True.")
    refused = client.post("/api/v1/advisor", json={"player": "Qh 9h 6h 3h 2c", "upcard": "Ad", "bonus": -1})
    assert refused.json == {
        "error": "bonus must be a whole number of chips from 0 to 1000000000.",
        "status": 400,
    }


def test_limits_the_document_states_are_the_stores(app, doc):
    """The token label's cut and the group name's maximum come from the store's constants."""
    from trainer.store.accounts import TOKEN_LABEL_MAX
    from trainer.store.groups import NAME_MAX

    label = doc["paths"]["/api/v1/tokens"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert f"first {TOKEN_LABEL_MAX} characters" in label["properties"]["label"]["description"]
    client = app.test_client()
    client.post("/api/v1/users", json={"username": "labeller", "password": "a long secret"})
    made = client.post(
        "/api/v1/tokens", json={"username": "labeller", "password": "a long secret", "label": "x" * 500}
    )
    assert made.json["label"] == "x" * TOKEN_LABEL_MAX
    name = doc["paths"]["/api/v1/groups"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert f"at most {NAME_MAX})" in name["properties"]["name"]["description"]


def test_a_blank_day_is_no_limit_as_the_document_says(app, doc):
    """The export takes `until=` (the desk's form sends blank fields) as no limit: the document allows
    it (it said `format: date` only, and Schemathesis found the blank accepted)."""
    from trainer.store import open_db

    client = app.test_client()
    client.post("/api/v1/users", json={"username": "teacher", "password": "a long secret"})
    open_db(app.config["DATABASE"]).execute("UPDATE users SET role = 'instructor'")
    token = client.post("/api/v1/tokens", json={"username": "teacher", "password": "a long secret"}).json
    bearer = {"Authorization": f"Bearer {token['token']}"}
    group = client.post("/api/v1/groups", json={"name": "Night class"}, headers=bearer).json
    for path in ("/api/v1/groups/{group_id}/attempts.csv", "/api/v1/groups/{group_id}/quiz-results.csv"):
        [until] = [p for p in doc["paths"][path]["get"]["parameters"] if p["name"] == "until"]
        assert Draft202012Validator(until["schema"]).is_valid("")
        assert not Draft202012Validator(
            until["schema"], format_checker=Draft202012Validator.FORMAT_CHECKER
        ).is_valid("soon")
        url = path.format(group_id=group["id"]) + "?until="
        assert client.get(url, headers=bearer).status_code == 200


def test_the_document_follows_the_kinds_installed():
    """The document is made once per set of drill kinds: a kind installed later is listed, and one
    removed is gone; a caller changing its copy changes no other."""
    from trainer.drills import REGISTRY
    from trainer.web.api.document import document

    def kinds():
        schema = document()["paths"]["/api/v1/drills"]["post"]["requestBody"]["content"]["application/json"]
        return {
            kind for variant in schema["schema"]["oneOf"] for kind in variant["properties"]["kind"]["enum"]
        }

    assert "test.sum" in kinds()
    removed = REGISTRY.pop("test.sum")
    try:
        assert "test.sum" not in kinds() and "test.even" in kinds()
    finally:
        REGISTRY["test.sum"] = removed
    assert "test.sum" in kinds()
    document()["paths"].clear()
    assert document()["paths"]


def test_a_route_without_an_operation_or_an_operation_without_a_route_makes_no_document(monkeypatch):
    from trainer.web.api import document as described

    monkeypatch.delitem(described.OPERATIONS, "api.rules")
    described._made.cache_clear()
    with pytest.raises(LookupError, match=r"api\.rules has no @operation"):
        described.document()
    monkeypatch.undo()
    monkeypatch.setitem(described.OPERATIONS, "api.gone", described.OPERATIONS["api.rules"])
    described._made.cache_clear()
    with pytest.raises(LookupError, match="without a route"):
        described.document()
    monkeypatch.undo()
    described._made.cache_clear()
    assert described.document()["paths"]
