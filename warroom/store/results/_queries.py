"""Reading the results store: one session by its id (or a part of it), lists of sessions filtered and sorted,
counts, unreadable rows and best scores; and the filters every read takes, built in one place (:func:`filter_sql`,
:func:`where_sql`): ``--trainee``, ``--drill``, ``--since``, ``--outcome``, ``--set`` and ``--mode`` of ``warroom
scores`` (and a list of trainees for ``warroom report``), as SQL conditions with ``?`` parameters, used by the
listings here and by the cohort statistics (:mod:`warroom.store.cohort`).

Plain functions of the store's :class:`~warroom.store.results.StoreConnection`, each one a method of
:class:`~warroom.store.results.ResultsStore`. Every row read is checked with
:class:`~warroom.store.results._records.ListedRecord`; a row that does not fit is a
:class:`~warroom.store.errors.CorruptSession` (reported, never modified).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

from warroom.store.errors import CorruptSession, SessionNotFound
from warroom.store.results._checks import strict_json
from warroom.store.results._connection import StoreConnection, guarded
from warroom.store.results._rows import _LIST_COLUMNS, FLAG_FIELDS, LIST_FIELDS, SessionRow, StoredSession

if TYPE_CHECKING:
    from warroom.store.results._history import ScorecardChange

# -- the filters of every read -----------------------------------------------------------------------------------------

#: The mode of the guided tutorial's sessions (``warroom tutorial``): stored and listed, never counted.
TUTORIAL = "tutorial"


class Filters(TypedDict, total=False):
    """The filters every read takes, by keyword (each None or left out: any): ``trainee``, ``drill`` (its id),
    ``since`` (a UTC timestamp text, :func:`~warroom.store.results.parse_since`), ``outcome``, ``set_id`` (a drill
    set's id) and ``mode``."""

    trainee: str | None
    drill: str | None
    since: str | None
    outcome: str | None
    set_id: str | None
    mode: str | None


def filter_sql(
    *, trainees: Sequence[str] = (), since_unindexed: str = "", counted_only: bool = False, **filters: Unpack[Filters]
) -> tuple[list[str], list[Any]]:
    """The conditions (to be joined with AND) and their parameters for the given :class:`Filters`: each matches its
    column exactly (None: any); ``trainees`` (when not empty) keeps only these trainees; ``since`` keeps sessions
    started at or after it. ``since_unindexed`` is put
    before ``started_at`` (SQLite's unary ``+``, which keeps the planner off the ``started_at`` index when a read
    of every matching row is better served by a covering index; empty: no such hint). ``counted_only`` (statistics
    and best scores) leaves out the guided tutorial's sessions (mode :data:`TUTORIAL`) unless ``mode`` asks for them."""
    clauses: list[str] = []
    params: list[Any] = []
    since, mode = filters.get("since"), filters.get("mode")
    for column, value in (("trainee", filters.get("trainee")), ("drill_id", filters.get("drill"))):
        if value is not None:
            clauses.append(f"{column} = ?")
            params.append(value)
    if trainees:
        clauses.append(f"trainee IN ({', '.join('?' for _ in trainees)})")
        params.extend(trainees)
    if since is not None:
        clauses.append(f"{since_unindexed}started_at >= ?")
        params.append(since)
    for column, value in (("outcome", filters.get("outcome")), ("set_id", filters.get("set_id")), ("mode", mode)):
        if value is not None:
            clauses.append(f"{column} = ?")
            params.append(value)
    if counted_only and mode is None:
        clauses.append(f"mode <> '{TUTORIAL}'")
    return clauses, params


def where_sql(clauses: Sequence[str]) -> str:
    """`` WHERE a AND b ...`` of ``clauses`` (empty when there are none)."""
    return (" WHERE " + " AND ".join(clauses)) if clauses else ""


# -- reads -------------------------------------------------------------------------------------------------------------

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


def _row(r: Any) -> dict[str, Any]:
    """The :class:`SessionRow` fields of a row, checked with :class:`~warroom.store.results._records.ListedRecord`.
    Raises ValueError naming the bad values (a text total, notes that are not a JSON list...)."""
    from pydantic import ValidationError

    from warroom.store.results._records import ListedRecord, describe

    d = {name: r[name] for name in LIST_FIELDS}
    for flag in FLAG_FIELDS:
        if d[flag] in (0, 1):  # SQLite has no booleans; anything else is left for the check to refuse
            d[flag] = bool(d[flag])
    try:
        ListedRecord.model_validate(d)
    except ValidationError as exc:
        raise ValueError(describe(exc)) from None
    d["notes"] = strict_json(d["notes"])
    return d

@guarded
def resolve(db: StoreConnection, key: str) -> str:
    """The id of the one stored session that ``key`` names: its whole id, else the only one whose id starts with
    ``key``, else ends with it (the short end people remember, e.g. ``k3f9``), else contains it; the first of
    these that matches anything decides.

    Raises SessionNotFound for no match, or for a part that matches several sessions (``.matches`` lists up to
    10 of them)."""
    key = key.strip()
    if not key:
        raise SessionNotFound("an empty session id")
    if db.conn.execute("SELECT 1 FROM sessions WHERE session_id = ?", (key,)).fetchone() is not None:
        return key
    # prefix (on the index), suffix, substring
    for what in ("prefix", "suffix", "part"):
        cond, params = db.dialect.id_part(what, key)
        sql = f"SELECT session_id FROM sessions WHERE {cond} ORDER BY session_id LIMIT 11"
        ids: list[str] = [r[0] for r in db.conn.execute(sql, params)]
        if len(ids) > 1:
            more = ", ..." if len(ids) > 10 else ""
            raise SessionNotFound(
                f"session id {what} {key!r} matches several sessions: {', '.join(ids[:10])}{more}", ids[:10]
            )
        if ids:
            return ids[0]
    raise SessionNotFound(f"no stored session with id {key!r}")

@guarded
def get(db: StoreConnection, session_id: str) -> StoredSession:
    """The stored session that ``session_id`` names (see :meth:`resolve`: the id, a unique prefix or suffix).

    Raises SessionNotFound for no match or several; :class:`CorruptSession` when the row cannot be read.
    """
    key = resolve(db, session_id)
    sql = f"SELECT {_LIST_COLUMNS}, scorecard, actions FROM sessions WHERE session_id = ?"
    stored = _stored(db.conn.execute(sql, (key,)).fetchone())
    from warroom.store.results._notes import facilitator_notes

    notes = facilitator_notes(db, [key]).get(key, [])
    return replace(stored, history=scorecard_history(db, key), facilitator_notes=notes)


@guarded
def scorecard_history(db: StoreConnection, session_id: str) -> list[ScorecardChange]:
    """The scorecards re-scores replaced in the session ``session_id`` (its exact id), oldest first: who re-scored,
    when, by which rules, why, and what it replaced (empty for a session never re-scored, or not stored). Raises
    :class:`CorruptSession` when a replaced scorecard cannot be read."""
    from warroom.store.results._history import read_history

    try:
        return read_history(db, [session_id]).get(session_id, [])
    except ValueError as exc:
        raise CorruptSession(f"stored session {session_id} cannot be read: {exc}", session_id) from None

def _where(
    db: StoreConnection, *, valid: bool | None = None, counted: bool = False, **filters: Unpack[Filters]
) -> tuple[str, list[Any]]:
    """The WHERE clause and its parameters of ``filters``. ``valid`` True keeps only the rows whose summary columns
    hold values of the right type (:func:`~warroom.store.results._checks.valid_row_sql`), False only the others;
    ``counted`` only those the statistics count (none whose results are not verified:
    :data:`~warroom.store.results._verification.COUNTED_SQL`)."""
    from warroom.store.results._checks import VALID_ROW_SQL, valid_row_sql
    from warroom.store.results._verification import COUNTED_SQL

    sql = VALID_ROW_SQL if db.dialect.loose_types else valid_row_sql(loose_types=False)
    clauses: list[str] = [] if valid is None else [f"({sql})" if valid else f"NOT ({sql})"]
    if counted:
        clauses.append(f"({COUNTED_SQL})")
    more, params = filter_sql(**filters)
    return where_sql(clauses + more), params


@guarded
def query(
    db: StoreConnection,
    *,
    sort: str = "when",
    reverse: bool = False,
    limit: int | None = None,
    full: bool = False,
    counted: bool = False,
    **filters: Unpack[Filters],
) -> list[SessionRow]:
    """Stored sessions matching the :class:`Filters`, sorted.

    With ``full`` the rows are :class:`StoredSession` objects carrying the scorecard and action log too.

    ``trainee`` / ``drill`` match exactly; ``since`` is a UTC timestamp text (see :func:`parse_since`): sessions
    started at or after it. ``sort`` is a key of :data:`SORT_KEYS` in its natural direction (``reverse`` flips
    it); ties are broken newest first. ``limit`` None or 0 returns every match. ``set_id`` / ``mode`` keep the
    sessions played in that drill set / mode; ``counted`` leaves out those whose results are not verified (as the
    statistics do: ``warroom scores verify``). Raises ValueError for an unknown sort key and
    :class:`CorruptSession` for a row that cannot be read (see :meth:`query_readable`).
    """
    sql, params, _ = _query_sql(db, sort=sort, reverse=reverse, limit=limit, full=full, counted=counted, **filters)
    read = _stored if full else _listed
    return [read(r) for r in db.conn.execute(sql, params)]

def _query_sql(
    db: StoreConnection,
    *,
    sort: str = "when",
    reverse: bool = False,
    limit: int | None = None,
    full: bool = False,
    counted: bool = False,
    **filters: Unpack[Filters],
) -> tuple[str, list[Any], bool]:
    if sort not in SORT_KEYS:
        raise ValueError(f"unknown sort key {sort!r} (choose from {', '.join(SORT_KEYS)})")
    expr, direction = SORT_KEYS[sort]
    if reverse:
        direction = "ASC" if direction == "DESC" else "DESC"
    order = ", ".join(f"{part.strip()} {db.dialect.order(direction)}" for part in expr.split(","))
    where, params = _where(db, counted=counted, **filters)
    columns = f"{_LIST_COLUMNS}, scorecard, actions" if full else _LIST_COLUMNS
    sql = f"SELECT {columns} FROM sessions{where} ORDER BY {order}, started_at DESC, session_id DESC"
    if limit and int(limit) < MAX_SQL_LIMIT:  # a limit past any table's rows is every row (SQL's LIMIT is 64 bits)
        sql += " LIMIT ?"
        params.append(int(limit))
    return sql, params, full


#: The largest LIMIT SQL takes (a signed 64-bit integer): ``--limit 99999999999999999999999`` overflowed SQLite's
#: parameter (a traceback); a limit this large or larger returns every match, as no store holds more rows.
MAX_SQL_LIMIT = 2**63 - 1

@guarded
def query_readable(db: StoreConnection, /, **filters: Any) -> tuple[list[SessionRow], list[CorruptSession]]:
    """:meth:`query` that skips unreadable rows: ``(rows, problems)``, one :class:`CorruptSession` per row
    skipped (never modified). Takes the same keyword arguments as :meth:`query`."""
    sql, params, full = _query_sql(db, **filters)
    rows: list[SessionRow] = []
    problems: list[CorruptSession] = []
    for r in db.conn.execute(sql, params):
        try:
            rows.append(_stored(r) if full else _listed(r))
        except CorruptSession as exc:
            problems.append(exc)
    return rows, problems

def _listed(r: Any) -> SessionRow:
    try:
        return SessionRow(**_row(r))
    except ValueError as exc:
        sid = r["session_id"]
        raise CorruptSession(f"stored session {sid} cannot be read: {exc}", sid) from None

def _stored(r: Any) -> StoredSession:
    """The :class:`StoredSession` of a full row. Raises :class:`CorruptSession` when its notes, scorecard or
    action log cannot be read (not JSON, an action that does not validate)."""
    from pydantic import ValidationError

    from warroom.core import model
    from warroom.core.model import Action

    sid = r["session_id"]
    keys = tuple(v if isinstance(v, str) else None for v in (r["trainee"], r["drill_id"]))  # named in an error
    try:
        scorecard = strict_json(r["scorecard"])
        if not isinstance(scorecard, dict):
            raise ValueError("the scorecard is not a JSON object")
        if isinstance(r["actions"], str) and len(r["actions"]) > model.MAX_LOG_CHARS:  # (parsed, it would take GBs)
            raise ValueError(f"its action log is {len(r['actions']):,} characters of JSON, more than the "
                             f"{model.MAX_LOG_CHARS:,} a session's journal can hold")
        raw_actions = strict_json(r["actions"])
        if not isinstance(raw_actions, list):
            raise ValueError("the action log is not a JSON list")
        if len(raw_actions) > model.MAX_ACTIONS:  # (read before any action is: a log of SQL's making has no bound)
            raise ValueError(f"its action log holds {len(raw_actions):,} actions, more than the "
                             f"{model.MAX_ACTIONS:,} one session keeps")
        actions = [Action.model_validate(a) for a in raw_actions]
        return StoredSession(**_row(r), scorecard=scorecard, actions=actions)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "action"
        raise CorruptSession(
            f"stored session {sid} cannot be read: an action in its log is invalid ({where}: {first['msg']})", sid,
            *keys,
        ) from None
    except (ValueError, TypeError) as exc:
        raise CorruptSession(f"stored session {sid} cannot be read: {exc}", sid, *keys) from None

def iter_sessions(db: StoreConnection, **filters: Unpack[Filters]) -> Iterator[StoredSession | CorruptSession]:
    """Every stored session matching the :class:`Filters`, with its scorecard and action log, oldest first (for
    re-scoring), read in one query. A row that cannot be read is yielded as its
    :class:`CorruptSession` error (not raised), so the caller can report it and go on."""
    where, params = _where(db, **filters)
    sql = f"SELECT {_LIST_COLUMNS}, scorecard, actions FROM sessions{where} ORDER BY started_at, session_id"
    try:
        rows = db.conn.execute(sql, params).fetchall()
    except db.errors as exc:
        raise db.error(exc) from exc
    for r in rows:
        try:
            yield _stored(r)
        except CorruptSession as exc:
            yield exc

@guarded
def count(db: StoreConnection, **filters: Unpack[Filters]) -> int:
    """How many stored sessions match the :class:`Filters`."""
    where, params = _where(db, **filters)
    return int(db.conn.execute(f"SELECT count(*) FROM sessions{where}", params).fetchone()[0])

@guarded
def trainee_names(db: StoreConnection, limit: int = 10_000) -> list[str]:
    """The names of the trainees with a stored session (at most ``limit``, in name order): what a ``--trainee`` that
    matches no session may have meant to name (a trainee role reads its own name only)."""
    sql = "SELECT DISTINCT trainee FROM sessions WHERE trainee IS NOT NULL ORDER BY trainee LIMIT ?"
    return [str(r[0]) for r in db.conn.execute(sql, (limit,))]

@guarded
def invalid_rows(db: StoreConnection, *, limit: int = 100, **filters: Unpack[Filters]) -> list[CorruptSession]:
    """The rows matching the :class:`Filters` that the best scores leave out because a checked column holds a value
    of the wrong type or range (a text ``total``, an unknown outcome...), one :class:`CorruptSession` each (at most
    ``limit``), oldest first. The rows are never modified."""
    where, params = _where(db, valid=False, **filters)
    # Found on the covering summary index (no ORDER BY, so no lookup of every row), then read in full.
    ids = [r[0] for r in db.conn.execute(f"SELECT session_id FROM sessions{where} LIMIT ?", [*params, limit])]
    sql = f"SELECT {_LIST_COLUMNS} FROM sessions WHERE session_id = ?"
    rows = [db.conn.execute(sql, (i,)).fetchone() for i in ids]
    out = []
    for r in sorted(rows, key=lambda r: (str(r["started_at"]), r["session_id"])):
        try:
            _listed(r)
        except CorruptSession as exc:
            out.append(exc)
        else:  # pragma: no cover - the SQL check and the model agree; keep the row reported anyway
            out.append(CorruptSession(f"stored session {r['session_id']} cannot be summarised", r["session_id"]))
    return out

@guarded
def best_scores(db: StoreConnection, trainee: str, mode: str | None = None) -> dict[str, int | None]:
    """The trainee's best total score per drill id: ``{drill_id: 0-100}``, over the sessions that were not
    abandoned (of ``mode`` only, when given: an assessment drill set's picker shows assessment scores); None for a
    drill the trainee only ever quit (every session abandoned). Drills never run are absent. Rows that a read would
    skip as unreadable (a text total...) are left out."""
    where, params = _where(db, valid=True, trainee=trainee, mode=mode)
    rows = db.conn.execute(
        f"SELECT drill_id, max(CASE WHEN outcome = 'abandoned' THEN NULL ELSE total END) FROM sessions{where} "
        "GROUP BY drill_id",
        params,
    )
    return {drill_id: None if best is None else int(best) for drill_id, best in rows}
