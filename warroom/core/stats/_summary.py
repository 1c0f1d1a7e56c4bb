"""The cohort statistics of sessions held in memory: :func:`summarize` finds each (trainee, drill) pair's first
attempt among :class:`~warroom.core.stats.SessionFacts` (:func:`first_attempts`), as the results store does in SQL,
and :func:`~warroom.core.stats.stats_from_counts` computes the figures from their counts (one computation for
both; the rules every figure follows are in :mod:`warroom.core.stats._counts`).

- ``modes`` filters sessions before anything is counted (cohort statistics use assessment sessions unless asked
  otherwise: pass ``modes={"assessment"}``); the first attempt is the first session of the pair in any mode, a
  trial only when it is of those modes (a drill practised before its first assessment session has replays only).
- ``within`` (a predicate) says which sessions the other filters keep (``--since``, ``--set``): the first attempt
  is still found among all the sessions given, so a drill first played outside the filters is a replay in them.

One pass over the sessions finds the first attempts; the only super-linear work is sorting each trainee's trials by
start time (the split-half order) and each median's values (benchmarks/bench_stats.py: 100,000 sessions).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable

from warroom.core.stats._counts import CohortCounts, FirstAttempt, count_first_attempts, stats_from_counts
from warroom.core.stats._facts import SessionFacts, attempt_order
from warroom.core.stats._figures import CohortStats
from warroom.core.stats._measures import TARGET_RELIABILITY


def summarize(
    facts: Iterable[SessionFacts],
    *,
    modes: Collection[str] | None = None,
    within: Callable[[SessionFacts], bool] | None = None,
    target: float = TARGET_RELIABILITY,
) -> CohortStats:
    """Per-trainee and per-drill statistics of ``facts`` (any order), and the cohort's reliabilities.

    ``modes``: count only sessions whose ``mode`` is in it (None: every session); the others are only counted in
    ``skipped_by_mode``. ``within``: the sessions the other filters keep (None: all). ``target``: the reliability
    ``more_trials_needed`` aims at (0 < target < 1). Trainees and drills come sorted by name. Raises ValueError for
    a target outside 0..1 (exclusive).
    """
    return stats_from_counts(count_facts(facts, modes=modes, within=within), target=target)


def count_facts(
    facts: Iterable[SessionFacts],
    *,
    modes: Collection[str] | None = None,
    within: Callable[[SessionFacts], bool] | None = None,
) -> CohortCounts:
    """The :class:`CohortCounts` of ``facts`` (see :func:`summarize`): what the store's SQL counts, counted in
    process."""
    attempts, skipped = first_attempts(facts, modes=modes, within=within)
    return count_first_attempts(attempts, skipped)


def first_attempts(
    facts: Iterable[SessionFacts],
    *,
    modes: Collection[str] | None = None,
    within: Callable[[SessionFacts], bool] | None = None,
) -> tuple[list[FirstAttempt], int]:
    """Each (trainee, drill) pair's :class:`FirstAttempt`: its first session in **any** mode (the first the store
    stored, :func:`~warroom.core.stats._facts.attempt_order`; ties in the input order), a trial only when its mode is
    one of ``modes`` (None: every mode) and ``within`` keeps it, with the pair's sessions of ``modes`` that
    ``within`` keeps; and the number of sessions (kept by ``within``) of the modes left out. A pair first played in
    another mode (a drill practised before its assessment) has replays only: its sessions of ``modes`` were played
    knowing the debrief. A first session that cannot be counted (``countable`` False) is no trial either: the
    pair's sessions are replays."""
    first: dict[tuple[str, str], SessionFacts] = {}
    kept: dict[tuple[str, str], int] = {}
    skipped = 0
    for f in facts:
        keep = f.countable and (within is None or within(f))
        key = (f.trainee, f.drill_id)
        now = first.get(key)
        if now is None or attempt_order(f) < attempt_order(now):
            first[key] = f
        if modes is not None and f.mode not in modes:
            skipped += keep
            kept.setdefault(key, 0)
            continue
        kept[key] = kept.get(key, 0) + keep
    attempts = [
        FirstAttempt(f, kept[key], f.countable and (within is None or within(f)) and (modes is None or f.mode in modes))
        for key, f in first.items()
    ]
    return attempts, skipped
