"""`python3 -m trainer`: run the app (waitress, several worker processes) or prepare its database.

    python3 -m trainer                      # serve on http://127.0.0.1:5000/ (same as `serve`)
    python3 -m trainer serve --host 0.0.0.0 --port 8000 --workers 4 --threads 8
    python3 -m trainer migrate              # create or migrate the database, then exit
    python3 -m trainer backup /srv/backups/class-2026-12-01.sqlite   # a consistent copy, while serving
    python3 -m trainer --help

Configuration comes from `TRAINER_*` environment variables, listed once in `trainer.web.core.settings.TABLE`
(rendered into `--help` and docs/running-a-school.md).
"""

from __future__ import annotations

import argparse
import sys

from trainer.web.core.server import DEFAULT_HOST, DEFAULT_PORT, DEFAULT_THREADS, default_workers
from trainer.web.core.settings import epilog

DESCRIPTION = (
    "Croupier Trainer: drills for casino croupier trainees (Flask app on SQLite). Without a command it "
    "serves, as `serve` does with its defaults."
)
EPILOG = epilog()  # from settings.TABLE, the one list of the environment variables


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {value}")
    return value


def parser() -> argparse.ArgumentParser:
    main = argparse.ArgumentParser(
        prog="python3 -m trainer",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = main.add_subparsers(dest="command", metavar="{serve,migrate,backup}")
    serve = commands.add_parser(
        "serve",
        help="run the app with waitress (the default command)",
        description="Run the app with waitress in several worker processes. The database is created and "
        "migrated once, before the workers start.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_serve_options(serve)
    commands.add_parser(
        "migrate",
        help="create or migrate the database, then exit",
        description="Create the database file if it is missing and apply pending migrations. Once an "
        "instance has run on a database, `serve` refuses a missing one (exit 2): this command is how an "
        "empty one is made on purpose.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    copy = commands.add_parser(
        "backup",
        help="copy the database into a new file, safely while the server runs",
        description="Copy the database (TRAINER_DATABASE) into a new file with SQLite's online backup: "
        "one consistent moment even while trainees answer. The copy is checked with "
        "PRAGMA integrity_check; an existing file is never overwritten.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    copy.add_argument("target", help="the new file, e.g. /srv/backups/class-2026-12-01.sqlite")
    add_serve_options(main, suppress=True)
    return main


def add_serve_options(target: argparse.ArgumentParser, *, suppress: bool = False) -> None:
    # The top-level parser takes the same options (hidden) so `python3 -m trainer --port 8000` serves.
    def helped(text: str) -> str:
        return argparse.SUPPRESS if suppress else text

    target.add_argument(
        "--host", default=DEFAULT_HOST, help=helped("address to listen on (default %(default)s)")
    )
    target.add_argument(
        "--port", type=_port, default=DEFAULT_PORT, help=helped("port to listen on (default %(default)s)")
    )
    target.add_argument(
        "--workers",
        type=_positive,
        default=default_workers(),
        help=helped("worker processes (default %(default)s: one per core, 2 to 8)"),
    )
    target.add_argument(
        "--threads",
        type=_positive,
        default=DEFAULT_THREADS,
        help=helped("threads per worker (default %(default)s)"),
    )


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    from trainer.web import create_app
    from trainer.web.core.settings import SettingError

    try:
        # Migrates the database once, here, before any worker starts; only `migrate` creates a missing
        # database once this instance has had one.
        app = create_app(create_database=args.command == "migrate")
    except SettingError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.command == "backup":
        return _backup(app.config["DATABASE"], args.target)
    if args.command == "migrate":
        if not app.extensions["trainer_db"]["ready"]:
            print(
                f"error: the database {app.config['DATABASE']} cannot be opened (see above)", file=sys.stderr
            )
            return 1
        print(f"database ready: {app.config['DATABASE']}")
        return 0
    from trainer.web.core.server import serve

    print(
        f"Croupier Trainer on http://{args.host}:{args.port}/ "
        f"({args.workers} workers x {args.threads} threads; database {app.config['DATABASE']})",
        flush=True,
    )
    serve(app, args.host, args.port, args.workers, args.threads)
    return 0


def _backup(database: str, target: str) -> int:
    import sqlite3

    from trainer.store import backup

    try:
        integrity = backup(database, target)
    except (OSError, sqlite3.Error) as error:
        print(f"error: no backup of {database} into {target}: {error}", file=sys.stderr)
        return 1
    if integrity != "ok":
        print(f"error: the copy {target} fails PRAGMA integrity_check: {integrity}", file=sys.stderr)
        return 1
    print(f"backed up {database} into {target} (integrity_check ok)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
