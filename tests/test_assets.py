"""Static files under addresses that name their content (trainer/web/core/assets.py)."""

from __future__ import annotations

import re
import shutil

import pytest

YEAR = "max-age=31536000"


def _static_links(page: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', page)


def test_pages_link_their_assets_by_content_and_browsers_keep_them(client):
    links = _static_links(client.get("/").get_data(as_text=True))
    assert {"css/trainer.css", "js/early.js", "js/focus.js"} <= {
        link.split("?")[0].removeprefix("/static/") for link in links
    }
    for link in links:
        assert re.fullmatch(r"/static/[\w/.-]+\?v=[0-9a-f]{12}", link), link
        response = client.get(link)
        assert response.status_code == 200 and YEAR in response.headers["Cache-Control"], link


@pytest.mark.parametrize("query", ["", "?v=", "?v=000000000000"])
def test_an_address_without_the_files_digest_is_revalidated(client, query):
    response = client.get("/static/css/trainer.css" + query)
    assert response.status_code == 200
    assert "max-age=31536000" not in response.headers["Cache-Control"]
    assert "no-cache" in response.headers["Cache-Control"]


def test_a_changed_file_gets_a_new_address(app, tmp_path):
    folder = tmp_path / "static"
    shutil.copytree(app.static_folder, folder)
    app.static_folder = str(folder)
    with app.test_request_context():
        from flask import url_for

        before = url_for("static", filename="js/focus.js")
        (folder / "js" / "focus.js").write_text("// changed\n")
        after = url_for("static", filename="js/focus.js")
    assert before != after and after.startswith("/static/js/focus.js?v=")
    client = app.test_client()
    assert YEAR in client.get(after).headers["Cache-Control"]
    assert YEAR not in client.get(before).headers["Cache-Control"]  # the old address is not kept


@pytest.mark.parametrize(
    "path", ["/static/../pyproject.toml?v=1", "/static/%2e%2e/pyproject.toml?v=1", "/static/nothing.css?v=1"]
)
def test_addresses_outside_the_folder_or_missing_are_404(client, path):
    assert client.get(path).status_code == 404
