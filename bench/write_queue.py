"""Write transactions from many threads of one process on one database file: SQLite's own waiting
(each thread polls the lock, sleeping up to 100 ms between tries) against `trainer.store.writing`,
which queues the process's threads on a lock of their own first. Same threads, same work, same run.

Then how long a one-statement transaction holds the lock while CPU-bound threads of the same process
(a worker's other requests, rendering pages) compete for the GIL: at Python's default switch interval
(5 ms) and at the production server's (`trainer.web.core.server.SWITCH_INTERVAL_S`), alternating.

Run: python3 bench/write_queue.py [--threads 16] [--transactions 150] [--rounds 2] [--busy 6]
The last lines: `queue: polling wait ... max Y ms; queued ... max ...` and
`handoff: held at 5 ms ...; at 0.5 ms ...`
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from trainer.store.schema import _sqlite_transaction, insert, open_db, writing
from trainer.web.core.server import SWITCH_INTERVAL_S


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


def held_beside_busy_threads(path: str, busy: int, transactions: int) -> list[float]:
    """Two writers, each one INSERT per transaction, beside `busy` CPU-bound threads: the time from
    the lock taken to the commit done (ms)."""
    held: list[float] = []
    guard, stop = threading.Lock(), threading.Event()

    def spin() -> None:
        while not stop.is_set():
            sum(j * j for j in range(20000))

    def write() -> None:
        db = open_db(path, migrate=False, timeout=30)
        for _ in range(transactions):
            time.sleep(0.002)
            with writing(db):
                locked = time.perf_counter()
                insert(db, "answers", {"text": "x" * 200})
            with guard:
                held.append((time.perf_counter() - locked) * 1000)

    spinners = [threading.Thread(target=spin) for _ in range(busy)]
    writers = [threading.Thread(target=write) for _ in range(2)]
    for thread in spinners + writers:
        thread.start()
    for thread in writers:
        thread.join()
    stop.set()
    for thread in spinners:
        thread.join()
    return held


def figures(waits: list[float]) -> str:
    cuts = statistics.quantiles(waits, n=100, method="inclusive")
    return f"p50 {cuts[49]:.1f} ms, p95 {cuts[94]:.1f} ms, p99 {cuts[98]:.1f} ms, max {max(waits):.0f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=16)
    parser.add_argument("--transactions", type=int, default=150, help="per thread (default 150)")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each, alternating (default 2)")
    parser.add_argument(
        "--busy", type=int, default=6, help="CPU-bound threads beside the writers (default 6)"
    )
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="trainer-queue-")
    path = os.path.join(folder, "queue.sqlite")
    open_db(path).execute("CREATE TABLE answers (id INTEGER PRIMARY KEY, text TEXT)")
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    polled: list[float] = []
    queued: list[float] = []
    for _ in range(args.rounds):
        for name, begin, into in (("polling", _sqlite_transaction, polled), ("queued", writing, queued)):
            waits, seconds = run(path, args.threads, args.transactions, begin)
            into.extend(waits)
            print(f"{name}: {len(waits)} transactions in {seconds:.2f} s; wait {figures(waits)}")
    default = sys.getswitchinterval()
    handoffs: dict[float, list[float]] = {default: [], SWITCH_INTERVAL_S: []}
    for _ in range(args.rounds):
        for interval, into in handoffs.items():
            sys.setswitchinterval(interval)
            held = held_beside_busy_threads(path, args.busy, 100)
            into.extend(held)
            print(f"held at {interval * 1000:g} ms beside {args.busy} busy threads: {figures(held)}")
    sys.setswitchinterval(default)
    shutil.rmtree(folder)
    print(f"machine: load average {os.getloadavg()[0]:.1f} after")
    print(f"queue: polling wait {figures(polled)}; queued {figures(queued)}")
    print(
        "handoff: "
        + "; ".join(f"held at {interval * 1000:g} ms {figures(held)}" for interval, held in handoffs.items())
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
