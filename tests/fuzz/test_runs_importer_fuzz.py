"""Fuzzing the LangSmith, Langfuse and OpenAI Agents SDK importers with mutated copies of their fixtures (as
test_trace_importer_fuzz.py does the OTLP and chat importers): one value anywhere replaced by arbitrary JSON, or
the file cut short, gives drills that miss only their answer key or a one-line TraceError, never anything else."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from locations import TESTS
from trace_import_support import converter

from warroom.importers import langfuse, langsmith
from warroom.importers import openai_agents as agentsdk
from warroom.importers.kit import TraceError, check_unmarked

from .budget import budget
from .test_trace_importer_fuzz import JSON, _paths, _replace

THIRD = TESTS / "fixtures" / "thirdparty"
CASES = [
    (converter(langsmith), THIRD / "langsmith-planner-executor.json"),
    (converter(langsmith), THIRD / "langsmith-child-runs.json"),
    (converter(langfuse), THIRD / "langfuse-planner-executor.json"),
    (converter(langfuse), THIRD / "langfuse-trace.json"),
    (converter(agentsdk), THIRD / "openai-agents-handoff.json"),
    (converter(agentsdk), THIRD / "openai-agents-trace.json"),
]


def check(case: int, pick: int, new: Any, cut: bool) -> None:
    convert, fixture = CASES[case]
    value = json.loads(fixture.read_text(encoding="utf-8"))
    paths = _paths(value)
    text = json.dumps(_replace(value, paths[pick % len(paths)], new))
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
            except TraceError as e:
                assert "\n" not in str(e), e


@budget(60)
@given(st.integers(0, len(CASES) - 1), st.integers(0, 10_000), JSON, st.booleans())
def test_mutated_exports_give_drills_or_one_line_problems(case: int, pick: int, new: Any, cut: bool) -> None:
    check(case, pick, new, cut)
