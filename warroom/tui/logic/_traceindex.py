"""Lookups over one drill's whole trace, made once per drill by the screen that shows it and held by that screen.

The war room, its author mode and the review each build a :class:`TraceIndex` of their drill and hand it to what
describes an event (:func:`warroom.tui.render.describe_event`), so describing an event costs the same on a
100-event and a 100,000-event trace. Nothing here is kept at module level or looked up by a drill's ``id`` (which
Python gives to another object once the drill is freed): an index lives and dies with its screen.

No Textual and no Rich here.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property

from warroom.core.model import Cast, Drill, TraceEvent
from warroom.core.play import CallIndex, index_calls, missing_approvals


class TraceIndex:
    """One drill's trace and re-plan, indexed: every event by id (:attr:`events`, built now, in time proportional
    to the trace), and on first use the tool calls with their results and batches (:attr:`calls`), the calls that
    went ahead without a required approval (:attr:`unapproved`) and the drill's agents and models (:attr:`cast`)."""

    def __init__(self, drill: Drill) -> None:
        self.drill = drill
        events: dict[str, TraceEvent] = {}
        for event in self._trace_and_replan():
            events.setdefault(event.id, event)
        #: Every trace event and re-plan event, by id (the first of an id, in trace order).
        self.events: Mapping[str, TraceEvent] = events

    def _trace_and_replan(self) -> tuple[TraceEvent, ...]:
        replan = self.drill.answer_key.replan if self.drill.answer_key else ()
        return (*self.drill.trace, *replan)

    @cached_property
    def calls(self) -> CallIndex:
        """The :class:`~warroom.core.play.CallIndex` of the trace and the re-plan: each tool call's results, batches
        and retries."""
        return index_calls(self._trace_and_replan())

    @cached_property
    def unapproved(self) -> dict[str, str]:
        """Format 2: the tool calls that went ahead without the approval their plan step requires (the first tool
        call of such a step before any granted approval in it), call id to step id. Whether a call went ahead
        unapproved depends only on the events before it, so showing it with the call tells nothing of the rest of
        the trace."""
        return {call: step for step, call in missing_approvals(self.drill.plan, self.drill.trace).items()}

    @cached_property
    def cast(self) -> Cast:
        """The drill's agents and models, resolving each model call's role, model and price."""
        return Cast(self.drill)
