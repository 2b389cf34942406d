"""How close the live table's simulated Russian poker players come to the exact advisor: on N random
hands of a house, the share where each advice (`players.ADVISORS`: the advisor's rules of thumb, the
older quick rule) plays the best option, and what it loses to best play in antes a hand, from the exact
values of `strategy.options` (every option valued, so the advice's own option has its value).

Run: python3 bench/round_players.py [--house cis] [--hands 150] [--seed 11]
(about 6 s a hand on the loaded 2-core machine: 150 CIS hands took 15 minutes)
"""

from __future__ import annotations

import argparse
import random
import time

from trainer.drills.russian_poker import players
from trainer.drills.russian_poker.deals import house_rules
from trainer.engine.cards import Deck
from trainer.engine.russian_poker.strategy import options

ADVICE = ("thumb", "quick")


def _key(action: str, discard: tuple) -> tuple[str, frozenset[str]]:
    return action, frozenset(map(str, discard)) if action == "exchange" else frozenset()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--house", default="cis")
    parser.add_argument("--hands", type=int, default=150)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    rules = house_rules(args.house)
    rng = random.Random(args.seed)
    best_played = dict.fromkeys(ADVICE, 0)
    lost = dict.fromkeys(ADVICE, 0.0)
    start = time.perf_counter()
    for _ in range(args.hands):
        deck = Deck(rng)
        up, cards = deck.draw(1)[0], deck.draw(5)
        values = {_key(o.action.value, o.discard): o.ev for o in options(list(cards), up, rules=rules)}
        best = max(values.values())
        for name in ADVICE:
            decision = players.ADVISORS[name](cards, up, rules)
            gap = best - values[_key(decision.action, decision.discard)]
            lost[name] += gap
            best_played[name] += gap < 1e-9
    took = time.perf_counter() - start
    print(f"{args.house}, {args.hands} hands, seed {args.seed}, {took:.0f} s")
    for name in ADVICE:
        share = 100 * best_played[name] / args.hands
        per_hand = lost[name] / args.hands
        print(f"{name:<6} best option {best_played[name]:>4} ({share:.0f}%) loses {per_hand:.4f} ante a hand")


if __name__ == "__main__":
    main()
