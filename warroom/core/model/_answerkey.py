"""The answer key of a drill: everything hidden from the trainee until the debrief. The :class:`Fault` (where it
happened: a plan step; format 2: or the planner's own call, or the harness set-up before step 1, see
:mod:`warroom.core.model._origins`; its kind and a one-sentence summary), its evidence (items of
:mod:`warroom.core.model._evidence`), cascade, :class:`Damage`, deadline (format 2: or an :class:`EventTime`, a
time by reference to a trace event, resolved to drill seconds when the drill is validated by
:func:`resolve_deadline`; one that names no event stays an :class:`EventTime` and validation reports it), debrief
and re-plan events; or the :class:`AllClear` section of a control drill; and the :class:`Distractor` events that
look odd but are harmless.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, ValidatorFunctionWrapHandler, WithJsonSchema, field_validator, model_validator
from pydantic_core import PydanticCustomError

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


def resolve_deadline(drill: Any) -> None:
    """Replace ``drill.answer_key.deadline`` when it is an :class:`EventTime` of an existing trace event by that
    event's ``t`` plus ``after`` (in place: called once while the drill is validated). Leaves an unknown event's
    reference, and any reference in a version-1 drill (an error there), as it is. Returns nothing; never raises."""
    key = drill.answer_key
    if key is None or drill.schema_version < 2 or not isinstance(key.deadline, EventTime):
        return
    ref = key.deadline
    for ev in drill.trace:
        if ev.id == ref.event:
            object.__setattr__(key, "deadline", ev.t + ref.after)  # the model is frozen once validated
            return


class DamageEntry(_Strict):
    """Damage one cascade event does when it is released before the incident is contained."""

    event: Identifier = Field(description="The trace event that does the damage.")
    amount: Annotated[float, Field(strict=True, allow_inf_nan=False, gt=0, le=MAX_DAMAGE_AMOUNT)] = Field(
        description=f"How much damage, in the drill's damage unit (more than 0, at most {MAX_DAMAGE_AMOUNT:,})."
    )
    note: str | None = Field(default=None, description="What the damage is, e.g. '40 refund emails sent'.")


class Damage(_Strict):
    """The damage the cascade does, event by event, in a unit that matters in the drill's domain."""

    unit: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="The damage unit, e.g. 'USD refunded in error', 'rows corrupted'.",
    )
    entries: list[DamageEntry] = Field(min_length=1, description="Damage per cascade event.")


#: The deadline: drill seconds, or (format 2) an :class:`EventTime` mapping, read by ``AnswerKey._deadline_by_ref``
#: and resolved to drill seconds when the drill is validated (so readers always see a number).
Deadline = Annotated[
    Seconds,
    WithJsonSchema({
        "anyOf": [
            {"type": "number", "minimum": 0, "maximum": MAX_DRILL_SECONDS},
            EventTime.model_json_schema(mode="validation"),
        ]
    }),
    MappingForm(EventTime),
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
            "its event when the trace is retimed."
        )
    )
    debrief: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="What happened, where the evidence was, what the re-plan should be.",
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
        # Format 2: `{event: ID, after: S}` is an EventTime until the drill resolves it (resolve_deadline).
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
