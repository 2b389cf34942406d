"""The suite's apps share Werkzeug's work on identical rules (tests/conftest.py: the URL builders and
the parsed parts); every rule of an app built so is what Werkzeug itself makes of it."""

import conftest
from conftest import make_app


def _state(rule):
    converters = {
        name: (type(c), c.regex, c.part_isolating, {k: v for k, v in vars(c).items() if k != "map"})
        for name, c in rule._converters.items()
    }
    return list(rule._parts), list(rule._trace), converters, set(rule.arguments)


def test_every_rule_is_what_werkzeug_makes_of_it():
    make_app()  # an earlier app: the second one's rules are the shared ones
    app = make_app()
    rules = list(app.url_map.iter_rules())
    assert len(rules) > 100 and any(rule._converters for rule in rules)
    for rule in rules:
        shared = _state(rule)
        assert all(c.map is app.url_map for c in rule._converters.values()), rule
        conftest._COMPILE_RULE(rule)  # Werkzeug's own Rule.compile, in place
        assert _state(rule) == shared, rule


def test_shared_rules_match_and_build():
    make_app()
    app = make_app()
    adapter = app.url_map.bind("localhost")
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.arguments - {"filename"} or rule.defaults:
            continue
        values = {"filename": "x.css"} if "filename" in rule.arguments else {}
        path = adapter.build(rule.endpoint, values)
        assert adapter.match(path, method="GET")[0] == rule.endpoint, path
    with app.test_request_context():
        assert app.url_for("practice.show", drill_id=7).endswith("/7")
    assert app.test_client().get("/practice/drill/999999").status_code in (302, 404)
