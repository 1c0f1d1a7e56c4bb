"""The panes the war room and its author mode share: a side panel beside the trace table, over the inspector.

:func:`room_panes` is composed by :class:`~warroom.tui.room.WarRoomScreen` (with the reported plan at the side) and by
:class:`~warroom.tui.author.AnnotateScreen` (with the answer key at the side), so both lay out, name and style
their panes the same way (``#upper``, ``#trace-table``, ``#inspector`` in warroom.tcss).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import partial
from typing import Any

from textual.containers import Horizontal
from textual.widget import Widget

from warroom.core.text import clean_line
from warroom.tui.logic import agent_labels, event_agent, shows_agents
from warroom.tui.widgets._inspector import Inspector
from warroom.tui.widgets._tracetable import TraceTable, trace_columns


def event_ids(drill: Any) -> list[str]:
    """Every id a row of the drill's trace table may have: the trace's events, the re-plan's and the probes'."""
    key = getattr(drill, "answer_key", None)
    replan = [e.id for e in key.replan] if key is not None else []
    return [e.id for e in drill.trace] + replan + [p.id for p in getattr(drill, "probes", ()) or ()]


def _agent_width(drill: Any) -> int:
    """The cells the agent column needs to show every agent of ``drill`` whole: its agents' names and the roles shown
    for events that name no agent (:func:`~warroom.tui.logic.event_agent`)."""
    names = {agent.name for agent in drill.agents} | {event_agent(ev) or "" for ev in drill.trace}
    return max((len(clean_line(name)) for name in names), default=0)


def room_panes(side: Widget, drill: Any, repetitions: Mapping[str, int]) -> Iterator[Widget]:
    """Compose (``yield from`` inside a screen's ``compose``) ``side`` and the trace table (titled "Trace", with
    an agent column when ``drill`` has several agents; ``repetitions``: the replay's event id -> times shown so
    far, which the table reads) in a row (``#upper``), then the inspector (titled "Inspector")."""
    with Horizontal(id="upper"):
        yield side
        agents = shows_agents(drill)
        columns = trace_columns(event_ids(drill), [s.id for s in drill.plan], agents)
        width = _agent_width(drill) if agents else 0
        timeline = TraceTable(id="trace-table", agents=agents, repetitions=repetitions,
                              agent_labels=partial(agent_labels, drill), agent_width=width, columns=columns)
        timeline.border_title = "Trace"
        yield timeline
    inspector = Inspector(id="inspector")
    inspector.border_title = "Inspector"
    yield inspector
