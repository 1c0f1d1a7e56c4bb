"""Benchmark: replay time per released trace event, on a 1,000-event and a 100,000-event drill.

Run: ``.venv/bin/python benchmarks/bench_replay.py [--small N] [--large N] [--tick S] [--repeat R]``

The drill clock is advanced as the war room does, in ticks (``--tick`` seconds of drill time each, 0.5 by default:
the 10 Hz ticker at 5x speed), from 0 to the end of the trace; a trainee's inspect action is recorded on every
released tool result. The figure is the wall time of the whole run divided by the events released (best of R
runs; building the :class:`Replay` is timed apart). The goal is a large/small ratio <= 1.2: the work per tick must
depend on the events it releases, not on the trace's length. Figures only: nothing here asserts on timing.

The large drill is more than the loader's file-size limit allows (100,000 events is about 22 MB of YAML), so it is
built by copying a loaded, validated 1,000-event drill (``bench_load.drill_text``) with fresh ids and times.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_load import drill_text


def base_drill(n_events: int):
    """A generated drill of ``n_events`` (at most 30,000: the loader's file-size limit), loaded and validated."""
    from warroom.core.load import load_drill

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench-replay.yaml"
        path.write_text(drill_text(n_events), encoding="utf-8")
        return load_drill(path)


def scaled_drill(base, n_events: int):
    """``base`` with its trace repeated (fresh ids, times shifted) to ``n_events`` events; the answer key, plan
    and models are kept. Every event is a validated model copied with ``model_copy``."""
    trace = list(base.trace)
    if n_events <= len(trace):
        return base.model_copy(update={"trace": trace[:n_events]})
    span = trace[-1].t + 1
    out = list(trace)
    k = 1
    while len(out) < n_events:
        for ev in trace[1:]:
            if len(out) >= n_events:
                break
            update = {"id": f"{ev.id}r{k}", "t": ev.t + k * span}
            if ev.kind == "tool_result":
                update["call"] = f"{ev.call}r{k}"
            out.append(ev.model_copy(update=update))
        k += 1
    return base.model_copy(update={"trace": out})


def run_once(drill, tick: float) -> tuple[float, float, int]:
    """(seconds to build the Replay, seconds to play it to the end, events released)."""
    from warroom.core.play import Replay

    start = time.perf_counter()
    replay = Replay(drill)
    built = time.perf_counter()
    released = 0
    while not replay.ended:
        for ev in replay.advance(tick):
            released += 1
            if ev.kind == "tool_result":
                replay.inspect(ev.id)
    done = time.perf_counter()
    return built - start, done - built, released


def measure(drill, tick: float, repeat: int) -> dict[str, float]:
    """Best-of-``repeat`` figures: ``build`` (s), ``play`` (s), ``per_event`` (s per released event), ``events``."""
    best = None
    for _ in range(repeat):
        build, play, n = run_once(drill, tick)
        if best is None or play < best[1]:
            best = (build, play, n)
    build, play, n = best
    return {"build": build, "play": play, "per_event": play / n, "events": n}


def results(small: int = 1_000, large: int = 100_000, tick: float = 0.5, repeat: int = 3) -> list[dict]:
    """Rows for ``run.py``."""
    base = base_drill(small)
    a = measure(scaled_drill(base, small), tick, repeat)
    b = measure(scaled_drill(base, large), tick, repeat)
    ratio = b["per_event"] / a["per_event"]
    return [
        {
            "name": f"Replay per released event ({large:,} ev)",
            "value": f"{b['per_event'] * 1e6:.2f} µs",
            "goal": "ratio <= 1.2",
            "ratio": f"{ratio:.2f}x vs {small:,} ev ({a['per_event'] * 1e6:.2f} µs)",
            "ok": ratio <= 1.2,
        },
        {
            "name": f"Replay build ({large:,} ev)",
            "value": f"{b['build'] * 1000:.1f} ms",
            "goal": "(info: once per session)",
            "ratio": f"{b['build'] / a['build']:.0f}x for {large // small}x events",
            "ok": None,
        },
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", type=int, default=1_000, help="trace events of the short drill")
    ap.add_argument("--large", type=int, default=100_000, help="trace events of the long drill")
    ap.add_argument("--tick", type=float, default=0.5, help="drill seconds per advance() call")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each; the best is reported")
    args = ap.parse_args()
    base = base_drill(args.small)
    for n in (args.small, args.large):
        m = measure(scaled_drill(base, n), args.tick, args.repeat)
        print(
            f"{n:>9,} events: build {m['build'] * 1000:8.1f} ms, play {m['play'] * 1000:8.1f} ms, "
            f"{m['per_event'] * 1e6:6.2f} µs per released event"
        )
        if n == args.small:
            first = m["per_event"]
    print(f"ratio per event: {m['per_event'] / first:.2f}x (goal: <= 1.2)")


if __name__ == "__main__":
    main()
