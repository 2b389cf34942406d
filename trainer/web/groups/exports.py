"""The desk's spreadsheet exports, for the group's owner (anyone else: 404, as for the desk): the
members' answers and the quiz report, each as CSV (UTF-8 with a byte-order mark, so that a
spreadsheet on Windows reads Georgian and Cyrillic names) or as an .xlsx workbook (XlsxWriter).

Headings, answers, drills, modes and mistakes are written in the page's language as the desk words
them (`trainer.web.situations.answer_words`); times in the group's time zone
(`trainer.web.core.local_time`), the zone named in the heading. The quiz report has a row for every
member and quiz, "not taken" where he handed in no sitting. The raw exports (`attempts.csv`,
`quiz-results.csv`: stored values, UTC) stay for scripts and the API.

- `GET /groups/<id>/answers.csv`, `.../answers.xlsx`: `since`, `until` (days, in the group's time
  zone), `kind`, as the raw export.
- `GET /groups/<id>/quiz-report.csv`, `.../quiz-report.xlsx`: `kind` keeps the quizzes asking it.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from typing import Any

import xlsxwriter
from flask import Response, request, stream_with_context
from flask_babel import get_locale, gettext

from trainer.drills.mistakes import mistake_title
from trainer.games import game_of
from trainer.web.core import db, local_time
from trainer.web.core.auth import instructor_required
from trainer.web.core.forms import spreadsheet_cell
from trainer.web.groups.views import CSV_CHUNK_ROWS, _owned, bp, query_day
from trainer.web.situations.answer_words import mode_title, typed, worded_json
from trainer.web.situations.catalog import kind_title

Cells = list[Any]
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
BOM = "\ufeff"
SECONDS = "%Y-%m-%d %H:%M:%S"


def _local_day(name: str, zone: str, *, end: bool) -> str | None:
    """A `since`/`until` day in the group's zone as the UTC bound the store compares with."""
    found = query_day(name)
    if found is None:
        return None
    return local_time.day_bound(found, zone, end=end).isoformat(timespec="microseconds")


def _when(moment: str | None, zone: str) -> datetime | None:
    found = local_time.local(moment, zone)
    return None if found is None else found.replace(tzinfo=None, microsecond=0)


def _rules_title(kind: str, preset: str | None) -> str:
    game = game_of(kind)
    if game is None or not preset:
        return preset or ""
    try:
        return gettext(game.load_rules(preset).title)
    except Exception:  # a house copy this server lacks: its name still says which
        return preset


class Words:
    """The export's words, each looked up once per export (a drill's title, a mode, a preset's title,
    a mistake's name, an answer's wording): an export of 100,000 rows has a few hundred distinct ones,
    and a translation lookup costs more than writing the row."""

    def __init__(self) -> None:
        self.language = str(get_locale() or "en")
        self.seen: dict[tuple[str, Any, Any], str] = {}

    def _once(self, key: tuple[str, Any, Any], make: Callable[[], str]) -> str:
        found = self.seen.get(key)
        if found is None:
            found = self.seen[key] = make()
        return found

    def kind(self, kind: str) -> str:
        return self._once(("kind", kind, None), lambda: kind_title(kind))

    def mode(self, mode: str) -> str:
        return self._once(("mode", mode, None), lambda: mode_title(mode))

    def rules(self, kind: str, preset: str | None) -> str:
        return self._once(("rules", kind, preset), lambda: _rules_title(kind, preset))

    def mistake(self, mistake: str | None) -> str:
        if not mistake:
            return ""
        return self._once(("mistake", mistake, None), lambda: gettext(mistake_title(mistake)))

    def answer(self, fmt_json: str | None, stored: str | None) -> str:
        return worded_json(fmt_json, stored, language=self.language)


# The answers ----------------------------------------------------------------------------------------


def _answer_table(group_id: int, zone: str) -> tuple[Cells, Iterator[Cells]]:
    kind = request.args.get("kind") or None
    since = _local_day("since", zone, end=False)
    until = _local_day("until", zone, end=True)
    heads = [
        gettext("When (%(zone)s)", zone=zone),
        gettext("Trainee"),
        gettext("Username"),
        gettext("Drill"),
        gettext("Level"),
        gettext("House rules"),
        gettext("Mode"),
        gettext("Typed"),
        gettext("Answer"),
        gettext("Right answer"),
        gettext("Right"),
        gettext("Time (seconds)"),
        gettext("Mistake"),
    ]
    right, wrong = gettext("right"), gettext("not right")
    rows = db.groups().export_rows(group_id, after=since, before=until, kind=kind)
    words = Words()

    def cells() -> Iterator[Cells]:
        for r in rows:
            yield [
                _when(r["answered_at"], zone),
                r["display_name"],
                r["username"],
                words.kind(r["kind"]),
                r["level"],
                words.rules(r["kind"], r["rules"]),
                words.mode(r["mode"]),
                typed(r["raw"]),
                words.answer(r["answer_format"], r["answer"]),
                words.answer(r["answer_format"], r["expected"]),
                right if r["correct"] else wrong,
                None if r["time_ms"] is None else round(r["time_ms"] / 1000, 1),
                words.mistake(r["mistake"]),
            ]

    return heads, cells()


# The quiz report ------------------------------------------------------------------------------------


def _quiz_table(group_id: int, zone: str) -> tuple[Cells, Iterator[Cells]]:
    heads = [
        gettext("Quiz"),
        gettext("Trainee"),
        gettext("Username"),
        gettext("Started (%(zone)s)", zone=zone),
        gettext("Handed in (%(zone)s)", zone=zone),
        gettext("Score"),
        gettext("Questions"),
        gettext("Question"),
        gettext("Drill"),
        gettext("Level"),
        gettext("Answer"),
        gettext("Right answer"),
        gettext("Right"),
        gettext("Mistake"),
    ]
    rows = db.exams().report_rows(group_id, kind=request.args.get("kind") or None)
    right, wrong, absent = gettext("right"), gettext("not right"), gettext("not taken")
    words = Words()

    def cells() -> Iterator[Cells]:
        for r in rows:
            quiz = [r["quiz"], r["display_name"], r["username"]]
            if r["sitting_id"] is None:
                yield [*quiz, None, absent, None, r["questions"], None, "", None, "", "", "", ""]
                continue
            unanswered = r["answer"] is None
            yield [
                *quiz,
                _when(r["started_at"], zone),
                _when(r["finished_at"], zone),
                r["score"],
                r["questions"],
                r["question"],
                words.kind(r["kind"]),
                r["level"],
                gettext("not answered") if unanswered else words.answer(r["answer_format"], r["answer"]),
                words.answer(r["answer_format"], r["expected"]) if r["expected"] else "",
                right if r["correct"] else wrong,
                words.mistake(r["mistake"]),
            ]

    return heads, cells()


# Writing them ---------------------------------------------------------------------------------------


def _csv(heads: Cells, rows: Iterable[Cells], filename: str) -> Response:
    def pieces() -> Iterator[str]:
        out = io.StringIO()
        writer = csv.writer(out)
        out.write(BOM)
        writer.writerow(heads)
        for n, row in enumerate(rows, start=1):
            writer.writerow(
                [
                    ""
                    if v is None
                    else v.strftime(SECONDS)
                    if isinstance(v, datetime)
                    else spreadsheet_cell(v)
                    for v in row
                ]
            )
            if n % CSV_CHUNK_ROWS == 0:
                yield out.getvalue()
                out.seek(0)
                out.truncate()
        yield out.getvalue()

    response = Response(stream_with_context(pieces()), mimetype="text/csv; charset=utf-8")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _xlsx(heads: Cells, rows: Iterable[Cells], filename: str, sheet: str) -> Response:
    """A workbook of one sheet: a bold frozen heading, times as spreadsheet dates, text always as
    text (a cell starting with = is never a formula)."""
    out = io.BytesIO()
    book = xlsxwriter.Workbook(
        out, {"in_memory": True, "strings_to_formulas": False, "strings_to_urls": False}
    )
    page = book.add_worksheet(sheet[:31])
    bold = book.add_format({"bold": True})
    when = book.add_format({"num_format": "yyyy-mm-dd hh:mm:ss"})
    for c, head in enumerate(heads):
        page.write_string(0, c, head, bold)
    widths = [max(10, len(str(h)) + 2) for h in heads]
    for r, row in enumerate(rows, start=1):
        for c, value in enumerate(row):
            if value is None:
                continue
            if isinstance(value, datetime):
                page.write_datetime(r, c, value, when)
                widths[c] = max(widths[c], 19)
            elif isinstance(value, int | float) and not isinstance(value, bool):
                page.write_number(r, c, value)
            else:
                text = str(value)
                page.write_string(r, c, text)
                widths[c] = min(60, max(widths[c], len(text) + 2))
    for c, width in enumerate(widths):
        page.set_column(c, c, width)
    page.freeze_panes(1, 0)
    page.autofilter(0, 0, 0, len(heads) - 1)
    book.close()
    response = Response(out.getvalue(), mimetype=XLSX)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _export(
    group_id: int, table: Callable[[int, str], tuple[Cells, Iterator[Cells]]], name: str, form: str
) -> Response:
    group = _owned(group_id)
    heads, rows = table(group_id, local_time.zone_of(group))
    filename = f"group-{group_id}-{name}.{form}"
    if form == "xlsx":
        return _xlsx(heads, rows, filename, gettext("Answers") if name == "answers" else gettext("Quizzes"))
    return _csv(heads, rows, filename)


@bp.get("/<int:group_id>/answers.csv")
@instructor_required
def export_answers(group_id: int) -> Response:
    return _export(group_id, _answer_table, "answers", "csv")


@bp.get("/<int:group_id>/answers.xlsx")
@instructor_required
def export_answers_xlsx(group_id: int) -> Response:
    return _export(group_id, _answer_table, "answers", "xlsx")


@bp.get("/<int:group_id>/quiz-report.csv")
@instructor_required
def export_quiz_report(group_id: int) -> Response:
    return _export(group_id, _quiz_table, "quiz-report", "csv")


@bp.get("/<int:group_id>/quiz-report.xlsx")
@instructor_required
def export_quiz_report_xlsx(group_id: int) -> Response:
    return _export(group_id, _quiz_table, "quiz-report", "xlsx")
