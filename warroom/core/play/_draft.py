"""What the escalation dialog offers when it opens (:func:`escalation_draft`): only what the trainee chose.

The war room's ``e`` opens the escalation dialog with a draft: a target highlighted and events ticked as cited. The
draft comes from the one event the trainee **chose** to look at (moved onto it, or inspected it: leaving the trace's
follow mode) and from nothing else. Following the newest event, the trainee chose nothing, so the dialog opens on no
target and cites nothing; and flags are never ticked (they stay the trainee's notes), so that citing is the
trainee's judgement, never a default to confirm (docs/scoring.md, "Citing the evidence"). ``warroom check``'s
flag-and-confirm trainee confirms exactly this draft, so a change here that gives the answer away fails the bundled
library's check. Pure functions of the drill's data; no Textual.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from warroom.core.model import PLAN, SETUP, Handoff, PlannerCall, TraceEvent, handoff_target


@dataclass(frozen=True)
class EscalationDraft:
    """The escalation dialog's state as it opens: the ``target`` highlighted (a plan step id, ``@plan`` or
    ``@setup``; None: no choice is made for the trainee) and the event ids ticked as cited (``cites``)."""

    target: str | None
    cites: tuple[str, ...]


def preselect_target(event: TraceEvent, released: Sequence[TraceEvent], format2: bool) -> str | None:
    """The target the escalation dialog opens on for an ``event`` the trainee chose: its plan step; outside any
    step, in a format-2 drill (``format2``), "the plan" for a planner call and "set-up" for an event released
    before any event of a plan step (``released``, in release order: only the set-up events before the first
    stepped one are read), a handoff outside any step names itself (``@handoff:ID``); None otherwise (no choice
    made for the trainee)."""
    if event.step is not None or not format2:
        return event.step
    if isinstance(event, PlannerCall):
        return PLAN
    if isinstance(event, Handoff):
        return handoff_target(event.id)
    for ev in released:
        if ev.step is not None:
            return None  # a step had started before this event: not set-up
        if ev is event:
            return SETUP
    return None


def escalation_draft(chosen: TraceEvent | None, released: Sequence[TraceEvent], format2: bool) -> EscalationDraft:
    """The draft of an escalation for the event the trainee ``chose`` (None while the trace follows the newest
    event, or when the cursor is on a note): its target (:func:`preselect_target`) and that event cited; for no
    chosen event, no target and no citation. ``released`` are the released events in order, ``format2`` whether the
    drill is format 2 (its plan and set-up are targets too). Flags play no part."""
    if chosen is None:
        return EscalationDraft(None, ())
    return EscalationDraft(preselect_target(chosen, released, format2), (chosen.id,))
