"""The gradebook: a trainee x drill matrix as CSV, the shape an LMS gradebook imports, beside the row-per-session
exports of ``warroom scores list``.

One row per trainee, one column per drill, each cell the trainee's **first attempt**'s score (0-100) at that drill
over the sessions in scope (a drill set's sessions, or those started in a date range; the first the store stored,
as the summary's figures count them: an order no trainee's clock sets, :func:`by_stored_order`): a trainee cannot
raise it by abandoning a drill, reading its after-action review (answer key included) and playing it again. An
abandoned session scores 0, and a drill never started is empty. A drill played more than once shows how many
attempts and the best score over all of them beside the first: ``62 (3 attempts, best 100)``. Then
``drills_done`` (drills with a session that was not abandoned), ``sessions`` (every session in scope) and
``mean_first`` (the mean of the row's first-attempt scores; drills never started are left out of it). Names are
written so a spreadsheet never reads them as a formula.

A scope is no way round the first attempt: a trainee who played a drill before the scope (the week before a date
range, or outside the set), read its debrief, and played it again inside the scope has the **first attempt they
ever made** in the cell, said so: ``40 (first attempt 2026-11-29, outside this gradebook; 1 attempt here, best
100)`` (given the sessions outside the scope: ``earlier``).

A first attempt whose trial was chosen, not drawn (``warroom run --as``/``--seed``: the row's ``chosen``) is no trial
and gets no grade: its cell says so (``not graded (first attempt 2026-11-29 a chosen trial, --as/--seed; ...)``) and
``mean_first`` leaves it out (a ``--as noise`` session held scored 100).
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from warroom.core.text import spreadsheet_safe


def _score(session: Any) -> int:
    return int(session.total) if session.outcome != "abandoned" else 0


def by_stored_order(stored: Mapping[str, int] | None = None) -> Callable[[Any], tuple[Any, ...]]:
    """The sort key that puts a trainee's first attempt first, as the figures find it
    (:func:`warroom.core.stats.attempt_order`): the order the store stored the sessions (``stored``: session id ->
    its ``stored_seq``, a number no client's clock sets), the sessions without one (stored before schema version
    20) first, then by start and id; without ``stored``, by start and id."""
    if stored is None:
        return lambda s: (s.started_at, s.session_id)
    return lambda s: (s.session_id in stored, stored.get(s.session_id, 0), s.started_at, s.session_id)


def first_attempt_first(store: Any, sessions: Sequence[Any]) -> Callable[[Any], tuple[Any, ...]]:
    """The sort key putting each trainee's first attempt first among ``sessions`` of ``store``, in the order the store
    stored them (:func:`by_stored_order`), as the gradebook and the figures find it."""
    order = store.stored_order([s.session_id for s in sessions])
    return by_stored_order({sid: seq for sid, (numbered, seq) in order.items() if numbered})


def _first_ever(attempts: Sequence[Any], first: Any | None) -> Any | None:
    """``first`` (the trainee's first session of the drill, in or out of the scope, in the order ``attempts`` are in)
    when it is not the first of ``attempts`` (the sessions in scope): the first attempt was made outside the scope."""
    return first if first is not None and attempts and first.session_id != attempts[0].session_id else None


def gradebook_cell(attempts: Sequence[Any], first: Any | None = None, unverified: Collection[str] = ()) -> str:
    """The cell of one trainee's ``attempts`` at one drill (sessions, first attempt first): the first attempt's score,
    and with more than one ``(N attempts, best B)`` beside it (B over every attempt); empty for none. ``first``: the
    trainee's first session of the drill wherever it is; when it is outside the scope (not one of ``attempts``), its
    score is the cell's, said with its day: ``40 (first attempt 2026-11-29, outside this gradebook; 1 attempt here,
    best 100)``; when it is not verified (its id in ``unverified``), no score is the cell's, as none is the figures'
    (the later sessions are replays): ``first attempt 2026-11-29 not verified (`warroom scores verify`; 1 attempt
    here, best 100)``."""
    if not attempts:
        return ""
    best = max(_score(s) for s in attempts)
    before = _first_ever(attempts, first)
    if getattr(before or attempts[0], "chosen", False):  # warroom run --as/--seed: no trial, no grade
        here = f"{len(attempts)} attempt{'s' if len(attempts) != 1 else ''} here"
        day = (before or attempts[0]).started_at[:10]
        return f"not graded (first attempt {day} a chosen trial, --as/--seed; {here}, best {best})"
    if before is not None:
        here = f"{len(attempts)} attempt{'s' if len(attempts) != 1 else ''} here"
        if before.session_id in unverified:
            return f"first attempt {before.started_at[:10]} not verified (`warroom scores verify`; {here}, best {best})"
        return f"{_score(before)} (first attempt {before.started_at[:10]}, outside this gradebook; {here}, best {best})"
    if len(attempts) == 1:
        return str(_score(attempts[0]))
    return f"{_score(attempts[0])} ({len(attempts)} attempts, best {best})"


def gradebook_csv(
    sessions: Iterable[Any],
    drills: Sequence[str],
    trainees: Sequence[str] = (),
    earlier: Iterable[Any] = (),
    stored: Mapping[str, int] | None = None,
    unverified: Collection[str] = (),
) -> str:
    """The CSV text of the matrix of ``sessions`` (rows with ``trainee``, ``drill_id``, ``outcome``, ``total``,
    ``started_at`` and ``session_id``): columns ``trainee``, then ``drills`` (in that order; drills of the sessions
    not named there follow, sorted), then ``drills_done``, ``sessions`` and ``mean_first``. Rows: ``trainees`` in
    their order, then anyone else with a session, sorted. Each cell: :func:`gradebook_cell`, given the trainee's
    first session of the drill among ``sessions`` and ``earlier`` (sessions outside the scope: a first attempt made
    there is the cell's, and counts in ``mean_first``); ``stored``: where the store stored each session
    (:func:`by_stored_order`); ``unverified``: the ids of the sessions among ``earlier`` whose results are not
    verified: a first attempt among them is no grade (:func:`gradebook_cell`), and no replay is graded in its place."""
    order = by_stored_order(stored)
    rows = sorted(sessions, key=order)
    first_ever: dict[tuple[str, str], Any] = {}
    for s in sorted([*rows, *earlier], key=order):
        first_ever.setdefault((s.trainee, s.drill_id), s)
    columns = list(dict.fromkeys([*drills, *sorted({s.drill_id for s in rows})]))
    names = list(dict.fromkeys([*trainees, *sorted({s.trainee for s in rows})]))
    attempts: dict[tuple[str, str], list[Any]] = {}
    count = Counter(s.trainee for s in rows)
    for s in rows:
        attempts.setdefault((s.trainee, s.drill_id), []).append(s)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["trainee", *(spreadsheet_safe(c) for c in columns), "drills_done", "sessions", "mean_first"])
    for name in names:
        mine = [(attempts.get((name, d), []), first_ever.get((name, d))) for d in columns]
        graded = [_first_ever(a, f) or a[0] for a, f in mine if a]
        firsts = [_score(s) for s in graded if s.session_id not in unverified and not getattr(s, "chosen", False)]
        mean = f"{sum(firsts) / len(firsts):.1f}" if firsts else ""
        n_done = sum(1 for a, _ in mine if any(s.outcome != "abandoned" for s in a))
        writer.writerow([spreadsheet_safe(name), *(gradebook_cell(a, f, unverified) for a, f in mine), n_done,
                         count.get(name, 0), mean])  # fmt: skip
    return out.getvalue()


@dataclass(frozen=True)
class Graded:
    """What the gradebook and a set's completion grid read of the store: ``rows``, the counted sessions in scope;
    ``every`` session, those not verified included (a trainee's first attempt at a drill is the first the store
    stored, verified or not, as the figures find it: else a first attempt left out as not verified made its replay,
    played knowing the answer, the graded one); ``unverified``, the ids of those of ``every`` the figures do not
    count; ``stored``, where the store stored each (:func:`by_stored_order`); and the rows in scope that could not be
    read (``problems``)."""

    rows: list[Any]
    every: list[Any]
    unverified: frozenset[str]
    stored: dict[str, int]
    problems: list[Any]


def graded_sessions(store: Any, *, set_id: str | None = None, since: str | None = None) -> Graded:
    """The :class:`Graded` sessions of ``store`` (a :class:`~warroom.store.results.ResultsStore`), in the scope of a
    drill set ``set_id`` or those started since ``since`` (neither: every session)."""
    from warroom.store.review import Verdict

    rows, problems = store.query_readable(set_id=set_id, since=since, limit=0, counted=True)
    every = store.query_readable(limit=0)[0]
    left_out = {sid for sid, check in store.checks().items() if check.state != Verdict.VERIFIED}  # as counted=True
    order = store.stored_order([r.session_id for r in every])
    stored = {sid: seq for sid, (numbered, seq) in order.items() if numbered}
    return Graded(rows, every, frozenset(r.session_id for r in every if r.session_id in left_out), stored, problems)
