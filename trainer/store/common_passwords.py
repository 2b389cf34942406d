"""The most common passwords, refused for a new password: a list shipped with the app
(`data/passwords/common.txt.gz`), read once per process; no network call, ever.

The list is Django's `django/contrib/auth/common-passwords.txt.gz` (Django 5.2, BSD licence:
`data/passwords/NOTICE.md`): the passwords most often found in breached lists (Royce Williams'
compilation), lower-case, one a line. It is compared as Django compares it: the password lower-cased
and stripped of surrounding spaces.

>>> is_common("Password"), is_common("12345678"), is_common("a long secret")
(True, True, False)
"""

from __future__ import annotations

import gzip
from functools import cache

from trainer import shipped

COMMON_PASSWORDS = ("passwords", "common.txt.gz")


@cache
def common_passwords() -> frozenset[str]:
    """The shipped list (19,640 entries), read on first use."""
    path = shipped("data").joinpath(*COMMON_PASSWORDS)
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        return frozenset(line.strip() for line in lines if line.strip())


def is_common(password: str) -> bool:
    """True when `password` is on the list, whatever its case or surrounding spaces."""
    return password.lower().strip() in common_passwords()
