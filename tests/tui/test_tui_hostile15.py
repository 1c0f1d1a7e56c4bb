"""Campaign 15 on the terminal UI (issue 30): state across screens, the drill clock under pause and speed changes,
signals and files changing under the UI; what it found and what now holds."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest
from pty_support import on_pty
from store_support import copy_drill, load

from warroom.core.author import KeyWriteError, open_for_annotation, write_draft
from warroom.core.play import Replay
from warroom.core.scoring import score
from warroom.store.journal import SessionRecorder
from warroom.tui.logic import Services, load_active_set
from warroom.tui.screens import BriefingScreen, DebriefScreen
from warroom.tui.widgets import ConfirmScreen

from .conftest import (
    STALE,
    author_mode,
    make_app,
    picker_ready,
    record_notifications,
    screen_text,
    type_text,
    until,
    war_room,
    without_twin,
)


async def test_a_speed_change_plays_the_time_before_it_at_the_speed_it_ran_at(services):
    """The ticker comes up to a second after the last tick, and a speed key changed the speed without playing the
    real time since then: that time was played at the new speed, so 0.9 s at 1x, then ``+`` five times (32x), moved
    the drill clock 28.8 s instead of 0.9 s (events a trainee never saw played at 1x were released at once). Pausing
    likewise dropped the time since the last tick."""
    app = make_app(services)
    async with war_room(app, size=(80, 24), seconds=2) as (pilot, live):
        app.clock.set_time(app.clock.time + 0.9)  # 0.9 s of 1x before the next tick is due
        await pilot.press("plus", "plus", "plus", "plus", "plus")
        assert live.speed == 32
        live.tick()
        assert live.replay.now == 2.9
        app.clock.set_time(app.clock.time + 0.25)  # a quarter of a second at 32x, then space before the next tick
        await pilot.press("space")
        assert live.replay.now == 10.9
        assert [(a.kind.value, a.t) for a in live.replay.actions][-2:] == [("speed", 2.9), ("pause", 10.9)]


async def test_the_author_modes_speed_change_plays_the_time_before_it_at_the_speed_it_ran_at():
    async with author_mode(STALE, size=(80, 24)) as (app, pilot, screen):
        start = screen.replay.now
        app.clock.set_time(app.clock.time + 0.09)  # under the author mode's tick interval
        await pilot.press("plus", "plus", "plus", "plus", "plus")
        screen.tick()
        assert round(screen.replay.now - start, 6) == 0.09


async def test_warroom_run_does_not_start_a_drill_whose_file_changed_while_its_briefing_was_open(tmp_path, services):
    """The picker's drills were refused once their file changed under the briefing, but a drill given to ``warroom
    run FILE`` (or ``warroom tutorial``) was started: the session played the drill as it was read and recorded the
    changed file's SHA-256, so the review would replay another drill."""
    drill = tmp_path / STALE.name
    drill.write_text(STALE.read_text(encoding="utf-8"), encoding="utf-8")
    app = make_app(services, drill)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        drill.write_text(STALE.read_text(encoding="utf-8").replace("INC-4471", "INC-9999"), encoding="utf-8")
        notes = record_notifications(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, BriefingScreen) and app.live is None
        assert any("its file changed since it was opened" in n for n in notes), notes


def _edited(drill: Path) -> None:
    drill.write_text(drill.read_text(encoding="utf-8").replace("INC-4471", "INC-9999"), encoding="utf-8")


async def test_a_drill_this_picker_read_and_then_edited_is_read_again_not_refused_for_ever(tmp_path):
    """A drill the picker read from its file (not from its cache) and then edited, or deleted, was refused at enter
    with the briefing's "go back and open it again", on the picker itself and at every enter after it, until `r`:
    the picker is to read it again and say so when it is no longer the drill listed."""
    lib = tmp_path / "lib"
    lib.mkdir()
    drill = lib / "zz-drill.yaml"
    drill.write_text(STALE.read_text(encoding="utf-8").replace("id: duplicate-charge-refunds", "id: zz-drill", 1),
                     encoding="utf-8")
    services = Services(trainee="tester", data_dir=tmp_path / "data", drill_dirs=(lib,))
    app = make_app(services, None)
    async with app.run_test(size=(80, 24)) as pilot:
        picker = await picker_ready(pilot)
        await pilot.press("slash", *"zz-drill", "enter")
        assert picker.selected().path == drill
        _edited(drill)
        notes = record_notifications(app)
        await pilot.press("enter")
        await picker_ready(pilot)  # no longer the drill listed (its title changed): said, and read again
        assert notes == ["This drill changed since the list was read: the drills are read again."]
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, BriefingScreen), "the briefing")
        assert "INC-9999" in screen_text(app)


async def test_a_drill_sets_drill_edited_after_the_set_was_opened_is_played_as_it_is_now(tmp_path):
    """A drill set's drills are read when the set is opened; one edited after that was started as it was read while
    the session recorded the edited file's SHA-256 (its review would replay another drill)."""
    drill = tmp_path / STALE.name
    drill.write_text(STALE.read_text(encoding="utf-8"), encoding="utf-8")
    week = tmp_path / "w.set.yaml"
    week.write_text(f"set: w1\ntitle: W\ndrills: [./{STALE.name}]\n", encoding="utf-8")
    services = Services(trainee="tester", data_dir=tmp_path / "data", drill_set=load_active_set(week))
    app = make_app(services, None)
    async with app.run_test(size=(80, 24)) as pilot:
        await picker_ready(pilot)
        _edited(drill)
        await pilot.press("enter")
        await picker_ready(pilot)  # no longer the drill listed: said, and read again
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, BriefingScreen), "the briefing")
        await pilot.press("enter")
        assert app.live is not None and "INC-9999" in app.live.drill.title


def test_saving_into_a_drill_file_deleted_meanwhile_names_the_reason_once(tmp_path):
    """The author mode's save into a drill file removed since it was opened said ``cannot read the drill file:
    [Errno 2] No such file or directory: '/the/path'``: Python's text, with the path said twice."""
    drill = tmp_path / STALE.name
    drill.write_text(STALE.read_text(encoding="utf-8"), encoding="utf-8")
    opened = open_for_annotation(drill)
    drill.unlink()
    with pytest.raises(KeyWriteError) as refused:
        write_draft(drill, opened.draft, opened.event_order, opened.sha256)
    assert str(refused.value) == f"{drill}: cannot read the drill file: No such file or directory"


async def test_ctrl_q_in_the_author_mode_asks_before_losing_unsaved_marks(tmp_path):
    """ctrl+q is Textual's own quit key: in ``warroom annotate`` it left at once, without the question ``q`` and
    ctrl+c ask and without a recovery copy, so the marks not saved yet were lost."""
    drill = tmp_path / STALE.name
    drill.write_text(STALE.read_text(encoding="utf-8"), encoding="utf-8")
    async with author_mode(drill, size=(80, 24), whole_trace=True) as (app, pilot, screen):
        await pilot.press("c")  # the selected event's step joins (or leaves) the cascade: an unsaved mark
        assert not screen.saved
        await pilot.press("ctrl+q")
        assert app.is_running and isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert app.screen is screen and not screen.saved


async def test_an_event_id_holding_j_or_k_can_be_typed_in_the_evidence_list(tmp_path, services):
    """Typing an event id in the escalation dialog's evidence list jumps to it, but ``j`` and ``k`` moved the
    highlight instead, wherever they came in the id: typing an imported drill's ``call_OvvEcj3Vwmo...`` stopped at its
    ``j`` and went on as another id, so ``space`` then ticked an event the trainee did not name."""
    drill = without_twin(STALE, tmp_path)
    drill.write_text(drill.read_text(encoding="utf-8").replace("e04", "call_Ecj3k"), encoding="utf-8")
    app = make_app(services, drill)
    async with war_room(app, size=(80, 24), seconds=13) as (pilot, live):
        assert "call_Ecj3k" in live.replay.released_positions
        await pilot.press("e", "tab", "tab")
        await type_text(pilot, "call_Ecj3k")
        await pilot.press("space")
        assert app.screen.cites == ("call_Ecj3k",)


def test_sigterm_ends_warroom_review_with_the_terminal_given_back(tmp_path):
    """``warroom review`` had no handler of its own for SIGTERM: Python's ended the process at once, leaving the
    terminal in the review's alternate screen, unechoed and reporting the mouse (the shell's prompt and what was
    typed next were not seen). It now ends as the war room does, the terminal restored."""
    drill = copy_drill(tmp_path / "drills")
    data = tmp_path / "data"
    recorder = SessionRecorder.start(data, "ann", drill, load(drill))
    replay = Replay(recorder.drill, on_action=recorder.record)
    replay.advance(5)
    replay.quit()
    recorder.finish(score(recorder.drill, recorder.actions))
    with on_pty(["--data-dir", str(data), "review", recorder.session_id]) as run:
        deadline = time.monotonic() + 10
        while "After-action review" not in run.text():
            assert run.proc.poll() is None and time.monotonic() < deadline, run.text()
            time.sleep(0.05)
        run.proc.send_signal(signal.SIGTERM)
        status = run.wait_exit(5, "warroom review")
        time.sleep(0.2)  # the reader thread takes the last of the output
    assert status == 0
    assert "\x1b[?1049l" in run.text().rsplit("After-action review", 1)[1]  # the alternate screen left


@pytest.mark.parametrize("key", ["q", "?"])
async def test_a_dialog_key_typed_as_the_drill_ends_leaves_no_war_room_behind_the_debrief(services, key):
    """``q`` (or ``?``) typed in the instant the drill ended, before its debrief opened, opened the quit question (or
    the help) over the ended war room; the debrief then replaced that dialog, and the war room stayed in the app's
    screen stack under every later screen, for good."""
    app = make_app(services, speed=32)
    async with war_room(app, size=(80, 24), seconds=2.5) as (pilot, live):
        app.clock.set_time(app.clock.time + 1)
        live.tick()  # the end of the trace: the session is stored and the debrief asked for
        assert live.finished
        await type_text(pilot, key)  # handled before the debrief is shown, as a key typed in that instant is
        await until(pilot, lambda: isinstance(app.screen, DebriefScreen), "the debrief")
        assert [type(s) for s in app.screen_stack[1:]] == [DebriefScreen]
