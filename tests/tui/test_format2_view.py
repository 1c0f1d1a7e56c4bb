"""Format 2 in the war room: the agent column, results paired with their calls, ``×N`` repetitions, a retry, and
the inspector's results (or "no result"), call metadata, shown-vs-full output and a command's stdout/stderr."""

from __future__ import annotations

from warroom.core.author._examples import example_path
from warroom.core.library import bundled_drills_dir
from warroom.core.load import load_drill
from warroom.tui.logic import TraceIndex, shows_agents
from warroom.tui.render import describe_event, row_mark, summarize
from warroom.tui.room import WarRoomScreen
from warroom.tui.screens import DebriefScreen
from warroom.tui.widgets import TraceTable

from .conftest import advance, escalate, make_app, screen_text

FANOUT = example_path("full")


def test_the_inspector_shows_every_result_or_none_and_the_call_metadata():
    drill = load_drill(FANOUT)
    call = describe_event(drill.event("e03"), TraceIndex(drill)).plain
    assert "agent     scout · sub-agent" in call
    assert "result    e06 (t=" in call and "batch     b1 with e04" in call
    retry = describe_event(drill.event("e10"), TraceIndex(drill)).plain
    assert "result    no result in the trace" in retry
    assert "retry     attempts 2 to 11, retries e08" in retry and "repeats   ×10, every 1 s" in retry
    assert "00:13 00:14 00:15 00:16 00:17 00:18 00:19 00:20 00:21 00:22\n" in retry
    so_far = describe_event(drill.event("e10"), TraceIndex(drill), repeated=3).plain
    assert "3 so far: 00:13 00:14 00:15\n" in so_far
    report = describe_event(drill.event("e07"), TraceIndex(drill)).plain
    assert "finish stop · max_tokens 256" in report
    assert "executor small at $1 / $5 per Mtok = $0.0011" in report
    shown = describe_event(drill.event("e06"), TraceIndex(drill)).plain
    assert "size      48,000 bytes" in shown
    assert shown.index("shown to the model (cut short)") < shown.index("output (raw, in full)")
    assert "next_cursor: c2" in shown
    command = describe_event(drill.event("e09"), TraceIndex(drill)).plain
    assert "exit code 1" in command and "stdout\n(empty)" in command and "stderr\nKeyError: invoice_id" in command


def test_the_sub_agent_call_is_priced_at_its_own_model():
    drill = load_drill(FANOUT)
    text = describe_event(drill.event("e03"), TraceIndex(drill)).plain
    assert "sub-agent mini at $0.50 / $2 per Mtok = $0.0007" in text


def test_table_marks_pair_results_with_calls_and_count_repetitions():
    drill = load_drill(FANOUT)
    assert row_mark(drill.event("e05"), None) == "↳e04 "
    assert row_mark(drill.event("e10"), {"e10": 58}) == "×58 ↻e08 "
    assert row_mark(drill.event("e10"), None).startswith("×10")
    assert row_mark(drill.event("e03"), None) == row_mark(drill.event("e04"), None) == "⇉b1 "
    assert summarize(drill.event("e02")) == "lead → scout: Fetch March."
    assert summarize(drill.event("e13")) == "TIMED OUT (e12): "
    assert summarize(drill.event("e09")) == "exit 1 · stderr: KeyError: invoice_id"


async def test_a_format2_drill_plays_to_containment_with_agents_and_repetitions_shown(services):
    app = make_app(services, FANOUT)
    async with app.run_test(size=(100, 24)) as pilot:  # wide enough for the agent column (see the test below)
        await pilot.press("enter")
        live = app.screen
        assert isinstance(live, WarRoomScreen)
        await advance(pilot, 16)
        timeline = live.query_one(TraceTable)
        text = screen_text(app)
        assert "agent" in text and "scout" in text and "worker" in text
        assert "×4 ↻e11 sh(" in text  # e10 (shown as e13: s0's three events come first) at 13, 14, 15, 16 s
        assert "↳e06 {" in text
        assert [k for k in timeline.keys].count("e13") == 1
        timeline.move_cursor(timeline.row_index("e13"))
        await pilot.pause()
        assert "4 so far: 00:13 00:14 00:15 00:16" in screen_text(app)
        assert "no approval" not in text
        await advance(pilot, 25)  # e14 at 41 s: s3's payment went ahead after the approval timed out
        assert "s3 ⚠ no approval" in screen_text(app)
        await escalate(pilot, "s1", "one page of two")
        assert live.replay.contained and live.replay.contained_late
        await advance(pilot, 5)
        assert isinstance(app.screen, DebriefScreen)


def test_the_agent_column_is_for_drills_with_more_than_a_planner_and_an_executor():
    bundled = bundled_drills_dir()
    # Only a planner and an executor: every event's agent follows from its kind; no column to narrow the summary.
    assert not shows_agents(load_drill(bundled / "duplicate-charge-refunds.yaml"))
    assert shows_agents(load_drill(example_path("full")))  # sub-agent, human, tool host
    assert shows_agents(load_drill(bundled / "dental-recall-calls.yaml"))  # a voice sub-agent
    v1 = load_drill(bundled / "duplicate-charge-refunds.yaml").model_copy(update={"agents": []})
    assert not shows_agents(v1)


def test_a_call_with_one_result_out_says_nothing_of_results_still_to_come():
    full = load_drill(FANOUT)
    first = next(e for e in full.trace if getattr(e, "call", None))
    call = full.event(first.call)
    # a second answer to the same call, last in the trace (a streamed or repeated answer)
    second = first.model_copy(update={"id": "e99", "t": full.trace[-1].t + 5})
    drill = full.model_copy(update={"trace": [*full.trace, second]})
    released = {e.id: e for e in drill.trace if e.t <= first.t}
    shown = describe_event(call, TraceIndex(drill), released).plain
    assert f"result    {first.id} (t=" in shown
    assert "e99" not in shown and "not returned yet" not in shown
    everything = describe_event(call, TraceIndex(drill), {e.id: e for e in drill.trace}).plain
    assert f"result    {first.id} (t=" in everything and "result    e99 (t=" in everything


async def test_the_batch_of_parallel_calls_stays_in_sight_at_80_columns(services):
    """dataroom-change-of-control's batch b1 (e05-e08 at 16 s): each call's row shows ``⇉b1`` at 80x24, where the
    trace table leaves the summary about 14 cells."""
    app = make_app(services, bundled_drills_dir() / "dataroom-change-of-control.yaml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 17)
        timeline = app.screen.query_one(TraceTable)
        assert [k for k in timeline.keys if k in ("e05", "e06", "e07", "e08")] == ["e05", "e06", "e07", "e08"]
        timeline.move_cursor(timeline.row_index("e05"))
        await pilot.pause()
        text = screen_text(app).splitlines()
        rows = [line for line in text if "││" in line and "00:16" in line and "tool call" in line]
        assert len(rows) == 4 and all("⇉b1 clause" in row for row in rows), rows
