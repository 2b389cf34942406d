"""A member whose newest results are all questions he passed over (no answer, so no time): the
desk, his page and his readiness report show his verdict with "—" for the median time, not a 500."""

import re

from accounts_helpers import signed_in
from test_groups import _make_group, _trainee


def test_a_member_with_only_questions_passed_over_has_his_verdict_on_every_page(app):
    teacher = signed_in(app, "teacher", "instructor")
    group_id, code = _make_group(teacher)
    trainee = _trainee(app, "trainee.one", code)
    # Two practice questions of one kind drawn at level 3, neither answered: the first was passed
    # over, a miss with no time, the only result of his that counts.
    for _ in range(2):
        assert trainee.post("/practice/rp.bet_payout", data={"level": 3}).status_code == 303
    desk = teacher.get(f"/groups/{group_id}")
    assert desk.status_code == 200
    page = desk.get_data(as_text=True)
    cell = re.search(r'<td data-game="russian_poker" data-status="too_few">(.*?)</td>', page, re.S).group(1)
    few = '<span class="ready ready-few">… Too few answers</span>'
    assert cell == few + '<span class="muted small">0% · —</span>'
    user_id = int(re.search(rf"/groups/{group_id}/trainees/(\d+)", page).group(1))
    for url in (f"/groups/{group_id}/trainees/{user_id}", f"/groups/{group_id}/trainees/{user_id}/readiness"):
        shown = teacher.get(url)
        assert shown.status_code == 200, url
        assert '<span class="muted small">0% · —</span>' in shown.get_data(as_text=True), url
