"""Campaign 21 (issue 30), the importers and real traces: regression tests for the breaks it found."""

from __future__ import annotations

import json
from pathlib import Path

from trace_import_support import FIXTURES, assert_refused, converter

from warroom.importers import chat

THIRD = FIXTURES / "thirdparty"


def _seen(data: dict) -> list[tuple[str, str | None, str | None]]:
    """Each event of an imported drill as (kind, what it says or calls, its status)."""
    return [(e["kind"], e.get("tool", e.get("output", e.get("content"))), e.get("status")) for e in data["trace"]]


def test_a_responses_api_request_body_is_a_conversation_with_its_instructions():
    """The body the Agents SDK sends to `responses.create` (`model`, `instructions`, `input` items), as a request
    log keeps it, was refused ("an object without `messages` (or `traj`) is not a conversation"), and the
    instructions had no place to go."""
    [(data, _)] = converter(chat)(THIRD / "chat-responses-request.json")
    seen = _seen(data)
    assert seen[:3] == [("log", "Resolve refund tickets with the tools.", None),
                        ("human_message", "Customer says order 4417 was charged twice. Refund the duplicate charge, "
                                          "once.", None),
                        ("tool_call", "list_charges", None)]
    assert data["trace"][0]["source"] == "system prompt"
    assert [e for e in seen if e[0] == "tool_call"] == [("tool_call", t, None) for t in
                                                       ("list_charges", "get_order", "crm_lookup", "close_ticket")]
    assert ("tool_result", "{'status': 'ok', 'duplicates': []}", None) in seen
    assert data["models"]["executor"]["name"] == "gpt-4.1"


def test_a_responses_api_request_whose_input_is_text_is_the_users_message(tmp_path: Path):
    path = tmp_path / "one.json"
    path.write_text(json.dumps({"model": "gpt-5", "input": "Refund order 42."}), encoding="utf-8")
    [(data, _)] = converter(chat)(path)
    assert _seen(data) == [("human_message", "Refund order 42.", None)]


def test_a_gemini_request_keeps_its_system_instruction_and_reads_the_sdks_result_responses():
    """google-genai's `generateContent` body (a chat with a `system_instruction`, its automatic function calling
    answering each call with `{"result": ...}` or `{"error": ...}`): the `systemInstruction` was dropped without a
    word (the drill had no system prompt), and each result was shown wrapped as `{"result": {...}}`, so a field-path
    evidence such as `duplicates` did not reach the tool's own result."""
    [(data, _)] = converter(chat)(THIRD / "chat-gemini-request.json")
    seen = _seen(data)
    assert seen[0] == ("log", "Resolve refund tickets with the tools.", None)
    assert seen[5] == ("tool_result", '{"status": "ok", "duplicates": []}', None)
    assert seen[7][0::2] == ("tool_result", "error") and "503 Service Unavailable" in seen[7][1]


def test_a_gemini_system_instruction_in_the_python_sdks_config_is_the_system_prompt(tmp_path: Path):
    path = tmp_path / "gemini.json"
    path.write_text(json.dumps({"model": "gemini-2.5-flash", "config": {"system_instruction": "Be terse."},
                                "contents": [{"role": "user", "parts": [{"text": "Hi"}]},
                                             {"role": "model", "parts": [{"text": "Hello."}]}]}), encoding="utf-8")
    [(data, _)] = converter(chat)(path)
    assert _seen(data) == [("log", "Be terse.", None), ("human_message", "Hi", None),
                           ("executor_message", "Hello.", None)]


def test_an_item_that_is_not_a_message_is_named_where_it_stands(tmp_path: Path):
    """A message list with one object that is no message (a Responses API `item_reference`, an object without a
    role) was read as a list of conversations and refused at its first, well-formed message: `[0]: an object
    without `messages` (or `traj`) is not a conversation`."""
    convert = converter(chat)
    assert_refused(convert, tmp_path / "ref.json", [{"role": "user", "content": "go"},
                                                    {"type": "item_reference", "id": "msg_1"}],
                   "[1]: a Responses API item of type 'item_reference' is not read")
    assert_refused(convert, tmp_path / "norole.json", [{"role": "user", "content": "go"}, {"content": "hi"}],
                   "[1].role is None; expected one of system")
