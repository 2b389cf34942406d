"""The desk's rows of trainees written in Python (`trainee_rows`) and the readiness verdicts of
`member_cells` against what the template wrote per member: the same markup byte for byte, with
CSRF on (a token in each form) and off, for names that need escaping, accounts handed over or not,
members with and without a last activity, in each language and time zone."""

from __future__ import annotations

import pytest
from conftest import make_app
from flask import render_template_string
from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import Markup

from tests.test_desk_sql import OLD_MEMBER_CELLS
from trainer.games import GAMES
from trainer.web.core.forms import EmptyForm
from trainer.web.groups.views import item_rows, member_cells, trainee_rows

# The loop of templates/groups/desk.html before `trainee_rows`, as it was.
OLD_ROWS = (
    '{% set not_handed = _("not handed over yet") %}{% set code_word = _("Password code") %}'
    '{% set remove_word = _("Remove") %}{% set csrf %}{{ form.csrf_token }}{% endset %}'
    '{% for t in trainees %}<tr data-trainee="{{ t.username }}">\n'
    '    <th scope="row"><a href="{{ url_for(\'groups.trainee\', group_id=group.id, user_id=t.id) }}">'
    '{{ t.display_name }}</a>{% if t.unclaimed %} <span class="muted">({{ not_handed }})</span>'
    "{% endif %}</th>\n"
    "{{ member_cells[t.id] }}    <td>"
    '{{ t.last_activity|local_time(zone) if t.last_activity else "—" }}</td>\n'
    '    <td class="row-actions">\n'
    '      <form method="post" action="'
    "{{ url_for('groups.member_code', group_id=group.id, user_id=t.id) }}\">"
    '{{ csrf }}<button type="submit" class="link-button">{{ code_word }}</button></form>\n'
    '      <form method="post" action="'
    "{{ url_for('groups.remove_member', group_id=group.id, user_id=t.id) }}\">"
    '{{ csrf }}<button type="submit" class="link-button">{{ remove_word }}</button></form>\n'
    "    </td>\n"
    "  </tr>{% endfor %}"
)

APPS = {csrf: make_app(WTF_CSRF_ENABLED=csrf) for csrf in (True, False)}

names = st.text(alphabet=st.sampled_from("aZ <>&\"'ქЖ—"), min_size=1, max_size=8)
member = st.fixed_dictionaries(
    {
        "id": st.integers(1, 10**9),
        "username": names,
        "display_name": names,
        "unclaimed": st.booleans(),
        "last_activity": st.one_of(
            st.none(),
            st.sampled_from(["2026-03-29T00:30:00.000000+00:00", "2026-12-03T13:59:14.123456+00:00"]),
        ),
    }
)


@pytest.mark.parametrize("csrf", [True, False])
@settings(max_examples=25, deadline=None)
@given(
    trainees=st.lists(member, max_size=4, unique_by=lambda t: t["id"]),
    group_id=st.integers(1, 10**6),
    zone=st.sampled_from([None, "Asia/Tbilisi", "Europe/Moscow", "America/St_Johns"]),
    locale=st.sampled_from(["en", "ka", "ru"]),
)
def test_the_rows_are_what_the_template_wrote_per_member(csrf, trainees, group_id, zone, locale) -> None:
    app = APPS[csrf]
    cells = {t["id"]: Markup(f'<td data-game="x">{t["id"]} &amp;</td>\n') for t in trainees}
    with app.test_request_context("/", headers={"Accept-Language": locale}):
        form = EmptyForm()
        wanted = render_template_string(
            OLD_ROWS, trainees=trainees, member_cells=cells, group={"id": group_id}, zone=zone, form=form
        )
        got = trainee_rows(group_id, trainees, cells, zone, Markup(getattr(form, "csrf_token", "")))
    assert str(got) == wanted
    assert ('name="csrf_token"' in wanted) == (csrf and bool(trainees))


verdicts = st.one_of(
    st.fixed_dictionaries(
        {
            "status": st.sampled_from(["ready", "not_yet", "too_few"]),
            "answers": st.integers(1, 1000),
            "accuracy": st.one_of(st.floats(0, 1), st.sampled_from([0.125, 0.625, 0.955, 0.005])),
            "median_ms": st.one_of(st.floats(0, 600_000), st.sampled_from([1250.0, 1350.0, 2500.5, 1000.0])),
        }
    ),
    st.just({"status": "too_few", "answers": 0, "accuracy": None, "median_ms": None}),
)


@settings(max_examples=40, deadline=None)
@given(
    ready=st.fixed_dictionaries({g.id: verdicts for g in GAMES}),
    where=st.sampled_from(["here", "other", "none"]),
    locale=st.sampled_from(["en", "ka", "ru"]),
)
def test_each_verdict_is_what_the_macro_wrote(ready, where, locale) -> None:
    t = {"id": 7, "readiness": ready}
    practising = {7: {"where": where, "titles": {g.id: f"{g.id} rules" for g in GAMES}}}
    with APPS[False].test_request_context("/", headers={"Accept-Language": locale}):
        wanted = render_template_string(OLD_MEMBER_CELLS, t=t, games=GAMES, practising=practising)
        got = member_cells([t], practising)[7]
    assert str(got) == wanted + "\n"  # the template went on with the next cell on its next line


# The item analysis' rows of templates/groups/desk.html before `item_rows`, as they were.
OLD_ITEMS = (
    '{% set s_word = _("s") %}'
    '{% for i in items %}<tr data-kind="{{ i.kind }}" data-level="{{ i.level }}" data-mode="{{ i.mode }}">'
    '<th scope="row">{{ kind_title(i.kind) }}</th><td class="num">{{ i.level }}</td>'
    '<td>{{ i.mode_title }}</td><td class="num">{{ i.attempts }}</td>'
    '<td class="num">{{ (100 * i.accuracy)|round|int }}%</td>'
    '<td class="num">{{ (i.median_ms / 1000)|round(1) }} {{ s_word }}</td>\n'
    '    <td class="wrong-answers">{% for w in i.wrong_answers %}<span class="answer">{{ w.text }}</span>'
    " ×{{ w.count }}{% if not loop.last %}; {% endif %}{% else %}—{% endfor %}</td>\n"
    '    <td class="item-mistakes">{% for m in i.mistakes %}<span data-mistake="{{ m.mistake }}">'
    "{{ m.title }}</span> ×{{ m.count }}{% if not loop.last %}; {% endif %}{% else %}—{% endfor %}"
    "</td></tr>{% endfor %}"
)

texts = st.one_of(names, names.map(lambda t: Markup(f"<b>{t}</b>")))
item = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(["rp.qualify", "om.high", "a<b&c"]),
        "level": st.integers(1, 3),
        "mode": st.sampled_from(["practice", "sprint", 'x"y']),
        "mode_title": texts,
        "attempts": st.integers(1, 10**6),
        "accuracy": st.one_of(st.floats(0, 1), st.sampled_from([0.125, 0.625, 0.955, 0.005])),
        "median_ms": st.one_of(st.floats(0, 600_000), st.sampled_from([1250.0, 1350.0, 2500.5])),
        "wrong_answers": st.lists(
            st.fixed_dictionaries({"text": texts, "count": st.integers(1, 99)}), max_size=3
        ),
        "mistakes": st.lists(
            st.fixed_dictionaries({"mistake": names, "title": texts, "count": st.integers(1, 99)}), max_size=3
        ),
    }
)


@settings(max_examples=30, deadline=None)
@given(items=st.lists(item, max_size=4), locale=st.sampled_from(["en", "ka", "ru"]))
def test_the_item_rows_are_what_the_template_wrote(items, locale) -> None:
    def title(kind: str) -> str:
        return f"{kind} <title> & more"

    with APPS[False].test_request_context("/", headers={"Accept-Language": locale}):
        wanted = render_template_string(OLD_ITEMS, items=items, kind_title=title)
        got = item_rows(items, title)
    assert str(got) == wanted
