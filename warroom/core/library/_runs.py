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
fields that only place or time an event (its id, time, plan step, ``retry_of``, ``attempt``, ``duration_ms``), and,
in a result a twin's ``replace`` gives (and only there: a run's own ``currency`` or ``partial: false`` is what it
says), the fields a projection's twin adds to its changed result to say it is sound, but those the drill's own
(faulted) result shows alike, the run's own (a JSON result is read by its value: :func:`_unsounded`). A
field naming another event (the call a result answers, the request an approval answers, a call's batch) is kept as
the place of that event in the run, never its id: which call a result answers counts, how events are named does
not. The drill clock stretched for the reading window changes only times, so two projections of one run have one
fingerprint; two runs that differ in any call, result (or the call it answers), message or report have two.

An author who edits one event of a run (a character of a result, a line added to a message) makes another
fingerprint of it, so drills are of one run by a **near match** (:func:`run_groups`, docs/drill-sets.md): each
drill's healthy run as a set of what its events say (:func:`run_events`: each event's digest, with the digest of
the event it names in place of that event's place, numbered by repetition), and two runs one run when their
overlap, the events they share over the events either has (Jaccard), is at least :data:`SAME_RUN_OVERLAP`. Two
runs of one agent on two tasks share little of what their events say (its system prompt is a log; what the user
asked, the calls' arguments and their results differ): at most 0.14 in the tau-bench retail runs, whatever their
policy text. The pairs are found with a prefix filter (each run indexed by its rarest events only, as many as a
near pair must share one of), never by comparing every pair.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from warroom.core.model import PLACING_FIELDS, SOUND_FIELDS, Drill, LogEvent, TwinError, twin_of

#: Fields of a trace event that name other events by id (the call a result answers, the request an approval
#: answers, the batch of a model turn's calls): written as the place of the event they name in the run (its first
#: event of the batch), so that which call a result answers counts, and how the events are named does not.
_NAMING = ("call", "request", "batch")

#: Characters of the hexadecimal digest a fingerprint is.
DIGEST_CHARS = 12
#: Two healthy runs are one run when the events they share are at least this part of the events either has
#: (Jaccard): one event edited in a run of 20 leaves 19 of 21 (0.90), in a run of 3, 2 of 4 (0.5).
SAME_RUN_OVERLAP = 0.5

#: A run as :func:`run_events` gives it: (an event's digest, which repetition of that digest it is).
RunEvents = frozenset[tuple[str, int]]


def healthy_trace(drill: Drill) -> list[Any]:
    """The trace events of ``drill``'s healthy run: its twin's (a drill with a twin), else its own."""
    if drill.twin is not None:
        try:
            return list(twin_of(drill).trace)
        except TwinError:  # a twin that does not build: the drill does not validate; its own trace stands in
            return list(drill.trace)
    return list(drill.trace)


def _sounded(drill: Drill) -> dict[str, Any]:
    """The tool results whose output ``drill``'s twin replaces (those whose output a projection's twin may have
    added fields to, saying it is sound), each with the output ``drill``'s own trace shows there (the faulted
    result, as JSON values: :func:`_unsounded` keeps a field it shows alike, the run's own); none for a drill
    without a twin."""
    if drill.twin is None:
        return {}
    shown = {e.id: _json_value(getattr(e, "output", None)) for e in drill.trace}
    return {i: shown.get(i, _ABSENT) for i, change in drill.twin.replace.items()
            if "output" in change.model_fields_set}


#: A result's output (or field) the drill's own trace does not have.
_ABSENT = object()


def _json_value(output: Any) -> Any:
    """A tool result's output as JSON values: a JSON text of an object or array parsed, anything else as it is."""
    if isinstance(output, str):
        try:
            parsed = json.loads(output)
        except ValueError:
            return output
        return parsed if isinstance(parsed, (dict, list)) else output
    return output


def _kept(events: list[Any]) -> list[Any]:
    """The events of a run that say what happened, in release order: no logs, no retried attempts (nor their
    results)."""
    ordered = sorted(events, key=lambda e: e.t)  # stable: events of one time keep their order
    retried = {e.retry_of for e in ordered if getattr(e, "retry_of", None)}
    return [e for e in ordered
            if not (isinstance(e, LogEvent) or e.id in retried or getattr(e, "call", None) in retried)]


#: A result no twin's ``replace`` gives.
_NOT_REPLACED = object()


def _said(event: Any, replaced: dict[str, Any] | None = None) -> dict[str, Any]:
    """What ``event`` says: its fields but those that place or time it and those naming other events; a tool
    result's JSON output by its value, without the fields saying it is sound (:func:`_unsounded`) when its output is
    one a twin's ``replace`` gives (its id in ``replaced``, with what the drill's own trace shows there)."""
    said: dict[str, Any] = event.model_dump(mode="json", exclude_none=True, exclude=set(PLACING_FIELDS))
    if said.get("kind") == "tool_result" and "output" in said:
        output = said["output"]
        shown = (replaced or {}).get(event.id, _NOT_REPLACED)
        sound = shown is not _NOT_REPLACED
        parsed = _json_value(output)
        if isinstance(output, str) and isinstance(parsed, (dict, list)):
            # a JSON text by its value (and the white space around it), as the twin's result is written anew
            around = [output[:len(output) - len(output.lstrip())], output[len(output.rstrip()):]]
            said["output"] = {"json": _unsounded(parsed, shown) if sound else parsed, "around": around}
        elif sound and not isinstance(output, str):
            said["output"] = _unsounded(output, shown)
    return said


def _unsounded(value: Any, shown: Any = _ABSENT) -> Any:
    """``value`` (the output a twin's ``replace`` gives a tool result, as JSON values) without what a projection's
    twin adds to say a result is sound, so that the twins of two projections of one run are one run: every field of
    :data:`~warroom.core.model.SOUND_FIELDS` holding its value there, a ``<list>_timed_out: false``,
    ``<list>_error: null`` and ``<list>_next_cursor: null`` with its ``<list>_total_count``, the counts beside an
    empty ``write_errors`` and the ``as_of`` beside a zero ``cache_age_s``, every ``currency`` field (a
    unit-confusion fault's twin names the run's currency where the run named none), and a ``{data, ...}`` wrapper
    left with its data alone. A field the drill's own result (``shown``, at the same place) shows alike is the
    run's own, kept: the fault changed or added the twin's others (a template stays away from a result that has
    its fields), so every projection of a run whose results already say ``error: null`` keeps it and is one run.
    (A unit-confusion fault changes a currency the result names itself: there the twin's, the run's, is dropped,
    and that projection differs from the run by that field, which the near match, :func:`run_groups`, joins.)"""
    if isinstance(value, list):
        return [_unsounded(v, shown[i] if isinstance(shown, list) and i < len(shown) else _ABSENT)
                for i, v in enumerate(value)]
    if not isinstance(value, dict):
        return value
    own = shown if isinstance(shown, dict) else {}
    drop = {k for k, v in value.items() if (k == "currency" or SOUND_FIELDS.get(k, SOUND_FIELDS) == v
            or (k.endswith(("_timed_out", "_error", "_next_cursor")) and (v is False or v is None)))
            and own.get(k, _ABSENT) != v}
    drop |= {f"{k[:-len('_next_cursor')]}_total_count" for k in drop if k.endswith("_next_cursor")}
    if "next_cursor" in drop:
        drop.add("total_count")
    if "write_errors" in drop:
        drop |= {"matched_count", "modified_count"}
    if "cache_age_s" in drop:
        drop.add("as_of")
    kept = {k: _unsounded(v, own.get(k, _ABSENT)) for k, v in value.items() if k not in drop}
    return kept["data"] if drop and list(kept) == ["data"] else kept


def _digest(data: Any, size: int = 8) -> str:
    """``data`` (JSON values) as a digest of ``size`` bytes, in hexadecimal."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=size).hexdigest()


def _what_happened(events: list[Any], replaced: dict[str, Any]) -> list[dict[str, Any]]:
    """The events of a run as what they say, in release order: no logs, no retried attempts (nor their results),
    no placing fields."""
    kept = _kept(events)
    place: dict[tuple[str, str], int] = {}  # (what it names: "id" or "batch", the name) -> first place in the run
    for i, event in enumerate(kept):
        place.setdefault(("id", event.id), i)
        if getattr(event, "batch", None) is not None:
            place.setdefault(("batch", event.batch), i)
    out = []
    for event in kept:
        said = _said(event, replaced)
        for name in _NAMING:
            named = getattr(event, name, None)
            if named is not None:  # (-1: an event not in the run, a log or a retried attempt)
                said[f"{name}_at"] = place.get(("batch" if name == "batch" else "id", named), -1)
        out.append(said)
    return out


def run_fingerprint(drill: Drill) -> str:
    """The fingerprint of the healthy run ``drill`` was made from: :data:`DIGEST_CHARS` hexadecimal characters,
    the same for every drill of one run whatever their ids, titles and faults (see the module docstring), but a
    unit-confusion fault's on a result that names its own currency: its twin's currency is left out as a twin's
    added one is (:func:`_unsounded`; from the drill alone the two are one shape), and :func:`run_groups` joins it."""
    return _digest(_what_happened(healthy_trace(drill), _sounded(drill)), DIGEST_CHARS // 2)


def run_events(drill: Drill) -> RunEvents:
    """The healthy run ``drill`` was made from as a set of its events (what :func:`run_groups` compares): each kept
    event (as the fingerprint keeps them) as a digest of what it says and of what the event it names says (the call
    a result answers, the request an approval answers, the first call of its batch; never its place, so an event
    added earlier changes one digest, not every later one), numbered by repetition (a call made twice is two)."""
    kept = _kept(healthy_trace(drill))
    replaced = _sounded(drill)
    own = [_digest(_said(e, replaced)) for e in kept]
    named: dict[tuple[str, str], str] = {}  # ("id" or "batch", the name) -> the digest of the event it names
    for event, digest in zip(kept, own, strict=True):
        named.setdefault(("id", event.id), digest)
        if getattr(event, "batch", None) is not None:
            named.setdefault(("batch", event.batch), digest)
    repeats: Counter[str] = Counter()
    out = set()
    for event, digest in zip(kept, own, strict=True):
        names = [(n, getattr(event, n, None)) for n in _NAMING]
        whole = _digest([digest, *(named.get(("batch" if n == "batch" else "id", v), "-")
                                   for n, v in names if v is not None)])
        out.add((whole, repeats[whole]))
        repeats[whole] += 1
    return frozenset(out)


def run_overlap(one: RunEvents, other: RunEvents) -> float:
    """The events two runs share over the events either has (Jaccard): 1.0 for two empty runs."""
    either = len(one | other)
    return len(one & other) / either if either else 1.0


def run_groups(runs: Sequence[RunEvents]) -> list[int]:
    """For each of ``runs`` (:func:`run_events`), the index of the first run of its group: runs are one run when
    their overlap (:func:`run_overlap`) is at least :data:`SAME_RUN_OVERLAP`, and so are the runs a chain of such
    pairs joins. Equal runs are compared once; the near pairs are found by :func:`_near_pairs`."""
    parent = list(range(len(runs)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def join(i: int, j: int) -> None:
        a, b = root(i), root(j)
        parent[max(a, b)] = min(a, b)

    first: dict[RunEvents, int] = {}
    distinct: list[int] = []
    for i, run in enumerate(runs):
        if run in first:
            join(first[run], i)
        else:
            first[run] = i
            distinct.append(i)
    for i, j in _near_pairs([runs[k] for k in distinct]):
        join(distinct[i], distinct[j])
    return [root(i) for i in range(len(runs))]


def _near_pairs(runs: Sequence[RunEvents]) -> Iterator[tuple[int, int]]:
    """Pairs (i < j) of ``runs`` whose overlap is at least :data:`SAME_RUN_OVERLAP`, enough of them to join every
    run to each run a chain of such pairs leads to (not each such pair), by a prefix filter: with
    the events ordered rarest first, two runs of overlap t share at least ceil(t * n) of the n events of each, so
    they share one of the first n - ceil(t * n) + 1 of each; only those are indexed and looked up, and only the runs
    found so are compared (an event every run has is in no prefix but the runs that have nothing else), and never
    two that a chain of the pairs found already joins (5,000 projections of one run are not 12 million
    comparisons)."""
    counts = Counter(event for run in runs for event in run)
    index: dict[tuple[str, int], list[int]] = {}
    group = list(range(len(runs)))  # the runs the pairs found so far join, by a label each: never compared again
    members = {j: [j] for j in range(len(runs))}
    for j, run in enumerate(runs):
        ordered = sorted(run, key=lambda event: (counts[event], event))
        prefix = ordered[:len(ordered) - math.ceil(SAME_RUN_OVERLAP * len(ordered)) + 1]
        for i in sorted({i for event in prefix for i in index.get(event, ())}):
            if group[i] != group[j] and run_overlap(runs[i], run) >= SAME_RUN_OVERLAP:
                yield i, j
                big, small = sorted((group[i], group[j]), key=lambda label: -len(members[label]))
                for k in members.pop(small):
                    group[k] = big
                    members[big].append(k)
        for event in prefix:
            index.setdefault(event, []).append(j)
