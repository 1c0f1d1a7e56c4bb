"""The cohort statistics, computed once, from counts: :func:`stats_from_counts` turns per-(trainee, drill) counts
into the :class:`~warroom.core.stats.CohortStats`. The counts come from the results store's SQL (``warroom scores
summary`` and ``warroom report`` on a store of a million sessions) or from one
:class:`~warroom.core.stats.SessionFacts` per session (:func:`~warroom.core.stats.summarize`): every figure is
computed here, whichever did the counting.

Every figure needs only these counts (docs/sessions.md, "Cohort statistics"):

- per (trainee, drill) pair, a :class:`PairCounts`: sessions, abandoned ones, the played sessions of drills with a
  fault and their hits, the played all-clear sessions and their false alarms and false escalations, distractors
  shown and distinct distractors escalated, the sum of the played sessions' scores. d′, c and A′ of a trainee need
  only the sums of hits, misses, false alarms and correct rejections; a drill's discrimination needs only each
  trainee's sessions, correct sessions and score sum on that drill and on all drills (the rest score);
- per drill, the escalations each distractor event pulled;
- the medians of time to detect (drill and wall seconds) per trainee and per drill;
- per trainee, the count and score sum of their played sessions at odd and at even places in start-time order
  (the split-half reliability).

Only played (not abandoned) sessions enter a figure; abandoned ones are only counted. Counts are of the sessions
the caller chose (the counted modes).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from warroom.core.stats._figures import CohortStats, DrillStats, Reliability, TraineeStats
from warroom.core.stats._measures import (
    TARGET_RELIABILITY,
    a_prime,
    d_prime_and_c,
    pearson_r,
    point_biserial,
    rate,
    sessions_needed,
    spearman_brown,
)


@dataclass(slots=True)
class PairCounts:
    """The counts of one trainee's sessions of one drill (played: not abandoned). Scores are totals (0..100)."""

    sessions: int = 0
    abandoned: int = 0
    fault: int = 0  # played sessions of a drill with a fault
    hits: int = 0  # of those, contained on time
    clear: int = 0  # played sessions of an all-clear drill
    false_alarms: int = 0  # of those, any outcome but the all clear held
    clear_false_escalations: int = 0  # false escalations in the played all-clear sessions
    shown: int = 0  # distractors shown in played sessions
    escalated: int = 0  # distinct distractors escalated, summed over played sessions
    score_sum: float = 0  # of the played sessions
    any_fault: bool = False  # some session (abandoned ones too) was of a drill with a fault

    @property
    def played(self) -> int:
        return self.fault + self.clear

    @property
    def correct(self) -> int:
        """Hits plus all-clear drills held."""
        return self.hits + self.clear - self.false_alarms


@dataclass
class CohortCounts:
    """Everything :func:`stats_from_counts` needs (see the module docstring). ``medians`` maps ``(scope, figure)``
    (scope ``trainee`` or ``drill``, figure ``ttd`` or ``wall_ttd``) to name -> median seconds (a name without a
    value has no median). ``halves`` maps a trainee to ``(odd count, odd score sum, even count, even score sum)``
    of their played sessions in start-time order (first, third... and second, fourth...)."""

    pairs: dict[tuple[str, str], PairCounts] = field(default_factory=dict)
    pulls: dict[str, Counter[str]] = field(default_factory=dict)
    medians: dict[tuple[str, str], dict[str, float]] = field(default_factory=dict)
    halves: dict[str, tuple[int, float, int, float]] = field(default_factory=dict)
    skipped_by_mode: int = 0


def _figures(c: PairCounts) -> tuple[int | float | bool, ...]:
    return (c.sessions, c.abandoned, c.fault, c.hits, c.clear, c.false_alarms, c.clear_false_escalations, c.shown,
            c.escalated, c.score_sum, c.any_fault)  # fmt: skip


def _sum(pairs: list[PairCounts]) -> PairCounts:
    """The counts of several pairs added up (column by column: this runs once per trainee and per drill)."""
    columns = list(zip(*map(_figures, pairs), strict=True))
    return PairCounts(*map(sum, columns[:-1]), any(columns[-1]))  # type: ignore[arg-type, call-arg]


def stats_from_counts(counts: CohortCounts, *, target: float = TARGET_RELIABILITY) -> CohortStats:
    """The :class:`CohortStats` of ``counts``: equal to :func:`~warroom.core.stats.summarize` of the sessions
    counted. Raises ValueError for a target outside 0..1 (exclusive) or counts that are not shares."""
    if not 0.0 < target < 1.0:
        raise ValueError(f"a target reliability must be between 0 and 1, not {target!r}")
    by_trainee: defaultdict[str, dict[str, PairCounts]] = defaultdict(dict)
    by_drill: defaultdict[str, dict[str, PairCounts]] = defaultdict(dict)
    for (trainee, drill), c in counts.pairs.items():
        by_trainee[trainee][drill] = c
        by_drill[drill][trainee] = c
    reliability, needed = _reliability(counts.halves, target)
    responses = _drill_responses(by_trainee)
    med = counts.medians
    trainees = []
    for name in sorted(by_trainee):
        total = _sum(list(by_trainee[name].values()))
        ttd = (med.get(("trainee", "ttd"), {}).get(name), med.get(("trainee", "wall_ttd"), {}).get(name))
        trainees.append(_trainee_stats(name, total, ttd, reliability, needed))
    drills = []
    for name in sorted(by_drill):
        ttd = (med.get(("drill", "ttd"), {}).get(name), med.get(("drill", "wall_ttd"), {}).get(name))
        drills.append(
            _drill_stats(name, by_drill[name], responses.get(name, []), counts.pulls.get(name, Counter()), ttd)
        )
    return CohortStats(trainees, drills, reliability, counts.skipped_by_mode)


def _reliability(halves: dict[str, tuple[int, float, int, float]], target: float) -> tuple[Reliability, float | None]:
    """The cohort's odd/even split-half reliability (trainees with 2 or more played sessions), and the exact
    (unrounded) sessions needed for ``target``."""
    odd: list[float] = []
    even: list[float] = []
    sizes: list[int] = []
    for n_odd, sum_odd, n_even, sum_even in halves.values():
        if n_odd + n_even < 2:
            continue
        odd.append(sum_odd / n_odd)
        even.append(sum_even / n_even)
        sizes += (n_odd, n_even)
    return reliability_of(odd, even, sizes, target)


def ceil_sessions(x: float) -> int:
    """Round a session count up, forgiving float noise (59.000000001 is 59)."""
    return max(0, math.ceil(x - 1e-9))


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
    name: str, c: PairCounts, ttd: tuple[float | None, float | None], rel: Reliability, needed: float | None
) -> TraineeStats:
    n = c.played
    hit_rate, fa_rate = rate(c.hits, c.fault), rate(c.false_alarms, c.clear)
    sdt = d_prime_and_c(c.hits, c.fault, c.false_alarms, c.clear)
    reliability = more = None
    if needed is not None and rel.split_half_r is not None and rel.half_sessions and n:
        reliability = spearman_brown(rel.split_half_r, n / rel.half_sessions)
        more = ceil_sessions(needed - n)
    return TraineeStats(
        trainee=name,
        sessions=n,
        abandoned=c.abandoned,
        fault_sessions=c.fault,
        hits=c.hits,
        hit_rate=hit_rate,
        all_clear_sessions=c.clear,
        false_alarms=c.false_alarms,
        false_alarm_rate=fa_rate,
        false_escalations_per_all_clear=c.clear_false_escalations / c.clear if c.clear else None,
        distractors_shown=c.shown,
        distractors_escalated=c.escalated,
        distractor_escalation_rate=rate(c.escalated, c.shown),
        d_prime=None if sdt is None else sdt[0],
        criterion_c=None if sdt is None else sdt[1],
        a_prime=None if hit_rate is None or fa_rate is None else a_prime(hit_rate, fa_rate),
        median_time_to_detect=ttd[0],
        median_wall_time_to_detect=ttd[1],
        mean_score=c.score_sum / n if n else None,
        reliability=reliability,
        more_sessions_needed=more,
    )


def _drill_responses(by_trainee: dict[str, dict[str, PairCounts]]) -> dict[str, list[tuple[int, int, float]]]:
    """Per drill, for each trainee who played it and some other drill: ``(sessions, correct, rest score)``, the rest
    score being the trainee's mean score on the other drills (classical item analysis)."""
    out: defaultdict[str, list[tuple[int, int, float]]] = defaultdict(list)
    for drills in by_trainee.values():
        rows = [
            (drill, c.fault + c.clear, c.hits + c.clear - c.false_alarms, c.score_sum)
            for drill, c in drills.items()
            if c.fault + c.clear
        ]
        total = float(sum(r[3] for r in rows))
        n = sum(r[1] for r in rows)
        for drill, k, correct, own in rows:
            if n > k:
                out[drill].append((k, correct, (total - own) / (n - k)))
    return out


def _drill_stats(
    name: str,
    pairs: dict[str, PairCounts],
    responses: list[tuple[int, int, float]],
    pulls: Counter[str],
    ttd: tuple[float | None, float | None],
) -> DrillStats:
    total = _sum(list(pairs.values()))
    return DrillStats(
        drill_id=name,
        all_clear=not total.any_fault,
        sessions=total.played,
        trainees=sum(1 for c in pairs.values() if c.fault or c.clear),
        abandoned=total.abandoned,
        difficulty=rate(total.correct, total.played),
        discrimination=point_biserial(responses),
        median_time_to_detect=ttd[0],
        median_wall_time_to_detect=ttd[1],
        distractor_pulls=dict(sorted(pulls.items(), key=lambda kv: (-kv[1], kv[0]))),
    )
