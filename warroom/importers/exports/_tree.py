"""The record tree of an export (runs, observations, spans): each record's root (:func:`root_ids`), the spans above
one (:func:`ancestors`), and tool calls that no agent holds (``spans.nearest_agent``) given to the agent whose
model call asked for them (:func:`attach_tools`)."""

from __future__ import annotations

from collections.abc import Iterator

from warroom.importers.spans import MODEL, TOOL, Span, Step, nearest_agent


def root_ids(parent: dict[str, str]) -> dict[str, str]:
    """Each record's root record id, by walking ``parent`` (record id to its parent's id, empty for none) up to a
    record without a parent in it; the records of a parent cycle share one root (the cycle is then refused as
    such by :func:`~warroom.importers.spans.group_traces`)."""
    out: dict[str, str] = {}
    known: dict[str, str] = {}  # the root of each record walked through on the way to a root (no cycle): walked once
    for record in parent:
        node, seen = record, set()
        while node not in known and parent.get(node) and parent[node] in parent and node not in seen:
            seen.add(node)
            node = parent[node]
        if node in seen:  # a cycle (refused later): its records share the least id of the walk
            out[record] = min(seen | {node})
            continue
        root = known.get(node, node)
        known.update(dict.fromkeys((*seen, node), root))
        out[record] = root
    return out


def ancestors(span: Span, by_id: dict[str, Span]) -> Iterator[str]:
    """The ids of the spans of ``by_id`` above ``span``, its parent first, up to the root (a parent cycle ended)."""
    node, seen = span.parent_id, set()
    while node in by_id and node not in seen:
        seen.add(node)
        yield node
        node = by_id[node].parent_id


def attach_tools(steps: list[Step]) -> int:
    """Give each tool call of one trace that no agent holds (LangGraph's ``tools`` node runs the calls apart from
    the agent that asked for them) the agent of the model call that asked for it: the latest one ending before
    it starts that asked for its call id (or, without one, its tool), made its parent. Returns how many moved."""
    by_id = {s.span.span_id: s for s in steps}
    by_call: dict[str, list[Step]] = {}  # a call id, or a tool name, to the model calls that asked for it
    for m in steps:
        if m.kind == MODEL:
            for key in {k for pair in m.tool_calls_asked for k in (f"id:{pair[0]}", f"tool:{pair[1]}")}:
                by_call.setdefault(key, []).append(m)
    moved = 0
    memo: dict[str, Step | None] = {}  # nearest_agent's answers, until a tool is moved
    for tool in steps:
        if tool.kind != TOOL or nearest_agent(tool, by_id, memo) is not None:
            continue
        key = f"id:{tool.call_id}" if tool.call_id else f"tool:{tool.tool}"
        asked = [m for m in by_call.get(key, []) if m.span.end_ns <= tool.span.start_ns]
        agent = nearest_agent(max(asked, key=lambda m: m.span.end_ns), by_id, memo) if asked else None
        if agent is not None:
            tool.span.parent_id = agent.span.span_id
            memo.clear()  # the spans under this tool run under an agent now
            moved += 1
    return moved
