"""The answer key of a drill: everything hidden from the trainee until the debrief. The :class:`Fault` (where it
happened: a plan step; format 2: or the planner's own call, or the harness set-up before step 1, see
:mod:`warroom.core.model._origins`; its kind and a one-sentence summary), its evidence (items of
:mod:`warroom.core.model._evidence`), cascade, :class:`Damage`, deadline (format 2: or an :class:`EventTime`, a
time by reference to a trace event, resolved to drill seconds when the drill is validated by
:func:`resolve_deadline`; one that names no event stays an :class:`EventTime` and validation reports it; or a
:class:`BudgetTime`, the time the damage passes a budget), debrief and re-plan events; the damage per event
(:func:`damage_per_event`: the entries, and format 2's ``spend``, model calls whose cost is the damage) and its
occurrences in time (:func:`damage_occurrences`); or the :class:`AllClear` section of a control drill; and the
:class:`Distractor` events that look odd but are harmless.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, ValidatorFunctionWrapHandler, WithJsonSchema, field_validator, model_validator
from pydantic_core import PydanticCustomError

from warroom.core.model._agents import Cast
from warroom.core.model._events import TraceEvent
from warroom.core.model._evidence import PATH_PATTERN, AcceptedItem, EvidenceItem
from warroom.core.model._fields import (
    MAX_DAMAGE_AMOUNT,
    MAX_DRILL_SECONDS,
    TEXT_PATTERN,
    Identifier,
    MappingForm,
    Seconds,
    _Strict,
)
from warroom.core.model._origins import FaultOrigin, fault_target
from warroom.core.model._vocab import FaultKind
from warroom.core.text import is_usd_unit


class Fault(_Strict):
    """The hidden silent failure: where it happened (a plan step; format 2: or the planner's own call, the harness
    set-up before step 1, or a handoff between agents), its kind and a one-sentence summary."""

    origin: FaultOrigin = Field(
        default=FaultOrigin.STEP,
        description=(
            "Format 2: where the fault happened: `step` (a plan step, the default: give `origin_step`), `plan` "
            "(the planner's own plan or re-plan call dropped or invented a constraint), `setup` (the harness "
            "set-up before step 1, e.g. tool discovery failed) or `handoff` (the instruction one agent handed to "
            "another dropped or changed a constraint). For `plan`, `setup` and `handoff` give `origin_event`; the "
            "escalation that contains names \"the plan\", \"set-up\" or that handoff (\"lead's handoff to "
            "refunder (h1)\")."
        ),
    )
    origin_step: Identifier | None = Field(
        default=None,
        description="The plan step where the fault happened: the step to escalate (required when `origin` is step).",
    )
    origin_event: Identifier | None = Field(
        default=None,
        description=(
            "Format 2, with `origin: plan`, `setup` or `handoff`: the trace event where the fault happened (the "
            "planner_call of the faulty plan or re-plan; the set-up event before step 1; the handoff event). "
            "Evidence comes at or after it."
        ),
    )
    kind: FaultKind = Field(description="What went wrong, from the fault-kind vocabulary (see docs/authoring.md).")
    summary: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="One sentence: what went wrong (shown in the debrief).",
    )

    @model_validator(mode="after")
    def _origin_fields(self) -> Fault:
        if self.origin is FaultOrigin.STEP:
            if self.origin_step is None:
                raise PydanticCustomError(
                    "fault_origin", "the fault needs `origin_step`: the plan step where it happened")
            if self.origin_event is not None:
                raise PydanticCustomError(
                    "origin_form", "`origin_event` goes with `origin: plan`, `setup` or `handoff`; a step origin names "
                    "its step with `origin_step`", {"at": "origin_event"})
        else:
            if self.origin_step is not None:
                raise PydanticCustomError(
                    "origin_form", "a fault with `origin: {origin}` has no `origin_step`; give `origin_event`",
                    {"origin": self.origin.value, "at": "origin_step"})
            if self.origin_event is None:
                raise PydanticCustomError(
                    "fault_origin", "a fault with `origin: {origin}` needs `origin_event`: the trace event where it "
                    "happened", {"origin": self.origin.value})
        return self

    @property
    def target(self) -> str:
        """The escalation target that contains this fault: ``origin_step``, or ``@plan`` / ``@setup``
        (:mod:`warroom.core.model._origins`)."""
        return fault_target(self)


class EventTime(_Strict):
    """A drill time by reference (format 2): the ``t`` of the trace event ``event``, plus ``after`` seconds."""

    event: Identifier = Field(description="The trace event whose time this is.")
    after: Seconds = Field(default=0, description="Seconds after the event (0: at the event).")


class BudgetTime(_Strict):
    """A budget deadline (format 2), for damage that is ``spend``: the drill time at which the damage done so far
    (USD spent, and any damage entries) first passes ``budget``, every repetition counted."""

    budget: Annotated[float, Field(strict=True, allow_inf_nan=False, gt=0, le=MAX_DAMAGE_AMOUNT)] = Field(
        description=(
            "The damage allowed before it is too late, in USD (the damage must count `spend`): the deadline is the "
            "drill time of the damage (a model call's cost, a damage entry, a repetition of either) that takes the "
            "damage past it."
        )
    )


def resolve_deadline(drill: Any) -> None:
    """Replace ``drill.answer_key.deadline`` when it is an :class:`EventTime` of an existing trace event by that
    event's ``t`` plus ``after``, or a :class:`BudgetTime` the damage passes by the drill time at which it does (in
    place: called once while the drill is validated). Leaves an unknown event's reference, a budget the damage never
    passes or without spend damage, and any reference in a version-1 drill (an error there), as it is. Returns
    nothing; never raises."""
    key = drill.answer_key
    if key is None or drill.schema_version < 2 or not isinstance(key.deadline, (EventTime, BudgetTime)):
        return
    ref = key.deadline
    at: float | None = None
    if isinstance(ref, BudgetTime):  # only with spend damage (validate says why otherwise)
        at = budget_passed_at(drill, ref.budget) if key.damage.spend else None
    else:
        at = next((ev.t + ref.after for ev in drill.trace if ev.id == ref.event), None)
    if at is not None:
        object.__setattr__(key, "deadline", at)  # the model is frozen once validated


def damage_per_event(drill: Any) -> dict[str, float]:
    """The damage one occurrence of each damaging trace event does, by event id, in the drill's damage unit: the
    answer key's damage entries (entries for one event added up) plus, format 2, the USD cost of one call of each
    ``spend`` event at the price of its model (:class:`~warroom.core.model.Cast`). Empty with no answer key."""
    key = drill.answer_key
    out: dict[str, float] = {}
    if key is None:
        return out
    for entry in key.damage.entries:
        out[entry.event] = out.get(entry.event, 0.0) + entry.amount
    if key.damage.spend:
        cast, wanted = Cast(drill), set(key.damage.spend)
        for ev in drill.trace:
            call = cast.call(ev) if ev.id in wanted else None
            if call is not None:
                out[ev.id] = out.get(ev.id, 0.0) + call.spec.cost(call.usage)
    return out


def damage_occurrences(drill: Any) -> list[tuple[float, str, float]]:
    """Every damaging occurrence of the trace in the order a replay releases it: ``(drill time, event id, damage)``,
    one per repetition of a repeated event (:func:`damage_per_event`)."""
    per_event = damage_per_event(drill)
    items: list[tuple[float, int, int, str, float]] = []
    for order, ev in enumerate(drill.trace):
        amount = per_event.get(ev.id)
        if not amount:
            continue
        count, interval = (ev.repeat.count, ev.repeat.interval) if ev.repeat is not None else (1, 0.0)
        items += [(ev.t + k * interval, order, k, ev.id, amount) for k in range(count)]
    items.sort(key=lambda i: i[:3])
    return [(t, event_id, amount) for t, _, _, event_id, amount in items]


def budget_passed_at(drill: Any, budget: float) -> float | None:
    """The drill time at which the damage done so far first passes ``budget`` (every occurrence counted, in release
    order), or None when the full damage never does."""
    done = 0.0
    for t, _, amount in damage_occurrences(drill):
        done += amount
        if done > budget * (1 + 1e-9):  # float noise: 20 calls of $0.05 do not pass a budget of $1.00
            return t
    return None


class DamageEntry(_Strict):
    """Damage one cascade event does when it is released before the incident is contained."""

    event: Identifier = Field(description="The trace event that does the damage.")
    amount: Annotated[float, Field(strict=True, allow_inf_nan=False, gt=0, le=MAX_DAMAGE_AMOUNT)] = Field(
        description=(f"How much damage, in the drill's damage unit (more than 0, at most {MAX_DAMAGE_AMOUNT:,}); "
                     "as play shows it: to two decimals, money as dollars and cents (`warroom validate` refuses an "
                     "amount that would show as another number, such as 12.345, or 0.001 of a unit other than USD).")
    )
    note: str | None = Field(default=None, description="What the damage is, e.g. '40 refund emails sent'.")


class Damage(_Strict):
    """The damage the cascade does, event by event, in a unit that matters in the drill's domain; format 2: or what
    its model calls cost (``spend``, a runaway loop's damage)."""

    unit: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="The damage unit, e.g. 'USD refunded in error', 'rows corrupted'.",
    )
    entries: list[DamageEntry] = Field(
        default_factory=list,
        description="Damage per cascade event (at least one, unless the damage is `spend`).",
    )
    spend: list[Identifier] = Field(
        default_factory=list,
        description=(
            "Format 2: model calls (trace events with `usage`) whose cost is damage: each call's cost at its "
            "model's prices, every repetition counted, from the first call on (a runaway loop wastes money before "
            "any alarm). The unit is then USD (`USD`, or `USD` and a description)."
        ),
    )

    @model_validator(mode="after")
    def _some_damage(self) -> Damage:
        if not self.entries and not self.spend:
            raise PydanticCustomError(
                "damage_entries", "the damage needs `entries` (damage per cascade event) or, format 2, `spend` (the "
                "model calls whose cost is the damage)")
        if self.spend and not is_usd_unit(self.unit):
            raise PydanticCustomError(
                "damage_unit", "damage that counts `spend` is money: give the unit as `USD` or `USD` and a "
                "description (e.g. `USD spent on retries`), not `{unit}`", {"unit": self.unit, "at": "unit"})
        return self


class _DeadlineKeys(_Strict):
    """Every key of the deadline's mapping forms (:class:`EventTime`'s and :class:`BudgetTime`'s), for the loader's
    messages on a mapping deadline: an unknown key is shown with all of them and a did-you-mean. Never validated."""

    event: Identifier | None = None
    after: Seconds | None = None
    budget: float | None = None


#: The deadline: drill seconds, or (format 2) an :class:`EventTime` or :class:`BudgetTime` mapping, read by
#: ``AnswerKey._deadline_by_ref`` and resolved to drill seconds when the drill is validated (so readers always see a
#: number).
Deadline = Annotated[
    Seconds,
    WithJsonSchema({
        "anyOf": [
            {"type": "number", "minimum": 0, "maximum": MAX_DRILL_SECONDS},
            EventTime.model_json_schema(mode="validation"),
            BudgetTime.model_json_schema(mode="validation"),
        ]
    }),
    MappingForm(_DeadlineKeys),
]


class AnswerKey(_Strict):
    """Everything hidden from the trainee until the debrief."""

    fault: Fault = Field(description="The fault's origin step, kind and summary.")
    evidence: list[EvidenceItem] = Field(
        min_length=1,
        description=(
            "Trace events that show the fault; the earliest sets when it became detectable. Format 2: an item may "
            "also be `{event: ID, path: FIELD.PATH}` (a field inside a large result), `{event: ID, absent: TEXT}` "
            "(an absence made visible at a checkpoint event) or `{all_of: [ID, ID, ...]}` (a comparison that counts "
            "once all its events are out), each with an optional `note`."
        ),
    )
    accepted_evidence: list[AcceptedItem] = Field(
        default_factory=list,
        description=(
            "Further trace events the author accepts as showing the fault when an escalation cites them (e.g. a "
            "later symptom of the same fault). Unlike `evidence`, they never set when the fault became detectable. "
            "Format 2: an item may also be `{event: ID, path: FIELD.PATH}`: a field of the event (with an optional "
            "`note`)."
        ),
    )
    cascade: list[Identifier] = Field(
        default_factory=list, description="Plan steps that build on the bad result, in order."
    )
    damage: Damage = Field(description="The damage the cascade does if nobody escalates.")
    deadline: Deadline = Field(
        description=(
            f"Drill time after which the damage is done; escalate before it (at most {MAX_DRILL_SECONDS:,} s). "
            "Format 2: or `{event: ID, after: SECONDS}`, the time of a trace event (plus `after`), which stays on "
            "its event when the trace is retimed; or `{budget: AMOUNT}`, the time the damage passes that amount "
            "(a budget deadline, for a runaway loop's spend)."
        )
    )
    debrief: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="What happened, where the evidence was, what the re-plan should be.",
    )
    habit: str | None = Field(
        default=None, min_length=1, pattern=TEXT_PATTERN,
        description=(
            "The habit that would have caught the fault: what a trainee should make a habit of checking, in one or "
            "two sentences written for any drill like this one (\"When a search returns nothing, read the "
            "arguments of its call before believing that nothing exists.\"). Shown in the debrief under its own "
            "heading, after what happened; `warroom validate` warns when a fault drill has none."
        ),
    )
    replan: list[TraceEvent] = Field(
        default_factory=list,
        description=(
            "Events that play after a correct escalation (the planner's re-plan and what follows). Their `t` is "
            "seconds after the escalation, not absolute drill time."
        ),
    )

    @field_validator("deadline", mode="wrap")
    @classmethod
    def _deadline_by_ref(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        # Format 2: `{event: ID, after: S}` is an EventTime, `{budget: X}` a BudgetTime, until the drill resolves
        # it (resolve_deadline).
        if isinstance(value, dict) and "budget" in value and ("event" in value or "after" in value):
            raise PydanticCustomError(
                "deadline_form", "a deadline is `{event: ID, after: SECONDS}` (a time by reference) or "
                "`{budget: AMOUNT}` (when the damage passes it), not both")
        if isinstance(value, BudgetTime) or (isinstance(value, dict) and "budget" in value):
            return BudgetTime.model_validate(value)
        if isinstance(value, (dict, EventTime)):
            return EventTime.model_validate(value)
        return handler(value)


class AllClear(_Strict):
    """A control drill: odd-looking but healthy; the right move is not to escalate."""

    debrief: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="Why the trace was healthy despite what looked odd.",
    )


class Distractor(_Strict):
    """An event (format 2: or a field of one) that looks odd but is harmless."""

    event: Identifier = Field(description="The trace event that looks suspicious.")
    path: Annotated[str, Field(pattern=PATH_PATTERN, max_length=400)] | None = Field(
        default=None,
        description=(
            "Format 2: a field path inside the event's output (`data.stale_after`): the odd-but-harmless thing is "
            "that field, not the whole event, which may then also be evidence (a different field of it). A citation "
            "of that field (`e03:data.stale_after`) is judged a distractor."
        ),
    )
    why_harmless: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="Why it is harmless (shown in the debrief).",
    )
