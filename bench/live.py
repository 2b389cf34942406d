"""A live class answering at once: N phones (threads, each a signed-in client of the app in this process)
send their answer to the same question at the same moment, for each of Q questions, through the whole
Flask stack (the view, CSRF off, grading, the one write transaction) on a real database file; then
every phone polls the state once after the reveal. Beside it, the same threads asking the bare
`/health` at the same moment (the reference run, same process, same rounds). No network and no waitress:
what it measures is the app's and the database's share; the load average is printed beside.

Run: python3 bench/live.py [--phones 40] [--questions 5]
The last lines: `answers: N x Q sent, stored S, errors E; p50 .. p95 .. max .. ms` and `health: ...`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from trainer.drills.base import expected_of
from trainer.store.groups import Groups
from trainer.store.live import LiveSessions
from trainer.web import create_app
from trainer.web.core import db

KIND = "rp.bet_payout"
PASSWORD = "a long secret"


def _app(folder: str):
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(Path(folder) / "live.sqlite"),
            "SECRET_KEY": "bench",
            "WTF_CSRF_ENABLED": False,
            "FAST_PASSWORD_HASHING": True,
            "RATELIMIT_ENABLED": False,
        }
    )


def _user(app, name: str, role: str) -> int:
    result = app.test_cli_runner().invoke(
        args=["user", "add", name, "--role", role], env={"TRAINER_PASSWORD": PASSWORD}
    )
    assert result.exit_code == 0, result.output
    with app.app_context():
        return int(db.store().db.execute("SELECT id FROM users WHERE username = ?", [name]).fetchone()[0])


def _client(app, name: str):
    client = app.test_client()
    response = client.post("/account/sign-in", data={"username": name, "password": PASSWORD})
    assert response.status_code == 302, response.status_code
    return client


def _at_once(clients, action) -> tuple[list[float], list[int]]:
    """Each client does `action(i, client)` at the same moment (a barrier); latencies (ms), statuses."""
    barrier = threading.Barrier(len(clients))
    times, codes = [0.0] * len(clients), [0] * len(clients)

    def run(i: int, client) -> None:
        barrier.wait()
        start = time.perf_counter()
        codes[i] = action(i, client)
        times[i] = (time.perf_counter() - start) * 1000

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return times, codes


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--phones", type=int, default=40)
    parser.add_argument("--questions", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = _app(folder)
        teacher_id = _user(app, "teacher", "instructor")
        names = [f"phone{n}" for n in range(args.phones)]
        with app.app_context():
            groups = Groups(db.store().db)
            group = groups.create(teacher_id, "Bench class")
        ids = [_user(app, name, "trainee") for name in names]
        with app.app_context():
            for user_id in ids:
                Groups(db.store().db).add_member(group["id"], user_id)
        teacher = _client(app, "teacher")
        response = teacher.post(
            "/live/new",
            data={
                "group": group["id"],
                "kinds": [KIND],
                "level": 1,
                "questions": args.questions,
                "seconds": 90,
                "scoring": "fast",
            },
        )
        session_id = int(response.location.rstrip("/").split("/")[-2])
        with app.app_context():
            code = LiveSessions(db.store().db).session(session_id)["code"]
        phones = [_client(app, name) for name in names]
        for phone in phones:
            assert phone.post("/live/join", data={"code": code}).status_code == 303
        answer_ms: list[float] = []
        poll_ms: list[float] = []
        health_ms: list[float] = []
        bad: list[int] = []
        for n in range(args.questions):
            teacher.post(f"/live/{session_id}/control", data={"action": "start" if n == 0 else "next"})
            with app.app_context():
                question = LiveSessions(db.store().db).current(session_id)
            right = expected_of(question["situation"])[0]

            def send(i: int, client, qid=question["id"], right=right) -> int:
                answer = right if i % 4 else right + 5
                form = {"question": qid, "answer": answer}
                return client.post(f"/live/{session_id}/answer", data=form).status_code

            times, codes = _at_once(phones, send)
            answer_ms += times
            bad += [c for c in codes if c != 303]
            teacher.post(f"/live/{session_id}/control", data={"action": "reveal"})
            times, codes = _at_once(phones, lambda i, c: c.get(f"/live/{session_id}/state.json").status_code)
            poll_ms += times
            bad += [c for c in codes if c != 200]
            times, codes = _at_once(phones, lambda i, c: c.get("/health").status_code)
            health_ms += times
        with app.app_context():
            stored = db.store().db.execute("SELECT count(*) FROM live_answers").fetchone()[0]
            live_rows = "SELECT count(*) FROM attempts WHERE mode = 'live'"
            attempts = db.store().db.execute(live_rows).fetchone()[0]
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    sent = args.phones * args.questions
    print(f"cpus {os.cpu_count()}, load average {load}")
    print(
        f"answers: {args.phones} x {args.questions} sent, stored {stored} (attempts {attempts}), "
        f"errors {len(bad)}; p50 {statistics.median(answer_ms):.0f} p95 {_p95(answer_ms):.0f} "
        f"max {max(answer_ms):.0f} ms"
    )
    print(
        f"state after reveal: p50 {statistics.median(poll_ms):.0f} p95 {_p95(poll_ms):.0f} "
        f"max {max(poll_ms):.0f} ms"
    )
    print(
        f"health (reference): p50 {statistics.median(health_ms):.0f} p95 {_p95(health_ms):.0f} "
        f"max {max(health_ms):.0f} ms"
    )
    if stored != sent or bad:
        raise SystemExit(f"expected {sent} stored answers and no errors")


if __name__ == "__main__":
    main()
