"""Trainees choose the house rules they practise under (every shipped preset, Lunar and the insured
house included), and every question and start page says which rules are in force."""

import re

import pytest

from trainer.games import GAMES
from trainer.store import open_db


@pytest.fixture
def guest(client):
    """Practice needs no account: a guest chooses too (the choice is kept in the session)."""
    return client


def _crumbs(page: str) -> str:
    return re.search(r'<p class="crumbs">(.*?)</p>', page, re.S).group(1)


def _new_drill(client, kind: str, level: int = 1) -> str:
    response = client.post(f"/practice/{kind}", data={"level": str(level)})
    assert response.status_code == 303, response.get_data(as_text=True)
    return client.get(response.headers["Location"]).get_data(as_text=True)


def _recorded_rules(app) -> list[str]:
    db = open_db(app.config["DATABASE"])
    return [row["rules"] for row in db.query("SELECT rules FROM drills ORDER BY id")]


def test_the_choice_page_offers_every_shipped_preset_and_records_nothing(app, guest):
    page = guest.get("/practice/rules").get_data(as_text=True)
    for game in GAMES:
        offered = re.findall(rf'name="rules-{game.id}" value="([^"]*)"', page)
        assert offered == list(game.preset_names()), game.id
    assert "Lunar Poker" in page and 'value="insured"' in page
    assert open_db(app.config["DATABASE"]).execute("SELECT count(*) FROM trainees").fetchone()[0] == 0


def test_drills_are_dealt_under_the_chosen_rules_and_say_so(app, guest):
    response = guest.post(
        "/practice/rules", data={"rules-russian_poker": "lunar", "next": "/practice/rp.bet_payout?level=2"}
    )
    assert response.status_code == 303 and response.headers["Location"] == "/practice/rp.bet_payout?level=2"
    start = guest.get("/practice/rp.bet_payout?level=2").get_data(as_text=True)
    assert "House rules: Lunar Poker" in start
    page = _new_drill(guest, "rp.bet_payout", 2)
    assert "Lunar Poker" in _crumbs(page) and "preset=lunar" in _crumbs(page)
    assert 'class="rules-choice"' in _crumbs(page)  # the way to change them, from the question
    # The choice stays for the session, and other games keep their default.
    _new_drill(guest, "rp.qualify")
    page = _new_drill(guest, "om.limit")
    assert "preset=standard" in _crumbs(page)
    assert _recorded_rules(app) == ["lunar", "lunar", None]  # None: the game's default preset


def test_a_kind_the_chosen_table_lacks_is_dealt_under_the_default_and_says_so(app, guest):
    guest.post("/practice/rules", data={"rules-russian_poker": "lunar"})
    page = _new_drill(guest, "rp.insurance")  # Lunar tables offer no insurance
    assert "preset=cis" in _crumbs(page)
    assert _recorded_rules(app) == [None]  # the game's default


def test_choosing_the_default_again_forgets_the_choice(app, guest):
    guest.post("/practice/rules", data={"rules-painted_poker": "odessa-house"})
    page = guest.get("/practice/rules").get_data(as_text=True)
    assert re.search(r'value="odessa-house" checked', page)
    default = next(g for g in GAMES if g.id == "painted_poker").default_preset
    guest.post("/practice/rules", data={"rules-painted_poker": default})
    with guest.session_transaction() as session:
        assert "painted_poker" not in session.get("house_rules", {})
    page = _new_drill(guest, "pp.score")
    assert f"preset={default}" in _crumbs(page)


@pytest.mark.parametrize(
    "form",
    [
        {"rules-russian_poker": "no-such-house"},
        {"rules-russian_poker": "../../etc/passwd"},
        {"rules-omaha": "cis"},  # a preset of another game
    ],
)
def test_unknown_rules_are_refused(guest, form):
    response = guest.post("/practice/rules", data=form)
    assert response.status_code == 400
    with guest.session_transaction() as session:
        assert not session.get("house_rules")


def test_the_way_back_stays_on_this_site(guest):
    response = guest.post("/practice/rules", data={"rules-omaha": "standard", "next": "//elsewhere.example/"})
    assert response.headers["Location"] == "/practice/rules"


@pytest.mark.parametrize("lang", ["ka", "ru"])
def test_the_choice_page_is_translated(guest, lang):
    guest.post("/language", data={"lang": lang, "next": "/"})
    page = guest.get("/practice/rules").get_data(as_text=True)
    main = re.search(r"<main.*?</main>", page, re.S).group(0)
    # The presets' own titles are the catalog's (tests/test_i18n_catalogs.py); this page's words here.
    main = re.sub(r'(<input type="radio"[^>]*>)<span>[^<]*</span>', r"\1", main)
    words = re.sub(r"<[^>]+>", " ", main)
    assert not re.findall(r"\b[A-Za-z]{4,}\b", words), re.findall(r"\b[A-Za-z]{4,}\b", words)


def test_home_names_each_games_rules_in_force_with_the_way_to_change_them(guest):
    guest.post("/practice/rules", data={"rules-russian_poker": "insured"})
    page = guest.get("/").get_data(as_text=True)
    lines = re.findall(r'<p class="muted rules-line">(.*?)</p>', page)
    assert len(lines) == len(GAMES)
    assert lines[0].startswith("House rules: Insured house") and "/practice/rules?next=/" in lines[0]
