"""Documentation that cannot drift: every registered drill kind and every API route is in the README."""

import re
from pathlib import Path

from api_helpers import make_api_app

from trainer.drills import REGISTRY

README = Path(__file__).resolve().parents[1] / "README.md"


def _section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, flags=re.M | re.S)
    assert match, f"README has no '## {title}' section"
    return match.group(1)


def test_every_drill_kind_is_in_the_readme_drill_list():
    listed = set(re.findall(r"^\| `([a-z]+\.[a-z_]+)` \|", _section("Drills"), flags=re.M))
    missing = sorted(set(REGISTRY) - listed)
    assert not missing, f"drill kinds missing from the README's list of drills: {missing}"


def test_every_api_route_is_in_the_readme(tmp_path):
    section = _section("JSON API")
    app = make_api_app(tmp_path)
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith("api."):
            path = re.sub(r"<(?:\w+:)?(\w+)>", "<id>", rule.rule)
            assert f"{path}`" in section or f"{path} " in section, f"{rule.rule} is not in the README"
