"""The instructor's review of a quiz sitting the trainee has not handed in: a clear 409, not a
graded-looking "0 of 2 right" with every question "Not answered" (nothing is recorded before the
hand-in) and a comment form that the comment route then refuses."""

from datetime import UTC, datetime, timedelta

from accounts_helpers import signed_in
from test_groups import _make_group, _trainee
from test_instructor_sweep import _quiz


def test_an_unfinished_sitting_has_no_review_until_it_is_handed_in(app):
    teacher = signed_in(app, "teacher", "instructor")
    group_id, code = _make_group(teacher)
    trainee = _trainee(app, "trainee.one", code)
    now = datetime.now(UTC)
    exam_id = _quiz(teacher, group_id, now - timedelta(hours=1), now + timedelta(days=1))
    started = trainee.post(f"/exams/{exam_id}/start")
    assert started.status_code == 303
    sitting_id = int(started.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    review = teacher.get(f"/exams/sittings/{sitting_id}/review")
    assert review.status_code == 409
    page = review.get_data(as_text=True)
    assert "This quiz is not handed in yet: its result shows here once it is." in page
    assert "of 2 right" not in page
    # Handed in (the quiz closes under the open sitting), the review is there.
    with app.app_context():
        from trainer.web.core import db as web_db

        web_db.store().db.execute(
            "UPDATE exams SET closes_at = ? WHERE id = ?", [(now - timedelta(minutes=1)).isoformat(), exam_id]
        )
        web_db.store().db.conn.commit()
    assert trainee.post(started.headers["Location"], data={}).status_code == 409
    review = teacher.get(f"/exams/sittings/{sitting_id}/review")
    assert review.status_code == 200 and "0 of 2 right" in review.get_data(as_text=True)
