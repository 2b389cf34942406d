"""Days at the ends of the calendar in the instructor's filters: the answers export asked `since`
0001-01-01 or `until` 9999-12-31 in a group whose zone is ahead of or behind UTC, and the weekly
leaderboard asked for the first or last week there is. The export's bounds fell outside datetime's
range (an OverflowError and a 500); now a bound past the range is the range's end, which selects the
same answers, and a week without a week before or after it is a 400 like any week that is no week."""

import pytest
from accounts_helpers import signed_in
from test_groups import _make_group, _practise, _trainee


@pytest.mark.parametrize("zone", ["Asia/Tbilisi", "America/New_York"])
def test_the_ends_of_the_calendar_are_a_200_or_a_400_never_a_500(app, zone):
    teacher = signed_in(app, "teacher", "instructor")
    group_id, code = _make_group(teacher)
    assert teacher.post(f"/groups/{group_id}/time-zone", data={"time_zone": zone}).status_code == 302
    _practise(_trainee(app, "trainee.one", code), answer="999")
    for query in (
        {"since": "0001-01-01"},
        {"until": "9999-12-31"},
        {"since": "0001-01-01", "until": "9999-12-31"},
    ):
        csv = teacher.get(f"/groups/{group_id}/answers.csv", query_string=query)
        assert csv.status_code == 200, query
        rows = [line for line in csv.get_data(as_text=True).splitlines() if "trainee.one" in line]
        assert len(rows) == 1, query  # his one answer, as unfiltered
        assert teacher.get(f"/groups/{group_id}/answers.xlsx", query_string=query).status_code == 200
    for week in ("0001-01-01", "0001-01-07", "9999-12-31", "9999-12-20"):
        page = teacher.get(f"/groups/{group_id}/leaderboard", query_string={"week": week})
        assert page.status_code == 400, week
        assert "Give the week as a date, such as 2026-12-07." in page.get_data(as_text=True)
        assert (
            teacher.get(f"/api/v1/groups/{group_id}/leaderboard", query_string={"week": week}).status_code
            == 400
        )
    for week in ("0001-01-08", "9999-12-13"):  # the first and the last week with weeks on both sides
        assert (
            teacher.get(f"/groups/{group_id}/leaderboard", query_string={"week": week}).status_code == 200
        ), week
        assert (
            teacher.get(f"/api/v1/groups/{group_id}/leaderboard", query_string={"week": week}).status_code
            == 200
        )
