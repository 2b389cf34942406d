"""`python -m trainer`: run the app on its embedded SQLite default (instance/trainer.sqlite)."""

import os

from trainer.web import create_app


def main() -> None:
    app = create_app()
    host = os.environ.get("TRAINER_HOST", "127.0.0.1")
    port = int(os.environ.get("TRAINER_PORT", "5000"))
    print(f"Croupier Trainer on http://{host}:{port}/ (database: {app.config['DATABASE']})")
    app.run(host=host, port=port)


if __name__ == "__main__":
    main()
