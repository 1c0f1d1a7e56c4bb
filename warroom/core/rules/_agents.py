"""The rules of format 2's agents, models and calls (docs/authoring.md, "Format version 2"), on a type-valid drill:

- **Names**: agent names are unique; the names in ``models.others`` are unique and differ from the planner's and
  the executor's; every agent's ``model``, every event's ``agent`` and ``model``, and a handoff's ``from_agent``
  and ``to_agent`` exist (with a did-you-mean); a handoff passes work to another agent.
- **Who pays**: an event with ``usage`` belongs to an agent that makes model calls (not a human or a tool host).
- **Calls**: one usage per batch (the turn's usage is counted once), and a batch's calls share one agent and one
  model (a batch is one model turn); ``retry_of`` names an earlier tool_call of the same list and ``attempt`` is
  above the retried call's; an approval answer names an earlier ``requested`` approval, and a request names none;
  a call's ``output_tokens`` do not exceed its ``max_tokens``.
"""

from __future__ import annotations

from typing import Any

from warroom.core.model import COST_ROLE, attempt_of, default_role
from warroom.core.rules._events import event_lists
from warroom.core.rules._issues import Issue, Loc, q
from warroom.core.text import Suggester


class AgentRules:
    """The rules of a type-valid format-2 drill's agents, models and calls: :meth:`names` then :meth:`calls`."""

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

    def names(self) -> list[Issue]:
        """Agent names are unique, each agent's model exists, the names in ``models.others`` are unique and differ
        from the planner's and the executor's."""
        self.issues = []
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
        return self.issues

    def calls(self) -> list[Issue]:
        """The rules of each trace event, then of each re-plan event (which may answer or retry a trace call): who
        pays, models and agents named, batches, retries, approvals, ``max_tokens``."""
        self.issues = []
        lists = event_lists(self.drill)
        self.events(*lists[0], [])
        if len(lists) > 1:
            self.events(*lists[1], self.drill.trace)
        return self.issues

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


def approval_scope_issues(drill: Any) -> list[Issue]:
    """Each tool a step's ``approval_for`` names is called in that step (a name called nowhere in it gates
    nothing: a typo, with a did-you-mean, or the wrong step)."""
    out = []
    for i, step in enumerate(drill.plan):
        scope = step.approval_for
        if scope is None:
            continue
        called = list(dict.fromkeys(e.tool for e in drill.trace if e.kind == "tool_call" and e.step == step.id))
        for j, tool in enumerate(scope.tools):
            if tool not in called:
                listed = f"; its tool calls call {', '.join(map(q, called[:8]))}" if called else (
                    "; it has no tool calls")
                out.append(Issue(("plan", i, "approval_for", "tools", j), f"step {q(step.id)}'s approval gates "
                                 f"tool {q(tool)}, which no tool call of the step calls{Suggester(called)(tool)}"
                                 f"{listed}"))
    return out
