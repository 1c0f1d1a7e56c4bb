"""Run every warroom benchmark and print one table: each figure, its goal, and the ratio that matters.

Run: ``.venv/bin/python benchmarks/run.py [--quick] [--only NAME ...]``

The full run (about a minute and a half on a 2-core machine) uses the sizes the goals name; ``--quick`` uses
smaller ones (its ratios are indicative only). Each benchmark is also a script of its own with more options and a
profiler switch; see benchmarks/README.md. Exit status is 0 even when a goal is missed: these are figures, not
tests.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

#: name -> (module, keyword arguments of its results() for a full run, for a quick run)
BENCHMARKS: dict[str, tuple[str, dict, dict]] = {
    "load": ("bench_load", {"sizes": (10_000, 50_000), "repeat": 5}, {"sizes": (10_000, 50_000), "repeat": 1}),
    "format2": (
        "bench_format2",
        {"events": 10_000, "count": 1_000, "repeat": 3},
        {"events": 10_000, "count": 1_000, "repeat": 1},
    ),
    "check": ("bench_check", {"sizes": (1, 9), "repeat": 3}, {"sizes": (1, 9), "repeat": 1}),
    "validate": ("bench_validate", {"refs": 10_000, "repeat": 3}, {"refs": 10_000, "repeat": 1}),
    "syntax-error": ("bench_syntax_error", {"sizes": (1, 9), "repeat": 3}, {"sizes": (1, 9), "repeat": 1}),
    "replay": (
        "bench_replay",
        {"small": 1_000, "large": 100_000, "repeat": 5},
        {"small": 1_000, "large": 20_000, "repeat": 2},
    ),
    "ui": ("bench_ui", {"small": 100, "large": 100_000, "presses": 20}, {"small": 100, "large": 10_000, "presses": 6}),
    "results": ("bench_results", {"sessions": 100_000, "repeat": 3}, {"sessions": 10_000, "repeat": 1}),
    "report": ("bench_report", {"sessions": 10_000, "repeat": 3}, {"sessions": 2_000, "repeat": 1}),
    "summary-table": (
        "bench_summary_table",
        {"trainees": 6_000, "sessions": 18_000, "repeat": 3},
        {"trainees": 1_000, "sessions": 3_000, "repeat": 1, "drills": 1_000},
    ),
    "stats": (
        "bench_stats",
        {"sessions": 100_000, "small": 10_000, "repeat": 3},
        {"sessions": 20_000, "small": 2_000, "repeat": 1},
    ),
    "a-prime": ("bench_a_prime", {"trials": (10_000, 100_000), "repeat": 3}, {"trials": (10_000,), "repeat": 1}),
    "startup": ("bench_startup", {"repeat": 5}, {"repeat": 2}),
    "picker": ("bench_picker", {"copies": 10, "repeat": 3}, {"copies": 3, "repeat": 1}),
    "import": ("bench_import", {"repeat": 3}, {"repeat": 1}),
    "store-import": ("bench_store_import", {"sessions": 10_000, "repeat": 3}, {"sessions": 2_000, "repeat": 1}),
    "pg_store": ("bench_pg_store", {"sessions": 1_000_000, "repeat": 3}, {"sessions": 50_000, "repeat": 1}),
    "migrate": ("bench_migrate", {"sessions": 1_000_000}, {"sessions": 50_000}),
    "serve": (
        "bench_serve",
        {"trainees": 20, "seconds": 60.0, "interval": 2.0},
        {"trainees": 4, "seconds": 10.0, "interval": 2.0},
    ),
    "console": ("bench_console", {"trainees": 3_000, "changed": 30, "repeat": 3}, {"trainees": 1_000, "changed": 30}),
    "import-otel": ("bench_import_otel", {"repeat": 3}, {"repeat": 1}),
    "import-agents": (
        "bench_import_agents",
        {"small": 500, "large": 5000, "repeat": 3},
        {"small": 200, "large": 2000, "repeat": 1},
    ),
    "app-start": ("bench_app_start", {"repeat": 10}, {"repeat": 3}),
    "project": ("bench_project", {"repeat": 3}, {"repeat": 1}),
    "author": ("bench_author", {"events": 20_000, "repeat": 3}, {"events": 20_000, "repeat": 1}),
    "verify": ("bench_verify", {"sessions": 3_000, "repeat": 3}, {"sessions": 600, "repeat": 1}),
}


def machine() -> str:
    """nproc, CPU model, Python and Textual versions: the line the README's figures come with."""
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        cpu = platform.processor() or cpu
    try:
        from importlib.metadata import version

        textual = version("textual")
    except Exception:  # a figure line, not a failure
        textual = "?"
    return f"{os.cpu_count()} CPUs ({cpu}), Python {platform.python_version()}, Textual {textual}, {platform.system()}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes, fewer repeats (ratios are indicative only)")
    ap.add_argument("--only", nargs="+", choices=sorted(BENCHMARKS), help="run only these benchmarks")
    args = ap.parse_args()
    import importlib

    rows: list[dict] = []
    started = time.perf_counter()
    for name, (module, full, quick) in BENCHMARKS.items():
        if args.only and name not in args.only:
            continue
        print(f"running {name} ...", file=sys.stderr, flush=True)
        t0 = time.perf_counter()
        rows.extend(importlib.import_module(module).results(**(quick if args.quick else full)))
        print(f"  {name}: {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)

    widths = [max(len(h), *(len(str(r[k])) for r in rows)) for h, k in
              (("benchmark", "name"), ("figure", "value"), ("goal", "goal"), ("ratio that matters", "ratio"))]
    header = ("benchmark", "figure", "goal", "ratio that matters", "met")
    print()
    print(machine() + (" (quick run)" if args.quick else ""))
    print("  ".join(h.ljust(w) for h, w in zip(header, [*widths, 3], strict=True)))
    print("  ".join("-" * w for w in [*widths, 3]))
    for r in rows:
        met = {True: "yes", False: "NO", None: "-"}[r["ok"]]
        cells = [r["name"], r["value"], r["goal"], r["ratio"]]
        print("  ".join(str(c).ljust(w) for c, w in zip(cells, widths, strict=True)) + "  " + met)
    missed = [r["name"] for r in rows if r["ok"] is False]
    print()
    print(f"{len(rows)} figures in {time.perf_counter() - started:.0f} s; goals missed: {len(missed)}")
    for name in missed:
        print(f"  missed: {name}")


if __name__ == "__main__":
    main()
