"""The panes the war room and its author mode share: a side panel beside the trace table, over the inspector.

:func:`room_panes` is composed by :class:`~warroom.tui.room.WarRoomScreen` (with the reported plan at the side) and by
:class:`~warroom.tui.author.AnnotateScreen` (with the answer key at the side), so both lay out, name and style
their panes the same way (``#upper``, ``#trace-table``, ``#inspector`` in warroom.tcss).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from textual.containers import Horizontal
from textual.widget import Widget

from warroom.tui.logic import agent_labels, shows_agents
from warroom.tui.widgets._inspector import Inspector
from warroom.tui.widgets._tracetable import AGENT_COLUMN, TraceTable, trace_columns


def event_ids(drill: Any) -> list[str]:
    """Every id a row of the drill's trace table may have: the trace's events, the re-plan's and the probes'."""
    key = getattr(drill, "answer_key", None)
    replan = [e.id for e in key.replan] if key is not None else []
    return [e.id for e in drill.trace] + replan + [p.id for p in getattr(drill, "probes", ()) or ()]


def room_panes(side: Widget, drill: Any, repetitions: Mapping[str, int]) -> Iterator[Widget]:
    """Compose (``yield from`` inside a screen's ``compose``) ``side`` and the trace table (titled "Trace", with
    an agent column when ``drill`` has several agents; ``repetitions``: the replay's event id -> times shown so
    far, which the table reads) in a row (``#upper``), then the inspector (titled "Inspector")."""
    with Horizontal(id="upper"):
        yield side
        labels = agent_labels(drill, AGENT_COLUMN.width or 0)
        agents = shows_agents(drill)
        columns = trace_columns(event_ids(drill), [s.id for s in drill.plan], agents)
        timeline = TraceTable(id="trace-table", agents=agents, repetitions=repetitions, agent_labels=labels,
                              columns=columns)
        timeline.border_title = "Trace"
        yield timeline
    inspector = Inspector(id="inspector")
    inspector.border_title = "Inspector"
    yield inspector
