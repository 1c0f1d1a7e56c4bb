"""Benchmark: war room key latency, from a key press to the repainted screen, on a short and a long trace.

Run: ``.venv/bin/python benchmarks/bench_ui.py [--small N] [--large N] [--presses P] [--profile]``

For each trace length, a generated drill (``bench_load.drill_text``) is opened in the real app under
``App.run_test()`` on a mock clock; the drill clock is moved to just before the last event (one tick releases the
whole trace into the Timeline), and then each measured key is pressed ``P`` times:

- ``up`` / ``down``: move the selection in the trace table (the inspector and the plan panel follow it);
- ``enter``: inspect the selected event (an action journalled with fsync; focus moves to the inspector and is
  given back untimed);
- ``space``: pause / resume the drill clock;
- ``tick``: one tick of the drill clock that releases 2 new events into the table (while the trainee reads an
  older row), so the cost of a growing table shows too.

A sample runs from handing the key to the app's driver until the key and every message it caused were handled
(Pilot's ``_wait_for_screen``, repeated until the expected effect is visible: cursor moved, action recorded, clock
paused) and the screen's compositor has rendered the update (``screen._on_timer_update()``, what
``pilot.pause()`` ends with). ``pilot.press()`` + ``pilot.pause()`` is not used for the figure because each of them
sleeps in 20 ms slices until the process looks idle (``textual._wait.wait_for_idle``): that harness floor (60 ms
and more per key) is the same for any trace length and is reported separately as ``pilot``. The goal is a median
under 50 ms on the long trace and a long/short ratio <= 1.3. Figures only: nothing here asserts on timing.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_load import drill_text  # noqa: E402

KEYS = ("up", "down", "enter", "space", "tick")


async def _measure(path: Path, presses: int, profile: bool = False) -> dict[str, list[float]]:
    from textual import events
    from textual.clock import MockClock

    from warroom.tui.app import WarroomApp
    from warroom.tui.services import Services, load_entry
    from warroom.tui.inspector import Inspector
    from warroom.tui.timeline import Timeline

    entry = load_entry(path)
    assert entry.ok, entry.problems
    trace = entry.drill.trace
    n = len(trace)
    with tempfile.TemporaryDirectory() as data:
        services = Services(trainee="bench", data_dir=Path(data))
        app = WarroomApp(services, start=entry, speed=1.0, clock=MockClock())
        samples: dict[str, list[float]] = {k: [] for k in (*KEYS, "pilot")}
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("enter")  # briefing -> war room
            live = app.live
            # Release all but the last 2 * presses + 1 events in one tick (the drill must not end: no debrief).
            held = min(n - 2, 2 * presses + 1)
            app.clock.set_time(trace[n - 1 - held].t)
            live.tick()
            await pilot.pause()
            timeline = live.query_one(Timeline)
            inspector = live.query_one(Inspector)
            assert timeline.row_count == n - held, (timeline.row_count, n, held)
            await pilot.press("up", "up", "up")  # away from the newest row: the table stops following
            await pilot.pause()

            async def settle(key: str, done) -> None:
                for _ in range(50):
                    await pilot._wait_for_screen()
                    if done():
                        break
                else:
                    raise SystemExit(f"no visible effect after {key!r}: {trace_state()}")
                await pilot._wait_for_screen()
                app.screen._on_timer_update()

            def trace_state() -> str:
                return f"row={timeline.cursor_row} rows={timeline.row_count} focus={app.focused} paused={live.paused}"

            async def timed(key: str, done) -> None:
                start = time.perf_counter()
                event = events.Key(key, " " if key == "space" else None)
                event.set_sender(app)
                app._driver.send_message(event)
                await settle(key, done)
                samples[key].append(time.perf_counter() - start)

            profiler = None
            if profile:
                from pyinstrument import Profiler

                profiler = Profiler(async_mode="enabled")
                profiler.start()
            for i in range(presses):
                row = timeline.cursor_row
                await timed("up", lambda: timeline.cursor_row == row - 1 and inspector.scroll_y == 0)
                await timed("down", lambda: timeline.cursor_row == row)
                if i % 2 == 0:  # keep moving up through the table
                    await pilot.press("up")
                count = len(live.replay.actions)
                await timed("enter", lambda: len(live.replay.actions) == count + 1 and inspector.has_focus)
                timeline.focus()
                await pilot.pause()
                paused = live.paused
                await timed("space", lambda: live.paused != paused)
                if live.paused:
                    await pilot.press("space")  # resume (untimed), so the next tick releases events
                rows = timeline.row_count
                start = time.perf_counter()
                app.clock.set_time(trace[rows + 1].t)  # the next 2 events come due
                live.tick()
                await settle("tick", lambda: timeline.row_count == rows + 2)
                samples["tick"].append(time.perf_counter() - start)
                start = time.perf_counter()
                await pilot.press("down" if i % 2 == 0 else "up")
                await pilot.pause()
                samples["pilot"].append(time.perf_counter() - start)
            if profiler is not None:
                profiler.stop()
                print(profiler.output_text(unicode=True, color=False, show_all=False))
            assert not live.replay.ended
    return samples


def measure(n_events: int, presses: int, profile: bool = False) -> dict[str, float]:
    """Median latency in seconds per key (``all``: the mean of the key medians; ``pilot``: the harness figure) on
    an ``n_events`` drill."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"bench-ui-{n_events}.yaml"
        path.write_text(drill_text(n_events), encoding="utf-8")
        samples = asyncio.run(_measure(path, presses, profile))
    out = {k: statistics.median(v) for k, v in samples.items()}
    # Overall: the mean of the per-key medians (a median pooled over keys would jump between the fast keys and the
    # slow ones with the sample mix).
    out["all"] = statistics.fmean(out[k] for k in KEYS)
    return out


def results(small: int = 100, large: int = 10_000, presses: int = 20) -> list[dict]:
    """Rows for ``run.py``: one per key and one overall."""
    a = measure(small, presses)
    b = measure(large, presses)
    rows = []
    for key in (*KEYS, "all", "pilot"):
        if key == "pilot":
            rows.append(
                {
                    "name": f"UI pilot.press+pause median ({large:,} ev)",
                    "value": f"{b[key] * 1000:.1f} ms",
                    "goal": "(harness floor, info)",
                    "ratio": f"{b[key] / a[key]:.2f}x vs {small:,} ev ({a[key] * 1000:.1f} ms)",
                    "ok": None,
                }
            )
            continue
        rows.append(
            {
                "name": f"UI key '{key}' median ({large:,} ev)" if key != "all" else f"UI mean of key medians ({large:,} ev)",
                "value": f"{b[key] * 1000:.1f} ms",
                "goal": "< 50 ms, ratio <= 1.3",
                "ratio": f"{b[key] / a[key]:.2f}x vs {small:,} ev ({a[key] * 1000:.1f} ms)",
                "ok": b[key] < 0.050 and b[key] / a[key] <= 1.3,
            }
        )
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", type=int, default=100, help="trace events of the short drill")
    ap.add_argument("--large", type=int, default=10_000, help="trace events of the long drill")
    ap.add_argument("--presses", type=int, default=20, help="samples per key")
    ap.add_argument("--profile", action="store_true", help="profile the long drill's key presses (pyinstrument)")
    args = ap.parse_args()
    if args.profile:
        measure(args.large, args.presses, profile=True)
        return
    a = measure(args.small, args.presses)
    b = measure(args.large, args.presses)
    print(f"{'key':8} {args.small:>10,} ev {args.large:>10,} ev   ratio")
    for key in (*KEYS, "all", "pilot"):
        print(f"{key:8} {a[key] * 1000:10.1f} ms {b[key] * 1000:10.1f} ms  {b[key] / a[key]:5.2f}x")
    print("goal: median < 50 ms on the long drill, ratio <= 1.3")


if __name__ == "__main__":
    main()
