"""The API as an outside client sees it: Schemathesis reads /api/v1/openapi.json and tries every
documented operation with requests the document allows and requests it forbids, with all its checks
(no server error, statuses, content types, response schemas and headers, valid data accepted, invalid
data refused, methods and `Allow`). A failure means the document and the API disagree.

The app is the real one (`create_app`: pages, API, error handlers), on a database file in a temporary
folder. One status is added to what Schemathesis expects of valid requests: 422, the answer of a
request that follows the document but names something impossible in its situation (an answer that
cannot be read, a card given twice, house rules the drill kind cannot use); the document lists it on
exactly those operations, and the status check holds every other operation to its own list.

Budget: a few generated requests per operation and mode (`MAX_EXAMPLES`), which keeps the whole file
to a few seconds per operation on the 2-core CI machine.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from trainer.web import create_app

MAX_EXAMPLES = 25

CONFIG = {
    "checks": {
        "positive_data_acceptance": {
            "expected-statuses": ["2xx", "3xx", "401", "403", "404", "409", "422", "429", "5xx"]
        }
    },
    "generation": {"max-examples": MAX_EXAMPLES, "database": "none"},
}


@pytest.fixture(scope="module")
def api_schema(tmp_path_factory):
    folder = tmp_path_factory.mktemp("contract")
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(folder / "contract.sqlite"),
            "SECRET_KEY": "contract",
            "RATELIMIT_ENABLED": False,  # the limits are their own tests; here they would only throttle
        }
    )
    return schemathesis.openapi.from_wsgi(
        "/api/v1/openapi.json", app, config=SchemathesisConfig.from_dict(CONFIG)
    )


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
    database=None,
)
def test_every_operation_keeps_the_document(case):
    case.call_and_validate()
