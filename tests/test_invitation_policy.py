"""The class lists' figures come from `data/invitations.toml`, read through the one TOML reader
(`trainer.engine.presets.read_toml` and its `Reader`): a bad file is refused naming the file and key."""

import pytest

from trainer.engine.presets import PresetError
from trainer.store import invitations
from trainer.store.accounts import AccountError
from trainer.store.invitations import Policy, load_policy


def _file(tmp_path, text):
    path = tmp_path / "invitations.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_shipped_file_holds_the_figures_the_store_uses():
    assert load_policy() == Policy(days=14, names_max=200, list_bytes_max=64 * 1024)
    figures = (invitations.INVITATION_DAYS, invitations.NAMES_MAX, invitations.LIST_BYTES_MAX)
    assert figures == (14, 200, 65536)


def test_another_file_gives_other_figures(tmp_path):
    path = _file(tmp_path, "expires_days = 3\nnames_max = 40\nlist_kib_max = 8\n")
    assert load_policy(path) == Policy(days=3, names_max=40, list_bytes_max=8192)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("names_max = 40\nlist_kib_max = 8\n", "expires_days"),  # missing
        ("expires_days = 0\nnames_max = 40\nlist_kib_max = 8\n", "expires_days"),  # below 1
        ("expires_days = 3\nnames_max = 4.5\nlist_kib_max = 8\n", "names_max"),  # not whole
        ("expires_days = 3\nnames_max = 40\nlist_kib_max = true\n", "list_kib_max"),
        ("expires_days = 3\nnames_max = 40\nlist_kib_max = 8\nname_max = 9\n", "name_max"),  # misspelt
    ],
)
def test_a_bad_figure_is_refused_naming_the_file_and_key(tmp_path, text, key):
    path = _file(tmp_path, text)
    with pytest.raises(PresetError) as refused:
        load_policy(path)
    assert refused.value.key == key and str(path) in str(refused.value)


def test_the_list_limits_follow_the_policy(monkeypatch):
    monkeypatch.setattr(invitations, "NAMES_MAX", 2)
    monkeypatch.setattr(invitations, "LIST_BYTES_MAX", 10)
    assert invitations.read_names("A\nB\n") == ["A", "B"]
    with pytest.raises(AccountError) as long:
        invitations.read_names("A\nB\nC\n")
    assert long.value.reason == "class_list_long" and long.value.params == {"max": 2}
    with pytest.raises(AccountError) as big:
        invitations.decode_list(b"x" * 11)
    assert big.value.reason == "class_list_big"
