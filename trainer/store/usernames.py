"""Usernames as the store compares and makes them: below the accounts and the migrations, which both
use them (the migration of name-only trainees makes their usernames), so neither imports the other.

Two keys, each under a unique index of `users`: `username_key` (the same name whatever its case or
Unicode form) and `username_skeleton` (names that look alike: Unicode's confusables, UTS #39).
The skeleton's table is Unicode's `confusables.txt` (version 13.0.0, shipped gzipped as
`data/unicode/confusables.txt.gz`, Unicode's licence: `data/unicode/NOTICE.md`).
"""

from __future__ import annotations

import gzip
import re
import unicodedata
from functools import cache

from trainer import shipped

USERNAME_MIN, USERNAME_MAX = 3, 32


def username_key(username: str) -> str:
    """What makes two usernames the same: Unicode-normalized and case-folded (any script)."""
    return unicodedata.normalize("NFKC", username).casefold()


def username_from_name(name: str, taken: set[str]) -> str:
    """A username for a name-only trainee ("Trainee One" -> "Trainee.One"), unique among `taken` keys.

    Used by the migration of name-only trainees; kept stable so a database migrated once and one
    migrated later give the same usernames.

    >>> username_from_name("Trainee  One", set()), username_from_name("მსმენელი", {"მსმენელი"})
    ('Trainee.One', 'მსმენელი-2')
    """
    words = re.findall(r"[^\W_]+", unicodedata.normalize("NFC", name))
    base = ".".join(words)[:USERNAME_MAX].strip(".") or "trainee"
    while len(base) < USERNAME_MIN:
        base += "0"
    candidate, n = base, 1
    while username_key(candidate) in taken:
        n += 1
        suffix = f"-{n}"
        candidate = base[: USERNAME_MAX - len(suffix)] + suffix
    return candidate


CONFUSABLES = ("unicode", "confusables.txt.gz")


@cache
def _prototypes() -> dict[str, str]:
    """Unicode's confusables: a character -> the prototype it is drawn like (one or more characters)."""
    table: dict[str, str] = {}
    # Plain UTF-8: the file's byte-order mark only opens its first comment line, which is skipped,
    # and a "utf-8-sig" codec imported lazily fails where the server may no longer read Python's
    # own library (a process that dropped its privileges: tests/test_storage_faults.py).
    with gzip.open(shipped("data").joinpath(*CONFUSABLES), "rt", encoding="utf-8") as lines:
        for line in lines:
            fields = line.split("#", 1)[0].split(";")
            if len(fields) < 2 or not fields[0].strip():
                continue
            source = chr(int(fields[0].strip(), 16))
            table[source] = "".join(chr(int(code, 16)) for code in fields[1].split())
    return table


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character replaced by its prototype, NFD again. Two strings
    with the same skeleton are drawn alike (Latin "e" and Cyrillic "е", "1" and "l", "rn" and "m").

    >>> skeleton("t\u0435ach1") == skeleton("teachl")
    True
    """
    table = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in decomposed))


def username_skeleton(username: str) -> str:
    """What makes two usernames look alike, whatever the case they are typed in: the skeleton of the
    case-folded skeleton. The first skeleton comes before folding so that a capital I, drawn like a
    small l, is taken as l; the second makes the folded letters' look-alikes one.

    >>> [username_skeleton(name) == username_skeleton("lnstructor") for name in ("Instructor", "instructor")]
    [True, False]
    >>> username_skeleton("t\u0435ach1") == username_skeleton("TEACH1")
    True
    """
    return skeleton(username_key(skeleton(unicodedata.normalize("NFKC", username))))
