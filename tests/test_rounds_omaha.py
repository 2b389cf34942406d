"""Omaha hands at the live table: every step of a few hundred seeded hands graded against the engines
called on what the table shows (the action log, the board, the cards shown), the order of the steps
as a dealer rules them, and the correction rule."""

from collections import Counter

from trainer.drills.houses import in_use
from trainer.drills.rounds import deal, expected_answer, grade_step
from trainer.engine.omaha import best_high, best_low, settle, side_pots
from trainer.engine.omaha.betting import limit_raise_to, load_rules, no_limit_min_raise_to, pot_limit_max

SEEDS = range(100)  # per level: 300 hands
BETS = ("post", "small_blind", "big_blind", "returning", "new_player", "call", "bet", "raise", "all_in")


def hands(levels=(1, 2, 3), seeds=SEEDS, **options):
    for level in levels:
        for seed in seeds:
            yield deal("omaha", level, seed, **options)


def contributions(table):
    """Each seat's chips in the pot over the hand, from the action log (plus a dead blind)."""
    n = len(table["seats"])
    total = [0] * n
    street_bet: dict[tuple[str, int], int] = {}
    dead = 0
    for a in table["actions"]:
        if a["action"] in BETS and "amount" in a:
            street_bet[(a["street"], a["seat"] - 1)] = a["amount"]
        dead += a.get("dead", 0)
    for (_street, seat), amount in street_bet.items():
        total[seat] += amount
    return total, dead


def engine_table(table):
    """Holes (the cards shown; "hidden" for a live seat before the showdown, None when folded) and
    contributions, with a dead blind as an extra folded seat's stake."""
    put, dead = contributions(table)
    holes = [None if s["folded"] else (s["cards"] or "hidden") for s in table["seats"]]
    if dead:
        holes.append(None)
        put.append(dead)
    return holes, put


def street_raises(table):
    """The totals this street's bet was raised to, in order (pre-flop from the big blind)."""
    street = table["street"]
    tops = [table["blinds"][1]] if street == "preflop" else []
    top = tops[-1] if tops else 0
    for a in table["actions"]:
        if a["street"] == street and a["action"] in ("bet", "raise", "all_in") and a.get("amount", 0) > top:
            top = a["amount"]
            tops.append(top)
    return tops


def pot_now(table):
    return table["pot"] + table["dead"] + sum(s["bet"] for s in table["seats"])


def left_of(t, seat, skip=()):
    """The next seat clockwise after `seat` (numbered from 1), passing over the seats in `skip`."""
    n = len(t["seats"])
    return next(x for x in ((seat - 1 + i) % n + 1 for i in range(1, n)) if x not in skip)


def show_order(t, live, put):
    """Robert's order with issue 15's side-pot rule: the players all-in for less first, the least first
    (ties clockwise from the button's left), then the rest from the last river aggressor, else from the
    button's left."""
    n = len(t["seats"])
    from_button = [(t["button"] - 1 + i) % n + 1 for i in range(1, n + 1)]
    top = max(put[x - 1] for x in live)
    short = sorted((x for x in live if put[x - 1] < top), key=lambda x: (put[x - 1], from_button.index(x)))
    rest = [x for x in from_button if x in live and put[x - 1] == top]
    river, top = [], 0  # who bet or raised on the river (an all-in that only calls is not a raise)
    for a in t["actions"]:
        if a["street"] == "river" and a["action"] in ("bet", "raise", "all_in") and a["amount"] > top:
            river.append(a["seat"])
            top = a["amount"]
    if river and river[-1] in rest:
        i = rest.index(river[-1])
        rest = rest[i:] + rest[:i]
    return short + rest


def beaten_by(t, asked, first, put, folded):
    """Whether seat `asked`'s hand loses, in every pot he can win, to seat `first`'s (both shown)."""
    cards = {x["seat"]: x["cards"] for x in t["seats"] if x["cards"]}
    for pot in side_pots(put, folded).pots:
        if asked - 1 not in pot.eligible:
            continue
        if first - 1 not in pot.eligible:
            return False
        high_lost = best_high(cards[first], t["board"]) > best_high(cards[asked], t["board"])
        low, rival = best_low(cards[asked], t["board"]), best_low(cards[first], t["board"])
        low_lost = low is None or (rival is not None and rival < low)
        if not (high_lost and (not t["hi_lo"] or low_lost)):
            return False
    return True


def oracle(s):
    t = s.table
    n = len(t["seats"])
    focus = t["focus"]
    seat = t["seats"][focus - 1] if focus else None
    new = [x["seat"] for x in t["seats"] if x["new"]]  # a new player sitting down moves no blind
    if s.kind == "om.small_blind":
        return str(left_of(t, t["button"], new))
    if s.kind == "om.big_blind":
        return str(left_of(t, left_of(t, t["button"], new), new))
    if s.kind == "om.new_player":
        # Rule page: post the big blind or wait for it; Robert's Rules: never dealt in between the
        # button and the big blind.
        big = next(a["seat"] for a in t["actions"] if a["action"] == "big_blind")
        between = 0 < (focus - t["button"]) % n < (big - t["button"]) % n
        return "wait_button" if between else "post"
    if s.kind == "om.returning":
        bb, sb = t["blinds"][1], t["blinds"][0]
        # The rule document (omaha.ka.txt l.43-44): missing the big blind he sits out the small blind
        # and the button too, so either way he owes the big blind live and the small blind dead.
        assert seat["returning"] in ("big", "both")
        return {"Live": bb, "Dead": sb}
    if s.kind == "om.pot_size":
        return pot_now(t)
    top = max(x["bet"] for x in t["seats"])
    if s.kind == "om.pot_max":
        to_call = top - seat["bet"]
        return seat["bet"] + pot_limit_max(pot_now(t), to_call, stack=seat["stack"])
    if s.kind == "om.raise_legal":
        attempt = s.question.params["amount"]
        own, stack = seat["bet"], seat["stack"]
        raises = street_raises(t)
        if t["structure"] == "limit":
            small, big = t["limits"]
            made = len(raises)
            players = sum(not x["folded"] for x in t["seats"])
            legal = (
                limit_raise_to(
                    t["street"],
                    small,
                    big,
                    bets_made=made,
                    players=players,
                    rules=load_rules(t["rules"], in_use()),
                )
                == attempt
            )
        else:
            least = no_limit_min_raise_to(raises, t["blinds"][1])
            most = own + pot_limit_max(pot_now(t), top - own, stack=stack)
            legal = attempt <= most and (attempt >= least or attempt == own + stack)
        return "yes" if legal else "no"
    holes, put = engine_table(t)
    folded = [i for i, h in enumerate(holes) if h is None]
    if s.kind == "om.returned":
        return side_pots(put, folded).returned[focus - 1]
    if s.kind == "om.side_pots":
        return dict(zip(s.answer_format.labels, side_pots(put, folded).amounts, strict=True))
    live = [x["seat"] for x in t["seats"] if not x["folded"]]
    kept = [p - r for p, r in zip(put, side_pots(put, folded).returned, strict=True)]
    if s.kind == "om.show_first":
        return str(show_order(t, live, kept)[0])
    if s.kind == "om.muck":
        first = show_order(t, live, kept)[0]
        return "muck" if beaten_by(t, focus, first, put, folded) else "show"
    if s.kind == "om.uncontested":
        return sum(side_pots(put, folded).amounts)  # every pot goes to the last player left
    assert s.kind == "om.pot"
    ruling = settle(t["board"], holes, put, hi_lo=t["hi_lo"], button=t["button"] - 1, chip=t["chip"])
    number = s.question.params.get("number", 0)
    pot = ruling.pots[number]
    shares = dict(pot.shares)
    return {f"Seat {e + 1}": shares.get(e, 0) for e in pot.pot.eligible}


def changed(s, value):
    """Another answer of the same form: 5 chips more, or another of the choices."""
    if isinstance(value, int):
        return value + 5
    if isinstance(value, dict):
        first = next(iter(value))
        return {**value, first: value[first] + 5}
    return next(c for c in (ch.value for ch in s.answer_format.choices) if c != value)


def test_every_step_graded_against_the_engines():
    kinds = Counter()
    for r in hands():
        for i, s in enumerate(r.steps):
            want = oracle(s)
            kinds[s.kind] += 1
            graded = grade_step(r, i, want)
            assert graded.correct, (r.level, r.seed, i, s.kind, want, graded.expected)
            other = changed(s, want)
            if other != want:
                assert not grade_step(r, i, other).correct, (r.level, r.seed, i, s.kind)
    for kind in ("om.small_blind", "om.big_blind", "om.pot", "om.show_first", "om.side_pots", "om.pot_max"):
        assert kinds[kind] >= 20, kinds
    for kind in ("om.returning", "om.new_player", "om.muck", "om.pot_size", "om.raise_legal", "om.returned"):
        assert kinds[kind] >= 5, kinds
    assert kinds["om.uncontested"] >= 3, kinds


def test_the_hands_cover_the_rules():
    seen = Counter()
    for r in hands():
        t = r.end_table
        seen[t["structure"]] += 1
        seen["hi_lo" if t["hi_lo"] else "high"] += 1
        seen["all_in"] += any(x["all_in"] for x in t["seats"])
        seen["dead"] += bool(t["dead"])
        for i, s in enumerate(r.steps):
            if s.kind == "om.raise_legal":
                seen["legal " + expected_answer(r, i)] += 1
            if s.kind == "om.pot" and len(set(expected_answer(r, i).values()) - {0}) > 1:
                seen["split"] += 1
            if s.kind in ("om.new_player", "om.muck"):
                seen[expected_answer(r, i)] += 1
            if s.kind == "om.show_first" and expected_answer(r, i) != oracle_without_side_pots(s):
                seen["all-in first"] += 1
    keys = ("pot_limit", "limit", "hi_lo", "high", "all_in", "dead", "legal yes", "legal no", "split")
    for key in (*keys, "post", "wait_button", "muck", "show", "all-in first"):
        assert seen[key] >= 5, seen


def oracle_without_side_pots(s):
    """Who would show first if side pots changed nothing: the last river aggressor, else left of the
    button."""
    t = s.table
    live = [x["seat"] for x in t["seats"] if not x["folded"]]
    return str(show_order(t, live, [1] * len(t["seats"]))[0])


def test_steps_follow_the_dealers_order():
    order = {"om.small_blind": 0, "om.big_blind": 1, "om.returning": 2, "om.new_player": 2}
    tail = ("om.returned", "om.uncontested", "om.side_pots", "om.show_first", "om.muck", "om.pot")
    for r in hands():
        kinds = [s.kind for s in r.steps]
        assert kinds[:2] == ["om.small_blind", "om.big_blind"]
        start = [k for k in kinds if k in order]
        assert start == sorted(start, key=order.get)
        # The betting questions come before the rulings after the betting, which keep their order.
        last_betting = max((i for i, k in enumerate(kinds) if k not in tail), default=0)
        after = [k for k in kinds[last_betting + 1 :]]
        assert all(k in tail for k in after)
        assert after == sorted(after, key=tail.index)
        assert ("om.uncontested" in kinds) != ("om.pot" in kinds)
        streets = [s.table["street"] for s in r.steps]
        ranks = ["preflop", "flop", "turn", "river"]
        assert [ranks.index(x) for x in streets] == sorted(ranks.index(x) for x in streets)
        pots = [s.question.params.get("number", 0) for s in r.steps if s.kind == "om.pot"]
        assert pots == sorted(pots)


def test_the_table_never_shows_what_is_asked():
    for r in hands(seeds=range(40)):
        for s in r.steps:
            t = s.table
            shown = {x["seat"] for x in t["seats"] if x["cards"]}
            if s.kind == "om.muck":  # the hand shown first, and the hand of the player asked about
                assert len(shown) == 2 and t["focus"] in shown
            elif s.kind != "om.pot":
                assert not shown  # no hand shown before the showdown
            assert len(t["board"]) == {"preflop": 0, "flop": 3, "turn": 4, "river": 5}[t["street"]]
            assert "payouts" not in t and "winners" not in t


def test_a_wrong_step_does_not_poison_the_next():
    for r in hands(levels=(2, 3), seeds=range(25)):
        for i, s in enumerate(r.steps):
            want = oracle(s)
            if i % 2 == 0:
                grade_step(r, i, changed(s, want))
            assert grade_step(r, i, want).correct


def test_seats_and_reproducibility():
    for seats in range(4, 11):
        r = deal("omaha", 2, 7, seats=seats)
        assert len(r.end_table["seats"]) == seats
        assert r == deal("omaha", 2, 7, seats=seats)
    chips = sum(sum(engine_table(r.end_table)[1]) for r in hands(seeds=range(10)))
    assert chips > 0


# Payouts in chips -----------------------------------------------------------------------------------

ROOM = (1000, 500, 100, 25, 5, 1)  # data/chips/poker-room.toml, largest first


def fewest(amount):
    """The fewest poker-room chips: largest first is fewest when each chip divides the next."""
    counts = {}
    for value in ROOM:
        counts[str(value)], amount = divmod(amount, value)
    return counts


def pot_share(s):
    """What the seat asked about collects from the pot asked about, from the engine on the table."""
    t = s.table
    holes, put = engine_table(t)
    ruling = settle(t["board"], holes, put, hi_lo=t["hi_lo"], button=t["button"] - 1, chip=t["chip"])
    return dict(ruling.pots[s.question.params.get("number", 0)].shares).get(t["focus"] - 1, 0)


def test_payouts_in_chips():
    found = Counter()
    for r in hands(seeds=range(40), payout="chips"):
        kinds = [s.kind for s in r.steps]
        for i, s in enumerate(r.steps):
            if s.kind == "om.pot":
                # After a pot's ruling, each seat that collects from it is paid, in seat order.
                paid = [k for k, v in oracle(s).items() if v > 0]
                after = r.steps[i + 1 : i + 1 + len(paid)]
                assert [x.kind for x in after] == ["om.payout"] * len(paid)
                assert [f"Seat {x.table['focus']}" for x in after] == paid
                # The explanation names the seats as the table numbers them.
                said = {str(x) for x in grade_step(r, i, oracle(s)).explanation}
                assert all(f"{k} takes {v}." in said for k, v in oracle(s).items() if v), (said, oracle(s))
            if s.kind not in ("om.payout", "om.uncontested"):
                continue
            found[s.kind] += 1
            amount = pot_share(s) if s.kind == "om.payout" else oracle(s)
            assert amount > 0 and s.answer_format.labels == tuple(str(v) for v in ROOM)
            right = grade_step(r, i, fewest(amount))
            assert right.correct and right.expected == fewest(amount)
            assert str(right.explanation[-1]).startswith(f"Fewest chips for {amount}: ")
            # Right in value though all in ones: right, the fewest shown, and how the ones colour up.
            ones = grade_step(r, i, {"1": amount})
            assert ones.correct and ones.expected == fewest(amount)
            if amount >= 5:
                assert any(str(x).startswith("Colour up: ") for x in ones.explanation)
            assert not grade_step(r, i, {**fewest(amount), "1": fewest(amount)["1"] + 1}).correct
            assert grade_step(r, i, "; ".join(f"{k}: {v}" for k, v in fewest(amount).items())).correct
        assert kinds.count("om.payout") >= sum(k == "om.pot" for k in kinds)  # every pot has a winner
    assert found["om.payout"] >= 100 and found["om.uncontested"] >= 1, found


def test_the_house_chooses_the_payout_form(monkeypatch):
    from dataclasses import replace

    import trainer.drills.omaha.round as omaha_round
    from trainer.drills.chips import load_chips

    # The Omaha house rules name the poker room's chips, whose file answers payouts as amounts.
    assert omaha_round.ROUNDS.house_chips("standard").name == "poker-room"
    plain = deal("omaha", 2, 11)
    assert plain.payout == "amount" and "om.payout" not in [s.kind for s in plain.steps]
    counted = replace(load_chips("poker-room"), payout_answer="chips")
    house = replace(omaha_round.ROUNDS, house_chips=lambda _rules: counted)
    monkeypatch.setattr(omaha_round, "ROUNDS", house)
    chosen = deal("omaha", 2, 11)
    assert chosen.payout == "chips" and "om.payout" in [s.kind for s in chosen.steps]
    assert deal("omaha", 2, 11, payout="amount") == plain  # the trainee may still choose


def test_the_blinds_explanation_names_the_seat_that_is_the_answer():
    """The engine's blind steps number seats from 1 already; numbering them again named the seat after
    the one that posts ("Seat 4 posts the small blind" when the answer was seat 3)."""
    from trainer.drills.rounds import solve_step

    for r in hands(seeds=range(30)):
        for index, s in enumerate(r.steps[:2]):
            value, _text, steps = solve_step(r, index)
            said = {"om.small_blind": "small", "om.big_blind": "big"}[s.kind]
            posts = next(m for m in steps if m.template.startswith(f"Seat {{seat}} posts the {said} blind"))
            assert str(posts.params["seat"]) == value, (r.level, r.seed, s.kind, value, str(posts))


def test_chips_paid_out_wrong_from_a_pot_count_as_chips_from_mistakes():
    """A pot pushed in chips: paying more than the seat's share gives chips away, less keeps them
    back (the round's figure read 0 after 108,800 paid for 60)."""
    from trainer.drills.rounds import deal, expected_answer, grade_step

    rounds = (deal("omaha", 3, seed, payout="chips") for seed in range(200))
    r = next(r for r in rounds if any(s.kind == "om.payout" for s in r.steps))
    i = next(i for i, s in enumerate(r.steps) if s.kind == "om.payout")
    want = expected_answer(r, i)
    assert grade_step(r, i, want).house_chips == 0
    top = r.steps[i].answer_format.labels[0]
    over = {**want, top: int(want.get(top) or 0) + 2}
    assert grade_step(r, i, over).house_chips == -2 * int(top)
    if int(want.get(top) or 0):
        under = {**want, top: int(want[top]) - 1}
        assert grade_step(r, i, under).house_chips == int(top)
