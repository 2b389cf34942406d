"""The API as an outside client sees it: Schemathesis reads /api/v1/openapi.json and tries every
documented operation with requests the document allows and requests it forbids, with all its checks
(no server error, statuses, content types, response schemas and headers, valid data accepted, invalid
data refused, methods and `Allow`). A failure means the document and the API disagree.

The app is the real one (`create_app`: pages, API, error handlers), on a database file in a temporary
folder. One status is added to what Schemathesis expects of valid requests: 422, the answer of a
request that follows the document but names something impossible in its situation (an answer that
cannot be read, a card given twice, house rules the drill kind cannot use); the document lists it on
exactly those operations, and the status check holds every other operation to its own list.

Run twice, authenticated by a bearer token as a trainee and as an instructor. Budget: `MAX_EXAMPLES`
generated requests per operation and phase, about 6 to 8 s of CPU per role. Then the
stateful phase follows the document's links, each scenario on its own copy of the database (below).
"""

from __future__ import annotations

import random
import secrets
import shutil
import sqlite3
from pathlib import Path

import pytest
import schemathesis
from conftest import make_app
from hypothesis import HealthCheck, Phase, settings
from schemathesis.config import SchemathesisConfig

MAX_EXAMPLES = 15
ADVISOR_EXAMPLES = 5
FLOWS, FLOW_STEPS = 12, 6  # stateful scenarios per role, calls per scenario at most

CONFIG = {
    "checks": {
        "positive_data_acceptance": {
            "expected-statuses": ["2xx", "3xx", "401", "403", "404", "409", "422", "429", "5xx"]
        }
    },
    "generation": {"max-examples": MAX_EXAMPLES, "database": "none"},
    # The advisor values every option exactly (a fraction of a second a hand): fewer hands.
    "operations": [{"include-operation-id": "adviseHand", "generation": {"max-examples": ADVISOR_EXAMPLES}}],
}
# The coverage phase derives the advisor's boundary cases from its card patterns (68 cases; 20 s of CPU
# while the patterns said `\s`, which Python and JavaScript read differently, a second or two since
# they name their spaces). The advisor answers every role alike, so the trainee's run keeps that phase
# and the instructor's leaves it out.
INSTRUCTOR_CONFIG = {
    **CONFIG,
    "operations": [{**CONFIG["operations"][0], "phases": {"coverage": {"enabled": False}}}],
}


PASSWORD = "a long contract password"


def _app(folder: Path):
    return make_app(
        DATABASE=str(folder / "contract.sqlite"),
        FAST_PASSWORD_HASHING=True,  # sign-ups are generated too: argon2's cheapest profile
        RATELIMIT_ENABLED=False,  # the limits are their own tests; here they would only throttle
        # Schemathesis's WSGI calls ask for gzip but read the body undecoded; compression is
        # tests/test_compression.py's, and the document describes the decoded bodies.
        COMPRESS_REGISTER=False,
    )


@pytest.fixture(scope="module")
def contract_app(tmp_path_factory):
    return _app(tmp_path_factory.mktemp("contract"))


class Caller:
    """A signed-in client of one role: a bearer token made as a client makes one (POST
    /api/v1/tokens), made again when a generated DELETE /api/v1/tokens/<id> revokes it."""

    def __init__(self, app, role: str) -> None:
        from trainer.store import open_db
        from trainer.store.accounts import FAST_HASHER, Accounts

        self.app, self.username = app, f"contract.{role}"
        accounts = Accounts(open_db(app.config["DATABASE"]), hasher=FAST_HASHER)
        accounts.create_user(self.username, PASSWORD, role=role)
        self.sign_in()

    def set_token(self, token_id: int, token: str) -> None:
        self.token_id, self.token = token_id, token

    def sign_in(self) -> None:
        body = {"username": self.username, "password": PASSWORD}
        made = self.app.test_client().post("/api/v1/tokens", json=body)
        assert made.status_code == 201, made.json
        self.token_id, self.token = made.json["id"], made.json["token"]

    def after(self, case, response) -> None:
        revoked = case.method == "DELETE" and response.status_code == 204
        if revoked and case.path_parameters.get("token_id") == self.token_id:
            self.sign_in()


def _schema_for(app, caller: Caller, config=CONFIG):
    """The document as Schemathesis loads it, with the caller's token as its (explicit) credentials:
    its auth check then also tries each operation without them and with a wrong token."""
    schema = schemathesis.openapi.from_wsgi(
        "/api/v1/openapi.json", app, config=SchemathesisConfig.from_dict(config)
    )

    @schema.auth(refresh_interval=None, retry_on=[])
    class Bearer:
        def get(self, case, context):
            return caller.token

        def set(self, case, data, context):
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}

    return schema


@pytest.fixture(scope="module")
def trainee(contract_app):
    return Caller(contract_app, "trainee")


@pytest.fixture(scope="module")
def instructor(contract_app):
    return Caller(contract_app, "instructor")


@pytest.fixture(scope="module")
def trainee_schema(contract_app, trainee):
    return _schema_for(contract_app, trainee)


@pytest.fixture(scope="module")
def instructor_schema(contract_app, instructor):
    return _schema_for(contract_app, instructor, INSTRUCTOR_CONFIG)


# Derandomised: the suite generates the same calls on every run, so a failure is reproducible and CI
# does not fail at random on a draw the document and the server read differently.
SETTINGS = settings(
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
    database=None,
)
as_trainee = schemathesis.pytest.from_fixture("trainee_schema")
as_instructor = schemathesis.pytest.from_fixture("instructor_schema")


@as_trainee.parametrize()
@SETTINGS
def test_every_operation_keeps_the_document_for_a_trainee(case, trainee):
    trainee.after(case, case.call_and_validate())


@as_instructor.parametrize()
@SETTINGS
def test_every_operation_keeps_the_document_for_an_instructor(case, instructor):
    """An instructor may choose a seed (201), a trainee may not (403): both are documented."""
    instructor.after(case, case.call_and_validate())


# The stateful phase. Hypothesis replays a scenario's choices to explore and to shrink, and the links
# it may follow next depend on the statuses of earlier responses: against one database that every
# scenario changes (a username taken, a token revoked, a drill drawn at random) the same choices met
# other statuses, and Hypothesis reported "inconsistent data generation" instead of passing or failing.
# So each scenario starts from the same state: a fresh copy of a database holding just the two signed-in
# users, and the server's seeds drawn from a generator reset to the same seed.
FLOW_SETTINGS = settings(
    phases=[Phase.generate, Phase.shrink],
    max_examples=FLOWS,
    stateful_step_count=FLOW_STEPS,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
)


class Scenarios:
    """Hands each scenario its own database file, copied from `template` (closed and checkpointed,
    so the copy is the whole database), and the server's seeds from `random.Random(0)`."""

    def __init__(self, app, template: Path) -> None:
        self.app, self.template, self.count, self.seeds = app, template, 0, random.Random(0)
        self.current: Path | None = None

    def start(self) -> None:
        self.finish()
        self.count += 1
        self.current = self.template.with_name(f"scenario-{self.count}.sqlite")
        shutil.copyfile(self.template, self.current)
        self.app.config["DATABASE"] = str(self.current)
        self.seeds.seed(0)

    def finish(self) -> None:
        if self.current is not None:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{self.current}{suffix}").unlink(missing_ok=True)
            self.current = None

    def randbelow(self, limit: int) -> int:
        return self.seeds.randrange(limit)


@pytest.fixture(scope="module")
def flows_app(tmp_path_factory):
    return _app(tmp_path_factory.mktemp("flows"))  # its database is the template of every scenario


@pytest.mark.parametrize("role", ["trainee", "instructor"])
def test_the_linked_flows_keep_the_document(role, flows_app, monkeypatch):
    """Schemathesis follows the document's links (a drill created -> answered -> read; a round dealt ->
    its steps answered -> read; an account made -> signed in; a token made -> revoked), every response
    held to all the checks above and to the stateful ones (a resource created can be read, a resource
    deleted is gone)."""
    caller = Caller(flows_app, role)
    signed_in = caller.token_id, caller.token
    template = Path(flows_app.config["DATABASE"])
    with sqlite3.connect(template) as conn:  # the copies must not need the template's write-ahead log
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    scenarios = Scenarios(flows_app, template)
    monkeypatch.setattr(secrets, "randbelow", scenarios.randbelow)
    schema = _schema_for(flows_app, caller)

    class Flows(schema.as_state_machine()):  # type: ignore[misc]
        def setup(self) -> None:
            scenarios.start()
            caller.set_token(*signed_in)

        def teardown(self) -> None:
            scenarios.finish()

        def after_call(self, response, case):
            super().after_call(response, case)
            caller.after(case, response)

    try:
        Flows.run(settings=FLOW_SETTINGS)
    finally:
        scenarios.finish()
        flows_app.config["DATABASE"] = str(template)
