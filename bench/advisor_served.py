"""The advisor in a served process: a fresh process's first questions, the production server, the
best-only path and a new buy-decision drill, each beside its reference in the same run.

    python3 bench/advisor_served.py [--rounds 3] [--hands 30] [--drills 60] [--seed 1] [--no-server]
                                    [--kernel-only] [--drills-only]

0. The kernel in a fresh process (`--rounds` of each, interleaved): the time until it is ready, the
   module setup.py built at install found and loaded (`kernel.available()`); the reference is what
   the first request paid before the build moved to the install: compiling kernel.c with the same
   flags (`cc -O3 -pthread -shared -fPIC`, `-march=x86-64-v3` where the processor has it).

1. Fresh processes (a new Python each, `--rounds` of each, interleaved): the first advisor question,
   one new question for each of the 13 up-card ranks (each rank's tables) and then the median new
   question; and the process's memory (RSS, and what is its own: private pages). The reference is a
   process that builds its tables itself on first use (`TRAINER_ADVISOR_TABLES=off`, as before the
   table files); beside it a process that calls `strategy.warm()` first (tables read from the files).
2. The production server (`python3 -m trainer serve`, 2 workers, fresh database; `serve` warms the
   advisor before the workers fork): the first `POST /api/v1/advisor` after start, then `--hands` new
   hands over HTTP, beside the same hands answered in this process; each worker's private memory.
3. In this process, on `--hands` random CIS hands each asked fresh: `best_options()` (exact values
   only for the exchanges whose kernel bounds reach the best so far) beside the ties of `options()`
   (every option valued, the reference: what `best_options` answered from before the kernel's
   bounds); and `--drills` new `rp.decision` drills (caches cleared before each) the same two ways,
   with the advisor questions a drill asks. `--drills-only` runs this part alone.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from trainer.engine.cards import CARD_BY_INDEX  # noqa: E402

FRESH = r"""
import json, random, sys, time
t0 = time.perf_counter()
from trainer.engine.russian_poker import strategy
from trainer.engine.cards import CARD_BY_INDEX
imported = time.perf_counter() - t0
warm = None
if sys.argv[1] == "warm":
    t = time.perf_counter(); strategy.warm(); warm = time.perf_counter() - t
rng = random.Random(int(sys.argv[2]))
def hand(up_rank):
    up = CARD_BY_INDEX[4 * up_rank + rng.randrange(4)]
    rest = [c for c in CARD_BY_INDEX if c != up]
    return [str(c) for c in rng.sample(rest, 5)], str(up)
def ask(player, up):
    t = time.perf_counter(); strategy.options(player, up, rules="cis"); return time.perf_counter() - t
first = ask(*hand(12))
ranks = [ask(*hand(r)) for r in range(12)]  # the other up-card ranks, each new to this process
later = [ask(*hand(rng.randrange(13))) for _ in range(int(sys.argv[3]))]
mem = {}
for line in open("/proc/self/smaps_rollup"):
    key, _, value = line.partition(":")
    if key in ("Rss", "Pss", "Private_Clean", "Private_Dirty"):
        mem[key] = int(value.split()[0]) / 1024
print(json.dumps(dict(import_=imported, warm=warm, first=first, ranks=ranks, later=later, mem=mem)))
"""


def quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def ms(x: float) -> str:
    return f"{1000 * x:7.1f} ms"


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.1f} {five:.1f} {fifteen:.1f}"


def fresh(rounds: int, seed: int, later: int) -> None:
    print(f"1. Fresh processes, {rounds} rounds, interleaved (load {load()}):")
    modes = {"reference: tables built on first use": "cold", "strategy.warm() from the table files": "warm"}
    results: dict[str, list[dict[str, object]]] = {name: [] for name in modes}
    for r in range(rounds):
        for name, mode in modes.items():
            env = dict(os.environ)
            if mode == "cold":
                env["TRAINER_ADVISOR_TABLES"] = "off"
            out = subprocess.run(
                [sys.executable, "-c", FRESH, mode, str(seed + r), str(later)],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            results[name].append(json.loads(out.stdout))
    for name, runs in results.items():
        warm = [x["warm"] for x in runs if x["warm"] is not None]
        first = [x["first"] for x in runs]
        ranks = [sum(x["ranks"]) for x in runs]
        later_all = [t for x in runs for t in x["later"]]
        rss = statistics.median(x["mem"]["Rss"] for x in runs)
        own = statistics.median(x["mem"]["Private_Dirty"] for x in runs)
        print(f"  {name}")
        print(
            f"    warm {ms(statistics.median(warm)) if warm else '      -   '}  first question "
            f"{ms(statistics.median(first))}  the other 12 up-card ranks {ms(statistics.median(ranks))} "
            f"in all, then a new question median {ms(statistics.median(later_all))} "
            f"p90 {ms(quantile(later_all, 0.9))}"
        )
        print(
            f"    memory after: RSS {rss:.0f} MiB, of it written by the process (private dirty) {own:.0f} MiB"
            " (the rest: file pages, the tables among them, shared with any process that maps them)"
        )


KERNEL_READY = r"""
import json, time
t0 = time.perf_counter()
from trainer.engine.russian_poker.strategy import kernel
t = time.perf_counter(); ready = kernel.available(); seconds = time.perf_counter() - t
print(json.dumps(dict(seconds=seconds, ready=ready, module=kernel._library()._name if ready else None)))
"""


def kernel_ready(rounds: int) -> None:
    import shutil

    from trainer.engine.russian_poker.strategy import kernel

    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    flags = ["-O3", "-pthread", "-shared", "-fPIC"]
    if kernel.modules()[0] == kernel.V3:
        flags.insert(0, "-march=x86-64-v3")
    loaded: list[float] = []
    compiled: list[float] = []
    module = None
    print(f"0. The kernel in a fresh process, {rounds} rounds, interleaved (load {load()}):")
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(rounds):
            out = subprocess.run(
                [sys.executable, "-c", KERNEL_READY], cwd=ROOT, capture_output=True, text=True, check=True
            )
            got = json.loads(out.stdout)
            if not got["ready"]:
                print("  no built kernel module: install with `python3 -m pip install -e .` first")
                return
            loaded.append(got["seconds"])
            module = got["module"]
            if compiler:
                t = time.perf_counter()
                target = str(Path(tmp) / "rp_kernel.so")
                subprocess.run([compiler, *flags, "-o", target, str(kernel.SOURCE)], check=True)
                compiled.append(time.perf_counter() - t)
    print(f"  the built module loaded ({Path(module or '').name}): median {ms(statistics.median(loaded))}")
    if compiled:
        print(
            f"  reference, kernel.c compiled as the first request did ({' '.join(flags)}): "
            f"median {ms(statistics.median(compiled))}"
        )


def deal(rng: random.Random) -> tuple[list[str], str]:
    cards = [str(CARD_BY_INDEX[i]) for i in rng.sample(range(52), 6)]
    return cards[:5], cards[5]


def served(hands: int, seed: int) -> None:
    import requests
    from load import Server, free_port

    from trainer.engine.russian_poker import strategy

    strategy.warm()
    rng = random.Random(seed)
    asked = [deal(rng) for _ in range(hands + 1)]
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "bench.sqlite", free_port(), 2, 8, Path(tmp) / "server.log")
        t0 = time.perf_counter()
        server.start()
        up = time.perf_counter() - t0
        try:
            http: list[float] = []
            for player, card in asked:
                t = time.perf_counter()
                reply = requests.post(
                    server.base + "/api/v1/advisor",
                    json={"player": player, "upcard": card, "rules": "cis"},
                    timeout=60,
                )
                http.append(time.perf_counter() - t)
                reply.raise_for_status()
            workers = _children(server.process.pid if server.process else 0)
            private = [_private(pid) for pid in workers]
        finally:
            server.stop()
    local = []
    for player, card in asked[1:]:
        strategy.clear_cache()
        t = time.perf_counter()
        strategy.options(player, card, rules="cis")
        local.append(time.perf_counter() - t)
    print(f"2. The production server, 2 workers (load {load()}): up in {up:.1f} s")
    print(
        f"  first POST /api/v1/advisor {ms(http[0])}; {hands} new hands over HTTP median "
        f"{ms(statistics.median(http[1:]))} p90 {ms(quantile(http[1:], 0.9))}"
    )
    print(
        f"  reference, the same hands in this process: median {ms(statistics.median(local))} "
        f"p90 {ms(quantile(local, 0.9))}"
    )
    print("  each worker's private memory (its own pages): " + ", ".join(f"{p:.0f} MiB" for p in private))


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


def _private(pid: int) -> float:
    total = 0.0
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("Private_Clean", "Private_Dirty"):
            total += int(value.split()[0]) / 1024
    return total


def in_process(hands: int, drills: int, seed: int) -> None:
    import trainer.drills.russian_poker.decision as decision
    from trainer.drills.base import issue
    from trainer.engine.russian_poker import strategy
    from trainer.engine.russian_poker.rules import load_rules

    strategy.warm()
    rules = load_rules("cis")

    def every_option(player, upcard, *, rules=None, ante=1, bonus=0):  # the reference
        found = strategy.options(player, upcard, rules=rules, ante=ante, bonus=bonus)
        return [o for o in found if o.equivalent]

    rng = random.Random(seed)
    names = ("reference: ties of options()", "best_options()")
    times: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(hands):
        player, up = deal(rng)
        for name, ask in zip(names, (every_option, strategy.best_options), strict=True):
            strategy.clear_cache()
            t = time.perf_counter()
            ask(player, up, rules=rules)
            times[name].append(time.perf_counter() - t)
    print(f"3. In this process, {hands} random CIS hands, each asked fresh (load {load()}):")
    for name, xs in times.items():
        print(f"  {name:<30} median {ms(statistics.median(xs))}  p90 {ms(quantile(xs, 0.9))}")
    ratio = statistics.median(times[names[0]]) / statistics.median(times[names[1]])
    print(f"  ties of options() / best_options(): {ratio:.2f}x at the median")
    drill: dict[str, list[float]] = {"reference: ties of options()": [], "rp.decision, best_options()": []}
    calls: list[int] = []
    for n in range(drills):
        level = 1 + n % 3
        for name, best in zip(drill, (every_option, strategy.best_options), strict=True):
            asked: list[int] = []

            def counted(*args, best=best, asked=asked, **kwargs):
                asked.append(1)
                return best(*args, **kwargs)

            decision.best_options = counted
            decision._best.cache_clear()
            strategy.clear_cache()
            t = time.perf_counter()
            issue("rp.decision", level, seed=seed * 1000 + n)
            drill[name].append(time.perf_counter() - t)
        calls.append(len(asked))
    decision.best_options = strategy.best_options
    decision._best.cache_clear()
    print(
        f"  {drills} new buy-decision drills (levels 1-3 in turn, caches cleared, load {load()}; "
        f"advisor questions a drill: {min(calls)} to {max(calls)}, mean {statistics.mean(calls):.2f}):"
    )
    for name, xs in drill.items():
        print(f"  {name:<30} median {ms(statistics.median(xs))}  p90 {ms(quantile(xs, 0.9))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--drills", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-server", action="store_true", help="skip the production server")
    parser.add_argument("--kernel-only", action="store_true", help="only part 0, the kernel's readiness")
    parser.add_argument("--drills-only", action="store_true", help="only part 3, in this process")
    args = parser.parse_args()
    if min(args.rounds, args.hands, args.drills) < 1:
        parser.error("--rounds, --hands and --drills must be at least 1")
    if args.drills_only:
        in_process(args.hands, args.drills, args.seed)
        return
    kernel_ready(args.rounds)
    if args.kernel_only:
        return
    fresh(args.rounds, args.seed, args.hands)
    if not args.no_server:
        served(args.hands, args.seed)
    in_process(args.hands, args.drills, args.seed)


if __name__ == "__main__":
    main()
