"""What model calls cost: one call, a whole trace, and the meter of a replay.

A model call costs ``input_tokens * input_price + output_tokens * output_price``, prices in USD per million tokens
(docs/scoring.md, "Cost math and `warroom cost`"). :func:`trace_cost` adds a drill's trace
up by role, by model and by plan step, and prices the counterfactual *flat loop*: every model call but the planning
calls (``planner_call`` events), whoever made it, run on the planner's model, re-reasoning at every step
(``models.flat_loop_step_usage`` tokens per step when the drill gives them, else each call's own usage).
Format 2: each call is priced at its own model (:class:`warroom.core.model.Cast`), and the trace is also split by
agent. ``warroom cost`` prints it; ``warroom cost --example`` prints the seed worked example
(:func:`seed_example_path`). :class:`CostMeter` is the cost a replay has accrued so far, charged call by call as
events are released.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from warroom.core.model import (
    Cast,
    Drill,
    ModelSpec,
    PlannerCall,
    Role,
    Usage,
)

#: Label of the model calls that belong to no plan step (the plan, progress checks, re-plans).
NO_STEP = "(no step)"


@dataclass(frozen=True)
class CostLine:
    """Model calls added up: how many, their input and output tokens and their price in USD."""

    name: str
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    usd: float = 0.0

    @property
    def tokens(self) -> int:
        """Input + output tokens."""
        return self.input_tokens + self.output_tokens

    def plus(self, usage: Usage, usd: float, count: int = 1) -> CostLine:
        """This line with ``count`` more calls of ``usage`` tokens costing ``usd`` each (a repeated event)."""
        return CostLine(
            self.name,
            self.calls + count,
            self.input_tokens + usage.input_tokens * count,
            self.output_tokens + usage.output_tokens * count,
            self.usd + usd * count,
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (USD rounded to 10 decimals to drop float noise)."""
        d = asdict(self)
        d["usd"] = round(self.usd, 10)
        d["tokens"] = self.tokens
        return d


@dataclass(frozen=True)
class TraceCost:
    """What one drill's trace costs, and what the counterfactual flat loop would have cost.

    - ``planner_prices`` / ``executor_prices``: (input, output) USD per million tokens.
    - ``total``: every model call in the trace (the re-plan events of the answer key are not in it).
    - ``by_role`` (planner, executor, then sub-agent when a sub-agent made calls), ``by_model`` (model name),
      ``by_agent`` (agent name; a call naming no agent under its role's name) and ``by_step`` (plan order, then
      :data:`NO_STEP` for calls outside any step): the same calls split four ways. A repeated event
      (``repeat.count``) counts as that many calls.
    - ``flat_loop``: every model call but the planning calls (each ``planner_call`` event is a plan or re-plan),
      whoever made it (the executor, a sub-agent, a planner-role agent's own tool calls), priced on the planner's
      model, ``flat_loop_model`` (the model of the planning calls: the first ``planner_call``'s, else
      ``models.planner``), ``flat_loop_step_usage`` tokens each, else each call's own usage; ``flat_loop_usage``
      says which.
    - ``planning`` and ``work``: the planning calls and every other call, each split by the model it ran on (as
      :class:`~warroom.core.model.Cast` prices it): the planner-executor side of the comparison.
    - ``saving_factor`` = flat loop / total and ``saving_percent`` = (1 - total / flat loop) x 100, or None when a
      divisor is zero.
    - ``cascade``: the calls in the answer key's cascade steps, wasted when the fault is missed; ``replan``: the
      answer key's re-plan events; ``false_escalation``: one planner re-plan call, what a false escalation costs;
      ``false_escalation_usage`` says whose tokens it has (:func:`replan_usage_source`: :data:`NO_REPLAN_USAGE` when
      there are none, and it costs nothing).
    - ``spend`` (format 2): the calls of the answer key's ``damage.spend`` events, every repetition: what a missed
      runaway loop wastes (its cost is the drill's damage); ``spend_after_deadline``: the part of it made after the
      deadline, which an escalation on time saves.
    - ``all_clear``: True for an all-clear drill (no fault: ``cascade`` and ``replan`` are empty and not reported).
    - ``estimated_calls``: the calls of ``total`` whose token counts are estimates (``usage.estimated``: an imported
      trace's, from text length), so every figure holding them is an estimate too.
    """

    drill_id: str
    planner_model: str
    executor_model: str
    planner_prices: tuple[float, float]
    executor_prices: tuple[float, float]
    total: CostLine
    by_role: tuple[CostLine, ...]
    by_model: tuple[CostLine, ...]
    by_step: tuple[CostLine, ...]
    flat_loop: CostLine
    flat_loop_usage: str
    saving_factor: float | None
    saving_percent: float | None
    cascade: CostLine
    replan: CostLine
    false_escalation: CostLine
    all_clear: bool = False
    by_agent: tuple[CostLine, ...] = ()
    spend: CostLine = CostLine("spend")
    spend_after_deadline: CostLine = CostLine("spend after the deadline")
    flat_loop_model: str = ""
    planning: tuple[CostLine, ...] = ()
    work: tuple[CostLine, ...] = ()
    estimated_calls: int = 0
    false_escalation_usage: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form, as ``warroom cost --format json`` prints it (``cascade`` and ``replan`` are null for an
        all-clear drill, which has neither)."""
        return {
            "drill_id": self.drill_id,
            "all_clear": self.all_clear,
            "planner_model": self.planner_model,
            "executor_model": self.executor_model,
            "planner_usd_per_mtok": {"input": self.planner_prices[0], "output": self.planner_prices[1]},
            "executor_usd_per_mtok": {"input": self.executor_prices[0], "output": self.executor_prices[1]},
            "total": self.total.to_dict(),
            "estimated_calls": self.estimated_calls,
            "by_role": [c.to_dict() for c in self.by_role],
            "by_model": [c.to_dict() for c in self.by_model],
            "by_agent": [c.to_dict() for c in self.by_agent],
            "by_step": [c.to_dict() for c in self.by_step],
            "flat_loop": self.flat_loop.to_dict(),
            "flat_loop_model": self.flat_loop_model,
            "planning": [c.to_dict() for c in self.planning],
            "work": [c.to_dict() for c in self.work],
            "flat_loop_usage": self.flat_loop_usage,
            "saving_factor": None if self.saving_factor is None else round(self.saving_factor, 6),
            "saving_percent": None if self.saving_percent is None else round(self.saving_percent, 4),
            "cascade": None if self.all_clear else self.cascade.to_dict(),
            "replan": None if self.all_clear else self.replan.to_dict(),
            "false_escalation": self.false_escalation.to_dict(),
            "false_escalation_usage": self.false_escalation_usage,
            "spend": None if self.all_clear else {
                **self.spend.to_dict(), "after_deadline": self.spend_after_deadline.to_dict()},
        }


@dataclass
class _Sums:
    """The calls of a trace added up: in all, by role, model, agent and plan step, in the cascade, and how many of
    them have estimated token counts."""

    total: CostLine
    roles: dict[Role, CostLine]
    by_model: dict[str, CostLine]
    by_agent: dict[str, CostLine]
    by_step: dict[str | None, CostLine]
    cascade: CostLine
    estimated: int = 0


def _sums(drill: Drill, cast: Cast) -> _Sums:
    """Add up the model calls of ``drill``'s trace (:class:`_Sums`)."""
    sums = _Sums(CostLine("total"), {r: CostLine(r.value) for r in (Role.PLANNER, Role.EXECUTOR)}, {}, {},
                 {s.id: CostLine(s.id) for s in drill.plan}, CostLine("cascade"))
    cascade_steps = set(drill.answer_key.cascade) if drill.answer_key else set()
    for ev in drill.trace:
        call = cast.call(ev)
        if call is None:
            continue
        usage, n = call.usage, call.count
        sums.estimated += n if usage.estimated else 0
        usd = call.spec.cost(usage)
        sums.total = sums.total.plus(usage, usd, n)
        sums.roles[call.role] = sums.roles.get(call.role, CostLine(call.role.value)).plus(usage, usd, n)
        name = call.spec.name
        sums.by_model[name] = sums.by_model.get(name, CostLine(name)).plus(usage, usd, n)
        sums.by_agent[call.agent] = sums.by_agent.get(call.agent, CostLine(call.agent)).plus(usage, usd, n)
        step = ev.step if ev.step in sums.by_step else None
        sums.by_step[step] = sums.by_step.get(step, CostLine(NO_STEP)).plus(usage, usd, n)
        if ev.step in cascade_steps:
            sums.cascade = sums.cascade.plus(usage, usd, n)
    return sums


def trace_cost(drill: Drill) -> TraceCost:
    """Add up the cost of ``drill``'s trace (see :class:`TraceCost`). Pure; never raises for a valid drill."""
    models = drill.models
    cast = Cast(drill)
    sums = _sums(drill, cast)
    total = sums.total
    flat, flat_spec, planning, work = _comparison(drill, cast)
    replan = _replan_cost(drill, cast)
    spend, spend_late = _spend_cost(drill, cast)
    one_replan = replan_usage(drill)
    false_escalation = CostLine("false escalation").plus(one_replan, models.planner.cost(one_replan))
    factor = flat.usd / total.usd if total.usd > 0 else None
    percent = (1 - total.usd / flat.usd) * 100 if flat.usd > 0 else None
    return TraceCost(
        drill_id=drill.id,
        planner_model=models.planner.name,
        executor_model=models.executor.name,
        planner_prices=(models.planner.input_usd_per_mtok, models.planner.output_usd_per_mtok),
        executor_prices=(models.executor.input_usd_per_mtok, models.executor.output_usd_per_mtok),
        total=total,
        by_role=tuple(sums.roles.values()),
        by_model=tuple(sums.by_model.values()),
        by_step=tuple(line for key, line in sums.by_step.items() if key is not None or line.calls),
        by_agent=tuple(sums.by_agent.values()),
        flat_loop=flat,
        flat_loop_usage=(
            "models.flat_loop_step_usage for every step" if models.flat_loop_step_usage else "each call's own usage"
        ),
        saving_factor=factor,
        saving_percent=percent,
        cascade=sums.cascade,
        replan=replan,
        false_escalation=false_escalation,
        false_escalation_usage=replan_usage_source(drill),
        all_clear=drill.answer_key is None,
        spend=spend,
        spend_after_deadline=spend_late,
        estimated_calls=sums.estimated,
        flat_loop_model=flat_spec.name,
        planning=planning,
        work=work,
    )


def _comparison(drill: Drill, cast: Cast) -> tuple[CostLine, ModelSpec, tuple[CostLine, ...], tuple[CostLine, ...]]:
    """The two sides of the flat-loop comparison: the flat loop (every call but the planning calls, whoever made it,
    re-run on the planner's model: ``models.flat_loop_step_usage`` tokens each, else the call's own), that model,
    and the trace's planning calls and other calls, each by the model it ran on."""
    flat_spec = _planning_model(drill, cast)
    step_usage = drill.models.flat_loop_step_usage
    flat = CostLine("flat loop")
    planning: dict[str, CostLine] = {}
    work: dict[str, CostLine] = {}
    for ev in drill.trace:
        call = cast.call(ev)
        if call is None:
            continue
        planner_call = isinstance(ev, PlannerCall)
        side = planning if planner_call else work
        usd = call.spec.cost(call.usage)
        side[call.spec.name] = side.get(call.spec.name, CostLine(call.spec.name)).plus(call.usage, usd, call.count)
        if not planner_call:  # the steps' work: re-run on the planner's model
            flat_usage = step_usage or call.usage
            flat = flat.plus(flat_usage, flat_spec.cost(flat_usage), call.count)
    return flat, flat_spec, tuple(planning.values()), tuple(work.values())


def _planning_model(drill: Drill, cast: Cast) -> ModelSpec:
    """The planner's model, which the flat loop runs every step on: the model of the first planning call (a
    ``planner_call`` event, as :class:`~warroom.core.model.Cast` resolves it: its ``model``, its agent's), else
    ``models.planner``."""
    for ev in drill.trace:
        if isinstance(ev, PlannerCall) and (call := cast.call(ev)) is not None:
            return call.spec
    return drill.models.planner


def _spend_cost(drill: Drill, cast: Cast) -> tuple[CostLine, CostLine]:
    """The calls of the answer key's ``damage.spend`` events (every repetition), and those of them made after the
    deadline (format 2; two empty lines with no key or no spend)."""
    spend, late = CostLine("spend"), CostLine("spend after the deadline")
    key = drill.answer_key
    if key is None or not key.damage.spend:
        return spend, late
    wanted = set(key.damage.spend)
    for ev in drill.trace:
        if ev.id not in wanted or (call := cast.call(ev)) is None:
            continue
        usd = call.spec.cost(call.usage)
        spend = spend.plus(call.usage, usd, call.count)
        interval = ev.repeat.interval if ev.repeat is not None else 0.0
        after = sum(1 for k in range(call.count) if ev.t + k * interval > key.deadline)
        late = late.plus(call.usage, usd, after) if after else late
    return spend, late


def _replan_cost(drill: Drill, cast: Cast) -> CostLine:
    """The cost of the answer key's re-plan events (an empty line with no answer key)."""
    replan = CostLine("re-plan")
    if drill.answer_key:
        for ev in drill.answer_key.replan:
            if (replan_call := cast.call(ev)) is not None:
                replan = replan.plus(replan_call.usage, replan_call.spec.cost(replan_call.usage),
                                     replan_call.count)
    return replan


#: :func:`replan_usage_source` of a drill whose re-plan call has no tokens to charge: it costs nothing.
NO_REPLAN_USAGE = "none (no planner call in the trace, no models.replan_usage)"
#: Why such a drill's false escalation is charged nothing, in the words of both `warroom cost` and the war room.
NO_REPLAN_TOKENS = (
    "no tokens to charge: the trace has no planner call to take them from and the drill gives no models.replan_usage"
)


def replan_usage_source(drill: Drill) -> str:
    """Whose tokens :func:`replan_usage` gives ``drill``'s re-plan call: ``models.replan_usage``, the first planner
    call's (``the first planner call's, EVENT``) or none (:data:`NO_REPLAN_USAGE`: a trace imported from a chat,
    which has no planner, unless its author gives ``models.replan_usage``)."""
    if drill.models.replan_usage is not None:
        return "models.replan_usage"
    first = next((e for e in drill.trace if isinstance(e, PlannerCall) and e.usage is not None), None)
    return NO_REPLAN_USAGE if first is None else f"the first planner call's, {first.id}"


def replan_usage(drill: Drill) -> Usage:
    """Tokens of one planner re-plan call (what a false escalation costs): ``models.replan_usage``, else the usage
    of the first planner call in the trace that has one, else zero tokens."""
    return drill.models.replan_usage or next(
        (e.usage for e in drill.trace if isinstance(e, PlannerCall) and e.usage is not None),
        Usage(input_tokens=0, output_tokens=0),
    )


@dataclass
class CostMeter:
    """Cost accrued so far: USD and tokens, split by role, by model name and by plan step.

    ``usd_by_step`` / ``tokens_by_step`` are keyed by plan step id, with ``None`` for model calls outside any plan
    step (the planner's plan, its progress checks and re-plans). ``replan_calls`` / ``replan_usd`` count the planner
    re-plan calls charged for false escalations (they are also in the role, model and ``None``-step totals).
    Format 2: ``usd_by_agent`` / ``tokens_by_agent`` by agent name (a call naming no agent under its role's name);
    a sub-agent's calls are under :attr:`Role.SUB_AGENT` (the planner and executor keys are always there).
    """

    usd_by_role: dict[Role, float] = field(default_factory=lambda: {Role.PLANNER: 0.0, Role.EXECUTOR: 0.0})
    usd_by_model: dict[str, float] = field(default_factory=dict)
    usd_by_step: dict[str | None, float] = field(default_factory=dict)
    input_tokens_by_role: dict[Role, int] = field(default_factory=lambda: {Role.PLANNER: 0, Role.EXECUTOR: 0})
    output_tokens_by_role: dict[Role, int] = field(default_factory=lambda: {Role.PLANNER: 0, Role.EXECUTOR: 0})
    tokens_by_model: dict[str, int] = field(default_factory=dict)
    tokens_by_step: dict[str | None, int] = field(default_factory=dict)
    calls: int = 0
    replan_calls: int = 0
    replan_usd: float = 0.0
    usd_by_agent: dict[str, float] = field(default_factory=dict)
    tokens_by_agent: dict[str, int] = field(default_factory=dict)

    @property
    def usd(self) -> float:
        """Total USD so far."""
        return sum(self.usd_by_role.values())

    @property
    def tokens(self) -> int:
        """Total tokens (input + output) so far."""
        return sum(self.input_tokens_by_role.values()) + sum(self.output_tokens_by_role.values())

    def charge(
        self, role: Role, model_name: str, usage: Usage, usd: float, step: str | None = None, agent: str | None = None
    ) -> None:
        """Add one model call: its token ``usage``, its price ``usd`` (USD), the plan ``step`` it belongs to and the
        ``agent`` that made it (default: the role's name)."""
        self.calls += 1
        n = usage.input_tokens + usage.output_tokens
        who = agent if agent is not None else role.value
        self.usd_by_role[role] = self.usd_by_role.get(role, 0.0) + usd
        self.usd_by_model[model_name] = self.usd_by_model.get(model_name, 0.0) + usd
        self.usd_by_step[step] = self.usd_by_step.get(step, 0.0) + usd
        self.usd_by_agent[who] = self.usd_by_agent.get(who, 0.0) + usd
        self.tokens_by_agent[who] = self.tokens_by_agent.get(who, 0) + n
        self.input_tokens_by_role[role] = self.input_tokens_by_role.get(role, 0) + usage.input_tokens
        self.output_tokens_by_role[role] = self.output_tokens_by_role.get(role, 0) + usage.output_tokens
        self.tokens_by_model[model_name] = self.tokens_by_model.get(model_name, 0) + n
        self.tokens_by_step[step] = self.tokens_by_step.get(step, 0) + n
