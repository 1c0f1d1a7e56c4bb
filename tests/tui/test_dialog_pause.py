"""A dialog over the war room in practice mode is a recorded pause: opening it journals ``pause`` (the drill clock
stops), closing it journals ``resume`` once its answer is applied. So the stored pauses and paused seconds count the
time spent in dialogs. Assessment (the clock runs on) and the tutorial (its lessons complete on action kinds) record
nothing for a dialog.

The journal's wall-clock times follow the app's MockClock here (``utc_now`` of the session recorder is replaced), so
the paused seconds are exact: the MockClock seconds that passed while the dialog was open."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import warroom.store.journal._recorder as sessions
from warroom.core.model import ActionKind
from warroom.store.results import ResultsStore
from warroom.tui.logic import Services, tutorial_path
from warroom.tui.room import EscalateScreen, FlagScreen, ProbeScreen, TutorialScreen
from warroom.tui.screens import DebriefScreen
from warroom.tui.widgets import ConfirmScreen, FieldScreen, HelpScreen, SearchScreen

from .conftest import advance, make_app, type_text, war_room

PROBES = Path(__file__).parent.parent / "fixtures" / "shapes" / "shape-11-probe.yaml"
P, R, Q, E = ActionKind.PAUSE, ActionKind.RESUME, ActionKind.QUIT, ActionKind.ESCALATE
BASE = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


@pytest.fixture
def wall(monkeypatch):
    """Make the session journal's wall-clock times ``BASE`` + the MockClock's time of the app in ``wall["app"]``."""
    held: dict[str, object] = {}

    def now() -> str:
        app = held.get("app")
        seconds = app.clock.time if app is not None else 0.0  # type: ignore[attr-defined]
        return (BASE + timedelta(seconds=seconds)).isoformat(timespec="microseconds")

    monkeypatch.setattr(sessions, "utc_now", now)
    return held


def _app(wall, services, drill=None):
    app = make_app(services) if drill is None else make_app(services, drill)
    wall["app"] = app
    return app


def _stored(services):
    with ResultsStore(services.data_dir) as store:
        (row,) = store.query(trainee=services.trainee)
        return row, store.get(row.session_id)


# key, the dialog it opens, the keys that close it without an answer, the drill
DIALOGS = [
    ("question_mark", HelpScreen, ("escape",), None),
    ("f", FlagScreen, ("escape",), None),
    ("e", EscalateScreen, ("escape",), None),
    ("colon", FieldScreen, ("escape",), None),
    ("slash", SearchScreen, ("escape",), None),
    ("q", ConfirmScreen, ("n",), None),
    ("v", ProbeScreen, ("escape",), PROBES),
]


@pytest.mark.parametrize(("key", "dialog", "close", "drill"), DIALOGS, ids=[d[1].__name__ for d in DIALOGS])
async def test_each_dialog_in_practice_is_a_recorded_pause(wall, services, key, dialog, close, drill):
    app = _app(wall, services, drill)
    async with war_room(app, size=(100, 34), seconds=6) as (pilot, live):
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, dialog)
        assert live.paused and live.dialog_paused and "PAUSED" in str(live.query_one("#status").render())
        assert [(a.kind, a.t) for a in live.replay.actions] == [(P, 6)]
        await advance(pilot, 7)  # seven seconds in the dialog: the drill clock stands still
        assert live.replay.now == 6
        await pilot.press(*close)
        await pilot.pause()
        assert app.screen is live and not live.paused and not live.dialog_paused
        assert [(a.kind, a.t) for a in live.replay.actions] == [(P, 6), (R, 6)]
        await advance(pilot, 2)
        assert live.replay.now == 8  # running again
        await pilot.press("q")
        await advance(pilot, 3)
        await pilot.press("y")  # confirmed in the dialog: a pause, then the quit (never resumed)
        await pilot.pause()
    row, stored = _stored(services)
    assert [(a.kind, a.t) for a in stored.actions] == [(P, 6), (R, 6), (P, 8), (Q, 8)]
    assert row.outcome == "abandoned" and row.mode == "practice"
    assert (row.pauses, row.paused_seconds) == (2, 10.0)  # 7 s in the first dialog, 3 s in the quit's


async def test_a_flag_set_in_its_dialog_is_journalled_between_the_pause_and_the_resume(wall, services):
    app = _app(wall, services)
    async with war_room(app, size=(100, 34), seconds=13) as (pilot, live):  # e06 selected
        await pilot.press("f")
        await advance(pilot, 4)
        await type_text(pilot, "stale")
        await pilot.press("enter")
        await pilot.pause()
        assert [(a.kind, a.event, a.note, a.t) for a in live.replay.actions] == [
            (P, None, None, 13), (ActionKind.FLAG, "e06", "stale", 13), (R, None, None, 13),
        ]
        assert not live.paused and live.replay.flagged == {"e06": "stale"}


async def test_an_escalation_in_its_dialog_is_pause_escalate_resume_with_no_second_resume(wall, services):
    app = _app(wall, services)
    async with war_room(app, size=(100, 34), seconds=13) as (pilot, live):
        # a false escalation first: the planner re-plans, the drill runs on
        await pilot.press("e")
        await advance(pilot, 2)
        await type_text(pilot, "s3")
        await pilot.press("enter", "y")
        await pilot.pause()
        assert [a.kind for a in live.replay.actions] == [P, E, R] and live.replay.actions[1].step == "s3"
        assert not live.paused and not live.replay.contained
        t = live.replay.now
        await pilot.press("e")
        await advance(pilot, 5)
        assert live.replay.now == t
        await type_text(pilot, "s1")
        await pilot.press("tab", "tab")  # past the reason to the evidence list: cite e06, the write errors
        if "e06" not in app.screen.cites:
            await type_text(pilot, "e06")
            await pilot.press("space")
        await pilot.press("enter", "y")
        await pilot.pause()
        assert [a.kind for a in live.replay.actions] == [P, E, R, P, E, R]
        assert live.replay.contained and not live.paused
        await advance(pilot, 30)
        assert isinstance(app.screen, DebriefScreen)
    row, stored = _stored(services)
    assert [a.kind for a in stored.actions] == [P, E, R, P, E, R]
    assert stored.actions[4].t == t and stored.actions[4].step == "s1"
    assert row.outcome == "contained" and (row.pauses, row.paused_seconds) == (2, 7.0)


async def test_a_trainee_paused_before_a_dialog_stays_paused_and_nothing_more_is_journalled(wall, services):
    app = _app(wall, services)
    async with war_room(app, size=(100, 34), seconds=5) as (pilot, live):
        await pilot.press("space")
        for key, close in (("question_mark", "escape"), ("f", "escape"), ("q", "n"), ("e", "escape")):
            await pilot.press(key)
            await pilot.pause()
            assert not live.dialog_paused
            await advance(pilot, 2)
            await pilot.press(close)
            await pilot.pause()
            assert live.paused and [a.kind for a in live.replay.actions] == [P]
        await advance(pilot, 1)
        await pilot.press("space")
        await pilot.pause()
        assert not live.paused and [a.kind for a in live.replay.actions] == [P, R]
        await pilot.press("q", "y")
        await pilot.pause()
    row, _ = _stored(services)
    assert (row.pauses, row.paused_seconds) == (2, 9.0)  # 9 s paused with space; the quit's dialog took none


@pytest.mark.parametrize(("key", "dialog", "close", "drill"), DIALOGS, ids=[d[1].__name__ for d in DIALOGS])
async def test_in_assessment_a_dialog_records_nothing_and_the_clock_runs(wall, tmp_path, key, dialog, close, drill):
    services = Services(trainee="ann", data_dir=tmp_path / "data", mode="assessment")
    app = _app(wall, services, drill)
    async with war_room(app, size=(100, 34), seconds=6) as (pilot, live):
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, dialog) and not live.paused and not live.dialog_paused
        await advance(pilot, 3)
        assert live.replay.now == 9  # the clock runs under the dialog
        await pilot.press(*close)
        await pilot.pause()
        assert live.replay.actions == [] and not live.paused
        await pilot.press("q", "y")
        await pilot.pause()
    row, stored = _stored(services)
    assert [a.kind for a in stored.actions] == [Q]
    assert row.mode == "assessment" and (row.pauses, row.paused_seconds) == (0, 0.0)


async def test_in_the_tutorial_a_dialog_records_nothing_and_does_not_complete_the_pause_lesson(wall, services):
    app = _app(wall, services, tutorial_path())
    async with war_room(app, size=(80, 24), seconds=30) as (pilot, live):
        assert isinstance(live, TutorialScreen)
        assert live.tutor.waiting and live.tutor.current.name == "Pause"
        for key, close in (("question_mark", "escape"), ("q", "n")):
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is not live and not live.paused
            await pilot.press(close)
            await pilot.pause()
        assert live.replay.actions == [] and live.tutor.index == 0 and live.tutor.waiting
        await pilot.press("space")  # the lesson completes on the trainee's own pause
        await pilot.pause()
        assert live.paused and live.tutor.index == 1 and [a.kind for a in live.replay.actions] == [P]


async def test_a_dialog_whose_pause_cannot_be_saved_still_opens_and_nothing_resumes(wall, services):
    from warroom.tui.logic import JournalUnwritable

    from .test_journal_failure import break_journal

    app = _app(wall, services)
    async with war_room(app, size=(100, 34), seconds=5) as (pilot, live):
        break_journal(live)
        await pilot.press("question_mark")  # its pause cannot be written: the drill stops for good
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen) and isinstance(live.journal_error, JournalUnwritable)
        assert live.paused and not live.dialog_paused and live.replay.actions == []
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is live and live.paused and live.replay.actions == []
        await advance(pilot, 4)
        assert live.replay.now == 5
