"""Usernames as the store compares and makes them: below the accounts and the migrations, which both
use them (the migration of name-only trainees makes their usernames), so neither imports the other."""

from __future__ import annotations

import re
import unicodedata

USERNAME_MIN, USERNAME_MAX = 3, 32


def username_key(username: str) -> str:
    """What makes two usernames the same: Unicode-normalized and case-folded (any script)."""
    return unicodedata.normalize("NFKC", username).casefold()


def username_from_name(name: str, taken: set[str]) -> str:
    """A username for a name-only trainee ("Trainee One" -> "Trainee.One"), unique among `taken` keys.

    Used by the migration of name-only trainees; kept stable so a database migrated once and one
    migrated later give the same usernames.

    >>> username_from_name("Trainee  One", set()), username_from_name("ნინო", {"ნინო"})
    ('Trainee.One', 'ნინო-2')
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
