"""The checks of what the store keeps, as pydantic models: every value checked on every write and every read.

One table of column checks (:data:`COLUMNS`: each column of the ``sessions`` table, its type and bounds, its default)
serves the session journal and the results store, so a value that the store would refuse is refused in the journal
too (and the other way round). The shape of each row is defined once, by the values of
:mod:`warroom.store.results._rows`; the models that check a row are made from those fields and this table:

- :data:`StartRecord`: a session's start (the journal's ``start`` line, the fields of
  :class:`~warroom.store.results.SessionInfo`);
- :data:`ListedRecord` / :data:`RowRecord`: one row of the ``sessions`` table, the columns of
  :class:`~warroom.store.results.SessionRow` (without / with the scorecard and the action log, as their JSON text).

The journal's lines have shapes of their own: :class:`ActionRecord` (one ``action`` line, its ``action`` an
:class:`~warroom.core.model.Action` with a finite drill time of at most :data:`MAX_ACTION_SECONDS`),
:class:`ScorecardRecord` (the figures of a scorecard: the ``end`` line's, the stored one) and :class:`EndRecord`.

Every number is strict (a text ``"80"`` or a boolean is never taken as one), finite and bounded; every text
column holds text. :data:`~warroom.store.results._checks.VALID_ROW_SQL` is the same check on the numeric and text
columns as an SQL expression, so figures computed inside the database skip the rows a read would skip.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, create_model

from warroom.core.model import MAX_ACTIONS, MAX_DRILL_SECONDS, Action
from warroom.core.scoring import MAX_TOTAL
from warroom.core.text import ID_PATTERN
from warroom.store.results._checks import MAX_ACTION_SECONDS, OUTCOME_VALUES, strict_json
from warroom.store.results._rows import FULL_FIELDS, LIST_FIELDS, START_FIELDS

#: Largest damage or cost figure the store accepts (the drill format's largest damage times a thousand entries).
MAX_FIGURE = 1e15
#: Longest session id (it is a file name in the journals folder).
MAX_SESSION_ID = 120


def _iso_time(value: str) -> str:
    from warroom.store.timestamps import utc_text

    try:
        datetime.fromisoformat(value)
    except ValueError:
        raise ValueError("not an ISO 8601 date and time") from None
    utc_text(value)  # (a time outside the years 1 to 9999 in UTC: ValueError, said as it is)
    return value


def _session_id(value: str) -> str:
    if any(c in value for c in "/\\") or any(ord(c) < 0x21 or ord(c) == 0x7F for c in value) or value[0] == ".":
        raise ValueError("a session id is letters, digits, '-' and '_' (no spaces, slashes or control characters)")
    return value


def _trainee_name(value: str) -> str:
    from warroom.core.settings import trainee_name_problem

    problem = trainee_name_problem(value)
    if problem:
        raise ValueError(f"a trainee name that {problem}")
    return value


def _outcome(value: str) -> str:
    if value not in OUTCOME_VALUES:
        raise ValueError(f"not an outcome (one of {', '.join(OUTCOME_VALUES)})")
    return value


def _action_time(action: Action) -> Action:
    if not (0 <= action.t <= MAX_ACTION_SECONDS):  # also refuses NaN and infinity
        raise ValueError(f"the drill time {action.t!r} is not between 0 and {MAX_ACTION_SECONDS:,} s")
    return action


def _json_text(kind: type, what: str, most: int | None = None) -> AfterValidator:
    """The check of a JSON column: text of a JSON ``kind``, of at most ``most`` items when given."""

    def check(value: str) -> str:
        try:
            parsed = strict_json(value)
        except ValueError:
            raise ValueError(f"{what} is not valid JSON (or holds a number out of range)") from None
        if not isinstance(parsed, kind):
            raise ValueError(f"{what} is not a JSON {'object' if kind is dict else 'list'}")
        if most is not None and isinstance(parsed, list) and len(parsed) > most:
            raise ValueError(f"{what} holds {len(parsed):,} items, more than the {most:,} one session keeps")
        return value

    return AfterValidator(check)


Text = Annotated[str, Field(strict=True, min_length=1, max_length=10_000)]
OptionalText = Annotated[str, Field(strict=True, max_length=10_000)] | None
IsoTime = Annotated[str, Field(strict=True, max_length=64), AfterValidator(_iso_time)]
SessionId = Annotated[str, Field(strict=True, min_length=1, max_length=MAX_SESSION_ID), AfterValidator(_session_id)]
Sha256 = Annotated[str, Field(strict=True, pattern=r"^[0-9a-f]{64}$")]
Version = Annotated[int, Field(strict=True, ge=0, le=1_000_000_000)]
Total = Annotated[int, Field(strict=True, ge=0, le=MAX_TOTAL)]
Count = Annotated[int, Field(strict=True, ge=0, le=1_000_000)]
DrillSeconds = Annotated[float, Field(strict=True, allow_inf_nan=False, ge=0, le=MAX_ACTION_SECONDS)]
Figure = Annotated[float, Field(strict=True, allow_inf_nan=False, ge=0, le=MAX_FIGURE)]
OutcomeValue = Annotated[str, Field(strict=True), AfterValidator(_outcome)]
#: A trainee name as warroom's commands accept it (:func:`warroom.core.settings.trainee_name_problem`): checked on
#: every write (a journal's start line, a stored or imported row), not on reads, so that a row stored before the
#: rule stays readable.
TraineeName = Annotated[str, Field(strict=True, min_length=1), AfterValidator(_trainee_name)]
#: A drill id as the drill format allows it (letters, digits, ``-``, ``_`` and ``.``: the format's ``Identifier``),
#: checked on every write: a session's drill id names a drill, and is a column of every export.
DrillId = Annotated[str, Field(strict=True, min_length=1, max_length=80, pattern=ID_PATTERN)]
#: ``tutorial``: a session of the guided tutorial (``warroom tutorial``), never counted in the cohort statistics.
Mode = Literal["practice", "assessment", "tutorial"]
Seed = Annotated[int, Field(strict=True, ge=0, le=2**63 - 1)]
ResponseValue = Literal["hit", "miss", "localisation_error", "false_alarm", "correct_rejection", "abandoned"]
#: What a session was as a trial (:class:`~warroom.core.model.PlayedAs`); None in a journal start line written before
#: sessions recorded it (read as the trial it was: :func:`~warroom.store.results._rows.older_played_as`).
PlayedAsValue = Literal["signal", "noise"]
WallSeconds = Annotated[float, Field(strict=True, allow_inf_nan=False, ge=0, le=1e9)]


#: Every column of the ``sessions`` table: its type (with its bounds) and its default (``...``: required).
COLUMNS: dict[str, tuple[Any, Any]] = {
    "session_id": (SessionId, ...),
    "trainee": (Text, ...),
    "drill_id": (Text, ...),
    "drill_version": (Version | None, None),
    "drill_sha256": (Sha256 | None, None),
    "drill_path": (OptionalText, None),
    "all_clear": (Annotated[bool, Field(strict=True)], False),
    "scoring_version": (OptionalText, None),
    "started_at": (IsoTime, ...),
    "ended_at": (IsoTime | None, None),
    "outcome": (OutcomeValue, ...),
    "total": (Total, ...),
    "time_to_detect": (DrillSeconds | None, None),
    "damage": (Figure | None, None),
    "full_damage": (Figure | None, None),
    "damage_unit": (OptionalText, None),
    "false_escalations": (Count, ...),
    "cost_usd": (Figure | None, None),
    "recovered": (Annotated[bool, Field(strict=True)], False),
    "notes": (Annotated[str, Field(strict=True), _json_text(list, "the notes")], "[]"),
    "rescored_at": (IsoTime | None, None),
    "mode": (Mode, "practice"),
    "set_id": (OptionalText, None),
    "seed": (Seed | None, None),
    "pauses": (Count, 0),
    "paused_seconds": (WallSeconds | None, None),
    "wall_time_to_detect": (WallSeconds | None, None),
    "response": (ResponseValue | None, None),
    "played_as": (PlayedAsValue | None, None),
    "chosen": (Annotated[bool, Field(strict=True)], False),
    "scorecard": (Annotated[str, Field(strict=True), _json_text(dict, "the scorecard")], ...),
    "actions": (Annotated[str, Field(strict=True), _json_text(list, "the action log", MAX_ACTIONS)], ...),
}
assert set(COLUMNS) == {*LIST_FIELDS, *FULL_FIELDS}, "a column of the sessions table has no check"


#: The checks a written value passes beyond :data:`COLUMNS`' (column -> type and default): values warroom writes
#: from now on, which a row stored earlier may not meet.
WRITE_COLUMNS: dict[str, tuple[Any, Any]] = {
    # letters, digits, '-', '_' and '.', as its message says: a session id is a path segment of every review's
    # address (``?``, ``#`` or ``%41`` in one sent the facilitator's link to another page or session)
    "session_id": (Annotated[SessionId, Field(pattern=ID_PATTERN)], ...),
    "trainee": (TraineeName, ...),
    "drill_id": (DrillId, ...),
    "set_id": (DrillId | None, None),  # a drill set's id follows the same rule (its ``set:``)
}


def _model(name: str, fields: tuple[str, ...], extra: Literal["ignore", "forbid"], written: bool) -> type[BaseModel]:
    """The model checking ``fields`` (columns of :data:`COLUMNS`, and :data:`WRITE_COLUMNS` for a model of what is
    ``written``); ``extra``: what other keys do."""
    config = ConfigDict(extra=extra, frozen=True)
    columns = {**COLUMNS, **WRITE_COLUMNS} if written else COLUMNS
    model: type[BaseModel] = create_model(name, __config__=config, **{f: columns[f] for f in fields})  # type: ignore[call-overload]
    return model


#: A session's start: the journal's ``start`` line (other keys such as ``type``, ``format``, ``pid`` are ignored)
#: and the start columns of a stored row (the fields of :class:`~warroom.store.results.SessionInfo`).
StartRecord = _model("StartRecord", START_FIELDS, "ignore", written=True)
#: One row of the ``sessions`` table as listed (the columns of :class:`~warroom.store.results.SessionRow`).
ListedRecord = _model("ListedRecord", LIST_FIELDS, "forbid", written=False)
#: One whole row of the ``sessions`` table (``scorecard`` and ``actions`` as their JSON text), as it is written.
RowRecord = _model("RowRecord", (*LIST_FIELDS, *FULL_FIELDS), "forbid", written=True)


class HistoryRecord(BaseModel):
    """One scorecard a re-score replaced, as ``warroom store export`` writes it in its session's line
    (:meth:`~warroom.store.results._history.ScorecardChange.to_line`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seq: Annotated[int, Field(strict=True, ge=1, le=1_000_000)]
    replaced_at: IsoTime
    replaced_by: Text
    rules: OptionalText = None
    reason: Annotated[str, Field(strict=True, max_length=10_000)]
    scorecard: Annotated[str, Field(strict=True), _json_text(dict, "the scorecard")]
    scoring_version: OptionalText = None
    outcome: OutcomeValue
    total: Total
    drill_sha256: Sha256 | None = None
    drill_version: Version | None = None
    drill_path: OptionalText = None


class ActionRecord(BaseModel):
    """One journal ``action`` line: ``seq`` (1, 2, ...), ``at`` (wall-clock ISO time) and the ``action``."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    seq: Annotated[int, Field(strict=True, ge=1)] | None = None
    at: str | None = None
    action: Annotated[Action, AfterValidator(_action_time)]


class ScorecardRecord(BaseModel):
    """The figures of a scorecard (``Scorecard.to_dict()``); its other keys are checked by ``Scorecard.from_dict``."""

    model_config = ConfigDict(extra="allow", frozen=True)

    drill_id: Text
    outcome: OutcomeValue
    total: Total
    time_to_detect: DrillSeconds | None = None
    damage: Figure
    full_damage: Figure
    damage_unit: Annotated[str, Field(strict=True, max_length=10_000)]
    false_escalations: Count
    cost_usd: Figure


class EndRecord(BaseModel):
    """The journal's ``end`` line: ``ended_at``, ``outcome``, ``total`` and the ``scorecard``."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    ended_at: IsoTime | None = None
    outcome: OutcomeValue | None = None
    total: Total | None = None
    scorecard: ScorecardRecord


def describe(exc: ValidationError, limit: int = 3) -> str:
    """A short sentence for a pydantic error: ``total: Input should be a valid integer (got 'abc')``; at most
    ``limit`` problems, then how many more."""
    parts = []
    errors = exc.errors(include_url=False)
    for e in errors[:limit]:
        where = ".".join(str(p) for p in e.get("loc", ())) or "value"
        got = e.get("input")
        if _note_too_long(e):
            parts.append(f"{where}: {note_too_long(len(got), e['ctx']['max_length'])}")
            continue
        msg = str(e["msg"]).removeprefix("Value error, ")
        if isinstance(got, str | int | float | bool) or got is None:
            shown = repr(got)
            msg += f" (got {shown[:37] + '...' if len(shown) > 40 else shown})"
        parts.append(f"{where}: {msg}")
    more = len(errors) - limit
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


def note_too_long(length: int, limit: int) -> str:
    """Why a note of ``length`` characters is refused, with the ``limit`` and what to do."""
    return (
        f"the note is {length:,} characters long, over the limit of {limit:,}: shorten the note (a flag's note or an "
        f"escalation's reason) to at most {limit:,} characters"
    )


def _note_too_long(error: Any) -> bool:
    loc = error.get("loc", ())
    return error.get("type") == "string_too_long" and bool(loc) and loc[-1] == "note"


def error_column(text: str, exc: ValidationError) -> int | None:
    """The 1-based column, in the JSON line ``text``, of the key of the first value ``exc`` refuses (``"note"`` of
    a note too long); None when that key is not found in the line."""
    errors = exc.errors(include_url=False)
    keys = [p for p in errors[0].get("loc", ()) if isinstance(p, str)] if errors else []
    if not keys:
        return None
    at = text.find(json.dumps(keys[-1]) + ":")
    at = at if at >= 0 else text.find(json.dumps(keys[-1]))
    return at + 1 if at >= 0 else None


# The SQL checks of the columns (warroom.store.results._checks) are written without the drill model, so that the
# summary needs no pydantic: their bound on drill times must be the drill format's.
assert MAX_ACTION_SECONDS == 2 * MAX_DRILL_SECONDS, "warroom.store.results._checks.MAX_ACTION_SECONDS is wrong"
