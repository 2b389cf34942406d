"""Seeded drills pinned before the restructuring (issue 11): the situations and the expected answers.

`python3 tests/pinned.py` writes `tests/data/pinned_drills.json` from the code as it stands; run it
only when a change of situations or answers is intended, and say so in the commit. The prompt and the
other presentation fields are left out: they are words, and words may be rewritten; the cards, amounts
and rulings may not change. `rp.decision` is left out: its values come from the advisor, which the
exact-advisor work makes exact.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

PINS = Path(__file__).resolve().parent / "data" / "pinned_drills.json"
SEEDS = range(5)
RULES = {"rp.": (None, "lunar", "insured"), "om.": (None,), "pp.": (None, "georgian-joker")}
SKIP = {"rp.decision"}


def _facts(value: Any) -> Any:
    """The situation without its words: keys naming a prompt, title or label are dropped."""
    if isinstance(value, dict):
        return {
            k: _facts(v)
            for k, v in sorted(value.items())
            if not any(word in k for word in ("prompt", "title", "label", "text"))
        }
    if isinstance(value, list):
        return [_facts(v) for v in value]
    return value


def cases() -> list[tuple[str, int, int, str | None]]:
    from trainer.drills import REGISTRY

    out = []
    for kind_id, kind in REGISTRY.items():
        if kind_id in SKIP:
            continue
        for rules in RULES[kind_id[:3]]:
            for level in kind.levels:
                for seed in SEEDS:
                    out.append((kind_id, level, seed, rules))
    return out


def pin(kind_id: str, level: int, seed: int, rules: str | None) -> dict[str, Any]:
    from trainer.drills import expected_of, issue

    try:
        situation = issue(kind_id, level, seed=seed, rules=rules)
    except ValueError as err:  # a kind that refuses a preset: pinned as refused
        return {"refused": type(err).__name__}
    expected, _text, _steps = expected_of(situation)
    return {
        "data": _facts(situation.data),
        "answer_format": situation.answer_format.to_json()["kind"],
        "expected": json.loads(json.dumps(expected)),
    }


def key(kind_id: str, level: int, seed: int, rules: str | None) -> str:
    return f"{kind_id}/{level}/{seed}/{rules or '-'}"


if __name__ == "__main__":
    sys.path.insert(0, str(PINS.parents[2]))
    lines = [json.dumps({key(*c): pin(*c)}, ensure_ascii=False, sort_keys=True)[1:-1] for c in cases()]
    PINS.write_text("{\n" + ",\n".join(sorted(lines)) + "\n}\n")
    print(f"wrote {PINS}")
