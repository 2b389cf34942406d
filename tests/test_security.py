"""Security headers, cookie flags, rate limits, JSON API errors, configuration and the server command."""

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from accounts_helpers import PASSWORD, AuthActions
from conftest import make_app
from web_toys import toy_kinds

from trainer import __main__ as trainer_main
from trainer.web import create_app
from trainer.web.core import settings

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def toys():
    with toy_kinds() as kinds:
        yield kinds


def _app(tmp_path, **config):
    base = {"DATABASE": str(tmp_path / "s.sqlite"), "WTF_CSRF_ENABLED": False, "FAST_PASSWORD_HASHING": True}
    return make_app(**{**base, **config})


@pytest.mark.parametrize(
    "url",
    ["/", "/reference/glossary", "/api/v1/kinds", "/no-such-page", "/static/css/trainer.css", "/table.css"],
)
def test_security_headers_on_every_response(tmp_path, url):
    response = _app(tmp_path).test_client().get(url)
    policy = response.headers["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert "unsafe-inline" not in policy and directives["frame-ancestors"] == "'none'"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert "Server" not in response.headers


def test_no_template_has_inline_script_or_style():
    """The CSP forbids them: scripts and styles are static files (the table's a generated one)."""
    offenders = []
    for template in (ROOT / "templates").rglob("*.html"):
        text = template.read_text()
        for match in re.finditer(r"<script\b[^>]*>", text):
            tag = match.group(0)
            if "src=" not in tag and 'type="application/json"' not in tag:
                offenders.append(f"{template.name}: {tag}")
        offenders += [f"{template.name}: style attribute" for _ in re.finditer(r"\sstyle\s*=", text)]
        offenders += [f"{template.name}: <style>" for _ in re.finditer(r"<style\b", text)]
        offenders += [f"{template.name}: {m.group(0)}" for m in re.finditer(r"\son[a-z]+\s*=", text)]
    assert offenders == []


def test_table_stylesheet_places_seats_and_paints_chips(tmp_path, toys):
    client = _app(tmp_path).test_client()
    css = client.get("/table.css")
    assert css.status_code == 200 and css.mimetype == "text/css"
    text = css.get_data(as_text=True)
    assert ".at-6-0 { --x: 50.0; --y: 100.0; }" in text and ".chip-1565c0 { background: #1565c0; }" in text
    # a light chip is written in dark ink, or its figure fails the contrast check
    assert ".chip-f2c200 { background: #f2c200; color: #111; text-shadow: none; }" in text


def _set_cookies(response):
    return {c.partition("=")[0]: c for c in response.headers.getlist("Set-Cookie")}


def test_session_cookie_is_httponly_and_samesite_lax(tmp_path):
    response = _sign_up(_app(tmp_path).test_client(), "trainee.one")  # the session of a signed-in user
    assert response.status_code == 302
    cookies = _set_cookies(response)  # the session's, and the device's (trainer.web.core.sign_in_limits)
    assert set(cookies) == {"session", "trainer_device"}
    for cookie in cookies.values():
        assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    assert "Strict-Transport-Security" not in response.headers


def test_secure_cookies_and_hsts_when_configured(tmp_path):
    client = _app(tmp_path, SECURE_COOKIES=True).test_client()
    account = {"username": "trainee.one", "password": PASSWORD, "confirm": PASSWORD}
    response = client.post("/account/sign-up", data=account, base_url="https://localhost")
    assert response.status_code == 302
    cookies = _set_cookies(response)
    assert set(cookies) == {"session", "trainer_device"}
    assert all("Secure" in cookie and "HttpOnly" in cookie for cookie in cookies.values())
    assert "max-age" in response.headers["Strict-Transport-Security"]


def test_api_errors_are_json_including_413_and_500(tmp_path):
    app = _app(tmp_path)

    @app.get("/api/v1/broken")  # a bug in a route must still answer in JSON
    def broken():
        raise RuntimeError("a bug")

    client = app.test_client()
    too_big = client.post(
        "/api/v1/drills", data=b"{" + b" " * 300_000 + b"}", content_type="application/json"
    )
    assert too_big.status_code == 413 and too_big.json["status"] == 413 and too_big.json["error"]
    for url in ("/api/v1/drills/99", "/api/v1/nothing"):
        assert client.get(url).json["status"] == 404  # the pages' HTML 404 handler does not take over
    assert client.post("/api/v1/drills", json={"kind": "nope", "level": 1}).json["status"] == 404
    app.testing = False
    app.config["PROPAGATE_EXCEPTIONS"] = False
    response = client.get("/api/v1/broken")
    assert response.status_code == 500 and response.json == {"error": response.json["error"], "status": 500}


def limited_app(tmp_path, **limits):
    return _app(tmp_path, RATELIMIT_ENABLED=True, **limits)


def _sign_up(client, username):
    return AuthActions(client).sign_up(username)


def test_new_accounts_are_limited_per_address(tmp_path):
    app = limited_app(tmp_path, RATE_LIMIT_SIGN_UPS="3 per minute")
    statuses = [_sign_up(app.test_client(), f"trainee{i}").status_code for i in range(3)]
    assert statuses == [302, 302, 302]
    page = _sign_up(app.test_client(), "trainee4")
    assert page.status_code == 429 and b"Too many requests" in page.data and page.headers["Retry-After"]
    api = app.test_client().post("/api/v1/users", json={"username": "trainee5", "password": PASSWORD})
    assert api.status_code == 429 and api.json["status"] == 429 and api.headers["Retry-After"].isdigit()
    from trainer.store import open_db

    users = open_db(app.config["DATABASE"], migrate=False).execute("SELECT count(*) FROM users")
    assert users.fetchone()[0] == 3


def test_failed_sign_ins_are_limited_and_only_failures_count(tmp_path):
    app = limited_app(tmp_path, RATE_LIMIT_SIGN_IN_FAILURES="3 per minute")
    _sign_up(app.test_client(), "dealer")
    client = app.test_client()
    for _ in range(5):  # right passwords are not counted
        assert AuthActions(client).sign_in("dealer").status_code == 302
    wrong = [AuthActions(app.test_client()).sign_in("dealer", "not it").status_code for _ in range(3)]
    assert 429 not in wrong
    refused = AuthActions(app.test_client()).sign_in("dealer", "not it")
    assert refused.status_code == 429 and refused.headers["Retry-After"].isdigit()
    token = app.test_client().post("/api/v1/tokens", json={"username": "dealer", "password": "not it"})
    assert token.status_code == 429 and token.json["status"] == 429
    # The right password is never refused for failures of others (trainer.web.core.sign_in_limits).
    assert AuthActions(app.test_client()).sign_in("dealer").status_code == 302
    token = app.test_client().post("/api/v1/tokens", json={"username": "dealer", "password": PASSWORD})
    assert token.status_code == 201


def test_new_drills_are_limited_per_trainee_pages_and_api_together(tmp_path, toys):
    app = limited_app(tmp_path, RATE_LIMIT_DRILLS="4 per minute")
    first, second = app.test_client(), app.test_client()
    for client, name in ((first, "one"), (second, "two")):
        _sign_up(client, name)
    assert [first.post("/practice/toy.amount").status_code for _ in range(2)] == [303, 303]
    new = {"kind": "toy.amount", "level": 1}
    assert [first.post("/api/v1/drills", json=new).status_code for _ in range(2)] == [201, 201]
    refused = first.post("/api/v1/drills", json=new)
    assert refused.status_code == 429 and refused.json["error"].startswith("Too many requests")
    assert first.post("/practice/toy.amount").status_code == 429
    assert second.post("/practice/toy.amount").status_code == 303  # another trainee of the class


def test_new_rounds_at_the_live_table_count_as_new_drills(tmp_path):
    app = limited_app(tmp_path, RATE_LIMIT_DRILLS="3 per minute")
    page, api = app.test_client(), app.test_client(use_cookies=False)
    _sign_up(page, "dealer")
    new = {"game": "omaha", "level": 1}
    assert page.post("/table/rounds", data=new).status_code == 302
    assert page.post("/table/tests", data=new).status_code in (302, 303)
    assert page.post("/api/v1/rounds", json=new).status_code == 201
    assert page.post("/table/rounds", data=new).status_code == 429
    refused = page.post("/api/v1/rounds", json=new)
    assert refused.status_code == 429 and refused.json["status"] == 429
    # A client without a cookie makes an anonymous trainee per round: counted per address, so limited.
    assert [api.post("/api/v1/rounds", json=new).status_code for _ in range(4)][-1] == 429


def test_the_advisor_is_limited(tmp_path):
    app = limited_app(tmp_path, RATE_LIMIT_ADVISOR="2 per minute")
    client = app.test_client()
    body = {"player": "Qh 9h 6h 3h 2c", "upcard": "Ad"}
    assert [client.post("/api/v1/advisor", json=body).status_code for _ in range(2)] == [200, 200]
    assert client.post("/api/v1/advisor", json=body).status_code == 429
    assert client.get("/reference/advisor").status_code == 429


def test_an_unreachable_limit_store_falls_back_to_counting_in_memory(tmp_path, monkeypatch, caplog):
    """A Redis that goes down (TRAINER_RATELIMIT_STORAGE) does not stop the class: each worker counts
    in its own memory meanwhile, says so in the log, and tries the store again now and then."""
    app = limited_app(tmp_path, RATE_LIMIT_ADVISOR="2 per minute")
    storage = app.extensions["trainer_limiter"]._storage

    def down(*_args, **_kwargs):
        raise ConnectionError("the limit store is unreachable")

    for method in ("incr", "get", "get_expiry", "clear"):
        monkeypatch.setattr(storage, method, down)
    monkeypatch.setattr(storage, "check", lambda: False)
    client = app.test_client()
    body = {"player": "Qh 9h 6h 3h 2c", "upcard": "Ad"}
    assert [client.post("/api/v1/advisor", json=body).status_code for _ in range(3)] == [200, 200, 429]
    assert "falling back to in-memory storage" in caplog.text
    wrong = {"username": "nobody", "password": "not the password"}
    assert client.post("/api/v1/tokens", json=wrong).status_code == 401  # a failure is still counted


def test_limits_are_off_in_tests_unless_asked_for(tmp_path, toys):
    client = _app(tmp_path, RATE_LIMIT_DRILLS="1 per minute").test_client()
    assert {
        client.post("/api/v1/drills", json={"kind": "toy.amount", "level": 1}).status_code for _ in range(3)
    } == {201}


def test_settings_from_the_environment():
    found = settings.from_environment(
        {
            "TRAINER_DATABASE": "/srv/class.sqlite",
            "TRAINER_SECRET_KEY": "s3",
            "TRAINER_SECURE_COOKIES": "1",
            "TRAINER_RATELIMIT_STORAGE": "redis://cache:6379",
            "TRAINER_DATABASE_TIMEOUT": "3",
            "UNRELATED": "x",
        }
    )
    assert found == {
        "DATABASE": "/srv/class.sqlite",
        "SECRET_KEY": "s3",
        "SECURE_COOKIES": True,
        "RATELIMIT_STORAGE_URI": "redis://cache:6379",
        "DATABASE_TIMEOUT": 3.0,
    }
    assert settings.from_environment({"TRAINER_SECURE_COOKIES": "off"}) == {"SECURE_COOKIES": False}
    for bad in ({"TRAINER_SECURE_COOKIES": "maybe"}, {"TRAINER_DATABASE_TIMEOUT": "soon"}):
        with pytest.raises(settings.SettingError, match=next(iter(bad))):
            settings.from_environment(bad)


def test_create_app_reads_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAINER_DATABASE", str(tmp_path / "env.sqlite"))
    monkeypatch.setenv("TRAINER_INSTANCE", str(tmp_path / "instance"))  # a fresh instance: its first start
    monkeypatch.setenv("TRAINER_SECRET_KEY", "from-env")
    app = create_app()
    assert app.config["DATABASE"] == str(tmp_path / "env.sqlite") and app.config["SECRET_KEY"] == "from-env"
    assert (tmp_path / "env.sqlite").exists()


def test_generated_secret_is_private_and_kept(tmp_path):
    secret = settings.instance_secret(tmp_path)
    key_file = tmp_path / "secret_key"
    assert len(secret) == 64 and key_file.stat().st_mode & 0o777 == 0o600
    assert settings.instance_secret(tmp_path) == secret
    key_file.chmod(0o644)  # written by an older version
    assert settings.instance_secret(tmp_path) == secret and key_file.stat().st_mode & 0o777 == 0o600


def test_a_secret_that_cannot_be_kept_stops_start_up_with_a_message(tmp_path, monkeypatch, capsys):
    """An instance folder the server cannot make or write, without TRAINER_SECRET_KEY: `python3 -m
    trainer` says what to do and exits 2, instead of a PermissionError's traceback. (A file where the
    folder should be fails even for root, who ignores permissions.)"""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    with pytest.raises(settings.SettingError, match="TRAINER_SECRET_KEY"):
        settings.instance_secret(blocker / "instance")
    monkeypatch.setattr("trainer.web.PACKAGE", blocker / "trainer")  # the checkout's instance/ is in it
    monkeypatch.delenv("TRAINER_INSTANCE", raising=False)  # the default folder, which cannot be made
    monkeypatch.delenv("TRAINER_SECRET_KEY", raising=False)
    monkeypatch.setenv("TRAINER_DATABASE", str(tmp_path / "class.sqlite"))
    assert trainer_main.main(["migrate"]) == 2
    error = capsys.readouterr().err
    assert "secret_key" in error and "TRAINER_SECRET_KEY" in error and "Traceback" not in error
    monkeypatch.setenv("TRAINER_SECRET_KEY", "given")  # with the key given, the folder is not needed
    assert trainer_main.main(["migrate"]) == 0


def test_an_unusable_rate_limit_storage_stops_start_up_naming_the_variable(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TRAINER_DATABASE", str(tmp_path / "class.sqlite"))
    monkeypatch.setenv("TRAINER_SECRET_KEY", "given")
    monkeypatch.setenv("TRAINER_RATELIMIT_STORAGE", "nonsense://here")
    assert trainer_main.main(["migrate"]) == 2
    error = capsys.readouterr().err
    assert "TRAINER_RATELIMIT_STORAGE 'nonsense://here' cannot be used" in error and "Traceback" not in error


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_help_prints_help_and_starts_nothing():
    for args, expected in ((["--help"], "serve"), (["serve", "--help"], "--workers")):
        done = subprocess.run(
            [sys.executable, "-m", "trainer", *args], cwd=ROOT, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0 and expected in done.stdout and "TRAINER_DATABASE" in done.stdout
        assert "Listening" not in done.stdout + done.stderr
    bad = subprocess.run(
        [sys.executable, "-m", "trainer", "serve", "--workers", "0"], cwd=ROOT, capture_output=True, text=True
    )
    assert bad.returncode == 2 and "--workers" in bad.stderr


def test_serve_runs_workers_on_a_fresh_database_and_slow_clients_stall_nothing(tmp_path):
    port = _free_port()
    env = {
        **os.environ,
        "TRAINER_DATABASE": str(tmp_path / "fresh.sqlite"),
        "TRAINER_INSTANCE": str(tmp_path / "instance"),
        "TRAINER_SECRET_KEY": "serve-test",
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "trainer", "serve", "--port", str(port), "--workers", "2", "--threads", "4"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline, response = time.monotonic() + 60, None
        while time.monotonic() < deadline:
            try:
                response = urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/kinds", timeout=5)
                break
            except OSError:
                time.sleep(0.2)
        assert response is not None and response.status == 200
        assert response.headers["Server"] == "waitress"  # no version
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        # A hundred clients that send half a request and then nothing (far more than the server's 8
        # threads) do not stall the others: waitress buffers a request before a thread takes it, where
        # gunicorn's threaded workers gave each a thread until it was complete.
        held = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(100)]
        for connection in held:
            connection.sendall(
                b"POST /api/v1/drills HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 400\r\n\r\n{"
            )
        try:
            for _ in range(4):
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/kinds", timeout=10) as again:
                    assert again.status == 200
        finally:
            for connection in held:
                connection.close()
    finally:
        server.send_signal(signal.SIGTERM)
        output = server.communicate(timeout=30)[0]
    assert (
        output.count("started (pid") == 2 and "Traceback" not in output and "starting it again" not in output
    )


def test_an_id_beyond_sqlites_integers_is_a_404_not_a_500():
    """DELETE /api/v1/groups/2**63/membership reached the store, where binding the id raised
    OverflowError: every `<int:...>` in a URL stops at SQLite's largest integer."""
    from conftest import make_app

    app = make_app()
    client = app.test_client()
    for url in (
        "/api/v1/groups/9223372036854775808/membership",
        "/api/v1/groups/99999999999999999999/membership",
    ):
        assert client.delete(url).status_code in (401, 404)
    with app.test_request_context():
        adapter = app.url_map.bind("localhost")
        assert adapter.test("/api/v1/groups/9223372036854775807/membership", method="DELETE")
        assert not adapter.test("/api/v1/groups/9223372036854775808/membership", method="DELETE")
