"""Which stored sessions are not verified (schema version 14): the table ``session_checks``, one row per session
whose stored results warroom has not checked, or found not to be what its action log scores on its drill.

A session stored by warroom's own recorder or recovery has no row here: the recorder and recovery compute its score
from its action log and its drill, and the store accepts it from a writer it trusts (a SQLite file's owner; on a
PostgreSQL store secured by ``warroom store secure``, a facilitator or the owner of the tables). Every other way in
gets a row (``state``, ``reason``, when, by whom):

- ``unverified``: stored without a check: by a ``warroom_trainee`` login role (the database itself adds the row, by
  a trigger that role cannot get round, :func:`warroom.store.backends.checks_statements`), by ``warroom store import``
  (an export's lines come from another store), or before this schema version on a store with trainee roles;
- ``disagrees``: ``warroom scores verify`` (or recovery, for a journal's end line) recomputed the session and some of
  its stored columns, its scorecard or its drill file do not match (the reason says which);
- ``unverifiable``: ``warroom scores verify`` could not recompute it (its drill file is missing, does not load, or
  changed since and scores it otherwise);
- ``verified``: ``warroom scores verify`` recomputed it and found it right; the row keeps who did, and when.

The cohort statistics (``scores summary``, ``report``) leave out every session with a row whose state is not
``verified`` unless asked to include them (:data:`LEFT_OUT_SQL`), and say how many. A session's row goes with it when
it is deleted (a foreign key, ``ON DELETE CASCADE``). ``store export`` does not write these rows: an imported session
is ``unverified`` in its new store until verified there.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from warroom.store.results._connection import StoreConnection

#: The table.
CHECKS_TABLE = "session_checks"
UNVERIFIED = "unverified"
DISAGREES = "disagrees"
UNVERIFIABLE = "unverifiable"
VERIFIED = "verified"
#: Every state a session's row may have (a session without a row was stored by a writer the store trusts).
STATES: tuple[str, ...] = (UNVERIFIED, DISAGREES, UNVERIFIABLE, VERIFIED)
#: The SQL condition of a session the statistics leave out by default (a row in a state other than verified).
LEFT_OUT_SQL = f"session_id IN (SELECT session_id FROM {CHECKS_TABLE} WHERE state <> '{VERIFIED}')"
#: The SQL condition of a session the statistics count by default.
COUNTED_SQL = f"session_id NOT IN (SELECT session_id FROM {CHECKS_TABLE} WHERE state <> '{VERIFIED}')"
_COLUMNS = "session_id, state, reason, checked_at, checked_by, submitted_by"


@dataclass(frozen=True)
class SessionCheck:
    """What is known of one session's verification: its ``state`` (one of :data:`STATES`), why (``reason``, a
    sentence), when (``checked_at``, ISO 8601 UTC) and by whom (``checked_by``: a login role, a user); and who
    stored it without a check (``submitted_by``: a trainee's login role, ``warroom store import``...; None: a writer
    the store trusts, whose session a verification found wrong)."""

    session_id: str
    state: str
    reason: str
    checked_at: str
    checked_by: str
    submitted_by: str | None = None

    @property
    def submitted(self) -> bool:
        """True when the session was stored without a check (its values are its client's claims)."""
        return self.submitted_by is not None

    @property
    def counted(self) -> bool:
        """True when the statistics count the session by default."""
        return self.state == VERIFIED

    def __str__(self) -> str:
        return f"{self.session_id}: {self.state}: {self.reason}"


def mark(
    db: StoreConnection,
    session_id: str,
    state: str,
    reason: str,
    *,
    by: str | None = None,
    submitted_by: str | None = None,
    replace: bool = True,
) -> None:
    """Record ``state`` and ``reason`` for ``session_id``, now, by ``by`` (None: the login role or the system's
    user), replacing what was recorded (``replace`` False: keeping it, as a trainee role, which may not change a
    record, must); ``submitted_by`` (who stored it without a check) is recorded with a new record only, never
    changed. A session no longer stored (deleted by another process since it was read: ``scores delete`` while
    ``scores verify`` runs) gets no record, where the record's foreign key failed the whole transaction, said as a
    damaged store. Runs in the caller's transaction when there is one. Raises ValueError for an unknown state."""
    from warroom.store.results._history import rescored_by
    from warroom.store.timestamps import utc_now

    if state not in STATES:
        raise ValueError(f"unknown verification state {state!r}")
    sql = (
        f"INSERT INTO {CHECKS_TABLE} ({_COLUMNS}) SELECT ?, ?, ?, ?, ?, ? "
        "WHERE EXISTS (SELECT 1 FROM sessions WHERE session_id = ?) ON CONFLICT(session_id) DO "
    ) + (
        "UPDATE SET state = excluded.state, reason = excluded.reason, checked_at = excluded.checked_at, "
        "checked_by = excluded.checked_by" if replace else "NOTHING"
    )
    values = (session_id, state, reason[:10_000], utc_now(), by or rescored_by(db), submitted_by, session_id)
    db.conn.execute(sql, values)


def read_checks(db: StoreConnection, session_ids: Iterable[str] | None = None) -> dict[str, SessionCheck]:
    """Session id -> its :class:`SessionCheck` (``session_ids``: those sessions only; None: every one with a row)."""
    sql = f"SELECT {_COLUMNS} FROM {CHECKS_TABLE}"
    params: list[Any] = []
    if session_ids is not None:
        ids = list(session_ids)
        if not ids:
            return {}
        if len(ids) <= 500:
            sql += f" WHERE session_id IN ({', '.join('?' for _ in ids)})"
            params = ids
        else:
            wanted = set(ids)
            return {k: v for k, v in read_checks(db).items() if k in wanted}
    from warroom.store.errors import session_id_text

    # keyed by the id as stored (a BLOB id, written by SQL, is found under its bytes), named as text
    return {
        r[0]: SessionCheck(session_id_text(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4]), r[5])
        for r in db.conn.execute(sql, params)
    }


def stored_order(db: StoreConnection, session_ids: Iterable[str]) -> dict[str, tuple[int, int]]:
    """Session id -> where its row comes in the order the database stored the rows, which no client sets: the larger,
    the later stored. A row stored from schema version 20 on is numbered by the database as it is stored
    (``stored_seq``, on both back ends: two rows of one transaction, one ``store import``, are told apart too) and
    comes after every row stored before; of those older rows PostgreSQL keeps the order of the transactions that
    last wrote them (``age(xmin)``: rows of one transaction come level) and SQLite none (all level)."""
    ids = list(session_ids)
    out: dict[str, tuple[int, int]] = {}
    age = "age(xmin)" if db.dialect.name == "postgresql" else "0"
    for at in range(0, len(ids), 500):
        part = ids[at : at + 500]
        marks = ", ".join("?" for _ in part)
        sql = f"SELECT session_id, stored_seq, {age} FROM sessions WHERE session_id IN ({marks})"
        for sid, seq, older in db.conn.execute(sql, part):
            # a number only (a value SQL wrote by hand into a SQLite store, text or a fraction, is no place in the
            # order: such a row comes with the unnumbered ones)
            out[str(sid)] = (1, seq) if type(seq) is int else (0, -int(older) if type(older) is int else 0)
    return out


def any_left_out(db: StoreConnection) -> bool:
    """True when some stored session is left out of the statistics by default (so their queries must say so)."""
    row = db.conn.execute(f"SELECT 1 FROM {CHECKS_TABLE} WHERE state <> '{VERIFIED}' LIMIT 1").fetchone()
    return row is not None


#: The recorded submitters (``submitted_by``) that are roles which cannot log in, on PostgreSQL.
_SUBMITTED_AS_GROUP = f"""SELECT DISTINCT c.submitted_by FROM {CHECKS_TABLE} c
JOIN pg_catalog.pg_roles r ON r.rolname = c.submitted_by WHERE NOT r.rolcanlogin"""


def submitted_as_group(db: StoreConnection) -> frozenset[str]:
    """The names of the roles that cannot log in (a group: ``warroom_trainee``...) that the records of sessions
    stored without a check name as their submitter: before schema version 25 the trigger named the current role, so
    a login that became its group (``SET ROLE``) stored sessions under the group's name, and whose they are is not
    known (:func:`warroom.store.backends.sessions_policies`). From version 25 a record names the login. Empty on
    SQLite (no roles)."""
    if db.dialect.name != "postgresql":
        return frozenset()
    return frozenset(str(r[0]) for r in db.conn.execute(_SUBMITTED_AS_GROUP))
