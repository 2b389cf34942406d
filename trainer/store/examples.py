"""The small school the store's doctests start from, so that each shows its own module's calls.

>>> from trainer.store.groups import Groups
>>> school = evening_class("trainee.one", "trainee.two")
>>> school.teacher["role"], school.group["name"], [t["username"] for t in school.trainees]
('instructor', 'Evening class', ['trainee.one', 'trainee.two'])
>>> [m["username"] for m in Groups(school.db).members(school.group["id"])]
['trainee.one', 'trainee.two']
"""

from __future__ import annotations

from typing import Any, NamedTuple

from sqlite_utils import Database

from trainer.store.accounts import FAST_HASHER, Accounts, Role
from trainer.store.groups import Groups
from trainer.store.schema import open_db

PASSWORD = "a long secret"


class School(NamedTuple):
    db: Database
    accounts: Accounts
    teacher: dict[str, Any]
    group: dict[str, Any]
    trainees: list[dict[str, Any]]


def evening_class(*trainees: str) -> School:
    """An in-memory database with an instructor ("teacher"), his group "Evening class" and a trainee
    account for each of the `trainees` usernames, each a member of the group; every password is
    `PASSWORD`, hashed with the fast test parameters."""
    db = open_db(":memory:")
    accounts = Accounts(db, hasher=FAST_HASHER)
    teacher = accounts.create_user("teacher", PASSWORD, role=Role.INSTRUCTOR)
    group = Groups(db).create(teacher["id"], "Evening class")
    members = [accounts.sign_up(name, PASSWORD) for name in trainees]
    for member in members:
        Groups(db).add_member(group["id"], member["id"])
    return School(db, accounts, teacher, group, members)
