"""Benchmark: the A′ bootstrap interval (``core.stats._measures.a_prime_interval``) of a trainee with many trials.

Run: ``.venv/bin/python benchmarks/bench_a_prime.py [--trials N ...] [--repeat R] [--sorted]``

Times the interval of a trainee with 80% hits and 20% false alarms at N signal and N noise trials (default 10,000
and 100,000; best of R). Above ``A_PRIME_SORTED_PAIRS`` pairs of counts the percentiles are found by bisection on
A′ (docs/sessions.md, "Intervals"); ``--sorted`` also times the former way, every pair listed and sorted (5.3 s at
10,000 + 10,000 trials and 47 s at 100,000 each, issue 30), which gives the same interval. The goal is under 1 s at
100,000 + 100,000 trials. Figures only: nothing here asserts on timing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def best_of(repeat: int, fn) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def interval_seconds(trials: int, repeat: int) -> float:
    from warroom.core.stats._measures import a_prime_interval

    return best_of(repeat, lambda: a_prime_interval(trials * 8 // 10, trials, trials // 5, trials))


def sorted_seconds(trials: int) -> float:
    """One run of the former way: every pair of counts sorted (``_sorted_percentiles``)."""
    from warroom.core.stats import _measures as m

    s = m._binomial(trials, m.log_linear_rate(trials * 8 // 10, trials))
    n = m._binomial(trials, m.log_linear_rate(trials // 5, trials))
    return best_of(1, lambda: m._sorted_percentiles(s, trials, n, trials))


def results(trials: tuple[int, ...] = (10_000, 100_000), repeat: int = 3) -> list[dict]:
    """Rows for ``run.py``."""
    rows = []
    for n in trials:
        t = interval_seconds(n, repeat)
        rows.append({
            "name": f"A′ interval ({n:,} + {n:,} trials)", "value": f"{t * 1000:.0f} ms", "goal": "< 1 s",
            "ratio": f"{t:.2f}x of goal", "ok": t < 1.0,
        })  # fmt: skip
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, nargs="+", default=[10_000, 100_000], help="signal (and noise) trials")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each; the best is reported")
    ap.add_argument("--sorted", action="store_true", help="also time the former way (every pair sorted; slow)")
    args = ap.parse_args()
    for n in args.trials:
        line = f"{n:>9,} + {n:,} trials: {interval_seconds(n, args.repeat) * 1000:8.1f} ms"
        if args.sorted:
            line += f"; every pair sorted: {sorted_seconds(n) * 1000:8.1f} ms"
        print(line)


if __name__ == "__main__":
    main()
