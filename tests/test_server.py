"""The production server's settings (trainer/web/core/server.py) against slow clients: half-sent requests
held open hold no thread, normal requests are answered beside them, and the server closes them itself
once they have been silent for its channel timeout. Speed is measured by bench/slow_clients.py."""

import selectors
import socket
import threading
import time
import urllib.request

import pytest
from conftest import make_app
from waitress.server import create_server

from trainer.web.core import server

HALF = (
    b"POST /api/v1/drills HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    b"Content-Length: 400\r\n\r\n{"
)


@pytest.fixture
def running(tmp_path):
    """The app under waitress with the production options, two threads, a one-second silence limit."""
    app = make_app(DATABASE=str(tmp_path / "t.sqlite"))
    sock = server.listening_socket("127.0.0.1", 0)
    settings = {**server.options(threads=2), "channel_timeout": 1, "cleanup_interval": 1}
    waitress = create_server(server.AccessLog(app), sockets=[sock], **settings)
    thread = threading.Thread(target=waitress.run, daemon=True)
    thread.start()
    yield sock.getsockname()[1]
    waitress.close()


def get(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/kinds", timeout=10) as response:
        return response.status


def hold(port, count):
    held = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", port), timeout=10)
        connection.sendall(HALF)
        held.append(connection)
    return held


def closed_within(held, seconds):
    """How many of the held connections the server closed (EOF or reset) before `seconds` passed."""
    chooser = selectors.DefaultSelector()
    for connection in held:
        connection.setblocking(False)
        chooser.register(connection, selectors.EVENT_READ)
    closed, deadline = 0, time.monotonic() + seconds
    while closed < len(held) and time.monotonic() < deadline:
        for key, _ in chooser.select(timeout=0.2):
            try:
                data = key.fileobj.recv(4096)
            except OSError:
                data = b""
            if not data:
                chooser.unregister(key.fileobj)
                closed += 1
    chooser.close()
    return closed


def test_normal_requests_are_answered_beside_many_half_sent_ones(running):
    held = hold(running, 200)  # a hundred times the threads
    try:
        assert [get(running) for _ in range(5)] == [200] * 5
    finally:
        for connection in held:
            connection.close()


def test_the_server_closes_a_half_sent_request_after_its_silence_limit(running):
    held = hold(running, 50)
    try:
        # Well past the one-second limit and its one-second sweep; the connections are not used again.
        assert closed_within(held, 30) == 50
        assert get(running) == 200
    finally:
        for connection in held:
            connection.close()


def test_the_production_options_hold_slow_clients_without_threads():
    """What the two tests above rely on, as `python3 -m trainer serve` sets it."""
    options = server.options(threads=8)
    assert options["channel_timeout"] == server.CHANNEL_TIMEOUT_S <= 30
    assert options["asyncore_use_poll"]  # select() stops at descriptor 1,024
    assert options["connection_limit"] >= 2000  # 1,000 held clients still leave room for the class


def test_a_worker_hands_the_gil_round_quickly(tmp_path, monkeypatch):
    """A worker shortens Python's switch interval (5 ms by default), so a request holding SQLite's
    write lock wins the GIL back soon after each statement (bench/write_queue.py measures it)."""
    import signal
    import sys

    import waitress.server

    seen = []

    class Recording:
        def run(self):
            seen.append(sys.getswitchinterval())

    monkeypatch.setattr(waitress.server, "create_server", lambda *args, **kwargs: Recording())
    app = make_app(DATABASE=str(tmp_path / "t.sqlite"))
    before = sys.getswitchinterval(), signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    sock = server.listening_socket("127.0.0.1", 0)
    try:
        server._worker(app, sock, 2)
    finally:
        sys.setswitchinterval(before[0])
        signal.signal(signal.SIGTERM, before[1])
        signal.signal(signal.SIGINT, before[2])
        sock.close()
    assert seen == [server.SWITCH_INTERVAL_S] and server.SWITCH_INTERVAL_S <= 0.001


def test_a_local_proxy_may_say_the_client_came_over_https():
    """As gunicorn trusted it from 127.0.0.1: `X-Forwarded-Proto` from a proxy on this machine sets the
    request's scheme (cookies and HSTS are configured apart, TRAINER_SECURE_COOKIES)."""

    def scheme(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [environ["wsgi.url_scheme"].encode()]

    sock = server.listening_socket("127.0.0.1", 0)
    waitress = create_server(scheme, sockets=[sock], **server.options(threads=1))
    threading.Thread(target=waitress.run, daemon=True).start()
    port = sock.getsockname()[1]
    try:
        seen = []
        for headers in ({}, {"X-Forwarded-Proto": "https"}):
            request = urllib.request.Request(f"http://127.0.0.1:{port}/", headers=headers)
            with urllib.request.urlopen(request, timeout=10) as response:
                seen.append(response.read().decode())
    finally:
        waitress.close()
    assert seen == ["http", "https"]
