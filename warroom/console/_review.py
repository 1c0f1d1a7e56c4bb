"""A stored session's after-action review as the console shows it (the rows of
:func:`warroom.store.review.build_review_rows`, as ``warroom review`` shows them in a terminal), and two trainees'
sessions of one drill side by side.

Each trace event is shown as its kind, a one-line summary of its fields and, on demand, every field as JSON: shown
literally (the page escapes it), whatever the event kind, so a kind added to the drill format shows without a change
here. The answer key's marks and the trainee's are those of the review rows.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from warroom.core.text import clean, clean_line

#: Fields of a trace event that the row shows in columns of its own (not in its summary).
_OWN_COLUMNS = {"id", "t", "step", "kind"}
#: Fields a summary names last: how the event was made, after what it says.
_LAST = ("agent", "repeat", "usage", "duration_ms", "size_bytes", "shown", "truncated")
#: Characters of an event's summary.
SUMMARY_CHARS = 160


@dataclass(frozen=True)
class ReviewLine:
    """One line of the review table: drill time, plan step, what it is (an event kind, ``action``, ``re-plan``,
    ``deadline``), its event id, summary and full ``detail`` (JSON, empty for none), the answer key's marks and
    the trainee's, and whether the trace played it."""

    t: float
    step: str
    kind: str
    event_id: str
    summary: str
    detail: str
    key: list[str] = field(default_factory=list)
    trainee: list[str] = field(default_factory=list)
    played: bool = True
    action: bool = False


def event_summary(event: Any) -> tuple[str, str]:
    """A trace event's one-line summary and its fields as indented JSON (both with control characters escaped)."""
    fields = event.model_dump(mode="json", exclude_none=True)
    payload = {k: v for k, v in fields.items() if k not in _OWN_COLUMNS and v not in (False, [], {}, "")}
    payload = dict(sorted(payload.items(), key=lambda kv: kv[0] in _LAST))
    parts = [f"{k}: {v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)}" for k, v in payload.items()]
    summary = clean_line(" · ".join(parts))
    if len(summary) > SUMMARY_CHARS:
        summary = summary[: SUMMARY_CHARS - 1] + "…"
    return summary, clean(json.dumps(fields, ensure_ascii=False, indent=2))


def review_lines(rows: Sequence[Any]) -> list[ReviewLine]:
    """The review table's lines from review rows (:class:`~warroom.store.review.ReviewRow`)."""
    out = []
    for row in rows:
        if row.kind == "event":
            summary, detail = event_summary(row.event)
            kind = str(row.event.kind).replace("_", " ")
            out.append(ReviewLine(row.t, row.event.step or "", kind, row.event.id, summary, detail, list(row.key),
                                  list(row.trainee), row.played))  # fmt: skip
        else:
            kind = {"action": "action", "replan": "re-plan", "marker": "deadline"}.get(row.kind, row.kind)
            step = (row.action.step or "") if row.action is not None else ""
            out.append(ReviewLine(row.t, step, kind, "", clean_line(row.text), "", list(row.key), list(row.trainee),
                                  row.played, action=row.kind in ("action", "replan")))  # fmt: skip
    return out


@dataclass(frozen=True)
class CompareLine:
    """One line of two trainees compared on one drill: a trace event (its time, step, kind, id, summary, answer-key
    marks) with each trainee's marks on it, or one trainee's action (``who`` 0 or 1) at its time."""

    t: float
    step: str
    kind: str
    event_id: str
    summary: str
    key: list[str]
    marks: tuple[list[str], list[str]]
    who: int | None = None


def compare_lines(first: Sequence[Any], second: Sequence[Any]) -> list[CompareLine]:
    """The lines of two sessions' review rows of the same drill side by side: each trace event once (in the first
    session's order, then events only the second played), each with both trainees' marks, and each trainee's actions
    at their drill time."""
    events: dict[str, CompareLine] = {}
    actions: list[CompareLine] = []
    for who, rows in enumerate((first, second)):
        for line in review_lines(rows):
            if line.event_id:
                known = events.get(line.event_id)
                marks = list(line.trainee) if line.played else ["not played"]
                if known is None:
                    pair: tuple[list[str], list[str]] = (marks, []) if who == 0 else ([], marks)
                    events[line.event_id] = CompareLine(line.t, line.step, line.kind, line.event_id, line.summary,
                                                        line.key, pair)  # fmt: skip
                else:
                    known.marks[who].extend(marks)
            elif line.action:
                both: tuple[list[str], list[str]] = ([], [])
                both[who].extend(line.trainee)
                actions.append(CompareLine(line.t, line.step, line.kind, "", line.summary, [], both, who))
    return sorted([*events.values(), *actions], key=lambda c: (c.t, c.who is not None))
