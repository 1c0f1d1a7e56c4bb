"""Format 2: tool calls and their results paired, for the trace table, the inspector and the debrief.

A result (``tool_result`` or ``command_result``) answers a call by its id (``call``); results may come in any order
(in completion order, for a batch), a call may have several results (a streamed or repeated answer) or none. A
retry names the call it retries (``retry_of``) and has an attempt number (:func:`attempt`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from warroom.core.model import CommandResult, ToolCall, ToolResult


@dataclass
class CallIndex:
    """The tool calls of a list of events with their results, by call id.

    ``calls``: call id to its ``tool_call`` event; ``results``: call id to the results answering it, in trace
    order; ``batches``: batch id to the ids of its calls, in trace order.
    """

    calls: dict[str, ToolCall] = field(default_factory=dict)
    results: dict[str, list[ToolResult | CommandResult]] = field(default_factory=dict)
    batches: dict[str, list[str]] = field(default_factory=dict)

    def add(self, event: Any) -> None:
        """Index one more event (any kind; only calls and results are kept)."""
        match event:
            case ToolCall():
                self.calls[event.id] = event
                if event.batch is not None:
                    self.batches.setdefault(event.batch, []).append(event.id)
            case ToolResult() | CommandResult():
                self.results.setdefault(event.call, []).append(event)

    def results_of(self, call_id: str) -> list[ToolResult | CommandResult]:
        """The results answering the call ``call_id`` so far (empty: no result)."""
        return self.results.get(call_id, [])

    def attempt(self, call_id: str) -> int:
        """The attempt number of the call ``call_id`` (1 for a first try; see :func:`warroom.core.model.
        attempt_of`). Raises KeyError for an unknown call."""
        from warroom.core.model import attempt_of

        return attempt_of(self.calls[call_id], self.calls)


def index_calls(events: Iterable[Any]) -> CallIndex:
    """A :class:`CallIndex` of ``events`` (trace events, in order). Linear in their number."""
    index = CallIndex()
    for event in events:
        index.add(event)
    return index
