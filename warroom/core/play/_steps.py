"""A plan step's state as the trainee sees it (:class:`StepState`), and :class:`StepTracker`, which keeps every step's
state as a replay releases events."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from warroom.core.model import ExecutorReport, PlanStep, ReportedStatus


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


class StepTracker:
    """Every plan step's :class:`StepState` as reported so far (``states``, in plan order), updated by :meth:`see`
    as the replay releases events.

    Format 2: steps marked ``parallel`` run at the same time as the step before them; such a run of steps is one
    *group*. Work moving between the steps of a group leaves each in progress; work moving to a step of another group
    marks every step of the group it left that is still in progress as moved on without a report."""

    def __init__(self, plan: list[PlanStep]) -> None:
        self.states: dict[str, StepState] = {s.id: StepState.PENDING for s in plan}
        self._active_step: str | None = None
        #: each step's group: the id of the first step of its run of parallel steps
        self._group: dict[str, str] = {}
        group = ""
        for s in plan:
            group = group if s.parallel and group else s.id
            self._group[s.id] = group

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
                if previous is None or self._group[previous] == self._group[step]:
                    return  # format 2: steps that run at once (``parallel``)
                for other, group in self._group.items():
                    if group == self._group[previous] and self.states[other] is StepState.IN_PROGRESS:
                        self.states[other] = StepState.NO_REPORT
