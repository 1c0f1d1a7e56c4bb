"""Traces that only repeat model calls of another trace of the file: a model client's instrumentor run beside a
framework's (OpenInference's OpenAI instrumentor beside its LangChain one, as Phoenix's quickstarts set them up)
traces each model call again, and when its span does not join the framework's trace (the client called where the
framework's context is not current), each call is a trace of its own: one model span, inside a model span of the
framework's trace in time, asking for the same tools. Such a trace is no run of its own, and no drill is made of it
(each drill's ``source`` names them)."""

from __future__ import annotations

from typing import Any

from warroom.importers.spans import AGENT, MODEL, TOOL, Classifier, Span, Step


def echo_traces(traces: dict[str, list[Span]], classify: Classifier) -> dict[str, str]:
    """``{trace id: the id of the trace it repeats}`` for each trace of ``traces`` whose every agent, model or tool
    span is a model span that a model span of another trace (one with an agent or tool span: a run) holds in time
    and matches (the same output text and the same tools asked for, :func:`_same_call`)."""
    if len(traces) < 2:
        return {}
    steps = {tid: [classify(s) for s in spans] for tid, spans in traces.items()}
    runs = {tid: [s for s in found if s.kind == MODEL] for tid, found in steps.items()
            if any(s.kind in (AGENT, TOOL) for s in found)}
    echoes: dict[str, str] = {}
    for tid, found in steps.items():
        played = [s for s in found if s.kind in (AGENT, MODEL, TOOL)]
        if tid in runs or not played or any(s.kind != MODEL for s in played):
            continue
        holders = [_holder(s, runs, tid) for s in played]
        if all(h is not None for h in holders):
            echoes[tid] = str(holders[0])
    return echoes


def _holder(step: Step, runs: dict[str, list[Step]], own: str) -> str | None:
    """The id of the run (another trace) with a model span that holds ``step``'s span in time and is the same call;
    None when there is none."""
    return next((tid for tid, models in runs.items() if tid != own for m in models
                 if m.span.start_ns <= step.span.start_ns and step.span.end_ns <= m.span.end_ns
                 and _same_call(m, step)), None)


def _same_call(outer: Step, inner: Step) -> bool:
    """Whether two model steps record the same call: the same tools asked for (by name, in order) and, when both
    record output text, the same text."""
    def asked(s: Step) -> list[Any]:
        return [name for _, name in s.tool_calls_asked]

    texts = [s.content.strip() for s in (outer, inner) if s.content and s.content.strip()]
    return asked(outer) == asked(inner) and (len(texts) < 2 or texts[0] == texts[1])
