"""The progress database's migrations, one module each, and the one order they run in.

`STEPS` is that order. Each migration is a function named as its module (`m001_progress` in
`m001_progress.py`), registered under that name in `MIGRATIONS` (sqlite-utils' migration set
"trainer"); a database records the names it has applied, so a name never changes and a step never
moves: a database made before runs only the steps after its last one.

To add a migration: write `mNNN_what.py` here (the next number, a function of the same name taking
the `Database`), import it below and put it LAST in `STEPS`. `tests/test_migrations_order.py` holds
the names in order; add the new one at its end there too. Never edit an applied migration: a change
to the schema is a new step. `trainer.store.schema.apply_migrations` runs the pending ones (at
start-up, once whatever the number of processes starting together).
"""

from __future__ import annotations

from sqlite_utils.migrations import Migrations

from trainer.store.migrations.m001_progress import m001_progress
from trainer.store.migrations.m002_attempt_mistakes import m002_attempt_mistakes
from trainer.store.migrations.m003_practice_cards import m003_practice_cards
from trainer.store.migrations.m004_live_table import m004_live_table
from trainer.store.migrations.m005_accounts import m005_accounts
from trainer.store.migrations.m006_groups import m006_groups
from trainer.store.migrations.m007_exams import m007_exams
from trainer.store.migrations.m008_house_rules import m008_house_rules
from trainer.store.migrations.m009_account_sessions import m009_account_sessions
from trainer.store.migrations.m010_username_skeletons import m010_username_skeletons
from trainer.store.migrations.m011_sign_in_failures import m011_sign_in_failures
from trainer.store.migrations.m012_sprint_questions import m012_sprint_questions
from trainer.store.migrations.m013_progress_indexes import m013_progress_indexes
from trainer.store.migrations.m014_desk_indexes import m014_desk_indexes
from trainer.store.migrations.m015_live_sessions import m015_live_sessions
from trainer.store.migrations.m016_group_time_zone import m016_group_time_zone
from trainer.store.migrations.m017_sitting_comments import m017_sitting_comments
from trainer.store.migrations.m018_board_names import m018_board_names
from trainer.store.migrations.m019_group_paces import m019_group_paces
from trainer.store.migrations.m020_duels import m020_duels
from trainer.store.migrations.m021_invitations import m021_invitations
from trainer.store.migrations.m022_kind_totals import m022_kind_totals
from trainer.store.migrations.m023_group_answers import m023_group_answers
from trainer.store.migrations.m024_kind_median_pointer import m024_kind_median_pointer
from trainer.store.migrations.m025_group_answers_by_game import m025_group_answers_by_game

STEPS = (
    m001_progress,
    m002_attempt_mistakes,
    m003_practice_cards,
    m004_live_table,
    m005_accounts,
    m006_groups,
    m007_exams,
    m008_house_rules,
    m009_account_sessions,
    m010_username_skeletons,
    m011_sign_in_failures,
    m012_sprint_questions,
    m013_progress_indexes,
    m014_desk_indexes,
    m015_live_sessions,
    m016_group_time_zone,
    m017_sitting_comments,
    m018_board_names,
    m019_group_paces,
    m020_duels,
    m021_invitations,
    m022_kind_totals,
    m023_group_answers,
    m024_kind_median_pointer,
    m025_group_answers_by_game,
)

MIGRATIONS = Migrations("trainer")
for _step in STEPS:
    MIGRATIONS()(_step)
