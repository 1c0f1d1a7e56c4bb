"""Drill sets in the picker (issue 14 item 4): only the set's drills in order with progress, its mode and attempts
enforced, results carrying its id; an adaptive set offers the drill chosen next."""

from __future__ import annotations

import textwrap
from pathlib import Path

from warroom.core.library import Attempt, choose_next
from warroom.store.results import ResultsStore
from warroom.tui.logic import DrillProgress, Services, load_active_set
from warroom.tui.logic._drillsets import _candidate
from warroom.tui.screens import BriefingScreen, PickerScreen

from .conftest import make_app, picker_ready, record_notifications, screen_text


def write_set(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "week.set.yaml"
    path.write_text(textwrap.dedent(text).lstrip())
    return path


async def test_a_set_shows_its_drills_in_order_and_enforces_its_mode_and_attempts(tmp_path: Path):
    path = write_set(
        tmp_path,
        """
        set: week-1
        title: Week one
        mode: assessment
        attempts: 1
        due: 2020-01-31
        drills: [late-delivery-replies, duplicate-charge-refunds]
        """,
    )
    services = Services(trainee="ann", data_dir=tmp_path / "data", drill_set=load_active_set(path))
    assert services.session_mode == "assessment"
    app = make_app(services, drill_path=None)
    async with app.run_test(size=(120, 34)) as pilot:
        picker = await picker_ready(pilot)
        assert [e.drill.id for e in picker.entries] == ["late-delivery-replies", "duplicate-charge-refunds"]
        text = screen_text(app)
        assert "drill set Week one (week-1) · assessment · due 2020-01-31 (past due)" in text
        assert "(past due) (best: assessment scores)" in text  # the best column counts assessment sessions only
        assert text.count("to do · 1 left") == 2
        assert "replay ·" not in text
        await pilot.press("enter")
        assert isinstance(app.screen, BriefingScreen)
        await pilot.press("enter")  # the drill clock starts: an attempt is used
        assert app.live is not None and app.live.assessment
        await pilot.press("q", "y")
        await picker_ready(pilot)  # the picker reopens and reads its drills again (a worker thread)
        assert "no attempts left" in screen_text(app)
        told = record_notifications(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PickerScreen)
        assert told == ["Cannot start this drill: no attempts left on this drill in the drill set (1 allowed)."]
    with ResultsStore(tmp_path / "data") as store:
        [row] = store.query()
        assert (row.set_id, row.mode, row.outcome) == ("week-1", "assessment", "abandoned")
        assert store.query(set_id="week-1") and not store.query(set_id="other")


async def test_an_adaptive_set_offers_only_the_drill_chosen_next(tmp_path: Path):
    path = write_set(
        tmp_path,
        """
        set: adaptive-1
        title: Adaptive
        drills: [late-delivery-replies, duplicate-charge-refunds, q1-access-review, clickstream-backfill]
        adaptive: {seed: 5, length: 2}
        """,
    )
    active = load_active_set(path)
    pool = [_candidate(d.drill) for d in active.drills]
    adaptive = active.model.adaptive
    assert adaptive is not None
    expected = choose_next(pool, [], adaptive, trainee="ann", played_in_set=0)
    assert expected is not None
    services = Services(trainee="ann", data_dir=tmp_path / "data", drill_set=active)
    app = make_app(services, drill_path=None)
    async with app.run_test(size=(120, 34)) as pilot:
        await picker_ready(pilot)
        assert [e.drill.id for e in app.screen.entries] == [expected.drill_id]
        assert "the next drill is chosen for you" in screen_text(app)
        assert "session 1 of 2" in screen_text(app)  # the set's progress, not only the drill's
        await pilot.press("enter", "enter", "q", "y")
        await picker_ready(pilot)
        with ResultsStore(tmp_path / "data") as store:
            [row] = store.query()
        record = [Attempt(next(c for c in pool if c.drill_id == row.drill_id), False, True)]
        second = choose_next(pool, record, adaptive, trainee="ann", played_in_set=1)
        assert second is not None
        assert [e.drill.id for e in app.screen.entries] == [second.drill_id]
        assert "session 2 of 2" in screen_text(app)
        await pilot.press("enter", "enter", "q", "y")
        await picker_ready(pilot)
        assert app.screen.entries == [] and "This drill set is complete." in screen_text(app)


def test_progress_cells_and_the_review_mode_line():
    from types import SimpleNamespace

    from warroom.tui.logic import mode_line

    assert DrillProgress(0, False, None).cell() == "to do"
    assert DrillProgress(1, True, 1).cell() == "done · 1 left"
    assert DrillProgress(2, True, 0).cell() == "done · none left"
    assert DrillProgress(2, False, 0).cell() == "no attempts left" and DrillProgress(2, False, 0).exhausted
    assert DrillProgress(0, False, None, (3, 6)).cell() == "session 3 of 6"
    # a drill the trainee played outside the set: its session in the set is a replay (issue 31)
    assert DrillProgress(0, False, 1, before=2).cell() == "replay · 1 left"
    assert DrillProgress(1, True, 0, before=2).cell() == "done · none left"
    assert DrillProgress(0, False, 1, (4, 6)).cell() == "session 4 of 6 · 1 left"
    # a drill played before and never finished (quit in the set): playing it again is a replay (issue 31)
    assert DrillProgress(1, False, 1).cell() == "replay · 1 left"
    # an adaptive set that offers a drill already played, in the set or outside it, says so (issue 31)
    assert DrillProgress(1, True, None, (5, 6)).cell() == "session 5 of 6 · replay"
    assert DrillProgress(0, False, 1, (2, 6), before=1).cell() == "session 2 of 6 · replay · 1 left"
    practice = SimpleNamespace(mode="practice", set_id="wk-1", pauses=1, paused_seconds=41.25, wall_time_to_detect=None)
    assert mode_line(practice) == "practice  ·  set wk-1  ·  1 pause, 41.3 s paused"
    exam = SimpleNamespace(mode="assessment", set_id=None, pauses=0, paused_seconds=0.0, wall_time_to_detect=125.3)
    assert mode_line(exam) == "assessment  ·  wall-clock time to detect 125.3 s"
    # A row stored before the right step, unsupported lost its wall-clock time to detect: nothing was detected.
    guess = SimpleNamespace(
        mode="assessment", set_id=None, pauses=0, paused_seconds=0.0, wall_time_to_detect=25.9,
        outcome="right_step_unsupported",
    )
    assert mode_line(guess) == "assessment"
    calm = SimpleNamespace(mode="practice", set_id=None, pauses=0, paused_seconds=0.0, wall_time_to_detect=None)
    assert mode_line(calm) == "practice  ·  no pauses"


def test_past_due_is_from_the_trainees_local_midnight_not_utcs(tmp_path: Path, monkeypatch):
    from datetime import UTC, date, datetime, timedelta, timezone

    import warroom.tui.logic._drillsets as drillsets

    path = write_set(tmp_path, "set: wk\ntitle: Week\ndue: 2026-12-15\ndrills: [duplicate-charge-refunds]\n")
    active = load_active_set(path)
    assert active.due_text(date(2026, 12, 15)) == "due 2026-12-15"  # the due day itself is not past due
    assert active.due_text(date(2026, 12, 16)) == "due 2026-12-15 (past due)"

    # 03:00 UTC on the 16th is still the 15th in San Francisco (UTC-8) and already the 16th in Tokyo (UTC+9)
    moment = datetime(2026, 12, 16, 3, 0, tzinfo=UTC)
    west, east = timezone(timedelta(hours=-8)), timezone(timedelta(hours=9))
    assert drillsets.local_today(moment, west) == date(2026, 12, 15)
    assert drillsets.local_today(moment, east) == date(2026, 12, 16)
    # and 20:00 UTC on the 15th is already the 16th in Tokyo: past due there, although UTC's date is the 15th
    assert drillsets.local_today(datetime(2026, 12, 15, 20, 0, tzinfo=UTC), east) == date(2026, 12, 16)

    # Without a date, due_text takes the local date now: a trainee west of UTC is not past due at 03:00 UTC
    real = drillsets.local_today
    monkeypatch.setattr(drillsets, "local_today", lambda: real(moment, west))
    assert active.due_text() == "due 2026-12-15"
    monkeypatch.setattr(drillsets, "local_today", lambda: real(moment, east))
    assert active.due_text() == "due 2026-12-15 (past due)"


def test_local_today_defaults_to_the_machines_time_zone(monkeypatch):
    import time
    from datetime import UTC, date, datetime

    from warroom.tui.logic import local_today

    moment = datetime(2026, 12, 16, 3, 0, tzinfo=UTC)
    monkeypatch.setenv("TZ", "<-08>8")  # a POSIX zone string (UTC-8): needs no time zone database
    time.tzset()
    try:
        assert local_today(moment) == date(2026, 12, 15)
    finally:
        monkeypatch.undo()
        time.tzset()


async def test_a_set_says_which_of_its_drills_the_trainee_played_before(tmp_path: Path):
    """A drill of the set that the trainee already played outside it (in practice, or another set) is a replay: the
    cohort statistics count only the first attempt at a drill, and the picker says so before it is played."""
    from stats_support import add

    path = write_set(tmp_path, "set: week-2\ntitle: Week two\nmode: assessment\n"
                               "drills: [late-delivery-replies, duplicate-charge-refunds]\n")  # fmt: skip
    with ResultsStore(tmp_path / "data") as store:
        add(store, "old-1", "ann", "duplicate-charge-refunds", "missed", 0, mode="practice")
        add(store, "bob-1", "bob", "late-delivery-replies", "missed", 0)  # another trainee's session: not ann's
    services = Services(trainee="ann", data_dir=tmp_path / "data", drill_set=load_active_set(path))
    progress = services.set_progress()
    assert (progress["duplicate-charge-refunds"].before, progress["late-delivery-replies"].before) == (1, 0)
    app = make_app(services, drill_path=None)
    async with app.run_test(size=(140, 34)) as pilot:
        await picker_ready(pilot)
        text = screen_text(app)
        assert text.count("replay") == 1 and text.count("to do") == 1  # one drill of two
