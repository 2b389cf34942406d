"""The advisor's static tables kept in files: built once, then memory-mapped by every process.

The counting tables of each up-card rank (`counting.up_tables`), the rank classes of each draw size
(`solver.draw_classes`) and the no-game tables (`buying.no_game_tables`) depend on nothing but the
code: about 3.8 s to build them all in one process and some 150 MiB of arrays. Each is written, the
first time any process builds it, as NumPy `.npy` files in one folder per table under the cache
folder (`$TRAINER_ADVISOR_KERNEL_DIR`, else the user's cache folder),
and later read with `numpy.load(mmap_mode="r")`: a few milliseconds, and the pages are the
operating system's file cache, shared by every server worker and every test process instead of a
copy in each. The folder's name holds a hash of the source files the tables are built from (and of
NumPy's version), so a change of code never reads tables built by another.

The arrays read back are read-only (a write raises). A folder that cannot be read (a partial copy,
a full disk) is built again in memory, and written again where the folder is writable; nothing is
ever unpickled (`allow_pickle=False`). `TRAINER_ADVISOR_TABLES=off` keeps every table in memory.

>>> arrays = load_or_build("example", lambda: {"squares": np.arange(4) ** 2}, in_memory=True)
>>> arrays["squares"].tolist()
[0, 1, 4, 9]
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

FORMAT = 1  # raise when the layout of the files changes
Arrays = dict[str, np.ndarray[Any, Any]]
# The sources the tables are built from: any change to them names a new folder.
_SOURCES = ("counting.py", "buying.py", "solver.py", "tablefile.py", "../../evaluator.py")


def cache_dir() -> Path:
    """The advisor's cache folder (its tables' files): `$TRAINER_ADVISOR_KERNEL_DIR`, else
    `$XDG_CACHE_HOME/croupier-trainer`, else `~/.cache/croupier-trainer`."""
    given = os.environ.get("TRAINER_ADVISOR_KERNEL_DIR")
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "croupier-trainer"


@cache
def _digest() -> str | None:
    here = Path(__file__).parent
    h = hashlib.sha256(f"{FORMAT} numpy {np.__version__}".encode())
    try:
        for name in _SOURCES:
            h.update((here / name).resolve().read_bytes())
    except OSError:  # installed without its sources: nothing to name the tables by
        return None
    return h.hexdigest()[:16]


def tables_dir() -> Path | None:
    """The folder of this code's tables (None: kept in memory only)."""
    digest = _digest()
    if digest is None or os.environ.get("TRAINER_ADVISOR_TABLES", "").lower() in ("off", "0", "no"):
        return None
    return cache_dir() / f"advisor-tables-{digest}"


def load_or_build(
    name: str, build: Callable[[], Arrays], *, folder: Path | None = None, in_memory: bool = False
) -> Arrays:
    """The arrays of table `name`: read from its folder under `folder` (default `tables_dir()`) when
    there, else built by `build()` and written there (best effort: a folder that cannot be written
    leaves them in memory); with `in_memory`, built and kept in memory only."""
    root = None if in_memory else folder or tables_dir()
    if root is None:
        return build()
    where = root / name
    found = _read(where)
    if found is not None:
        return found
    arrays = build()
    _write(where, arrays)
    return arrays


def _read(where: Path) -> Arrays | None:
    try:
        names = (where / "names.txt").read_text(encoding="ascii").split()
        if not names or names[0] != f"format-{FORMAT}":
            return None
        # np.asarray: a plain read-only view of the mapping (not the np.memmap subclass, whose
        # results of arithmetic would be memmaps too)
        return {
            n: np.asarray(np.load(where / f"{n}.npy", mmap_mode="r", allow_pickle=False)) for n in names[1:]
        }
    except (OSError, ValueError, EOFError):
        return None


def _write(where: Path, arrays: Arrays) -> None:
    """Every array as a .npy file in a new folder, renamed into place at once: a reader sees the
    whole table or none of it (`names.txt`, written last, lists the arrays)."""
    try:
        if not where.parent.exists():
            _prune(where.parent)
        where.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{where.name}-", dir=where.parent))
    except OSError:
        return
    try:
        for n, a in arrays.items():
            np.save(tmp / f"{n}.npy", np.ascontiguousarray(a), allow_pickle=False)
        (tmp / "names.txt").write_text(" ".join([f"format-{FORMAT}", *arrays]) + "\n", encoding="ascii")
        if where.exists() and _read(where) is None:  # a broken copy: replaced
            shutil.rmtree(where, ignore_errors=True)
        os.rename(tmp, where)
    except OSError:  # another process renamed its copy first, or the disk is full: keep theirs
        pass
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


STALE_DAYS = 14


def _prune(root: Path) -> None:
    """Removes the tables of other versions of the code not used for `STALE_DAYS` days (each is about
    100 MB; `touch` marks a folder used), before this version's are first written. Another version's
    folder in use (two checkouts sharing a cache) is left alone."""
    try:
        others = [p for p in root.parent.glob("advisor-tables-*") if p != root and p.is_dir()]
        now = time.time()
        for p in others:
            if now - p.stat().st_mtime > STALE_DAYS * 86400:
                shutil.rmtree(p, ignore_errors=True)
    except OSError:
        pass


def touch() -> None:
    """Marks this version's tables used (see `_prune`)."""
    root = tables_dir()
    if root is not None:
        with contextlib.suppress(OSError):
            os.utime(root)
