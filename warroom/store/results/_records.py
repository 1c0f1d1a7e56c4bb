"""The shapes of what the store keeps, as pydantic models: checked on every write and every read.

One set of models serves the session journal and the results store, so a value that the store would refuse is
refused in the journal too (and the other way round):

- :class:`StartRecord`: a session's start (the journal's ``start`` line, the start columns of a stored row);
- :class:`ActionRecord`: one journal ``action`` line (its ``action`` an :class:`~warroom.core.model.Action` with a
  finite drill time of at most :data:`MAX_ACTION_SECONDS`);
- :class:`ScorecardRecord`: the figures of a scorecard (the ``end`` line's ``scorecard``, the stored scorecard);
- :class:`EndRecord`: the journal's ``end`` line;
- :class:`ListedRecord` / :class:`RowRecord`: one row of the ``sessions`` table (without / with the scorecard and
  the action log).

Every number is strict (a text ``"80"`` or a boolean is never taken as one), finite and bounded; every text
column holds text. :data:`VALID_ROW_SQL` is the same check on the numeric and text columns as an SQL expression,
so summaries computed inside SQLite skip the rows a read would skip.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from warroom.core.model import MAX_DRILL_SECONDS, Action, Outcome
from warroom.core.scoring import MAX_TOTAL
from warroom.store.results import _checks

#: Latest drill time of a recorded action (seconds): the latest deadline plus room for false-escalation delays.
MAX_ACTION_SECONDS = 2 * MAX_DRILL_SECONDS
#: Largest damage or cost figure the store accepts (the drill format's largest damage times a thousand entries).
MAX_FIGURE = 1e15
#: Longest session id (it is a file name in the journals folder).
MAX_SESSION_ID = 120

#: The raw outcome values a stored session may have.
OUTCOME_VALUES: tuple[str, ...] = tuple(o.value for o in Outcome)


def _iso_time(value: str) -> str:
    try:
        datetime.fromisoformat(value)
    except ValueError:
        raise ValueError("not an ISO 8601 date and time") from None
    return value


def _session_id(value: str) -> str:
    if any(c in value for c in "/\\") or any(ord(c) < 0x21 or ord(c) == 0x7F for c in value) or value[0] == ".":
        raise ValueError("a session id is letters, digits, '-' and '_' (no spaces, slashes or control characters)")
    return value


def _outcome(value: str) -> str:
    if value not in OUTCOME_VALUES:
        raise ValueError(f"not an outcome (one of {', '.join(OUTCOME_VALUES)})")
    return value


def _action_time(action: Action) -> Action:
    if not (0 <= action.t <= MAX_ACTION_SECONDS):  # also refuses NaN and infinity
        raise ValueError(f"the drill time {action.t!r} is not between 0 and {MAX_ACTION_SECONDS:,} s")
    return action


def _json_text(kind: type, what: str) -> AfterValidator:
    def check(value: str) -> str:
        try:
            parsed = json.loads(value)
        except ValueError:
            raise ValueError(f"{what} is not valid JSON") from None
        if not isinstance(parsed, kind):
            raise ValueError(f"{what} is not a JSON {'object' if kind is dict else 'list'}")
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
#: ``tutorial``: a session of the guided tutorial (``warroom tutorial``), never counted in the cohort statistics.
Mode = Literal["practice", "assessment", "tutorial"]
Seed = Annotated[int, Field(strict=True, ge=0, le=2**63 - 1)]
WallSeconds = Annotated[float, Field(strict=True, allow_inf_nan=False, ge=0, le=1e9)]


class StartRecord(BaseModel):
    """A session's start: the journal's ``start`` line (other keys such as ``type``, ``format``, ``pid`` are
    ignored) and the start columns of a stored row."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    session_id: SessionId
    trainee: Text
    drill_id: Text
    drill_version: Version | None = None
    drill_sha256: Sha256 | None = None
    drill_path: OptionalText = None
    all_clear: Annotated[bool, Field(strict=True)] = False
    scoring_version: OptionalText = None
    started_at: IsoTime
    mode: Mode = "practice"
    set_id: OptionalText = None
    seed: Seed | None = None


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


class ListedRecord(StartRecord):
    """One row of the ``sessions`` table as listed (every column but the scorecard and the action log)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ended_at: IsoTime | None = None
    outcome: OutcomeValue
    total: Total
    time_to_detect: DrillSeconds | None = None
    damage: Figure | None = None
    full_damage: Figure | None = None
    damage_unit: OptionalText = None
    false_escalations: Count
    cost_usd: Figure | None = None
    recovered: Annotated[bool, Field(strict=True)] = False
    notes: Annotated[str, Field(strict=True), _json_text(list, "the notes")] = "[]"
    rescored_at: IsoTime | None = None
    pauses: Count = 0
    paused_seconds: WallSeconds | None = None
    wall_time_to_detect: WallSeconds | None = None


class RowRecord(ListedRecord):
    """One whole row of the ``sessions`` table (``scorecard`` and ``actions`` as their JSON text)."""

    scorecard: Annotated[str, Field(strict=True), _json_text(dict, "the scorecard")]
    actions: Annotated[str, Field(strict=True), _json_text(list, "the action log")]


def describe(exc: ValidationError, limit: int = 3) -> str:
    """A short sentence for a pydantic error: ``total: Input should be a valid integer (got 'abc')``; at most
    ``limit`` problems, then how many more."""
    parts = []
    errors = exc.errors(include_url=False)
    for e in errors[:limit]:
        where = ".".join(str(p) for p in e.get("loc", ())) or "value"
        got = e.get("input")
        msg = str(e["msg"]).removeprefix("Value error, ")
        if isinstance(got, str | int | float | bool) or got is None:
            shown = repr(got)
            msg += f" (got {shown[:37] + '...' if len(shown) > 40 else shown})"
        parts.append(f"{where}: {msg}")
    more = len(errors) - limit
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


# The SQL checks of the summary columns moved to warroom/store/results/_checks.py (unchanged): the summaries import them
# without the pydantic models above. The drill-time bound is written there as a number: it must be this one.
assert _checks.MAX_ACTION_SECONDS == MAX_ACTION_SECONDS, "warroom.store.results._checks.MAX_ACTION_SECONDS is out of date"
assert _checks.OUTCOME_VALUES == OUTCOME_VALUES  # (checks.py imports MAX_TOTAL from warroom.core.scoring._scorecard)
