"""The figures of the cohort statistics: a :class:`TraineeStats` per trainee, a :class:`DrillStats` per drill, the
cohort's :class:`Reliability`, all in one :class:`CohortStats` (what :func:`~warroom.core.stats.stats_from_counts`
returns). Plain frozen dataclasses with ``to_dict()`` for JSON and CSV; docs/sessions.md ("Cohort statistics")
defines every figure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from warroom.core.stats import _measures as measures
from warroom.core.text import no_negative_zero


def _as_dict(obj: Any) -> dict[str, Any]:
    """Every field of ``obj``; a float that is -0.0 (c of a trainee with H = 1 - F, an interval's bound) becomes 0.0,
    so that no export shows a negative zero the table shows as 0.00."""
    return {k: no_negative_zero(getattr(obj, k)) for k in obj.__dataclass_fields__}


@dataclass(frozen=True)
class TraineeStats:
    """One trainee's figures over their trials: the first attempt at each drill in the counted modes
    (docs/sessions.md, "Cohort statistics").

    ``sessions``: sessions counted (first attempts and ``replays``); ``trials``: signal plus noise trials;
    ``abandoned``: first attempts the trainee quit (in assessment they are trials with their response; in practice
    they are ``abandoned_apart``, in no figure); ``chosen``: first attempts whose trial was chosen, not drawn
    (``warroom run --as`` / ``--seed``: in no figure); ``approximated``: trials whose response was approximated from an
    older scorecard's outcome. Signal trials split into ``hits``, ``localisation_errors`` and ``misses``; noise
    trials into ``false_alarms``, ``correct_rejections`` and ``noise_abandoned`` (quit without escalating: counted
    with the false alarms). ``distinct_controls``: distinct drills among the noise trials.

    Every rate is a share in 0..1 (None when its denominator is 0) with its 95% Wilson interval (``_low``,
    ``_high``): ``hit_rate`` = hits / signal trials, ``false_alarm_rate`` = (false alarms + noise abandoned) /
    noise trials. ``enough_trials``: at least 10 signal and 5 noise trials; otherwise ``d_prime``, ``criterion_c``
    and ``a_prime`` are None ("too few trials"). d′ and c use the log-linear correction, their intervals the delta
    method; A′ uses the raw rates, its interval an exact parametric bootstrap. ``d_prime_reliability`` is the
    Spearman–Brown reliability of this trainee's d′ at their number of trials from the cohort's split-half
    correlation, ``more_trials_needed`` the further trials that reach the target (0 when reached; None when the
    cohort's reliability is not estimated); ``score_reliability`` and ``score_more_trials_needed`` the same for the
    mean score (secondary). ``median_time_to_detect`` (drill seconds) is the median over the ``time_to_detect_trials``
    trials that detected the fault, ``median_wall_time_to_detect`` (real seconds) over the
    ``wall_time_to_detect_trials`` trials that recorded one (None over 0). ``warnings``: sentences about what the
    false-alarm rate rests on.
    """

    trainee: str
    sessions: int
    replays: int
    trials: int
    abandoned: int
    abandoned_apart: int
    chosen: int
    approximated: int
    signal_trials: int
    hits: int
    localisation_errors: int
    misses: int
    hit_rate: float | None
    hit_rate_low: float | None
    hit_rate_high: float | None
    noise_trials: int
    false_alarms: int
    noise_abandoned: int
    correct_rejections: int
    distinct_controls: int
    false_alarm_rate: float | None
    false_alarm_rate_low: float | None
    false_alarm_rate_high: float | None
    false_escalations_per_noise_trial: float | None
    distractors_shown: int
    distractors_escalated: int
    distractor_escalation_rate: float | None
    distractor_escalation_rate_low: float | None
    distractor_escalation_rate_high: float | None
    enough_trials: bool
    d_prime: float | None
    d_prime_low: float | None
    d_prime_high: float | None
    criterion_c: float | None
    criterion_c_low: float | None
    criterion_c_high: float | None
    a_prime: float | None
    a_prime_low: float | None
    a_prime_high: float | None
    median_time_to_detect: float | None
    time_to_detect_trials: int
    median_wall_time_to_detect: float | None
    wall_time_to_detect_trials: int
    mean_score: float | None
    d_prime_reliability: float | None
    more_trials_needed: int | None
    score_reliability: float | None
    score_more_trials_needed: int | None
    warnings: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """A flat JSON-ready dict of every field (``warnings`` a list)."""
        return _as_dict(self) | {"warnings": list(self.warnings)}


@dataclass(frozen=True)
class DrillStats:
    """One drill's figures over its trials (each trainee's first attempt at it in the counted modes).

    ``sessions``, ``replays``, ``trials``, ``abandoned``, ``abandoned_apart`` and ``chosen`` as per trainee;
    ``all_clear``: the drill was only played as noise. ``difficulty``: ``correct`` (hits and correct rejections) /
    trials, with its 95% Wilson interval (higher is easier). ``discrimination``: point-biserial correlation of a
    trial being correct with the trainee's rest score (mean score on their other trials); None when it cannot be
    computed (under 3 trials with a rest score, or all correct / all wrong), with its 95% interval by Fisher's z
    (``discrimination_low``, ``discrimination_high``) and ``discrimination_trials``, the trials with a rest score it
    rests on. ``distractor_pulls``: escalations
    pulled per distractor event id, most first. Times are seconds of drill time (and of real time), each median with
    the trials it is the median of (``time_to_detect_trials``, ``wall_time_to_detect_trials``), as per trainee.
    """

    drill_id: str
    all_clear: bool
    sessions: int
    replays: int
    trials: int
    trainees: int
    abandoned: int
    abandoned_apart: int
    chosen: int
    correct: int
    difficulty: float | None
    difficulty_low: float | None
    difficulty_high: float | None
    discrimination: float | None
    discrimination_low: float | None
    discrimination_high: float | None
    discrimination_trials: int
    median_time_to_detect: float | None
    time_to_detect_trials: int
    median_wall_time_to_detect: float | None
    wall_time_to_detect_trials: int
    distractor_pulls: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of every field (``distractor_pulls`` stays a dict: JSON-encode it for CSV)."""
        return _as_dict(self) | {"distractor_pulls": dict(self.distractor_pulls)}


@dataclass(frozen=True)
class Reliability:
    """The cohort's split-half reliability of one ``measure`` (``d_prime``, the headline, or ``mean_score``).

    Each trainee's trials in time order are split odd/even and the measure taken on each half; ``split_half_r`` is
    Pearson's r across the ``trainees`` that qualify (d′: each half with at least 5 signal and 2 noise trials; mean
    score: each half with a trial); ``half_trials`` the harmonic mean of the halves' numbers of trials;
    ``reliability`` the Spearman–Brown correction to the whole length (``2 * half_trials`` trials);
    ``trials_needed`` the trials that reach ``target``. ``status``: ``estimated``; ``too_few`` (fewer than 5
    trainees qualify: nothing is estimated); ``too_weak`` (r below 0.2 or undefined: r is shown, nothing is
    projected from it).
    """

    measure: str
    status: str
    trainees: int
    split_half_r: float | None
    half_trials: float | None
    reliability: float | None
    trials_needed: int | None
    target: float = measures.TARGET_RELIABILITY

    def to_dict(self) -> dict[str, Any]:
        """A flat JSON- and CSV-ready dict of every field."""
        return _as_dict(self)


@dataclass(frozen=True)
class CohortStats:
    """The cohort statistics: trainees and drills sorted by name, the split-half reliability of d′ and of the mean
    score, how many sessions the ``modes`` filter left out (``skipped_by_mode``), and the counts every figure rests
    on in all (``replays``, ``abandoned``, ``abandoned_apart``, ``chosen``, ``approximated``)."""

    trainees: list[TraineeStats]
    drills: list[DrillStats]
    d_prime_reliability: Reliability
    score_reliability: Reliability
    skipped_by_mode: int = 0

    @property
    def trials(self) -> int:
        return sum(t.trials for t in self.trainees)

    @property
    def replays(self) -> int:
        return sum(t.replays for t in self.trainees)

    @property
    def abandoned(self) -> int:
        return sum(t.abandoned for t in self.trainees)

    @property
    def abandoned_apart(self) -> int:
        return sum(t.abandoned_apart for t in self.trainees)

    @property
    def chosen(self) -> int:
        """First attempts whose trial was chosen, not drawn (``warroom run --as`` / ``--seed``): no trial."""
        return sum(t.chosen for t in self.trainees)

    @property
    def approximated(self) -> int:
        return sum(t.approximated for t in self.trainees)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the totals, the minimums, ``trainees`` and ``drills`` (lists of dicts), both
        reliabilities and ``skipped_by_mode``."""
        return {
            "trials": self.trials,
            "replays": self.replays,
            "abandoned": self.abandoned,
            "abandoned_apart": self.abandoned_apart,
            "chosen": self.chosen,
            "approximated": self.approximated,
            "minimums": {
                "confidence": measures.CONFIDENCE,
                "signal_trials": measures.MIN_SIGNAL_TRIALS,
                "noise_trials": measures.MIN_NOISE_TRIALS,
                "distinct_controls": measures.MIN_DISTINCT_CONTROLS,
                "reliability_trainees": measures.MIN_RELIABILITY_TRAINEES,
                "half_signal_trials": measures.MIN_HALF_SIGNAL,
                "half_noise_trials": measures.MIN_HALF_NOISE,
                "prophecy_r": measures.MIN_PROPHECY_R,
            },
            "trainees": [t.to_dict() for t in self.trainees],
            "drills": [d.to_dict() for d in self.drills],
            "d_prime_reliability": self.d_prime_reliability.to_dict(),
            "score_reliability": self.score_reliability.to_dict(),
            "skipped_by_mode": self.skipped_by_mode,
        }
