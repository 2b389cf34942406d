"""Every registered drill kind, at every level, through the JSON API: issued without its answer,
answered right, explained, and recorded in SQLite."""

import pytest
from api_helpers import make_api_app, token_client

from trainer.drills import REGISTRY
from trainer.drills.base import expected_of
from trainer.store import Store, open_db


@pytest.mark.parametrize("kind_id", sorted(REGISTRY))
def test_kind_through_the_api(tmp_path, kind_id):
    app = make_api_app(tmp_path)
    client = token_client(app, "teacher", "instructor")  # an instructor: seeds are his to choose
    listed = {k["id"] for k in client.get("/api/v1/kinds").json["kinds"]}
    assert kind_id in listed
    store = Store(open_db(app.config["DATABASE"]))
    for level in (1, 2, 3):
        response = client.post("/api/v1/drills", json={"kind": kind_id, "level": level, "seed": 1000 + level})
        assert response.status_code == 201, response.json
        drill = response.json
        assert drill["prompt"] and "{" not in drill["prompt"]
        row = store.drill(drill["id"])
        expected = expected_of(row["situation"])[0]
        assert "expected" not in drill and "result" not in drill
        answer = client.post(f"/api/v1/drills/{drill['id']}/answer", json={"answer": expected})
        assert answer.status_code == 200, answer.json
        body = answer.json
        assert body["correct"] is True and body["expected"] == expected and body["explanation"]
        assert all(step["text"] for step in body["explanation"])
        attempt = store.attempt(drill["id"])
        assert attempt["correct"] is True and attempt["expected"] == expected
        assert (
            client.post(f"/api/v1/drills/{drill['id']}/answer", json={"answer": expected}).status_code == 409
        )
