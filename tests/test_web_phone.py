"""View tests of the phone-first question page: the short question, the rules in force, numeric
keyboards, which amount field is wrong, and what Enter with nothing chosen says."""

import re

import pytest
from werkzeug.datastructures import MultiDict

from trainer.drills import REGISTRY, AnswerError, AnswerFormat, AnswerKind, issue
from trainer.web.situations.answers import read_answer
from trainer.web.situations.questions import QUESTIONS


@pytest.fixture
def named(client):
    """A guest: practice needs no account."""
    return client


def _drill(client, kind, level=1):
    url = client.post(f"/practice/{kind}", data={"level": str(level)}).headers["Location"]
    return url, url.rsplit("/", 1)[1]


def test_every_registered_kind_has_a_short_question():
    assert set(QUESTIONS) == set(REGISTRY), "a kind without a short question asks only its title"


@pytest.mark.parametrize("lang", ["ka", "ru"])
def test_short_questions_are_translated(app, lang):
    from flask_babel import force_locale

    from trainer.web.situations.questions import short_question

    with app.test_request_context(), force_locale(lang):
        for kind_id, kind in REGISTRY.items():
            for level in kind.levels:
                data = issue(kind, level, seed=3).data
                asked = short_question(kind_id, data)
                assert asked and not re.search(r"[A-Za-z]{3,}", asked), (kind_id, asked)


def test_question_page_leads_with_the_short_question_and_keeps_the_prompt(named):
    url, _ = _drill(named, "rp.bet_payout", 2)
    page = named.get(url).get_data(as_text=True)
    assert '<h1 class="question" id="question">The player&#39;s hand beats the dealer&#39;s.' in page
    assert re.search(r'<p class="prompt" id="prompt">Ante \d+', page)  # the table in words, for readers
    assert 'aria-describedby="prompt"' in page and "The table in words" in page
    assert 'href="/reference/presets/russian-poker?preset=cis"' in page  # rules in force
    assert 'inputmode="numeric"' in page


def test_signed_amounts_get_a_sign_button(named):
    url, _ = _drill(named, "rp.settle")
    page = named.get(url).get_data(as_text=True)
    assert page.count('data-sign-for="q-amount-') == 3  # ante, bet, net
    url, _ = _drill(named, "om.pot_limit")
    assert "data-sign-for" not in named.get(url).get_data(as_text=True)


def test_an_unreadable_amount_marks_its_field(named, toys):
    url, drill = _drill(named, "toy.amounts")
    response = named.post(url, data={"drill": drill, "amount-0": "40", "amount-1": "forty"})
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert re.search(r'id="q-amount-1"[^>]*aria-invalid="true"', page, re.S)
    assert not re.search(r'id="q-amount-0"[^>]*aria-invalid', page, re.S)
    assert 'value="forty"' in page  # the input is kept


def test_a_wrong_multi_amount_answer_marks_the_wrong_field(named, toys):
    url, drill = _drill(named, "toy.amounts")
    page = named.get(url).get_data(as_text=True)
    a, b = (int(v) for v in re.findall(r'<span class="v">(\d+)</span>', page))
    named.post(url, data={"drill": drill, "amount-0": str(2 * a), "amount-1": str(2 * b + 1)})
    feedback = named.get(url).get_data(as_text=True)
    rows = dict(re.findall(r'<tr class="(field-\w+)" data-field="(\d)"', feedback))
    assert rows == {"field-right": "0", "field-wrong": "1"}


def test_enter_with_nothing_chosen_says_what_to_do(named, toys):
    url, drill = _drill(named, "toy.choice")
    response = named.post(url, data={"drill": drill})
    assert response.status_code == 400
    assert "choose one of the answers, then press Check" in response.get_data(as_text=True)
    url, drill = _drill(named, "toy.amount")
    response = named.post(url, data={"drill": drill, "answer": ""})
    assert "Type the amount first, then press Check." in response.get_data(as_text=True)


def test_bet_with_cards_ticked_asks_which_was_meant(named):
    url, drill = _drill(named, "rp.decision", 2)
    page = named.get(url).get_data(as_text=True)
    card = re.search(r'name="discard" value="(\w\w)"', page).group(1)
    response = named.post(url, data={"drill": drill, "answer": "bet", "discard": card})
    text = response.get_data(as_text=True)
    assert response.status_code == 400 and "Which did you mean?" in text
    assert re.search(rf'name="discard" value="{card}" checked', text)  # nothing lost
    assert named.post(url, data={"drill": drill, "answer": "bet"}).status_code == 302


def test_a_buy_decision_explained_rule_of_thumb_first_and_every_option_on_demand(named):
    url, drill = _drill(named, "rp.decision", 1)
    named.post(url, data={"drill": drill, "answer": "fold"})
    page = named.get(url).get_data(as_text=True)
    steps = re.findall(r"<li>(.*?)</li>", re.search(r'<ol class="steps">(.*?)</ol>', page, re.S).group(1))
    assert steps[0].startswith("Rule of thumb at this table: ") and steps[1].startswith("Best: ")
    link = re.search(r'<a id="all-options" href="([^"]+)"', page).group(1).replace("&amp;", "&")
    assert link.startswith("/reference/advisor?") and link.count("player=") == 5 and "upcard=" in link
    assert link.endswith("#options-title") and "rules=cis" in link


@pytest.mark.parametrize(
    ("kind", "prefix", "message"),
    [
        (AnswerKind.CHOICE, "", "Nothing is chosen yet: choose one of the answers, then press Check."),
        (AnswerKind.CHOICE, "q0-", "Nothing is chosen yet: choose one of the answers."),
        (AnswerKind.AMOUNT, "", "Type the amount first, then press Check."),
        (AnswerKind.AMOUNT, "q0-", "Type the amount first."),
        (AnswerKind.AMOUNTS, "", "Type an amount in every field, then press Check."),
        (AnswerKind.AMOUNTS, "q0-", "Type an amount in every field."),
    ],
)
def test_a_blank_answer_names_the_button_only_on_a_page_of_one_question(app, kind, prefix, message):
    """A page of several questions (fields `q<i>-`) is handed in, not checked: no 'press Check'."""
    fmt = AnswerFormat(kind, choices=(("bet", "Bet"), ("fold", "Fold")), labels=("Ante", "Bet"))
    with app.test_request_context(), pytest.raises(AnswerError) as refused:
        read_answer(fmt, MultiDict({f"{prefix}answer": " ", f"{prefix}amount-0": ""}), prefix)
    assert str(refused.value) == message
