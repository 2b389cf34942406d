"""The rules pages show issue 15's rules, in every language (the sentences are the ones the engine and
the drills follow)."""

import pytest

PAGES = {
    "russian-poker": ["27 to 1", "104 to 1", "14 to 1", "two boxes next to each other open", "table maximum"],
    "omaha": ["P + 2C = 400", "raise to 30", "button posts the small blind", "muck", "all-in for the least"],
    "painted-poker": [
        "the lowest trump",
        "the dealer must bid the maximum, in a dark deal too",
        "Frontal deal",
        "Circular trump",
        "54-card deck with two real jokers",
        "between the rising and the falling part",
        "twice or three times over",
    ],
}
TRANSLATED = {
    "ka": {
        "russian-poker": ["27 1\u2011ზე", "ბოქსი"],
        "omaha": ["P + 2C = 400", "დოლი"],
        "painted-poker": ["ბნელ დარიგებაშიც"],
    },
    "ru": {
        "russian-poker": ["27 к 1", "боксы"],
        "omaha": ["P + 2C = 400", "баттон"],
        "painted-poker": ["в тёмной раздаче"],
    },
}


@pytest.mark.parametrize("game", sorted(PAGES))
def test_rules_pages_state_the_new_rules(client, game):
    page = client.get(f"/reference/rules/{game}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    for words in PAGES[game]:
        assert words in page, (game, words)


@pytest.mark.parametrize("lang", sorted(TRANSLATED))
def test_rules_pages_are_translated(client, lang):
    client.post("/language", data={"lang": lang})
    for game, words in TRANSLATED[lang].items():
        # A number and its unit are joined by a no-break space and hyphen ("27\u00a01\u2011ზე"):
        # the space is read as one space here.
        page = client.get(f"/reference/rules/{game}").get_data(as_text=True).replace("\u00a0", " ")
        for word in words:
            assert word in page, (lang, game, word)
