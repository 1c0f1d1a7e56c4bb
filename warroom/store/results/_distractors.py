"""The distractor figures of a stored session as columns of their own (schema version 4).

Scoring rules 2 record two distractor figures in the scorecard (:class:`~warroom.core.scoring.Scorecard`):
``distractors_shown`` (how many distractor events the session released) and ``distractor_escalations`` (the
distractor event ids that pulled an escalation, one entry per escalation). The cohort statistics need them for
every session, and reading them out of each scorecard's JSON cost most of ``warroom scores summary`` on a large
PostgreSQL store, so the store keeps them in two columns, written with the scorecard (insert, re-score,
``warroom store import``) and filled from the stored scorecards by schema migration 4 (:func:`backfill`):

- ``distractors_shown`` INTEGER: the count; NULL when the scorecard records neither figure (scoring rules 1, a
  scorecard that is not a JSON object, a session without distractors); ``-1`` when a figure has the wrong shape
  (not a count from 0 to :data:`MAX_SHOWN`, not a list of event ids, or more distinct distractors escalated than
  shown): the statistics refuse such a session and name it (:mod:`warroom.store.cohort._facts`).
- ``distractor_escalations`` TEXT: the event ids as a JSON list; NULL when there are none (or the figures are not
  readable).
"""

from __future__ import annotations

import functools
import json
from typing import Any

#: The scorecard keys of the distractor figures (written by scoring rules that record them).
SHOWN_KEY = "distractors_shown"
PULLED_KEY = "distractor_escalations"
#: The columns holding them (the same names as the keys).
COLUMNS: tuple[str, str] = (SHOWN_KEY, PULLED_KEY)
#: Scoring rules whose scorecards never record the distractor figures (their figures are not read).
NO_DISTRACTOR_FIGURES: tuple[str, ...] = ("1",)
#: ``distractors_shown`` of a session whose figures have the wrong shape.
BAD_FIGURES = -1
#: The largest count of distractors shown a column holds: PostgreSQL's ``INTEGER`` (4 bytes); a scorecard claiming
#: more (``10**30`` in an imported line) has figures of the wrong shape, not a count the store fails to write.
MAX_SHOWN = 2**31 - 1
#: Sessions the migration back-fill reads and writes per statement.
_BATCH = 5000


def figure_columns(scorecard: Any, scoring_version: str | None) -> dict[str, Any]:
    """The two column values (:data:`COLUMNS` -> value) of a scorecard: ``scorecard`` is its dict or its stored
    JSON text (text that is not JSON, or not an object, records nothing); ``scoring_version`` is the session's
    scoring rules (rules in :data:`NO_DISTRACTOR_FIGURES` record nothing). Never raises."""
    none: dict[str, Any] = {SHOWN_KEY: None, PULLED_KEY: None}
    if scoring_version in NO_DISTRACTOR_FIGURES:
        return none
    if isinstance(scorecard, str | bytes):
        try:
            scorecard = json.loads(scorecard)
        except (ValueError, RecursionError):  # RecursionError: JSON nested too deeply
            return none
    if not isinstance(scorecard, dict):
        return none
    shown, pulled = scorecard.get(SHOWN_KEY), scorecard.get(PULLED_KEY)
    if shown is None and pulled is None:
        return none
    ok_shown = shown is None or (isinstance(shown, int) and not isinstance(shown, bool) and 0 <= shown <= MAX_SHOWN)
    ok_pulled = pulled is None or (isinstance(pulled, list) and all(isinstance(i, str) for i in pulled))
    if not ok_shown or not ok_pulled or len(set(pulled or ())) > (shown or 0):
        return {SHOWN_KEY: BAD_FIGURES, PULLED_KEY: None}
    return {SHOWN_KEY: shown or 0, PULLED_KEY: json.dumps(pulled, ensure_ascii=False) if pulled else None}


@functools.lru_cache(maxsize=1024)  # a store holds few distinct texts: each parsed once
def read_pulled(text: str | None) -> tuple[str, ...]:
    """The event ids of a ``distractor_escalations`` column value (JSON list text; None: none). Raises ValueError
    for text that is not a JSON list of event ids (a store changed by hand), nested too deeply to parse included."""
    from warroom.store.results._checks import strict_json

    if not text:
        return ()
    value = strict_json(text)
    if not isinstance(value, list) or not all(isinstance(i, str) for i in value):
        raise ValueError(f"its {PULLED_KEY} column is not a list of event ids")
    return tuple(value)


def backfill(conn: Any) -> int:
    """Fill both columns of every stored session from its scorecard (schema migration 4), in batches of session ids;
    ``conn`` is the open connection (inside the migration's transaction; ``?`` placeholders on both back ends).
    Only scorecards that mention a distractor are parsed. Returns how many
    sessions got figures."""
    select = (
        "SELECT session_id, scoring_version, scorecard FROM sessions WHERE session_id > ? "
        f"AND scorecard LIKE '%distractor%' ORDER BY session_id LIMIT {_BATCH}"
    )
    update = f"UPDATE sessions SET {SHOWN_KEY} = ?, {PULLED_KEY} = ? WHERE session_id = ?"
    last, filled = "", 0
    while True:
        rows = conn.execute(select, (last,)).fetchall()
        if not rows:
            return filled
        changes = []
        for sid, version, card in rows:
            values = figure_columns(card, version)
            if values[SHOWN_KEY] is not None:
                changes.append((values[SHOWN_KEY], values[PULLED_KEY], sid))
        if changes:
            conn.executemany(update, changes)
            filled += len(changes)
        last = rows[-1][0]
