"""What an escalation did: :class:`EscalationResult` (the replay's account of one escalation) and
:class:`EscalationVerdict` (its verdict in the words every view uses), and what a false escalation costs in drill
time (:data:`FALSE_ESCALATION_DELAY`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from warroom.core.model import Action

#: Seconds of drill time a false escalation costs: the planner's re-plan call runs while the trace goes on.
FALSE_ESCALATION_DELAY = 15.0


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
    trace ended meanwhile (None for a containment). ``not_yet`` (format 2): the cited probe results that answered
    "nothing wrong yet" (asked before the probe could find the fault); the scoring rules judge the citations without
    them.
    """

    action: Action
    contained: bool
    late: bool
    replan_usd: float
    released: list[Any]
    after_evidence: bool = False
    resumed_at: float | None = None
    not_yet: tuple[str, ...] = ()

    @property
    def verdict(self) -> EscalationVerdict:
        """What this escalation did (see :class:`EscalationVerdict`)."""
        if not self.contained:
            return EscalationVerdict.FALSE_ESCALATION
        return EscalationVerdict.CONTAINED_LATE if self.late else EscalationVerdict.CONTAINED
