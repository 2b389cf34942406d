"""A refused house-rules file is said in the reader's language: every refusal of the engine's rules
loader carries a reason code, and each code has a translated message in the web layer."""

import ast
import html
import re
from pathlib import Path

import pytest
from accounts_helpers import signed_in
from flask_babel import force_locale
from test_i18n_catalogs import _visible_latin_words

from trainer.engine import presets
from trainer.engine.omaha import betting as omaha_rules
from trainer.engine.painted_poker import rules as painted_rules
from trainer.engine.presets import PresetError
from trainer.engine.russian_poker import rules as russian_rules
from trainer.games import BY_ID
from trainer.web.core.preset_refusals import REASONS, say


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


@pytest.mark.parametrize(
    ("module", "at_least"),
    [(russian_rules, 6), (painted_rules, 12), (omaha_rules, 1)],
    ids=["rp", "pp", "om"],
)
def test_every_refusal_of_a_games_rules_builder_names_a_known_code(module, at_least):
    """A game's own checks (across keys, or of its own values) refuse through `Reader.fail` with a
    code the web layer says, never with the general sentence."""
    tree = ast.parse(Path(module.__file__).read_text())
    fails = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "fail"
    ]
    for call in fails:
        code = next((k.value for k in call.keywords if k.arg == "code"), None)
        assert isinstance(code, ast.Constant) and code.value in REASONS, ast.unparse(call)
    assert len(fails) >= at_least


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
    "at_most": {"maximum": 5, "value": 6},
    "below_other": {"other": "exchange.min_cards", "minimum": 2, "value": 1},
    "pay_order": {"better": "full_house", "better_odds": 3, "worse": "flush", "worse_odds": 5},
    "more_than_boxes": {"boxes": 6, "value": 7},
    "bonus_tables": {},
    "super_table": {},
    "rank": {"value": 1},
    "cards": {"example": '["7c"]'},
    "bad_card": {"value": "7z", "example": "7c"},
    "joker_card": {"card": "7c"},
    "real_jokers": {"value": 1},
    "list_of": {"allowed": "rising, max, falling"},
    "whole_or_word": {"word": "players", "value": "everyone"},
    "deck_too_small": {"cards": 7, "players": 6, "deck": 36},
    "suit_order": {"example": '["clubs", "diamonds", "hearts", "spades"]'},
    "needed_by_schedule": {"deal": "gold"},
    "no_chip_set": {"name": "casino", "allowed": "poker-room, standard"},
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
    "exchange",
    "min",
    "cards",
    "rising",
    "max",
    "falling",
    "players",
    "everyone",
    "clubs",
    "diamonds",
    "hearts",
    "spades",
    "casino",
    "poker-room",
    "standard",
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


# An instructor's edited copy with one fault, through the group rules editor: (game, shipped preset,
# text replaced (a regex), replacement, the key named, and a piece of the sentence in ka and in ru).
EDITS = [
    (
        "russian_poker",
        "cis",
        r"min_cards = 1",
        "min_cards = 6",
        "exchange.min_cards",
        "at_most",
        "არაუმეტეს 5, და არა 6",
        "не больше 5, а не 6",
    ),
    (
        "russian_poker",
        "lunar",
        r"max_cards = 5",
        "max_cards = 1",
        "exchange.max_cards",
        "below_other",
        "exchange.min_cards გასაღების მნიშვნელობაზე (2) ნაკლები; ახლა არის 1",
        "меньше значения ключа exchange.min_cards (2); сейчас оно равно 1",
    ),
    (
        "russian_poker",
        "cis",
        r"full_house = 7,",
        "full_house = 3,",
        "bet.odds",
        "pay_order",
        "სტრიქონი ფულ-ჰაუსი იხდის 3 1\u2011ზე, ნაკლებს, ვიდრე უფრო სუსტი სტრიქონი ფლეში (5 1\u2011ზე)",
        "Строка фулл-хаус платит 3 к 1 — меньше, чем более слабая строка флеш (5 к 1)",
    ),
    (
        "russian_poker",
        "lunar",
        r"same_colored_straight = 150",
        "same_colored_straight = 500",
        "super.odds",
        "pay_order",
        "სტრიქონი კარე იხდის 250 1\u2011ზე",
        "Строка каре платит 250 к 1",
    ),
    (
        "russian_poker",
        "cis",
        r"open_per_player = 2",
        "open_per_player = 7",
        "boxes.open_per_player",
        "more_than_boxes",
        "მაგიდას მხოლოდ 6 ბოქსი აქვს",
        "там всего 6 боксов",
    ),
    (
        "russian_poker",
        "cis",
        r"(?m)^odds6 = .*$",
        "odds6 = {}",
        "bonus.odds6",
        "bonus_tables",
        "ბონუსის გადახდების ორივე ცხრილი",
        "нужны обе таблицы выплат бонуса",
    ),
    (
        "russian_poker",
        "cis",
        r"(\[super\][^\[]*?)offered = false",
        r"\1offered = true",
        "super.odds",
        "super_table",
        "სუპერ ფსონს გვთავაზობს, მისი გადახდების ცხრილი",
        "ставку «Супер», нужна её таблица выплат",
    ),
    (
        "painted_poker",
        "classic",
        r"lowest_rank = 6",
        "lowest_rank = 1",
        "deck.lowest_rank",
        "rank",
        "რანგი 2\u2011დან 14\u2011მდე (ტუზი), და არა 1",
        "ранг от 2 до 14 (туз), а не 1",
    ),
    (
        "painted_poker",
        "classic",
        r'jokers = \["7s"\]',
        'jokers = "7s"',
        "deck.jokers",
        "cards",
        "კარტების სია, მაგალითად",
        "список карт, например",
    ),
    (
        "painted_poker",
        "classic",
        r'jokers = \["7s"\]',
        'jokers = ["7z"]',
        "deck.jokers",
        "bad_card",
        "კარტი არ არის: საჭიროა რანგი და ფერი",
        "не карта: нужны ранг и масть",
    ),
    (
        "painted_poker",
        "classic",
        r'jokers = \["7s"\]',
        'jokers = ["7s", "7s"]',
        "deck.jokers",
        "joker_card",
        "ამ დასტის კარტი არ არის, ან ორჯერ არის დასახელებული",
        "не карта этой колоды, или она названа дважды",
    ),
    (
        "painted_poker",
        "classic",
        r"real_jokers = 0",
        "real_jokers = 1",
        "deck.real_jokers",
        "real_jokers",
        "დასტაში 0 ან 2 ნამდვილი ჯოკერია და არა 1",
        "В колоде 0 или 2 настоящих джокера, а не 1",
    ),
    (
        "painted_poker",
        "classic",
        r"(?m)^segments = .*$",
        "segments = []",
        "schedule.segments",
        "list_of",
        "სია ამ მნიშვნელობებიდან: rising, max",
        "список из значений: rising, max",
    ),
    (
        "painted_poker",
        "classic",
        r"(?m)^lead_calls = .*$",
        'lead_calls = ["first"]',
        "joker.lead_calls",
        "list_of",
        "სია ამ მნიშვნელობებიდან: highest_trump",
        "список из значений: highest_trump",
    ),
    (
        "painted_poker",
        "classic",
        r'repeat = "players"',
        'repeat = "everyone"',
        "schedule.repeat",
        "whole_or_word",
        "მთელი რიცხვი, არანაკლებ 1, ან",
        "целое число не меньше 1 или",
    ),
    (
        "painted_poker",
        "classic",
        r'max_cards = "deck"',
        "max_cards = 7",
        "schedule.max_cards",
        "deck_too_small",
        "42 კარტი სჭირდება",
        "нужны 42 карты",
    ),
    (
        "painted_poker",
        "classic",
        r"(?m)^order = .*$",
        'order = ["clubs", 1, "hearts", "spades"]',
        "trump.order",
        "suit_order",
        "ოთხივე ფერი, თითოეული ერთხელ",
        "четыре масти, каждая по одному разу",
    ),
    (
        "painted_poker",
        "classic",
        r"(?m)^gold_per_trick = .*$",
        "",
        "scoring.gold_per_trick",
        "needed_by_schedule",
        "„ოქროს“ დარიგებებია",
        "раздачи вида «золотая»",
    ),
    # Issue 26: who posts which blind heads-up is a house option with two values.
    (
        "omaha",
        "standard",
        r'heads_up = "button_posts_small"',
        'heads_up = "dealer"',
        "blinds.heads_up",
        "choice",
        "აქ მოსალოდნელია ერთ-ერთი: 'button_posts_small', 'button_posts_big', და არა 'dealer'",
        "ожидается одно из значений 'button_posts_small', 'button_posts_big', а не 'dealer'",
    ),
    # The live table pays in the house's chip set: a name with no file in data/chips/ is refused.
    (
        "omaha",
        "standard",
        r'chip_set = "poker-room"',
        'chip_set = "casino"',
        "chip_set",
        "no_chip_set",
        "ჩიპების ნაკრები 'casino' არ არსებობს",
        "Набора фишек 'casino' нет",
    ),
]


CHIP_SETS = {path.stem for path in presets.data_path("chips").glob("*.toml")}


@pytest.mark.parametrize("locale", ["ka", "ru"])
def test_an_edited_copy_with_a_games_own_fault_is_refused_with_its_own_sentence(app, locale):
    """Each fault a game's rules builder finds reaches the editor as its own sentence in the page's
    language (not the general "cannot be used here"), after the key it names."""
    teacher = signed_in(app, "teacher", "instructor")
    made = teacher.post("/groups/new", data={"name": "Evening class"})
    group_id = int(made.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    teacher.post("/language", data={"lang": locale})
    with app.test_request_context(), force_locale(locale):
        general = say(PresetError("x.toml", "English", "k", code="other")).split(" ", 2)[2]
    for game, preset, old, new, key, code, ka, ru in EDITS:  # code: which sentence it is
        shipped = (BY_ID[game].rules_folder / f"{preset}.toml").read_text()
        text, replaced = re.subn(old, new, shipped, count=1)
        assert replaced == 1, (preset, old)
        page = teacher.post(f"/groups/{group_id}/rules/{game}", data={"text": text})
        alert = html.unescape(
            page.get_data(as_text=True).split('id="rules-error">', 1)[1].split("</p>", 1)[0]
        ).replace("\u00a0", " ")  # odds keep their number and unit together ("3\u00a0к\u00a01")
        assert page.status_code == 400, code
        assert f" {key}:" in alert and {"ka": ka, "ru": ru}[locale] in alert, (code, alert)
        assert general not in alert, (code, alert)
        typed = set(re.findall(r"[A-Za-z][A-Za-z'\-]{2,}", text))
        typed |= CHIP_SETS  # the names a refused chip set is offered, as their files are named
        assert {w.strip("'") for w in _visible_latin_words("<main>" + alert)} <= typed, (code, alert)
