"""The table of who is live in a served class: :class:`LiveTab` rows, written by each ``warroom serve`` host
(:func:`publish_live`, :func:`forget_host`) and read by the facilitator's console of any host (:func:`read_live`).

A host names itself (``host``: a random id per server run, with its address for people) and each browser tab it
serves (``tab``), so hosts never write each other's rows. Every write of a host refreshes the ``heartbeat_at`` of all
its rows; a host writes at least every few seconds while it runs, so a row whose heartbeat is old belongs to a host
that stopped or lost the database (the console shows it as such). Times are ISO 8601 UTC text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from warroom.store.results import ResultsStore

_R = TypeVar("_R")

#: The table.
LIVE_TABLE = "live_sessions"

#: A signed-in browser that has no tab open yet.
SIGNED_IN = "signed_in"
#: A tab open on the drill picker (or the briefing): no drill being played.
PICKER = "picker"
#: A tab playing a drill (its journal is open).
PLAYING = "playing"
#: A tab whose last drill ended (``outcome``, ``total``), now back on the debrief or the picker.
FINISHED = "finished"
#: A tab that another tab of its trainee took over (``POST /takeover``, on any host): written by the host of the new
#: tab, kept by its own host's writes (:func:`publish_live`) until that host has closed it (then DISCONNECTED).
TAKEN_OVER = "taken_over"
#: A tab that is gone: closed, its connection lost, or its app process ended.
DISCONNECTED = "disconnected"
#: Every state, in the order a tab goes through them.
STATES = (SIGNED_IN, PICKER, PLAYING, FINISHED, TAKEN_OVER, DISCONNECTED)
#: The states of a tab that is open: it counts against its trainee's tab limit (``--tabs-per-trainee``).
OPEN_STATES = (PICKER, PLAYING, FINISHED)


@dataclass(frozen=True)
class LiveTab:
    """One row of the live table: one browser tab of ``trainee`` on ``host`` (or a sign-in without a tab).

    ``state`` is one of :data:`STATES`. While a drill is played: its ``session_id``, ``drill_id``, ``mode``
    and ``set_id``; the drill clock (``drill_time`` seconds at the wall time ``clock_at``, running at
    ``speed`` unless ``paused``); ``actions`` recorded so far, the ``last_action`` (its kind) and when
    (``last_action_at``). Once it ended: ``outcome``, ``total`` and ``ended_at`` (kept until the next drill starts).
    ``connected_at`` is when the tab opened (or the browser signed in); ``heartbeat_at`` when its host last wrote.
    """

    host: str
    tab: str
    trainee: str
    state: str
    connected_at: str
    heartbeat_at: str
    session_id: str | None = None
    drill_id: str | None = None
    mode: str | None = None
    set_id: str | None = None
    drill_time: float | None = None
    clock_at: str | None = None
    speed: float | None = None
    paused: bool = False
    actions: int = 0
    last_action: str | None = None
    last_action_at: str | None = None
    outcome: str | None = None
    total: int | None = None
    ended_at: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """As a JSON-ready dict of every column."""
        return {k: getattr(self, k) for k in LIVE_COLUMNS}


#: The table's columns, in the order of :class:`LiveTab`'s fields.
LIVE_COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(LiveTab))
_KEY = ("host", "tab")


def _values(row: LiveTab) -> tuple[Any, ...]:
    values = row.to_dict()
    values["paused"] = int(row.paused)
    return tuple(values[c] for c in LIVE_COLUMNS)


#: A row written by its host: inserted, or replacing the row of that tab, except that a tab another host marked
#: TAKEN_OVER stays so until its own host writes it DISCONNECTED (its host learns of the take-over from the table).
_UPSERT = (
    f"INSERT INTO {LIVE_TABLE} ({', '.join(LIVE_COLUMNS)}) VALUES ({', '.join('?' for _ in LIVE_COLUMNS)}) "
    "ON CONFLICT (host, tab) DO UPDATE SET "
    + ", ".join(
        f"{c} = CASE WHEN {LIVE_TABLE}.state = '{TAKEN_OVER}' AND excluded.state <> '{DISCONNECTED}' "
        f"THEN {LIVE_TABLE}.state ELSE excluded.state END" if c == "state" else f"{c} = excluded.{c}"
        for c in LIVE_COLUMNS if c not in _KEY
    )
)


def publish_live(store: ResultsStore, host: str, rows: Sequence[LiveTab], gone: Sequence[str], now: str) -> None:
    """Write ``host``'s changed ``rows`` (inserted or replaced), delete its tabs ``gone``, and refresh the heartbeat of
    all its rows to ``now``, in one transaction. Raises :class:`~warroom.store.errors.StoreError` when the store
    cannot be written."""
    db = store.db

    def write() -> None:
        conn = db.conn
        for tab in gone:
            conn.execute(f"DELETE FROM {LIVE_TABLE} WHERE host = ? AND tab = ?", (host, tab))
        for row in rows:
            conn.execute(_UPSERT, _values(row))
        conn.execute(f"UPDATE {LIVE_TABLE} SET heartbeat_at = ? WHERE host = ?", (now, host))

    _written(store, write)


def forget_host(
    store: ResultsStore, host: str | None = None, *, before: str | None = None, earlier_runs: bool = False
) -> None:
    """Delete the rows of ``host`` (a host that stops), and those of any host whose heartbeat is older than
    ``before`` (hosts that stopped without saying so, long ago). ``earlier_runs``: also the rows of the earlier runs
    of ``host``, the names that differ from it only after its ``#`` (``name:port#run``: a server killed on this
    machine and port, which cannot still be serving since ``host`` holds the port now)."""
    db = store.db
    run_of = host.rpartition("#")[0] + "#" if host is not None and earlier_runs and "#" in host else None

    def write() -> None:
        if host is not None:
            db.conn.execute(f"DELETE FROM {LIVE_TABLE} WHERE host = ?", (host,))
        if run_of is not None:  # the length is a number written here, not a value from outside
            db.conn.execute(f"DELETE FROM {LIVE_TABLE} WHERE substr(host, 1, {len(run_of)}) = ?", (run_of,))
        if before is not None:
            db.conn.execute(f"DELETE FROM {LIVE_TABLE} WHERE heartbeat_at < ?", (before,))

    _written(store, write)


def _written(store: ResultsStore, write: Callable[[], _R]) -> _R:
    """``write()`` in one transaction of the store (retried while SQLite reports it locked); a database error is
    raised as the store's :class:`~warroom.store.errors.StoreError`."""
    try:
        return store.db.write(write)
    except store.db.errors as exc:
        raise store.db.error(exc) from exc


def read_live(store: ResultsStore) -> list[LiveTab]:
    """Every row of the live table, by trainee, then host and tab."""
    db = store.db
    sql = f"SELECT {', '.join(LIVE_COLUMNS)} FROM {LIVE_TABLE} ORDER BY trainee, host, tab"
    try:
        rows = db.conn.execute(sql).fetchall()
    except db.errors as exc:
        raise db.error(exc) from exc
    out = []
    for row in rows:
        values = dict(zip(LIVE_COLUMNS, tuple(row), strict=True))
        values["paused"] = bool(values["paused"])
        out.append(LiveTab(**values))
    return out


def claim_tab(store: ResultsStore, row: LiveTab, limit: int, fresh_after: str, own_open: int) -> bool:
    """Write ``row`` (a tab its host opens now) unless its trainee already has ``limit`` open tabs, in one step
    that no other host's claim can interleave with: True when it was written. The tabs counted are ``own_open``
    (those the row's host has open now, which it knows better than the table) and the open rows (:data:`OPEN_STATES`)
    of the trainee on the other hosts whose heartbeat is later than ``fresh_after``. On PostgreSQL the transaction
    holds an advisory lock on the trainee's name (two hosts claiming a tab for one trainee at once take turns: the
    second counts the first's row); SQLite's write transaction (``BEGIN IMMEDIATE``) already admits one writer."""
    db = store.db
    open_states = ", ".join(f"'{s}'" for s in OPEN_STATES)
    count = (
        f"SELECT count(*) FROM {LIVE_TABLE} WHERE trainee = ? AND host <> ? AND state IN ({open_states}) "
        "AND heartbeat_at > ?"
    )

    def write() -> bool:
        conn = db.conn
        if db.dialect.name == "postgresql":
            _claim_lock(conn, row.trainee)
        (elsewhere,) = conn.execute(count, (row.trainee, row.host, fresh_after)).fetchone()
        if own_open + int(elsewhere) >= limit:
            return False
        conn.execute(_UPSERT, _values(row))
        return True

    return _written(store, write)


#: The first key of the advisory locks :func:`claim_tab` takes (the second: a hash of the trainee's name).
_CLAIM_LOCK = 0x7761
#: How long :func:`claim_tab` waits for a trainee's advisory lock (another host's claim holds it for milliseconds).
CLAIM_LOCK_WAIT_S = 2.0


def _claim_lock(conn: Any, trainee: str) -> None:
    """Take the transaction's advisory lock on ``trainee``'s name, waiting at most :data:`CLAIM_LOCK_WAIT_S`: any
    login role may take an advisory lock, a ``warroom_trainee`` role's included, and one holding this key made the
    host's claim wait until the statement was cut after 30 s, in the host's one worker thread (every other tab's
    claim and the live table's ticks queued behind it). Raises :class:`~warroom.store.errors.StoreError` then: the
    host counts as when the table cannot be written."""
    import time

    from warroom.store.errors import StoreError

    deadline = time.monotonic() + CLAIM_LOCK_WAIT_S
    sql = f"SELECT pg_try_advisory_xact_lock({_CLAIM_LOCK}, hashtext(?))"
    while not conn.execute(sql, (trainee,)).fetchone()[0]:
        if time.monotonic() > deadline:
            raise StoreError(
                f"the live table's lock on trainee {trainee!r} has been held by another session for "
                f"{CLAIM_LOCK_WAIT_S:g} s (another host's claim takes milliseconds): the tab is counted from the "
                "table last read; end that session (pg_terminate_backend) if it persists"
            )
        time.sleep(0.05)


def take_over_tabs(store: ResultsStore, trainee: str, host: str, fresh_after: str) -> list[tuple[str, str]]:
    """Mark TAKEN_OVER every open tab of ``trainee`` that hosts other than ``host`` serve (their heartbeat later than
    ``fresh_after``); each such host closes its tab when it next reads the table. Returns the ``(host, tab)`` marked."""
    db = store.db
    open_states = ", ".join(f"'{s}'" for s in OPEN_STATES)
    where = f"trainee = ? AND host <> ? AND state IN ({open_states}) AND heartbeat_at > ?"

    def write() -> list[tuple[str, str]]:
        conn = db.conn
        marked = conn.execute(f"SELECT host, tab FROM {LIVE_TABLE} WHERE {where}", (trainee, host, fresh_after))
        found = [(str(h), str(t)) for h, t in marked.fetchall()]
        conn.execute(f"UPDATE {LIVE_TABLE} SET state = '{TAKEN_OVER}' WHERE {where}", (trainee, host, fresh_after))
        return found

    return _written(store, write)
