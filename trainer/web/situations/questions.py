"""The short question shown above a drawn table on a phone.

A drill's prompt says the whole situation in words (every card, every amount); the table drawing shows
the same facts, so on a phone the page leads with a short question and keeps the prompt as the table
in words (read by screen readers, unfolded on demand). Each question here is one whole sentence per
kind, written for what the drawing does not say by itself (the player's hand is higher, a loss is a
negative amount); a kind not listed asks its title.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask_babel import gettext

from trainer.drills import REGISTRY

Data = Mapping[str, Any]


def _rp_qualify(data: Data) -> str:
    if data.get("game_card"):
        return gettext("The player bought the game. Does the dealer have a game now?")
    return gettext("Does the dealer have a game?")


def _rp_buy(data: Data) -> str:
    if data.get("question") == "cost":
        return gettext("What do the player's buys cost?")
    return gettext(
        "The player bought the game. What is the result on each spot? A loss is a negative amount."
    )


def _pp_sheet(data: Data) -> str:
    deals = data.get("deals") or [{}]
    return gettext(
        "What is seat %(seat)s's total after deal %(deal)s?",
        seat=data.get("seat"),
        deal=deals[-1].get("number"),
    )


def _om_blinds(data: Data) -> str:
    if data.get("missed"):
        return gettext("What does the returning player post, live and dead?")
    return gettext("What does each seat post before the deal?")


def _om_new_player(data: Data) -> str:
    if data.get("question") == "wait":
        return gettext(
            "A new player sits down on seat %(seat)s and waits for the big blind. In how many hands "
            "is he dealt in (1 = the next hand)?",
            seat=data["new_seat"],
        )
    return gettext(
        "A new player sits down on seat %(seat)s and wants to play this hand. What does he do?",
        seat=data["new_seat"],
    )


def _om_showdown(data: Data) -> str:
    if data.get("question") == "muck":
        return gettext(
            "Seat %(seat)s is next to show. May he muck his hand without showing it?",
            seat=data["asked"],
        )
    return gettext("Who shows first?")


def _chip_change(data: Data) -> str:
    if data.get("task") == "buy_in":
        return gettext("A cash buy-in: how many chips of each colour, in the fewest chips?")
    return gettext("Pay this amount: how many chips of each colour, in the fewest chips?")


QUESTIONS: dict[str, Callable[[Data], str]] = {
    "rp.qualify": _rp_qualify,
    "rp.combination": lambda d: gettext("What is the player's paying combination?"),
    "rp.bet_payout": lambda d: gettext("The player's hand beats the dealer's. What is paid on the bet?"),
    "rp.bonus_payout": lambda d: gettext(
        "What is the player's result on the bonus? A loss is a negative amount."
    ),
    "rp.no_game": lambda d: gettext(
        "The dealer has no game. What is the result on each spot? A loss is a negative amount."
    ),
    "rp.buy": _rp_buy,
    "rp.settle": lambda d: gettext(
        "What is the result on each spot, and the net? A loss is a negative amount."
    ),
    "rp.two_combinations": lambda d: gettext(
        "The player's hand beats the dealer's. What is paid on the bet?"
    ),
    "rp.insurance": lambda d: gettext(
        "The player wants to insure his bet against the dealer having no game. What is the most "
        "he may insure?"
    ),
    "rp.boxes": lambda d: gettext("May the croupier deal, or which rule does this break?"),
    "rp.decision": lambda d: gettext("The best play: fold, bet, exchange (which cards?) or a sixth card?"),
    "om.high": lambda d: gettext("What is the player's best high hand?"),
    "om.winner": lambda d: gettext("Which seat wins the pot?"),
    "om.low": lambda d: gettext("What is the player's best low hand?"),
    "om.split": lambda d: gettext("What does each seat collect?"),
    "om.side_pots": lambda d: gettext(
        "How big is each pot (0 if there is none), what is returned as an uncalled bet, and what "
        "does each seat collect?"
    ),
    "om.pot_limit": lambda d: gettext("What is the most the player to act may raise to?"),
    "om.limit": lambda d: gettext(
        "What may the player to act bet or raise to? Answer 0 if he may not raise."
    ),
    "om.blinds": _om_blinds,
    "om.new_player": _om_new_player,
    "om.showdown": _om_showdown,
    "pp.score": lambda d: gettext("What does the player score?"),
    "pp.schedule": lambda d: gettext("How many cards each, and what kind of deal, is this deal?"),
    "pp.hook": lambda d: gettext("Which bid may the dealer not make?"),
    "pp.trick": lambda d: gettext("Who takes the trick?"),
    "pp.sheet": _pp_sheet,
    "rp.chip_change": _chip_change,
    "om.chip_change": _chip_change,
    "rp.colour_up": lambda d: gettext("Colour these chips up: how many of each colour?"),
    "om.colour_up": lambda d: gettext("Colour these chips up: how many of each colour?"),
    "rp.chip_count": lambda d: gettext("What are these stacks worth?"),
    "om.chip_count": lambda d: gettext("What are these stacks worth?"),
    "rp.pay_box": lambda d: gettext(
        "The player's hand is higher. Pay the bet in the fewest chips: how many of each colour?"
    ),
    "rp.spot_mistake": lambda d: gettext(
        "Which boxes were settled wrong? Give the right net of every box (a loss is negative)."
    ),
    "om.spot_mistake": lambda d: gettext(
        "Which splits are wrong? Give what each seat should collect in every hand."
    ),
    "pp.spot_mistake": lambda d: gettext(
        "Which scores on the sheet are wrong? Give the right score of every entry."
    ),
}


# Kinds whose amounts may be a loss: the answer field gets a sign button (a phone's number pad has no
# minus) and says that a loss is negative.
SIGNED_KINDS = frozenset(
    {
        "rp.bonus_payout",
        "rp.no_game",
        "rp.buy",
        "rp.settle",
        "pp.score",
        "pp.sheet",
        "rp.spot_mistake",
        "pp.spot_mistake",
    }
)


def amount_may_be_negative(kind_id: str) -> bool:
    return kind_id in SIGNED_KINDS


def short_question(kind_id: str, data: Data) -> str:
    """The question in one short sentence, translated; the kind's title for a kind not listed."""
    ask = QUESTIONS.get(kind_id)
    if ask is not None:
        try:
            return ask(data)
        except (AttributeError, IndexError, KeyError, TypeError):
            pass  # a situation stored by an older generator: its title still asks the question
    kind = REGISTRY.get(kind_id)
    return gettext(kind.title) if kind is not None else ""
