"""Omaha and Omaha Hi/Lo drills: hands, winners, lows, hi/lo splits and side pots; betting and blinds
kinds live in `omaha_bets` and register from here.

Kinds: `om.high`, `om.winner`, `om.low`, `om.split`, `om.side_pots` (this module), `om.pot_limit`,
`om.limit`, `om.blinds` (`omaha_bets`). Each generator picks the branch first (a category, a tie, no
low, a counterfeit, quartering, odd chips, all-ins...), deals cards that make it (`omaha_deals`), and
checks with the engine; `solve` recomputes the answer from `trainer.engine.omaha`.

>>> from trainer.drills.base import issue, grade, expected_of
>>> situation = issue("om.split", 3, seed=4)
>>> grade(situation, expected_of(situation)[0]).correct
True
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from trainer.drills.answers import seat_label
from trainer.drills.base import AnswerFormat, AnswerKind, Data, DealError, DrillKind, Solution, define, prompt
from trainer.drills.omaha.deals import Dealer, branch, house_rules, low_rank, made_five, names, retry
from trainer.engine.cards import Card, parse_cards
from trainer.engine.evaluator import Category, best_omaha_hand, omaha_strength
from trainer.engine.explain import N_, Cards, Step, Term, step
from trainer.engine.omaha import Showdown, format_low, settle, side_pots
from trainer.engine.omaha.explain import explain_high, explain_low, low_candidates
from trainer.games import OMAHA

GAME = OMAHA.id

CATEGORY_CHOICES = AnswerFormat(AnswerKind.CHOICE, choices=tuple((c.value, c.term) for c in Category))


def _kind(kind_id: str, title: str, generate: Any, answer_format: Any, solve: Any) -> DrillKind:
    return define(GAME, kind_id, title, generate, answer_format, solve)


def _seats(holes: list[list[str] | None], chips: list[int] | None = None) -> list[Step]:
    """One sentence per seat (numbered from 1, as at the table): its cards, or that it folded; with
    `chips`, what it put in."""
    said = []
    for seat, hole in enumerate(holes, start=1):
        if chips is None:
            said.append(
                step("Seat {seat} has folded.", seat=seat)
                if hole is None
                else step("Seat {seat}: {cards}.", seat=seat, cards=Cards.of(hole))
            )
        elif hole is None:
            said.append(step("Seat {seat} put in {chips} and folded.", seat=seat, chips=chips[seat - 1]))
        else:
            said.append(
                step(
                    "Seat {seat}: {cards}, put in {chips}.",
                    seat=seat,
                    cards=Cards.of(hole),
                    chips=chips[seat - 1],
                )
            )
    return said


# om.high ------------------------------------------------------------------------------------------

# Level 1 keeps to the everyday hands; later levels add the rare ones and more traps.
_HIGH_WEIGHTS = {
    1: {Category.STRAIGHT: 2, Category.FLUSH: 2, Category.FULL_HOUSE: 1, Category.THREE_OF_A_KIND: 2,
        Category.TWO_PAIR: 2, Category.PAIR: 2, Category.HIGH_CARD: 1},
    2: {c: 1 for c in Category},
    3: {c: 1 for c in Category},
}  # fmt: skip
_TRAP_SHARE = {1: 0.2, 2: 0.6, 3: 0.8}


def _trap_fill(rng: random.Random, dealer: Dealer, hole: list[Card], board: list[Card]) -> None:
    """Fill 2 hole and 2 board cards so that a hand that breaks the 2 + 3 rule looks better."""
    trap = rng.choice(("hole_suited", "board_flush", "board_pair", "hole_trips", "hole_straight"))
    if trap == "hole_suited":  # three or four of a suit in the hand, at most two on the board
        suit = hole[0].suit
        hole += dealer.draw(2, lambda c: c.suit == suit)
        board += dealer.draw(2, lambda c: c.suit != suit)
    elif trap == "board_flush":  # four of a suit on the board, one in the hand
        suit = board[0].suit
        board += dealer.draw(2, lambda c: c.suit == suit)
        hole += dealer.draw(2, lambda c: c.suit != suit)
    elif trap == "board_pair":  # the board pairs one of its cards
        board += [dealer.rank(board[0].rank), *dealer.draw(1)]
        hole += dealer.draw(2)
    elif trap == "hole_trips":  # three of a rank in the hand: only two can play
        hole.append(dealer.rank(hole[0].rank))
        hole += dealer.draw(1)
        board += dealer.draw(2)
    else:  # connected hole cards: three of a straight in the hand
        top = max(c.rank for c in hole)
        hole += dealer.draw(2, lambda c: abs(c.rank - top) <= 3)
        board += dealer.draw(2)


def _hand_question(hole: list[Card], board: list[Card], question: str) -> Data:
    """One player's hand as a question: the cards the solver reads and `question`, a template naming
    the {board} and the {hole} cards."""
    data: Data = {"hole": names(hole), "board": names(board)}
    return prompt(data, step(question, board=Cards.of(board), hole=Cards.of(hole)))


def _gen_high(rng: random.Random, level: int, rules_name: str | None) -> Data:
    house_rules(rules_name)  # a preset this game does not have is refused, not recorded
    target = branch(rng, _HIGH_WEIGHTS[level])

    def make() -> Data:
        dealer = Dealer(rng)
        five = dealer.take(made_five(rng, target))
        rng.shuffle(five)
        hole, board = five[:2], five[2:]
        if rng.random() < _TRAP_SHARE[level]:
            _trap_fill(rng, dealer, hole, board)
        else:
            hole += dealer.draw(2)
            board += dealer.draw(2)
        rng.shuffle(hole)
        rng.shuffle(board)
        if best_omaha_hand(hole, board).category is not target:
            raise DealError("the filler cards changed the hand")
        return _hand_question(
            hole,
            board,
            N_("Omaha. The board is {board}; the player holds {hole}. What is his best high hand?"),
        )

    return retry(make)


def _solve_high(data: Data) -> Solution:
    hand, steps = explain_high(data["hole"], data["board"])
    return hand.category.value, str(hand), steps


_kind("om.high", N_("Omaha: the best high hand"), _gen_high, lambda d: CATEGORY_CHOICES, _solve_high)


# om.winner ----------------------------------------------------------------------------------------


def _seat_value(seats: tuple[int, ...]) -> str:
    """The answer value naming seats as the table numbers them ("seat-2", "seats-1-3")."""
    numbers = "-".join(str(s + 1) for s in seats)
    return f"seat-{numbers}" if len(seats) == 1 else f"seats-{numbers}"


def _seat_label(seats: tuple[int, ...]) -> Step:
    if len(seats) == 1:
        return seat_label(seats[0])
    return step("Seats {seats} split the pot", seats=[s + 1 for s in seats])


def _winner_format(data: Data) -> AnswerFormat:
    seats = range(len(data["holes"]))
    options = [(s,) for s in seats] + list(combinations(seats, 2))
    return AnswerFormat(AnswerKind.CHOICE, choices=tuple((_seat_value(o), _seat_label(o)) for o in options))


def _no_flush_board(dealer: Dealer, rng: random.Random) -> list[Card]:
    """Five board cards with no three of a suit (so equal ranks make equal hands)."""
    for _ in range(50):
        board = dealer.draw(5)
        suits = [c.suit for c in board]
        if max(suits.count(s) for s in suits) <= 2:
            return board
        dealer.left += board
        rng.shuffle(dealer.left)
    raise DealError("no board without a flush draw")


def _gen_winner(rng: random.Random, level: int, rules_name: str | None) -> Data:
    house_rules(rules_name)  # a preset this game does not have is refused, not recorded
    players = rng.randint(*{1: (2, 3), 2: (3, 4), 3: (4, 5)}[level])
    tie = rng.random() < 0.3

    def make() -> Data:
        dealer = Dealer(rng)
        board = _no_flush_board(dealer, rng) if tie else dealer.draw(5)
        holes = [dealer.draw(4) for _ in range(players)]
        if tie:
            a, b = rng.sample(range(players), 2)
            dealer.left += holes[b]
            holes[b] = dealer.same_ranks(holes[a])
        strengths = [omaha_strength([c.index for c in h], [c.index for c in board]) for h in holes]
        winners = [s for s, v in enumerate(strengths) if v == max(strengths)]
        if len(winners) != (2 if tie else 1):
            raise DealError("not the branch asked for")
        data: Data = {"board": names(board), "holes": [names(h) for h in holes]}
        return prompt(
            data,
            step("Omaha high. The board is {board}.", board=Cards.of(board)),
            *_seats(data["holes"]),
            step("Which seat wins the pot?"),
        )

    return retry(make)


def _solve_winner(data: Data) -> Solution:
    board = parse_cards(data["board"])
    hands = [best_omaha_hand(parse_cards(h), board) for h in data["holes"]]
    steps = [
        step("Seat {seat}: {hand} ({cards}).", seat=seat, hand=hand.category.term, cards=Cards.of(hand.cards))
        for seat, hand in enumerate(hands, start=1)
    ]
    best = max(hands)
    winners = tuple(s for s, h in enumerate(hands) if h == best)
    if len(winners) == 1:
        steps.append(step("Seat {seat} has the best hand and wins the pot.", seat=winners[0] + 1))
    else:
        steps.append(
            step("Seats {seats} have equal hands and split the pot.", seats=[s + 1 for s in winners])
        )
    return _seat_value(winners), str(_seat_label(winners)), tuple(steps)


_kind("om.winner", N_("Omaha: who wins the pot"), _gen_winner, _winner_format, _solve_winner)


# om.low -------------------------------------------------------------------------------------------

_LOW_BRANCHES = {
    1: {"low": 6, "board": 2, "hand": 2},
    2: {"low": 4, "board": 2, "hand": 1, "counterfeit": 3},
    3: {"low": 4, "board": 1, "hand": 1, "counterfeit": 4},
}


def _is_low(card: Card) -> bool:
    return low_rank(card) > 0


def _gen_low(rng: random.Random, level: int, rules_name: str | None) -> Data:
    house_rules(rules_name)  # a preset this game does not have is refused, not recorded
    drawn = branch(rng, _LOW_BRANCHES[level])

    def make() -> Data:
        dealer = Dealer(rng)
        if drawn == "counterfeit":
            # Hole low ranks all on the board too, so every pair of them leaves too few board lows.
            ranks = rng.sample([14, *range(2, 9)], rng.choice((3, 4)))
            board = [dealer.rank(r) for r in ranks] + dealer.draw(5 - len(ranks), lambda c: not _is_low(c))
            hole = [dealer.rank(r) for r in ranks[: len(ranks) - 1]]
            hole += dealer.draw(4 - len(hole), lambda c: not _is_low(c))
        elif drawn == "board":  # two low ranks at most on the board, a good-looking low hand
            board = dealer.draw(rng.choice((1, 2)), _is_low) + dealer.draw(5, lambda c: not _is_low(c))
            board = board[:5]
            hole = dealer.draw(rng.choice((2, 3)), _is_low) + dealer.draw(2)
            hole = hole[:4]
        elif drawn == "hand":  # a good low board, only one low rank (maybe paired) in the hand
            board = dealer.draw(3, _is_low) + dealer.draw(2)
            first = dealer.draw(1, _is_low)
            extra = [dealer.rank(first[0].rank)] if rng.random() < 0.5 else []
            hole = first + extra + dealer.draw(3 - len(extra), lambda c: not _is_low(c))
        else:
            board = dealer.draw(rng.choice((3, 3, 4)), _is_low) + dealer.draw(2)
            board = board[:5]
            hole = dealer.draw(rng.choice((2, 3, 4)), _is_low) + dealer.draw(2)
            hole = hole[:4]
        rng.shuffle(hole)
        rng.shuffle(board)
        low, _ = explain_low(hole, board)
        if (low is None) != (drawn != "low"):
            raise DealError("not the branch asked for")
        return _hand_question(
            hole,
            board,
            N_("Omaha Hi/Lo. The board is {board}; the player holds {hole}. What is his best low hand?"),
        )

    return retry(make)


def _rule_breaking_low(hole: list[Card], board: list[Card], hole_count: int) -> list[tuple[int, ...]]:
    """Lows that break the 2 + 3 rule (`hole_count` hole cards): the near misses a trainee may give."""
    found = []
    for h in combinations(hole, hole_count):
        for b in combinations(board, 5 - hole_count):
            ranks = sorted((low_rank(c) for c in h + b), reverse=True)
            if all(ranks) and len(set(ranks)) == 5:
                found.append(tuple(ranks))
    return sorted(found)[:1]


def _nine_or_ten_low(hole: list[Card], board: list[Card]) -> list[tuple[int, ...]]:
    """The best 2 + 3 "low" that needs a 9 or a 10: it does not qualify, a common slip."""
    found = []
    for h in combinations(hole, 2):
        for b in combinations(board, 3):
            ranks = sorted((1 if c.rank == 14 else c.rank for c in h + b), reverse=True)
            if 8 < ranks[0] <= 10 and len(set(ranks)) == 5:
                found.append(tuple(ranks))
    return sorted(found)[:1]


def _neighbours(low: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Lows one rank away from `low` in one card: plausible misreadings."""
    out = []
    for i in range(5):
        for delta in (1, -1):
            ranks = list(low)
            ranks[i] += delta
            if 1 <= ranks[i] <= 8 and len(set(ranks)) == 5:
                out.append(tuple(sorted(ranks, reverse=True)))
    return out


def _low_format(data: Data) -> AnswerFormat:
    hole, board = list(parse_cards(data["hole"])), list(parse_cards(data["board"]))
    lows = low_candidates(hole, board)[:3]
    for count in (3, 4, 1, 0):  # three or four hole cards, one, or the board alone
        lows += _rule_breaking_low(hole, board, count)
    lows += _nine_or_ten_low(hole, board)
    # Too few near misses (often when there is no low at all): misread neighbours of the first one.
    seed = lows[0] if lows else (8, 6, 4, 3, 2)
    for neighbour in [seed, *_neighbours(seed)]:
        if len(set(lows)) >= 4:
            break
        lows.append(neighbour)
    values = sorted(set(lows))
    return AnswerFormat(
        AnswerKind.CHOICE,
        choices=(*((format_low(v), format_low(v)) for v in values), ("none", Term(N_("No low")))),
    )


def _solve_low(data: Data) -> Solution:
    low, steps = explain_low(data["hole"], data["board"])
    if low is None:
        return "none", "No low", steps
    return format_low(low), format_low(low), steps


_kind("om.low", N_("Omaha Hi/Lo: the best low hand"), _gen_low, _low_format, _solve_low)


# om.split and om.side_pots: whole showdowns --------------------------------------------------------

_SPLIT_BRANCHES = ("scoop_no_low", "split", "quarter", "high_tie", "scoop_both", "both_tied")


def classify(ruling: Showdown) -> str:
    """The hi/lo branch of the main pot: who took the high and low halves."""
    pot = ruling.pots[0]
    hi, lo = set(pot.high_winners), set(pot.low_winners)
    if not lo:
        return "scoop_no_low"
    if hi == lo:
        return "scoop_both" if len(hi) == 1 else "both_tied"
    if len(lo) > 1:
        return "quarter"
    return "high_tie" if len(hi) > 1 else "split"


def _deal_hilo(rng: random.Random, players: int, branch: str) -> tuple[list[Card], list[list[Card]]]:
    """Cards steered toward a hi/lo branch (the caller checks the outcome with the engine)."""
    dealer = Dealer(rng)
    a, b = rng.sample(range(players), 2)
    holes: list[list[Card] | None] = [None] * players
    if branch == "scoop_no_low":
        board = dealer.draw(rng.choice((0, 1, 2)), _is_low)
        board += dealer.draw(5 - len(board), lambda c: not _is_low(c))
    elif branch in ("both_tied", "scoop_both"):
        # A-2 with 3-4-5 on the board: the wheel, best high straight and best low at once.
        holes[a] = [dealer.rank(14), dealer.rank(2), *dealer.draw(2, lambda c: not _is_low(c))]
        board = [dealer.rank(r) for r in (3, 4, 5)] + dealer.draw(2, lambda c: c.rank >= 9)
        if branch == "both_tied":
            holes[b] = dealer.same_ranks(holes[a])
    elif branch == "high_tie":
        # Two hands of the same ranks make the same 9- or 10-high straight with the board's three low
        # cards; their other cards are high, so they have no low, and a third seat gets A-2 for it.
        top = rng.choice((9, 10))
        board = [dealer.rank(r) for r in (top - 4, top - 3, top - 2)] + dealer.draw(2, lambda c: c.rank >= 9)
        holes[a] = [dealer.rank(top - 1), dealer.rank(top), *dealer.draw(2, lambda c: c.rank >= 9)]
        holes[b] = dealer.same_ranks(holes[a])
        if players > 2:
            c = next(s for s in range(players) if s not in (a, b))
            holes[c] = [dealer.rank(14), dealer.rank(2), *dealer.draw(2)]
    else:  # split or quarter: a good low hand, twice for quartering
        board = dealer.draw(3, _is_low) + dealer.draw(2)
        holes[a] = [dealer.rank(14), dealer.rank(rng.choice((2, 3))), *dealer.draw(2)]
        if branch == "quarter":
            holes[b] = [*dealer.same_ranks(holes[a][:2]), *dealer.draw(2)]
    dealt = [h if h is not None else dealer.draw(4) for h in holes]
    rng.shuffle(board)
    for h in dealt:
        rng.shuffle(h)
    if len(set(board)) != 5:
        raise DealError("board")
    return board, dealt


_SPLIT_WEIGHTS = {
    1: (2, 3, 2, 1, 1, 1),
    2: (2, 2, 3, 2, 1, 2),
    3: (1, 2, 3, 2, 1, 2),
}


def _chip_and_unit(rng: random.Random, level: int) -> tuple[int, int]:
    """(smallest chip, unit of the amounts): round at level 1, odd at 2, chip 5 half the time at 3."""
    if level == 1:
        return 1, 10
    if level == 2:
        return 1, 1
    return (5, 5) if rng.random() < 0.5 else (1, 1)


def _top_amount(rng: random.Random, level: int, unit: int) -> int:
    """What the deepest live seats put in: round at level 1, odd at 2, large at 3."""
    return {1: rng.randint(2, 20), 2: rng.randint(15, 99), 3: rng.randint(40, 400)}[level] * unit


def _less(rng: random.Random, amount: int, unit: int) -> int:
    """A smaller contribution (an all-in or a folded seat's chips), in whole units."""
    return rng.randint(1, max(1, amount // unit - 1)) * unit


def _table_question(
    board: list[Card],
    holes: list[list[str] | None],
    contributions: list[int],
    button: int,
    chip: int,
    game: Step,
    question: Step,
    **more: Any,
) -> Data:
    """A showdown as a question: the game and board (`game`), each seat's hand and chips put in, the
    button and the smallest chip, then `question`; `more` adds what the solver needs besides."""
    data: Data = {
        "board": names(board),
        "holes": holes,
        "contributions": contributions,
        "button": button,
        "chip": chip,
        **more,
    }
    return prompt(
        data,
        game,
        *_seats(holes, contributions),
        step("The button is seat {button}; the smallest chip is {chip}.", button=button + 1, chip=chip),
        question,
    )


def _gen_split(rng: random.Random, level: int, rules_name: str | None) -> Data:
    house_rules(rules_name)  # a preset this game does not have is refused, not recorded
    branch = rng.choices(_SPLIT_BRANCHES, _SPLIT_WEIGHTS[level])[0]
    players = rng.randint(*{1: (2, 3), 2: (3, 4), 3: (4, 6)}[level])
    if branch == "high_tie":
        players = max(players, 3)  # two tied high hands and a third seat with the low
    chip, unit = _chip_and_unit(rng, level)

    def make() -> Data:
        board, holes = _deal_hilo(rng, players, branch)
        button = rng.randrange(players)
        folded = rng.randint(0, 1) if level >= 2 and players >= 3 else 0
        all_ins = rng.randint(1, 2) if level == 3 else 0
        top = _top_amount(rng, level, unit)
        contributions = [top] * players
        shown: list[list[str] | None] = [names(h) for h in holes]
        for seat in rng.sample(range(players), folded):
            shown[seat] = None
            contributions[seat] = _less(rng, top, unit)
        live = [s for s in range(players) if shown[s] is not None]
        for seat in rng.sample(live, min(all_ins, len(live) - 1)):
            contributions[seat] = _less(rng, top, unit)
        ruling = settle(board, shown, contributions, hi_lo=True, button=button, chip=chip, explain=False)
        if classify(ruling) != branch:
            raise DealError("not the branch asked for")
        return _table_question(
            board,
            shown,
            contributions,
            button,
            chip,
            step("Omaha Hi/Lo. The board is {board}.", board=Cards.of(board)),
            step("What does each seat collect?"),
        )

    return retry(make)


def _seat_labels(data: Data) -> tuple[Step, ...]:
    return tuple(seat_label(s) for s in range(len(data["contributions"])))


def _ruling(data: Data, hi_lo: bool) -> Showdown:
    return settle(
        data["board"],
        data["holes"],
        data["contributions"],
        hi_lo=hi_lo,
        button=data["button"],
        chip=data["chip"],
    )


def _solve_split(data: Data) -> Solution:
    ruling = _ruling(data, True)
    labels = _seat_labels(data)
    return list(ruling.payouts), _amounts_text(labels, ruling.payouts), ruling.steps


def _amounts_text(labels: tuple[Step | Term, ...], values: Any) -> str:
    return "; ".join(f"{label}: {value:,}" for label, value in zip(labels, values, strict=True))


_kind(
    "om.split",
    N_("Omaha Hi/Lo: split the pot"),
    _gen_split,
    lambda d: AnswerFormat(AnswerKind.AMOUNTS, labels=_seat_labels(d)),
    _solve_split,
)


# om.side_pots -------------------------------------------------------------------------------------


def _pot_labels(data: Data) -> tuple[Step | Term, ...]:
    # As many pot labels as there could be pots (one per live seat), so the labels do not tell.
    return (*_pots(data), *_returned(data), *_seat_labels(data))


def _pots(data: Data) -> tuple[Step | Term, ...]:
    live = sum(h is not None for h in data["holes"])
    return (Term(N_("Main pot")), *(step("Side pot {number}", number=k) for k in range(1, live)))


def _returned(data: Data) -> tuple[Term, ...]:
    return (Term(N_("Returned")),) if data["level"] >= 2 else ()


def showdown_question(
    board: list[Card],
    holes: list[list[str] | None],
    contributions: list[int],
    button: int,
    chip: int,
    *,
    hi_lo: bool,
    level: int,
) -> Data:
    """An `om.side_pots` question of a whole showdown (the drawn ones and an instructor's own): the
    pots, what is returned from level 2, and what each seat collects."""
    game = (
        step("Omaha Hi/Lo, all bets are in. The board is {board}.", board=Cards.of(board))
        if hi_lo
        else step("Omaha, all bets are in. The board is {board}.", board=Cards.of(board))
    )
    question = (
        step(
            "How big is each pot (0 for a pot that does not exist), what is returned as an uncalled bet, "
            "and what does each seat collect?"
        )
        if level >= 2
        else step("How big is each pot (0 for a pot that does not exist), and what does each seat collect?")
    )
    return _table_question(
        board, holes, contributions, button, chip, game, question, hi_lo=hi_lo, level=level
    )


def _gen_side_pots(rng: random.Random, level: int, rules_name: str | None) -> Data:
    house_rules(rules_name)  # a preset this game does not have is refused, not recorded
    players = rng.randint(*{1: (3, 4), 2: (4, 5), 3: (4, 6)}[level])
    all_ins = rng.randint(*{1: (1, 2), 2: (1, 3), 3: (2, 4)}[level])
    hi_lo = level == 3 and rng.random() < 0.5
    uncalled = level >= 2 and rng.random() < 0.4
    chip, unit = _chip_and_unit(rng, level)

    def make() -> Data:
        dealer = Dealer(rng)
        board = dealer.draw(5)
        holes: list[list[str] | None] = [names(dealer.draw(4)) for _ in range(players)]
        folded = rng.randint(1, 2) if level >= 2 else 0
        top = _top_amount(rng, level, unit)
        contributions = [top] * players
        order = rng.sample(range(players), players)
        for seat in order[:folded]:
            holes[seat] = None
            contributions[seat] = _less(rng, top, unit)
        live = order[folded:]
        # Without an uncalled bet two live seats stay at the top; one alone would bet into nobody.
        for seat in live[: min(all_ins, len(live) - (1 if uncalled else 2))]:
            contributions[seat] = _less(rng, top, unit)
        if uncalled:  # the deepest live player's last bet that nobody called
            contributions[live[-1]] += rng.randint(1, 20) * unit
        button = rng.randrange(players)
        ruling = settle(board, holes, contributions, hi_lo=hi_lo, button=button, chip=chip, explain=False)
        if len(ruling.pots) < 2 or (uncalled and not any(ruling.returned)):
            raise DealError("no side pot")
        return showdown_question(board, holes, contributions, button, chip, hi_lo=hi_lo, level=level)

    return retry(make)


def _solve_side_pots(data: Data) -> Solution:
    ruling = _ruling(data, data["hi_lo"])
    labels = _pot_labels(data)
    pots = [
        p.amount
        for p in side_pots(data["contributions"], [s for s, h in enumerate(data["holes"]) if h is None])
    ]
    values = pots + [0] * (len(_pots(data)) - len(pots))
    if data["level"] >= 2:
        values.append(sum(ruling.returned))
    values += list(ruling.payouts)
    return values, _amounts_text(labels, values), ruling.steps


_kind(
    "om.side_pots",
    N_("Omaha: side pots"),
    _gen_side_pots,
    lambda d: AnswerFormat(AnswerKind.AMOUNTS, labels=_pot_labels(d)),
    _solve_side_pots,
)
