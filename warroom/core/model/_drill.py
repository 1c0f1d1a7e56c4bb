"""The drill format: pydantic v2 models for one scripted incident in a planner-executor agent.

A drill file (YAML) is validated into a :class:`Drill` (terms: docs/architecture.md, "Glossary"; the format for
authors: docs/authoring.md). Its shape:

- metadata (``id``, ``title``, ``version``, ``difficulty``, ``tags``, ``author``) and a :class:`Briefing`;
- :class:`Models`: which model plays planner and executor, priced in USD per million input/output tokens;
- ``plan``: ordered :class:`PlanStep` items, each with a checkable objective;
- ``trace``: timed :data:`TraceEvent` items on the drill clock (seconds of drill time, from 0), a discriminated
  union on ``kind``: planner calls, executor messages, tool calls, raw tool results, executor reports (with the
  *reported* status, which lies on the silent step) and environment logs;
- either an :class:`AnswerKey` (the hidden fault, its evidence, cascade, damage, deadline, debrief and optional
  re-plan events) or an :class:`AllClear` section for a control drill with no fault;
- ``distractors``: events that look odd but are harmless, each with the reason why.

Every model forbids unknown keys (``extra="forbid"``) so a typo in a drill is an error, not a silently ignored
key. Type rules live here; rules that relate fields to one another (unique ids, references, time order, the
deadline) live in :mod:`warroom.core.rules._validation`.

The format's other parts live beside this module in :mod:`warroom.core.model` (its API names them all): the
version, bounds, shared types, vocabularies, briefing, models and plan (``_types``), the trace events (``_events``),
agents (``_agents``), the fault and its origin (``_fault``, ``_origins``), evidence items (``_evidence``), probes
(``_probes``) and the variants section (``_variants``). This module holds the answer key, all-clear controls,
distractors and the :class:`Drill` itself.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, ValidatorFunctionWrapHandler, WithJsonSchema, field_validator, model_validator
from pydantic_core import PydanticCustomError

from warroom.core.model._agents import Agent
from warroom.core.model._events import (
    TraceEvent,
)
from warroom.core.model._eventtime import EventTime, resolve_deadline
from warroom.core.model._evidence import EvidenceItem
from warroom.core.model._fault import Fault
from warroom.core.model._probes import Probe, earliest_result_at, result_event
from warroom.core.model._types import (
    MAX_DAMAGE_AMOUNT,
    MAX_DRILL_SECONDS,
    MAX_VERSION,
    TEXT_PATTERN,
    Briefing,
    Identifier,
    MappingForm,
    Models,
    PlanStep,
    Seconds,
    _Strict,
)
from warroom.core.model._variants import (
    Variants,
)

__all__ = [
    "ANSWER_TAG_PREFIXES",
    "CONTROL_TAGS",
    "AllClear",
    "AnswerKey",
    "Damage",
    "DamageEntry",
    "Distractor",
    "Drill",
]


# ---------------------------------------------------------------------------------------------------------------
# The answer key, all-clear controls and distractors
# ---------------------------------------------------------------------------------------------------------------


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
    accepted_evidence: list[Identifier] = Field(
        default_factory=list,
        description=(
            "Further trace events the author accepts as showing the fault when an escalation cites them (e.g. a "
            "later symptom of the same fault). Unlike `evidence`, they never set when the fault became detectable."
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
        # Format 2: `{event: ID, after: S}` is an EventTime until the drill resolves it (core/eventtime.py).
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
    """An event that looks odd but is harmless."""

    event: Identifier = Field(description="The trace event that looks suspicious.")
    why_harmless: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="Why it is harmless (shown in the debrief).",
    )


# ---------------------------------------------------------------------------------------------------------------
# The drill
# ---------------------------------------------------------------------------------------------------------------

#: Tag prefixes of the failure taxonomies (MAST, TRAIL, AgentRx; docs/authoring.md); such tags name the fault.
ANSWER_TAG_PREFIXES = ("mast:", "trail:", "agentrx:")
#: Tags that mark a control drill.
CONTROL_TAGS = frozenset({"all-clear", "all_clear", "allclear", "control"})


class Drill(_Strict):
    """One incident drill: a scripted planner-executor trace with one hidden silent failure (or none)."""

    schema_version: Literal[1, 2] = Field(
        description=(
            "Drill format version: 1 or 2. Version 2 adds agents, more models, call metadata, batches, retries, "
            "repetition, approvals, handoffs and command results (docs/authoring.md, \"Format version 2\")."
        )
    )
    id: Identifier = Field(
        description=(
            "Unique id of the drill, e.g. 'refund-pagination'; the file name without .yaml must be the same "
            "(`warroom validate` checks it)."
        )
    )
    title: str = Field(min_length=1, pattern=TEXT_PATTERN, description="Title shown in the drill picker.")
    version: Annotated[int, Field(strict=True, ge=1, le=MAX_VERSION)] = Field(
        default=1, description="The drill's own revision, bumped on edits."
    )
    difficulty: Annotated[int, Field(strict=True, ge=1, le=5)] = Field(description="1 (easy) to 5 (hard).")
    tags: list[str] = Field(
        default_factory=list,
        description=(
            "Free tags. Only tags marked `domain:` (e.g. `domain:billing`, shown as `billing`) are shown before the "
            "debrief; the others (fault kind, MAST/TRAIL terms) only in the debrief."
        ),
    )
    author: str = Field(min_length=1, pattern=TEXT_PATTERN, description="Who wrote the drill.")
    source: str | None = Field(
        default=None,
        description=(
            "Where the trace comes from, when it is not invented: e.g. the corpus and record an imported drill was "
            "made from, and which of its numbers are estimates."
        ),
    )
    briefing: Briefing = Field(description="What the trainee reads before the start.")
    models: Models = Field(description="Planner and executor models with their prices.")
    agents: list[Agent] = Field(
        default_factory=list,
        description="Format 2: the agents (name, role, model) that trace events may name with `agent`.",
    )
    plan: list[PlanStep] = Field(min_length=1, description="The planner's ordered plan.")
    trace: list[TraceEvent] = Field(min_length=1, description="The timed trace events, in drill-time order.")
    answer_key: AnswerKey | None = Field(
        default=None, description="The hidden fault and its consequences. Absent in an all-clear drill."
    )
    all_clear: AllClear | None = Field(
        default=None, description="Present only in an all-clear control drill (which then has no answer_key)."
    )
    distractors: list[Distractor] = Field(default_factory=list, description="Odd-looking but harmless events.")
    probes: list[Probe] = Field(
        default_factory=list,
        description=(
            "Format 2: verification probes the trainee may request (key `v`): what asking the executor to verify a "
            "plan step reveals and what it costs. List a probe's id in `answer_key.evidence` when it finds the fault."
        ),
    )
    variants: Variants | None = Field(
        default=None,
        description=(
            "What each session's seeded variant may change (names, amounts, timing, distractor order, phrasings); "
            "absent: every session plays the drill as written."
        ),
    )

    @field_validator("schema_version", mode="before")
    @classmethod
    def _schema_version_is_not_a_boolean(cls, value: Any) -> Any:
        # Literal[1, 2] takes True (True == 1 in Python); the JSON Schema's enum [1, 2] does not.
        if isinstance(value, bool):
            raise PydanticCustomError("literal_error", "Input should be {expected}", {"expected": "1 or 2"})
        return value

    @model_validator(mode="after")
    def _resolve_event_times(self) -> Drill:
        resolve_deadline(self)
        return self

    # -- conveniences (not part of the format) ------------------------------------------------------------------

    @property
    def is_all_clear(self) -> bool:
        """True for a control drill with no fault."""
        return self.all_clear is not None

    @property
    def public_tags(self) -> list[str]:
        """The tags a trainee may see before the debrief: only the tags marked as domain tags (``domain:billing``,
        shown as ``billing``), by the one rule of :func:`warroom.core.model._hygiene.visible_tags`. Every other tag (a
        fault kind, a MAST/TRAIL/AgentRx term, ``all-clear``) is shown only in the debrief and to facilitators.
        """
        from warroom.core.model._hygiene import visible_tags

        return visible_tags(self)

    @property
    def duration(self) -> float:
        """Seconds of drill time until the last trace event."""
        return self.trace[-1].t if self.trace else 0.0

    def step(self, step_id: str) -> PlanStep:
        """The plan step with this id; raises KeyError if there is none."""
        for s in self.plan:
            if s.id == step_id:
                return s
        raise KeyError(step_id)

    def event(self, event_id: str) -> TraceEvent:
        """The trace (or re-plan) event with this id, or a probe's result event (format 2: as
        :func:`warroom.core.model.result_event` builds it, at the earliest time it can be revealed); raises KeyError
        if there is none."""
        for e in self.trace:
            if e.id == event_id:
                return e
        if self.answer_key:
            for e in self.answer_key.replan:
                if e.id == event_id:
                    return e
        for p in self.probes:  # a probe's result, at the earliest time it can be revealed
            if p.id == event_id:
                return result_event(p, earliest_result_at(self, p) or 0.0)
        raise KeyError(event_id)
