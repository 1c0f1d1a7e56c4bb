"""The results store: one row per finished (or abandoned) session, in SQLite or in a shared PostgreSQL database.

``DATA_DIR/results.sqlite3`` in WAL mode with a busy timeout, so several trainees finishing drills at the same moment
against one data directory all get their row; or the PostgreSQL store that ``--store URL`` / ``$WARROOM_STORE``
names. The schema is versioned and migrated forward on open; a database written by a newer warroom raises
:class:`~warroom.store.errors.StoreVersionError` and is never modified.

Per session the store keeps: the id, trainee, drill id, drill version, SHA-256 of the drill file's bytes, drill path,
whether the drill is an all-clear control, scoring version, start and end times (ISO 8601 UTC), outcome, total score
(0-100), time to detect (seconds of drill time, or NULL), damage (in the drill's damage unit), full damage, false
escalations, cost (USD), the scorecard (JSON, its ``to_dict()``) and the full action log (JSON list of actions);
since schema version 2 also the mode, drill set and variant seed, and the wall-clock figures (:class:`WallClock`);
since version 11 every scorecard a re-score replaced, with who replaced it, when, by which rules and why; since
version 14 which sessions are not verified, and why.

:class:`ResultsStore` is one class made of parts, not a chain of base classes: its :class:`StoreConnection`
(:attr:`ResultsStore.db`: opening, checking and migrating the database, the dialect, the database's errors turned
into :class:`~warroom.store.errors.StoreError`), and the reads and writes as plain functions of that connection
(``_queries``, ``_writes``), which each method below calls.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Concatenate, ParamSpec, Self, TypeVar

from warroom.store.backends import Dialect, StoreTarget
from warroom.store.results import _notes, _queries, _verification, _writes
from warroom.store.results._connection import StoreConnection, guarded

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _on_db(part: Callable[Concatenate[StoreConnection, _P], _R]) -> Callable[Concatenate[ResultsStore, _P], _R]:
    """A method of :class:`ResultsStore` that runs the read or write ``part`` on the store's connection."""

    @functools.wraps(part)
    def method(self: ResultsStore, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        return part(self.db, *args, **kwargs)

    return method


class ResultsStore:
    """The results store of one data directory (or of the PostgreSQL database ``url`` names).

    ``ResultsStore(data_dir)`` opens (creating if needed) ``data_dir/results.sqlite3``, migrating an older schema;
    ``create=False`` raises :class:`~warroom.store.errors.StoreError` when there is no store yet; ``upgrade=False``
    leaves a store of an older schema version as it is (only :attr:`schema_version` and :meth:`count` may be used on
    it). Raises :class:`~warroom.store.errors.DataDirError` for a data directory that cannot be used,
    :class:`~warroom.store.errors.StoreVersionError` for a database from a newer warroom (left untouched),
    :class:`~warroom.store.errors.DamagedStore` for a damaged one and :class:`~warroom.store.errors.StoreError` for
    a file that is not a usable database. Use as a context manager or call :meth:`close`.

    Writing: :meth:`insert`, :meth:`insert_row`, :meth:`update_scorecard`, :meth:`delete`. Reading: :meth:`resolve`,
    :meth:`get`, :meth:`query`, :meth:`query_readable`, :meth:`iter_sessions`, :meth:`count`, :meth:`trainee_names`,
    :meth:`invalid_rows`, :meth:`best_scores`, :meth:`scorecard_history`, :meth:`facilitator_notes`. Checking:
    :meth:`verify` (the database file). Which sessions are not verified (:mod:`warroom.store.results._verification`):
    :meth:`mark`, :meth:`checks`, :meth:`stored_order`, :meth:`any_left_out`, :meth:`submitted_as_group`. The
    facilitator's notes: :meth:`add_note`, :meth:`facilitator_notes`.
    """

    def __init__(self, data_dir: Path, *, create: bool = True, url: str | None = None, upgrade: bool = True) -> None:
        #: The open, checked and migrated connection every read and write goes through.
        self.db = StoreConnection(data_dir, create=create, url=url, upgrade=upgrade)

    insert = _on_db(_writes.insert)
    insert_row = _on_db(_writes.insert_row)
    update_scorecard = _on_db(_writes.update_scorecard)
    delete = _on_db(_writes.delete)
    resolve = _on_db(_queries.resolve)
    get = _on_db(_queries.get)
    query = _on_db(_queries.query)
    query_readable = _on_db(_queries.query_readable)
    iter_sessions = _on_db(_queries.iter_sessions)
    count = _on_db(_queries.count)
    trainee_names = _on_db(_queries.trainee_names)
    invalid_rows = _on_db(_queries.invalid_rows)
    best_scores = _on_db(_queries.best_scores)
    scorecard_history = _on_db(_queries.scorecard_history)
    verify = _on_db(guarded(StoreConnection.verify))
    mark = _on_db(guarded(_verification.mark))
    checks = _on_db(guarded(_verification.read_checks))
    stored_order = _on_db(guarded(_verification.stored_order))
    any_left_out = _on_db(guarded(_verification.any_left_out))
    submitted_as_group = _on_db(guarded(_verification.submitted_as_group))
    add_note = _on_db(_notes.add_note)
    facilitator_notes = _on_db(_notes.facilitator_notes)

    @property
    def data_dir(self) -> Path:
        """The data directory (journals, and the SQLite file unless ``--store`` names another store)."""
        return self.db.data_dir

    @property
    def target(self) -> StoreTarget:
        """Where the store is (back end, file or URL)."""
        return self.db.target

    @property
    def location(self) -> str:
        """The store for messages: the database file, or the PostgreSQL URL without its password."""
        return self.db.location

    @property
    def path(self) -> Path:
        """The SQLite database file (on PostgreSQL its would-be name: messages name :attr:`location`)."""
        return self.db.path

    @property
    def dialect(self) -> Dialect:
        """Where the SQL differs between the back ends."""
        return self.db.dialect

    @property
    def schema_version(self) -> int:
        """The schema version of the open store (see :attr:`StoreConnection.schema_version`)."""
        return self.db.schema_version

    def close(self) -> None:
        """Close the connection. Safe to call twice."""
        self.db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
