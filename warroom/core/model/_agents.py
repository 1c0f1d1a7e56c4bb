"""Who makes a drill's model calls and what they cost: the models and their prices (:class:`Models`,
:class:`ModelSpec`), a call's token :class:`Usage`, and (format 2) the agents of a drill and which agent, role and
model each model call belongs to.

A drill may declare ``agents`` (name, role, model). Every trace event may name its ``agent``; a model call (an
event with ``usage``) is priced at the model it names (``model``), else its agent's model, else the default model
of its role: the planner's for the planner, the executor's for the executor and for sub-agents. An event without an
agent belongs to the role its kind implies (a planner call to the planner, an executor message, tool call or
executor report to the executor), shown under that role's name. Humans and tool hosts make no model calls.

:class:`Cast` resolves a loaded drill's model calls for the cost and the replay.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from pydantic import Field

from warroom.core.model._fields import (
    MAX_TOKENS_PER_CALL,
    MAX_USD_PER_MTOK,
    TEXT_PATTERN,
    Identifier,
    Tokens,
    UsdPerMillion,
    _Strict,
)
from warroom.core.model._vocab import Role

if TYPE_CHECKING:
    from warroom.core.model._drill import Drill


class ModelSpec(_Strict):
    """One language model and its prices."""

    name: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="The model's name as shown to the trainee, e.g. 'frontier-large'.",
    )
    input_usd_per_mtok: UsdPerMillion = Field(
        description=f"Price of input tokens, USD per million tokens (0, or 0.000001 to {MAX_USD_PER_MTOK:,})."
    )
    output_usd_per_mtok: UsdPerMillion = Field(
        description=f"Price of output tokens, USD per million tokens (0, or 0.000001 to {MAX_USD_PER_MTOK:,})."
    )

    def cost(self, usage: Usage) -> float:
        """USD cost of one model call of ``usage`` tokens on this model: input tokens x input price + output tokens x
        output price, prices per million tokens (docs/scoring.md, "Cost math")."""
        return (usage.input_tokens * self.input_usd_per_mtok + usage.output_tokens * self.output_usd_per_mtok) / 1e6


class Usage(_Strict):
    """Token usage of one model call."""

    input_tokens: Tokens = Field(
        description=f"Input (prompt) tokens of this model call (at most {MAX_TOKENS_PER_CALL:,})."
    )
    output_tokens: Tokens = Field(
        description=f"Output (completion) tokens of this model call (at most {MAX_TOKENS_PER_CALL:,})."
    )
    estimated: bool = Field(
        strict=True,
        default=False, description="True when the counts are estimates (e.g. from text length in an imported trace)."
    )


class Models(_Strict):
    """The two roles of the planner-executor loop and what their model calls cost."""

    planner: ModelSpec = Field(description="The strong model that writes the plan and re-plans on escalation.")
    executor: ModelSpec = Field(description="The cheap, fast model that carries out plan steps and calls tools.")
    replan_usage: Usage | None = Field(
        default=None,
        description=(
            "Tokens of one planner re-plan call, charged at the planner's prices for each false escalation. "
            "Default: the usage of the first planner_call in the trace."
        ),
    )
    flat_loop_step_usage: Usage | None = Field(
        default=None,
        description=(
            "For `warroom cost`: tokens of one step of the counterfactual flat loop (every call but the planning "
            "calls, whoever made it, run on the planner's model, re-reasoning each time). Default: each call's own "
            "usage."
        ),
    )
    others: list[ModelSpec] = Field(
        default_factory=list,
        description=(
            "Format 2: further models with their prices, named by an agent's or a model call's `model`. Every "
            "model name (planner, executor and these) is unique."
        ),
    )

    def spec(self, role: Role) -> ModelSpec:
        """The :class:`ModelSpec` (name and USD-per-million-token prices) of the model playing ``role`` by default
        (a sub-agent: the executor's model)."""
        return self.planner if role is Role.PLANNER else self.executor

    def named(self, name: str) -> ModelSpec | None:
        """The model called ``name`` (the planner's, the executor's or one of ``others``), or None."""
        for spec in (self.planner, self.executor, *self.others):
            if spec.name == name:
                return spec
        return None


class AgentRole(StrEnum):
    """What part an agent plays: the planner, the executor, a sub-agent (delegated to), a human (approves, writes
    messages) or a tool host (a server or harness that runs tools)."""

    PLANNER = "planner"
    EXECUTOR = "executor"
    SUB_AGENT = "sub-agent"
    HUMAN = "human"
    TOOL_HOST = "tool-host"


#: The role whose model an agent's model calls run on by default; humans and tool hosts make none.
COST_ROLE: dict[AgentRole, Role] = {
    AgentRole.PLANNER: Role.PLANNER,
    AgentRole.EXECUTOR: Role.EXECUTOR,
    AgentRole.SUB_AGENT: Role.SUB_AGENT,
}


class Agent(_Strict):
    """One agent of the drill (format 2)."""

    name: Identifier = Field(description="Unique name of the agent, named by events' `agent`, e.g. 'researcher-2'.")
    role: AgentRole = Field(description="planner, executor, sub-agent, human or tool-host.")
    model: str | None = Field(
        default=None, min_length=1, pattern=TEXT_PATTERN,
        description=(
            "The model its calls run on (a name in `models`). Default: the planner's model for the planner, the "
            "executor's for the executor and sub-agents; humans and tool hosts make no model calls."
        ),
    )
    description: str | None = Field(
        default=None, description="What the agent does, shown in the briefing and the inspector."
    )


@dataclass(frozen=True)
class ModelCall:
    """One model call resolved: who paid (``role``, ``agent``: the agent's name or the role's), on which model
    (``spec``), with what ``usage`` (tokens of one repetition) and how many times (``count``)."""

    role: Role
    agent: str
    spec: ModelSpec
    usage: Usage
    count: int = 1


def default_role(event: Any) -> Role | None:
    """The role a model-call event belongs to when it names no agent (see :func:`warroom.core.model.role_of`)."""
    from warroom.core.model._events import role_of

    return role_of(event)


#: The casts :meth:`Cast.of` made, by the id of their drill, each with a weak reference to its drill: an entry goes
#: when its drill does (a cast never holds its drill, so it keeps no drill in memory: `warroom check` of a folder
#: holds one drill at a time), and the weak reference tells a drill from a later one given the same id.
_CASTS: dict[int, tuple[weakref.ref[Drill], Cast]] = {}


class Cast:
    """The agents and models of one loaded drill, to resolve its model calls (:meth:`call`)."""

    def __init__(self, drill: Drill) -> None:
        self.models = drill.models
        self.agents = {a.name: a for a in drill.agents}
        #: The name a planner call without an agent (a re-plan) is charged to: the first planner agent's, else
        #: "planner".
        self.planner_name = next((a.name for a in drill.agents if a.role is AgentRole.PLANNER), Role.PLANNER.value)
        self._repeated: dict[str, ModelCall | None] = {}
        self._calls: dict[str, tuple[Any, ModelCall | None]] = {}  # event id -> (that event, its call)

    @classmethod
    def of(cls, drill: Drill) -> Cast:
        """The :class:`Cast` of ``drill``, made once for each drill object and kept with its calls resolved: the
        gaming battery replays one drill some 25 times (``warroom check``, each projection of ``warroom project``),
        and each replay resolved every model call of the drill again."""
        key = id(drill)
        kept = _CASTS.get(key)
        if kept is not None and kept[0]() is drill:
            return kept[1]
        cast = cls(drill)

        def gone(ref: weakref.ref[Drill]) -> None:
            if _CASTS.get(key, (None,))[0] is ref:
                del _CASTS[key]

        _CASTS[key] = (weakref.ref(drill, gone), cast)
        return cast

    def call(self, event: Any) -> ModelCall | None:
        """The :class:`ModelCall` of a trace event with a ``usage``; None for any other event or when its agent,
        role or model cannot be resolved (validation refuses such drills). A repeated event's call is worked out
        once (by event id) and reused for each repetition, so a repetition costs the replay less than a plain
        event (issue 15's benchmark: a x1,000 event no more than 1,000 plain ones)."""
        if event.repeat is None:
            kept = self._calls.get(event.id)
            if kept is not None and kept[0] is event:  # the same event object (a probe's result is new each time)
                return kept[1]
            call = self._resolve(event)
            self._calls[event.id] = (event, call)
            return call
        if event.id not in self._repeated:
            self._repeated[event.id] = self._resolve(event)
        return self._repeated[event.id]

    def _resolve(self, event: Any) -> ModelCall | None:
        usage = event.__dict__.get("usage")  # a pydantic model's fields; getattr of a field it lacks is slow
        if usage is None:  # most events of a large trace (logs, results): no role to work out
            return None
        role = default_role(event)
        if role is None:
            return None
        agent = self.agents.get(event.agent) if event.agent is not None else None
        name = role.value
        model = event.model
        if agent is not None:
            name = agent.name
            cost_role = COST_ROLE.get(agent.role)
            if cost_role is None:
                return None
            role = cost_role
            model = model or agent.model
        spec = self.models.named(model) if model is not None else self.models.spec(role)
        if spec is None:
            return None
        repeat = event.repeat
        return ModelCall(role, name, spec, usage, repeat.count if repeat is not None else 1)
