"""What every game's house-rules files share: a preset names a `base` and states only what differs.

>>> merge_tables({"bet": {"ante": 1, "max": 5}}, {"bet": {"max": 9}})
{'bet': {'ante': 1, 'max': 9}}
"""

from __future__ import annotations

from typing import Any


def merge_tables(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """`over` laid on `base`, table by table; the overriding file wins wherever both set a value."""
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge_tables(merged[key], value)
        else:
            merged[key] = value
    return merged
