"""After the betting of an Omaha round: an uncalled bet returned, the pots, who shows first, whether
the next player may muck, and what each seat collects from each pot.

When payouts are answered in chips (the house's chip set says so, or the trainee chose it), the pot
taken without a showdown is answered in chips, and after each pot's ruling every seat that collects
from it is paid out in chips, one step per seat ("om.payout"), as the Russian poker boxes are."""

from __future__ import annotations

from typing import Any

from trainer.drills.answers import AnswerFormat, AnswerKind, seat_label
from trainer.drills.chips import ChipSet
from trainer.drills.omaha.round.hand import AMOUNT, Hand, seat_choices
from trainer.drills.omaha.round.rulings import pot_shares, show_order
from trainer.drills.omaha.showdowns import MUCK_CHOICES
from trainer.drills.rounds import payout_facts, payout_format
from trainer.engine.explain import N_, Term, step
from trainer.engine.omaha import side_pots


def finish(hand: Hand, chips: ChipSet, payout: str) -> dict[str, Any]:
    hand.middle += sum(hand.bet)
    hand.bet = [0] * hand.n
    holes, put = hand.engine_table()
    folded = [s for s, h in enumerate(holes) if h is None]
    built = side_pots(put, folded)
    facts = {
        "board": [str(c) for c in hand.board],
        "holes": holes,
        "put": put,
        "hi_lo": hand.hi_lo,
        "button": hand.button,
        "chip": hand.chip,
    }
    for seat, amount in enumerate(built.returned):
        if amount and seat < hand.n:
            hand.ask(
                "om.returned",
                step(
                    "Nobody called all of seat {seat}'s last bet. How much goes back to him?",
                    seat=seat + 1,
                ),
                AMOUNT,
                {**facts, "seat": seat},
                seat,
            )
            hand.stacks[seat] += amount
            hand.middle -= amount
    # A payout step's form and the chip set it is counted in (None: an amount).
    paid = payout_facts(chips, payout)
    live = hand.live()
    if len(live) == 1:
        winner = live[0]
        hand.ask(
            "om.uncontested",
            step("Everybody else has folded. What does seat {seat} collect?", seat=winner + 1),
            payout_format(chips, payout),
            {**facts, "seat": winner, **paid},
            winner,
        )
        return hand.table(phase="over")
    hand.street = "river"
    pots = [p for p in built.pots]
    if len(pots) > 1:
        labels = (
            Term(N_("Main pot")),
            *(step("Side pot {number}", number=i) for i in range(1, len(pots))),
        )
        hand.ask(
            "om.side_pots",
            step("A player is all-in. What is in each pot?"),
            AnswerFormat(AnswerKind.AMOUNTS, labels=labels),
            {"put": put, "folded": folded},
            None,
        )
    # What each live seat put in, less what came back: all-in for less shows as a lower amount.
    contributions = [p - r for p, r in zip(put, built.returned, strict=True)][: hand.n]
    showing = {
        "live": live,
        "button": hand.button,
        "n": hand.n,
        "aggressor": hand.last_aggressor,
        "contributions": contributions,
        "rules": hand.rules,
    }
    hand.ask("om.show_first", step("Showdown. Who shows his cards first?"), seat_choices(live), showing, None)
    order = show_order(showing)[0]
    first, following = order[0], order[1]
    hand.shown = {first, following}  # the hand shown, and the one whose turn it is
    hand.ask(
        "om.muck",
        # Asked of the second in the order: one hand has been shown ("seats 1 have shown" said before).
        step(
            "At the showdown seat {shown} has shown his hand; seat {seat} is next. May he muck his hand "
            "without showing it?",
            shown=first + 1,
            seat=following + 1,
        ),
        AnswerFormat(AnswerKind.CHOICE, choices=MUCK_CHOICES),
        {**facts, **showing, "first": first, "asked": following},
        following,
    )
    hand.shown = set(live)
    for number, pot in enumerate(pots):
        if len(pot.eligible) < 2:
            continue
        question = (
            step("The main pot is {amount}. What does each seat in it collect?", amount=pot.amount)
            if number == 0
            else step(
                "Side pot {number} is {amount}. What does each seat in it collect?",
                number=number,
                amount=pot.amount,
            )
        )
        hand.ask(
            "om.pot",
            question,
            AnswerFormat(AnswerKind.AMOUNTS, labels=tuple(seat_label(s) for s in pot.eligible)),
            {**facts, "pot": number},
            None,
        )
        if paid["chips"]:
            _, shares, _ = pot_shares({**facts, "pot": number})
            for seat in pot.eligible:
                if shares.get(seat, 0) > 0:
                    hand.ask(
                        "om.payout",
                        step("Pay seat {seat} from the main pot. Which chips?", seat=seat + 1)
                        if number == 0
                        else step(
                            "Pay seat {seat} from side pot {number}. Which chips?",
                            seat=seat + 1,
                            number=number,
                        ),
                        payout_format(chips, payout),
                        {**facts, "pot": number, "seat": seat, **paid},
                        seat,
                    )
    return hand.table(phase="over")
