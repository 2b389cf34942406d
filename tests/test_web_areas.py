"""The web by area, as docs/architecture.md draws it: an area's modules import `core/` and
`situations/` only (its `api.py` also the API's shared part, `api/`), `situations/` imports `core/`
alone, `core/` no area, and the one module an area reads of another is `practice/records.py` (a
trainee's record, read by the desk and the API). Read from the code's imports (`ast`), nothing run."""

import ast
from pathlib import Path

WEB = Path(__file__).resolve().parent.parent / "trainer" / "web"
AREAS = sorted(p.name for p in WEB.iterdir() if (p / "__init__.py").exists())
SHARED = {"core", "situations"}
READ_BY_OTHERS = {"trainer.web.practice.records"}  # the documented exception


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


def _areas_imported(path: Path, own: str) -> set[str]:
    """The other areas `path` imports, leaving out the documented exception."""
    areas = set()
    for module in _imports(path) - READ_BY_OTHERS:
        parts = module.split(".")
        if parts[:2] == ["trainer", "web"] and len(parts) > 2 and parts[2] in AREAS and parts[2] != own:
            if module == "trainer.web.practice" and READ_BY_OTHERS & _imports(path):
                continue  # `from trainer.web.practice import records`
            areas.add(parts[2])
    return areas


def test_the_areas_are_the_documented_ones():
    assert AREAS == [
        "accounts", "api", "core", "groups", "live", "practice", "quizzes", "reference", "situations", "table"
    ]  # fmt: skip


def test_each_area_imports_only_the_shared_ground():
    wrong = []
    for area in AREAS:
        allowed = {"core": set(), "situations": {"core"}}.get(area, SHARED)
        for path in sorted((WEB / area).rglob("*.py")):
            extra = _areas_imported(path, area) - allowed - ({"api"} if path.name == "api.py" else set())
            if extra:
                wrong.append((path.relative_to(WEB).as_posix(), sorted(extra)))
    assert not wrong, wrong


def test_the_check_sees_an_import_of_another_area(tmp_path):
    # The scan must catch what it forbids: a page module reaching into another area.
    module = tmp_path / "views.py"
    module.write_text("from trainer.web.groups import views\nfrom trainer.web.practice import records\n")
    assert _areas_imported(module, "quizzes") == {"groups"}
