"""View tests of what a trainee reviews after a run: the sprint's misses and its standing against
personal bests, the same figures on the progress page, and the quiz review."""

import re

import pytest

# `toys` and `named` (a client signed in to a new trainee account) come from conftest.py.


def _start(client, length="10", seconds="90", kind="toy.amount"):
    run_url = client.post(
        "/sprint/", data={"kind": kind, "level": "1", "length": length, "seconds": seconds}
    ).headers["Location"]
    return run_url, run_url.rstrip("/").rsplit("/", 1)[1]


def _question(client, run_url):
    page = client.get(run_url).get_data(as_text=True)
    drill = re.search(r'name="drill" value="(\d+)"', page).group(1)
    ante = int(re.search(r'<span class="v">(\d+)</span>', page).group(1))
    return drill, ante


def _run(client, plan, length="10", seconds="90"):
    """Play a toy.amount sprint: "r" right, "w" wrong (answers 1), "s" skip; then the result page."""
    run_url, sprint_id = _start(client, length, seconds)
    antes = []
    for step in plan:
        drill, ante = _question(client, run_url)
        antes.append(ante)
        if step == "s":
            client.post(f"/sprint/{sprint_id}/skip", data={"drill": drill})
        else:
            answer = 2 * ante if step == "r" else 1
            client.post(f"/sprint/{sprint_id}/answer", data={"drill": drill, "answer": str(answer)})
    if len(plan) < int(length):
        from clock_helpers import sprint_clock_ahead

        with pytest.MonkeyPatch.context() as patch:
            sprint_clock_ahead(patch, int(seconds) + 1)
            client.post(f"/sprint/{sprint_id}/finish")
    return client.get(f"/sprint/{sprint_id}/result").get_data(as_text=True), antes


def _misses(page):
    return re.findall(r'<li class="panel" data-missed="(\w+)" data-kind="([\w.]+)">', page)


def test_the_sprint_result_lists_every_miss_with_the_table_the_answers_and_why(named, toys):
    page, antes = _run(named, "rwsrrrwrrr")
    assert 'id="sprint-score">7 / 10<' in page
    assert _misses(page) == [("wrong", "toy.amount"), ("unanswered", "toy.amount"), ("wrong", "toy.amount")]
    listed = page[page.index('id="misses"') :]
    for i in (1, 2, 6):  # each missed question's table, the right answer and the explanation
        assert f'<span class="v">{antes[i]}</span>' in listed
        assert f"<strong>{2 * antes[i]}</strong>" in listed
        assert f"Bet = 2 x {antes[i]}." in listed
    assert listed.count("Your answer: <strong>1</strong>") == 2  # the answer given, where one was
    assert "Not answered: skipped, or the time ran out." in listed


def test_a_sprint_without_misses_says_so(named, toys):
    page, _ = _run(named, "r" * 10)
    assert 'id="misses"' not in page and 'id="no-misses"' in page


def test_a_first_sprint_cut_short_by_the_clock_is_no_personal_best(named, toys):
    page, _ = _run(named, "rr")  # the clock ran out after 2 of 10
    assert 'id="sprint-score">2 / 10<' in page
    assert "New personal best!" not in page and "Your first sprint of this drill" in page
    assert len(_misses(page)) == 1  # the question open when the time ran out; the rest were never asked
    page, _ = _run(named, "rrr")  # cut short again, but one more right than the mark
    assert "New personal best!" in page


def test_personal_bests_are_beaten_only_by_a_better_run(named, toys):
    first, _ = _run(named, "rrrw" + "s" * 6)
    assert "New personal best!" not in first
    worse, _ = _run(named, "rrww" + "s" * 6)
    assert "New personal best!" not in worse and "Your best: 3 / 10 right (4 answered)." in worse
    tie_more_wrong, _ = _run(named, "rrrww" + "s" * 5)
    assert "New personal best!" not in tie_more_wrong
    better, _ = _run(named, "rrrr" + "s" * 6)
    assert "New personal best!" in better


def test_the_progress_page_shows_a_best_with_the_result_pages_figures(named, toys):
    page, _ = _run(named, "rrrrrrrw" + "s" * 2)
    assert 'id="sprint-score">7 / 10<' in page
    progress = named.get("/progress/").get_data(as_text=True)
    bests = progress[progress.index("Sprint personal bests") :]
    assert '<td class="num">7 / 10</td>' in bests and "7 / 8" not in bests


def _hand_in_quiz(client, game="russian_poker"):
    """Start the game's quiz and hand it in with a readable answer to every question."""
    client.post(f"/quiz/{game}/start")
    quiz = client.get(f"/quiz/{game}").get_data(as_text=True)
    ids = re.findall(r'name="drill" value="(\d+)"', quiz)
    answers = {"drill": ids, **{f"q{i}-answer": "0" for i in range(len(ids))}}
    answers.update({f"q{i}-amount-{j}": "0" for i in range(len(ids)) for j in range(12)})
    for i in range(len(ids)):
        choice = re.search(rf'name="q{i}-answer" value="([^"]+)"', quiz)
        if choice:
            answers[f"q{i}-answer"] = choice.group(1)
    return quiz, client.post(f"/quiz/{game}", data=answers)


def test_a_quiz_review_has_no_time_taken(named):
    _quiz, review = _hand_in_quiz(named)
    assert review.status_code == 200
    text = review.get_data(as_text=True)
    assert "Expected answer:" in text and "Time taken" not in text


@pytest.fixture
def five_amount_drills():
    """Five toy amount drills (game "toy"), so an order of five drills can be asked for."""
    import dataclasses

    from web_toys import TOYS

    from trainer.drills import REGISTRY

    kinds = [dataclasses.replace(TOYS[0], id=f"toy.n{i}", title=f"Toy {i}") for i in range(5)]
    for kind in kinds:
        REGISTRY[kind.id] = kind
    try:
        yield [kind.id for kind in kinds]
    finally:
        for kind in kinds:
            REGISTRY.pop(kind.id, None)


def _answer(client, kind, right):
    url = client.post(f"/practice/{kind}", data={"level": "1"}).headers["Location"]
    page = client.get(url).get_data(as_text=True)
    ante = int(re.search(r'<span class="v">(\d+)</span>', page).group(1))
    client.post(url, data={"drill": url.rsplit("/", 1)[1], "answer": str(2 * ante if right else 1)})


def _recommended(client):
    page = client.get("/").get_data(as_text=True)
    listed = page[page.index('id="recommended"') : page.index("</ol>", page.index('id="recommended"'))]
    return re.findall(r'<li data-kind="([\w.]+)">', listed), listed


def test_practise_these_next_puts_drills_answered_wrong_once_before_a_strong_drill(named, five_amount_drills):
    strong, *once = five_amount_drills
    for right in [True] * 9 + [False] * 2:  # 82 %
        _answer(named, strong, right)
    for kind in once:  # 0 %, one answer each: too few to call weak before, so the 82 % drill led
        _answer(named, kind, False)
    kinds, listed = _recommended(named)
    assert len(kinds) == 3 and strong not in kinds and set(kinds) <= set(once)
    assert listed.count("(0 of 1 right) too few answers to be sure") == 3
    today = named.get("/today/").get_data(as_text=True)  # today's queue agrees: the missed drills first
    queue = re.findall(r'<li data-kind="([\w.]+)"', today[today.index('id="queue"') :])
    assert queue[-1] == strong and set(queue[:4]) == set(once), queue


def test_practise_these_next_ranks_by_what_the_answers_show_for_sure(named, five_amount_drills):
    a, b, c, d, _new = five_amount_drills
    plan = {a: [True] * 12, b: [True] * 7 + [False] * 3, c: [True], d: [False, True, True, True, True]}
    for kind, answers in plan.items():
        for right in answers:
            _answer(named, kind, right)
    kinds, listed = _recommended(named)
    # What the answers show for sure: one right answer 27 %, 4 of 5 (80 %) 44 %, 7 of 10 (70 %) 44 %
    # too but on more answers; 12 of 12 shows 82 %, sure enough to give way to a drill not practised.
    assert kinds == [c, d, b]
    assert "(1 of 1 right) too few answers to be sure" in listed and "(7 of 10 right)</span>" in listed


def test_a_new_trainee_is_pointed_to_new_drills(named, five_amount_drills):
    _answer(named, five_amount_drills[0], True)
    for _ in range(19):
        _answer(named, five_amount_drills[0], True)
    kinds, listed = _recommended(named)
    assert kinds[0] != five_amount_drills[0] and "new drill" in listed


def _answer_anything(client, kind):
    """Answer a real drill with something readable (right or not does not matter here)."""
    url = client.post(f"/practice/{kind}", data={"level": "1"}).headers["Location"]
    page = client.get(url).get_data(as_text=True)
    data = {"drill": url.rsplit("/", 1)[1], "answer": "0"}
    choice = re.search(r'name="answer" value="([^"]+)"', page)
    if choice:
        data["answer"] = choice.group(1)
    data.update({f"amount-{j}": "0" for j in range(12)})
    assert client.post(url, data=data).status_code == 302


def test_progress_groups_drills_by_game_in_the_games_order_and_links_each_to_practice(named):
    for kind in ("pp.score", "om.high", "rp.qualify", "rp.bet_payout"):
        _answer_anything(named, kind)
    page = named.get("/progress/").get_data(as_text=True)
    table = page[page.index('id="by-drill"') : page.index("</table>", page.index('id="by-drill"'))]
    assert re.findall(r'<tbody data-game="(\w+)">', table) == ["russian_poker", "omaha", "painted_poker"]
    assert re.findall(r'<tr data-kind="([\w.]+)">', table) == [
        "rp.qualify",
        "rp.bet_payout",
        "om.high",
        "pp.score",
    ]
    assert '<th scope="rowgroup" colspan="4">Russian poker</th>' in table
    assert 'href="/practice/om.high"' in table and 'aria-label="Practise ' in table


def test_levels_are_explained_where_they_are_chosen_and_no_level_looks_chosen(client, toys):
    home = client.get("/").get_data(as_text=True)
    assert (
        'id="levels-help"' in home
        and "Level 1: the common cases" in home
        and "Level 3: large amounts" in home
    )
    buttons = re.findall(r'<button type="submit" name="level" value="(\d)" class="([^"]+)"', home)
    assert buttons and {css for _level, css in buttons} == {"button level"}  # none filled as if chosen
    assert 'aria-describedby="levels-help-2"' in home
    sprint = client.get("/sprint/").get_data(as_text=True)
    assert 'id="levels-help"' in sprint and 'value="3" aria-describedby="levels-help-3"' in sprint
    start = client.get("/practice/toy.amount?level=2").get_data(as_text=True)
    assert '<p id="level-text">Level 2: odd amounts' in start
    assert 'id="levels-help"' in client.get("/table/").get_data(as_text=True)  # the live table's levels too


def _drills(app, ids):
    from trainer.store import Store, open_db

    store = Store(open_db(app.config["DATABASE"], migrate=False))
    return [store.drill(int(i)) for i in ids]


def test_a_quiz_is_drawn_afresh_from_the_games_bank_on_every_take(app, named):
    from trainer.web.practice.self_check import available

    bank = {(q["kind"], q["level"]) for q in available("omaha")}
    takes = []
    for _ in range(3):
        quiz, review = _hand_in_quiz(named, "omaha")
        assert review.status_code == 200 and 'id="quiz-score"' in review.get_data(as_text=True)
        drills = _drills(app, re.findall(r'name="drill" value="(\d+)"', quiz))
        assert len(drills) == 5 and {(d["kind"], d["level"]) for d in drills} <= bank
        takes.append([(d["kind"], d["level"], d["seed"]) for d in drills])
    assert takes[0] != takes[1] != takes[2]  # new seeds every take (and mostly other questions)
    assert "drawn from a bank of 8" in named.get("/quiz/").get_data(as_text=True)


def test_a_quiz_handed_in_with_questions_left_out_or_added_is_refused(app, named):
    named.post("/quiz/omaha/start")
    ids = re.findall(r'name="drill" value="(\d+)"', named.get("/quiz/omaha").get_data(as_text=True))
    assert named.post("/quiz/omaha", data={"drill": ids[:-1]}).status_code == 400
    assert named.post("/quiz/omaha", data={"drill": ids + ids[:1]}).status_code == 400
    assert named.post("/quiz/russian_poker", data={"drill": ids}).status_code == 400
    assert all(not d["answered"] for d in _drills(app, ids))  # nothing was recorded


def test_a_mixed_sprint_asks_the_games_drills_in_turn(app, named):
    from trainer.store import Store, open_db

    start = named.get("/sprint/").get_data(as_text=True)
    assert '<option value="omaha">Omaha: all drills mixed</option>' in start
    run_url, sprint_id = _start(named, kind="omaha", length="10")
    for _ in range(10):
        page = named.get(run_url).get_data(as_text=True)
        drill = re.search(r'name="drill" value="(\d+)"', page).group(1)
        named.post(f"/sprint/{sprint_id}/skip", data={"drill": drill})
    store = Store(open_db(app.config["DATABASE"], migrate=False))
    kinds = [d["kind"] for d in store.sprint_drills(int(sprint_id))]
    omaha = _kinds_of("omaha")
    assert len(kinds) == 10 and set(kinds) <= set(omaha)
    assert len(set(kinds)) == 10 if len(omaha) >= 10 else set(kinds) == set(omaha)  # each before a repeat
    assert store.sprint(int(sprint_id))["scope"] == "omaha/10"
    result = named.get(f"/sprint/{sprint_id}/result").get_data(as_text=True)
    assert "Sprint result: Omaha: all drills mixed" in result and 'name="kind" value="omaha"' in result
    progress = named.get("/progress/").get_data(as_text=True)  # bests show before any answer counts
    assert '<th scope="row">Omaha: all drills mixed</th>' in progress and "0 / 10" in progress
    run_url, sprint_id = _start(named, kind="om.high", length="10")  # one drill: its title says the game
    for _ in range(10):
        drill = re.search(r'name="drill" value="(\d+)"', named.get(run_url).get_data(as_text=True)).group(1)
        named.post(f"/sprint/{sprint_id}/skip", data={"drill": drill})
    assert re.search(
        r"Sprint result: [^<]+ \(Omaha\)</h1>",
        named.get(f"/sprint/{sprint_id}/result").get_data(as_text=True),
    )
    bad = named.post("/sprint/", data={"kind": "omaha", "level": "4", "length": "10", "seconds": "90"})
    assert bad.status_code == 400


def _kinds_of(game):
    from trainer.drills import REGISTRY
    from trainer.games import get

    return [k for k in get(game).kinds if k in REGISTRY]


@pytest.mark.parametrize("ante", ["abc", "0", "12.5"])
def test_a_bad_ante_on_the_cheat_sheet_is_answered_on_the_same_page(client, ante):
    response = client.get(f"/reference/payouts?ante={ante}")
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert '<p class="error-box" role="alert" id="ante-error">The ante must be a whole number' in page
    assert f'value="{ante}" class="narrow" autocomplete="off" aria-invalid="true"' in page
    assert "Ante 10 (bet 20)" in page and "Ante 100 (bet 200)" in page  # the sheet itself is still there


def test_the_bonus_table_has_both_columns_with_their_wins(client):
    page = client.get("/reference/payouts?ante=10").get_data(as_text=True)
    # Straight: 25 to 1 on five cards, 8 to 1 after a sixth card (cis.toml); a bonus of 10 wins 250 or 80.
    assert re.search(
        r"straight</th><td[^>]*>25 to 1</td><td[^>]*>8 to 1</td><td[^>]*>250</td><td[^>]*>80</td>", page
    )
    assert "Win, 6\u00a0cards" in page


def test_the_russian_poker_rules_page_works_the_rule_documents_examples_with_the_engine(client):
    page = client.get("/reference/rules/russian-poker").get_data(as_text=True)
    examples = re.findall(r'<li class="panel" id="example-(\d)">(.*?)</li>\n', page, re.S)
    assert [n for n, _ in examples] == ["1", "2", "3", "4", "5"]
    # The nets of shared/rules/russian-poker.md's worked examples: +40, +2525, +240, 0, -20.
    nets = [re.search(r"Net result: ([-\d,]+)\.", body).group(1) for _, body in examples]
    assert nets == ["40", "2,525", "240", "0", "-20"]
    assert 'data-card="Jh"' in examples[0][1] and "Ante 25, bonus 5" in examples[1][1]
    bonus = page[page.index('id="bonus-table"') :]
    assert re.search(r"straight flush</th><td[^>]*>500 to 1</td><td[^>]*>150 to 1</td>", bonus)
    assert 'id="pay-table"' in page and 'id="ranks"' in page


def test_favicon_manifest_and_service_worker(client):
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.mimetype == "image/svg+xml" and b"<svg" in icon.data
    manifest = client.get("/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    body = manifest.get_json()
    assert body["start_url"] == "/" and body["display"] == "standalone" and body["icons"][0]["sizes"] == "any"
    ka = client.get("/manifest.webmanifest", headers={"Accept-Language": "ka"}).get_json()
    assert ka["name"] != "Croupier Trainer"  # translated
    worker = client.get("/sw.js")
    script = worker.get_data(as_text=True)
    assert worker.mimetype == "text/javascript" and "no-cache" in worker.headers["Cache-Control"]
    for kept in (
        "/reference/",
        "/reference/rules/omaha",
        "/reference/payouts",
        "/offline",
    ):
        assert f'"{kept}"' in script
    assert '"/static/css/trainer.css?v=' in script  # assets under the address of their content
    for kept in re.findall(r'"(/[^"]*)"', script.split("const KEPT = ", 1)[1].split(";", 1)[0]):
        assert client.get(kept).status_code == 200, kept  # cache.addAll fails on any missing page
    home = client.get("/").get_data(as_text=True)
    assert (
        'rel="manifest" href="/manifest.webmanifest"' in home
        and 'rel="icon"' in home
        and "sw-register.js" in home
    )


def test_the_omaha_and_painted_poker_rules_pages_work_their_examples(client):
    omaha = client.get("/reference/rules/omaha").get_data(as_text=True)
    # shared/rules/omaha.md: pot 100, bet 100 -> raise to 400; pot 100, bet 50 -> 250; side pots.
    assert re.findall(r"The most he may raise to: (\d+)", omaha) == ["400", "250"]
    assert "Main pot 60, for seats 1, 2, 3" in omaha and "Side pot 60, for seats 2, 3" in omaha
    assert "Main pot 25, for seats 1, 2, 3, 4, 5" in omaha and "Side pot 20, for seats 3, 5" in omaha
    painted = client.get("/reference/rules/painted-poker").get_data(as_text=True)
    # shared/rules/painted-poker.md's scoring: exact 10 x b, pass made 5, over 1 a trick, under -10 a trick.
    assert re.findall(r"[=:] (-?\d+)\.</li>", painted)[-4:] == ["20", "5", "3", "-20"]
