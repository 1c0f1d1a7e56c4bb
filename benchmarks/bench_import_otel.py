"""Benchmark: a 5,000-span OpenTelemetry GenAI trace imported into a drill (``warroom import otel``).

Run: ``.venv/bin/python benchmarks/bench_import_otel.py [--spans N] [--repeat R] [--profile]``

Writes one OTLP/JSON trace of N spans (default 5,000: a root agent, then rounds of a chat span and two parallel
tool spans, one of them failing every tenth round) and times (median of R) ``warroom import otel FILE --out TMP``
as a whole process; the goal is under 2 s (issue 16). The drill written is then loaded once (untimed) and must fail
validation only for its missing answer key. ``--profile`` prints a cProfile of one in-process import. Figures
only: nothing here asserts on timing.
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

T0 = 1_764_550_000_000_000_000
MS = 1_000_000


def _attrs(d: dict) -> list[dict]:
    return [{"key": k, "value": {"intValue": str(v)} if isinstance(v, int) else {"stringValue": v}}
            for k, v in d.items()]


def big_trace(spans: int) -> dict:
    """An OTLP/JSON document with one trace of ``spans`` spans (GenAI conventions, current attributes)."""
    trace = "5b8efff798038103d269b633813fc60c"
    out = [{"traceId": trace, "spanId": f"{1:016x}", "name": "invoke_agent lead", "startTimeUnixNano": str(T0),
            "endTimeUnixNano": str(T0 + spans * 100 * MS),
            "attributes": _attrs({"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "lead"})}]
    n = 1
    while len(out) < spans:
        start = T0 + n * 100 * MS
        n += 1
        kind = len(out) % 3
        if kind == 1:
            attrs = {"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4.1",
                     "gen_ai.usage.input_tokens": 1000 + n, "gen_ai.usage.output_tokens": 50,
                     "gen_ai.output.messages": json.dumps([{"role": "assistant", "parts": [
                         {"type": "text", "content": f"Round {n}: call the two tools."}]}])}
        else:
            attrs = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": f"tool{kind}",
                     "gen_ai.tool.call.id": f"call_{n}", "gen_ai.tool.call.arguments": json.dumps({"n": n}),
                     "gen_ai.tool.call.result": json.dumps({"rows": n % 7})}
        span = {"traceId": trace, "spanId": f"{n:016x}", "parentSpanId": f"{1:016x}",
                "name": attrs["gen_ai.operation.name"], "startTimeUnixNano": str(start),
                "endTimeUnixNano": str(start + 80 * MS), "attributes": _attrs(attrs)}
        if kind == 2 and n % 10 == 0:
            span["status"] = {"code": 2, "message": "upstream timeout"}
        out.append(span)
    return {"resourceSpans": [{"resource": {"attributes": _attrs({"service.name": "bench"})},
                               "scopeSpans": [{"scope": {"name": "bench"}, "spans": out}]}]}


def warroom_cmd() -> list[str]:
    script = Path(sys.executable).with_name("warroom")
    return [str(script)] if script.exists() else [sys.executable, "-m", "warroom"]


def measure(spans: int, repeat: int) -> dict:
    """``{"seconds", "spans", "events"}``: the median time of the import process."""
    from warroom.core.loader import DrillLoadError, load_drill
    from warroom.importers.tracekit import MISSING_KEY

    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "trace.json"
        src.write_text(json.dumps(big_trace(spans)), encoding="utf-8")
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
            assert [p.message for p in e.problems] == [MISSING_KEY], e.problems[:3]
        events = drill.read_text(encoding="utf-8").count("\n- id: ")
    return {"seconds": statistics.median(times), "spans": spans, "events": events}


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
    args = parser.parse_args()
    if args.profile:
        from warroom.importers.otel import convert_file

        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "trace.json"
            src.write_text(json.dumps(big_trace(args.spans)), encoding="utf-8")
            prof = Path(tmp) / "otel.prof"
            cProfile.runctx("convert_file(src)", globals(), {"convert_file": convert_file, "src": src}, str(prof))
            pstats.Stats(str(prof)).sort_stats("cumulative").print_stats(20)
        return
    r = measure(args.spans, args.repeat)
    print(f"import otel: {r['spans']:,} spans -> {r['events']:,} trace events in {r['seconds']:.2f} s (goal < 2 s)")


if __name__ == "__main__":
    main()
