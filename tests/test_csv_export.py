"""The CSV exports are streamed a few hundred rows at a time, and give byte for byte what the export
built whole in memory gave (that function is kept here as the reference)."""

from __future__ import annotations

import csv
import io
from functools import cache
from typing import Any

from accounts_helpers import signed_in
from conftest import make_app
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.web.core import db as web_db
from trainer.web.core.forms import spreadsheet_cell
from trainer.web.groups import views as group_pages


def reference_csv(rows: list[dict[str, Any]], columns: tuple[str, ...]) -> bytes:
    """The export as it was built before it was streamed: the whole text in one string."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(columns)
    for row in rows:
        writer.writerow([spreadsheet_cell(group_pages._shown(row, c)) for c in columns])
    return out.getvalue().encode()


COLUMNS = ("username", "answer", "expected", "correct", "time_ms", "mistake")
text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)
cells = (
    st.none()
    | st.integers(-(10**6), 10**6)
    | text
    | st.sampled_from(["=1+1", "+7", "-3", "@x", "ყვავი", 'a "b"\n'])
)
answers = st.none() | st.sampled_from(['"yes"', "1400", "[2, 3]", '"=SUM(A1)"', "null"])
rows = st.lists(
    st.fixed_dictionaries(
        {
            "username": cells,
            "answer": answers,
            "expected": answers,
            "correct": cells,
            "time_ms": cells,
            "mistake": cells,
        }
    ),
    max_size=1200,
)


@cache
def _bare_app():
    return make_app(DATABASE=":memory:")


@settings(max_examples=60)
@given(rows)
def test_the_streamed_export_has_the_same_bytes(generated):
    with _bare_app().test_request_context():
        response = group_pages._csv(generated, COLUMNS, "x.csv")
        assert response.is_streamed
        assert response.get_data() == reference_csv(generated, COLUMNS)


def test_a_group_export_streams_the_same_bytes_as_before(app, monkeypatch):
    teacher = signed_in(app, "teacher", "instructor")
    made = teacher.post("/groups/new", data={"name": "Evening class"})
    group_id = int(made.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    trainees = []
    for n in range(3):
        client = signed_in(app, f"trainee{n}")
        with app.app_context():
            user = (
                web_db.store()
                .db.execute("SELECT id FROM users WHERE username = ?", [f"trainee{n}"])
                .fetchone()[0]
            )
            web_db.groups().add_member(group_id, int(user))
        trainees.append(client)
    monkeypatch.setattr(group_pages, "CSV_CHUNK_ROWS", 2)  # several pieces even for a short export
    for client in trainees:
        for answer in ("1", "2", "3"):
            made = client.post("/practice/rp.bet_payout", data={"level": 1})
            drill_id = int(made.headers["Location"].rsplit("/", 1)[1])
            client.post(f"/practice/drill/{drill_id}", data={"drill": drill_id, "answer": answer})
    exported = teacher.get(f"/groups/{group_id}/attempts.csv")
    assert exported.status_code == 200 and exported.is_streamed
    assert exported.headers["Content-Disposition"] == f'attachment; filename="group-{group_id}-attempts.csv"'
    with app.app_context():
        rows = web_db.groups().attempts(group_id)
    assert len(rows) == 9
    assert exported.get_data() == reference_csv(rows, group_pages.CSV_COLUMNS)
    # A bad filter is still refused before anything is streamed.
    assert teacher.get(f"/groups/{group_id}/attempts.csv?since=yesterday").status_code == 400
