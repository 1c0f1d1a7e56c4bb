"""The cohort statistics worked out independently of warroom, straight from the textbook formulas, for the
hand-checked cohort (tests/cli/test_stats_by_hand.py). Standard library only; nothing from warroom.

- Hit rate, false-alarm rate: hits / signal trials, false alarms / noise trials.
- d′ = z(H) − z(F), c = −(z(H) + z(F)) / 2, with the log-linear correction H = (hits + 0.5) / (signal + 1),
  F = (false alarms + 0.5) / (noise + 1): Hautus (1995); Macmillan & Creelman (2005), ch. 1-2.
- A′ = ½ + (h − f)(1 + h − f) / (4h(1 − f)) for h ≥ f; the below-chance form ½ − (f − h)(1 + f − h) / (4f(1 − h))
  for h < f: Grier (1971); Aaronson & Watts (1987).
- Difficulty: proportion correct (the p-value of classical item analysis, Crocker & Algina 1986).
- Discrimination: the point-biserial correlation of correct (0/1) with the rest score (mean score on the other
  drills), i.e. the corrected item-total correlation (Crocker & Algina 1986); Pearson's r from
  ``statistics.correlation``.
- Split-half: odd/even sessions in time order, Pearson's r of the halves' means across trainees, Spearman–Brown
  ρ(k) = k·r / (1 + (k − 1)·r) (Spearman 1910; Brown 1910) at k = 2; the length solved for 0.7.
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


def _sdt(hits: int, signal: int, fas: int, noise: int) -> tuple[Any, Any, Any]:
    if not signal or not noise:
        return None, None, None
    h, f = hits / signal, fas / noise
    hc, fc = (hits + 0.5) / (signal + 1), (fas + 0.5) / (noise + 1)
    if h == f:
        a = 0.5
    elif h > f:
        a = 0.5 + (h - f) * (1 + h - f) / (4 * h * (1 - f))
    else:
        a = 0.5 - (f - h) * (1 + f - h) / (4 * f * (1 - h))
    return z(hc) - z(fc), -(z(hc) + z(fc)) / 2, a


def _correct(r: Row) -> bool:
    return r.outcome == ("all_clear_held" if r.all_clear else "contained")


def paper(rows: list[Row], target: float = 0.7) -> dict[str, Any]:
    """``{"trainees": {name: figures}, "drills": {id: figures}, "reliability": figures}`` of ``rows`` (the
    sessions counted, abandoned ones included)."""
    played = [r for r in rows if r.outcome != "abandoned"]
    trainees: dict[str, dict[str, Any]] = {}
    odd: list[float] = []
    even: list[float] = []
    sizes: list[int] = []
    for name in sorted({r.trainee for r in rows}):
        mine = [r for r in played if r.trainee == name]
        fault = [r for r in mine if not r.all_clear]
        clear = [r for r in mine if r.all_clear]
        hits = sum(r.outcome == "contained" for r in fault)
        fas = sum(r.outcome != "all_clear_held" for r in clear)
        d, c, a = _sdt(hits, len(fault), fas, len(clear))
        shown = sum(r.shown for r in mine)
        escalated = sum(len(set(r.pulled)) for r in mine)
        ttds = [r.ttd for r in mine if r.ttd is not None]
        trainees[name] = {
            "sessions": len(mine),
            "abandoned": sum(r.trainee == name and r.outcome == "abandoned" for r in rows),
            "hit_rate": hits / len(fault) if fault else None,
            "false_alarm_rate": fas / len(clear) if clear else None,
            "false_escalations_per_all_clear": sum(r.false_escalations for r in clear) / len(clear) if clear else None,
            "distractor_escalation_rate": escalated / shown if shown else None,
            "d_prime": d,
            "criterion_c": c,
            "a_prime": a,
            "median_time_to_detect": median(ttds) if ttds else None,
            "mean_score": sum(r.score for r in mine) / len(mine) if mine else None,
        }
        if len(mine) >= 2:
            halves = mine[0::2], mine[1::2]
            odd.append(sum(r.score for r in halves[0]) / len(halves[0]))
            even.append(sum(r.score for r in halves[1]) / len(halves[1]))
            sizes += [len(halves[0]), len(halves[1])]
    r = correlation(odd, even) if len(odd) >= 3 and len(set(odd)) > 1 and len(set(even)) > 1 else None
    half = harmonic_mean(sizes) if sizes else None
    reliability = {"split_half_r": r, "half_sessions": half, "reliability": None, "sessions_needed": None}
    for t in trainees.values():
        t["reliability"] = t["more_sessions_needed"] = None
    if r is not None and r > 0 and half:
        needed = half * target * (1 - r) / (r * (1 - target))
        reliability |= {"reliability": 2 * r / (1 + r), "sessions_needed": math.ceil(needed)}
        for t in trainees.values():
            k = t["sessions"] / half
            t["reliability"] = k * r / (1 + (k - 1) * r)
            t["more_sessions_needed"] = max(0, math.ceil(needed - t["sessions"]))
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
            "sessions": len(mine),
            "trainees": len({r.trainee for r in mine}),
            "abandoned": sum(r.drill == drill and r.outcome == "abandoned" for r in rows),
            "difficulty": sum(map(_correct, mine)) / len(mine) if mine else None,
            "discrimination": correlation(xs, ys) if len(xs) >= 3 and 0 < sum(xs) < len(xs) else None,
            "median_time_to_detect": median(ttds) if ttds else None,
            "distractor_pulls": dict(Counter(e for r in mine for e in r.pulled)),
        }
    return {"trainees": trainees, "drills": drills, "reliability": reliability}
