"""OpenAI Responses API items of tools the model asks for and your own code runs (`computer_call` /
`computer_call_output`, `local_shell_call` / `local_shell_call_output`, in the shapes of OpenAI's API reference)
are tool calls and their results, like a `function_call` and its `function_call_output`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from trace_import_support import converter, only_missing_key

from warroom.importers import chat

SCREENSHOT = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"

ITEMS: list[dict[str, Any]] = [
    {"type": "message", "role": "user",
     "content": [{"type": "input_text", "text": "Restart the deploy job that failed on the dashboard."}]},
    {"type": "computer_call", "id": "cu_01", "call_id": "call_click", "status": "completed",
     "action": {"type": "click", "button": "left", "x": 412, "y": 230},
     "pending_safety_checks": [{"id": "sc_1", "code": "malicious_instructions", "message": "Check the page."}]},
    {"type": "computer_call_output", "call_id": "call_click",
     "acknowledged_safety_checks": [{"id": "sc_1", "code": "malicious_instructions", "message": "Check the page."}],
     "output": {"type": "computer_screenshot", "image_url": f"data:image/png;base64,{SCREENSHOT}"}},
    {"type": "computer_call", "id": "cu_02", "call_id": "call_type", "status": "completed",
     "action": {"type": "type", "text": "deploy-job"}, "pending_safety_checks": []},
    {"type": "computer_call_output", "call_id": "call_type",
     "output": {"type": "computer_screenshot", "file_id": "file-abc"}},
    {"type": "local_shell_call", "id": "lsh_01", "call_id": "call_restart", "status": "completed",
     "action": {"type": "exec", "command": ["systemctl", "restart", "deploy-job"], "env": {},
                "working_directory": "/srv", "timeout_ms": 30000}},
    # the API reference names the call it answers by `id`; OpenAI's own guide (and most code) writes `call_id`
    {"type": "local_shell_call_output", "id": "call_restart", "output": '{"output": "", "metadata": {"exit_code": 0}}'},
    {"type": "local_shell_call", "id": "lsh_02", "call_id": "call_status", "status": "completed",
     "action": {"type": "exec", "command": ["systemctl", "is-active", "deploy-job"], "env": {}}},
    {"type": "local_shell_call_output", "call_id": "call_status", "output": "failed\n"},
    {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "The job is restarted."}]},
]


def _events(tmp_path: Path) -> dict[str, dict[str, Any]]:
    path = tmp_path / "computer-use.json"
    path.write_text(json.dumps(ITEMS), encoding="utf-8")
    [(data, _)] = converter(chat)(path)
    return {e["id"]: e for e in data["trace"]}


def test_computer_and_shell_calls_are_tool_calls_with_the_action_as_arguments(tmp_path: Path) -> None:
    events = _events(tmp_path)
    calls = {k: (e["tool"], e["arguments"]) for k, e in events.items() if e["kind"] == "tool_call"}
    assert calls == {
        "call_click": ("computer", {"action": {"type": "click", "button": "left", "x": 412, "y": 230},
                                    "pending_safety_checks": [{"id": "sc_1", "code": "malicious_instructions",
                                                               "message": "Check the page."}]}),
        "call_type": ("computer", {"action": {"type": "type", "text": "deploy-job"}}),  # no empty checks
        "call_restart": ("local_shell", {"action": {"type": "exec", "command": ["systemctl", "restart", "deploy-job"],
                                                    "env": {}, "working_directory": "/srv", "timeout_ms": 30000}}),
        "call_status": ("local_shell", {"action": {"type": "exec", "command": ["systemctl", "is-active",
                                                                               "deploy-job"], "env": {}}}),
    }


def test_their_outputs_are_the_results_a_screenshot_named_by_its_size_never_its_bytes(tmp_path: Path) -> None:
    results = {e["call"]: e["output"] for e in _events(tmp_path).values() if e["kind"] == "tool_result"}
    assert json.loads(results["call_click"]) == {
        "output": {"type": "computer_screenshot", "image_url": f"[image, {len(SCREENSHOT)} characters of base64]"},
        "acknowledged_safety_checks": [{"id": "sc_1", "code": "malicious_instructions", "message": "Check the page."}]}
    assert json.loads(results["call_type"]) == {"output": {"type": "computer_screenshot", "file_id": "file-abc"}}
    assert results["call_restart"] == '{"output": "", "metadata": {"exit_code": 0}}'  # verbatim, by `id`
    assert results["call_status"] == "failed\n"  # by `call_id`
    assert SCREENSHOT not in json.dumps(results)


def test_the_drill_misses_only_its_answer_key(tmp_path: Path) -> None:
    path = tmp_path / "computer-use.json"
    path.write_text(json.dumps(ITEMS), encoding="utf-8")
    [result] = chat.import_chats([path], tmp_path / "out").results
    assert result.error is None and result.output is not None
    only_missing_key(result.output)


def _error(tmp_path: Path, items: list[dict[str, Any]]) -> str | None:
    path = tmp_path / "items.json"
    path.write_text(json.dumps(items), encoding="utf-8")
    [result] = chat.import_chats([path], tmp_path / "out").results
    return result.error


def test_an_output_before_its_call_is_refused_by_the_items_own_field_and_index(tmp_path: Path) -> None:
    # was `[1].tool_call_id 'call_click' answers no earlier tool call`: a field the items do not have
    items = [ITEMS[0], ITEMS[2], ITEMS[1], *ITEMS[3:]]
    assert _error(tmp_path, items) == ("[1].call_id 'call_click' answers no earlier tool call (its call comes after "
                                       "it in the file: a result must follow its call)")
    shell = [ITEMS[0], ITEMS[6], ITEMS[5]]
    assert _error(tmp_path, shell) == ("[1].id 'call_restart' answers no earlier tool call (its call comes after it "
                                       "in the file: a result must follow its call)")


def test_a_place_in_an_error_is_the_items_index_when_items_merge_or_drop(tmp_path: Path) -> None:
    # two calls of one turn are one assistant message and an empty reasoning item none: was `[3].tool_call_id`
    items = [ITEMS[0], {"type": "reasoning", "id": "rs_1", "summary": []},
             {"type": "function_call", "call_id": "c1", "name": "a", "arguments": "{}"},
             {"type": "function_call", "call_id": "c2", "name": "b", "arguments": "{}"},
             {"type": "function_call_output", "call_id": "c1", "output": "1"},
             {"type": "function_call_output", "call_id": "nobody", "output": "2"}]
    assert _error(tmp_path, items) == "[5].call_id 'nobody' answers no earlier tool call"


def test_a_shell_output_naming_the_call_items_own_id_answers_that_call(tmp_path: Path) -> None:
    # `id` of a local_shell_call_output may be the call's item id (lsh_01), not its call_id: was refused
    items = [*ITEMS[:6], {"type": "local_shell_call_output", "id": "lsh_01", "output": "restarted\n"}]
    path = tmp_path / "by-item-id.json"
    path.write_text(json.dumps(items), encoding="utf-8")
    [(data, _)] = converter(chat)(path)
    [result] = [e for e in data["trace"] if e["kind"] == "tool_result" and e["call"] == "call_restart"]
    assert result["output"] == "restarted\n"


def test_a_transcript_with_screenshots_over_8_mib_imports_its_screenshots_named_by_size(tmp_path: Path) -> None:
    # was refused, `the file is 11.4 MiB; records are limited to 8 MiB`, though the drill holds no screenshot byte
    shot = "A" * (11 * 1024 * 1024)
    items = [dict(ITEMS[2], output={"type": "computer_screenshot", "image_url": f"data:image/png;base64,{shot}"})
             if i == 2 else item for i, item in enumerate(ITEMS)]
    path = tmp_path / "big-screenshot.json"
    path.write_text(json.dumps(items), encoding="utf-8")
    [result] = chat.import_chats([path], tmp_path / "out").results
    assert result.error is None and result.output is not None
    text = result.output.read_text(encoding="utf-8")
    assert f"[image, {len(shot):,} characters of base64]" in text and len(text) < 20_000
