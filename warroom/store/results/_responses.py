"""Each stored session's trial response as a column of its own (schema version 12): what the cohort statistics
count (docs/sessions.md, "Cohort statistics").

``response`` TEXT holds the scorecard's ``response`` (scoring rules 4 on: ``hit``, ``miss``,
``localisation_error``, ``false_alarm``, ``correct_rejection``, ``abandoned``); for a scorecard of older rules,
which records only the outcome, the response approximated from the outcome, what the session was played as and its
false escalations (:func:`warroom.core.stats.approximate_response`; the statistics count those sessions and say so).
It is written with the scorecard (a session stored, re-scored or imported: never taken from the caller) and filled
for the stored sessions by schema migration 12 (:func:`backfill`).

What a session was played as (signal or noise) is read in one place, :func:`played_as_of` (and its SQL,
:data:`PLAYED_AS_SQL`): the scorecard's ``played_as`` when it records one, else the ``all_clear`` column (an
all-clear drill is a noise trial). A ``played_as`` column of its own replaces both here.
"""

from __future__ import annotations

import json
from typing import Any

from warroom.core.model import PlayedAs, Response
from warroom.core.stats import approximate_response, approximated_sql

#: The column (and the scorecard key) of the trial's response.
RESPONSE_KEY = "response"
#: What a stored session was played as, in SQL over its columns (sessions whose scorecard records ``played_as``
#: record their response too, so this reads the older sessions only).
PLAYED_AS_SQL = "(CASE WHEN all_clear <> 0 THEN 'noise' ELSE 'signal' END)"
#: The SQL of the approximated response of a stored session (schema migration 12, and re-scores by older rules).
APPROXIMATED_SQL = approximated_sql(PLAYED_AS_SQL)
_RESPONSES = {r.value for r in Response}
#: Sessions the migration's back-fill reads and writes per statement.
_BATCH = 5000


def played_as_of(scorecard: dict[str, Any], all_clear: bool) -> PlayedAs:
    """What a session was played as: its scorecard's ``played_as`` when recorded, else noise for an all-clear
    drill and signal otherwise."""
    value = scorecard.get("played_as")
    if value in (PlayedAs.SIGNAL.value, PlayedAs.NOISE.value):
        return PlayedAs(value)
    return PlayedAs.NOISE if all_clear else PlayedAs.SIGNAL


def recorded_response(scorecard: Any) -> str | None:
    """The response a scorecard records (its dict or stored JSON text); None when it records none (rules before
    4, text that is not a JSON object, a value that is not a response). Never raises."""
    if isinstance(scorecard, str):
        if '"response"' not in scorecard:
            return None
        try:
            scorecard = json.loads(scorecard)
        except (ValueError, RecursionError):  # RecursionError: JSON nested too deeply
            return None
    if not isinstance(scorecard, dict):
        return None
    value = scorecard.get(RESPONSE_KEY)
    return value if isinstance(value, str) and value in _RESPONSES else None  # (a list or an object: unhashable)


def response_column(scorecard: Any, outcome: str, all_clear: bool, false_escalations: int) -> str | None:
    """The ``response`` column of a session: the scorecard's (dict or JSON text), else approximated from
    ``outcome`` and what it was played as; None when neither fits (a row the statistics refuse anyway)."""
    recorded = recorded_response(scorecard)
    if recorded is not None:
        return recorded
    if isinstance(scorecard, str):  # parsed only when it records what the session was played as
        try:
            scorecard = json.loads(scorecard) if '"played_as"' in scorecard else {}
        except (ValueError, RecursionError):
            scorecard = {}
    card = scorecard if isinstance(scorecard, dict) else {}
    response = approximate_response(outcome, played_as_of(card, all_clear), false_escalations)
    return None if response is None else response.value


def response_sets(scorecard: dict[str, Any], outcome: str, false_escalations: int) -> tuple[str, list[Any]]:
    """The ``SET`` clause (and its parameters) of a re-score's new response: the scorecard's, else approximated for
    what the stored row was played as (:data:`PLAYED_AS_SQL`, read from the row itself)."""
    recorded = recorded_response(scorecard)
    if recorded is not None:
        return f"{RESPONSE_KEY} = ?", [recorded]
    noise, signal = (approximate_response(outcome, p, false_escalations) for p in (PlayedAs.NOISE, PlayedAs.SIGNAL))
    values = [None if r is None else r.value for r in (noise, signal)]
    return f"{RESPONSE_KEY} = CASE WHEN {PLAYED_AS_SQL} = 'noise' THEN ? ELSE ? END", values


def backfill(conn: Any) -> None:
    """Fill the column for every stored session (schema migration 12): the approximation in one statement, then the
    response of every scorecard that records one (in batches of session ids; only scorecards that mention a
    response are parsed). ``conn`` is the open connection, inside the migration's transaction."""
    conn.execute(f"UPDATE sessions SET {RESPONSE_KEY} = {APPROXIMATED_SQL}")
    select = (
        "SELECT session_id, scorecard FROM sessions WHERE session_id > ? "
        f"AND scorecard LIKE '%\"response\"%' ORDER BY session_id LIMIT {_BATCH}"
    )
    update = f"UPDATE sessions SET {RESPONSE_KEY} = ? WHERE session_id = ?"
    last = ""
    while True:
        rows = conn.execute(select, (last,)).fetchall()
        if not rows:
            return
        changes = [(value, sid) for sid, card in rows if (value := recorded_response(card)) is not None]
        if changes:
            conn.executemany(update, changes)
        last = rows[-1][0]
