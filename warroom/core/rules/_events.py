"""The rules of a drill's plan and events, on a drill read through a :class:`~warroom.core.rules._reader.Reader`
(loaded or not): plan step ids and event ids are unique (trace and re-plan events share one set of ids), every
event's ``step`` is a plan step, a tool result answers an earlier ``tool_call``, and times never decrease. Format 2,
on a type-valid drill: the events happen at most :data:`~warroom.core.model.MAX_TOTAL_REPETITIONS` times in all,
and the last repetition of each comes by the latest drill time, :data:`~warroom.core.model.MAX_DRILL_SECONDS`
(:func:`repetition_issues`).

:class:`EventRules` also keeps the index the answer key's rules look references up in (plan step ids, trace events,
re-plan event ids, with did-you-mean hints): :meth:`EventRules.check_step`, :meth:`EventRules.check_trace_event`.
"""

from __future__ import annotations

from typing import Any

from warroom.core.model import MAX_DRILL_SECONDS, MAX_TOTAL_REPETITIONS
from warroom.core.rules._issues import Findings, Issue, Loc, q
from warroom.core.rules._reader import Ev, Reader, Unloaded, known
from warroom.core.text import Suggester, id_list


class EventRules:
    """The plan's and the events' rules over one drill (:meth:`run`), reported to ``findings``, and the index of
    what they read, for the answer key's rules."""

    def __init__(self, drill: Any, reader: Reader, findings: Findings) -> None:
        self.drill = drill
        self.r = reader
        self.findings = findings
        self.add = findings.add
        self.block = findings.block
        self.step_ids: dict[str, int] = {}
        self.plan_gap: Loc | None = None
        self.event_ids: dict[str, Loc] = {}
        self.trace_index: dict[str, int] = {}
        self.trace: list[Ev] = []
        self.trace_gap: Loc | None = None
        self.replan_ids: set[str] = set()
        self.step_hint: Suggester | None = None
        self.steps_list = ""
        self.event_hint: Suggester | None = None

    def run(self) -> None:
        """The plan's rules, then the trace's, then the re-plan's (an answer key's ``replan`` events)."""
        self.plan()
        trace, self.trace_gap = self.events((), "trace")
        self.trace = trace
        for i, ev in enumerate(trace):
            if not isinstance(ev.id, Unloaded):
                self.trace_index.setdefault(ev.id, i)
        # (nothing is unloaded when no path is bad: a type-valid drill skips the look)
        if self.trace_gap is None and self.r.bad and any(not (known(e.id) and known(e.kind)) for e in trace):
            self.trace_gap = next((e.kind if known(e.id) else e.id).loc for e in trace
                                  if not (known(e.id) and known(e.kind)))
        key = self.r.child(self.drill, (), "answer_key")
        replan: list[Ev] = []
        replan_gap: Loc | None = None
        if key is not None and known(key):
            replan, replan_gap = self.events(("answer_key",), "replan")
            self.replan_ids = {e.id for e in replan if known(e.id)}
        self.check_events(trace, ("trace",), "trace event", [], self.trace_gap)
        if replan:
            self.check_events(replan, ("answer_key", "replan"), "re-plan event", trace, replan_gap or self.trace_gap)

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

    def events(self, loc: Loc, key: str) -> tuple[list[Ev], Loc | None]:
        obj = self.drill if not loc else self.r.child(self.drill, (), loc[0])
        loaded = self.r.loaded_events(obj, loc, key)
        if loaded is not None:
            return loaded, None
        items, gap = self.r.items(obj, loc, key)
        return self.r.events(items), gap

    def check_events(self, events: list[Ev], base: Loc, label: str, earlier: list[Ev], gap: Loc | None) -> None:
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
        prev: Ev | None = None
        event_ids, step_ids = self.event_ids, self.step_ids
        for i, ev in enumerate(events):
            if isinstance(ev.id, str):
                if ev.id in event_ids:
                    self.unique_event(ev)
                else:
                    event_ids[ev.id] = ev.loc
                kinds.setdefault(ev.id, ev.kind)
            if isinstance(ev.t, (int, float)):
                if prev is not None and ev.t < prev.t:
                    before = "the event before it" if prev.loc[-1] == i - 1 else "an earlier event"
                    self.add((*ev.loc, "t"), f"{label} {q(ev.id)} at t={ev.t:g} s is earlier than {before}, "
                             f"{q(prev.id)} at t={prev.t:g} s: times must not decrease", (*base, prev.loc[-1], "t"))
                prev = ev
            step = ev.step  # a plan step's id needs no look; check_step passes over an unloaded step
            if step is not None and not (step.__class__ is str and step in step_ids):
                self.check_step((*ev.loc, "step"), step, "step")
            if ev.kind in ("tool_result", "command_result") and isinstance(ev.call, str):
                self.check_call(ev, i, kinds, own_calls, earlier_calls, call_hint, gap)

    def unique_event(self, ev: Ev) -> None:
        if ev.id in self.event_ids:
            first = self.event_ids[ev.id]
            where = f"{'trace' if first[0] == 'trace' else 're-plan'} event #{int(first[-1]) + 1}"
            self.add((*ev.loc, "id"), f"duplicate event id {q(ev.id)} (trace and re-plan events share one set of "
                     f"ids): {where} has it too", (*first, "id"))
        else:
            self.event_ids[ev.id] = ev.loc

    def check_call(self, ev: Ev, i: int, kinds: dict[str, Any], own_calls: dict[str, int], earlier_calls: set[str],
                   hint: Suggester, gap: Loc | None) -> None:
        call = ev.call
        if call in earlier_calls or own_calls.get(call, i) < i:
            return
        if call in kinds and kinds[call] != "tool_call":
            if not known(kinds[call]):
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


def parallel_issues(drill: Any) -> list[Issue]:
    """Format 2's ``parallel`` plan steps: the first step has no step before it to run with."""
    if drill.plan and drill.plan[0].parallel:
        return [Issue(("plan", 0, "parallel"), (
            f"the first plan step {q(drill.plan[0].id)} cannot be `parallel`: it runs at the same time as the step "
            "before it, and there is none; mark the steps after it that start before it reports"))]
    return []


def repetition_issues(drill: Any) -> list[Issue]:
    """Format 2, on a type-valid drill: the trace and re-plan events repeat at most
    :data:`~warroom.core.model.MAX_TOTAL_REPETITIONS` times in all, counting each repeated event's repetitions after
    its first (the replay holds one entry per repetition; the events written are bounded by the file's size, so a
    large drill of written events is not refused here); the issue is at the event that passes the limit. The last
    repetition of each event comes by :data:`~warroom.core.model.MAX_DRILL_SECONDS`, as every ``t`` does."""
    total, late = 0, []
    for base, events in event_lists(drill):
        for i, ev in enumerate(events):
            total += ev.repeat.count - 1 if ev.repeat is not None else 0
            last = ev.t + (ev.repeat.count - 1) * ev.repeat.interval if ev.repeat is not None else ev.t
            if last > MAX_DRILL_SECONDS:
                late.append(Issue((*base, i, "repeat"), (
                    f"the last repetition of this event comes at {last:,.0f} s of drill time, after the latest drill "
                    f"time ({MAX_DRILL_SECONDS:,} s): repeat it fewer times or closer together")))
            if total > MAX_TOTAL_REPETITIONS:
                return [*late, Issue((*base, i, "repeat"), (
                    f"the drill's events repeat more than {MAX_TOTAL_REPETITIONS:,} times in all here (the "
                    "repetitions after each repeated event's first); repeat fewer times"))]
    return late


def event_lists(drill: Any) -> list[tuple[Loc, list[Any]]]:
    """The event lists of a type-valid drill, each with its location: the trace, and the re-plan of its answer key."""
    lists: list[tuple[Loc, list[Any]]] = [(("trace",), drill.trace)]
    if drill.answer_key is not None:
        lists.append((("answer_key", "replan"), drill.answer_key.replan))
    return lists
