"""Format 2: approvals, and the visible absence of one a plan step requires.

A plan step with ``requires_approval: true`` needs an ``approval`` event with ``decision: granted`` in that step
before its first tool call, or (with ``approval_for``) before the first event the approval gates: a call of a tool
it names or an event of a kind it names. :func:`missing_approvals` finds the steps that went ahead without one: the
war room marks them (in the plan panel) and names the call that went ahead (in its inspector).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from warroom.core.model import Approval, ToolCall


class ApprovalWatch:
    """Watches released events for steps that went ahead without their approval; :attr:`missing` maps step id to
    the id of the first gated event (a tool call; with ``approval_for``, an event it names) made in the step before
    any ``granted`` approval of that step. O(1) per event."""

    def __init__(self, plan: Iterable[Any]) -> None:
        steps = [s for s in plan if s.requires_approval]
        self.required = frozenset(s.id for s in steps)
        #: The steps whose approval gates only what ``approval_for`` names (the others: any tool call).
        self.scopes = {s.id: s.approval_for for s in steps if getattr(s, "approval_for", None) is not None}
        self.granted: set[str] = set()
        self.missing: dict[str, str] = {}

    def see(self, event: Any) -> None:
        """Take one more released event into account (events in release order)."""
        step = event.step
        if step not in self.required or step in self.granted or step in self.missing:
            return
        scope = self.scopes.get(step)
        match event:
            case Approval(decision="granted"):
                self.granted.add(step)
            case ToolCall() if scope is None:
                self.missing[step] = event.id
            case _ if scope is not None and scope.gates(event):
                self.missing[step] = event.id


def missing_approvals(plan: Iterable[Any], events: Iterable[Any]) -> dict[str, str]:
    """The plan steps that require an approval and went ahead without one (see :class:`ApprovalWatch`), given the
    trace events released so far (or all of them), in order. Linear in their number."""
    watch = ApprovalWatch(plan)
    if watch.required:
        for ev in events:
            watch.see(ev)
    return watch.missing
