"""Packaging beyond pyproject.toml: the wheel carries the repository's top-level `data/`,
`templates/`, `static/` and `translations/` inside the package, as `trainer/data` and so on, where
`trainer.shipped()` finds them once installed. The folders stay where they are in the repository."""

from setuptools import find_packages, setup

# Each shipped folder and the files of it the wheel carries (tests/test_packaging.py checks that no
# file of these folders is left out, and that this is `trainer.SHIPPED`).
SHIPPED = {
    "data": ["**/*.toml", "**/*.json", "**/*.txt.gz", "**/*.md"],  # .txt.gz: common passwords, confusables
    "templates": ["**/*.html", "**/*.js"],
    "static": ["**/*.css", "**/*.js", "**/*.md", "**/*.svg", "**/*.png", "**/*.ico", "**/*.webmanifest"],
    "translations": ["*.pot", "*/LC_MESSAGES/*.po"],
}

setup(
    packages=[*find_packages(include=["trainer", "trainer.*"]), *(f"trainer.{f}" for f in SHIPPED)],
    package_dir={f"trainer.{f}": f for f in SHIPPED},
    package_data={
        **{f"trainer.{f}": globs for f, globs in SHIPPED.items()},
        # The advisor's draw kernel, compiled on first use (trainer/engine/russian_poker/strategy/kernel.py).
        "trainer.engine.russian_poker.strategy": ["kernel.c"],
    },
)
