"""The formulas behind the cohort statistics (:mod:`warroom.core.stats._counts`): signal-detection measures (d′,
criterion c, A′), Pearson's r, and the Spearman–Brown prophecy.

Pure functions of counts and numbers, standard library only (``statistics.NormalDist`` gives Φ⁻¹). docs/sessions.md
("Cohort statistics") states every formula with its source. In signal-detection terms a drill with a fault is a
*signal* trial and an all-clear control drill a *noise* trial; containing the incident on time is a *hit*, any
escalation in an all-clear drill a *false alarm*.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from operator import mul
from statistics import NormalDist

#: Added to the hit and false-alarm counts by the log-linear correction (Hautus 1995); 2x this is added to the
#: number of signal and of noise trials.
LOG_LINEAR_ADD = 0.5

#: The reliability a trainee's score should reach before it is trusted (the conventional 0.7).
TARGET_RELIABILITY = 0.7

#: The fewest pairs a correlation is computed from (two points always lie on a line: r would be +-1).
MIN_PAIRS = 3

_Z = NormalDist().inv_cdf


def rate(count: int, n: int) -> float | None:
    """``count / n`` (a share in 0..1), or None when ``n`` is 0. Raises ValueError for a negative count or
    ``count > n``."""
    if count < 0 or n < 0 or count > n:
        raise ValueError(f"a count of {count} out of {n} is not a share")
    return None if n == 0 else count / n


def log_linear_rate(count: int, n: int) -> float:
    """The log-linear corrected rate ``(count + 0.5) / (n + 1)`` (Hautus 1995): strictly between 0 and 1 for any
    ``0 <= count <= n``, so Φ⁻¹ of it is finite. Raises ValueError for a count outside 0..n."""
    if count < 0 or n < 0 or count > n:
        raise ValueError(f"a count of {count} out of {n} is not a share")
    return (count + LOG_LINEAR_ADD) / (n + 2 * LOG_LINEAR_ADD)


def d_prime_and_c(hits: int, signal_trials: int, false_alarms: int, noise_trials: int) -> tuple[float, float] | None:
    """Sensitivity d′ and criterion c from counts, with the log-linear correction (Hautus 1995).

    ``H = (hits + 0.5) / (signal_trials + 1)``, ``F = (false_alarms + 0.5) / (noise_trials + 1)``;
    ``d′ = Φ⁻¹(H) − Φ⁻¹(F)`` and ``c = −(Φ⁻¹(H) + Φ⁻¹(F)) / 2`` (Macmillan & Creelman 2005). d′ is in standard
    deviations of the noise distribution (0: chance, higher: better detection); c > 0 is a conservative trainee
    (slow to escalate), c < 0 a liberal one (quick to escalate). Returns ``(d′, c)``, or None when either kind of
    trial was never played (the rate would be the correction alone). Raises ValueError for impossible counts.
    """
    if signal_trials == 0 or noise_trials == 0:
        # Still validate the counts so a bad call is not hidden by the None.
        log_linear_rate(hits, signal_trials)
        log_linear_rate(false_alarms, noise_trials)
        return None
    zh = _Z(log_linear_rate(hits, signal_trials))
    zf = _Z(log_linear_rate(false_alarms, noise_trials))
    return zh - zf, -(zh + zf) / 2 + 0.0  # (+ 0.0: c of H = 1 − F is 0.0, never the negative zero −(0.0) gives)


def a_prime(hit_rate: float, false_alarm_rate: float) -> float:
    """The nonparametric sensitivity A′ from a hit rate and a false-alarm rate (both raw shares in 0..1).

    For ``H >= F``: ``A′ = 1/2 + (H − F)(1 + H − F) / (4H(1 − F))`` (Pollack & Norman 1964; this computing formula
    Grier 1971). For ``H < F`` (below chance): ``A′ = 1/2 − (F − H)(1 + F − H) / (4F(1 − H))`` (Snodgrass & Corwin
    1988; Aaronson & Watts 1987). ``H == F`` gives 0.5 (also when both are 0 or both 1, where the formula is 0/0).
    Range 0..1: 0.5 is chance, 1 perfect. Raises ValueError for a rate outside 0..1.
    """
    for name, value in (("hit rate", hit_rate), ("false-alarm rate", false_alarm_rate)):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"{name} {value!r} is not in 0..1")
    h, f = hit_rate, false_alarm_rate
    if h == f:
        return 0.5
    if h > f:
        return 0.5 + (h - f) * (1 + h - f) / (4 * h * (1 - f))
    return 0.5 - (f - h) * (1 + f - h) / (4 * f * (1 - h))


def pearson_r(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Pearson's product-moment correlation of two equally long sequences, in -1..1.

    None when there are fewer than :data:`MIN_PAIRS` pairs or either sequence is constant (r is undefined). With a
    0/1 ``xs`` this is the point-biserial correlation. Raises ValueError when the lengths differ."""
    n = len(xs)
    if n != len(ys):
        raise ValueError(f"pearson_r needs pairs: {n} x values and {len(ys)} y values")
    if n < MIN_PAIRS:
        return None
    mx = math.fsum(xs) / n
    my = math.fsum(ys) / n
    dx = [x - mx for x in xs]
    dy = [y - my for y in ys]
    sxx = math.fsum(map(mul, dx, dx))
    syy = math.fsum(map(mul, dy, dy))
    if sxx <= 0.0 or syy <= 0.0:
        return None
    sxy = math.fsum(map(mul, dx, dy))
    return max(-1.0, min(1.0, sxy / math.sqrt(sxx * syy)))


def point_biserial(groups: Iterable[tuple[int, int, float]]) -> float | None:
    """Pearson's r between a 0/1 variable and a number, for sessions given in groups that share the number:
    ``(sessions, ones, y)`` stands for ``sessions`` pairs with value ``y``, ``ones`` of them with x = 1.

    Equal to :func:`pearson_r` of the expanded pairs (the point-biserial correlation), in one step per group:
    two passes (means, then deviations) as in ``pearson_r``, with Σ(x − x̄)² = n·p(1 − p) for a 0/1 x. None when
    there are fewer than :data:`MIN_PAIRS` pairs, all x are equal or all y are equal. Raises ValueError for a group
    with ``ones`` outside 0..sessions."""
    groups = [g for g in groups if g[0]]
    for k, ones, _ in groups:
        if not 0 <= ones <= k:
            raise ValueError(f"{ones} ones out of {k} sessions")
    n = sum(k for k, _, _ in groups)
    if n < MIN_PAIRS:
        return None
    p = sum(ones for _, ones, _ in groups) / n
    my = math.fsum(k * y for k, _, y in groups) / n
    sxx = n * p * (1 - p)
    syy = math.fsum(k * (y - my) ** 2 for k, _, y in groups)
    if sxx <= 0.0 or syy <= 0.0:
        return None
    sxy = math.fsum((y - my) * (ones - k * p) for k, ones, y in groups)
    return max(-1.0, min(1.0, sxy / math.sqrt(sxx * syy)))


def correlation_interval(r: float, n: int) -> tuple[float, float]:
    """The 95% interval of a correlation ``r`` from ``n`` pairs by Fisher's z (Fisher 1921): z = atanh(r) ± 1.96 /
    sqrt(n − 3), turned back with tanh. An approximation for a point-biserial r (its 0/1 variable is not normal),
    which says how little a correlation of a few pairs tells: r = −0.61 of 5 pairs is [−0.97, 0.59]. With 3 pairs or
    fewer the interval is the whole range, −1 to 1. Raises ValueError for ``r`` outside −1..1."""
    if not -1.0 <= r <= 1.0:
        raise ValueError(f"a correlation must be in -1..1, not {r!r}")
    if n <= MIN_PAIRS:
        return -1.0, 1.0
    z = math.atanh(max(-_R_EDGE, min(_R_EDGE, r)))
    half = _Z_CONF / math.sqrt(n - 3)
    return math.tanh(z - half), math.tanh(z + half)


#: The largest size of r that :func:`correlation_interval` takes the inverse tanh of (atanh(1) is infinite).
_R_EDGE = 1 - 1e-12


def spearman_brown(r: float, k: float) -> float:
    """The Spearman–Brown prophecy: the reliability of a score ``k`` times as long as one of reliability ``r``,
    ``k·r / (1 + (k − 1)·r)`` (Spearman 1910; Brown 1910). ``k = 2`` corrects a split-half correlation to the whole
    length. Raises ValueError for ``k <= 0`` or ``r`` outside -1..1, or when the denominator is 0."""
    if k <= 0:
        raise ValueError(f"a length factor must be positive, not {k!r}")
    if not -1.0 <= r <= 1.0:
        raise ValueError(f"a correlation must be in -1..1, not {r!r}")
    den = 1 + (k - 1) * r
    if den == 0:
        raise ValueError(f"Spearman-Brown is undefined for r={r!r}, k={k!r}")
    return k * r / den


def sessions_needed(r: float | None, n: float, target: float = TARGET_RELIABILITY) -> float | None:
    """How many sessions a score needs to reach reliability ``target``, given reliability ``r`` at ``n`` sessions:
    ``n · target(1 − r) / (r(1 − target))`` (the Spearman–Brown prophecy solved for the length).

    A fraction (round it up to whole sessions for people); less than ``n`` when ``r`` is above the target already.
    None when ``r`` is None or ``r <= 0``: halves that do not agree cannot be made reliable by playing more.
    Raises ValueError for ``n <= 0`` or a target outside 0 < target < 1."""
    if n <= 0:
        raise ValueError(f"a number of sessions must be positive, not {n!r}")
    if not 0.0 < target < 1.0:
        raise ValueError(f"a target reliability must be between 0 and 1, not {target!r}")
    if r is None or r <= 0:
        return None
    return n * target * (1 - r) / (r * (1 - target))


# ---------------------------------------------------------------------------------------------------------------
# Intervals and minimums (docs/sessions.md, "Cohort statistics": every figure with its counts and uncertainty)
# ---------------------------------------------------------------------------------------------------------------

#: The confidence of every interval, and its normal quantile (1.96 for 95%).
CONFIDENCE = 0.95
_Z_CONF = _Z(1 - (1 - CONFIDENCE) / 2)

#: d′, c and A′ are shown only from this many signal trials and this many noise trials ("too few trials" below).
MIN_SIGNAL_TRIALS = 10
MIN_NOISE_TRIALS = 5
#: A false-alarm rate resting on fewer distinct drills played as noise than this is warned about.
MIN_DISTINCT_CONTROLS = 3
#: The split-half reliability of d′ needs each half of a trainee to hold at least this many signal and noise
#: trials (half of the minimums above, rounded down), and at least :data:`MIN_RELIABILITY_TRAINEES` such trainees.
MIN_HALF_SIGNAL = MIN_SIGNAL_TRIALS // 2
MIN_HALF_NOISE = MIN_NOISE_TRIALS // 2
MIN_RELIABILITY_TRAINEES = 5
#: Below this split-half correlation no number of trials is projected (a prophecy from r near 0 is noise).
MIN_PROPHECY_R = 0.2


def wilson_interval(count: int, n: int) -> tuple[float, float] | None:
    """The Wilson score interval of a share ``count / n`` at :data:`CONFIDENCE` (Wilson 1927): with z the normal
    quantile and p = count / n, the centre is (p + z²/2n) / (1 + z²/n) and the half-width
    z·sqrt(p(1 − p)/n + z²/4n²) / (1 + z²/n). Unlike p ± z·sqrt(p(1 − p)/n) it stays inside 0..1 and is not of
    width 0 at 0 of n or n of n. None when ``n`` is 0. Raises ValueError for a count outside 0..n."""
    p = rate(count, n)
    if p is None:
        return None
    z2 = _Z_CONF * _Z_CONF
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = _Z_CONF * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low, high = max(0.0, centre - half), min(1.0, centre + half)
    return (0.0 if count == 0 else low), (1.0 if count == n else high)


def sdt_intervals(
    hits: int, signal_trials: int, false_alarms: int, noise_trials: int
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The :data:`CONFIDENCE` intervals of d′ and c by the delta method (Gourevitch & Galanter 1967; Macmillan &
    Creelman 2005), on the log-linear corrected rates H and F of :func:`d_prime_and_c`:
    var(d′) = H(1 − H) / (Ns·φ(Φ⁻¹(H))²) + F(1 − F) / (Nn·φ(Φ⁻¹(F))²) and var(c) = var(d′) / 4, each estimate
    ± z·sqrt(var). Returns ``((d′ low, d′ high), (c low, c high))``, or None when either kind of trial was never
    played."""
    sdt = d_prime_and_c(hits, signal_trials, false_alarms, noise_trials)
    if sdt is None:
        return None
    h, f = log_linear_rate(hits, signal_trials), log_linear_rate(false_alarms, noise_trials)
    pdf = NormalDist().pdf
    var = h * (1 - h) / (signal_trials * pdf(_Z(h)) ** 2) + f * (1 - f) / (noise_trials * pdf(_Z(f)) ** 2)
    half_d = _Z_CONF * math.sqrt(var)
    d, c = sdt
    return (d - half_d, d + half_d), (c - half_d / 2, c + half_d / 2)


#: Binomial probabilities below this are left out of :func:`a_prime_interval`'s exact distribution (their sum is
#: far below the 2.5% tails it reads).
_NEGLIGIBLE = 1e-12


def _binomial(n: int, p: float) -> list[tuple[int, float]]:
    """``(k, P(K = k))`` for K ~ Binomial(n, p), 0 < p < 1, leaving out the negligible tails."""
    log_p, log_q = math.log(p), math.log1p(-p)
    out = []
    for k in range(n + 1):
        log_pmf = math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * log_p + (n - k) * log_q
        pmf = math.exp(log_pmf)
        if pmf >= _NEGLIGIBLE:
            out.append((k, pmf))
    return out


#: Above this many pairs of counts (signal × noise, each binomial without its negligible tails: about 30 × 30 trials
#: each), the A′ interval's percentiles are found by bisection on A′ (:func:`_a_prime_quantile`) instead of by
#: sorting every pair: the same percentiles, in time that grows with the trials, not their square.
A_PRIME_SORTED_PAIRS = 20_000


def a_prime_interval(hits: int, signal_trials: int, false_alarms: int, noise_trials: int) -> tuple[float, float]:
    """The :data:`CONFIDENCE` interval of A′ (of the raw rates) by a parametric bootstrap computed exactly: the
    hit and false-alarm counts are drawn as independent binomials of the trainee's numbers of trials with the
    log-linear corrected rates (so that 10 of 10 does not claim certainty), A′ is computed from every pair of counts,
    and the interval runs from the 2.5th to the 97.5th percentile of that distribution (every pair of counts weighed
    by its probability instead of sampled: the same answer as infinitely many bootstrap samples, and no seed). The
    interval is widened to hold the estimate itself. Raises ValueError when either kind of trial was never
    played.

    Up to :data:`A_PRIME_SORTED_PAIRS` pairs, every pair is listed and sorted; above, each percentile is the
    smallest A′ value whose cumulative probability reaches it, found by bisection (A′ rises with the hit count and
    falls with the false-alarm count, so the probability of A′ ≤ a is one sweep over the counts): 10,000 + 10,000
    trials took 5.3 s sorted, 100,000 each 47 s."""
    if signal_trials <= 0 or noise_trials <= 0:
        raise ValueError("A′ needs both signal and noise trials")
    signal = _binomial(signal_trials, log_linear_rate(hits, signal_trials))
    noise = _binomial(noise_trials, log_linear_rate(false_alarms, noise_trials))
    point = a_prime(hits / signal_trials, false_alarms / noise_trials)
    if len(signal) * len(noise) > A_PRIME_SORTED_PAIRS:
        grid = _Grid(signal, signal_trials, noise, noise_trials)
        tail = (1 - CONFIDENCE) / 2 * grid.total
        low, high = grid.quantile(tail), grid.quantile(grid.total - tail)
        return min(low, point), max(high, point)
    low, high = _sorted_percentiles(signal, signal_trials, noise, noise_trials)
    return min(low, point), max(high, point)


def _sorted_percentiles(
    signal: list[tuple[int, float]], signal_trials: int, noise: list[tuple[int, float]], noise_trials: int
) -> tuple[float, float]:
    """The A′ bootstrap's percentiles from every pair of counts, sorted by A′."""
    values = sorted(
        (a_prime(kh / signal_trials, kf / noise_trials), ph * pf) for kh, ph in signal for kf, pf in noise
    )
    total = math.fsum(p for _, p in values)
    tail = (1 - CONFIDENCE) / 2 * total
    low = high = None
    seen = 0.0
    for value, p in values:
        seen += p
        if low is None and seen >= tail:
            low = value
        if seen >= total - tail:
            high = value
            break
    low = values[0][0] if low is None else low
    high = values[-1][0] if high is None else high
    return low, high


class _Grid:
    """The pairs of counts of the A′ bootstrap, never listed: the hit counts ascending with the cumulative sums of
    their probabilities, the false-alarm counts ascending with theirs."""

    def __init__(
        self, signal: list[tuple[int, float]], signal_trials: int, noise: list[tuple[int, float]], noise_trials: int
    ) -> None:
        self.hit_rates = [k / signal_trials for k, _ in signal]
        self.fa_rates = [k / noise_trials for k, _ in noise]
        self.fa_probs = [p for _, p in noise]
        self.below = [0.0]  # below[i]: the probability of the i lowest hit counts
        for _, p in signal:
            self.below.append(self.below[-1] + p)
        self.total = self.below[-1] * math.fsum(self.fa_probs)

    def at_most(self, a: float) -> float:
        """The probability of A′ ≤ ``a``: for each false-alarm count (ascending, so A′ falls and the hit counts with
        A′ ≤ a can only grow), the hit counts from the lowest up to the first whose A′ passes ``a``."""
        out, i, hits = 0.0, 0, self.hit_rates
        for f, pf in zip(self.fa_rates, self.fa_probs, strict=True):
            while i < len(hits) and a_prime(hits[i], f) <= a:
                i += 1
            out += pf * self.below[i]
        return out

    def quantile(self, target: float) -> float:
        """The smallest A′ of a pair whose cumulative probability reaches ``target``: bisection on A′ down to two
        adjacent floating-point numbers ``low`` < ``high`` with P(A′ ≤ low) < target ≤ P(A′ ≤ high); ``high`` is
        then that A′ itself."""
        low, high = -1.0, 1.0
        if self.at_most(high) < target:
            return high
        while True:
            mid = (low + high) / 2
            if mid in (low, high):
                return high
            if self.at_most(mid) >= target:
                high = mid
            else:
                low = mid
