"""Pace: the estimates a record lacks, laid on the drill clock: reading time between events, token counts and
their cost, and the deadline (the numbers are in :mod:`._rules` and docs/importing.md)."""

from __future__ import annotations

from typing import Any

from warroom.core.author import MIN_REACTION_WINDOW
from warroom.importers.kit import CLOSING_EVENT_ID, DEADLINE_WINDOW, MIN_EVENT_GAP, reading_gap
from warroom.importers.who_and_when._rules import CLOSING_EVENT_MIN_GAP, DEADLINE_BEFORE_DAMAGE, RecordError

#: The drill-clock gap after the evidence event is at least this long (seconds), so that the deadline, half-way
#: to the last damage, leaves a person :data:`warroom.core.author.MIN_REACTION_WINDOW` seconds to read the
#: evidence and escalate even when the mistake is one of the last history entries.
EVIDENCE_MIN_GAP = 2 * MIN_REACTION_WINDOW


def lay_out_clock(events: list[dict[str, Any]], texts: list[str], evidence_id: str) -> None:
    """Set each event's ``t`` (drill seconds) in place: each event waits for the reading time of the text before it
    (``texts`` is parallel to ``events``; an empty text waits :data:`MIN_EVENT_GAP`), the closing event at least
    :data:`CLOSING_EVENT_MIN_GAP`, the event after the evidence at least :data:`EVIDENCE_MIN_GAP`. A ``step`` of
    None is removed (an event outside every plan step)."""
    t = 0.0
    last_text = ""
    for k, ev in enumerate(events):
        if k > 0:
            gap = reading_gap(last_text) if texts[k - 1] else MIN_EVENT_GAP
            if ev["id"] == CLOSING_EVENT_ID:
                gap = max(gap, CLOSING_EVENT_MIN_GAP)
            if events[k - 1]["id"] == evidence_id:  # time to read the evidence before the deadline
                gap = max(gap, EVIDENCE_MIN_GAP)
            t = round(t + gap, 1)
        ev["t"] = t
        last_text = texts[k]
        if ev.get("step") is None:
            ev.pop("step", None)


def place_deadline(evidence_t: float, first_damage_t: float) -> float:
    """The deadline (drill seconds): :data:`DEADLINE_WINDOW` after the evidence, or :data:`DEADLINE_BEFORE_DAMAGE`
    before the first damage event if that is sooner, strictly before the damage (an escalation at the deadline
    comes after the events released by then). Raises RecordError when that leaves less than ``warroom check``'s
    reaction window after the evidence."""
    deadline = round(min(evidence_t + DEADLINE_WINDOW, first_damage_t - DEADLINE_BEFORE_DAMAGE), 1)
    if not (evidence_t + MIN_REACTION_WINDOW <= deadline < first_damage_t):  # pragma: no cover - EVIDENCE_MIN_GAP
        raise RecordError(
            f"cannot place a deadline at least {MIN_REACTION_WINDOW:g} s after the evidence and before the damage"
        )
    return deadline
