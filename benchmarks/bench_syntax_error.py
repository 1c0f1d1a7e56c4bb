"""Benchmark: ``warroom validate`` on a one-line YAML flow mapping with a syntax error near its end (1 and 9 MB).

Run: ``.venv/bin/python benchmarks/bench_syntax_error.py [--mb N ...] [--repeat R] [--profile]``

The file is one line, ``{k0: {a: [1, 2]}, k1: ...`` and an unclosed ``[`` just before the closing ``}``: everything
before the error is composed into PyYAML nodes before the error is found. Issue 30 measured about 18 s for 9 MB:
the cyclic garbage collector walking the growing node tree (paused now while composing, as the fast path pauses it),
and the whole file scanned again for a quoted text left open before the error (now only when the error's line has
a quote before the error, which a one-line file's first line cannot need). Times (best of R, CPU time of the process)
``load_drill_text`` from the text to the DrillLoadError, and the CPU per MB of the largest size against the smallest
(linear is about 1.0). Goal: 9 MB under 10 s, per MB ratio ≤ 1.3. Figures only: nothing here asserts on timing.
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

#: Characters of one ``kN: {a: [1, 2]}, `` item (about; the numbers grow).
ITEM = 22


def one_line_text(mb: float) -> str:
    """A one-line flow mapping of about ``mb`` MB whose last value is an unclosed flow sequence."""
    n = int(mb * 1_000_000 / ITEM)
    return "{" + ", ".join(f"k{i}: {{a: [1, 2]}}" for i in range(n)) + ", bad: [1, 2}\n"


def validate(text: str) -> str:
    """The first problem of ``text`` (it must not load)."""
    try:
        load_drill_text(text, "big.yaml")
    except DrillLoadError as exc:
        return str(exc.problems[0])
    raise AssertionError("the file loaded")


def best_cpu(text: str, repeat: int) -> tuple[float, str]:
    best, problem = float("inf"), ""
    for _ in range(repeat):
        start = time.process_time()
        problem = validate(text)
        best = min(best, time.process_time() - start)
    return best, problem


def measure(sizes: tuple[float, ...], repeat: int) -> list[tuple[float, float, str]]:
    """(MB, best CPU seconds, first problem) for each size."""
    out = []
    for mb in sizes:
        text = one_line_text(mb)
        seconds, problem = best_cpu(text, repeat)
        out.append((len(text) / 1_000_000, seconds, problem))
    return out


def results(sizes: tuple[float, ...] = (1, 9), repeat: int = 3) -> list[dict]:
    """Rows for ``run.py``."""
    rows = measure(sizes, repeat)
    (small_mb, small, _), (big_mb, big, _) = rows[0], rows[-1]
    ratio = (big / big_mb) / (small / small_mb)
    return [{
        "name": f"Validate a one-line {big_mb:.1f} MB flow mapping with a syntax error near its end",
        "value": f"{big:.1f} s CPU",
        "goal": "< 10 s, linear",
        "ratio": f"{ratio:.2f}x CPU per MB vs {small_mb:.1f} MB ({small:.2f} s)",
        "ok": big < 10 and ratio <= 1.3,
    }]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, nargs="+", default=[1, 9], help="sizes of the file, MB")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each; the best is reported")
    ap.add_argument("--profile", action="store_true", help="also print a cProfile of the largest")
    args = ap.parse_args()
    rows = measure(tuple(args.mb), args.repeat)
    for mb, seconds, _ in rows:
        print(f"{mb:6.2f} MB: {seconds:6.2f} s CPU ({seconds / mb:.2f} s per MB; best of {args.repeat})")
    print(f"first problem: {rows[-1][2][:200]}")
    if args.profile:
        prof = cProfile.Profile()
        prof.runcall(validate, one_line_text(max(args.mb)))
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
