"""The suits as Georgians name them (issue 26): ყვავი is spades (♠), ჯვარი clubs (♣), გული hearts,
აგური diamonds; genitives ყვავის, ჯვრის, გულის, აგურის (shared/notes/translations.md). The catalog
wrote clubs as "ყვავი" and spades as "პიკი", so a Georgian reader saw the black suits swapped.
"""

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
KA = ROOT / "translations" / "ka" / "LC_MESSAGES" / "messages.po"
RU = ROOT / "translations" / "ru" / "LC_MESSAGES" / "messages.po"

# (context, English name) -> the Georgian word; a new context of a suit name must be added here.
GEORGIAN = {
    (None, "spades"): "ყვავი",
    (None, "clubs"): "ჯვარი",
    (None, "hearts"): "გული",
    (None, "diamonds"): "აგური",
    ("genitive", "spades"): "ყვავის",
    ("genitive", "clubs"): "ჯვრის",
    ("genitive", "hearts"): "გულის",
    ("genitive", "diamonds"): "აგურის",
}
SUITS = ("spades", "clubs", "hearts", "diamonds")
# The stem each suit's Georgian forms share (ჯვარი / ჯვრის: "ჯვ").
STEMS = {"spades": "ყვავ", "clubs": "ჯვ", "hearts": "გულ", "diamonds": "აგურ"}


def _catalog(path):
    with path.open("rb") as f:
        return read_po(f)


@pytest.fixture(scope="module")
def ka():
    return _catalog(KA)


def test_every_suit_message_in_every_context_is_the_right_word(ka):
    found = {}
    for message in ka:
        if message.id in SUITS:
            found[(message.context, message.id)] = message.string
    assert found == GEORGIAN


def test_the_russian_loan_for_spades_is_gone(ka):
    # "პიკი" is a loan from Russian that the rule documents never use.
    assert not [m.id for m in ka if m.id and "პიკ" in str(m.string)]


def _words(text):
    return set(re.findall(r"[a-z]+", text.lower()))


def test_every_georgian_sentence_names_the_suits_its_english_names(ka):
    """A sentence that names spades in English names ყვავი in Georgian (never ჯვარი for it), and one
    that names clubs names ჯვარი: no sentence may swap the black suits."""
    checked = 0
    for message in ka:
        if not message.id or message.id in SUITS:
            continue
        english = message.id if isinstance(message.id, str) else " ".join(message.id)
        georgian = message.string if isinstance(message.string, str) else " ".join(message.string)
        named = {suit for suit in SUITS if suit in _words(english)}
        if not named or not georgian:
            continue
        checked += 1
        for suit in named:
            assert STEMS[suit] in georgian, (english, georgian)
        if "clubs" not in named:
            assert "ჯვარ" not in georgian and "ჯვრ" not in georgian, (english, georgian)
    assert checked


def test_russian_keeps_its_suit_names():
    ru = _catalog(RU)
    found = {(m.context, m.id): m.string for m in ru if m.id in SUITS}
    assert found[(None, "spades")] == "пики" and found[(None, "clubs")] == "трефы"
    assert found[("genitive", "spades")] == "пик" and found[("genitive", "clubs")] == "треф"


def test_cards_are_spoken_with_the_georgian_suits(app):
    from flask_babel import force_locale

    from trainer.web.situations.drawing import SUIT_NOUNS, card_face

    with app.test_request_context(), force_locale("ka"):
        assert card_face("7s")["label"].startswith("ყვავის ")
        assert card_face("7c")["label"].startswith("ჯვრის ")
        assert card_face("Ah")["label"].startswith("გულის ")
        assert card_face("Kd")["label"].startswith("აგურის ")
        assert [str(SUIT_NOUNS[s]) for s in "scdh"] == ["ყვავი", "ჯვარი", "აგური", "გული"]


def test_the_painted_tables_joker_captions(app):
    # The captions under a led joker on the painted poker tables (templates/table*/painted_poker.html):
    # the genitive inside "the highest of spades", the nominative for a quoted suit name.
    from flask_babel import force_locale, gettext

    from trainer.web.situations.drawing import SUIT_NOUNS, SUIT_WORDS

    with app.test_request_context(), force_locale("ka"):
        said = gettext("led, calling the highest %(suit)s", suit=SUIT_WORDS["s"])
        assert said == "ჩამოვიდა, მოითხოვა ყვავის უმაღლესი კარტი"
        said = gettext("led as the highest card of %(suit)s", suit=SUIT_NOUNS["c"])
        assert said == "სვლა ფერის „ჯვარი“ უმაღლეს კარტად"


def test_the_painted_rules_page_in_georgian(client):
    client.post("/language", data={"lang": "ka"})
    page = client.get("/reference/rules/painted-poker").get_data(as_text=True)
    assert "ყვავის შვიდიანი" in page  # the joker, the seven of spades
    assert "ყვავიდან გულამდე: ყვავი, ჯვარი, აგური, გული" in page  # circular trump
    assert "პიკ" not in page


def test_no_template_or_data_file_writes_the_loan():
    for folder in ("templates", "data", "trainer"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in (".html", ".toml", ".json", ".py", ".md", ".txt"):
                assert "პიკ" not in path.read_text(encoding="utf-8", errors="ignore"), path
