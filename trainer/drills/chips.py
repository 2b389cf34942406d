"""The house's chips: denominations and colours from `data/chips/<name>.toml`, payouts counted in chips.

A payout at the live table may be answered as an amount, as chips (a count per denomination, in the
drills' "amounts" format with one label per denomination) or as chips cut from the float ("fewest").
A "chips" answer is right when its value is right; a "fewest" answer only when it is the payout as the
dealer cuts it from the float: the fewest chips of the house's denominations, which for a set where
every chip is a whole multiple of the one below (as every set here must be) is one count per colour,
each below the number that colours up to the next chip. The feedback shows the fewest-chips way and
how the trainee's chips colour up to it.

>>> chips = load_chips()
>>> [c.value for c in chips.chips]
[5, 25, 100, 500, 1000, 5000]
>>> chips.fewest(1430)
{'5000': 0, '1000': 1, '500': 0, '100': 4, '25': 1, '5': 1}
>>> chips.value_of({"100": 14, "25": 1, "5": 1})
1430
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from trainer.drills.answers import AnswerFormat, AnswerKind
from trainer.engine.explain import Step, step
from trainer.engine.presets import data_path, read_toml

CHIPS_DIR = data_path("chips")
DEFAULT_CHIPS = "standard"
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
# How a payout step is answered: an amount, any chips of the right value, or the chips cut from the float.
PAYOUT_FORMS = ("amount", "chips", "fewest")
CHIPS_FORMS = ("chips", "fewest")


@dataclass(frozen=True, slots=True)
class Chip:
    value: int
    colour: str  # "#rrggbb", as drawn
    name: str  # the colour's English word ("red"), a message id
    on_float: int | None = None  # chips of this colour on the float when the table opens (None: not counted)


@dataclass(frozen=True, slots=True)
class ChipSet:
    """A house's chips, largest first in `by_size`; `payout_answer` is the house's form of a payout
    answer ("amount" or "chips"); `stack` the chips of one colour in a cut stack."""

    name: str
    title: str
    chips: tuple[Chip, ...]  # smallest first, as in the file
    payout_answer: str
    stack: int

    @property
    def by_size(self) -> tuple[Chip, ...]:
        return tuple(sorted(self.chips, key=lambda c: -c.value))

    @property
    def smallest(self) -> int:
        return self.chips[0].value

    def labels(self) -> tuple[str, ...]:
        """The labels of a chips answer: one per denomination, largest first ("5000", ..., "5")."""
        return tuple(str(c.value) for c in self.by_size)

    def answer_format(self) -> AnswerFormat:
        return AnswerFormat(AnswerKind.AMOUNTS, labels=self.labels())

    def payable(self, amount: int) -> bool:
        return isinstance(amount, int) and amount >= 0 and amount % self.smallest == 0

    def fewest(self, amount: int) -> dict[str, int]:
        """The fewest chips that make `amount` (a count per denomination, largest first).

        Each chip a whole multiple of the one below (every set `chips_from_mapping` builds): the
        largest chip first, which is then the fewest and the only fewest (see `cut`); any other set by
        dynamic programming over the denominations, so it is the fewest for any chip set."""
        if not self.payable(amount):
            raise ValueError(f"{amount!r} cannot be paid in chips of {self.smallest}")
        return dict(_fewest(self, amount))

    def _fewest(self, amount: int) -> tuple[tuple[str, int], ...]:
        unit = self.smallest
        values = [c.value // unit for c in self.chips]
        target = amount // unit
        if not any(b % a for a, b in itertools.pairwise(values)):
            # The programme below took 1.5 ms for a payout of 10,000 in fives, and the chips drills
            # ask it for every situation drawn.
            taken = {}
            for value in reversed(values):
                taken[value], target = divmod(target, value)
            return tuple((str(c.value), taken[c.value // unit]) for c in self.by_size)
        best = [0] + [target + 1] * target
        last = [0] * (target + 1)
        for total in range(1, target + 1):
            for value in values:
                if value <= total and best[total - value] + 1 < best[total]:
                    best[total] = best[total - value] + 1
                    last[total] = value
        counts = {c.value // unit: 0 for c in self.chips}
        total = target
        while total:
            counts[last[total]] += 1
            total -= last[total]
        # Keys in label order (largest first) so the mapping reads like the answer form.
        return tuple((str(c.value), counts[c.value // unit]) for c in self.by_size)

    def opening_float(self) -> dict[str, int] | None:
        """The float as the table opens, a count per denomination largest first (None: the set's file
        counts no float, so a payout is cut from as many chips of each colour as it needs)."""
        if any(c.on_float is None for c in self.chips):
            return None
        return {str(c.value): int(c.on_float or 0) for c in self.by_size}

    def cut(self, amount: int, tray: Mapping[str, int]) -> dict[str, int] | None:
        """The payout as the dealer cuts it from a float holding `tray` (a count per denomination):
        the fewest chips of those there, largest first; None when the float cannot make it.

        Taking as many of the largest chip as the float has and the amount allows, then the next, is
        the fewest, and the only fewest, whenever each chip is a whole multiple of the one below: a
        cut with fewer of a larger chip pays at least that chip's value in smaller ones, and among
        those some add up to it exactly (each divides it), so one larger chip would replace two or more.

        >>> chips = load_chips()
        >>> chips.cut(1500, {"5000": 3, "1000": 0, "500": 1, "100": 40, "25": 40, "5": 40})
        {'5000': 0, '1000': 0, '500': 1, '100': 10, '25': 0, '5': 0}
        >>> chips.cut(40, {"5000": 0, "1000": 0, "500": 0, "100": 0, "25": 1, "5": 2}) is None
        True
        """
        if not self.payable(amount):
            raise ValueError(f"{amount!r} cannot be paid in chips of {self.smallest}")
        rest = amount
        counts: dict[str, int] = {}
        for chip in self.by_size:
            label = str(chip.value)
            counts[label] = min(int(tray.get(label, 0)), rest // chip.value)
            rest -= counts[label] * chip.value
        return counts if rest == 0 else None

    def is_fewest(self, counts: Mapping[str, int]) -> bool:
        """Whether a count per denomination is the fewest chips of its value: the payout as cut from
        the float, with nothing left to colour up.

        >>> chips = load_chips()
        >>> chips.is_fewest({"1000": 1, "100": 4, "25": 1, "5": 1})
        True
        >>> chips.is_fewest({"100": 14, "25": 1, "5": 1})  # 1430 too, but ten blacks make a yellow
        False
        """
        value = self.value_of(counts)
        return sum(counts.values()) == sum(self.fewest(value).values())

    def value_of(self, counts: Mapping[str, int]) -> int:
        """The value of a count per denomination ({"100": 4, "25": 2} -> 450)."""
        known = {str(c.value) for c in self.chips}
        total = 0
        for label, count in counts.items():
            if str(label) not in known:
                raise ValueError(f"there is no chip of {label}")
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise ValueError(f"a chip count is a whole number >= 0, not {count!r}")
            total += int(label) * count
        return total

    def colour_up(self, counts: Mapping[str, int]) -> tuple[Step, ...]:
        """The exchanges that colour a count of chips up to the fewest chips of the same value, as a
        dealer makes them: from the smallest colour up, every full group of small chips for the next.

        >>> for exchange in load_chips().colour_up({"100": 12, "25": 8}):
        ...     print(exchange)
        Colour up: 8 x 25 make 2 x 100.
        Colour up: 10 x 100 make 2 x 500.
        Colour up: 2 x 500 make 1 x 1000.
        """
        current = {c.value: int(counts.get(str(c.value), 0)) for c in self.chips}
        steps: list[Step] = []
        for small, large in itertools.pairwise(self.chips):
            ratio = large.value // small.value
            made = current[small.value] // ratio
            if made:
                current[small.value] -= made * ratio
                current[large.value] += made
                steps.append(
                    step(
                        "Colour up: {count} x {small} make {made} x {large}.",
                        count=made * ratio,
                        small=small.value,
                        made=made,
                        large=large.value,
                    )
                )
        return tuple(steps)

    def fewest_step(self, amount: int) -> Step:
        """ "Fewest chips for 1430: 1 x 1000, 4 x 100, 1 x 25, 1 x 5." """
        counts = self.fewest(amount)
        return step(
            "Fewest chips for {amount}: {chips}.",
            amount=amount,
            chips=", ".join(f"{n} x {v}" for v, n in counts.items() if n) or "0",
        )

    def stacks(self, amount: int) -> list[dict[str, Any]]:
        """The fewest chips for `amount` as stacks to draw: [{value, colour, count}], largest first."""
        if not self.payable(amount) or amount <= 0:
            return []
        counts = self.fewest(amount)
        return [
            {"value": c.value, "colour": c.colour, "count": counts[str(c.value)]}
            for c in self.by_size
            if counts[str(c.value)]
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "payout_answer": self.payout_answer,
            "stack": self.stack,
            "chips": [
                {"value": c.value, "colour": c.colour, "name": c.name, "float": c.on_float}
                for c in self.chips
            ],
        }


@lru_cache(maxsize=1024)
def _fewest(chips: ChipSet, amount: int) -> tuple[tuple[str, int], ...]:
    # The chips drills ask for the same amount's fewest chips several times (the answer, the
    # explanation, each mistake): the table is worked out once.
    return chips._fewest(amount)


def load_chips(name: str = DEFAULT_CHIPS) -> ChipSet:
    """The chip set `data/chips/<name>.toml`; a malformed file fails here, naming the file and key."""
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(f"bad chip set name {str(name)[:40]!r}: use one such as {DEFAULT_CHIPS!r}")
    return _load(name)


@lru_cache(maxsize=8)
def _load(name: str) -> ChipSet:
    path = CHIPS_DIR / f"{name}.toml"
    data = read_toml(path, f"chip set {name!r} ({path})")
    return chips_from_mapping(name, data, str(path))


def chips_from_mapping(name: str, data: Mapping[str, Any], source: str = "<chips>") -> ChipSet:
    """Check and build a chip set from parsed TOML (see `data/chips/standard.toml`)."""
    unknown = set(data) - {"title", "payout_answer", "stack", "chip"}
    if unknown:
        raise ValueError(f"{source}: unknown key {sorted(unknown)[0]!r}")
    rows = data.get("chip")
    if not isinstance(rows, list) or not rows:
        raise ValueError(f"{source}: needs at least one [[chip]]")
    chips = []
    for number, row in enumerate(rows, 1):
        if not isinstance(row, dict) or not {"value", "colour", "name"} <= set(row) <= {
            "value",
            "colour",
            "name",
            "float",
        }:
            raise ValueError(f"{source}: chip {number} needs value, colour and name (and may have float)")
        value, colour, word, stock = row["value"], row["colour"], row["name"], row.get("float")
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{source}: chip {number}: value must be a whole number >= 1, not {value!r}")
        if not isinstance(colour, str) or not _COLOUR.fullmatch(colour):
            raise ValueError(f"{source}: chip {number}: colour must be like '#c62828', not {colour!r}")
        if not isinstance(word, str) or not word.strip():
            raise ValueError(f"{source}: chip {number}: name must be a word")
        if stock is not None and (isinstance(stock, bool) or not isinstance(stock, int) or stock < 0):
            raise ValueError(f"{source}: chip {number}: float must be a whole number >= 0, not {stock!r}")
        chips.append(Chip(value, colour, word.strip(), stock))
    values = [c.value for c in chips]
    if values != sorted(set(values)):
        raise ValueError(f"{source}: chips must be listed smallest first, each value once")
    if any(b % a for a, b in itertools.pairwise(values)):
        # Colouring up exchanges whole groups of one colour for the next, so each chip divides the next.
        raise ValueError(f"{source}: every chip must be a whole multiple of the chip below it")
    answer = data.get("payout_answer", "amount")
    if answer not in PAYOUT_FORMS:
        raise ValueError(f"{source}: payout_answer must be 'amount', 'chips' or 'fewest', not {answer!r}")
    stack = data.get("stack", 20)
    if isinstance(stack, bool) or not isinstance(stack, int) or stack < 1:
        raise ValueError(f"{source}: stack must be a whole number >= 1, not {stack!r}")
    if len({c.on_float is None for c in chips}) > 1:
        raise ValueError(f"{source}: give every chip its float count, or none")
    title = data.get("title", name)
    if not isinstance(title, str):
        raise ValueError(f"{source}: title must be text")
    return ChipSet(name, title, tuple(chips), answer, stack)
