"""The results store: one SQLite row per finished (or abandoned) session, via the standard library.

``DATA_DIR/results.sqlite3`` in WAL mode with a busy timeout, so several trainees finishing drills at the same moment
against one data directory all get their row. The schema is versioned with ``PRAGMA user_version`` and migrated
forward on open; a database written by a newer warroom (a higher version than :data:`SCHEMA_VERSION`) raises
:class:`StoreVersionError` and is never modified.

Per session the store keeps: the id, trainee, drill id, drill version, SHA-256 of the drill file's bytes, drill path,
whether the drill is an all-clear control, scoring version, start and end times (ISO 8601 UTC), outcome, total score
(0-100), time to detect (seconds of drill time, or NULL), damage (in the drill's damage unit), full damage, false
escalations, cost (USD), the scorecard (JSON, its ``to_dict()``) and the full action log (JSON list of actions).

Summary figures (see :meth:`ResultsStore.trainee_summaries` and :meth:`ResultsStore.drill_summaries`):

- *contained rate*: sessions whose outcome is ``contained`` or ``contained_late``, divided by the sessions of
  drills that have a fault (all-clear control drills have nothing to contain); None when there are none;
- *false escalation rate*: sessions with at least one false escalation, divided by all sessions (a false
  escalation is any escalation that did not contain the incident; "false alarm" is only the outcome of a session
  whose every escalation was one, before any evidence or in an all-clear drill);
- *median time to detect*: over the sessions that detected the fault (time to detect not NULL); None if none did;
- *mean score* and *median score*: over all sessions.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from warroom.core.errors import WarroomError
from warroom.core.outcome import CONTAINED_OUTCOMES as _CONTAINED

if TYPE_CHECKING:
    from warroom.core.actions import Action
    from warroom.core.scoring import Scorecard

#: The schema version this code writes (``PRAGMA user_version``).
SCHEMA_VERSION = 2
#: File name of the results database inside the data directory.
DB_NAME = "results.sqlite3"
#: Seconds a writer waits for another writer's lock before giving up.
BUSY_TIMEOUT_S = 30.0


#: Outcome values that count as containing the incident (from the core's :class:`~warroom.core.outcome.Outcome`).
CONTAINED_OUTCOMES: tuple[str, ...] = tuple(sorted(o.value for o in _CONTAINED))

_MIGRATIONS: dict[int, str] = {
    # version -> SQL that upgrades from version-1 to version
    1: """
        CREATE TABLE sessions (
            session_id        TEXT PRIMARY KEY,
            trainee           TEXT NOT NULL,
            drill_id          TEXT NOT NULL,
            drill_version     INTEGER,
            drill_sha256      TEXT,
            drill_path        TEXT,
            all_clear         INTEGER NOT NULL DEFAULT 0,
            scoring_version   TEXT,
            started_at        TEXT NOT NULL,
            ended_at          TEXT,
            outcome           TEXT NOT NULL,
            total             INTEGER NOT NULL,
            time_to_detect    REAL,
            damage            REAL,
            full_damage       REAL,
            damage_unit       TEXT,
            false_escalations INTEGER NOT NULL DEFAULT 0,
            cost_usd          REAL,
            recovered         INTEGER NOT NULL DEFAULT 0,
            notes             TEXT NOT NULL DEFAULT '[]',
            scorecard         TEXT NOT NULL,
            actions           TEXT NOT NULL,
            rescored_at       TEXT
        ) WITHOUT ROWID;
        CREATE INDEX ix_sessions_started ON sessions(started_at);
        CREATE INDEX ix_sessions_trainee_started ON sessions(trainee, started_at);
        CREATE INDEX ix_sessions_drill_started ON sessions(drill_id, started_at);
        CREATE INDEX ix_sessions_trainee_drill_total ON sessions(trainee, drill_id, total);
        CREATE INDEX ix_sessions_summary
            ON sessions(trainee, drill_id, all_clear, outcome, total, time_to_detect, false_escalations, started_at);
        CREATE INDEX ix_sessions_drill_summary ON sessions(drill_id, total, trainee, all_clear, outcome, started_at);
        CREATE INDEX ix_sessions_trainee_ttd ON sessions(trainee, time_to_detect, drill_id, started_at);
    """,
    # 2: how the session was played: its mode, drill set and variant seed (start information), and the wall-clock
    # figures of practice sessions (pauses, seconds paused, wall-clock time to detect)
    2: """
        ALTER TABLE sessions ADD COLUMN mode TEXT NOT NULL DEFAULT 'practice';
        ALTER TABLE sessions ADD COLUMN set_id TEXT;
        ALTER TABLE sessions ADD COLUMN seed INTEGER;
        ALTER TABLE sessions ADD COLUMN pauses INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE sessions ADD COLUMN paused_seconds REAL;
        ALTER TABLE sessions ADD COLUMN wall_time_to_detect REAL;
        CREATE INDEX ix_sessions_mode ON sessions(mode, set_id);
    """,
}

#: ``--sort`` keys: key -> (SQL expression, natural direction). ``--reverse`` flips the direction.
SORT_KEYS: dict[str, tuple[str, str]] = {
    "when": ("started_at", "DESC"),  # newest first
    "score": ("total", "DESC"),  # best first
    "trainee": ("trainee", "ASC"),
    "drill": ("drill_id", "ASC"),
    "outcome": ("outcome", "ASC"),
    "ttd": ("time_to_detect IS NULL, time_to_detect", "ASC"),  # fastest first, undetected last
    "damage": ("damage", "ASC"),  # least damage first
    "false": ("false_escalations", "ASC"),
}



class StoreError(WarroomError):
    """The results store cannot be used (not a database, unreadable, locked too long...)."""


class DataDirError(StoreError):
    """The data directory or a file in it cannot be used (a file in place of the folder, another user's folder,
    no read or write access); the message names it and says what to do."""


class DamagedStore(StoreError):
    """The results database is damaged (SQLite reports it malformed) or its ``sessions`` table lacks columns; the
    message names the file and says what to do. The file is never modified."""


class InvalidSession(StoreError):
    """A session whose values do not fit the store (a text total, an unknown outcome, a number out of range): it
    was not written. ``session_id`` names it."""

    def __init__(self, message: str, session_id: str) -> None:
        super().__init__(message)
        self.session_id = session_id


class DuplicateSession(StoreError):
    """Another session (a different trainee, drill or start time) is already stored under this session id."""


class StoreVersionError(StoreError):
    """The database was written by a newer warroom (a higher schema version); it is left untouched."""


class SessionNotFound(StoreError):
    """No stored session has this id (or id prefix); or a prefix matches several (``matches`` lists them)."""

    def __init__(self, message: str, matches: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.matches = list(matches)


class CorruptSession(StoreError):
    """A stored row that cannot be read back (its scorecard or action log is not valid JSON, or an action does not
    validate). ``session_id`` names it; the row is never modified."""

    def __init__(self, message: str, session_id: str) -> None:
        super().__init__(message)
        self.session_id = session_id


@dataclass(frozen=True)
class SessionInfo:
    """What is known about a session when it starts (the journal's start line)."""

    session_id: str
    trainee: str
    drill_id: str
    drill_version: int | None
    drill_sha256: str | None
    drill_path: str | None
    started_at: str
    all_clear: bool = False
    scoring_version: str | None = None
    #: ``"practice"`` or ``"assessment"`` (docs/scoring.md, "Practice and assessment").
    mode: str = "practice"
    #: The id of the drill set the session was played in, if any.
    set_id: str | None = None
    #: The seed of the drill variant played (None: the drill as written).
    seed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """As a JSON-ready dict (the journal's start line without ``type``/``format``/``pid``)."""
        return {
            "session_id": self.session_id,
            "trainee": self.trainee,
            "drill_id": self.drill_id,
            "drill_version": self.drill_version,
            "drill_sha256": self.drill_sha256,
            "drill_path": self.drill_path,
            "all_clear": self.all_clear,
            "scoring_version": self.scoring_version,
            "started_at": self.started_at,
            "mode": self.mode,
            "set_id": self.set_id,
            "seed": self.seed,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SessionInfo:
        """From a journal start line (extra keys are ignored), checked with
        :class:`~warroom.store.records.StartRecord`. Raises ValueError naming each missing or bad value."""
        from pydantic import ValidationError

        from warroom.store.records import StartRecord, describe

        try:
            record = StartRecord.model_validate(d)
        except ValidationError as exc:
            raise ValueError(describe(exc)) from None
        return cls(**record.model_dump())


@dataclass(frozen=True)
class WallClock:
    """The wall-clock figures of a played session, from the journal's action times (all in wall seconds)."""

    #: Times the drill was paused.
    pauses: int = 0
    #: Wall seconds spent paused (None: not recorded).
    paused_seconds: float | None = None
    #: Wall seconds from the start to the escalation that scored (None: none).
    wall_time_to_detect: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """The store columns of these figures."""
        return {
            "pauses": self.pauses,
            "paused_seconds": self.paused_seconds,
            "wall_time_to_detect": self.wall_time_to_detect,
        }


@dataclass(frozen=True)
class SessionRow:
    """One stored session as listed by :meth:`ResultsStore.query` (without the scorecard and action log)."""

    session_id: str
    trainee: str
    drill_id: str
    drill_version: int | None
    drill_sha256: str | None
    drill_path: str | None
    all_clear: bool
    scoring_version: str | None
    started_at: str
    ended_at: str | None
    outcome: str
    total: int
    time_to_detect: float | None
    damage: float | None
    full_damage: float | None
    damage_unit: str | None
    false_escalations: int
    cost_usd: float | None
    recovered: bool
    notes: list[str]
    rescored_at: str | None
    mode: str = "practice"
    set_id: str | None = None
    seed: int | None = None
    #: Times the trainee paused (practice sessions; assessment sessions cannot pause).
    pauses: int = 0
    #: Wall-clock seconds spent paused (None: not recorded).
    paused_seconds: float | None = None
    #: Wall-clock seconds from the session's start to the escalation that scored (None: no such escalation).
    wall_time_to_detect: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """As a JSON-ready dict (the ``scores --format json`` row)."""
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


#: The listed columns, in the order of :class:`SessionRow`'s fields (the one list they are derived from).
LIST_FIELDS: tuple[str, ...] = tuple(SessionRow.__dataclass_fields__)
_LIST_COLUMNS = ", ".join(LIST_FIELDS)


@dataclass(frozen=True)
class StoredSession(SessionRow):
    """One stored session with its scorecard (the dict of ``Scorecard.to_dict()``) and full action log."""

    scorecard: dict[str, Any] = field(default_factory=dict)
    actions: list[Action] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Every stored field as a JSON-ready dict (the ``scores --format json`` row): the flat fields of
        :class:`SessionRow`, ``scorecard`` (the ``Scorecard.to_dict()`` dict) and ``actions`` (the action log, a list
        of action dicts as in the journal)."""
        out = {k: getattr(self, k) for k in SessionRow.__dataclass_fields__}
        out["scorecard"] = self.scorecard
        out["actions"] = [
            a.model_dump(mode="json", exclude_none=True) if hasattr(a, "model_dump") else a for a in self.actions
        ]
        return out

    def info(self) -> SessionInfo:
        """The session's start information."""
        return SessionInfo(
            session_id=self.session_id,
            trainee=self.trainee,
            drill_id=self.drill_id,
            drill_version=self.drill_version,
            drill_sha256=self.drill_sha256,
            drill_path=self.drill_path,
            started_at=self.started_at,
            all_clear=self.all_clear,
            scoring_version=self.scoring_version,
            mode=self.mode,
            set_id=self.set_id,
            seed=self.seed,
        )


@dataclass(frozen=True)
class TraineeSummary:
    """Figures for one trainee (see the module docstring for the definitions)."""

    trainee: str
    sessions: int
    drills_run: int
    contained_rate: float | None
    median_time_to_detect: float | None
    false_escalation_rate: float
    mean_score: float

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass(frozen=True)
class DrillSummary:
    """Figures for one drill: attempts, contained rate, median score (is it too easy or too hard?)."""

    drill_id: str
    attempts: int
    trainees: int
    contained_rate: float | None
    median_score: float
    all_clear: bool

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def parse_since(text: str) -> str:
    """Parse a ``--since`` value (a date ``2026-11-29`` or an ISO datetime) into the store's UTC timestamp text.

    A date or a datetime without a zone is taken as UTC. Raises ValueError with a clear message otherwise.
    """
    value = text.strip()
    try:
        if len(value) == 10:
            d = date.fromisoformat(value)
            dt = datetime(d.year, d.month, d.day, tzinfo=UTC)
        else:
            dt = datetime.fromisoformat(value.replace("Z", "+00:00") if value.endswith("Z") else value)
            if dt.tzinfo is None:
                dt = dt.replace(tzinfo=UTC)
    except ValueError:
        raise ValueError(
            f"{text!r} is not a date or ISO datetime (expected e.g. 2026-11-29 or 2026-11-29T14:30)"
        ) from None
    return dt.astimezone(UTC).isoformat(timespec="microseconds")


#: The columns derived from a scorecard, in the order :func:`_scorecard_fields` returns them (plus ``scorecard``).
SCORECARD_COLUMNS = (
    "scoring_version",
    "outcome",
    "total",
    "time_to_detect",
    "damage",
    "full_damage",
    "damage_unit",
    "false_escalations",
    "cost_usd",
    "scorecard",
)


def _scorecard_fields(scorecard: Scorecard) -> dict[str, Any]:
    """The stored columns of a :class:`~warroom.core.scoring.Scorecard` (keys :data:`SCORECARD_COLUMNS`; the
    ``scorecard`` column is its ``to_dict()`` as JSON). Raises TypeError for anything but a Scorecard."""
    from warroom.core.scoring import Scorecard

    if not isinstance(scorecard, Scorecard):
        raise TypeError(f"expected a Scorecard, got {type(scorecard).__name__}")
    d = scorecard.to_dict()
    return {
        "scoring_version": scorecard.scoring_version,
        "outcome": scorecard.outcome.value,
        "total": scorecard.total,
        "time_to_detect": scorecard.time_to_detect,
        "damage": scorecard.damage,
        "full_damage": scorecard.full_damage,
        "damage_unit": scorecard.damage_unit,
        "false_escalations": scorecard.false_escalations,
        "cost_usd": scorecard.cost_usd,
        "scorecard": json.dumps(d, ensure_ascii=False, sort_keys=True),
    }


def _check_row(session_id: str, values: dict[str, Any]) -> None:
    """Raise :class:`InvalidSession` unless ``values`` (a whole row, column -> value) fit
    :class:`~warroom.store.records.RowRecord`."""
    from pydantic import ValidationError

    from warroom.store.records import RowRecord, describe

    row = {**values, "all_clear": bool(values["all_clear"]), "recovered": bool(values["recovered"])}
    try:
        RowRecord.model_validate(row)
    except ValidationError as exc:
        raise InvalidSession(f"session {session_id} was not stored: {describe(exc)}", session_id) from None


def _actions_json(actions: Iterable[Action]) -> str:
    return json.dumps([a.model_dump(mode="json", exclude_none=True) for a in actions], ensure_ascii=False)


def damaged_message(path: Path, exc: BaseException) -> str:
    """What to say about a results database SQLite cannot read (``exc`` its error): the file, and what to do."""
    return (
        f"the results store {path} is damaged ({exc}); warroom cannot use it and did not change it. Move it aside "
        f"with its -wal and -shm files (e.g. rename it to {path.name}.damaged): warroom then starts a new, empty "
        f"store. `sqlite3 {path} .recover` may save its rows; the journal of every session stored in it is kept in "
        f"{path.parent / 'journals' / 'done'}."
    )


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _guard(
    method: Callable[Concatenate[ResultsStore, _P], _R],
) -> Callable[Concatenate[ResultsStore, _P], _R]:
    """Turn SQLite's errors in a read or write of the store into :class:`StoreError` (a damaged file into
    :class:`DamagedStore`), so no caller ever sees a raw ``sqlite3`` exception."""
    import functools

    @functools.wraps(method)
    def guarded(self: ResultsStore, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.DatabaseError as exc:
            raise self._error(exc) from exc

    return guarded


#: SQL for two summary figures of a group of sessions: how many were on drills with a fault, and how many of
#: those contained it (in time or late). The contained rate of the summaries is the second over the first.
_FAULTED_AND_CONTAINED_SQL = "sum(all_clear = 0), sum(all_clear = 0 AND outcome IN ({}))".format(
    ", ".join(f"'{o}'" for o in CONTAINED_OUTCOMES)
)


class ResultsStore:
    """The SQLite results store of one data directory.

    ``ResultsStore(data_dir)`` opens (creating if needed) ``data_dir/results.sqlite3``, migrating an older schema.
    Raises :class:`StoreVersionError` for a database from a newer warroom (left untouched) and
    :class:`StoreError` for a file that is not a usable database. Use as a context manager or call :meth:`close`.
    """

    def __init__(self, data_dir: Path, *, create: bool = True) -> None:
        from warroom.store.datadir import data_dir_problem

        self.data_dir = Path(data_dir)
        self.path = self.data_dir / DB_NAME
        problem = data_dir_problem(self.data_dir)
        if problem:
            raise DataDirError(problem)
        if not create and not self.path.exists():
            raise StoreError(f"no results store at {self.path} (no session has been recorded in this data directory)")
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the data directory {self.data_dir}: {exc.strerror or exc}") from exc
        try:
            self._conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
            self._conn.row_factory = sqlite3.Row
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the results store {self.path}: {exc}") from exc
        try:
            self._open()
        except sqlite3.DatabaseError as exc:
            self._conn.close()
            if isinstance(exc, sqlite3.OperationalError) or "not a database" in str(exc):
                raise StoreError(f"{self.path} is not a usable warroom results store: {exc}") from exc
            raise DamagedStore(damaged_message(self.path, exc)) from exc
        except StoreError:
            self._conn.close()
            raise

    # -- opening and migrations -----------------------------------------------------------------------------------

    def _open(self) -> None:
        from warroom.store.facts import ensure_facts_index

        conn = self._conn
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreVersionError(
                f"the results store {self.path} has schema version {version}, written by a newer warroom; this "
                f"warroom reads up to version {SCHEMA_VERSION}. Upgrade warroom (the file was not changed)."
            )
        self._retry(lambda: conn.execute("PRAGMA journal_mode = WAL"))
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        if version < SCHEMA_VERSION:
            self._migrate()
        self._check_columns()
        ensure_facts_index(conn)

    def _check_columns(self) -> None:
        """Raise :class:`DamagedStore` when the ``sessions`` table is missing or lacks a column this code uses."""
        have = {r[1] for r in self._conn.execute("PRAGMA table_info(sessions)")}
        need = [*LIST_FIELDS, "scorecard", "actions"]
        missing = [c for c in need if c not in have]
        if missing:
            what = "has no sessions table" if not have else f"has no column {', '.join(missing)} in its sessions table"
            raise DamagedStore(
                f"the results store {self.path} {what}: it was changed by another program or by hand, and warroom "
                f"cannot use it (the file was not changed). Move it aside with its -wal and -shm files (e.g. rename "
                f"it to {self.path.name}.damaged) to start a new store, or put back a copy from a backup."
            )

    def _error(self, exc: sqlite3.DatabaseError) -> StoreError:
        """The :class:`StoreError` for an SQLite error met while using the store."""
        text = str(exc)
        if isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text):
            return StoreError(f"the results store {self.path} stayed locked by another warroom: {text}; try again")
        if isinstance(exc, sqlite3.OperationalError) and "malformed" not in text:
            return StoreError(f"cannot use the results store {self.path}: {text}")
        return DamagedStore(damaged_message(self.path, exc))

    @_guard
    def verify(self) -> None:
        """Check the whole database file (SQLite's ``PRAGMA quick_check``: every page and b-tree readable).

        Raises :class:`DamagedStore` naming the file and what to do when it is damaged. Reads the whole file, so
        it costs about as much as reading every session once."""
        problems = [r[0] for r in self._conn.execute("PRAGMA quick_check(5)")]
        if problems != ["ok"]:
            raise DamagedStore(damaged_message(self.path, sqlite3.DatabaseError("; ".join(problems))))

    def _migrate(self) -> None:
        conn = self._conn
        self._retry(lambda: conn.execute("BEGIN IMMEDIATE"))
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]  # another process may have migrated
            if version > SCHEMA_VERSION:  # pragma: no cover - a newer warroom migrated between our two reads
                raise StoreVersionError(f"the results store {self.path} was upgraded to version {version} meanwhile")
            for v in range(version + 1, SCHEMA_VERSION + 1):
                for statement in _MIGRATIONS[v].split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {v}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    @staticmethod
    def _retry(fn: Callable[[], _R], attempts: int = 200) -> _R:
        """Run ``fn``, retrying while SQLite reports the database locked (a lock not covered by busy_timeout), at
        most ``attempts`` times in all; the last attempt's error propagates."""
        for _ in range(attempts - 1):
            try:
                return fn()
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
                time.sleep(0.05)
        return fn()

    @property
    def schema_version(self) -> int:
        """The database's schema version."""
        return int(self._conn.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        """Close the connection. Safe to call twice."""
        self._conn.close()

    def __enter__(self) -> ResultsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing --------------------------------------------------------------------------------------------------

    def insert(
        self,
        info: SessionInfo,
        scorecard: Scorecard,
        actions: Sequence[Action],
        *,
        ended_at: str | None,
        recovered: bool = False,
        notes: Sequence[str] = (),
        wall: WallClock | None = None,
    ) -> bool:
        """Store one session: its start info, :class:`~warroom.core.scoring.Scorecard` and action log.

        Every value is checked with :class:`~warroom.store.records.RowRecord` first. Returns True if the row was
        inserted, False if this very session (same id, trainee, drill and start time) is already stored (it is left
        as it was, so finishing a session twice is harmless). Raises :class:`InvalidSession` for a value that does
        not fit the store (nothing is written), :class:`DuplicateSession` when another session has this id, and
        StoreError for every other failure (locked, damaged, a constraint): never a silent loss.
        """
        values: dict[str, Any] = {
            **info.to_dict(),
            "all_clear": int(info.all_clear),
            "ended_at": ended_at,
            "recovered": int(recovered),
            "notes": json.dumps(list(notes), ensure_ascii=False),
            **(wall or WallClock()).to_dict(),
            **_scorecard_fields(scorecard),
            "actions": _actions_json(actions),
        }
        if values["scoring_version"] is None:
            values["scoring_version"] = info.scoring_version
        _check_row(info.session_id, values)
        columns = list(values)
        row = tuple(values.values())
        sql = (
            f"INSERT INTO sessions ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)}) "
            "ON CONFLICT(session_id) DO NOTHING"
        )
        try:
            cur = self._retry(lambda: self._conn.execute(sql, row))
            if cur.rowcount == 1:
                return True
            stored = self._conn.execute(
                "SELECT trainee, drill_id, started_at FROM sessions WHERE session_id = ?", (info.session_id,)
            ).fetchone()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot store session {info.session_id}: {self._error(exc)}") from exc
        if stored is None or tuple(stored) != (info.trainee, info.drill_id, info.started_at):
            raise DuplicateSession(
                f"cannot store session {info.session_id} ({info.trainee}, {info.drill_id}, started "
                f"{info.started_at}) in {self.path}: another session is stored under this id"
                + ("" if stored is None else f" ({stored[0]}, {stored[1]}, started {stored[2]})")
            )
        return False

    def update_scorecard(
        self,
        session_id: str,
        scorecard: Scorecard,
        *,
        drill_sha256: str | None = None,
        drill_version: int | None = None,
        drill_path: str | None = None,
        note: str | None = None,
    ) -> None:
        """Replace a stored session's scorecard (after a re-score) and the columns derived from it.

        When the session was re-scored against a drill file other than the one it was played on, pass that file's
        ``drill_sha256``, ``drill_version`` and ``drill_path``: they replace the recorded ones, so the stored score
        and its recorded drill file always agree (None leaves a column as it is). ``note`` (a sentence) is appended
        to the session's notes. Raises SessionNotFound if no session has this id, StoreError if the database stays
        locked.
        """
        from pydantic import ValidationError

        from warroom.store.journal import utc_now
        from warroom.store.records import ScorecardRecord, StartRecord, describe

        sc = _scorecard_fields(scorecard)
        try:
            ScorecardRecord.model_validate(scorecard.to_dict())
            StartRecord.model_validate(
                {"session_id": session_id, "trainee": "-", "drill_id": scorecard.drill_id, "started_at": utc_now(),
                 "drill_sha256": drill_sha256, "drill_version": drill_version, "drill_path": drill_path}
            )  # fmt: skip
        except ValidationError as exc:
            raise InvalidSession(f"session {session_id} was not updated: {describe(exc)}", session_id) from None
        sets = [f"{column} = ?" for column in sc] + ["rescored_at = ?"]
        params: list[Any] = [*sc.values(), utc_now()]
        drill_columns = {"drill_sha256": drill_sha256, "drill_version": drill_version, "drill_path": drill_path}
        for column, value in drill_columns.items():
            if value is not None:
                sets.append(f"{column} = ?")
                params.append(value)
        conn = self._conn

        def update() -> int:
            conn.execute("BEGIN IMMEDIATE")
            try:
                extra_sets, extra = [], []
                if note is not None:
                    r = conn.execute("SELECT notes FROM sessions WHERE session_id = ?", (session_id,)).fetchone()
                    notes = [*json.loads(r[0] or "[]"), note] if r is not None else [note]
                    extra_sets, extra = ["notes = ?"], [json.dumps(notes, ensure_ascii=False)]
                sql = f"UPDATE sessions SET {', '.join(sets + extra_sets)} WHERE session_id = ?"
                rowcount = conn.execute(sql, (*params, *extra, session_id)).rowcount
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            return int(rowcount)

        try:
            rowcount = self._retry(update)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot update session {session_id}: {self._error(exc)}") from exc
        if rowcount != 1:
            raise SessionNotFound(f"no stored session {session_id!r}")

    # -- reading --------------------------------------------------------------------------------------------------

    @staticmethod
    def _row(r: sqlite3.Row) -> dict[str, Any]:
        """The :class:`SessionRow` fields of a row, checked with :class:`~warroom.store.records.ListedRecord`.
        Raises ValueError naming the bad values (a text total, notes that are not a JSON list...)."""
        from pydantic import ValidationError

        from warroom.store.records import ListedRecord, describe

        d = {name: r[name] for name in LIST_FIELDS}
        for flag in ("all_clear", "recovered"):
            if d[flag] in (0, 1):  # SQLite has no booleans; anything else is left for the check to refuse
                d[flag] = bool(d[flag])
        try:
            ListedRecord.model_validate(d)
        except ValidationError as exc:
            raise ValueError(describe(exc)) from None
        d["notes"] = json.loads(d["notes"])
        return d

    @_guard
    def resolve(self, key: str) -> str:
        """The id of the one stored session that ``key`` names: its whole id, else the only one whose id starts with
        ``key``, else ends with it (the short end people remember, e.g. ``k3f9``), else contains it; the first of
        these that matches anything decides.

        Raises SessionNotFound for no match, or for a part that matches several sessions (``.matches`` lists up to
        10 of them)."""
        key = key.strip()
        if not key:
            raise SessionNotFound("an empty session id")
        if self._conn.execute("SELECT 1 FROM sessions WHERE session_id = ?", (key,)).fetchone() is not None:
            return key
        stages = (  # (what the key is, SQL condition, parameters): prefix (on the index), suffix, substring
            ("prefix", "session_id >= ? AND session_id < ?", (key, key + "\U0010ffff")),
            ("suffix", "substr(session_id, -?) = ?", (len(key), key)),
            ("part", "instr(session_id, ?) > 0", (key,)),
        )
        for what, cond, params in stages:
            sql = f"SELECT session_id FROM sessions WHERE {cond} ORDER BY session_id LIMIT 11"
            ids: list[str] = [r[0] for r in self._conn.execute(sql, params)]
            if len(ids) > 1:
                more = ", ..." if len(ids) > 10 else ""
                raise SessionNotFound(
                    f"session id {what} {key!r} matches several sessions: {', '.join(ids[:10])}{more}", ids[:10]
                )
            if ids:
                return ids[0]
        raise SessionNotFound(f"no stored session with id {key!r}")

    @_guard
    def get(self, session_id: str) -> StoredSession:
        """The stored session that ``session_id`` names (see :meth:`resolve`: the id, a unique prefix or suffix).

        Raises SessionNotFound for no match or several; :class:`CorruptSession` when the row cannot be read.
        """
        key = self.resolve(session_id)
        sql = f"SELECT {_LIST_COLUMNS}, scorecard, actions FROM sessions WHERE session_id = ?"
        return self._stored(self._conn.execute(sql, (key,)).fetchone())

    @_guard
    def delete(self, session_ids: Sequence[str]) -> int:
        """Delete the stored sessions with these exact ids, all in one transaction; returns how many were deleted
        (ids not stored are ignored). Raises StoreError when the database stays locked or is damaged."""
        conn = self._conn

        def delete() -> int:
            conn.execute("BEGIN IMMEDIATE")
            try:
                n = sum(conn.execute("DELETE FROM sessions WHERE session_id = ?", (i,)).rowcount for i in session_ids)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            return n

        return int(self._retry(delete))

    @_guard
    def __contains__(self, session_id: str) -> bool:
        return self._conn.execute("SELECT 1 FROM sessions WHERE session_id = ?", (session_id,)).fetchone() is not None

    def _where(
        self,
        trainee: str | None,
        drill: str | None,
        since: str | None,
        outcome: str | None = None,
        *,
        summary: bool = False,
        valid: bool | None = None,
        checked: tuple[str, ...] | None = None,
    ) -> tuple[str, list[Any]]:
        """The WHERE clause and its parameters. ``valid`` True keeps only the rows whose summary columns
        (``checked``, default all) hold values of the right type (:func:`~warroom.store.records.valid_row_sql`),
        False only the others."""
        from warroom.store.records import VALID_ROW_SQL, valid_row_sql

        sql = VALID_ROW_SQL if checked is None else valid_row_sql(checked)
        clauses: list[str] = [] if valid is None else [f"({sql})" if valid else f"NOT ({sql})"]
        params: list[Any] = []
        if trainee is not None:
            clauses.append("trainee = ?")
            params.append(trainee)
        if drill is not None:
            clauses.append("drill_id = ?")
            params.append(drill)
        if since is not None:
            # A summary reads every matching row: scanning the covering summary index beats the started_at index
            # plus a lookup of each (large) row, so the unary + keeps the planner off the started_at index.
            clauses.append("+started_at >= ?" if summary and trainee is None and drill is None else "started_at >= ?")
            params.append(since)
        if outcome is not None:
            clauses.append("outcome = ?")
            params.append(outcome)
        return (" WHERE " + " AND ".join(clauses)) if clauses else "", params

    @_guard
    def query(
        self,
        *,
        trainee: str | None = None,
        drill: str | None = None,
        since: str | None = None,
        outcome: str | None = None,
        sort: str = "when",
        reverse: bool = False,
        limit: int | None = None,
        full: bool = False,
    ) -> list[SessionRow]:
        """Stored sessions matching the filters, sorted.

        With ``full`` the rows are :class:`StoredSession` objects carrying the scorecard and action log too.

        ``trainee`` / ``drill`` match exactly; ``since`` is a UTC timestamp text (see :func:`parse_since`): sessions
        started at or after it. ``sort`` is a key of :data:`SORT_KEYS` in its natural direction (``reverse`` flips
        it); ties are broken newest first. ``limit`` None or 0 returns every match. Raises ValueError for an
        unknown sort key and :class:`CorruptSession` for a row that cannot be read (see :meth:`query_readable`).
        """
        sql, params, _ = self._query_sql(trainee, drill, since, outcome, sort, reverse, limit, full)
        read = self._stored if full else self._listed
        return [read(r) for r in self._conn.execute(sql, params)]

    def _query_sql(
        self,
        trainee: str | None = None,
        drill: str | None = None,
        since: str | None = None,
        outcome: str | None = None,
        sort: str = "when",
        reverse: bool = False,
        limit: int | None = None,
        full: bool = False,
    ) -> tuple[str, list[Any], bool]:
        if sort not in SORT_KEYS:
            raise ValueError(f"unknown sort key {sort!r} (choose from {', '.join(SORT_KEYS)})")
        expr, direction = SORT_KEYS[sort]
        if reverse:
            direction = "ASC" if direction == "DESC" else "DESC"
        order = ", ".join(f"{part.strip()} {direction}" for part in expr.split(","))
        where, params = self._where(trainee, drill, since, outcome)
        columns = f"{_LIST_COLUMNS}, scorecard, actions" if full else _LIST_COLUMNS
        sql = f"SELECT {columns} FROM sessions{where} ORDER BY {order}, started_at DESC, session_id DESC"
        if limit:
            sql += " LIMIT ?"
            params.append(int(limit))
        return sql, params, full

    @_guard
    def query_readable(self, /, **filters: Any) -> tuple[list[SessionRow], list[CorruptSession]]:
        """:meth:`query` that skips unreadable rows: ``(rows, problems)``, one :class:`CorruptSession` per row
        skipped (never modified). Takes the same keyword arguments as :meth:`query`."""
        sql, params, full = self._query_sql(**filters)
        rows: list[SessionRow] = []
        problems: list[CorruptSession] = []
        for r in self._conn.execute(sql, params):
            try:
                rows.append(self._stored(r) if full else self._listed(r))
            except CorruptSession as exc:
                problems.append(exc)
        return rows, problems

    def _listed(self, r: sqlite3.Row) -> SessionRow:
        try:
            return SessionRow(**self._row(r))
        except ValueError as exc:
            sid = r["session_id"]
            raise CorruptSession(f"stored session {sid} cannot be read: {exc}", sid) from None

    def _stored(self, r: sqlite3.Row) -> StoredSession:
        """The :class:`StoredSession` of a full row. Raises :class:`CorruptSession` when its notes, scorecard or
        action log cannot be read (not JSON, an action that does not validate)."""
        from pydantic import ValidationError

        from warroom.core.actions import Action

        sid = r["session_id"]
        try:
            scorecard = json.loads(r["scorecard"])
            if not isinstance(scorecard, dict):
                raise ValueError("the scorecard is not a JSON object")
            raw_actions = json.loads(r["actions"])
            if not isinstance(raw_actions, list):
                raise ValueError("the action log is not a JSON list")
            actions = [Action.model_validate(a) for a in raw_actions]
            return StoredSession(**self._row(r), scorecard=scorecard, actions=actions)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ())) or "action"
            raise CorruptSession(
                f"stored session {sid} cannot be read: an action in its log is invalid ({where}: {first['msg']})", sid
            ) from None
        except (ValueError, TypeError) as exc:
            raise CorruptSession(f"stored session {sid} cannot be read: {exc}", sid) from None

    def iter_sessions(
        self, *, trainee: str | None = None, drill: str | None = None, since: str | None = None
    ) -> Iterator[StoredSession | CorruptSession]:
        """Every matching stored session with its scorecard and action log, oldest first (for re-scoring), read in
        one query. A row that cannot be read is yielded as its :class:`CorruptSession` error (not raised), so the
        caller can report it and go on."""
        where, params = self._where(trainee, drill, since)
        sql = f"SELECT {_LIST_COLUMNS}, scorecard, actions FROM sessions{where} ORDER BY started_at, session_id"
        try:
            rows = self._conn.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as exc:
            raise self._error(exc) from exc
        for r in rows:
            try:
                yield self._stored(r)
            except CorruptSession as exc:
                yield exc

    @_guard
    def count(self, *, trainee: str | None = None, drill: str | None = None, since: str | None = None) -> int:
        """How many stored sessions match the filters."""
        where, params = self._where(trainee, drill, since)
        return int(self._conn.execute(f"SELECT count(*) FROM sessions{where}", params).fetchone()[0])

    @_guard
    def invalid_rows(
        self, *, trainee: str | None = None, drill: str | None = None, since: str | None = None, limit: int = 100
    ) -> list[CorruptSession]:
        """The matching rows that the summaries leave out because a summary column holds a value of the wrong type
        or range (a text ``total``, an unknown outcome...), one :class:`CorruptSession` each (at most ``limit``),
        oldest first. The rows are never modified."""
        where, params = self._where(trainee, drill, since, valid=False)
        # Found on the covering summary index (no ORDER BY, so no lookup of every row), then read in full.
        ids = [r[0] for r in self._conn.execute(f"SELECT session_id FROM sessions{where} LIMIT ?", [*params, limit])]
        sql = f"SELECT {_LIST_COLUMNS} FROM sessions WHERE session_id = ?"
        rows = [self._conn.execute(sql, (i,)).fetchone() for i in ids]
        out = []
        for r in sorted(rows, key=lambda r: (str(r["started_at"]), r["session_id"])):
            try:
                self._listed(r)
            except CorruptSession as exc:
                out.append(exc)
            else:  # pragma: no cover - the SQL check and the model agree; keep the row reported anyway
                out.append(CorruptSession(f"stored session {r['session_id']} cannot be summarised", r["session_id"]))
        return out

    @_guard
    def best_scores(self, trainee: str) -> dict[str, int | None]:
        """The trainee's best total score per drill id: ``{drill_id: 0-100}``, over the sessions that were not
        abandoned; None for a drill the trainee only ever quit (every session abandoned). Drills never run are
        absent. Rows that a read would skip as unreadable (a text total...) are left out."""
        where, params = self._where(trainee, None, None, valid=True)
        rows = self._conn.execute(
            f"SELECT drill_id, max(CASE WHEN outcome = 'abandoned' THEN NULL ELSE total END) FROM sessions{where} "
            "GROUP BY drill_id",
            params,
        )
        return {drill_id: None if best is None else int(best) for drill_id, best in rows}

    def _medians(
        self, group: str, column: str, where: str, params: list[Any], counts: dict[str, int]
    ) -> dict[str, float]:
        """Median of ``column`` per ``group`` value over the matching sessions; ``counts`` holds each group's number
        of non-NULL values. Each median reads one or two values at an offset of an index ordered by
        (``group``, ``column``), so it costs little even with 100,000 sessions."""
        cond = f"{where} AND" if where else " WHERE"
        sql = (
            f"SELECT {column} FROM sessions{cond} {group} = ? AND {column} IS NOT NULL "
            f"ORDER BY {column} LIMIT ? OFFSET ?"
        )
        out: dict[str, float] = {}
        for g, n in counts.items():
            if n:
                values = [v for (v,) in self._conn.execute(sql, [*params, g, 2 - n % 2, (n - 1) // 2])]
                out[g] = sum(values) / len(values)
        return out

    @_guard
    def trainee_summaries(
        self, *, trainee: str | None = None, drill: str | None = None, since: str | None = None
    ) -> list[TraineeSummary]:
        """Per-trainee figures over the matching sessions, sorted by trainee name. Rows that a read would skip
        (see :meth:`invalid_rows`) are left out of every figure."""
        where, params = self._where(trainee, drill, since, summary=True, valid=True)
        sql = (
            f"SELECT trainee, count(*), count(DISTINCT drill_id), {_FAULTED_AND_CONTAINED_SQL}, "
            "sum(false_escalations > 0), avg(total), "
            f"count(time_to_detect) FROM sessions{where} GROUP BY trainee ORDER BY trainee"
        )
        rows = self._conn.execute(sql, params).fetchall()
        # The medians read the (trainee, time_to_detect) index: they check only the columns in it, so they never
        # look up whole rows (a row left out for a bad total still has a readable time to detect).
        checked = ("trainee", "drill_id", "started_at", "time_to_detect")
        mwhere, mparams = self._where(trainee, drill, since, summary=True, valid=True, checked=checked)
        counts = dict(
            self._conn.execute(f"SELECT trainee, count(time_to_detect) FROM sessions{mwhere} GROUP BY trainee", mparams)
        )
        medians = self._medians("trainee", "time_to_detect", mwhere, mparams, counts)
        return [
            TraineeSummary(
                trainee=t,
                sessions=n,
                drills_run=drills,
                contained_rate=(n_contained / faulted) if faulted else None,
                median_time_to_detect=medians.get(t),
                false_escalation_rate=n_false / n,
                mean_score=float(mean),
            )
            for t, n, drills, faulted, n_contained, n_false, mean, _ in rows
        ]

    @_guard
    def drill_summaries(
        self, *, trainee: str | None = None, drill: str | None = None, since: str | None = None
    ) -> list[DrillSummary]:
        """Per-drill figures over the matching sessions, sorted by drill id. Rows that a read would skip (see
        :meth:`invalid_rows`) are left out of every figure."""
        # Only the columns this summary reads are checked, so it stays on its covering index.
        checked = ("trainee", "drill_id", "started_at", "outcome", "total", "all_clear")
        where, params = self._where(trainee, drill, since, summary=True, valid=True, checked=checked)
        sql = (
            f"SELECT drill_id, count(*), count(DISTINCT trainee), {_FAULTED_AND_CONTAINED_SQL} "
            f"FROM sessions{where} GROUP BY drill_id ORDER BY drill_id"
        )
        rows = self._conn.execute(sql, params).fetchall()
        medians = self._medians("drill_id", "total", where, params, {r[0]: r[1] for r in rows})
        return [
            DrillSummary(
                drill_id=d,
                attempts=n,
                trainees=n_trainees,
                contained_rate=(n_contained / faulted) if faulted else None,
                median_score=medians[d],
                all_clear=faulted == 0,
            )
            for d, n, n_trainees, faulted, n_contained in rows
        ]
