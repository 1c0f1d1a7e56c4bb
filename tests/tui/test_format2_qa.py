"""Format 2 as a trainee sees it (QA of the bundled format-2 drills): the briefing names every model and agent, the
inspector shows an agent's description and never how many repetitions are still to come, and the cost meter's
shares add up to the cost when sub-agents make calls."""

from __future__ import annotations

import yaml
from core_support import make_drill
from rich.console import Console

from warroom.core.author._examples import example_path
from warroom.core.library import bundled_drills_dir
from warroom.core.load import load_drill, load_drill_text
from warroom.core.model import PLAN, SETUP, Drill, Role
from warroom.core.text import usd
from warroom.tui.logic import TraceIndex, agent_labels, event_agent
from warroom.tui.render import describe_event
from warroom.tui.room import EscalateScreen
from warroom.tui.screens import briefing_text
from warroom.tui.widgets import Meters, TraceTable

from .conftest import advance, make_app, screen_text

DENTAL = bundled_drills_dir() / "dental-recall-calls.yaml"  # a voice sub-agent (dialer) on a model of `others`


def _plain(renderable: object) -> str:
    console = Console(width=140, record=True, file=None, color_system=None)
    with console.capture() as capture:
        console.print(renderable)
    return capture.get()


def test_the_briefing_lists_every_model_with_its_price_and_every_agent():
    text = _plain(briefing_text(load_drill(DENTAL)))
    lines = [line.strip() for line in text.splitlines()]
    assert "planner   claude-sonnet-4.5  $3 / $15" in lines
    assert "executor  claude-haiku-4.5  $1 / $5" in lines
    assert "other     gpt-4o-mini  $0.15 / $0.60" in lines  # the dialer's model was missing from the briefing
    dialer = next(line for line in lines if line.startswith("dialer "))
    assert dialer.startswith("dialer  sub-agent on gpt-4o-mini  Voice sub-agent: creates and runs outbound"), dialer
    assert any(line.startswith("lead  planner on claude-sonnet-4.5  Writes the plan") for line in lines)


def test_a_drill_without_agents_lists_no_agents_heading():
    text = _plain(briefing_text(make_drill()))  # format 1: no agents, no other models
    lines = [line.strip() for line in text.splitlines()]
    assert "Agents" not in lines and not any(line.startswith("other ") for line in lines)


def test_the_inspector_shows_the_agents_description_under_its_name():
    drill = load_drill(DENTAL)
    text = describe_event(drill.event("e11"), TraceIndex(drill)).plain
    assert "agent     dialer · sub-agent\n          Voice sub-agent: creates and runs outbound campaigns" in text


def test_while_playing_the_inspector_never_tells_how_many_repetitions_are_to_come():
    drill = load_drill(example_path("full"))  # e10 repeats 10 times, every 1 s
    playing = describe_event(drill.event("e10"), TraceIndex(drill), repeated=3).plain
    assert "repeats   every 1 s\n" in playing and "×10" not in playing
    assert "3 so far: 00:13 00:14 00:15\n" in playing
    debrief = describe_event(drill.event("e10"), TraceIndex(drill)).plain  # not playing (the debrief): the whole of it
    assert "repeats   ×10, every 1 s" in debrief


async def test_the_war_rooms_inspector_of_a_repeated_log_shows_no_total(services):
    app = make_app(services, DENTAL)
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 90, step=2)  # e16 (x4, every 22 s from 63 s; e15 in the file) has repeated twice
        table = app.live.query_one(TraceTable)
        table.move_cursor(table.row_index("e16"))  # shown by position: the lead's handoff e30 is shown as e02
        await pilot.pause()
        shown = screen_text(app)
        assert "2 so far: 01:03 01:25" in shown
        assert "×4" not in shown and "every 22 s" in shown


async def test_the_cost_meter_shows_the_sub_agents_share_so_the_shares_add_up(services):
    app = make_app(services, DENTAL)
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 45, step=1)  # the dialer's campaign call (e11 at 31 s) is out
        cost = app.live.replay.cost
        sub = cost.usd_by_role[Role.SUB_AGENT]
        assert sub > 0
        line = str(app.live.query_one(Meters).render())
        assert f" sub {usd(sub)}" in line
        shares = cost.usd_by_role[Role.PLANNER] + cost.usd_by_role[Role.EXECUTOR] + sub
        assert abs(shares - cost.usd) < 1e-12


async def test_the_cost_meter_of_a_drill_without_sub_agents_has_no_sub_share(services):
    app = make_app(services)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 20, step=2)
        assert " sub " not in str(app.live.query_one(Meters).render())


def test_agent_names_that_would_look_the_same_in_the_column_are_cut_in_the_middle():
    drill = make_drill(schema_version=2, agents=[
        {"name": "lead", "role": "planner"}, {"name": "coordinator", "role": "executor"},
        {"name": "researcher-1", "role": "sub-agent"}, {"name": "researcher-2", "role": "sub-agent"},
    ])
    labels = agent_labels(drill, 7)
    assert labels == {"lead": "lead", "coordinator": "coordi…", "researcher-1": "res…r-1", "researcher-2": "res…r-2"}


async def test_the_trace_tells_apart_sub_agents_whose_names_start_alike(services, tmp_path):
    data = yaml.safe_load(DENTAL.read_text(encoding="utf-8"))
    for agent in data["agents"]:
        if agent["name"] == "dialer":
            agent["name"] = "dialer-campaigns-2"
    data["agents"].append({"name": "dialer-campaigns-1", "role": "sub-agent", "model": "gpt-4o-mini"})
    for event in [*data["trace"], *data["answer_key"]["replan"]]:
        for key in ("agent", "from_agent", "to_agent"):
            if event.get(key) == "dialer":
                event[key] = "dialer-campaigns-2"
    path = tmp_path / "dental-recall-calls.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    app = make_app(services, path)
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 33, step=1)  # the dialer's campaign call e11 at 31 s
        row = next(line for line in screen_text(app).splitlines() if "voice.campaigns.create" in line)
        assert "dia…s-2" in row, row


RENEWALS = bundled_drills_dir() / "renewal-discount-quotes.yaml"  # tool calls and reports name no agent


def test_an_event_naming_no_agent_is_shown_as_its_kinds_agent_in_the_inspector():
    drill = load_drill(RENEWALS)
    call = describe_event(drill.event("e02"), TraceIndex(drill)).plain  # crm.search_opportunities, no `agent:`
    assert "agent     executor · executor (by the event's kind)\n" in call
    result = describe_event(drill.event("e03"), TraceIndex(drill)).plain  # a tool result has no role: no agent line
    assert "agent " not in result


async def test_the_agent_column_names_the_executor_for_its_calls_without_an_agent(services):
    app = make_app(services, RENEWALS)
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 12, step=1)
        rows = screen_text(app).splitlines()
        call = next(line for line in rows if "crm.search_opportunities" in line)
        assert "e02  00:04  s1    execut…  tool call" in call, call  # was "—": the call is the executor's (by its kind)
        result = next(line for line in rows if "↳e02" in line)
        assert "s1    —        result" in result, result  # a result is no agent's model call


def test_the_inspector_of_a_call_that_went_ahead_without_its_approval_says_so():
    drill = load_drill(RENEWALS)  # s3 requires approval; e08 requested, e10 timed out, e12 finalises anyway
    call = describe_event(drill.event("e12"), TraceIndex(drill)).plain
    assert "approval  none granted in s3 before this call (s3 requires one)\n" in call
    assert "none granted" not in describe_event(drill.event("e02"), TraceIndex(drill)).plain  # s1 requires none


def test_a_call_after_a_granted_approval_is_not_marked():
    data = yaml.safe_load(RENEWALS.read_text(encoding="utf-8"))
    for event in data["trace"]:
        if event["id"] == "e10":
            event["decision"] = "granted"
    drill = load_drill_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    assert "none granted" not in describe_event(drill.event("e12"), TraceIndex(drill)).plain


def _batch_drill(calls: int, late_call_t: float | None = None) -> Drill:
    """A format-2 drill whose step s1 makes ``calls`` tool calls in the batch b1 at 2 s (one more at
    ``late_call_t``, if given), answered at 4 s in reverse order."""
    trace: list[dict[str, object]] = [
        {"id": "e001", "t": 0, "kind": "planner_call", "content": "Plan: s1 copy the shards.",
         "usage": {"input_tokens": 2000, "output_tokens": 300}},
    ]
    times = [2.0] * calls + ([late_call_t] if late_call_t is not None else [])
    for k, t in enumerate(times):
        call: dict[str, object] = {"id": f"c{k:04d}", "t": t, "step": "s1", "kind": "tool_call", "tool": "copy",
                                   "arguments": {"shard": k}, "batch": "b1"}
        if k == 0:
            call["usage"] = {"input_tokens": 900, "output_tokens": 400}
        trace.append(call)
    last = max(times) + 2
    trace += [{"id": f"r{k:04d}", "t": last, "step": "s1", "kind": "tool_result", "call": f"c{k:04d}",
               "output": {"copied": k != 3}} for k in reversed(range(len(times)))]
    trace.append({"id": "e002", "t": last + 30, "step": "s2", "kind": "log", "source": "ops",
                  "content": "old cluster dropped"})
    data = {
        "schema_version": 2, "id": "batch", "title": "Batch", "difficulty": 2, "author": "qa",
        "briefing": {"goal": "Copy every shard.", "watching": "A copy job."},
        "models": {"planner": {"name": "big", "input_usd_per_mtok": 3, "output_usd_per_mtok": 15},
                   "executor": {"name": "small", "input_usd_per_mtok": 1, "output_usd_per_mtok": 5}},
        "plan": [{"id": "s1", "title": "Copy", "objective": "Every shard copied."},
                 {"id": "s2", "title": "Drop", "objective": "The old cluster dropped."}],
        "trace": trace,
        "answer_key": {"fault": {"origin_step": "s1", "kind": "partial_write", "summary": "Shard 3 was not copied."},
                       "evidence": ["r0003"], "cascade": ["s2"],
                       "damage": {"unit": "rows", "entries": [{"event": "e002", "amount": 10}]},
                       "deadline": last + 20, "debrief": "r0003 says copied false."},
    }
    return load_drill_text(yaml.safe_dump(data, sort_keys=False))


def test_the_inspector_names_at_most_12_other_calls_of_a_batch():
    drill = _batch_drill(2000)  # the one model turn of 2,000 calls listed them all: a 16,000-character line
    text = describe_event(drill.event("c0000"), TraceIndex(drill)).plain
    line = next(line for line in text.splitlines() if line.startswith("batch"))
    assert line == "batch     b1 with c0001, c0002, c0003, c0004, c0005, c0006, c0007, c0008, c0009, c0010, c0011, " \
                   "c0012 and 1,987 more"


def test_while_playing_the_batch_line_names_only_released_calls():
    drill = _batch_drill(4, late_call_t=9)  # c0004 of b1 comes at 9 s
    released = {ev.id: ev for ev in drill.trace if ev.t <= 2}
    text = describe_event(drill.event("c0000"), TraceIndex(drill), events=released).plain
    assert "batch     b1 with c0001, c0002, c0003\n" in text
    alone = describe_event(drill.event("c0000"), TraceIndex(drill), events={"c0000": drill.event("c0000")}).plain
    assert "batch     b1 with no other call yet\n" in alone
    debrief = describe_event(drill.event("c0000"), TraceIndex(drill)).plain  # not playing: the whole batch
    assert "batch     b1 with c0001, c0002, c0003, c0004\n" in debrief


def test_a_repeated_model_calls_usage_says_each_and_what_its_repetitions_cost():
    drill = load_drill(example_path("full"))  # e10: 900 in / 80 out at $1 / $5, 10 times
    playing = describe_event(drill.event("e10"), TraceIndex(drill), repeated=3).plain
    assert playing.rstrip().endswith("per Mtok = $0.0013 each · 3 so far: $0.0039")
    whole = describe_event(drill.event("e10"), TraceIndex(drill)).plain
    assert whole.rstrip().endswith("per Mtok = $0.0013 each · ×10: $0.013")


async def _dialog_opens_on(services, drill_id: str, seconds: float, event_id: str) -> str | None:
    """The choice the escalation dialog of ``drill_id`` opens on when the trainee moved the cursor to
    ``event_id`` after ``seconds`` of drill time."""
    app = make_app(services, bundled_drills_dir() / f"{drill_id}.yaml")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("enter")
        await advance(pilot, seconds, step=1)
        await pilot.press("space")  # paused: the cursor stays where the trainee puts it
        table = app.live.query_one(TraceTable)
        await pilot.press("home", *["j"] * table.row_index(event_id))  # the trainee's moves: no longer following
        assert table.selected_key == event_id and not table.following
        await pilot.press("e")
        dialog = app.screen
        assert isinstance(dialog, EscalateScreen)
        return None if dialog.preselect is None else dialog.choices[dialog.preselect][0]


async def test_the_escalation_dialog_opens_on_set_up_for_a_chosen_set_up_event(services):
    assert await _dialog_opens_on(services, "dependabot-merge-train", 30, "e02") == SETUP


async def test_the_escalation_dialog_opens_on_the_plan_for_a_chosen_planner_call(services):
    assert await _dialog_opens_on(services, "compacted-review-criteria", 80, "e12") == PLAN


async def test_an_event_outside_the_steps_after_they_started_preselects_nothing(services):
    assert await _dialog_opens_on(services, "compacted-review-criteria", 70, "e10") is None  # a log between steps


def test_repetitions_with_no_interval_read_all_at_once():
    data = yaml.safe_load(example_path("full").read_text(encoding="utf-8"))
    for event in data["trace"]:
        if event["id"] == "e10":
            event["repeat"] = {"count": 10, "interval": 0}
    drill = load_drill_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    index = TraceIndex(drill)
    assert "repeats   ×10, all at once\n" in describe_event(drill.event("e10"), index).plain  # was "every 0 s"
    assert "repeats   all at once\n" in describe_event(drill.event("e10"), index, repeated=4).plain


def test_an_event_naming_no_agent_is_shown_under_its_roles_name_as_the_cost_counts_it():
    data = yaml.safe_load(DENTAL.read_text(encoding="utf-8"))  # the executor agent is "coordinator"
    for event in data["trace"]:
        if event["id"] == "e02":
            del event["agent"]
    drill = load_drill_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    assert event_agent(drill.event("e02")) == "executor"  # not a guess at which executor agent it was
    assert "agent     executor (by the event's kind)\n" in describe_event(drill.event("e02"), TraceIndex(drill)).plain
    assert event_agent(drill.event("e05")) is None  # a tool result names no agent and has no role
