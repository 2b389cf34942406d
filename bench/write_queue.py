"""Write transactions from many threads of one process on one database file: SQLite's own waiting
(each thread polls the lock, sleeping up to 100 ms between tries) against `trainer.store.writing`,
which queues the process's threads on a lock of their own first. Same threads, same work, same run.

Run: python3 bench/write_queue.py [--threads 16] [--transactions 150] [--rounds 2]
The last line: `queue: polling wait p99 X ms, max Y ms; queued p99 ..., max ...`
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from trainer.store.schema import _sqlite_transaction, insert, open_db, writing


def run(path: str, threads: int, transactions: int, begin: Callable) -> tuple[list[float], float]:
    """Each thread: some CPU work (a request's), then one short write transaction; the waits for the
    lock (ms) and the run's seconds."""
    waits: list[float] = []
    guard = threading.Lock()

    def work() -> None:
        db = open_db(path, migrate=False, timeout=30)
        for _ in range(transactions):
            sum(j * j for j in range(3000))
            asked = time.perf_counter()
            with begin(db):
                waited = (time.perf_counter() - asked) * 1000
                insert(db, "answers", {"text": "x" * 200})
            with guard:
                waits.append(waited)

    started = time.perf_counter()
    workers = [threading.Thread(target=work) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return waits, time.perf_counter() - started


def figures(waits: list[float]) -> str:
    cuts = statistics.quantiles(waits, n=100, method="inclusive")
    return f"p50 {cuts[49]:.1f} ms, p95 {cuts[94]:.1f} ms, p99 {cuts[98]:.1f} ms, max {max(waits):.0f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=16)
    parser.add_argument("--transactions", type=int, default=150, help="per thread (default 150)")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each, alternating (default 2)")
    args = parser.parse_args()
    path = os.path.join(tempfile.mkdtemp(prefix="trainer-queue-"), "queue.sqlite")
    open_db(path).execute("CREATE TABLE answers (id INTEGER PRIMARY KEY, text TEXT)")
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    polled: list[float] = []
    queued: list[float] = []
    for _ in range(args.rounds):
        for name, begin, into in (("polling", _sqlite_transaction, polled), ("queued", writing, queued)):
            waits, seconds = run(path, args.threads, args.transactions, begin)
            into.extend(waits)
            print(f"{name}: {len(waits)} transactions in {seconds:.2f} s; wait {figures(waits)}")
    print(f"machine: load average {os.getloadavg()[0]:.1f} after")
    print(f"queue: polling wait {figures(polled)}; queued {figures(queued)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
