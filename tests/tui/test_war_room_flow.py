"""War-room flow fixes (issue 11 items 6, 9, 10, 11, 12, 13): escalating while paused moves on, the footer says Resume
while paused, the ticker stops while paused, f toggles a flag, no toast over the debrief, a tool call names its
result, an early escalation is called early."""

from __future__ import annotations

import pytest

from warroom.core.load import load_drill
from warroom.core.model import Action, ActionKind
from warroom.core.play import Replay, ReplayError
from warroom.core.scoring import replay_actions, score
from warroom.store.results import ResultsStore
from warroom.tui.logic import TraceIndex
from warroom.tui.render import describe_event
from warroom.tui.room import false_escalation_message
from warroom.tui.screens import DebriefScreen, debrief_marks
from warroom.tui.widgets import Inspector, TraceTable

from .conftest import STALE, advance, escalate, make_app, record_notifications, screen_text


def _footer(app) -> str:
    return screen_text(app).splitlines()[-1]


async def test_paused_footer_says_resume_and_the_ticker_stops(services, monkeypatch):
    from textual.timer import Timer

    calls: list[tuple[str, Timer]] = []
    for name in ("pause", "resume"):
        method = getattr(Timer, name)
        monkeypatch.setattr(Timer, name, lambda self, m=method, n=name: (calls.append((n, self)), m(self))[1])

    def paused_now(ticker: Timer) -> bool:
        """Whether the drill clock's ticker was last paused (it is rescheduled after every action)."""
        return [n for n, t in calls if t is ticker][-1:] == ["pause"]

    app = make_app(services)
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.press("enter")
        live = app.live
        assert "space Pause" in _footer(app)
        await pilot.press("space")
        await pilot.pause()
        assert live.paused
        assert "space Resume" in _footer(app) and "Pause" not in _footer(app)
        assert paused_now(live.ticker)  # the ticker stops: no work while paused
        now = live.replay.now
        await pilot.pause(0.3)
        assert live.replay.now == now
        await pilot.press("space")
        await pilot.pause()
        assert not live.paused and "space Pause" in _footer(app)
        assert not paused_now(live.ticker)


async def test_the_ticker_wakes_when_the_screen_can_change(services):
    from warroom.tui.room import MAX_TICK_INTERVAL, TICK_INTERVAL

    app = make_app(services)
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.press("enter")
        live = app.live
        nxt = live.replay.next_event_time
        assert live.replay.now == 0 and nxt is not None and nxt > 1
        assert live._tick_delay() == 0.5  # the clock shows 00:01 from 0.5 s (halves rounded up)
        await advance(pilot, 0.7, step=0.7)
        assert abs(live._tick_delay() - 0.8) < 1e-9  # to 1.5 s
        await advance(pilot, nxt - 0.8, step=nxt - 0.8)  # 0.1 s before the next event
        assert abs(live._tick_delay() - TICK_INTERVAL) < 1e-9  # never more often than ten times a second
        await pilot.press("minus")  # 0.5x: the next second is a whole second of real time away, at most
        await pilot.pause()
        assert live.speed == 0.5 and live._tick_delay() <= MAX_TICK_INTERVAL
        await pilot.press("space")
        await pilot.pause()
        assert live._tick_delay() == TICK_INTERVAL  # stopped: a dialog's or a pause's time is never played


async def test_a_confirmed_escalation_while_paused_contains_and_reaches_the_debrief(services):
    app = make_app(services)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        live = app.live
        await advance(pilot, 13)
        await pilot.press("space")
        assert live.paused
        await escalate(pilot, "s1", "stale snapshot")
        assert live.replay.contained
        assert not live.paused  # the re-plan plays on
        assert [a.kind for a in live.replay.actions][-2:] == [ActionKind.ESCALATE, ActionKind.RESUME]
        await advance(pilot, 10)
        assert isinstance(app.screen, DebriefScreen)


async def test_a_false_escalation_while_paused_resumes_the_clock(services):
    app = make_app(services)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        live = app.live
        await advance(pilot, 13)
        await pilot.press("space")
        await escalate(pilot, "s3")
        assert live.replay.false_escalations == 1 and not live.paused
        now = live.replay.now
        await advance(pilot, 2)
        assert live.replay.now == now + 2
        assert "PAUSED" not in screen_text(app).splitlines()[0]


async def test_no_escalated_toast_over_the_debrief(services):
    app = make_app(services)
    messages = record_notifications(app)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 13)
        await escalate(pilot, "s1")
        assert any("accepted" in m for m in messages)
        await advance(pilot, 10)
        assert isinstance(app.screen, DebriefScreen)
        assert "Escalated" not in screen_text(app)


async def test_f_toggles_a_flag_and_unflag_is_journaled(services):
    app = make_app(services)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        live = app.live
        await advance(pilot, 13)
        timeline = live.query_one(TraceTable)
        await pilot.press("f", "enter")
        assert live.replay.flagged == {"e06": None}
        assert timeline.mark_of("e06") == "⚑" and screen_text(app).count("⚑") == 2  # the column header and e06
        await pilot.press("f")  # no dialog: the flag comes off
        await pilot.pause()
        assert live.replay.flagged == {}
        assert timeline.mark_of("e06") == "" and screen_text(app).count("⚑") == 1  # the header only
        kinds = [a.kind for a in live.replay.actions]
        # the flag dialog paused the drill (practice) and resumed it once the flag was set; unflag has no dialog
        assert kinds == [ActionKind.PAUSE, ActionKind.FLAG, ActionKind.RESUME, ActionKind.UNFLAG]
        await pilot.press("f", "enter")  # and on again: one flag, not two
        assert list(live.replay.flagged) == ["e06"]
        assert score(live.drill, live.replay.actions).outcome is not None  # the log replays


def test_unflag_replays_and_old_double_flag_journals_stay_readable():
    drill = load_drill(STALE)
    log = [
        Action(t=13, kind=ActionKind.FLAG, event="e04", note="first"),
        Action(t=14, kind=ActionKind.FLAG, event="e04", note="again"),  # a journal from before unflag existed
        Action(t=15, kind=ActionKind.UNFLAG, event="e04"),
    ]
    replay, _ = replay_actions(drill, log)
    assert replay.flagged == {}
    replay2, _ = replay_actions(drill, log[:2])
    assert replay2.flagged == {"e04": "again"}
    fresh = Replay(drill)
    fresh.advance_to(13)
    with pytest.raises(ReplayError, match="not flagged"):
        fresh.unflag("e04")
    marks = [m[2] for m in debrief_marks(drill, replay)]
    assert "you removed your flag from e04" in marks


def test_a_tool_call_names_its_result_or_says_it_has_none():
    drill = load_drill(STALE)
    call = drill.event("e03")
    everything = {e.id: e for e in drill.trace}
    assert "result    e04 (t=12 s)" in describe_event(call, TraceIndex(drill), everything).plain
    before = {e.id: e for e in drill.trace if e.t <= 7}
    assert "result    not returned yet" in describe_event(call, TraceIndex(drill), before).plain
    lonely = drill.model_copy(update={"trace": [e for e in drill.trace if e.id != "e04"]})
    # while the trace runs, a call without a result reads as one whose result is still to come (no hint of the rest)
    assert "result    not returned yet" in describe_event(call, TraceIndex(lonely), before).plain
    assert "no result in the trace" not in describe_event(call, TraceIndex(lonely), before).plain
    everything_left = {e.id: e for e in lonely.trace}
    assert "result    no result in the trace" in describe_event(call, TraceIndex(lonely), everything_left).plain


async def test_the_inspector_shows_the_selected_calls_result_line(services):
    app = make_app(services)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("enter")
        live = app.live
        await advance(pilot, 13)
        await pilot.press("k")  # e05, the tool call
        assert "e06 (t=12 s)" in live.query_one(Inspector).text


def test_an_early_escalation_is_called_early_not_a_check_that_found_nothing():
    early = false_escalation_message("s1", after_evidence=False, faulted=True)
    assert "before the evidence this drill counts" in early and "found nothing wrong" not in early
    late = false_escalation_message("s3", after_evidence=True, faulted=True)
    assert "found nothing wrong" in late
    all_clear = false_escalation_message("s3", after_evidence=False, faulted=False)
    assert "found nothing wrong" in all_clear


def test_the_debrief_names_the_right_step_escalated_before_the_evidence():
    drill = load_drill(STALE)
    replay, _ = replay_actions(drill, [Action(t=5, kind=ActionKind.ESCALATE, step="s1")])
    marks = [m[2] for m in debrief_marks(drill, replay)]
    assert any("the right step, but before the evidence the drill counts" in m for m in marks), marks


async def test_stored_session_keeps_the_unflag(services):
    app = make_app(services)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 13)
        await pilot.press("f", "enter", "f", "q", "y")
        await pilot.pause()
    with ResultsStore(services.data_dir) as store:
        row = store.query(trainee="tester")[0]
        kinds = [a.kind for a in store.get(row.session_id).actions]
    # each dialog (the flag's note, the quit's confirmation) is a pause; a confirmed quit ends the drill paused
    assert kinds == [
        ActionKind.PAUSE, ActionKind.FLAG, ActionKind.RESUME, ActionKind.UNFLAG, ActionKind.PAUSE, ActionKind.QUIT,
    ]


async def test_enter_pressed_again_at_the_briefing_starts_one_session_only(services):
    """Keys typed ahead (or a browser sending a burst) can queue several starts before the war room replaces the
    briefing: only the first may start a session; the others would leave journals nobody stores."""
    from warroom.store.datadir import journals_dir
    from warroom.tui.screens import BriefingScreen

    app = make_app(services)
    async with app.run_test() as pilot:
        briefing = app.screen
        assert isinstance(briefing, BriefingScreen)
        for _ in range(3):  # three starts queued before any is handled
            briefing.action_start()
        await pilot.pause()
        live = app.live
        assert live is not None and app.screen is live
        journals = list(journals_dir(services.data_dir).glob("*.jsonl"))
        assert len(journals) == 1, journals


async def test_a_start_still_queued_when_the_terminal_goes_starts_no_second_session(services):
    """Keys typed ahead at the briefing can leave a second start queued behind a lost terminal: once the app is
    leaving, it starts nothing (a stress run of the closed-terminal test stored two abandoned sessions)."""
    from warroom.tui.flow import StartDrill

    app = make_app(services)
    async with app.run_test() as pilot:
        await pilot.press("enter")
        live = app.live
        assert live is not None
        entry = live.entry
        app.terminate(None)  # the terminal was lost
        app.post_message(StartDrill(entry))  # the queued start of a key typed ahead
        await pilot.pause()
        assert app.live is None and app.leaving
    with ResultsStore(services.data_dir, create=False) as store:
        assert [r.outcome for r in store.query()] == ["abandoned"]
