"""A class at once: N simulated trainees creating and answering drills over real HTTP, against the
production server (`python3 -m trainer serve`) on loopback with a fresh database.

Each trainee signs up first. Half use the pages (sign-up form, level buttons and answer forms, with
their CSRF tokens), half the JSON API (`POST /api/v1/users`, then a bearer token from
`POST /api/v1/tokens`); the drills are mixed across the three games. Beside them one client fetches a
static file throughout, as the reference: the same run's p95 for a request that does no work in the
app. At the end the server is stopped and SQLite is checked: every answer the server acknowledged must
be stored once.

Run: python3 bench/load.py [--trainees 50] [--answers 10] [--think 1.0] [--workers 2] [--threads 8]
                           [--slow-clients 2] [--dev-server] [--lock-profile]

With `--lock-profile` the server times every write transaction (bench/lock_profile/sitecustomize.py)
and the bench prints which store functions, from which views, held the write lock longest.

With `--dev-server` the same class first runs against Flask's development server (`flask run`) on its own
fresh database, as the reference the production server is measured against; its figures end in `dev: ...`.

The last line:
load: T trainees, R requests, E server errors, A answers acknowledged, S stored, L lost, D doubled,
p95 new X ms, p95 answer Y ms
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
LOCK_PROFILER = Path(__file__).resolve().parent / "lock_profile"  # its sitecustomize times transactions
# Drill kinds whose answer is one field ("answer": an amount or a choice), a few per game.
KINDS = {
    "russian_poker": ["rp.bet_payout", "rp.qualify", "rp.combination"],
    "omaha": ["om.high", "om.pot_limit", "om.limit"],
    "painted_poker": ["pp.score", "pp.trick", "pp.sheet"],
}
CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
CHOICE = re.compile(r'name="answer" value="([^"]+)"')


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def usable_kinds(base: str) -> list[str]:
    """The listed kinds the server has whose answer is a single amount or choice."""
    listed = {kind["id"] for kind in requests.get(f"{base}/api/v1/kinds", timeout=30).json()["kinds"]}
    return [kind for game in KINDS.values() for kind in game if kind in listed]


class Server:
    """`python3 -m trainer serve` in its own process group (so a crash can take all of it at once); with
    `dev`, Flask's development server (`flask run`, one process, a thread per request) instead."""

    def __init__(
        self,
        database: Path,
        port: int,
        workers: int,
        threads: int,
        log: Path,
        *,
        dev: bool = False,
        lock_profile: Path | None = None,
    ) -> None:
        self.database, self.port, self.workers, self.threads, self.log = database, port, workers, threads, log
        self.dev = dev
        self.lock_profile = lock_profile
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def name(self) -> str:
        if self.dev:
            return "Flask development server (flask run, threaded, one process)"
        return f"python3 -m trainer serve: {self.workers} waitress workers x {self.threads} threads"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, "TRAINER_DATABASE": str(self.database), "TRAINER_SECRET_KEY": "bench-load"}
        env["TRAINER_INSTANCE"] = str(self.database.parent / "instance")  # its own: a fresh instance
        if self.lock_profile is not None:
            env["TRAINER_LOCK_PROFILE"] = str(self.lock_profile)
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(LOCK_PROFILER), env.get("PYTHONPATH")]))
        command = [sys.executable, "-m", "trainer", "serve", "--port", str(self.port)]
        command += ["--workers", str(self.workers), "--threads", str(self.threads)]
        if self.dev:
            command = [sys.executable, "-m", "flask", "--app", "trainer.web", "run", "--port", str(self.port)]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                if requests.get(self.base + "/static/css/trainer.css", timeout=5).status_code == 200:
                    return
            except requests.RequestException:
                time.sleep(0.1)
        raise RuntimeError(f"the server did not start; see {self.log}")

    def kill(self) -> None:
        """SIGKILL to the master and every worker at once: a crash, not a shutdown."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.kill()


@dataclass
class Tally:
    requests: int = 0
    server_errors: int = 0
    refused: dict[int, int] = field(default_factory=dict)  # 4xx other than expected, by status
    unreachable: int = 0  # connection refused or reset (a crashed server)
    new_ms: list[float] = field(default_factory=list)
    answer_ms: list[float] = field(default_factory=list)
    static_ms: list[float] = field(default_factory=list)
    acknowledged: list[int] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, response: requests.Response, expected: tuple[int, ...]) -> None:
        with self.lock:
            self.requests += 1
            if response.status_code >= 500:
                self.server_errors += 1
            elif response.status_code not in expected:
                self.refused[response.status_code] = self.refused.get(response.status_code, 0) + 1


Reply = requests.Response | None


class Trainee(threading.Thread):
    """One trainee: a name, then `answers` drills, each created and answered, with a pause to think."""

    def __init__(self, n: int, base: str, kinds: list[str], args: argparse.Namespace, tally: Tally) -> None:
        super().__init__(daemon=True)
        self.n, self.base, self.kinds, self.args, self.tally = n, base, kinds, args, tally
        self.rng = random.Random(n)
        self.http = requests.Session()
        self.use_pages = n % 2 == 0

    def call(
        self, method: str, path: str, expected: tuple[int, ...], **kwargs: object
    ) -> requests.Response | None:
        """One request; None when the server cannot be reached (it crashed): the trainee waits, retries."""
        for _attempt in range(200):
            try:
                response = self.http.request(
                    method, self.base + path, allow_redirects=False, timeout=60, **kwargs
                )
            except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError):
                # No server, or a response cut off by its crash: wait and send again.
                with self.tally.lock:
                    self.tally.unreachable += 1
                time.sleep(0.25)
                continue
            self.tally.record(response, expected)
            return response
        return None

    def think(self) -> None:
        time.sleep(self.rng.uniform(0.5, 1.5) * self.args.think)

    def run(self) -> None:
        account = {"username": f"trainee{self.n:03d}", "password": f"class password {self.n:03d}"}
        if self.use_pages:
            page = self.call("GET", "/account/sign-up", (200,))
            token = CSRF.search(page.text).group(1) if page is not None else ""
            form = {**account, "confirm": account["password"], "csrf_token": token}
            self.call("POST", "/account/sign-up", (302,), data=form)
        else:
            self.call("POST", "/api/v1/users", (201,), json=account)
            issued = self.call("POST", "/api/v1/tokens", (201,), json={**account, "label": "bench"})
            if issued is not None and issued.status_code == 201:
                self.http.headers["Authorization"] = f"Bearer {issued.json()['token']}"
        for i in range(self.args.answers):
            kind = self.kinds[(self.n + i) % len(self.kinds)]
            self.think()
            if self.use_pages:
                self.page_round(kind)
            else:
                self.api_round(kind)

    def timed(self, target: list[float], method: str, path: str, expected: tuple[int, ...], **kw: object):
        start = time.perf_counter()
        response = self.call(method, path, expected, **kw)
        if response is not None and response.status_code in expected:
            with self.tally.lock:
                target.append((time.perf_counter() - start) * 1000)
        return response

    def page_round(self, kind: str) -> None:
        start = self.call("GET", f"/practice/{kind}?level=1", (200,))
        if start is None or start.status_code != 200:
            return
        token = CSRF.search(start.text).group(1)
        new = self.timed(
            self.tally.new_ms, "POST", f"/practice/{kind}", (303,), data={"level": "1", "csrf_token": token}
        )
        if new is None or new.status_code != 303:
            return
        drill_path = new.headers["Location"]
        drill_id = int(drill_path.rsplit("/", 1)[1])
        page = self.call("GET", drill_path, (200,))
        if page is None or page.status_code != 200:
            return
        choice = CHOICE.search(page.text)
        answer = choice.group(1) if choice else str(self.rng.randint(0, 500))
        self.think()
        form = {"drill": str(drill_id), "answer": answer, "csrf_token": CSRF.search(page.text).group(1)}
        done = self.timed(self.tally.answer_ms, "POST", drill_path, (302,), data=form)
        if done is not None and done.status_code == 302:
            with self.tally.lock:
                self.tally.acknowledged.append(drill_id)

    def api_round(self, kind: str) -> None:
        new = self.timed(self.tally.new_ms, "POST", "/api/v1/drills", (201,), json={"kind": kind, "level": 1})
        if new is None or new.status_code != 201:
            return
        drill = new.json()
        choices = drill["answer_format"]["choices"]
        answer = self.rng.choice(choices)["value"] if choices else str(self.rng.randint(0, 500))
        self.think()
        done = self.timed(self.tally.answer_ms, "POST", drill["answer_url"], (200,), json={"answer": answer})
        if done is not None and done.status_code == 200:
            with self.tally.lock:
                self.tally.acknowledged.append(drill["id"])


def slow_clients(port: int, count: int) -> list[socket.socket]:
    """Connections that send half a request and then nothing, held open for the whole run: with
    gunicorn's sync workers two of these stalled every other request; threaded workers must not."""
    held = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", port), timeout=10)
        connection.sendall(
            b"POST /api/v1/drills HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b'Content-Length: 400\r\n\r\n{"kind": '
        )
        held.append(connection)
    return held


def static_reference(base: str, tally: Tally, stop: threading.Event, pause: float) -> None:
    """A request that costs the app nothing, fetched throughout the run: the reference latency."""
    http = requests.Session()
    while not stop.is_set():
        start = time.perf_counter()
        try:
            response = http.get(base + "/static/css/trainer.css", timeout=60)
        except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError):
            time.sleep(0.25)
            continue
        if response.status_code == 200:
            with tally.lock:
                tally.static_ms.append((time.perf_counter() - start) * 1000)
        time.sleep(pause)


def p95(values: list[float]) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=20, method="inclusive")[18]


def p50(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def check_store(database: Path, acknowledged: list[int]) -> dict[str, object]:
    """Stored answers, acknowledged answers missing (lost) or stored twice (doubled), integrity."""
    db = sqlite3.connect(database)
    try:
        stored = dict(db.execute("SELECT drill_id, count(*) FROM attempts GROUP BY drill_id"))
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        db.close()
    return {
        "stored": sum(stored.values()),
        "lost": sum(1 for drill_id in set(acknowledged) if drill_id not in stored),
        "doubled": sum(1 for count in stored.values() if count > 1),
        "integrity": integrity,
    }


def run_class(args: argparse.Namespace, server: Server, during=None) -> tuple[Tally, float]:
    """Start the trainees (and the static reference), optionally call `during(server)` meanwhile, wait."""
    tally = Tally()
    kinds = usable_kinds(server.base)
    stop = threading.Event()
    reference = threading.Thread(target=static_reference, args=(server.base, tally, stop, 0.2), daemon=True)
    trainees = [Trainee(n, server.base, kinds, args, tally) for n in range(args.trainees)]
    held = slow_clients(server.port, args.slow_clients)
    started = time.monotonic()
    reference.start()
    for trainee in trainees:
        trainee.start()
    if during is not None:
        during(server, trainees)
    for trainee in trainees:
        trainee.join()
    stop.set()
    reference.join()
    for connection in held:
        connection.close()
    return tally, time.monotonic() - started


def lock_report(profile: Path, top: int = 8) -> list[str]:
    """What held the write lock, from `--lock-profile`'s lines: per store function and view, the
    transactions, the lock held in all and per transaction (mean, p95, max), and the waits for it."""
    held: dict[str, list[float]] = {}
    waits: list[float] = []
    timed = set()
    for line in profile.read_text().splitlines():
        if line.startswith("# "):
            timed.add(line.split("\t", 1)[1])
            continue
        took, waited, store, view = line.split("\t")
        held.setdefault(f"{store} (from {view})", []).append(float(took))
        waits.append(float(waited))
    if not waits:
        return ["locks: no write transaction"]
    every = [value for values in held.values() for value in values]
    lines = [
        f"locks: timed in {', '.join(sorted(timed))}",
        f"locks: {len(every)} write transactions held the lock {sum(every) / 1000:.1f} s in all; "
        f"waits for it p50 {p50(waits):.0f} ms, p95 {p95(waits):.0f} ms, max {max(waits):.0f} ms",
    ]
    for name, values in sorted(held.items(), key=lambda item: -sum(item[1]))[:top]:
        lines.append(
            f"  {name}: {len(values)}, {sum(values) / 1000:.1f} s in all, "
            f"mean {statistics.fmean(values):.1f} ms, p95 {p95(values):.1f} ms, max {max(values):.0f} ms"
        )
    return lines


def describe(args: argparse.Namespace, server: Server, load_before: tuple[float, float, float]) -> None:
    """How the server ran and how loaded the machine was (other programs share its cores)."""
    print(f"server: {server.name}; database {server.database}")
    after = os.getloadavg()[0]
    print(f"machine: {os.cpu_count()} cores, load average {load_before[0]:.1f} before, {after:.1f} after")


def arguments(description: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--trainees", type=int, default=50, help="simulated trainees (default 50)")
    parser.add_argument("--answers", type=int, default=10, help="drills each trainee answers (default 10)")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between actions (default 1)")
    parser.add_argument("--workers", type=int, default=2, help="server worker processes (default 2)")
    parser.add_argument("--threads", type=int, default=8, help="threads per worker (default 8)")
    parser.add_argument(
        "--slow-clients", type=int, default=2, help="half-sent requests held open all along (default 2)"
    )
    parser.add_argument(
        "--lock-profile",
        action="store_true",
        help="time every write transaction in the server and print what held the lock longest",
    )
    return parser


def one_run(args: argparse.Namespace, *, dev: bool) -> bool:
    """The class against one server on a fresh database; prints the figures, True when all is well."""
    folder = Path(tempfile.mkdtemp(prefix="trainer-load-"))
    profile = folder / "locks.tsv" if args.lock_profile else None
    server = Server(
        folder / "class.sqlite",
        free_port(),
        args.workers,
        args.threads,
        folder / "server.log",
        dev=dev,
        lock_profile=profile,
    )
    load_before = os.getloadavg()
    server.start()
    try:
        tally, seconds = run_class(args, server)
    finally:
        server.stop()
    checked = check_store(server.database, tally.acknowledged)
    new, answer, static = p95(tally.new_ms), p95(tally.answer_ms), p95(tally.static_ms)
    describe(args, server, load_before)
    print(
        f"run: {seconds:.1f} s, {tally.requests / seconds:.1f} requests/s, think time {args.think} s, "
        f"{args.slow_clients} slow clients holding half-sent requests open throughout"
    )
    print(f"other 4xx: {tally.refused or 'none'}; integrity_check: {checked['integrity']}")
    print(
        f"latency: new p50 {p50(tally.new_ms):.0f} ms, p95 {new:.0f} ms ({len(tally.new_ms)}); "
        f"answer p50 {p50(tally.answer_ms):.0f} ms, p95 {answer:.0f} ms ({len(tally.answer_ms)}); "
        f"static file p50 {p50(tally.static_ms):.1f} ms, p95 {static:.1f} ms ({len(tally.static_ms)})"
    )
    print(f"reference: p95 new / static {new / static:.1f}x, answer / static {answer / static:.1f}x")
    if profile is not None:
        print("\n".join(lock_report(profile)))
    failed = tally.server_errors or checked["lost"] or checked["doubled"] or checked["integrity"] != "ok"
    if failed:
        print(f"kept for a look: {folder}")  # with the server's log; the summary stays the last line
    else:
        shutil.rmtree(folder)
    print(
        f"{'dev' if dev else 'load'}: {args.trainees} trainees, {tally.requests} requests, "
        f"{tally.server_errors} server errors, "
        f"{len(tally.acknowledged)} answers acknowledged, {checked['stored']} stored, "
        f"{checked['lost']} lost, {checked['doubled']} doubled, p95 new {new:.0f} ms, "
        f"p95 answer {answer:.0f} ms",
        flush=True,
    )
    return not failed


def main() -> int:
    parser = arguments(__doc__.split("\n\n")[0])
    parser.add_argument(
        "--dev-server",
        action="store_true",
        help="first run the same class against Flask's development server, as the reference",
    )
    args = parser.parse_args()
    if args.dev_server:
        one_run(args, dev=True)  # the reference: its failures do not fail the bench
        print()
    return 0 if one_run(args, dev=False) else 1


if __name__ == "__main__":
    sys.exit(main())
