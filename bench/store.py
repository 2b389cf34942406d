"""Answers recorded through the store (`Store.answer`: the drill read back, graded, its writes in one
transaction, the stored answer read back) beside a bare INSERT loop on the same database file in the
same run: one attempt row per transaction through `sqlite3` alone, as fast as SQLite writes an answer
on this disk with the same settings (WAL, the same synchronous level).

The drills are issued beforehand (not timed) and are of a kind made for the bench whose grading costs
next to nothing (an amount: twice a number), so the figure is the store's own cost, not a grader's;
`--kind rp.qualify` times a real drill's grading too. Then the same with `--threads` threads at once,
each with its own connection, as the production server's threads have.

Run: python3 bench/store.py [--answers 2000] [--threads 16] [--rounds 3] [--kind ID] [--dir /dev/shm]
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from trainer.drills import issue  # noqa: E402
from trainer.drills.answers import AnswerFormat, AnswerKind  # noqa: E402
from trainer.drills.base import DrillKind, expected_of, prompt, register  # noqa: E402
from trainer.engine.explain import step  # noqa: E402
from trainer.store import Store, open_db  # noqa: E402

SYNCHRONOUS = inspect.signature(open_db).parameters["synchronous"].default

BENCH_KIND = register(
    DrillKind(
        "bench.amount",
        "bench",
        "Bench amount",
        1,
        (1, 2, 3),
        lambda rng, level, rules: prompt({"n": rng.randint(1, 99)}, step("Twice {n}?", n=0)),
        lambda d: AnswerFormat(AnswerKind.AMOUNT),
        lambda d: (2 * d["n"], str(2 * d["n"]), ()),
    )
)
KIND = BENCH_KIND.id


def prepare(path: Path, trainees: int, per_trainee: int, kind: str) -> list[list[tuple[int, object]]]:
    """Per trainee, drills issued and their right answers, on a fresh database file."""
    db = open_db(path)
    store = Store(db)
    work = []
    for t in range(trainees):
        trainee = store.trainee_named(f"bench trainee {t}")["id"]
        mine = []
        for n in range(per_trainee):
            situation = issue(kind, 1 + n % 3, seed=t * 1_000_003 + n)
            mine.append((store.save_drill(trainee, situation), expected_of(situation)[0]))
        work.append(mine)
    db.conn.close()
    return work


def answer_time(drill_id: int) -> int:
    """The answer's time in ms, spread over 1 to 10 s as a trainee's are: the medians the store keeps
    (m024) seek along the answers by time, and a run of equal times is the slow case there."""
    return 1000 + (drill_id * 7919) % 9000


def through_store(path: Path, work: list[list[tuple[int, object]]]) -> tuple[float, float]:
    """Answers per second through `Store.answer`, one thread per list of drills."""

    def answer(drills: list[tuple[int, object]]) -> None:
        store = Store(open_db(path, migrate=False))
        for drill_id, right in drills:
            store.answer(drill_id, right, time_ms=answer_time(drill_id))
        store.db.conn.close()

    return _rate(answer, work)


def bare_inserts(path: Path, work: list[list[tuple[int, object]]]) -> tuple[float, float]:
    """Answers per second of a bare loop: one attempt row INSERTed and committed per answer."""
    attempt = {
        "kind": "bench.amount",
        "raw": json.dumps("yes"),
        "answer": json.dumps("yes"),
        "expected": json.dumps("yes"),
        "correct": 1,
        "time_ms": 1500,
        "mode": "practice",
        "answered_at": "2026-01-01T00:00:00.000000+00:00",
    }
    columns = ", ".join(["drill_id", "trainee_id", *attempt])
    marks = ", ".join("?" for _ in range(len(attempt) + 2))
    sql = f"INSERT INTO bare_attempts ({columns}) VALUES ({marks})"

    def insert(drills: list[tuple[int, object]]) -> None:
        conn = sqlite3.connect(path, timeout=10, isolation_level=None)
        conn.execute(f"PRAGMA synchronous = {SYNCHRONOUS}")  # the store's (sqlite3 alone: FULL)
        for drill_id, _right in drills:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute(sql, [drill_id, 1, *attempt.values()])
            conn.execute("COMMIT")
        conn.close()

    return _rate(insert, work)


def _rate(job, work: list[list[tuple[int, object]]]) -> tuple[float, float]:
    """Answers per second (wall time) and the process's CPU seconds per answer (all threads): on a
    machine shared by many, the wall time also counts the time others had the cores."""
    threads = [threading.Thread(target=job, args=(drills,)) for drills in work]
    start, cpu = time.perf_counter(), time.process_time()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    count = sum(len(drills) for drills in work)
    return count / (time.perf_counter() - start), (time.process_time() - cpu) / count


def bare_table(path: Path) -> None:
    """A copy of the attempts table and its indexes (empty), for the bare loop to write to."""
    conn = sqlite3.connect(path)
    schema = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'attempts'").fetchone()[0]
    conn.execute(schema.replace('"attempts"', "bare_attempts", 1).replace("REFERENCES", "-- ", 0))
    for (sql,) in conn.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'attempts' AND sql IS NOT NULL"
    ).fetchall():
        conn.execute(sql.replace("INDEX ", "INDEX bare_", 1).replace(" ON attempts", " ON bare_attempts", 1))
    conn.commit()
    conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--answers", type=int, default=2000, help="answers per measurement")
    parser.add_argument("--threads", type=int, default=16)
    parser.add_argument("--kind", default=KIND, help="the drill kind answered")
    parser.add_argument("--dir", help="the folder of the database files (default: the system's temp)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds; the median is shown")
    args = parser.parse_args()
    print(
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())};"
        f" kind {args.kind}; files in {args.dir or tempfile.gettempdir()}"
    )
    for threads in (1, args.threads):
        stored, bare = [], []
        for _ in range(args.rounds):
            with tempfile.TemporaryDirectory(dir=args.dir) as folder:
                path = Path(folder) / "store.sqlite"
                work = prepare(path, threads, args.answers // threads, args.kind)
                bare_table(path)
                bare.append(bare_inserts(path, work))
                stored.append(through_store(path, work))
        s, b = statistics.median(r for r, _ in stored), statistics.median(r for r, _ in bare)
        s_cpu, b_cpu = statistics.median(c for _, c in stored), statistics.median(c for _, c in bare)
        print(
            f"{threads:>2} thread{'s' if threads > 1 else ' '}: store {s:,.0f} answers/s"
            f" ({1000 / s:.2f} ms each), bare INSERT loop {b:,.0f}/s: {s / b:.2f}x;"
            f" CPU per answer {1e6 * s_cpu:.0f} us against {1e6 * b_cpu:.0f} us: {b_cpu / s_cpu:.2f}x"
        )


if __name__ == "__main__":
    main()
