"""OpenAI Responses API items are read by one reader (`warroom.importers.exports.responses_messages`): `chat`,
the exports' messages (LangSmith, Langfuse, the OpenAI Agents SDK's `Response` output) and OpenInference's raw
values read a `function_call` the same way, its `call_id` or else the item's own `id`."""

from __future__ import annotations

import json

from warroom.importers.chat._parse import conversations
from warroom.importers.exports import Message, messages
from warroom.importers.openinference._values import value_messages

ITEMS = [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Paying."}]},
         {"type": "function_call", "call_id": "call_pay", "name": "pay", "arguments": '{"id": 7}'},
         {"type": "function_call", "id": "fc_2", "name": "notify"}]


def test_chat_reads_a_function_call_by_its_call_id_or_its_own_id() -> None:
    (said,) = conversations(ITEMS)[0].messages
    assert [(c.call_id, c.name, c.arguments) for c in said.tool_calls] == [("call_pay", "pay", {"id": 7}),
                                                                            ("fc_2", "notify", {})]


def test_the_exports_read_the_same_calls_one_item_at_a_time() -> None:
    assert messages(ITEMS) == [Message("assistant", "Paying."),
                               Message("assistant", calls=[("call_pay", "pay", '{"id": 7}')]),
                               Message("assistant", calls=[("fc_2", "notify", "")])]


def test_openinference_reads_the_same_calls_into_the_message_they_follow() -> None:
    (read,) = value_messages(json.dumps({"output": ITEMS}), "application/json") or []
    assert read == Message("assistant", "Paying.", [("call_pay", "pay", '{"id": 7}'), ("fc_2", "notify", "")])


def test_a_function_call_output_that_is_an_object_is_shown_as_its_json_not_dropped() -> None:
    # The API's output is text, but SDKs record a tool's returned object as it was: a tool result shown empty
    # would read as a silent failure the trace does not hold.
    items = [{"type": "function_call_output", "call_id": "call_pay", "output": {"paid": True, "id": 7}}]
    assert messages(items) == [Message("tool", '{"paid": true, "id": 7}', call_id="call_pay")]
    (said,) = conversations([{"type": "function_call", "call_id": "call_pay", "name": "pay"}, *items])[0].messages[1:]
    assert said.text == '{"paid": true, "id": 7}'
