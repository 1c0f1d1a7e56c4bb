"""Writing the results store: storing a finished session, replacing its scorecard after a re-score, deleting.

Plain functions of the store's :class:`~warroom.store.results.StoreConnection`, each one a method of
:class:`~warroom.store.results.ResultsStore`; every value is checked with the
pydantic models of :mod:`warroom.store.results._records` before it is written, so a bad value is refused, never stored.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from warroom.store.errors import DuplicateSession, InvalidSession, SessionNotFound, SessionReason
from warroom.store.results import _countable as countable
from warroom.store.results._connection import StoreConnection, guarded
from warroom.store.results._distractors import figure_columns
from warroom.store.results._responses import response_column, response_sets
from warroom.store.results._rows import FLAG_FIELDS, SessionInfo, WallClock

if TYPE_CHECKING:
    from warroom.core.model import Action
    from warroom.core.scoring import Scorecard


def _scorecard_fields(scorecard: Scorecard) -> dict[str, Any]:
    """The stored columns of a :class:`~warroom.core.scoring.Scorecard`, column -> value (the ``scorecard`` column
    is its ``to_dict()`` as JSON). Raises TypeError for anything but a Scorecard."""
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
    :class:`~warroom.store.results._records.RowRecord` and end no earlier than they start."""
    from pydantic import ValidationError

    from warroom.store.results._records import RowRecord, describe
    from warroom.store.timestamps import ended_before_start

    row = {**values, **{flag: bool(values.get(flag, False)) for flag in FLAG_FIELDS}}
    try:
        RowRecord.model_validate(row)
    except ValidationError as exc:
        reason = SessionReason.of(session_id, "session ", f" was not stored: {describe(exc)}")
        raise InvalidSession.about(reason, session_id) from None
    if nul := next((k for k, v in values.items() if isinstance(v, str) and "\x00" in v), None):
        raise InvalidSession.about(SessionReason.of(session_id, "session ", f" was not stored: {NUL_REFUSED % nul}"),
                                   session_id)  # fmt: skip
    backwards = ended_before_start(values["started_at"], values.get("ended_at"))
    if backwards:
        reason = SessionReason.of(session_id, "session ", f" was not stored: {backwards}")
        raise InvalidSession.about(reason, session_id)


#: Why a text holding a NUL character is refused (``%s``: where it is): PostgreSQL's text cannot hold one, so such a
#: value failed a PostgreSQL store's whole transaction (an import's batch), where SQLite stored it; refused by both.
NUL_REFUSED = "%s holds a NUL character (\\x00), which a PostgreSQL store cannot hold; remove it"


def _check_update(session_id: str, scorecard: Scorecard, drill_columns: dict[str, Any]) -> None:
    """Raise :class:`InvalidSession` unless a re-score's ``scorecard`` and its new drill columns (``drill_sha256``,
    ``drill_version``, ``drill_path``; None: unchanged) fit :mod:`warroom.store.results._records`."""
    from pydantic import ValidationError

    from warroom.store.results._records import ScorecardRecord, StartRecord, describe
    from warroom.store.timestamps import utc_now

    try:
        ScorecardRecord.model_validate(scorecard.to_dict())
        StartRecord.model_validate(
            {"session_id": session_id, "trainee": "-", "drill_id": scorecard.drill_id, "started_at": utc_now(),
             **drill_columns}
        )  # fmt: skip
    except ValidationError as exc:
        raise InvalidSession(f"session {session_id} was not updated: {describe(exc)}", session_id) from None


def _as_utc(value: Any) -> Any:
    """A stored start as the store's UTC text (a row stored before times were written so: the same session imported
    again is the one stored, not another under its id); anything else as it is."""
    from warroom.store.timestamps import utc_text

    try:
        return utc_text(value)
    except (TypeError, ValueError):
        return value


def _actions_json(actions: Iterable[Action]) -> str:
    return json.dumps([a.model_dump(mode="json", exclude_none=True) for a in actions], ensure_ascii=False)


def insert(
    db: StoreConnection,
    info: SessionInfo,
    scorecard: Scorecard,
    actions: Sequence[Action],
    *,
    ended_at: str | None,
    recovered: bool = False,
    notes: Sequence[str] = (),
    wall: WallClock | None = None,
    check: tuple[str, str, str | None] | None = None,
) -> bool:
    """Store one session: its start info, :class:`~warroom.core.scoring.Scorecard` and action log (and ``check``,
    its verification state and why, when it is not verified: see :func:`insert_row`).

    Every value is checked with :class:`~warroom.store.results._records.RowRecord` first. Returns True if the row was
    inserted, False if this very session (same id, trainee, drill, start time and action log) is already stored (it
    is left as it was, so finishing a session twice is harmless). Raises :class:`InvalidSession` for a value that does
    not fit the store (nothing is written), :class:`DuplicateSession` when another session has this id, and
    StoreError for every other failure (locked, damaged, a constraint): never a silent loss.
    """
    values: dict[str, Any] = {
        **info.to_dict(),
        "all_clear": int(info.all_clear),
        "chosen": int(info.chosen),
        "ended_at": ended_at,
        "recovered": int(recovered),
        "notes": json.dumps(list(notes), ensure_ascii=False),
        **(wall or WallClock()).to_dict(),
        **_scorecard_fields(scorecard),
        "actions": _actions_json(actions),
    }
    if values["scoring_version"] is None:
        values["scoring_version"] = info.scoring_version
    return insert_row(db, values, check=check)

def insert_row(
    db: StoreConnection,
    values: dict[str, Any],
    history: Sequence[dict[str, Any]] = (),
    *,
    check: tuple[str, str, str | None] | None = None,
) -> bool:
    """Store one whole row (column -> value, every column of the ``sessions`` table; ``scorecard``, ``actions``
    and ``notes`` as their JSON text), as :meth:`insert` does and with the same checks and results: True if
    inserted, False if this very session is already stored. Used by ``warroom store import``, which passes the
    session's ``history`` too (its replaced scorecards, as exported and checked: stored with the row, in one
    transaction) and ``check``, the session's verification state, why and who stored it without a check (``(
    "unverified", "imported from FILE...", "warroom store import")``; None for the last: a writer the store trusts),
    recorded with it in the same transaction (:mod:`warroom.store.results._verification`). The distractor figures'
    columns are filled from ``scorecard`` (:func:`~warroom.store.results._distractors.figure_columns`)."""
    from warroom.store.results._rows import FULL_FIELDS, LIST_FIELDS

    session_id = str(values.get("session_id"))
    unknown = sorted(set(values) - {*LIST_FIELDS, *FULL_FIELDS})
    if unknown:  # column names go into the SQL: only the table's own
        reason = SessionReason.of(session_id, "session ", f" was not stored: no column {', '.join(unknown)}")
        raise InvalidSession.about(reason, session_id)
    _check_row(session_id, values)
    from warroom.store.timestamps import utc_text

    # times as the store's UTC text, so that they sort as time (an imported line may give any offset)
    values = values | {k: utc_text(values[k]) for k in ("started_at", "ended_at", "rescored_at") if values.get(k)}
    # the distractor figures' and the response's columns always follow the scorecard (never taken from the caller)
    values = {**values, **figure_columns(values.get("scorecard"), values.get("scoring_version"))}
    values["response"] = response_column(
        values.get("scorecard"), values["outcome"], bool(values.get("all_clear")), values["false_escalations"]
    )
    columns = list(values)
    row = tuple(values.values())
    sql = (
        f"INSERT INTO sessions ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)}) "
        "ON CONFLICT(session_id) DO NOTHING"
    )
    if db.dialect.name == "sqlite":
        sql = countable.insert_sql(columns, sql)
    try:
        if db.retry(lambda: _insert(db, sql, row, session_id, history, check)) == 1:
            return True
        stored = db.conn.execute(
            "SELECT trainee, drill_id, started_at, actions FROM sessions WHERE session_id = ?", (session_id,)
        ).fetchone()
    except db.errors as exc:
        error = db.error(exc)  # keeps its kind (unreachable, damaged...)
        trainee = values["trainee"]
        reason = SessionReason.of(session_id, "cannot store session ", f" of trainee {trainee!r}: {error}")
        raise type(error).about(reason) from exc
    _refuse_another(db, session_id, values, stored)
    return False


def _refuse_another(db: StoreConnection, session_id: str, values: dict[str, Any], stored: Any) -> None:
    """Raise :class:`DuplicateSession` unless ``stored`` (the row under ``session_id``: trainee, drill id, start, action
    log) is the very session ``values`` describe."""
    trainee, drill_id, started_at = values["trainee"], values["drill_id"], values["started_at"]
    same = stored is not None and (stored[0], stored[1], _as_utc(stored[2])) == (trainee, drill_id, started_at)
    if not same or not _same_log(stored[3], values.get("actions")):
        differs = "" if stored is None else f" ({stored[0]}, {stored[1]}, started {stored[2]}"
        raise DuplicateSession.about(SessionReason.of(
            session_id, "cannot store session ", f" ({trainee}, {drill_id}, started {started_at}) in "
            f"{db.location}: another session is stored under this id" + differs
            + ("" if stored is None else ")" if not same else ", with another action log)")
        ))  # fmt: skip


def _same_log(stored: Any, given: Any) -> bool:
    """Whether two action logs (a column's JSON text, or its value as the driver reads it) hold the same actions:
    the very same session stored twice has the same log; one under the same id, trainee, drill and start whose log
    differs (a journal copied to another machine and played on, or edited) is another session."""

    def parsed(value: Any) -> Any:  # (a field given as null is the field left out)
        try:
            log = json.loads(value) if isinstance(value, str | bytes) else value
        except ValueError:
            return value
        if not isinstance(log, list):
            return log
        return [{k: v for k, v in a.items() if v is not None} if isinstance(a, dict) else a for a in log]

    return bool(parsed(stored) == parsed(given))


def _insert(
    db: StoreConnection,
    sql: str,
    row: tuple[Any, ...],
    session_id: str,
    history: Sequence[Any],
    check: tuple[str, str, str | None] | None,
) -> int:
    """Run the INSERT of a session's row (and, when it was stored, of its ``history`` and its record as not verified,
    in the same transaction); returns how many rows it stored (0: the session id is stored already)."""
    if not history and check is None:
        return int(db.conn.execute(sql, row).rowcount)
    from warroom.store.results._history import add_changes
    from warroom.store.results._verification import mark

    with db.transaction():
        stored = int(db.conn.execute(sql, row).rowcount)
        if stored == 1:
            add_changes(db, session_id, list(history))
            if check is not None:  # (a trainee role's trigger may have recorded it already: kept)
                state, reason, submitted_by = check
                mark(db, session_id, state, reason, submitted_by=submitted_by, replace=False)
    return stored


def update_scorecard(
    db: StoreConnection,
    session_id: str,
    scorecard: Scorecard,
    *,
    drill_sha256: str | None = None,
    drill_version: int | None = None,
    drill_path: str | None = None,
    note: str | None = None,
    reason: str = "re-scored",
    by: str | None = None,
    read_rescored_at: str | Literal[False] | None = False,
) -> None:
    """Replace a stored session's scorecard (after a re-score) and the columns derived from it (the distractor
    figures' too, :mod:`warroom.store.results._distractors`); a scorecard without a time to detect clears the
    session's wall-clock time to detect (nothing was detected). The scorecard replaced is kept in the session's
    history (:mod:`warroom.store.results._history`), with ``by`` (who re-scored; None: the login role on
    PostgreSQL, the user of the system on SQLite), the time, the new scorecard's rules and ``reason``.

    When the session was re-scored against a drill file other than the one it was played on, pass that file's
    ``drill_sha256``, ``drill_version`` and ``drill_path``: they replace the recorded ones, so the stored score
    and its recorded drill file always agree (None leaves a column as it is). ``note`` (a sentence) is appended
    to the session's notes. Raises SessionNotFound if no session has this id, StoreError if the database stays
    locked.

    ``read_rescored_at`` (a re-score's check that the scorecard it replaces is still the one it read): the session's
    ``rescored_at`` as read (None: never re-scored). In the write's transaction, with the row locked, a session
    re-scored since then (by another ``warroom scores rescore`` at the same time) is not written:
    :class:`~warroom.store.errors.RescoredMeanwhile`. False (the default): not checked.
    """
    from warroom.store.results._history import keep_replaced, rescored_by
    from warroom.store.timestamps import utc_now

    drill_columns = {"drill_sha256": drill_sha256, "drill_version": drill_version, "drill_path": drill_path}
    _check_update(session_id, scorecard, drill_columns)
    now = utc_now()
    sets, params = _update_sets(scorecard, drill_columns, now)
    conn = db.conn

    def update() -> int:
        extra_sets, extra = [], []
        if read_rescored_at is not False:
            _still_as_read(db, session_id, read_rescored_at)
        if note is not None:
            sql = f"SELECT notes FROM sessions WHERE session_id = ?{db.dialect.for_update}"
            r = conn.execute(sql, (session_id,)).fetchone()
            notes = [*json.loads(r[0] or "[]"), note] if r is not None else [note]
            extra_sets, extra = ["notes = ?"], [json.dumps(notes, ensure_ascii=False)]
        who = by or rescored_by(db)
        keep_replaced(db, session_id, at=now, by=who, rules=scorecard.scoring_version, reason=reason)
        sql = f"UPDATE sessions SET {', '.join(sets + extra_sets)} WHERE session_id = ?"
        return int(conn.execute(sql, (*params, *extra, session_id)).rowcount)

    try:
        rowcount = db.write(update)
    except db.errors as exc:
        error = db.error(exc)
        raise type(error)(f"cannot update session {session_id}: {error}") from exc
    if rowcount != 1:
        raise SessionNotFound(f"no stored session {session_id!r}")


def _still_as_read(db: StoreConnection, session_id: str, read_rescored_at: str | None) -> None:
    """Raise :class:`~warroom.store.errors.RescoredMeanwhile` unless session ``session_id`` (its row locked for the
    caller's write transaction) was last re-scored at ``read_rescored_at``, as it was read; SessionNotFound later
    for no such session."""
    from warroom.store.errors import RescoredMeanwhile

    sql = f"SELECT rescored_at FROM sessions WHERE session_id = ?{db.dialect.for_update}"
    row = db.conn.execute(sql, (session_id,)).fetchone()
    if row is not None and row[0] != read_rescored_at:
        raise RescoredMeanwhile(
            f"session {session_id} was re-scored by someone else (at {row[0]}) since this re-score read it; "
            "not rewritten", row[0]
        )


def _update_sets(scorecard: Scorecard, drill_columns: dict[str, Any], now: str) -> tuple[list[str], list[Any]]:
    """The ``SET`` clauses of a re-score's UPDATE and their parameters: the scorecard's columns (its distractor
    figures' too), ``rescored_at``, the drill file's columns given (not None)."""
    sc = _scorecard_fields(scorecard)
    sc.update(figure_columns(sc["scorecard"], sc["scoring_version"]))
    response_set, response_params = response_sets(scorecard.to_dict(), sc["outcome"], sc["false_escalations"])
    sets = [f"{column} = ?" for column in sc] + ["rescored_at = ?", response_set]
    if scorecard.time_to_detect is None:  # nothing detected now: no wall-clock time to detect either
        sets.append("wall_time_to_detect = NULL")
    params: list[Any] = [*sc.values(), now, *response_params]
    for column, value in drill_columns.items():
        if value is not None:
            sets.append(f"{column} = ?")
            params.append(value)
    return sets, params


@guarded
def delete(db: StoreConnection, session_ids: Sequence[str]) -> int:
    """Delete the stored sessions with these exact ids, all in one transaction; returns how many were deleted
    (ids not stored are ignored). Raises StoreError when the database stays locked or is damaged."""
    conn = db.conn

    def delete() -> int:
        if db.dialect.name == "sqlite":
            sql = "DELETE FROM sessions WHERE session_id = ?"
            return sum(int(conn.execute(sql, (i,)).rowcount) for i in session_ids)
        # one statement for them all
        return int(conn.execute("DELETE FROM sessions WHERE session_id = ANY(?)", (list(session_ids),)).rowcount)

    return int(db.write(delete))
