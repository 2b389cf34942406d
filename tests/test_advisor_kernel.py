"""The advisor's compiled draw kernel (strategy/kernel.c) against its NumPy path, to the last chip.

Both sum the best stand over every card-level draw of an exchange; the NumPy path (solver.py,
`exchanges_numpy`) is itself checked against brute force in test_advisor_exact.py. Small pools rich in
the up-card's suit and in the hand's suits exercise every correction (dealer flushes, suited bought
games, player flushes); full decks check the sizes the advisor really meets.
"""

from __future__ import annotations

import ctypes
import itertools
import logging
import os
import platform
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from trainer.engine.cards import parse_cards
from trainer.engine.russian_poker.rules import load_rules
from trainer.engine.russian_poker.strategy import kernel
from trainer.engine.russian_poker.strategy.payoffs import Payoffs
from trainer.engine.russian_poker.strategy.solver import Context, Valuation

ROOT = Path(__file__).resolve().parents[1]
HOUSES = ("cis", "insured", "lunar", "caribbean")

needs_kernel = pytest.mark.skipif(not kernel.available(), reason="no built kernel: the advisor uses NumPy")


def test_the_kernel_is_built_wherever_a_compiler_is():
    if shutil.which("cc") or shutil.which("gcc"):
        assert kernel.available(), f"the advisor kernel is not built here: {kernel.REBUILD}"


def test_the_kernel_can_be_switched_off(monkeypatch, caplog):
    monkeypatch.setenv("TRAINER_ADVISOR_KERNEL", "off")
    with caplog.at_level(logging.INFO, logger=kernel.__name__):
        assert kernel._library.__wrapped__() is None
    assert "TRAINER_ADVISOR_KERNEL=off" in caplog.text


def test_without_a_built_module_the_advisor_says_it_uses_numpy(monkeypatch, caplog):
    monkeypatch.delenv("TRAINER_ADVISOR_KERNEL", raising=False)
    monkeypatch.setattr(kernel, "module_path", lambda name: None)
    with caplog.at_level(logging.WARNING, logger=kernel.__name__):
        assert kernel._library.__wrapped__() is None
    assert "no built module" in caplog.text and "NumPy" in caplog.text and "pip install -e ." in caplog.text


def test_the_processors_flags_choose_the_module_only_where_it_has_them(monkeypatch):
    monkeypatch.setattr(kernel.platform, "machine", lambda: "x86_64")
    monkeypatch.setattr(kernel, "_cpu_flags", lambda: set(kernel._V3) | {"sse4_2"})
    assert kernel.modules() == ["_kernel_v3", "_kernel"]
    monkeypatch.setattr(kernel, "_cpu_flags", lambda: set(kernel._V3) - {"avx2"})
    assert kernel.modules() == ["_kernel"]
    monkeypatch.setattr(kernel.platform, "machine", lambda: "aarch64")
    monkeypatch.setattr(kernel, "_cpu_flags", lambda: set(kernel._V3))
    assert kernel.modules() == ["_kernel"]


def test_the_processors_module_is_the_one_loaded(monkeypatch):
    built = [name for name in kernel.modules() if kernel.module_path(name)]
    if not built:
        pytest.skip("no built kernel")
    loaded = kernel._library()
    assert loaded._name == str(kernel.module_path(built[0]))


def _built_modules():
    return [p for name in (kernel.PLAIN, kernel.V3) if (p := kernel.module_path(name))]


@pytest.mark.parametrize("name", [kernel.PLAIN, kernel.V3])
def test_the_c_structs_and_their_ctypes_mirrors_agree(name):
    path = kernel.module_path(name)
    if path is None or (name == kernel.V3 and name not in kernel.modules()):
        pytest.skip(f"{name} is not built, or this processor cannot run it")
    lib, problem = kernel.load(path)
    assert problem is None
    assert kernel.layout_errors(lib) == []
    for which, mirror in enumerate((kernel._Ctx, kernel._Exchange)):
        size, fields = kernel.c_layout(lib, which)
        assert fields == kernel.py_layout(mirror)[1]
        assert size == ctypes.sizeof(mirror)


def _mirror(fields):
    return type("Mirror", (ctypes.Structure,), {"_fields_": fields})


@pytest.mark.skipif(not _built_modules(), reason="no built kernel")
def test_a_mirror_that_disagrees_with_the_c_struct_is_found():
    lib, _ = kernel.load(_built_modules()[0])
    ctx = list(kernel._Ctx._fields_)
    swapped = [ctx[1], ctx[0], *ctx[2:]]
    retyped = [*ctx[:2], ("up_suit", ctypes.c_void_p), *ctx[3:]]
    narrowed = [*ctx[:2], ("up_suit", ctypes.c_int32), *ctx[3:]]
    renamed = [*ctx[:-1], ("insurance_odds", ctypes.c_int64)]
    for wrong, expected in (
        (swapped, "avail"),
        (retyped, "'p'"),
        (narrowed, "('up_suit', 16, 4,"),  # padded: only the field's own size differs
        (ctx[:-1], "33 fields, the mirror 32"),
        (renamed, "insurance_odds"),
        ([*ctx, ("spare", ctypes.c_int64)], "34"),
    ):
        errors = kernel.layout_errors(lib, (_mirror(wrong), kernel._Exchange))
        assert errors and expected in " ".join(errors), (wrong, errors)
    assert kernel.layout_errors(lib, (_mirror(ctx), kernel._Exchange)) == []


@pytest.mark.skipif(not _built_modules(), reason="no built kernel")
def test_a_module_built_from_another_kernel_c_is_refused(monkeypatch, tmp_path, caplog):
    edited = tmp_path / "kernel.c"
    edited.write_bytes(kernel.SOURCE.read_bytes() + b"/* edited */\n")
    monkeypatch.setattr(kernel, "SOURCE", edited)
    lib, problem = kernel.load(_built_modules()[0])
    assert lib is None and "another kernel.c" in problem and "pip install -e ." in problem
    monkeypatch.delenv("TRAINER_ADVISOR_KERNEL", raising=False)
    with caplog.at_level(logging.WARNING, logger=kernel.__name__):
        assert kernel._library.__wrapped__() is None
    assert "another kernel.c" in caplog.text and "NumPy" in caplog.text
    # installed without its source (a wheel): nothing it could differ from
    monkeypatch.setattr(kernel, "SOURCE", tmp_path / "absent.c")
    assert kernel.load(_built_modules()[0])[1] is None


def build_kernels(tmp_path, cc):
    """`setup.py build_ext` into a folder of the test's with `cc` as the compiler: the process, and the
    kernel modules it built (name: path)."""
    env = {**os.environ, "CC": cc, "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("LDSHARED", None)  # linked with CC too (setuptools puts CC in place of Python's compiler)
    lib = tmp_path / "lib"
    run = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "-b", str(lib), "-t", str(tmp_path / "o")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    built = {p.name.split(".")[0]: p for p in lib.rglob("_kernel*.so")}
    return run, built


@pytest.mark.skipif(not (shutil.which("cc") or shutil.which("gcc")), reason="no C compiler")
def test_a_compiler_refusing_the_processors_flags_builds_the_plain_kernel(monkeypatch, tmp_path):
    real = shutil.which("cc") or shutil.which("gcc")
    old = tmp_path / "old-cc"
    old.write_text(f'#!/bin/sh\ncase "$*" in *-march=*) exit 1;; esac\nexec {real} "$@"\n')
    old.chmod(0o755)
    run, built = build_kernels(tmp_path, str(old))
    assert run.returncode == 0, run.stderr[-2000:]
    assert list(built) == ["_kernel"]
    if platform.machine() in ("x86_64", "AMD64"):
        assert "_kernel_v3 not built" in run.stderr
    lib, problem = kernel.load(built["_kernel"])
    assert problem is None
    # the plain build's own paths (no bit deposit or extract instructions) value draws exactly too
    monkeypatch.setattr(kernel, "_library", lambda: lib)
    for house, shape in (("cis", "four suited"), ("insured", "up-suited")):
        rng = random.Random(f"plain {house} {shape}")
        deck = rng.sample(range(52), 52)
        hand = _hand(rng, deck, shape)
        pool = _pool(rng, deck[0], hand, 14)
        _both(Valuation(Context(deck[0], pool, Payoffs.of(load_rules(house), 1, 0))), hand)


def test_an_install_without_a_compiler_goes_on_without_the_kernel(tmp_path):
    run, built = build_kernels(tmp_path, str(tmp_path / "no-such-cc"))
    assert run.returncode == 0, run.stderr[-2000:]
    assert built == {}
    assert "_kernel not built" in run.stderr and "NumPy" in run.stderr


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
        exact = v.exchanges_kernel(kept, k)
        assert exact == v.exchanges_numpy(kept, k), k
        # the quick bounds `best_options` skips exchanges by: NumPy's, to the last chip, never below
        bounds = v.exchanges_kernel(kept, k, bound=True)
        assert bounds == v.exchanges_numpy(kept, k, bound=True), k
        assert all(b >= e for b, e in zip(bounds, exact, strict=True)), k


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

    refused = []

    def refuse(*args, **kwargs):  # the kernel's call, made as the real one is, refusing when run
        def run():
            refused.append(True)
            raise kernel.KernelLimit("too large")

        return run

    monkeypatch.setattr(kernel, "exchange_call", refuse)
    assert v.exchanges(kept, 3) == expected
    assert refused == [True]  # the kernel was asked, refused, and NumPy valued the exchanges


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
