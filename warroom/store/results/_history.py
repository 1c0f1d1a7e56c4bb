"""The history of a stored session's scorecards (schema version 11): every scorecard a re-score replaced, kept in the
table ``scorecard_history`` with who re-scored, when, by which edition of the scoring rules and why.

The session's row always holds its current scorecard, which every figure reads; a re-score
(:func:`~warroom.store.results._writes.update_scorecard`) first copies the scorecard it replaces here, in the same
transaction, numbered 1, 2, ... per session (``seq``). Deleting a session deletes its history (a foreign key,
``ON DELETE CASCADE``). ``warroom store export`` writes a session's history in its line (``scorecard_history``, only
when it has one) and ``store import`` stores it back; ``warroom review`` lists it.
"""

from __future__ import annotations

import getpass
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from warroom.store.results._checks import strict_json

if TYPE_CHECKING:
    from warroom.store.results._connection import StoreConnection

#: The table of the history.
HISTORY_TABLE = "scorecard_history"
#: Its columns, in the order of :class:`ScorecardChange`'s fields (``scorecard`` as its JSON text).
HISTORY_COLUMNS: tuple[str, ...] = (
    "session_id", "seq", "replaced_at", "replaced_by", "rules", "reason", "scorecard", "scoring_version", "outcome",
    "total", "drill_sha256", "drill_version", "drill_path",
)  # fmt: skip
#: The columns of ``sessions`` copied into the history when their scorecard is replaced (the replaced scorecard and
#: the drill file it was scored on), by the same names.
_COPIED = ("scorecard", "scoring_version", "outcome", "total", "drill_sha256", "drill_version", "drill_path")


@dataclass(frozen=True)
class ScorecardChange:
    """One scorecard a re-score replaced: the session's ``seq``-th re-score, at ``replaced_at`` (ISO 8601 UTC) by
    ``replaced_by`` (the login role on PostgreSQL, the user of the system on SQLite), which applied the scoring rules
    ``rules``, for ``reason``; and what it replaced: the ``scorecard`` (``Scorecard.to_dict()``), its
    ``scoring_version``, ``outcome`` and ``total``, and the drill file it had been scored on."""

    session_id: str
    seq: int
    replaced_at: str
    replaced_by: str
    rules: str | None
    reason: str
    scorecard: dict[str, Any]
    scoring_version: str | None
    outcome: str
    total: int
    drill_sha256: str | None
    drill_version: int | None
    drill_path: str | None

    def to_dict(self) -> dict[str, Any]:
        """As a JSON-ready dict (the scorecard as a dict)."""
        return {k: getattr(self, k) for k in HISTORY_COLUMNS}

    def to_line(self) -> dict[str, Any]:
        """As exported (``warroom store export``): every column as stored, the scorecard as its JSON text, without
        the session id (the line's own)."""
        out = self.to_dict()
        out["scorecard"] = json.dumps(self.scorecard, ensure_ascii=False, sort_keys=True)
        del out["session_id"]
        return out

    def __str__(self) -> str:
        return (
            f"re-score {self.seq} at {self.replaced_at[:19].replace('T', ' ')} UTC by {self.replaced_by} (rules "
            f"{self.rules or '?'}): {self.reason}; it replaced {self.outcome}, {self.total} (rules "
            f"{self.scoring_version or '?'})"
        )


def rescored_by(db: StoreConnection) -> str:
    """Who re-scores through ``db``: the login role on PostgreSQL, the user of the system on SQLite (asked once per
    connection: ``warroom store import`` records it with every session it stores)."""
    if db.user_name is None:
        db.user_name = _user_name(db)
    return db.user_name


def _user_name(db: StoreConnection) -> str:
    if db.dialect.name != "sqlite":
        # the login (``session_user``), whatever ``SET ROLE`` made the current role: the name a trainee role's
        # policies accept (schema version 25), and the one a facilitator's verdicts and re-scores record
        return str(db.conn.execute("SELECT session_user").fetchone()[0])
    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no user name (a container without a passwd entry)
        return "unknown"


def keep_replaced(db: StoreConnection, session_id: str, *, at: str, by: str, rules: str | None, reason: str) -> None:
    """Copy the current scorecard of ``session_id`` into its history (inside the caller's write transaction, before
    the re-score replaces it); nothing when no session has that id."""
    columns = ", ".join(HISTORY_COLUMNS)
    sql = (
        f"INSERT INTO {HISTORY_TABLE} ({columns}) SELECT session_id, coalesce((SELECT max(seq) FROM {HISTORY_TABLE} "
        f"WHERE session_id = ?), 0) + 1, ?, ?, ?, ?, {', '.join(_COPIED)} FROM sessions WHERE session_id = ?"
    )
    db.conn.execute(sql, (session_id, at, by, rules, reason, session_id))


def add_changes(db: StoreConnection, session_id: str, lines: list[dict[str, Any]]) -> None:
    """Store the history of an imported session (``lines``: as :meth:`ScorecardChange.to_line` writes them, checked
    already), inside the caller's write transaction."""
    columns = ", ".join(HISTORY_COLUMNS)
    sql = f"INSERT INTO {HISTORY_TABLE} ({columns}) VALUES ({', '.join('?' for _ in HISTORY_COLUMNS)})"
    for line in lines:
        values = {**line, "session_id": session_id}
        db.conn.execute(sql, tuple(values[c] for c in HISTORY_COLUMNS))


def read_history(db: StoreConnection, session_ids: list[str] | None = None) -> dict[str, list[ScorecardChange]]:
    """Session id -> its scorecard changes, oldest first (``session_ids``: those sessions only; None: every one).
    Raises ValueError for a stored scorecard that is not a JSON object (a store changed by hand)."""
    sql = f"SELECT {', '.join(HISTORY_COLUMNS)} FROM {HISTORY_TABLE}"
    params: list[Any] = []
    if session_ids is not None:
        sql += f" WHERE session_id IN ({', '.join('?' for _ in session_ids)})"
        params = list(session_ids)
    out: dict[str, list[ScorecardChange]] = {}
    for row in db.conn.execute(sql + " ORDER BY session_id, seq", params):
        values = dict(zip(HISTORY_COLUMNS, tuple(row), strict=True))
        card = strict_json(values["scorecard"])
        if not isinstance(card, dict):
            raise ValueError(f"a replaced scorecard of session {values['session_id']} is not a JSON object")
        values["scorecard"] = card
        out.setdefault(values["session_id"], []).append(ScorecardChange(**values))
    return out
