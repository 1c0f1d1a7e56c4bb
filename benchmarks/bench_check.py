"""Benchmark: ``warroom check``'s battery (``run_checks``) on the large shape-14 drill (over the old 8 MiB limit).

Run: ``.venv/bin/python benchmarks/bench_check.py [--mib M ...] [--repeat R]``

Generates shape 14 with tests/shape_support.py (shape-12's drill with audit log lines inserted into step s1) at
each size (default 1 and 9 MiB: 5,176 and 46,499 trace events), loads it, and times the check battery on the
loaded drill: best of R, wall and process CPU seconds, and the CPU per event of the largest against the smallest.
tests/unit/test_shape_drills.py loads the 9 MiB drill and runs the battery on the 1 MiB one (the verdict is the
same; the battery on the 9 MiB drill was most of that test's time). Figures only: nothing here asserts on timing.

Issue 30: the CPU per event at 9 MiB was 1.25-1.9x that at 1 MiB: the flag-and-confirm trainee copied every flag
so far (`Replay.flagged`) for each event it saw, quadratic. Fixed: 9 MiB battery 25.3 s -> 17.1 s of CPU (one run on
a loaded machine); what is left is the same work per event, each a little slower in the larger drill's bigger dicts.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))


def measure(mib: float, repeat: int) -> dict:
    """``{"wall", "cpu", "events", "passed"}``: the best of ``repeat`` runs of the battery on shape 14 of ``mib``
    MiB."""
    from shape_support import large_drill_text

    from warroom.core.author import run_checks
    from warroom.core.load import load_drill_text

    text, _n = large_drill_text(int(mib * 1024 * 1024))
    drill = load_drill_text(text, path="shape-14-large.yaml")
    wall = cpu = float("inf")
    passed = False
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        passed = run_checks(drill).passed
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return {"wall": wall, "cpu": cpu, "events": len(drill.trace), "passed": passed}


def results(sizes: tuple[float, ...] = (1, 9), repeat: int = 3) -> list[dict]:
    """Rows for ``run.py``: the battery at each size, and the CPU per event of the largest against the smallest."""
    figures = {mib: measure(mib, repeat) for mib in sizes}
    rows = [
        {"name": f"Check battery, shape 14 ({mib:g} MiB, {m['events']:,} ev)", "value": f"{m['wall']:.2f} s",
         "goal": "(info)", "ratio": f"CPU {m['cpu']:.2f} s", "ok": m["passed"]}
        for mib, m in figures.items()
    ]
    small, large = figures[min(sizes)], figures[max(sizes)]
    if len(figures) > 1:
        ratio = (large["cpu"] / large["events"]) / (small["cpu"] / small["events"])
        rows.append({"name": f"Check battery CPU per event, {max(sizes):g} vs {min(sizes):g} MiB",
                     "value": f"{ratio:.2f}x", "goal": "(info)", "ratio": f"{ratio:.2f}", "ok": True})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mib", type=float, nargs="+", default=[1, 9], help="sizes of the generated drill, in MiB")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    for row in results(tuple(args.mib), args.repeat):
        print(f"{row['name']:<55} {row['value']:>10}  {row['ratio']}  {'passed' if row['ok'] else 'FAILED'}")


if __name__ == "__main__":
    main()
