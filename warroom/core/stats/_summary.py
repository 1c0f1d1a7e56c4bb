"""Cohort statistics: what a facilitator needs to judge detection, per trainee and per drill.

Input: one :class:`~warroom.core.stats.SessionFacts` per stored session (the CLI builds them from the results
store). Output of :func:`summarize`: a :class:`CohortStats` with a :class:`TraineeStats` per trainee, a
:class:`DrillStats` per drill and the cohort's :class:`Reliability`. The formulas are in
:mod:`warroom.core.stats._measures`; docs/sessions.md ("Cohort statistics") states each with its source.

Rules every figure follows:

- **Abandoned sessions are counted apart** (``abandoned`` per trainee and per drill) and take part in nothing else:
  never a miss, never a zero score.
- A drill with a fault is a signal trial: a **hit** is containing the incident on time (outcome ``contained``);
  contained late, wrong step, false alarm and missed are misses. An all-clear control drill is a noise trial: any
  outcome but ``all_clear_held`` is a **false alarm**.
- A session is **correct** when it is a hit (drill with a fault) or held the all clear (all-clear drill); a drill's
  difficulty is its share of correct sessions, as in classical item analysis.
- ``modes`` filters sessions before anything is counted (cohort statistics use assessment sessions unless asked
  otherwise: pass ``modes={"assessment"}``).

The sessions are grouped by trainee and by drill in one pass; every figure is then a pass over a group, and the
rest scores come from one step per (trainee, drill) pair. The only super-linear work is sorting each trainee's
sessions by start time (for the odd/even split) and each median's values: O(n log n) at worst, with small
constants (benchmarks/bench_stats.py: 100,000 sessions).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from warroom.core.model import Outcome
from warroom.core.stats._facts import CORRECT, SessionFacts
from warroom.core.stats._measures import (
    TARGET_RELIABILITY,
    a_prime,
    d_prime_and_c,
    median_or_none,
    pearson_r,
    point_biserial,
    rate,
    sessions_needed,
    spearman_brown,
)


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


# ---------------------------------------------------------------------------------------------------------------
# Building the summary
# ---------------------------------------------------------------------------------------------------------------


def summarize(
    facts: Iterable[SessionFacts], *, modes: Collection[str] | None = None, target: float = TARGET_RELIABILITY
) -> CohortStats:
    """Per-trainee and per-drill statistics of ``facts`` (any order), and the cohort's reliability.

    ``modes``: count only sessions whose ``mode`` is in it (None: every session); the others are only counted in
    ``skipped_by_mode``. ``target``: the reliability ``more_sessions_needed`` aims at (0 < target < 1). Trainees
    and drills come sorted by name. Raises ValueError for a target outside 0..1 (exclusive).
    """
    if not 0.0 < target < 1.0:
        raise ValueError(f"a target reliability must be between 0 and 1, not {target!r}")
    all_facts = list(facts)
    kept = all_facts if modes is None else [f for f in all_facts if f.mode in modes]
    by_trainee: defaultdict[str, list[SessionFacts]] = defaultdict(list)
    by_drill: defaultdict[str, list[SessionFacts]] = defaultdict(list)
    for f in kept:  # in input order; each trainee's list is sorted by start time below (stable)
        by_trainee[f.trainee].append(f)
        by_drill[f.drill_id].append(f)
    played = {name: _played(fs) for name, fs in by_trainee.items()}
    reliability, needed = _reliability(played.values(), target)
    responses = _drill_responses(played)
    return CohortStats(
        trainees=[
            _trainee_stats(name, by_trainee[name], played[name], reliability, needed) for name in sorted(by_trainee)
        ],
        drills=[_drill_stats(name, by_drill[name], responses.get(name, [])) for name in sorted(by_drill)],
        reliability=reliability,
        skipped_by_mode=len(all_facts) - len(kept),
    )


def _played(sessions: list[SessionFacts]) -> list[SessionFacts]:
    """A trainee's sessions that were not abandoned, in start-time order; ties in session-id order (then the input
    order), as the store's split-half query orders them."""
    live = [f for f in sessions if f.outcome is not Outcome.ABANDONED]
    live.sort(key=_started_at)
    return live


_started_at = attrgetter("started_at", "session_id")
_drill_id = attrgetter("drill_id")


def ceil_sessions(x: float) -> int:
    """Round a session count up, forgiving float noise (59.000000001 is 59)."""
    return max(0, math.ceil(x - 1e-9))


def _reliability(played: Iterable[list[SessionFacts]], target: float) -> tuple[Reliability, float | None]:
    """The cohort's odd/even split-half reliability, and the exact (unrounded) sessions needed for ``target``."""
    odd: list[float] = []
    even: list[float] = []
    sizes: list[int] = []
    for live in played:
        if len(live) < 2:
            continue
        a, b = live[0::2], live[1::2]
        odd.append(sum(f.score for f in a) / len(a))
        even.append(sum(f.score for f in b) / len(b))
        sizes += (len(a), len(b))
    return reliability_of(odd, even, sizes, target)


def reliability_of(
    odd: list[float], even: list[float], sizes: list[int], target: float
) -> tuple[Reliability, float | None]:
    """The split-half reliability of the trainees' mean scores over odd and even sessions (``odd``, ``even``: one
    per trainee; ``sizes``: every half's session count) and the exact sessions needed for ``target`` (or None)."""
    r = pearson_r(odd, even)
    half = len(sizes) / math.fsum(1 / s for s in sizes) if sizes else None
    if r is None or r <= 0 or half is None:
        return Reliability(len(odd), r, half, None, None, target), None
    needed = sessions_needed(r, half, target)
    assert needed is not None  # r > 0
    return Reliability(len(odd), r, half, spearman_brown(r, 2), ceil_sessions(needed), target), needed


def _trainee_stats(
    name: str, sessions: list[SessionFacts], live: list[SessionFacts], rel: Reliability, needed: float | None
) -> TraineeStats:
    fault = [f for f in live if f.is_fault_drill]
    clear = [f for f in live if not f.is_fault_drill]
    hits = sum(f.outcome is Outcome.CONTAINED for f in fault)
    false_alarms = sum(f.outcome is not Outcome.ALL_CLEAR_HELD for f in clear)
    shown = sum(f.distractors_shown for f in live)
    escalated = sum(len(set(f.distractor_escalations)) for f in live if f.distractor_escalations)
    hit_rate, fa_rate = rate(hits, len(fault)), rate(false_alarms, len(clear))
    sdt = d_prime_and_c(hits, len(fault), false_alarms, len(clear))
    n = len(live)
    reliability = more = None
    if needed is not None and rel.split_half_r is not None and rel.half_sessions and n:
        reliability = spearman_brown(rel.split_half_r, n / rel.half_sessions)
        more = ceil_sessions(needed - n)
    return TraineeStats(
        trainee=name,
        sessions=n,
        abandoned=len(sessions) - n,
        fault_sessions=len(fault),
        hits=hits,
        hit_rate=hit_rate,
        all_clear_sessions=len(clear),
        false_alarms=false_alarms,
        false_alarm_rate=fa_rate,
        false_escalations_per_all_clear=sum(f.false_escalations for f in clear) / len(clear) if clear else None,
        distractors_shown=shown,
        distractors_escalated=escalated,
        distractor_escalation_rate=rate(escalated, shown),
        d_prime=None if sdt is None else sdt[0],
        criterion_c=None if sdt is None else sdt[1],
        a_prime=None if hit_rate is None or fa_rate is None else a_prime(hit_rate, fa_rate),
        median_time_to_detect=median_or_none([f.time_to_detect_s for f in live]),
        median_wall_time_to_detect=median_or_none([f.wall_time_to_detect_s for f in live]),
        mean_score=sum(f.score for f in live) / n if n else None,
        reliability=reliability,
        more_sessions_needed=more,
    )


def _drill_responses(played: dict[str, list[SessionFacts]]) -> dict[str, list[tuple[int, int, float]]]:
    """Per drill id, the groups its discrimination correlates: for each trainee who played it and some other drill,
    ``(sessions, correct sessions, rest score)``, the rest score being the trainee's mean score on the other drills
    (one value for all their sessions of this drill). One pass over the sessions, then one step per pair."""
    out: defaultdict[str, list[tuple[int, int, float]]] = defaultdict(list)
    for live in played.values():
        own_total: defaultdict[str, float] = defaultdict(float)
        for f in live:
            own_total[f.drill_id] += f.score
        own_n = Counter(map(_drill_id, live))
        correct = Counter(f.drill_id for f in live if f.outcome is CORRECT[f.is_fault_drill])
        total, n = sum(own_total.values()), len(live)
        for drill, k in own_n.items():
            if n > k:
                out[drill].append((k, correct[drill], (total - own_total[drill]) / (n - k)))
    return out


def _drill_stats(name: str, sessions: list[SessionFacts], responses: list[tuple[int, int, float]]) -> DrillStats:
    """One drill's figures; ``responses`` are its (sessions, correct, rest score) groups from
    :func:`_drill_responses`."""
    live = [f for f in sessions if f.outcome is not Outcome.ABANDONED]
    correct = sum(f.outcome is CORRECT[f.is_fault_drill] for f in live)
    pulls = Counter(e for f in live for e in f.distractor_escalations)
    return DrillStats(
        drill_id=name,
        all_clear=not any(f.is_fault_drill for f in sessions),
        sessions=len(live),
        trainees=len({f.trainee for f in live}),
        abandoned=len(sessions) - len(live),
        difficulty=rate(correct, len(live)),
        discrimination=point_biserial(responses),
        median_time_to_detect=median_or_none([f.time_to_detect_s for f in live]),
        median_wall_time_to_detect=median_or_none([f.wall_time_to_detect_s for f in live]),
        distractor_pulls=dict(sorted(pulls.items(), key=lambda kv: (-kv[1], kv[0]))),
    )
