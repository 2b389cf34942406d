"""Groups in the JSON API: list and make groups (`GET/POST /api/v1/groups`), join with a code
(`POST /api/v1/groups/join`), leave (`DELETE /api/v1/groups/{id}/membership`), a group's report
(`GET /api/v1/groups/{id}/report`), its attempts as
CSV (`GET /api/v1/groups/{id}/attempts.csv`), its assigned quizzes with their results
(`GET /api/v1/groups/{id}/quizzes`), its weekly leaderboard (`GET /api/v1/groups/{id}/leaderboard`,
for its members too), the quizzes' questions (`.../quiz-results.csv`) and one
member's page (`GET /api/v1/groups/{id}/trainees/{user id}`). The
caller must be signed in (bearer token or session); a group that is not the caller's own is a 404, as
if it did not exist. What the owner reads of a member is what he did while in the group."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import jsonify, request, url_for
from flask.typing import ResponseReturnValue

from trainer.store import NotFoundError, stats
from trainer.store.accounts import AccountError
from trainer.store.groups import NAME_MAX
from trainer.web.api import schemas
from trainer.web.api.document import CSV, SIGNED_IN, View, operation, query
from trainer.web.api.shared import bp, fail, signed_in
from trainer.web.core import auth, db, local_time
from trainer.web.groups.boards import BadWeek, board, visible_group, week_of
from trainer.web.groups.views import attempts_csv, quiz_results_csv, sittings_of

# A blank day is no limit (the desk's export form sends the fields it leaves empty).
_DAY = {
    "anyOf": [
        # The pattern as well: a schema check does not enforce `format`, and the server refuses any
        # other text (a byte-order mark was valid by the document alone).
        {"type": "string", "format": "date", "pattern": r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
        {"type": "string", "pattern": r"^[ \t\n\r\f\v]*$"},  # \s may be generated as other characters
    ],
    "examples": ["2026-12-01"],
}
_KIND = query("kind", {"type": "string"})
_CSV_REFUSED = {400: "A date that is not YYYY-MM-DD.", 404: "No such group of the caller's."}


def _csv_filters(day: str) -> tuple[dict[str, Any], ...]:
    """A CSV export's filters: the first and the last `day` (blank: no limit) and the drill kind."""
    return (
        query("since", _DAY, f"First {day} (UTC); blank: no limit."),
        query("until", _DAY, f"Last {day} (UTC); blank: no limit."),
        _KIND,
    )


def _csv_operation(
    op_id: str, summary: str, *, day: str, columns: str, **details: Any
) -> Callable[[View], View]:
    """`operation` for one of a group's CSV exports, for its owner: filtered by the first and the last
    `day` and the kind (`_csv_filters`), `columns` its header row."""
    return operation(
        op_id,
        "Groups",
        summary,
        security=SIGNED_IN,
        query=_csv_filters(day),
        responses={200: (CSV, columns), **_CSV_REFUSED},
        **details,
    )


def _group_json(row: dict[str, Any], *, owner: bool) -> dict[str, Any]:
    found = {"id": row["id"], "name": row["name"], "created_at": row["created_at"]}
    if owner:
        found["join_code"] = row["join_code"]
        found["members"] = len(db.groups().members(int(row["id"])))
    return found


def _owned(group_id: int, user: auth.Account) -> dict[str, Any]:
    try:
        return db.groups().owned_group(group_id, user.id)
    except NotFoundError:
        fail(404, f"You have no group {group_id}.")


@bp.get("/groups")
@operation(
    "listGroups",
    "Groups",
    "The caller's groups: those he owns (instructors) and those he is in.",
    security=SIGNED_IN,
    responses={200: (schemas.Groups, "The groups.")},
)
def list_groups() -> ResponseReturnValue:
    """The groups the caller owns (instructors) and the groups he is in, and the one he practises for."""
    user = signed_in()
    groups = db.groups()
    practising = groups.practising_for(user.id)
    return jsonify(
        owned=[_group_json(g, owner=True) for g in groups.owned_by(user.id)],
        member_of=[_group_json(g, owner=False) for g in groups.of_member(user.id)],
        practising_for=None if practising is None else practising["id"],
    )


@bp.post("/groups")
@operation(
    "createGroup",
    "Groups",
    "Make a group (instructors only); it gets a join code.",
    body=schemas.NewGroup,
    security=SIGNED_IN,
    location=True,
    responses={
        201: (schemas.Group, "The group with its join code; Location is its report."),
        400: "Bad JSON or a missing or too long name.",
        403: "The caller is not an instructor.",
    },
)
def create_group(body: schemas.NewGroup) -> ResponseReturnValue:
    user = signed_in()
    if not user.is_instructor:
        fail(403, "Only instructors make groups.")
    try:
        group = db.groups().create(user.id, body.name)
    except AccountError as error:
        fail(
            400,
            f"Give the group a name of at most {NAME_MAX} characters."
            if "name" in error.reason
            else str(error),
        )
    response = jsonify(_group_json(group, owner=True))
    response.status_code = 201
    response.headers["Location"] = url_for("api.group_report", group_id=group["id"])
    return response


@bp.post("/groups/join")
@operation(
    "joinGroup",
    "Groups",
    "Join a group with its code (the first group joined is the one practised for).",
    body=schemas.JoinGroup,
    security=SIGNED_IN,
    responses={
        200: (schemas.Group, "The group joined (joining twice changes nothing)."),
        400: "Bad JSON.",
        404: "No group has this code.",
    },
)
def join_group(body: schemas.JoinGroup) -> ResponseReturnValue:
    """Join with a code; the first group joined becomes the one the caller practises for."""
    user = signed_in()
    try:
        group = db.groups().join(user.id, body.code)
    except AccountError:
        fail(404, "There is no group with this code.")
    return jsonify(_group_json(group, owner=False))


@bp.delete("/groups/<int:group_id>/membership")
@operation(
    "leaveGroup",
    "Groups",
    "Leave a group: its instructor no longer sees what the caller does from now on.",
    description="Only the member himself joins (with the code) and leaves; what he did while in the group "
    "stays in its records.",
    security=SIGNED_IN,
    responses={204: (None, "Left the group."), 404: "The caller is not in this group."},
)
def leave_group(group_id: int) -> ResponseReturnValue:
    """Leave one of the caller's groups (only the member himself leaves, as only he joins)."""
    user = signed_in()
    if not db.groups().remove_member(group_id, user.id):
        fail(404, f"You are not in group {group_id}.")
    return "", 204


@bp.get("/groups/<int:group_id>/report")
@operation(
    "groupReport",
    "Groups",
    "Per trainee and drill kind: attempts, correct, median_ms; readiness per game.",
    description="Of each member, only what he did while in the group.",
    security=SIGNED_IN,
    responses={
        200: (schemas.GroupReport, "The report (the group's owner only)."),
        404: "No such group of the caller's.",
    },
)
def group_report(group_id: int) -> ResponseReturnValue:
    """Per trainee and drill kind: attempts, correct, median_ms; readiness per game; last activity;
    the item analysis per drill kind (as the desk shows it)."""
    user = signed_in()
    group = _owned(group_id, user)
    report = db.groups().report(group_id)
    return jsonify(
        group=_group_json(group, owner=True),
        rules=db.groups().rules(group_id),
        targets={game: target.to_json() for game, target in report["targets"].items()},
        kinds=report["kinds"],
        trainees=[
            {
                "id": t["id"],
                "username": t["username"],
                "name": t["display_name"],
                "last_activity": t["last_activity"],
                "kinds": {
                    kind: {"attempts": c["attempts"], "correct": c["correct"], "median_ms": c["median_ms"]}
                    for kind, c in t["kinds"].items()
                },
                "readiness": t["readiness"],
            }
            for t in report["trainees"]
        ],
        items=db.groups().item_analysis(group_id),
    )


@bp.get("/groups/<int:group_id>/leaderboard")
@operation(
    "groupLeaderboard",
    "Groups",
    "The group's weekly leaderboard: each member's best sprint per drill and level.",
    description="For the group's members and its instructor only. Ranked by the share of the sprint's "
    "questions answered right, then the time. A member who hides his name has `name` null to his "
    "groupmates; he and the instructor read it. The week runs Monday to Sunday in the group's time zone.",
    security=SIGNED_IN,
    query=(query("week", _DAY, "A day of the week; blank: this week."),),
    responses={
        200: (schemas.Leaderboard, "The week's boards."),
        400: "A week that is not YYYY-MM-DD.",
        404: "No such group of the caller's (neither his own nor one he is in).",
    },
)
def group_leaderboard(group_id: int) -> ResponseReturnValue:
    """The week's boards as the caller may read them (hidden names masked)."""
    user = signed_in()
    group = visible_group(group_id, user.id)
    if group is None:
        fail(404, f"You have no group {group_id}.")
    try:
        monday = week_of(request.args.get("week"), local_time.zone_of(group))
    except BadWeek:
        fail(400, "Give the week as a date, YYYY-MM-DD.")
    return jsonify(board(group, user.id, monday))


@bp.get("/groups/<int:group_id>/attempts.csv")
@_csv_operation(
    "groupAttempts",
    "The members' attempts as CSV, oldest first.",
    day="day",
    columns="answered_at, username, kind, level, rules, mode, answer, expected, correct, time_ms, mistake.",
    description="Only the attempts answered while their trainee was in the group (a former member's from "
    "his time in it).",
)
def group_attempts_csv(group_id: int) -> ResponseReturnValue:
    """The members' attempts as CSV (`since`, `until` as YYYY-MM-DD, `kind`)."""
    _owned(group_id, signed_in())
    return attempts_csv(group_id)


@bp.get("/groups/<int:group_id>/quiz-results.csv")
@_csv_operation(
    "groupQuizResults",
    "The group's quiz results as CSV: a row per question of every finished sitting.",
    day="day of hand-in",
    columns="finished_at, quiz_id, quiz, username, sitting_id, score, questions, question, kind, level, "
    "rules, answer, expected, correct.",
)
def group_quiz_results_csv(group_id: int) -> ResponseReturnValue:
    """The group's quiz results as CSV, a row per question (`since`, `until` as YYYY-MM-DD, `kind`)."""
    _owned(group_id, signed_in())
    return quiz_results_csv(group_id)


@bp.get("/groups/<int:group_id>/quizzes")
@operation(
    "groupQuizzes",
    "Groups",
    "The group's assigned quizzes as composed (drawn items, own questions, picked situations), each "
    "with every member's sittings and best score.",
    security=SIGNED_IN,
    responses={
        200: (schemas.GroupQuizzes, "The quizzes, the latest to open first (the group's owner only)."),
        404: "No such group of the caller's.",
    },
)
def group_quizzes(group_id: int) -> ResponseReturnValue:
    """The group's assigned quizzes as composed, each with every member's handed-in sittings and best
    score (the results table of the desk; the questions themselves: quiz-results.csv)."""
    _owned(group_id, signed_in())
    exams = db.exams()
    found = []
    for exam in exams.of_group(group_id):
        found.append(
            {
                "id": exam["id"],
                "title": exam["title"],
                "items": [{"kind": kind, "level": level} for kind, level in exam["items"]],
                "own": exam["own"],
                "picked": exam["picked"],
                "questions": exam["questions"],
                "time_limit_s": exam["time_limit_s"],
                "attempts_allowed": exam["attempts_allowed"],
                "same_questions": bool(exam["same_questions"]),
                "opens_at": exam["opens_at"],
                "closes_at": exam["closes_at"],
                "answers_before_close": bool(exam["answers_before_close"]),
                "is_open": exam["is_open"],
                "results": [
                    {
                        "id": row["id"],
                        "username": row["username"],
                        "name": row["display_name"],
                        "best": row["best"],
                        "sittings": [
                            {
                                key: s[key]
                                for key in ("id", "started_at", "finished_at", "answered", "correct")
                            }
                            for s in row["sittings"]
                        ],
                    }
                    for row in exams.results(int(exam["id"]))
                ],
            }
        )
    return jsonify(quizzes=found)


@bp.get("/groups/<int:group_id>/trainees/<int:user_id>")
@operation(
    "groupTrainee",
    "Groups",
    "One member's work, as his page on the desk shows it.",
    description="Only what he did while in the group.",
    security=SIGNED_IN,
    responses={
        200: (schemas.GroupTrainee, "The member's work (the group's owner only)."),
        404: "No such group of the caller's, or no such member in it.",
    },
)
def group_trainee(group_id: int, user_id: int) -> ResponseReturnValue:
    """One member's work, as his page on the desk shows it: readiness, trend by day, drills weakest
    first, most frequent mistakes, sprint bests and quiz results (his answers: attempts.csv); only
    what he did while in the group."""
    _owned(group_id, signed_in())
    report = db.groups().report(group_id, trainee_id=user_id)
    member = next(iter(report["trainees"]), None)
    if member is None:
        fail(404, f"There is no trainee {user_id} in group {group_id}.")
    store_db = db.store().db
    summary = ("attempts", "correct", "accuracy", "median_ms")
    return jsonify(
        id=member["id"],
        username=member["username"],
        name=member["display_name"],
        last_activity=member["last_activity"],
        readiness=member["readiness"],
        trend=[
            {"day": d["day"], **{k: d[k] for k in summary}}
            for d in stats.trend_by_day(store_db, user_id, group_id=group_id)
        ],
        kinds=[
            {"kind": k["kind"], **{key: k[key] for key in summary}}
            for k in sorted(
                stats.kind_summary(store_db, user_id, group_id=group_id),
                key=lambda k: (k["accuracy"], k["kind"]),
            )
        ],
        mistakes=[
            {"mistake": m["mistake"], "count": m["count"], "kinds": m["kinds"]}
            for m in stats.frequent_mistakes(store_db, user_id, count=10, group_id=group_id)
        ],
        sprint_bests=[
            {key: b[key] for key in ("scope", "level", "duration_s", "correct", "answered", "questions")}
            for b in stats.sprint_bests(store_db, user_id, group_id=group_id)
        ],
        quizzes=[
            {
                "quiz_id": s["exam"]["id"],
                "title": s["exam"]["title"],
                "sitting_id": s["id"],
                "finished_at": s["finished_at"],
                "correct": s["correct"],
                "questions": s["exam"]["questions"],
            }
            for s in sittings_of(group_id, user_id)
        ],
    )
