"""No developer text reaches users: the pages an instructor and a trainee read name presets by their
titles, never by ids, files, digests or how the figures were produced (the bench, the seed)."""

from __future__ import annotations

import html
import re

import pytest
from accounts_helpers import signed_in

from trainer.games import GAMES

# Words of the code and its tools, not of the product; preset ids and digests; file names.
DEVELOPER = re.compile(
    r"\bbench(?:mark)?s?\b|\bseed'?s?\b|checking the advisor|\bhouse-[0-9a-f]{12}\b|"
    r"\b[\w-]+\.(?:toml|md|py|json)\b|\bdata/rules\b|\bcis\b|\bgeorgian-joker\b|\bodessa-house\b|\bdeck-54\b"
)


def visible(page: str) -> str:
    """The text a reader sees in the page's main part (tags, scripts and code left out), with
    the options of every list."""
    body = page.split("<main", 1)[1]
    body = re.sub(r"<(script|style|code|textarea)[^>]*>.*?</\1>", " ", body, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


@pytest.mark.parametrize("locale", ["en", "ka"])
def test_the_reference_pages_name_presets_for_their_readers(client, locale):
    client.post("/language", data={"lang": locale})
    urls = ["/reference/advisor", *(f"/reference/presets/{game.slug}" for game in GAMES)]
    for url in urls:
        page = client.get(url)
        assert page.status_code == 200, url
        assert not DEVELOPER.findall(visible(page.get_data(as_text=True))), url


def test_the_desk_names_an_instructors_copies_by_title_and_date(app):
    teacher = signed_in(app, "teacher", "instructor")
    group_id = int(
        teacher.post("/groups/new", data={"name": "Evening class"}).headers["Location"].rsplit("/", 1)[1]
    )
    text = (GAMES[0].rules_folder / "cis.toml").read_text().replace("full_house = 7,", "full_house = 8,")
    assert teacher.post(f"/groups/{group_id}/rules/russian_poker", data={"text": text}).status_code == 302
    desk = teacher.get(f"/groups/{group_id}").get_data(as_text=True)
    options = re.search(r'<select id="rules-russian_poker".*?</select>', desk, re.S).group(0)
    assert "your copy of" in options and not DEVELOPER.findall(visible("<main>" + options))
    assert not DEVELOPER.findall(visible(desk))
