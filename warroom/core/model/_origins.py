"""Where a fault can happen (format 2, docs/authoring.md "Faults outside an executor step"), and what an
escalation can name.

A fault's ``origin`` is a plan step (``step``, the default: ``origin_step`` names it), the planner's own call
(``plan``: a plan or re-plan that drops or invents a constraint; ``origin_event`` names the planner call), the
harness set-up before step 1 (``setup``: e.g. tool discovery that failed; ``origin_event`` names the set-up event)
or a handoff between agents (``handoff``: the instruction one agent wrote for another dropped a constraint;
``origin_event`` names the handoff event).

An escalation names an *escalation target*: a plan step id, one of the two reserved targets :data:`PLAN`
(``@plan``, "the plan") and :data:`SETUP` (``@setup``, "set-up"), or a handoff outside any plan step
(``@handoff:ID``, "lead's handoff to refunder (h1)": :func:`handoff_target`; a handoff inside a step is escalated
as its step), none of which a plan step id can equal (an id starts with a letter or
digit). The action log and the session journal record the target as the escalation's ``step``.

Pure functions; no pydantic model is imported here (the model imports :class:`FaultOrigin`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

#: The escalation target of a fault in the planner's own call (a plan or re-plan).
PLAN = "@plan"
#: The escalation target of a fault in the harness set-up before step 1.
SETUP = "@setup"
#: How every view names the reserved targets.
TARGET_LABELS: dict[str, str] = {PLAN: "the plan", SETUP: "set-up"}
#: The escalation target of a handoff is this prefix and the handoff event's id (``@handoff:h1``).
HANDOFF_PREFIX = "@handoff:"


class FaultOrigin(StrEnum):
    """Where the fault happened: in a plan ``step`` (the default), in the planner's own call (``plan``), in the
    harness ``setup`` before step 1 or in a ``handoff`` between agents."""

    STEP = "step"
    PLAN = "plan"
    SETUP = "setup"
    HANDOFF = "handoff"


_TARGET_OF_ORIGIN = {FaultOrigin.PLAN: PLAN, FaultOrigin.SETUP: SETUP}


def fault_target(fault: Any) -> str:
    """The escalation target that contains ``fault`` (a :class:`~warroom.core.model.Fault`): its ``origin_step``
    for a step origin, :data:`PLAN` or :data:`SETUP`, or the handoff's target (:func:`handoff_target`)."""
    origin = FaultOrigin(getattr(fault, "origin", FaultOrigin.STEP) or FaultOrigin.STEP)
    if origin is FaultOrigin.STEP:
        return str(fault.origin_step)
    if origin is FaultOrigin.HANDOFF:
        return handoff_target(str(fault.origin_event))
    return _TARGET_OF_ORIGIN[origin]


def handoff_target(event_id: str) -> str:
    """The escalation target of the handoff event ``event_id``: ``@handoff:h1``."""
    return f"{HANDOFF_PREFIX}{event_id}"


def handoff_of(drill: Any, target: str | None) -> Any | None:
    """The handoff event of ``drill`` that ``target`` (``@handoff:ID``) names, a handoff outside any plan step (one
    inside a step is escalated as its step); None for any other target."""
    if target is None or not target.startswith(HANDOFF_PREFIX):
        return None
    wanted = target[len(HANDOFF_PREFIX):]
    return next((e for e in drill.trace if e.id == wanted and e.kind == "handoff" and e.step is None), None)


def handoff_targets(drill: Any) -> list[str]:
    """The escalation targets of ``drill``'s handoffs outside any plan step, in trace order (none in a format-1
    drill): an escalation may name one once it is released."""
    if getattr(drill, "schema_version", 1) < 2:
        return []
    return [handoff_target(e.id) for e in drill.trace if e.kind == "handoff" and e.step is None]


def target_label(drill: Any, target: str | None, *, title: bool = True) -> str:
    """A target in words: ``the plan``, ``set-up``, ``step s2`` (with ``title``: ``step s2 (Fetch the invoices)``),
    a handoff ``lead's handoff to refunder (h1)``; an unknown step id is named as given. Drill text is returned raw
    (callers clean what they print)."""
    if target is None:
        return "-"
    if target in TARGET_LABELS:
        return TARGET_LABELS[target]
    handoff = handoff_of(drill, target)
    if handoff is not None:
        return f"{handoff.from_agent}'s handoff to {handoff.to_agent} ({handoff.id})"
    if title:
        for s in drill.plan:
            if s.id == target:
                return f"step {target} ({s.title})"
    return f"step {target}"


def origin_event_of(drill: Any) -> Any | None:
    """The trace event where the fault starts: the ``origin_event`` of a plan, set-up or handoff origin, else the first
    trace event of the origin step; None in an all-clear drill or when there is none."""
    key = drill.answer_key
    if key is None:
        return None
    wanted = getattr(key.fault, "origin_event", None)
    for ev in drill.trace:
        if (wanted is not None and ev.id == wanted) or (wanted is None and ev.step == key.fault.origin_step):
            return ev
    return None


def event_target(drill: Any, event: Any) -> str:
    """The escalation target a trainee reacting to ``event`` would name: its plan step; outside any step, in a
    format-2 drill, :data:`PLAN` for a planner call, the handoff itself for a handoff and :data:`SETUP` for an event
    before the first event of any plan step; otherwise the first plan step (as format 1 always does)."""
    if event.step is not None:
        return str(event.step)
    if getattr(drill, "schema_version", 1) >= 2:
        if event.kind == "planner_call":
            return PLAN
        if event.kind == "handoff":
            return handoff_target(event.id)
        first_stepped = next((e.t for e in drill.trace if e.step is not None), None)
        if first_stepped is None or event.t < first_stepped:
            return SETUP
    return str(drill.plan[0].id)
