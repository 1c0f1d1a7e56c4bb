"""The fault of a drill's answer key (:class:`Fault`): where it happened (a plan step; format 2: or the planner's own
call, or the harness set-up before step 1), its kind and a one-sentence summary; see
:mod:`warroom.core.model._origins`.
"""

from __future__ import annotations

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from warroom.core.model._origins import FaultOrigin, fault_target
from warroom.core.model._types import TEXT_PATTERN, FaultKind, Identifier, _Strict


class Fault(_Strict):
    """The hidden silent failure: where it happened (a plan step; format 2: or the planner's own call, or the
    harness set-up before step 1), its kind and a one-sentence summary."""

    origin: FaultOrigin = Field(
        default=FaultOrigin.STEP,
        description=(
            "Format 2: where the fault happened: `step` (a plan step, the default: give `origin_step`), `plan` "
            "(the planner's own plan or re-plan call dropped or invented a constraint) or `setup` (the harness "
            "set-up before step 1, e.g. tool discovery failed). For `plan` and `setup` give `origin_event`; the "
            "escalation that contains names \"the plan\" or \"set-up\"."
        ),
    )
    origin_step: Identifier | None = Field(
        default=None,
        description="The plan step where the fault happened: the step to escalate (required when `origin` is step).",
    )
    origin_event: Identifier | None = Field(
        default=None,
        description=(
            "Format 2, with `origin: plan` or `setup`: the trace event where the fault happened (the planner_call "
            "of the faulty plan or re-plan; the set-up event before step 1). Evidence comes at or after it."
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
                    "origin_form", "`origin_event` goes with `origin: plan` or `origin: setup`; a step origin names "
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
