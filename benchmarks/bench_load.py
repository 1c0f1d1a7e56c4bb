"""Benchmark: load + validate generated drills of 10,000 and 50,000 trace events: time and peak memory.

Run: ``.venv/bin/python benchmarks/bench_load.py [--events N ...] [--repeat R] [--slow] [--profile]``

Goals (issue 13): a 10,000-event drill in under 0.3 s; a 50,000-event drill in under 1.5 s and under 250 MB peak
memory. Valid files take the fast path (yaml-rs, ``warroom.core.load._fast.load``); ``--slow`` also times the
position-tracking path (PyYAML nodes) that files with problems or warnings take, and a bare
``yaml.load(..., CSafeLoader)`` of the same file. Peak memory is measured in a fresh process (its peak resident
set, ``VmHWM``, interpreter and imports included) and as the peak of Python allocations (``tracemalloc``,
which does not see yaml-rs's own buffers). It also times how long a "billion laughs" alias bomb takes to be
rejected. Figures only: nothing here asserts on timing.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from warroom.core.load import DrillLoadError, load_drill, load_drill_text
from warroom.core.load._fast.load import fast_drill

STEPS = 40


def drill_text(n_events: int) -> str:
    """A valid drill with ``n_events`` trace events: a cycle of tool calls, results, messages, reports and logs."""
    per_step = max(1, n_events // STEPS)
    out = [
        "schema_version: 1",
        "id: bench-large",
        'title: "Benchmark: a very long trace"',
        "difficulty: 3",
        "author: benchmarks",
        "tags: [benchmark, pagination_truncated]",
        "briefing:",
        "  goal: Reconcile every invoice of the quarter against the ledger.",
        "  watching: A finance agent paging through the ledger API.",
        "models:",
        "  planner: {name: frontier-large, input_usd_per_mtok: 5.0, output_usd_per_mtok: 25.0}",
        "  executor: {name: fast-small, input_usd_per_mtok: 1.0, output_usd_per_mtok: 5.0}",
        "plan:",
    ]
    for s in range(STEPS):
        out += [
            f"  - id: s{s}",
            f"    title: Reconcile ledger page block {s}",
            f"    objective: Every invoice in block {s} is matched to exactly one ledger entry; mismatches are listed.",
        ]
    out.append("trace:")
    out += [
        "  - id: e0",
        "    t: 0",
        "    kind: planner_call",
        "    content: |-",
        "      Plan: reconcile the ledger block by block; report counts per block.",
        "    usage: {input_tokens: 3000, output_tokens: 800}",
    ]
    t = 1
    last_call = None
    for i in range(1, n_events):
        step = f"s{min(STEPS - 1, i // per_step)}"
        kind = i % 5
        t += 1
        head = [f"  - id: e{i}", f"    t: {t}", f"    step: {step}"]
        if kind == 0:
            out += head + [
                "    kind: executor_message",
                f"    content: Matching invoices of page {i} against the ledger; {i % 97} left to check.",
                "    usage: {input_tokens: 1150, output_tokens: 90}",
            ]
        elif kind == 1:
            last_call = f"e{i}"
            out += head + [
                "    kind: tool_call",
                "    tool: ledger.list_entries",
                f"    arguments: {{account: acct_{i % 13}, page: {i}, page_size: 100, since: '2026-07-01'}}",
                "    usage: {input_tokens: 1220, output_tokens: 160}",
            ]
        elif kind == 2:
            out += head + [
                "    kind: tool_result",
                f"    call: {last_call}",
                "    status: HTTP 200",
                f"    duration_ms: {100 + i % 400}",
                "    output:",
                "      object: list",
                "      has_more: true",
                f"      next_cursor: cur_{i:06d}",
                "      data:",
                f"        - {{id: le_{i}a, amount_cents: {1000 + i}, currency: usd, invoice: inv_{i}a}}",
                f"        - {{id: le_{i}b, amount_cents: {2000 + i}, currency: usd, invoice: inv_{i}b}}",
            ]
        elif kind == 3:
            out += head + [
                "    kind: executor_report",
                "    status: success",
                f"    content: Page {i} reconciled, 2 entries matched.",
                "    usage: {input_tokens: 1300, output_tokens: 70}",
            ]
        else:
            out += head + [
                "    kind: log",
                "    source: ledger-api",
                "    level: info",
                f'    content: "GET /v1/ledger/entries?page={i} 200 ({100 + i % 400} ms)"',
            ]
    out += [
        "answer_key:",
        "  fault:",
        "    origin_step: s0",
        "    kind: pagination_truncated",
        "    summary: The agent stopped at the first page of each block.",
        "  evidence: [e2]",
        "  cascade: [s1, s2]",
        "  damage:",
        "    unit: invoices left unreconciled",
        "    entries:",
        f"      - {{event: e{n_events - 2}, amount: 120}}",
        f"  deadline: {t}",
        "  debrief: has_more was true on every page and nobody followed the cursor.",
        "distractors:",
        "  - event: e4",
        "    why_harmless: A slow GET is normal under load.",
    ]
    return "\n".join(out) + "\n"


def best_of(repeat: int, fn) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def best_cpu_of(repeat: int, fn) -> float:
    """Best-of-``repeat`` process CPU seconds (less sensitive than wall time to other work on the machine)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


_MEMORY_PROBE = """
import resource, sys, tracemalloc
from warroom.core.load._loader import load_drill
import warroom.core.load._fast.load, warroom.core.model._drill, warroom.core.rules._validate, pydantic, yaml_rs

def peak():  # this process's peak resident set, in bytes (VmHWM; ru_maxrss where /proc is missing)
    try:
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

before = peak()
if sys.argv[2] == "slow":
    warroom.core.load._fast.load.fast_drill = lambda text: None
drill = load_drill(sys.argv[1])  # the resident peak, without tracemalloc's own bookkeeping
rss = peak()
del drill
tracemalloc.start()
drill = load_drill(sys.argv[1])
peak_py = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
print(before, rss, peak_py, len(drill.trace))
"""


def memory(path: Path, slow: bool = False) -> dict[str, float]:
    """Peak memory of ``load_drill(path)`` in a fresh process, in bytes: ``rss_before`` (interpreter and imports),
    ``rss_peak`` (the process's peak resident set after the load) and ``python_peak`` (tracemalloc's peak)."""
    out = subprocess.run(
        [sys.executable, "-c", _MEMORY_PROBE, str(path), "slow" if slow else "fast"],
        capture_output=True, text=True, check=True, cwd=Path(__file__).resolve().parent.parent,
    ).stdout.split()
    return {"rss_before": float(out[0]), "rss_peak": float(out[1]), "python_peak": float(out[2])}


def measure(events: int = 10_000, repeat: int = 5, slow: bool = False, mem: bool = True) -> dict[str, float]:
    """Figures for a generated drill of ``events`` trace events: best-of-``repeat`` wall seconds (``load``) and CPU
    seconds (``cpu``) of ``load_drill``, the file's size (``mb``), its memory (see :func:`memory`), and with
    ``slow`` the position-tracking path's time (``slow``) and a bare ``yaml.load(CSafeLoader)`` (``yaml``)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench-large.yaml"
        path.write_text(drill_text(events), encoding="utf-8")
        text = path.read_text(encoding="utf-8")
        if fast_drill(text) is None:
            raise SystemExit("the generated drill did not take the fast path")
        assert len(load_drill(path).trace) == events
        figures = {
            "load": best_of(repeat, lambda: load_drill(path)),
            "cpu": best_cpu_of(repeat, lambda: load_drill(path)),
            "mb": path.stat().st_size / 1e6,
        }
        if mem:
            figures.update(memory(path))
        if slow:
            import warroom.core.load._fast.load as fastload

            def slow_load() -> None:
                saved = fastload.fast_drill
                fastload.fast_drill = lambda _text: None
                try:
                    load_drill(path)
                finally:
                    fastload.fast_drill = saved

            def bare() -> None:
                with path.open("rb") as f:
                    yaml.load(f, Loader=yaml.CSafeLoader)

            figures["slow"] = best_of(max(1, repeat // 2), slow_load)
            figures["yaml"] = best_of(max(1, repeat // 2), bare)
        return figures


#: events -> (seconds, MB of peak resident memory or None): the goals of issue 13.
GOALS = {10_000: (0.3, None), 50_000: (1.5, 250)}


def results(sizes: tuple[int, ...] = (10_000, 50_000), repeat: int = 5) -> list[dict]:
    """Rows for ``run.py``: load + validate time for each size, and peak memory for the largest."""
    rows = []
    for events in sizes:
        m = measure(events, repeat, mem=events == max(sizes))
        seconds, megabytes = GOALS.get(events, (None, None))
        rows.append({
            "name": f"Load + validate ({events:,} ev, {m['mb']:.1f} MB)",
            "value": f"{m['load'] * 1000:.0f} ms",
            "goal": f"< {seconds * 1000:.0f} ms" if seconds else "(info)",
            "ratio": f"{m['load'] / seconds:.2f}x of goal (CPU {m['cpu'] * 1000:.0f} ms)" if seconds else "",
            "ok": m["load"] < seconds if seconds else None,
        })
        if "rss_peak" in m:
            peak = m["rss_peak"] / 1048576
            rows.append({
                "name": f"Load peak memory ({events:,} ev, whole process)",
                "value": f"{peak:.0f} MB",
                "goal": f"< {megabytes} MB" if megabytes else "(info)",
                "ratio": f"imports {m['rss_before'] / 1048576:.0f} MB, Python peak {m['python_peak'] / 1048576:.0f} MB",
                "ok": peak < megabytes if megabytes else None,
            })
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, nargs="+", default=[10_000, 50_000], help="trace events per drill")
    ap.add_argument("--repeat", type=int, default=5, help="runs of each; the best is reported")
    ap.add_argument("--slow", action="store_true", help="also time the position-tracking path and bare yaml.load")
    ap.add_argument("--profile", action="store_true", help="also print a pyinstrument profile of one load")
    args = ap.parse_args()

    for events in args.events:
        m = measure(events, args.repeat, slow=args.slow)
        print(f"drill: {events:,} trace events, {m['mb']:.2f} MB")
        print(f"  load_drill (load + validate):  {m['load'] * 1000:8.1f} ms wall, {m['cpu'] * 1000:8.1f} ms CPU "
              f"(best of {args.repeat})")
        print(f"  peak resident memory:          {m['rss_peak'] / 1048576:8.1f} MB (imports: "
              f"{m['rss_before'] / 1048576:.1f} MB); Python peak {m['python_peak'] / 1048576:.1f} MB")
        if args.slow:
            print(f"  position-tracking path:        {m['slow'] * 1000:8.1f} ms")
            print(f"  yaml.load(CSafeLoader):        {m['yaml'] * 1000:8.1f} ms")
            slow_mem = memory_for(events)
            print(f"  position-tracking peak memory: {slow_mem['rss_peak'] / 1048576:8.1f} MB")
        if args.profile:
            from pyinstrument import Profiler

            text = drill_text(events)
            profiler = Profiler()
            profiler.start()
            load_drill_text(text)
            profiler.stop()
            print(profiler.output_text(unicode=True, color=False))

    levels = "\n".join(
        f"l{i}: &l{i} [" + ",".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 10)
    )
    bomb = 'schema_version: 1\nl0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + levels + "\n"

    def reject() -> None:
        try:
            load_drill_text(bomb, "billion-laughs.yaml")
        except DrillLoadError:
            return
        raise SystemExit("the billion-laughs file was accepted")

    t_bomb = best_of(args.repeat, reject)
    print(f"billion laughs rejected in:    {t_bomb * 1000:8.1f} ms")


def memory_for(events: int) -> dict[str, float]:
    """:func:`memory` of the position-tracking path on a generated drill of ``events`` trace events."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench-large.yaml"
        path.write_text(drill_text(events), encoding="utf-8")
        return memory(path, slow=True)


if __name__ == "__main__":
    main()
