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
- ``distractors``: events that look odd but are harmless, each with the reason why;
- format 2: verification ``probes``, a seeded ``variants`` section and a ``twin`` (the fault drill's healthy run,
  played as a noise trial: :mod:`warroom.core.model._twin`).

Every model forbids unknown keys (``extra="forbid"``) so a typo in a drill is an error, not a silently ignored
key. Type rules live in the model; rules that relate fields to one another (unique ids, references, time order,
the deadline) live in :mod:`warroom.core.rules`.

This module holds the :class:`Drill` and the parts of it around the trace (:class:`Briefing`, :class:`PlanStep`);
the other parts live beside it in :mod:`warroom.core.model` (its API names them all): the shared field types
(``_fields``), the vocabularies (``_vocab``), the models, prices and agents (``_agents``), the trace events
(``_events``), the answer key, all clear and distractors (``_answerkey``), the fault's origins and escalation
targets (``_origins``), evidence items (``_evidence``), probes (``_probes``), the variants section
(``_variants``) and the twin section (``_twin``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from warroom.core.model._agents import Agent, Models
from warroom.core.model._answerkey import AllClear, AnswerKey, Distractor, resolve_deadline
from warroom.core.model._events import TraceEvent
from warroom.core.model._fields import MAX_VERSION, TEXT_PATTERN, Identifier, _Strict
from warroom.core.model._probes import Probe, earliest_result_at, result_event
from warroom.core.model._twin import Twin
from warroom.core.model._variants import Variants


class Briefing(_Strict):
    """What the trainee reads before the drill starts. Never contains the answer."""

    goal: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="The agent's goal, as the user gave it to the planner.",
    )
    watching: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="What the trainee is watching and what to look out for (the system, its tools, the stakes).",
    )
    context: str | None = Field(
        default=None, description="Optional background: the organisation, the data, anything a new on-call would know."
    )


class ApprovalScope(_Strict):
    """What a step's approval gates (format 2): the tool calls of the tools named, and the events of the kinds
    named. The first such event in the step before a granted approval went ahead without it."""

    tools: list[Annotated[str, Field(min_length=1, pattern=TEXT_PATTERN)]] = Field(
        default_factory=list, description="Tool names whose calls need the approval (`payments.wire`)."
    )
    kinds: list[Literal["tool_call", "handoff", "executor_message", "executor_report", "human_message"]] = Field(
        default_factory=list,
        description="Event kinds that need the approval (`handoff`: a delegation; `tool_call`: any tool call).",
    )

    @model_validator(mode="after")
    def _names_something(self) -> ApprovalScope:
        if not self.tools and not self.kinds:
            raise PydanticCustomError("approval_scope", "`approval_for` needs `tools`, `kinds` or both: what the "
                                      "approval gates")
        return self

    def gates(self, event: Any) -> bool:
        """True when ``event`` needs the approval: a call of a tool named, or an event of a kind named."""
        return event.kind in self.kinds or (event.kind == "tool_call" and event.tool in self.tools)


class PlanStep(_Strict):
    """One ordered step of the planner's plan, with an objective the executor's work can be checked against."""

    id: Identifier = Field(description="Unique id of the plan step, referenced by trace events and the answer key.")
    title: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="Short name of the step, shown in the plan panel.",
    )
    objective: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="The checkable objective: what must be true when it is done.",
    )
    requires_approval: bool = Field(
        strict=True, default=False,
        description=(
            "Format 2: the step needs a person's approval (an `approval` event with `decision: granted` and this "
            "`step`) before its first tool call (with `approval_for`: before the first event it names); the war "
            "room shows a step that went ahead without one."
        ),
    )
    parallel: bool = Field(
        strict=True, default=False,
        description=(
            "Format 2: the step runs at the same time as the step before it (and the steps that run with that one): "
            "it may start before that one reports, and work moving between them is no sign that one moved on "
            "without a report. Not on the first step."
        ),
    )
    approval_for: ApprovalScope | None = Field(
        default=None,
        description=(
            "Format 2, with `requires_approval: true`: what the approval gates, `{tools: [payments.wire], kinds: "
            "[handoff]}`; other events of the step (a lookup, a harmless delegation) need none. Absent: the "
            "step's first tool call, whatever the tool."
        ),
    )

    @model_validator(mode="after")
    def _scope_needs_approval(self) -> PlanStep:
        if self.approval_for is not None and not self.requires_approval:
            raise PydanticCustomError("approval_scope", "`approval_for` says what the step's approval gates: set "
                                      "`requires_approval: true` too", {"at": "approval_for"})
        return self


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
    twin: Twin | None = Field(
        default=None,
        description=(
            "Format 2, in a drill with a fault: its healthy run (the events that differ when nothing went wrong, and "
            "the all-clear debrief). A session then plays the drill as a signal trial (the fault) or a noise trial "
            "(the twin, an all-clear control), drawn from its seed; absent: every session is a signal trial."
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
