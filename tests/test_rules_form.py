"""The house-rules editor as a form: a field per rule the game's loader reads, the pay tables as
tables, the shipped value beside each, the TOML text as the advanced view. The form as shown saves
the very rules it showed (every game); a changed value is saved and shown; a refusal (the form's own
check, or the loader's) is put beside its field and named in the summary, in the page's language,
and nothing is saved; CSRF and the owner-only rule hold."""

from __future__ import annotations

import html
import re
import tomllib

import pytest
from accounts_helpers import PASSWORD, signed_in
from conftest import make_app
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_i18n_catalogs import _visible_latin_words

from trainer.engine.presets import flatten
from trainer.games import BY_ID
from trainer.store.accounts import FAST_HASHER, Accounts, Role
from trainer.web.core import db as web_db
from trainer.web.groups.rules_form import toml_text


@pytest.fixture
def teacher(app):
    return signed_in(app, "teacher", "instructor")


def _group(teacher, name: str = "Evening class") -> int:
    return int(teacher.post("/groups/new", data={"name": name}).headers["Location"].rsplit("/", 1)[1])


def form_data(page: str) -> dict[str, str]:
    """What a browser sends for the rules form as shown (checked boxes only)."""
    form = page.split('id="rules-form"', 1)[1].split("</form>", 1)[0]
    data: dict[str, str] = {}
    for tag in re.findall(r"<input [^>]*>", form):
        name, value = re.search(r'name="([^"]+)"', tag), re.search(r'value="([^"]*)"', tag)
        if name and ('type="checkbox"' not in tag or " checked" in tag):
            data[name.group(1)] = html.unescape(value.group(1)) if value else ""
    for name, body in re.findall(r'<textarea id="[^"]+" name="([^"]+)"[^>]*>(.*?)</textarea>', form, re.S):
        data[name] = html.unescape(body)
    for name, options in re.findall(r'<select id="[^"]+" name="([^"]+)"[^>]*>(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected', options)
        data[name] = chosen.group(1) if chosen else ""
    return data


def _saved(app, group_id: int, game: str) -> dict:
    with app.app_context():
        name = web_db.groups().rules(group_id)[game]
        return flatten(BY_ID[game].presets.table_of(name, web_db.houses())), name


@pytest.mark.parametrize("game", ["russian_poker", "omaha", "painted_poker"])
def test_the_form_as_shown_saves_the_rules_it_showed(app, teacher, game):
    group_id = _group(teacher)
    url = f"/groups/{group_id}/rules/{game}"
    page = teacher.get(url).get_data(as_text=True)
    assert 'id="rules-lines"' in page and 'id="rules-text"' in page  # the text, the advanced view
    assert teacher.post(url, data=form_data(page)).status_code == 302
    saved, name = _saved(app, group_id, game)
    assert name.startswith("house-")
    assert saved == flatten(BY_ID[game].presets.table_of(BY_ID[game].default_preset))


def test_a_changed_pay_row_is_saved_and_shown_beside_the_shipped_value(app, teacher):
    group_id = _group(teacher)
    url = f"/groups/{group_id}/rules/russian_poker"
    page = teacher.get(url).get_data(as_text=True)
    # One field per rule, labelled in words, with its range and the shipped value beside.
    row = re.search(r'<tr id="r__exchange__min_cards-row".*?</tr>', page, re.S).group(0)
    assert "<label" in row and "fewest cards" in row and "a whole number from 1 to 5" in row
    assert re.search(r'<td class="shipped">1</td>', row)
    assert 'id="r__bet__odds-row"' in page and 'name="r__bet__odds__full_house"' in page  # the pay table
    data = form_data(page) | {"r__bet__odds__full_house": "8", "r__bonus__offered": ""}
    data.pop("r__bonus__offered")  # unticked: a browser sends nothing
    assert teacher.post(url, data=data).status_code == 302
    saved, name = _saved(app, group_id, "russian_poker")
    assert saved["bet.odds.full_house"] == 8 and saved["bonus.offered"] is False
    with app.app_context():
        text = web_db.groups().house_text("russian_poker", name)
    assert text.startswith("# from: cis\n") and max(len(line) for line in text.split("\n")) < 110
    again = teacher.get(url).get_data(as_text=True)
    full_house = re.search(r'<tr data-row="full_house".*?</tr>', again, re.S).group(0)
    assert 'value="8"' in full_house and '<td class="shipped">7</td>' in full_house


@pytest.mark.parametrize("game", ["russian_poker", "omaha", "painted_poker"])
def test_every_number_shows_its_whole_allowed_range(app, teacher, game):
    """Each number rule and pay table says its lowest and highest allowed value, read off the
    loader's converter (a hand has five cards: exchange from 1 to 5; else the house-rules limit)."""
    from trainer.engine.presets import WHOLE_LIMIT

    page = teacher.get(f"/groups/{_group(teacher)}/rules/{game}").get_data(as_text=True)
    ranges = re.findall(r'id="(r__[a-z0-9_]+)-range">([^<]*)<', page)
    numbers = [(name, text) for name, text in ranges if "whole number" in text or "odds" in text]
    assert numbers
    limit = f"{WHOLE_LIMIT:,}"
    for name, text in numbers:
        assert re.search(r"from -?[\d,]+ to [\d,]+", text), (name, text)
    shown = dict(numbers)
    if game == "russian_poker":
        assert shown["r__exchange__max_cards"] == "a whole number from 1 to 5"
        assert shown["r__bet__odds"] == f"(every row is paid; odds x to 1, from 1 to {limit})"
    if game == "omaha":
        assert shown["r__limit__raises_per_round"] == f"a whole number from 0 to {limit}"


def test_a_rule_of_a_number_or_a_word_shows_its_whole_range_in_the_pages_language(app, teacher):
    """Painted poker's deals per "max" segment (a whole number or `players`) and largest hand (or
    `deck`): the range beside the field says the numbers and the word, in English and in Georgian;
    the form refuses a number beyond it with the same range."""
    url = f"/groups/{_group(teacher)}/rules/painted_poker"

    def ranges() -> dict[str, str]:
        page = teacher.get(url).get_data(as_text=True)
        return {k: html.unescape(v) for k, v in re.findall(r'id="(r__[a-z0-9_]+)-range">([^<]*)<', page)}

    en = ranges()
    assert en["r__schedule__repeat"] == "a whole number from 1 to 1,000,000, or the word players"
    assert en["r__schedule__max_cards"] == "a whole number from 1 to 1,000,000, or the word deck"
    shown = form_data(teacher.get(url).get_data(as_text=True))
    refused = teacher.post(url, data=shown | {"r__schedule__repeat": "1000001"})
    assert refused.status_code == 400
    assert "Give a whole number from 1 to 1,000,000, or the word players." in html.unescape(
        refused.get_data(as_text=True)
    )
    teacher.post("/language", data={"lang": "ka"})
    ka = ranges()
    assert ka["r__schedule__repeat"] == "მთელი რიცხვი 1‑დან 1\u00a0000\u00a0000‑მდე, ან სიტყვა „მოთამაშეები“"
    assert ka["r__schedule__max_cards"] == "მთელი რიცხვი 1‑დან 1\u00a0000\u00a0000‑მდე, ან სიტყვა „დასტა“"


def test_refusals_are_put_beside_their_field_and_nothing_is_saved(app, teacher):
    group_id = _group(teacher)
    url = f"/groups/{group_id}/rules/russian_poker"
    shown = form_data(teacher.get(url).get_data(as_text=True))
    cases = [
        # The form's own checks.
        (
            {"r__exchange__max_exchanges": "many"},
            "r__exchange__max_exchanges",
            "Give a whole number from 0 to 1,000,000.",
        ),
        ({"r__bet__odds__pair": ""}, "r__bet__odds__pair", "Fill in this field."),
        ({"r__buy_game__replaces": "the best"}, "r__buy_game__replaces", "Choose one of the values offered."),
        ({"r__exchange__min_cards": "6"}, "r__exchange__min_cards", "Give a whole number from 1 to 5."),
        ({"r__bet__odds__pair": "2000000"}, "r__bet__odds__pair", "Give a whole number from 1 to 1,000,000."),
        # The loader's, across keys: put on the key it names.
        ({"r__bet__odds__full_house": "1"}, "r__bet__odds", "a better row must never pay less"),
        ({"r__boxes__open_per_player": "9"}, "r__boxes__open_per_player", "it has only 6\xa0boxes"),
    ]
    for change, field, said in cases:
        refused = teacher.post(url, data=shown | change)
        assert refused.status_code == 400, change
        page = refused.get_data(as_text=True)
        beside = re.search(rf'id="{field}-error">([^<]*)<', page)
        assert beside and said in html.unescape(beside.group(1)), (change, beside)
        summary = re.search(r'<ul id="rules-error-fields">(.*?)</ul>', page, re.S).group(1)
        assert f'href="#{field}-row"' in summary, change
        assert html.escape(change[next(iter(change))], quote=True) in page  # the value typed is kept
    with app.app_context():
        assert web_db.store().db.execute("SELECT count(*) FROM house_rules").fetchone()[0] == 0


@pytest.mark.parametrize("game", ["russian_poker", "painted_poker"])
def test_the_form_and_its_refusals_are_in_the_pages_language(app, teacher, game):
    """Labels, ranges, shipped values and refusals: no English word on the Georgian page outside
    the advanced view's TOML text (code)."""
    group_id = _group(teacher, "საღამოს ჯგუფი")
    url = f"/groups/{group_id}/rules/{game}"
    teacher.post("/language", data={"lang": "ka"})
    page = teacher.get(url).get_data(as_text=True)
    form = page.split("<details", 1)[0]
    assert not _visible_latin_words(form + "</main>"), _visible_latin_words(form + "</main>")
    shown = form_data(page)
    changes = (  # the form's own check, then the loader's (across rows, and across keys)
        [{"r__exchange__max_exchanges": "x"}, {"r__bet__odds__full_house": "1"}]
        if game == "russian_poker"
        else [{"r__schedule__repeat": "0"}, {"r__players__max": "1"}]
    )
    for change in changes:
        refused = teacher.post(url, data=shown | change)
        assert refused.status_code == 400
        form = refused.get_data(as_text=True).split("<details", 1)[0]
        assert 'class="field-error"' in form and 'id="rules-error-fields"' in form
        assert not _visible_latin_words(form + "</main>"), (change, _visible_latin_words(form + "</main>"))


def test_another_instructor_gets_404_and_the_form_keeps_its_csrf_check(tmp_path):
    app = make_app(DATABASE=str(tmp_path / "csrf.sqlite"), FAST_PASSWORD_HASHING=True)
    with app.app_context():
        accounts = Accounts(web_db.store().db, hasher=FAST_HASHER)
        owner = accounts.create_user("teacher", PASSWORD, role=Role.INSTRUCTOR)["id"]
        accounts.create_user("other", PASSWORD, role=Role.INSTRUCTOR)
        group_id = web_db.groups().create(owner, "Evening class")["id"]
    url = f"/groups/{group_id}/rules/russian_poker"

    def client_of(username):
        client = app.test_client()
        page = client.get("/account/sign-in").get_data(as_text=True)
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
        client.post(
            "/account/sign-in", data={"username": username, "password": PASSWORD, "csrf_token": token}
        )
        return client

    teacher = client_of("teacher")
    page = teacher.get(url).get_data(as_text=True)
    data = form_data(page)
    without = {k: v for k, v in data.items() if k != "csrf_token"}
    assert teacher.post(url, data=without).status_code == 400
    assert client_of("other").post(url, data=data).status_code == 404
    assert teacher.post(url, data=data).status_code == 302  # with its token, the owner's form saves
    with app.app_context():
        assert web_db.store().db.execute("SELECT count(*) FROM house_rules").fetchone()[0] == 1


@settings(max_examples=60)
@example('a DEL \x7f, a quote " and a line\nbreak', ["ყვავი"], -5)
@given(
    st.text(max_size=30), st.lists(st.text(min_size=1, max_size=8), max_size=3), st.integers(-(10**6), 10**6)
)
def test_whatever_is_typed_is_written_as_toml_that_reads_back_the_same(title, items, number):
    table = {"title": title, "deck": {"jokers": items, "real": number, "hook": True, "odds": {"pair": 1}}}
    assert tomllib.loads(toml_text(table, "classic")) == table
