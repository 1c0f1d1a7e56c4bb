"""One chat message, read the same by every importer that meets it (``exports.message``, the one reader of a chat
message): the chat importer, the exports' readers (LangSmith, Langfuse) and OpenInference's raw values give the
same text for it. OpenInference dropped an Anthropic ``thinking`` block that the others show as ``[thinking] ...``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from trace_import_support import converter

from warroom.importers import chat, openinference
from warroom.importers.exports import message

#: An Anthropic assistant message that thinks, says something, and calls a tool.
ANTHROPIC = {"type": "message", "role": "assistant", "content": [
    {"type": "thinking", "thinking": "The order is 42; refund it.", "signature": "EqQBCgIYAh"},
    {"type": "text", "text": "Refunding order 42."},
    {"type": "tool_use", "id": "toolu_1", "name": "refund", "input": {"order": 42}}]}
SHOWN = '[thinking] The order is 42; refund it.\nRefunding order 42.\n[tool call refund {"order": 42}]'


def _openinference(tmp_path: Path, value: dict[str, Any]) -> list[dict[str, Any]]:
    span = {"traceId": "cd" * 16, "spanId": "01", "parentSpanId": "", "name": "llm",
            "startTimeUnixNano": "1000000000", "endTimeUnixNano": "1000000005",
            "attributes": [{"key": k, "value": {"stringValue": v}} for k, v in {
                "openinference.span.kind": "LLM", "output.value": json.dumps(value)}.items()]}
    path = tmp_path / "oi.json"
    path.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}), encoding="utf-8")
    [(data, _)] = converter(openinference)(path)
    return [e for e in data["trace"] if e["kind"] in ("planner_call", "executor_message")]


def test_openinference_keeps_an_anthropic_thinking_block_as_the_others_do(tmp_path: Path) -> None:
    # was 'Refunding order 42.\n[tool call refund {"order": 42}]': the model's thinking was not in the drill
    [call] = _openinference(tmp_path, ANTHROPIC)
    assert call["content"] == SHOWN
    read = message(ANTHROPIC)
    assert read is not None and read.shown() == SHOWN  # LangSmith's and Langfuse's reading


def test_the_chat_importer_shows_the_same_text_and_call(tmp_path: Path) -> None:
    path = tmp_path / "chat.json"
    path.write_text(json.dumps([{"role": "user", "content": "Refund order 42."}, ANTHROPIC]), encoding="utf-8")
    [(data, _)] = converter(chat)(path)
    said, call = data["trace"][1:3]
    assert said["content"] == "[thinking] The order is 42; refund it.\nRefunding order 42."
    assert (call["kind"], call["tool"], call["arguments"]) == ("tool_call", "refund", {"order": 42})


def test_openinference_and_the_exports_show_an_openai_refusal_as_chat_does(tmp_path: Path) -> None:
    # was the raw JSON of the message (OpenInference) and an empty message (LangSmith, Langfuse): only the chat
    # importer read a refusal given instead of content
    refused = {"role": "assistant", "content": None, "refusal": "I cannot refund that."}
    [call] = _openinference(tmp_path, refused)
    assert call["content"] == "I cannot refund that."
    read = message(refused)
    assert read is not None and read.text == "I cannot refund that."


def test_the_exports_name_an_image_part_as_chat_does() -> None:
    # was dropped by the exports' reader (LangSmith, Langfuse): a question about an image read as if none was sent
    asked = {"role": "user", "content": [{"type": "text", "text": "What is on this receipt?"},
                                         {"type": "image_url", "image_url": {"url": "https://x.example/r.png"}}]}
    read = message(asked)
    assert read is not None and read.text == "What is on this receipt?\n[image part https://x.example/r.png]"


def test_a_document_or_audio_part_held_inline_is_named_by_its_media_type_and_size() -> None:
    # were shown as `[document part]` and `[audio part]`: nothing said what the model was given (Gemini's inlineData
    # parts already said their media type)
    pdf, wav = "JVBERi0x" * 100, "UklGRg" * 50
    asked = {"role": "user", "content": [
        {"type": "text", "text": "Is this invoice a duplicate?"},
        {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": pdf}},
        {"type": "input_audio", "input_audio": {"data": wav, "format": "wav"}}]}
    read = message(asked)
    assert read is not None and read.text == (
        "Is this invoice a duplicate?\n[document part application/pdf, 800 characters]\n"
        "[audio part wav, 300 characters]")


def test_an_openai_file_part_is_named_by_its_file_name_and_size_never_its_bytes() -> None:
    # OpenAI's file parts were `[file part]` (a `file_id` alone was named): the PDF the model was given unsaid
    pdf = "data:application/pdf;base64," + "JVBERi0x" * 100
    asked = {"role": "user", "content": [
        {"type": "text", "text": "Is this invoice a duplicate?"},
        {"type": "file", "file": {"filename": "inv-4417.pdf", "file_data": pdf}},
        {"type": "input_file", "filename": "inv-4418.pdf", "file_data": "JVBERi0x" * 50},
        {"type": "input_file", "file_url": "https://x.example/inv-4419.pdf"}]}
    read = message(asked)
    assert read is not None and read.text == (
        "Is this invoice a duplicate?\n[file part inv-4417.pdf data:application/pdf;base64, 828 characters]\n"
        "[file part inv-4418.pdf 400 characters]\n[file part https://x.example/inv-4419.pdf]")


def test_the_chat_importer_shows_a_langchain_reasoning_block_as_the_exports_do(tmp_path: Path) -> None:
    # was `[reasoning part]`: the chat importer named the block and dropped its text, which the exports show
    path = tmp_path / "chat.json"
    path.write_text(json.dumps([{"role": "user", "content": "Refund order 42."}, {"role": "assistant", "content": [
        {"type": "reasoning", "reasoning": "Order 42 is paid."}, {"type": "text", "text": "Refunding."}]}]),
        encoding="utf-8")
    [(data, _)] = converter(chat)(path)
    assert data["trace"][1]["content"] == "[reasoning] Order 42 is paid.\nRefunding."


def test_thinking_in_a_field_of_its_own_is_shown_by_every_reader(tmp_path: Path) -> None:
    # Ollama's `thinking` and DeepSeek's `reasoning_content` were dropped by every importer
    for field, mark in (("thinking", "[thinking]"), ("reasoning_content", "[reasoning]")):
        said = {"role": "assistant", "content": "Refunding.", field: "Order 42 is paid."}
        read = message(said)
        assert read is not None and read.text == f"{mark} Order 42 is paid.\nRefunding."
        assert _openinference(tmp_path, said)[0]["content"] == f"{mark} Order 42 is paid.\nRefunding."
        path = tmp_path / "chat.json"
        path.write_text(json.dumps([{"role": "user", "content": "Refund order 42."}, said]), encoding="utf-8")
        [(data, _)] = converter(chat)(path)
        assert data["trace"][1]["content"] == f"{mark} Order 42 is paid.\nRefunding."


def test_a_gemini_message_and_a_flat_tool_call() -> None:
    # a Gemini turn (`model`, `parts`: a thought, text, a functionCall) was an empty `model` message; a flat call's
    # `arguments` (tau2-bench's shape) were not shown
    gemini = {"role": "model", "parts": [{"text": "Order 42 is paid.", "thought": True}, {"text": "Refunding."},
                                         {"functionCall": {"id": "c1", "name": "refund", "args": {"order": 42}}}]}
    read = message(gemini)
    assert read is not None and (read.role, read.calls) == ("assistant", [("c1", "refund", '{"order": 42}')])
    assert read.text == "[thinking] Order 42 is paid.\nRefunding."
    flat = message({"role": "assistant", "tool_calls": [{"id": "c2", "name": "refund", "arguments": {"order": 7}}]})
    assert flat is not None and flat.calls == [("c2", "refund", '{"order": 7}')]


GEMINI = {"contents": [
    {"role": "user", "parts": [{"text": "Refund order 42."}]},
    {"role": "model", "parts": [{"text": "Order 42 is paid.", "thought": True}, {"text": "Refunding."},
                                {"functionCall": {"name": "refund", "args": {"order": 42}}}]},
    {"role": "user", "parts": [{"functionResponse": {"name": "refund", "response": {"refunded": True}}}]},
    {"role": "model", "parts": [{"text": "Done."}]}]}


def test_the_chat_importer_reads_gemini_contents_as_the_exports_read_its_messages(tmp_path: Path) -> None:
    # was refused ("Gemini API `contents` (`parts`) are not read")
    path = tmp_path / "gemini.json"
    path.write_text(json.dumps(GEMINI), encoding="utf-8")
    [(data, _)] = converter(chat)(path)
    assert [(e["kind"], e.get("content", e.get("tool", e.get("output")))) for e in data["trace"]] == [
        ("human_message", "Refund order 42."), ("executor_message", "[thinking] Order 42 is paid.\nRefunding."),
        ("tool_call", "refund"), ("tool_result", '{"refunded": true}'), ("executor_message", "Done.")]
    assert data["trace"][2]["arguments"] == {"order": 42} and data["trace"][3]["call"] == data["trace"][2]["id"]
    read = message(GEMINI["contents"][1])
    assert read is not None and read.text == data["trace"][1]["content"]


def test_a_gemini_image_part_is_named_never_its_bytes() -> None:
    asked = {"role": "user", "parts": [{"text": "What is on this receipt?"},
                                       {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo" * 10}},
                                       {"fileData": {"mimeType": "image/png", "fileUri": "gs://b/r.png"}}]}
    read = message(asked)
    assert read is not None and read.text == ("What is on this receipt?\n[inlineData part image/png, 110 characters]\n"
                                              "[fileData part image/png gs://b/r.png]")


def test_openinference_reads_langchain_messages_as_the_chat_importer_does(tmp_path: Path) -> None:
    # OpenInference unwrapped only `{"type": human|ai|system|tool, "data"}` and needed a `role`: a raw value holding
    # a message `dumpd` serialised, or a ChatMessage (`{"type": "chat", "data": {"role", ...}}`), was kept as JSON
    serialised = {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "AIMessage"],
                  "kwargs": {"content": "Refunding.", "tool_calls": [
                      {"id": "c1", "name": "refund", "args": {"order": 42}}]}}
    chat_message = {"type": "chat", "data": {"role": "assistant", "content": "Refunding."}}
    for value, shown in ((serialised, '[tool call refund {"order": 42}]'), (chat_message, "")):
        [call] = _openinference(tmp_path, {"messages": [value]})
        assert call["content"] == "\n".join(t for t in ("Refunding.", shown) if t)
        path = tmp_path / "chat.json"
        path.write_text(json.dumps([{"type": "human", "data": {"content": "Refund order 42."}}, value]),
                        encoding="utf-8")
        [(data, _)] = converter(chat)(path)
        assert data["trace"][1]["content"] == "Refunding."


def test_an_image_is_named_the_same_by_chat_and_openinference(tmp_path: Path) -> None:
    # was `[image_url part URL]` from chat and the exports (OpenAI's part type) and `[image part URL]` from
    # OpenInference's flattened attributes and Anthropic's image blocks: one image, two wordings
    url = "https://x.example/r.png"
    shown = f"What is on this receipt?\n[image part {url}]"
    for part in ({"type": "image_url", "image_url": {"url": url}}, {"type": "input_image", "image_url": url},
                 {"type": "image", "source": {"type": "url", "url": url}}):
        path = tmp_path / "chat.json"
        path.write_text(json.dumps([{"role": "user", "content": [
            {"type": "text", "text": "What is on this receipt?"}, part]}, {"role": "assistant", "content": "A fare."}]),
            encoding="utf-8")
        [(data, _)] = converter(chat)(path)
        assert data["trace"][0]["content"] == shown, part
    flat = {"openinference.span.kind": "LLM", "llm.output_messages.0.message.role": "assistant",
            "llm.output_messages.0.message.content": "A fare.",
            "llm.input_messages.0.message.role": "user",
            "llm.input_messages.0.message.contents.0.message_content.type": "text",
            "llm.input_messages.0.message.contents.0.message_content.text": "What is on this receipt?",
            "llm.input_messages.0.message.contents.1.message_content.type": "image",
            "llm.input_messages.0.message.contents.1.message_content.image.image.url": url}
    span = {"traceId": "cd" * 16, "spanId": "01", "parentSpanId": "", "name": "llm",
            "startTimeUnixNano": "1000000000", "endTimeUnixNano": "1000000005",
            "attributes": [{"key": k, "value": {"stringValue": v}} for k, v in flat.items()]}
    path = tmp_path / "oi.json"
    path.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}), encoding="utf-8")
    [(data, _)] = converter(openinference)(path)
    assert data["briefing"]["goal"] == shown


def test_the_chat_importer_reads_a_langchain_style_call_in_a_role_message_as_the_exports_do(tmp_path: Path) -> None:
    # chat read a flat call's `arguments` only: a LangChain-style call (`args`) in a role/content message had its
    # arguments lost (`{}`), which the exports' reader (the one reader of a tool call) read
    said = {"role": "assistant", "content": "", "tool_calls": [
        {"id": "c1", "name": "refund", "args": {"order": 42}, "type": "tool_call"}]}
    path = tmp_path / "chat.json"
    path.write_text(json.dumps([{"role": "user", "content": "Refund order 42."}, said,
                                {"role": "tool", "tool_call_id": "c1", "content": "refunded"}]), encoding="utf-8")
    [(data, _)] = converter(chat)(path)
    call = data["trace"][1]
    assert (call["kind"], call["tool"], call["arguments"]) == ("tool_call", "refund", {"order": 42})
    read = message(said)
    assert read is not None and read.calls == [("c1", "refund", '{"order": 42}')]
