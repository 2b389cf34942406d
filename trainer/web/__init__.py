"""The web app: the only package that imports Flask. `create_app` is the factory."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from typing import Any

from flask import Flask

from trainer import PACKAGE, installed, shipped
from trainer.web.core import known_databases, settings, templates


def create_app(test_config: Mapping[str, Any] | None = None, *, create_database: bool = False) -> Flask:
    """Build the app. `test_config` overrides settings such as DATABASE and SECRET_KEY; without it the
    instance folder (`TRAINER_INSTANCE`, else the default) gives `config.py` and then the `TRAINER_*`
    environment variables apply (`settings`), and the instance keeps the record of its databases, so a
    missing one stops start-up (`known_databases`) unless `create_database` (`migrate`) asks for it."""
    app = Flask(
        __name__,
        instance_path=_instance_folder(test_config),
        template_folder=str(shipped("templates")),
        static_folder=str(shipped("static")),
        instance_relative_config=True,
    )
    app.jinja_options = templates.jinja_options(app.jinja_options)
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "trainer.sqlite"),
        # No form or answer comes near this; a larger body is refused with 413 before it is read.
        MAX_CONTENT_LENGTH=256 * 1024,
        SECURE_COOKIES=False,
    )
    if test_config is None:
        # Tests make throwaway databases by the thousand and keep no record unless they give one.
        app.config["DATABASE_RECORD"] = os.path.join(app.instance_path, known_databases.RECORD_NAME)
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_mapping(settings.from_environment())
    else:
        app.config.from_mapping(test_config)
    app.config["CREATE_DATABASE"] = create_database
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = settings.instance_secret(app.instance_path)
    # A folder that cannot be made is reported where it matters: the database's opening logs it and
    # the pages that need the store answer 503 (the secret, above, stops start-up with a message).
    with contextlib.suppress(OSError):
        os.makedirs(app.instance_path, exist_ok=True)

    from trainer.web.core import row_ids

    row_ids.init_app(app)

    from trainer.web.site import init_api, init_pages

    init_pages(app)

    from trainer.web.core import assets

    assets.init_app(app)

    from trainer.web.core import messages

    init_api(app)
    app.cli.add_command(messages.cli)

    from trainer.web.core import cli

    cli.init_app(app)

    from trainer.web.core import security

    security.init_app(app)

    # Pages, styles, scripts and JSON go compressed to a browser that asks for it (a page was 45-63 KiB
    # on a phone's connection); small responses are left as they are.
    from flask_compress import Compress

    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)
    app.config.setdefault(
        "COMPRESS_MIMETYPES",
        [
            "text/html",
            "text/css",
            "text/javascript",
            "application/javascript",
            "application/json",
            "image/svg+xml",
            "text/csv",
            "application/manifest+json",
        ],
    )
    Compress(app)

    @app.after_request  # registered after Compress's hook, so it runs before it
    def _static_compressible(response: Any) -> Any:
        # Static files are sent as a file stream, which Compress leaves alone; styles and scripts are
        # small enough to read whole (make_sequence), so they are compressed too.
        from flask import request

        if request.endpoint == "static" and response.status_code == 200 and response.is_streamed:
            response.direct_passthrough = False
            response.make_sequence()
        return response

    return app


def _instance_folder(test_config: Mapping[str, Any] | None) -> str | None:
    chosen = os.environ.get("TRAINER_INSTANCE", "").strip() if test_config is None else ""
    if chosen:
        return os.path.abspath(chosen)
    # A source checkout keeps its database in instance/; an installed wheel in Flask's default
    # instance folder (<prefix>/var/trainer.web-instance), never inside site-packages.
    return None if installed() else str(PACKAGE.parent / "instance")
