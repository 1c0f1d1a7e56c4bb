"""Benchmark: ``warroom scores summary`` for a class of thousands of trainees, as a table and as JSON.

Run: ``.venv/bin/python benchmarks/bench_summary_table.py [--trainees N] [--sessions S] [--repeat R] [--keep DIR]``

A data directory is filled with S sessions (``bench_results.fill``: real-shaped scorecards and action logs) of N
trainees (S / N sessions each; the per-trainee table shows the first 500). Then, as whole processes written to a pipe
(the table 200 columns wide, or ``$COLUMNS``; median of R): ``warroom scores summary`` (the tables) and ``warroom
scores summary --format json`` (the same figures, no table), wall-clock and the process's own CPU time. Every
trainee's row cost about 7 s of CPU at 6,000 trainees against 0.8 s for JSON, nearly all of it Rich laying out each cell
(about 0.1 ms a cell): warroom keeps Rich's table (a library before hand-written code) and this benchmark keeps the
figure in view. Issue 30: the table shows the first 500 trainees (`SHOWN_TRAINEES`, then how many more; --all
shows them all): 3,000 trainees' tables took 4.6 s of CPU, now 1.05 s (0.6 s for JSON). Figures only: nothing here
asserts on timing.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from dataclasses import replace
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench_results  # (after the path: the store filled as bench_results fills it)


def fill(data_dir: Path, trainees: int, sessions: int) -> None:
    """``sessions`` sessions in ``data_dir``'s store, trainee ``i % trainees`` playing session ``i``."""

    def of_many(i: int, rng: random.Random, start: datetime) -> tuple:
        info, card, actions, when, wall = bench_results._session(i, rng, start)
        return (replace(info, trainee=f"trainee-{i % trainees:05d}"), card, actions, when, wall)

    bench_results.fill(data_dir, sessions, session=of_many)


def fill_drills(data_dir: Path, drills: int) -> None:
    """One trainee's ``drills`` sessions in ``data_dir``'s store, each of a drill of its own (a trial each)."""

    def each_its_drill(i: int, rng: random.Random, start: datetime) -> tuple:
        info, card, actions, when, wall = bench_results._session(i, rng, start)
        return (replace(info, trainee="ana", drill_id=f"drill-{i:05d}"), card, actions, when, wall)

    bench_results.fill(data_dir, drills, session=each_its_drill)


def measure_drills(drills: int, repeat: int) -> dict[str, float]:
    """One trainee with ``drills`` trials over as many drills: the table (the first 100 drills), the table with
    ``--all`` (every drill), JSON; wall and CPU seconds, median of ``repeat``."""
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        fill_drills(data, drills)
        d = ["--data-dir", str(data), "--mode", "all"]  # every session counted: a trial of each drill
        out: dict[str, float] = {}
        out["table"], out["table_cpu"], text = bench_results.run_cli_cpu(["scores", "summary", *d], repeat)
        assert f"and {drills - 100:,} more drills" in " ".join(text.split()), text[-800:]
        out["all"], out["all_cpu"], text = bench_results.run_cli_cpu(["scores", "summary", "--all", *d], 1)
        assert f"drill-{drills - 1:05d}" in text, text[-500:]
        out["json"], out["json_cpu"], text = bench_results.run_cli_cpu(
            ["scores", "summary", "--format", "json", *d], repeat
        )
        assert f"drill-{drills - 1:05d}" in text, text[-500:]
    return out


def measure(trainees: int, sessions: int, repeat: int, keep: Path | None = None) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        data = keep if keep is not None else Path(tmp) / "data"
        if not (data / "results.sqlite3").exists():
            fill(data, trainees, sessions)
        d = ["--data-dir", str(data)]
        out: dict[str, float] = {}
        out["table"], out["table_cpu"], text = bench_results.run_cli_cpu(["scores", "summary", *d], repeat)
        assert "trainee-00000" in text and ("more trainees" in text or trainees <= 500), text[:500]  # first 500 shown
        out["json"], out["json_cpu"], text = bench_results.run_cli_cpu(
            ["scores", "summary", "--format", "json", *d], repeat
        )
        assert f"trainee-{trainees - 1:05d}" in text, text[:500]
    return out


def results(trainees: int = 6_000, sessions: int = 18_000, repeat: int = 3, drills: int = 10_000) -> list[dict]:
    """Rows for ``run.py``."""
    m = measure(trainees, sessions, repeat)
    ratio = m["table_cpu"] / m["json_cpu"]
    d = measure_drills(drills, repeat)
    return [
        {
            "name": f"scores summary as tables ({trainees:,} trainees, {sessions:,} sessions)",
            "value": f"{m['table'] * 1000:.0f} ms (CPU {m['table_cpu'] * 1000:.0f} ms)",
            "goal": "(info: Rich lays out every cell)",
            "ratio": f"{ratio:.2f}x of JSON (CPU {m['json_cpu'] * 1000:.0f} ms)",
            "ok": None,
        },
        {
            "name": f"scores summary as tables (1 trainee, {drills:,} drills: the first 100 shown)",
            "value": f"{d['table'] * 1000:.0f} ms (CPU {d['table_cpu'] * 1000:.0f} ms)",
            "goal": "<= 1.5x of JSON (CPU)",
            "ratio": (
                f"{d['table_cpu'] / d['json_cpu']:.2f}x of JSON (CPU {d['json_cpu'] * 1000:.0f} ms); --all: "
                f"{d['all'] * 1000:.0f} ms"
            ),
            "ok": d["table_cpu"] <= 1.5 * d["json_cpu"],
        },
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trainees", type=int, default=6_000, help="trainees in the class")
    ap.add_argument("--sessions", type=int, default=18_000, help="sessions in the store")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each command; the median is reported")
    ap.add_argument("--keep", type=Path, help="fill (or reuse) this data directory instead of a temporary one")
    ap.add_argument("--drills", type=int, help="instead: one trainee with a trial of each of this many drills")
    args = ap.parse_args()
    if args.drills:
        d = measure_drills(args.drills, args.repeat)
        print(f"summary (tables, first 100 drills): {d['table'] * 1000:7.0f} ms, CPU {d['table_cpu'] * 1000:.0f} ms")
        print(f"summary --all (every drill):        {d['all'] * 1000:7.0f} ms, CPU {d['all_cpu'] * 1000:.0f} ms")
        print(f"summary --format json:              {d['json'] * 1000:7.0f} ms, CPU {d['json_cpu'] * 1000:.0f} ms")
        return
    m = measure(args.trainees, args.sessions, args.repeat, args.keep)
    print(f"warroom scores summary (tables): {m['table'] * 1000:7.0f} ms, CPU {m['table_cpu'] * 1000:.0f} ms")
    print(f"warroom scores summary (JSON):   {m['json'] * 1000:7.0f} ms, CPU {m['json_cpu'] * 1000:.0f} ms")
    print(f"tables / JSON, CPU: {m['table_cpu'] / m['json_cpu']:.2f}x")


if __name__ == "__main__":
    main()
