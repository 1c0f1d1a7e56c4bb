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
    as the replay releases events."""

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
