"""``warroom import chat`` reads the token counts a history records for its model turns (OpenAI's and Anthropic's
``usage``, Gemini's ``usageMetadata``, LangChain's ``usage_metadata`` and ``response_metadata.token_usage``),
estimates only the others, and says which in the drill's ``source`` and header. Only AutoGen's ``models_usage`` was
read, and the drill said "every token count" was estimated even then."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from trace_import_support import converter

from warroom.importers import chat

ASK = {"role": "user", "content": "Refund order 42."}
#: One assistant turn per shape, each recording 420 input and 60 output tokens.
RECORDED = {
    "openai": [ASK, {"role": "assistant", "content": "Refunding.", "usage": {
        "prompt_tokens": 420, "completion_tokens": 60, "total_tokens": 480}}],
    "anthropic": [ASK, {"type": "message", "role": "assistant", "content": [{"type": "text", "text": "Refunding."}],
                        "usage": {"input_tokens": 420, "output_tokens": 60}}],
    "gemini": {"contents": [{"role": "user", "parts": [{"text": "Refund order 42."}]}, {
        "role": "model", "parts": [{"text": "Refunding."}],
        "usageMetadata": {"promptTokenCount": 420, "candidatesTokenCount": 60, "totalTokenCount": 480}}]},
    "langchain": [{"type": "human", "data": {"content": "Refund order 42."}}, {"type": "ai", "data": {
        "content": "Refunding.", "usage_metadata": {"input_tokens": 420, "output_tokens": 60, "total_tokens": 480}}}],
    "langchain-token-usage": [{"type": "human", "content": "Refund order 42."}, {
        "type": "ai", "content": "Refunding.", "response_metadata": {"token_usage": {
            "prompt_tokens": 420, "completion_tokens": 60}, "model_name": "gpt-4o"}}],
}


def _drill(tmp_path: Path, doc: Any) -> tuple[dict[str, Any], str]:
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    [(data, header)] = converter(chat)(path)
    return data, header


@pytest.mark.parametrize("shape", list(RECORDED))
def test_recorded_token_counts_are_read_not_estimated(tmp_path: Path, shape: str) -> None:
    data, header = _drill(tmp_path, RECORDED[shape])
    [turn] = [e for e in data["trace"] if "usage" in e]
    assert turn["usage"] == {"input_tokens": 420, "output_tokens": 60}  # no "estimated": true
    said = "recorded: every model turn's token counts, as the file gives them"
    assert said in data["source"] and said in header and "every token count (text length)" not in data["source"]


def test_only_the_turns_that_record_none_are_estimated_and_the_drill_says_how_many(tmp_path: Path) -> None:
    doc = [*RECORDED["openai"], {"role": "user", "content": "And order 43?"},
           {"role": "assistant", "content": "Refunding that too."}]
    data, _ = _drill(tmp_path, doc)
    first, second = (e["usage"] for e in data["trace"] if "usage" in e)
    assert first == {"input_tokens": 420, "output_tokens": 60} and second["estimated"] is True
    assert ("estimated: the drill clock (reading speed) and the token counts of 1 of 2 model turns (text length); "
            "recorded: the others', as the file gives them") in data["source"]


def test_a_history_recording_no_usage_says_every_count_is_estimated(tmp_path: Path) -> None:
    data, _ = _drill(tmp_path, [ASK, {"role": "assistant", "content": "Refunding.", "usage": {
        "prompt_tokens": 0, "completion_tokens": 0}}])  # two zeros: not recorded
    assert [e["usage"].get("estimated") for e in data["trace"] if "usage" in e] == [True]
    assert "every token count (text length)" in data["source"]
