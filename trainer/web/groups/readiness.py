"""A trainee's readiness report, printable (`/groups/<id>/trainees/<user id>/readiness`, the group's
owner only; anyone else 404, a trainee 403): what he is ready for by the group's targets, accuracy
and pace per drill kind against the target of its game, the table tests he passed, dated in the
group's time zone and signed with the instructor's name: what a school files when it sends a trainee
to the table. The page has print styles (no navigation, no buttons, black on white)."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import render_template
from flask_login import current_user

from trainer.games import GAMES, game_of
from trainer.store import stats
from trainer.web.core import db, local_time
from trainer.web.core.auth import instructor_required
from trainer.web.groups.views import Page, _owned_member, bp
from trainer.web.situations.catalog import game_title, kind_title


@bp.get("/<int:group_id>/trainees/<int:user_id>/readiness")
@instructor_required
def readiness_report(group_id: int, user_id: int) -> Page:
    group, member = _owned_member(group_id, user_id)
    groups = db.groups()
    report = groups.report(group_id, trainee_id=user_id)
    trainee = report["trainees"][0]
    targets = report["targets"]
    kinds = []
    for row in stats.kind_summary(db.store().db, user_id, group_id=group_id):
        game = game_of(row["kind"])
        target = targets.get(game.id) if game is not None else None
        kinds.append(
            {
                **row,
                "game": game.id if game is not None else None,
                "target": target,
                "accurate": target is not None and row["accuracy"] >= target.accuracy,
                "fast": target is not None and row["median_ms"] / 1000 <= target.median_seconds,
            }
        )
    order = {kind: i for i, kind in enumerate(k for g in GAMES for k in g.kinds)}
    kinds.sort(key=lambda k: order.get(k["kind"], 10**6))
    tests = [t for t in db.tables().table_test_results(user_id, group_id=group_id) if t["passed"]]
    zone = local_time.zone_of(group)
    return render_template(
        "groups/readiness_report.html",
        group=group,
        member=member,
        trainee=trainee,
        targets=targets,
        kinds=kinds,
        tests=tests,
        games=GAMES,
        game_title=game_title,
        kind_title=kind_title,
        today=local_time.shown(datetime.now(UTC), zone)[:10],
        zone=zone,
        instructor=current_user.display_name,
    )
