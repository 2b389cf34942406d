"""The advisor's compiled draw kernel (strategy/kernel.c) against its NumPy path, to the last chip.

Both sum the best stand over every card-level draw of an exchange; the NumPy path (solver.py,
`exchanges_numpy`) is itself checked against brute force in test_advisor_exact.py. Small pools rich in
the up-card's suit and in the hand's suits exercise every correction (dealer flushes, suited bought
games, player flushes); full decks check the sizes the advisor really meets.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import shutil

import pytest

from trainer.engine.cards import parse_cards
from trainer.engine.russian_poker.rules import load_rules
from trainer.engine.russian_poker.strategy import kernel
from trainer.engine.russian_poker.strategy.payoffs import Payoffs
from trainer.engine.russian_poker.strategy.solver import Context, Valuation

HOUSES = ("cis", "insured", "lunar", "caribbean")

needs_kernel = pytest.mark.skipif(not kernel.available(), reason="no C compiler: the advisor uses NumPy")


def test_the_kernel_is_built_wherever_a_compiler_is():
    if shutil.which("cc") or shutil.which("gcc"):
        assert kernel.available()


def test_the_kernel_can_be_switched_off(monkeypatch):
    monkeypatch.setenv("TRAINER_ADVISOR_KERNEL", "off")
    assert kernel._library.__wrapped__() is None


def test_the_processors_flags_are_asked_for_only_where_it_has_them(monkeypatch):
    monkeypatch.setattr(kernel.platform, "machine", lambda: "x86_64")
    monkeypatch.setattr(kernel, "_cpu_flags", lambda: set(kernel._V3) | {"sse4_2"})
    assert kernel.flags()[0] == "-march=x86-64-v3"
    monkeypatch.setattr(kernel, "_cpu_flags", lambda: set(kernel._V3) - {"avx2"})
    assert kernel.flags() == kernel._FLAGS
    monkeypatch.setattr(kernel.platform, "machine", lambda: "aarch64")
    monkeypatch.setattr(kernel, "_cpu_flags", lambda: set(kernel._V3))
    assert kernel.flags() == kernel._FLAGS


@pytest.mark.skipif(not (shutil.which("cc") or shutil.which("gcc")), reason="no C compiler")
def test_a_compiler_refusing_the_processors_flags_builds_the_plain_kernel(monkeypatch, tmp_path):
    real = shutil.which("cc") or shutil.which("gcc")
    old = tmp_path / "old-cc"
    old.write_text(f'#!/bin/sh\ncase "$*" in *-march=*) exit 1;; esac\nexec {real} "$@"\n')
    old.chmod(0o755)
    monkeypatch.setenv("CC", str(old))
    monkeypatch.setenv("TRAINER_ADVISOR_KERNEL_DIR", str(tmp_path / "kernels"))
    monkeypatch.delenv("TRAINER_ADVISOR_KERNEL", raising=False)
    monkeypatch.setattr(kernel, "flags", lambda: ["-march=x86-64-v3", *kernel._FLAGS])
    lib = kernel._library.__wrapped__()
    assert lib is not None and lib.rp_exchange
    built = list((tmp_path / "kernels").glob("rp_kernel_*.so"))
    plain = hashlib.sha256(kernel.SOURCE.read_bytes() + " ".join(kernel._FLAGS).encode()).hexdigest()[:16]
    assert [b.name for b in built] == [f"rp_kernel_{plain}.so"]
    # the plain build's own paths (no bit deposit or extract instructions) value draws exactly too
    monkeypatch.setattr(kernel, "_library", lambda: lib)
    for house, shape in (("cis", "four suited"), ("insured", "up-suited")):
        rng = random.Random(f"plain {house} {shape}")
        deck = rng.sample(range(52), 52)
        hand = _hand(rng, deck, shape)
        pool = _pool(rng, deck[0], hand, 14)
        _both(Valuation(Context(deck[0], pool, Payoffs.of(load_rules(house), 1, 0))), hand)


def _pool(rng: random.Random, up: int, hand: tuple[int, ...], size: int) -> tuple[int, ...]:
    rest = [c for c in range(52) if c not in hand and c != up]
    rng.shuffle(rest)
    suited = [c for c in rest if c % 4 == up % 4][:6]
    return tuple(suited + [c for c in rest if c not in suited][: size - len(suited)])


def _hand(rng: random.Random, deck: list[int], shape: str) -> tuple[int, ...]:
    if shape == "four suited":
        same = [c for c in deck if c % 4 == deck[0] % 4][:4]
        return tuple(same + [c for c in deck if c % 4 != deck[0] % 4][:1])
    if shape == "up-suited":
        same = [c for c in deck[1:] if c % 4 == deck[0] % 4][:3]
        return tuple(same + [c for c in deck[1:] if c % 4 != deck[0] % 4][:2])
    return tuple(deck[1:6])


def _both(v: Valuation, hand: tuple[int, ...]) -> None:
    for k in range(1, 6):
        kept = [[c for c in hand if c not in d] for d in itertools.combinations(hand, k)]
        assert v.exchanges_kernel(kept, k) == v.exchanges_numpy(kept, k), k


@needs_kernel
@pytest.mark.parametrize("house", HOUSES)
@pytest.mark.parametrize("shape", ["plain", "four suited", "up-suited"])
@pytest.mark.parametrize("seed", range(4))
def test_kernel_equals_numpy_on_small_pools(house, shape, seed):
    rng = random.Random(f"{house} {shape} {seed}")
    deck = rng.sample(range(52), 52)
    up = deck[0]
    hand = _hand(rng, deck, shape)
    pool = _pool(rng, up, hand, 13 + seed)
    stakes = [(1, 0), (10, 5), (100, 50)][seed % 3] if load_rules(house).bonus_offered else (1, 0)
    _both(Valuation(Context(up, pool, Payoffs.of(load_rules(house), *stakes))), hand)


@needs_kernel
@pytest.mark.slow
@pytest.mark.parametrize(
    ("house", "player", "upcard"),
    [
        ("cis", "4s Js As 3s 6s", "3c"),  # four spades: many player flush draws
        ("cis", "9c As 9s 9d Qh", "8s"),
        ("insured", "Td 3d 7c Jh 2c", "Ts"),
        ("lunar", "Kh Kd 5c 5h 9s", "Ah"),
        ("caribbean", "Ad 5h 3d 9c 2h", "8s"),
    ],
)
def test_kernel_equals_numpy_on_full_decks(house, player, upcard):
    hand = tuple(c.index for c in parse_cards(player))
    up = parse_cards([upcard])[0].index
    pool = tuple(i for i in range(52) if i not in hand and i != up)
    _both(Valuation(Context(up, pool, Payoffs.of(load_rules(house)))), hand)


def test_numpy_values_do_not_depend_on_what_was_valued_before():
    # Buy profiles are cached per context; two hands may share one only where they compare alike with
    # every dealer flush. Before that rule, a five-card exchange valued after the four-card ones read
    # a profile computed for another flush band (found on this pool: insured, seed 77 of a search).
    rng = random.Random(77)
    deck = rng.sample(range(52), 52)
    up, hand = deck[0], tuple(deck[1:6])
    rest = [c for c in range(52) if c not in hand and c != up]
    rng.shuffle(rest)
    suited = [c for c in rest if c % 4 == up % 4][:5]
    pool = tuple(suited + [c for c in rest if c not in suited][:9])
    pay = Payoffs.of(load_rules("insured"))
    fresh = Valuation(Context(up, pool, pay)).exchanges_numpy([[]], 5)
    v = Valuation(Context(up, pool, pay))
    for k in (3, 4):
        v.exchanges_numpy([[c for c in hand if c not in d] for d in itertools.combinations(hand, k)], k)
    assert v.exchanges_numpy([[]], 5) == fresh


@needs_kernel
def test_an_exchange_the_kernel_refuses_is_valued_with_numpy(monkeypatch):
    rng = random.Random(9)
    deck = rng.sample(range(52), 52)
    up, hand = deck[0], tuple(deck[1:6])
    pool = _pool(rng, up, hand, 13)
    v = Valuation(Context(up, pool, Payoffs.of(load_rules("cis"))))
    kept = [[c for c in hand if c not in d] for d in itertools.combinations(hand, 3)]
    expected = v.exchanges_numpy(kept, 3)

    def refuse(*args, **kwargs):
        raise kernel.KernelLimit("too large")

    monkeypatch.setattr(kernel, "exchange_sums", refuse)
    assert v.exchanges(kept, 3) == expected


def _exchanges(v: Valuation, hand: tuple[int, ...], k: int) -> list:
    return v.exchanges_kernel([[c for c in hand if c not in d] for d in itertools.combinations(hand, k)], k)


@needs_kernel
@pytest.mark.slow
def test_the_sums_do_not_depend_on_how_many_threads_share_them(monkeypatch):
    # Four spades against a club: thousands of rank classes and player flush draws, so the exchange is
    # split at class and flush-draw boundaries (a share keeps a class's held buy state to itself).
    hand = tuple(c.index for c in parse_cards("4s Js As 3s 6s"))
    up = parse_cards(["3c"])[0].index
    pool = tuple(i for i in range(52) if i not in hand and i != up)
    ctx = Context(up, pool, Payoffs.of(load_rules("cis")))
    found = {}
    for n in (1, 2, 3, 8):
        monkeypatch.setattr(kernel, "threads", lambda n=n: n)
        found[n] = [_exchanges(Valuation(ctx), hand, k) for k in (3, 4, 5)]
    assert found[2] == found[1] and found[3] == found[1] and found[8] == found[1]


@needs_kernel
@pytest.mark.slow
def test_python_threads_may_call_the_kernel_at_once():
    # The kernel keeps no state between calls (working memory comes from a locked pool), so the
    # advisor serves several requests at once; each answer must be the one it gets alone.
    import concurrent.futures

    rng = random.Random(5)
    cases = []
    for house in ("cis", "lunar", "insured", "cis"):
        deck = rng.sample(range(52), 52)
        up, hand = deck[0], tuple(deck[1:6])
        pool = tuple(i for i in range(52) if i not in hand and i != up)
        cases.append((Context(up, pool, Payoffs.of(load_rules(house))), hand))
    alone = [_exchanges(Valuation(ctx), hand, 4) for ctx, hand in cases]
    with concurrent.futures.ThreadPoolExecutor(4) as pool_:
        together = list(pool_.map(lambda case: _exchanges(Valuation(case[0]), case[1], 4), cases * 2))
    assert together == alone * 2


@needs_kernel
@pytest.mark.parametrize(
    ("house", "player", "upcard"), [("cis", "Qh 9h 6h 3h 2c", "Ad"), ("lunar", "Kh Kd 5c 5h 9s", "Ah")]
)
def test_options_valued_at_once_are_the_options_valued_one_size_at_a_time(monkeypatch, house, player, upcard):
    from trainer.engine.russian_poker import strategy
    from trainer.engine.russian_poker.strategy.solver import Valuation

    strategy.clear_cache()
    at_once = strategy.options(player, upcard, rules=house)
    strategy.clear_cache()
    monkeypatch.setattr(Valuation, "kernel_ready", lambda self: False)
    one_by_one = strategy.options(player, upcard, rules=house)
    strategy.clear_cache()
    assert at_once == one_by_one
    assert [o.exact for o in at_once] == [o.exact for o in one_by_one]
