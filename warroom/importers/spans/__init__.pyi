# The API of warroom.importers.spans (its __init__.py loads each name on first use, from the module named here).

from ._build import NothingToPlay, agent_id, nearest_agent, trace_to_drill
from ._drill import idle_noted, pick_trace, span_drill
from ._runs import join_linked_runs
from ._span import Span, SpanEvent, group_traces, span_id_hex
from ._step import (
    AGENT,
    MODEL,
    OTHER,
    TOOL,
    Classifier,
    Step,
    as_arguments,
    as_text,
    as_tokens,
    begin_step,
    command_handoff,
    count_unknown,
    langgraph_subgraph,
    mark_agent,
    mark_tool,
    parsed_json,
    unwrap_arguments,
)
from ._trail import read_trail, trail_annotation

__all__ = [
    "AGENT",
    "NothingToPlay",
    "Classifier",
    "MODEL",
    "OTHER",
    "Span",
    "SpanEvent",
    "Step",
    "TOOL",
    "agent_id",
    "as_arguments",
    "as_text",
    "as_tokens",
    "begin_step",
    "command_handoff",
    "count_unknown",
    "group_traces",
    "langgraph_subgraph",
    "idle_noted",
    "join_linked_runs",
    "mark_agent",
    "mark_tool",
    "nearest_agent",
    "parsed_json",
    "pick_trace",
    "read_trail",
    "span_drill",
    "span_id_hex",
    "trace_to_drill",
    "trail_annotation",
    "unwrap_arguments",
]
