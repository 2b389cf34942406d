"""Where the desk's and the group report's milliseconds go: one group of `--trainees` trainees with
`--answers` answers each (bench/pages.py's data, in bulk), then the desk (`/groups/<id>`) and the
report (`GET /api/v1/groups/<id>/report`) through Flask's test client, beside the bare endpoint:

- SQL: every statement the request runs, timed from its `execute` to its last row (each is read to
  its end at once, which the app would do anyway), summed by statement text;
- Python: cProfile around the GET, the functions with the most cumulative time.

`--db PATH` keeps the database for the next run (it is built only when missing).

Run: python3 bench/desk_profile.py [--trainees 200] [--answers 2000] [--rounds 5] [--db PATH]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pages import DAYS, NOW, PASSWORD, _iso, account, add_answers, add_trainees, load, make_app  # noqa: E402

import trainer.store.schema as schema  # noqa: E402
from trainer.store.schema import open_db  # noqa: E402

SQL: dict[str, list[float]] = defaultdict(list)
TIMING = [False]


class _Rows:
    """A cursor's rows read at once, with what the store asks of a cursor."""

    def __init__(self, cursor: sqlite3.Cursor, rows: list[Any]) -> None:
        self.description = cursor.description
        self.lastrowid = cursor.lastrowid
        self.rowcount = cursor.rowcount
        self._rows = rows
        self._at = 0

    def __iter__(self) -> Any:
        return iter(self._rows)

    def fetchone(self) -> Any:
        self._at += 1
        return self._rows[self._at - 1] if self._at <= len(self._rows) else None

    def fetchall(self) -> list[Any]:
        return self._rows[self._at :]

    def close(self) -> None:
        pass


class TimedConnection(sqlite3.Connection):
    def execute(self, sql: str, params: Any = (), /) -> Any:  # type: ignore[override]
        if not TIMING[0]:
            return super().execute(sql, params)
        start = time.perf_counter()
        cursor = super().execute(sql, params)
        rows = cursor.fetchall()
        SQL[" ".join(sql.split())[:110]].append(time.perf_counter() - start)
        return _Rows(cursor, rows)


def _connect(path: Any, *, create: bool, timeout: float) -> sqlite3.Connection:
    uri = Path(path).absolute().as_uri() + ("?mode=rwc" if create else "?mode=rw")
    return sqlite3.connect(uri, uri=True, timeout=timeout, check_same_thread=False, factory=TimedConnection)


def build(path: Path, trainees: int, answers: int) -> None:
    app = make_app(path)
    instructor, client = account(app, "bench.instructor", "instructor")
    response = client.post("/api/v1/groups", json={"name": "Bench group"})
    group_id = response.get_json()["id"]
    db = open_db(path, migrate=False)
    rng = random.Random(2)
    joined = _iso(NOW - timedelta(days=DAYS))
    for member in add_trainees(db, instructor + 1, trainees):
        add_answers(db, rng, member, answers)
        with db.conn:
            db["memberships"].insert({"group_id": group_id, "user_id": member, "joined_at": joined})
            db["membership_periods"].insert(
                {"group_id": group_id, "user_id": member, "joined_at": joined, "left_at": None}
            )
    db.conn.close()


def get(client: Any, url: str) -> float:
    start = time.perf_counter()
    response = client.get(url)
    response.get_data()
    assert response.status_code == 200, (url, response.status_code)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--trainees", type=int, default=200)
    parser.add_argument("--answers", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--top", type=int, default=35)
    parser.add_argument("--db", type=Path, help="keep the database here (built when missing)")
    args = parser.parse_args()
    folder = tempfile.TemporaryDirectory()
    path = args.db or Path(folder.name) / "group.sqlite"
    if not path.exists():
        built = time.perf_counter()
        build(path, args.trainees, args.answers)
        print(f"built {path} in {time.perf_counter() - built:.0f} s", flush=True)
    schema._connect = _connect  # type: ignore[assignment]  # the requests' connections, timed
    app = make_app(path)
    client = app.test_client()
    response = client.post("/account/sign-in", data={"username": "bench.instructor", "password": PASSWORD})
    assert response.status_code == 302
    db = open_db(path, migrate=False)
    group_id = db.execute("SELECT id FROM groups").fetchone()[0]
    db.conn.close()
    print(f"load average {load()} at the start")
    for name, url in (("desk", f"/groups/{group_id}"), ("report", f"/api/v1/groups/{group_id}/report")):
        get(client, url)
        plain = [get(client, url) for _ in range(args.rounds)]
        bare = [get(client, "/health") for _ in range(args.rounds)]
        SQL.clear()
        TIMING[0] = True
        timed = [get(client, url) for _ in range(args.rounds)]
        TIMING[0] = False
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(args.rounds):
            get(client, url)
        profile.disable()
        ms = 1000 * statistics.median(plain)
        print(
            f"\n== {name}: median {ms:.1f} ms (bare {1000 * statistics.median(bare):.2f} ms); with the SQL"
            f" timed {1000 * statistics.median(timed):.1f} ms; load {load()}"
        )
        total = sum(sum(v) for v in SQL.values()) / args.rounds
        count = sum(len(v) for v in SQL.values()) / args.rounds
        print(f"SQL: {count:.0f} statements, {1000 * total:.1f} ms a request; the largest:")
        for sql, times in sorted(SQL.items(), key=lambda kv: -sum(kv[1]))[:15]:
            print(f"  {1000 * sum(times) / args.rounds:7.2f} ms  x{len(times) // args.rounds:<4} {sql}")
        out = io.StringIO()
        stats = pstats.Stats(profile, stream=out)
        stats.sort_stats("cumulative").print_stats(args.top)
        print(f"cProfile over {args.rounds} requests (times are the sum):")
        print("\n".join(out.getvalue().splitlines()[6:]))
    print(f"load average {load()} at the end")


if __name__ == "__main__":
    main()
