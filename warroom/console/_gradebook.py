"""The gradebook: a trainee x drill matrix as CSV, the shape an LMS gradebook imports, beside the row-per-session
exports of ``warroom scores list``.

One row per trainee, one column per drill, each cell the trainee's **best score** (0-100) over the sessions in scope
(a drill set's sessions, or those started in a date range); an abandoned session scores 0, so a drill only ever
abandoned shows 0, and a drill never started is empty. Then ``drills_done`` (drills with a session that was not
abandoned), ``sessions`` (every session in scope) and ``mean_best`` (the mean of the row's scores; drills never
started are left out of it). Names are written so a spreadsheet never reads them as a
formula.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

from warroom.core.text import spreadsheet_safe


def gradebook_csv(sessions: Iterable[Any], drills: Sequence[str], trainees: Sequence[str] = ()) -> str:
    """The CSV text of the matrix of ``sessions`` (rows with ``trainee``, ``drill_id``, ``outcome``, ``total``):
    columns ``trainee``, then ``drills`` (in that order; drills of the sessions not named there follow, sorted),
    then ``drills_done``, ``sessions`` and ``mean_best``. Rows: ``trainees`` in their order, then anyone else with a
    session, sorted."""
    rows = list(sessions)
    columns = list(dict.fromkeys([*drills, *sorted({s.drill_id for s in rows})]))
    names = list(dict.fromkeys([*trainees, *sorted({s.trainee for s in rows})]))
    best: dict[tuple[str, str], int] = {}
    done: set[tuple[str, str]] = set()
    count: dict[str, int] = {}
    for s in rows:
        key = (s.trainee, s.drill_id)
        best[key] = max(best.get(key, 0), int(s.total) if s.outcome != "abandoned" else 0)
        if s.outcome != "abandoned":
            done.add(key)
        count[s.trainee] = count.get(s.trainee, 0) + 1
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["trainee", *(spreadsheet_safe(c) for c in columns), "drills_done", "sessions", "mean_best"])
    for name in names:
        scores = [best.get((name, d)) for d in columns]
        given = [v for v in scores if v is not None]
        mean = f"{sum(given) / len(given):.1f}" if given else ""
        n_done = sum(1 for d in columns if (name, d) in done)
        writer.writerow([spreadsheet_safe(name), *("" if v is None else v for v in scores), n_done,
                         count.get(name, 0), mean])  # fmt: skip
    return out.getvalue()
