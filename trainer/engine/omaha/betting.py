"""Omaha betting: pot-limit maximum, limit bet sizes and cap, no-limit minimum raise, blinds.

The configurable options (the limit cap, heads-up without cap, who posts which blind heads-up, missed
small blind) come from a house rules file, `data/rules/omaha/<name>.toml`, read by the one house-rules loader
(`trainer.engine.presets`); `standard` is the rule page's default.

Pot 100 and a bet of 100 make P = 200; at blinds 5/10 P is 15 before anyone acts:

>>> pot_limit_max(200, 100), pot_limit_max(15, 10)
(400, 35)
>>> limit_raise_to(Street.TURN, 5, 10, bets_made=2, players=3)
30
>>> no_limit_min_raise_to([10, 30], big_blind=10)
50
>>> b = post_blinds(2, [100, None, 100, 100, 3], 5, 10)
>>> (b.small, b.big, b.posted, b.all_in, b.first_preflop)
(3, 4, (0, 0, 0, 5, 3), (4,), 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from trainer.engine.explain import N_, Step, step
from trainer.engine.omaha.pots import check_list
from trainer.engine.presets import HouseSource, PresetFolder, Reader, choice, data_path, text

DEFAULT_RULES = "standard"
PRESETS = PresetFolder("omaha", "Omaha", DEFAULT_RULES)
RULES_DIR = PRESETS.folder


class Street(StrEnum):
    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"


class HeadsUpBlinds(StrEnum):
    """Who posts which blind when only two players are dealt in."""

    # The standard (Robert's Rules, TDA): the button posts the small blind and acts first before the
    # flop, last after it.
    BUTTON_POSTS_SMALL = N_("button_posts_small")  # N_: the value is a word the presets page shows
    # The rule document (omaha.ka.txt l.26, "ამ შემთხვევაში დილერი დებს დიდ ბლაინდს": the dealer posts
    # the big blind): the other player posts the small blind and acts first in every round.
    BUTTON_POSTS_BIG = N_("button_posts_big")


class SidePotShowing(StrEnum):
    """Who shows first at a showdown with side pots."""

    ALL_IN_FIRST = "all_in_first"  # the player all-in for the least shows first (issue 15's rule)
    SIDE_POT_FIRST = "side_pot_first"  # Robert's Rules: the last side pot's players first, down to the main


@dataclass(frozen=True, slots=True)
class OmahaRules:
    """House options: raises allowed after the bet in limit, no cap heads-up, who posts which blind
    heads-up, missed small blind, how a new player comes in, the showdown order with side pots and the
    right to muck a losing hand; `chip_set` names the house's chip set (a file in data/chips/, read by
    the live table)."""

    name: str
    raises_per_round: int
    uncapped_heads_up: bool
    small_only_posts_dead: bool
    new_player_may_post: bool = True
    new_player_waits_between: bool = True
    side_pot_showing: SidePotShowing = SidePotShowing.ALL_IN_FIRST
    muck_losing: bool = True
    heads_up: HeadsUpBlinds = HeadsUpBlinds.BUTTON_POSTS_SMALL
    chip_set: str = "standard"
    title: str = ""
    source: str = ""
    not_applied: tuple[str, ...] = ()


def build(name: str, reader: Reader) -> OmahaRules:
    """The frozen rules of a checked preset table (`PresetFolder.load` reads it); `chip_set` must name a
    chip set of data/chips/ (the live table pays in it)."""
    chip_set = reader.value("chip_set", text, required=False) or "standard"
    chip_sets = sorted(path.stem for path in data_path("chips").glob("*.toml"))
    if chip_set not in chip_sets:
        have = ", ".join(chip_sets)
        raise reader.fail(
            "chip_set",
            f"no chip set {chip_set!r} (have: {have})",
            code="no_chip_set",
            name=chip_set,
            allowed=have,
        )
    return OmahaRules(
        name=name,
        raises_per_round=reader.whole("limit.raises_per_round", 0),
        uncapped_heads_up=reader.flag("limit.uncapped_heads_up"),
        small_only_posts_dead=reader.flag("missed_blinds.small_only_posts_dead"),
        new_player_may_post=reader.flag("new_player.may_post"),
        new_player_waits_between=reader.flag("new_player.waits_between_button_and_blinds"),
        side_pot_showing=reader.choice("showdown.side_pots", SidePotShowing),
        muck_losing=reader.flag("showdown.muck_losing"),
        # Optional: a house copy written before the option existed plays the standard.
        heads_up=reader.value("blinds.heads_up", choice(HeadsUpBlinds), required=False)
        or HeadsUpBlinds.BUTTON_POSTS_SMALL,
        chip_set=chip_set,
        title=reader.value("title", text, required=False) or name,
        source=reader.value("source", text, required=False) or "",
        not_applied=reader.texts("not_applied"),
    )


def load_rules(name_or_path: str | Path = DEFAULT_RULES, houses: HouseSource | None = None) -> OmahaRules:
    """House rules by preset name (a file in data/rules/omaha/) or by path; a malformed file fails
    here with the file and the key named.

    >>> load_rules().raises_per_round
    3
    """
    return PRESETS.load(name_or_path, build, houses)


def resolve_rules(rules: OmahaRules | str | Path | None) -> OmahaRules:
    """House rules from an `OmahaRules` object, a preset name or path, or None (the default preset)."""
    return rules if isinstance(rules, OmahaRules) else load_rules(DEFAULT_RULES if rules is None else rules)


def _chips(name: str, value: int, *, positive: bool = False) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number of chips, not {value!r}")
    if value < 0 or (positive and value == 0):
        raise ValueError(f"{name} must be {'positive' if positive else 'zero or more'}, not {value}")


def pot_limit_max(pot: int, to_call: int, *, stack: int | None = None) -> int:
    """The most a player may put in with this action in pot limit: P + 2C, where P is every chip in
    the middle and on the table (bets of this round included) and C what he must call first; capped
    by his `stack` when given.

    >>> pot_limit_max(100, 50)
    200
    >>> pot_limit_max(100, 50, stack=120)
    120
    """
    _chips("the pot", pot)
    _chips("the amount to call", to_call)
    if to_call > pot:
        raise ValueError(f"the amount to call ({to_call}) cannot exceed the pot ({pot}), which includes it")
    most = pot + 2 * to_call
    if stack is not None:
        _chips("the stack", stack)
        most = min(most, stack)
    return most


def _street(street: Street | str) -> Street:
    try:
        return Street(street)
    except ValueError:
        raise ValueError(f"unknown street {street!r}: one of preflop, flop, turn, river") from None


def limit_bet_size(street: Street | str, small_bet: int, big_bet: int) -> int:
    """The fixed bet and raise size in limit: the small bet pre-flop and on the flop, the big bet on
    the turn and river.

    >>> limit_bet_size("flop", 5, 10), limit_bet_size("river", 5, 10)
    (5, 10)
    """
    _chips("the small bet", small_bet, positive=True)
    _chips("the big bet", big_bet, positive=True)
    if big_bet < small_bet:
        raise ValueError(f"the big bet ({big_bet}) cannot be smaller than the small bet ({small_bet})")
    return small_bet if _street(street) in (Street.PREFLOP, Street.FLOP) else big_bet


def limit_cap(players: int, rules: OmahaRules | str | None = None) -> int | None:
    """How many bets (the bet plus raises) a limit round allows, None when uncapped (heads-up)."""
    if isinstance(players, bool) or not isinstance(players, int) or players < 2:
        raise ValueError(f"a betting round needs at least 2 players in the hand, not {players!r}")
    if players > 10:
        raise ValueError(f"Omaha is played by 2 to 10 players, not {players}")
    rules = resolve_rules(rules)
    if players == 2 and rules.uncapped_heads_up:
        return None
    return 1 + rules.raises_per_round


def limit_raise_to(
    street: Street | str,
    small_bet: int,
    big_bet: int,
    *,
    bets_made: int,
    players: int,
    rules: OmahaRules | str | None = None,
) -> int | None:
    """What the next player may bet or raise to in limit, or None when the round is capped.

    `bets_made` counts the bet and raises so far in this round (pre-flop the big blind is the bet);
    `players` is how many are still in the hand.

    >>> limit_raise_to("preflop", 5, 10, bets_made=4, players=5) is None
    True
    >>> limit_raise_to("preflop", 5, 10, bets_made=4, players=2)
    25
    """
    size = limit_bet_size(street, small_bet, big_bet)
    if isinstance(bets_made, bool) or not isinstance(bets_made, int) or bets_made < 0:
        raise ValueError(f"bets made must be a whole number >= 0, not {bets_made!r}")
    if _street(street) is Street.PREFLOP and bets_made == 0:
        raise ValueError("pre-flop the big blind is already the bet: bets made is at least 1")
    cap = limit_cap(players, rules)
    if cap is not None and bets_made > cap:
        raise ValueError(f"{bets_made} bets in a round capped at {cap}")
    if cap is not None and bets_made == cap:
        return None
    return (bets_made + 1) * size


def no_limit_min_raise_to(bets: Sequence[int], big_blind: int) -> int:
    """The smallest legal bet or raise (as a total) in no limit: at least the big blind, and a raise at
    least the size of the largest previous bet or raise of this round.

    `bets` are the totals the round's bet was raised to, in order (pre-flop it starts with the big
    blind); an all-in raise short of a full raise counts only by its own size.

    >>> no_limit_min_raise_to([], 10), no_limit_min_raise_to([10], 10), no_limit_min_raise_to([100, 150], 10)
    (10, 20, 250)
    """
    _chips("the big blind", big_blind, positive=True)
    if not isinstance(bets, list | tuple):
        raise ValueError(f"bets must be a list of the totals the bet was raised to, not {bets!r:.60}")
    largest, previous = 0, 0
    for total in bets:
        _chips("a bet", total, positive=True)
        if total <= previous:
            raise ValueError(f"each raise must be to more than the one before: {total} after {previous}")
        largest = max(largest, total - previous)
        previous = total
    return previous + max(largest, big_blind)


@dataclass(frozen=True, slots=True)
class Blinds:
    """Who posts what: blind seats, chips posted per seat, seats all-in on a blind, who acts first."""

    small: int
    big: int
    posted: tuple[int, ...]
    all_in: tuple[int, ...]
    first_preflop: int
    first_postflop: int


def _next_active(seat: int, active: Sequence[int]) -> int:
    """The first active seat clockwise after `seat` (seats are numbered clockwise)."""
    later = [s for s in active if s > seat]
    return later[0] if later else active[0]


def post_blinds(
    button: int,
    stacks: Sequence[int | None],
    small_blind: int,
    big_blind: int,
    rules: OmahaRules | str | None = None,
) -> Blinds:
    """Blinds for a hand: `stacks[seat]` is the seat's chips, None for an empty seat.

    Small blind left of the button, big blind left of that. Heads-up the house option
    `blinds.heads_up` decides: by default (the standard) the button posts the small blind and acts
    first pre-flop; under `button_posts_big` (the rule document: "the dealer posts the big blind") the
    other player posts the small blind and acts first in every round. A player who cannot cover his
    blind posts what he has and is all-in.

    >>> post_blinds(0, [50, 50], 5, 10)
    Blinds(small=0, big=1, posted=(5, 10), all_in=(), first_preflop=0, first_postflop=1)
    >>> from dataclasses import replace
    >>> document = replace(load_rules(), heads_up=HeadsUpBlinds.BUTTON_POSTS_BIG)
    >>> post_blinds(0, [50, 50], 5, 10, document)
    Blinds(small=1, big=0, posted=(10, 5), all_in=(), first_preflop=1, first_postflop=1)
    """
    _chips("the small blind", small_blind, positive=True)
    _chips("the big blind", big_blind, positive=True)
    if small_blind > big_blind:
        raise ValueError(f"the small blind ({small_blind}) cannot exceed the big blind ({big_blind})")
    check_list(stacks, "stacks")
    for seat, stack in enumerate(stacks):
        if stack is not None:
            _chips(f"seat {seat}'s stack", stack, positive=True)
    active = [seat for seat, stack in enumerate(stacks) if stack is not None]
    if len(active) < 2:
        raise ValueError(f"a hand needs at least 2 players, {len(active)} seated")
    if len(active) > 10:
        raise ValueError(f"Omaha is played by 2 to 10 players, {len(active)} seated")
    if isinstance(button, bool) or not isinstance(button, int) or not 0 <= button < len(stacks):
        raise ValueError(f"button seat {button!r} is not a seat at this table (0..{len(stacks) - 1})")
    if stacks[button] is None:
        raise ValueError(f"the button is on seat {button}, which is empty")
    small = button if button_posts_small(len(active), rules) else _next_active(button, active)
    big = _next_active(small, active)
    posted = [0] * len(stacks)
    all_in: list[int] = []
    for seat, blind in ((small, small_blind), (big, big_blind)):
        stack = stacks[seat]
        assert stack is not None
        posted[seat] = min(stack, blind)
        if stack <= blind:
            all_in.append(seat)
    return Blinds(
        small=small,
        big=big,
        posted=tuple(posted),
        all_in=tuple(sorted(all_in)),
        first_preflop=_next_active(big, active),
        first_postflop=_next_active(button, active),
    )


def button_posts_small(players: int, rules: OmahaRules | str | None = None) -> bool:
    """Whether the button posts the small blind: heads-up at a house playing the standard."""
    return players == 2 and resolve_rules(rules).heads_up is HeadsUpBlinds.BUTTON_POSTS_SMALL


def heads_up_rule(rules: OmahaRules | str | None = None) -> Step:
    """The heads-up blinds rule this house plays, as a sentence naming it."""
    if resolve_rules(rules).heads_up is HeadsUpBlinds.BUTTON_POSTS_BIG:
        return step(
            "Heads-up this house plays the rule document's way: the button posts the big blind and the "
            "other player the small blind, and the small blind acts first in every round."
        )
    return step(
        "Heads-up this house plays the standard rule: the button posts the small blind and acts first "
        "before the flop, the other player posts the big blind."
    )


class MissedBlinds(StrEnum):
    NONE = "none"
    SMALL = "small"
    BIG = "big"
    BOTH = "both"


@dataclass(frozen=True, slots=True)
class BlindPost:
    """What a returning player posts: `live` counts toward his bet, `dead` goes to the pot."""

    live: int
    dead: int

    @property
    def total(self) -> int:
        return self.live + self.dead


def missed_blinds_post(
    missed: MissedBlinds | str, small_blind: int, big_blind: int, rules: OmahaRules | str | None = None
) -> BlindPost:
    """What a player who missed blinds posts to come back in before his big blind.

    Missed the big blind: the rule document (omaha.ka.txt l.43) has him sit out the small blind and
    the button too ("მას ასევე მოუწევს გამოტოვოს პატარა ბლაინდი და დილერის დოლი"), so he comes back
    having missed both: the big blind live plus the small blind dead (l.44), the same as missed both.
    Missed only the small blind: the small blind dead (Robert's Rules; a house option).

    >>> missed_blinds_post("both", 5, 10), missed_blinds_post("big", 5, 10)
    (BlindPost(live=10, dead=5), BlindPost(live=10, dead=5))
    """
    try:
        kind = MissedBlinds(missed)
    except ValueError:
        raise ValueError(f"unknown missed blinds {missed!r}: one of none, small, big, both") from None
    _chips("the small blind", small_blind, positive=True)
    _chips("the big blind", big_blind, positive=True)
    if small_blind > big_blind:
        raise ValueError(f"the small blind ({small_blind}) cannot exceed the big blind ({big_blind})")
    if kind in (MissedBlinds.BOTH, MissedBlinds.BIG):
        return BlindPost(big_blind, small_blind)
    if kind is MissedBlinds.SMALL and resolve_rules(rules).small_only_posts_dead:
        return BlindPost(0, small_blind)
    return BlindPost(0, 0)
