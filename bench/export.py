"""The group CSV export of 40,000 answers (20 trainees x 2,000, filled in bulk as `bench/pages.py`
does) through the test client: the time to its first streamed piece, to its last byte, and the peak
memory Python allocated meanwhile (tracemalloc), best of 3.

Run: python3 bench/export.py [--trainees 20] [--answers 2000]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pages

from trainer.store.schema import open_db


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--trainees", type=int, default=20)
    parser.add_argument("--answers", type=int, default=2000)
    args = parser.parse_args()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "export.sqlite"
        app = pages.make_app(path)
        instructor, client = pages.account(app, "export.instructor", "instructor")
        group_id = client.post("/api/v1/groups", json={"name": "Export"}).get_json()["id"]
        db = open_db(path, migrate=False)
        rng = random.Random(3)
        for member in pages.add_trainees(db, instructor + 1, args.trainees):
            pages.add_answers(db, rng, member, args.answers)
            # A membership and its period, as joining writes them: the export keeps what a member
            # did within his periods (without one it is the header alone).
            joined = pages._iso(pages.NOW - pages.timedelta(days=pages.DAYS))
            db["memberships"].insert({"group_id": group_id, "user_id": member, "joined_at": joined})
            db["membership_periods"].insert(
                {"group_id": group_id, "user_id": member, "joined_at": joined, "left_at": None}
            )
        url = f"/groups/{group_id}/attempts.csv"
        client.get(url).get_data()  # warm
        first = whole = float("inf")
        peak = size = 0
        for _ in range(3):
            tracemalloc.start()
            start = time.perf_counter()
            response = client.get(url, buffered=False)
            pieces = iter(response.response)
            size = len(next(pieces))
            got_first = time.perf_counter()
            size += sum(len(piece) for piece in pieces)
            done = time.perf_counter()
            peak = max(peak, tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
            response.close()
            first, whole = min(first, got_first - start), min(whole, done - start)
        db.conn.close()
    rows = args.trainees * args.answers
    assert size > 50 * rows, f"the export wrote {size:,} bytes for {rows:,} answers"
    print(
        f"export of {rows:,} answers ({size:,} bytes): first piece {1000 * first:.0f} ms,"
        f" whole {1000 * whole:.0f} ms, peak Python memory {peak / 1e6:.1f} MB"
        f" (load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end)"
    )


if __name__ == "__main__":
    main()
