"""Groups and the instructor's desk.

- `/groups/`: a trainee's groups, joining with a code, leaving a group, and which group he practises
  for (its house rules then grade his drills); an instructor's own groups and a form to make one.
  Joining is the trainee's act only: no page or API call puts someone else in a group.
- `/groups/<id>`: the desk of one group, for its owner only (anyone else gets 404, as if it did not
  exist): members with readiness per game and last activity, the heat map of trainees x drill kinds,
  item analysis, the group's most frequent mistakes, table tests; settings (house rules, readiness
  targets, join code, removing a member, one-time codes to reset a trainee's password, for a
  trainee whose every group is the instructor's); CSV export of the answers and of the quiz results.
  Everything the desk shows of a trainee is what he did while in the group (`trainer.store.periods`).
- `/groups/<id>/trainees/<user id>`: one member's work (owner only), every answer of his in pages of
  `ATTEMPTS_PER_PAGE` (`?page=N`), newest first.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Iterator
from datetime import date
from decimal import Decimal
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)
from flask_babel import gettext, ngettext
from flask_login import current_user, login_required
from markupsafe import Markup, escape

from trainer.drills import REGISTRY, pace
from trainer.engine.presets import PresetError
from trainer.games import BY_ID, GAMES, Game
from trainer.store import NotFoundError, stats
from trainer.store.accounts import AccountError, Role
from trainer.store.groups import readable_answer
from trainer.store.readiness import Target
from trainer.web.core import db, local_time
from trainer.web.core.auth import accounts, instructor_required, invitations, say
from trainer.web.core.forms import EmptyForm, spreadsheet_cell
from trainer.web.core.guards import Page, check_csrf, check_form
from trainer.web.core.i18n import number_text, translate_word
from trainer.web.core.preset_refusals import say as say_preset_refusal
from trainer.web.groups import rules_form
from trainer.web.groups.forms import (
    JoinForm,
    NewGroupForm,
    PractiseForForm,
    RulesTextForm,
    TargetForm,
    group_rules_form,
)
from trainer.web.practice import records
from trainer.web.situations.answer_words import readable_items
from trainer.web.situations.catalog import game_title, kind_title
from trainer.web.situations.feedback import drill_shown

bp = Blueprint("groups", __name__, url_prefix="/groups")

DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")  # ASCII digits, as RFC 3339 (the document's "date")
ATTEMPTS_PER_PAGE = 100  # a trainee's page lists every answer, this many to a page, newest first
CSV_COLUMNS = (
    "answered_at",
    "username",
    "kind",
    "level",
    "rules",
    "mode",
    "answer",
    "expected",
    "correct",
    "time_ms",
    "mistake",
)


def _owned(group_id: int) -> dict[str, Any]:
    """The group if the signed-in instructor owns it; 404 otherwise (never whose it is)."""
    try:
        return db.groups().owned_group(group_id, current_user.id)
    except NotFoundError:
        abort(404, description=gettext("There is no such group."))


def _member(group_id: int, user_id: int) -> dict[str, Any]:
    for member in db.groups().members(group_id):
        if member["id"] == user_id:
            return member
    abort(404, description=gettext("There is no such trainee in this group."))


def _owned_member(group_id: int, user_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The caller's group and one of its members: a 404 for a group not his, then for a non-member."""
    return _owned(group_id), _member(group_id, user_id)


@bp.get("/")
@login_required
def index() -> Page:
    return _render_index()


def _render_index(
    join_form: JoinForm | None = None, new_form: NewGroupForm | None = None, status: int = 200
) -> Page:
    groups = db.groups()
    page = render_template(
        "groups/index.html",
        mine=groups.of_member(current_user.id),
        assigned=db.exams().assigned_to(current_user.id),
        owned=groups.owned_by(current_user.id) if current_user.is_instructor else [],
        practising=groups.practising_for(current_user.id),
        join_form=join_form or JoinForm(formdata=None),
        new_form=new_form or NewGroupForm(formdata=None),
        form=EmptyForm(),
    )
    return (page, status) if status != 200 else page


@bp.post("/join")
@login_required
def join() -> Page:
    form = JoinForm()
    if not form.validate():
        return _render_index(join_form=form, status=400)
    try:
        group = db.groups().join(current_user.id, form.code.data)
    except AccountError as error:
        form.code.errors.append(say(error))
        return _render_index(join_form=form, status=400)
    flash(gettext("You joined %(group)s.", group=group["name"]), "ok")
    return redirect(url_for("groups.index"))


@bp.post("/<int:group_id>/leave")
@login_required
def leave(group_id: int) -> Response:
    """The trainee leaves one of his groups: its instructor no longer sees what he does from now on."""
    check_form(EmptyForm())
    groups = db.groups()
    group = db.found(groups.group, group_id)
    if group is None or not groups.remove_member(group_id, current_user.id):
        abort(404, description=gettext("There is no such group."))
    flash(
        gettext(
            "You left %(group)s. Its instructor no longer sees what you do from now on.", group=group["name"]
        ),
        "ok",
    )
    return redirect(url_for("groups.index"))


@bp.post("/practise-for")
@login_required
def practise_for() -> Response:
    form = PractiseForForm()
    check_form(form, refused=404)
    try:
        db.groups().practise_for(current_user.id, form.group.data)
    except NotFoundError:
        abort(404, description=gettext("There is no such group."))
    flash(gettext("Your practice follows the house rules of the group you chose."), "ok")
    return redirect(url_for("groups.index"))


@bp.post("/new")
@instructor_required
def new() -> Page:
    form = NewGroupForm()
    if not form.validate():
        return _render_index(new_form=form, status=400)
    try:
        group = db.groups().create(current_user.id, form.name.data)
    except AccountError as error:
        form.name.errors.append(say(error))
        return _render_index(new_form=form, status=400)
    return redirect(url_for("groups.desk", group_id=group["id"]))


# The desk ------------------------------------------------------------------------------------------


def heat(accuracy: float) -> int:
    """The heat map's band: 4 at 95% and above, 3 from 85%, 2 from 70%, else 1."""
    return 4 if accuracy >= 0.95 else 3 if accuracy >= 0.85 else 2 if accuracy >= 0.7 else 1


def heat_rows(kinds: list[str], trainees: list[dict[str, Any]]) -> dict[int, Markup]:
    """Per trainee id, his row of the heat map's cells in the order of `kinds`, as HTML: a cell per
    drill kind answered (its band, accuracy in whole per cent and the tip: answers and median time),
    a dash for the others. 7,200 cells at 200 trainees cost a tenth of a second as template loops,
    a few milliseconds written here; each message is translated once per request (the answers' one
    per count, whose plural form it chooses) and each tip written once per count and median. The
    markup is the template's, byte for byte (tests/test_desk_sql.py)."""
    # The translations are the page's own text (the template marked them safe too); the figures
    # put in are numbers, so formatting plain strings and marking the result once is the same text.
    median = gettext("median %(s)s\u00a0s")
    answers: dict[int, str] = {}
    seconds: dict[float, str] = {}  # a median's text, written for the locale once per value
    tips: dict[tuple[int, float], str] = {}
    heads = {kind: str(escape(kind)) for kind in kinds}
    empty = {kind: f'<td class="num muted" data-kind="{heads[kind]}">—</td>' for kind in kinds}
    opens = {kind: f'" tabindex="0" data-kind="{heads[kind]}">' for kind in kinds}
    rows = {}
    for t in trainees:
        mine = t["kinds"]
        parts = []
        for kind in kinds:
            c = mine.get(kind)
            if c is None:
                parts.append(empty[kind])
                continue
            n, accuracy = c["attempts"], c["accuracy"]
            s = round(c["median_ms"] / 1000, 1)
            tip = tips.get((n, s))
            if tip is None:
                if n not in answers:
                    answers[n] = ngettext("%(num)s\u00a0answer", "%(num)s\u00a0answers", n)
                if s not in seconds:
                    seconds[s] = median % {"s": number_text(s)}
                tip = tips[n, s] = answers[n] + ", " + seconds[s]
            parts.append(
                f'<td class="num heat heat-{heat(accuracy)}{opens[kind]}'
                f'{round(100 * accuracy)}%<span class="tip">{tip}</span></td>\n'
            )
        rows[int(t["id"])] = Markup("".join(parts))
    return rows


def member_cells(trainees: list[dict[str, Any]], practising: dict[int, dict[str, Any]]) -> dict[int, Markup]:
    """Per trainee id, the cells of his row on the desk between his name and his last activity: his
    readiness in each game (the verdict of `groups/readiness.html`, written here once per distinct
    status and figures: the macro called 600 times was a tenth of the desk) and the house rules he
    practises under (`practising_under`, each preset's title translated once). The markup is the
    template's, byte for byte (tests/test_desk_sql.py)."""
    # The page's own text, marked safe as the template's `_()` marks it; as in the macro, a line
    # ends after the first two words and not after the third.
    statuses = {
        "ready": f'<span class="ready ready-yes">✓ {gettext("Ready")}</span>\n',
        "not_yet": f'<span class="ready ready-no">✗ {gettext("Not yet")}</span>\n',
        "too_few": f'<span class="ready ready-few">… {gettext("Too few answers")}</span>',
    }
    s_word = gettext("s")

    def verdict(r: dict[str, Any]) -> str:
        """The macro `verdict` of groups/readiness.html, written here (tests/test_desk_sql.py)."""
        status = statuses.get(r["status"], statuses["too_few"])
        if not r["answers"]:
            return status
        # No median time when every result counted is a question passed over.
        median = "—" if r["median_ms"] is None else f"{round(r['median_ms'] / 1000, 1)} {s_word}"
        return f'{status}<span class="muted small">{round(100 * r["accuracy"])}% · {median}</span>'

    where_words = {
        "here": gettext("This group's rules"),
        "other": gettext("Another group's rules"),
        "none": gettext("The shipped rules (no group chosen)"),
    }
    verdicts: dict[tuple[Any, ...], str] = {}
    titles: dict[str, str] = {}
    rows = {}
    for t in trainees:
        parts = []
        for g in GAMES:
            r = t["readiness"][g.id]
            key = (r["status"], r["answers"], r["accuracy"], r["median_ms"])
            if key not in verdicts:
                verdicts[key] = verdict(r)
            parts.append(f'<td data-game="{g.id}" data-status="{r["status"]}">{verdicts[key]}</td>')
        p = practising[int(t["id"])]
        words = []
        for g in GAMES:
            title = p["titles"][g.id]
            if title not in titles:
                titles[title] = str(escape(translate_word(title)))
            words.append(titles[title])
        parts.append(
            f'<td data-practising="{escape(p["where"])}">{where_words.get(p["where"], where_words["none"])}'
            f'      <span class="muted practice-titles">{"; ".join(words)}</span></td>\n'
        )
        rows[int(t["id"])] = Markup("".join(parts))
    return rows


# A member id no group has, put in a URL built once and replaced by each member's id: the desk
# links three pages per member (hundreds of `url_for` calls, a tenth of the page's time).
_SOMEONE = 2**62 + 12345


def _member_url(endpoint: str, group_id: int) -> tuple[str, str]:
    """The URL of `endpoint` for any member of the group: its two parts around the member's id."""
    url = url_for(endpoint, group_id=group_id, user_id=_SOMEONE)
    before, _, after = url.partition(str(_SOMEONE))
    return str(escape(before)), str(escape(after))


def trainee_rows(
    group_id: int, trainees: list[dict[str, Any]], cells: dict[int, Markup], zone: str | None, csrf: Markup
) -> Markup:
    """The rows of the desk's table of trainees, in the order of `trainees`: his name with a link
    to his page, his `member_cells`, his last activity in the group's zone and the buttons for a
    password code and for removing him. The markup is the template's, byte for byte
    (tests/test_desk_rows.py); each link is built once for all the members and each word
    translated once."""
    page, code, remove = (
        _member_url(endpoint, group_id)
        for endpoint in ("groups.trainee", "groups.member_code", "groups.remove_member")
    )
    # The word is translated outside the f-string: Babel skips an f-string with substitutions, and
    # `messages update` dropped this message and its translations from every catalog.
    not_handed_word = escape(gettext("not handed over yet"))
    not_handed = f' <span class="muted">({not_handed_word})</span>'
    code_word, remove_word = escape(gettext("Password code")), escape(gettext("Remove"))
    parts = []
    for t in trainees:
        who = int(t["id"])
        last = t["last_activity"]
        parts.append(
            f'<tr data-trainee="{escape(t["username"])}">\n'
            f'    <th scope="row"><a href="{page[0]}{who}{page[1]}">{escape(t["display_name"])}</a>'
            f"{not_handed if t['unclaimed'] else ''}</th>\n"
            f"{cells[who]}    <td>{escape(local_time.shown(last, zone)) if last else '—'}</td>\n"
            '    <td class="row-actions">\n'
            f'      <form method="post" action="{code[0]}{who}{code[1]}">{csrf}'
            f'<button type="submit" class="link-button">{code_word}</button></form>\n'
            f'      <form method="post" action="{remove[0]}{who}{remove[1]}">{csrf}'
            f'<button type="submit" class="link-button">{remove_word}</button></form>\n'
            "    </td>\n"
            "  </tr>"
        )
    return Markup("".join(parts))


def item_rows(items: list[dict[str, Any]], kind_title: Any) -> Markup:
    """The rows of the desk's item analysis (`readable_items`): per drill kind, level and mode its
    answers, accuracy and median time, the most common wrong answers and the typical mistakes.
    The markup is the template's, byte for byte (tests/test_desk_rows.py); a hundred rows of
    nested template loops were a third of the page's rendering."""
    s_word = gettext("s")  # the page's own text, marked safe as the template's `_()` marks it
    parts = []
    for i in items:
        wrong = "; ".join(
            f'<span class="answer">{escape(w["text"])}</span> ×{escape(w["count"])}'
            for w in i["wrong_answers"]
        )
        mistakes = "; ".join(
            f'<span data-mistake="{escape(m["mistake"])}">{escape(m["title"])}</span> ×{escape(m["count"])}'
            for m in i["mistakes"]
        )
        parts.append(
            f'<tr data-kind="{escape(i["kind"])}" data-level="{escape(i["level"])}" '
            f'data-mode="{escape(i["mode"])}"><th scope="row">{escape(kind_title(i["kind"]))}</th>'
            f'<td class="num">{escape(i["level"])}</td><td>{escape(i["mode_title"])}</td>'
            f'<td class="num">{escape(i["attempts"])}</td>'
            f'<td class="num">{int(round(100 * i["accuracy"], 0))}%</td>'
            f'<td class="num">{round(i["median_ms"] / 1000, 1)} {s_word}</td>\n'
            f'    <td class="wrong-answers">{wrong or "—"}</td>\n'
            f'    <td class="item-mistakes">{mistakes or "—"}</td></tr>'
        )
    return Markup("".join(parts))


def _sorted(trainees: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    if key == "last":
        return sorted(trainees, key=lambda t: t["last_activity"] or "", reverse=True)
    if key.startswith("ready-") and key[6:] in BY_ID:
        rank = {"ready": 0, "not_yet": 1, "too_few": 2}
        return sorted(trainees, key=lambda t: rank[t["readiness"][key[6:]]["status"]])
    if key.startswith("kind-"):
        kind = key[5:]
        return sorted(trainees, key=lambda t: t["kinds"][kind]["accuracy"] if kind in t["kinds"] else 2)
    return sorted(trainees, key=lambda t: t["display_name"].casefold())


@bp.get("/<int:group_id>")
@instructor_required
def desk(group_id: int) -> Page:
    return _render_desk(group_id)


def _render_desk(
    group_id: int,
    *,
    target_form: TargetForm | None = None,
    code: dict[str, str] | None = None,
    status: int = 200,
) -> Page:
    group = _owned(group_id)
    groups = db.groups()
    report = groups.report(group_id)
    sort = request.args.get("sort", "name")
    ids = [t["id"] for t in report["trainees"]]
    results = db.tables().table_test_results(trainee_ids=ids, group_id=group_id)
    names = {t["id"]: t["display_name"] for t in report["trainees"]}
    rules = groups.rules(group_id)
    invited = invitations().of_group(group_id, current_user.id)
    practising = practising_under(group_id, report["trainees"], rules)
    form = EmptyForm()
    once_kind_title = _once(kind_title)
    page = render_template(
        "groups/desk.html",
        waiting=sum(1 for i in invited if i["status"] == "waiting"),
        group=group,
        report=report,
        trainees=_sorted(report["trainees"], sort),
        heat_rows=heat_rows(report["kinds"], report["trainees"]),
        trainee_rows=trainee_rows(
            group_id,
            _sorted(report["trainees"], sort),
            member_cells(report["trainees"], practising),
            local_time.zone_of(group),
            Markup(getattr(form, "csrf_token", "")),  # none when CSRF is off, as the template's
        ),
        sort=sort,
        items=item_rows(readable_items(groups.item_details(group_id)), once_kind_title),
        mistakes=groups.mistakes(group_id, first=10),  # the ten the page shows
        results=results,
        names=names,
        exams=db.exams().of_group(group_id),
        rules=rules,
        presets={g.id: _presets(g) for g in GAMES},
        games=GAMES,
        kind_title=once_kind_title,
        game_title=_once(game_title),
        target_form=target_form,
        code=code,
        form=form,
        zone=local_time.zone_of(group),
        zones=local_time.zone_names(),
        school_zone=gettext("The school's: %(zone)s", zone=local_time.zone_label(None)),
        own_paces=groups.paces(group_id),
        school_paces=pace.shipped_paces(),
        pace_kinds=[(kind.id, kind_title(kind)) for kind in REGISTRY.values()],
    )
    return (page, status) if status != 200 else page


def _once(title: Any) -> Any:
    """`title` (a drill kind's or game's translated title) remembered for the page: the desk names
    each kind in its heat map's head, its item analysis and its mistakes, hundreds of times."""
    known: dict[str, str] = {}

    def once(what: str) -> str:
        if what not in known:
            known[what] = title(what)
        return known[what]

    return once


def practising_under(
    group_id: int, trainees: list[dict[str, Any]], rules: dict[str, str]
) -> dict[int, dict[str, Any]]:
    """Per member, the house rules his practice follows: `where` is "here" (this group's), "other"
    (another group he chose, whose name is not shown: it may be another instructor's) or "none"
    (the shipped defaults), and `titles` the presets' titles per game id."""
    shown: dict[int, dict[str, Any]] = {}
    others: dict[int, dict[str, str]] = {}
    titles: dict[tuple[str, str], str] = {}  # each preset's title loaded once per page
    for t in trainees:
        chosen = t.get("practice_group_id")
        if chosen == group_id:
            where, presets = "here", rules
        elif chosen is not None:
            where = "other"
            presets = others.setdefault(int(chosen), db.groups().rules(int(chosen)))
        else:
            where, presets = "none", {g.id: g.default_preset for g in GAMES}
        for game_preset in presets.items():
            if game_preset not in titles:
                titles[game_preset] = _preset_title(*game_preset)
        shown[int(t["id"])] = {"where": where, "titles": {g: titles[g, p] for g, p in presets.items()}}
    return shown


def _preset_title(game_id: str, preset: str) -> str:
    try:
        return str(BY_ID[game_id].load_rules(preset).title)
    except (KeyError, PresetError, ValueError):
        return preset


def _confirm(group: dict[str, Any], what: str, url: str, member: dict[str, Any] | None = None) -> str:
    """The page that asks before an action that cannot be taken back (`what`: "remove", "code", "renew")."""
    return render_template(
        "groups/confirm.html", group=group, what=what, url=url, member=member, form=EmptyForm()
    )


@bp.post("/<int:group_id>/members/<int:user_id>/remove")
@instructor_required
def remove_member(group_id: int, user_id: int) -> Page:
    """Asks first (a page with the consequence and a button to confirm, `confirm=1`), then removes."""
    check_form(EmptyForm())
    group, member = _owned_member(group_id, user_id)
    if request.form.get("confirm") != "1":
        return _confirm(
            group, "remove", url_for("groups.remove_member", group_id=group_id, user_id=user_id), member
        )
    db.groups().remove_member(group_id, user_id)
    flash(gettext("%(username)s left the group; the answers stay his.", username=member["username"]), "ok")
    return redirect(url_for("groups.desk", group_id=group_id))


@bp.post("/<int:group_id>/members/<int:user_id>/code")
@instructor_required
def member_code(group_id: int, user_id: int) -> Page:
    """A one-time code for a member to set a new password (a reset, or the hand-over of an account
    made from a name); instructors' passwords are reset from the command line only. Only for a
    trainee whose every group is this instructor's: a code signs in as its trainee, so whoever makes
    it must answer for all of his records. Each code made is logged, and the trainee's account page
    lists it."""
    check_form(EmptyForm())
    _owned(group_id)
    member = _member(group_id, user_id)
    if accounts().user(user_id)["role"] != Role.TRAINEE:
        abort(403, description=gettext("Only a trainee's password can be reset here."))
    try:
        code = accounts().make_code(user_id, made_by=current_user.id)
    except AccountError:
        abort(
            403,
            description=gettext(
                "Only the instructor of every group this trainee is in can give him a one-time code. "
                "He can leave the other groups, or an administrator can make the code."
            ),
        )
    current_app.logger.info("One-time code made for user %s by instructor %s", user_id, current_user.id)
    return _render_desk(group_id, code={"username": member["username"], "code": code})


@bp.post("/<int:group_id>/code")
@instructor_required
def new_join_code(group_id: int) -> Page:
    """Asks first, as removing a member does: the old code stops working for everyone."""
    check_form(EmptyForm())
    group = _owned(group_id)
    if request.form.get("confirm") != "1":
        return _confirm(group, "code", url_for("groups.new_join_code", group_id=group_id))
    db.groups().new_code(group_id)
    flash(gettext("The group has a new join code; the old one no longer works."), "ok")
    return redirect(url_for("groups.desk", group_id=group_id))


@bp.post("/<int:group_id>/rules")
@instructor_required
def set_rules(group_id: int) -> Response:
    form = group_rules_form()
    check_form(form)
    _owned(group_id)
    for game in GAMES:
        field = form[f"rules_{game.id}"]
        if field.raw_data:
            db.groups().set_rules(group_id, game.id, field.data)
    flash(gettext("The group's house rules are saved. New drills use them."), "ok")
    return redirect(url_for("groups.desk", group_id=group_id))


def _presets(game: Game) -> list[tuple[str, str]]:
    """The shipped presets of the game and the signed-in instructor's own copies: (name, title)."""
    shipped = [(name, game.load_rules(name).title) for name in game.preset_names()]
    own = []
    houses = db.houses()
    for copy in db.groups().house_rules_by(current_user.id, game.id):
        name = str(copy["name"])
        try:
            title = translate_word(game.load_rules(name, houses).title)
            saved = local_time.shown(copy["created_at"], local_time.instance_zone())
            # The copy's digest name is for the machine: the instructor tells his copies by date.
            own.append((name, gettext("%(title)s: your copy of %(saved)s", title=title, saved=saved)))
        except (PresetError, ValueError):
            continue  # a copy the loader no longer accepts: not offered
    return shipped + own


@bp.route("/<int:group_id>/rules/<game_id>", methods=["GET", "POST"])
@instructor_required
def edit_rules(group_id: int, game_id: str) -> Page:
    """An edited copy of the group's house rules for one game, checked by the game's own loader:
    a form with a field per rule (`rules_form`), or, in the advanced view, the TOML text itself.
    A POST with `mode=form` is the form; any other, the text."""
    group = _owned(group_id)
    game = BY_ID.get(game_id)
    if game is None:
        abort(404, description=gettext("There are no such house rules."))
    groups = db.groups()
    houses = db.houses()
    current = groups.rules(group_id)[game.id]
    posted = request.form.get("made_of", "") if request.method == "POST" else ""
    own = {str(c["name"]) for c in groups.house_rules_by(current_user.id, game.id)}
    if posted in {*game.preset_names(), *own} and game.presets.is_preset(posted, houses):
        current = posted  # the form is read with the fields it was shown with (his rules only)
    current_text = groups.house_text(game.id, current)
    text = current_text or (game.rules_folder / f"{current}.toml").read_text()
    origin = rules_form.made_from(game, current_text, current)
    rules = rules_form.rules_of(game, game.presets.table_of(current, houses), game.presets.table_of(origin))
    form = rules_form.form_class(rules)(formdata=None)
    rules_form.fill(form, rules)
    error = None
    refused_line = None
    mode = "form"
    if request.method == "POST":
        mode = "form" if request.form.get("mode") == "form" else "text"
        if mode == "form":
            form = rules_form.form_class(rules)()
            check_csrf(form)
            if form.validate():
                text = rules_form.toml_text(rules_form.table_of_form(form, rules), origin)
            else:
                error = gettext("Some rules cannot be saved as given: see the fields marked below.")
        else:
            text_form = RulesTextForm()
            check_form(text_form)
            text = text_form.text.data
        if error is None:
            try:
                name = groups.save_house_rules(game.id, text, current_user.id)
            except AccountError as refused:
                refusal = refused.params.get("refusal")
                error = gettext("These rules cannot be used: %(detail)s", detail=say_preset_refusal(refusal))
                if mode == "form" and rules_form.place_refusal(
                    rules, refusal, say_preset_refusal(refusal, where=False)
                ):
                    error = gettext("Some rules cannot be saved as given: see the fields marked below.")
                elif mode == "text":
                    refused_line = refused_line_of(text, refusal)
            else:
                groups.set_rules(group_id, game.id, name)
                flash(gettext("The group's house rules are saved. New drills use them."), "ok")
                return redirect(url_for("groups.desk", group_id=group_id))
    if mode == "form":
        for rule in rules:
            if rule.kind not in ("pay_table", "kept"):  # a pay table's rows keep theirs, in their row
                rule.errors.extend(str(e) for e in form[rule.name].errors)
    page = render_template(
        "groups/edit_rules.html",
        group=group,
        game=game,
        text=text,
        lines=text.split("\n"),
        refused_line=refused_line,
        error=error,
        mode=mode,
        form=form,
        buttons=EmptyForm(),
        rules=rules,
        sections=rules_form.sections_of(rules),
        made_of=current,
        origin_title=_preset_title(game.id, origin),
        labels=rules_form.LABELS,
        game_title=game_title,
    )
    return (page, 400) if error else page


def refused_line_of(text: str, refusal: Any) -> int | None:
    """The line (from 1) a refusal of edited rules points at: the TOML error's line, else the line
    of the refused row in the refused key's table (or the table's header, or the line setting the
    key); None when the refusal names neither."""
    if refusal is None:
        return None
    params = getattr(refusal, "params", None) or {}
    line = params.get("line")
    if isinstance(line, int) and line > 0:
        return line
    key = getattr(refusal, "key", None)
    if not isinstance(key, str) or not key:
        return None
    row = getattr(refusal, "row", None)
    lines = [raw.strip() for raw in text.split("\n")]
    header = next((i for i, found in enumerate(lines) if found == f"[{key}]"), None)
    if header is not None:
        if isinstance(row, str) and row:
            for i in range(header + 1, len(lines)):
                if lines[i].startswith("["):
                    break
                if re.match(rf"{re.escape(row)}\s*=", lines[i]):
                    return i + 1
        return header + 1
    last = key.split(".")[-1]
    for i, found in enumerate(lines):
        if re.match(rf"{re.escape(last)}\s*=", found):
            return i + 1
    return None


@bp.post("/<int:group_id>/target")
@instructor_required
def set_target(group_id: int) -> Page:
    _owned(group_id)
    form = TargetForm()
    if not form.validate() or form.game.data not in BY_ID:
        return _render_desk(group_id, target_form=form, status=400)
    target = Target(
        accuracy=form.accuracy.data / 100,
        window=form.window.data,
        min_level=form.min_level.data,
        median_seconds=float(form.median_seconds.data or Decimal(0)),
    )
    db.groups().set_target(group_id, form.game.data, target)
    flash(gettext("The readiness target is saved."), "ok")
    return redirect(url_for("groups.desk", group_id=group_id))


# One trainee's work, and the export ---------------------------------------------------------------


@bp.get("/<int:group_id>/trainees/<int:user_id>")
@instructor_required
def trainee(group_id: int, user_id: int) -> Page:
    group, member = _owned_member(group_id, user_id)
    store = db.store()
    groups = db.groups()
    report = groups.report(group_id, trainee_id=user_id)["trainees"][0]
    total = groups.attempt_count(group_id, trainee_id=user_id)  # his time here only
    pages = max(1, -(-total // ATTEMPTS_PER_PAGE))
    raw = request.args.get("page", "1")
    number = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 7 else 0
    if not 1 <= number <= pages:
        abort(404, description=gettext("There is no such page of answers."))
    start = (number - 1) * ATTEMPTS_PER_PAGE
    attempts = groups.attempts(
        group_id, trainee_id=user_id, newest_first=True, limit=ATTEMPTS_PER_PAGE, offset=start
    )
    trend = stats.trend_by_day(store.db, user_id, group_id=group_id)
    chart = records.trend_chart(trend)
    return render_template(
        "groups/trainee.html",
        group=group,
        member=member,
        report=report,
        kinds=stats.kind_summary(store.db, user_id, group_id=group_id),
        trend=trend,
        chart=chart,
        mistakes=stats.frequent_mistakes(store.db, user_id, count=10, group_id=group_id),
        bests=stats.sprint_bests(store.db, user_id, group_id=group_id),
        results=db.tables().table_test_results(user_id, group_id=group_id),
        attempts=attempts,
        readable=readable_answer,
        paging={
            "page": number,
            "pages": pages,
            "first": start + 1,
            "last": start + len(attempts),
            "total": total,
        },
        sittings=sittings_of(group_id, user_id),
        zone=local_time.zone_of(group),
        games=GAMES,
        kind_title=kind_title,
        game_title=game_title,
    )


@bp.get("/<int:group_id>/trainees/<int:user_id>/drills/<int:drill_id>")
@instructor_required
def attempt(group_id: int, user_id: int, drill_id: int) -> Page:
    """One of the member's answered drills, drawn as he saw it, with his answer, the right one and
    the explanation."""
    group, member = _owned_member(group_id, user_id)
    drill = db.drill_or_404(drill_id, user_id)
    shown = drill_shown(drill)
    if shown["attempt"] is None or not db.groups().answered_while_member(group_id, user_id, drill_id):
        abort(404, description=gettext("There is no such question."))
    game = shown["kind"].game
    return render_template(
        "groups/attempt.html",
        group=group,
        member=member,
        **shown,
        reviewing=True,
        zone=local_time.zone_of(group),
        rules_title=translate_word(_preset_title(game, drill["rules"])) if drill["rules"] else "",
    )


def sittings_of(group_id: int, user_id: int) -> list[dict[str, Any]]:
    """The member's finished sittings of the group's quizzes, newest first, with the quiz."""
    exams = db.exams()
    found = []
    for exam in exams.of_group(group_id):
        for sitting in exams.sittings(int(exam["id"]), user_id):
            if sitting["finished_at"] is not None:
                found.append({**sitting, "exam": exam})
    return sorted(found, key=lambda s: s["finished_at"], reverse=True)


def query_day(name: str) -> date | None:
    """The query argument `name` as a day (YYYY-MM-DD); None when blank, a 400 when not a day."""
    raw = request.args.get(name, "").strip()
    if not raw:
        return None
    try:
        if not DAY.fullmatch(raw):
            raise ValueError(raw)
        return date.fromisoformat(raw)
    except ValueError:
        abort(400, description=gettext("Give dates as YYYY-MM-DD."))


def _day(name: str) -> str | None:
    day = query_day(name)
    return None if day is None else day.isoformat()


def attempts_csv(group_id: int) -> Response:
    """The members' attempts as CSV, filtered by `since`, `until` (days) and `kind` query arguments."""
    since, until, kind = _day("since"), _day("until"), request.args.get("kind") or None
    rows = db.streamed_from_groups(
        lambda groups: groups.streamed_attempts(group_id, since=since, until=until, kind=kind)
    )
    return _csv(rows, CSV_COLUMNS, f"group-{group_id}-attempts.csv")


QUIZ_CSV_COLUMNS = (
    "finished_at",
    "quiz_id",
    "quiz",
    "username",
    "sitting_id",
    "score",
    "questions",
    "question",
    "kind",
    "level",
    "rules",
    "answer",
    "expected",
    "correct",
)


def quiz_results_csv(group_id: int) -> Response:
    """The group's quiz results as CSV, a row per question of every finished sitting, filtered by
    `since`, `until` (days of the hand-in) and `kind` query arguments."""
    rows = db.exams().question_results(
        group_id, since=_day("since"), until=_day("until"), kind=request.args.get("kind") or None
    )
    return _csv(rows, QUIZ_CSV_COLUMNS, f"group-{group_id}-quiz-results.csv")


CSV_CHUNK_ROWS = 500  # rows written per piece of a streamed export


def _csv(rows: Iterable[dict[str, Any]], columns: tuple[str, ...], filename: str) -> Response:
    """The rows as a CSV download, streamed a few hundred rows at a time: the text of a long export
    is never held whole in memory, and the first bytes leave before the last row is written."""
    response = Response(stream_with_context(_csv_pieces(rows, columns)), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _csv_pieces(rows: Iterable[dict[str, Any]], columns: tuple[str, ...]) -> Iterator[str]:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(columns)
    for n, row in enumerate(rows, start=1):
        writer.writerow([spreadsheet_cell(_shown(row, c)) for c in columns])
        if n % CSV_CHUNK_ROWS == 0:
            yield out.getvalue()
            out.seek(0)
            out.truncate()
    yield out.getvalue()


def _shown(row: dict[str, Any], column: str) -> Any:
    """A row's value as the export writes it: answers as the desk shows them (yes, 1400, 2 3), not
    their stored JSON ("yes" with its quotes)."""
    value = row[column]
    return readable_answer(value) if column in ("answer", "expected") and value is not None else value


@bp.get("/<int:group_id>/attempts.csv")
@instructor_required
def export(group_id: int) -> Response:
    _owned(group_id)
    return attempts_csv(group_id)


@bp.get("/<int:group_id>/quiz-results.csv")
@instructor_required
def export_quiz_results(group_id: int) -> Response:
    _owned(group_id)
    return quiz_results_csv(group_id)
