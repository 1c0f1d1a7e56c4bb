"""Playing drills in the war room by keys alone, on a mock clock."""

from __future__ import annotations

from warroom.core.model import ActionKind, Outcome, Role
from warroom.core.play import FALSE_ESCALATION_DELAY
from warroom.core.scoring import score
from warroom.store.results import ResultsStore
from warroom.tui.room import EscalateScreen, WarRoomScreen
from warroom.tui.screens import DebriefScreen
from warroom.tui.widgets import Inspector, Meters, PlanPanel, StatusBar, TraceTable

from .conftest import (
    STALE,
    advance,
    escalate,
    make_app,
    picker_ready,
    record_notifications,
    screen_text,
    type_text,
    without_twin,
)


async def test_play_to_containment_by_keys(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        assert "Press enter to start" in screen_text(app)
        await pilot.press("enter")
        live = app.screen
        assert isinstance(live, WarRoomScreen)
        await advance(pilot, 12)
        assert live.replay.now == 12
        timeline = live.query_one(TraceTable)
        assert timeline.selected_key == "e06" and timeline.following  # followed the newest event
        await pilot.press("e")
        modal = app.screen
        assert isinstance(modal, EscalateScreen)
        assert modal.step is None and modal.cites == ()  # following the newest event: nothing chosen for the trainee
        await pilot.press("escape")
        await pilot.press("enter")  # inspect it: the trainee reads e06, and the trace stops following
        assert live.replay.actions[-1].kind is ActionKind.INSPECT and live.replay.actions[-1].event == "e06"
        assert not timeline.following
        await pilot.press("e")
        modal = app.screen
        assert modal.step == "s1" and modal.cites == ("e06",)  # the event the trainee chose, and its step
        await pilot.press("escape")
        await escalate(pilot, "s1", "snapshot from last week")
        assert app.screen is live
        assert live.replay.contained
        await advance(pilot, 5)  # the re-plan event plays, then the debrief opens
        assert isinstance(app.screen, DebriefScreen)
        card = app.screen.scorecard
        expected = score(live.drill, live.replay.actions)
        assert card.outcome is Outcome.CONTAINED
        assert card.total == expected.total
        text = screen_text(app)
        assert "CONTAINED" in text and f"{card.total}/{card.max_total}" in text and card.max_total == 100
    with ResultsStore(services.data_dir) as store:
        rows = store.query(trainee="tester")
        assert [(r.drill_id, r.outcome, r.total) for r in rows] == [
            ("duplicate-charge-refunds", "contained", card.total)
        ]
        stored = store.get(rows[0].session_id)
        # practice: each dialog is a recorded pause (the one cancelled with escape too); the confirmed escalation
        # resumes the drill itself, with no second resume
        assert [a.kind for a in stored.actions] == [
            ActionKind.PAUSE, ActionKind.RESUME, ActionKind.INSPECT, ActionKind.PAUSE, ActionKind.RESUME,
            ActionKind.PAUSE, ActionKind.ESCALATE, ActionKind.RESUME,
        ]
        assert stored.actions[6].note == "snapshot from last week" and stored.actions[6].cites == ("e06",)
        assert stored.scorecard["response"] == "hit"
        assert {a.t for a in stored.actions} == {12}  # the drill clock stood still while the dialogs were open


async def test_false_escalation_is_answered_and_play_goes_on(services, tmp_path):
    app = make_app(services, without_twin(STALE, tmp_path))  # always a signal trial: the answer may name the evidence
    notifications = record_notifications(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        live = app.screen
        await advance(pilot, 5)
        planner_before = live.replay.cost.usd_by_role[Role.PLANNER]
        await escalate(pilot, "s3", "refunds")
        assert app.screen is live
        assert not live.replay.ended and live.replay.false_escalations == 1
        assert live.replay.now == 5 + FALSE_ESCALATION_DELAY  # the trace ran on while the planner re-planned
        assert live.replay.cost.usd_by_role[Role.PLANNER] > planner_before  # the re-plan call was charged
        timeline = live.query_one(TraceTable)
        assert any(k.startswith("note:") for k in timeline.keys)
        assert timeline.selected_key.startswith("note:")  # following: the planner's answer is shown in full
        text = screen_text(app)
        assert "before the evidence" in text and "re-plan" in text  # escalated at 5 s, before the evidence
        assert any("came before the evidence this drill counts" in m for m in notifications)
        assert not any("found nothing wrong" in m for m in notifications)
        await advance(pilot, 3)
        assert live.replay.now == 23 and not live.replay.ended  # play goes on


async def test_pause_stops_the_drill_clock(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        live = app.screen
        await advance(pilot, 3)
        await pilot.press("space")
        assert live.paused
        assert "PAUSED" in live.query_one(StatusBar).render().plain
        await advance(pilot, 30)
        assert live.replay.now == 3 and len(live.replay.released) == 1
        await pilot.press("space")
        assert "PAUSED" not in live.query_one(StatusBar).render().plain
        await advance(pilot, 2)
        assert live.replay.now == 5
        assert [a.kind for a in live.replay.actions] == [ActionKind.PAUSE, ActionKind.RESUME]


async def test_speed_keys_change_playback_and_are_recorded(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        live = app.screen
        await pilot.press("plus", "plus")
        assert live.speed == 4
        await advance(pilot, 2)
        assert live.replay.now == 8
        await pilot.press("minus")
        assert live.speed == 2
        assert [a.speed for a in live.replay.actions] == [2, 4, 2]
        assert "2x" in live.query_one(StatusBar).render().plain


async def test_dialogs_stop_the_drill_clock(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        live = app.screen
        await advance(pilot, 2)
        await pilot.press("question_mark")
        assert "War room keys" in screen_text(app)
        await advance(pilot, 10)
        assert live.replay.now == 2
        await pilot.press("escape")
        await advance(pilot, 1)
        assert live.replay.now == 3


async def test_quit_mid_drill_keeps_the_session_as_abandoned(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        live = app.screen
        await advance(pilot, 16)
        await pilot.press("up")  # away from the newest event (e07) to e06
        timeline = live.query_one(TraceTable)
        assert timeline.selected_key == "e06"
        await advance(pilot, 5)  # e08 is released; the cursor stays, a hint counts it
        assert timeline.selected_key == "e06" and timeline.unseen == 1
        assert "1 new" in screen_text(app)
        await pilot.press("f")
        await type_text(pilot, "cache")
        await pilot.press("enter")
        assert live.query_one(TraceTable).mark_of("e06") == "⚑"
        await pilot.press("q")
        assert "Quit this drill?" in screen_text(app)
        await pilot.press("y")
        await pilot.pause()
    assert app.return_code == 0
    with ResultsStore(services.data_dir) as store:
        rows = store.query(trainee="tester")
        assert len(rows) == 1 and rows[0].outcome == "abandoned"
        stored = store.get(rows[0].session_id)
        assert [(a.kind, a.event, a.note) for a in stored.actions] == [
            (ActionKind.PAUSE, None, None),
            (ActionKind.FLAG, "e06", "cache"),
            (ActionKind.RESUME, None, None),
            (ActionKind.PAUSE, None, None),
            (ActionKind.QUIT, None, None),
        ]
        assert stored.actions[-1].t == 21


async def test_quit_can_be_cancelled(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        live = app.screen
        await pilot.press("q", "n")
        assert app.screen is live and not live.replay.ended


async def test_closing_the_app_mid_drill_stores_an_abandoned_session(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 4)
        await pilot.press("ctrl+c")
        await pilot.pause()
    with ResultsStore(services.data_dir) as store:
        assert [r.outcome for r in store.query(trainee="tester")] == ["abandoned"]


async def test_end_of_trace_opens_the_debrief_as_missed(services):
    app = make_app(services, speed=8)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 12)  # 96 s of drill time: past the last event at 92 s
        assert isinstance(app.screen, DebriefScreen)
        assert app.screen.scorecard.outcome is Outcome.MISSED
        text = screen_text(app)
        assert "MISSED" in text
        await pilot.press("p")
        await picker_ready(pilot)  # the picker reads the library in a worker thread
        assert "Duplicate-charge refunds" in screen_text(app)  # back at the picker
        assert app.screen.__class__.__name__ == "PickerScreen"


async def test_every_war_room_panel_is_visible_at_80x24(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        live = app.screen
        await advance(pilot, 12)
        screen_region = live.region
        for widget_type in (StatusBar, Meters, PlanPanel, TraceTable, Inspector):
            widget = live.query_one(widget_type)
            region = widget.region
            assert region.width >= 20 and region.height >= 1, widget_type
            assert screen_region.contains_region(region), widget_type
        assert live.query_one(TraceTable).content_region.height >= 4
        assert live.query_one(Inspector).content_region.height >= 4
        text = screen_text(app)
        for word in ("00:12", "damage", "cost", "Plan", "Trace", "Inspector", "Escalate", "s5"):
            assert word in text, word


async def test_larger_terminal_gets_more_room(services):
    app = make_app(services)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("enter")
        live = app.screen
        await advance(pilot, 12)
        assert live.query_one(Inspector).content_region.height >= 15
        assert live.query_one(TraceTable).content_region.width >= 100
        assert "snapshot_at: 2026-11-20T03:00:04Z" in screen_text(app)


async def test_escalated_badge_leaves_room_for_the_title_at_80_columns(services):
    from warroom.core.library import bundled_drills_dir

    app = make_app(services, bundled_drills_dir() / "tax-region-migration.yaml", speed=32)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        live = app.screen
        key = live.drill.answer_key
        await advance(pilot, live.replay.first_evidence_time / 32 + 0.1, step=0.1)
        assert live.replay.evidence_released and not live.replay.ended
        await escalate(pilot, key.fault.origin_step)
        assert live.replay.contained
        bar = screen_text(app).splitlines()[0]
        assert "ESCALATED" in bar and live.drill.title in bar, bar


async def test_speeds_go_up_to_32x(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        live = app.screen
        seen = []
        for _ in range(7):
            await pilot.press("plus")
            seen.append(live.speed)
        assert seen == [2, 4, 8, 16, 32, 32, 32]
        assert "32x" in live.query_one(StatusBar).render().plain
        await advance(pilot, 1)
        assert live.replay.now == 32
        await pilot.press("question_mark")
        assert "0.5x 1x 2x 4x 8x 16x 32x" in screen_text(app)
