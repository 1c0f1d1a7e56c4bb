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
- **The fault**: its origin is a plan step with at least one trace event, and every evidence event comes at or
  after the origin step's first event.
- **The deadline** leaves at least one evidence event at or before it (or no trainee could contain in time).
- **Damage can be prevented**: every damage event comes strictly after the earliest evidence event.
- **Answer key or all clear**: a drill has exactly one of ``answer_key`` and ``all_clear``.
- **Evidence is not a distractor**: no event is both.
- **Variants**: the ``variants`` section fits the drill (:mod:`warroom.core.variantrules`).
- **Format 2** (agents, models, batches, retries, approvals, the version): :mod:`warroom.core.validation2`.
- **Accepted evidence** (``accepted_evidence``): trace events, each listed once, none also in ``evidence`` or a
  distractor, none before the origin step's first event.

Work is linear in the size of the drill: ids are indexed once, and did-you-mean hints are bounded
(:class:`warroom.core.ids.Suggester`). Ids quoted in messages go through :func:`warroom.core.ids.shown_id`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from warroom.core.ids import Suggester, id_list, shown_id
from warroom.core.partial import Ev as _Ev
from warroom.core.partial import Reader as _Reader
from warroom.core.partial import Unloaded
from warroom.core.partial import known as _known

Loc = tuple[str | int, ...]
q = shown_id


@dataclass(frozen=True)
class Issue:
    """One broken rule: ``loc`` is the path of the value at fault, ``message`` says what is wrong and how to fix it.

    ``related`` optionally names a second value the message refers to (the first of two duplicate ids, the
    previous event of one out of order); the loader adds its line number to the message.
    """

    loc: Loc
    message: str
    related: Loc | None = None


@dataclass(frozen=True)
class Blocked:
    """A rule that could not run: ``rule`` names it, ``loc`` is a value it needs that did not load (it has a type
    problem of its own, reported separately)."""

    rule: str
    loc: Loc


class _Rules:
    """One run of the rules over a drill read through a :class:`_Reader`."""

    def __init__(self, drill: Any, reader: _Reader, extra: Iterable[Loc]) -> None:
        self.drill = drill
        self.r = reader
        self.extra = list(extra)
        self.issues: list[Issue] = []
        self.blocked: dict[str, Loc] = {}
        self.step_ids: dict[str, int] = {}
        self.plan_gap: Loc | None = None
        self.event_ids: dict[str, Loc] = {}
        self.trace_index: dict[str, int] = {}
        self.trace: list[_Ev] = []
        self.trace_gap: Loc | None = None
        self.replan_ids: set[str] = set()
        self.step_hint: Suggester | None = None
        self.steps_list = ""
        self.event_hint: Suggester | None = None
        self.accepted_ids: set[str] = set()

    def add(self, loc: Loc, msg: str, related: Loc | None = None) -> None:
        self.issues.append(Issue(tuple(loc), msg, tuple(related) if related is not None else None))

    def block(self, rule: str, loc: Loc) -> None:
        self.blocked.setdefault(rule, loc)

    def run(self) -> None:
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

    # -- plan and events ----------------------------------------------------------------------------------------

    def plan(self) -> None:
        items, self.plan_gap = self.r.items(self.drill, (), "plan")
        if self.plan_gap is not None:
            self.block("unique plan step ids", self.plan_gap)
        for loc, step in items:
            sid = self.r.child(step, loc, "id")
            if not isinstance(sid, str):
                self.plan_gap = self.plan_gap or (sid.loc if isinstance(sid, Unloaded) else (*loc, "id"))
                continue
            if sid in self.step_ids:
                first = self.step_ids[sid]
                self.add((*loc, "id"), f"duplicate plan step id {q(sid)}: plan step #{first + 1} has it too",
                         ("plan", first, "id"))
            else:
                self.step_ids[sid] = int(loc[-1])
        self.step_hint = Suggester(self.step_ids)
        self.steps_list = id_list(self.step_ids)

    def check_step(self, loc: Loc, step_id: Any, what: str) -> None:
        if not isinstance(step_id, str) or step_id in self.step_ids:
            return
        if self.plan_gap is not None:
            self.block("references to plan steps (step, origin_step, cascade)", self.plan_gap)
            return
        hint = self.step_hint(step_id) if self.step_hint else ""
        add = f"{what} {q(step_id)} is not a plan step{hint}; the plan steps are: {self.steps_list}"
        self.add(loc, add)

    def events(self, loc: Loc, key: str) -> tuple[list[_Ev], Loc | None]:
        obj = self.drill if not loc else self.r.child(self.drill, (), loc[0])
        items, gap = self.r.items(obj, loc, key)
        return self.r.events(items), gap

    def check_events(self, events: list[_Ev], base: Loc, label: str, earlier: list[_Ev], gap: Loc | None) -> None:
        kinds: dict[str, Any] = {}
        for e in earlier:
            if e.kind == "tool_call" and not isinstance(e.id, Unloaded):
                kinds.setdefault(e.id, "tool_call")
        own_calls: dict[str, int] = {}
        for i, e in enumerate(events):
            if e.kind == "tool_call" and not isinstance(e.id, Unloaded):
                own_calls.setdefault(e.id, i)
        earlier_calls = set(kinds)
        call_hint = Suggester([*earlier_calls, *own_calls])
        prev: _Ev | None = None
        for i, ev in enumerate(events):
            if isinstance(ev.id, str):
                self.unique_event(ev)
                kinds.setdefault(ev.id, ev.kind)
            if isinstance(ev.t, (int, float)):
                if prev is not None and ev.t < prev.t:
                    before = "the event before it" if prev.loc[-1] == i - 1 else "an earlier event"
                    self.add((*ev.loc, "t"), f"{label} {q(ev.id)} at t={ev.t:g} s is earlier than {before}, "
                             f"{q(prev.id)} at t={prev.t:g} s: times must not decrease", (*base, prev.loc[-1], "t"))
                prev = ev
            if ev.step is not None:  # check_step passes over an unloaded step
                self.check_step((*ev.loc, "step"), ev.step, "step")
            if ev.kind in ("tool_result", "command_result") and isinstance(ev.call, str):
                self.check_call(ev, i, kinds, own_calls, earlier_calls, call_hint, gap)

    def unique_event(self, ev: _Ev) -> None:
        if ev.id in self.event_ids:
            first = self.event_ids[ev.id]
            where = f"{'trace' if first[0] == 'trace' else 're-plan'} event #{int(first[-1]) + 1}"
            self.add((*ev.loc, "id"), f"duplicate event id {q(ev.id)} (trace and re-plan events share one set of "
                     f"ids): {where} has it too", (*first, "id"))
        else:
            self.event_ids[ev.id] = ev.loc

    def check_call(self, ev: _Ev, i: int, kinds: dict[str, Any], own_calls: dict[str, int], earlier_calls: set[str],
                   hint: Suggester, gap: Loc | None) -> None:
        call = ev.call
        if call in earlier_calls or own_calls.get(call, i) < i:
            return
        if call in kinds and kinds[call] != "tool_call":
            if not _known(kinds[call]):
                self.block("tool results answer an earlier tool_call", kinds[call].loc)
                return
            why = f"{q(call)} is a {kinds[call]} event, not a tool_call"
        elif call in own_calls:
            why = f"the tool_call {q(call)} comes after this result; a result must follow its call"
        elif gap is not None:
            self.block("tool results answer an earlier tool_call", gap)
            return
        else:
            if hint.budget > 0:
                typos = [c for c in hint.typos(call) if c in earlier_calls or own_calls.get(c, i) < i]
                hint.budget -= 1
                hint_text = Suggester(typos)(call) if typos else ""
            else:
                hint_text = ""
            why = f"there is no tool_call {q(call)} before it{hint_text}"
        self.add((*ev.loc, "call"), f"{ev.kind} {q(ev.id)} answers {q(call)}, but {why}")

    def check_trace_event(self, loc: Loc, event_id: Any, what: str) -> bool:
        if not isinstance(event_id, str):
            return False
        if event_id in self.trace_index:
            return True
        if event_id in self.replan_ids:
            self.add(loc, f"{what} {q(event_id)} is a re-plan event; it must be an event of the trace")
        elif self.trace_gap is not None:
            self.block("references to trace events (evidence, damage, distractors)", self.trace_gap)
        else:
            if self.event_hint is None:
                self.event_hint = Suggester(self.trace_index)
            self.add(loc, f"{what} {q(event_id)} is not a trace event{self.event_hint(event_id)}")
        return False

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
                self.add((), "the drill needs an answer_key (the hidden fault), or all_clear for a control drill with "
                         "no fault")

    def answer_key(self, key: Any) -> set[str]:
        r, base = self.r, ("answer_key",)
        fault = r.child(key, base, "fault")
        origin = r.child(fault, (*base, "fault"), "origin_step")
        self.check_step((*base, "fault", "origin_step"), origin, "the fault's origin_step")
        cascade, _ = r.items(key, base, "cascade")
        for loc, step_id in cascade:
            self.check_step(loc, step_id, "cascade step")
        self.no_twice(cascade, "cascade step", "cascade item")
        first_of_origin = self.origin(origin)
        evidence, gap = r.items(key, base, "evidence")
        self.no_twice(evidence, "evidence event", "evidence item")
        evidence_ids: set[str] = set()
        earliest: _Ev | None = None
        for loc, event_id in evidence:
            if not _known(event_id):
                gap = gap or event_id.loc
            if not self.check_trace_event(loc, event_id, "evidence event"):
                continue
            evidence_ids.add(event_id)
            ev = self.trace[self.trace_index[event_id]]
            if not _known(ev.t):
                gap = gap or ev.t.loc
                continue
            if earliest is None or ev.t < earliest.t:
                earliest = ev
            if first_of_origin is not None and ev.t < first_of_origin.t:
                first = first_of_origin
                self.add(loc, f"evidence event {q(event_id)} (t={ev.t:g} s) comes before the fault's origin step "
                         f"{q(origin)} starts (its first event {q(first.id)} is at t={first.t:g} s)")
        self.deadline(key, earliest, gap)
        self.damage(key, earliest, gap)
        self.accepted_ids = self.accepted(key, evidence_ids, first_of_origin)
        return evidence_ids

    def accepted(self, key: Any, evidence_ids: set[str], first_of_origin: _Ev | None) -> set[str]:
        """The ``accepted_evidence`` events (trace events, each once, none also ``evidence``, none before the origin
        step starts); returns their ids."""
        accepted, _ = self.r.items(key, ("answer_key",), "accepted_evidence")
        self.no_twice(accepted, "accepted evidence event", "accepted evidence item")
        ids: set[str] = set()
        for loc, event_id in accepted:
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
                self.add(loc, f"accepted evidence event {q(event_id)} (t={ev.t:g} s) comes before the fault's origin "
                         f"step {q(first.step)} starts (its first event {q(first.id)} is at t={first.t:g} s), so it "
                         "cannot show the fault")
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
            deadline = self.event_time(deadline)
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
        ``after`` is unknown (reported by :mod:`warroom.core.validation2` once the drill's types are valid)."""
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
    from warroom.core.validation2 import format2_issues

    rules = _Rules(drill, _Reader(), ())
    rules.run()
    issues = rules.issues + format2_issues(drill)
    if getattr(drill, "variants", None) is not None:  # the variants section's rules (warroom.core.variantrules)
        from warroom.core.variants import variant_issues

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
    if bad and data.get("schema_version") == 2:  # the format-2 rules run on a type-valid drill only
        rules.block("format 2 references (agents, models, batches, retries, approvals)", min(bad, key=str))
    return rules.issues, [Blocked(rule, loc) for rule, loc in rules.blocked.items()]
