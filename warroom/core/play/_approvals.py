"""Format 2: approvals, and the visible absence of one a plan step requires.

A plan step with ``requires_approval: true`` needs an ``approval`` event with ``decision: granted`` in that step
before its first tool call. :func:`missing_approvals` finds the steps that went ahead without one: the war room
marks them (in the plan panel) and names the call that went ahead (in its inspector).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from warroom.core.model import Approval, ToolCall


class ApprovalWatch:
    """Watches released events for steps that went ahead without their approval; :attr:`missing` maps step id to
    the id of the first tool call made in the step before any ``granted`` approval of that step. O(1) per event."""

    def __init__(self, plan: Iterable[Any]) -> None:
        self.required = frozenset(s.id for s in plan if s.requires_approval)
        self.granted: set[str] = set()
        self.missing: dict[str, str] = {}

    def see(self, event: Any) -> None:
        """Take one more released event into account (events in release order)."""
        step = event.step
        if step not in self.required or step in self.granted or step in self.missing:
            return
        match event:
            case Approval(decision="granted"):
                self.granted.add(step)
            case ToolCall():
                self.missing[step] = event.id


def missing_approvals(plan: Iterable[Any], events: Iterable[Any]) -> dict[str, str]:
    """The plan steps that require an approval and went ahead without one (see :class:`ApprovalWatch`), given the
    trace events released so far (or all of them), in order. Linear in their number."""
    watch = ApprovalWatch(plan)
    if watch.required:
        for ev in events:
            watch.see(ev)
    return watch.missing
