"""An OpenAI Agents SDK trace made deep by repeating recorded structure: the Refunds agent of
tests/fixtures/thirdparty/openai-agents-sdk-run.jsonl (recorded with openai-agents 0.24.0, see its README) with its
third ``turn`` (a ``custom`` span holding a ``generation`` and a ``function`` span, as the SDK recorded them) repeated
N times, each turn under the one before it: N turns make a trace 3N + 1 spans long and N + 1 deep. Only the ids and
times are new (each span a millisecond after the one before; every turn ends with the agent); every other field is as
recorded. For the importer's tests on deep traces and ``benchmarks/bench_import_agents.py``."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

RECORDED = Path(__file__).resolve().parent / "fixtures" / "thirdparty" / "openai-agents-sdk-run.jsonl"
AGENT, TURN = "span_8057bba1e71c40ceaf458f12", "span_c0fc4d1eb15f40e3838aafac"
GENERATION, FUNCTION = "span_c5e4ded668664d9e8746ccd5", "span_174ceb4ac4234e098ff569ae"


def deep_trace(turns: int) -> str:
    """JSON Lines of the trace object and 3 * ``turns`` + 1 ended spans (see the module docstring)."""
    lines = [json.loads(line) for line in RECORDED.read_text(encoding="utf-8").splitlines() if line.strip()]
    ended = {o["id"]: o for o in lines if o.get("object") == "trace.span" and o.get("ended_at")}
    trace = next(o for o in lines if o.get("object") == "trace")
    start = datetime.fromisoformat(ended[AGENT]["started_at"])
    end = (start + timedelta(milliseconds=3 * turns + 1)).isoformat()

    def at(ms: int) -> str:
        return (start + timedelta(milliseconds=ms)).isoformat()

    out = [trace, {**ended[AGENT], "parent_id": None, "ended_at": end}]
    parent = AGENT
    for k in range(turns):
        turn = f"span_{k:08d}aaaaaaaaaaaaaaaa"
        out.append({**ended[TURN], "id": turn, "parent_id": parent, "started_at": at(3 * k + 1), "ended_at": end})
        out.append({**ended[GENERATION], "id": f"span_{k:08d}bbbbbbbbbbbbbbbb", "parent_id": turn,
                    "started_at": at(3 * k + 2), "ended_at": at(3 * k + 2)})
        out.append({**ended[FUNCTION], "id": f"span_{k:08d}cccccccccccccccc", "parent_id": turn,
                    "started_at": at(3 * k + 3), "ended_at": at(3 * k + 3)})
        parent = turn
    return "".join(json.dumps(o, ensure_ascii=False) + "\n" for o in out)
