"""Progress kept in SQLite through sqlite-utils: migrations, WAL, one transaction per answer."""

from trainer.store.progress import AlreadyAnsweredError, NotFoundError, Store, StoreError, clean_name
from trainer.store.schema import MODES, open_db

__all__ = ["MODES", "AlreadyAnsweredError", "NotFoundError", "Store", "StoreError", "clean_name", "open_db"]
