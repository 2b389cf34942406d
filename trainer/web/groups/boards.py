"""The group's weekly leaderboards (`GET /groups/<id>/leaderboard?week=YYYY-MM-DD`; the API's
`GET /api/v1/groups/{id}/leaderboard` gives the same rows): the best sprint of each member per drill
and level in one week, Monday to Sunday in the group's time zone (`local_time.zone_of`).

Only the group's members and its instructor see it; anyone else gets 404, as for the desk. A trainee
who hides his name (`POST /groups/leaderboard-name`, his own setting only) is a neutral label to his
groupmates, in the page and in the API alike (`board`, the one place that masks); he sees himself,
and the instructor sees everyone."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from flask import Response, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user, login_required

from trainer.store import NotFoundError
from trainer.store.boards import is_hidden, set_hidden, weekly_board
from trainer.web.core import db, local_time
from trainer.web.core.forms import EmptyForm, whole_number
from trainer.web.core.guards import check_form
from trainer.web.groups.views import bp
from trainer.web.situations.catalog import sprint_title


class BadWeek(ValueError):
    """The `week` asked for is not a date, or a week at an end of the calendar."""


def visible_group(group_id: int, user_id: int) -> dict[str, Any] | None:
    """The group if `user_id` owns it or is in it; None otherwise (the caller answers 404)."""
    try:
        group = db.groups().group(group_id)
    except NotFoundError:
        return None
    if group["owner_id"] == user_id or db.groups().is_member(group_id, user_id):
        return group
    return None


def week_of(asked: str | None, zone: str) -> date:
    """The Monday of the week holding the date `asked` (YYYY-MM-DD), else (none, or blank: spaces
    only, as the document says) of today in `zone`."""
    if asked and not asked.isspace():
        try:
            day = date.fromisoformat(asked)
        except ValueError as error:
            raise BadWeek(asked) from error
        if len(asked) != 10:
            raise BadWeek(asked)
    else:
        today = local_time.local(datetime.now(UTC), zone)
        assert today is not None
        day = today.date()
    monday = day - timedelta(days=day.weekday())
    # The page links the weeks before and after and the board reads up to the next Monday: the
    # first and last weeks of the calendar have no such weeks (an OverflowError, not a week).
    if not date.min + timedelta(days=7) <= monday <= date.max - timedelta(days=14):
        raise BadWeek(asked)
    return monday


def board(group: dict[str, Any], viewer_id: int, monday: date) -> dict[str, Any]:
    """The board as the viewer may read it: a hidden name is None (`hidden` true) unless the viewer is
    the trainee himself (`you`) or the group's instructor."""
    zone = local_time.zone_of(group)
    since = local_time.day_bound(monday, zone)
    until = local_time.day_bound(monday + timedelta(days=6), zone, end=True)
    instructor = group["owner_id"] == viewer_id
    entries = []
    for entry in weekly_board(db.store().db, int(group["id"]), since.isoformat(), until.isoformat()):
        rows = []
        for place, row in enumerate(entry["rows"], start=1):
            you = row["trainee_id"] == viewer_id
            named = you or instructor or not row["hidden"]
            rows.append(
                {
                    "place": place,
                    "name": row["display_name"] if named else None,
                    "hidden": row["hidden"],
                    "you": you,
                    "correct": row["correct"],
                    "questions": row["questions"],
                    "share": round(row["share"], 4),
                    "taken_s": row["taken_s"],
                }
            )
        entries.append({"what": entry["what"], "level": entry["level"], "rows": rows})
    return {
        "week": monday.isoformat(),
        "zone": zone,
        "since": since.isoformat(),
        "until": until.isoformat(),
        "boards": entries,
    }


@bp.get("/<int:group_id>/leaderboard")
@login_required
def leaderboard(group_id: int) -> str:
    group = visible_group(group_id, current_user.id)
    if group is None:
        abort(404, description=gettext("There is no such group."))
    try:
        monday = week_of(request.args.get("week"), local_time.zone_of(group))
    except BadWeek:
        abort(400, description=gettext("Give the week as a date, such as 2026-12-07."))
    found = board(group, current_user.id, monday)
    for entry in found["boards"]:
        entry["title"] = sprint_title(entry["what"])
    return render_template(
        "groups/leaderboard.html",
        group=group,
        found=found,
        monday=monday,
        earlier=(monday - timedelta(days=7)).isoformat(),
        later=(monday + timedelta(days=7)).isoformat(),
        instructor=group["owner_id"] == current_user.id,
        hidden=is_hidden(db.store().db, current_user.id),
        form=EmptyForm(),
    )


@bp.post("/leaderboard-name")
@login_required
def leaderboard_name() -> Response:
    """The signed-in user's own choice only: there is no user in the form."""
    check_form(EmptyForm())
    hide = request.form.get("hidden") == "1"
    set_hidden(db.store().db, current_user.id, hide)
    flash(
        gettext("Your groupmates now see “a groupmate” instead of your name on the leaderboards.")
        if hide
        else gettext("Your name is shown on your groups' leaderboards again."),
        "ok",
    )
    back = whole_number(request.form.get("group"), 18)
    if back is not None:
        return redirect(url_for("groups.leaderboard", group_id=back), code=303)
    return redirect(url_for("groups.index"), code=303)
