"""The parts of a replay (:mod:`warroom.core.play._replay`): why a drill ended, a plan
step's state as reported (and :class:`StepTracker`, which keeps them), the cost meter, what an escalation did, the
error of an action that cannot apply, the galloping search that finds the events due on the drill clock and the
release queue with format 2's repetitions laid out (:class:`ReleaseQueue`)."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from warroom.core.model import Action, Drill, ExecutorReport, PlanStep, ReportedStatus, Role, Usage
from warroom.core.play._repetition import occurrences
from warroom.errors import WarroomError

#: Seconds of drill time a false escalation costs: the planner's re-plan call runs while the trace goes on.
FALSE_ESCALATION_DELAY = 15.0


class EndReason(StrEnum):
    """Why a drill ended."""

    CONTAINED = "contained"
    END_OF_TRACE = "end_of_trace"
    ABANDONED = "abandoned"


class StepState(StrEnum):
    """A plan step's state as the trainee sees it: the executor's *reported* status, or not reported yet.

    ``pending``: none of its events released yet. ``in_progress``: the step the executor is working on (its
    latest events). ``no_report``: the executor moved on to another step without reporting on this one (common in
    imported traces, which have no executor reports). Otherwise the status of the step's latest executor report.
    """

    PENDING = "pending"
    IN_PROGRESS = "in_progress"
    NO_REPORT = "no_report"
    SUCCESS = ReportedStatus.SUCCESS.value
    PARTIAL = ReportedStatus.PARTIAL.value
    FAILED = ReportedStatus.FAILED.value


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


class EscalationVerdict(StrEnum):
    """What one escalation did, in the words every view uses (debrief, after-action review).

    ``contained``: it named the fault's origin step after the evidence appeared, by the deadline.
    ``contained late``: the same, after the deadline. ``right step, unsupported``: it named the origin step after
    the evidence appeared (so the cascade stopped) but cited no event that shows the fault (scoring rules version
    2; :func:`warroom.core.scoring.escalation_verdict` gives it, :attr:`EscalationResult.verdict` never does).
    ``false escalation``: any other escalation (another step, before
    the evidence, or in an all-clear drill); the planner re-planned and the plan went on (before the evidence the
    drill counts, even the right step gives the planner nothing to act on: see ``EscalationResult.after_evidence``).
    """

    CONTAINED = "contained"
    CONTAINED_LATE = "contained late"
    UNSUPPORTED = "right step, unsupported"
    FALSE_ESCALATION = "false escalation"


@dataclass(frozen=True)
class EscalationResult:
    """What an escalation did.

    ``contained`` is True when it named the fault's origin step after the evidence appeared. ``late`` is True when
    that happened after the deadline. ``after_evidence`` says whether the earliest evidence had been released when
    the trainee escalated. For a false escalation, ``replan_usd`` is what the planner's re-plan call cost (USD),
    ``released`` the trace events released while the planner re-planned and ``resumed_at`` the drill time (seconds)
    when the trainee had the drill back: :data:`FALSE_ESCALATION_DELAY` after the escalation, or earlier when the
    trace ended meanwhile (None for a containment).
    """

    action: Action
    contained: bool
    late: bool
    replan_usd: float
    released: list[Any]
    after_evidence: bool = False
    resumed_at: float | None = None

    @property
    def verdict(self) -> EscalationVerdict:
        """What this escalation did (see :class:`EscalationVerdict`)."""
        if not self.contained:
            return EscalationVerdict.FALSE_ESCALATION
        return EscalationVerdict.CONTAINED_LATE if self.late else EscalationVerdict.CONTAINED


class ReplayError(WarroomError, ValueError):
    """An action that cannot apply: an unknown event or step id, an unreleased event, a drill that has ended, or a
    second escalation after the incident was contained."""


def release_end(times: list[float], t: float, lo: int) -> int:
    """Index just past the last entry of the sorted ``times`` that is ``<= t``, searching from ``lo``.

    A galloping search: O(1) when nothing is due (most ticks) and O(log k) when k events are due, so the work per
    tick never grows with the trace's length (a plain bisection over the rest of the trace costs O(log n)).
    """
    n = len(times)
    if lo >= n or times[lo] > t:
        return lo
    step = 1
    hi = lo + 1
    while hi < n and times[hi] <= t:
        lo = hi
        step *= 2
        hi = lo + step
    return bisect_right(times, t, lo, min(hi, n))


class StepTracker:
    """Every plan step's :class:`StepState` as reported so far (``states``, in plan order), updated by :meth:`see`
    as the replay releases events (moved from :class:`~warroom.core.play.Replay`, unchanged)."""

    def __init__(self, plan: list[PlanStep]) -> None:
        self.states: dict[str, StepState] = {s.id: StepState.PENDING for s in plan}
        self._active_step: str | None = None

    def see(self, ev: Any) -> None:
        """Update the states for the released trace event ``ev`` (an event of no known plan step changes none)."""
        step = ev.step
        if step is not None and step in self.states:
            if isinstance(ev, ExecutorReport):
                self.states[step] = StepState(ev.status.value)
            elif self.states[step] in (StepState.PENDING, StepState.NO_REPORT):
                self.states[step] = StepState.IN_PROGRESS
            if step != self._active_step:
                previous, self._active_step = self._active_step, step
                if previous is not None and self.states[previous] is StepState.IN_PROGRESS:
                    self.states[previous] = StepState.NO_REPORT


class ReleaseQueue:
    """The events a replay releases on the drill clock, in order, with format 2's repetitions laid out
    (:func:`~warroom.core.play._repetition.occurrences`): ``events``, their ``times`` (seconds of drill time), their
    repetition numbers ``reps`` (None when no event repeats) and ``next``, the index of the next one to release."""

    def __init__(self, events: Any) -> None:
        self.events, self.times, self.reps = occurrences(events)
        self.next = 0

    @property
    def done(self) -> bool:
        """True once every entry has been released."""
        return self.next >= len(self.events)

    @property
    def next_time(self) -> float | None:
        """Drill time of the next entry to release, or None when nothing is left."""
        return self.times[self.next] if self.next < len(self.events) else None

    @property
    def last_time(self) -> float | None:
        """Drill time of the last entry still to release, or None when nothing is left."""
        return self.times[-1] if self.next < len(self.events) else None

    def take(self, t: float) -> tuple[int, int]:
        """Mark the entries due at drill time ``t`` released; returns their index range ``(start, end)``."""
        start = self.next
        self.next = release_end(self.times, t, start)
        return start, self.next


def damage_by_event(drill: Drill) -> tuple[dict[str, float], float]:
    """The answer key's damage per trace event id (one occurrence's, in the key's unit; entries for one event added
    up) and the full cascade's damage (every repetition of a repeated event counted); ``({}, 0.0)`` with no key."""
    key = drill.answer_key
    by_event: dict[str, float] = {}
    if key is None:
        return by_event, 0.0
    for entry in key.damage.entries:
        by_event[entry.event] = by_event.get(entry.event, 0.0) + entry.amount
    repeats = {e.id: e.repeat.count for e in drill.trace if e.repeat is not None}
    return by_event, sum(a * repeats.get(ev, 1) for ev, a in by_event.items())
