"""Benchmark: validating a drill full of references to ids that do not exist (``warroom validate`` on it).

Run: ``.venv/bin/python benchmarks/bench_validate.py [--refs N] [--repeat R] [--profile]``

The generated drill has 2,000 trace events over 40 plan steps, and ``N`` references (10,000 by default) to plan
steps and events that do not exist, spread over event steps, tool results' calls, evidence, cascade, damage
entries and distractors. The missing ids are one keystroke away from real ones (``e2001`` for ``e1001``, ``s3x``
for ``s3``), the worst case for did-you-mean suggestions. Times (best of R, CPU time of the process)
``load_drill_text`` from the text to the DrillLoadError with every problem, and the same for a drill with 1/10 of
the references and the same trace (the ratio shows how the work grows: at most 10 is linear or better, about 100
would be quadratic). Goal: under 1 s for 10,000 references.
Figures only: nothing here asserts on timing.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from warroom.core.load import DrillLoadError, load_drill_text

STEPS = 40
EVENTS = 2_000


def unknown_refs_text(refs: int) -> str:
    """A drill with :data:`EVENTS` trace events and ``refs`` references to ids that do not exist."""
    n = min(EVENTS, refs // 4)  # events whose step is missing; a fifth of them are results of missing calls
    out = [
        "schema_version: 1", "id: bench-unknown-refs", "title: Benchmark drill full of bad references",
        "difficulty: 3", "author: benchmarks",
        "briefing: {goal: Reconcile the ledger., watching: A finance agent.}",
        "models:",
        "  planner: {name: big, input_usd_per_mtok: 5, output_usd_per_mtok: 25}",
        "  executor: {name: small, input_usd_per_mtok: 1, output_usd_per_mtok: 5}",
        "plan:",
    ]
    out += [f"  - {{id: s{s}, title: Block {s}, objective: Block {s} is reconciled.}}" for s in range(STEPS)]
    out.append("trace:")
    bad = 0
    for i in range(EVENTS):
        step = f"s{i % STEPS}x" if i < n else f"s{i % STEPS}"
        bad += i < n
        if i % 5 == 2 and i < n:
            out.append(f"  - {{id: e{i}, t: {i}, step: {step}, kind: tool_result, call: e{i}9, output: ok}}")
            bad += 1
        else:
            out.append(f"  - {{id: e{i}, t: {i}, step: {step}, kind: log, source: ledger, content: page {i}}}")
    left = max(0, refs - bad)
    cascade, evidence, damage = left // 10, left // 10, left * 3 // 10
    distractors = left - cascade - evidence - damage
    missing = iter(range(EVENTS, EVENTS + left))  # e2000, e2001...: each unique, one key from e1000, e2001...
    out += [
        "answer_key:",
        "  fault: {origin_step: s0, kind: pagination_truncated, summary: Stopped at page one.}",
        "  evidence: [e1, " + ", ".join(f"e{next(missing)}" for _ in range(evidence)) + "]",
        "  cascade: [" + ", ".join(f"s{k}y" for k in range(cascade)) + "]",
        "  damage:",
        "    unit: invoices",
        "    entries:",
    ]
    out += [f"      - {{event: e{next(missing)}, amount: 1}}" for _ in range(damage)]
    out += ["  deadline: 100", "  debrief: The cursor was never followed.", "distractors:"]
    out += [f"  - {{event: e{next(missing)}, why_harmless: noise}}" for _ in range(distractors)]
    return "\n".join(out) + "\n"


def best_of(repeat: int, fn) -> float:
    """Best-of-``repeat`` CPU seconds of this process for ``fn()`` (validation is single-threaded, so this is its
    wall time on an idle core; on a machine shared with other jobs, wall time would measure the neighbours)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def validate(text: str) -> int:
    """The number of problems ``load_drill_text`` reports for ``text`` (which must not load)."""
    try:
        load_drill_text(text, "bench-unknown-refs.yaml")
    except DrillLoadError as e:
        return len(e.problems)
    raise SystemExit("the drill full of unknown references was accepted")


def measure(refs: int = 10_000, repeat: int = 3) -> dict[str, float]:
    """Best-of-``repeat`` seconds to validate the drill with ``refs`` and with ``refs // 10`` unknown references."""
    big, small = unknown_refs_text(refs), unknown_refs_text(refs // 10)
    problems = validate(big)
    return {
        "big": best_of(repeat, lambda: validate(big)),
        "small": best_of(repeat, lambda: validate(small)),
        "problems": problems,
        "mb": len(big.encode()) / 1e6,
    }


def results(refs: int = 10_000, repeat: int = 3) -> list[dict]:
    """Rows for ``run.py``."""
    m = measure(refs, repeat)
    return [
        {
            "name": f"Validate {refs:,} unknown refs ({m['mb']:.2f} MB, {m['problems']:,} problems)",
            "value": f"{m['big'] * 1000:.0f} ms CPU",
            "goal": "< 1 s, linear",
            "ratio": f"{m['big'] / m['small']:.1f}x vs {refs // 10:,} refs ({m['small'] * 1000:.0f} ms)",
            "ok": m["big"] < 1.0,
        }
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--refs", type=int, default=10_000, help="references to ids that do not exist")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each; the best is reported")
    ap.add_argument("--profile", action="store_true", help="also print a cProfile of one run")
    args = ap.parse_args()
    m = measure(args.refs, args.repeat)
    print(f"drill: {args.refs:,} unknown references, {m['mb']:.2f} MB, {m['problems']:,} problems")
    print(f"validate:            {m['big'] * 1000:8.1f} ms (best of {args.repeat}; goal < 1 s)")
    print(f"validate, 1/10 refs: {m['small'] * 1000:8.1f} ms (ratio {m['big'] / m['small']:.1f}; linear is <= 10)")
    if args.profile:
        prof = cProfile.Profile()
        prof.runcall(validate, unknown_refs_text(args.refs))
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
