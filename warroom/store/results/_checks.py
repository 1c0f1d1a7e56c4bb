"""The SQL checks of the columns the cohort statistics and the best scores count: a row whose values have the wrong
type or range (a store changed by hand) is left out of every figure and named. These are the checks of
:data:`~warroom.store.results._records.ListedRecord` that figures computed inside the database depend on, written
apart from the pydantic models so that ``warroom scores summary`` does not import those.
"""

from __future__ import annotations

import math
import re
from typing import Any

from warroom.core.files import record_json
from warroom.core.model import Outcome
from warroom.core.scoring import MAX_TOTAL

#: The longest drill time a stored action or time to detect may have, in seconds: twice the longest drill (the
#: latest deadline plus room for false-escalation delays: ``2 * warroom.core.model.MAX_DRILL_SECONDS``, checked when
#: warroom.store.results._records is imported).
MAX_ACTION_SECONDS = 2 * 1_000_000
#: Every outcome value a stored session may have.
OUTCOME_VALUES: tuple[str, ...] = tuple(o.value for o in Outcome)


def _typed(column: str, *types: str) -> str:
    return f"typeof({column}) IN ({', '.join(repr(t) for t in types)})"


#: The SQL checks of the summary columns (column -> condition), the checks of :class:`ListedRecord` that
#: figures computed inside the database depend on.
_COLUMN_SQL: dict[str, str] = {
    "trainee": _typed("trainee", "text"),
    "drill_id": _typed("drill_id", "text"),
    "started_at": _typed("started_at", "text"),
    "outcome": "{} AND outcome IN ({})".format(_typed("outcome", "text"), ", ".join(repr(o) for o in OUTCOME_VALUES)),
    "total": f"{_typed('total', 'integer')} AND total BETWEEN 0 AND {MAX_TOTAL}",
    "all_clear": _typed("all_clear", "integer"),
    "false_escalations": f"{_typed('false_escalations', 'integer')} AND false_escalations >= 0",
    "time_to_detect": f"(time_to_detect IS NULL OR ({_typed('time_to_detect', 'integer', 'real')} "
    f"AND time_to_detect BETWEEN 0 AND {MAX_ACTION_SECONDS}))",
}


def valid_row_sql(columns: tuple[str, ...] | None = None, *, loose_types: bool = True) -> str:
    """An SQL condition true for a row whose ``columns`` (summary columns, default all of them) hold values of the
    right type and range. A summary checks only the columns it reads, so it can stay on its covering index. With
    ``loose_types`` False (a database whose columns hold only their declared type, PostgreSQL) the ``typeof``
    checks are left out and only the ranges are checked."""
    conditions = [_COLUMN_SQL[c] for c in (tuple(_COLUMN_SQL) if columns is None else columns)]
    if not loose_types:
        conditions = [re.sub(r"typeof\(\w+\) IN \([^)]*\)", "TRUE", c) for c in conditions]
    return " AND ".join(conditions)


#: :func:`valid_row_sql` of every summary column: false for a row that some summary leaves out.
VALID_ROW_SQL = valid_row_sql()


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:40]} is out of range (not finite)")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def strict_json(text: str | bytes) -> Any:
    """``text`` parsed as strict JSON: ``NaN``, ``Infinity`` and numbers that overflow to infinity (``1e999``) are
    refused, as JSON itself refuses them, so that no value read from a journal line or a stored column can make a
    later JSON export fail; so is an object with a key twice (:func:`record_json`). Raises ValueError (also for JSON
    nested too deeply to parse)."""
    try:
        return record_json(text, parse_constant=_no_constant, parse_float=_finite)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


