"""The drill of one trace of spans (:func:`span_drill`): the builder's parts with the text every span importer
writes around them (id, title, source, briefing, the file header saying what was estimated), and the one trace a
file's ``--trace-id`` picks (:func:`pick_trace`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from warroom.core.author import UNMARKED_AUTHOR
from warroom.importers.kit import DEFAULT_DIFFICULTY, TraceError, TraceOptions, drill_id
from warroom.importers.spans._build import EXECUTOR
from warroom.importers.spans._span import Span, span_id_hex

PEOPLE = ("human", "tool-host")


def span_drill(parts: dict[str, Any], file: Path, trace_id: str, index: int | None, prefix: str, convention: str,
           options: TraceOptions) -> tuple[dict[str, Any], str]:
    recorded = parts.get("costs_recorded") or []
    estimated = [f"prices ({options.price}, assumed)" if not recorded else
                 f"prices of {', '.join(recorded)} scaled so that its calls cost what the trace recorded "
                 f"(operation.cost); of any other model {options.price}, assumed"]
    if any(e.get("usage", {}).get("estimated") for e in parts["trace"]):
        estimated.append("the token counts of model spans without usage (text length)")
    ignored = (f" Ignored: spans that are not agent, model or tool spans ({parts['ignored_spans']}), and "
               f"attributes the importer does not read ({parts['unknown_attributes']}).") + _read_otherwise(parts)
    if parts.get("dropped"):
        ignored += (" Lost to OpenTelemetry's attribute limit (droppedAttributesCount): "
                    + "; ".join(parts["dropped"][:5]) + (f"; and {len(parts['dropped']) - 5} more" if
                                                          len(parts["dropped"]) > 5 else "") + ".")
    if parts.get("not_recorded"):
        ignored += (f" Not recorded: the arguments and result of {parts['not_recorded']} tool call(s) (the spans were "
                    "recorded without content); their results say so, and are not empty results.")
    made, unanswered = parts.get("unspanned") or (0, 0)
    if made:
        ignored += (f" Read from the model calls: {made} tool call(s), which no span of the trace records (its model "
                    "calls were traced, its tools were not): each call as its model call asked for it, its result "
                    "as the next model call was sent it" + (f"; {unanswered} result(s) no model call was sent are "
                    "not recorded, and say so." if unanswered else "."))
    if parts.get("no_model_spans"):
        reports = " (each agent's report is its own span's output)" if parts.get("reports") else ""
        ignored += (f" Not recorded: model usage: the trace has no model span{reports}, so no token counts (none are "
                    "estimated), and the drill's cost is not the run's.")
    where = f"{file.name}, trace {trace_id}"
    data = {
        "schema_version": 2,
        "id": drill_id(prefix, file.stem, index),
        "title": f"{convention} trace {file.stem}" + ("" if index is None else f" #{index}"),
        "version": 1,
        "difficulty": DEFAULT_DIFFICULTY,
        "tags": ["domain:imported", f"domain:{prefix}"],
        "author": f"imported by warroom from {convention} spans{UNMARKED_AUTHOR}",
        "source": (f"{convention} spans in {where}, imported by `warroom import {prefix}`. Times are the spans' own "
                   f"(seconds from the first span's start); text is verbatim; estimated: {'; '.join(estimated)}."
                   + ignored),
        "briefing": {
            "goal": parts["goal"] or f"(the trace records no user request: {trace_id})",
            "watching": f"{_working(parts['agents'])}, with tools: {', '.join(parts['tools']) or 'none'}.",
        },
        "models": parts["models"],
        "agents": parts["agents"],
        "plan": parts["plan"],
        "trace": parts["trace"],
    }
    header = (f"Imported by `warroom import {prefix}` from {where}.\n"
              f"Real trace; times are the spans'; estimated: {'; '.join(estimated)} (see `source`).")
    return data, header


def _read_otherwise(parts: dict[str, Any]) -> str:
    """What of the trace was read otherwise than recorded, for ``source`` (empty when nothing was)."""
    notes = [f"{what} ({n})" for n, what in (
        (parts["orphans"], "spans whose parent span is not in the file, read as roots"),
        (parts["ended_before_start"], "spans that end before they start, read as ending when they start")) if n]
    return f" Read otherwise than recorded: {', and '.join(notes)}." if notes else ""


def _working(agents: list[dict[str, Any]]) -> str:
    """Who is at work in the briefing: ``Agent lead``, ``Agents lead, scout``, or the unnamed default agent."""
    names = [a["name"] for a in agents if a["role"] not in PEOPLE]
    if names == [EXECUTOR] and not any(a["role"] == "planner" for a in agents):  # an agent span named `agent` plans
        return f"An agent (the trace names none: `{EXECUTOR}`) at work"
    return f"{'Agent' if len(names) == 1 else 'Agents'} {', '.join(names)} at work"


def pick_trace(traces: dict[str, list[Span]], trace_id: str | None) -> dict[str, list[Span]]:
    """``traces`` (by trace id), or only the one ``trace_id`` names (hex in any case, or base64 as protobuf's JSON
    mapping writes it; surrounding spaces ignored) when it is given, or the run read as one that trace is part of.
    Raises TraceError naming the trace ids found when it is not among them."""
    if trace_id is None:
        return traces
    wanted = span_id_hex(trace_id, 16)
    if wanted in traces:
        return {wanted: traces[wanted]}
    for run, spans in traces.items():  # one of the traces of a run read as one (AutoGen's: join_linked_runs)
        if any(s.trace_id == wanted for s in spans):
            return {run: spans}
    found = [_cut(t) for t in traces]
    listed = ", ".join(found[:10]) + (f" and {len(found) - 10} more" if len(found) > 10 else "")
    raise TraceError(f"no trace {_cut(trace_id.strip())} in this file; its trace ids: {listed}")


def _cut(text: str) -> str:
    """A trace id as a refusal names it: at most 80 characters (a --trace-id of 5,000 is not echoed whole)."""
    return text if len(text) <= 80 else text[:77] + "..."


def idle_noted(out: list[Any], idle: list[str], unit: str) -> list[Any]:
    """``out`` with each drill's ``source`` naming the file's ``idle`` traces (none of whose records is an agent,
    model call or tool call: not imported); raises TraceError when no trace made a drill. ``out`` may hold a
    :class:`~warroom.importers.kit.Refused` trace too (keyed from a ground-truth file that annotates no error of
    it), left as it is."""
    if not out:
        raise TraceError(f"no {unit} of the file's {len(idle)} traces is an agent, model call or tool call")
    if idle:
        names = ", ".join(idle[:5]) + (f" and {len(idle) - 5} more" if len(idle) > 5 else "")
        for drill in out:
            if isinstance(drill, tuple):
                drill[0]["source"] += (f" Traces of the file not imported, none of their {unit}s an agent, model "
                                       f"call or tool call: {names}.")
    return out
