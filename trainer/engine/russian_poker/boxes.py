"""Several boxes per player at a Russian poker table: who plays which box, open or blind.

Not in the rule page: the common rule of the casinos that deal this game, a house option in
`data/rules/russian-poker/*.toml` (`[boxes]`). By default the table has six boxes, numbered 1 to 6
from the dealer's left (the order the cards are dealt in); a player may play two adjacent boxes open
(looking at their cards), and a third or further box only blind (without looking: the box is bet or
folded unseen, so it buys no exchange and no sixth card).

A `Table` lists the boxes in play; `table_faults` gives every rule a placement breaks (empty when the
croupier can deal), `check_table` raises the first as a `BoxError` naming the rule broken.

>>> table = Table.of([(1, "A", "open"), (2, "A", "open"), (4, "A", "blind"), (5, "B", "open")])
>>> check_table(table)
>>> table.of_player("A")[2].mode
<BoxMode.BLIND: 'blind'>
>>> check_table(Table.of([(1, "A", "open"), (3, "A", "open")]))
Traceback (most recent call last):
...
trainer.engine.russian_poker.boxes.BoxError: boxes 1 and 3: A's open boxes must be next to each other
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from trainer.engine.explain import N_
from trainer.engine.russian_poker.rules import HouseRules, resolve_rules


class BoxMode(StrEnum):
    """How a player plays a box: open (he looks at the cards) or blind (he never sees them)."""

    OPEN = "open"
    BLIND = "blind"


class BoxFault(StrEnum):
    """The rule a placement of boxes breaks (what the croupier must refuse before the deal)."""

    NO_SUCH_BOX = "no_such_box"  # a box number the table does not have
    BOX_TAKEN = "box_taken"  # two stakes on one box
    TOO_MANY_OPEN = "too_many_open"  # more open boxes than one player may play
    OPEN_NOT_ADJACENT = "open_not_adjacent"  # a player's open boxes are not next to each other
    NO_BLIND_BOX = "no_blind_box"  # the house allows no box beyond the open ones
    BLIND_BEFORE_OPEN = "blind_before_open"  # a blind box while the player could still play one open

    @property
    def label(self) -> str:
        """The English sentence naming the rule (a drill's answer choice)."""
        return _FAULT_LABELS[self]


_FAULT_LABELS = {
    BoxFault.NO_SUCH_BOX: N_("A box the table does not have"),
    BoxFault.BOX_TAKEN: N_("Two stakes on one box"),
    BoxFault.TOO_MANY_OPEN: N_("Too many open boxes for one player"),
    BoxFault.OPEN_NOT_ADJACENT: N_("A player's open boxes are not next to each other"),
    BoxFault.NO_BLIND_BOX: N_("This house allows no box beyond the open ones"),
    BoxFault.BLIND_BEFORE_OPEN: N_("A blind box while the player may still play one open"),
}


class BoxError(ValueError):
    """A placement of boxes the croupier must refuse; `fault` names the rule broken, `box` and
    `player` where it is broken (when the fault has one)."""

    def __init__(
        self, fault: BoxFault, message: str, box: int | None = None, player: str | None = None
    ) -> None:
        super().__init__(message)
        self.fault, self.box, self.player = fault, box, player


def _mode(value: object) -> BoxMode:
    try:
        return BoxMode(str(value) if isinstance(value, str) else "")
    except ValueError:
        raise ValueError(f"a box is played open or blind, not {value!r:.40}") from None


@dataclass(frozen=True, slots=True)
class TableBox:
    """One box in play: its `number` (1 = the dealer's left), who plays it, and how."""

    number: int
    player: str
    mode: BoxMode = BoxMode.OPEN

    def __post_init__(self) -> None:
        if isinstance(self.number, bool) or not isinstance(self.number, int):
            raise ValueError(f"a box number is a whole number, not {self.number!r:.40}")
        if not isinstance(self.player, str) or not self.player.strip() or len(self.player) > 80:
            raise ValueError(f"a box is played by a named player, not {self.player!r:.40}")
        object.__setattr__(self, "mode", _mode(self.mode))

    @property
    def blind(self) -> bool:
        return self.mode is BoxMode.BLIND


@dataclass(frozen=True, slots=True)
class Table:
    """The boxes in play for one deal, in box order."""

    boxes: tuple[TableBox, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.boxes, tuple) or not all(isinstance(b, TableBox) for b in self.boxes):
            raise ValueError("a table is a tuple of TableBox")
        object.__setattr__(self, "boxes", tuple(sorted(self.boxes, key=lambda b: b.number)))

    @classmethod
    def of(cls, placements: Iterable[tuple[int, str, str]] | Iterable[TableBox]) -> Table:
        """A table from (number, player, "open" or "blind") triples, or from `TableBox`es."""
        if isinstance(placements, str | bytes) or not isinstance(placements, Iterable):
            raise ValueError(f"a table is a list of (box, player, open or blind), not {placements!r:.60}")
        boxes = []
        for item in placements:
            if isinstance(item, TableBox):
                boxes.append(item)
            elif isinstance(item, list | tuple) and len(item) == 3:
                number, player, mode = item
                boxes.append(TableBox(number, player, _mode(mode)))
            else:
                raise ValueError(f"a box in play is (number, player, open or blind), not {item!r:.60}")
            if len(boxes) > 100:
                raise ValueError("more than 100 boxes: no table has that many")
        return cls(tuple(boxes))

    @property
    def players(self) -> tuple[str, ...]:
        """The players at the table, in the order of their first box."""
        return tuple(dict.fromkeys(b.player for b in self.boxes))

    def of_player(self, player: str) -> tuple[TableBox, ...]:
        return tuple(b for b in self.boxes if b.player == player)


def _runs(numbers: list[int]) -> bool:
    """Whether the box numbers form one unbroken run (each next to the one before)."""
    return all(b - a == 1 for a, b in itertools.pairwise(numbers))


def table_faults(table: Table, rules: HouseRules | str | None = None) -> list[BoxError]:
    """Every rule the placement breaks, in box order; empty when the croupier may deal.

    >>> three_open = Table.of([(1, "A", "open"), (2, "A", "open"), (3, "A", "open")])
    >>> [e.fault.value for e in table_faults(three_open)]
    ['too_many_open']
    """
    r = resolve_rules(rules)
    if not isinstance(table, Table):
        raise ValueError(f"expected a Table of boxes, not {table!r:.60}")
    found: list[BoxError] = []
    seen: dict[int, str] = {}
    for box in table.boxes:
        if not 1 <= box.number <= r.boxes_count:
            found.append(
                BoxError(
                    BoxFault.NO_SUCH_BOX,
                    f"box {box.number}: the table has boxes 1 to {r.boxes_count}",
                    box.number,
                    box.player,
                )
            )
        elif box.number in seen:
            found.append(
                BoxError(
                    BoxFault.BOX_TAKEN,
                    f"box {box.number}: staked by {seen[box.number]} and by {box.player}; "
                    "one box, one player",
                    box.number,
                    box.player,
                )
            )
        else:
            seen[box.number] = box.player
    for player in table.players:
        mine = [b for b in table.of_player(player) if 1 <= b.number <= r.boxes_count]
        opened = [b.number for b in mine if not b.blind]
        blind = [b.number for b in mine if b.blind]
        if len(opened) > r.boxes_open_per_player:
            found.append(
                BoxError(
                    BoxFault.TOO_MANY_OPEN,
                    f"{player} plays {len(opened)} boxes open; at most {r.boxes_open_per_player} may be "
                    + ("open, any further box blind" if r.boxes_blind_beyond_open else "played"),
                    opened[r.boxes_open_per_player],
                    player,
                )
            )
        elif r.boxes_open_adjacent and not _runs(sorted(set(opened))):
            shown = " and ".join(str(n) for n in sorted(opened))
            found.append(
                BoxError(
                    BoxFault.OPEN_NOT_ADJACENT,
                    f"boxes {shown}: {player}'s open boxes must be next to each other",
                    None,
                    player,
                )
            )
        if blind and not r.boxes_blind_beyond_open:
            found.append(
                BoxError(
                    BoxFault.NO_BLIND_BOX,
                    f"box {blind[0]}: {r.title} allows no blind box; {player} may play "
                    f"{r.boxes_open_per_player} boxes open and no more",
                    blind[0],
                    player,
                )
            )
        elif blind and len(opened) < r.boxes_open_per_player:
            found.append(
                BoxError(
                    BoxFault.BLIND_BEFORE_OPEN,
                    f"box {blind[0]}: {player} plays it blind with only {len(opened)} of his "
                    f"{r.boxes_open_per_player} boxes open; a box is blind only beyond the open ones",
                    blind[0],
                    player,
                )
            )
    return found


def check_table(table: Table, rules: HouseRules | str | None = None) -> None:
    """Raise the first `BoxError` of the placement (see `table_faults`); None when it is legal."""
    faults = table_faults(table, rules)
    if faults:
        raise faults[0]


def check_blind_box(*, exchanges: int = 0, sixth_card: bool = False) -> None:
    """A blind box is bet or folded without looking at its cards: no exchange and no sixth card.

    >>> check_blind_box(exchanges=1)
    Traceback (most recent call last):
    ...
    ValueError: a blind box is played without looking at its cards: it buys no exchange and no sixth card
    """
    if exchanges or sixth_card:
        raise ValueError(
            "a blind box is played without looking at its cards: it buys no exchange and no sixth card"
        )


__all__ = [
    "BoxError",
    "BoxFault",
    "BoxMode",
    "Table",
    "TableBox",
    "check_blind_box",
    "check_table",
    "table_faults",
]
