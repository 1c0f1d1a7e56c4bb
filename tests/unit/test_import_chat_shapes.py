"""`warroom import chat` on other tools' message shapes (tests/fixtures/thirdparty, README.md there says where each
comes from): Anthropic content blocks, legacy function calls, tau2-bench's flat tool calls, named agents."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from trace_import_support import FIXTURES, assert_refused, converter, import_missing_only_the_key

from warroom.importers import chat
from warroom.importers.kit import TraceError

THIRD = FIXTURES / "thirdparty"


def _only(name: str) -> dict:
    [(data, _)] = converter(chat)(THIRD / name)
    return data


def _kinds(data: dict) -> list[tuple[str, str]]:
    return [(e["id"], e["kind"]) for e in data["trace"]]


def test_anthropic_tool_use_and_tool_result_blocks_are_calls_and_results() -> None:
    data = _only("chat-anthropic.json")
    ev = {e["id"]: e for e in data["trace"]}
    assert _kinds(data) == [
        ("m000", "log"), ("m001", "human_message"), ("m002", "executor_message"),
        ("toolu_01A09q90qw90lq917835lq9", "tool_call"), ("toolu_01B", "tool_call"),
        ("m003", "tool_result"), ("m004", "tool_result"), ("m005", "human_message"), ("m006", "executor_message")]
    assert ev["m000"]["content"] == "You are the refund agent of Acme. Refund only delivered orders."  # `system`
    assert ev["m002"]["content"] == "Let me look up the order."  # no "[tool_use part]"
    assert ev["toolu_01B"] == {**ev["toolu_01B"], "tool": "get_customer", "arguments": {"order_id": 42},
                               "batch": "m002-batch"}
    assert (ev["m003"]["call"], ev["m003"]["output"]) == ("toolu_01B", '{"customer": "c-7"}')
    assert "status" not in ev["m003"]
    assert ev["m004"] == {**ev["m004"], "call": "toolu_01A09q90qw90lq917835lq9",
                          "output": "order service timed out", "status": "error"}  # is_error
    assert ev["m005"]["content"] == "Any news?"  # the user's own text stays a user turn
    assert [s["id"] for s in data["plan"]] == ["u01", "u02"]
    assert data["models"]["executor"]["name"] == "claude-sonnet-4-20250514"


def test_legacy_function_calls_answered_by_function_messages() -> None:
    data = _only("chat-function-call.json")
    ev = {e["id"]: e for e in data["trace"]}
    calls = [e for e in data["trace"] if e["kind"] == "tool_call"]
    assert [(c["id"], c["tool"], c["arguments"]) for c in calls] == [
        ("function_call-2", "get_weather", {"city": "Paris"}), ("function_call-4", "get_weather", {"city": "Rome"})]
    assert (ev["m003"]["call"], ev["m003"]["output"]) == ("function_call-2", '{"temp_c": 18}')
    assert (ev["m005"]["call"], ev["m005"]["output"]) == ("function_call-4", '{"temp_c": 24}')


def test_tau2_flat_tool_calls_and_tool_messages_by_id() -> None:
    data = _only("chat-tau2.json")
    ev = {e["id"]: e for e in data["trace"]}
    assert ev["call_x1"] == {**ev["call_x1"], "kind": "tool_call", "tool": "get_reservation_details",
                             "arguments": {"reservation_id": "EHGLP3"}}
    assert ev["m003"]["call"] == "call_x1"
    assert ev["m000"]["kind"] == "executor_message"  # the agent greets first, before any user turn


def test_named_assistants_are_agents_of_their_own() -> None:
    data = _only("chat-named-agents.json")
    assert [(a["name"], a["role"]) for a in data["agents"]] == [
        ("user", "human"), ("planner", "executor"), ("executor", "sub-agent"), ("assistant", "sub-agent"),
        ("tools", "tool-host")]
    by_id = {e["id"]: e for e in data["trace"]}
    assert [by_id[i]["agent"] for i in ("m001", "call_1", "m004", "m005")] == [
        "planner", "executor", "executor", "assistant"]


def test_a_name_that_is_a_reserved_agent_is_renamed(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps([{"role": "user", "content": "hi"},
                                {"role": "assistant", "name": "tools", "content": "a"},
                                {"role": "assistant", "name": "user", "content": "b"}]), encoding="utf-8")
    [(data, _)] = converter(chat)(path)
    assert [a["name"] for a in data["agents"]] == ["user", "tools-agent", "user-agent", "tools"]


@pytest.mark.parametrize("name", ["chat-anthropic.json", "chat-function-call.json", "chat-tau2.json",
                                  "chat-named-agents.json"])
def test_each_shape_imports_as_a_drill_missing_only_the_answer_key(tmp_path: Path, name: str) -> None:
    import_missing_only_the_key(chat.import_chats, [THIRD / name], tmp_path / "out")


#: How chat's refusal of a file of spans ends: naming the importer that reads them.
OTLP_NAMED = ("is not a conversation; it looks like OpenTelemetry GenAI traces (OTLP/JSON spans): `warroom import "
              "otel` reads them")


@pytest.mark.parametrize(("doc", "message"), [
    ([{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]},
      {"type": "apply_patch_call", "id": "apc_1", "call_id": "call_1", "status": "completed"}],
     "[1]: a Responses API item of type 'apply_patch_call' is not read"),  # hosted and own tools' items are read
    # an OTLP/JSON document, a Tempo answer, a Jaeger export: the importer that reads spans is named
    ({"resourceSpans": []}, "the top level: an object without `messages` (or `traj`) " + OTLP_NAMED),
    ({"batches": []}, OTLP_NAMED),
    ({"data": [{"traceID": "ab", "spans": []}]}, OTLP_NAMED),
])
def test_other_formats_are_refused_by_name(tmp_path: Path, doc: object, message: str) -> None:
    assert_refused(converter(chat), tmp_path / "t.json", doc, message)


def test_otlp_json_lines_given_to_chat_name_the_importers(tmp_path: Path) -> None:
    with pytest.raises(TraceError, match=r"^line 1: an object without `messages` .*; it looks like OpenTelemetry GenAI "
                                         r"traces \(OTLP/JSON spans\): `warroom import otel` reads them$"):
        converter(chat)(FIXTURES / "otel" / "legacy.jsonl")


def test_refusals_and_thinking_keep_their_text(tmp_path: Path) -> None:
    # OpenAI: `refusal` beside a null content, or a refusal part; Anthropic: a thinking block
    path = tmp_path / "t.json"
    path.write_text(json.dumps([
        {"role": "user", "content": "Delete the production database."},
        {"role": "assistant", "content": None, "refusal": "I can't help with that."},
        {"role": "assistant", "content": [{"type": "refusal", "refusal": "Still no."}]},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "The user wants prod gone.",
                                           "signature": "abc"}, {"type": "text", "text": "No."}]},
    ]), encoding="utf-8")
    [(data, _)] = converter(chat)(path)
    assert [e["content"] for e in data["trace"][1:]] == [
        "I can't help with that.", "Still no.", "[thinking] The user wants prod gone.\nNo."]


@pytest.mark.parametrize(("path", "hint"), [
    (FIXTURES / "chat" / "refund.json",
     "missing field 'history'; it looks like a chat transcript: `warroom import chat` reads it"),
    (FIXTURES / "otel" / "current.json",
     "missing field 'history'; it looks like OpenTelemetry GenAI traces (OTLP/JSON spans): `warroom import otel`"),
])
def test_who_and_when_names_the_importer_of_a_chat_or_a_trace(path: Path, hint: str) -> None:
    from warroom.importers.kit import convert
    from warroom.importers.who_and_when import IMPORTER, RecordError

    with pytest.raises(RecordError, match=re.escape(hint)):
        convert(IMPORTER, path)


def test_json_lines_of_conversations_are_one_drill_per_line(tmp_path: Path) -> None:
    drills = converter(chat)(THIRD / "chat-finetune.jsonl")
    assert [d["id"] for d, _ in drills] == ["chat-finetune-0", "chat-finetune-1"]
    assert [d["briefing"]["goal"] for d, _ in drills] == ["Where is order 7?", "Refund 9"]
    assert "conversation 1 (line 3: messages)" in drills[1][0]["source"]
    assert {e["id"]: e for e in drills[1][0]["trace"]}["c1"]["arguments"] == {"order": 9}
    report = chat.import_chats([THIRD], tmp_path / "out")  # a folder: *.jsonl files are read too
    assert {r.drill_id for r in report.results} >= {"chat-finetune-0", "chat-finetune-1"}


@pytest.mark.parametrize(("text", "message"), [
    ('{"messages": [{"role": "user", "content": "x"}]}\n{"messages": [{"role": "tool", "tool_call_id": "zz"}]}\n',
     "line 2: messages[0].tool_call_id 'zz' answers no earlier tool call"),
    ('{"messages": [{"role": "user", "content": "x"}]}\n{"messages": [\n{"messages": []}\n',
     "line 2: not JSON: Expecting value"),  # cut off, but not the last line (that one is skipped: a warning)
    ('{"messages": [\n{"role": "user"}\n', "not JSON: Expecting ',' delimiter at line 3 column 1"),
])
def test_bad_json_lines_name_their_line(tmp_path: Path, text: str, message: str) -> None:
    assert_refused(converter(chat), tmp_path / "t.jsonl", text, message)


@pytest.mark.parametrize(("doc", "message"), [
    ({"messages": [{"role": "user", "content": "x"},
                   {"role": "assistant", "content": [{"type": "tool_use", "name": "f", "input": {}}]}]},
     "messages[1].content[0]: a tool_use block needs an `id` and a `name`"),
    ({"messages": [{"role": "user", "content": [{"type": "tool_result", "content": "x"}]}]},
     "messages[0].content[0]: a tool_result block needs the `tool_use_id` of the tool_use it answers"),
    ({"messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "nope", "content": "x"}]}]},
     "messages[0].content[0].tool_use_id 'nope' answers no earlier tool call"),
    ([{"role": "function", "name": "f", "content": "x"}],
     "[0]: a `function` message answers no earlier `function_call`"),
    ({"messages": [{"role": "tool", "id": "c9", "content": "x"}]}, "messages[0].id 'c9' answers no earlier tool call"),
])
def test_other_shapes_errors_name_their_own_fields(tmp_path: Path, doc: object, message: str) -> None:
    assert_refused(converter(chat), tmp_path / "t.json", doc, message)


def test_sharegpt_conversations_are_read() -> None:
    drills = converter(chat)(THIRD / "chat-sharegpt.json")
    assert [d["id"] for d, _ in drills] == ["chat-sharegpt-0", "chat-sharegpt-1"]
    first = drills[0][0]["trace"]
    assert [(e["kind"], e["content"]) for e in first] == [
        ("log", "You are a helpful travel agent."), ("human_message", "Book me a flight to Lisbon on Friday."),
        ("executor_message", "Booked: TP1351, Friday 09:40, seat 14C.")]


@pytest.mark.parametrize(("doc", "message"), [
    ({"conversations": [{"from": "human", "value": "x"}, {"from": "observation", "value": "{}"}]},
     "conversations[1].from is 'observation'; ShareGPT turns are read from human, user, gpt"),
])
def test_unread_dataset_shapes_are_named(tmp_path: Path, doc: object, message: str) -> None:
    assert_refused(converter(chat), tmp_path / "t.json", doc, message)


def test_openai_responses_items_are_messages_calls_and_results() -> None:
    data = _only("chat-responses.json")
    ev = {e["id"]: e for e in data["trace"]}
    assert _kinds(data) == [
        ("m000", "log"), ("m001", "human_message"), ("m002", "executor_message"), ("m003", "executor_message"),
        ("call_list", "tool_call"), ("call_credits", "tool_call"), ("m004", "tool_result"), ("m005", "tool_result"),
        ("call_pay", "tool_call"), ("m007", "tool_result"), ("m008", "executor_message")]
    assert ev["m002"]["content"] == "[reasoning] List the invoices, then pay."
    assert ev["m003"]["content"] == "Listing March's invoices."
    assert ev["call_list"]["batch"] == ev["call_credits"]["batch"] == "m003-batch"
    assert ev["call_list"]["arguments"] == {"month": "2026-03"}
    assert (ev["m005"]["call"], ev["m005"]["output"]) == (
        "call_list", '{"returned": 20, "total": 40, "next_cursor": "c2"}')
    assert ev["m008"]["content"] == "All March invoices are paid."


@pytest.mark.parametrize(("doc", "message"), [  # each once raised a TypeError (a traceback), found by fuzzing
    ({"messages": [{"role": "assistant", "content": "x", "tool_calls": 5}]},
     "messages[0].tool_calls is a JSON number, not a list of tool calls"),
    ({"messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {}}],
                    "tool_calls": 5}]}, "messages[0].tool_calls is a JSON number, not a list of tool calls"),
    ([{"type": {"a": 1}, "call_id": "c"}], "[0]: an object without `messages` (or `traj`) is not a conversation"),
])
def test_values_of_the_wrong_type_are_refused_not_a_traceback(tmp_path: Path, doc: object, message: str) -> None:
    assert_refused(converter(chat), tmp_path / "t.json", doc, message)


def test_a_reasoning_summary_of_the_wrong_type_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps([{"role": "user", "content": "hi"}, {"type": "reasoning", "summary": 5},
                                {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}]),
                    encoding="utf-8")
    [(data, _)] = converter(chat)(path)
    assert [e["kind"] for e in data["trace"]] == ["human_message", "tool_call"]
