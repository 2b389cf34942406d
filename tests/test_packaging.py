"""The shipped folders (data/, templates/, static/, translations/) are found in one place
(`trainer.shipped`) and carried by the wheel: setup.py maps each into the package, and an installed
layout is found from outside the repository."""

import ast
import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

import trainer

ROOT = Path(__file__).resolve().parents[1]


def _setup_shipped():
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [t.id for t in node.targets] == ["SHIPPED"]:
            return ast.literal_eval(node.value)
    raise AssertionError("setup.py has no SHIPPED table")


def _files(folder):
    for path in sorted((ROOT / folder).rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".mo":
            yield path.relative_to(ROOT / folder).as_posix()


def _packaged(folder, globs):
    return {
        Path(match).as_posix()
        for pattern in globs
        for match in glob.glob(pattern, root_dir=ROOT / folder, recursive=True)
        if (ROOT / folder / match).is_file()
    }


def test_setup_ships_the_folders_trainer_looks_for():
    assert tuple(_setup_shipped()) == trainer.SHIPPED


def test_every_file_of_the_shipped_folders_is_in_the_wheel():
    for folder, globs in _setup_shipped().items():
        files = set(_files(folder))
        assert files, folder
        assert files <= _packaged(folder, globs), (
            f"{folder}: not packaged: {sorted(files - _packaged(folder, globs))}"
        )


def test_a_checkout_finds_the_top_level_folders():
    assert not trainer.installed()
    for folder in trainer.SHIPPED:
        assert trainer.shipped(folder) == ROOT / folder
    from trainer.engine import presets

    assert presets.DATA_DIR == ROOT / "data"


CHECK = """
import sys
import trainer
from trainer.drills import expected_of, grade, issue
from trainer.engine.russian_poker import load_rules
from trainer.web import create_app

assert trainer.installed(), trainer.shipped("data")
assert load_rules("lunar").two_combinations
situation = issue("rp.bet_payout", 1, seed=7, rules="lunar")
assert grade(situation, str(expected_of(situation)[0])).correct
client = create_app({"DATABASE": ":memory:", "SECRET_KEY": "x", "TESTING": True}).test_client()
for url in ("/reference/presets/painted-poker", "/reference/rules/omaha", "/static/css/trainer.css"):
    assert client.get(url).status_code == 200, url
# The bundled lists the accounts read: common passwords and Unicode's confusables.
from trainer.store.common_passwords import common_passwords, is_common
from trainer.store.usernames import username_skeleton
assert is_common("password") and len(common_passwords()) > 19000
assert username_skeleton("teach1") == username_skeleton("t\u0435ach1")
# The advisor's kernel module, where the checkout has one built, is found in the installed package.
from trainer.engine.russian_poker.strategy import kernel
assert kernel.available() == (sys.argv[1] == "kernel"), sys.argv
if kernel.available():
    assert kernel._library()._name.startswith(trainer.__file__.rsplit("/", 1)[0]), kernel._library()._name
print("ok", trainer.shipped("data"))
"""


def test_an_installed_layout_is_found_from_outside_the_repository(tmp_path):
    # The wheel's layout, built as setup.py maps it: the package with each shipped folder inside it.
    site = tmp_path / "site-packages"
    shutil.copytree(ROOT / "trainer", site / "trainer", ignore=shutil.ignore_patterns("__pycache__"))
    for folder, globs in _setup_shipped().items():
        for name in _packaged(folder, globs):
            target = site / "trainer" / folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / folder / name, target)
    # the built kernel modules travel with the package (setup.py's extensions; an editable install
    # builds them beside kernel.py, where this copy takes them from)
    built = list((ROOT / "trainer/engine/russian_poker/strategy").glob("_kernel*.so"))
    kernel = "kernel" if built else "numpy"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site), "PYTHONDONTWRITEBYTECODE": "1"}
    result = subprocess.run(
        [sys.executable, "-c", CHECK, kernel],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == f"ok {site / 'trainer' / 'data'}"
