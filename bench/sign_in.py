"""Sign-in figures with the production hasher (argon2id, OWASP's parameters), in one process:

- the time of a wrong password for an existing account beside that of an unknown username, through
  the app (tries interleaved, so the machine's load falls on both alike): they should be the same;
- how long the write lock is held by a password change and by the upgrade of an old hash at sign-in
  (from BEGIN IMMEDIATE to COMMIT, read from SQLite's statement trace), beside one hash's time.

Run: python3 bench/sign_in.py [--tries 60]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from argon2 import PasswordHasher

from trainer.store import open_db
from trainer.store.accounts import FAST_HASHER, HASHER, Accounts
from trainer.web import create_app


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return f"median {statistics.median(ordered) * 1000:6.1f} ms, p90 {p90 * 1000:6.1f} ms"


def timing(folder: Path, tries: int) -> None:
    app = create_app({"DATABASE": str(folder / "timing.sqlite"), "SECRET_KEY": "bench", "TESTING": True})
    app.config["WTF_CSRF_ENABLED"] = False
    runner = app.test_cli_runner()
    result = runner.invoke(args=["user", "add", "trainee.one"], env={"TRAINER_PASSWORD": "a long secret"})
    assert result.exit_code == 0, result.output
    client = app.test_client()
    samples: dict[str, list[float]] = {"wrong password": [], "unknown username": []}
    for i in range(tries + 3):
        for kind, username in (("wrong password", "trainee.one"), ("unknown username", f"nobody{i}")):
            started = time.perf_counter()
            response = client.post("/account/sign-in", data={"username": username, "password": "not it"})
            elapsed = time.perf_counter() - started
            assert response.status_code == 401, response.status_code
            if i >= 3:
                samples[kind].append(elapsed)
    for kind, values in samples.items():
        print(f"  {kind:17} {_ms(values)}  ({len(values)} tries)")
    ratio = statistics.median(samples["unknown username"]) / statistics.median(samples["wrong password"])
    print(f"  unknown / wrong   {ratio:.2f}")


def lock_hold(folder: Path, tries: int) -> None:
    db = open_db(folder / "lock.sqlite")
    marks: list[tuple[str, float]] = []
    db.conn.set_trace_callback(lambda statement: marks.append((statement, time.perf_counter())))
    accounts = Accounts(db, hasher=HASHER)
    user = Accounts(db, hasher=FAST_HASHER).sign_up("trainee.one", "a long secret")

    def held() -> float:
        begin = next(t for s, t in marks if s.startswith("BEGIN IMMEDIATE"))
        commit = next(t for s, t in reversed(marks) if s.startswith("COMMIT"))
        return commit - begin

    hashes, changes, upgrades = [], [], []
    for i in range(max(tries // 4, 5)):
        started = time.perf_counter()
        HASHER.hash("a long secret")
        hashes.append(time.perf_counter() - started)
        marks.clear()
        accounts.set_password(user["id"], f"another long secret {i}")
        changes.append(held())
        Accounts(db, hasher=PasswordHasher(time_cost=1, memory_cost=8192)).set_password(
            user["id"], "the old long secret"
        )
        marks.clear()
        assert accounts.check_password("trainee.one", "the old long secret") is not None  # upgraded here
        upgrades.append(held())
    print(f"  one argon2id hash         {_ms(hashes)}")
    print(f"  lock held, new password   {_ms(changes)}")
    print(f"  lock held, hash upgrade   {_ms(upgrades)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tries", type=int, default=60, help="tries of each kind (default 60)")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="trainer-sign-in-") as folder:
        print("Sign-in through the app (production hasher):")
        timing(Path(folder), args.tries)
        print("Write lock (BEGIN IMMEDIATE to COMMIT):")
        lock_hold(Path(folder), args.tries)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
