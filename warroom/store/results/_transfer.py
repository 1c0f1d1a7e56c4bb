"""Moving results between stores: ``warroom store export`` / ``import`` as JSON Lines.

One line per stored session, in the order the store stored them (``stored_seq``: the order of a trainee's attempts,
which an import keeps by storing the lines in their order): a JSON object with every column of the ``sessions``
table, each value as stored (``scorecard``, ``actions`` and ``notes`` are the stored JSON text, ``all_clear`` and
``recovered`` 0 or 1), so an export imported into another store (SQLite or PostgreSQL) and exported again gives the
same lines. A session that was re-scored carries its scorecard history in its line (``scorecard_history``), stored
back with it. Import checks every line with the store's models (:class:`~warroom.store.results._records.RowRecord`)
and stores it as a session finished now would be: once (a session already stored under its id is left as it is and
counted), never a made-up value.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TextIO

from warroom.core.text import json_text
from warroom.store.backends import IMPORT_SUBMITTER
from warroom.store.errors import CorruptSession, DuplicateSession, InvalidSession, SessionReason, StoreError
from warroom.store.results._checks import strict_json
from warroom.store.results._rows import FLAG_FIELDS, FULL_FIELDS, LIST_FIELDS, older_played_as
from warroom.store.results._store import ResultsStore
from warroom.store.results._verification import UNVERIFIED

#: Every column of an exported line, in the order written.
EXPORT_COLUMNS: tuple[str, ...] = (*LIST_FIELDS, *FULL_FIELDS)
#: The order of an export's lines: the order the store stored the sessions, unnumbered ones (stored before schema
#: version 20) first in start order, as :func:`~warroom.core.stats.attempt_order` orders a trainee's attempts.
STORED_ORDER = "stored_seq IS NOT NULL, stored_seq, started_at, session_id"
#: The key of a line's scorecard history (written only for a session that has one: the scorecards re-scores replaced,
#: oldest first, each as :meth:`~warroom.store.results._history.ScorecardChange.to_line` writes it).
HISTORY_KEY = "scorecard_history"


def export_lines(store: ResultsStore, skipped: list[CorruptSession] | None = None) -> Iterator[str]:
    """Every stored session as one JSON line (no line end), in the order the store stored them (``stored_seq``; the
    sessions stored before schema version 20, unnumbered, first, in start order, then by id: the order of
    :func:`~warroom.core.stats.attempt_order`), so that a store moved by export and import keeps each trainee's first
    attempt at a drill (in start order, a replay played with the clock set back became it). Rows are exported exactly
    as stored, readable or not (a damaged row is moved as it is; ``warroom scores`` reports it), except a row that JSON
    cannot hold (a number that is not finite, ``9e999`` in SQLite): it is left out, and added to ``skipped``."""
    from warroom.store.results._history import read_history

    sql = f"SELECT {', '.join(EXPORT_COLUMNS)} FROM sessions ORDER BY {STORED_ORDER}"
    try:
        history = read_history(store.db)
        rows = store.db.conn.execute(sql)
        for r in rows:
            line = dict(zip(EXPORT_COLUMNS, tuple(r), strict=True))
            if line["session_id"] in history:
                line[HISTORY_KEY] = [change.to_line() for change in history[line["session_id"]]]
            try:
                text = json_text(line)  # (control and bidi characters as escapes: safe on a terminal, faithful)
            except (ValueError, TypeError) as exc:  # a value JSON cannot hold: reported, never written made up
                sid = str(line["session_id"])
                if skipped is not None:
                    reason = (
                        "a number in it is not finite (JSON cannot hold it)"
                        if isinstance(exc, ValueError)
                        else "a value in it is binary data, a BLOB written by SQL (JSON cannot hold it)"
                    )
                    skipped.append(CorruptSession(f"stored session {sid} cannot be exported: {reason}", sid))
                continue
            yield text
    except store.db.errors as exc:
        raise store.db.error(exc) from exc


@dataclass
class ImportResult:
    """What an import did: sessions stored, sessions already there, and one ``source:line: message`` per line
    refused (:attr:`refused`; :meth:`refused_grouped` for people)."""

    imported: int = 0
    already: int = 0
    #: The refusals as ``(source, line number, message, the message's template or None)``, in the order of the
    #: lines: the template is the message with ``S`` in the places of the line's session id, for a reason about that
    #: session (:class:`~warroom.store.errors.SessionReason`).
    refusals: list[tuple[str, int, str, str | None]] = field(default_factory=list)
    #: The sessions stored, by trainee name (an export holds whatever names its writer gave: the facilitator is told
    #: whose sessions a trainee's file brought).
    by_trainee: Counter[str] = field(default_factory=Counter)
    #: The column of a refused line's problem, by ``(source, line number)``, when one place of the line is wrong (a
    #: JSON error, a key given twice): written ``source:N:COL: message``.
    columns: dict[tuple[str, int], int] = field(default_factory=dict)
    #: Sessions stored without the scorecard history their line carried: a trainee's own file (``--trainee``) cannot
    #: say who re-scored a session, by which rules or why, so its history is not believed.
    histories_left_out: int = 0

    @property
    def refused(self) -> list[str]:
        """One ``source:N: message`` (``source:N:COL: message`` with a column) per line refused, in the order of
        the lines."""
        return [f"{self._at(source, number)}: {message}" for source, number, message, _ in self.refusals]

    def merge(self, part: ImportResult) -> None:
        """Add what ``part`` (the import of later lines) did."""
        self.imported += part.imported
        self.already += part.already
        self.refusals += part.refusals
        self.by_trainee.update(part.by_trainee)
        self.columns.update(part.columns)
        self.histories_left_out += part.histories_left_out

    def _at(self, source: str, number: int) -> str:
        column = self.columns.get((source, number))
        return f"{source}:{number}" if column is None else f"{source}:{number}:{column}"

    def refuse(self, source: str, number: int, reason: str | SessionReason, column: int | None = None) -> None:
        """Record that line ``number`` of ``source`` was refused for ``reason`` (a message, or a message about the
        line's session with its id apart), at ``column`` of the line when one place is wrong."""
        if column is not None:
            self.columns[source, number] = column
        if isinstance(reason, SessionReason):
            self.refusals.append((source, number, reason.text, reason.template()))
        else:
            self.refusals.append((source, number, reason, None))

    def refused_grouped(self, shown: int = 10) -> list[str]:
        """The refusals for a person to read: ``source:N: message`` for a line refused for a reason of its own; for
        lines refused for the same reason (a trainee role importing a whole class: each other trainee's sessions)
        one ``source:N1, N2, ... and K more lines (T in all; S is each line's session id): message``, the first
        ``shown`` line numbers named and each line's session id written S in the message (lines grouped by the
        message's template, so an id that is also a word of the message changes nothing else). Groups in the order
        of their first line."""
        groups: dict[tuple[str, str], list[int]] = {}
        own: dict[tuple[str, int], str] = {}
        templated: set[tuple[str, str]] = set()
        for source, number, message, template in self.refusals:
            groups.setdefault((source, template or message), []).append(number)
            own[source, number] = message
            if template is not None:
                templated.add((source, template))
        out = []
        for (source, message), numbers in groups.items():
            if len(numbers) == 1:
                out.append(f"{self._at(source, numbers[0])}: {own[source, numbers[0]]}")
                continue
            named = ", ".join(str(n) for n in numbers[:shown])
            more = f" and {len(numbers) - shown:,} more lines" if len(numbers) > shown else ""
            which = "; S is each line's session id" if (source, message) in templated else ""
            out.append(f"{source}:{named}{more} ({len(numbers):,} lines{which}): {message}")
        return out


def _json_problem(msg: str) -> str:
    """What the JSON reader said of a line (``msg``), as a message says it: its place is the message's column, so its
    dangling "at" goes (``Invalid control character at``), and what to do is said."""
    msg = msg.removesuffix(" starting at").removesuffix(" at")
    if msg.startswith("Invalid control character"):
        return (f"{msg} in a string (a raw tab, carriage return or other control character): write it as an escape "
                "(\\t, \\r, \\u0000), as `warroom store export` writes it, or export the session again")
    return msg


def _row(text: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The column values of one exported line, and its session's scorecard history (checked). Raises ValueError
    naming what is wrong."""
    try:
        value = strict_json(text)
    except json.JSONDecodeError as exc:  # the place in the line apart (a key given twice, a syntax error)
        raise json.JSONDecodeError(f"not a JSON object: {_json_problem(exc.msg)}", exc.doc, exc.pos) from None
    except ValueError as exc:
        raise ValueError(f"not a JSON object: {exc}") from None
    if not isinstance(value, dict):
        raise ValueError("not a JSON object")
    history = _history(value.pop(HISTORY_KEY, []))
    unknown = sorted(set(value) - set(EXPORT_COLUMNS))
    if unknown:
        raise ValueError(f"unknown column {', '.join(repr(c) for c in unknown[:5])}")
    missing = [c for c in ("session_id", "trainee", "drill_id", "started_at", "outcome", "total") if c not in value]
    if missing:
        raise ValueError(f"missing {', '.join(missing)}")
    for flag in FLAG_FIELDS:
        if value.get(flag, 0) not in (0, 1) or isinstance(value.get(flag, 0), float):
            raise ValueError(f"{flag} is neither 0 nor 1")
        value[flag] = int(value.get(flag, 0))
    if value.get("played_as") is None:  # exported before sessions recorded the trial: the trial it was
        value["played_as"] = older_played_as(bool(value["all_clear"]))
    missing = [c for c in FULL_FIELDS if c not in value]
    if missing:
        raise ValueError(f"missing {', '.join(missing)}")
    return value, history


@functools.cache
def _action_log() -> Any:
    """The model of an action log (a list of actions), built once (building it takes milliseconds)."""
    from pydantic import TypeAdapter

    from warroom.core.model import Action

    return TypeAdapter(list[Action])


def _actions_problem(text: str, actions: Any) -> tuple[str, int | None] | None:
    """Check the action log of a line (its stored JSON text) with the journal's model, as a journal line is checked
    (a note over its limit, a drill time out of range): what is wrong and the column in ``text`` of the key refused,
    or None."""
    from pydantic import ValidationError

    from warroom.store.results._records import describe, error_column

    if not isinstance(actions, str):
        return None  # the column's own check says what is wrong
    try:
        _action_log().validate_json(actions)
    except ValidationError as exc:
        if any(e["type"] == "json_invalid" for e in exc.errors()):
            return None  # not JSON: the column's own check says so
        column = error_column(actions, exc)
        nested = json.dumps(actions)[1:-1]  # the action log as it is written inside the line (a JSON string)
        at = text.find(nested) if column is not None else -1
        offset = len(json.dumps(actions[: column - 1])) - 2 if column is not None else 0
        return f"actions: {describe(exc)}", at + 1 + offset if at >= 0 else None
    return None


def _history(changes: Any) -> list[dict[str, Any]]:
    """The scorecard history of an exported line (a list of replaced scorecards), each checked with
    :class:`~warroom.store.results._records.HistoryRecord`. Raises ValueError naming what is wrong."""
    from pydantic import ValidationError

    from warroom.store.results._records import HistoryRecord, describe

    if not isinstance(changes, list):
        raise ValueError(f"{HISTORY_KEY} is not a list")
    try:
        history = [HistoryRecord.model_validate(change).model_dump() for change in changes]
    except ValidationError as exc:
        raise ValueError(f"{HISTORY_KEY}: {describe(exc)}") from None
    from warroom.store.results._writes import NUL_REFUSED

    seen: set[Any] = set()
    for change in history:  # (the store numbers a session's re-scores once each: a number twice failed the batch)
        if change["seq"] in seen:
            raise ValueError(f"{HISTORY_KEY}: re-score {change['seq']} is given twice (each is numbered once)")
        seen.add(change["seq"])
        if nul := next((k for k, v in change.items() if isinstance(v, str) and "\x00" in v), None):
            raise ValueError(f"{HISTORY_KEY}: {NUL_REFUSED % nul}")
    return history


#: Lines stored per transaction by :func:`import_lines`, on both back ends: one commit (one ``fsync``) per batch, not
#: per line, and a SQLite store's write lock held for one batch at a time (a war room storing a session meanwhile
#: waits for one batch, well within the busy timeout, never for the whole file). On a PostgreSQL store secured by
#: ``warroom store secure``, a trainee role's policies accept the record of a session stored in a savepoint of the
#: transaction (schema version 20; before, a line's row in a savepoint had its subtransaction's ``xmin``, which the
#: policy refused, and each line was committed alone).
IMPORT_BATCH = 500


class UnreadLine(NamedTuple):
    """A line of an export that could not be read as text (its bytes are not UTF-8): why, and the column (1-based,
    in characters) of its first bad byte. It is refused at its place; the lines after it are read."""

    reason: str
    column: int

    @classmethod
    def of(cls, line: bytes, exc: UnicodeDecodeError) -> UnreadLine:
        """The line ``line`` that ``exc`` says is not UTF-8."""
        return cls(f"not UTF-8 text (byte 0x{line[exc.start]:02x} here): an export is UTF-8 JSON Lines, as `warroom "
                   "store export` writes it; save it as UTF-8", len(line[: exc.start].decode("utf-8", "replace")) + 1)


def import_lines(
    store: ResultsStore, lines: Iterable[str | UnreadLine | None], source: str, trainee: str | None = None
) -> ImportResult:
    """Store the sessions of exported ``lines`` (from ``source``, named in messages), each recorded as not verified
    (its values come from another store: ``warroom scores verify`` checks them). With ``trainee`` (a trainee's own
    export), only that trainee's sessions are stored: a session under any other name (another trainee's, or one
    that looks like it) is refused, since whoever wrote the file could give it any name; None stores every
    trainee's; such a file's scorecard histories are left out (counted in
    :attr:`ImportResult.histories_left_out`): its writer could name any facilitator as having re-scored. A line that
    does not fit (not JSON, an unknown column, a value the store refuses, another session
    under its id, another trainee's session, a row the login role may not store: another trainee's session for a
    trainee role) is refused and named (``source:N: message``; an :class:`UnreadLine`, not UTF-8, at its column);
    the others are stored.

    Lines are read and stored :data:`IMPORT_BATCH` at a time, each batch in one transaction
    (every line's row, its history and its record as not verified in a savepoint of it: a line refused leaves
    nothing behind), committed once. Raises :class:`~warroom.store.errors.StoreError` when the store fails (the
    batches, or lines, before are stored; importing again skips them)."""
    import itertools

    result = ImportResult()
    unverified = f"imported from {source[:200]} by warroom store import: not verified yet"
    numbered = enumerate(lines, start=1)
    while batch := list(itertools.islice(numbered, IMPORT_BATCH)):  # read before the write lock is taken
        try:
            part = store.db.retry(lambda: _import_batch(store, batch, source, trainee, unverified))
        except store.db.errors as exc:  # the batch's commit (a full disk...): nothing of it is stored
            raise store.db.error(exc) from exc
        result.merge(part)
    return result


def _import_batch(store: ResultsStore, batch: list[tuple[int, str | UnreadLine | None]], source: str,
                  trainee: str | None, unverified: str) -> ImportResult:  # fmt: skip
    """Store one batch of numbered lines in one transaction (:func:`import_lines`); what it did."""
    part = ImportResult()
    with store.db.transaction():
        for number, text in batch:
            _import_line(store, part, (source, number, text), trainee, unverified)
    return part


def _import_line(store: ResultsStore, result: ImportResult, line: tuple[str, int, str | UnreadLine | None],
                 trainee: str | None,
                 unverified: str) -> None:  # fmt: skip
    """Store the session of one exported ``line`` (source, number, text; None: too long to read; an
    :class:`UnreadLine`: not text), or refuse it;
    counted in ``result``."""
    source, number, text = line
    if text is None:  # a line too long to read (the reader said so)
        result.refuse(source, number, "a line longer than an export's line may be; not read")
        return
    if isinstance(text, UnreadLine):  # not text (the reader said why)
        result.refuse(source, number, text.reason, text.column)
        return
    if not text.strip():
        return
    try:
        values, history = _row(text)
        problem = _actions_problem(text, values["actions"])
        if problem is not None:
            result.refuse(source, number, *problem)
            return
        _check_trainee(values, trainee)
        believed = history if trainee is None else []  # (a trainee's file: see histories_left_out)
        stored = store.insert_row(values, believed, check=(UNVERIFIED, unverified, IMPORT_SUBMITTER))
    except (ValueError, InvalidSession, DuplicateSession) as exc:
        if isinstance(exc, json.JSONDecodeError):  # one place of the line: its column apart
            result.refuse(source, number, exc.msg, exc.colno)
        else:
            result.refuse(source, number, _reason(exc))
        return
    except StoreError as exc:
        if not _refused_by_policy(exc):
            raise
        result.refuse(source, number, _reason(exc))  # another trainee's, for a trainee role
        return
    if stored:
        result.imported += 1
        result.histories_left_out += bool(history) and trainee is not None
        result.by_trainee[str(values.get("trainee"))] += 1
    else:
        result.already += 1


def _check_trainee(values: dict[str, Any], trainee: str | None) -> None:
    """Raise InvalidSession when the line's session is not ``trainee``'s (None: any trainee's will do)."""
    if trainee is None or values.get("trainee") == trainee:
        return
    from warroom.core.text import shown_id

    sid = str(values.get("session_id"))
    who = f" of trainee {shown_id(str(values.get('trainee')))}, not of {shown_id(trainee)} (--trainee): not stored"
    raise InvalidSession.about(SessionReason.of(sid, "session ", who), sid)


def _reason(exc: Exception) -> str | SessionReason:
    """Why a line was refused: the error's reason about its session when it has one, else its message."""
    reason = getattr(exc, "reason", None)
    return reason if isinstance(reason, SessionReason) else str(exc)


def _refused_by_policy(exc: StoreError) -> bool:
    """Whether the database refused the row for the login role's rights (PostgreSQL's row-level security of
    ``warroom store secure``: SQLSTATE 42501), a refusal of that one line rather than a failure of the store."""
    return getattr(exc.__cause__, "sqlstate", None) == "42501"


def write_export(store: ResultsStore, out: TextIO, skipped: list[CorruptSession] | None = None) -> int:
    """Write every stored session to ``out`` as JSON Lines; returns how many. A row left out (see
    :func:`export_lines`) is added to ``skipped``."""
    n = 0
    for line in export_lines(store, skipped):
        out.write(line + "\n")
        n += 1
    return n
