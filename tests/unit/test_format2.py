"""Format 2 (docs/authoring.md, "Format version 2"): agents and models, calls and results, repetition, retries,
approvals, command results; their validation (path:line:col), cost and replay."""

from __future__ import annotations

import pytest
from core_support import drill_dict

from warroom.core.author._examples import example_path
from warroom.core.load import DrillLoadError, load_drill, load_drill_text
from warroom.core.model import Drill
from warroom.core.play import Replay, index_calls, missing_approvals, trace_cost

FANOUT = example_path("full")
TEXT = FANOUT.read_text()


def problems(text: str) -> list[str]:
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text, "d.yaml")
    return [str(p) for p in info.value.problems]


def line_of(fragment: str, text: str = TEXT) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


def test_the_format2_drill_loads_with_its_agents_models_and_new_events():
    drill = load_drill(FANOUT)
    assert drill.schema_version == 2
    assert [(a.name, a.role.value, a.model) for a in drill.agents] == [
        ("lead", "planner", None), ("worker", "executor", None), ("scout", "sub-agent", "mini"),
        ("dana", "human", None), ("shell", "tool-host", None)]
    kinds = [e.kind for e in drill.trace]
    assert {"handoff", "command_result", "approval", "human_message"} <= set(kinds)
    assert drill.models.named("mini").input_usd_per_mtok == 0.5
    assert drill.step("s3").requires_approval


def test_cost_splits_by_role_model_agent_and_step_and_counts_every_repetition():
    tc = trace_cost(load_drill(FANOUT))
    assert tc.total.calls == 16  # e10 is repeated 10 times: 10 calls
    assert round(tc.total.usd, 10) == 0.04105
    assert {r.name: (r.calls, round(r.usd, 10)) for r in tc.by_role} == {
        "planner": (1, 0.0225), "executor": (14, 0.01785), "sub-agent": (1, 0.0007)}
    assert {r.name: round(r.usd, 10) for r in tc.by_model} == {"big": 0.0225, "mini": 0.0007, "small": 0.01785}
    assert {r.name: r.calls for r in tc.by_agent} == {"lead": 1, "scout": 1, "worker": 14}
    assert {r.name: r.calls for r in tc.by_step}["s2"] == 12
    assert tc.to_dict()["by_agent"][1] == {
        "name": "scout", "calls": 1, "input_tokens": 1000, "output_tokens": 100, "usd": 0.0007, "tokens": 1100}


def test_a_batch_usage_is_counted_once():
    tc = trace_cost(load_drill(FANOUT))
    s1 = next(r for r in tc.by_step if r.name == "s1")
    assert (s1.calls, s1.input_tokens) == (2, 1800)  # e03 (the batch's usage, once) + e07; e04 adds nothing


def test_a_v1_drill_costs_as_before_with_role_names_as_agents():
    tc = trace_cost(Drill.model_validate(drill_dict()))
    assert [r.name for r in tc.by_agent] == [r.name for r in tc.by_role if r.calls]


def test_replay_charges_every_repetition_and_lists_the_event_once():
    replay = Replay(load_drill(FANOUT))
    replay.advance_to(13)
    assert replay.repetitions == {"e10": 1}
    assert [e.id for e in replay.released].count("e10") == 1
    replay.advance_to(22)
    assert replay.repetitions == {"e10": 10}
    assert [e.id for e in replay.released].count("e10") == 1
    assert replay.cost.tokens_by_agent["worker"] == 800 + 60 + 11 * 980
    assert round(replay.cost.usd_by_agent["scout"], 10) == 0.0007
    assert round(replay.cost.usd_by_role[Replay.__init__.__globals__["Role"].SUB_AGENT], 10) == 0.0007


def test_replay_stops_repetitions_at_containment():
    replay = Replay(load_drill(FANOUT))
    replay.advance_to(15)  # e10 at 13, 14, 15
    result = replay.escalate("s1")
    assert result.contained
    replay.run_to_end()
    assert replay.repetitions["e10"] == 3
    assert replay.cost.calls == 1 + 1 + 1 + 1 + 3 + 1  # e01 e03 e07 e08, e10 x3, re-plan r1


def test_damage_and_full_damage_count_every_repetition():
    data = drill_dict()
    data["schema_version"] = 2
    key = data["answer_key"]
    entry = key["damage"]["entries"][0]
    damaged = next(e for e in data["trace"] if e["id"] == entry["event"])
    damaged["repeat"] = {"count": 4, "interval": 0.5}
    drill = Drill.model_validate(data)
    replay = Replay(drill)
    per = entry["amount"]
    assert replay.full_damage == sum(e["amount"] for e in key["damage"]["entries"]) + 3 * per
    replay.advance_to(damaged["t"] + 1)
    assert replay.damage == 3 * per
    assert replay.damage_timeline[-1] == (damaged["t"] + 1, 3 * per)
    replay.run_to_end()
    assert replay.damage == replay.full_damage


def test_calls_and_results_pair_in_any_order_and_a_call_may_have_none():
    drill = load_drill(FANOUT)
    index = index_calls(drill.trace)
    assert [r.id for r in index.results_of("e03")] == ["e06"]
    assert [r.id for r in index.results_of("e04")] == ["e05"]  # answered first, though called second
    assert index.batches == {"b1": ["e03", "e04"]}
    assert index.attempt("e08") == 1 and index.attempt("e10") == 2
    (command,) = index.results_of("e08")
    assert (command.exit_code, command.stdout, command.stderr) == (1, "", "KeyError: invoice_id")


def test_a_step_that_requires_approval_shows_the_call_that_went_ahead_without_one():
    drill = load_drill(FANOUT)
    assert missing_approvals(drill.plan, drill.trace) == {"s3": "e14"}
    replay = Replay(drill)
    replay.advance_to(40)
    assert replay.approvals.missing == {}
    replay.advance_to(41)
    assert replay.approvals.missing == {"s3": "e14"}
    granted = TEXT.replace("decision: timed_out", "decision: granted")
    assert missing_approvals(drill.plan, load_drill_text(granted).trace) == {}


def test_call_metadata_and_result_sizes_load():
    drill = load_drill(FANOUT)
    report = drill.event("e07")
    assert (report.max_tokens, report.finish_reason, report.truncated) == (256, "stop", False)
    result = drill.event("e06")
    assert result.size_bytes == 48000
    assert result.shown == {"invoices": 40, "returned": 20}
    assert result.output["next_cursor"] == "c2"


@pytest.mark.parametrize(
    ("old", "new", "anchor", "message"),
    [
        ("  - id: e07\n    t: 8\n    step: s1\n    agent: worker",
         "  - id: e07\n    t: 8\n    step: s1\n    agent: wroker",
         "agent: wroker", "agent `wroker` is not an agent (did you mean `worker`?)"),
        ("model: mini, description", "model: mnii, description", "model: mnii",
         "agent `scout`'s model `mnii` is not a model in `models` (did you mean `mini`?)"),
        ("to_agent: scout", "to_agent: scuot", "to_agent: scuot", "to_agent `scuot` is not an agent"),
        ("call: e08, exit_code", "call: e80, exit_code", "call: e80",
         "command_result `e09` answers `e80`, but there is no tool_call `e80` before it"),
        ("batch: b1}", "batch: b1, usage: {input_tokens: 1, output_tokens: 1}}", "erp.list_credits",
         "batch `b1` already has a usage"),
        ("retry_of: e08", "retry_of: e88", "retry_of: e88", "retries `e88`, but there is no tool_call `e88`"),
        ("request: e12", "request: e21", "request: e21", "answers `e21`, but there is no approval"),
        ("max_tokens: 256", "max_tokens: 50", "usage: {input_tokens: 800",
         "output_tokens (60) exceed the call's max_tokens"),
        ("kind: human_message, content", "kind: human_message, usage: {input_tokens: 1, output_tokens: 1}, content",
         "kind: human_message", "unknown key `usage`"),
        ("{name: dana, role: human}", "{name: worker, role: human}", "{name: worker, role: human}",
         "duplicate agent name `worker`"),
    ],
)
def test_format2_references_are_checked_with_positions(old, new, anchor, message):
    assert old in TEXT
    text = TEXT.replace(old, new, 1)
    found = problems(text)
    line = line_of(anchor, text)
    assert any(message in p for p in found), found
    assert any(p.startswith(f"d.yaml:{line}:") and message in p for p in found), found


def test_a_human_agent_cannot_make_a_model_call():
    text = TEXT.replace("agent: worker, kind: tool_call, tool: bank.pay",
                        "agent: dana, kind: tool_call, tool: bank.pay")
    (found,) = problems(text)
    assert f"d.yaml:{line_of('tool: bank.pay', text)}:" in found
    assert "its agent `dana` is a human, which makes no model calls" in found


def test_a_version1_file_using_a_format2_field_is_told_to_say_version_2():
    text = TEXT.replace("schema_version: 2", "schema_version: 1")
    found = problems(text)
    assert any(p.startswith(f"d.yaml:{line_of('agents:')}:1: `agents` is format 2: set `schema_version: 2`")
               for p in found), found
    assert any("the event kind `handoff` is format 2" in p for p in found)
    assert any("`repeat` is format 2" in p for p in found)


def test_format2_rules_wait_for_type_problems_and_say_so():
    text = TEXT.replace("difficulty: 3", "difficulty: hard")
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text, "d.yaml")
    assert any("format 2 references" in n for n in info.value.blocked)


def test_an_unknown_fault_in_a_repeat_is_a_type_problem():
    found = problems(TEXT.replace("repeat: {count: 10, interval: 1}", "repeat: {count: 1, interval: 1}"))
    assert any("count" in p and "2" in p for p in found), found


def test_a_deadline_by_reference_is_the_time_of_its_event_and_moves_with_it():
    text = TEXT.replace("deadline: 30", "deadline: {event: e11, after: 4}")
    drill = load_drill_text(text)
    assert drill.answer_key.deadline == 29  # e11 at 25 s, + 4 s
    retimed = text.replace("{id: e11, t: 25,", "{id: e11, t: 26,")
    assert load_drill_text(retimed).answer_key.deadline == 30
    assert Replay(drill).deadline == 29
    assert load_drill_text(TEXT.replace("deadline: 30", "deadline: {event: e12}")).answer_key.deadline == 27


def test_a_deadline_by_reference_to_an_unknown_event_is_reported_at_the_event():
    text = TEXT.replace("deadline: 30", "deadline: {event: e111}")
    (found,) = problems(text)
    assert found.startswith(f"d.yaml:{line_of('deadline: {event: e111}', text)}:")
    assert "the deadline's event `e111` is not a trace event (did you mean `e11`?)" in found


def test_the_deadline_rules_run_on_a_deadline_by_reference():
    text = TEXT.replace("deadline: 30", "deadline: {event: e02}")  # before the evidence (e06 at 6 s)
    (found,) = problems(text)
    assert "the deadline (t=2 s) comes before the earliest evidence (t=6 s)" in found
    with pytest.raises(DrillLoadError) as info:  # also when the file has a type problem elsewhere
        load_drill_text(text.replace("difficulty: 3", "difficulty: hard"), "d.yaml")
    assert any("the deadline (t=2 s) comes before" in str(p) for p in info.value.problems)


def test_a_deadline_by_reference_in_a_version1_file_is_format2():
    text = TEXT.replace("deadline: 30", "deadline: {event: e11}").replace("schema_version: 2", "schema_version: 1")
    assert any("a deadline by reference (`{event: ...}`) is format 2" in p for p in problems(text))


def test_repetitions_of_a_whole_drill_are_bounded():
    text = TEXT.replace("repeat: {count: 10, interval: 1}", "repeat: {count: 10000, interval: 0}")
    text = text.replace("  - {id: e11, t: 25,", "  - {id: e10b, t: 24, step: s2, kind: log, source: x, content: y, "
                        "repeat: {count: 10000}}\n  - {id: e10c, t: 24, step: s2, kind: log, source: x, "
                        "content: y, repeat: {count: 10000}}\n" * 2 + "  - {id: e11, t: 25,", 1)
    text = text.replace("e10c, t: 24", "e10d, t: 24", 1).replace("e10b, t: 24", "e10e, t: 24", 1)
    found = problems(text)
    assert any("repeat more than 20,000 times in all" in p for p in found), found


def test_a_false_escalation_is_charged_to_the_planner_agent():
    replay = Replay(load_drill(FANOUT))
    replay.advance_to(3)
    replay.escalate("s2")
    assert replay.cost.usd_by_agent["lead"] == 2 * 0.0225  # the plan, and the re-plan call
