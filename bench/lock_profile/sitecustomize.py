"""Loaded into the server by `bench/load.py --lock-profile` (this folder on PYTHONPATH): every write
transaction (`trainer.store.schema.writing`) is timed, how long it waited for the lock and how long it
held it, with the store function and the view that opened it, one tab-separated line each into the
file named by TRAINER_LOCK_PROFILE. Nothing here runs unless that variable is set."""

import contextlib
import os
import sys
import time
import traceback

TARGET = os.environ.get("TRAINER_LOCK_PROFILE")


def _install(target: str) -> None:
    # The server runs from the checkout it is started in (`python3 -m trainer` puts the working folder
    # first on the path, but only after this file has run): import that trainer, not an installed one.
    sys.path.insert(0, os.getcwd())
    import trainer.store  # noqa: F401  (imports every store module, each binding `writing`)
    from trainer.store import schema

    original = schema.writing
    handle = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.write(handle, f"# {os.getpid()}\t{schema.__file__}\n".encode())  # which code was timed

    @contextlib.contextmanager
    def timed(db):
        if db.conn.in_transaction:  # a savepoint inside a timed transaction
            with original(db) as inner:
                yield inner
            return
        asked = time.perf_counter()
        with original(db) as inner:
            locked = time.perf_counter()
            yield inner
        done = time.perf_counter()
        frames = traceback.extract_stack()[:-2]
        store = next((f for f in reversed(frames) if "/trainer/store/" in f.filename), None)
        view = next((f for f in reversed(frames) if "/trainer/web/" in f.filename), None)
        where = f"{store.name if store else '?'}\t{view.name if view else '?'}"
        line = f"{(done - locked) * 1000:.2f}\t{(locked - asked) * 1000:.2f}\t{where}\n"
        os.write(handle, line.encode())  # one write per line, appended whole (O_APPEND)

    for module in list(sys.modules.values()):
        if getattr(module, "writing", None) is original:
            module.writing = timed


if TARGET:
    _install(TARGET)
