"""The gradebook: a trainee x drill matrix as CSV, the shape an LMS gradebook imports, beside the row-per-session
exports of ``warroom scores list``.

One row per trainee, one column per drill, each cell the trainee's **first attempt**'s score (0-100) at that drill
over the sessions in scope (a drill set's sessions, or those started in a date range; the first by start time, as
the summary's figures count them): a trainee cannot raise it by abandoning a drill, reading its after-action review
(answer key included) and playing it again. An abandoned session scores 0, and a drill never started is empty. A
drill played more than once shows how many attempts and the best score over all of them beside the first:
``62 (3 attempts, best 100)``. Then ``drills_done`` (drills with a session that was not abandoned), ``sessions``
(every session in scope) and ``mean_first`` (the mean of the row's first-attempt scores; drills never started are
left out of it). Names are written so a spreadsheet never reads them as a formula.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

from warroom.core.text import spreadsheet_safe


def _score(session: Any) -> int:
    return int(session.total) if session.outcome != "abandoned" else 0


def gradebook_cell(attempts: Sequence[Any]) -> str:
    """The cell of one trainee's ``attempts`` at one drill (sessions, in start order): the first attempt's score,
    and with more than one ``(N attempts, best B)`` beside it (B over every attempt); empty for none."""
    if not attempts:
        return ""
    first = _score(attempts[0])
    if len(attempts) == 1:
        return str(first)
    return f"{first} ({len(attempts)} attempts, best {max(_score(s) for s in attempts)})"


def gradebook_csv(sessions: Iterable[Any], drills: Sequence[str], trainees: Sequence[str] = ()) -> str:
    """The CSV text of the matrix of ``sessions`` (rows with ``trainee``, ``drill_id``, ``outcome``, ``total``,
    ``started_at`` and ``session_id``): columns ``trainee``, then ``drills`` (in that order; drills of the sessions
    not named there follow, sorted), then ``drills_done``, ``sessions`` and ``mean_first``. Rows: ``trainees`` in
    their order, then anyone else with a session, sorted. Each cell: :func:`gradebook_cell`."""
    rows = sorted(sessions, key=lambda s: (s.started_at, s.session_id))
    columns = list(dict.fromkeys([*drills, *sorted({s.drill_id for s in rows})]))
    names = list(dict.fromkeys([*trainees, *sorted({s.trainee for s in rows})]))
    attempts: dict[tuple[str, str], list[Any]] = {}
    count: dict[str, int] = {}
    for s in rows:
        attempts.setdefault((s.trainee, s.drill_id), []).append(s)
        count[s.trainee] = count.get(s.trainee, 0) + 1
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["trainee", *(spreadsheet_safe(c) for c in columns), "drills_done", "sessions", "mean_first"])
    for name in names:
        mine = [attempts.get((name, d), []) for d in columns]
        firsts = [_score(a[0]) for a in mine if a]
        mean = f"{sum(firsts) / len(firsts):.1f}" if firsts else ""
        n_done = sum(1 for a in mine if any(s.outcome != "abandoned" for s in a))
        writer.writerow([spreadsheet_safe(name), *(gradebook_cell(a) for a in mine), n_done, count.get(name, 0),
                         mean])  # fmt: skip
    return out.getvalue()
