"""The author mode (``warroom annotate``) keeps unsaved marks when SIGHUP (the terminal closed), SIGTERM (``kill``) or
a lost terminal stops it: they go to the drill's recovery copy (``FILE.unsaved``), which the next ``warroom
annotate FILE`` loads again. The process tests run ``warroom annotate`` on a pseudo-terminal, as an author would."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest
import yaml
from pty_support import on_pty
from textual.clock import MockClock

from warroom.core.author import open_for_annotation, recover
from warroom.core.author._recovery import recovery_path
from warroom.tui.app import AnnotateApp
from warroom.tui.author import DebriefDialog
from warroom.tui.widgets import ConfirmScreen

from .conftest import author_mode, record_notifications, type_text
from .test_annotate import imported, select


def _key(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8")).get("answer_key") or {}


async def test_a_signal_keeps_unsaved_marks_in_the_recovery_copy_and_the_next_start_loads_them(tmp_path):
    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    before = path.read_text()
    async with author_mode(path) as (app, pilot, screen):
        await pilot.press("E")
        await select(pilot, screen, "m003")
        await pilot.press("v", "b")
        await type_text(pilot, "half a debrief")
        assert isinstance(app.screen, DebriefDialog)
        app.terminate(signal.SIGTERM)  # over an open dialog: its text is not kept, the marks are
        await pilot.pause()
    assert app.stopped and app.stopped_by == signal.SIGTERM
    copy = recovery_path(path)
    assert app.kept == copy and app.not_kept is None
    assert path.read_text() == before  # the drill file is not touched
    assert _key(copy)["evidence"] == ["m003"] and not _key(copy).get("debrief")

    opened = open_for_annotation(path)
    recovered = recover(opened)
    assert recovered.draft is not None and recovered.draft.evidence == ["m003"]
    again = AnnotateApp(opened, clock=MockClock(), recovered=recovered)
    notes = record_notifications(again)
    async with again.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = again.screen
        assert screen.draft.evidence == ["m003"] and not screen.saved
        assert any(f"Unsaved marks recovered from {copy}" in n for n in notes)
        await pilot.press("q")  # unsaved: asks first
        assert isinstance(again.screen, ConfirmScreen)
        await pilot.press("n", "s")
        await pilot.pause()
        assert screen.saved and not copy.exists()  # saved into the file: the copy is not offered again
    assert _key(path)["evidence"] == ["m003"]


async def test_a_signal_with_every_mark_saved_writes_no_recovery_copy(tmp_path):
    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    app = AnnotateApp(open_for_annotation(path), clock=MockClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("E")
        await select(pilot, app.screen, "m003")
        await pilot.press("v", "s")
        await pilot.pause()
        app.terminate(None)  # the terminal was lost
        await pilot.pause()
    assert app.stopped and app.kept is None and app.not_kept is None
    assert not recovery_path(path).exists()


def test_a_recovery_copy_of_another_version_of_the_drill_is_not_loaded_and_kept(tmp_path):
    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    copy = recovery_path(path)
    copy.write_text(path.read_text().replace("m003", "m003x"))  # another trace
    recovered = recover(open_for_annotation(path))
    assert recovered.draft is None and "earlier version of this drill" in (recovered.message or "")
    assert copy.exists()
    copy.write_text("id: [")
    recovered = recover(open_for_annotation(path))
    assert recovered.draft is None and "cannot be read back" in (recovered.message or "") and copy.exists()
    copy.unlink()
    assert recover(open_for_annotation(path)).message is None


async def test_a_recovery_copy_that_cannot_be_written_says_why(tmp_path):
    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    recovery_path(path).mkdir()  # something in the way that no file can replace (as root too)
    app = AnnotateApp(open_for_annotation(path), clock=MockClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("E")
        await select(pilot, app.screen, "m003")
        await pilot.press("v")
        app.terminate(signal.SIGHUP)
        await pilot.pause()
    assert app.kept is None and "cannot write the recovery copy" in (app.not_kept or "")
    assert recovery_path(path).is_dir() and not list(path.parent.glob(".*.tmp"))


def _annotate_and_signal(path: Path, signum: int) -> tuple[int, str]:
    """Run ``warroom annotate path`` on a pty, mark the selected event as evidence (``E``, then ``v``), send
    ``signum``; returns the exit status and everything the process wrote."""
    with on_pty(["annotate", str(path)], rows=30, columns=100) as run:
        deadline = time.monotonic() + 15
        while "AUTHOR" not in run.text():  # the status bar: the author mode is open
            assert run.proc.poll() is None, run.text()
            assert time.monotonic() < deadline, "the author mode did not open"
            time.sleep(0.2)
        run.write(b"E")
        time.sleep(0.5)
        run.write(b"v")
        time.sleep(1.0)
        run.proc.send_signal(signum)
        status = run.wait_exit(10, "warroom annotate")
        time.sleep(0.3)
        return status, run.text()


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_warroom_annotate_keeps_unsaved_marks_on_a_signal(tmp_path, name):
    signum = getattr(signal, name, None)
    if signum is None:
        pytest.skip(f"no {name} on this platform")
    path = imported(tmp_path / "drills ünïcode", "chat", "chat/refund.json", "chat-refund.yaml")
    before = path.read_text()
    status, shown = _annotate_and_signal(path, signum)
    assert status == 0, shown
    assert path.read_text() == before
    copy = recovery_path(path)
    assert copy.exists(), shown
    assert len(_key(copy)["evidence"]) == 1
    if signum == signal.SIGTERM:  # after SIGHUP the terminal may be gone before the line is written
        assert f"stopped by SIGTERM; the unsaved marks are in {copy}" in " ".join(shown.split())
    recovered = recover(open_for_annotation(path))
    assert recovered.draft is not None and recovered.draft.evidence == _key(copy)["evidence"]
