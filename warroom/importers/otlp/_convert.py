"""An OTLP/JSON file's traces as drills, whatever the attribute convention: the spans read
(:func:`~warroom.importers.otlp.read_spans`), grouped by trace, each span classified by the importer's convention,
and each trace made a drill by the span importers' builder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from warroom.importers.kit import READING_TIME, Refused, TraceError, TraceOptions, key_drill, warn
from warroom.importers.otlp._convention import spans_convention
from warroom.importers.otlp._document import read_spans
from warroom.importers.otlp._echoes import echo_traces
from warroom.importers.spans import (
    Classifier,
    NothingToPlay,
    group_traces,
    idle_noted,
    join_linked_runs,
    pick_trace,
    read_trail,
    span_drill,
    trace_to_drill,
    trail_annotation,
)


def convert_otlp_file(path: Path, classify: Classifier, prefix: str, convention: str,
                      options: TraceOptions | None = None) -> list[tuple[dict[str, Any], str]]:
    """Every trace in the OTLP/JSON file at ``path`` as ``(drill data, header)``, ``classify`` saying what each
    span is; ``prefix`` starts the drill ids (``otel``), ``convention`` names the attribute set in the text; only
    the trace ``options.trace_id`` when given; of a file of several traces, those with nothing to play are left out
    (each drill's ``source`` names them). Raises TraceError (one line)."""
    options = options or TraceOptions()
    path = Path(path)
    traces = pick_trace(join_linked_runs(group_traces(read_spans(path))), options.trace_id)
    several = len(traces) > 1
    echoes = echo_traces(traces, classify)  # a model client's instrumentor beside the framework's, apart
    out: list[Any] = []
    errors = read_trail(options.ground_truth) if options.ground_truth is not None else None
    idle: list[str] = []
    foreign: list[tuple[str, str]] = []
    first: TraceError | None = None
    for i, (trace_id, spans) in enumerate(traces.items()):
        if trace_id in echoes:
            continue
        try:
            parts = trace_to_drill(spans, classify, options=options, calls_from_models=True)
        except NothingToPlay as e:
            if not several:
                raise
            first = first or e
            if (other := spans_convention(spans)) != prefix:  # two instrumentations' traces in one file
                foreign.append((trace_id, other))
                continue
            idle.append(trace_id)  # a trace of runtime spans beside the agents' (AutoGen's, each message its own)
            continue
        drill = span_drill(parts, path, trace_id, i if several else None, prefix, convention, options)
        if (joined := len({s.trace_id for s in spans})) > 1:  # AutoGen's: a trace per message published
            drill[0]["source"] += (f" The run's {joined} traces, which AutoGen's runtime joins by span links (a trace "
                                   "for each message it publishes), are read as one.")
        if errors is None:
            out.append(drill)
            continue
        try:
            out.append(_keyed(drill, parts, errors.get(trace_id) or (errors.get("") if not several else None),
                              options))
        except TraceError as e:
            out.append(Refused(f"trace {trace_id}", str(e)))
    if first is not None and not out:  # no trace has work: the builder's refusal, which names the importers
        raise first
    return _echoes_noted(_foreign_noted(idle_noted(out, idle, "span"), foreign, prefix), echoes)


def _echoes_noted(out: list[Any], echoes: dict[str, str]) -> list[Any]:
    """``out`` with each drill's ``source`` naming the file's traces that only repeat model calls of another
    (:func:`~warroom.importers.otlp._echoes.echo_traces`), of which no drill was made."""
    if echoes:
        names = ", ".join(list(echoes)[:5]) + (f" and {len(echoes) - 5} more" if len(echoes) > 5 else "")
        for drill in out:
            if isinstance(drill, tuple):
                drill[0]["source"] += (f" Traces of the file not imported, each one model call that a model span of "
                                       f"another trace already records (a model client's instrumentor beside the "
                                       f"framework's, its spans not joined to the framework's trace): {names}.")
    return out


def _foreign_noted(out: list[Any], foreign: list[tuple[str, str]], prefix: str) -> list[Any]:
    """``out`` with each drill's ``source`` naming the file's ``foreign`` traces, ``(trace id, convention)``: traces
    whose spans follow another convention than this importer's (``prefix``), with nothing to play under its own
    (a file where two instrumentations' traces were exported together); each is a warning too, naming the
    importer that reads it, so that the summary does not say the file was imported whole."""
    for trace_id, other in foreign:
        warn(f"trace {trace_id} is not imported: its spans follow another convention ({other}); "
             f"`warroom import {other} --trace-id {trace_id}` reads it")
    if foreign:
        names = ", ".join(f"{t} ({c})" for t, c in foreign[:5]) + (
            f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
        for drill in out:
            if isinstance(drill, tuple):
                drill[0]["source"] += (f" Traces of the file in another convention than `warroom import {prefix}` "
                                       f"reads, not imported: {names}.")
    return out


def _keyed(drill: tuple[dict[str, Any], str], parts: dict[str, Any], errors: list[dict[str, Any]] | None,
           options: TraceOptions) -> tuple[dict[str, Any], str]:
    """The drill keyed from its trace's TRAIL-style ``errors`` (:func:`~warroom.importers.spans.trail_annotation`).
    Raises TraceError when the file annotates no error of it."""
    if not errors:
        raise TraceError(f"{options.ground_truth.name if options.ground_truth else 'the annotation file'} annotates no "
                         "error of this trace (its `trace_id`s name the traces it annotates)")
    data, header = drill
    order = {e["id"]: n for n, e in enumerate(data["trace"])}
    key_drill(data, trail_annotation(errors, parts["span_events"], order), options.reading_time or READING_TIME)
    data["tags"] = [*data["tags"], "domain:annotated", data["answer_key"]["fault"]["kind"]]
    data["source"] += " Keyed from the span-level error annotations in the ground-truth file (TRAIL-style)."
    return data, header + "\nKeyed from TRAIL-style annotations: see answer_key and `source`."
