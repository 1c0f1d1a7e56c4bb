"""Format 2: approvals, and the visible absence of one a plan step requires.

A plan step with ``requires_approval: true`` needs an ``approval`` event with ``decision: granted`` in that step
before its first tool call. :func:`missing_approvals` finds the steps that went ahead without one: the war room
marks them, and the debrief names the call that went ahead.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from warroom.core.events import Approval, ToolCall


def missing_approvals(plan: Iterable[Any], events: Iterable[Any]) -> dict[str, str]:
    """The plan steps that require an approval and went ahead without one: step id to the id of the first tool call
    made in the step before any ``granted`` approval of that step. ``events`` are the trace events released so far
    (or all of them), in order. Linear in their number."""
    required = {s.id for s in plan if s.requires_approval}
    granted: set[str] = set()
    missing: dict[str, str] = {}
    if not required:
        return missing
    for ev in events:
        step = ev.step
        if step not in required or step in granted or step in missing:
            continue
        match ev:
            case Approval(decision="granted"):
                granted.add(step)
            case ToolCall():
                missing[step] = ev.id
    return missing
