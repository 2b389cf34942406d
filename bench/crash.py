"""The class load of `bench/load.py`, with the server killed (SIGKILL to the master and every worker
at once) several times mid-run and restarted on the same database. The trainees ride it out: a request
that finds no server waits and is sent again. At the end SQLite must pass `PRAGMA integrity_check` and
hold every answer the server acknowledged, once.

Run: python3 bench/crash.py [--kills 3] [--every 4] [--trainees 50] [--answers 10] [--think 1.0]
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from load import Server, arguments, check_store, free_port, p50, p95, run_class


def main() -> int:
    parser = arguments(__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=3, help="times the server is killed (default 3)")
    parser.add_argument("--every", type=float, default=4.0, help="seconds between kills (default 4)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="trainer-crash-"))
    server = Server(folder / "class.sqlite", free_port(), args.workers, args.threads, folder / "server.log")
    downtime: list[float] = []

    def crash_and_restart(server: Server, trainees: list) -> None:
        for _kill in range(args.kills):
            time.sleep(args.every)
            if not any(trainee.is_alive() for trainee in trainees):
                break
            down = time.monotonic()
            server.kill()
            server.start()
            downtime.append(time.monotonic() - down)

    load_before = os.getloadavg()
    server.start()
    try:
        tally, seconds = run_class(args, server, during=crash_and_restart)
    finally:
        server.stop()
    checked = check_store(server.database, tally.acknowledged)
    load_after = os.getloadavg()[0]
    print(f"server: {args.workers} waitress workers x {args.threads} threads; database {server.database}")
    print(
        f"machine: {os.cpu_count()} cores, load average {load_before[0]:.1f} before, {load_after:.1f} after"
    )
    print(
        f"crashes: {len(downtime)} SIGKILLs and restarts, down {sum(downtime):.1f} s in all "
        f"(longest {max(downtime, default=0):.1f} s); "
        f"{tally.unreachable} requests found no server and were sent again"
    )
    print(f"run: {seconds:.1f} s, {tally.requests} requests answered, other 4xx: {tally.refused or 'none'}")
    print(
        f"latency: new p50 {p50(tally.new_ms):.0f} ms, p95 {p95(tally.new_ms):.0f} ms; "
        f"answer p50 {p50(tally.answer_ms):.0f} ms, p95 {p95(tally.answer_ms):.0f} ms "
        "(requests that waited out a restart included)"
    )
    print(
        f"crash: {args.trainees} trainees, {len(downtime)} kills, {tally.server_errors} server errors, "
        f"{len(tally.acknowledged)} answers acknowledged, {checked['stored']} stored, "
        f"{checked['lost']} lost, {checked['doubled']} doubled, integrity_check {checked['integrity']}, "
        f"p95 new {p95(tally.new_ms):.0f} ms, p95 answer {p95(tally.answer_ms):.0f} ms"
    )
    failed = checked["lost"] or checked["doubled"] or checked["integrity"] != "ok"
    if not failed:
        shutil.rmtree(folder)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
