"""Documentation that cannot drift: every registered drill kind and every API route is in the docs."""

import re

from api_helpers import make_api_app
from docs_pages import section as _section

from trainer.drills import REGISTRY


def test_every_drill_kind_is_in_the_readme_drill_list():
    listed = set(re.findall(r"^\| `([a-z]+\.[a-z_]+)` \|", _section("Drills"), flags=re.M))
    missing = sorted(set(REGISTRY) - listed)
    assert not missing, f"drill kinds missing from the docs' list of drills (docs/trainees.md): {missing}"


def test_every_api_route_is_in_the_readme(tmp_path):
    section = _section("JSON API")
    app = make_api_app(tmp_path)
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith("api."):
            path = re.sub(r"<(?:\w+:)?(\w+)>", "<id>", rule.rule)
            assert f"{path}`" in section or f"{path} " in section, f"{rule.rule} is not in docs/api.md"
