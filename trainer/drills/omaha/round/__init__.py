"""An Omaha hand at the live table: 4 to 10 seats from the blinds to the split pot, ruled by the dealer.

The deal: stacks (some short, so players go all-in), the button, the blinds, sometimes a player coming
back after missing the blinds; pot limit or fixed limit, high or hi/lo 8-or-better. Simulated players
act street by street (`hand.Hand`), and the trainee as the dealer rules at each point a dealer must:

1. who posts the small and the big blind; what a returning player posts, live and dead; whether a new
   player who sits down may post the big blind and play at once, or must wait (`new_player_entry`:
   not between the button and the big blind; a house may make every new player wait);
2. during the betting: the size of the pot when a player asks (pot limit), the most a player may raise
   to when he says "pot!", and whether a raise is allowed (the fixed-limit size and cap, the pot-limit
   minimum raise and maximum); an illegal raise is then made right (the most, the least, or a call);
3. after the betting: an uncalled bet returned, the pots when a player is all-in, who shows first
   (`explain_order`: the last river aggressor, else the first seat left of the button; with a side pot
   the player all-in for the least, as the house's `showdown.side_pots` says), whether the next player
   may muck his hand unseen (`muck_rulings`: only a hand beaten in every pot it could win), and for each
   pot what every seat in it collects (winners, the hi/lo split, quartering, odd chips); when payouts
   are answered in chips, each seat's share is then paid out in chips (`om.payout`), and the pot
   taken without a showdown too. The chips are the house rules' chip set (`chip_set` in
   data/rules/omaha/, by default the poker room's, with a 1-unit chip).

Seats are numbered from 1 on the table and in the questions; the engines number them from 0. A dead
small blind goes to the pot without counting toward its poster's bet: the engines see it as the stake
of an extra folded seat after the last one, which reaches only the main pot (so a table with a dead
blind has at most 9 players).

>>> from trainer.drills.rounds import deal
>>> r = deal("omaha", 1, seed=3, seats=6)
>>> [s.kind for s in r.steps][:2]
['om.small_blind', 'om.big_blind']

The package: `hand` (the hand as it is dealt and bet, the table the dealer sees), `blinds` (the
blinds, a returning player, a new player), `betting` (the simulated players' actions and the rulings
asked during the betting), `showdown` (the rulings after it), `rulings` (each step's answer recomputed
from the engines on its facts).
"""

from __future__ import annotations

import random
from typing import Any

from trainer.drills.chips import ChipSet, load_chips
from trainer.drills.houses import in_use
from trainer.drills.omaha.round import betting, blinds, rulings, showdown
from trainer.drills.omaha.round.hand import STREETS, Hand
from trainer.drills.rounds import GameRounds, RoundStep, StepKind
from trainer.engine.explain import N_
from trainer.engine.omaha.betting import load_rules

# Version 2: a new player sitting down (levels 2 and 3), the show order with side pots, the muck.
# Version 3: payouts in chips (the poker room's chip set; a payout step per seat paid from a pot).
# Version 4: a returning player owes the small blind dead whichever blind he missed (the rule
# document), so nobody comes back at a full ten-seat table; the heads-up blinds follow the house.
VERSION = 4


def default_seats(rng: random.Random, level: int) -> int:
    return {1: rng.randint(4, 6), 2: rng.randint(6, 8), 3: rng.randint(8, 10)}[level]


def house_chips(rules: str) -> ChipSet:
    """The chip set the house rules pay in (`chip_set` in data/rules/omaha/<rules>.toml)."""
    return load_chips(load_rules(rules, in_use()).chip_set)


def deal_steps(
    rng: random.Random, level: int, seats: int, rules: str, chips: ChipSet, payout: str
) -> tuple[list[RoundStep], dict[str, Any]]:
    hand = Hand(rng, level, seats, rules)
    blinds.post_blinds_and_seat(hand)
    for number, street in enumerate(STREETS):
        if number:
            hand.next_street(street)
        betting.betting_round(hand)
        if len(hand.live()) < 2:
            break
    end = showdown.finish(hand, chips, payout)
    return hand.steps, end


ROUNDS = GameRounds(
    game="omaha",
    version=VERSION,
    seats=range(4, 11),
    default_seats=default_seats,
    default_rules="standard",
    deal_steps=deal_steps,
    seat_word=N_("Seats"),
    payouts=True,
    house_chips=house_chips,
    kinds={
        "om.small_blind": StepKind("om.small_blind", rulings.solve_blind),
        "om.big_blind": StepKind("om.big_blind", rulings.solve_blind),
        "om.returning": StepKind("om.returning", rulings.solve_returning),
        "om.pot_size": StepKind("om.pot_size", rulings.solve_pot_size),
        "om.pot_max": StepKind("om.pot_max", rulings.solve_pot_max),
        "om.raise_legal": StepKind("om.raise_legal", rulings.solve_raise_legal),
        "om.returned": StepKind("om.returned", rulings.solve_returned),
        "om.uncontested": StepKind("om.uncontested", rulings.solve_uncontested),
        "om.side_pots": StepKind("om.side_pots", rulings.solve_side_pots),
        "om.new_player": StepKind("om.new_player", rulings.solve_new_player),
        "om.show_first": StepKind("om.show_first", rulings.solve_show_first),
        "om.muck": StepKind("om.muck", rulings.solve_muck),
        "om.pot": StepKind("om.pot", rulings.solve_pot),
        "om.payout": StepKind("om.payout", rulings.solve_payout),
    },
)
