"""The instance's record of its databases: a missing one is refused, never silently made anew.

SQLite creates a missing file on open, so a lost database (or a mistyped `TRAINER_DATABASE`) used to
start an empty class without a word. The instance folder therefore keeps `databases`, one absolute path
a line, of every database file this instance has created or opened. At start-up a missing database is
created only when the record is empty (the instance's very first start) or on purpose
(`python3 -m trainer migrate`); otherwise start-up stops with `DatabaseMissing`, naming the file, the
databases the instance knows and the remedies.

>>> from tempfile import TemporaryDirectory
>>> with TemporaryDirectory() as folder:
...     record = Path(folder) / "databases"
...     first = check(Path(folder) / "a.sqlite", record, create=False)  # the first start: made
...     remember(record, Path(folder) / "a.sqlite")
...     try:
...         check(Path(folder) / "a.sqlite", record, create=False)  # then lost
...     except DatabaseMissing as error:
...         print("refused:", "restore it" in str(error))
refused: True
"""

from __future__ import annotations

import os
from pathlib import Path

from trainer.web.core.settings import SettingError

RECORD_NAME = "databases"


class DatabaseMissing(SettingError):
    """The database file is missing although this instance has run on a database before."""


def known(record: Path) -> list[str]:
    """The databases the record names (none when it is missing or unreadable)."""
    try:
        text = record.read_text(encoding="utf-8")
    except OSError:
        return []
    return [line for line in text.splitlines() if line.strip()]


def remember(record: Path, database: str | Path) -> None:
    """Add the database to the record (written whole into a new file, then renamed over the old one, so a
    crash leaves the old record or the new, never half of one). A folder that cannot be written loses
    only this protection, not the start-up: the caller logs the OSError."""
    path = str(Path(database).absolute())
    paths = known(record)
    if path in paths:
        return
    record.parent.mkdir(parents=True, exist_ok=True)
    partial = record.with_name(f"{record.name}.{os.getpid()}.new")
    partial.write_text("".join(f"{line}\n" for line in [*paths, path]), encoding="utf-8")
    partial.replace(record)


def check(database: str | Path, record: Path, *, create: bool) -> bool:
    """True when the database file exists; False when it may be created (the record is empty, or
    `create`); else `DatabaseMissing` saying which file is missing and what to do."""
    database = Path(database).absolute()
    if database.exists():
        return True
    paths = known(record)
    if create or not paths:
        return False
    if str(database) in paths:
        story = f"this instance has run on it before (recorded in {record})"
    else:
        listed = ", ".join(paths[-3:])
        story = f"this instance has run on {listed} before (recorded in {record}): is TRAINER_DATABASE right?"
    raise DatabaseMissing(
        f"the database {database} does not exist, but {story}. If the file was lost, restore it "
        "from a backup (see docs/running-a-school.md, 'Backups') and start again; "
        "if TRAINER_DATABASE names the wrong "
        "file, set it to the right one; to start an empty database there on purpose, run "
        "`python3 -m trainer migrate` with the same TRAINER_DATABASE, then start the server"
    )
