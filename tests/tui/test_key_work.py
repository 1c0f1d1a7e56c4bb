"""What a key press does not redo in the war room (issue 13, UI latency): the footer is rebuilt only when its keys
change, the plan panel and meters only when what they show changed, and trace-wide lookups come from an index
built once per drill."""

from __future__ import annotations

from typing import Any

from warroom.core.load import load_drill
from warroom.core.model import ToolResult
from warroom.core.play import Replay
from warroom.tui.logic import TraceIndex
from warroom.tui.render import describe_event
from warroom.tui.room import WarRoomScreen
from warroom.tui.widgets import KeyFooter, Meters, PlanPanel, TraceTable

from .conftest import STALE, advance, make_app, screen_text, war_room


async def test_the_footer_is_rebuilt_only_when_the_keys_it_shows_change(services):
    app = make_app(services)
    async with war_room(app, size=(100, 24), seconds=12) as (pilot, live):
        footer = live.query_one(KeyFooter)
        keys = list(footer.children)
        assert keys and "Pause" in screen_text(app).splitlines()[-1]
        await pilot.press("enter")  # inspect: the focus moves to the inspector, the footer's keys stay the same
        await pilot.pause()
        assert live.query_one("#inspector").has_focus
        assert list(footer.children) == keys  # the same widgets: not rebuilt
        await pilot.press("tab")  # back to the trace: still the same keys
        await pilot.pause()
        assert list(footer.children) == keys
        await pilot.press("space")  # pause: the footer now offers Resume, so it is rebuilt
        await pilot.pause()
        assert list(footer.children) != keys
        assert "Resume" in screen_text(app).splitlines()[-1]


async def test_the_plan_panel_and_meters_render_again_only_on_a_change(services):
    app = make_app(services)
    async with war_room(app, size=(100, 30), seconds=12) as (_pilot, live):
        plan, meters = live.query_one(PlanPanel), live.query_one(Meters)
        updates: list[str] = []
        for widget, name in ((plan, "plan"), (meters, "meters")):
            update = widget.update
            widget.update = lambda *a, update=update, name=name, **k: (updates.append(name), update(*a, **k))[1]
        replay = live.replay
        plan.show(live.drill, replay.step_states, "s2")  # the newest event is s1's: a change
        assert updates == ["plan"]
        plan.show(live.drill, replay.step_states, "s2")  # the same again: nothing rendered
        meters.show(replay.damage, replay.damage_unit, replay.cost)  # what the meters show already
        assert updates == ["plan"]
        meters.show(replay.damage + 5, "rows", replay.cost)  # damage accrued: rendered
        assert updates == ["plan", "meters"]
        shown = str(meters.render())  # the amount only: the unit is part of the answer key (hygiene)
        assert shown.startswith(" damage 5  cost ") and "rows" not in shown

def test_the_trace_index_answers_like_a_scan_of_its_own_drill():
    drill = load_drill(STALE)
    index = TraceIndex(drill)
    for ev in drill.trace:
        assert index.events[ev.id] is ev
        if isinstance(ev, ToolResult):
            first = next(e for e in drill.trace if isinstance(e, ToolResult) and e.call == ev.call)
            assert index.calls.results_of(ev.call)[0] is first
    other = drill.model_copy(update={"trace": drill.trace[:3]})
    assert len(TraceIndex(other).events) <= 3 + len(drill.answer_key.replan)
    assert all(index.events[e.id] is e for e in drill.trace)  # another drill's index changes nothing in this one


async def test_the_war_room_builds_its_trace_index_once_and_holds_it(services):
    app = make_app(services)
    async with war_room(app, size=(100, 30), seconds=20) as (pilot, live):
        index = live.index
        assert index.drill is live.drill
        await pilot.press("up", "up", "enter")
        await pilot.pause()
        assert live.index is index


def test_a_tool_results_call_is_found_without_the_events_shown():
    drill = load_drill(STALE)
    replay = Replay(drill)
    replay.advance_to(drill.duration)
    result = next(e for e in drill.trace if isinstance(e, ToolResult))
    call = drill.event(result.call)
    # the call is not among the events given: the index has it
    text = describe_event(result, TraceIndex(drill), {}).plain
    assert f"answers {result.call} ({call.tool})" in text


async def test_a_cursor_key_repaints_lines_of_the_trace_not_the_whole_table(services):
    """Away from the newest row, the "n new" hint under the trace is set again only when it changes (setting a
    border subtitle repaints the whole table)."""
    app = make_app(services)
    async with war_room(app, size=(100, 30), seconds=20) as (pilot, live):
        table = live.query_one(TraceTable)
        await pilot.press("up", "up")
        await advance(pilot, 60)  # events released while the trainee reads older ones
        assert table.unseen > 0 and table.border_subtitle == f"{table.unseen} new ↓ (G)"
        calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
        refresh = table.refresh
        table.refresh = lambda *regions, **kw: (calls.append((regions, kw)), refresh(*regions, **kw))[1]  # type: ignore[method-assign]
        row = table.cursor_row
        await pilot.press("up")
        await pilot.pause()
        assert table.cursor_row == row - 1
        assert calls and all(regions for regions, _ in calls)  # the two lines of the old and new cursor row
        assert table.border_subtitle == f"{table.unseen} new ↓ (G)"
        await pilot.press("end")  # back at the newest row: the hint goes
        await pilot.pause()
        assert table.unseen == 0 and not table.border_subtitle


async def test_a_focus_change_repaints_what_it_changes_and_no_more(services):
    """The war room's focus changes do not repaint the whole screen (DrillScreen.focused), so what the widgets hold
    after one must be what a full repaint draws: a widget whose look depends on the focus and kept its old lines
    would show here."""
    app = make_app(services)
    async with war_room(app, size=(100, 30), seconds=12) as (pilot, live):
        await pilot.press("up")
        await pilot.pause()

        async def drawn_then_repainted() -> tuple[str, str]:
            drawn = app.export_screenshot()
            for widget in live.walk_children(with_self=True):
                widget.refresh()
            await pilot.pause()
            return drawn, app.export_screenshot()

        table_focused = app.export_screenshot()
        await pilot.press("enter")  # inspect: the focus moves from the trace to the inspector
        await pilot.pause()
        assert live.query_one("#inspector").has_focus
        drawn, repainted = await drawn_then_repainted()
        assert drawn == repainted
        assert drawn != table_focused  # the borders and the trace's cursor row did change with the focus
        await pilot.press("tab")  # and back to the trace
        await pilot.pause()
        assert live.query_one(TraceTable).has_focus
        drawn, repainted = await drawn_then_repainted()
        assert drawn == repainted


async def test_the_played_drill_is_out_of_full_collections_until_the_war_room_closes(services):
    """gc.freeze while the war room is up (DrillScreen.on_mount), gc.unfreeze when it goes (the debrief)."""
    import gc

    from warroom.tui.screens import DebriefScreen

    from .conftest import escalate

    gc.unfreeze()  # whatever an earlier test in this process left
    app = make_app(services)
    async with app.run_test(size=(100, 30)) as pilot:
        assert gc.get_freeze_count() == 0  # the picker and briefing freeze nothing
        await pilot.press("enter")
        assert isinstance(app.screen, WarRoomScreen)
        assert gc.get_freeze_count() > 0
        await advance(pilot, 13)
        await escalate(pilot, "s1", "stale snapshot")
        await advance(pilot, 10)
        assert isinstance(app.screen, DebriefScreen)
        await pilot.pause()
        assert gc.get_freeze_count() == 0


async def test_whether_the_trace_follows_the_newest_event_is_said_in_text(services):
    """Follow mode was shown only by the cursor moving along (nothing in text said the cursor was held on a chosen
    event, which the escalation starts from); now the table's subtitle says "not following new events (G)" once the
    trainee chose an event and nothing new arrived yet, and nothing once `G` follows again, even with the cursor
    already on the newest row (no cursor move, so no highlight to refresh the hint on)."""
    app = make_app(services)
    async with war_room(app, size=(100, 30), seconds=20) as (pilot, live):
        table = live.query_one(TraceTable)
        await pilot.press("space")  # paused: no new event comes
        assert table.following and not table.border_subtitle
        await pilot.press("enter")  # inspect the newest row: the cursor stays there, not following
        await pilot.press("escape")
        await pilot.pause()
        assert not table.following and table.border_subtitle == "not following new events (G)"
        await pilot.press("G")  # already on the newest row: follows again all the same
        await pilot.pause()
        assert table.following and not table.border_subtitle
        await pilot.press("up")
        await pilot.pause()
        assert table.border_subtitle == "not following new events (G)"
