"""Benchmark: an OpenAI Agents SDK trace made deep (``warroom import openai-agents``): is reading it linear?

Run: ``.venv/bin/python benchmarks/bench_import_agents.py [--small N] [--large N] [--repeat R] [--profile]``

Builds two traces with tests/deep_trace_support.py (the recorded ``openai-agents-sdk-run.jsonl``'s Refunds
agent with one recorded turn repeated, each turn under the one before: N turns are 3N + 1 spans, N + 1 deep) and
times (median of R, in process) the importer's reading of each into steps (``read_agent_spans``: the handoffs, each
agent's input, the tools attached, every walk up a span's ancestors), then reports the time per span of the large
trace against the small one. Every span's nearest agent walked up from the span itself made this quadratic (2,000
turns: 5.4 s of 16 s in those walks); each span is now walked through once. ``--profile`` prints a cProfile of
one read of the large trace. Figures only: nothing here asserts on timing.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))


def _trace_file(folder: Path, turns: int) -> Path:
    from deep_trace_support import deep_trace

    path = folder / f"deep{turns}.jsonl"
    path.write_text(deep_trace(turns), encoding="utf-8")
    return path


def measure(turns: int, repeat: int) -> dict:
    """``{"seconds", "spans", "steps"}``: the median time of reading a trace of ``turns`` nested turns."""
    from warroom.importers.openai_agents._spans import read_agent_spans

    with tempfile.TemporaryDirectory() as tmp:
        path = _trace_file(Path(tmp), turns)
        times, steps = [], 0
        for _ in range(repeat):
            start = time.perf_counter()
            found, _recorded = read_agent_spans(path)
            times.append(time.perf_counter() - start)
            steps = sum(len(group) for group in found.values())
    return {"seconds": statistics.median(times), "spans": 3 * turns + 1, "steps": steps}


def results(small: int = 500, large: int = 5000, repeat: int = 3) -> list[dict]:
    """Rows for ``run.py``: the large trace's read, and its time per span against the small one's."""
    a, b = measure(small, repeat), measure(large, repeat)
    ratio = (b["seconds"] / b["spans"]) / (a["seconds"] / a["spans"])
    return [
        {"name": f"openai-agents read ({b['spans']:,} spans, {large + 1:,} deep)", "value": f"{b['seconds']:.2f} s",
         "goal": "(info)", "ratio": "", "ok": True},
        {"name": f"openai-agents per span, {b['spans']:,} vs {a['spans']:,} spans", "value": f"{ratio:.2f}x",
         "goal": "ratio <= 1.5 (linear)", "ratio": f"{ratio:.2f}", "ok": ratio <= 1.5},
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=500)
    parser.add_argument("--large", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    if args.profile:
        from warroom.importers.openai_agents._spans import read_agent_spans

        with tempfile.TemporaryDirectory() as tmp:
            path = _trace_file(Path(tmp), args.large)
            prof = Path(tmp) / "agents.prof"
            cProfile.runctx("read(path)", globals(), {"read": read_agent_spans, "path": path}, str(prof))
            pstats.Stats(str(prof)).sort_stats("tottime").print_stats(15)
        return
    for row in results(args.small, args.large, args.repeat):
        print(f"{row['name']}: {row['value']} (goal {row['goal']})")


if __name__ == "__main__":
    main()
