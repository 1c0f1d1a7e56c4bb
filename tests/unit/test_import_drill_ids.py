"""An imported drill's id: the importer's prefix and the file name, one rule for every importer, never the prefix
twice when the file name already starts with it."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from trace_import_support import FIXTURES, converter

from warroom.importers import chat, langfuse, langsmith, otel
from warroom.importers import openai_agents as agentsdk
from warroom.importers.kit import MAX_ID_CHARS, drill_id
from warroom.importers.who_and_when import ImportOptions, import_records

THIRD = FIXTURES / "thirdparty"


@pytest.mark.parametrize(("prefix", "stem", "index", "expected"), [
    ("langsmith", "langsmith-planner-executor", None, "langsmith-planner-executor"),
    ("langsmith", "planner-executor", None, "langsmith-planner-executor"),
    ("langsmith", "langsmith", None, "langsmith"),
    ("langsmith", "LangSmith_export", None, "langsmith_export"),
    ("langsmith", "langsmith.2026-03-20", None, "langsmith.2026-03-20"),
    ("langsmith", "langsmithrun", None, "langsmith-langsmithrun"),  # not the prefix as a word: kept whole
    ("chat", "chat-finetune", 1, "chat-finetune-1"),
    ("otel", "otel", 0, "otel-0"),
    ("openai-agents", "openai-agents-handoff", None, "openai-agents-handoff"),
    ("openai-agents", "openai-handoff", None, "openai-agents-openai-handoff"),
    ("otel", "traces of 20 März", None, "otel-traces-of-20-Marz"),  # was otel-traces-of-20-M-rz
    ("otel", "¿¿", None, "otel-trace-86a542"),  # no ASCII form: tagged, so that two such names differ
    ("chat", "Chat-incident", 0, "chat-incident-0"),
    ("chat", "ＣＨＡＴ_export", None, "chat_export"),  # full-width letters are the prefix too
    ("chat", "ﬁnal café", None, "chat-final-cafe"),
    ("chat", "chat.", None, "chat"),
    ("ww-magentic-one", "12", None, "ww-magentic-one-12"),
    ("ww-magentic-one", "ww-magentic-one-12", None, "ww-magentic-one-12"),
])
def test_the_prefix_is_added_unless_the_file_name_starts_with_it(prefix: str, stem: str, index: int | None,
                                                                  expected: str) -> None:
    assert drill_id(prefix, stem, index) == expected


def test_a_long_name_is_shortened_keeping_the_index_and_no_trailing_separator() -> None:
    made = drill_id("otel", "a" * 74 + "-" + "b" * 30, 12)
    assert made == "otel-" + "a" * 72 + "-12" and len(made) <= MAX_ID_CHARS
    assert len(drill_id("otel", "otel-" + "x" * 200)) == MAX_ID_CHARS


@pytest.mark.parametrize(("convert", "fixture", "expected"), [
    (converter(langsmith), THIRD / "langsmith-planner-executor.json", ["langsmith-planner-executor"]),
    (converter(langfuse), THIRD / "langfuse-trace.json", ["langfuse-trace"]),
    (converter(agentsdk), THIRD / "openai-agents-handoff.json", ["openai-agents-handoff"]),
    (converter(chat), THIRD / "chat-finetune.jsonl", ["chat-finetune-0", "chat-finetune-1"]),
    (converter(otel), FIXTURES / "otel" / "legacy.jsonl", ["otel-legacy-0", "otel-legacy-1"]),
])
def test_every_trace_importer_follows_the_rule(convert: Callable[[Path], list[tuple[dict[str, Any], str]]],
                                              fixture: Path, expected: list[str]) -> None:
    assert [data["id"] for data, _ in convert(fixture)] == expected


def test_who_and_when_follows_the_rule_too(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    record = FIXTURES / "who_and_when" / "good" / "magentic-one" / "mini.json"
    shutil.copy(record, src / "ww-magentic-one-mini.json")
    shutil.copy(record, src / "7.json")
    report = import_records([src], tmp_path / "out", ImportOptions(), force=False)
    assert not report.failed, [r.error for r in report.failed]
    assert sorted(r.drill_id or "" for r in report.imported) == ["ww-magentic-one-7", "ww-magentic-one-mini"]


def test_names_with_no_ascii_form_give_distinct_ids(tmp_path: Path) -> None:
    # were both chat-trace-0: the second file of a batch failed, and in a later run --force overwrote the first's drill
    assert drill_id("chat", "事件") != drill_id("chat", "障害")
    assert drill_id("chat", "事件") == drill_id("chat", "事件")  # the same name always gives the same id
    tagged = drill_id("chat", "事件-refund", 2)
    assert tagged.startswith("chat-refund-") and tagged.endswith("-2") and len(tagged) == len("chat-refund-abcdef-2")
    lines = '{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}\n'
    for name in ("事件.json", "障害.json"):
        (tmp_path / name).write_text(lines, encoding="utf-8")
    report = chat.import_chats([tmp_path / "事件.json", tmp_path / "障害.json"], tmp_path / "out")
    assert not report.failed, [r.error for r in report.failed]
    assert len({r.drill_id for r in report.imported}) == 2
