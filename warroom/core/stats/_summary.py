"""The cohort statistics of sessions held in memory: :func:`summarize` counts one
:class:`~warroom.core.stats.SessionFacts` per session into the :class:`~warroom.core.stats.CohortCounts` that the
results store counts in SQL, and :func:`~warroom.core.stats.stats_from_counts` computes the figures from them (one
computation for both).

Rules every figure follows (docs/sessions.md, "Cohort statistics"):

- **Abandoned sessions are counted apart** (``abandoned`` per trainee and per drill) and take part in nothing else:
  never a miss, never a zero score.
- A drill with a fault is a signal trial: a **hit** is containing the incident on time (outcome ``contained``);
  contained late, wrong step, false alarm and missed are misses. An all-clear control drill is a noise trial: any
  outcome but ``all_clear_held`` is a **false alarm**.
- A session is **correct** when it is a hit (drill with a fault) or held the all clear (all-clear drill); a drill's
  difficulty is its share of correct sessions, as in classical item analysis.
- ``modes`` filters sessions before anything is counted (cohort statistics use assessment sessions unless asked
  otherwise: pass ``modes={"assessment"}``).

One pass over the sessions fills the counts; the only super-linear work is sorting each trainee's played sessions
by start time (the split-half order) and each median's values (benchmarks/bench_stats.py: 100,000 sessions).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Iterable
from operator import attrgetter
from statistics import median

from warroom.core.model import Outcome
from warroom.core.stats._counts import CohortCounts, PairCounts, stats_from_counts
from warroom.core.stats._facts import SessionFacts
from warroom.core.stats._figures import CohortStats
from warroom.core.stats._measures import TARGET_RELIABILITY

#: The split-half order: start time, ties in session-id order (then the input order), as the store orders them.
_started_at = attrgetter("started_at", "session_id")


def summarize(
    facts: Iterable[SessionFacts], *, modes: Collection[str] | None = None, target: float = TARGET_RELIABILITY
) -> CohortStats:
    """Per-trainee and per-drill statistics of ``facts`` (any order), and the cohort's reliability.

    ``modes``: count only sessions whose ``mode`` is in it (None: every session); the others are only counted in
    ``skipped_by_mode``. ``target``: the reliability ``more_sessions_needed`` aims at (0 < target < 1). Trainees
    and drills come sorted by name. Raises ValueError for a target outside 0..1 (exclusive).
    """
    return stats_from_counts(count_facts(facts, modes=modes), target=target)


def count_facts(facts: Iterable[SessionFacts], *, modes: Collection[str] | None = None) -> CohortCounts:
    """The :class:`CohortCounts` of ``facts`` (those of ``modes`` only; None: every session): what the store's SQL
    counts, counted in process."""
    counts = CohortCounts()
    played: defaultdict[str, list[SessionFacts]] = defaultdict(list)
    for f in facts:
        if modes is not None and f.mode not in modes:
            counts.skipped_by_mode += 1
            continue
        pair = counts.pairs.get((f.trainee, f.drill_id))
        if pair is None:
            pair = counts.pairs[f.trainee, f.drill_id] = PairCounts()
        _add(pair, f)
        if f.outcome is not Outcome.ABANDONED:
            played[f.trainee].append(f)
            if f.distractor_escalations:
                counts.pulls.setdefault(f.drill_id, Counter()).update(f.distractor_escalations)
    for trainee, live in played.items():
        live.sort(key=_started_at)
        odd, even = live[0::2], live[1::2]
        counts.halves[trainee] = (len(odd), sum(f.score for f in odd), len(even), sum(f.score for f in even))
    _medians(played, counts)
    return counts


def _add(pair: PairCounts, f: SessionFacts) -> None:
    """Count one session into its (trainee, drill) pair."""
    pair.sessions += 1
    pair.any_fault = pair.any_fault or f.is_fault_drill
    if f.outcome is Outcome.ABANDONED:
        pair.abandoned += 1
        return
    if f.is_fault_drill:
        pair.fault += 1
        pair.hits += f.outcome is Outcome.CONTAINED
    else:
        pair.clear += 1
        pair.false_alarms += f.outcome is not Outcome.ALL_CLEAR_HELD
        pair.clear_false_escalations += f.false_escalations
    pair.shown += f.distractors_shown
    pair.escalated += len(set(f.distractor_escalations))
    pair.score_sum += f.score


def _medians(played: dict[str, list[SessionFacts]], counts: CohortCounts) -> None:
    """The medians of time to detect (drill and wall seconds) per trainee and per drill, over the played sessions."""
    values: dict[tuple[str, str], defaultdict[str, list[float]]] = {
        key: defaultdict(list)
        for key in (("trainee", "ttd"), ("trainee", "wall_ttd"), ("drill", "ttd"), ("drill", "wall_ttd"))
    }
    for trainee, live in played.items():
        for f in live:
            if f.time_to_detect_s is not None:
                values["trainee", "ttd"][trainee].append(f.time_to_detect_s)
                values["drill", "ttd"][f.drill_id].append(f.time_to_detect_s)
            if f.wall_time_to_detect_s is not None:
                values["trainee", "wall_ttd"][trainee].append(f.wall_time_to_detect_s)
                values["drill", "wall_ttd"][f.drill_id].append(f.wall_time_to_detect_s)
    counts.medians.update({key: {name: median(v) for name, v in groups.items()} for key, groups in values.items()})
