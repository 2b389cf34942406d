"""A refused house-rules file is said in the reader's language: every refusal of the engine's rules
loader carries a reason code, and each code has a translated message in the web layer."""

import ast
from pathlib import Path

import pytest
from flask_babel import force_locale
from test_i18n_catalogs import _visible_latin_words

from trainer.engine import presets
from trainer.engine.presets import PresetError
from trainer.web.preset_refusals import REASONS, say


def _raise_sites() -> list[ast.Call]:
    tree = ast.parse(Path(presets.__file__).read_text())
    calls = [
        n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name | ast.Attribute)
    ]
    named = {"PresetError", "ValueRefusal", "fail"}
    return [c for c in calls if getattr(c.func, "id", getattr(c.func, "attr", "")) in named]


def test_every_refusal_in_the_rules_loader_names_a_known_code():
    sites = _raise_sites()
    assert len(sites) >= 20
    for call in sites:
        name = getattr(call.func, "id", getattr(call.func, "attr", ""))
        if name == "fail" and len(call.args) == 2 and not call.keywords:
            continue  # Reader.fail(key, str(err)): a game's own ValueError, said as "other"
        if name == "fail" and len(call.args) >= 4:
            code = call.args[3]
        elif name == "ValueRefusal":
            code = call.args[1] if len(call.args) > 1 else None
        else:
            code = next((k.value for k in call.keywords if k.arg == "code"), None)
        assert code is not None, ast.unparse(call)
        if isinstance(code, ast.Constant):
            assert code.value in REASONS, ast.unparse(call)
    assert "raise ValueError" not in Path(presets.__file__).read_text()


SAMPLES = {
    "no_file": {},
    "unreadable": {},
    "toml_syntax": {"line": 3, "column": 7},
    "preset_name_expected": {},
    "bad_file_name": {},
    "bad_preset_name": {},
    "no_preset": {"name": "ourhouse"},
    "base_loop": {},
    "base_not_name": {},
    "missing_key": {},
    "unknown_key": {},
    "whole_number": {"minimum": 1, "value": -7},
    "flag": {"value": 3},
    "text": {"value": 3},
    "texts": {"value": 3},
    "choice": {"allowed": "'ante', 'total'", "value": "antes"},
    "pay_table": {"value": 3},
    "unknown_row": {"typed_row": "pear", "allowed": "pair, flush"},
    "missing_rows": {"rows": "full_house"},
    "other": {},
}
TYPED = {
    "full",
    "house",
    "ourhouse",
    "ante",
    "antes",
    "total",
    "pear",
    "pair",
    "flush",
    "full_house",
    "bet",
    "odds",
}


def test_the_samples_cover_every_code():
    assert set(SAMPLES) == set(REASONS) | {"other"}


@pytest.mark.parametrize("locale", ["ka", "ru"])
@pytest.mark.parametrize("code", sorted(SAMPLES))
def test_each_code_is_said_without_english_words(app, locale, code):
    error = PresetError("x.toml", "English reason", "bet.odds", "pair", code=code, **SAMPLES[code])
    with app.test_request_context(), force_locale(locale):
        said = say(error)
        english = say(PresetError("x.toml", "English reason", code=code, **SAMPLES[code]))
    assert not {w.strip("'") for w in _visible_latin_words("<main>" + said)} - TYPED, said
    assert "English" not in said and said.startswith({"ka": "გასაღები", "ru": "Ключ"}[locale])
    assert english != said


def test_a_toml_syntax_error_gives_line_and_column(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("a = 1\nb = [\n")
    with pytest.raises(PresetError) as refused:
        presets.read_toml(bad)
    assert refused.value.code == "toml_syntax" and refused.value.params["line"] >= 2
    assert refused.value.params["column"] >= 1
    assert "not valid TOML" in str(refused.value)  # the command line keeps the English sentence
