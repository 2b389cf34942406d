"""The pages that grow with a school's data, timed through the app (Flask's test client, in process)
beside the app's bare endpoint (`GET /health`: no database, no template) in the same rounds.

Two on-disk temporary databases are filled with generated answers in bulk (sqlite-utils'
`insert_all`, not through the web), each grown in three steps and measured after each:

- one trainee with 12,500 / 25,000 / 50,000 answers: the home page (`/`) and progress (`/progress/`);
- a group of 50 / 100 / 200 trainees with 2,000 answers each: the instructor's desk
  (`/groups/<id>`), the group report (`GET /api/v1/groups/<id>/report`) and the instructor's page for
  one trainee (`/groups/<id>/trainees/<id>`, whose own answers stay 2,000), and the CSV export of
  every member's answers (`/groups/<id>/attempts.csv`, streamed: the time is to its last byte).

Each figure is the median of `--rounds` requests, interleaved with the bare endpoint's, and the ratio
of the two: the machine is shared, so the ratio is what compares across runs.

With `--skipped N` each trainee of the group also skipped N sprint questions in random kinds, two
of them within the last 12 hours (the desk's readiness then merges them with his answers).

Run: python3 bench/pages.py [--rounds 15] [--budget 10] [--only trainee|group] [--quick] [--skipped N]
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
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from trainer.drills import REGISTRY  # noqa: E402
from trainer.drills.mistakes import TYPES  # noqa: E402
from trainer.store.schema import open_db  # noqa: E402
from trainer.web import create_app  # noqa: E402

PASSWORD = "a long secret"
KINDS = sorted(REGISTRY)
MISTAKES = sorted(TYPES)
DAYS = 120  # the answers are spread over this many days up to now
NOW = datetime.now(UTC)


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def make_app(path: Path) -> Any:
    return create_app(
        {
            "DATABASE": str(path),
            "SECRET_KEY": "bench",
            "WTF_CSRF_ENABLED": False,
            "FAST_PASSWORD_HASHING": True,
            "RATELIMIT_ENABLED": False,
        }
    )


def account(app: Any, username: str, role: str) -> tuple[int, Any]:
    """An account made as an operator would (the CLI), and a test client signed in to it."""
    result = app.test_cli_runner().invoke(
        args=["user", "add", username, "--role", role], env={"TRAINER_PASSWORD": PASSWORD}
    )
    assert result.exit_code == 0, result.output
    client = app.test_client()
    response = client.post("/account/sign-in", data={"username": username, "password": PASSWORD})
    assert response.status_code == 302, response.status_code
    db = open_db(app.config["DATABASE"], migrate=False)
    user_id = int(db.execute("SELECT id FROM users WHERE username = ?", [username]).fetchone()[0])
    db.conn.close()
    return user_id, client


def add_trainees(db: Any, first: int, count: int) -> list[int]:
    """`count` trainee accounts made in bulk (ids from `first`), as the CLI would store them."""
    ids = list(range(first, first + count))
    created = _iso(NOW - timedelta(days=DAYS + 1))
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
    return ids


def answer_rows(rng: random.Random, trainee: int, count: int, first_id: int) -> Iterator[tuple[dict, dict]]:
    """`count` answered drills of the trainee spread over the last `DAYS` days: (drill, attempt) rows
    with ids from `first_id`, as the store writes them (also used by bench/desk.py)."""
    span = DAYS * 86400
    moments = sorted(rng.uniform(0, span) for _ in range(count))
    for n, offset in enumerate(moments):
        kind = rng.choice(KINDS)
        level = rng.choice(REGISTRY[kind].levels)
        correct = rng.random() < 0.8
        answered = NOW - timedelta(seconds=span - offset)
        time_ms = int(rng.lognormvariate(8.5, 0.6))
        drill = {
            "id": first_id + n,
            "trainee_id": trainee,
            "kind": kind,
            "level": level,
            "seed": rng.getrandbits(32),
            "version": 1,
            "rules": None,
            "situation": "{}",
            "mode": "practice",
            "issued_at": _iso(answered - timedelta(milliseconds=time_ms)),
            "answered": 1,
        }
        value = rng.randrange(0, 4000, 50)
        attempt = {
            "id": first_id + n,
            "drill_id": first_id + n,
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
        yield drill, attempt


def add_answers(db: Any, rng: random.Random, trainee: int, count: int) -> None:
    """`count` answered drills of the trainee, and the cards their reviews would have made."""
    first = (db.execute("SELECT max(id) FROM drills").fetchone()[0] or 0) + 1
    pairs = list(answer_rows(rng, trainee, count, first))
    with db.conn:
        db["drills"].insert_all((d for d, _ in pairs), batch_size=2000)
        db["attempts"].insert_all((a for _, a in pairs), batch_size=2000)
        seen = {(d["kind"], d["level"]) for d, _ in pairs}
        known = {
            (r["kind"], r["level"])
            for r in db.query("SELECT kind, level FROM cards WHERE trainee_id = ?", [trainee])
        }
        db["cards"].insert_all(
            {
                "trainee_id": trainee,
                "kind": kind,
                "level": level,
                "state": 2,
                "step": None,
                "stability": rng.uniform(1, 30),
                "difficulty": rng.uniform(1, 10),
                "due": _iso(NOW + timedelta(days=rng.uniform(-5, 20))),
                "last_review": _iso(NOW - timedelta(days=1)),
                "reviews": 10,
                "lapses": 1,
                "created_at": _iso(NOW - timedelta(days=DAYS)),
            }
            for kind, level in sorted(seen - known)
        )


def add_skipped(db: Any, rng: random.Random, trainee: int, count: int) -> None:
    """`count` sprint questions the trainee skipped, in random kinds: the first two within the last
    12 hours (among his newest results), the others over the last `DAYS` days (`--skipped`)."""
    first = (db.execute("SELECT max(id) FROM drills").fetchone()[0] or 0) + 1
    rows = []
    for n in range(count):
        kind = rng.choice(KINDS)
        ago = timedelta(hours=rng.uniform(0, 12)) if n < 2 else timedelta(days=rng.uniform(2, DAYS - 5))
        at = _iso(NOW - ago)
        rows.append(
            {
                "id": first + n,
                "trainee_id": trainee,
                "kind": kind,
                "level": rng.choice(REGISTRY[kind].levels),
                "seed": rng.getrandbits(32),
                "version": 1,
                "rules": None,
                "situation": "{}",
                "mode": "sprint",
                "issued_at": at,
                "skipped_at": at,
                "answered": 1,  # a skipped sprint question is closed, with no attempt (m012)
            }
        )
    with db.conn:
        db["drills"].insert_all(rows)


def load() -> str:
    """The machine's load average (1, 5, 15 minutes): the machine is shared."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _shown(row: tuple[str, str, float, float]) -> tuple[str, str, float, float]:
    """A row printed as soon as it is measured (the table at the end repeats it), with the load."""
    print(
        f"  measured: {row[0]} at {row[1]}: {row[2]:.1f} ms, bare {row[3]:.2f} ms (load {load()})",
        flush=True,
    )
    return row


def timed(client: Any, url: str) -> float:
    start = time.perf_counter()
    response = client.get(url)
    response.get_data()  # a streamed body is read to its end
    elapsed = time.perf_counter() - start
    assert response.status_code == 200, (url, response.status_code)
    return elapsed


def measure(
    client: Any, urls: dict[str, str], rounds: int, budget_s: float
) -> dict[str, tuple[float, float]]:
    """Per page: (median ms, median ms of the bare endpoint in the same rounds). A page slower than
    `budget_s` / `rounds` gets fewer rounds (at least 3), so a slow page does not hold the shared
    machine for minutes."""
    planned = {}
    for name, url in urls.items():
        timed(client, url)  # warm: templates compiled, caches filled
        planned[name] = max(3, min(rounds, int(budget_s / timed(client, url))))
    times: dict[str, list[float]] = {name: [] for name in urls}
    bare: dict[str, list[float]] = {name: [] for name in urls}
    for n in range(rounds):
        for name, url in urls.items():
            if n < planned[name]:
                bare[name].append(timed(client, "/health"))
                times[name].append(timed(client, url))
    return {
        name: (1000 * statistics.median(times[name]), 1000 * statistics.median(bare[name])) for name in urls
    }


def trainee_pages(
    workdir: Path, sizes: list[int], rounds: int, budget: float
) -> list[tuple[str, str, float, float]]:
    path = workdir / "trainee.sqlite"
    app = make_app(path)
    trainee, client = account(app, "heavy.trainee", "trainee")
    db = open_db(path, migrate=False)
    rng = random.Random(1)
    rows = []
    have = 0
    for size in sizes:
        add_answers(db, rng, trainee, size - have)
        have = size
        for name, (ms, bare) in measure(
            client, {"home": "/", "progress": "/progress/"}, rounds, budget
        ).items():
            rows.append(_shown((name, f"{size:,} answers", ms, bare)))
    db.conn.close()
    return rows


def group_pages(
    workdir: Path, groups: list[int], answers: int, rounds: int, budget: float, skipped: int = 0
) -> list[tuple[str, str, float, float]]:
    path = workdir / "group.sqlite"
    app = make_app(path)
    instructor, client = account(app, "bench.instructor", "instructor")
    response = client.post("/api/v1/groups", json={"name": "Bench group"})
    assert response.status_code == 201, response.get_data(as_text=True)
    group_id = response.get_json()["id"]
    db = open_db(path, migrate=False)
    rng = random.Random(2)
    rows = []
    have = 0
    first = instructor + 1
    watched = None
    for size in groups:
        for member in add_trainees(db, first, size - have):
            add_answers(db, rng, member, answers)
            if skipped:
                add_skipped(db, rng, member, skipped)
            # In the group since before his first answer, as joining writes it (a membership and
            # its period): the desk shows what he did while in the group.
            joined = _iso(NOW - timedelta(days=DAYS))
            with db.conn:
                db["memberships"].insert({"group_id": group_id, "user_id": member, "joined_at": joined})
                db["membership_periods"].insert(
                    {"group_id": group_id, "user_id": member, "joined_at": joined, "left_at": None}
                )
            watched = watched or member
        first += size - have
        have = size
        urls = {
            "desk": f"/groups/{group_id}",
            "report": f"/api/v1/groups/{group_id}/report",
            "trainee": f"/groups/{group_id}/trainees/{watched}",
            "export": f"/groups/{group_id}/attempts.csv",
        }
        for name, (ms, bare) in measure(client, urls, rounds, budget).items():
            rows.append(_shown((name, f"{size} x {answers:,}", ms, bare)))
    db.conn.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--budget", type=float, default=10.0, help="seconds per page and size, at most")
    parser.add_argument("--only", choices=["trainee", "group"], help="one of the two databases")
    parser.add_argument("--quick", action="store_true", help="a tenth of the data (a smoke run)")
    parser.add_argument(
        "--skipped", type=int, default=0, help="sprint questions each trainee of the group skipped (2 recent)"
    )
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    started = load()
    with tempfile.TemporaryDirectory() as folder:
        workdir = Path(folder)
        start = time.perf_counter()
        rows = []
        if args.only != "group":
            rows += trainee_pages(
                workdir, [12_500 // scale, 25_000 // scale, 50_000 // scale], args.rounds, args.budget
            )
        if args.only != "trainee":
            rows += group_pages(
                workdir,
                [50 // scale, 100 // scale, 200 // scale],
                2_000,
                args.rounds,
                args.budget,
                args.skipped,
            )
        took = time.perf_counter() - start
    print(f"{'page':<10} {'data':<18} {'median ms':>10} {'bare ms':>8} {'ratio':>8}")
    for name, data, ms, bare in rows:
        print(f"{name:<10} {data:<18} {ms:>10.1f} {bare:>8.2f} {ms / bare:>7.0f}x")
    print(
        f"(bare endpoint: GET /health; up to {args.rounds} rounds, {args.budget:.0f} s a page;"
        f" {took:.0f} s in all; load average {started} at the start, {load()} at the end)"
    )


if __name__ == "__main__":
    main()
