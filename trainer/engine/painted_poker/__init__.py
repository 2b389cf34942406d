"""Painted poker (Odessa poker): the scorekeeper's rules in one place.

The game is a trick-taking game scored on a "painted" sheet. This module gathers the public API:
presets (`load_rules`; default "classic", the rule page's defaults; "georgian-joker"), the deal
schedule (`schedule`), one deal's points (`score`), the dealer's forbidden bid (`forbidden_bid`,
the hook), trick play (`legal_cards`, `trick_winner`, `Play`, `JokerCall`, `trump_of`) and the
`ScoreSheet`. Each answer also comes with its reasons as explanation `Step`s (`explain_*`).

Scoring one deal (classic): exact bid b > 0 -> 10 b, pass made -> 5, over -> 1 per trick taken,
under -> -10 per missing trick, gold -> 20 per trick, miser -> -10 per trick.

>>> score(3, 3), score(0, 0), score(2, 4), score(4, 1), score(None, 3, "gold"), score(None, 2, "miser")
(30, 5, 4, -30, 60, -20)
>>> georgian = load_rules("georgian-joker")
>>> score(2, 2, rules=georgian, cards=5), score(9, 9, rules=georgian, cards=9), score(3, 0, rules=georgian)
(150, 900, -200)

The schedule: rising to the largest hand, that hand N times, falling, then N each of dark, gold,
miser and no-trump deals (N players); the deal passes clockwise.

>>> [len(schedule(n)) for n in range(2, 7)]
[44, 37, 36, 37, 40]
>>> deal = schedule(4)[20]
>>> deal.number, deal.cards, deal.kind.value, deal.dealer
(21, 9, 'dark', 0)

The hook: the dealer bids last and may not make the bids add up to the cards.

>>> forbidden_bid(9, [5, 3])                  # 5 + 3 + 1 = 9: the dealer may not bid 1
1
>>> forbidden_bid(3, [2, 2]) is None          # the bids already exceed the cards
True
>>> forbidden_bid(9, [5, 3], "dark") is None  # no hook in a dark deal
True

Trick play. A trick is the plays so far, the leader first; a joker play carries its call:
"7s:high" or "7s:low" after the lead, "7s:highest_trump", "7s:highest:h" or "7s:low" when led.
`legal_cards(hand, trick, trump)` lists the cards the next player may play (in hand order);
`trick_winner(trick, trump)` gives the position (0 = leader) of the play that takes a completed trick.

>>> from trainer.engine.cards import parse_cards
>>> legal_cards(parse_cards("Ah 6h Ks 7s"), Play.parse_all("9h"), trump="s")   # follow suit (or joker)
(Card('Ah'), Card('6h'), Card('7s'))
>>> legal_cards(parse_cards("Ks 8s Ad"), Play.parse_all("9h"), trump="s")      # no heart: must trump
(Card('Ks'), Card('8s'))
>>> legal_cards(parse_cards("Ad Kc"), Play.parse_all("9h"), trump="s")         # neither: anything
(Card('Ad'), Card('Kc'))
>>> trick_winner(Play.parse_all("9h Ah 6s Kh"), trump="s")     # highest trump
2
>>> trick_winner(Play.parse_all("9h Ah 6s Kh"), trump=None)    # no trump: highest of the led suit
1
>>> trick_winner(Play.parse_all("9h 7s:high 6s"), trump="s")   # the joker beats the trump
1
>>> trick_winner(Play.parse_all("9h 7s:low Th"), trump="s")    # thrown low, it takes nothing
2
>>> legal_cards(parse_cards("Qd 9d As"), Play.parse_all("7s:highest:d"), trump="s")  # the highest diamond
(Card('Qd'),)
>>> legal_cards(parse_cards("Qd 9s As"), Play.parse_all("7s:highest_trump"), trump="s")
(Card('As'),)
>>> trick_winner(Play.parse_all("7s:highest:d Qd As"), trump="s")   # the led joker wins
0
>>> trick_winner(Play.parse_all("7s:low 8d Ad 6s"), trump="s")      # led low: 8d sets the suit
3
>>> trump_of(parse_cards("7s")[0]) is None, trump_of(parse_cards("Kh")[0])   # a turned-up joker: no trump
(True, 'h')

The score sheet rejects impossible deals and keeps the totals.

>>> sheet = ScoreSheet.start(["North", "East"])            # North deals deal 1, so bids last
>>> sheet.record([0, 1], [0, 1])
Traceback (most recent call last):
...
ValueError: deal 1: the dealer (North) may not bid 0 (the hook): the bids would add up to the 1 cards dealt
>>> sheet = sheet.record([1, 1], [0, 1])
>>> sheet.totals, sheet.leaders()
((-10, 10), ('East',))
"""

from __future__ import annotations

from trainer.engine.painted_poker.deals import (
    Deal,
    dealer_bids,
    explain_deal,
    explain_hook,
    explain_score,
    forbidden_bid,
    must_bid_max,
    schedule,
    score,
)
from trainer.engine.painted_poker.rules import (
    DEFAULT_RULES,
    REAL_JOKERS,
    DealKind,
    Joker,
    PaintedRules,
    Segment,
    SetPremium,
    TrumpMode,
    available_rules,
    load_rules,
    painted_card,
    painted_cards,
)
from trainer.engine.painted_poker.sheet import DealRecord, ScoreSheet
from trainer.engine.painted_poker.tricks import (
    JokerCall,
    Play,
    check_trick,
    deal_trump,
    explain_trick,
    legal_cards,
    trick_winner,
    trump_of,
)

__all__ = [
    "DEFAULT_RULES",
    "REAL_JOKERS",
    "Deal",
    "DealKind",
    "DealRecord",
    "Joker",
    "JokerCall",
    "PaintedRules",
    "Play",
    "ScoreSheet",
    "Segment",
    "SetPremium",
    "TrumpMode",
    "available_rules",
    "check_trick",
    "deal_trump",
    "dealer_bids",
    "explain_deal",
    "explain_hook",
    "explain_score",
    "explain_trick",
    "forbidden_bid",
    "legal_cards",
    "load_rules",
    "must_bid_max",
    "painted_card",
    "painted_cards",
    "schedule",
    "score",
    "trick_winner",
    "trump_of",
]
