"""Hypothesis strategies for Who&When records: the good fixture records (tests/fixtures/who_and_when/good) with
values replaced, keys removed, history entries dropped, duplicated or moved, written back as JSON text."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st
from locations import WHO_AND_WHEN

GOOD = WHO_AND_WHEN / "good"
#: (subset folder, file name, record) of every good fixture record.
RECORDS: list[tuple[str, str, dict[str, Any]]] = sorted(
    (p.parent.name, p.name, json.loads(p.read_text(encoding="utf-8"))) for p in GOOD.glob("*/*.json")
)

#: JSON text put in place of a value (spliced in as written, so numbers reach the JSON parser as they are).
ODD_JSON = [
    "null", "true", "false", "0", "-1", "1.5", "1e308", "1e999", "-1e999", "NaN", "Infinity", "9" * 30,
    '""', '" "', '"0"', '"-1"', '"3.0"', '" 2 "', '"\\u0663"', '"1e3"', '"x"', '"\\u0000"', '"\\u001b[31m"',
    '"\\u2028"', '"[bold]x[/]"', '"Orchestrator (thought)"', '"Orchestrator (-> WebSurfer)"', '"ComputerTerminal"',
    '"Computer_terminal"', '"human"', '"exitcode: 0 (execution succeeded)\\nCode output: 1"', '"Next speaker x"',
    '"' + "word " * 20_000 + '"', '"' + "é" * 5_000 + '"', "[]", "{}", '[{"role": "x"}]', '{"a": 1}',
    "[" * 50 + "]" * 50,
]
#: Values that reach a known bug of issue 12 item 4 on the code this was written against.
KNOWN_BUG_JSON = ['"\\ud800"', '"x\\udfff"', "9" * 5_000, "-" + "9" * 5_000]

_MARK = "\u0000MARK\u0000"


@st.composite
def mutated_record(draw: st.DrawFn, odd: list[str] = ODD_JSON) -> bytes:
    """A good fixture record with 1 to 4 mutations, as the bytes of a JSON file."""
    _, _, record = draw(st.sampled_from(RECORDS))
    record = json.loads(json.dumps(record))  # a private copy
    odd_text: str | None = None
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["value", "value", "value", "drop", "history", "history", "step"]))
        if op == "step":
            record["mistake_step"] = _MARK
            odd_text = draw(st.sampled_from(odd + ['"0"', "0", str(len(record.get("history") or []))]))
            continue
        if op == "history" and isinstance(record.get("history"), list) and record["history"]:
            h = record["history"]
            i = draw(st.integers(0, len(h) - 1))
            how = draw(st.sampled_from(["delete", "duplicate", "swap", "truncate"]))
            if how == "delete":
                del h[i]
            elif how == "duplicate":
                h.insert(i, json.loads(json.dumps(h[i])))
            elif how == "swap":
                j = draw(st.integers(0, len(h) - 1))
                h[i], h[j] = h[j], h[i]
            else:
                del h[i + 1 :]
            continue
        parent, key = _pick(draw, record)
        if parent is None:
            continue
        if op == "drop" and isinstance(parent, dict):
            del parent[key]
        elif odd_text is None:  # one spliced value per record (the marker is replaced once)
            parent[key] = _MARK
            odd_text = draw(st.sampled_from(odd))
    text = json.dumps(record, ensure_ascii=draw(st.booleans()))
    if odd_text is not None:
        text = text.replace(json.dumps(_MARK), odd_text, 1)
    return text.encode("utf-8", "surrogatepass")


def _pick(draw: st.DrawFn, record: dict[str, Any]) -> tuple[Any, Any]:
    """A (container, key or index) somewhere in ``record``, by a random walk from the top."""
    parent: Any = None
    key: Any = None
    node: Any = record
    for _ in range(draw(st.integers(1, 3))):
        if isinstance(node, dict) and node:
            k = draw(st.sampled_from(sorted(node)))
        elif isinstance(node, list) and node:
            k = draw(st.integers(0, len(node) - 1))
        else:
            break
        parent, key, node = node, k, node[k]
    return parent, key
