"""The drill clock of a projected drill: events released later where a distractor needs the time, and where the
fairness rules' reading window needs it (:func:`reading_window`): a person must have time to read the evidence
and escalate before the deadline, which comes just before the first damage call.

A projection never moves an event earlier and never reorders the trace: it releases every event from one point on
later by the same number of seconds, and the drill says what was stretched (in its ``source``).
"""

from __future__ import annotations

from typing import Any

#: Seconds between the deadline and the first damage call it comes just before.
DEADLINE_LEAD = 1.0


def _round(t: float) -> float:
    """Drill seconds as a projection writes them: a tenth of a second at most (as the importers do)."""
    return round(t, 1)


def shift_from(events: list[dict[str, Any]], index: int, seconds: float) -> list[dict[str, Any]]:
    """A copy of ``events`` (a trace as plain data) with every event from ``index`` on released ``seconds``
    later (the events shifted are copies; the others shared)."""
    if seconds <= 0:
        return list(events)
    return [*events[:index], *({**e, "t": _round(float(e["t"]) + seconds)} for e in events[index:])]


def deadline_for(events: list[dict[str, Any]], first_damage: int) -> float:
    """The deadline just before the first damage call (index ``first_damage``): :data:`DEADLINE_LEAD` seconds
    before it (the call itself is released after the deadline, as the fairness rules ask)."""
    return _round(max(float(events[first_damage]["t"]) - DEADLINE_LEAD, 0.0))


def reading_window(events: list[dict[str, Any]], evidence: int, first_damage: int,
                   window: float) -> tuple[list[dict[str, Any]], float]:
    """``events`` with the first damage call (index ``first_damage``) and everything after it released later when
    the deadline before it would leave less than ``window`` seconds after the evidence (index ``evidence``) is
    out. Returns the trace and the seconds added (0 when none were)."""
    evidence_t = float(events[evidence]["t"])
    short = evidence_t + window - deadline_for(events, first_damage)
    if short <= 0:
        return events, 0.0
    stretch = _round(short + 0.05)
    shifted = shift_from(events, first_damage, stretch)
    while deadline_for(shifted, first_damage) < evidence_t + window:  # rounding: never leave the window short
        stretch = _round(stretch + 0.1)
        shifted = shift_from(events, first_damage, stretch)
    return shifted, stretch
