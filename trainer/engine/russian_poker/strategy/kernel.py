"""The compiled draw kernel (kernel.c): loading it, and valuing an exchange with it.

`kernel.c` is built when the package is installed (`python3 -m pip install .`, or `-e .` for a
checkout): setup.py compiles it, through kernel_module.c, into the extension module `_kernel` beside
this file, and on x86-64 also `_kernel_v3` (`-march=x86-64-v3`). This module finds them with Python's
import machinery on first use and loads the one this processor can run with ctypes; nothing is ever
compiled while the app runs. The module is refused, with a log line saying why, when its structs'
layout differs from the ctypes mirrors below (`layout_errors`) or when it was built from another
kernel.c than the one beside it (a checkout edited since its build). Where no module is built (the
install found no C compiler), where it is refused, or with `TRAINER_ADVISOR_KERNEL=off`,
`available()` is False and the advisor values draws with NumPy alone (solver.py): the same exact sums,
slower; the tests compare the two to the last chip.

`exchange_call` is the kernel's side of `Valuation.exchanges`: the rank parts of the dealer counts are
found with NumPy (`DealerCounts.count`), then the kernel walks every card-level draw of each rank class
(and each flush draw on its own) and adds up the best stand after it.
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib.util
import logging
import os
import platform
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from trainer.engine.evaluator import CLASS_COUNT, FLUSH_TABLE
from trainer.engine.russian_poker.strategy.counting import AK_FLOOR, IntArray, mask_table, tau_rows, up_tables

log = logging.getLogger(__name__)
SOURCE = Path(__file__).with_name("kernel.c")
assert CLASS_COUNT < 1 << 13  # a unit's sort key holds its strength in 13 bits
PACKAGE = __name__.rsplit(".", 1)[0]
PLAIN, V3 = "_kernel", "_kernel_v3"
# The processor flags of x86-64-v3, which setup.py builds `_kernel_v3` for: only where the processor
# says it has every one of them (a wheel built on a newer machine still runs on an older one).
_V3 = {"avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe", "xsave"}
REBUILD = "build it again with `python3 -m pip install -e .` (or `python3 setup.py build_ext --inplace`)"


def _cpu_flags() -> set[str]:
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as info:
            for line in info:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def modules() -> list[str]:
    """The kernel modules this processor can run, the fastest first."""
    if platform.machine() in ("x86_64", "AMD64") and _cpu_flags() >= _V3:
        return [V3, PLAIN]
    return [PLAIN]


class KernelLimit(RuntimeError):
    """The kernel cannot value this exchange (its fixed table sizes); the NumPy path can."""


class _Ctx(ctypes.Structure):
    _fields_ = [
        ("avail", ctypes.c_void_p),
        ("pool_suit", ctypes.c_void_p),
        ("up_suit", ctypes.c_int64),
        ("ak_floor", ctypes.c_int64),
        ("cum", ctypes.c_void_p),
        ("index", ctypes.c_void_p),
        ("width", ctypes.c_int64),
        ("axis", ctypes.c_void_p),
        ("n_axis", ctypes.c_int64),
        ("tau_row", ctypes.c_void_p),
        ("sq_flush", ctypes.c_void_p),
        ("sq_rank", ctypes.c_void_p),
        ("flush5", ctypes.c_void_p),
        ("n_sets", ctypes.c_int64),
        ("set_mask", ctypes.c_void_p),
        ("set_ranks", ctypes.c_void_p),
        ("after", ctypes.c_void_p),
        ("after_flush", ctypes.c_void_p),
        ("flush_hand", ctypes.c_void_p),
        ("after_sorted", ctypes.c_void_p),
        ("n_after", ctypes.c_int64),
        ("flush_sorted", ctypes.c_void_p),
        ("n_flush", ctypes.c_int64),
        ("n_groups", ctypes.c_int64),
        ("g_set", ctypes.c_void_p),
        ("g_suit", ctypes.c_void_p),
        ("g_count", ctypes.c_void_p),
        ("g_completers", ctypes.c_void_p),
        ("g_rho", ctypes.c_void_p),
        ("g_held", ctypes.c_void_p),
        ("out", ctypes.c_void_p),
        ("fee", ctypes.c_int64),
        ("odds", ctypes.c_int64),
    ]


class _Exchange(ctypes.Structure):
    _fields_ = [
        ("k", ctypes.c_int64),
        ("n_opt", ctypes.c_int64),
        ("kept", ctypes.c_void_p),
        ("flush_suit", ctypes.c_void_p),
        ("counts", ctypes.c_void_p),
        ("sig_start", ctypes.c_void_p),
        ("sig_stop", ctypes.c_void_p),
        ("sig_row", ctypes.c_void_p),
        ("sig_single", ctypes.c_void_p),
        ("sig_coef", ctypes.c_void_p),
        ("class_of", ctypes.c_void_p),
        ("n_units", ctypes.c_int64),
        ("u_class", ctypes.c_void_p),
        ("u_option", ctypes.c_void_p),
        ("u_strength", ctypes.c_void_p),
        ("hands", ctypes.c_int64),
        ("deck", ctypes.c_int64),
        ("total", ctypes.c_void_p),
        ("threads", ctypes.c_int64),
        ("bound", ctypes.c_int64),
    ]


def module_path(name: str) -> Path | None:
    """Where the built kernel module `name` is (found as Python finds modules), None if not built."""
    try:
        spec = importlib.util.find_spec(f"{PACKAGE}.{name}")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not spec.has_location:
        return None
    return Path(spec.origin)


@cache
def _library() -> Any:
    if os.environ.get("TRAINER_ADVISOR_KERNEL", "").lower() in ("off", "0", "no"):
        log.info("advisor kernel switched off (TRAINER_ADVISOR_KERNEL=off): draws are valued with NumPy")
        return None
    found = [path for name in modules() if (path := module_path(name)) is not None]
    if not found:
        log.warning(
            "advisor kernel: no built module (%s.%s): the install found no C compiler, or this checkout "
            "was never installed; install it again where one is (%s). Draws are valued with NumPy alone "
            "(the same sums, slower)",
            PACKAGE,
            PLAIN,
            "`python3 -m pip install -e .` in a checkout, or `python3 setup.py build_ext --inplace`",
        )
        return None
    for path in found:
        lib, problem = load(path)
        if lib is not None:
            return lib
        log.warning("advisor kernel: %s refused: %s", path.name, problem)
    log.warning("advisor kernel: no usable module; draws are valued with NumPy alone (the same sums, slower)")
    return None


def load(path: Path) -> tuple[Any, str | None]:
    """The kernel module at `path` loaded with ctypes and checked, or None and why it is refused: it
    cannot be loaded, its structs differ from the mirrors here, or it was built from another kernel.c
    than the one beside this file (where that is shipped)."""
    try:
        lib = ctypes.CDLL(str(path))
        lib.rp_sizeof.argtypes = [ctypes.c_int]
        lib.rp_sizeof.restype = ctypes.c_int64
        lib.rp_field.argtypes = [ctypes.c_int, ctypes.c_int, *[ctypes.POINTER(ctypes.c_int64)] * 2]
        lib.rp_field.argtypes.append(ctypes.POINTER(ctypes.c_int))
        lib.rp_field.restype = ctypes.c_char_p
        lib.rp_source_sha256.argtypes = []
        lib.rp_source_sha256.restype = ctypes.c_char_p
        lib.rp_exchange.argtypes = [ctypes.POINTER(_Ctx), ctypes.POINTER(_Exchange)]
        lib.rp_exchange.restype = ctypes.c_int
    except (OSError, AttributeError) as error:  # not loadable here, or a module without these
        return None, f"cannot be loaded ({error})"
    errors = layout_errors(lib)
    if errors:
        return None, f"its structs differ from kernel.py's mirrors ({'; '.join(errors)}); {REBUILD}"
    built = lib.rp_source_sha256().decode()
    try:
        here = hashlib.sha256(SOURCE.read_bytes()).hexdigest()
    except OSError:  # installed without kernel.c: nothing it could have changed from
        here = built
    if built != here:
        return None, f"built from another kernel.c than {SOURCE}; {REBUILD}"
    return lib, None


def c_layout(lib: Any, which: int) -> tuple[int, list[tuple[str, int, int, str]]]:
    """Struct `which` (0: Ctx, 1: Exchange) as the compiler laid it out: its size and each field's
    (name, offset, size, kind), kind "i" a whole number and "p" a pointer."""
    fields = []
    offset, size, kind = ctypes.c_int64(), ctypes.c_int64(), ctypes.c_int()
    for i in range(256):
        name = lib.rp_field(which, i, ctypes.byref(offset), ctypes.byref(size), ctypes.byref(kind))
        if name is None:
            break
        fields.append((name.decode(), offset.value, size.value, chr(kind.value)))
    return int(lib.rp_sizeof(which)), fields


_KINDS = {ctypes.c_int64: "i", ctypes.c_void_p: "p"}


def py_layout(struct: type[ctypes.Structure]) -> tuple[int, list[tuple[str, int, int, str]]]:
    """The same for a ctypes mirror."""
    fields = []
    for entry in struct._fields_:
        name, kind = entry[0], entry[1]
        field = getattr(struct, name)
        fields.append((name, field.offset, field.size, _KINDS.get(kind, "?")))
    return ctypes.sizeof(struct), fields


def layout_errors(lib: Any, mirrors: Sequence[type[ctypes.Structure]] | None = None) -> list[str]:
    """How the kernel's structs and their ctypes mirrors (`_Ctx`, `_Exchange`) disagree (none: they
    agree field by field: names in order, offsets, sizes and kinds, and the structs' sizes)."""
    errors = []
    for which, mirror in enumerate(mirrors or (_Ctx, _Exchange)):
        (c_size, c_fields), (p_size, p_fields) = c_layout(lib, which), py_layout(mirror)
        label = ("Ctx", "Exchange")[which]
        for c, p in zip(c_fields, p_fields, strict=False):
            if c != p:
                errors.append(f"{label}: C has {c}, the mirror {p}")
        if len(c_fields) != len(p_fields):
            errors.append(f"{label}: C has {len(c_fields)} fields, the mirror {len(p_fields)}")
        if c_size != p_size:
            errors.append(f"{label}: C's size is {c_size} bytes, the mirror's {p_size}")
    return errors


@cache
def threads() -> int:
    """Threads the kernel may split one exchange between: `$TRAINER_ADVISOR_THREADS`, else the
    processors this process may run on, at most 4 (the exchange's work is split in that many
    shares; beyond a few, starting threads costs more than it saves)."""
    given = os.environ.get("TRAINER_ADVISOR_THREADS", "")
    if given.strip().isdigit() and int(given) > 0:
        return min(int(given), 8)
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, 4))


def available() -> bool:
    """The kernel's built module is loaded (else the advisor uses NumPy alone)."""
    return _library() is not None


def _i64(a: Any) -> IntArray:
    return np.ascontiguousarray(np.asarray(a), dtype=np.int64)


def _ptr(a: np.ndarray[Any, Any]) -> int:
    return int(a.ctypes.data)


@cache
def _square_tables(up_rank: int) -> tuple[IntArray, IntArray, IntArray]:
    """Per 13-bit rank mask: the table row of up to three up-suit ranks (-1 otherwise); the flush and
    rank strengths of four up-suit ranks with the up-card (0 otherwise)."""
    t = up_tables(up_rank)
    flush = np.zeros(1 << 13, dtype=np.int64)
    rank = np.zeros(1 << 13, dtype=np.int64)
    flush[t.suited_masks] = t.suited_flush
    rank[t.suited_masks] = t.suited_rank
    return tau_rows(), flush, rank


@cache
def _flush5() -> IntArray:
    """Per 13-bit rank mask of five ranks: the strength of a flush of those ranks (0 otherwise)."""
    return mask_table(FLUSH_TABLE, 0)


@dataclass
class KernelContext:
    """The arrays of one decision's context laid out for the kernel (kept alive with the struct)."""

    struct: _Ctx
    keep: list[np.ndarray[Any, Any]]


def kernel_context(ctx: Any) -> KernelContext:
    """`_Ctx` for a solver `Context` (its dealer counts, buy tables and payoffs)."""
    d = ctx.dealer
    t = d.tables
    pool_suit = [0, 0, 0, 0]
    for card in ctx.pool:
        pool_suit[card % 4] |= 1 << (card // 4)
    rows, sq_flush, sq_rank = _square_tables(d.up_rank)
    keep: list[np.ndarray[Any, Any]] = [
        _i64(d.avail),
        _i64(pool_suit),
        np.ascontiguousarray(d.cum, dtype=np.float64),
        np.ascontiguousarray(t.index, dtype=np.uint16),
        rows,
        sq_flush,
        sq_rank,
        np.ascontiguousarray(ctx.out5, dtype=np.int64),
        _i64(t.axis),
        _flush5(),
    ]
    s = _Ctx()
    s.avail, s.pool_suit = _ptr(keep[0]), _ptr(keep[1])
    s.up_suit = d.up_suit
    s.ak_floor = AK_FLOOR
    s.cum, s.index = _ptr(keep[2]), _ptr(keep[3])
    s.width = t.index.shape[1]
    s.axis, s.n_axis, s.flush5 = _ptr(keep[8]), len(t.axis), _ptr(keep[9])
    s.tau_row, s.sq_flush, s.sq_rank = _ptr(rows), _ptr(sq_flush), _ptr(sq_rank)
    s.out = _ptr(keep[7])
    s.fee = ctx.pay.fee
    s.odds = ctx.pay.insurance_odds
    b = ctx.buy
    if b is None:
        s.n_sets = 0
        s.n_groups = 0
        return KernelContext(s, keep)
    bt = b.tables
    arrays = {
        "set_mask": _i64(bt.masks),
        "set_ranks": _i64(bt.ranks),
        "after": _i64(bt.after),
        "after_flush": _i64(bt.after_flush),
        "flush_hand": _i64(b.flush_hands.astype(np.int64)),
        "after_sorted": _i64(bt.after_sorted),
        "flush_sorted": _i64(bt.flush_sorted),
        "g_set": _i64(b.s_m),
        "g_suit": _i64(b.s_suit),
        "g_count": _i64(np.rint(b.s_count)),
        "g_completers": _i64(b.s_completers),
        "g_rho": _i64(b.s_rho),
        "g_held": _i64(b.s_suited_held),
    }
    for name, a in arrays.items():
        setattr(s, name, _ptr(a))
        keep.append(a)
    s.n_sets = len(bt.masks)
    s.n_after = len(bt.after_sorted)
    s.n_flush = len(bt.flush_sorted)
    s.n_groups = len(b.s_m)
    return KernelContext(s, keep)


_DRAW_TABLES: dict[int, tuple[tuple[IntArray, ...], tuple[int, ...]]] = {}


def _draw_tables(k: int, cls: Any) -> tuple[tuple[IntArray, ...], tuple[int, ...]]:
    """A draw size's rank classes (solver.draw_classes) for the kernel: counts, inclusion-exclusion
    terms (row, four-card multiset, coefficient) and the class of each set of k distinct ranks; and
    their addresses (kept: the arrays live as long as the process)."""
    if k in _DRAW_TABLES:
        return _DRAW_TABLES[k]
    class_of = np.full(1 << 13, -1, dtype=np.int64)
    for ranks, i in cls.index.items():
        if len(set(ranks)) == len(ranks):
            class_of[sum(1 << r for r in ranks)] = i
    tables = (
        _i64(cls.counts),
        _i64(cls.sig_start),
        _i64(cls.sig_stop),
        _i64(cls.sig_row),
        _i64(cls.sig_four),
        _i64(np.rint(cls.sig_coef)),
        class_of,
    )
    _DRAW_TABLES[k] = (tables, tuple(_ptr(a) for a in tables))
    return _DRAW_TABLES[k]


@cache
def _sig_single(k: int, up_rank: int) -> IntArray:
    """For each inclusion-exclusion term of a draw of k cards (`_draw_tables`), the strength of the
    single hidden hand of its four cards with the up-card (read where the term has no table row)."""
    sig_four = _DRAW_TABLES[k][0][4]
    return _i64(up_tables(up_rank).four_strength[sig_four])


def warm(draw_classes: Any) -> bool:
    """The kernel loaded, with its own tables of every draw size and up-card rank built
    (`draw_classes` is solver.draw_classes); False, with nothing built, when there is no kernel."""
    if not available():
        return False
    _flush5()
    for k in range(6):
        _draw_tables(k, draw_classes(k))
        for r in range(13):
            _sig_single(k, r)
    for r in range(13):
        _square_tables(r)
    return True


def exchange_call(
    kc: KernelContext,
    ctx: Any,
    cls: Any,
    kept_sets: Sequence[Sequence[int]],
    k: int,
    units: tuple[IntArray, IntArray, IntArray],
    hands: int,
    deck: int,
    *,
    bound: bool = False,
) -> Callable[[], list[int]]:
    """The kernel's call that gives, for each kept set, the sum over every draw of k cards of the best
    stand after it, in units x hidden hands x deck cards, with its arrays made (NumPy, holding the
    GIL) so that the call itself holds no Python lock: another thread may run it. `cls` are the
    draw's rank classes (solver.draw_classes), `units` the (class, kept set, final strength) of every
    rank class of draws for each kept set. With `bound`, a quick upper bound of each sum instead: the
    one `Valuation.exchanges_numpy(bound=True)` finds."""
    lib = _library()
    assert lib is not None
    _tables, at = _draw_tables(k, cls)  # before _sig_single, which reads them
    u_class, u_option, u_strength = units
    opts = len(kept_sets)
    # By class, then strength (a class's units of one band share the buy state), else as given: one
    # stable sort of a single key (strengths are below 2^13), much faster than np.lexsort. A bound
    # shares nothing between units (its buy bounds are kept by key): no sort.
    key = u_class << 13 | u_strength
    order = np.arange(len(key)) if bound else np.argsort(key, kind="stable")
    kept = np.full((opts, 5), -1, dtype=np.int64)
    flush_suit = np.empty(opts, dtype=np.int64)
    for j, cards in enumerate(kept_sets):
        kept[j, : len(cards)] = cards
        suits = {c % 4 for c in cards}
        flush_suit[j] = 4 if not suits else (suits.pop() if len(suits) == 1 else -1)
    sig_single = _sig_single(k, ctx.dealer.up_rank)
    total = np.zeros(opts, dtype=np.int64)
    arrays = [kept, flush_suit, _i64(u_class[order]), _i64(u_option[order]), _i64(u_strength[order])]
    x = _Exchange()
    x.k, x.n_opt = k, opts
    x.kept, x.flush_suit = _ptr(kept), _ptr(flush_suit)
    x.counts, x.sig_start, x.sig_stop, x.sig_row = at[0], at[1], at[2], at[3]
    x.sig_single, x.sig_coef, x.class_of = _ptr(sig_single), at[5], at[6]
    x.n_units = len(order)
    x.u_class, x.u_option, x.u_strength = _ptr(arrays[2]), _ptr(arrays[3]), _ptr(arrays[4])
    x.hands, x.deck = hands, deck
    x.total = _ptr(total)
    x.threads = threads()
    x.bound = int(bound)

    def run() -> list[int]:
        _held = (arrays, sig_single, kc)  # alive until the kernel is done with them
        # ctypes lets go of the GIL for the call: other Python threads run while the kernel sums
        status = lib.rp_exchange(ctypes.byref(kc.struct), ctypes.byref(x))
        if status != 0:
            raise KernelLimit("advisor kernel: a table is larger than its limits, or memory ran out")
        return total.tolist()

    return run
