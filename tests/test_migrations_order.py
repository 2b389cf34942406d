"""The migrations keep their names and order: a database records the names it has applied, so a
renamed, dropped or reordered step would make an existing database run it again or skip it. The
list below is the order the migrations had when they all lived in `trainer/store/schema.py`; a new
migration is added at its end (and LAST in `trainer.store.migrations.STEPS`)."""

from pathlib import Path

from trainer.store import migrations
from trainer.store.schema import MIGRATIONS, open_db

NAMES = [
    "m001_progress",
    "m002_attempt_mistakes",
    "m003_practice_cards",
    "m004_live_table",
    "m005_accounts",
    "m006_groups",
    "m007_exams",
    "m008_house_rules",
    "m009_account_sessions",
    "m010_username_skeletons",
    "m011_sign_in_failures",
    "m012_sprint_questions",
    "m013_progress_indexes",
    "m014_desk_indexes",
    "m015_live_sessions",
    "m016_group_time_zone",
    "m017_sitting_comments",
    "m018_board_names",
    "m019_group_paces",
    "m020_duels",
    "m021_invitations",
    "m022_kind_totals",
    "m023_group_answers",
    "m024_kind_median_pointer",
    "m025_group_answers_by_game",
]


def test_the_registered_migrations_are_the_old_names_in_the_old_order():
    assert [m.name for m in MIGRATIONS.pending(open_db(":memory:", migrate=False))] == NAMES


def test_a_new_database_applies_them_in_that_order():
    assert [m.name for m in MIGRATIONS.applied(open_db(":memory:"))] == NAMES


def test_every_module_of_the_package_is_a_step_named_as_its_module():
    folder = Path(migrations.__file__).parent
    modules = sorted(p.stem for p in folder.glob("m[0-9][0-9][0-9]_*.py"))
    assert [step.__name__ for step in migrations.STEPS] == modules
    assert [step.__module__ for step in migrations.STEPS] == [f"{migrations.__name__}.{m}" for m in modules]
