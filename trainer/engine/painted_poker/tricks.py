"""Painted poker trick play: which cards a player may play, and who takes a completed trick.

A trick is a sequence of `Play`s in playing order, the leader first. A play of an ordinary card is
just the card; a joker carries its call (`JokerCall`): led, it calls "highest_trump", "highest"
with a suit, or "low"; played later it goes "high" (takes the trick; the last high joker wins) or
"low" (thrown as the lowest card, takes nothing). `Play.parse` reads "As", "7s:high",
"7s:highest:h" and "7s:low". The trump is a suit letter, or None for a deal without trump.

Follow suit; without it play a trump; with neither play anything. The joker is always allowed.
Led with "highest <suit>" (or "highest_trump"), everybody owes his highest card of that suit, else
any trump, else anything; the joker wins unless a later joker is played high. Where the house has
them, "lowest_trump" binds everybody to his lowest trump, "high_card" / "low_card" of a suit to his
highest / lowest card of that suit (else any trump, else anything), and the joker then counts as
that card. A joker led "low"
names no suit (the rule page gives none), so the first ordinary card played after it sets the suit
to follow and the player right after the leader may play anything.

>>> from trainer.engine.cards import parse_cards
>>> trick = [Play.parse("9h")]
>>> legal_cards(parse_cards("Ah 6h Ks 7s"), trick, trump="s")      # hearts, or the joker 7s
(Card('Ah'), Card('6h'), Card('7s'))
>>> legal_cards(parse_cards("Ks 8s Ad"), trick, trump="s")          # no heart: must trump
(Card('Ks'), Card('8s'))
>>> trick_winner(Play.parse_all("9h Ah 6s Kh"), trump="s")          # the six of trumps takes it
2
>>> trick_winner(Play.parse_all("9h 7s:high 6s"), trump="s")        # the joker beats the trump
1
>>> legal_cards(parse_cards("Qd 9d As"), Play.parse_all("7s:highest:d"), trump="s")
(Card('Qd'),)
>>> trick_winner(Play.parse_all("7s:low 8d Ad 6s"), trump="s")      # led low: 8d sets the suit
3
>>> legal_cards(parse_cards("Kd 9d Ah"), Play.parse_all("7s:low_card:d"), "h", "odessa-house")
(Card('9d'),)
>>> trump_of(parse_cards("7s")[0])                                  # a turned-up joker: no trump
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from trainer.engine.cards import FULL_DECK, SUIT_NAMES, SUITS, Card
from trainer.engine.explain import Cards, Step, Term, step
from trainer.engine.painted_poker.rules import (
    DealKind,
    PaintedRules,
    TrumpMode,
    painted_card,
    painted_cards,
    resolve,
)


class JokerCall(StrEnum):
    """What a joker does. Led: HIGHEST_TRUMP, HIGHEST (with a suit) or LOW, and where the house allows
    them LOWEST_TRUMP, HIGH_CARD or LOW_CARD (with a suit) or AS_CARD (with a card); played later:
    HIGH or LOW."""

    HIGH = "high"
    LOW = "low"
    HIGHEST_TRUMP = "highest_trump"
    HIGHEST = "highest"
    LOWEST_TRUMP = "lowest_trump"
    HIGH_CARD = "high_card"
    LOW_CARD = "low_card"
    AS_CARD = "as_card"


LEAD_CALLS = frozenset(
    {
        JokerCall.HIGHEST_TRUMP,
        JokerCall.HIGHEST,
        JokerCall.LOW,
        JokerCall.LOWEST_TRUMP,
        JokerCall.HIGH_CARD,
        JokerCall.LOW_CARD,
        JokerCall.AS_CARD,
    }
)
FOLLOW_CALLS = frozenset({JokerCall.HIGH, JokerCall.LOW})
_WINNING_CALLS = frozenset({JokerCall.HIGH, JokerCall.HIGHEST_TRUMP, JokerCall.HIGHEST})
_SUIT_CALLS = frozenset({JokerCall.HIGHEST, JokerCall.HIGH_CARD, JokerCall.LOW_CARD})
_TRUMP_CALLS = frozenset({JokerCall.HIGHEST_TRUMP, JokerCall.LOWEST_TRUMP})


@dataclass(frozen=True)
class Play:
    """One card put on the table; `call` only for a joker, with `suit` for HIGHEST, HIGH_CARD and
    LOW_CARD and `named` (the card it stands for) for AS_CARD."""

    card: Card
    call: JokerCall | None = None
    suit: str | None = None
    named: Card | None = None

    def __str__(self) -> str:
        parts = [str(self.card)] + ([self.call.value] if self.call else [])
        parts += [self.suit] if self.suit else []
        parts += [str(self.named)] if self.named else []
        return ":".join(parts)

    @classmethod
    def parse(cls, text: str) -> Play:
        """ "As", "7s:high", "7s:low", "7s:highest_trump", "7s:highest:h", "7s:low_card:h",
        "7s:as_card:9h"; a 54-card deck's jokers are "X1" and "X2"."""
        if not isinstance(text, str):
            raise ValueError(f"bad play {text!r}: expected text such as 'As' or '7c:high'")
        parts = text.strip().split(":")
        if len(parts) > 3:
            raise ValueError(f"bad play {text!r}: expected card[:call[:suit or card]]")
        card = painted_card(parts[0])
        try:
            call = JokerCall(parts[1].strip().lower()) if len(parts) > 1 else None
        except ValueError:
            calls = ", ".join(c.value for c in JokerCall)
            raise ValueError(f"bad joker call in {text!r}: expected one of {calls}") from None
        last = parts[2].strip() if len(parts) > 2 else None
        if call is JokerCall.AS_CARD:
            if last is None:
                raise ValueError(
                    f"bad play {text!r}: a joker led as a card names it, such as '7c:as_card:9h'"
                )
            return cls(card, call, None, Card.from_text(last))
        suit = last.lower() if last is not None else None
        if suit is not None and suit not in SUITS:
            raise ValueError(f"bad suit in {text!r}: expected one of s, h, d, c")
        return cls(card, call, suit)

    @classmethod
    def parse_all(cls, text: str | Iterable[str]) -> tuple[Play, ...]:
        """Plays from "9h 7s:high 6s" or a list of such tokens."""
        if isinstance(text, str):
            tokens = text.split()
        elif isinstance(text, Iterable) and not isinstance(text, bytes | bytearray | dict):
            tokens = list(itertools.islice(text, len(FULL_DECK) + 1))
        else:
            raise ValueError(f"bad plays {text!r:.60}: expected text such as '9h 7c:high' or a list of it")
        if len(tokens) > len(FULL_DECK):
            raise ValueError(f"more than {len(FULL_DECK)} plays: a deck has {len(FULL_DECK)} cards")
        return tuple(cls.parse(t) for t in tokens)


def trump_of(
    turned: Card | None, rules: PaintedRules | str | None = None, deal: str = "normal"
) -> str | None:
    """The trump suit shown by the turned-up card: None for a joker, a no-trump deal or no card."""
    r = resolve(rules)
    if turned is not None and not isinstance(turned, Card):
        raise ValueError(f"the turned-up card must be a Card or None, not {turned!r:.60}")
    if not isinstance(deal, str):
        raise ValueError(f"the deal kind must be one of {', '.join(DealKind)}, not {deal!r:.60}")
    if DealKind(deal) is DealKind.NO_TRUMP or turned is None or r.is_joker(turned):
        return None
    return turned.suit


def deal_trump(
    number: int,
    deal: DealKind | str = "normal",
    rules: PaintedRules | str | None = None,
    turned: Card | None = None,
) -> str | None:
    """The trump of deal `number` (from 1): with circular trump the suits in the house's order, one a
    deal; otherwise the suit of the `turned` card (None for a joker). No-trump deals have none.

    >>> [deal_trump(n, rules="deck-54") for n in range(1, 6)]   # "ყვავიდან გულამდე": spades to hearts
    ['s', 'c', 'd', 'h', 's']
    >>> deal_trump(6, "no_trump", "deck-54") is None
    True
    >>> deal_trump(6, turned=Card(13, "h"))
    'h'
    """
    r = resolve(rules)
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise ValueError(f"a deal number is a whole number from 1, not {number!r:.40}")
    if DealKind(deal) is DealKind.NO_TRUMP:
        return None
    if r.trump_mode is TrumpMode.CIRCULAR:
        return r.trump_order[(number - 1) % len(r.trump_order)]
    return trump_of(turned, r, deal)


def _check_trump(trump: str | None) -> None:
    if trump is not None and trump not in SUITS:
        raise ValueError(f"trump must be one of s, h, d, c or None, not {trump!r}")


def check_trick(trick: Sequence[Play], trump: str | None, rules: PaintedRules | str | None = None) -> None:
    """Raise `ValueError` unless every play is a distinct card of the deck with a call that fits it."""
    r = resolve(rules)
    _check_trump(trump)
    if not isinstance(trick, list | tuple):
        raise ValueError(f"a trick is a list of plays, not {trick!r:.60}")
    if len(trick) > r.max_players:
        raise ValueError(f"a trick has at most {r.max_players} cards, not {len(trick)}")
    deck = set(r.deck)
    seen: set[Card] = set()
    for position, play in enumerate(trick):
        if not isinstance(play, Play):
            raise ValueError(f"play {position + 1} must be a Play, not {play!r}")
        if play.card not in deck:
            raise ValueError(f"{play.card} is not in the {len(deck)}-card deck")
        if play.card in seen:
            raise ValueError(f"{play.card} is played twice")
        seen.add(play.card)
        if not r.is_joker(play.card):
            if play.call is not None or play.suit is not None:
                raise ValueError(f"{play.card} is not a joker and cannot call {play.call}")
            continue
        allowed = {c for c in LEAD_CALLS if c.value in r.lead_calls} if position == 0 else FOLLOW_CALLS
        if play.call not in allowed:
            names = ", ".join(sorted(c.value for c in allowed))
            where = "led" if position == 0 else "played after the lead"
            raise ValueError(f"the joker {play.card} {where} must call one of {names} in this house")
        if (play.call in _SUIT_CALLS) != (play.suit is not None):
            raise ValueError(
                f"the joker {play.card} names a suit with 'highest', 'high_card' or 'low_card', and only then"
            )
        if (play.call is JokerCall.AS_CARD) != (play.named is not None):
            raise ValueError(f"the joker {play.card} names a card when led as a card, and only then")
        if play.named is not None and (play.named not in deck or r.is_joker(play.named)):
            raise ValueError(
                f"the joker {play.card} may stand for an ordinary card of the deck, not {play.named}"
            )
        if play.call in _TRUMP_CALLS and trump is None:
            raise ValueError(
                f"a joker cannot call {play.call.value.replace('_', ' ')} in a deal without trump"
            )


def _demand(trick: Sequence[Play], rules: PaintedRules) -> tuple[str, str | None]:
    """What the next player owes: ("follow", suit), ("highest", suit), ("lowest", suit) or ("free", None).

    The seed (l.21): "ყველა მოთამაშეს მოეთხოვება ბრძანების შესაბამისად კარტის დადება" (everyone must
    play according to the call), so a joker led calling the lowest trump, or the high or low card of a
    suit, binds each follower to that very card of his, as "highest trump" and "highest <suit>" do.
    """
    lead = trick[0]
    if not rules.is_joker(lead.card):
        return "follow", lead.card.suit
    if lead.call in (JokerCall.HIGHEST, JokerCall.HIGH_CARD):
        return "highest", lead.suit
    if lead.call is JokerCall.HIGHEST_TRUMP:
        return "highest", "trump"
    if lead.call is JokerCall.LOWEST_TRUMP:
        return "lowest", "trump"
    if lead.call is JokerCall.LOW_CARD:
        return "lowest", lead.suit
    if lead.call is JokerCall.AS_CARD and lead.named is not None:
        return "follow", lead.named.suit
    # Led low: the first ordinary card played after it sets the suit to follow.
    for play in trick[1:]:
        if not rules.is_joker(play.card):
            return "follow", play.card.suit
    return "free", None


def legal_cards(
    hand: Iterable[Card | str] | str,
    trick: Sequence[Play],
    trump: str | None,
    rules: PaintedRules | str | None = None,
) -> tuple[Card, ...]:
    """The cards of `hand` (in hand order) the next player may put on `trick` (the plays so far)."""
    r = resolve(rules)
    cards = painted_cards(hand)
    if not cards:
        raise ValueError("the hand is empty")
    check_trick(trick, trump, r)
    deck = set(r.deck)
    on_table = {p.card for p in trick}
    for card in cards:
        if card not in deck:
            raise ValueError(f"{card} is not in the {len(deck)}-card deck")
        if card in on_table:
            raise ValueError(f"{card} is both in the hand and on the table")
    if not trick:
        return cards
    what, suit = _demand(trick, r)
    if suit == "trump":
        suit = trump
    plain = [c for c in cards if not r.is_joker(c)]
    allowed: set[Card] = {c for c in cards if r.is_joker(c)}
    suited = [c for c in plain if c.suit == suit]
    trumps = [c for c in plain if c.suit == trump]
    if what == "free":
        allowed.update(cards)
    elif suited and what == "highest":
        allowed.add(max(suited, key=lambda c: c.rank))
    elif suited and what == "lowest":
        allowed.add(min(suited, key=lambda c: c.rank))
    elif suited:
        allowed.update(suited)
    elif trumps:
        allowed.update(trumps)
    else:
        allowed.update(cards)
    return tuple(c for c in cards if c in allowed)


def _takes(trick: Sequence[Play], winner: int) -> Step:
    """The sentence that closes every explanation of a trick: which play takes it."""
    return step(
        "Play {position} ({card}) takes the trick.", position=winner + 1, card=Cards.of([trick[winner].card])
    )


def explain_trick(
    trick: Sequence[Play], trump: str | None, rules: PaintedRules | str | None = None
) -> tuple[int, tuple[Step, ...]]:
    """The position in `trick` (0 = leader) of the play that takes the completed trick, and why."""
    r = resolve(rules)
    check_trick(trick, trump, r)
    if len(trick) < 2:
        raise ValueError("a completed trick has at least two cards")
    steps: list[Step] = []
    if trump is None:
        steps.append(step("No trump in this deal."))
    else:
        steps.append(step("Trump: {suit}.", suit=Term(SUIT_NAMES[trump])))
    high = [i for i, p in enumerate(trick) if r.is_joker(p.card) and p.call in _WINNING_CALLS]
    lead = trick[0]
    if r.is_joker(lead.card) and lead.call is JokerCall.HIGHEST:
        assert lead.suit is not None
        steps.append(
            step(
                "The joker {card} was led calling for the highest card of a suit: {suit}.",
                card=Cards.of([lead.card]),
                suit=Term(SUIT_NAMES[lead.suit]),
            )
        )
    elif r.is_joker(lead.card) and lead.call is JokerCall.HIGHEST_TRUMP:
        steps.append(step("The joker {card} was led calling the highest trump.", card=Cards.of([lead.card])))
    if high:
        winner = high[-1]
        if len(high) > 1:
            steps.append(step("Two jokers played high: the last one played wins."))
        steps.append(
            step("The joker {card} beats every card, trumps included.", card=Cards.of([trick[winner].card]))
        )
        steps.append(_takes(trick, winner))
        return winner, tuple(steps)
    if r.is_joker(lead.card) and lead.call in _CARD_CALLS:
        return _led_as_a_card(trick, trump, r, steps)
    thrown = [p for p in trick if r.is_joker(p.card)]
    for p in thrown:
        steps.append(step("The joker {card} was played low: it takes nothing.", card=Cards.of([p.card])))
    plain = [i for i, p in enumerate(trick) if not r.is_joker(p.card)]
    if not plain:
        # Only possible with two jokers both low and no other card: the leader keeps it.
        steps.append(step("No ordinary card was played: the leader keeps the trick."))
        steps.append(_takes(trick, 0))
        return 0, tuple(steps)
    led_suit = trick[plain[0]].card.suit
    if r.is_joker(lead.card):
        steps.append(
            step(
                "The first ordinary card, {card}, sets the suit: {suit}.",
                card=Cards.of([trick[plain[0]].card]),
                suit=Term(SUIT_NAMES[led_suit]),
            )
        )
    else:
        steps.append(
            step(
                "{card} was led: the suit to follow is {suit}.",
                card=Cards.of([lead.card]),
                suit=Term(SUIT_NAMES[led_suit]),
            )
        )
    trumps = [i for i in plain if trick[i].card.suit == trump]
    if trumps:
        winner = max(trumps, key=lambda i: trick[i].card.rank)
        steps.append(step("The highest trump played is {card}.", card=Cards.of([trick[winner].card])))
    else:
        winner = max((i for i in plain if trick[i].card.suit == led_suit), key=lambda i: trick[i].card.rank)
        if trump is not None:
            steps.append(step("No trump was played."))
        steps.append(
            step(
                "The highest card of the led suit ({suit}) is {card}.",
                suit=Term(SUIT_NAMES[led_suit]),
                card=Cards.of([trick[winner].card]),
            )
        )
    steps.append(_takes(trick, winner))
    return winner, tuple(steps)


_CARD_CALLS = frozenset({JokerCall.LOWEST_TRUMP, JokerCall.HIGH_CARD, JokerCall.LOW_CARD, JokerCall.AS_CARD})


def _led_as_a_card(
    trick: Sequence[Play], trump: str | None, r: PaintedRules, steps: list[Step]
) -> tuple[int, tuple[Step, ...]]:
    """A joker led as a card: the lowest trump, the highest or lowest card of a suit (above the ace or
    below the lowest rank), or a named card. It then plays by the ordinary rules: the highest trump
    takes the trick, else the highest card of the suit led; of two equal cards the first played."""
    lead = trick[0]
    card = Cards.of([lead.card])
    if lead.call is JokerCall.LOWEST_TRUMP:
        assert trump is not None
        led, rank = trump, 1
        steps.append(
            step(
                "The joker {card} was led calling the lowest trump: everybody must play his lowest trump, "
                "and the highest trump takes the trick.",
                card=card,
            )
        )
    elif lead.call is JokerCall.AS_CARD:
        assert lead.named is not None
        led, rank = lead.named.suit, lead.named.rank
        steps.append(
            step(
                "The joker {card} was led as {named}: it counts as that card.",
                card=card,
                named=Cards.of([lead.named]),
            )
        )
    else:
        assert lead.suit is not None
        led, rank = lead.suit, 15 if lead.call is JokerCall.HIGH_CARD else 1
        if lead.call is JokerCall.HIGH_CARD:
            said = step(
                "The joker {card} was led as the highest card of {suit}: everybody must play his highest "
                "card of that suit (without one, a trump); only a trump beats the joker.",
                card=card,
                suit=Term(SUIT_NAMES[led]),
            )
        else:
            said = step(
                "The joker {card} was led as the lowest card of {suit}: everybody must play his lowest "
                "card of that suit (without one, a trump), and the highest card takes the trick.",
                card=card,
                suit=Term(SUIT_NAMES[led]),
            )
        steps.append(said)
    for p in trick[1:]:
        if r.is_joker(p.card):
            steps.append(step("The joker {card} was played low: it takes nothing.", card=Cards.of([p.card])))
    cards = {0: (led, rank)} | {
        i: (p.card.suit, p.card.rank) for i, p in enumerate(trick) if i and not r.is_joker(p.card)
    }
    trumps = [i for i, (suit, _rank) in cards.items() if suit == trump]
    pool = trumps or [i for i, (suit, _rank) in cards.items() if suit == led]
    # Of two equal cards (a joker led as a card that is also played) the first played ranks higher.
    winner = max(pool, key=lambda i: (cards[i][1], -i))
    won = Cards.of([trick[winner].card])
    if winner == 0:
        steps.append(step("Nothing played beats it: the joker {card} takes the trick.", card=card))
    elif trumps:
        steps.append(step("The highest trump played is {card}.", card=won))
    else:
        # The suit in the genitive where the language has one ("the highest card of hearts").
        suit = Term(SUIT_NAMES[led], "genitive")
        steps.append(step("The highest card of {suit} is {card}.", suit=suit, card=won))
    steps.append(_takes(trick, winner))
    return winner, tuple(steps)


def trick_winner(trick: Sequence[Play], trump: str | None, rules: PaintedRules | str | None = None) -> int:
    """The position in the completed `trick` (0 = leader) of the play that takes it."""
    return explain_trick(trick, trump, rules)[0]
