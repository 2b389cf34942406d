"""Look-alike usernames: a name drawn like an existing one (UTS #39 skeleton: a Cyrillic "е" for a
Latin "e", "1" for "l", "rn" for "m") is refused by a unique index, also when sign-ups race; names of
one script that only resemble each other in meaning (Georgian, Russian, Latin) stay distinct."""

import sqlite3
import threading
import unicodedata

import pytest
from accounts_helpers import PASSWORD
from conftest import memory_db
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlite_utils import Database

from trainer.store import open_db
from trainer.store.accounts import FAST_HASHER, AccountError, Accounts
from trainer.store.schema import MIGRATIONS
from trainer.store.usernames import skeleton, username_key, username_skeleton
from trainer.web.core import db

CYRILLIC_E, CYRILLIC_A = "\u0435", "\u0430"
# Eight names that each are a different account by case and Unicode form, all drawn like "teach1".
LOOKALIKES = [
    "teach1",
    f"t{CYRILLIC_E}ach1",
    "teachl",
    f"te{CYRILLIC_A}ch1",
    f"t{CYRILLIC_E}{CYRILLIC_A}ch1",
    "teachI",
    f"t{CYRILLIC_E}achl",
    f"te{CYRILLIC_A}chI",
]


@pytest.fixture
def accounts():
    return Accounts(memory_db(), hasher=FAST_HASHER)


def test_the_eight_names_are_different_keys_and_one_skeleton():
    assert len({username_key(name) for name in LOOKALIKES}) == 8
    assert len({username_skeleton(name) for name in LOOKALIKES}) == 1


def test_unicodes_own_examples_of_confusables():
    assert skeleton("paypal") == skeleton("\u0440\u0430у\u0440\u0430l")  # Cyrillic р, а, у
    assert skeleton("rn") == skeleton("m")
    assert skeleton("0") == skeleton("O")


@pytest.mark.parametrize("second", LOOKALIKES[1:])
def test_a_name_drawn_like_an_existing_one_is_refused(accounts, second):
    accounts.sign_up("teach1", PASSWORD)
    with pytest.raises(AccountError) as refused:
        accounts.sign_up(second, PASSWORD)
    assert refused.value.reason == "username_lookalike" and refused.value.params == {"username": second}


def test_the_same_name_in_another_case_still_says_taken(accounts):
    accounts.sign_up("teach1", PASSWORD)
    with pytest.raises(AccountError) as refused:
        accounts.sign_up("TEACH1", PASSWORD)
    assert refused.value.reason == "username_taken"


@pytest.mark.parametrize(
    "names",
    [
        ("მსმენელი", "მსმენელო", "მსმენელი2", "დილერი"),
        ("слушатель", "slushatel", "Дилер", "diler"),
        ("trainee.b", "trainee-b", "trainee_b", "traineeb"),
        ("trainee1", "trainee2", "trainee10", "trainee11"),
    ],
)
def test_different_looking_names_of_any_script_are_all_accepted(accounts, names):
    for name in names:
        accounts.sign_up(name, PASSWORD)
    assert [accounts.user_named(name)["username"] for name in names] == list(names)


def test_racing_sign_ups_of_look_alike_names_make_one_account(tmp_path):
    path = tmp_path / "race.sqlite"
    open_db(path).conn.close()
    made, refused = [], []
    start = threading.Barrier(len(LOOKALIKES))

    def sign_up(name):
        accounts = Accounts(open_db(path, migrate=False), hasher=FAST_HASHER)
        start.wait()
        try:
            made.append(accounts.sign_up(name, f"{name} long secret")["username"])
        except AccountError as error:
            refused.append(error.reason)

    threads = [threading.Thread(target=sign_up, args=(name,)) for name in LOOKALIKES]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(made) == 1 and refused == ["username_lookalike"] * 7
    check = open_db(path, migrate=False)
    assert check.execute("SELECT count(*) FROM users").fetchone()[0] == 1


def test_the_migration_keeps_look_alikes_made_before_it_and_refuses_new_ones(tmp_path):
    path = tmp_path / "old.sqlite"
    old = Database(sqlite3.connect(path))
    MIGRATIONS.apply(old, stop_before="m010_username_skeletons")
    for user_id, name in enumerate(["teach1", f"t{CYRILLIC_E}ach1", "trainee.one"], start=1):
        old.execute("INSERT INTO trainees (id, created_at) VALUES (?, '2026-01-01')", [user_id])
        old.execute(
            "INSERT INTO users (id, username, username_key, display_name, password_hash, role, "
            "session_epoch, created_at) VALUES (?, ?, ?, ?, ?, 'trainee', 0, '2026-01-01')",
            [user_id, name, username_key(name), name, FAST_HASHER.hash(PASSWORD)],
        )
    old.conn.commit()
    old.conn.close()

    accounts = Accounts(open_db(path), hasher=FAST_HASHER)
    shapes = dict(accounts.db.execute("SELECT username, username_skeleton FROM users").fetchall())
    assert shapes == {
        "teach1": username_skeleton("teach1"),
        f"t{CYRILLIC_E}ach1": None,  # the later look-alike keeps working, without a skeleton
        "trainee.one": username_skeleton("trainee.one"),
    }
    for name in shapes:
        assert accounts.check_password(name, PASSWORD)["username"] == name
    with pytest.raises(AccountError) as refused:
        accounts.sign_up("teachl", PASSWORD)
    assert refused.value.reason == "username_lookalike"


LOOKALIKE_REFUSAL = {
    "en": "The username teachl looks too much like one that is taken. Choose another.",
    "ka": "მომხმარებლის სახელი teachl ძალიან ჰგავს უკვე დაკავებულ სახელს. აირჩიეთ სხვა.",
    "ru": "Имя пользователя teachl слишком похоже на уже занятое. Выберите другое.",
}


@pytest.mark.parametrize("lang", ["en", "ka", "ru"])
def test_the_sign_up_page_and_the_api_say_why_in_the_readers_language(app, lang):
    client = app.test_client()
    headers = {"Accept-Language": lang}
    form = {"username": "teach1", "password": PASSWORD, "confirm": PASSWORD}
    assert client.post("/account/sign-up", data=form).status_code == 302
    other = app.test_client()
    response = other.post("/account/sign-up", data={**form, "username": "teachl"}, headers=headers)
    assert response.status_code == 400
    assert LOOKALIKE_REFUSAL[lang] in response.get_data(as_text=True)
    api = other.post("/api/v1/users", json={"username": "teachl", "password": PASSWORD}, headers=headers)
    assert api.status_code == 409 and api.json == {"error": LOOKALIKE_REFUSAL[lang], "status": 409}
    with app.app_context():
        assert db.store().db.execute("SELECT count(*) FROM users").fetchone()[0] == 1


LATIN_TO_CYRILLIC = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "y": "у"}


@settings(max_examples=200)
@given(
    st.text(alphabet="aeopcxy0123456789.", min_size=3, max_size=20),
    st.lists(st.booleans(), min_size=20, max_size=20),
)
def test_any_latin_letter_swapped_for_its_cyrillic_twin_keeps_the_skeleton(name, swaps):
    swapped = "".join(
        LATIN_TO_CYRILLIC.get(ch, ch) if swap else ch for ch, swap in zip(name, swaps, strict=False)
    )
    assert username_skeleton(swapped) == username_skeleton(name)


@given(st.text(alphabet="aeiouáéíóúàèñçäöüøåłżščřž", min_size=3, max_size=12))
def test_the_skeleton_is_the_same_for_every_unicode_form(name):
    forms = {unicodedata.normalize(form, name) for form in ("NFC", "NFD", "NFKC", "NFKD")}
    assert len({username_skeleton(form) for form in forms}) == 1
