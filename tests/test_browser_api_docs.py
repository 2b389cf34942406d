"""The API reference page in a real browser: Swagger UI, served by the app itself, draws every
documented operation under the strict Content-Security-Policy (no inline script or style), with no
request leaving the server and no script error."""

from __future__ import annotations

import pytest
from browser_helpers import live_server
from conftest import make_app
from test_browser_pages import ARTIFACTS, PHONE, SHOTS

pytestmark = pytest.mark.browser

# The policy the app sends (trainer.web.core.security, Flask-Talisman); set here too when the app has none,
# so that this test holds the page to it either way.
STRICT_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("api-docs")
    app = make_app(DATABASE=str(tmp / "trainer.sqlite"))

    @app.after_request
    def strict(response):
        response.headers.setdefault("Content-Security-Policy", STRICT_CSP)
        return response

    with live_server(app) as url:
        yield url, app


def test_the_api_reference_draws_every_operation_under_the_strict_csp(server, browser):
    base, app = server
    document = app.test_client().get("/api/v1/openapi.json").json
    operations = sum(len(set(item) - {"parameters"}) for item in document["paths"].values())
    page = browser.new_page(viewport=PHONE)  # in a context of its own
    try:
        problems, elsewhere = [], []
        page.on(
            "console",
            lambda m: problems.append((m.text, m.location["url"])) if m.type == "error" else None,
        )
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.on("request", lambda r: None if r.url.startswith(base) else elsewhere.append(r.url))
        page.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        page.goto(f"{base}/reference/api")
        page.wait_for_selector(".opblock", timeout=20_000)
        assert page.locator(".opblock").count() == operations
        assert page.locator(".opblock-summary-path", has_text="/api/v1/drills/{drill_id}/answer").count() == 1
        if SHOTS:
            page.screenshot(path=str(ARTIFACTS / "api-reference.png"), full_page=False)
        # An operation opens with its parameters and responses, 422 among them where documented.
        page.locator(".opblock-summary-path", has_text="/api/v1/drills/{drill_id}/answer").click()
        page.wait_for_selector(".responses-table")
        assert page.locator(".response-col_status", has_text="422").count() >= 1
    finally:
        page.context.close()
    # A CSP refusal is a console error too; the site has no favicon (the browser asks for one itself).
    assert [p for p in problems if not str(p).endswith("/favicon.ico')")] == [], problems
    assert elsewhere == []
