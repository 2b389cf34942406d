"""One reader of a row by its id for the whole store (`trainer.store.progress.row_by_id`): an id that
names no row, or is no id at all, is `NotFoundError`, whichever store object is asked."""

import pytest
from conftest import memory_db

from trainer.store.accounts import FAST_HASHER, Accounts
from trainer.store.duels import Duels
from trainer.store.groups import Groups
from trainer.store.live import LiveSessions
from trainer.store.progress import NotFoundError, Store, row_by_id
from trainer.store.quizzes import Exams

JUNK = [0, -1, 2**63, True, "1", 1.0, None]


@pytest.fixture(scope="module")
def db():
    return memory_db()


def _readers(db):
    accounts = Accounts(db, hasher=FAST_HASHER)
    return [
        Store(db).trainee,
        Store(db).sprint,
        accounts.user,
        Groups(db).group,
        Exams(db).exam,
        Exams(db).sitting,
        Duels(db).duel,
        LiveSessions(db).session,
    ]


@pytest.mark.parametrize("row_id", [*JUNK, 12345])
def test_no_such_row_is_not_found_from_every_reader(db, row_id):
    for read in _readers(db):
        with pytest.raises(NotFoundError):
            read(row_id)


def test_the_row_of_an_id(db):
    trainee = Store(db).new_anonymous_trainee()
    assert row_by_id(db, "trainees", trainee["id"], "trainee") == trainee
    with pytest.raises(NotFoundError, match="no trainee True"):
        row_by_id(db, "trainees", True, "trainee")  # not the row of id 1
