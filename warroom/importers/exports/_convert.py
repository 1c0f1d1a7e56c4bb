"""An export's traces as drills: the steps an importer reads of the file (:data:`Reader`), each trace
made a drill by the span importers' builder, with what the export records apart from its steps (goals, prices,
notes, agents' descriptions: :class:`Recorded`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warroom.importers.kit import TraceError, TraceOptions
from warroom.importers.spans import (
    NothingToPlay,
    Span,
    Step,
    group_traces,
    idle_noted,
    pick_trace,
    span_drill,
    trace_to_drill,
)


@dataclass
class Recorded:
    """What an export records apart from its steps, by trace id: each trace's goal (a Langfuse trace's ``input``),
    and the prices of its models whose calls recorded their cost, by model name: ``(input, output)`` USD per
    million tokens (the recorded costs over the recorded tokens); what ``source`` must say of the trace besides
    (``notes``: sentences); and what each agent is (``descriptions``, by agent name as the drill spells it)."""

    goals: dict[str, str] = field(default_factory=dict)
    prices: dict[str, dict[str, tuple[float, float]]] = field(default_factory=dict)
    notes: dict[str, list[str]] = field(default_factory=dict)
    descriptions: dict[str, dict[str, str]] = field(default_factory=dict)


#: A reader: a file to its traces, each as its steps by trace id, and what it records apart from them. Raises
#: TraceError.
Reader = Callable[[Path], tuple[dict[str, list[Step]], Recorded]]


def convert_export(path: Path, read: Reader, prefix: str, convention: str, options: TraceOptions | None = None,
                      *, unit: str = "span") -> list[tuple[dict[str, Any], str]]:
    """Every trace in the file at ``path`` as ``(drill data, header)``: ``read`` makes its steps, ``prefix``
    starts the drill ids, ``convention`` names the export in the text, ``unit`` its records (``run``); only the
    trace ``options.trace_id`` when given; of a file of several traces, those with nothing to play are left out
    (each drill's ``source`` names them). Raises TraceError (one line)."""
    options = options or TraceOptions()
    path = Path(path)
    steps, recorded = read(path)
    if not steps:
        raise TraceError("no trace in this file")
    traces = pick_trace({tid: [s.span for s in group] for tid, group in steps.items()}, options.trace_id)
    several = len(traces) > 1
    out, idle = [], []
    for i, (trace_id, spans) in enumerate(traces.items()):
        by_id = {s.span.span_id: s for s in steps[trace_id]}

        def classify(span: Span, by_id: dict[str, Step] = by_id) -> Step:
            return by_id[span.span_id]

        ordered = group_traces(spans)[trace_id]  # sorted by start; a repeated id or a parent cycle refused
        try:
            parts = trace_to_drill(ordered, classify, options=options)
        except NothingToPlay:
            if several:  # a trace around other work (custom spans only) beside the agents' traces
                idle.append(trace_id)
                continue
            # the builder's message advises the OTLP importers: not this one's
            raise TraceError(f"no {unit} of this trace is an agent, model call or tool call") from None
        if not parts["goal"] and recorded.goals.get(trace_id):
            parts["goal"] = recorded.goals[trace_id]
        data, header = span_drill(parts, path, trace_id, i if several else None, prefix, convention, options)
        _described(data, recorded, trace_id)
        out.append(_priced(data, header, recorded.prices.get(trace_id, {}), convention))
    return idle_noted(out, idle, unit)


def _described(data: dict[str, Any], recorded: Recorded, trace_id: str) -> None:
    """Add to the drill ``data`` what ``recorded`` says of its trace: its agents' descriptions, and its notes at
    the end of ``source``."""
    described = recorded.descriptions.get(trace_id, {})
    for agent in data["agents"]:
        if described.get(agent["name"]):
            agent["description"] = described[agent["name"]]
    notes = recorded.notes.get(trace_id)
    if notes:
        data["source"] += " " + " ".join(notes)


def _priced(data: dict[str, Any], header: str, prices: dict[str, tuple[float, float]], convention: str
            ) -> tuple[dict[str, Any], str]:
    """The drill with the prices of its models that ``prices`` names (USD per million input/output tokens), its
    ``source`` and ``header`` saying which prices are recorded rather than assumed."""
    models = data["models"]
    named = []
    for entry in [models["planner"], models["executor"], *models.get("others", [])]:
        if entry["name"] in prices:
            entry["input_usd_per_mtok"], entry["output_usd_per_mtok"] = prices[entry["name"]]
            named.append(entry["name"])
    if named:
        note = (f"prices of {', '.join(named)} from the costs {convention} recorded; estimated: prices of any other "
                "model (")
        data["source"] = data["source"].replace("estimated: prices (", note, 1)
        header = header.replace("estimated: prices (", note, 1)
    return data, header
