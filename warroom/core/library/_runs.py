"""Which healthy run a drill was made from (:func:`run_fingerprint`), read from the drill itself.

Drills projected from one healthy run (``warroom project``), and hand-written drills whose twins are one run, share
every event but the fault's: a trainee who has seen one of them (or its noise trial, which *is* that run) finds the
fault of another by the event that differs, without reading it (docs/cohorts.md). So a drill set that counts holds
at most one drill of each run (:mod:`warroom.core.library._drillset`).

The run is read from the drill, never from its id, title or source text (an author renames them): it is the
drill's healthy run (its twin, built as :func:`~warroom.core.model.twin_of` builds it; an all-clear drill's own
trace; a fault drill without a twin: its trace, the only run it has), as the sequence of what its events say, with
what a projection adds around the run left out: ``log`` events (a distractor's deprecation warning, a tool SDK's
request log), the earlier attempts of a retried call and their results (a distractor's retried 429), and the
fields that only place or time an event (its id, time, plan step, ``retry_of``, ``attempt``, ``duration_ms``). A
field naming another event (the call a result answers, the request an approval answers, a call's batch) is kept as
the place of that event in the run, never its id: which call a result answers counts, how events are named does
not. The drill clock stretched for the reading window changes only times, so two projections of one run have one
fingerprint; two runs that differ in any call, result (or the call it answers), message or report have two.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from warroom.core.model import Drill, LogEvent, TwinError, twin_of

#: Fields of a trace event that place or time it in a trace, not what happened.
_PLACING = frozenset({"id", "t", "step", "call", "retry_of", "attempt", "duration_ms", "request"})
#: Fields of a trace event that name other events by id (the call a result answers, the request an approval
#: answers, the batch of a model turn's calls): written as the place of the event they name in the run (its first
#: event of the batch), so that which call a result answers counts, and how the events are named does not.
_NAMING = ("call", "request", "batch")

#: Characters of the hexadecimal digest a fingerprint is.
DIGEST_CHARS = 12


def healthy_trace(drill: Drill) -> list[Any]:
    """The trace events of ``drill``'s healthy run: its twin's (a drill with a twin), else its own."""
    if drill.twin is not None:
        try:
            return list(twin_of(drill).trace)
        except TwinError:  # a twin that does not build: the drill does not validate; its own trace stands in
            return list(drill.trace)
    return list(drill.trace)


def _what_happened(events: list[Any]) -> list[dict[str, Any]]:
    """The events of a run as what they say, in release order: no logs, no retried attempts (nor their results),
    no placing fields."""
    ordered = sorted(events, key=lambda e: e.t)  # stable: events of one time keep their order
    retried = {e.retry_of for e in ordered if getattr(e, "retry_of", None)}
    kept = [e for e in ordered
            if not (isinstance(e, LogEvent) or e.id in retried or getattr(e, "call", None) in retried)]
    place: dict[tuple[str, str], int] = {}  # (what it names: "id" or "batch", the name) -> first place in the run
    for i, event in enumerate(kept):
        place.setdefault(("id", event.id), i)
        if getattr(event, "batch", None) is not None:
            place.setdefault(("batch", event.batch), i)
    out = []
    for event in kept:
        said = event.model_dump(mode="json", exclude_none=True, exclude={*_PLACING, "batch"})
        for name in _NAMING:
            named = getattr(event, name, None)
            if named is not None:  # (-1: an event not in the run, a log or a retried attempt)
                said[f"{name}_at"] = place.get(("batch" if name == "batch" else "id", named), -1)
        out.append(said)
    return out


def run_fingerprint(drill: Drill) -> str:
    """The fingerprint of the healthy run ``drill`` was made from: :data:`DIGEST_CHARS` hexadecimal characters,
    the same for every drill of one run whatever their ids, titles and faults (see the module docstring)."""
    text = json.dumps(_what_happened(healthy_trace(drill)), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=DIGEST_CHARS // 2).hexdigest()
