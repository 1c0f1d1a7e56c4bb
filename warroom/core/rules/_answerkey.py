"""The rules of a drill's answer key, all clear and distractors, on a drill read through a
:class:`~warroom.core.rules._reader.Reader` (loaded or not), looking references up in the plan's and events' index
(:class:`~warroom.core.rules._events.EventRules`):

- a drill has exactly one of ``answer_key`` and ``all_clear`` (:data:`MISSING_ANSWER_KEY` when it has neither);
- the fault's ``origin_step`` and the ``cascade`` are plan steps (format 2: a plan or set-up origin's
  ``origin_event`` is a trace event); the origin step has trace events;
- every ``evidence``, ``accepted_evidence``, damage and distractor event is a trace event (format 2: evidence and
  accepted evidence may name probes), listed once; an event is not both evidence and a distractor;
- every evidence item comes at or after the origin (a comparison, ``all_of``, once all its events are out; only its
  last event must come at or after the origin), and so does accepted evidence;
- the deadline leaves at least one evidence event at or before it; every damage event comes strictly after the
  earliest evidence.

Format 2, on a type-valid drill: a deadline by reference names a trace event (:func:`deadline_reference_issues`); a
plan origin's event is a planner call and a set-up origin's comes before step 1 (:func:`origin_issues`); an evidence
item's field path leads to a value in its event's output (:func:`path_issues`); every ``damage.spend`` event is a
model call with a usage, and a budget deadline is passed by the full damage (:func:`spend_issues`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any

from warroom.core.model import PLACING_FIELDS, BudgetTime, EventTime, damage_per_event
from warroom.core.rules._events import EventRules
from warroom.core.rules._issues import Issue, Loc, q
from warroom.core.rules._probes import probe_times, unknown_reference
from warroom.core.rules._reader import Ev, Unloaded, known
from warroom.core.text import Suggester, damage_shown_otherwise, exact_figure

#: The problem of a drill with neither ``answer_key`` nor ``all_clear`` (an imported trace before its mark-up): it
#: names every field the answer key needs, so the author knows exactly what is missing.
MISSING_ANSWER_KEY = (
    "the drill needs an answer_key (the hidden fault), or all_clear for a control drill with no fault; missing: "
    "answer_key.fault (origin_step, kind, summary), answer_key.evidence, answer_key.damage (unit, entries), "
    "answer_key.deadline, answer_key.debrief (`warroom annotate FILE` marks them up in the war room)"
)


class AnswerKeyRules:
    """The answer key's, all clear's and distractors' rules over one drill (:meth:`run`), once ``refs`` (the plan's
    and events' rules) has run; reported to the same findings. ``extra``: the paths of unknown keys (a misspelt
    ``answer_key`` is not reported missing)."""

    def __init__(self, refs: EventRules, extra: Iterable[Loc] = ()) -> None:
        self.refs = refs
        self.drill = refs.drill
        self.r = refs.r
        self.add = refs.add
        self.block = refs.block
        self.extra = list(extra)
        self.probe_results: dict[str, Ev] = {}
        self.accepted_ids: set[str] = set()
        #: per evidence item (as :meth:`evidence_items` gives them): True for an event as itself (an id, or
        #: ``event`` with no path or absence)
        self.plain_items: list[bool] = []

    def run(self) -> None:
        """Answer key or all clear, then the answer key's rules, then the distractors'."""
        key = self.r.child(self.drill, (), "answer_key")
        self.key_or_all_clear(key)
        evidence_ids: set[str] = set()
        if isinstance(key, Unloaded):
            self.block("the answer key's rules (evidence, cascade, damage, deadline)", key.loc)
        elif key is not None:
            evidence_ids = self.answer_key(key)
        self.distractors(evidence_ids)

    def key_or_all_clear(self, key: Any) -> None:
        clear = self.r.child(self.drill, (), "all_clear")
        if key is not None and clear is not None:
            self.add(("all_clear",),
                     "a drill has either an answer_key (a fault) or all_clear (a control drill), not both")
        elif key is None and clear is None:
            typo = next((loc for loc in self.extra if len(loc) == 1), None)
            if typo is not None:
                self.block("the drill has an answer_key or all_clear", typo)
            else:
                self.add((), MISSING_ANSWER_KEY)

    def answer_key(self, key: Any) -> set[str]:
        r, base = self.r, ("answer_key",)
        fault = r.child(key, base, "fault")
        origin_kind = r.child(fault, (*base, "fault"), "origin")
        if origin_kind in (None, "step"):
            origin = r.child(fault, (*base, "fault"), "origin_step")
            self.refs.check_step((*base, "fault", "origin_step"), origin, "the fault's origin_step")
            first_of_origin = self.origin(origin)
        else:  # format 2: the plan or the set-up; the origin event starts the fault
            origin_event = r.child(fault, (*base, "fault"), "origin_event")
            loc: Loc = (*base, "fault", "origin_event")
            first_of_origin = None
            if self.refs.check_trace_event(loc, origin_event, "the fault's origin_event"):
                event = self.refs.trace[self.refs.trace_index[origin_event]]
                if known(event.t):
                    first_of_origin = event
                else:  # its time did not load (reported there): what comes before the origin is checked later
                    self.block("the fault's origin_event has a time, before the evidence", event.loc)
            origin = origin_event
        cascade, _ = r.items(key, base, "cascade")
        for loc, step_id in cascade:
            self.refs.check_step(loc, step_id, "cascade step")
        self.no_twice(cascade, "cascade step", "cascade item")
        evidence, gap = self.evidence_items(key)
        # an event listed twice as itself is a slip; in a comparison, or with a path or an absence, it may recur
        self.no_twice([item[0] for item, plain in zip(evidence, self.plain_items, strict=True) if plain],
                      "evidence event", "evidence item")
        evidence_ids: set[str] = set()
        earliest: Ev | None = None
        self.probe_results = probe_times(r, self.drill, self.refs.trace)
        for item in evidence:
            found, gap = self.evidence_item(item, evidence_ids, gap)
            if found is None:
                continue
            loc, last = found
            # (a comparison's earlier events may come before the origin: they are the baseline it contradicts)
            if first_of_origin is not None and last.t < first_of_origin.t and last.id not in self.probe_results:
                self.add(loc, self.before_origin(last.id, last, origin, first_of_origin))
            if earliest is None or last.t < earliest.t:
                earliest = last
        self.deadline(key, earliest, gap)
        self.damage(key, earliest, gap)
        self.accepted_ids = self.accepted(key, evidence_ids, first_of_origin)
        return evidence_ids

    def evidence_item(self, item: list[tuple[Loc, Any]], evidence_ids: set[str],
                      gap: Loc | None) -> tuple[tuple[Loc, Any] | None, Loc | None]:
        """Check one evidence item (its (loc, event id) pairs); return ``((loc, event), gap)``: the event that makes
        it visible (a comparison's last member, or a probe's earliest result, format 2) or None when it cannot be
        placed in time yet, and the first unloaded part seen."""
        seen: list[tuple[Loc, Any]] = []
        for loc, event_id in item:
            if not known(event_id):
                gap = gap or event_id.loc
            if isinstance(event_id, str) and event_id in self.probe_results:  # a probe's result (format 2)
                evidence_ids.add(event_id)
                pr = self.probe_results[event_id]
                if pr.t is not None:
                    seen.append((loc, pr))
                continue
            if self.probe_results and isinstance(event_id, str) and event_id not in self.refs.trace_index \
                    and event_id not in self.refs.replan_ids and self.refs.trace_gap is None:
                self.add(loc, unknown_reference("evidence event", event_id, self.refs.trace_index, self.probe_results))
                continue
            if not self.refs.check_trace_event(loc, event_id, "evidence event"):
                continue
            evidence_ids.add(event_id)
            ev = self.refs.trace[self.refs.trace_index[event_id]]
            if not known(ev.t):
                gap = gap or ev.t.loc
                continue
            seen.append((loc, ev))
        if len(seen) != len(item) or not seen:  # a comparison counts once all its events are out
            return None, gap
        return max(seen, key=lambda p: p[1].t), gap

    def evidence_items(self, key: Any) -> tuple[list[list[tuple[Loc, Any]]], Loc | None]:
        """The answer key's evidence items, each as the (loc, event id) pairs it names: one for an event id or an
        ``event`` item, every member of an ``all_of`` comparison (format 2)."""
        items, gap = self.r.items(key, ("answer_key",), "evidence")
        out: list[list[tuple[Loc, Any]]] = []
        self.plain_items = []
        for loc, item in items:
            if isinstance(item, str) or not known(item):
                out.append([(loc, item)])
                self.plain_items.append(True)
                continue
            event = self.r.child(item, loc, "event")
            if event is not None:
                out.append([((*loc, "event"), event)])
                plain = self.r.child(item, loc, "path") is None and self.r.child(item, loc, "absent") is None
                self.plain_items.append(plain)
                continue
            members, member_gap = self.r.items(item, loc, "all_of")
            gap = gap or member_gap
            if members:
                out.append(members)
                self.plain_items.append(False)
        return out, gap

    @staticmethod
    def before_origin(event_id: str, ev: Ev, origin: Any, first: Ev) -> str:
        if first.id == origin:  # a plan or set-up origin: its origin event
            return (f"evidence event {q(event_id)} (t={ev.t:g} s) comes before the fault's origin_event {q(origin)} "
                    f"(t={first.t:g} s)")
        return (f"evidence event {q(event_id)} (t={ev.t:g} s) comes before the fault's origin step {q(origin)} "
                f"starts (its first event {q(first.id)} is at t={first.t:g} s)")

    def accepted(self, key: Any, evidence_ids: set[str], first_of_origin: Ev | None) -> set[str]:
        """The ``accepted_evidence`` events (trace events, each once, none also ``evidence``, none before the origin
        step starts); returns their ids. Format 2: a field of an event (``{event, path}``) may be accepted beside
        another field of it that is evidence, and several fields of one event may be accepted."""
        items, _ = self.r.items(key, ("answer_key",), "accepted_evidence")
        accepted = [((*loc, "event"), self.r.child(item, loc, "event"), self.r.child(item, loc, "path"))
                    if isinstance(item, dict) or (hasattr(item, "path") and hasattr(item, "event"))
                    else (loc, item, None) for loc, item in items]
        self.no_twice([(loc, e if not isinstance(p, str) else f"{e}:{p}") for loc, e, p in accepted],
                      "accepted evidence event", "accepted evidence item")
        listed = self.evidence_fields(key)
        ids: set[str] = set()
        for loc, event_id, path in accepted:
            if isinstance(event_id, str) and event_id in self.probe_results:  # a probe's result (format 2)
                if event_id in evidence_ids:
                    self.add(loc, f"probe {q(event_id)} is already listed in evidence; list it in one of evidence and "
                             "accepted_evidence")
                ids.add(event_id)
                continue
            if not self.refs.check_trace_event(loc, event_id, "accepted evidence event"):
                continue
            ids.add(event_id)
            field = _field_key(path) if isinstance(path, str) else None
            if event_id in evidence_ids and (field is None or {(event_id, None), (event_id, field)} & listed):
                what = (f"field {q(path)} of {q(event_id)}" if (event_id, field) in listed and field is not None
                        else f"event {q(event_id)}")
                self.add(loc, f"{what} is already listed in evidence; list it in one of evidence and "
                         "accepted_evidence" + ("" if (event_id, None) in listed or field is None else
                                                " (a field of it that the evidence does not list may be accepted)"))
                continue
            self.accepted_after_origin(loc, event_id, first_of_origin)
        return ids

    def evidence_fields(self, key: Any) -> set[tuple[str, tuple[Any, ...] | None]]:
        """The (event id, field) of each ``event`` item of the evidence (field None: the whole event, or an
        absence at it); comparisons are left out."""
        items, _ = self.r.items(key, ("answer_key",), "evidence")
        out: set[tuple[str, tuple[Any, ...] | None]] = set()
        for loc, item in items:
            event = item if isinstance(item, str) else self.r.child(item, loc, "event") if known(item) else None
            if isinstance(event, str):
                path = None if isinstance(item, str) else self.r.child(item, loc, "path")
                out.add((event, _field_key(path) if isinstance(path, str) else None))
        return out

    def accepted_after_origin(self, loc: Loc, event_id: str, first: Ev | None) -> None:
        """Report an accepted evidence event that comes before the fault's origin (it cannot show the fault)."""
        ev = self.refs.trace[self.refs.trace_index[event_id]]
        if first is not None and known(ev.t) and ev.t < first.t:
            where = (f"step {q(first.step)} starts (its first event {q(first.id)} is at t={first.t:g} s)"
                     if first.step is not None else f"event {q(first.id)} (t={first.t:g} s)")
            self.add(loc, f"accepted evidence event {q(event_id)} (t={ev.t:g} s) comes before the fault's origin "
                     f"{where}, so it cannot show the fault")

    def origin(self, origin: Any) -> Ev | None:
        """The first trace event of the origin step (None when unknown); reports an origin step without events."""
        if not isinstance(origin, str) or origin not in self.refs.step_ids:
            return None
        for ev in self.refs.trace:
            if not (known(ev.step) and known(ev.t)):
                self.block("the fault's origin step has trace events, before the evidence", ev.loc)
                return None
            if ev.step == origin:
                return ev
        if self.refs.trace_gap is not None:
            self.block("the fault's origin step has trace events, before the evidence", self.refs.trace_gap)
            return None
        self.add(("answer_key", "fault", "origin_step"),
                 f"the fault's origin step {q(origin)} has no trace events; the trainee could never see it")
        return None

    def deadline(self, key: Any, earliest: Ev | None, gap: Loc | None) -> None:
        deadline = self.r.child(key, ("answer_key",), "deadline")
        if (isinstance(deadline, dict) and "budget" in deadline) or isinstance(deadline, BudgetTime):
            return  # format 2: a budget deadline (its rules: spend_issues, once the drill is type-valid)
        if isinstance(deadline, dict) or hasattr(deadline, "event"):  # format 2: a time by reference
            after = self.r.child(deadline, ("answer_key", "deadline"), "after")
            deadline = after if isinstance(after, Unloaded) else self.event_time(deadline)
        if not known(deadline) or deadline is None:
            if isinstance(deadline, Unloaded) and earliest is not None:
                self.block("the deadline comes at or after the earliest evidence", deadline.loc)
            return
        if gap is not None:
            self.block("the deadline comes at or after the earliest evidence", gap)
        elif earliest is not None and earliest.t > deadline:
            self.add(("answer_key", "deadline"), f"the deadline (t={deadline:g} s) comes before the earliest evidence "
                     f"(t={earliest.t:g} s): no trainee could escalate in time; move the deadline to or after the "
                     "evidence")

    def event_time(self, ref: Any) -> float | None:
        """The drill seconds of a time by reference (format 2; a dict in plain data), or None when its event or
        ``after`` is unknown (reported by :func:`deadline_reference_issues` once the drill's types are valid)."""
        event = ref.get("event") if isinstance(ref, dict) else ref.event
        after = ref.get("after", 0) if isinstance(ref, dict) else ref.after
        index = self.refs.trace_index.get(event) if isinstance(event, str) else None
        if index is None or not isinstance(after, (int, float)) or isinstance(after, bool):
            return None
        t = self.refs.trace[index].t
        return t + after if known(t) and isinstance(t, (int, float)) else None

    def damage(self, key: Any, earliest: Ev | None, gap: Loc | None) -> None:
        base = ("answer_key", "damage")
        damage = self.r.child(key, ("answer_key",), "damage")
        entries, entries_gap = self.r.items(damage, base, "entries")
        if entries_gap is not None:
            self.block("damage comes after the earliest evidence", entries_gap)
        events = [((*loc, "event"), self.r.child(entry, loc, "event")) for loc, entry in entries]
        self.no_twice(events, "damage event", "damage entry")
        unit = self.r.child(damage, base, "unit")
        for loc, entry in entries:
            self.amount_shown((*loc, "amount"), self.r.child(entry, loc, "amount"), unit)
        for loc, event_id in events:
            if not self.refs.check_trace_event(loc, event_id, "damage event"):
                continue
            ev = self.refs.trace[self.refs.trace_index[event_id]]
            if gap is not None:
                self.block("damage comes after the earliest evidence", gap)
            elif earliest is not None and known(ev.t) and _last_at(ev, self.repeat_of(ev)) <= earliest.t:
                # a repeated damage event is judged by its last repetition: any after the evidence can be saved
                when = "at the same time as" if ev.t == earliest.t else "before"
                self.add(loc, f"damage event {q(event_id)} (t={ev.t:g} s) comes {when} the earliest evidence "
                         f"{q(earliest.id)} (t={earliest.t:g} s): no trainee could escalate in time to prevent it; "
                         "damage must come strictly after the first evidence (move the damage to a later event, "
                         "or the evidence earlier)")

    def amount_shown(self, loc: Loc, value: Any, unit: Any) -> None:
        """Report a damage amount that play shows as another number (the damage meter, the scorecard and the
        debrief show an amount to two decimals, a USD amount as money: 0.001 shows as 0, 12.345 as 12.35)."""
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value) or value <= 0:
            return  # not a number, or out of range: the field's own check says so
        shown = damage_shown_otherwise(float(value), unit if isinstance(unit, str) else None)
        if shown is not None:
            self.add(loc, f"damage amount {exact_figure(value)} shows as {shown} on the damage meter and the "
                     "scorecard (amounts show to two decimals, and money as dollars and cents): write it with at most "
                     "two decimals, or count in a smaller unit (cents, grams, seconds)")

    def repeat_of(self, ev: Ev) -> Any:
        """The ``repeat`` of the trace event ``ev`` as read (None, a Repeat, plain data or unloaded)."""
        trace = self.r.child(self.drill, (), "trace")
        raw = self.r.child(trace, ev.loc[:1], ev.loc[1]) if len(ev.loc) == 2 else None
        return None if raw is None else self.r.child(raw, ev.loc, "repeat")

    def distractors(self, evidence_ids: set[str]) -> None:
        items, _ = self.r.items(self.drill, (), "distractors")
        events = [((*loc, "event"), self.r.child(d, loc, "event")) for loc, d in items]
        paths = [self.r.child(d, loc, "path") for loc, d in items]
        # format 2: one event may hold several distractor fields; the same field is listed once
        fields = list(zip(events, paths, strict=True))
        self.no_twice([(loc, e if not isinstance(p, str) else f"{e}:{p}") for (loc, e), p in fields],
                      "distractor event", "distractor")
        for (loc, event_id), path in fields:
            if not self.refs.check_trace_event(loc, event_id, "distractor event"):
                continue
            if isinstance(path, str):  # a field of the event: it may be evidence by another field (path_issues)
                continue
            version = self.r.child(self.drill, (), "schema_version")
            hint = (" (give the distractor a `path`, the field that looks odd, if the odd thing is one field of it)"
                    if isinstance(version, int) and version >= 2 else "")
            if event_id in evidence_ids:
                self.add(loc, f"event {q(event_id)} is evidence of the fault, so it cannot also be a distractor{hint}")
            elif event_id in self.accepted_ids:
                self.add(loc, f"event {q(event_id)} is accepted evidence of the fault, so it cannot also be a "
                         f"distractor{hint}")
            else:
                self.same_as_evidence(loc, event_id, evidence_ids)

    def same_as_evidence(self, loc: Loc, event_id: str, evidence_ids: set[str]) -> None:
        """Report a distractor event that says what an evidence event says (the same kind and content, another id
        and time: the failed call's result repeated): it shows the fault as plainly, so citing it is no mistake."""
        said = self.said(event_id)
        if said is None or len(said) < 2:
            return
        same = next((e for e in sorted(evidence_ids) if e != event_id and self.said(e) == said), None)
        if same is not None:
            self.add(loc, f"distractor event {q(event_id)} says what evidence event {q(same)} says (the same "
                     f"{said.get('kind', 'event')}, but for its id and time), so it shows the fault as plainly and a "
                     "trainee who cites it has found it: list it in `accepted_evidence` instead, or make it harmless")

    def said(self, event_id: str, answering: bool = True) -> dict[str, Any] | None:
        """What the trace event ``event_id`` says (its fields but those that name, place or time it and its
        usage; an answer with what the event it answers says, as the run fingerprint reads it: a tool result with
        its ``call``'s, an approval's decision with its ``request``'s, so the same output of another call, or the
        same words denying another request, is another answer), or None when it is not a loaded trace event."""
        index = self.refs.trace_index.get(event_id)
        if index is None:
            return None
        trace = self.r.child(self.drill, (), "trace")
        raw = self.r.child(trace, ("trace",), index)
        data = raw.model_dump(mode="json", exclude_none=True) if hasattr(raw, "model_dump") else raw
        if not isinstance(data, dict) or not all(known(v) for v in data.values()):
            return None
        said = {k: _json_value(v) for k, v in data.items() if k not in _NOT_SAID}
        answered = next((data[name] for name in _ANSWERING if isinstance(data.get(name), str)), None)
        if answering and answered is not None:
            said["answers"] = self.said(answered, answering=False)
        return said

    def no_twice(self, entries: list[tuple[Loc, Any]], what: str, noun: str) -> None:
        """Refuse the second listing of one value in a list of references (``entries``: (loc, value) pairs)."""
        seen: dict[str, Loc] = {}
        for loc, value in entries:
            if not isinstance(value, str):
                continue
            if value in seen:
                first = seen[value]
                n = next(int(el) for el in reversed(first) if isinstance(el, int)) + 1
                self.add(loc, f"{what} {q(value)} is listed twice: {noun} #{n} has it too; keep one", first)
            else:
                seen[value] = loc


#: Fields of a trace event that name, place or time it, or count what it cost, not what it says.
_NOT_SAID = PLACING_FIELDS | {"usage", "agent", "size_bytes"}
#: Fields naming the event an event answers (a tool or command result's call, an approval decision's request):
#: what that event says is part of what the answer says.
_ANSWERING = ("call", "request")


def _json_value(value: Any) -> Any:
    """A field's value as what it says: a JSON text of an object or array (a tool result's output written as JSON)
    by its value, whatever the order of its keys and its white space, and so the same as that value written as YAML
    (a trainee reads the same fields and values); anything else as it is."""
    if isinstance(value, str) and value.lstrip()[:1] in ("{", "["):
        try:
            parsed = json.loads(value)
        except ValueError:
            return value
        if isinstance(parsed, (dict, list)):
            return parsed
    return value


def _last_at(ev: Ev, repeat: Any) -> float:
    """When the last repetition of the event ``ev`` happens, given its ``repeat`` (loaded or plain data): its ``t``
    unless the repetition is known."""
    if isinstance(repeat, dict):
        count, interval = repeat.get("count"), repeat.get("interval", 0)
    else:
        count, interval = getattr(repeat, "count", None), getattr(repeat, "interval", 0)
    if isinstance(count, int) and isinstance(interval, (int, float)) and count >= 1:
        try:  # a count or interval too large for a float did not load (its field says so): the event's own t
            last = float(ev.t + (count - 1) * interval)
        except OverflowError:
            return float(ev.t)
        return last if math.isfinite(last) else float(ev.t)
    return float(ev.t)


def deadline_reference_issues(drill: Any) -> list[Issue]:
    """A deadline by reference (format 2) still unresolved once the drill validated names no trace event (with a
    did-you-mean)."""
    key = drill.answer_key
    if key is None or not isinstance(key.deadline, EventTime):
        return []
    event = key.deadline.event
    ids = [e.id for e in drill.trace]
    return [Issue(("answer_key", "deadline", "event"), f"the deadline's event {q(event)} is not a trace event"
                  f"{Suggester(ids)(event)}")]


def spend_issues(drill: Any) -> list[Issue]:
    """Format 2's spend damage: every ``spend`` event is a trace event, listed once, that is a model call with a
    ``usage`` (what it costs is the damage); a budget deadline is passed by the full damage. Spend may come before
    the evidence (a runaway loop spends from its first call): unlike damage entries, it is not held to come after."""
    key = drill.answer_key
    if key is None:
        return []
    out: list[Issue] = []
    events = {e.id: e for e in drill.trace}
    costs = damage_per_event(drill)
    seen: dict[str, int] = {}
    for i, event_id in enumerate(key.damage.spend):
        loc: Loc = ("answer_key", "damage", "spend", i)
        ev = events.get(event_id)
        if event_id in seen:
            out.append(Issue(loc, f"spend event {q(event_id)} is listed twice: spend item #{seen[event_id] + 1} has it "
                             "too; keep one", ("answer_key", "damage", "spend", seen[event_id])))
            continue
        seen[event_id] = i
        if ev is None:
            out.append(Issue(loc, f"spend event {q(event_id)} is not a trace event{Suggester(list(events))(event_id)}"))
        elif getattr(ev, "usage", None) is None:
            out.append(Issue(loc, f"spend event {q(event_id)} is a {ev.kind} without `usage`: only a model call with "
                             f"token usage costs anything; list the model calls whose cost is the damage"
                             f"{_batch_hint(drill, ev)}"))
        elif event_id not in costs:
            out.append(Issue(loc, f"spend event {q(event_id)}: its model call has no price (its agent or model is "
                             "not in `agents` / `models`)"))
    if isinstance(key.deadline, BudgetTime) and not key.damage.spend:  # left unresolved (resolve_deadline)
        out.append(Issue(("answer_key", "deadline", "budget"), (
            "a budget deadline needs `spend` damage (a runaway loop's model calls): it falls on the damage that "
            "passes the budget, and damage `entries` must come after the deadline, so with entries alone nothing "
            "could be saved; give the deadline in seconds or as `{event: ID}`, or list in `spend` the calls whose "
            "cost is the damage")))
    elif isinstance(key.deadline, BudgetTime) and not out:
        full = sum(a * (events[e].repeat.count if events[e].repeat else 1) for e, a in costs.items() if e in events)
        out.append(Issue(("answer_key", "deadline", "budget"), (
            f"the damage never passes the budget ({key.deadline.budget:g}): the whole trace does {full:.6g} in "
            f"{key.damage.unit}; lower the budget below the full damage, or give the deadline in seconds")))
    return out


def origin_issues(drill: Any) -> list[Issue]:
    """A plan origin's event is a planner call; a handoff origin's is a handoff; a set-up origin's event is outside
    any plan step, before the first event of one, and neither a planner call nor a handoff (the trainee names those
    as the plan or the handoff). A refusal says which origin the event could be."""
    key = drill.answer_key
    if key is None or key.fault.origin == "step":
        return []
    ev = next((e for e in drill.trace if e.id == key.fault.origin_event), None)
    if ev is None:  # reported by the reference rules
        return []
    loc = ("answer_key", "fault", "origin_event")
    if key.fault.origin == "plan" and ev.kind != "planner_call":
        return [Issue(loc, f"the origin_event of a fault in the plan must be the planner_call of that plan or "
                      f"re-plan; {q(ev.id)} is a {ev.kind}{_origin_hint(drill, ev)}")]
    if key.fault.origin == "handoff" and ev.kind != "handoff":
        return [Issue(loc, f"the origin_event of a fault in a handoff must be the handoff event; {q(ev.id)} is a "
                      f"{ev.kind}{_origin_hint(drill, ev)}")]
    if key.fault.origin == "handoff" and ev.step is not None:
        return [Issue(loc, f"the origin_event of a fault in a handoff must be a handoff outside any plan step (the "
                      f"trainee names it as the handoff); {q(ev.id)} belongs to plan step {q(ev.step)}: use "
                      f"`origin: step` with `origin_step: {ev.step}`, or take `step` off the handoff")]
    if key.fault.origin == "setup":
        first = next((e for e in drill.trace if e.step is not None), None)
        if ev.step is not None or (first is not None and ev.t > first.t):
            where = f"belongs to plan step {q(ev.step)}" if ev.step is not None or first is None else (
                f"comes after {q(first.id)} (t={first.t:g} s), the first event of a plan step")
            return [Issue(loc, f"the origin_event of a set-up fault must come before step 1, outside any plan step; "
                          f"{q(ev.id)} {where}{_origin_hint(drill, ev)}")]
    if key.fault.origin == "setup" and ev.kind in ("planner_call", "handoff"):
        # the trainee names it as the plan or as that handoff: "set-up" beside it would make the right name wrong
        return [Issue(loc, f"the origin_event of a set-up fault is the harness's own set-up, not a plan or a handoff; "
                      f"{q(ev.id)} is a {ev.kind}{_origin_hint(drill, ev)}")]
    return []


def _batch_hint(drill: Any, ev: Any) -> str:
    """For a spend event without usage that is a call of a batch: which call of the batch carries the turn's
    usage (the one to list), as the end of the refusal; else nothing."""
    batch = getattr(ev, "batch", None)
    holder = None if batch is None else next(
        (e for e in drill.trace if getattr(e, "batch", None) == batch and getattr(e, "usage", None) is not None), None)
    if holder is None:
        return ""
    return f" (its batch {q(batch)} is one model turn, whose usage is given on {q(holder.id)}: list {q(holder.id)})"


def _field_key(path: str) -> tuple[Any, ...]:
    """A field path as a comparable key (``a.b[0]`` and ``a.b.[0]`` alike)."""
    from warroom.core.model import path_parts

    return tuple(path_parts(path))


def _origin_hint(drill: Any, ev: Any) -> str:
    """What the refused origin event ``ev`` could be the origin of, as the end of a refusal."""
    if ev.kind == "planner_call":
        return f" (use `origin: plan` with `origin_event: {ev.id}` for a fault in that plan)"
    if ev.kind == "handoff" and ev.step is None:
        return f" (use `origin: handoff` with `origin_event: {ev.id}` for a fault in that handoff)"
    if ev.step is not None:
        return f" (use `origin: step` with `origin_step: {ev.step}` for a fault in that step)"
    first = next((e for e in drill.trace if e.step is not None), None)
    if first is None or ev.t <= first.t:
        return f" (use `origin: setup` with `origin_event: {ev.id}` for a fault in the set-up before step 1)"
    return (" (a fault's origin is a plan step (`origin: step`), a planner_call (`origin: plan`), a handoff "
            "(`origin: handoff`) or an event before step 1 (`origin: setup`))")


def path_issues(drill: Any) -> list[Issue]:
    """Every field path (of an evidence item, an accepted evidence item, a distractor) leads to a value in its
    event's output (with a did-you-mean at the first key that is not there); a distractor's field is not a field the
    evidence lists too."""
    from warroom.core.model import accepted_refs

    key = drill.answer_key
    events = {e.id: e for e in drill.trace}
    probes = {p.id for p in drill.probes}
    out = []
    named: list[tuple[Loc, str, str]] = []
    if key is not None:
        named += [(("answer_key", "evidence", i, "path"), item.event, item.path) for i, item in
                  enumerate(key.evidence) if not isinstance(item, str) and item.path is not None]
        named += [(("answer_key", "accepted_evidence", i, "path"), ref.event, ref.path) for i, ref in
                  enumerate(accepted_refs(key)) if ref.path is not None]
    named += [(("distractors", i, "path"), d.event, d.path) for i, d in enumerate(drill.distractors)
              if d.path is not None]
    for loc, event_id, path in named:
        if event_id in probes:
            out.append(Issue(loc, f"{q(event_id)} is a probe, whose answer is text with no fields for a path; list "
                             "the probe by its id, without `path`"))
        elif event_id in events:
            out += _path_issue(events[event_id], path, loc)
    return out + _distractor_field_clashes(drill, named)


def _distractor_field_clashes(drill: Any, named: list[tuple[Loc, str, str]]) -> list[Issue]:
    """A distractor's field is not a field the evidence (or accepted evidence) lists: a citation of it would show the
    fault, so it could never be judged a distractor. ``named``: the field paths of the answer key and the distractors,
    as :func:`path_issues` gathers them. (A distractor field that holds such a field is play's to judge: rule
    ``distractor-like-evidence`` of ``warroom check``.)"""
    from warroom.core.model import path_parts

    listed = [(loc[1], event_id, path) for loc, event_id, path in named if loc[0] == "answer_key"]
    out = []
    for i, d in enumerate(drill.distractors):
        if d.path is None:
            continue
        for what, event_id, path in listed:
            if event_id == d.event and path_parts(path) == path_parts(d.path):
                noun = "evidence" if what == "evidence" else "accepted evidence"
                out.append(Issue(("distractors", i, "path"), f"field {q(d.path)} of {q(d.event)} is {noun} of "
                                 "the fault, so it cannot also be a distractor (a citation of it shows the fault); "
                                 "point the distractor at the field that looks odd but is harmless"))
                break
    return out


def _path_issue(ev: Any, path: str, loc: Loc) -> list[Issue]:
    """The field ``path`` leads to a value in the output of the event ``ev``; else why not (at ``loc``), with the
    help every path error gets (:func:`~warroom.core.model.path_miss`)."""
    from warroom.core.model import event_output, has_output, path_miss

    if not has_output(ev):
        return [Issue(loc, f"event {q(ev.id)} is a {ev.kind}, which has no output for a field path; point the path "
                      "at a tool_result, command_result or log")]
    miss = path_miss(event_output(ev), path)
    if miss is None:
        return []
    return [Issue(loc, f"the field path {q(path)} leads nowhere in the output of {q(ev.id)}: {miss}")]
