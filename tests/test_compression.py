"""Pages go compressed to a browser that asks for it, and each page carries a meta description in its
language (issue 29: pages were 45-63 KiB uncompressed, with no description)."""

from __future__ import annotations

import gzip
import re

import pytest


def _tokens_blank(page: bytes) -> bytes:
    return re.sub(rb'name="csrf_token" value="[^"]*"', b'name="csrf_token" value=""', page)


@pytest.mark.parametrize("path", ["/", "/reference/rules/russian-poker", "/static/css/trainer.css"])
def test_responses_are_compressed_when_asked(client, path):
    plain = client.get(path)
    assert plain.status_code == 200 and "Content-Encoding" not in plain.headers
    packed = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert packed.headers.get("Content-Encoding") == "gzip"
    assert "Accept-Encoding" in packed.headers.get("Vary", "")
    body = gzip.decompress(packed.get_data())
    # The same page but for the form's CSRF token, which is signed with the second it was made in.
    assert _tokens_blank(body) == _tokens_blank(plain.get_data())
    assert len(packed.get_data()) < len(body) / 3, (len(packed.get_data()), len(body))


@pytest.mark.parametrize(("lang", "word"), [("ka", "სავარჯიშოები"), ("ru", "Упражнения"), ("en", "Drills")])
def test_every_page_has_a_description_in_its_language(client, lang, word):
    page = client.get("/", headers={"Accept-Language": lang}).get_data(as_text=True)
    described = re.search(r'<meta name="description" content="([^"]+)">', page)
    assert described and word in described.group(1), described
