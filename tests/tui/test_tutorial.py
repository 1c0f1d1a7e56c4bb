"""The guided tutorial (`warroom tutorial`, issue 17): every lesson waits for its key, a wrong key does not advance,
the drill clock is held while a prompt waits, the last lesson leads to the debrief, and the session is stored as a
tutorial that the cohort statistics never count."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from warroom.cli import main
from warroom.store.cohort import read_facts
from warroom.store.results import ResultsStore
from warroom.tui.logic import LESSONS, tutorial_path
from warroom.tui.room import LessonPanel, TutorialScreen
from warroom.tui.screens import DebriefScreen
from warroom.tui.widgets import TraceTable

from .conftest import advance, escalate, make_app, record_notifications, screen_text


def _panel(app) -> str:
    return " ".join(str(app.screen.query_one(LessonPanel).render()).split())


async def _start(pilot) -> TutorialScreen:
    await pilot.press("enter")  # the briefing: start the drill clock
    await pilot.pause()
    live = pilot.app.screen
    assert isinstance(live, TutorialScreen)
    return live


async def test_the_tutorial_teaches_one_key_at_a_time_and_ends_in_the_debrief(services):
    app = make_app(services, drill_path=tutorial_path())
    async with app.run_test(size=(80, 24)) as pilot:
        told = record_notifications(app)
        live = await _start(pilot)
        tutor = live.tutor
        # Lesson 1, pause: the clock stops at e03 (t=8) and waits there, however long the trainee takes.
        await advance(pilot, 30)
        assert tutor.waiting and tutor.current.name == "Pause"
        assert live.replay.now == 8 and live.replay.is_released("e03") and not live.replay.is_released("e04")
        assert "Press space to pause it" in _panel(app) and "lesson 1 of 5" in screen_text(app)
        await pilot.press("f")  # a later lesson's key: refused and explained, nothing flagged
        await pilot.pause()
        assert not live.replay.flagged and "Not yet: f comes in a later lesson" in _panel(app)
        await pilot.press("x")  # a key that does nothing: said so
        await pilot.pause()
        assert "x does nothing here" in _panel(app)
        assert tutor.index == 0 and tutor.waiting and live.replay.now == 8
        await pilot.press("space")
        await pilot.pause()
        assert live.paused and tutor.index == 1 and not tutor.waiting
        assert "Press space again to resume it" in _panel(app)
        await advance(pilot, 10)
        assert live.replay.now == 8  # paused by the trainee
        await pilot.press("space")
        await pilot.pause()
        # Resumed: the panel says nothing that is true only while paused (issue 35: lesson 1's text was stale).
        assert not live.paused and "Paused" not in _panel(app) and "resume" not in _panel(app)
        assert "The clock runs again" in _panel(app)
        # Lesson 2, inspect: starts when the executor's report e07 (t=24, with the result e06) arrives.
        await advance(pilot, 60)
        assert tutor.waiting and tutor.current.name == "Inspect" and live.replay.now == 24
        await pilot.press("enter")  # opens e07, the report, not the tool result: explained, not advanced
        await pilot.pause()
        assert [a.event for a in live.replay.actions if a.kind == "inspect"] == ["e07"]
        assert tutor.index == 1 and "You opened e07" in _panel(app)
        await pilot.press("e")  # escalating comes later
        await pilot.pause()
        assert not live.replay.escalations and "Not yet: e" in _panel(app)
        assert app.focused is not None and app.focused.id != "trace-table"  # enter moved into the inspector
        await pilot.press("escape", "k", "enter")  # back to the trace, up to e06, open it
        await pilot.pause()
        # Lesson 3, flag: starts at once (its event is in the trace already).
        assert tutor.index == 2 and tutor.waiting and tutor.current.name == "Flag"
        await pilot.press("f", "enter")  # flag e06 with no note
        await pilot.pause()
        assert "e06" in live.replay.flagged
        # Lesson 4, probe: v opens the probe dialog on e06's step (s2), enter asks for p1; its answer comes 0.5 s later.
        assert tutor.index == 3 and tutor.waiting and tutor.current.name == "Probe"
        await pilot.press("v")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert [a.probe for a in live.replay.actions if a.kind == "probe"] == ["p1"]
        assert tutor.index == 4 and not tutor.waiting and not live.replay.is_released("p1")
        # Lesson 5, escalate: starts when the probe's answer is in; a wrong step is a false escalation, explained;
        # the right one ends in the debrief.
        await advance(pilot, 10)
        assert live.replay.is_released("p1") and tutor.waiting and tutor.current.name == "Escalate"
        assert "p1" in screen_text(app)  # the probe's answer is a row of the trace
        await escalate(pilot, "s1")
        assert live.replay.false_escalations == 1 and tutor.index == 4 and "You escalated s1" in _panel(app)
        await escalate(pilot, "s2")
        assert tutor.finished and live.replay.contained
        await advance(pilot, 30)
        assert isinstance(app.screen, DebriefScreen)
        assert app.screen.scorecard.outcome.value == "contained"  # within the deadline: the clock was held
        # said on the debrief's first line, not in a toast over its scorecard (issue 35's walk-through)
        assert screen_text(app).splitlines()[1].strip("│ ").startswith("Tutorial done: the debrief explains")
        assert not any("Tutorial done" in m for m in told)
        assert "trial" not in screen_text(app)  # the tutorial always plays its fault: no "signal trial ... twin"
    with ResultsStore(services.data_dir, create=False) as store:
        (session,) = store.query(trainee=services.trainee)
        assert session.mode == "tutorial" and session.drill_id == "tutorial"
        facts, problems = read_facts(store)
        assert facts == [] and problems == []  # stored, never counted


def test_the_lessons_are_data_in_order():
    assert [lesson.action for lesson in LESSONS] == ["pause", "inspect", "flag", "probe", "escalate"]
    assert all(lesson.key in lesson.prompt for lesson in LESSONS)


def _add(store, session_id: str, drill_id: str, mode: str, outcome: str, total: int) -> None:
    from store_support import scorecard

    from warroom.store.results import SessionInfo

    started = "2026-11-02T10:00:00.000000+00:00"
    info = SessionInfo(session_id=session_id, trainee="ana", drill_id=drill_id, drill_version=1, drill_sha256=None,
                       drill_path=None, started_at=started,
                       mode=mode)  # fmt: skip
    ttd = 4.0 if outcome == "contained" else None
    assert store.insert(info, scorecard(drill_id=drill_id, outcome=outcome, total=total, ttd=ttd), [], ended_at=started)


def test_scores_summary_and_the_statistics_leave_the_tutorial_out(services):
    with ResultsStore(services.data_dir) as store:
        _add(store, "p1", "duplicate-charge-refunds", "practice", "contained", 90)
        _add(store, "t1", "tutorial", "tutorial", "missed", 0)
        facts, problems = read_facts(store)
        assert [f.drill_id for f in facts] == ["duplicate-charge-refunds"] and problems == []
        assert [s.session_id for s in store.query(mode="tutorial")] == ["t1"]  # still stored and listed
    result = CliRunner().invoke(main, ["--data-dir", str(services.data_dir), "scores", "summary"])
    assert result.exit_code == 0, result.output
    # The tutorial drill is in no table; the summary says that its session was left out (leftovers 13).
    said = " ".join(result.output.split())
    note = "; 1 tutorial session not counted (`warroom scores list --mode tutorial` lists it)"
    assert note in said, said
    assert "duplicate-charge-refunds" in said and "tutorial" not in said.replace(note, ""), said
    listed = CliRunner().invoke(main, ["--data-dir", str(services.data_dir), "scores"])
    assert listed.exit_code == 0, listed.output
    row = next(line for line in listed.output.splitlines() if "t1" in line)
    assert row.split("│")[-2].strip() == "tutorial"  # `scores` lists it, its mode saying it is a tutorial


async def test_the_clock_stops_at_a_lesson_even_at_top_speed(services):
    app = make_app(services, drill_path=tutorial_path(), speed=32)
    async with app.run_test(size=(80, 24)) as pilot:
        live = await _start(pilot)
        await advance(pilot, 5, step=5)  # one tick of 160 drill seconds
        assert live.tutor.waiting and live.replay.now == 8 and not live.replay.ended


async def test_a_held_clock_ticks_once_a_second_and_the_hold_is_never_played(services, monkeypatch):
    """While a lesson's prompt waits, the war room ticks once a second, not ten times (a served class waiting at its
    first lesson woke its host 1,000 times a second); the real time the hold lasted is not played once it ends, even
    with no tick in it and no pause after it."""
    from warroom.tui.room import MAX_TICK_INTERVAL, TICK_INTERVAL

    app = make_app(services, drill_path=tutorial_path())
    async with app.run_test(size=(80, 24)) as pilot:
        live = await _start(pilot)
        assert live._tick_delay() < MAX_TICK_INTERVAL  # the clock runs to lesson 1's event
        await advance(pilot, 30)
        assert live.tutor.waiting and live.replay.now == 8
        assert live._tick_delay() == MAX_TICK_INTERVAL != TICK_INTERVAL
        await pilot.press("space", "space")  # lesson 1 done: paused, resumed
        await advance(pilot, 60)
        assert live.tutor.waiting and live.tutor.current.name == "Inspect" and live.replay.now == 24
        app.clock.set_time(app.clock.time + 30)  # 30 s in the hold, not one tick
        monkeypatch.setattr(live.tutor, "start_due", lambda released: False)  # no next hold at once
        await pilot.press("escape", "k", "enter")  # inspect e06: the hold ends
        await pilot.pause()
        assert not live.tutor.waiting and not live.paused
        await advance(pilot, 1)
        assert live.replay.now == 25  # one second played since the hold ended, none of the 30 s in it


async def test_quitting_the_tutorial_stores_an_abandoned_tutorial_session(services):
    app = make_app(services, drill_path=tutorial_path())
    async with app.run_test(size=(80, 24)) as pilot:
        await _start(pilot)
        await advance(pilot, 10)
        await pilot.press("q", "y")  # q works while a lesson waits
        await pilot.pause()
    with ResultsStore(services.data_dir, create=False) as store:
        (session,) = store.query(trainee=services.trainee)
        assert session.mode == "tutorial" and session.outcome == "abandoned"


def test_warroom_tutorial_starts_the_tutorial_directly(monkeypatch, tmp_path):
    import warroom.tui.app as launch_module  # the CLI imports launch from the API

    started = []
    monkeypatch.setattr(launch_module, "launch", lambda settings, **kw: started.append((settings, kw)))
    result = CliRunner().invoke(main, ["tutorial", "--trainee", "newbie", "--data-dir", str(tmp_path / "d")])
    assert result.exit_code == 0, result.output
    ((settings, kw),) = started
    assert settings.trainee == "newbie" and kw["start"].drill.id == "tutorial" and kw["start"].ok


def test_a_lesson_added_later_is_one_entry():
    """The probe lesson (another helper's `v` key, action `probe`) joins as one more Lesson: refused until reached,
    done by its action on its target."""
    from warroom.tui.logic import Lesson, Tutor

    probe = Lesson(name="Probe", key="v", action="probe", at="e07", target="s2", prompt="Press v to probe s2.",
                   ask="press v on s2.")  # fmt: skip
    tutor = Tutor((*LESSONS[:1], probe))
    assert not tutor.allows_action("probe") and tutor.allows_action("speed")
    assert tutor.start_due({"e03"}.__contains__) and tutor.observe("pause", None)
    assert not tutor.start_due({"e03"}.__contains__)  # e07 is not in the trace yet
    assert tutor.next_stop() == "e07"
    assert tutor.start_due({"e03", "e07"}.__contains__) and tutor.allows_action("probe")
    assert not tutor.observe("probe", "s1") and "s1" in tutor.hint and tutor.waiting
    assert not tutor.observe("flag", "e06") and tutor.waiting  # another kind: not this lesson's
    assert tutor.observe("probe", "s2") and tutor.finished and tutor.current is None


def test_unflagging_the_wrongly_flagged_event_clears_the_lessons_hint():
    """Lesson 3 (flag e06): flagging e05, then unflagging it as the hint says (f on e05 again), left "You flagged
    e05" on the panel although nothing was flagged any more; the hint is cleared when the wrong flag is undone (and
    only then: unflagging another event, or flagging again, keeps or renews it)."""
    from warroom.tui.logic import Tutor

    flag = next(lesson for lesson in LESSONS if lesson.action == "flag")
    tutor = Tutor((flag,))
    assert tutor.start_due(lambda event: True)
    assert not tutor.observe("flag", "e05") and tutor.hint.startswith("You flagged e05")
    assert not tutor.observe("unflag", "e04") and tutor.hint.startswith("You flagged e05")  # not the wrong one
    assert not tutor.observe("unflag", "e05") and tutor.hint == "" and tutor.waiting
    assert not tutor.observe("unflag", "e05") and tutor.hint == ""
    assert tutor.observe("flag", "e06") and tutor.finished


async def test_the_tutorial_done_exactly_as_it_says_scores_100_and_no_toast_covers_it(services):
    """Issue 35 item 3: the lessons' own pace costs no speed points (followed exactly: 100, not 90); the war room's
    notices go to the lesson panel, never over it or over a dialog; the debrief explains only what was seen."""
    app = make_app(services, drill_path=tutorial_path())
    async with app.run_test(size=(80, 24)) as pilot:
        told = record_notifications(app)
        live = await _start(pilot)
        tutor = live.tutor
        await advance(pilot, 20)  # lesson 1 waits at e03
        await pilot.press("space")  # pause, as it says
        await pilot.pause()
        await advance(pilot, 5)  # reading at leisure
        await pilot.press("space")  # resume, as it says
        await advance(pilot, 40)  # lesson 2 waits at e07, the clock held there
        assert tutor.current.name == "Inspect" and tutor.waiting
        await pilot.press("k", "enter")  # up to e06, open it
        await pilot.press("tab")  # back to the trace, e06 still selected
        await pilot.press("f", "enter")  # flag it, no note
        await pilot.pause()
        assert "Flagged e06." in _panel(app)  # in the panel, under the lesson...
        assert not any("Flagged" in m for m in told)  # ...not a toast over it
        await pilot.press("v", "enter")  # ask for p1
        await pilot.pause()
        await advance(pilot, 5)  # its answer comes half a second later; the last lesson waits for it
        assert tutor.current.name == "Escalate" and tutor.waiting and live.replay.is_released("p1")
        # the probe's answer the lesson names is a row on screen (at 80x24 it came below the fold), the cursor
        # still on e06
        await pilot.pause()
        rows = [line for line in screen_text(app).splitlines() if "│ " in line and "executor" in line]
        assert any(" p1 " in line for line in rows), screen_text(app)
        assert live.query_one(TraceTable).selected_key == "e06"
        assert "new ↓ (G)" not in screen_text(app)  # p1, the newest, is on screen: no "1 new" below
        await escalate(pilot, "s2", cite="e06")
        assert tutor.finished and live.replay.contained
        await pilot.pause()
        # the footer at 80 columns offers d and keeps ? Help: e and v, refused once contained, make room for d
        # one notice of the escalation, not two ("Escalated: ..." from the lesson and from the war room)
        assert _panel(app).count("Escalated") == 1 and "Escalation of" not in _panel(app), _panel(app)
        assert "Escalated: The planner accepted your escalation of step s2" in _panel(app)
        footer = screen_text(app).splitlines()[-1]
        assert "d Debrief" in footer and "? Help" in footer and "Escalate" not in footer, footer
        await advance(pilot, 30)  # the re-plan plays, then the debrief
        assert isinstance(app.screen, DebriefScreen)
        card = app.screen.scorecard
        assert (card.outcome.value, card.total, card.max_total) == ("contained", 100, 100)
        # from e05 at 23.9 s (its arguments already show the fault) to the probe's answer at 24.5 s: nothing of the
        # lessons' pace
        assert card.time_to_detect == pytest.approx(0.6)
        assert not any(m.startswith(("Flagged", "Probe", "Escalation")) for m in told)
        text = ""
        for _ in range(6):
            text += " ".join(screen_text(app).split()) + " "
            await pilot.press("pagedown")
        # The debrief explains what the trainee saw: not the 429 at 42 s (e09), which never came.
        assert "429" not in text and "e09" not in text
        assert "The habit that would have caught it" in text
        # the debrief's moments agree with the clock the trainee saw (e05 at 23.9 s showed as 00:24 in the trace)
        assert "earliest evidence at 23.9 s (00:24)" in " ".join(text.replace("│", " ").split()), text


def test_the_readme_and_the_help_name_the_lessons_the_code_has():
    from locations import REPO

    names = [lesson.name.lower() for lesson in LESSONS]
    help_text = " ".join(CliRunner().invoke(main, ["tutorial", "--help"]).output.split())
    assert f"Its {len(LESSONS)} lessons: " in help_text
    for lesson in LESSONS:
        assert f"{lesson.name.lower()} ({lesson.key})" in help_text
    readme = " ".join((REPO / "README.md").read_text().split())
    step = readme[readme.index("1. `warroom tutorial`"):readme.index("2. Then `warroom`")]
    assert f"in {len(LESSONS)} lessons: " in step
    assert [n for n in names if f"**{n}**" not in step] == []


async def test_a_lesson_started_by_the_trace_drops_the_notice_of_the_lesson_before(services):
    """A new trainee's walk-through: lesson 5 starts when the probe's answer p1 arrives, and the panel still said
    "Verifying: Probe p1 asked: the executor's answer comes in 0.5 s of drill time." under it, with p1 on screen."""
    app = make_app(services, drill_path=tutorial_path())
    async with app.run_test(size=(120, 40)) as pilot:
        live = await _start(pilot)
        await advance(pilot, 20)
        await pilot.press("space")
        await pilot.pause()
        await pilot.press("space")
        await advance(pilot, 40)  # lesson 2 waits at e07
        await pilot.press("k", "enter", "tab", "f", "enter")  # open e06, back to the trace, flag it
        await pilot.pause()
        assert "Flagged e06." in _panel(app)  # a notice of the trainee's own action stays with the next lesson
        await pilot.press("v", "enter")  # ask for p1
        await pilot.pause()
        assert "answer comes in 0.5 s" in _panel(app)  # while the answer is awaited, the notice says when
        await advance(pilot, 5)
        assert live.tutor.current.name == "Escalate" and live.replay.is_released("p1")
        assert "answer comes in" not in _panel(app) and "Verifying" not in _panel(app), _panel(app)
        assert "The probe's answer (p1) confirms it" in _panel(app)
