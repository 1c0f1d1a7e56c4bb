"""Benchmark: the cohort statistics (``warroom.core.stats.summarize``) over 100,000 sessions, and how they grow.

Run: ``.venv/bin/python benchmarks/bench_stats.py [--sessions N] [--small N] [--repeat R] [--profile]``

Generates N :class:`~warroom.core.stats.SessionFacts` (500 trainees, 40 drills with a fault and 10 all-clear
drills, every outcome, distractors shown and escalated on, drill and wall times to detect, practice and assessment
sessions, start times in random order) and times :func:`~warroom.core.stats.summarize` over them, every session
counted (best of R). The goal is under 1 s at 100,000 sessions, and a time per session at N within 1.5x of the one
at ``--small`` sessions (the work must grow with the sessions, not faster). Building the SessionFacts (what the CLI
does with the store's rows) is timed apart, as information. Figures only: nothing here asserts on timing.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TRAINEES = 500
FAULT_DRILLS = 40
ALL_CLEAR_DRILLS = 10
FAULT_OUTCOMES = ["contained", "contained", "contained_late", "wrong_step", "false_alarm", "missed", "abandoned"]
CLEAR_OUTCOMES = ["all_clear_held", "all_clear_held", "false_alarm", "abandoned"]


def session_rows(n: int, seed: int = 14) -> list[dict]:
    """``n`` sessions as keyword dicts of :class:`SessionFacts` (plain data, as the CLI would read from the store)."""
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        k = rng.randrange(FAULT_DRILLS + ALL_CLEAR_DRILLS)
        fault = k < FAULT_DRILLS
        outcome = rng.choice(FAULT_OUTCOMES if fault else CLEAR_OUTCOMES)
        detected = outcome in ("contained", "contained_late")
        shown = rng.randint(0, 3)
        pulled = tuple(f"e{rng.randrange(5, 40)}" for _ in range(rng.random() < 0.15 and shown))
        false = rng.choice([0, 0, 1, 2]) if outcome != "all_clear_held" and outcome != "contained" else 0
        ttd = round(rng.uniform(2, 90), 1) if detected else None
        rows.append(
            {
                "trainee": f"trainee-{rng.randrange(TRAINEES):03d}",
                "drill_id": f"drill-{k:02d}" if fault else f"all-clear-{k:02d}",
                "is_fault_drill": fault,
                "outcome": outcome,
                "score": rng.randint(60, 100) if detected else rng.randint(0, 50),
                "started_at": f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randrange(86400):05d}",
                "false_escalations": max(false, 1 if outcome == "false_alarm" else 0),
                "distractors_shown": shown,
                "distractor_escalations": tuple(dict.fromkeys(pulled)),
                "time_to_detect_s": ttd,
                "wall_time_to_detect_s": None if ttd is None or rng.random() < 0.3 else ttd * rng.uniform(1, 3),
                "mode": "assessment" if rng.random() < 0.7 else "practice",
            }
        )
    return rows


def build(rows: list[dict]) -> list:
    from warroom.core.stats import SessionFacts

    return [SessionFacts(**r) for r in rows]


def best_of(repeat: int, fn) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def measure(sessions: int, repeat: int) -> dict[str, float]:
    """Best-of-``repeat`` seconds of building ``sessions`` SessionFacts (``build``) and of summarizing them
    (``summary``), and the CPU seconds of one summary (``cpu``)."""
    from warroom.core.stats import summarize

    rows = session_rows(sessions)
    facts = build(rows)
    t_build = best_of(repeat, lambda: build(rows))
    t_summary = best_of(repeat, lambda: summarize(facts))
    cpu0 = time.process_time()
    summarize(facts)
    return {"build": t_build, "summary": t_summary, "cpu": time.process_time() - cpu0, "sessions": sessions}


def results(sessions: int = 100_000, small: int = 10_000, repeat: int = 3) -> list[dict]:
    """Rows for ``run.py``."""
    a = measure(small, repeat)
    b = measure(sessions, repeat)
    ratio = (b["summary"] / sessions) / (a["summary"] / small)
    return [
        {
            "name": f"Cohort statistics ({sessions:,} sessions)",
            "value": f"{b['summary'] * 1000:.0f} ms",
            "goal": "< 1 s; per session ratio <= 1.5",
            "ratio": (
                f"{b['summary']:.2f}x of goal; {ratio:.2f}x per session vs {small:,} ({a['summary'] * 1000:.0f} ms)"
            ),
            "ok": b["summary"] < 1.0 and ratio <= 1.5,
        },
        {
            "name": f"Build SessionFacts ({sessions:,} sessions)",
            "value": f"{b['build'] * 1000:.0f} ms",
            "goal": "(info: the CLI's share)",
            "ratio": "",
            "ok": None,
        },
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=100_000, help="sessions in the large cohort")
    ap.add_argument("--small", type=int, default=10_000, help="sessions in the small cohort (for the ratio)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each; the best is reported")
    ap.add_argument("--profile", action="store_true", help="also print a cProfile of one summary of --sessions")
    args = ap.parse_args()
    for n in (args.small, args.sessions):
        m = measure(n, args.repeat)
        print(
            f"{n:>9,} sessions: summarize {m['summary'] * 1000:8.1f} ms (CPU {m['cpu'] * 1000:.1f} ms), "
            f"{m['summary'] / n * 1e6:5.2f} µs per session; building the SessionFacts {m['build'] * 1000:8.1f} ms"
        )
    if args.profile:
        from warroom.core.stats import summarize

        facts = build(session_rows(args.sessions))
        prof = cProfile.Profile()
        prof.runcall(summarize, facts)
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
