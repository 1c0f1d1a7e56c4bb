"""The adaptive chooser of a drill set (docs/drill-sets.md, "Adaptive sets"): the next drill for a trainee from the
set's pool (:func:`choose_next`), a pure function of the trainee's record in the set and the set's seed. The set's
model and loader are in :mod:`warroom.core.load` (``DrillSet``, ``load_drill_set``)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from warroom.core.load import Adaptive


@dataclass(frozen=True)
class Candidate:
    """A drill the chooser may pick: its id, difficulty (1-5) and fault kind (None: an all-clear control)."""

    drill_id: str
    difficulty: int
    fault_kind: str | None


@dataclass(frozen=True)
class Attempt:
    """One session of the trainee's record, oldest first: the drill (as a :class:`Candidate`), whether the trainee
    detected the fault on time (contained on time; for a control: held the all clear) and whether it was abandoned."""

    drill: Candidate
    detected: bool
    abandoned: bool = False


#: How far one result moves the trainee's level (a difficulty): up after a detection, down after a miss.
LEVEL_STEP = 0.5


def trainee_level(record: Sequence[Attempt], start_level: float) -> float:
    """The trainee's level, a difficulty from 1 to 5: ``start_level`` moved up :data:`LEVEL_STEP` for each fault
    drill detected on time and down as much for each missed, in order, kept within 1..5 (a one-up, one-down
    staircase). Controls and abandoned sessions do not move it."""
    level = start_level
    for attempt in record:
        if attempt.abandoned or attempt.drill.fault_kind is None:
            continue
        level = min(5.0, max(1.0, level + (LEVEL_STEP if attempt.detected else -LEVEL_STEP)))
    return level


def _weight(c: Candidate, level: float, missed: Mapping[str, int], played: Mapping[str, int]) -> float:
    """A fault drill's weight: ``1 / (1 + |difficulty - level|)²`` (near the trainee's level), times
    ``1 + 2 x misses`` of its fault kind (the kinds they miss), divided by ``1 + plays / 2`` (drills played less)."""
    near = 1.0 / (1.0 + abs(c.difficulty - level)) ** 2
    return near * (1 + 2 * missed.get(c.fault_kind or "", 0)) / (1 + 0.5 * played.get(c.drill_id, 0))


def choose_next(
    pool: Sequence[Candidate],
    record: Sequence[Attempt],
    adaptive: Adaptive,
    *,
    trainee: str,
    played_in_set: int,
    available: Iterable[str] | None = None,
) -> Candidate | None:
    """The next drill for ``trainee`` in an adaptive set, or None when the set is done (``played_in_set`` reached
    ``adaptive.length``) or no drill is ``available`` (ids; None: the whole pool).

    ``record`` is the trainee's sessions on the pool's drills, oldest first. The choice draws from a generator seeded
    with (``adaptive.seed``, ``trainee``, ``played_in_set``), so the same record always gives the same drill: with
    probability ``all_clear_rate`` an all-clear control (uniformly), else a fault drill weighted by
    :func:`_weight` (closeness to :func:`trainee_level`, misses of its fault kind, fewer plays). When the group
    drawn has no drill available, the other group is used.
    """
    if played_in_set >= adaptive.length:
        return None
    allowed = {c.drill_id for c in pool} if available is None else set(available)
    candidates = [c for c in pool if c.drill_id in allowed]
    if not candidates:
        return None
    rng = random.Random(f"{adaptive.seed}:{trainee}:{played_in_set}")
    controls = [c for c in candidates if c.fault_kind is None]
    faults = [c for c in candidates if c.fault_kind is not None]
    want_control = rng.random() < adaptive.all_clear_rate
    if (want_control and controls) or not faults:
        return controls[rng.randrange(len(controls))]
    level = trainee_level(record, adaptive.start_level)
    played = Counter(a.drill.drill_id for a in record)
    missed = Counter(a.drill.fault_kind for a in record if a.drill.fault_kind is not None and not a.abandoned
                     and not a.detected)
    weights = [_weight(c, level, missed, played) for c in faults]
    return rng.choices(faults, weights=weights, k=1)[0]
