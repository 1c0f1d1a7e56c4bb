"""The cohort statistics, computed once, from counts: :func:`count_first_attempts` counts each (trainee, drill)
pair's first attempt into :class:`CohortCounts`, and :func:`stats_from_counts` turns them into the
:class:`~warroom.core.stats.CohortStats`. The first attempts come from the results store's SQL (``warroom scores
summary`` on a store of a million sessions) or from one :class:`~warroom.core.stats.SessionFacts` per session
(:func:`~warroom.core.stats.summarize`, ``warroom report``): every figure is computed here, whichever found them.

The rules every figure follows (docs/sessions.md, "Cohort statistics"):

- **One trial per item.** Per trainee and drill id, only the first attempt in the counted modes is a trial (the session
  the store stored first: :func:`~warroom.core.stats._facts.attempt_order`); later sessions of that drill (any variant,
  signal or noise) are **replays**: counted per trainee and per drill, never in a figure. The first attempt is found
  over every stored session of the counted modes, whatever the other filters (``--since``, ``--set``): a drill first
  played before the window is a replay in it.
- **The response decides.** A signal trial is a hit, a localisation error or a miss; a noise trial a false alarm, a
  correct rejection or abandoned (the trainee quit before the end without escalating).
- **Quitting is a response in assessment.** An abandoned assessment session counts with its response: on a signal
  trial a miss (or a localisation error when it escalated first); on a noise trial it is never a correct rejection:
  ``abandoned`` counts against the trainee like a false alarm, so quitting is never safer than watching. An
  abandoned *practice* session quit before any escalation is kept apart (``abandoned_apart``): in no figure, only
  counted; one quit after an escalation counts with that escalation's response, as in assessment.
- **A chosen trial is no trial.** A session whose trial was chosen, not drawn (``warroom run --as`` or ``--seed``:
  :attr:`~warroom.core.stats.SessionFacts.chosen`) is kept apart (``chosen``): in no figure, only counted. It still
  is a first attempt: the trainee saw the drill and its debrief, so their later sessions of it are replays (else
  ``--as signal`` would show the fault before a drawn "first attempt").
- Counts are of the sessions the caller chose (the counted modes, the filters).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from operator import attrgetter
from statistics import median
from typing import NamedTuple

from warroom.core.model import Response
from warroom.core.stats._facts import SessionFacts
from warroom.core.stats._figures import CohortStats, DrillStats, Reliability, TraineeStats
from warroom.core.stats._measures import (
    MIN_DISTINCT_CONTROLS,
    MIN_HALF_NOISE,
    MIN_HALF_SIGNAL,
    MIN_NOISE_TRIALS,
    MIN_PROPHECY_R,
    MIN_RELIABILITY_TRAINEES,
    MIN_SIGNAL_TRIALS,
    TARGET_RELIABILITY,
    a_prime,
    a_prime_interval,
    correlation_interval,
    d_prime_and_c,
    pearson_r,
    point_biserial,
    rate,
    sdt_intervals,
    sessions_needed,
    spearman_brown,
    wilson_interval,
)
from warroom.core.text import plural

#: The mode whose abandoned sessions count with their response (the other modes keep them apart).
ASSESSMENT = "assessment"


@dataclass(slots=True)
class PairCounts:
    """The counts of one trainee's sessions of one drill: ``sessions`` (of the counted modes, matching the filters),
    ``replays`` (of them, not the first attempt), ``abandoned`` (first attempts abandoned; those of practice are also
    ``abandoned_apart``: no trial), ``chosen`` (a first attempt whose trial was chosen: no trial), and the trial's
    response counts. Scores are totals (0..100)."""

    sessions: int = 0
    replays: int = 0
    abandoned: int = 0
    abandoned_apart: int = 0
    chosen: int = 0  # first attempts whose trial was chosen, not drawn: no trial
    approximated: int = 0  # trials whose response was approximated from an older scorecard's outcome
    signal: int = 0  # signal trials: hits + localisation errors + misses
    noise: int = 0  # noise trials: false alarms + correct rejections + noise abandoned
    hits: int = 0
    localisation_errors: int = 0
    misses: int = 0
    false_alarms: int = 0
    correct_rejections: int = 0
    noise_abandoned: int = 0  # noise trials quit before the end without escalating: counted like a false alarm
    noise_false_escalations: int = 0  # every false escalation in the noise trials
    shown: int = 0  # distractors shown in the trials
    escalated: int = 0  # distinct distractors escalated, summed over the trials
    score_sum: float = 0

    @property
    def trials(self) -> int:
        return self.signal + self.noise

    @property
    def against(self) -> int:
        """Noise trials counted against the trainee: false alarms and abandoned ones."""
        return self.false_alarms + self.noise_abandoned

    @property
    def correct(self) -> int:
        """Hits plus correct rejections."""
        return self.hits + self.correct_rejections


_PAIR_FIELDS = attrgetter(*(f.name for f in fields(PairCounts)))


def _sum(pairs: Iterable[PairCounts]) -> PairCounts:
    """The counts of several pairs added up (column by column: this runs once per trainee and per drill)."""
    columns = list(zip(*map(_PAIR_FIELDS, pairs), strict=True))
    return PairCounts(*map(sum, columns)) if columns else PairCounts()


class Half(NamedTuple):
    """One half of a trainee's trials in time order (odd or even places): trials, their score sum, signal trials,
    hits, noise trials and the noise trials counted against (false alarms and abandoned)."""

    trials: int
    score_sum: float
    signal: int
    hits: int
    noise: int
    against: int


class Median(NamedTuple):
    """A median of times to detect (``seconds``) and the number of trials it is the median of (``trials``)."""

    seconds: float | None = None
    trials: int = 0


class FirstAttempt(NamedTuple):
    """What a (trainee, drill) pair contributes: its first attempt in the counted modes (``first``), how many of the
    pair's sessions match the filters (``sessions``, the first included when it matches) and whether the first
    attempt matches them (``counted``: else it lies outside the filters and the pair has replays only)."""

    first: SessionFacts
    sessions: int
    counted: bool


@dataclass
class CohortCounts:
    """Everything :func:`stats_from_counts` needs: the :class:`PairCounts` per (trainee, drill), per drill the
    escalations each distractor event pulled, ``medians`` (``(scope, figure)``, scope ``trainee`` or ``drill``,
    figure ``ttd`` or ``wall_ttd`` -> name -> :class:`Median`: seconds and the trials it is the median of),
    ``halves`` (trainee -> the odd and even :class:`Half` of their trials in time order), ``skipped_by_mode``
    (sessions of modes not counted)."""

    pairs: dict[tuple[str, str], PairCounts] = field(default_factory=dict)
    pulls: dict[str, Counter[str]] = field(default_factory=dict)
    medians: dict[tuple[str, str], dict[str, Median]] = field(default_factory=dict)
    halves: dict[str, tuple[Half, Half]] = field(default_factory=dict)
    skipped_by_mode: int = 0


def count_first_attempts(attempts: Iterable[FirstAttempt], skipped_by_mode: int = 0) -> CohortCounts:
    """The :class:`CohortCounts` of the pairs' first attempts (one :class:`FirstAttempt` per (trainee, drill))."""
    counts = CohortCounts(skipped_by_mode=skipped_by_mode)
    trials: defaultdict[str, list[SessionFacts]] = defaultdict(list)
    for first, sessions, counted in attempts:
        if not sessions:  # every session of the pair lies outside the filters
            continue
        pair = counts.pairs.get((first.trainee, first.drill_id))
        if pair is None:
            pair = counts.pairs[first.trainee, first.drill_id] = PairCounts()
        pair.sessions += sessions
        pair.replays += sessions - counted
        if counted and _count_trial(pair, first):
            trials[first.trainee].append(first)
            if first.distractor_escalations:
                counts.pulls.setdefault(first.drill_id, Counter()).update(first.distractor_escalations)
    for trainee, mine in trials.items():
        mine.sort(key=lambda f: (f.started_at, f.session_id))
        counts.halves[trainee] = (_half(mine[0::2]), _half(mine[1::2]))
    counts.medians.update(_medians(trials))
    return counts


def _count_trial(pair: PairCounts, f: SessionFacts) -> bool:
    """Count a first attempt into its pair; False when it is no trial (an abandoned practice session kept apart:
    one quit before any escalation; one quit after an escalation had its response, and counts with it, or a guess
    quit when it was not contained would leave nothing but hits; a session whose trial was chosen, not drawn)."""
    if f.chosen:
        pair.chosen += 1
        return False
    if f.abandoned:
        pair.abandoned += 1
        if f.mode != ASSESSMENT and f.response not in (Response.LOCALISATION_ERROR, Response.FALSE_ALARM):
            pair.abandoned_apart += 1
            return False
    response = f.response
    if f.signal:
        pair.signal += 1
    else:
        pair.noise += 1
        pair.noise_false_escalations += f.false_escalations
    if response is Response.HIT:
        pair.hits += 1
    elif response is Response.LOCALISATION_ERROR:
        pair.localisation_errors += 1
    elif response is Response.MISS:
        pair.misses += 1
    elif response is Response.CORRECT_REJECTION:
        pair.correct_rejections += 1
    elif response is Response.FALSE_ALARM:
        pair.false_alarms += 1
    else:
        pair.noise_abandoned += 1
    pair.approximated += f.approximated
    pair.shown += f.distractors_shown
    pair.escalated += len(set(f.distractor_escalations))
    pair.score_sum += f.score
    return True


def _half(trials: list[SessionFacts]) -> Half:
    signal = hits = noise = against = 0
    for f in trials:
        response = f.response
        if response is Response.HIT:
            signal += 1
            hits += 1
        elif response is Response.MISS or response is Response.LOCALISATION_ERROR:
            signal += 1
        else:
            noise += 1
            against += response is not Response.CORRECT_REJECTION
    return Half(len(trials), math.fsum(f.score for f in trials), signal, hits, noise, against)


def _medians(trials: dict[str, list[SessionFacts]]) -> dict[tuple[str, str], dict[str, Median]]:
    """The medians of time to detect (drill and wall seconds) per trainee and per drill, over the trials, each with
    the number of trials it is the median of."""
    values: dict[tuple[str, str], defaultdict[str, list[float]]] = {
        key: defaultdict(list)
        for key in (("trainee", "ttd"), ("trainee", "wall_ttd"), ("drill", "ttd"), ("drill", "wall_ttd"))
    }
    for trainee, mine in trials.items():
        for f in mine:
            if f.time_to_detect_s is not None:
                values["trainee", "ttd"][trainee].append(f.time_to_detect_s)
                values["drill", "ttd"][f.drill_id].append(f.time_to_detect_s)
            if f.wall_time_to_detect_s is not None:
                values["trainee", "wall_ttd"][trainee].append(f.wall_time_to_detect_s)
                values["drill", "wall_ttd"][f.drill_id].append(f.wall_time_to_detect_s)
    return {key: {name: Median(median(v), len(v)) for name, v in groups.items()} for key, groups in values.items()}


def stats_from_counts(counts: CohortCounts, *, target: float = TARGET_RELIABILITY) -> CohortStats:
    """The :class:`CohortStats` of ``counts``. Raises ValueError for a target outside 0..1 (exclusive) or counts
    that are not shares."""
    if not 0.0 < target < 1.0:
        raise ValueError(f"a target reliability must be between 0 and 1, not {target!r}")
    by_trainee: defaultdict[str, dict[str, PairCounts]] = defaultdict(dict)
    by_drill: defaultdict[str, dict[str, PairCounts]] = defaultdict(dict)
    for (trainee, drill), c in counts.pairs.items():
        by_trainee[trainee][drill] = c
        by_drill[drill][trainee] = c
    d_rel, d_needed = d_prime_reliability(counts.halves, target)
    s_rel, s_needed = score_reliability(counts.halves, target)
    responses = _drill_responses(by_trainee)
    med = counts.medians
    trainees = []
    for name in sorted(by_trainee):
        total = _sum(by_trainee[name].values())
        controls = sum(1 for c in by_trainee[name].values() if c.noise)
        ttd = _times(med, "trainee", name)
        trainees.append(_trainee_stats(name, total, controls, ttd, (d_rel, d_needed), (s_rel, s_needed)))
    drills = []
    for name in sorted(by_drill):
        ttd = _times(med, "drill", name)
        drills.append(
            _drill_stats(name, by_drill[name], responses.get(name, []), counts.pulls.get(name, Counter()), ttd)
        )
    return CohortStats(trainees, drills, d_rel, s_rel, counts.skipped_by_mode)


def _times(medians: dict[tuple[str, str], dict[str, Median]], scope: str, name: str) -> tuple[Median, Median]:
    """The medians of time to detect of ``name`` (a trainee or a drill): drill seconds, then wall seconds."""
    drill, wall = (medians.get((scope, figure), {}).get(name, Median()) for figure in ("ttd", "wall_ttd"))
    return drill, wall


def ceil_sessions(x: float) -> int:
    """Round a number of trials up, forgiving float noise (59.000000001 is 59)."""
    return max(0, math.ceil(x - 1e-9))


def d_prime_reliability(halves: dict[str, tuple[Half, Half]], target: float) -> tuple[Reliability, float | None]:
    """The split-half reliability of d′: d′ of each half of every trainee whose halves each hold at least
    :data:`MIN_HALF_SIGNAL` signal and :data:`MIN_HALF_NOISE` noise trials, Pearson's r across those trainees,
    Spearman–Brown; and the exact (unrounded) trials needed for ``target`` (None when not projected)."""
    odd: list[float] = []
    even: list[float] = []
    sizes: list[int] = []
    for one, two in halves.values():
        if min(one.signal, two.signal) < MIN_HALF_SIGNAL or min(one.noise, two.noise) < MIN_HALF_NOISE:
            continue
        for half, out in ((one, odd), (two, even)):
            sdt = d_prime_and_c(half.hits, half.signal, half.against, half.noise)
            assert sdt is not None  # both kinds of trial were played
            out.append(sdt[0])
        sizes += (one.trials, two.trials)
    return reliability_of("d_prime", odd, even, sizes, target)


def score_reliability(halves: dict[str, tuple[Half, Half]], target: float) -> tuple[Reliability, float | None]:
    """The split-half reliability of the mean score (the secondary figure): the mean score of each half of every
    trainee with at least 2 trials, Pearson's r, Spearman–Brown; and the exact trials needed for ``target``."""
    odd: list[float] = []
    even: list[float] = []
    sizes: list[int] = []
    for one, two in halves.values():
        if not one.trials or not two.trials:
            continue
        odd.append(one.score_sum / one.trials)
        even.append(two.score_sum / two.trials)
        sizes += (one.trials, two.trials)
    return reliability_of("mean_score", odd, even, sizes, target)


def reliability_of(
    measure: str, odd: list[float], even: list[float], sizes: list[int], target: float
) -> tuple[Reliability, float | None]:
    """The split-half reliability of ``measure`` from one value per trainee and half (``odd``, ``even``; ``sizes``:
    every half's number of trials) and the exact trials needed for ``target`` (or None).

    ``too_few`` below :data:`MIN_RELIABILITY_TRAINEES` trainees (no r is shown); ``too_weak`` when r is undefined
    (every trainee alike) or below :data:`MIN_PROPHECY_R` (r is shown, nothing is projected from it); else
    ``estimated``."""
    n = len(odd)
    half = len(sizes) / math.fsum(1 / s for s in sizes) if sizes else None
    if n < MIN_RELIABILITY_TRAINEES or half is None:
        return Reliability(measure, "too_few", n, None, half, None, None, target), None
    r = pearson_r(odd, even)
    if r is None or r < MIN_PROPHECY_R:
        return Reliability(measure, "too_weak", n, r, half, None, None, target), None
    full = spearman_brown(r, 2)
    needed = sessions_needed(full, 2 * half, target)
    assert needed is not None  # r > 0
    return Reliability(measure, "estimated", n, r, half, full, ceil_sessions(needed), target), needed


def _at_length(rel: tuple[Reliability, float | None], trials: int) -> tuple[float | None, int | None]:
    """A trainee's reliability at their own number of ``trials`` and the further trials that reach the target."""
    reliability, needed = rel
    if needed is None or reliability.split_half_r is None or not reliability.half_trials or not trials:
        return None, None
    return spearman_brown(reliability.split_half_r, trials / reliability.half_trials), ceil_sessions(needed - trials)


def _interval(bounds: tuple[float, float] | None) -> tuple[float | None, float | None]:
    return (None, None) if bounds is None else bounds


def _warnings(c: PairCounts, controls: int) -> tuple[str, ...]:
    out = []
    if c.noise < MIN_NOISE_TRIALS:
        out.append(f"false-alarm rate rests on {plural(c.noise, 'noise trial')} ({MIN_NOISE_TRIALS} needed)")
    if controls < MIN_DISTINCT_CONTROLS:
        out.append(
            f"false-alarm rate rests on {plural(controls, 'distinct control')} ({MIN_DISTINCT_CONTROLS} needed)"
        )
    return tuple(out)


def _trainee_stats(
    name: str,
    c: PairCounts,
    controls: int,
    ttd: tuple[Median, Median],
    d_rel: tuple[Reliability, float | None],
    s_rel: tuple[Reliability, float | None],
) -> TraineeStats:
    n = c.trials
    hit_low, hit_high = _interval(wilson_interval(c.hits, c.signal))
    fa_low, fa_high = _interval(wilson_interval(c.against, c.noise))
    enough = c.signal >= MIN_SIGNAL_TRIALS and c.noise >= MIN_NOISE_TRIALS
    sdt = d_prime_and_c(c.hits, c.signal, c.against, c.noise) if enough else None
    bounds = sdt_intervals(c.hits, c.signal, c.against, c.noise) if enough else None
    a = a_prime(c.hits / c.signal, c.against / c.noise) if enough else None
    a_bounds = a_prime_interval(c.hits, c.signal, c.against, c.noise) if enough else None
    d_rel_here, d_more = _at_length(d_rel, n)
    s_rel_here, s_more = _at_length(s_rel, n)
    dist_low, dist_high = _interval(wilson_interval(c.escalated, c.shown))
    return TraineeStats(
        trainee=name, sessions=c.sessions, replays=c.replays, trials=n, abandoned=c.abandoned,
        abandoned_apart=c.abandoned_apart, chosen=c.chosen, approximated=c.approximated,
        signal_trials=c.signal, hits=c.hits, localisation_errors=c.localisation_errors, misses=c.misses,
        hit_rate=rate(c.hits, c.signal), hit_rate_low=hit_low, hit_rate_high=hit_high,
        noise_trials=c.noise, false_alarms=c.false_alarms, noise_abandoned=c.noise_abandoned,
        correct_rejections=c.correct_rejections, distinct_controls=controls,
        false_alarm_rate=rate(c.against, c.noise), false_alarm_rate_low=fa_low, false_alarm_rate_high=fa_high,
        false_escalations_per_noise_trial=c.noise_false_escalations / c.noise if c.noise else None,
        distractors_shown=c.shown, distractors_escalated=c.escalated,
        distractor_escalation_rate=rate(c.escalated, c.shown), distractor_escalation_rate_low=dist_low,
        distractor_escalation_rate_high=dist_high,
        enough_trials=enough,
        d_prime=None if sdt is None else sdt[0],
        d_prime_low=None if bounds is None else bounds[0][0], d_prime_high=None if bounds is None else bounds[0][1],
        criterion_c=None if sdt is None else sdt[1],
        criterion_c_low=None if bounds is None else bounds[1][0],
        criterion_c_high=None if bounds is None else bounds[1][1],
        a_prime=a, a_prime_low=None if a_bounds is None else a_bounds[0],
        a_prime_high=None if a_bounds is None else a_bounds[1],
        median_time_to_detect=ttd[0].seconds, time_to_detect_trials=ttd[0].trials,
        median_wall_time_to_detect=ttd[1].seconds, wall_time_to_detect_trials=ttd[1].trials,
        mean_score=c.score_sum / n if n else None,
        d_prime_reliability=d_rel_here, more_trials_needed=d_more,
        score_reliability=s_rel_here, score_more_trials_needed=s_more,
        warnings=_warnings(c, controls),
    )  # fmt: skip


def _drill_responses(by_trainee: dict[str, dict[str, PairCounts]]) -> dict[str, list[tuple[int, int, float]]]:
    """Per drill, for each trainee with a trial of it and of some other drill: ``(trials, correct, rest score)``,
    the rest score being the trainee's mean score on the other drills' trials (classical item analysis)."""
    out: defaultdict[str, list[tuple[int, int, float]]] = defaultdict(list)
    for drills in by_trainee.values():
        rows = [(drill, c.trials, c.correct, c.score_sum) for drill, c in drills.items() if c.trials]
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
    ttd: tuple[Median, Median],
) -> DrillStats:
    total = _sum(pairs.values())
    low, high = _interval(wilson_interval(total.correct, total.trials))
    discrimination = point_biserial(responses)
    rested_on = sum(k for k, _, _ in responses)
    r_low, r_high = (None, None) if discrimination is None else correlation_interval(discrimination, rested_on)
    return DrillStats(
        drill_id=name,
        all_clear=not total.signal and bool(total.noise),
        sessions=total.sessions,
        replays=total.replays,
        trials=total.trials,
        trainees=sum(1 for c in pairs.values() if c.trials),
        abandoned=total.abandoned,
        abandoned_apart=total.abandoned_apart,
        chosen=total.chosen,
        correct=total.correct,
        difficulty=rate(total.correct, total.trials),
        difficulty_low=low,
        difficulty_high=high,
        discrimination=discrimination,
        discrimination_low=r_low,
        discrimination_high=r_high,
        discrimination_trials=rested_on,
        median_time_to_detect=ttd[0].seconds,
        time_to_detect_trials=ttd[0].trials,
        median_wall_time_to_detect=ttd[1].seconds,
        wall_time_to_detect_trials=ttd[1].trials,
        distractor_pulls=dict(sorted(pulls.items(), key=lambda kv: (-kv[1], kv[0]))),
    )
