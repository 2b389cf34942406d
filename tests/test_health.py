"""The bare endpoint: a liveness answer that needs neither the database nor a session."""

import os


def test_health_answers_without_the_database(app, client):
    assert client.get("/health").status_code == 200
    os.remove(app.config["DATABASE"])  # a store that is gone does not make the process unhealthy
    response = client.get("/health")
    assert response.status_code == 200
    assert response.get_data(as_text=True) == "ok\n"
    assert response.mimetype == "text/plain"
    assert "no-store" in response.headers["Cache-Control"]
