"""Trace shapes a team exports that the recorded fixtures do not have (tests/fixtures/thirdparty/README.md says
where each hand-written file's shape comes from)."""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from trace_import_support import FIXTURES, converter, only_missing_key

from warroom.core.load import limits
from warroom.importers import chat, openinference, otel
from warroom.importers.kit import TraceError, writable_values
from warroom.importers.otel import messages_text
from warroom.importers.who_and_when import import_records

PARTS = FIXTURES / "thirdparty" / "genai-message-parts.json"


def test_every_part_type_of_genai_messages_is_shown_not_only_text_and_tool_calls(tmp_path: Path) -> None:
    # reasoning, uri, blob and file parts were dropped without a word: the model's reasoning and the image the
    # user sent were not in the drill
    [(data, _)] = converter(otel)(PARTS)
    first, second = (e for e in data["trace"] if e["kind"] == "planner_call")
    assert first["content"] == ("[reasoning] The photo is of receipt R-118; check the ledger before answering.\n"
                                "Let me check the ledger.\n"
                                '[tool call ledger_lookup {"receipt": "R-118"}]')
    assert second["content"] == ("R-118 is paid. Here is the stamped copy.\n"
                                 "[blob part image image/png]\n"  # never the base64 bytes
                                 "[file part image application/pdf file-6F2ksmvXxt4VdaqchFvWNZ]\n"
                                 "[citation part]")
    assert data["briefing"]["goal"] == ("Is the receipt in this photo paid?\n"
                                        "[uri part image image/jpeg https://files.example.com/receipts/r-118.jpg]")
    report = otel.import_otel([PARTS], tmp_path)
    assert not report.failed
    only_missing_key(report.results[0].output)


def test_a_tool_call_response_part_names_its_call_and_odd_parts_are_passed_over() -> None:
    value = [{"role": "tool", "parts": [{"type": "tool_call_response", "id": "call_1", "response": {"ok": True}},
                                        {"type": "tool_call_response", "response": "done"},
                                        None, 3, {"content": "no type"}, {"type": "text", "content": 5}]}]
    assert messages_text(value) == '[tool call response call_1 {"ok": true}]\n[tool call response done]'


def test_non_finite_numbers_are_kept_as_the_text_json_writers_use(tmp_path: Path) -> None:
    # Python's json reads NaN / Infinity (not JSON, but Python's json.dumps writes them); YAML wrote them as .nan /
    # .inf, which the drill loader reads as text and warns about: the drill had a second problem
    trace = tmp_path / "t.json"
    trace.write_text('[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "", "tool_calls": '
                     '[{"id": "c1", "type": "function", "function": {"name": "f", "arguments": '
                     '"{\\"x\\": NaN, \\"y\\": [Infinity, -Infinity, 1.5]}"}}]}, '
                     '{"role": "tool", "tool_call_id": "c1", "content": "ok"}]', encoding="utf-8")
    report = chat.import_chats([trace], tmp_path / "out")
    assert not report.failed
    out = report.results[0].output
    only_missing_key(out)  # and no warning
    [call] = [e for e in yaml.safe_load(out.read_text(encoding="utf-8"))["trace"] if e["kind"] == "tool_call"]
    assert call["arguments"] == {"x": "NaN", "y": ["Infinity", "-Infinity", 1.5]}


def test_writable_values_leaves_data_without_non_finite_floats_as_it_is() -> None:
    data = {"a": [1.5, {"b": "nan"}], "c": None}
    assert writable_values(data) is data
    assert writable_values({"a": [float("nan")], "b": data}) == {"a": ["NaN"], "b": data}


@pytest.mark.parametrize(("pack", "kind", "command"), [
    (gzip.compress, "gzip", "gunzip -k"),
    (lambda raw: bz2.compress(raw), "bzip2", "bunzip2 -k"),
    (lambda raw: lzma.compress(raw), "xz", "unxz -k"),
    (lambda raw: b"\x28\xb5\x2f\xfd\x04\x58\x81\x00\x00" + raw[:40], "zstd", "zstd -d"),  # a zstd frame header
])
def test_a_compressed_trace_is_named_with_how_to_decompress_it(tmp_path: Path, pack: Any, kind: str,
                                                              command: str) -> None:
    # was `not UTF-8 text: byte 0x8b at offset 1 (line 1)`, which does not say the file is a gzip archive
    path = tmp_path / "trace.json"
    path.write_bytes(pack(PARTS.read_bytes()))
    expected = f"compressed ({kind}), not UTF-8 JSON text: decompress it first (`{command} FILE`)"
    for importer in (otel.import_otel, chat.import_chats, import_records):
        report = importer([path], tmp_path / "out")
        [result] = report.results
        assert result.error is not None and result.error.startswith(expected), result.error


@pytest.mark.parametrize(("name", "named", "instead"), [
    ("langsmith-runs.json", "LangSmith runs (`run_type`, `inputs`, `outputs`)", "`warroom import langsmith` reads"),
    ("langfuse-trace.json", "a Langfuse export (`observations` of type GENERATION, SPAN, EVENT)",
     "`warroom import langfuse` reads it"),
    ("openai-agents-trace.json", "OpenAI Agents SDK traces (`span_data`)", "`warroom import openai-agents` reads them"),
])
def test_other_exports_are_named_with_their_importer_or_what_to_do_instead(tmp_path: Path, name: str, named: str,
                                                                          instead: str) -> None:
    # were `an object without `messages` (or `traj`) is not a conversation` / `an object without `resourceSpans``
    path = FIXTURES / "thirdparty" / name
    # each importer's own refusal, then the importer that reads the file (warroom.importers.kit.refusal)
    for importer, refusal in ((otel.import_otel, r"not OTLP/JSON traces: "),
                              (openinference.import_openinference, r"not OTLP/JSON traces: "),
                              (chat.import_chats, r"(the top level|\[0\]): an object without `messages` \(or `traj`\) "
                                                  r"is not a conversation; ")):
        [result] = importer([path], tmp_path / "out").results
        assert result.error is not None and re.match(refusal, result.error), result.error
        assert f"; it looks like {named}" in result.error and instead in result.error
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_a_span_without_a_time_among_timed_ones_is_named(tmp_path: Path) -> None:
    # a span whose exporter wrote startTimeUnixNano 0 made `the trace lasts 1,774,000,009 s`, naming no span
    doc = json.loads(PARTS.read_text(encoding="utf-8"))
    spans = doc["resourceSpans"][0]["scopeSpans"][0]["spans"]
    spans[2]["startTimeUnixNano"] = "0"
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(TraceError) as e:
        converter(otel)(path)
    assert str(e.value) == (
        "the trace lasts 1,774,000,009 s, from span 00f067aa0ba902b9 'execute_tool ledger_lookup' (starts "
        "1970-01-01T00:00:00Z) to span 00f067aa0ba902b7 'invoke_agent receipts' (ends 2026-03-20T09:46:49Z); drills "
        "are limited to 1,000,000 s: is one of these times 0 (not recorded) or not in nanoseconds?")


@pytest.mark.parametrize(("turns", "message"), [
    ([{"from": "human"}, {"from": "gpt", "value": "hi"}],
     'conversations[0]: a ShareGPT turn without `value`; each turn is {"from": ..., "value": ...}'),
    ([{"from": "human", "value": "hi"}, {"value": "hello"}],
     'conversations[1]: a ShareGPT turn without `from`; each turn is {"from": ..., "value": ...}'),
])
def test_a_sharegpt_turn_missing_a_field_is_named_not_called_a_message_without_role(
        tmp_path: Path, turns: list[dict[str, str]], message: str) -> None:
    # was `conversations[0].role is None; expected one of system, developer, user, assistant, tool`
    path = tmp_path / "sharegpt.json"
    path.write_text(json.dumps({"conversations": turns}), encoding="utf-8")
    [result] = chat.import_chats([path], tmp_path / "out").results
    assert result.error == message


def test_spans_read_otherwise_than_recorded_are_counted_in_the_source(tmp_path: Path) -> None:
    # a span whose parent is not in the file became a root, and one ending before its start ended at its start,
    # and the drill said nothing of either
    doc = json.loads(PARTS.read_text(encoding="utf-8"))
    spans = doc["resourceSpans"][0]["scopeSpans"][0]["spans"]
    spans[1]["parentSpanId"] = "ffffffffffffffff"
    spans[2]["endTimeUnixNano"] = str(int(spans[2]["startTimeUnixNano"]) - 10**9)
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    [(data, _)] = converter(otel)(path)
    assert data["source"].endswith(
        " Read otherwise than recorded: spans whose parent span is not in the file, read as roots (1), and spans "
        "that end before they start, read as ending when they start (1).")
    [result] = [e for e in data["trace"] if e["kind"] == "tool_result"]
    assert result["duration_ms"] == 0
    [(clean, _)] = converter(otel)(PARTS)
    assert "Read otherwise" not in clean["source"]


def test_a_drill_over_the_drill_file_limit_is_refused_not_written(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # an 8 MiB trace of emoji makes a YAML drill 2.5 times larger (each escaped as \U0001F44D); the loader refuses
    # drill files over limits.MAX_FILE_BYTES, so the importer must not write one
    monkeypatch.setattr(limits, "MAX_FILE_BYTES", 10 * 1024)
    doc = json.loads(PARTS.read_text(encoding="utf-8"))
    tool = doc["resourceSpans"][0]["scopeSpans"][0]["spans"][2]
    tool["attributes"][-1]["value"]["stringValue"] = "\U0001F44D" * 800  # 3,200 bytes in the trace, 8,000 in YAML
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    assert path.stat().st_size < 8 * 1024  # the trace is within the limit, its drill (11.2 KiB) is not
    [result] = otel.import_otel([path], tmp_path / "out").results
    assert result.error is not None and result.error.startswith("the drill would be ")
    assert result.error.endswith(" MiB; drill files are limited to 0.00976562 MiB")
    assert not list((tmp_path / "out").iterdir())


def test_anthropic_server_tool_blocks_and_image_urls_are_shown_not_reduced_to_their_type() -> None:
    # were `[server_tool_use part]` and `[web_search_tool_result part]`: what the model searched for and found
    # (or that the search failed) was not in the drill
    [(data, _)] = converter(chat)(FIXTURES / "thirdparty" / "chat-anthropic-server-tools.json")
    user, reply = data["trace"]
    assert user["content"] == ("[image part https://files.example.com/invoices/inv-2291.png]\n"
                               "Is this supplier's bank account the one on their website?")
    assert reply["content"] == (
        "I'll check the supplier's website.\n"
        '[server_tool_use part web_search {"query": "Nordlicht Logistik GmbH bank details"}]\n'
        "[web_search_tool_result part: Impressum – Nordlicht Logistik <https://nordlicht-logistik.example/impressum>; "
        "HRB 118811 <https://registry.example/companies/HRB-118811>]\n"
        '[server_tool_use part web_search {"query": "Nordlicht Logistik IBAN"}]\n'
        "[web_search_tool_result part error max_uses_exceeded]\n"
        "The account on the invoice matches the website.")
    assert "EqgfCioIARgB" not in reply["content"]  # never the encrypted page content


def test_an_inline_image_is_named_by_its_media_type_never_its_base64_bytes(tmp_path: Path) -> None:
    data_url = "data:image/png;base64," + "iVBORw0KGgo" * 100
    path = tmp_path / "t.json"
    path.write_text(json.dumps([{"role": "user", "content": [
        {"type": "text", "text": "What is on this receipt?"},
        {"type": "image_url", "image_url": {"url": data_url, "detail": "high"}}]},
        {"role": "assistant", "content": "A taxi fare."}]), encoding="utf-8")
    [(data, _)] = converter(chat)(path)
    assert data["trace"][0]["content"] == ("What is on this receipt?\n"
                                           "[image part data:image/png;base64, 1,122 characters]")


def test_a_genai_uri_part_holding_a_data_uri_is_named_without_its_bytes() -> None:
    value = [{"role": "user", "parts": [{"type": "uri", "modality": "image", "uri": "data:image/jpeg;base64,AAAA"}]}]
    assert messages_text(value) == "[uri part image data:image/jpeg;base64, 27 characters]"


def test_openinference_image_parts_are_shown_by_url_not_dropped(tmp_path: Path) -> None:
    # `message_content.type` image parts were dropped: the goal did not say the user sent images
    path = FIXTURES / "thirdparty" / "oi-image-input.json"
    [(data, _)] = converter(openinference)(path)
    assert data["briefing"]["goal"] == ("Do these two receipts match?\n"
                                        "[image part https://files.example.com/receipts/r-118.jpg]\n"
                                        "[image part data:image/png;base64, 118 characters]")
    report = openinference.import_openinference([path], tmp_path)
    only_missing_key(report.results[0].output)


def test_responses_api_hosted_tool_items_are_tool_calls_and_results_not_a_refused_file(tmp_path: Path) -> None:
    # an Agents SDK run with WebSearchTool / FileSearchTool / an MCP server was refused whole (`a Responses API
    # item of type 'web_search_call' is not read`)
    path = FIXTURES / "thirdparty" / "chat-responses-hosted-tools.json"
    [(data, _)] = converter(chat)(path)
    calls = {e["id"]: e for e in data["trace"] if e["kind"] == "tool_call"}
    results = {e["call"]: e["output"] for e in data["trace"] if e["kind"] == "tool_result"}
    assert [(c["tool"], c["arguments"]) for c in calls.values()] == [
        ("web_search", {"action": {"type": "search", "query": "Nordlicht Logistik GmbH IBAN"}}),
        ("file_search", {"queries": ["Nordlicht Logistik IBAN"]}),
        ("list_payments", {"server_label": "erp",
                           "arguments": '{"vendor": "Nordlicht Logistik GmbH", "quarter": "2026-Q1"}'}),
        ("code_interpreter", {"code": "import matplotlib.pyplot as plt\nplt.bar(['Jan', 'Feb'], [4210.0, 3980.5])\n"
                                      "plt.savefig('q1.png')", "container_id": "cntr_68c1a3c6b7d48190"}),
        ("image_generation", {}),
    ]
    assert set(results) == set(calls)
    assert json.loads(results["ws_68c1a3b5e0f08190a4c2d3e4f5a6b7c8"]) == {"status": "completed"}
    assert json.loads(results["fs_68c1a3c0a1b08190c1d2e3f4a5b6c7d8"])["results"][0]["text"] == (
        "Nordlicht Logistik GmbH;DE02 1203 0000 0000 2020 51")
    assert json.loads(results["ig_68c1a3cc0b1c8190f1a2b3c4d5e6f7a8"]) == {
        "status": "completed", "result": "[image, 96 characters of base64]"}  # never the image's bytes
    report = chat.import_chats([path], tmp_path)
    only_missing_key(report.results[0].output)


def test_a_responses_item_of_a_tool_not_read_is_still_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps([{"role": "user", "content": "Fix the typo."},
                                {"type": "apply_patch_call", "id": "apc_1", "call_id": "call_1", "status": "completed",
                                 "operation": {"type": "update_file", "path": "README.md", "diff": "-teh\n+the"}}]),
                    encoding="utf-8")
    [result] = chat.import_chats([path], tmp_path / "out").results
    assert result.error == (
        "[1]: a Responses API item of type 'apply_patch_call' is not read (messages, function_call, "
        "function_call_output, reasoning, computer_call, local_shell_call, their outputs, and hosted tools' items "
        "are: web_search_call, file_search_call, code_interpreter_call, image_generation_call, mcp_call)")


def test_messages_on_the_inference_details_event_are_read_like_the_span_attributes(tmp_path: Path) -> None:
    # GenAI conventions 1.37+ may record a model call's messages on a `gen_ai.client.inference.operation.details`
    # event instead of the span's attributes: the model's output was `(the model's output is not in the trace)`
    path = FIXTURES / "thirdparty" / "genai-details-event.json"
    [(data, _)] = converter(otel)(path)
    [(same, _)] = converter(otel)(PARTS)  # the same run with the messages as span attributes
    assert [e.get("content") for e in data["trace"]] == [e.get("content") for e in same["trace"]]
    assert data["trace"][1]["content"].startswith("[reasoning] The photo is of receipt R-118")
    assert data["briefing"]["goal"] == same["briefing"]["goal"]
    only_missing_key(otel.import_otel([path], tmp_path).results[0].output)
