"""The instructor's pages timed through the app (Flask's test client, in process) beside the app's
bare endpoint (`GET /health`: no database, no template) in the same rounds, with the SQL statements
each page runs.

One on-disk temporary database holds one group, grown in three steps (`--sizes`, default 10 / 50 /
200 trainees) with `--answers` generated answers each (default 2,000), inserted in bulk
(sqlite-utils' `insert_all`, not through the web). After each step it times:

- the desk (`/groups/<id>`),
- the group report (`GET /api/v1/groups/<id>/report`),
- the instructor's page for the first trainee (`/groups/<id>/trainees/<id>`, first and last page of
  his answers), whose own answers stay the same while the group grows.

Each figure is the median of `--rounds` requests interleaved with the bare endpoint's, and the ratio
of the two: the machine is shared, so the ratio and the statement count are what compare across
runs. The load average is printed with each step.

Run: python3 bench/desk.py [--sizes 10,50,200] [--answers 2000] [--rounds 7]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import trainer.web.db as web_db  # noqa: E402
from trainer.drills import REGISTRY  # noqa: E402
from trainer.drills.mistakes import TYPES  # noqa: E402
from trainer.store.schema import open_db  # noqa: E402
from trainer.web import create_app  # noqa: E402

PASSWORD = "a long secret"
KINDS = sorted(REGISTRY)
MISTAKES = sorted(TYPES)
DAYS = 120
NOW = datetime.now(UTC)
STATEMENTS = [0]
BARE = "/bench-bare"


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def _counting_open_db(*args: Any, **kwargs: Any) -> Any:
    db = open_db(*args, **kwargs)

    def trace(sql: str) -> None:
        if sql.lstrip().upper().startswith(("SELECT", "WITH")):
            STATEMENTS[0] += 1

    db.conn.set_trace_callback(trace)
    return db


def build_app(path: Path) -> Any:
    app = create_app(
        {
            "DATABASE": str(path),
            "SECRET_KEY": "bench",
            "WTF_CSRF_ENABLED": False,
            "FAST_PASSWORD_HASHING": True,
            "RATELIMIT_ENABLED": False,
        }
    )
    web_db.open_db = _counting_open_db  # count the requests' statements, not start-up's
    # The bare endpoint: through the app's every hook (session, headers), no database, no template.
    app.add_url_rule(BARE, "bench_bare", lambda: "ok")
    return app


def instructor(app: Any) -> tuple[int, Any]:
    result = app.test_cli_runner().invoke(
        args=["user", "add", "teacher", "--role", "instructor"], env={"TRAINER_PASSWORD": PASSWORD}
    )
    assert result.exit_code == 0, result.output
    client = app.test_client()
    response = client.post("/account/sign-in", data={"username": "teacher", "password": PASSWORD})
    assert response.status_code == 302, response.status_code
    db = open_db(app.config["DATABASE"], migrate=False)
    user_id = int(db.execute("SELECT id FROM users WHERE username = 'teacher'").fetchone()[0])
    db.conn.close()
    return user_id, client


def add_members(db: Any, rng: random.Random, group_id: int, first: int, count: int, answers: int) -> None:
    """`count` trainees (ids from `first`) in the group since before their first answer, each with
    `answers` answered drills over the last `DAYS` days."""
    created = _iso(NOW - timedelta(days=DAYS + 1))
    ids = list(range(first, first + count))
    with db.conn:
        db["trainees"].insert_all({"id": i, "name": None, "created_at": created} for i in ids)
        db["users"].insert_all(
            {
                "id": i,
                "username": f"member{i}",
                "username_key": f"member{i}",
                "display_name": f"Member {i}",
                "password_hash": None,
                "role": "trainee",
                "created_at": created,
            }
            for i in ids
        )
        db["memberships"].insert_all({"group_id": group_id, "user_id": i, "joined_at": created} for i in ids)
        db["membership_periods"].insert_all(
            {"group_id": group_id, "user_id": i, "joined_at": created, "left_at": None} for i in ids
        )
        next_id = (db.execute("SELECT max(id) FROM drills").fetchone()[0] or 0) + 1
        for trainee in ids:
            drills, attempts = [], []
            span = DAYS * 86400
            for offset in sorted(rng.uniform(0, span) for _ in range(answers)):
                kind = rng.choice(KINDS)
                correct = rng.random() < 0.85
                answered = NOW - timedelta(seconds=span - offset)
                time_ms = int(rng.lognormvariate(8.5, 0.6))
                drills.append(
                    {
                        "id": next_id,
                        "trainee_id": trainee,
                        "kind": kind,
                        "level": rng.choice(REGISTRY[kind].levels),
                        "seed": rng.getrandbits(32),
                        "version": 1,
                        "rules": None,
                        "situation": "{}",
                        "mode": "practice",
                        "issued_at": _iso(answered - timedelta(milliseconds=time_ms)),
                        "answered": 1,
                    }
                )
                value = rng.randrange(0, 4000, 50)
                attempts.append(
                    {
                        "id": next_id,
                        "drill_id": next_id,
                        "trainee_id": trainee,
                        "kind": kind,
                        "raw": json.dumps(str(value)),
                        "answer": json.dumps(value),
                        "expected": json.dumps(value if correct else value + 50),
                        "correct": int(correct),
                        "time_ms": time_ms,
                        "mode": "practice",
                        "answered_at": _iso(answered),
                        "mistake": None if correct or rng.random() < 0.5 else rng.choice(MISTAKES),
                        "wrong_choice": None,
                    }
                )
                next_id += 1
            db["drills"].insert_all(drills, batch_size=2000)
            db["attempts"].insert_all(attempts, batch_size=2000)


def timed(client: Any, url: str) -> tuple[float, int]:
    STATEMENTS[0] = 0
    start = time.perf_counter()
    response = client.get(url)
    response.get_data()
    elapsed = time.perf_counter() - start
    assert response.status_code == 200, (url, response.status_code)
    return elapsed, STATEMENTS[0]


def measure(client: Any, urls: dict[str, str], rounds: int) -> dict[str, tuple[float, float, int]]:
    """Per page: median ms, the bare endpoint's median ms in the same rounds, statements run."""
    for url in urls.values():
        timed(client, url)  # warm: templates compiled
    times: dict[str, list[float]] = {name: [] for name in urls}
    bare: dict[str, list[float]] = {name: [] for name in urls}
    count = {}
    for _ in range(rounds):
        for name, url in urls.items():
            bare[name].append(timed(client, BARE)[0])
            elapsed, count[name] = timed(client, url)
            times[name].append(elapsed)
    return {
        name: (1000 * statistics.median(times[name]), 1000 * statistics.median(bare[name]), count[name])
        for name in urls
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10,50,200")
    parser.add_argument("--answers", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    rng = random.Random(32)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "desk.db"
        open_db(path).conn.close()
        app = build_app(path)
        teacher, client = instructor(app)
        db = open_db(path, migrate=False)
        with db.conn:
            group_id = (
                db["groups"]
                .insert(
                    {"name": "Bench", "owner_id": teacher, "join_code": "BNCH-0001", "created_at": _iso(NOW)}
                )
                .last_pk
            )
        first = teacher + 1
        members = 0
        print(f"{args.answers} answers a trainee; median of {args.rounds} rounds; ms (x bare endpoint)")
        print(f"{'trainees':>8} {'page':<16} {'ms':>9} {'bare ms':>8} {'ratio':>8} {'SQL':>5}")
        for size in sizes:
            started = time.perf_counter()
            add_members(db, rng, group_id, first + members, size - members, args.answers)
            db.execute("ANALYZE")
            members = size
            built = time.perf_counter() - started
            pages = -(-args.answers // 100)
            urls = {
                "desk": f"/groups/{group_id}",
                "report (API)": f"/api/v1/groups/{group_id}/report",
                "trainee p.1": f"/groups/{group_id}/trainees/{first}",
                f"trainee p.{pages}": f"/groups/{group_id}/trainees/{first}?page={pages}",
            }
            for name, (ms, bare_ms, statements) in measure(client, urls, args.rounds).items():
                ratio = ms / bare_ms
                print(f"{size:>8} {name:<16} {ms:>9.1f} {bare_ms:>8.2f} {ratio:>7.0f}x {statements:>5}")
            load = os.getloadavg()
            print(f"{'':>8} (built in {built:.0f} s; load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f})")
        db.conn.close()


if __name__ == "__main__":
    main()
