"""The figures of the cohort statistics: a :class:`TraineeStats` per trainee, a :class:`DrillStats` per drill, the
cohort's :class:`Reliability`, all in one :class:`CohortStats` (what :func:`~warroom.core.stats.stats_from_counts`
returns). Plain frozen dataclasses with ``to_dict()`` for JSON and CSV; docs/sessions.md ("Cohort statistics")
defines every figure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from warroom.core.stats._measures import TARGET_RELIABILITY


def _as_dict(obj: Any) -> dict[str, Any]:
    return {k: getattr(obj, k) for k in obj.__dataclass_fields__}


@dataclass(frozen=True)
class TraineeStats:
    """One trainee's figures over the sessions that were not abandoned (``abandoned`` counts those apart).

    Rates are shares in 0..1 (None when their denominator is 0); times are seconds. ``false_alarms`` counts
    all-clear sessions with an escalation, ``false_escalations_per_all_clear`` every false escalation in them per
    all-clear session (may exceed 1); ``distractor_escalation_rate`` is distinct distractors that pulled an
    escalation per distractor shown, over all sessions. ``d_prime`` and ``criterion_c`` use the log-linear
    correction and are None unless both kinds of drill were played; ``a_prime`` uses the raw rates. ``reliability``
    is the Spearman–Brown reliability of this trainee's mean score at their number of sessions, from the cohort's
    split-half correlation; ``more_sessions_needed`` is how many more sessions reach the target (0 when reached;
    None when the cohort's halves do not agree or there are too few trainees).
    """

    trainee: str
    sessions: int
    abandoned: int
    fault_sessions: int
    hits: int
    hit_rate: float | None
    all_clear_sessions: int
    false_alarms: int
    false_alarm_rate: float | None
    false_escalations_per_all_clear: float | None
    distractors_shown: int
    distractors_escalated: int
    distractor_escalation_rate: float | None
    d_prime: float | None
    criterion_c: float | None
    a_prime: float | None
    median_time_to_detect: float | None
    median_wall_time_to_detect: float | None
    mean_score: float | None
    reliability: float | None
    more_sessions_needed: int | None

    def to_dict(self) -> dict[str, Any]:
        """A flat JSON- and CSV-ready dict of every field."""
        return _as_dict(self)


@dataclass(frozen=True)
class DrillStats:
    """One drill's figures over the sessions that were not abandoned (``abandoned`` counts those apart).

    ``difficulty``: share of correct sessions (higher is easier). ``discrimination``: point-biserial correlation of
    a session being correct with the trainee's rest score (mean score on the other drills); None when it cannot be
    computed (under 3 sessions with a rest score, or all correct / all wrong). ``distractor_pulls``: escalations
    pulled per distractor event id, most first. Times are seconds of drill time (and of real time).
    """

    drill_id: str
    all_clear: bool
    sessions: int
    trainees: int
    abandoned: int
    difficulty: float | None
    discrimination: float | None
    median_time_to_detect: float | None
    median_wall_time_to_detect: float | None
    distractor_pulls: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of every field (``distractor_pulls`` stays a dict: JSON-encode it for CSV)."""
        return _as_dict(self) | {"distractor_pulls": dict(self.distractor_pulls)}


@dataclass(frozen=True)
class Reliability:
    """The cohort's split-half reliability of a trainee's mean score.

    ``split_half_r``: Pearson r, across the ``trainees`` with at least 2 sessions, between the mean score of their
    odd and even sessions in time order; ``half_sessions``: the harmonic mean of the halves' session counts;
    ``reliability``: ``split_half_r`` corrected to the whole length (Spearman–Brown, k = 2), i.e. at
    ``2 * half_sessions`` sessions; ``sessions_needed``: sessions a trainee needs to reach ``target`` (None when
    ``split_half_r`` is None or <= 0). ``reliability`` is None when ``split_half_r`` is None or <= 0.
    """

    trainees: int
    split_half_r: float | None
    half_sessions: float | None
    reliability: float | None
    sessions_needed: int | None
    target: float = TARGET_RELIABILITY

    def to_dict(self) -> dict[str, Any]:
        """A flat JSON- and CSV-ready dict of every field."""
        return _as_dict(self)


@dataclass(frozen=True)
class CohortStats:
    """The result of :func:`summarize`: trainees and drills sorted by name, the cohort's reliability, and how many
    sessions the ``modes`` filter left out (``skipped_by_mode``)."""

    trainees: list[TraineeStats]
    drills: list[DrillStats]
    reliability: Reliability
    skipped_by_mode: int = 0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``trainees`` and ``drills`` (lists of dicts), ``reliability`` and ``skipped_by_mode``."""
        return {
            "trainees": [t.to_dict() for t in self.trainees],
            "drills": [d.to_dict() for d in self.drills],
            "reliability": self.reliability.to_dict(),
            "skipped_by_mode": self.skipped_by_mode,
        }
