"""Campaign 22 (issue 30), imported traces: regression tests for the breaks it found."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from trace_import_support import FIXTURES, converter, framework_drill

from warroom.importers import chat, openinference, otel
from warroom.importers.exports import tool_arguments
from warroom.importers.kit import import_files
from warroom.importers.openinference._haystack import haystack_messages
from warroom.importers.spans import as_arguments

FRAMEWORKS = FIXTURES / "frameworks"


def _calls(data: dict) -> list[tuple[str, str, object, str, str]]:
    """Each tool call of a drill with its result: (call id, tool, arguments, output, status)."""
    results = {e["call"]: e for e in data["trace"] if e["kind"] == "tool_result"}
    return [(e["id"], e["tool"], e["arguments"], results[e["id"]]["output"], results[e["id"]].get("status", "ok"))
            for e in data["trace"] if e["kind"] == "tool_call"]


def test_haystacks_tool_results_are_read_from_its_chat_message_reprs():
    """Haystack's Agent traced by openinference-instrumentation-haystack records no TOOL span; its model calls'
    flattened messages hold the tool calls without ids and the tool messages without their results, which are only
    in `input.value`, as Python's repr() of Haystack's ChatMessages. Every result said "(not recorded ...)": the
    swallowed 503 of crm_lookup, the drill's evidence, was nowhere."""
    data = framework_drill("haystack-openinference.jsonl")
    assert [c[:3] + c[4:] for c in _calls(data)] == [
        ("call_handoff_1", "transfer_to_executor", {"ticket": "4417"}, "ok"),
        ("call_lc", "list_charges", {"order_id": "4417"}, "ok"), ("call_go", "get_order", {"order_id": "4417"}, "ok"),
        ("call_crm", "crm_lookup", {"order_id": "4417"}, "error"),
        ("call_close", "close_ticket", {"ticket": "4417", "resolution": "no duplicate charge"}, "ok")]
    outputs = [c[3] for c in _calls(data)]
    assert outputs[0] == "No duplicate charge on order 4417: list_charges found none. Ticket closed."
    assert json.loads(outputs[1]) == {"status": "ok", "duplicates": []}
    assert outputs[3] == ("Failed to invoke Tool `crm_lookup` with parameters {'order_id': '4417'}. Error: 503 Service "
                          "Unavailable: crm is down for maintenance")
    assert "not recorded" not in data["source"]
    # the handoff's result (the planner's tool, whose agent's next model call comes after the executor's turn) is
    # placed before that call, not at the handoff
    ids = [e["id"] for e in data["trace"]]
    handoff = next(e for e in data["trace"] if e.get("call") == "call_handoff_1")
    assert ids.index(handoff["id"]) == len(ids) - 2 and handoff["t"] > 0.8


def test_a_haystack_repr_is_parsed_never_evaluated_and_other_chat_messages_are_not_haystacks():
    """The repr reader reads literals and keyword calls only: a call it does not know stays unread (a datetime in
    `_meta`), nothing is run; LlamaIndex's ChatMessage (`role`, `blocks`) is not Haystack's (its goal was lost)."""
    hostile = ("ChatMessage(_role=<ChatRole.USER: 'user'>, _content=[TextContent(text=__import__('os').getcwd())], "
               "_name=None, _meta={'at': datetime.datetime(2026, 1, 1)})")
    [m] = haystack_messages(json.dumps({"messages": [hostile]})) or []
    assert (m.role, m.text) == ("user", "[TextContent part]")
    markup = "ChatMessage(_role=<ChatRole.USER: 'user'>, _content=[TextContent(text='[b]x[/b] <ChatRole.X: \\'y\\'>')])"
    [m] = haystack_messages(json.dumps({"messages": [markup]})) or []
    assert m.text == "[b]x[/b] <ChatRole.X: 'y'>"
    llama = "ChatMessage(role=<MessageRole.USER: 'user'>, additional_kwargs={}, blocks=[TextBlock(text='hi')])"
    assert haystack_messages(json.dumps({"messages": [llama]})) is None


def test_a_dspy_modules_goal_is_its_request_not_the_adapters_prompt():
    """DSPy's ReAct over OpenInference: the root `ReAct.forward` CHAIN span's input is JSON
    (`{"input_args": {"request": ...}}`), so the goal was the first model call's prompt, wrapped in the adapter's
    `[[ ## request ## ]]` fields and its instructions to the model."""
    data = framework_drill("dspy-openinference.jsonl")
    assert data["briefing"]["goal"] == "Customer says order 4417 was charged twice. Refund the duplicate charge, once."


def _genai_with_content_parts(path: Path) -> Path:
    """The opentelemetry-instrumentation-openai-v2 tool loop with every GenAI message's `parts` named `content`."""
    lines = []
    for line in (FRAMEWORKS / "openai-tool-loop-genai.jsonl").read_text(encoding="utf-8").splitlines():
        doc = json.loads(line)
        for span in (s for r in doc["resourceSpans"] for ss in r["scopeSpans"] for s in ss["spans"]):
            for a in span.get("attributes", []):
                if a["key"] in ("gen_ai.input.messages", "gen_ai.output.messages"):
                    messages = json.loads(a["value"]["stringValue"])
                    a["value"]["stringValue"] = json.dumps([{"role": m["role"], "content": m["parts"]} | (
                        {"finish_reason": m["finish_reason"]} if "finish_reason" in m else {}) for m in messages])
        lines.append(json.dumps(doc))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_genai_messages_whose_content_is_the_list_of_parts_read_as_their_parts(tmp_path: Path):
    """GenAI messages written `{"role", "content": [parts]}` (the parts under `content`): the goal was "(the trace
    records no user request ...)", every model output "(the model's output is not in the trace)" and the drill had
    no tool call ("with tools: none")."""
    [(parts, _)] = converter(otel)(FRAMEWORKS / "openai-tool-loop-genai.jsonl")
    [(content, _)] = converter(otel)(_genai_with_content_parts(tmp_path / "content.jsonl"))
    assert content["briefing"] == parts["briefing"]
    assert content["trace"] == parts["trace"]
    assert len(_calls(content)) == 5


def test_a_tool_call_with_empty_arguments_has_none(tmp_path: Path):
    """OpenAI's `"arguments": ""` (a call of a tool without parameters): `import chat` gave the call an argument
    `arguments: ''` the model never gave; whitespace did so in every span and export importer."""
    path = tmp_path / "empty.json"
    path.write_text(json.dumps([
        {"role": "user", "content": "Close ticket 4417."},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "list_open", "arguments": ""}},
            {"id": "c2", "type": "function", "function": {"name": "list_closed", "arguments": " \n"}},
            {"id": "c3", "type": "function", "function": {"name": "list_all", "arguments": None}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "[4417]"},
        {"role": "tool", "tool_call_id": "c2", "content": "[]"},
        {"role": "tool", "tool_call_id": "c3", "content": "[4417]"}]), encoding="utf-8")
    [(data, _)] = converter(chat)(path)
    assert [(c[1], c[2]) for c in _calls(data)] == [("list_open", {}), ("list_closed", {}), ("list_all", {})]
    assert as_arguments(" \n") == {} and tool_arguments("\t") == {}
    assert as_arguments("x") == {"arguments": "x"} and tool_arguments("x") == {"input": "x"}


def test_a_file_of_two_instrumentations_traces_says_which_trace_it_left_out_and_who_reads_it(tmp_path: Path):
    """An OpenInference trace and an OpenTelemetry GenAI trace exported into one file: each importer made a drill
    of its own and reported "1 drill imported ..., 0 failed", the other trace named in `source` only, as one
    "none of whose spans is an agent, model call or tool call" (they are, in the other convention)."""
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text("".join((FRAMEWORKS / n).read_text(encoding="utf-8") for n in (
        "langgraph-openinference.jsonl", "openai-v2-content.jsonl")), encoding="utf-8")
    for module, other in ((openinference, "otel"), (otel, "openinference")):
        report = import_files(module.IMPORTER, [mixed], tmp_path / module.IMPORTER.name)
        [result] = report.results
        [warning] = result.warnings
        assert result.ok and f"its spans follow another convention ({other}); `warroom import {other} --trace-id " \
            in warning.message
        source = result.output.read_text(encoding="utf-8") if result.output else ""
        assert f"({other})." in " ".join(source.split()) and "none of their spans" not in source


def test_a_trace_in_utf32_or_in_utf16_without_a_byte_order_mark_is_named_with_its_encoding(tmp_path: Path):
    """UTF-32's little-endian mark starts with UTF-16's: a UTF-32 file was called UTF-16 text, with an `iconv -f
    UTF-16` that makes no JSON of it; UTF-16 without a mark was "not JSON: Expecting property name" after a warning
    of a NUL byte at its end, and UTF-32BE "not JSON: Expecting value"."""
    text = json.dumps([{"role": "user", "content": "Refund order 42."}])
    for codec, named in (("utf-32", "UTF-32 text (its byte-order mark)"), ("utf-16-le", "UTF-16LE text"),
                         ("utf-32-be", "UTF-32BE text"), ("utf-16", "UTF-16 text (its byte-order mark)")):
        path = tmp_path / f"{codec}.json"
        path.write_bytes(text.encode(codec))
        [result] = import_files(chat.IMPORTER, [path], tmp_path / "out").results
        wide = named.split()[0]
        assert result.error == (f"{named}, not UTF-8: convert it first (`iconv -f {wide} -t UTF-8 FILE > OUT.json`) "
                                "and import that")
        assert result.warnings == ()


def test_a_model_clients_instrumentor_beside_the_frameworks_makes_no_drill_of_each_call():
    """LangChain's `create_agent` with OpenInference's LangChain and OpenAI instrumentors both on (recorded): the
    OpenAI instrumentor's span of each model call is a trace of its own, so the import made six drills of one run,
    five of them a single model call whose tool calls said their results were not recorded."""
    drills = converter(openinference)(FRAMEWORKS / "langchain-openai-openinference.jsonl")
    [(data, _)] = drills
    alone = framework_drill("langchain-create-agent-openinference.jsonl")
    assert sorted(c[1:] for c in _calls(data)) == sorted(c[1:] for c in _calls(alone))
    assert [a["name"] for a in data["agents"]] == [a["name"] for a in alone["agents"]]
    assert "Traces of the file not imported, each one model call that a model span of another trace already " \
        "records" in data["source"]
    assert data["source"].count(", ") >= 4  # the five traces named


def test_an_anthropic_tool_result_sent_as_an_error_is_an_error_result():
    """The Anthropic client traced by openinference-instrumentation-anthropic (recorded): the 503 was sent back to the
    model as a `tool_result` with `is_error: true`, which the flattened input messages drop; the drill's result was
    `status: ok`, so the loud failure looked like a success beside the silent one."""
    [(data, _)] = converter(openinference)(FRAMEWORKS / "anthropic-tool-loop-openinference.jsonl")
    assert [(c[0], c[1], c[4]) for c in _calls(data)] == [
        ("toolu_handoff_1", "transfer_to_executor", "ok"), ("toolu_lc", "list_charges", "ok"),
        ("toolu_go", "get_order", "ok"), ("toolu_crm", "crm_lookup", "error"), ("toolu_close", "close_ticket", "ok")]
    assert _calls(data)[3][3] == "503 Service Unavailable: crm is down for maintenance"
    assert json.loads(_calls(data)[1][3]) == {"status": "ok", "duplicates": []}


def test_annotate_names_a_drill_in_utf16_without_its_mark_as_validate_does(tmp_path: Path):
    """A drill saved as UTF-16 without a byte-order mark: `warroom validate` named it (with the iconv that converts
    it); `warroom annotate` said it holds a NUL control character YAML does not allow, "if this is a binary file, it
    is not a drill"."""
    from warroom.core.author import AnnotateError, open_for_annotation
    from warroom.core.load import DrillLoadError, load_drill

    path = tmp_path / "d.yaml"
    path.write_bytes((FIXTURES.parent.parent / "drills" / "tutorial.yaml").read_text(encoding="utf-8")
                     .encode("utf-16-le"))
    with pytest.raises(AnnotateError) as annotated:
        open_for_annotation(path)
    with pytest.raises(DrillLoadError) as validated:
        load_drill(path)
    assert annotated.value.problems == [str(p) for p in validated.value.problems]
    assert "UTF-16LE text, not UTF-8" in annotated.value.problems[0]


def test_two_files_whose_drill_ids_differ_only_in_case_are_not_both_written(tmp_path: Path):
    """`Run.json` and `run.json` imported into one folder: `chat-Run.yaml` and `chat-run.yaml` were both written,
    one file where names ignore case (macOS, Windows), so the second was refused as a file that "already exists",
    or with --force overwrote the first, a drill lost."""
    for name in ("Run.json", "run.json"):
        (tmp_path / name).write_text(json.dumps([{"role": "user", "content": "Hi."},
                                                 {"role": "assistant", "content": "Hello."}]), encoding="utf-8")
    report = import_files(chat.IMPORTER, [tmp_path / "Run.json", tmp_path / "run.json"], tmp_path / "out")
    first, second = report.results
    assert first.ok and first.drill_id == "chat-Run"
    assert second.error == (f"drill id 'chat-run' differs only in case from 'chat-Run', imported from "
                            f"{tmp_path / 'Run.json'} in this run (file names that differ only in case are one file on "
                            "macOS and Windows): rename one of them, or import it into another --out folder")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["chat-Run.yaml"]
