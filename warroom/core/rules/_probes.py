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
- a probe's earlier ``answers`` end at a trace event (``until_event``) or a time, in time order; a probe in
  ``evidence`` counts from when its own answer can be on screen (after the last earlier answer ends);
- (in :mod:`warroom.core.rules._version`) a version-1 file has no probes (set ``schema_version: 2``).
"""

from __future__ import annotations

from typing import Any

from warroom.core.model import MAX_PROBE_SECONDS, answer_ends
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
        if start is not None:  # format 2: its own answer only once every earlier answer has ended
            start = max([start, *_answer_ends(r, probe, loc, trace)])
        ok = isinstance(secs, (int, float)) and not isinstance(secs, bool) and 0 < secs <= MAX_PROBE_SECONDS
        t = start + secs if start is not None and ok and isinstance(start, (int, float)) else None
        out[pid] = Ev(loc, pid, t, step, "probe", None)
    return out


def _answer_ends(r: Reader, probe: Any, loc: Loc, trace: list[Ev]) -> list[float]:
    """The known ends of a probe's earlier answers (format 2 ``answers``: ``until`` seconds or ``until_event``'s
    time), read through ``r``."""
    items, _ = r.items(probe, loc, "answers")
    ends: list[float] = []
    for aloc, answer in items:
        until, event = r.child(answer, aloc, "until"), r.child(answer, aloc, "until_event")
        if isinstance(until, (int, float)) and not isinstance(until, bool):
            ends.append(float(until))
        elif isinstance(event, str):
            ends += [float(e.t) for e in trace if e.id == event and isinstance(e.t, (int, float))][:1]
    return ends


def _answer_issues(drill: Any, p: Any, loc: Loc, event_ids: set[str]) -> list[Issue]:
    """A probe's earlier answers (format 2): each ``until_event`` is a trace event, and they come in time order."""
    out: list[Issue] = []
    last: float | None = None
    for j, answer in enumerate(p.answers):
        aloc: Loc = (*loc, "answers", j)
        if answer.until_event is not None and answer.until_event not in event_ids:
            hint = Suggester(sorted(event_ids))(answer.until_event)
            out.append(Issue((*aloc, "until_event"), f"probe {q(p.id)}'s answer ends at {q(answer.until_event)}, "
                             f"which is not a trace event{hint}"))
            continue
        end = answer_ends(drill, answer)
        if end is not None and end >= _trace_end(drill):
            out.append(Issue(aloc, f"probe {q(p.id)}'s answer #{j + 1} holds until {end:g} s, but the trace ends at "
                             f"{_trace_end(drill):g} s: the probe's own `reveals` could never be asked for; end the "
                             "answer before the last event, or drop it"))
        if end is not None and last is not None and end <= last:
            out.append(Issue(aloc, f"probe {q(p.id)}'s answers are out of time order: answer #{j + 1} ends at "
                             f"{end:g} s, not after the one before it ({last:g} s); list them by when they end"))
        last = end if end is not None else last
    return out


def _trace_end(drill: Any) -> float:
    """The drill time of the trace's last release (repetitions included): the drill ends then."""
    from warroom.core.model import last_repetition_at

    return max((last_repetition_at(e) for e in drill.trace), default=0.0)


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
        out += _answer_issues(drill, p, loc, {e.id for e in drill.trace})
    return out


def unknown_reference(what: str, ref: str, event_ids: Any, probe_ids: Any) -> str:
    """The message for an answer-key reference ``ref`` that is neither a trace event nor a probe, with a
    did-you-mean among both (``what`` names the reference, e.g. "evidence event")."""
    hint = Suggester([*event_ids, *probe_ids])(ref)
    return f"{what} {q(ref)} is neither a trace event nor a probe{hint}"
