"""Benchmark: a 5,000-span OpenTelemetry GenAI trace imported into a drill (``warroom import otel``).

Run: ``.venv/bin/python benchmarks/bench_import_otel.py [--spans N] [--repeat R] [--profile] [--refuse N]``

Writes one OTLP/JSON trace of N spans (default 5,000), recorded with the OpenTelemetry SDK by
tests/fixtures/generate_traces.py (needs the ``test`` extra): the fixtures' planner-executor run, its executor
lengthened by rounds of a model call (and its HTTP span) and two parallel tool calls; and times (median of R)
``warroom import otel FILE --out TMP`` as a whole process; the goal is under 2 s (issue 16). The drill written is
then loaded once (untimed) and must fail validation only for its missing answer key. ``--profile`` prints a
cProfile of one in-process import. Figures only: nothing here asserts on timing.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"


def big_trace(spans: int) -> dict:
    """An OTLP/JSON document with one trace of at least ``spans`` spans, recorded with the OpenTelemetry SDK by
    tests/fixtures/generate_traces.py (its scripted run, lengthened by executor rounds)."""
    sys.path.insert(0, str(FIXTURES))
    from generate_traces import big_trace as generated

    return generated(spans)


def warroom_cmd() -> list[str]:
    script = Path(sys.executable).with_name("warroom")
    return [str(script)] if script.exists() else [sys.executable, "-m", "warroom"]


def measure(spans: int, repeat: int) -> dict:
    """``{"seconds", "spans", "events"}``: the median time of the import process."""
    from warroom.core.load import DrillLoadError, load_drill
    from warroom.core.rules import MISSING_ANSWER_KEY

    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "trace.json"
        doc = big_trace(spans)
        spans = sum(len(ss["spans"]) for rs in doc["resourceSpans"] for ss in rs["scopeSpans"])  # as recorded
        src.write_text(json.dumps(doc), encoding="utf-8")
        times = []
        for i in range(repeat):
            out = Path(tmp) / f"out{i}"
            start = time.perf_counter()
            proc = subprocess.run([*warroom_cmd(), "import", "otel", str(src), "--out", str(out)],
                                  capture_output=True, text=True)
            times.append(time.perf_counter() - start)
            if proc.returncode != 0:
                raise SystemExit(f"warroom import otel failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
        drill = out / "otel-trace.yaml"
        try:
            load_drill(drill)
        except DrillLoadError as e:
            assert [p.message for p in e.problems] == [MISSING_ANSWER_KEY], e.problems[:3]
        events = drill.read_text(encoding="utf-8").count("\n- id: ")
    return {"seconds": statistics.median(times), "spans": spans, "events": events}


def measure_refusal(spans: int) -> dict:
    """``{"seconds", "cpu", "bytes"}``: a file of ``spans`` spans over the 8 MiB a trace may have (50,000 spans: 54
    MiB) refused by ``warroom import otel``, wall and the child's CPU seconds. Issue 30: the refusal recognised the
    file's format to name it, each of three importers reading every span (5.0 s of CPU, now 2.95 s; goal < 4 s)."""
    import resource

    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "trace.json"
        src.write_text(json.dumps(big_trace(spans)), encoding="utf-8")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run([*warroom_cmd(), "import", "otel", str(src), "--out", str(Path(tmp) / "out")],
                              capture_output=True, text=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        assert proc.returncode == 1 and "records are limited to 8 MiB" in proc.stderr, proc.stderr[-500:]
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return {"seconds": wall, "cpu": cpu, "bytes": src.stat().st_size}


def results(repeat: int = 3, spans: int = 5000) -> list[dict]:
    """Rows for ``run.py``."""
    m = measure(spans, repeat)
    return [{"name": f"import otel ({m['spans']:,} spans -> {m['events']:,} events)", "value": f"{m['seconds']:.2f} s",
             "goal": "< 2 s", "ratio": f"{m['seconds'] / 2:.2f}x of goal", "ok": m["seconds"] < 2}]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spans", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--refuse", type=int, default=0, metavar="N",
                        help="instead, time the refusal of a file of N spans, over the size limit (try 50000)")
    args = parser.parse_args()
    if args.refuse:
        m = measure_refusal(args.refuse)
        print(f"import otel refusing {args.refuse:,} spans ({m['bytes'] / 1048576:.1f} MiB): {m['seconds']:.2f} s, "
              f"{m['cpu']:.2f} s CPU (goal < 4 s CPU)")
        return
    if args.profile:
        from warroom.importers.kit import convert
        from warroom.importers.otel import IMPORTER

        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "trace.json"
            src.write_text(json.dumps(big_trace(args.spans)), encoding="utf-8")
            prof = Path(tmp) / "otel.prof"
            cProfile.runctx("convert(IMPORTER, src)", globals(), {"convert": convert, "IMPORTER": IMPORTER, "src": src},
                           str(prof))
            pstats.Stats(str(prof)).sort_stats("cumulative").print_stats(20)
        return
    r = measure(args.spans, args.repeat)
    print(f"import otel: {r['spans']:,} spans -> {r['events']:,} trace events in {r['seconds']:.2f} s (goal < 2 s)")


if __name__ == "__main__":
    main()
