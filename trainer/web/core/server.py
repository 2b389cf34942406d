"""The production server: waitress in `workers` processes that share one listening socket.

Waitress reads each request asynchronously, in its event loop, and hands it to a thread only once the
whole request has arrived; a client that sends half a request and goes quiet holds a file descriptor and
a small buffer, never a thread, and is closed after `CHANNEL_TIMEOUT_S` without a byte. (gunicorn's
threaded workers gave each accepted connection a thread that waited for the rest of the request without
a limit: 16 such clients shut everyone out. `bench/slow_clients.py` measures both; see
docs/running-a-school.md, "Running it for a class".) One waitress process runs Python on one core at a
time, so a process per core shares the socket and the kernel spreads the connections over them.

The app is built once in the parent before the workers fork, so the database is created and migrated
once (and the secret key generated once) whatever the number of workers. The parent restarts a worker
that dies, and on SIGTERM or SIGINT stops them all (each finishes the requests it is running, for up to
a few seconds).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from flask import Flask

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 5000
DEFAULT_THREADS = 8
CHANNEL_TIMEOUT_S = 20  # a connection silent this long is closed (a half-sent request, an idle keep-alive)
CONNECTION_LIMIT = 4000  # per worker: held connections cost a descriptor each, not a thread
# How long a thread may keep the GIL while another waits for it (Python's default is 5 ms). A request
# that holds SQLite's write lock gives up the GIL at every statement and must win it back from the
# threads rendering pages: at 5 ms a one-statement transaction held the lock 20 ms on average under a
# class's load; at 0.5 ms the turn comes back ten times sooner (bench/write_queue.py measures both).
SWITCH_INTERVAL_S = 0.0005


def default_workers() -> int:
    """One per core, at least two: SQLite serialises writes, so more processes add little."""
    return max(2, min(8, os.cpu_count() or 1))


def options(threads: int) -> dict[str, Any]:
    """waitress's settings (its `Adjustments`) for each worker."""
    return {
        "threads": threads,
        "channel_timeout": CHANNEL_TIMEOUT_S,
        "cleanup_interval": 2,  # how often silent connections are looked for
        "connection_limit": CONNECTION_LIMIT,
        "asyncore_use_poll": True,  # select() cannot watch descriptors past 1,024
        "backlog": 2048,
        # Refuse oversized headers and bodies before they are buffered (the app refuses bodies past
        # MAX_CONTENT_LENGTH, 256 KiB, itself).
        "max_request_header_size": 64 * 1024,
        "max_request_body_size": 1024 * 1024,
        "ident": "waitress",  # the Server header, without a version
        # A proxy on this machine (nginx, Caddy) says the client came over HTTPS, as gunicorn trusted
        # it to by default; the header from anyone else is dropped.
        "trusted_proxy": "127.0.0.1",
        "trusted_proxy_headers": {"x-forwarded-proto"},
        "clear_untrusted_proxy_headers": True,
        "expose_tracebacks": False,
    }


def listening_socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.setblocking(False)
    return sock


class AccessLog:
    """One line per request on stdout: address, method, path, status, milliseconds (written when the
    response is done, so a streamed body is timed whole)."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        began, status = time.perf_counter(), ["-"]

        def starting(code: str, headers: list[tuple[str, str]], *rest: Any) -> Any:
            status[0] = code.split(" ", 1)[0]
            return start_response(code, headers, *rest)

        body = self.app(environ, starting)
        return _Logged(body, lambda: self.write(environ, status[0], began))

    @staticmethod
    def write(environ: dict[str, Any], status: str, began: float) -> None:
        took = (time.perf_counter() - began) * 1000
        sys.stdout.write(
            f"{environ.get('REMOTE_ADDR', '-')} {environ.get('REQUEST_METHOD')} "
            f"{environ.get('PATH_INFO')} {status} {took:.0f} ms\n"
        )
        sys.stdout.flush()


class _Logged:
    """The app's body, passed through; its end (close) writes the log line."""

    def __init__(self, body: Iterable[bytes], done: Callable[[], None]) -> None:
        self.body, self.done = body, done

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.body)

    def close(self) -> None:
        try:
            close = getattr(self.body, "close", None)
            if close is not None:
                close()
        finally:
            self.done()


def _worker(app: Flask, sock: socket.socket, threads: int) -> None:
    from waitress.server import create_server

    def stop(_signum: int, _frame: Any) -> None:
        raise SystemExit(0)  # waitress then lets its threads finish their requests

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    server = create_server(AccessLog(app), sockets=[sock], **options(threads))
    server.run()


def serve(app: Flask, host: str, port: int, workers: int, threads: int) -> None:
    """Run until stopped (Ctrl-C or SIGTERM), logging requests to stdout."""
    from trainer.engine.russian_poker.strategy import warm  # the advisor's tables, read once here

    warm()  # before the workers fork: they share them, and their first advisor answer is fast
    sock = listening_socket(host, port)
    children: dict[int, int] = {}  # pid: worker number
    stopping = False

    def spawn(number: int) -> None:
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                _worker(app, sock, threads)
            except SystemExit as done:
                code = int(done.code or 0)
            except BaseException:
                import traceback

                traceback.print_exc()
                code = 1
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        children[pid] = number
        print(f"worker {number} started (pid {pid}, {threads} threads)", flush=True)

    def stop(_signum: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True
        for pid in list(children):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for number in range(workers):
        spawn(number)
    while children:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            break
        number = children.pop(pid, None)
        if number is None or stopping:
            continue
        print(f"worker {number} (pid {pid}) ended ({status}): starting it again", flush=True)
        time.sleep(0.5)  # a worker that dies at once is not restarted in a tight loop
        spawn(number)
    sock.close()
