"""The semantic rules of format 2 (see docs/authoring.md, "Format version 2"), on a type-valid drill.

:func:`format2_issues` returns :class:`~warroom.core.rules.Issue` items (``loc`` + message, shown by the
loader at ``path:line:col``), in this order:

- **Version**: a version-1 file uses no format-2 field, event kind or deadline by reference (set
  ``schema_version: 2``).
- **Repetition**: the trace and re-plan events happen at most
  :data:`~warroom.core.model.MAX_TOTAL_REPETITIONS` times in all, repetitions included.
- **Times by reference**: a deadline ``{event: ID}`` names a trace event (with a did-you-mean).
- **Names**: agent names are unique; the names in ``models.others`` are unique and differ from the planner's and
  the executor's; every agent's ``model``, every event's ``agent`` and ``model``, and a handoff's ``from_agent``
  and ``to_agent`` exist (with a did-you-mean).
- **Who pays**: an event with ``usage`` belongs to an agent that makes model calls (not a human or a tool host).
- **Calls**: one usage per batch (the turn's usage is counted once), and a batch's calls share one agent and one
  model (a batch is one model turn); ``retry_of`` names an earlier tool_call of
  the same list and ``attempt`` is above the retried call's; an approval answer names an earlier ``requested``
  approval, and a request names none; a call's ``output_tokens`` do not exceed its ``max_tokens``.
- **Origins**: a plan origin's ``origin_event`` is a planner_call; a set-up origin's comes before step 1,
  outside any plan step.
- **Field paths**: an evidence item's ``path`` leads to a value in its event's output (with a did-you-mean).

Did-you-mean hints are bounded as in :mod:`warroom.core.rules._validation` (:class:`~warroom.core.text.Suggester`).
"""

from __future__ import annotations

from typing import Any

from warroom.core.model import COST_ROLE, MAX_TOTAL_REPETITIONS, EventTime, default_role
from warroom.core.rules._events import Issue, Loc
from warroom.core.text import Suggester, shown_id

q = shown_id

#: Fields that only format 2 has, by the class that has them (an event class, or a part of the drill).
_V2_FIELDS = ("agent", "repeat", "model", "finish_reason", "max_tokens", "truncated", "batch", "retry_of",
              "attempt", "size_bytes", "shown")
_V2_KINDS = frozenset({"command_result", "handoff", "approval", "human_message"})


def _set(obj: Any, name: str) -> bool:
    """True when the format-2 field ``name`` of ``obj`` says something: not absent and not its default."""
    if name not in obj.model_fields_set:
        return False
    value = getattr(obj, name)
    return value not in (None, False, [])


def _version_issues(drill: Any) -> list[Issue]:
    out: list[Issue] = []
    why = "is format 2: set `schema_version: 2` at the top of the file (or run `warroom migrate FILE`)"
    if _set(drill, "agents"):
        out.append(Issue(("agents",), f"`agents` {why}"))
    if drill.answer_key is not None and isinstance(drill.answer_key.deadline, EventTime):
        out.append(Issue(("answer_key", "deadline"), f"a deadline by reference (`{{event: ...}}`) {why}"))
    if _set(drill.models, "others"):
        out.append(Issue(("models", "others"), f"`models.others` {why}"))
    for i, step in enumerate(drill.plan):
        if _set(step, "requires_approval"):
            out.append(Issue(("plan", i, "requires_approval"), f"`requires_approval` {why}"))
    out += _key_version_issues(drill.answer_key, why)
    given_of: dict[tuple[type, int], tuple[str, ...]] = {}  # by (class, id of a fields set): its format-2 fields
    for base, events in _event_lists(drill):
        for i, ev in enumerate(events):
            if ev.kind in _V2_KINDS:
                out.append(Issue((*base, i, "kind"), f"the event kind `{ev.kind}` {why}"))
                continue
            given = ev.model_fields_set  # alive as long as the event: its id names it meanwhile
            names = given_of.get((ev.__class__, id(given)))
            if names is None:  # equal sets are often one object (warroom.core.load._fast.load shares them)
                names = given_of[ev.__class__, id(given)] = tuple(n for n in _v2_fields(type(ev)) if n in given)
            for name in names:
                if _set(ev, name):
                    out.append(Issue((*base, i, name), f"`{name}` {why}"))
    return out


_V2_FIELDS_OF: dict[type, tuple[str, ...]] = {}


def _v2_fields(cls: type) -> tuple[str, ...]:
    """The format-2 fields (:data:`_V2_FIELDS`) the event class ``cls`` has; kept per class, as reading a pydantic
    class's ``model_fields`` is slow and a trace holds thousands of events of a few classes."""
    fields = _V2_FIELDS_OF.get(cls)
    if fields is None:
        fields = _V2_FIELDS_OF[cls] = tuple(name for name in _V2_FIELDS if name in getattr(cls, "model_fields", {}))
    return fields


def _key_version_issues(key: Any, why: str) -> list[Issue]:
    """Format-2 parts of an answer key: a plan or set-up origin, evidence items other than an event id."""
    if key is None:
        return []
    out = []
    if key.fault.origin != "step":
        out.append(Issue(("answer_key", "fault", "origin"), f"a fault origin other than `step` {why}"))
    for i, item in enumerate(key.evidence):
        if not isinstance(item, str):
            out.append(Issue(("answer_key", "evidence", i), f"an evidence item other than an event id {why}"))
    return out


def _event_lists(drill: Any) -> list[tuple[Loc, list[Any]]]:
    lists: list[tuple[Loc, list[Any]]] = [(("trace",), drill.trace)]
    if drill.answer_key is not None:
        lists.append((("answer_key", "replan"), drill.answer_key.replan))
    return lists


class _Format2:
    def __init__(self, drill: Any) -> None:
        self.drill = drill
        self.issues: list[Issue] = []
        self.agents = {a.name: a for a in drill.agents}
        self.agent_hint = Suggester(self.agents)
        models = drill.models
        self.model_names = {s.name for s in (models.planner, models.executor, *models.others)}
        self.model_hint = Suggester(self.model_names)

    def add(self, loc: Loc, message: str) -> None:
        self.issues.append(Issue(loc, message))

    def names(self) -> None:
        seen: dict[str, int] = {}
        for i, agent in enumerate(self.drill.agents):
            if agent.name in seen:
                self.add(("agents", i, "name"), f"duplicate agent name {q(agent.name)}: agent #{seen[agent.name] + 1} "
                         "has it too")
            seen.setdefault(agent.name, i)
            if agent.model is not None:
                self.model_ref(("agents", i, "model"), agent.model, f"agent {q(agent.name)}'s model")
        models = self.drill.models
        taken = {models.planner.name, models.executor.name}
        for i, spec in enumerate(models.others):
            if spec.name in taken:
                self.add(("models", "others", i, "name"), f"model name {q(spec.name)} is used twice; each model in "
                         "`models` needs its own name")
            taken.add(spec.name)

    def deadline(self) -> None:
        key = self.drill.answer_key
        if key is not None and isinstance(key.deadline, EventTime):  # still a reference: its event does not exist
            event = key.deadline.event
            ids = [e.id for e in self.drill.trace]
            self.add(("answer_key", "deadline", "event"), f"the deadline's event {q(event)} is not a trace event"
                     f"{Suggester(ids)(event)}")

    def repetitions(self) -> None:
        total = 0
        for base, events in _event_lists(self.drill):
            for i, ev in enumerate(events):
                total += ev.repeat.count if ev.repeat is not None else 1
                if total > MAX_TOTAL_REPETITIONS:
                    self.add((*base, i, "repeat"), f"the drill's events happen more than {MAX_TOTAL_REPETITIONS:,} "
                             "times in all (repetitions included) here; repeat fewer times")
                    return

    def model_ref(self, loc: Loc, name: str, what: str) -> None:
        if name not in self.model_names:
            known = ", ".join(q(n) for n in sorted(self.model_names))
            self.add(loc, f"{what} {q(name)} is not a model in `models`{self.model_hint(name)}; the models are: "
                     f"{known}")

    def agent_ref(self, loc: Loc, name: str, what: str) -> Any:
        agent = self.agents.get(name)
        if agent is None:
            if self.agents:
                listed = "; the agents are: " + ", ".join(q(n) for n in self.agents)
            else:
                listed = "; declare it under `agents:`"
            self.add(loc, f"{what} {q(name)} is not an agent{self.agent_hint(name)}{listed}")
        return agent

    def events(self, base: Loc, events: list[Any], earlier: list[Any]) -> None:
        calls: dict[str, Any] = {e.id: e for e in earlier if e.kind == "tool_call"}
        requests = {e.id for e in earlier if e.kind == "approval" and e.decision == "requested"}
        batch_usage: dict[str, int] = {}
        batch_first: dict[str, Any] = {}
        for i, ev in enumerate(events):
            loc = (*base, i)
            agent = self.agent_ref((*loc, "agent"), ev.agent, "agent") if ev.agent is not None else None
            fields = ev.__dict__  # a pydantic model's fields; a getattr of a field its class lacks is slow
            usage = fields.get("usage")
            if agent is not None and usage is not None and agent.role not in COST_ROLE:
                self.add((*loc, "usage"), f"event {q(ev.id)} has a usage but its agent {q(agent.name)} is a "
                         f"{agent.role.value}, which makes no model calls; name the agent that made the call")
            if fields.get("model") is not None:
                self.model_ref((*loc, "model"), ev.model, "model")
            max_tokens = fields.get("max_tokens")
            if max_tokens is not None and usage is not None and usage.output_tokens > max_tokens:
                self.add((*loc, "usage", "output_tokens"), f"output_tokens ({usage.output_tokens:,}) exceed the "
                         f"call's max_tokens ({max_tokens:,}): a model writes at most its cap; raise `max_tokens` "
                         "or lower `output_tokens`")
            match ev.kind:
                case "tool_call":
                    self.tool_call(loc, i, ev, calls, batch_usage)
                    self.batch_turn(loc, ev, batch_first)
                    calls[ev.id] = ev
                case "handoff":
                    self.agent_ref((*loc, "from_agent"), ev.from_agent, "from_agent")
                    self.agent_ref((*loc, "to_agent"), ev.to_agent, "to_agent")
                    if ev.to_agent == ev.from_agent:
                        self.add((*loc, "to_agent"), f"handoff {q(ev.id)} passes work from {q(ev.from_agent)} to "
                                 "itself: name the agent that receives it in `to_agent`")
                case "approval":
                    self.approval(loc, ev, requests)

    def tool_call(self, loc: Loc, i: int, ev: Any, calls: dict[str, Any], batch_usage: dict[str, int]) -> None:
        if ev.batch is not None and ev.usage is not None:
            if ev.batch in batch_usage:
                first = batch_usage[ev.batch] + 1
                self.add((*loc, "usage"), f"batch {q(ev.batch)} already has a usage (on event #{first} of this "
                         "list): a model turn's usage is counted once, so give it on one call of the batch")
            batch_usage.setdefault(ev.batch, i)
        if ev.retry_of is None:
            return
        retried = calls.get(ev.retry_of)
        if retried is None:
            hint = Suggester(calls)(ev.retry_of)
            self.add((*loc, "retry_of"), f"tool_call {q(ev.id)} retries {q(ev.retry_of)}, but there is no tool_call "
                     f"{q(ev.retry_of)} before it{hint}")
            return
        if ev.attempt is not None and ev.attempt <= attempt_of(retried, calls):
            self.add((*loc, "attempt"), f"attempt {ev.attempt} of {q(ev.id)} is not after attempt "
                     f"{attempt_of(retried, calls)} of the call it retries, {q(retried.id)}")

    def batch_turn(self, loc: Loc, ev: Any, batch_first: dict[str, Any]) -> None:
        """The calls of a batch are one model turn: the same agent and the same model (as resolved for cost: the
        event's model, else its agent's, else its role's) as the batch's first call."""
        if ev.batch is None:
            return
        first = batch_first.setdefault(ev.batch, ev)
        for name, mine, theirs in (("agent", ev.agent, first.agent),
                                   ("model", self.turn_model(ev), self.turn_model(first))):
            if mine != theirs:
                self.add((*loc, name if getattr(ev, name) is not None else "batch"), f"tool_call {q(ev.id)} is in "
                         f"batch {q(ev.batch)} with {q(first.id)}, but its {name} is {_named(mine)} and "
                         f"{q(first.id)}'s is {_named(theirs)}: a batch is one model turn, so its calls share one "
                         f"{name}")
                return  # another agent's other model is the same mistake, said once

    def turn_model(self, ev: Any) -> str | None:
        """The name of the model a tool call runs on, resolved as for its cost (None: its agent is unknown or
        makes no model calls, which other rules report)."""
        agent = self.agents.get(ev.agent) if ev.agent is not None else None
        if ev.model is not None or (agent is not None and agent.model is not None):
            return str(ev.model or agent.model)  # type: ignore[union-attr]
        role = COST_ROLE.get(agent.role) if agent is not None else default_role(ev)
        return self.drill.models.spec(role).name if role is not None else None

    def approval(self, loc: Loc, ev: Any, requests: set[str]) -> None:
        if ev.decision == "requested":
            if ev.request is not None:
                self.add((*loc, "request"), "a request answers nothing: drop `request`, or give the answer's decision")
            requests.add(ev.id)
        elif ev.request is not None and ev.request not in requests:
            self.add((*loc, "request"), f"approval {q(ev.id)} answers {q(ev.request)}, but there is no approval with "
                     f"decision `requested` {q(ev.request)} before it{Suggester(requests)(ev.request)}")


def _named(value: Any) -> str:
    return q(value) if value is not None else "not given"


def _origin_issues(drill: Any) -> list[Issue]:
    """A plan origin's event is a planner call; a set-up origin's event is outside any plan step, before the first
    event of one."""
    key = drill.answer_key
    if key is None or key.fault.origin == "step":
        return []
    ev = next((e for e in drill.trace if e.id == key.fault.origin_event), None)
    if ev is None:  # reported by the reference rules
        return []
    loc = ("answer_key", "fault", "origin_event")
    if key.fault.origin == "plan" and ev.kind != "planner_call":
        return [Issue(loc, f"the origin_event of a fault in the plan must be the planner_call of that plan or "
                      f"re-plan; {q(ev.id)} is a {ev.kind}")]
    if key.fault.origin == "setup":
        first = next((e for e in drill.trace if e.step is not None), None)
        if ev.step is not None or (first is not None and ev.t > first.t):
            where = f"belongs to plan step {q(ev.step)}" if ev.step is not None or first is None else (
                f"comes after {q(first.id)} (t={first.t:g} s), the first event of a plan step")
            return [Issue(loc, f"the origin_event of a set-up fault must come before step 1, outside any plan step; "
                          f"{q(ev.id)} {where} (use `origin: step` for a fault in a step)")]
    return []


def _path_issues(drill: Any) -> list[Issue]:
    """Every evidence field path leads to a value in its event's output (with a did-you-mean at the first key that
    is not there)."""
    from warroom.core.model import event_output, has_output, path_parts, structured, value_at

    key = drill.answer_key
    if key is None:
        return []
    events = {e.id: e for e in drill.trace}
    probes = {p.id for p in drill.probes}
    out = []
    for i, item in enumerate(key.evidence):
        if isinstance(item, str) or item.path is None:
            continue
        if item.event in probes:
            out.append(Issue(("answer_key", "evidence", i, "path"), f"{q(item.event)} is a probe, whose answer is "
                             "text with no fields for a path; list the probe by its id, without `path`"))
            continue
        if item.event not in events:
            continue
        ev, loc = events[item.event], ("answer_key", "evidence", i, "path")
        if not has_output(ev):
            out.append(Issue(loc, f"event {q(ev.id)} is a {ev.kind}, which has no output for a field path; point the "
                          "path at a tool_result, command_result or log"))
            continue
        found, _ = value_at(event_output(ev), item.path)
        if found:
            continue
        node, walked = structured(event_output(ev)), list[Any]()
        for part in path_parts(item.path):
            ok, nxt = value_at(node, str(part) if isinstance(part, str) else f"[{part}]")
            if not ok:
                keys = list(node) if isinstance(node, dict) else []
                at = ".".join(map(str, walked)) or "the top level"
                listed = f"; the keys there: {', '.join(map(str, keys[:12]))}" if keys else ""
                hint = Suggester([str(k) for k in keys])(str(part))
                out.append(Issue(loc, f"the field path {q(item.path)} leads nowhere in the output of {q(ev.id)}: "
                                 f"{q(str(part))} is not at {at}{hint}{listed}"))
                break
            node = nxt
            walked.append(part)
    return out


def attempt_of(call: Any, calls: dict[str, Any]) -> int:
    """The attempt number of a tool ``call``: its ``attempt``, else one more than the call it retries (in
    ``calls``, by id), else 1. Follows at most 10,000 retries back."""
    n, seen = 0, 0
    while call is not None and seen < 10_000:
        if call.attempt is not None:
            return int(call.attempt) + n
        n += 1
        seen += 1
        call = calls.get(call.retry_of) if call.retry_of is not None else None
    return n


def format2_issues(drill: Any) -> list[Issue]:
    """The format-2 rules (module docstring) on a type-valid :class:`~warroom.core.model.Drill`. Never raises."""
    if drill.schema_version == 1:
        return _version_issues(drill)
    rules = _Format2(drill)
    rules.names()
    rules.deadline()
    rules.repetitions()
    lists = _event_lists(drill)
    rules.events(*lists[0], [])
    if len(lists) > 1:
        rules.events(*lists[1], drill.trace)
    return rules.issues + _origin_issues(drill) + _path_issues(drill)
