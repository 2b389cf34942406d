"""Evaluator speed beside reference libraries, on the same hands in one run.

    python3 bench/evaluator.py            # full run (a few minutes: each figure is the best of 3)
    python3 bench/evaluator.py --quick    # a tenth of the hands, for a smoke test

Rows: every one of the 2,598,960 five-card hands; 200,000 random six-card hands (best 5 of 6);
100,000 random Omaha deals (4 hole + 5 board, exactly 2 + 3) for high and for hi/lo; and a full
10-player Omaha Hi/Lo showdown (side pots, halves, odd chips) through the public `showdown` API.

Each library is called through its fastest entry point for the job, on pre-converted cards, ours and
the peers taking turns in each round:
- ours: `strength5`, `strength6`, `omaha_strength` (+ `low_mask` for hi/lo) on card indexes;
- treys: `Evaluator._five` / `_six` on treys card ints; it has no Omaha evaluator, so Omaha is the
  best of its 60 two-plus-three `_five` calls, and the hi/lo low a plain Python 2 + 3 search;
- phevaluator (C, perfect-hash tables): its compiled `evaluate_5cards`, `evaluate_6cards` and
  `evaluate_omaha_cards` on its card ids (no hi/lo low: that row has no phevaluator figure);
- PokerKit (small sample only, it is slow): `StandardHighHand`, `StandardHighHand.from_game`,
  `OmahaHoldemHand.from_game`, `OmahaEightOrBetterLowHand.from_game_or_none`.
The script also checks that ours, treys and phevaluator rank the hands identically
(ours = 7463 - theirs).
Omaha high keeps a row per board's ranks between hands (`evaluator._BY_BOARD`): the best of 3 rounds
is with the rows built, and a line below the row gives the figure from an empty table.
Targets (issue 2 and 3): at least treys' speed on 5 and 6 cards, at least 4x treys on Omaha high,
a 10-player hi/lo showdown under 5 ms.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from trainer.engine import evaluator
from trainer.engine.cards import FULL_DECK, Deck
from trainer.engine.evaluator import omaha_strength, strength5, strength6
from trainer.engine.omaha import low_mask, showdown

try:
    from treys import Card as TreysCard
    from treys import Evaluator as TreysEvaluator
except ImportError:  # pragma: no cover - the bench extra installs it
    TreysEvaluator = None
try:
    # The C functions themselves (the package's Python wrappers convert every card on each call).
    from phevaluator import Card as PheCard
    from phevaluator.evaluator import _pheval as phe
except ImportError:  # pragma: no cover - the bench extra installs it
    phe = None
try:
    from pokerkit import OmahaEightOrBetterLowHand, OmahaHoldemHand, StandardHighHand
except ImportError:  # pragma: no cover
    StandardHighHand = None

HOLE_PAIRS = tuple(combinations(range(4), 2))
BOARD_TRIPLES = tuple(combinations(range(5), 3))


REPEAT = [3]


def race(*runs: Callable[[], object]) -> list[float]:
    """The best time of each run over several rounds, the runs taking turns in every round, so that a
    busy spell on a shared machine hits ours and the reference alike."""
    best = [float("inf")] * len(runs)
    for _ in range(REPEAT[0]):
        for i, run in enumerate(runs):
            start = time.perf_counter()
            run()
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def peers(times: list[float]) -> tuple[float, float | None, tuple[float, float] | None]:
    """Ours, treys' and phevaluator's times of one race (ours first, then the peers installed)."""
    ours, rest = times[0], list(times[1:])
    treys = rest.pop(0) if TreysEvaluator else None
    ph = (rest.pop(0), ours) if phe else None
    return ours, treys, ph


def timed(run: Callable[[], object]) -> float:
    return race(run)[0]


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:>12,.0f}" if seconds else f"{'-':>12}"


def treys_ints() -> list[int]:
    return [TreysCard.new(str(card)) for card in FULL_DECK]


def naive_low(hole: Sequence[int], board: Sequence[int]) -> tuple[int, ...] | None:
    """The reference low for the treys row: every 2 + 3, five different ranks all 8 or lower."""
    best = None
    low_rank = [1 if i // 4 == 12 else i // 4 + 2 for i in range(52)]
    for two in combinations(hole, 2):
        for three in combinations(board, 3):
            ranks = sorted((low_rank[i] for i in two + three), reverse=True)
            if ranks[0] <= 8 and len(set(ranks)) == 5:
                t = tuple(ranks)
                if best is None or t < best:
                    best = t
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the hands")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement, the best is kept")
    args = parser.parse_args()
    REPEAT[0] = max(1, args.repeat)
    scale = 10 if args.quick else 1
    rng = random.Random(args.seed)
    print(
        f"Python {platform.python_version()} on {platform.machine()}, seed {args.seed}, best of {REPEAT[0]};"
        f" load average {_load()} at the start"
    )
    print(
        f"{'hands':<30}{'count':>11}{'ours/s':>13}{'treys/s':>13}{'phevaluator/s':>14}{'PokerKit/s':>13}"
        f"{'ours/treys':>12}{'ours/phe':>10}"
    )
    rows: dict[str, float] = {}

    def row(
        name: str,
        count: int,
        ours: float,
        treys: float | None,
        kit: tuple[int, float] | None,
        ph: tuple[float, float] | None = None,
    ) -> None:
        """`ph`: phevaluator's time and ours in the rounds they took turns (as treys and ours do)."""
        kit_text = rate(*kit) if kit else f"{'-':>12}"
        ratio = treys / ours if treys else 0.0
        rows[name] = ratio
        treys_text = rate(count, treys) if treys else f"{'-':>12}"
        phe_text = rate(count, ph[0]) if ph else f"{'-':>12}"
        phe_ratio = f"{ph[0] / ph[1]:>9.2f}x" if ph else f"{'-':>10}"
        print(
            f"{name:<30}{count:>11,}{rate(count, ours)} {treys_text}  {phe_text} {kit_text}{ratio:>11.2f}x"
            f"{phe_ratio}"
        )

    tr = TreysEvaluator() if TreysEvaluator else None
    ti = treys_ints() if tr else []
    pi = [PheCard(str(card)).id_ for card in FULL_DECK] if phe else []

    # --- five cards: all of them (a tenth with --quick) ---
    fives = list(combinations(range(52), 5))[::scale]
    ours_run = lambda: [strength5(a, b, c, d, e) for a, b, c, d, e in fives]  # noqa: E731
    runs: list[Callable[[], object]] = [ours_run]
    if tr:
        five = tr._five
        hands = [[ti[a], ti[b], ti[c], ti[d], ti[e]] for a, b, c, d, e in fives]
        runs.append(lambda: [five(h) for h in hands])
        sample = fives[:: max(1, len(fives) // 50_000)]
        assert all(strength5(*h) == 7463 - five([ti[i] for i in h]) for h in sample), "5-card ranks differ"
    if phe:
        five_c = phe.evaluate_5cards
        phands = [(pi[a], pi[b], pi[c], pi[d], pi[e]) for a, b, c, d, e in fives]
        runs.append(lambda: [five_c(*h) for h in phands])
        assert all(strength5(*h) == 7463 - five_c(*[pi[i] for i in h]) for h in fives[::50]), (
            "5-card ranks differ"
        )
    ours, treys, ph = peers(race(*runs))
    kit = None
    if StandardHighHand:
        sample5 = [" ".join(str(FULL_DECK[i]) for i in h) for h in rng.sample(fives, 5_000 // scale)]
        kit = (len(sample5), timed(lambda: [StandardHighHand(h) for h in sample5]))
    row(
        "5 cards (every hand)" if scale == 1 else "5 cards (every 10th hand)",
        len(fives),
        ours,
        treys,
        kit,
        ph,
    )

    # --- six cards ---
    sixes = [tuple(rng.sample(range(52), 6)) for _ in range(200_000 // scale)]
    runs = [lambda: [strength6(*h) for h in sixes]]
    if tr:
        six = tr._six
        hands = [[ti[i] for i in h] for h in sixes]
        runs.append(lambda: [six(h) for h in hands])
        assert all(strength6(*h) == 7463 - six([ti[i] for i in h]) for h in sixes[:20_000]), (
            "6-card ranks differ"
        )
    if phe:
        six_c = phe.evaluate_6cards
        phands = [tuple(pi[i] for i in h) for h in sixes]
        runs.append(lambda: [six_c(*h) for h in phands])
        assert all(strength6(*h) == 7463 - six_c(*[pi[i] for i in h]) for h in sixes[:20_000]), "6 differ"
    ours, treys, ph = peers(race(*runs))
    kit = None
    if StandardHighHand:
        sample6 = [
            ("".join(str(FULL_DECK[i]) for i in h[:2]), "".join(str(FULL_DECK[i]) for i in h[2:]))
            for h in sixes[:2_000]
        ]
        kit = (len(sample6), timed(lambda: [StandardHighHand.from_game(a, b) for a, b in sample6]))
    row("6 cards (best 5 of 6)", len(sixes), ours, treys, kit, ph)

    # --- Omaha: 4 hole + 5 board ---
    deals = []
    for _ in range(100_000 // scale):
        nine = rng.sample(range(52), 9)
        deals.append((nine[:4], nine[4:]))
    runs = [lambda: [omaha_strength(h, b) for h, b in deals]]
    tdeals = [([ti[i] for i in h], [ti[i] for i in b]) for h, b in deals] if tr else []
    if tr:
        five = tr._five

        def treys_omaha(h: list[int], b: list[int]) -> int:
            return min(
                [five([h[i], h[j], b[k], b[m], b[n]]) for i, j in HOLE_PAIRS for k, m, n in BOARD_TRIPLES]
            )

        runs.append(lambda: [treys_omaha(h, b) for h, b in tdeals])
        assert all(
            omaha_strength(h, b) == 7463 - treys_omaha(th, tb)
            for (h, b), (th, tb) in zip(deals[:5_000], tdeals[:5_000], strict=True)
        ), "Omaha ranks differ"
    if phe:
        omaha_c = phe.evaluate_omaha_cards
        pdeals = [tuple(pi[i] for i in b) + tuple(pi[i] for i in h) for h, b in deals]  # board first
        runs.append(lambda: [omaha_c(*cards) for cards in pdeals])
        assert all(
            omaha_strength(h, b) == 7463 - omaha_c(*cards)
            for (h, b), cards in zip(deals[:20_000], pdeals[:20_000], strict=True)
        ), "Omaha ranks differ from phevaluator's"
    ours, treys_hi, ph = peers(race(*runs))
    kit_hi = kit_lo = None
    if StandardHighHand:
        sample_o = [
            ("".join(str(FULL_DECK[i]) for i in h), "".join(str(FULL_DECK[i]) for i in b))
            for h, b in deals[:300]
        ]
        kit_hi = (len(sample_o), timed(lambda: [OmahaHoldemHand.from_game(h, b) for h, b in sample_o]))
        kit_lo_time = timed(lambda: [OmahaEightOrBetterLowHand.from_game_or_none(h, b) for h, b in sample_o])
        kit_lo = (len(sample_o), kit_hi[1] + kit_lo_time)
    row("Omaha high (2 + 3)", len(deals), ours, treys_hi, kit_hi, ph)

    def omaha_cold() -> object:
        # The board rows (evaluator._BY_BOARD) are kept between hands: start each round without them.
        evaluator._BY_BOARD.clear()
        return [omaha_strength(h, b) for h, b in deals]

    cold = timed(omaha_cold)
    print(
        f"  Omaha high from an empty table of board rows (cold, {len(evaluator._BY_BOARD):,} rows built):"
        f" {len(deals) / cold:,.0f} hands/s, {ours / cold:.2f}x the warm figure"
        + (f", {treys_hi / cold:.2f}x treys" if treys_hi else "")
        + (f", {ph[0] / cold:.2f}x phevaluator" if ph else "")
    )

    ours, treys = (
        timed(lambda: [(omaha_strength(h, b), low_mask(h, b)) for h, b in deals]) if not tr else 0.0,
        None,
    )
    if tr:
        ours, treys = race(
            lambda: [(omaha_strength(h, b), low_mask(h, b)) for h, b in deals],
            lambda: [
                (treys_omaha(th, tb), naive_low(h, b)) for (h, b), (th, tb) in zip(deals, tdeals, strict=True)
            ],
        )
    row("Omaha hi/lo (high + low)", len(deals), ours, treys, kit_lo)

    # --- a full 10-player hi/lo showdown through the public API ---
    tables = []
    for _ in range(2_000 // scale):
        deck = Deck(rng)
        board = deck.draw(5)
        holes = [deck.draw(4) for _ in range(10)]
        contributions = [rng.choice([10, 25, 40, 60, 100, 100, 100]) for _ in range(10)]
        tables.append((board, holes, contributions))
    seconds = timed(lambda: [showdown(b, h, c, hi_lo=True, button=9) for b, h, c in tables])
    per_showdown = seconds / len(tables) * 1000
    text_tables = [(" ".join(map(str, b)), [" ".join(map(str, x)) for x in h], c) for b, h, c in tables[:200]]
    text_seconds = timed(lambda: [showdown(b, h, c, hi_lo=True, button=9) for b, h, c in text_tables])
    print(
        f"10-player hi/lo showdown: {per_showdown:.3f} ms with Card objects, "
        f"{text_seconds / len(text_tables) * 1000:.3f} ms with card text ({len(tables):,} tables, side pots)"
    )

    print("targets:")
    if tr:
        for name, need in (
            (next(k for k in rows if k.startswith("5 cards")), 1.0),
            ("6 cards (best 5 of 6)", 1.0),
            ("Omaha high (2 + 3)", 4.0),
        ):
            verdict = "met" if rows[name] >= need else "MISSED"
            print(f"  {name}: ours/treys {rows[name]:.2f}x, need >= {need:.0f}x: {verdict}")
    verdict = "met" if per_showdown < 5 else "MISSED"
    print(f"  10-player hi/lo showdown: {per_showdown:.3f} ms, need < 5 ms: {verdict}")
    print(f"load average {_load()} at the end")


def _load() -> str:
    """The machine's load average (1, 5, 15 minutes): the figures move with it on a shared machine."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


if __name__ == "__main__":
    main()
