"""Benchmark: load + validate a 10,000-event drill against a bare ``yaml.load(..., CSafeLoader)`` of the same file.

Run: ``.venv/bin/python benchmarks/bench_load.py [--events N] [--repeat R] [--profile]``

Prints the file size, the best-of-R time of each, and the ratio ``load_drill / yaml.load``. The goal is a ratio of
at most 1.5: the loader's own work (building values from the node tree, pydantic validation, the semantic rules)
must cost less than half of what PyYAML's constructor costs on top of libyaml's parser. It also times how long a
"billion laughs" alias bomb takes to be rejected. Figures only: nothing here asserts on timing.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from warroom.core.loader import DrillLoadError, load_drill, load_drill_text  # noqa: E402

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


def measure(events: int = 10_000, repeat: int = 5) -> dict[str, float]:
    """Best-of-``repeat`` seconds of ``load_drill`` and of a bare ``yaml.load(CSafeLoader)`` on a generated drill."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench-large.yaml"
        path.write_text(drill_text(events), encoding="utf-8")
        assert len(load_drill(path).trace) == events

        def bare() -> None:
            with path.open("rb") as f:
                yaml.load(f, Loader=yaml.CSafeLoader)

        return {
            "yaml": best_of(repeat, bare),
            "load": best_of(repeat, lambda: load_drill(path)),
            "mb": path.stat().st_size / 1e6,
        }


def results(events: int = 10_000, repeat: int = 5) -> list[dict]:
    """Rows for ``run.py``."""
    m = measure(events, repeat)
    ratio = m["load"] / m["yaml"]
    return [
        {
            "name": f"Load + validate ({events:,} ev, {m['mb']:.1f} MB)",
            "value": f"{m['load'] * 1000:.0f} ms",
            "goal": "<= 1.5x CSafeLoader",
            "ratio": f"{ratio:.2f}x vs yaml.load ({m['yaml'] * 1000:.0f} ms)",
            "ok": ratio <= 1.5,
        }
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=10_000, help="trace events in the generated drill")
    ap.add_argument("--repeat", type=int, default=5, help="runs of each; the best is reported")
    ap.add_argument("--profile", action="store_true", help="also print a cProfile of one load_drill run")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench-large.yaml"
        path.write_text(drill_text(args.events), encoding="utf-8")
        drill = load_drill(path)  # warm-up, and proof the generated drill is valid
        assert len(drill.trace) == args.events

        def bare() -> None:
            with path.open("rb") as f:
                yaml.load(f, Loader=yaml.CSafeLoader)

        t_yaml = best_of(args.repeat, bare)
        t_load = best_of(args.repeat, lambda: load_drill(path))
        size = path.stat().st_size
        print(f"drill: {args.events:,} trace events, {size / 1e6:.2f} MB")
        print(f"yaml.load(CSafeLoader):        {t_yaml * 1000:8.1f} ms (best of {args.repeat})")
        print(f"load_drill (load + validate):  {t_load * 1000:8.1f} ms (best of {args.repeat})")
        print(f"ratio:                         {t_load / t_yaml:8.2f}x  (goal: <= 1.5x)")

        if args.profile:
            prof = cProfile.Profile()
            prof.runcall(load_drill, path)
            pstats.Stats(prof).sort_stats("cumulative").print_stats(20)

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


if __name__ == "__main__":
    main()
