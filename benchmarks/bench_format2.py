"""Benchmark: format 2. Load + validate of a 10,000-event version-2 drill (agents on every event), and the replay
cost of an event repeated 1,000 times against 1,000 plain events.

Run: ``.venv/bin/python benchmarks/bench_format2.py [--events N] [--count N] [--repeat R] [--dialog-events N]``

The version-2 drill is ``bench_load.drill_text(n)`` with ``schema_version: 2``, two agents declared and an
``agent`` on every event; its goal is the version-1 load goal (< 0.3 s for 10,000 events). The repetition figure
plays a 1,000-event drill whose first tool call with a usage repeats ``count`` times, 0.01 s apart, against the same
drill with those repetitions written out as ``count`` plain events; the goal is a ratio <= 1.0 (a repeated event
costs replay no more than as many plain events).

The escalation-dialog figure (issue 15 item 14: a large drill must play as a small one does) opens the war room's
escalation dialog (``e``) on a drill of ``--dialog-events`` events (45,000 by default, the size of a 10 MiB drill;
``bench_ui.bench_entry`` builds it) with all but its last 3 events released, then ticks a citation in the evidence
list (``space``): the process CPU time of each (best of R), from posting the key until its effect is on screen
(``pilot.pause(0)``, as bench_ui.py measures keys), against the same on a 100-event drill. The goal is a ratio
<= 1.5: the dialog's cost must not grow with the released events (an evidence list that laid out every one of
them took 10 s to open on a 43,000-event drill). Figures only: nothing here asserts on timing.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_load import drill_text
from bench_replay import base_drill


def v2_text(n_events: int) -> str:
    """``drill_text(n_events)`` as a version-2 drill: agents lead (planner) and worker (executor) declared, every
    event naming its agent."""
    text = drill_text(n_events).replace("schema_version: 1", "schema_version: 2", 1)
    agents = "agents:\n  - {name: lead, role: planner}\n  - {name: worker, role: executor}\n"
    text = text.replace("plan:\n", agents + "plan:\n", 1)
    text = text.replace("    t: 0\n", "    t: 0\n    agent: lead\n", 1)
    return re.sub(r"(\n    t: (?!0\n)\d+\n)", r"\1    agent: worker\n", text)


def load_seconds(n_events: int, repeat: int) -> float:
    """Best-of-``repeat`` wall time to load and validate the version-2 drill of ``n_events`` events."""
    from warroom.core.load import load_drill

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench-large.yaml"
        path.write_text(v2_text(n_events), encoding="utf-8")
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            drill = load_drill(path)
            best = min(best, time.perf_counter() - start)
        assert drill.agents and drill.trace[1].agent == "worker"
        return best


def repetition_drills(count: int):
    """(the base drill with one tool call repeated ``count`` times, the same with the repetitions written out)."""
    from warroom.core.model import Repeat

    base = base_drill(1_000).model_copy(update={"schema_version": 2})
    trace = list(base.trace)
    i = next(k for k, e in enumerate(trace) if e.kind == "tool_call" and e.usage is not None)
    ev = trace[i]
    repeated = list(trace)
    repeated[i] = ev.model_copy(update={"repeat": Repeat(count=count, interval=0.01)})
    plain = list(trace)
    plain[i + 1 : i + 1] = [ev.model_copy(update={"id": f"{ev.id}x{k}", "t": ev.t + k * 0.01})
                            for k in range(1, count)]
    plain.sort(key=lambda e: e.t)
    return base.model_copy(update={"trace": repeated}), base.model_copy(update={"trace": plain})


def play_seconds(drill, repeat: int) -> float:
    """Best-of-``repeat`` wall time to build a Replay of ``drill`` and play it to the end in 0.5 s ticks."""
    from warroom.core.play import Replay

    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        replay = Replay(drill)
        while not replay.ended:
            replay.advance(0.5)
        best = min(best, time.perf_counter() - start)
    return best


async def _dialog_cpu(entry) -> tuple[float, float]:
    from textual import events
    from textual.clock import MockClock

    from warroom.tui.app import WarroomApp
    from warroom.tui.logic import Services
    from warroom.tui.room import EscalateScreen

    trace = entry.drill.trace
    with tempfile.TemporaryDirectory() as data:
        app = WarroomApp(Services(trainee="bench", data_dir=Path(data)), start=entry, clock=MockClock())
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("enter")  # briefing -> war room
            live = app.live
            app.clock.set_time(trace[-4].t)  # everything but the last 3 events released in one tick
            live.tick()
            await pilot.pause()

            async def timed(key: str, done) -> float:
                cpu = time.process_time()
                app.post_message(events.Key(key, " " if key == "space" else None))
                for _ in range(200):
                    await pilot.pause(0)  # messages handled, screen rendered
                    if done():
                        return time.process_time() - cpu
                raise SystemExit(f"no visible effect after {key!r}")

            opened = await timed("e", lambda: isinstance(app.screen, EscalateScreen))
            dialog = app.screen
            await pilot.press("tab", "tab")  # the evidence list
            cited = dialog.cites
            ticked = await timed("space", lambda: dialog.cites != cited)
            assert not live.replay.ended
    return opened, ticked


def dialog_cpu(n_events: int, repeat: int) -> tuple[float, float]:
    """Best-of-``repeat`` CPU seconds to open the escalation dialog and to tick a citation in it with ``n_events``
    events released (see the module docstring)."""
    from bench_ui import bench_entry

    with tempfile.TemporaryDirectory() as tmp:
        entry = bench_entry(n_events + 3, Path(tmp))
        runs = [asyncio.run(_dialog_cpu(entry)) for _ in range(repeat)]
    return min(r[0] for r in runs), min(r[1] for r in runs)


def results(events: int = 10_000, count: int = 1_000, repeat: int = 3, dialog_events: int = 45_000) -> list[dict]:
    """Rows for ``run.py``."""
    load = load_seconds(events, repeat)
    repeated, plain = repetition_drills(count)
    a, b = play_seconds(repeated, repeat), play_seconds(plain, repeat)
    opened, ticked = dialog_cpu(dialog_events, repeat)
    small = dialog_cpu(100, repeat)
    ratio = max(opened / small[0], ticked / small[1])
    return [
        {
            "name": f"Load + validate, format 2 ({events:,} ev, agents)",
            "value": f"{load * 1000:.0f} ms",
            "goal": "< 300 ms",
            "ratio": f"{load / 0.3:.2f}x of goal",
            "ok": load < 0.3,
        },
        {
            "name": f"Replay, 1 event x{count:,} vs {count:,} plain",
            "value": f"{a * 1000:.1f} ms",
            "goal": "ratio <= 1.0",
            "ratio": f"{a / b:.2f}x of plain ({b * 1000:.1f} ms)",
            "ok": a <= b,
        },
        {
            "name": f"Escalation dialog, {dialog_events:,} released ev (CPU)",
            "value": f"open {opened * 1000:.0f} ms, cite {ticked * 1000:.1f} ms",
            "goal": "ratio <= 1.5 of 100 ev",
            "ratio": f"{ratio:.2f}x of 100 ev ({small[0] * 1000:.0f} ms, {small[1] * 1000:.1f} ms)",
            "ok": ratio <= 1.5,
        },
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=10_000, help="trace events of the version-2 drill")
    ap.add_argument("--count", type=int, default=1_000, help="repetitions of the repeated event")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each; the best is reported")
    ap.add_argument("--dialog-events", type=int, default=45_000, help="released events under the escalation dialog")
    args = ap.parse_args()
    for row in results(args.events, args.count, args.repeat, args.dialog_events):
        print(f"{row['name']}: {row['value']} (goal {row['goal']}; {row['ratio']})")


if __name__ == "__main__":
    main()
