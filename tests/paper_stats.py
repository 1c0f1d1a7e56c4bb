"""The cohort statistics worked out independently of warroom, straight from the textbook formulas and
docs/sessions.md's rules, for the hand-checked cohort (tests/cli/test_stats_by_hand.py). Standard library only;
nothing from warroom.

- Trials: each trainee's first session of each drill (rows come in the order played); later ones are replays. An
  abandoned assessment session is a trial with its response, an abandoned practice session is kept apart.
- Responses of scorecards before rules 4 (docs/sessions.md): contained is a hit without a false escalation, else a
  localisation error; contained late and missed are misses; right step unsupported, wrong step and an early
  escalation are localisation errors; abandoned is a miss, or a localisation error after an escalation; on an
  all-clear drill held is a correct rejection, any escalation a false alarm, abandoned without one counts like one.
- Hit rate, false-alarm rate: hits / signal trials, (false alarms + abandoned) / noise trials, with the Wilson score
  interval (Wilson 1927; Newcombe 1998): (p + z²/2n ± z·sqrt(p(1 − p)/n + z²/4n²)) / (1 + z²/n).
- d′, c and A′ only from 10 signal and 5 noise trials (none in this cohort).
- Difficulty: proportion of trials correct (the p-value of classical item analysis, Crocker & Algina 1986).
- Discrimination: the point-biserial correlation of correct (0/1) with the rest score (mean score on the other
  drills' trials), i.e. the corrected item-total correlation; Pearson's r from ``statistics.correlation``.
- Split-half of the mean score: odd/even trials in time order, Pearson's r of the halves' means across trainees
  (5 needed), Spearman–Brown ρ(k) = k·r / (1 + (k − 1)·r) at k = 2; the length solved for 0.7; nothing projected
  below r = 0.2.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from statistics import NormalDist, correlation, harmonic_mean, median
from typing import Any

z = NormalDist().inv_cdf


@dataclass(frozen=True)
class Row:
    """One session as the statistics see it (in the order played)."""

    trainee: str
    drill: str
    all_clear: bool
    outcome: str
    score: int
    ttd: float | None
    shown: int
    pulled: tuple[str, ...]
    false_escalations: int = 0
    mode: str = "assessment"


_SIGNAL = {"contained": "hit", "contained_late": "miss", "missed": "miss", "right_step_unsupported": "loc",
           "wrong_step": "loc", "false_alarm": "loc"}  # fmt: skip


def response(r: Row) -> str:
    """The trial's response (``hit``, ``miss``, ``loc``; ``cr``, ``fa``, ``quit``) of an older scorecard."""
    if r.all_clear:
        if r.false_escalations:
            return "fa"
        return {"all_clear_held": "cr", "abandoned": "quit"}.get(r.outcome, "fa")
    if r.outcome == "abandoned":
        return "loc" if r.false_escalations else "miss"
    if r.outcome == "contained" and r.false_escalations:
        return "loc"
    return _SIGNAL[r.outcome]


def wilson(k: int, n: int) -> tuple[float, float] | tuple[None, None]:
    if not n:
        return None, None
    zz = NormalDist().inv_cdf(0.975) ** 2
    p = k / n
    centre = (p + zz / (2 * n)) / (1 + zz / n)
    half = math.sqrt(zz) * math.sqrt(p * (1 - p) / n + zz / (4 * n * n)) / (1 + zz / n)
    return (0.0 if k == 0 else centre - half), (1.0 if k == n else centre + half)


def _correct(r: Row) -> bool:
    return response(r) in ("hit", "cr")


def trials_of(rows: list[Row]) -> tuple[list[Row], dict[str, int]]:
    """The trials (first attempts, abandoned practice sessions left out) and the replays per trainee."""
    seen: set[tuple[str, str]] = set()
    trials, replays = [], Counter()
    for r in rows:
        if (r.trainee, r.drill) in seen:
            replays[r.trainee] += 1
            continue
        seen.add((r.trainee, r.drill))
        if r.outcome == "abandoned" and r.mode != "assessment":
            continue
        trials.append(r)
    return trials, replays


def paper(rows: list[Row], target: float = 0.7) -> dict[str, Any]:
    """``{"trainees": {name: figures}, "drills": {id: figures}, "score_reliability": figures}`` of ``rows`` (the
    sessions counted, in the order played)."""
    played, replays = trials_of(rows)
    trainees: dict[str, dict[str, Any]] = {}
    odd: list[float] = []
    even: list[float] = []
    sizes: list[int] = []
    for name in sorted({r.trainee for r in rows}):
        mine = [r for r in played if r.trainee == name]
        fault = [r for r in mine if not r.all_clear]
        clear = [r for r in mine if r.all_clear]
        hits = sum(response(r) == "hit" for r in fault)
        fas = sum(response(r) != "cr" for r in clear)
        shown = sum(r.shown for r in mine)
        escalated = sum(len(set(r.pulled)) for r in mine)
        ttds = [r.ttd for r in mine if r.ttd is not None]
        hit_low, hit_high = wilson(hits, len(fault))
        fa_low, fa_high = wilson(fas, len(clear))
        trainees[name] = {
            "trials": len(mine),
            "replays": replays[name],
            "abandoned": sum(r.outcome == "abandoned" for r in mine),
            "signal_trials": len(fault),
            "hits": hits,
            "noise_trials": len(clear),
            "hit_rate": hits / len(fault) if fault else None,
            "hit_rate_low": hit_low,
            "hit_rate_high": hit_high,
            "false_alarm_rate": fas / len(clear) if clear else None,
            "false_alarm_rate_low": fa_low,
            "false_alarm_rate_high": fa_high,
            "false_escalations_per_noise_trial": (
                sum(r.false_escalations for r in clear) / len(clear) if clear else None
            ),
            "distractor_escalation_rate": escalated / shown if shown else None,
            "d_prime": None,  # fewer than 10 signal and 5 noise trials
            "a_prime": None,
            "median_time_to_detect": median(ttds) if ttds else None,
            "mean_score": sum(r.score for r in mine) / len(mine) if mine else None,
        }
        if len(mine) >= 2:
            halves = mine[0::2], mine[1::2]
            odd.append(sum(r.score for r in halves[0]) / len(halves[0]))
            even.append(sum(r.score for r in halves[1]) / len(halves[1]))
            sizes += [len(halves[0]), len(halves[1])]
    r = correlation(odd, even) if len(odd) >= 5 and len(set(odd)) > 1 and len(set(even)) > 1 else None
    half = harmonic_mean(sizes) if sizes else None
    reliability = {"split_half_r": r, "half_trials": half, "reliability": None, "trials_needed": None}
    for t in trainees.values():
        t["score_reliability"] = t["score_more_trials_needed"] = None
    if r is not None and r >= 0.2 and half:
        full = 2 * r / (1 + r)
        needed = 2 * half * target * (1 - full) / (full * (1 - target))
        reliability |= {"reliability": full, "trials_needed": math.ceil(needed - 1e-9)}
        for t in trainees.values():
            k = t["trials"] / half
            t["score_reliability"] = k * r / (1 + (k - 1) * r)
            t["score_more_trials_needed"] = max(0, math.ceil(needed - t["trials"] - 1e-9))
    drills: dict[str, dict[str, Any]] = {}
    for drill in sorted({r.drill for r in rows}):
        mine = [r for r in played if r.drill == drill]
        xs, ys = [], []
        for r in mine:
            others = [o.score for o in played if o.trainee == r.trainee and o.drill != drill]
            if others:
                xs.append(1.0 if _correct(r) else 0.0)
                ys.append(sum(others) / len(others))
        ttds = [r.ttd for r in mine if r.ttd is not None]
        drills[drill] = {
            "trials": len(mine),
            "trainees": len({r.trainee for r in mine}),
            "abandoned": sum(r.outcome == "abandoned" for r in mine),
            "difficulty": sum(map(_correct, mine)) / len(mine) if mine else None,
            "discrimination": correlation(xs, ys) if len(xs) >= 3 and 0 < sum(xs) < len(xs) else None,
            "median_time_to_detect": median(ttds) if ttds else None,
            "distractor_pulls": dict(Counter(e for r in mine for e in r.pulled)),
        }
    return {"trainees": trainees, "drills": drills, "score_reliability": reliability}
