"""The rules of a drill's twin section (format 2; docs/authoring.md, "Twins: signal and noise trials").

A twin is the fault drill's healthy run, played as a noise trial (:mod:`warroom.core.model._twin`). On a type-valid
drill, :func:`twin_issues` returns each problem as an :class:`~warroom.core.rules.Issue` at its place in the twin
section (``twin.replace.e04``, ``twin.add[1].t``...), so that ``warroom validate`` reports it as
``path:line:col: message``:

- only a drill with a fault has a twin (an all-clear drill is already a healthy run);
- **references**: every id ``replace`` or ``remove`` names is a trace event, listed once, not both replaced and
  removed; every id ``probes`` names is a probe; every added event has a new id (not a trace, re-plan or probe
  id, nor another added event's); no plan step or probe has an id a trace event is shown as in a session
  (``e01``, ``e02``, ...: a drill with a twin is played with its events' ids by position), and no event has a plan
  step's id (the debrief's texts are renamed with the events);
- **the same background**: nothing the twin changes comes before the fault's earliest evidence (no event replaced
  or removed before the earliest evidence event, none added or moved before its time, no probe result that can
  come before it changed), so a noise trial looks like a signal trial until the evidence would have appeared;
- **healthy**: the twin changes something; every damage event of the fault is replaced, removed or listed as
  ``harmless`` (done as written, harmless without the fault; else "the healthy run still does damage"), and
  ``harmless`` lists only damage events, neither replaced nor removed; every probe that finds the fault shows
  something else;
- **a well-formed all-clear drill**: the twin, built, is a valid drill (types, then every rule of
  :func:`~warroom.core.rules.validate_drill`), each problem at the twin's entry it comes from.

:func:`twin_warnings` finds what loads but may not be what was meant: a twin that changes none of the events that
show the fault, or replaces one with the same content, and one whose healthy run releases another number of events
than the fault drill at a moment up to the answer key's deadline (the count tell; ``warroom validate`` shows them as
warnings).
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from warroom.core.model import (
    EVENT_KINDS,
    Drill,
    TwinBuild,
    accepted_ids,
    build_twin,
    detection_events,
    earliest_evidence_at,
    earliest_result_at,
    finding_probes,
    shown_ids,
    value_at,
)
from warroom.core.rules._issues import Issue, Loc, q
from warroom.core.text import Suggester

#: What every problem found in the built twin says first.
IN_TWIN = "in the twin (the healthy run): "


def twin_issues(drill: Drill, base_valid: bool = True) -> list[Issue]:
    """The problems of ``drill``'s ``twin`` section (see the module docstring). ``base_valid``: the rest of the
    drill has no problem, so the twin can be built and checked as a drill (else only its references are)."""
    twin = drill.twin
    if twin is None:
        return []
    if drill.answer_key is None and drill.all_clear is None:  # a trace still being marked up: its key is missing
        return []
    if drill.answer_key is None:
        return [Issue(("twin",), (
            "an all-clear drill has no twin: it is already a healthy run (a twin belongs to a drill with an "
            "answer_key); remove `twin`"))]
    issues = _reference_issues(drill)
    if issues or not base_valid:
        return issues
    issues = _timing_issues(drill) + _healthy_issues(drill)
    return issues + _built_issues(drill)


# ---------------------------------------------------------------------------------------------------------------
# References
# ---------------------------------------------------------------------------------------------------------------


def _reference_issues(drill: Drill) -> list[Issue]:
    twin = drill.twin
    assert twin is not None and drill.answer_key is not None
    trace_ids = {e.id: e for e in drill.trace}
    probe_ids = {p.id for p in drill.probes}
    events = Suggester(trace_ids)
    issues: list[Issue] = []
    for event_id in twin.replace:
        if event_id not in trace_ids:
            issues.append(Issue(("twin", "replace", event_id), _unknown(event_id, "replace", events, probe_ids)))
    seen: dict[str, int] = {}
    for j, event_id in enumerate(twin.remove):
        loc: Loc = ("twin", "remove", j)
        if event_id in seen:
            issues.append(Issue(loc, f"{q(event_id)} is listed twice in `remove`", ("twin", "remove", seen[event_id])))
        elif event_id not in trace_ids:
            issues.append(Issue(loc, _unknown(event_id, "remove", events, probe_ids)))
        elif event_id in twin.replace:
            issues.append(Issue(loc, (
                f"{q(event_id)} is both replaced and removed: a healthy run either has the event (keep it in "
                "`replace`) or does not (keep it in `remove`)"), ("twin", "replace", event_id)))
        seen.setdefault(event_id, j)
    issues += _harmless_issues(drill, trace_ids, events)
    taken = set(trace_ids) | probe_ids | {e.id for e in drill.answer_key.replan}
    added: dict[str, int] = {}
    for k, event in enumerate(twin.add):
        loc = ("twin", "add", k, "id")
        if event.id in added:
            issues.append(Issue(loc, f"the added event id {q(event.id)} is used twice",
                                ("twin", "add", added[event.id])))
        elif event.id in taken:
            issues.append(Issue(loc, (
                f"{q(event.id)} is already an event or probe of the drill: an added event needs a new id (to change "
                f"{q(event.id)}, list it under `replace`)")))
        added.setdefault(event.id, k)
    issues += _shown_id_issues(drill)
    probes = Suggester(probe_ids)
    for probe_id in twin.probes:
        if probe_id not in probe_ids:
            hint = probes(probe_id)
            also = " (it is a trace event: change it under `replace`)" if probe_id in trace_ids else ""
            known = (f"name one of the drill's probes ({', '.join(sorted(probe_ids))})" if probe_ids
                     else "the drill has no probes: remove the entry")
            issues.append(Issue(("twin", "probes", probe_id), (
                f"no probe {q(probe_id)}{hint}{also}: `twin.probes` gives what a probe of the drill reveals in the "
                f"healthy run; {known}")))
    return issues


def _shown_id_issues(drill: Drill) -> list[Issue]:
    """A plan step or probe whose id is one a trace event is shown as in a session (``e01``, ``e02``, ...: a drill
    with a twin is played with its events' ids by position): an escalation or a citation could not tell them apart,
    so no session of the drill could start. And an event whose id is a plan step's: the session renames each
    authored event id its debrief texts name, so a text naming the step would name the event."""
    shown = shown_ids(drill)
    owners: list[tuple[Loc, str]] = [(("plan", i, "id"), "plan step") for i in range(len(drill.plan))]
    owners += [(("probes", i, "id"), "probe") for i in range(len(drill.probes))]
    ids = [s.id for s in drill.plan] + [p.id for p in drill.probes]
    issues = [Issue(loc, (
        f"{what} {q(the_id)} has an id that a trace event is shown as (a drill with a twin is played with its "
        "events' ids by position, e01, e02, ...): give it another id"))
        for (loc, what), the_id in zip(owners, ids, strict=True) if the_id in shown]
    assert drill.twin is not None and drill.answer_key is not None
    steps = {s.id for s in drill.plan}
    events: list[tuple[Loc, str, str]] = [(("trace", i, "id"), "trace event", e.id) for i, e in enumerate(drill.trace)]
    events += [(("answer_key", "replan", i, "id"), "re-plan event", e.id)
               for i, e in enumerate(drill.answer_key.replan)]
    events += [(("twin", "add", k, "id"), "added event", e.id) for k, e in enumerate(drill.twin.add)]
    return issues + [Issue(loc, (
        f"{what} {q(the_id)} has the id of plan step {q(the_id)}: a session of a drill with a twin shows its events by "
        "position and renames the event ids its debrief names, so a debrief naming the step would name the event; "
        "give the event another id")) for loc, what, the_id in events if the_id in steps]


def _harmless_issues(drill: Drill, trace_ids: dict[str, Any], events: Suggester) -> list[Issue]:
    """``harmless`` names damage events of the fault, once each, that the twin neither replaces nor removes."""
    twin, key = drill.twin, drill.answer_key
    assert twin is not None and key is not None
    damage = {e.event for e in key.damage.entries} | set(key.damage.spend)
    issues: list[Issue] = []
    seen: dict[str, int] = {}
    for j, event_id in enumerate(twin.harmless):
        loc: Loc = ("twin", "harmless", j)
        if event_id in seen:
            issues.append(Issue(loc, f"{q(event_id)} is listed twice in `harmless`",
                                ("twin", "harmless", seen[event_id])))
        elif event_id not in trace_ids:
            issues.append(Issue(loc, f"no trace event {q(event_id)}{events(event_id)}"))
        elif event_id not in damage:
            issues.append(Issue(loc, (
                f"{q(event_id)} is not a damage event: `harmless` lists the damage events the healthy run does as "
                "written (an event that is not damage needs no mention)")))
        elif event_id in twin.replace or event_id in twin.remove:
            where = "replaced" if event_id in twin.replace else "removed"
            issues.append(Issue(loc, f"{q(event_id)} is {where} by the twin: it is not done as written; drop it from "
                                "`harmless`"))
        seen.setdefault(event_id, j)
    return issues


def _unknown(event_id: str, where: str, events: Suggester, probe_ids: set[str]) -> str:
    if event_id in probe_ids:
        return f"{q(event_id)} is a probe, not a trace event: give what it reveals in the healthy run under `probes`"
    return f"no trace event {q(event_id)} to {where}{events(event_id)}"


# ---------------------------------------------------------------------------------------------------------------
# The same background until the evidence
# ---------------------------------------------------------------------------------------------------------------


def _timing_issues(drill: Drill) -> list[Issue]:
    """What the twin changes before the fault's earliest evidence (a noise trial would look different from a
    signal trial before the evidence could be seen)."""
    twin = drill.twin
    assert twin is not None
    first = earliest_evidence_at(drill)
    if first is None:
        return []
    position = {e.id: i for i, e in enumerate(drill.trace)}
    at_first = [position[e.id] for _, e in detection_events(drill) if e.t == first]
    gate = min(at_first, default=None)  # the evidence event released first: changes from it on
    shown = drill.trace[gate].id if gate is not None else "a probe's result"
    why = (f"before the fault's earliest evidence ({shown} at {first:g} s), so a noise trial would look different from "
           "a signal trial before the evidence could be seen; change only what comes from the evidence on")

    def early(event_id: str) -> bool:
        i = position[event_id]
        t = drill.trace[i].t
        return t < first or (t == first and gate is not None and i < gate)

    issues: list[Issue] = []
    for event_id, change in twin.replace.items():
        if early(event_id):
            issues.append(Issue(("twin", "replace", event_id),
                                f"{q(event_id)} is released at {drill.trace[position[event_id]].t:g} s, {why}"))
        elif isinstance(moved := change.model_dump(exclude_unset=True).get("t"), int | float) and moved < first:
            issues.append(Issue(("twin", "replace", event_id, "t"), f"{q(event_id)} would move to {moved:g} s, {why}"))
    for j, event_id in enumerate(twin.remove):
        if early(event_id):
            issues.append(Issue(("twin", "remove", j),
                                f"{q(event_id)} is released at {drill.trace[position[event_id]].t:g} s, {why}"))
    for k, event in enumerate(twin.add):
        if event.t < first:
            issues.append(Issue(("twin", "add", k, "t"),
                                f"the added event {q(event.id)} comes at {event.t:g} s, {why}"))
    for probe in drill.probes:
        new = twin.probes.get(probe.id)
        if new is None:
            continue
        at = earliest_result_at(drill, probe.model_copy(update={"seconds": new.seconds or probe.seconds}))
        if at is not None and at < first and probe not in finding_probes(drill):
            issues.append(Issue(("twin", "probes", probe.id),
                                f"the result of probe {q(probe.id)} can come at {at:g} s, {why}"))
    return issues


# ---------------------------------------------------------------------------------------------------------------
# A healthy run
# ---------------------------------------------------------------------------------------------------------------


def _healthy_issues(drill: Drill) -> list[Issue]:
    """A twin that changes nothing, still does the fault's damage, or whose verification still finds the fault."""
    twin, key = drill.twin, drill.answer_key
    assert twin is not None and key is not None
    if not (twin.replace or twin.remove or twin.add or twin.probes):
        return [Issue(("twin",), (
            "the twin changes nothing: it would be the fault drill itself; give the events that differ when "
            "nothing goes wrong (`replace`, `remove`, `add`)"))]
    issues: list[Issue] = []
    healed = set(twin.replace) | set(twin.remove) | set(twin.harmless)
    for entry in key.damage.entries:
        if entry.event not in healed:
            what = f" ({entry.note})" if entry.note else ""
            issues.append(Issue(("twin",), (
                f"the healthy run still does damage: {q(entry.event)}{what} is neither replaced nor removed; remove "
                "it, replace it with what the healthy run did, or list it under `harmless` when the healthy run "
                "does it as written, harmless without the fault")))
    for event_id in key.damage.spend:  # format 2: model calls whose cost is the damage
        if event_id not in healed:
            issues.append(Issue(("twin",), (
                f"the healthy run still does damage: {q(event_id)} (spend) is neither replaced nor removed; remove "
                "the calls the healthy run does not make, or replace the event (without its `repeat`), or list it "
                "under `harmless`")))
    for probe in finding_probes(drill):
        shown = twin.probes.get(probe.id)
        if shown is None or shown.reveals is None:
            issues.append(Issue(("twin",), (
                f"probe {q(probe.id)} finds the fault, so in the healthy run it shows something else: give what it "
                f"reveals under `twin.probes.{probe.id}.reveals`")))
    return issues


# ---------------------------------------------------------------------------------------------------------------
# The twin built, as a drill
# ---------------------------------------------------------------------------------------------------------------


def _built_issues(drill: Drill) -> list[Issue]:
    """The twin built (:func:`~warroom.core.model.build_twin`) and checked as a drill: its type problems, then the
    semantic rules, each at the twin's entry it comes from."""
    from warroom.core.rules._validate import validate_drill

    build = build_twin(drill)
    try:
        built = Drill.model_validate(build.data)
    except ValidationError as exc:
        return [_type_issue(drill, build, err) for err in exc.errors(include_url=False)]
    issues = [_removed_distractor(drill, build, i) or Issue(_place(drill, build, i.loc), IN_TWIN + i.message)
              for i in validate_drill(built)]
    return list(dict.fromkeys(issues))  # a removed distractor's problems are one


def _removed_distractor(drill: Drill, build: TwinBuild, issue: Issue) -> Issue | None:
    """The built twin's problem of a kept distractor whose event the twin removes, saying so and what to do, with
    the twin's ``remove`` entry related: "distractor event `e09` is not a trace event" alone, though e09 is one in
    the file, said nothing of the removal. None for any other problem."""
    twin = drill.twin
    assert twin is not None
    loc = issue.loc
    if twin.distractors is not None or loc[:1] != ("distractors",) or len(loc) < 2 or not isinstance(loc[1], int):
        return None
    event_id = drill.distractors[loc[1]].event if loc[1] < len(drill.distractors) else None
    if event_id not in twin.remove:
        return None
    return Issue(_place(drill, build, loc), (
        f"{IN_TWIN}{issue.message}: the twin removes it, and keeps the fault drill's distractors (it has no "
        "`distractors` of its own), so the healthy run must still have it: drop it from `twin.remove` (or "
        "`replace` it), or give the twin its own `distractors`"), ("twin", "remove", twin.remove.index(event_id)))


def _type_issue(drill: Drill, build: TwinBuild, err: Any) -> Issue:
    loc = tuple(err["loc"])
    if len(loc) > 2 and loc[0] == "trace" and loc[2] in EVENT_KINDS.values():
        kind, loc = loc[2], (*loc[:2], *loc[3:])
        if err["type"] == "extra_forbidden":
            return Issue(_place(drill, build, loc), f"{IN_TWIN}a {kind} event has no field `{loc[-1]}`")
    return Issue(_place(drill, build, loc), f"{IN_TWIN}{_shown_loc(loc)}{err['msg']}")


def _shown_loc(loc: Loc) -> str:
    fields = [str(p) for p in loc[2:]] if loc[:1] == ("trace",) else [str(p) for p in loc]
    return f"{'.'.join(fields)}: " if fields else ""


def _place(drill: Drill, build: TwinBuild, loc: Loc) -> Loc:
    """Where in the fault drill's file a problem of the built twin at ``loc`` belongs: the twin's entry an event
    comes from (the field given, when it is one), the twin's debrief or distractors, else the twin section."""
    twin = drill.twin
    assert twin is not None
    if len(loc) >= 2 and loc[0] == "trace" and isinstance(loc[1], int) and loc[1] < len(build.sources):
        source, rest = build.sources[loc[1]], loc[2:]
        if source[:2] == ("twin", "replace"):
            given = twin.replace[str(source[2])].model_fields_set
            return (*source, *rest[:1]) if rest and rest[0] in given else source
        return (*source, *rest)
    if loc[:1] == ("all_clear",):
        return ("twin", "debrief")
    if loc[:1] == ("distractors",):
        return ("twin", *loc) if twin.distractors is not None else loc
    if loc[:1] == ("probes",) and len(loc) >= 2 and isinstance(loc[1], int) and loc[1] < len(drill.probes):
        probe_id = drill.probes[loc[1]].id
        return ("twin", "probes", probe_id) if probe_id in twin.probes else loc
    if loc[:2] == ("variants", "shuffle") or loc[:2] == ("variants", "jitter"):
        return loc  # kept as written in the twin
    return ("twin",)


# ---------------------------------------------------------------------------------------------------------------
# Warnings
# ---------------------------------------------------------------------------------------------------------------


def twin_warnings(drill: Drill) -> list[Issue]:
    """What in a valid twin may not be what was meant: a twin that changes none of the events that show the fault
    (the events of its evidence items, an absence's checkpoint among them, and its accepted evidence: a faithful
    result misread shows the fault in the report that misreads it; a twin that adds events to a drill whose
    evidence is an absence fills it), and an evidence event the twin replaces with the same content (or the same
    value at the evidence's field path). An evidence event left as it is beside one that changed is fine: it may
    show the fault only beside the other (a report that repeats a figure, the second half of a comparison)."""
    twin = drill.twin
    if twin is None or drill.answer_key is None:
        return []
    detected = detection_events(drill)
    found = [(ref, event) for ref, event in detected if ref.absent is None]
    trace_ids = {e.id for e in drill.trace}
    accepted = [e for e in accepted_ids(drill.answer_key) if e in trace_ids]
    shown = list(dict.fromkeys([*(e for ref, _ in detected for e in ref.events), *accepted]))
    healed = set(twin.replace) | set(twin.remove)
    absence_filled = bool(twin.add) and any(ref.absent is not None for ref, _ in detected)
    out: list[Issue] = []
    if shown and not healed & set(shown) and not absence_filled:
        out.append(Issue(("twin",), (
            f"the twin changes none of the events that show the fault ({', '.join(shown)}): would the healthy run "
            f"show them too? Give their healthy content under `twin.replace`")))
    warned: set[str] = set()  # one warning per event: a field path's first (the most precise)
    for ref, event in sorted(found, key=lambda pair: pair[0].path is None):
        change = twin.replace.get(event.id)
        if change is None or event.id in warned:
            continue
        given = change.model_dump(exclude_unset=True)
        if ref.path is not None:
            before = value_at(_output(event), ref.path)
            if not before[0] or before != value_at(_output(event.model_copy(update=given)), ref.path):
                continue
            message = f"the twin's {event.id} still has {ref.path} = {before[1]!r}, the value that shows the fault"
        elif _same(event, given):
            message = (f"the twin's {event.id} is the same as the fault drill's: the healthy run would show the same "
                       "evidence")
        else:
            continue
        out.append(Issue(("twin", "replace", event.id), message))
        warned.add(event.id)
    return out + _count_warnings(drill)


def _count_warnings(drill: Drill) -> list[Issue]:
    """The count tell: a twin whose healthy run, by the answer key's deadline, releases another number of events
    than the fault drill, or releases events at a moment where the fault drill releases another number (none
    among them). Trainees see the events by position (``e01``, ``e02``...), so the rows out by a moment are all a
    trainee who reads no content can compare with the drill file; one warning, at the first moment that differs."""
    key = drill.answer_key
    assert key is not None
    deadline = key.deadline
    if not isinstance(deadline, int | float) or isinstance(deadline, bool):
        return []
    build = build_twin(drill)
    healthy = [(t, src) for e, src in zip(build.data["trace"], build.sources, strict=True)
               if isinstance(t := e.get("t"), int | float) and t <= deadline]
    fault = [e.t for e in drill.trace if e.t <= deadline]
    moments = sorted({t for t, _ in healthy} | set(fault))
    differ = [m for m in moments if sum(t == m for t, _ in healthy) != fault.count(m)]
    if not differ:
        return []
    at = differ[0]
    ours, theirs = sum(t == at for t, _ in healthy), fault.count(at)
    where = "none" if theirs == 0 else f"{theirs}"
    message = (
        f"the healthy run releases {ours} event{'s' if ours != 1 else ''} at {at:g} s where the fault drill releases "
        f"{where} ({len(healthy)} events by the deadline at {deadline:g} s, the fault drill {len(fault)}): a trainee "
        "who reads no content tells a noise trial by the count of rows out; let the healthy run replace the fault "
        "drill's events at their moments (the same calls, succeeding) rather than add, remove or move events before "
        "the deadline"
    )
    return [Issue(_count_place(drill, build, at, more=ours > theirs), message)]


def _count_place(drill: Drill, build: TwinBuild, at: float, more: bool) -> Loc:
    """The twin's entry that makes the count differ at ``at``: an added event or one moved there (``more``), or
    an event removed or moved away from there; else the twin section."""
    twin = drill.twin
    assert twin is not None
    if more:
        for event, src in zip(build.data["trace"], build.sources, strict=True):
            if event.get("t") == at and src[:2] == ("twin", "add"):
                return (*src, "t")
            moved = src[:2] == ("twin", "replace") and "t" in twin.replace[str(src[2])].model_fields_set
            if event.get("t") == at and moved:
                return (*src, "t")
        return ("twin",)
    for event in drill.trace:
        if event.t != at:
            continue
        if event.id in twin.remove:
            return ("twin", "remove", twin.remove.index(event.id))
        change = twin.replace.get(event.id)
        if change is not None and "t" in change.model_fields_set:
            return ("twin", "replace", event.id, "t")
    return ("twin",)


def _output(event: Any) -> Any:
    from warroom.core.model import event_output

    return event_output(event)


def _same(event: Any, fields: dict[str, Any]) -> bool:
    dumped = event.model_dump()
    return all(dumped.get(name) == value for name, value in fields.items())

