"""The SQL checks of the columns the cohort statistics and the best scores count: a row whose values have the wrong
type or range (a store changed by hand) is left out of every figure and named. These are the checks of
:data:`~warroom.store.results._records.ListedRecord` that figures computed inside the database depend on, written
apart from the pydantic models so that ``warroom scores summary`` does not import those.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from warroom.core.model import Outcome
from warroom.core.scoring import MAX_TOTAL
from warroom.errors import WarroomError

#: The longest drill time a stored action or time to detect may have, in seconds: twice the longest drill
#: (``2 * warroom.core.model.MAX_DRILL_SECONDS``, checked when warroom.store.results._records is imported).
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


class _DuplicateKey(WarroomError):
    """Raised inside the parser by :func:`_unique_keys`; :func:`record_json` turns it into a JSONDecodeError."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):  # a key twice: which one (the first repeated)
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return obj


def record_json(text: str | bytes, **options: Any) -> Any:
    """``text`` (one record of a session: a journal line, an exported line, an action log's line) parsed as JSON,
    refusing an object that holds a key twice: JSON leaves such an object undefined (Python keeps the last value,
    other readers the first), so two readers could disagree about the record. Raises
    :class:`json.JSONDecodeError` (a ValueError) with the position of the key's second occurrence (``colno``)
    and a message naming the key; ``options`` are :func:`json.loads`'s."""
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, **options)
    except _DuplicateKey as exc:
        doc = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
        message = f"the key {json.dumps(exc.key, ensure_ascii=True)[:80]} is given twice in one object"
        raise json.JSONDecodeError(message, doc, _second_key_at(doc, exc.key)) from None


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _second_key_at(doc: str, key: str) -> int:
    """The index in ``doc`` of the second occurrence of ``key`` as a key of one same object (0 when not found):
    strings are JSON's only quoted text, so scanning them left to right, with the braces between them, finds
    each key and its object."""
    stack: list[int] = [0]
    opened = 0
    seen: set[int] = set()
    pos = 0
    for match in _STRING.finditer(doc):
        for char in doc[pos : match.start()]:
            if char == "{":
                opened += 1
                stack.append(opened)
            elif char == "}" and len(stack) > 1:
                stack.pop()
        pos = match.end()
        if not doc[pos:].lstrip().startswith(":"):
            continue
        try:
            name = json.loads(match.group())
        except ValueError:
            continue
        if name == key:
            if stack[-1] in seen:
                return match.start()
            seen.add(stack[-1])
    return 0
