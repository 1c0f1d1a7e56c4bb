"""Fuzzing the trace importers (chat, otel, openinference) with mutated copies of their fixtures.

Property: converting a fixture with one value anywhere replaced by arbitrary JSON (or cut short) never raises
anything but TraceError, whose message is one line; every drill it does return misses only its answer key
(:func:`warroom.importers.tracekit.check_unmarked`). Budgets: tests/fuzz/budget.py.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from locations import TESTS
from trace_import_support import converter

from warroom.importers import chat, openinference, otel
from warroom.importers.kit import TraceError, check_unmarked

from .budget import budget

FIXTURES = TESTS / "fixtures"
CASES = [
    (converter(chat), FIXTURES / "chat" / "refund.json"),
    (converter(chat), FIXTURES / "chat" / "tau-bench.json"),
    (converter(otel), FIXTURES / "otel" / "current.json"),
    (converter(otel), FIXTURES / "otel" / "legacy.jsonl"),
    (converter(openinference), FIXTURES / "openinference" / "phoenix.jsonl"),
]
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=8), kids, max_size=3),
    max_leaves=6,
)


def _paths(value: Any, here: tuple = ()) -> list[tuple]:
    out = [here]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_paths(v, (*here, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(_paths(v, (*here, i)))
    return out


def _replace(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    value[path[0]] = _replace(value[path[0]], path[1:], new)
    return value


def _load(path: Path) -> Any:
    text = path.read_text(encoding="utf-8")
    return json.loads(text) if path.suffix == ".json" else [json.loads(line) for line in text.splitlines()]


def _dump(path: Path, value: Any) -> str:
    if path.suffix == ".json" or not isinstance(value, list):
        return json.dumps(value)
    return "\n".join(json.dumps(v) for v in value)


def check(case: int, pick: int, new: Any, cut: bool) -> None:
    convert, fixture = CASES[case]
    value = _load(fixture)
    paths = _paths(value)
    text = _dump(fixture, _replace(value, paths[pick % len(paths)], new))
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / fixture.name
        p.write_text(text[: len(text) // 2] if cut else text, encoding="utf-8")
        try:
            drills = convert(p)
        except TraceError as e:
            assert str(e).strip() and "\n" not in str(e), e
            return
        for data, _ in drills:
            try:
                check_unmarked(data)
            except TraceError as e:  # a problem the importer caught before writing: still one line
                assert "\n" not in str(e), e


@budget(60)
@given(st.integers(0, len(CASES) - 1), st.integers(0, 10_000), JSON, st.booleans())
def test_mutated_traces_give_drills_or_one_line_problems(case: int, pick: int, new: Any, cut: bool) -> None:
    check(case, pick, new, cut)
