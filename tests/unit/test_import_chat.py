"""`warroom import chat`: OpenAI-style transcripts mapped to format-2 drills, verbatim, with no answer key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from trace_import_support import FIXTURES, converter, marked_up, only_missing_key, sparse_file

from warroom.core.author import run_checks
from warroom.importers import chat
from warroom.importers.kit import DEFAULT_MODEL_NAME, MAX_CHAT_BYTES, Price, TraceError, TraceOptions

CHAT = FIXTURES / "chat"


def _drills(tmp_path: Path, *names: str) -> dict[str, Path]:
    report = chat.import_chats([CHAT / n for n in names], tmp_path / "out")
    assert not report.failed, report.failed
    return {r.drill_id: r.output for r in report.results if r.output}


def _events(data: dict) -> dict[str, dict]:
    return {ev["id"]: ev for ev in data["trace"]}


def test_messages_map_to_agents_calls_and_results_verbatim() -> None:
    [(data, header)] = converter(chat)(CHAT / "refund.json")
    ev = _events(data)
    assert ev["m000"]["kind"] == "log" and ev["m000"]["source"] == "system prompt"
    assert ev["m001"] == {**ev["m001"], "kind": "human_message", "agent": "user", "step": "u01"}
    # the API's call ids are the event ids; two calls of one message are one batch with one usage
    assert ev["call_lookup1"]["arguments"] == {"order_id": "#W2378156"}
    assert ev["call_lookup1"]["batch"] == ev["call_user1"]["batch"] == "m002-batch"
    assert ev["call_lookup1"]["usage"]["estimated"] is True and "usage" not in ev["call_user1"]
    # results answer their calls in completion order (the user lookup finished first)
    assert [ev[i]["call"] for i in ("m003", "m004")] == ["call_user1", "call_lookup1"]
    assert ev["m004"]["output"] == ('{"order_id": "#W2378156", "status": "delivered", "delivered": "2026-09-02", '
                                   '"total": 184.5}')
    # an assistant message with text and a call: the text carries the turn's usage, the call none
    assert ev["m005"]["kind"] == "executor_message" and "usage" in ev["m005"] and "usage" not in ev["call_refund1"]
    assert ev["m007"]["content"] == "Done: $184.50 is on its way back to your card. ✓"
    assert data["models"]["executor"]["name"] == "gpt-4o-2024-08-06"
    assert "answer_key" not in data and "all_clear" not in data
    assert "estimated" in data["source"] and "estimated" in header
    times = [e["t"] for e in data["trace"]]
    assert times == sorted(times) and times[0] == 0 and times[-1] > 0


def test_a_tau_bench_array_gives_one_drill_per_trajectory() -> None:
    drills = converter(chat)(CHAT / "tau-bench.json")
    assert [d["id"] for d, _ in drills] == ["chat-tau-bench-0", "chat-tau-bench-1"]
    first = _events(drills[0][0])
    assert first["call_b"]["arguments"] == {"arguments": "not json {"}  # kept verbatim when not a JSON object
    assert first["m007"]["content"] == "Your flight is changed."  # text parts joined
    assert [s["id"] for s in drills[0][0]["plan"]] == ["u01", "u02"]  # one plan step per user message
    assert "reward was 0" in drills[0][0]["source"]
    assert drills[1][0]["models"]["executor"]["name"] == DEFAULT_MODEL_NAME


def test_prices_are_the_option_or_the_documented_default() -> None:
    [(data, _)] = converter(chat)(CHAT / "refund.json", TraceOptions(price=Price(3, 15)))
    assert data["models"]["executor"]["input_usd_per_mtok"] == 3
    assert data["models"]["planner"]["output_usd_per_mtok"] == 15
    assert "$3/$15" in data["source"]


def test_imported_drills_miss_only_the_answer_key_and_validate_once_marked_up(tmp_path: Path) -> None:
    drills = _drills(tmp_path, "refund.json", "tau-bench.json")
    assert sorted(drills) == ["chat-refund", "chat-tau-bench-0", "chat-tau-bench-1"]
    for path in drills.values():
        only_missing_key(path)
        assert marked_up(path).is_all_clear
    key = """answer_key:
  fault: {origin_step: u01, kind: constraint_dropped, summary: The delivery date was not checked against policy.}
  evidence: [m004]
  cascade: []
  damage: {unit: USD refunded in error, entries: [{event: m006, amount: 184.5}]}
  deadline: {event: call_refund1, after: 1}
  debrief: m004 says delivered 2026-09-02, outside the 30 days the system prompt allows.
"""
    drill = marked_up(drills["chat-refund"], key)
    assert drill.answer_key is not None and drill.answer_key.evidence == ["m004"]
    assert run_checks(drill).passed, run_checks(drill).problems


def _bad(tmp_path: Path, text: str, name: str = "bad.json") -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    with pytest.raises(TraceError) as e:
        converter(chat)(p)
    return str(e.value)


@pytest.mark.parametrize(("text", "message"), [
    ('{"messages": [', "not JSON: Expecting value at line 1 column 15"),
    ("42", "not a chat transcript: the top level is a JSON number, not an array or object"),
    ("[]", "not a chat transcript: the top level is an empty JSON array"),
    ('{"turns": []}', "the top level: an object without `messages` (or `traj`) is not a conversation"),
    ('[{"role": "robot", "content": "x"}]', "[0].role is 'robot'; expected one of system, developer, user"),
    ('[{"role": "tool", "content": "x"}]', "[0]: a tool message needs the `tool_call_id` of the call it answers"),
    ('[{"role": "user", "content": "x"}, {"role": "tool", "tool_call_id": "nope", "content": "x"}]',
     "[1].tool_call_id 'nope' answers no earlier tool call"),
    ('{"messages": [{"role": "user", "content": "\\ud800"}]}', "messages[0].content contains an unpaired surrogate"),
    ('[{"role": "user", "content": 1' + "0" * 40 + "}]", "numbers are limited to 30 digits"),
    ('[{"role": "user", "content": {"a": 1}}]', "[0].content is a JSON object; it must be text or a list of parts"),
    ('[{"role": "assistant", "tool_calls": [{"id": "a"}]}]', "a tool call is an object with an `id` and a `function`"),
])
def test_bad_transcripts_are_one_line_each(tmp_path: Path, text: str, message: str) -> None:
    assert message in _bad(tmp_path, text)


def test_too_big_and_not_utf8_are_refused_before_parsing(tmp_path: Path) -> None:
    big = sparse_file(tmp_path / "big.json", MAX_CHAT_BYTES + 1)
    with pytest.raises(TraceError, match="records are limited to 64 MiB"):
        converter(chat)(big)
    (tmp_path / "latin.json").write_bytes(b'[{"role": "user", "content": "caf\xe9"}]')
    with pytest.raises(TraceError, match="not UTF-8 text: byte 0xe9"):
        converter(chat)(tmp_path / "latin.json")


def test_a_call_id_that_is_not_an_event_id_gets_one(tmp_path: Path) -> None:
    p = tmp_path / "ids.json"
    p.write_text(json.dumps([
        {"role": "user", "content": "go"},
        {"role": "assistant", "tool_calls": [{"id": "call/1 x", "type": "function",
                                              "function": {"name": "f", "arguments": {}}}]},
        {"role": "tool", "tool_call_id": "call/1 x", "content": ""},
    ]), encoding="utf-8")
    [(data, _)] = converter(chat)(p)
    ev = _events(data)
    assert ev["m001-c1"]["tool"] == "f" and ev["m002"]["call"] == "m001-c1"
