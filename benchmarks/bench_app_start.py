"""Benchmark: the CPU one terminal UI test spends before it does anything, starting a headless app.

Run: ``.venv/bin/python benchmarks/bench_app_start.py [--repeat R] [--drill ID]``

Starts ``WarroomApp`` headless as the terminal UI tests do (``App.run_test`` at 100x30, a mock clock, a temporary
data directory), opened at a bundled drill's briefing (``duplicate-charge-refunds`` by default), presses enter to
open the war room, lets it settle (``pilot.pause()``) and leaves: the process CPU time of each start, R starts
after one warm-up (the first start imports and compiles what later ones reuse). The figure is the floor under the
test suite's time (benchmarks/README.md, "Test-suite time against its baseline on one machine"): the suite starts
about 300 apps. No goal of its own; figures only, nothing here asserts on timing.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


async def _start_once(drill_id: str, data_dir: Path) -> None:
    from textual.clock import MockClock

    from warroom.core.library import bundled_drills_dir
    from warroom.tui.app import WarroomApp
    from warroom.tui.logic import Services, load_entry

    entry = load_entry(bundled_drills_dir() / f"{drill_id}.yaml")
    app = WarroomApp(Services(trainee="bench", data_dir=data_dir), start=entry, clock=MockClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert app.live is not None, "the war room did not open"


def cpu_per_start(repeat: int = 10, drill_id: str = "duplicate-charge-refunds") -> list[float]:
    """The CPU seconds (process time, all threads) of each of ``repeat`` headless app starts, after a warm-up."""
    out: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(repeat + 1):
            before = time.process_time()
            asyncio.run(_start_once(drill_id, Path(tmp) / f"data{i}"))
            if i:  # the first start is the warm-up
                out.append(time.process_time() - before)
    return out


def results(repeat: int = 10) -> list[dict]:
    """One row for ``run.py``: the median CPU of a start (no goal: ``ok`` is None)."""
    times = cpu_per_start(repeat)
    return [{
        "name": "terminal UI app start, headless, to the war room (process CPU)",
        "value": f"{statistics.median(times) * 1000:.0f} ms (min {min(times) * 1000:.0f} ms)",
        "goal": "(info: the test suite's floor)",
        "ratio": "",
        "ok": None,
    }]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--drill", default="duplicate-charge-refunds")
    args = ap.parse_args()
    times = cpu_per_start(args.repeat, args.drill)
    print(f"{len(times)} starts of {args.drill}: CPU median {statistics.median(times) * 1000:.0f} ms, "
          f"min {min(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
