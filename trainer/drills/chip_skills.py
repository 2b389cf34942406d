"""Chip handling drills over a house's chip set (`trainer.drills.chips`): make change in the fewest
chips, colour up a player's small chips, count drawn stacks by colour. Pure; each game registers the
kinds with its own chip set (`trainer/drills/<game>/chips.py`).

- change: a cash buy-in or a payout of an amount, answered as a count per denomination; right only
  when it is the fewest chips (`ChipSet.fewest`).
- colour up: stacks of the smaller colours a player leaves with, answered as the fewest chips of
  the same value.
- count: stacks drawn by colour, answered as their total.

Each kind keeps a catalogue of the typical mistakes (a larger chip not used, a stack at the colour
next to its own, one stack left out, one chip miscounted, colouring up one colour only).

>>> from trainer.drills.chips import load_chips
>>> chips = load_chips("standard")
>>> answer, _text, steps = solve_count({"chip_set": "standard", "stacks": [{"value": 25, "count": 7},
...     {"value": 100, "count": 4}]})
>>> answer, str(steps[-1])
(575, 'Total: 575.')
"""

from __future__ import annotations

import random
from collections.abc import Callable

from trainer.drills.answers import AnswerFormat, AnswerKind
from trainer.drills.base import Data, Solution, attach_mistakes, define, prompt
from trainer.drills.chips import ChipSet, load_chips
from trainer.drills.mistakes import Mistake, mistake_type
from trainer.engine.explain import N_, Step, nstep, step

BIGGER_CHIP_UNUSED = mistake_type("chips.bigger_chip_unused", "A larger chip not used")
SMALLEST_ONLY_UP = mistake_type("chips.one_colour_up", "Coloured up one colour only")
NOT_COLOURED = mistake_type("chips.not_coloured_up", "The small chips handed back as they were")
WRONG_COLOUR = mistake_type("chips.wrong_colour", "A stack counted at the next colour's value")
STACK_LEFT_OUT = mistake_type("chips.stack_left_out", "A stack left out of the count")
ONE_SHORT = mistake_type("chips.one_chip_short", "One chip short")
ONE_OVER = mistake_type("chips.one_chip_over", "One chip too many")
CHIP_MISCOUNTED = mistake_type("chips.chip_miscounted", "One chip miscounted in a stack")


def chip_set(data: Data) -> ChipSet:
    return load_chips(data["chip_set"])


def counts_format(data: Data) -> AnswerFormat:
    return chip_set(data).answer_format()


AMOUNT = AnswerFormat(AnswerKind.AMOUNT)


def _amount(rng: random.Random, level: int, chips: ChipSet) -> int:
    """An amount the set pays exactly: round at level 1, any at 2, large at 3."""
    unit = chips.smallest
    top = {1: 100, 2: 400, 3: 4000}[level] * max(unit, 5)
    step_size = unit * (5 if level == 1 else 1)
    return rng.randrange(step_size, top + 1, step_size)


def chips_text(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} x {v}" for v, n in counts.items() if n) or "0"


def _miscounts(right: dict[str, int]) -> list[Mistake]:
    """One chip short and one too many, of the smallest colour the right chips use."""
    used = [label for label, n in right.items() if n]
    if not used:
        return []
    label = used[-1]
    said = step("Count the chips again: {chips}.", chips=chips_text(right))
    short = right | {label: right[label] - 1}
    over = right | {label: right[label] + 1}
    return [Mistake(ONE_SHORT, short, said), Mistake(ONE_OVER, over, said)]


# change ---------------------------------------------------------------------------------------------


def gen_change(rng: random.Random, level: int, chips: ChipSet) -> tuple[Data, Step]:
    amount = _amount(rng, level, chips)
    payout = rng.random() < 0.5
    data: Data = {"chip_set": chips.name, "amount": amount, "task": "payout" if payout else "buy_in"}
    if payout:
        said = step("Pay {amount} in the fewest chips: how many of each colour?", amount=amount)
    else:
        said = step("A player buys in for {amount} in cash: how many chips of each colour?", amount=amount)
    return data, said


def solve_change(data: Data) -> Solution:
    chips = chip_set(data)
    counts = chips.fewest(data["amount"])
    steps = (
        step("Take as many of the largest chip as fit, then the next colour, down to the smallest."),
        chips.fewest_step(data["amount"]),
    )
    return counts, chips_text(counts), steps


def _without(chips: ChipSet, amount: int, skip: int) -> dict[str, int] | None:
    """The fewest chips for `amount` with one denomination left out (None if it cannot be paid)."""
    rest = amount
    counts = {str(c.value): 0 for c in chips.by_size}
    for c in chips.by_size:
        if c.value == skip:
            continue
        counts[str(c.value)], rest = divmod(rest, c.value)
    return counts if rest == 0 else None


def mistakes_change(data: Data) -> list[Mistake]:
    chips = chip_set(data)
    right = chips.fewest(data["amount"])
    found = []
    for chip in chips.by_size:
        if right[str(chip.value)] and chip.value != chips.smallest:
            counts = _without(chips, data["amount"], chip.value)
            if counts is not None:
                said = step("Chips of {chip} fit here: {chips}.", chip=chip.value, chips=chips_text(right))
                found.append(Mistake(BIGGER_CHIP_UNUSED, counts, said))
    return found + _miscounts(right)


def pay_in_chips(chips: ChipSet, amount: int, amount_mistakes: list[Mistake]) -> list[Mistake]:
    """A payout's mistakes in chips: each wrong amount of the payout's own catalogue counted out in the
    fewest chips, then the chip mistakes of the right amount (a larger chip unused, one chip off)."""
    found = [
        Mistake(m.type, chips.fewest(m.answer), m.text)
        for m in amount_mistakes
        if isinstance(m.answer, int) and m.answer != amount and m.answer > 0 and chips.payable(m.answer)
    ]
    return found + mistakes_change({"chip_set": chips.name, "amount": amount})


# colour up ------------------------------------------------------------------------------------------


def gen_colour_up(rng: random.Random, level: int, chips: ChipSet) -> tuple[Data, Step]:
    small = list(chips.chips[: {1: 2, 2: 3, 3: 4}[level]])
    while True:
        stacks = []
        for chip in small:
            ratio = 0
            bigger = [c for c in chips.chips if c.value > chip.value]
            if bigger:
                ratio = bigger[0].value // chip.value
            count = rng.randint(ratio, ratio * 2 + 3) if ratio else rng.randint(1, 5)
            stacks.append({"value": chip.value, "count": min(count, chips.stack)})
        counts = {str(s["value"]): s["count"] for s in stacks}
        if chips.colour_up(counts):
            break
    data: Data = {"chip_set": chips.name, "stacks": stacks, "task": "colour_up"}
    return data, step(
        "A player leaves the table with these chips. Colour them up: the fewest chips of each colour?"
    )


def _stack_counts(chips: ChipSet, data: Data) -> dict[str, int]:
    counts = {str(c.value): 0 for c in chips.by_size}
    for s in data["stacks"]:
        counts[str(s["value"])] += s["count"]
    return counts


def stacks_total(data: Data) -> int:
    return sum(s["value"] * s["count"] for s in data["stacks"])


def solve_colour_up(data: Data) -> Solution:
    chips = chip_set(data)
    total = stacks_total(data)
    counts = chips.fewest(total)
    steps = (
        step("The chips are worth {total}.", total=total),
        *chips.colour_up(_stack_counts(chips, data)),
        chips.fewest_step(total),
    )
    return counts, chips_text(counts), steps


def mistakes_colour_up(data: Data) -> list[Mistake]:
    chips = chip_set(data)
    right = chips.fewest(stacks_total(data))
    given = _stack_counts(chips, data)
    found = [
        Mistake(
            NOT_COLOURED,
            given,
            step("Colour up every full group of small chips: {chips}.", chips=chips_text(right)),
        )
    ]
    # Only the first exchange made: every full group of the smallest colour for the next, no further.
    first = chips.colour_up(given)[:1]
    if first:
        small, large = chips.chips[0], chips.chips[1]
        ratio = large.value // small.value
        once = dict(given)
        made = once[str(small.value)] // ratio
        once[str(small.value)] -= made * ratio
        once[str(large.value)] += made
        found.append(Mistake(SMALLEST_ONLY_UP, once, first[0]))
    return found + _miscounts(right)


# count ----------------------------------------------------------------------------------------------


def gen_count(rng: random.Random, level: int, chips: ChipSet) -> tuple[Data, Step]:
    colours = {1: 2, 2: 3, 3: 4}[level]
    most = {1: 10, 2: 15, 3: chips.stack}[level]
    picked = sorted(rng.sample(chips.chips, min(colours, len(chips.chips))), key=lambda c: c.value)
    stacks = [{"value": c.value, "count": rng.randint(2, most)} for c in picked]
    data: Data = {"chip_set": chips.name, "stacks": stacks, "task": "count"}
    return data, step("Count these stacks: what are they worth?")


def solve_count(data: Data) -> Solution:
    total = stacks_total(data)
    steps = [
        step(
            "{count} x {value} = {subtotal}.",
            count=s["count"],
            value=s["value"],
            subtotal=s["count"] * s["value"],
        )
        for s in data["stacks"]
    ]
    steps.append(step("Total: {total}.", total=total))
    return total, f"{total:,}", tuple(steps)


def mistakes_count(data: Data) -> list[Mistake]:
    chips = chip_set(data)
    total = stacks_total(data)
    values = [c.value for c in chips.chips]
    found = []
    for s in data["stacks"]:
        i = values.index(s["value"])
        if i + 1 < len(values):
            wrong = total + s["count"] * (values[i + 1] - s["value"])
            said = step(
                "The stack of {count} is of {value}, not {other}.",
                count=s["count"],
                value=s["value"],
                other=values[i + 1],
            )
            found.append(Mistake(WRONG_COLOUR, wrong, said))
    for s in data["stacks"]:
        said = step("The stack of {count} x {value} was left out.", count=s["count"], value=s["value"])
        found.append(Mistake(STACK_LEFT_OUT, total - s["count"] * s["value"], said))
    for s in data["stacks"]:
        for d in (1, -1):
            said = nstep(
                "The stack of {value} has {count}\u00a0chip.",
                "The stack of {value} has {count}\u00a0chips.",
                count=s["count"],
                value=s["value"],
            )
            found.append(Mistake(CHIP_MISCOUNTED, total + d * s["value"], said))
    return found


def stacks_said(data: Data) -> list[Step]:
    """The drawn stacks in words (the table in words under the drawing)."""
    return [
        nstep(
            "A stack of {count}\u00a0chip of {value}.",
            "A stack of {count}\u00a0chips of {value}.",
            count=s["count"],
            value=s["value"],
        )
        for s in data["stacks"]
    ]


def define_chip_kinds(game: str, prefix: str, chips: Callable[[str | None], ChipSet]) -> None:
    """Register a game's three chip kinds (`<prefix>.chip_change`, `<prefix>.colour_up`,
    `<prefix>.chip_count`), dealt in the chip set `chips(rules)` names for the house rules."""

    def gen_change_kind(rng: random.Random, level: int, rules: str | None) -> Data:
        data, said = gen_change(rng, level, chips(rules))
        return prompt(data, said)

    def gen_colour_up_kind(rng: random.Random, level: int, rules: str | None) -> Data:
        data, said = gen_colour_up(rng, level, chips(rules))
        return prompt(data, *stacks_said(data), said)

    def gen_count_kind(rng: random.Random, level: int, rules: str | None) -> Data:
        data, said = gen_count(rng, level, chips(rules))
        return prompt(data, *stacks_said(data), said)

    define(
        game,
        f"{prefix}.chip_change",
        N_("Change in the fewest chips"),
        gen_change_kind,
        counts_format,
        solve_change,
    )
    define(game, f"{prefix}.colour_up", N_("Colour up"), gen_colour_up_kind, counts_format, solve_colour_up)
    define(
        game, f"{prefix}.chip_count", N_("Count the stacks"), gen_count_kind, lambda d: AMOUNT, solve_count
    )
    attach_mistakes(f"{prefix}.chip_change", mistakes_change)
    attach_mistakes(f"{prefix}.colour_up", mistakes_colour_up)
    attach_mistakes(f"{prefix}.chip_count", mistakes_count)
