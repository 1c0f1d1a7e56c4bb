"""The cohort figures in words, one cell each, as every view shows them (``warroom scores summary``, ``warroom
report``, the facilitator's console): a rate with its counts and 95% interval, an estimate with its interval, and
d′ or, below its minimums, the trials it would rest on (docs/sessions.md, "Cohort statistics")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.core.text import number, percent, seconds

if TYPE_CHECKING:
    from warroom.core.stats._figures import DrillStats, TraineeStats


def two(value: float) -> str:
    """``value`` with two decimals, never ``-0.00``."""
    return f"{value:.2f}".replace("-0.00", "0.00")


def interval_text(low: float, high: float, unit: str = "") -> str:
    """A share's 95% interval in whole percentages, ``45–94`` (``unit`` after each bound: ``45%–94%``). An interval
    is never shown narrower than it is: a low bound under 1 is at most 99 and a high bound over 0 at least 1, so the
    interval of 10,000 of 10,000 is ``99–100``, not ``100–100`` (a rate known exactly)."""
    shown_low = min(int(number(low * 100, 0)), 99) if low < 1 else 100
    shown_high = max(int(number(high * 100, 0)), 1) if high > 0 else 0
    return f"{shown_low}{unit}–{shown_high}{unit}"


def rate_cell(count: int, n: int, low: float | None, high: float | None) -> str:
    """A rate with its counts and 95% interval: ``7/9 78% [45–94]`` (``-`` for none of 0); see :func:`interval_text`
    and :func:`~warroom.core.text.percent` for the shares near 0 and 1 (``9999/10000 >99% [99–100]``)."""
    if not n or low is None or high is None:
        return "-"
    return f"{count}/{n} {percent(count / n)} [{interval_text(low, high)}]"


def estimate_cell(value: float | None, low: float | None, high: float | None) -> str:
    """An estimate with its 95% interval: ``1.62 [0.85, 2.40]`` (``-`` for none)."""
    if value is None or low is None or high is None:
        return "-"
    return f"{two(value)} [{two(low)}, {two(high)}]"


def median_cell(value: float | None, trials: int) -> str:
    """A median time to detect with the trials it is the median of: ``14 s (n=12)`` (``-`` for none)."""
    return "-" if value is None else f"{seconds(value)} (n={trials:,})"


def too_few(t: TraineeStats) -> str:
    """The cell of d′ below its minimums: ``too few trials (7 signal, 2 noise)``."""
    return f"too few trials ({t.signal_trials} signal, {t.noise_trials} noise)"


def d_prime_cell(t: TraineeStats) -> str:
    """A trainee's d′ with its 95% interval, or ``too few trials (7 signal, 2 noise)`` below the minimums."""
    return estimate_cell(t.d_prime, t.d_prime_low, t.d_prime_high) if t.enough_trials else too_few(t)


def discrimination_cell(d: DrillStats) -> str:
    """A drill's discrimination with its 95% interval and the trials it rests on: ``0.59 [-0.10, 0.89] (n=9)``
    (``-`` for none)."""
    cell = estimate_cell(d.discrimination, d.discrimination_low, d.discrimination_high)
    return cell if cell == "-" else f"{cell} (n={d.discrimination_trials:,})"


def drill_cells(d: DrillStats) -> list[str]:
    """A drill's line of the per-drill table, as text (to be cleaned or escaped where it is shown): drill, trials,
    replays, trainees, quit, difficulty [95%], discrimination, median ttd, median wall ttd, distractor pulls."""
    return [
        d.drill_id + (" (noise only)" if d.all_clear else ""), str(d.trials), str(d.replays), str(d.trainees),
        str(d.abandoned), rate_cell(d.correct, d.trials, d.difficulty_low, d.difficulty_high),
        discrimination_cell(d), median_cell(d.median_time_to_detect, d.time_to_detect_trials),
        median_cell(d.median_wall_time_to_detect, d.wall_time_to_detect_trials),
        ", ".join(f"{e} ×{n}" for e, n in d.distractor_pulls.items()) or "-",
    ]  # fmt: skip
