"""Own questions of Omaha and Omaha Hi/Lo: a showdown an instructor enters (the board, each seat's
four hole cards or a fold, the chips each seat put in, the button), made into an `om.side_pots`
situation at level 2 (each pot, what is returned as an uncalled bet, what each seat collects),
checked by the engine as it is entered and graded by it like a drawn one.

A line as the quiz form takes it: the board, then a part per seat (its four cards, or `-` when it
folded, and the chips it put in; `*` marks the button, else the last seat has it), parted by
slashes; `hilo` before the board makes it Omaha Hi/Lo.

>>> facts = parse_line("2c 7d 9h Jc Ks / Ah Ad 3c 4d 50 / Kd Kh 5c 6d 50 / * - 20")
>>> facts["button"], facts["contributions"], facts["hi_lo"]
(2, [50, 50, 20], False)
>>> from trainer.drills.base import expected_of
>>> expected_of(own_showdown(**facts, rules_name=None))[0]
{'Main pot': 120, 'Side pot 1': 0, 'Returned': 0, 'Seat 1': 0, 'Seat 2': 120, 'Seat 3': 0}
>>> fixed_of(**parse_line("2c 7d 9h Jc Ks / Ah Ad 3c 4d 50 / - 60"))
Traceback (most recent call last):
...
trainer.drills.own.OwnQuestionError: seats
"""

from __future__ import annotations

import json
import re
from typing import Any

from trainer.drills.base import Situation, expected_of, get_kind
from trainer.drills.houses import using
from trainer.drills.omaha.deals import house_rules, names
from trainer.drills.omaha.kinds import showdown_question
from trainer.drills.own import OwnKind, OwnQuestionError, cards_of, register_own, whole_in
from trainer.engine.presets import HouseSource

KIND = "om.side_pots"
LEVEL = 2
CHIPS_MAX = 1_000_000
SEATS_MAX = 10
CHIP = 1  # the smallest chip of an own showdown: any whole number of chips may be put in
FOLDED = ("-", "—", "–", "x")
HI_LO = ("hilo", "hi-lo", "hi/lo")
_PARTS = re.compile(r"\s*[/|;]\s*")
# Reasons of `OwnQuestionError` here: "shape" (not a board and seats), "cards" (not cards), "board"
# (not five cards), "hole" (a seat with cards has not four), "repeated" (a card dealt twice), "seats"
# (not 2 to 10 seats, two of them with cards), "chips" (not whole numbers from 0 to `CHIPS_MAX`),
# "button" (more than one seat marked, or none such), "stacks" (chips that cannot come about: a seat
# with cards that put in nothing, or a folded one that put in more than every seat with cards),
# "impossible" (the engine cannot settle it).


def parse_line(line: str) -> dict[str, Any]:
    """The facts of a typed line (see the module), for `fixed_of`; `OwnQuestionError` when the line
    is not a board and seats."""
    text = line.strip()
    hi_lo = False
    head = text.split(None, 1)
    if head and head[0].lower() in HI_LO:
        hi_lo, text = True, head[1] if len(head) > 1 else ""
    parts = _PARTS.split(text)
    if len(parts) < 2 or not parts[0]:
        raise OwnQuestionError("shape")
    holes: list[Any] = []
    contributions: list[Any] = []
    button = None
    for number, part in enumerate(parts[1:]):
        if "*" in part:
            if button is not None:
                raise OwnQuestionError("button")
            button, part = number, part.replace("*", " ")
        tokens = part.split()
        if not tokens:
            raise OwnQuestionError("shape")
        chips = tokens[-1]
        contributions.append(int(chips) if chips.isascii() and chips.isdigit() else chips)
        cards = tokens[:-1]
        holes.append(None if [t.lower() for t in cards] in ([f] for f in FOLDED) else " ".join(cards))
    return {
        "board": parts[0],
        "holes": holes,
        "contributions": contributions,
        "button": len(holes) - 1 if button is None else button,
        "hi_lo": hi_lo,
    }


def fixed_of(board: Any, holes: Any, contributions: Any, button: Any, hi_lo: Any) -> dict[str, Any]:
    """The showdown as a quiz keeps it (card codes, chips, the button's seat from 0), checked."""
    if not isinstance(holes, list) or not isinstance(contributions, list) or len(holes) != len(contributions):
        raise OwnQuestionError("shape")
    if not isinstance(hi_lo, bool):
        raise OwnQuestionError("shape")
    dealt = cards_of(board)
    if len(dealt) != 5:
        raise OwnQuestionError("board")
    kept: list[list[str] | None] = []
    for hole in holes:
        if hole is None:
            kept.append(None)
            continue
        cards = cards_of(hole)
        if len(cards) != 4:
            raise OwnQuestionError("hole")
        dealt += cards
        kept.append(names(cards))
    if len(set(dealt)) != len(dealt):
        raise OwnQuestionError("repeated")
    live = [seat for seat, hole in enumerate(kept) if hole is not None]
    if not 2 <= len(kept) <= SEATS_MAX or len(live) < 2:
        raise OwnQuestionError("seats")
    if not all(whole_in(amount, 0, CHIPS_MAX) for amount in contributions):
        raise OwnQuestionError("chips")
    deepest = max(contributions[seat] for seat in live)
    folded = [amount for hole, amount in zip(kept, contributions, strict=True) if hole is None]
    if any(contributions[seat] == 0 for seat in live) or any(amount > deepest for amount in folded):
        raise OwnQuestionError("stacks")
    if not whole_in(button, 0, len(kept) - 1):
        raise OwnQuestionError("button")
    return {
        "board": names(dealt[:5]),
        "holes": kept,
        "contributions": list(contributions),
        "button": button,
        "hi_lo": hi_lo,
    }


def own_showdown(
    board: Any,
    holes: Any,
    contributions: Any,
    button: Any,
    hi_lo: Any,
    rules_name: str | None,
    *,
    houses: HouseSource | None = None,
) -> Situation:
    """The situation of an own showdown under the Omaha house rules `rules_name` (None: the default;
    a house preset that `houses` holds)."""
    with using(houses):
        return _situation(fixed_of(board, holes, contributions, button, hi_lo), rules_name)


def _situation(fixed: dict[str, Any], rules_name: str | None) -> Situation:
    house_rules(rules_name)  # a preset Omaha does not have is refused, as for a drawn one
    data = showdown_question(
        fixed["board"],
        fixed["holes"],
        fixed["contributions"],
        fixed["button"],
        CHIP,
        hi_lo=fixed["hi_lo"],
        level=LEVEL,
    )
    data["own"] = True
    data = json.loads(json.dumps(data))
    kind = get_kind(KIND)
    situation = Situation(kind.id, LEVEL, 0, kind.version, rules_name, data, kind.answer_format(data))
    try:
        values = get_kind(KIND).solve(situation.data)[0]
        expected_of(situation)
    except (ValueError, IndexError):
        raise OwnQuestionError("impossible") from None
    if len(values) != len(situation.answer_format.labels):
        raise OwnQuestionError("impossible")  # more pots than the question has room for
    return situation


register_own(
    OwnKind(
        KIND,
        LEVEL,
        lambda facts: fixed_of(
            facts.get("board"),
            facts.get("holes"),
            facts.get("contributions"),
            facts.get("button"),
            facts.get("hi_lo"),
        ),
        _situation,
    )
)
