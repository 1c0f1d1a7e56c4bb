"""The semantic rules of a drill's plan and events (unique ids, references, time order) and the state they share
with the answer key's rules: :class:`EventRules`, with the :class:`Issue` and :class:`Blocked` they report
(:mod:`warroom.core.rules._validation`'s docstring lists every rule)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from warroom.core.rules._reader import Ev as _Ev
from warroom.core.rules._reader import Reader as _Reader
from warroom.core.rules._reader import Unloaded
from warroom.core.rules._reader import known as _known
from warroom.core.text import Suggester, id_list, shown_id

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


class EventRules:
    """The state of one run of the semantic rules over a drill read through a
    :class:`~warroom.core.rules._reader.Reader`,
    and the rules of the plan and the events (unique ids, references to plan steps, tool calls and trace events, time
    order); :class:`warroom.core.rules._validation._Rules` adds the answer key's. Moved from
    :mod:`warroom.core.rules._validation`."""

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
        loaded = self.r.loaded_events(obj, loc, key)
        if loaded is not None:
            return loaded, None
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
