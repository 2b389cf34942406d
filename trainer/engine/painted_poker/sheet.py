"""The painted score sheet: players, the deals played (bids and tricks), running totals and the winner.

>>> sheet = ScoreSheet.start(["North", "East"]).record([1, 1], [0, 1])
>>> sheet.totals, sheet.leaders(), sheet.next_deal.cards
((-10, 10), ('East',), 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from trainer.engine.explain import Step, step
from trainer.engine.painted_poker.deals import (
    Deal,
    forbidden_bid,
    must_bid_max,
    schedule,
    score,
    whole_number,
)
from trainer.engine.painted_poker.rules import PaintedRules, SetPremium, resolve


@dataclass(frozen=True)
class DealRecord:
    """One line of the sheet: the deal, each seat's bid (None without bids), tricks, score and any
    set premium written at the end of a set."""

    deal: Deal
    bids: tuple[int | None, ...]
    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    premia: tuple[int, ...]

    @property
    def points(self) -> tuple[int, ...]:
        return tuple(a + b for a, b in zip(self.scores, self.premia, strict=True))


def _names(players: Sequence[str]) -> tuple[str, ...]:
    """The players' names as a tuple; anything but a list of names is rejected by the sheet's check."""
    return tuple(players) if isinstance(players, list | tuple) else ()


@dataclass(frozen=True)
class ScoreSheet:
    """The painted score sheet: players by seat, the deals played so far and the running totals.

    Immutable: `record` returns a new sheet with the next deal of the schedule written in. A sheet
    may be taken over mid-game (`resume`): it then starts at deal `first_deal` with the `carried`
    totals, and a set that began before it earns no premium here (its earlier deals are unknown).
    """

    players: tuple[str, ...]
    rules: PaintedRules
    first_dealer: int = 0
    records: tuple[DealRecord, ...] = ()
    first_deal: int = 1
    carried: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        names = self.players
        if (
            not isinstance(names, tuple)
            or not names
            or not all(isinstance(n, str) and n.strip() for n in names)
        ):
            raise ValueError("players must be a list of names")
        if len(set(names)) != len(names):
            raise ValueError("player names must differ")
        if not isinstance(self.rules, PaintedRules):
            raise ValueError(f"rules must be a painted poker preset, not {self.rules!r}")
        self.rules.check_players(len(names))
        whole_number("first_dealer", self.first_dealer, 0, len(names) - 1)
        whole_number("first_deal", self.first_deal, 1, len(self.deals))
        if not self.carried:
            object.__setattr__(self, "carried", (0,) * len(names))
        if len(self.carried) != len(names) or not all(
            isinstance(c, int) and not isinstance(c, bool) for c in self.carried
        ):
            raise ValueError(f"carried must be {len(names)} whole numbers, one per player")

    @classmethod
    def start(
        cls, players: Sequence[str], rules: PaintedRules | str | None = None, first_dealer: int = 0
    ) -> ScoreSheet:
        """A blank sheet for `players` (names by seat) under a preset (name or object)."""
        return cls(_names(players), resolve(rules), first_dealer)

    @classmethod
    def resume(
        cls,
        players: Sequence[str],
        rules: PaintedRules | str | None,
        first_dealer: int,
        first_deal: int,
        carried: Sequence[int],
    ) -> ScoreSheet:
        """A sheet taken over before deal `first_deal`, with each player's total so far."""
        if not isinstance(carried, list | tuple):
            raise ValueError(f"carried must be a list of totals, one per player, not {carried!r:.60}")
        return cls(_names(players), resolve(rules), first_dealer, (), first_deal, tuple(carried))

    @property
    def deals(self) -> list[Deal]:
        """The whole schedule of this game."""
        return schedule(len(self.players), self.rules, self.first_dealer)

    @property
    def next_deal(self) -> Deal | None:
        deals, index = self.deals, self.first_deal - 1 + len(self.records)
        return deals[index] if index < len(deals) else None

    @property
    def finished(self) -> bool:
        return self.next_deal is None

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(
            carried + sum(rec.points[seat] for rec in self.records)
            for seat, carried in enumerate(self.carried)
        )

    @property
    def winner(self) -> tuple[str, ...]:
        """The winner (ties share) once every deal is played; `ValueError` before that."""
        if not self.finished:
            raise ValueError(f"the game is not over: deal {self.first_deal + len(self.records)} is next")
        return self.leaders()

    def leaders(self) -> tuple[str, ...]:
        """The players with the most points (the winners once the sheet is finished); ties share."""
        totals = self.totals
        best = max(totals)
        return tuple(name for name, total in zip(self.players, totals, strict=True) if total == best)

    def record(self, bids: Sequence[int | None] | None, tricks: Sequence[int]) -> ScoreSheet:
        """Write in the next deal; `bids` by seat (None for gold and miser deals), `tricks` by seat."""
        deal = self.next_deal
        if deal is None:
            raise ValueError("the game is over: every deal of the schedule has been played")
        n, where = len(self.players), f"deal {deal.number}"
        if isinstance(tricks, str) or not isinstance(tricks, Sequence) or len(tricks) != n:
            raise ValueError(f"{where}: give the tricks of all {n} players")
        took = tuple(whole_number(f"{where}: tricks", t, 0, deal.cards) for t in tricks)
        if sum(took) != deal.cards:
            raise ValueError(f"{where}: the tricks add up to {sum(took)}, but {deal.cards} were played")
        if not deal.kind.has_bids:
            if bids is not None and (not isinstance(bids, list | tuple) or any(b is not None for b in bids)):
                raise ValueError(f"{where}: a {deal.kind.label} deal has no bids")
            bid_row: tuple[int | None, ...] = (None,) * n
        else:
            if not isinstance(bids, list | tuple) or len(bids) != n:
                raise ValueError(f"{where}: give the bids of all {n} players")
            made = tuple(whole_number(f"{where}: bid", b, 0, deal.cards) for b in bids)
            others = [b for seat, b in enumerate(made) if seat != deal.dealer]
            if must_bid_max(others, deal.kind, self.rules) and made[deal.dealer] != deal.cards:
                raise ValueError(
                    f"{where}: everybody else passed, so the dealer ({self.players[deal.dealer]}) must bid "
                    f"all {deal.cards} cards, not {made[deal.dealer]}"
                )
            if forbidden_bid(deal.cards, others, deal.kind, self.rules) == made[deal.dealer]:
                raise ValueError(
                    f"{where}: the dealer ({self.players[deal.dealer]}) may not bid {made[deal.dealer]} "
                    f"(the hook): the bids would add up to the {deal.cards} cards dealt"
                )
            bid_row = made
        scores = tuple(
            score(b, t, deal.kind, self.rules, cards=deal.cards) for b, t in zip(bid_row, took, strict=True)
        )
        rec = DealRecord(deal, bid_row, took, scores, (0,) * n)
        rec = DealRecord(deal, bid_row, took, scores, self._premia(rec))
        return ScoreSheet(
            self.players, self.rules, self.first_dealer, (*self.records, rec), self.first_deal, self.carried
        )

    def _premia(self, last: DealRecord) -> tuple[int, ...]:
        """Set premia due when `last` closes its set: whoever made every bid of the set gets his best
        deal of the set once more."""
        n = len(self.players)
        if self.rules.scoring.set_premium is SetPremium.NONE:
            return (0,) * n
        following = self.deals[last.deal.number :]
        if following and following[0].set == last.deal.set:
            return (0,) * n
        if self.first_deal > 1 and self.deals[self.first_deal - 2].set == last.deal.set:
            return (0,) * n  # the set began before this sheet took over: its earlier deals are unknown
        in_set = [r for r in self.records if r.deal.set == last.deal.set] + [last]
        premia = []
        for seat in range(n):
            made_all = all(r.bids[seat] is not None and r.bids[seat] == r.tricks[seat] for r in in_set)
            premia.append(max(0, *(r.scores[seat] for r in in_set)) if made_all else 0)
        return tuple(premia)

    def premium_steps(self, record: DealRecord) -> tuple[Step, ...]:
        """Why a record carries set premia (empty when it carries none)."""
        return tuple(
            step(
                "{player} made every bid of set {set}: the best deal of the set, {best}, counts twice.",
                player=self.players[seat],
                set=record.deal.set,
                best=p,
            )
            for seat, p in enumerate(record.premia)
            if p
        )
