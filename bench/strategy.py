"""Benchmark and figures of the exact buy-decision advisor (`trainer.engine.russian_poker.strategy`).

    python3 bench/strategy.py [--hands 200] [--rules cis] [--seed 1]
        Speed: `options()` (every option, exact) beside today's solver (bench/reference_strategy, the
        reference) on the same random hands in the same run, both distributions and their ratios; then
        a repeated question answered from the cache, by the engine, `POST /api/v1/advisor` and the page.
    python3 bench/strategy.py --rules-of-thumb NAME [--per-class 150] [--seed 1]
        Rules of thumb (bench/rules_of_thumb.py) with each one's exact cost against best play; stored
        in data/advisor/rules-of-thumb.json for the advisor page.
    python3 bench/strategy.py --house-edge NAME [--deals 40000] [--seed 1]
        The house's edge under best play: the mean over random deals of the exact value of the best
        option (`best_options`), with its 95% interval, the time taken and the machine's load, and the
        share of deals where each action is best, stored in data/advisor/house-edge.json for the advisor
        page. For `caribbean` also the three simple strategies' edges beside Shackleford's figures.

Static tables (per up-card rank) are built before timing, for both solvers.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

# This checkout's trainer (not whichever one is installed), and the reference solver beside this file.
sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).resolve().parent)]

from trainer.engine.cards import CARD_BY_INDEX  # noqa: E402
from trainer.engine.russian_poker.hands import evaluate  # noqa: E402
from trainer.engine.russian_poker.rules import Category, load_rules  # noqa: E402
from trainer.engine.russian_poker.strategy import Action, best_options, clear_cache, kernel, options  # noqa: E402
from trainer.engine.russian_poker.strategy.buying import no_game_tables  # noqa: E402
from trainer.engine.russian_poker.strategy.counting import up_tables  # noqa: E402
from trainer.engine.russian_poker.strategy.payoffs import Payoffs  # noqa: E402
from trainer.engine.russian_poker.strategy.solver import Context, Valuation, draw_classes  # noqa: E402

# Shackleford, "Caribbean Stud Poker", Contingencies, Nov/Dec 2000 (house edge per ante).
PUBLISHED = {"optimal": 5.224, "pair or better": 5.47, "ace-king or better": 5.68, "always": 16.61}


def warm() -> None:
    kernel.available()  # compiles the draw kernel on a first run
    for k in range(6):
        draw_classes(k)
    for r in range(13):
        up_tables(r)
        no_game_tables(r, True)
        no_game_tables(r, False)


def deal(rng: random.Random) -> tuple[list[str], str]:
    cards = [str(CARD_BY_INDEX[i]) for i in rng.sample(range(52), 6)]
    return cards[:5], cards[5]


def quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def describe(name: str, xs: list[float]) -> str:
    return (
        f"{name:<10} min {min(xs):7.3f}  median {statistics.median(xs):7.3f}  p90 {quantile(xs, 0.9):7.3f}  "
        f"p99 {quantile(xs, 0.99):7.3f}  max {max(xs):7.3f} s"
    )


def speed(hands: int, rules_name: str, seed: int) -> None:
    import reference_strategy

    rules = load_rules(rules_name)
    warm()
    reference_strategy.options("Qh 9h 6h 3h 2c", "Ad", rules=rules)  # its caches too
    rng = random.Random(seed)
    new: list[float] = []
    old: list[float] = []
    for _ in range(hands):
        player, up = deal(rng)
        clear_cache()
        t0 = time.perf_counter()
        options(player, up, rules=rules)
        t1 = time.perf_counter()
        reference_strategy.options(player, up, rules=rules)
        t2 = time.perf_counter()
        new.append(t1 - t0)
        old.append(t2 - t1)
    print(f"options() on the same {hands} random hands, house {rules_name}, one run (load {_load()}):")
    print(describe("exact", new))
    print(describe("reference", old))
    print(
        f"reference / exact: median {statistics.median(old) / statistics.median(new):.2f}x, "
        f"99th percentile {quantile(old, 0.99) / quantile(new, 0.99):.2f}x"
    )
    cached(rules_name, rng)


def cached(rules_name: str, rng: random.Random) -> None:
    from trainer.web import create_app

    player, up = deal(rng)
    options(player, up, rules=rules_name)  # first time: valued
    engine = []
    for _ in range(50):
        t0 = time.perf_counter()
        options(player, up, rules=rules_name)
        engine.append(time.perf_counter() - t0)
    app = create_app({"TESTING": True, "DATABASE": ":memory:", "SECRET_KEY": "bench"})
    client = app.test_client()
    api, page = [], []
    query = "&".join(f"player={c}" for c in player) + f"&upcard={up}&rules={rules_name}"
    for _ in range(50):
        t0 = time.perf_counter()
        client.post("/api/v1/advisor", json={"player": player, "upcard": up, "rules": rules_name})
        t1 = time.perf_counter()
        client.get(f"/reference/advisor?{query}")
        t2 = time.perf_counter()
        api.append(t1 - t0)
        page.append(t2 - t1)
    print(
        f"A repeated question (cache): engine median {1000 * statistics.median(engine):.2f} ms, "
        f"POST /api/v1/advisor median {1000 * statistics.median(api):.2f} ms, "
        f"advisor page median {1000 * statistics.median(page):.2f} ms"
    )


def _load() -> str:
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:
        return "unknown"
    return f"{one:.1f} {five:.1f} {fifteen:.1f}"


def house_edge(name: str, deals: int, seed: int) -> None:
    rules = load_rules(name)
    warm()
    rng = random.Random(seed)
    values: list[float] = []
    best_actions: Counter[str] = Counter()
    simple: dict[str, list[float]] = {k: [] for k in ("pair or better", "ace-king or better", "always")}
    load_before = _load()
    t0 = time.perf_counter()
    pay = Payoffs.of(rules)
    for i in range(deals):
        player, up = deal(rng)
        best = best_options(player, up, rules=rules)
        values.append(best[0].ev)
        for o in best:
            best_actions[_kind(o)] += 1 / len(best)
        if name == "caribbean":
            bet = _bet(player, up, pay)
            cat = evaluate(player).category
            simple["always"].append(bet)
            simple["ace-king or better"].append(bet if cat is not Category.HIGH_CARD else -1.0)
            simple["pair or better"].append(
                bet if cat not in (Category.HIGH_CARD, Category.ACE_KING) else -1.0
            )
        if (i + 1) % 1000 == 0:
            print(f"  {i + 1} deals, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    took = time.perf_counter() - t0
    print(f"House edge under best play, {rules.title} ({name}): {deals} random deals, seed {seed}")
    per = 1000 * took / deals
    print(f"  time {took:.0f} s ({per:.0f} ms a deal), load {load_before} before, {_load()} after")
    rows = [("optimal", values), *simple.items()] if name == "caribbean" else [("optimal", values)]
    for label, xs in rows:
        if not xs:
            continue
        mean = statistics.fmean(xs)
        half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
        published = f"  published {PUBLISHED[label]:.3f}%" if name == "caribbean" else ""
        print(
            f"  {label:<20} house edge {-100 * mean:6.3f}%   95% interval {-100 * (mean + half):6.3f}% .. "
            f"{-100 * (mean - half):6.3f}%{published}"
        )
    print("  share of deals where each action is best (ties split):")
    for kind, n in best_actions.most_common():
        print(f"    {kind:<16} {100 * n / deals:6.2f}%")
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    figure = {"edge": -mean, "low": -(mean + half), "high": -(mean - half), "deals": deals, "seed": seed}
    _store("house-edge", name, {**figure, "took_s": round(took)})


def _store(what: str, house: str, entry: dict[str, object]) -> None:
    """Keeps a house's computed figures in data/advisor/ (the advisor page shows them)."""
    import json

    from trainer.engine.presets import data_path
    from trainer.engine.russian_poker.strategy.summary import EDGE_FILE, SUMMARY_FILE

    path = data_path(*(EDGE_FILE if what == "house-edge" else SUMMARY_FILE))
    path.parent.mkdir(parents=True, exist_ok=True)
    stored = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {"houses": {}}
    option = "--house-edge" if what == "house-edge" else "--rules-of-thumb"
    stored["about"] = f"Computed by the bench: python3 bench/strategy.py {option} NAME"
    stored["houses"][house] = entry
    path.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"  stored in {path}")


def _kind(o: object) -> str:
    action = o.action  # type: ignore[attr-defined]
    if action is Action.EXCHANGE:
        return f"exchange {len(o.discard)}"  # type: ignore[attr-defined]
    return str(action.value)


def _bet(player: list[str], up: str, pay: Payoffs) -> float:
    from trainer.engine.cards import parse_cards

    hand = [c.index for c in parse_cards(player)]
    u = parse_cards([up])[0].index
    pool = tuple(i for i in range(52) if i not in hand and i != u)
    _fold, bet, _ins = Valuation(Context(u, pool, pay)).stand_now(hand)
    return float(bet * pay.unit / pay.ante)


def rules_of_thumb(name: str, per_class: int, seed: int) -> None:
    import rules_of_thumb as thumb

    from trainer.engine.russian_poker.strategy.summary import rule_steps

    warm()
    rules = load_rules(name)
    t0 = time.perf_counter()
    load_before = _load()
    summary = thumb.compute(rules, per_class, seed)
    took = time.perf_counter() - t0
    summary["took_s"] = round(took)
    summary["load"] = f"{load_before} before, {_load()} after"
    print(f"Rules of thumb for {rules.title} ({name}): {per_class} exact deals per hand class, seed {seed}")
    for rule in summary["rules"]:
        text, cost = rule_steps(rule)
        print(f"  {text}  {cost} (95% +/- {rule['cost_half']:.4f})")
    print(
        f"  All the rules together cost {summary['cost']:.4f} ante a hand against best play ({took:.0f} s)."
    )
    _store("rules-of-thumb", name, summary)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="random hands timed (speed)")
    parser.add_argument("--rules", default="cis", help="house for the speed comparison")
    parser.add_argument("--house-edge", metavar="NAME", help="a house's edge under best play")
    parser.add_argument("--deals", type=int, default=40000, help="random deals for --house-edge")
    parser.add_argument("--rules-of-thumb", metavar="NAME", help="rules of thumb and their costs")
    parser.add_argument("--per-class", type=int, default=150, help="sampled deals per hand class")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.hands < 1 or args.deals < 2 or args.per_class < 2:
        parser.error("--hands must be at least 1, --deals and --per-class at least 2")
    if args.rules_of_thumb:
        rules_of_thumb(args.rules_of_thumb, args.per_class, args.seed)
    elif args.house_edge:
        house_edge(args.house_edge, args.deals, args.seed)
    else:
        speed(args.hands, args.rules, args.seed)


if __name__ == "__main__":
    main()
