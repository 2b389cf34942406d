"""The production server: gunicorn with threaded (gthread) workers in front of `create_app`.

The app is built once in the master process before the workers start, so the database is created and
migrated once (and the secret key generated once) whatever the number of workers; each worker then
forks with the app ready. Threads let a worker go on serving while a slow client dribbles its request.
"""

from __future__ import annotations

import os
from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 5000
DEFAULT_THREADS = 8


def default_workers() -> int:
    """Two per core, at least two: SQLite serialises writes, so more processes add little."""
    return max(2, min(8, 2 * (os.cpu_count() or 1)))


class _Gunicorn(BaseApplication):  # type: ignore[misc]
    def __init__(self, app: Flask, options: dict[str, Any]) -> None:
        self.application = app
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            if key in self.cfg.settings:  # settings newer than the installed gunicorn are skipped
                self.cfg.set(key, value)

    def load(self) -> Flask:
        return self.application


def options(host: str, port: int, workers: int, threads: int, timeout: int = 30) -> dict[str, Any]:
    return {
        "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
        "workers": workers,
        "worker_class": "gthread",
        "threads": threads,
        "timeout": timeout,
        "graceful_timeout": 10,
        "keepalive": 5,
        "accesslog": "-",
        "errorlog": "-",
        "proc_name": "croupier-trainer",
        # gunicorn's control socket lives at one path per user: two servers would fight over it.
        "control_socket_disable": True,
        # Refuse oversized request lines and headers before they reach the app.
        "limit_request_line": 8190,
        "limit_request_fields": 100,
    }


def serve(app: Flask, host: str, port: int, workers: int, threads: int) -> None:
    """Run until stopped (Ctrl-C or SIGTERM), logging requests to stdout."""
    from trainer.engine.russian_poker.strategy import warm  # the advisor's tables, read once here

    warm()  # before the workers fork: they share them, and their first advisor answer is fast
    _Gunicorn(app, options(host, port, workers, threads)).run()
