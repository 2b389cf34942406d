"""How the app's Jinja environment is made: its lexer options and the process's compiled templates.

Every app the process builds (the server's one, the test suite's thousands) reads the same template
files, so each template is compiled to Python once per process and reused: Jinja's bytecode cache
checks the source's checksum on every load, so an edited template (the development server's reload)
is compiled again."""

from __future__ import annotations

from typing import Any

from jinja2 import BytecodeCache
from jinja2.bccache import Bucket


class ProcessTemplates(BytecodeCache):
    """Compiled templates kept in memory for the life of the process.

    >>> from jinja2 import DictLoader, Environment
    >>> cache = ProcessTemplates()
    >>> first = Environment(loader=DictLoader({"t": "{{ 1 + 1 }}"}), bytecode_cache=cache)
    >>> second = Environment(loader=DictLoader({"t": "{{ 1 + 1 }}"}), bytecode_cache=cache)
    >>> first.get_template("t").render(), second.get_template("t").render(), len(cache.compiled)
    ('2', '2', 1)
    """

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self.compiled.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)  # resets itself when the source's checksum differs

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


COMPILED = ProcessTemplates()


def jinja_options(defaults: dict[str, Any]) -> dict[str, Any]:
    """The options every app's environment is made with. The lexer's options are given here, before
    the environment exists, because compiled code depends on them: one set for every app, so one
    compiled copy of each template serves them all."""
    return {**defaults, "trim_blocks": True, "lstrip_blocks": True, "bytecode_cache": COMPILED}
