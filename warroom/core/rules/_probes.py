"""The semantic rules of verification probes (format 2; docs/authoring.md, "Verification probes").

:func:`probe_times` reads the ``probes`` of a drill (type-valid or plain data) for the answer key's rules: a probe
listed in ``evidence`` counts from the earliest moment its result can be on screen (its plan step's first trace event
plus its ``seconds``). :func:`probe_issues` returns :class:`~warroom.core.rules.Issue` items for a type-valid
drill, in this order:

- a probe id is unique among the probes and is not also a trace or re-plan event id;
- a probe's ``step`` is a plan step (with a did-you-mean) with at least one trace event (or it could never be
  requested);
- (in :mod:`warroom.core.rules._answerkey`) the answer key's ``evidence`` and ``accepted_evidence`` may list probe
  ids besides trace events; a probe in ``evidence`` counts, for the deadline and damage rules, from the earliest
  moment its result can be on screen;
- (in :mod:`warroom.core.rules._version`) a version-1 file has no probes (set ``schema_version: 2``).
"""

from __future__ import annotations

from typing import Any

from warroom.core.model import MAX_PROBE_SECONDS
from warroom.core.rules._issues import Issue, Loc, q
from warroom.core.rules._reader import Ev, Reader, known
from warroom.core.text import Suggester, id_list


def probe_times(r: Reader, drill: Any, trace: list[Ev]) -> dict[str, Ev]:
    """Each probe id of ``drill`` (read through ``r``) to an :class:`~warroom.core.rules._reader.Ev` standing for its
    result at the earliest time it can be revealed (``loc`` the probe's, ``t`` None when unknown)."""
    out: dict[str, Ev] = {}
    items, _ = r.items(drill, (), "probes")
    for loc, probe in items:
        pid, step, secs = (r.child(probe, loc, k) for k in ("id", "step", "seconds"))
        if not isinstance(pid, str) or pid in out:
            continue
        start = next((e.t for e in trace if known(e.step) and e.step == step and known(e.t)), None)
        ok = isinstance(secs, (int, float)) and not isinstance(secs, bool) and 0 < secs <= MAX_PROBE_SECONDS
        t = start + secs if start is not None and ok and isinstance(start, (int, float)) else None
        out[pid] = Ev(loc, pid, t, step, "probe", None)
    return out


def probe_issues(drill: Any) -> list[Issue]:
    """The probe rules listed in the module docstring, on a type-valid drill; empty when it has no probes."""
    probes = getattr(drill, "probes", None) or []
    if not probes:
        return []
    out: list[Issue] = []
    event_ids = {e.id for e in drill.trace}
    if drill.answer_key is not None:
        event_ids |= {e.id for e in drill.answer_key.replan}
    steps = [s.id for s in drill.plan]
    steps_with_events = {e.step for e in drill.trace if e.step is not None}
    hint = Suggester(steps)
    seen: dict[str, int] = {}
    for i, p in enumerate(probes):
        loc: Loc = ("probes", i)
        if p.id in seen:
            out.append(Issue((*loc, "id"), f"duplicate probe id {q(p.id)}: probe #{seen[p.id] + 1} has it too",
                             ("probes", seen[p.id], "id")))
        else:
            seen[p.id] = i
        if p.id in event_ids:
            out.append(Issue((*loc, "id"), f"probe id {q(p.id)} is also a trace event id; a probe's result appears in "
                             "the trace under its id, so give it an id of its own"))
        if p.step not in steps:
            out.append(Issue((*loc, "step"), f"probe {q(p.id)} verifies {q(p.step)}, which is not a plan "
                             f"step{hint(p.step)}; the plan steps are: {id_list(steps)}"))
        elif p.step not in steps_with_events:
            out.append(Issue((*loc, "step"), f"probe {q(p.id)} verifies plan step {q(p.step)}, which has no trace "
                             "events: a probe can be requested only once its step has started"))
    return out


def unknown_reference(what: str, ref: str, event_ids: Any, probe_ids: Any) -> str:
    """The message for an answer-key reference ``ref`` that is neither a trace event nor a probe, with a
    did-you-mean among both (``what`` names the reference, e.g. "evidence event")."""
    hint = Suggester([*event_ids, *probe_ids])(ref)
    return f"{what} {q(ref)} is neither a trace event nor a probe{hint}"
