"""A trainee's progress over their sessions: the cohort statistics' figures for this trainee as they stood after
each counted session (:func:`warroom.core.stats.summarize` of the sessions up to it: one definition of every
figure, the one ``warroom scores summary`` uses), and their hits and false alarms by fault kind.

Which sessions count is chosen as ``warroom scores summary --trainee NAME`` chooses it
(:func:`warroom.store.cohort.counted_modes`: the trainee's assessment sessions once they have any, else all); the
tutorial's never count. Every rate keeps its counts: ``3 of 4``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from warroom.core.stats import attempt_order, summarize

#: The most recent sessions a progress series follows (older ones still count in every figure).
MOST_POINTS = 300
#: The fault kind shown for an all-clear control drill (a noise trial: only false alarms are possible).
ALL_CLEAR = "all-clear (no fault)"


@dataclass(frozen=True)
class Point:
    """The trainee's figures after their ``n``-th counted session (started ``started_at``, drill ``drill_id``):
    the :class:`~warroom.core.stats.TraineeStats` of the sessions so far, and this session's own score, outcome and
    time to detect (drill seconds, None: nothing detected)."""

    n: int
    started_at: str
    drill_id: str
    session_id: str
    stats: Any
    score: float
    outcome: str
    time_to_detect: float | None


@dataclass(frozen=True)
class KindCounts:
    """Hits and false alarms on one fault kind: the signal trials of drills with that fault (``signal``) and their
    ``hits``; for :data:`ALL_CLEAR`, the noise trials (``noise``) and their ``false_alarms`` (quit ones too), as the
    hit and false-alarm rates count them."""

    kind: str
    signal: int = 0
    hits: int = 0
    noise: int = 0
    false_alarms: int = 0


@dataclass(frozen=True)
class Progress:
    """A trainee's progress: the counted ``label`` (assessment, practice or all), the ``points`` in session order,
    the figures over every counted session (``overall``), the ``by_kind`` counts, and how many sessions were left
    out as of another mode (``left_out``)."""

    trainee: str
    label: str
    points: list[Point]
    overall: Any
    by_kind: list[KindCounts] = field(default_factory=list)
    left_out: int = 0


def progress(
    trainee: str,
    facts: Sequence[Any],
    fault_kind: Callable[[str], str | None],
    within: Callable[[Any], bool] | None = None,
) -> Progress:
    """The :class:`Progress` of ``trainee`` from their :class:`~warroom.core.stats.SessionFacts` (any order;
    those of other trainees are ignored). ``fault_kind(drill_id)`` names a drill's fault kind (None when unknown).
    ``within`` keeps the sessions that may count (None: all; the sessions that are not verified are left out by
    it): as in ``warroom scores summary``, each drill's first attempt is found among all of the trainee's sessions,
    of any mode and verified or not, so a drill practised before its assessment is a replay in the assessment's
    figures (they were looked for among the counted mode's sessions only: the practised drill counted as a trial)."""
    from warroom.store.cohort import counted_modes

    mine = sorted((f for f in facts if f.trainee == trainee), key=attempt_order)  # (the order of the first attempts)
    shown = [i for i, f in enumerate(mine) if within is None or within(f)]
    counted = counted_modes([mine[i] for i in shown])
    at = [i for i in shown if counted.modes is None or mine[i].mode in counted.modes]
    points = []
    for n in range(max(len(at) - MOST_POINTS, 0), len(at)):
        f = mine[at[n]]
        stats = _of(summarize(mine[: at[n] + 1], modes=counted.modes, within=within), trainee)
        points.append(Point(n + 1, f.started_at, f.drill_id, f.session_id, stats, f.score, str(f.outcome),
                            f.time_to_detect_s))  # fmt: skip
    overall = _of(summarize(mine, modes=counted.modes, within=within), trainee) if at else None
    kinds = by_fault_kind(mine, fault_kind, counted.modes, within) if at else []
    return Progress(trainee, counted.label, points, overall, kinds, len(shown) - len(at))


def _of(stats: Any, trainee: str) -> Any:
    return next((t for t in stats.trainees if t.trainee == trainee), None)


def by_fault_kind(
    facts: Sequence[Any],
    fault_kind: Callable[[str], str | None],
    modes: Any = None,
    within: Callable[[Any], bool] | None = None,
) -> list[KindCounts]:
    """Hits per fault kind (signal trials) and false alarms on all-clear drills (noise trials: a fault drill's twin
    too), sorted by kind (all-clear last): the trials and responses the hit and false-alarm rates count
    (:func:`~warroom.core.stats.count_facts` of ``facts`` with ``modes`` and ``within``), so the bars add up to
    them. Each drill's first attempt only (replays take part in no figure), a hit the trial's response (a drill
    contained after a wrong escalation is a localisation error), a noise trial quit counted with the false alarms,
    an abandoned assessment with its response; no session whose trial was chosen (``warroom run --as``/``--seed``).
    It counted every played session, replays too, a hit as any containment and no abandoned session: the bars
    contradicted the rates beside them."""
    from warroom.core.stats import count_facts

    tally: dict[str, list[int]] = {}
    for (_, drill_id), pair in sorted(count_facts(facts, modes=modes, within=within).pairs.items()):
        if pair.signal:
            counts = tally.setdefault(fault_kind(drill_id) or "unknown kind", [0, 0, 0, 0])
            counts[0] += pair.signal
            counts[1] += pair.hits
        if pair.noise:
            counts = tally.setdefault(ALL_CLEAR, [0, 0, 0, 0])
            counts[2] += pair.noise
            counts[3] += pair.against
    order = sorted(tally, key=lambda k: (k == ALL_CLEAR, k))
    return [KindCounts(k, *tally[k]) for k in order]
