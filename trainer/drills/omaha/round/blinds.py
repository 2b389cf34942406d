"""The blinds of an Omaha round: who posts them, a player coming back after missing them, a new player
sitting down (he posts and plays, or waits)."""

from __future__ import annotations

from trainer.drills.answers import AnswerFormat, AnswerKind
from trainer.drills.omaha.round.hand import Hand, seat_choices
from trainer.drills.omaha.round.rulings import entry
from trainer.drills.omaha.showdowns import ENTRY_CHOICES, entry_question
from trainer.engine.explain import N_, Term, step
from trainer.engine.omaha.betting import missed_blinds_post, post_blinds


def post_blinds_and_seat(hand: Hand) -> None:
    """Who posts the small and the big blind; then a new player sitting down, or a player
    coming back after missing the blinds (levels 2 and 3)."""
    # A new player sits down (levels 2 and 3, never on the button): the blinds are found as if his
    # seat were empty, which is right whichever way he is ruled (allowed to post, he is not between
    # the button and the big blind, so he moves neither blind).
    newcomer = None
    if hand.rng.random() < {1: 0.0, 2: 0.3, 3: 0.3}[hand.level]:
        newcomer = hand.rng.choice([s for s in range(hand.n) if s != hand.button])
        hand.newcomer = {"seat": newcomer, "entry": "sits_down"}
    stacks: list[int | None] = [None if s == newcomer else v for s, v in enumerate(hand.stacks)]
    blinds = post_blinds(hand.button, stacks, hand.sb, hand.bb, hand.house)
    data = {"button": hand.button, "stacks": stacks, "sb": hand.sb, "bb": hand.bb, "rules": hand.rules}
    seats = list(range(hand.n))
    hand.ask(
        "om.small_blind",
        step("The button is on seat {button}. Who posts the small blind?", button=hand.button + 1),
        seat_choices(seats),
        {**data, "blind": "small"},
        None,
    )
    hand.act(blinds.small, "post", blinds.posted[blinds.small])
    hand.log[-1]["action"] = "small_blind"
    hand.ask(
        "om.big_blind",
        step("Who posts the big blind?"),
        seat_choices(seats),
        {**data, "blind": "big"},
        None,
    )
    hand.act(blinds.big, "post", blinds.posted[blinds.big])
    hand.log[-1]["action"] = "big_blind"
    hand.first_preflop = blinds.first_preflop
    if newcomer is not None:
        seat_new_player(hand, newcomer, blinds.small, blinds.big)
        return
    others = [s for s in seats if s not in (blinds.small, blinds.big, hand.button)]
    chance = {1: 0.0, 2: 0.35, 3: 0.45}[hand.level]
    # A returning player always owes a dead small blind (the rule document: missing the big blind he
    # sits out the small blind too), and a dead blind is an extra folded seat to the engines, which
    # take at most ten: a full ten-seat table has nobody coming back.
    if others and hand.rng.random() < chance and hand.n < 10:
        seat = hand.rng.choice(others)
        missed = hand.rng.choice(("big", "both"))
        hand.returning = {"seat": seat, "missed": missed}
        hand.ask(
            "om.returning",
            step(
                "Seat {seat} comes back after missing the blinds. What does he post, live and dead?",
                seat=seat + 1,
            ),
            AnswerFormat(AnswerKind.AMOUNTS, labels=(Term(N_("Live")), Term(N_("Dead")))),
            {"missed": missed, "sb": hand.sb, "bb": hand.bb, "rules": hand.rules},
            seat,
        )
        owed = missed_blinds_post(missed, hand.sb, hand.bb, hand.house)
        live, dead = owed.live, owed.dead
        hand.act(seat, "post", live)
        hand.log[-1]["action"] = "returning"
        hand.stacks[seat] -= dead
        hand.dead += dead
        if dead:
            hand.log[-1]["dead"] = dead


def seat_new_player(hand: Hand, seat: int, small: int, big: int) -> None:
    """The dealer rules on the new player: he posts the big blind live and plays, or sits out this
    hand (no cards, no stake: the engines see a folded seat that put nothing in)."""
    data = {
        "seat": seat,
        "button": hand.button,
        "n": hand.n,
        "sb": hand.sb,
        "bb": hand.bb,
        "small": small,
        "big": big,
        "rules": hand.rules,
    }
    hand.ask(
        "om.new_player",
        entry_question(
            sb=hand.sb, bb=hand.bb, button=hand.button + 1, small=small + 1, big=big + 1, seat=seat + 1
        ),
        AnswerFormat(AnswerKind.CHOICE, choices=ENTRY_CHOICES),
        data,
        seat,
    )
    if entry(data).may_post_now:
        hand.newcomer = {"seat": seat, "entry": "posts"}
        hand.act(seat, "post", hand.bb)
        hand.log[-1]["action"] = "new_player"
    else:
        hand.newcomer = {"seat": seat, "entry": "waits"}
        hand.folded.add(seat)
        hand.holes[seat] = ()
        hand.log.append({"seat": seat + 1, "action": "sits_out", "street": hand.street})
