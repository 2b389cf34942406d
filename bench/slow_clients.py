"""Slow clients beside normal ones: N connections that each send half a request and then nothing, held
open, while one normal client keeps asking for a page; against a run without them in the same process.

The server runs on 127.0.0.1 only, on a fresh instance and database. For each candidate the bench:
1. measures `--requests` normal requests (`GET /api/v1/kinds`, the app's own work, and the stylesheet)
   with no slow client: the reference;
2. opens `--held` connections that send a request's headers and part of its body, then go quiet;
3. measures the same requests again while they are held (each request times out after `--timeout` s);
4. waits up to `--linger` s and counts how many of the held connections the server has closed itself.

Bounded: at most 5,000 held connections and 600 s in all.

Run: python3 bench/slow_clients.py [--held 1000] [--requests 20] [--timeout 5] [--linger 30]
                                   [--candidates serve gunicorn-gthread]

`serve` is `python3 -m trainer serve` (the production command); `gunicorn-gthread` is gunicorn's
threaded workers (2 x 8 threads), the production server before waitress, for comparison.
The last line: `slow: C with H held: R of M normal requests answered, p50 X ms, p95 Y ms (reference p50 ...)`
"""

from __future__ import annotations

import argparse
import os
import resource
import selectors
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
MAX_HELD = 5000
MAX_SECONDS = 600
HALF_REQUEST = (
    b"POST /api/v1/drills HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b'Content-Length: 400\r\n\r\n{"kind": '
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def command(candidate: str, port: int) -> list[str]:
    if candidate == "serve":
        return [sys.executable, "-m", "trainer", "serve", "--port", str(port), "--workers", "2"]
    if candidate == "gunicorn-gthread":
        return [
            sys.executable, "-m", "gunicorn", "--worker-class", "gthread", "--workers", "2", "--threads", "8",
            "--bind", f"127.0.0.1:{port}", "--no-control-socket", "trainer.web:create_app()",
        ]  # fmt: skip
    raise SystemExit(f"unknown candidate {candidate!r}")


def start(candidate: str, folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {
        **os.environ,
        "TRAINER_INSTANCE": str(folder / "instance"),
        "TRAINER_DATABASE": str(folder / "class.sqlite"),
        "TRAINER_SECRET_KEY": "bench-slow",
    }
    with (folder / f"{candidate}.log").open("ab") as log:
        process = subprocess.Popen(
            command(candidate, port), cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if requests.get(base + "/api/v1/kinds", timeout=5).status_code == 200:
                return process, base
        except requests.RequestException:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"{candidate} did not start; see {folder / (candidate + '.log')}")


def normal_requests(base: str, count: int, timeout: float) -> tuple[list[float], int]:
    """Latencies of the answered requests (ms) and the number that failed or timed out; each on a new
    connection, as a phone arriving would."""
    answered, failed = [], 0
    for n in range(count):
        path = "/api/v1/kinds" if n % 2 == 0 else "/static/css/trainer.css"
        began = time.perf_counter()
        try:
            response = requests.get(base + path, timeout=timeout, headers={"Connection": "close"})
        except requests.RequestException:
            failed += 1
            continue
        if response.status_code == 200:
            answered.append((time.perf_counter() - began) * 1000)
        else:
            failed += 1
    return answered, failed


def hold(port: int, count: int) -> list[socket.socket]:
    held = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", port), timeout=10)
        connection.sendall(HALF_REQUEST)
        held.append(connection)
    return held


def closed_by_server(held: list[socket.socket], linger: float) -> tuple[int, float]:
    """How many held connections the server closed (EOF or reset) within `linger` seconds, and when the
    last of those closed (seconds from now)."""
    chooser = selectors.DefaultSelector()
    for connection in held:
        connection.setblocking(False)
        chooser.register(connection, selectors.EVENT_READ)
    closed, last, began = 0, 0.0, time.monotonic()
    while closed < len(held) and time.monotonic() - began < linger:
        for key, _ in chooser.select(timeout=0.5):
            try:
                data = key.fileobj.recv(65536)  # type: ignore[union-attr]
            except (ConnectionError, OSError):
                data = b""
            if not data:  # a reply (e.g. 408) is read first, then the close
                chooser.unregister(key.fileobj)
                closed += 1
                last = time.monotonic() - began
    chooser.close()
    return closed, last


def figures(values: list[float]) -> str:
    if not values:
        return "none answered"
    p95 = statistics.quantiles(values, n=20, method="inclusive")[18] if len(values) > 1 else values[0]
    return f"p50 {statistics.median(values):.0f} ms, p95 {p95:.0f} ms"


def run(candidate: str, args: argparse.Namespace) -> str:
    folder = Path(tempfile.mkdtemp(prefix="trainer-slow-"))
    process, base = start(candidate, folder)
    port = int(base.rsplit(":", 1)[1])
    try:
        reference, reference_failed = normal_requests(base, args.requests, args.timeout)
        held = hold(port, args.held)
        began = time.monotonic()
        during, failed = normal_requests(base, args.requests, args.timeout)
        closed, last = closed_by_server(held, args.linger)
        held_for = time.monotonic() - began
        for connection in held:
            connection.close()
    finally:
        os.killpg(process.pid, 15)
        process.wait(timeout=30)
    shutil.rmtree(folder)
    print(f"{candidate}: reference (none held): {figures(reference)}, {reference_failed} failed")
    print(
        f"{candidate}: with {args.held} held: {figures(during)}, {failed} of {args.requests} failed or timed "
        f"out ({args.timeout:g} s each); the server closed {closed} of {args.held} held connections "
        f"within {held_for:.0f} s (the last {last:.0f} s after the normal requests ended)"
    )
    return (
        f"slow: {candidate} with {args.held} held: {len(during)} of {args.requests} normal requests "
        f"answered, {figures(during)} (reference {figures(reference)}); {closed} held closed by the server"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--held", type=int, default=1000, help="half-sent connections held (default 1000)")
    parser.add_argument("--requests", type=int, default=20, help="normal requests per phase (default 20)")
    parser.add_argument(
        "--timeout", type=float, default=5.0, help="seconds a normal request waits (default 5)"
    )
    parser.add_argument(
        "--linger", type=float, default=30.0, help="seconds to wait for the server to close them (default 30)"
    )
    parser.add_argument("--candidates", nargs="+", default=["serve", "gunicorn-gthread"])
    args = parser.parse_args()
    if not 0 < args.held <= MAX_HELD:
        parser.error(f"--held must be 1 to {MAX_HELD}")
    worst = len(args.candidates) * (2 * args.requests * args.timeout + args.linger + 60)
    if worst > MAX_SECONDS:
        parser.error(f"at most {MAX_SECONDS} s in all: lower --requests, --timeout or --linger")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.held + 256)), hard))
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    lines = [run(candidate, args) for candidate in args.candidates]
    print(f"machine: load average {os.getloadavg()[0]:.1f} after")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
