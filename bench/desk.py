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

It also times the store's item analysis per kind (the API report's) and per kind, level and mode
(the desk's), and with `--exports` the spreadsheet exports of every answer (`answers.csv`,
`answers.xlsx`).

Run: python3 bench/desk.py [--sizes 10,50,200] [--answers 2000] [--rounds 7] [--exports]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pages import NOW, _iso, account, add_trainees, answer_rows, make_app  # noqa: E402 (bench/pages.py)

import trainer.web.core.db as web_db  # noqa: E402
from trainer.store.schema import open_db  # noqa: E402

STATEMENTS = [0]
BARE = "/bench-bare"


def _counting_open_db(*args: Any, **kwargs: Any) -> Any:
    db = open_db(*args, **kwargs)

    def trace(sql: str) -> None:
        if sql.lstrip().upper().startswith(("SELECT", "WITH")):
            STATEMENTS[0] += 1

    db.conn.set_trace_callback(trace)
    return db


def build_app(path: Path) -> Any:
    app = make_app(path)
    web_db.open_db = _counting_open_db  # count the requests' statements, not start-up's
    # The bare endpoint: through the app's every hook (session, headers), no database, no template.
    app.add_url_rule(BARE, "bench_bare", lambda: "ok")
    return app


def instructor(app: Any) -> tuple[int, Any]:
    return account(app, "teacher", "instructor")


def add_members(db: Any, rng: random.Random, group_id: int, first: int, count: int, answers: int) -> None:
    """`count` trainees (ids from `first`) in the group since before their first answer, each with
    `answers` answered drills (`pages.answer_rows`)."""
    with db.conn:
        ids = add_trainees(db, first, count)
        joined = db.execute("SELECT min(created_at) FROM users WHERE id >= ?", [first]).fetchone()[0]
        db["memberships"].insert_all({"group_id": group_id, "user_id": i, "joined_at": joined} for i in ids)
        db["membership_periods"].insert_all(
            {"group_id": group_id, "user_id": i, "joined_at": joined, "left_at": None} for i in ids
        )
        next_id = (db.execute("SELECT max(id) FROM drills").fetchone()[0] or 0) + 1
        for trainee in ids:
            pairs = list(answer_rows(rng, trainee, answers, next_id))
            db["drills"].insert_all((d for d, _ in pairs), batch_size=2000)
            db["attempts"].insert_all((a for _, a in pairs), batch_size=2000)
            next_id += answers


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
    parser.add_argument("--exports", action="store_true", help="time the spreadsheet exports too")
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
            if args.exports:
                urls["answers.csv"] = f"/groups/{group_id}/answers.csv"
                urls["answers.xlsx"] = f"/groups/{group_id}/answers.xlsx"
            for name, (ms, bare_ms, statements) in measure(client, urls, args.rounds).items():
                ratio = ms / bare_ms
                print(f"{size:>8} {name:<16} {ms:>9.1f} {bare_ms:>8.2f} {ratio:>7.0f}x {statements:>5}")
            # The item analysis the desk shows (per kind, level and mode) beside the report's (per kind).
            from trainer.store.groups import Groups

            groups = Groups(db)
            for name, method in (("items per kind", "item_analysis"), ("items per level", "item_details")):
                runs = []
                for _ in range(args.rounds):
                    started = time.perf_counter()
                    getattr(groups, method)(group_id)
                    runs.append(time.perf_counter() - started)
                print(f"{size:>8} {name:<16} {1000 * statistics.median(runs):>9.1f} {'(store)':>8}")
            load = os.getloadavg()
            print(f"{'':>8} (built in {built:.0f} s; load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f})")
        db.conn.close()


if __name__ == "__main__":
    main()
