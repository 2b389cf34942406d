"""Shared by the browser tests: a live server of the app (`live_server`; `site`, a module's own app and
server), a fresh browser context (`new_context`) and a page in one, a page load waited for
(`navigate`), a form submitted like a person."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import make_app

# Debian's headless shell (the same Blink engine without the desktop browser around it, about a third
# less CPU per page here) where it is installed, else Debian's Chromium.
HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
CHROMIUM = HEADLESS_SHELL if HEADLESS_SHELL.exists() else Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def need_chromium() -> None:
    """Skip the test where no Chromium is installed, or fail it under CI (env CI set)."""
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("CI is set but no Chromium is installed: apt-get install -y chromium-headless-shell")
        pytest.skip("no Chromium (apt-get install -y chromium-headless-shell); set CI to make this fail")


def navigate(page, action) -> None:
    """Do something that loads a new page (click, Enter) and wait until the new page is there."""
    with page.expect_navigation():
        action()


@contextmanager
def live_server(app) -> Iterator[str]:
    """Serve `app` from a thread on a free local port; yields the base URL, shuts down after."""
    from werkzeug.serving import make_server

    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}"
    finally:
        httpd.shutdown()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """(app, base URL) of a live server for the module, on a database file of its own (passwords
    hashed with argon2's cheapest profile: the accounts are not what these tests are about)."""
    folder = tmp_path_factory.mktemp("browser-site")
    app = make_app(DATABASE=str(folder / "trainer.sqlite"), FAST_PASSWORD_HASHING=True)
    with live_server(app) as url:
        yield app, url


def new_context(browser, *, offline: bool = False, **options):
    """A fresh browser context (no cookie or storage from another test). The app's service worker is
    blocked unless the test is about going offline (`offline=True`): registering it and passing every
    request through it cost about a fifth of Chromium's CPU a page (the phone's first-screen sweep in
    Georgian 7.2 -> 5.5 s), and only the offline tests use what it keeps."""
    return browser.new_context(service_workers="allow" if offline else "block", **options)


def open_page(browser, url: str, viewport: dict[str, int], path: str = "/"):
    """A page at `url + path` in a fresh English context of this viewport; returns (context, page)."""
    context = new_context(browser, viewport=viewport, locale="en-US")
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(url + path)
    return context, page


def submit(page, form_selector: str) -> None:
    """Press the first submit button of the form and wait for the page it loads."""
    navigate(page, lambda: page.locator(f"{form_selector} button[type=submit]").first.click())
