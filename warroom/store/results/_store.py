"""The results store: one SQLite row per finished (or abandoned) session, via the standard library.

``DATA_DIR/results.sqlite3`` in WAL mode with a busy timeout, so several trainees finishing drills at the same moment
against one data directory all get their row. The schema is versioned with ``PRAGMA user_version`` and migrated
forward on open; a database written by a newer warroom (a higher version than :data:`SCHEMA_VERSION`) raises
:class:`StoreVersionError` and is never modified.

Per session the store keeps: the id, trainee, drill id, drill version, SHA-256 of the drill file's bytes, drill path,
whether the drill is an all-clear control, scoring version, start and end times (ISO 8601 UTC), outcome, total score
(0-100), time to detect (seconds of drill time, or NULL), damage (in the drill's damage unit), full damage, false
escalations, cost (USD), the scorecard (JSON, its ``to_dict()``) and the full action log (JSON list of actions);
since schema version 2 also the mode, drill set and variant seed, and the wall-clock figures (:class:`WallClock`).

:class:`ResultsStore` is the one public class; its parts live along the store's seams:

- :mod:`warroom.store.results._connection`: the table, its migrations, opening and checking the file (:class:`StoreConnection`);
- :mod:`warroom.store.results._writes`: storing, re-scoring and deleting sessions;
- :mod:`warroom.store.results._queries`: reading sessions (by id, filtered and sorted), counts, unreadable rows;
- :mod:`warroom.store.summaries`: the figures per trainee and per drill (defined there);
- :mod:`warroom.store.results._rows` and :mod:`warroom.store.errors`: the row values and the errors.

The same class serves a shared PostgreSQL store (``ResultsStore(data_dir, url="postgresql://...")`` or
``$WARROOM_STORE``): :mod:`warroom.store.backends._dialect` holds where the SQL differs, :mod:`warroom.store.backends._postgres` the
connection.

Every name is importable from here as before (``from warroom.store.results._store import X``).
"""

from __future__ import annotations

from warroom.store.backends import DB_NAME
from warroom.store.errors import (
    CorruptSession,
    DamagedStore,
    DataDirError,
    DuplicateSession,
    InvalidSession,
    SessionNotFound,
    StoreError,
    StoreVersionError,
    damaged_message,
)
from warroom.store.results._connection import _MIGRATIONS, BUSY_TIMEOUT_S, SCHEMA_VERSION
from warroom.store.results._queries import SORT_KEYS, StoreQueries
from warroom.store.results._rows import LIST_FIELDS, SessionInfo, SessionRow, StoredSession, WallClock
from warroom.store.results._time import parse_since
from warroom.store.results._writes import StoreWrites


class ResultsStore(StoreQueries, StoreWrites):
    """The SQLite results store of one data directory.

    ``ResultsStore(data_dir)`` opens (creating if needed) ``data_dir/results.sqlite3``, migrating an older schema;
    ``create=False`` raises :class:`StoreError` when there is no store yet. Raises :class:`DataDirError` for a data
    directory that cannot be used, :class:`StoreVersionError` for a database from a newer warroom (left untouched),
    :class:`DamagedStore` for a damaged one and :class:`StoreError` for a file that is not a usable database. Use as
    a context manager or call :meth:`close`.

    Writing: :meth:`insert`, :meth:`update_scorecard`, :meth:`delete`. Reading: :meth:`resolve`, :meth:`get`,
    :meth:`query`, :meth:`query_readable`, :meth:`iter_sessions`, :meth:`count`, :meth:`invalid_rows`,
    :meth:`best_scores`. Summaries: :meth:`trainee_summaries`, :meth:`drill_summaries`. Checking: :meth:`verify`.
    """


__all__ = [
    "BUSY_TIMEOUT_S",
    "DB_NAME",
    "LIST_FIELDS",
    "SCHEMA_VERSION",
    "SORT_KEYS",
    "_MIGRATIONS",
    "CorruptSession",
    "DamagedStore",
    "DataDirError",
    "DuplicateSession",
    "InvalidSession",
    "ResultsStore",
    "SessionInfo",
    "SessionNotFound",
    "SessionRow",
    "StoreError",
    "StoreVersionError",
    "StoredSession",
    "WallClock",
    "damaged_message",
    "parse_since",
]
