"""Progress kept in SQLite through sqlite-utils: migrations, WAL, one transaction per answer."""

from trainer.store.progress import AlreadyAnsweredError, NotFoundError, Refusal, Store, StoreError, clean_name
from trainer.store.schema import MODES, apply_migrations, backup, insert, open_db, writing

__all__ = [
    "MODES",
    "AlreadyAnsweredError",
    "NotFoundError",
    "Refusal",
    "Store",
    "StoreError",
    "apply_migrations",
    "backup",
    "clean_name",
    "insert",
    "open_db",
    "writing",
]
