"""Semantic rules of a drill: what the types alone cannot say.

:func:`validate_drill` takes a type-valid :class:`~warroom.core.model.Drill` and returns a list of :class:`Issue`,
each with the location path of the value at fault (``loc``: a tuple of keys and 0-based list indexes, as in
pydantic's errors, e.g. ``("trace", 3, "step")``) so that the loader can point at its line and column.
:func:`validate_data` runs the same rules on the plain data of a drill that did *not* pass type validation: every
rule runs on the values that did load, and a rule that needs a value with a type problem is reported as
:class:`Blocked` (which rule, and which value it waits for) instead of being skipped in silence.

The rules (each has a test in tests/unit/test_validation*.py):

- **Unique ids**: plan step ids are unique; trace event ids and re-plan event ids are unique together.
- **References exist**: every event's ``step`` is a plan step; a ``tool_result``'s ``call`` is a ``tool_call``
  earlier in the same list (a re-plan result may also answer a trace tool call); the answer key's
  ``origin_step`` and ``cascade`` are plan steps; its ``evidence`` and ``damage`` events are trace events; every
  distractor's ``event`` is a trace event.
- **No entry twice**: an event is listed at most once in ``evidence``, in the damage ``entries`` and in the
  distractors; a plan step at most once in ``cascade``.
- **Time order**: trace times never decrease; re-plan event times (seconds after the escalation) never decrease.
- **The fault**: its origin is a plan step with at least one trace event (format 2: or the plan or the set-up,
  whose ``origin_event`` is a trace event), and every evidence event comes at or after the origin step's first
  event (the origin event). A comparison (``all_of``, format 2) counts as evidence once all its events are out,
  and only its last event must come at or after the origin (the earlier ones are the baseline it contradicts).
- **The deadline** leaves at least one evidence event at or before it (or no trainee could contain in time).
- **Damage can be prevented**: every damage event comes strictly after the earliest evidence event.
- **Answer key or all clear**: a drill has exactly one of ``answer_key`` and ``all_clear``.
- **Evidence is not a distractor**: no event is both.
- **Variants**: the ``variants`` section fits the drill (:mod:`warroom.core.rules._variants`).
- **Probes** (format 2): :mod:`warroom.core.rules._probes`; ``evidence`` and ``accepted_evidence`` may list probes.
- **Format 2** (agents, models, batches, retries, approvals, the version): :mod:`warroom.core.rules._format2`.
- **Accepted evidence** (``accepted_evidence``): trace events, each listed once, none also in ``evidence`` or a
  distractor, none before the origin step's first event.

The plan's and the events' rules (and the state every rule shares) are in :mod:`warroom.core.rules._events`; the
answer key's, all clear's and distractors' are here.

Work is linear in the size of the drill: ids are indexed once, and did-you-mean hints are bounded
(:class:`warroom.core.text.Suggester`). Ids quoted in messages go through :func:`warroom.core.text.shown_id`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from warroom.core.rules._events import Blocked, EventRules, Issue, Loc, q
from warroom.core.rules._probes import probe_issues, probe_times, unknown_reference
from warroom.core.rules._reader import Ev as _Ev
from warroom.core.rules._reader import Reader as _Reader
from warroom.core.rules._reader import Unloaded
from warroom.core.rules._reader import known as _known

#: The problem of a drill with neither ``answer_key`` nor ``all_clear`` (an imported trace before its mark-up): it
#: names every field the answer key needs, so the author knows exactly what is missing.
MISSING_ANSWER_KEY = (
    "the drill needs an answer_key (the hidden fault), or all_clear for a control drill with no fault; missing: "
    "answer_key.fault (origin_step, kind, summary), answer_key.evidence, answer_key.damage (unit, entries), "
    "answer_key.deadline, answer_key.debrief (`warroom annotate FILE` marks them up in the war room)"
)


class _Rules(EventRules):
    """One run of the rules over a drill read through a :class:`_Reader`: the plan's and the events' rules
    (:class:`~warroom.core.rules._events.EventRules`) and the answer key's, all clear's and distractors'."""

    def run(self) -> None:
        self.probe_results: dict[str, _Ev] = {}
        self.plan()
        trace, self.trace_gap = self.events((), "trace")
        self.trace = trace
        for i, ev in enumerate(trace):
            if not isinstance(ev.id, Unloaded):
                self.trace_index.setdefault(ev.id, i)
        # (nothing is unloaded when no path is bad: a type-valid drill skips the look)
        if self.trace_gap is None and self.r.bad and any(not (_known(e.id) and _known(e.kind)) for e in trace):
            self.trace_gap = next((e.kind if _known(e.id) else e.id).loc for e in trace
                                  if not (_known(e.id) and _known(e.kind)))
        key = self.r.child(self.drill, (), "answer_key")
        replan: list[_Ev] = []
        replan_gap: Loc | None = None
        if key is not None and _known(key):
            replan, replan_gap = self.events(("answer_key",), "replan")
            self.replan_ids = {e.id for e in replan if _known(e.id)}
        self.check_events(trace, ("trace",), "trace event", [], self.trace_gap)
        if replan:
            self.check_events(replan, ("answer_key", "replan"), "re-plan event", trace, replan_gap or self.trace_gap)
        self.key_or_all_clear(key)
        evidence_ids: set[str] = set()
        if isinstance(key, Unloaded):
            self.block("the answer key's rules (evidence, cascade, damage, deadline)", key.loc)
        elif key is not None:
            evidence_ids = self.answer_key(key)
        self.distractors(evidence_ids)

    # -- answer key, all clear, distractors ---------------------------------------------------------------------

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
            self.check_step((*base, "fault", "origin_step"), origin, "the fault's origin_step")
            first_of_origin = self.origin(origin)
        else:  # format 2: the plan or the set-up; the origin event starts the fault
            origin_event = r.child(fault, (*base, "fault"), "origin_event")
            loc: Loc = (*base, "fault", "origin_event")
            first_of_origin = None
            if self.check_trace_event(loc, origin_event, "the fault's origin_event"):
                first_of_origin = self.trace[self.trace_index[origin_event]]
            origin = origin_event
        cascade, _ = r.items(key, base, "cascade")
        for loc, step_id in cascade:
            self.check_step(loc, step_id, "cascade step")
        self.no_twice(cascade, "cascade step", "cascade item")
        evidence, gap = self.evidence_items(key)
        # an event listed twice as itself is a slip; in a comparison, or with a path or an absence, it may recur
        self.no_twice([item[0] for item, plain in zip(evidence, self.plain_items, strict=True) if plain],
                      "evidence event", "evidence item")
        evidence_ids: set[str] = set()
        earliest: _Ev | None = None
        self.probe_results = probe_times(r, self.drill, self.trace)
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
            if not _known(event_id):
                gap = gap or event_id.loc
            if isinstance(event_id, str) and event_id in self.probe_results:  # a probe's result (format 2)
                evidence_ids.add(event_id)
                pr = self.probe_results[event_id]
                if pr.t is not None:
                    seen.append((loc, pr))
                continue
            if self.probe_results and isinstance(event_id, str) and event_id not in self.trace_index \
                    and event_id not in self.replan_ids and self.trace_gap is None:
                self.add(loc, unknown_reference("evidence event", event_id, self.trace_index, self.probe_results))
                continue
            if not self.check_trace_event(loc, event_id, "evidence event"):
                continue
            evidence_ids.add(event_id)
            ev = self.trace[self.trace_index[event_id]]
            if not _known(ev.t):
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
        #: per item of ``out``: True for an event as itself (an id, or ``event`` with no path or absence)
        self.plain_items: list[bool] = []
        for loc, item in items:
            if isinstance(item, str) or not _known(item):
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
    def before_origin(event_id: str, ev: _Ev, origin: Any, first: _Ev) -> str:
        if first.id == origin:  # a plan or set-up origin: its origin event
            return (f"evidence event {q(event_id)} (t={ev.t:g} s) comes before the fault's origin_event {q(origin)} "
                    f"(t={first.t:g} s)")
        return (f"evidence event {q(event_id)} (t={ev.t:g} s) comes before the fault's origin step {q(origin)} "
                f"starts (its first event {q(first.id)} is at t={first.t:g} s)")

    def accepted(self, key: Any, evidence_ids: set[str], first_of_origin: _Ev | None) -> set[str]:
        """The ``accepted_evidence`` events (trace events, each once, none also ``evidence``, none before the origin
        step starts); returns their ids."""
        accepted, _ = self.r.items(key, ("answer_key",), "accepted_evidence")
        self.no_twice(accepted, "accepted evidence event", "accepted evidence item")
        ids: set[str] = set()
        for loc, event_id in accepted:
            if isinstance(event_id, str) and event_id in self.probe_results:  # a probe's result (format 2)
                if event_id in evidence_ids:
                    self.add(loc, f"probe {q(event_id)} is already listed in evidence; list it in one of evidence and "
                             "accepted_evidence")
                ids.add(event_id)
                continue
            if not self.check_trace_event(loc, event_id, "accepted evidence event"):
                continue
            ids.add(event_id)
            if event_id in evidence_ids:
                self.add(loc, f"event {q(event_id)} is already listed in evidence; list it in one of evidence and "
                         "accepted_evidence")
                continue
            ev = self.trace[self.trace_index[event_id]]
            first = first_of_origin
            if first is not None and _known(ev.t) and ev.t < first.t:
                where = (f"step {q(first.step)} starts (its first event {q(first.id)} is at t={first.t:g} s)"
                         if first.step is not None else f"event {q(first.id)} (t={first.t:g} s)")
                self.add(loc, f"accepted evidence event {q(event_id)} (t={ev.t:g} s) comes before the fault's origin "
                         f"{where}, so it cannot show the fault")
        return ids

    def origin(self, origin: Any) -> _Ev | None:
        """The first trace event of the origin step (None when unknown); reports an origin step without events."""
        if not isinstance(origin, str) or origin not in self.step_ids:
            return None
        for ev in self.trace:
            if not (_known(ev.step) and _known(ev.t)):
                self.block("the fault's origin step has trace events, before the evidence", ev.loc)
                return None
            if ev.step == origin:
                return ev
        if self.trace_gap is not None:
            self.block("the fault's origin step has trace events, before the evidence", self.trace_gap)
            return None
        self.add(("answer_key", "fault", "origin_step"),
                 f"the fault's origin step {q(origin)} has no trace events; the trainee could never see it")
        return None

    def deadline(self, key: Any, earliest: _Ev | None, gap: Loc | None) -> None:
        deadline = self.r.child(key, ("answer_key",), "deadline")
        if isinstance(deadline, dict) or hasattr(deadline, "event"):  # format 2: a time by reference
            after = self.r.child(deadline, ("answer_key", "deadline"), "after")
            deadline = after if isinstance(after, Unloaded) else self.event_time(deadline)
        if not _known(deadline) or deadline is None:
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
        ``after`` is unknown (reported by :mod:`warroom.core.rules._format2` once the drill's types are valid)."""
        event = ref.get("event") if isinstance(ref, dict) else ref.event
        after = ref.get("after", 0) if isinstance(ref, dict) else ref.after
        index = self.trace_index.get(event) if isinstance(event, str) else None
        if index is None or not isinstance(after, (int, float)) or isinstance(after, bool):
            return None
        t = self.trace[index].t
        return t + after if _known(t) and isinstance(t, (int, float)) else None

    def damage(self, key: Any, earliest: _Ev | None, gap: Loc | None) -> None:
        base = ("answer_key", "damage")
        damage = self.r.child(key, ("answer_key",), "damage")
        entries, entries_gap = self.r.items(damage, base, "entries")
        if entries_gap is not None:
            self.block("damage comes after the earliest evidence", entries_gap)
        events = [((*loc, "event"), self.r.child(entry, loc, "event")) for loc, entry in entries]
        self.no_twice(events, "damage event", "damage entry")
        for loc, event_id in events:
            if not self.check_trace_event(loc, event_id, "damage event"):
                continue
            ev = self.trace[self.trace_index[event_id]]
            if gap is not None:
                self.block("damage comes after the earliest evidence", gap)
            elif earliest is not None and _known(ev.t) and ev.t <= earliest.t:
                when = "at the same time as" if ev.t == earliest.t else "before"
                self.add(loc, f"damage event {q(event_id)} (t={ev.t:g} s) comes {when} the earliest evidence "
                         f"{q(earliest.id)} (t={earliest.t:g} s): no trainee could escalate in time to prevent it; "
                         "damage must come strictly after the first evidence (move the damage to a later event, "
                         "or the evidence earlier)")

    def distractors(self, evidence_ids: set[str]) -> None:
        items, _ = self.r.items(self.drill, (), "distractors")
        events = [((*loc, "event"), self.r.child(d, loc, "event")) for loc, d in items]
        self.no_twice(events, "distractor event", "distractor")
        for loc, event_id in events:
            if not self.check_trace_event(loc, event_id, "distractor event"):
                continue
            if event_id in evidence_ids:
                self.add(loc, f"event {q(event_id)} is evidence of the fault, so it cannot also be a distractor")
            elif event_id in self.accepted_ids:
                self.add(loc, f"event {q(event_id)} is accepted evidence of the fault, so it cannot also be a "
                         "distractor")


def validate_drill(drill: Any) -> list[Issue]:
    """Check the semantic rules listed in this module's docstring.

    Takes a :class:`Drill` that passed type validation; returns the list of :class:`Issue` found (empty when the
    drill is valid), in the order the rules are checked. Never raises for a type-valid drill.
    """
    from warroom.core.rules._format2 import format2_issues

    rules = _Rules(drill, _Reader(), ())
    rules.run()
    issues = rules.issues + format2_issues(drill) + probe_issues(drill)
    if getattr(drill, "variants", None) is not None:  # the variants section's rules (warroom.core.rules._variants)
        from warroom.core.rules._variants import variant_issues

        return issues + variant_issues(drill, base_valid=not issues)
    return issues


def validate_data(
    data: dict[str, Any], bad: Iterable[Loc], extra: Iterable[Loc] = ()
) -> tuple[list[Issue], list[Blocked]]:
    """The rules on the plain data of a drill that failed type validation.

    ``data`` is the drill as built from YAML (dicts, lists, text, numbers); ``bad`` the data paths of the values
    with a type problem (a value under a bad path counts as bad too); ``extra`` the paths of unknown keys. Returns
    the :class:`Issue` list of every rule that could run on the values that loaded, and one :class:`Blocked` per
    rule that needs a bad value (none of these is an issue: the bad value's own problem is). Never raises.
    """
    rules = _Rules(data, _Reader(bad), extra)
    rules.run()
    bad = list(rules.r.bad)
    if bad and data.get("schema_version") == 2:  # the format-2 rules run on a type-valid drill only: all of it
        rules.block("format 2 references (agents, models, batches, retries, approvals)", ())
    return rules.issues, [Blocked(rule, loc) for rule, loc in rules.blocked.items()]
