"""What reading a request body through its schema costs per call, beside the hand checks it replaced.

    python3 bench/api_schemas.py [--calls 3000] [--rounds 5]

One tiny Flask app per way of reading the advisor's body (`POST /check`, answered `{"ok": true}`, the
engine left out: only the reading is timed), called through Flask's test client, interleaved round by
round; the figure is the median per call in microseconds over the rounds:

- `hand`: the checks the route made by hand before the schemas (the reference);
- `read`: `trainer.web.api.document.read(AdvisorQuestion)`, what the API does now;
- `spectree`, `flask-openapi3`: the same pydantic model through those libraries, when they are
  importable (`pip install spectree flask-openapi3` in a scratch environment; they are not
  dependencies). Each row also shows the status and body a refused ante gets: the API's contract is
  `{"error": sentence, "status": 400}`.

Then the reading alone, without Flask: the hand checks beside `AdvisorQuestion.model_validate`.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from flask import Flask, jsonify  # noqa: E402

from trainer.web.api.document import read  # noqa: E402
from trainer.web.api.schemas import ADVISOR_MAX_CHIPS, AdvisorQuestion  # noqa: E402
from trainer.web.api.shared import ApiError, fail, json_body  # noqa: E402

GOOD = {"player": "Qh 9h 6h 3h 2c", "upcard": "Ad", "ante": 5}
BAD = {"player": "Qh 9h 6h 3h 2c", "upcard": "Ad", "ante": 10**9 + 1}


def _errors(app: Flask) -> Flask:
    app.register_error_handler(ApiError, lambda e: (jsonify(error=e.message, status=e.status), e.status))
    return app


def hand_app() -> Flask:
    app = _errors(Flask("hand"))

    @app.post("/check")
    def check() -> Any:
        hand_checks(json_body())
        return jsonify(ok=True)

    return app


def read_app() -> Flask:
    app = _errors(Flask("read"))

    @app.post("/check")
    def check() -> Any:
        read(AdvisorQuestion)
        return jsonify(ok=True)

    return app


def _installed(module: str, name: str) -> Any:
    """`name` from the optional package `module`, None where it is not installed."""
    try:
        return getattr(importlib.import_module(module), name)
    except ImportError:
        return None


def spectree_app() -> Flask | None:
    SpecTree = _installed("spectree", "SpecTree")
    if SpecTree is None:
        return None
    app = Flask("spectree")
    spec = SpecTree("flask", app=app)

    @app.post("/check")
    @spec.validate(json=AdvisorQuestion)
    def check() -> Any:
        return jsonify(ok=True)

    return app


def openapi3_app() -> Flask | None:
    OpenAPI = _installed("flask_openapi3", "OpenAPI")
    if OpenAPI is None:
        return None
    app = OpenAPI("openapi3")

    @app.post("/check")
    def check(body: AdvisorQuestion) -> Any:
        return jsonify(ok=True)

    return app


def hand_checks(body: dict[str, Any]) -> None:
    """The checks alone (no Flask), as the route made them."""
    player, upcard, rules_name = body.get("player"), body.get("upcard"), body.get("rules")
    if not isinstance(player, str | list) or not player:
        fail(400, "Give the player's five cards.")
    if not isinstance(upcard, str) or not upcard.strip():
        fail(400, "Give the dealer's up-card.")
    if rules_name is not None and not isinstance(rules_name, str):
        fail(400, "rules must be the name of a house-rules preset.")
    for name, value, low in (("ante", body.get("ante", 1), 1), ("bonus", body.get("bonus", 0), 0)):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= ADVISOR_MAX_CHIPS:
            fail(400, f"{name} must be a whole number of chips from {low} to {ADVISOR_MAX_CHIPS}.")


def alone(check: Any, calls: int) -> float:
    started = time.perf_counter()
    for _ in range(calls):
        check(GOOD)
    return (time.perf_counter() - started) / calls * 1e6


def per_call(app: Flask, calls: int) -> float:
    client = app.test_client()
    started = time.perf_counter()
    for _ in range(calls):
        client.post("/check", json=GOOD)
    return (time.perf_counter() - started) / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    apps = {
        "hand": hand_app(),
        "read": read_app(),
        "spectree": spectree_app(),
        "flask-openapi3": openapi3_app(),
    }
    apps = {name: app for name, app in apps.items() if app is not None}
    for app in apps.values():
        assert app.test_client().post("/check", json=GOOD).status_code == 200
    times: dict[str, list[float]] = {name: [] for name in apps}
    for _ in range(args.rounds):
        for name, app in apps.items():
            times[name].append(per_call(app, args.calls))
    reference = statistics.median(times["hand"])
    print(f"{'reader':16} {'us/call':>8} {'vs hand':>8}  a refused ante")
    for name, app in apps.items():
        median = statistics.median(times[name])
        refused = app.test_client().post("/check", json=BAD)
        shown = refused.get_data(as_text=True).replace("\n", " ")[:90]
        print(f"{name:16} {median:8.1f} {median - reference:+8.1f}  {refused.status_code} {shown}")
    checks = {"hand checks": hand_checks, "model_validate": AdvisorQuestion.model_validate}
    alone_times: dict[str, list[float]] = {name: [] for name in checks}
    for _ in range(args.rounds):
        for name, check in checks.items():
            alone_times[name].append(alone(check, args.calls * 10))
    print(f"\nthe reading alone, no Flask ({args.calls * 10} calls a round), us/call:")
    for name, found in alone_times.items():
        print(f"{name:16} {statistics.median(found):8.2f}")


if __name__ == "__main__":
    main()
