"""The filters of every read of the results store, built in one place: ``--trainee``, ``--drill``, ``--since``,
``--outcome``, ``--set`` and ``--mode`` of ``warroom scores`` (and a list of trainees for ``warroom report``), as
SQL conditions with ``?`` parameters. Used by the listings (:mod:`warroom.store.results._queries`) and the cohort
statistics (:mod:`warroom.store.cohort`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: The mode of the guided tutorial's sessions (``warroom tutorial``): stored and listed, never counted.
TUTORIAL = "tutorial"


def filter_sql(
    *,
    trainee: str | None = None,
    drill: str | None = None,
    since: str | None = None,
    outcome: str | None = None,
    set_id: str | None = None,
    mode: str | None = None,
    trainees: Sequence[str] = (),
    since_unindexed: str = "",
    counted_only: bool = False,
) -> tuple[list[str], list[Any]]:
    """The conditions (to be joined with AND) and their parameters for the given filters: each matches its column
    exactly (None: any); ``trainees`` (when not empty) keeps only these trainees; ``since`` (a UTC timestamp text,
    :func:`~warroom.store.results.parse_since`) keeps sessions started at or after it. ``since_unindexed`` is put
    before ``started_at`` (SQLite's unary ``+``, which keeps the planner off the ``started_at`` index when a read
    of every matching row is better served by a covering index; empty: no such hint). ``counted_only`` (statistics
    and best scores) leaves out the guided tutorial's sessions (mode :data:`TUTORIAL`) unless ``mode`` asks for them."""
    clauses: list[str] = []
    params: list[Any] = []
    for column, value in (("trainee", trainee), ("drill_id", drill)):
        if value is not None:
            clauses.append(f"{column} = ?")
            params.append(value)
    if trainees:
        clauses.append(f"trainee IN ({', '.join('?' for _ in trainees)})")
        params.extend(trainees)
    if since is not None:
        clauses.append(f"{since_unindexed}started_at >= ?")
        params.append(since)
    for column, value in (("outcome", outcome), ("set_id", set_id), ("mode", mode)):
        if value is not None:
            clauses.append(f"{column} = ?")
            params.append(value)
    if counted_only and mode is None:
        clauses.append(f"mode <> '{TUTORIAL}'")
    return clauses, params


def where_sql(clauses: Sequence[str]) -> str:
    """`` WHERE a AND b ...`` of ``clauses`` (empty when there are none)."""
    return (" WHERE " + " AND ".join(clauses)) if clauses else ""
