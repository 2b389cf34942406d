"""The web app: the only package that imports Flask. `create_app` is the factory."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask

from trainer import PACKAGE, installed, shipped


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app. `test_config` overrides settings such as DATABASE and SECRET_KEY."""
    app = Flask(
        __name__,
        # A source checkout keeps its database in instance/; an installed wheel in Flask's default
        # instance folder (<prefix>/var/trainer.web-instance), never inside site-packages.
        instance_path=None if installed() else str(PACKAGE.parent / "instance"),
        template_folder=str(shipped("templates")),
        static_folder=str(shipped("static")),
        instance_relative_config=True,
    )
    app.config.from_mapping(
        SECRET_KEY=os.environ.get("TRAINER_SECRET_KEY") or _instance_secret(app.instance_path),
        DATABASE=os.path.join(app.instance_path, "trainer.sqlite"),
        # No form or answer comes near this; a larger body is refused with 413 before it is read.
        MAX_CONTENT_LENGTH=256 * 1024,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    os.makedirs(app.instance_path, exist_ok=True)

    from trainer.web.site import init_pages

    init_pages(app)

    from trainer.web import api, messages

    api.init_app(app)
    app.cli.add_command(messages.cli)

    from trainer.web import cli

    cli.init_app(app)

    return app


def _instance_secret(instance_path: str) -> str:
    """A secret kept in the instance folder, so sessions survive restarts without configuration."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32))
    return path.read_text().strip()
