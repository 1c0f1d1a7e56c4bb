"""Moving results between stores: ``warroom store export`` / ``import`` as JSON Lines.

One line per stored session, oldest first: a JSON object with every column of the ``sessions`` table, each value
as stored (``scorecard``, ``actions`` and ``notes`` are the stored JSON text, ``all_clear`` and ``recovered`` 0 or 1),
so an export imported into another store (SQLite or PostgreSQL) and exported again gives the same lines. Import
checks every line with the store's models (:class:`~warroom.store.records.RowRecord`) and stores it as a session
finished now would be: once (a session already stored under its id is left as it is and counted), never a made-up
value.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

from warroom.store.errors import DuplicateSession, InvalidSession, StoreError
from warroom.store.results import ResultsStore
from warroom.store.rows import LIST_FIELDS

#: Every column of an exported line, in the order written.
EXPORT_COLUMNS: tuple[str, ...] = (*LIST_FIELDS, "scorecard", "actions")
_FLAGS = ("all_clear", "recovered")


def export_lines(store: ResultsStore) -> Iterator[str]:
    """Every stored session as one JSON line (no line end), oldest first (then by id). Rows are exported exactly as
    stored, readable or not (a damaged row is moved as it is; ``warroom scores`` reports it)."""
    sql = f"SELECT {', '.join(EXPORT_COLUMNS)} FROM sessions ORDER BY started_at, session_id"
    try:
        rows = store._conn.execute(sql)
        for r in rows:
            yield json.dumps(dict(zip(EXPORT_COLUMNS, tuple(r), strict=True)), ensure_ascii=False, allow_nan=False)
    except store._db_errors as exc:
        raise store._error(exc) from exc


@dataclass
class ImportResult:
    """What an import did: sessions stored, sessions already there, and one ``source:line: message`` per line
    refused."""

    imported: int = 0
    already: int = 0
    refused: list[str] = field(default_factory=list)


def _row(text: str) -> dict[str, Any]:
    """The column values of one exported line. Raises ValueError naming what is wrong."""
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"not a JSON object: {exc}") from None
    if not isinstance(value, dict):
        raise ValueError("not a JSON object")
    unknown = sorted(set(value) - set(EXPORT_COLUMNS))
    if unknown:
        raise ValueError(f"unknown column {', '.join(repr(c) for c in unknown[:5])}")
    missing = [c for c in ("session_id", "trainee", "drill_id", "started_at", "outcome", "total") if c not in value]
    if missing:
        raise ValueError(f"missing {', '.join(missing)}")
    for flag in _FLAGS:
        if value.get(flag, 0) not in (0, 1) or isinstance(value.get(flag, 0), float):
            raise ValueError(f"{flag} is neither 0 nor 1")
        value[flag] = int(value.get(flag, 0))
    missing = [c for c in ("scorecard", "actions") if c not in value]
    if missing:
        raise ValueError(f"missing {', '.join(missing)}")
    return value


def import_lines(store: ResultsStore, lines: Iterable[str], source: str) -> ImportResult:
    """Store the sessions of exported ``lines`` (from ``source``, named in messages). A line that does not fit
    (not JSON, an unknown column, a value the store refuses, another session under its id, a row the login role may
    not store: another trainee's session for a trainee role) is refused and named
    (``source:N: message``); the others are stored. Raises :class:`~warroom.store.errors.StoreError` when the store
    fails (the lines before are stored; importing again skips them)."""
    result = ImportResult()
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            values = _row(text)
            stored = store.insert_row(values)
        except ValueError as exc:
            result.refused.append(f"{source}:{number}: {exc}")
            continue
        except (InvalidSession, DuplicateSession) as exc:
            result.refused.append(f"{source}:{number}: {exc}")
            continue
        except StoreError as exc:
            if not _refused_by_policy(exc):
                raise
            result.refused.append(f"{source}:{number}: {exc}")  # another trainee's session, for a trainee role
            continue
        if stored:
            result.imported += 1
        else:
            result.already += 1
    return result


def _refused_by_policy(exc: StoreError) -> bool:
    """Whether the database refused the row for the login role's rights (PostgreSQL's row-level security of
    ``warroom store secure``: SQLSTATE 42501), a refusal of that one line rather than a failure of the store."""
    return getattr(exc.__cause__, "sqlstate", None) == "42501"


def write_export(store: ResultsStore, out: TextIO) -> int:
    """Write every stored session to ``out`` as JSON Lines; returns how many."""
    n = 0
    for line in export_lines(store):
        out.write(line + "\n")
        n += 1
    return n
