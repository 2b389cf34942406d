"""The report of an assigned quiz, as learning platforms give it: per question its facility and
discrimination, the answers given with their counts and the typical mistakes; per quiz the average,
the distribution of scores and the time taken.

Which sittings count: each trainee's FIRST handed-in sitting (a second attempt, after seeing the
questions, says less about the question). Question *i* is position *i* of the sitting: the same
drill for everyone ("the same questions") or the same kind and level drawn afresh.

- **Facility**: the share of those sittings that got the question right.
- **Discrimination index** (upper-lower 27%, Kelley): the sittings ranked by total score, the top
  and bottom 27% (at least one each; ties at the cut broken by sitting order), the facility in the
  top group minus that in the bottom group: from -1 to 1, above 0.3 a question that separates
  strong from weak trainees.
- **Point-biserial** (corrected, as Moodle's "discrimination efficiency" family reports it): the
  correlation of the question's 0/1 score with the rest of the quiz's score (the total without
  that question), None when either is constant.

>>> facility([1, 1, 0, 0])
0.5
>>> discrimination_index([[1, 1], [1, 0], [0, 1], [0, 0]], 0)
1.0
>>> round(point_biserial([[1, 1, 1], [1, 1, 0], [0, 0, 1], [0, 0, 0]], 0), 3)
0.707
"""

from __future__ import annotations

import math
from collections import Counter
from datetime import datetime
from statistics import mean, median
from typing import Any

from sqlite_utils import Database

UPPER_LOWER = 0.27


def facility(scores: list[int]) -> float | None:
    return sum(scores) / len(scores) if scores else None


def discrimination_index(matrix: list[list[int]], question: int) -> float | None:
    """Upper minus lower 27% facility of `question` (rows: sittings, columns: 0/1 per question)."""
    n = len(matrix)
    if n < 2:
        return None
    size = max(1, round(UPPER_LOWER * n))
    ranked = sorted(range(n), key=lambda i: -sum(matrix[i]))  # stable: ties keep sitting order
    upper, lower = ranked[:size], ranked[-size:]
    return sum(matrix[i][question] for i in upper) / size - sum(matrix[i][question] for i in lower) / size


def point_biserial(matrix: list[list[int]], question: int) -> float | None:
    """Pearson correlation of the question's score with the rest of the score."""
    item = [row[question] for row in matrix]
    rest = [sum(row) - row[question] for row in matrix]
    if len(matrix) < 2:
        return None
    mi, mr = mean(item), mean(rest)
    si = math.sqrt(sum((x - mi) ** 2 for x in item))
    sr = math.sqrt(sum((y - mr) ** 2 for y in rest))
    if si == 0 or sr == 0:
        return None
    return sum((x - mi) * (y - mr) for x, y in zip(item, rest, strict=True)) / (si * sr)


def quiz_report(db: Database, exam_id: int, questions: int, *, answers: int = 5) -> dict[str, Any]:
    """The report of one exam from its first handed-in sitting per trainee (see the module)."""
    firsts = list(
        db.query(
            """SELECT s.id, s.trainee_id, s.started_at, s.finished_at, s.correct FROM exam_sittings s
               WHERE s.exam_id = ? AND s.finished_at IS NOT NULL AND s.id = (
                   SELECT min(f.id) FROM exam_sittings f WHERE f.exam_id = s.exam_id
                   AND f.trainee_id = s.trainee_id AND f.finished_at IS NOT NULL)
               ORDER BY s.id""",
            [exam_id],
        )
    )
    ids = [int(s["id"]) for s in firsts]
    rows = (
        list(
            db.query(
                f"""SELECT d.sitting_id, d.kind, d.level, a.answer, coalesce(a.correct, 0) AS correct,
                           a.mistake, json_extract(d.situation, '$.answer_format') AS answer_format
                    FROM drills d LEFT JOIN attempts a ON a.drill_id = d.id
                    WHERE d.sitting_id IN ({", ".join("?" for _ in ids)}) ORDER BY d.sitting_id, d.id""",
                ids,
            )
        )
        if ids
        else []
    )
    per_sitting: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        per_sitting.setdefault(int(row["sitting_id"]), []).append(row)
    matrix = [[int(q["correct"]) for q in per_sitting.get(i, [])][:questions] for i in ids]
    matrix = [row + [0] * (questions - len(row)) for row in matrix]
    items = []
    for q in range(questions):
        asked = [per_sitting[i][q] for i in ids if len(per_sitting.get(i, [])) > q]
        given: Counter[tuple[str | None, bool]] = Counter()
        formats: dict[str | None, str | None] = {}
        mistakes: Counter[str] = Counter()
        for row in asked:
            given[row["answer"], bool(row["correct"])] += 1
            formats.setdefault(row["answer"], row["answer_format"])
            if row["mistake"]:
                mistakes[row["mistake"]] += 1
        kinds = sorted({(r["kind"], r["level"]) for r in asked})
        items.append(
            {
                "number": q + 1,
                "kinds": kinds,
                "sittings": len(asked),
                "facility": facility([row[q] for row in matrix]),
                "discrimination": discrimination_index(matrix, q),
                "point_biserial": point_biserial(matrix, q),
                "answers": [
                    {"answer": answer, "format": formats[answer], "correct": right, "count": n}
                    for (answer, right), n in sorted(given.items(), key=lambda kv: (-kv[1], str(kv[0][0])))[
                        :answers
                    ]
                ],
                "mistakes": [{"mistake": m, "count": n} for m, n in mistakes.most_common(3)],
            }
        )
    scores = [int(s["correct"]) for s in firsts]
    seconds = [
        (datetime.fromisoformat(s["finished_at"]) - datetime.fromisoformat(s["started_at"])).total_seconds()
        for s in firsts
    ]
    return {
        "sittings": len(firsts),
        "average": mean(scores) if scores else None,
        "distribution": [scores.count(k) for k in range(questions + 1)],
        "time": None
        if not seconds
        else {"median_s": median(seconds), "min_s": min(seconds), "max_s": max(seconds)},
        "items": items,
    }
