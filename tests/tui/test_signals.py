"""Closing the terminal (SIGHUP) or ``kill`` (SIGTERM) mid-drill stores the session as abandoned at once.

These tests run ``warroom run`` as a real process on a pseudo-terminal, as a trainee would.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from warroom.core.model import ActionKind
from warroom.store.results import ResultsStore

from .conftest import advance, make_app

pty = pytest.importorskip("pty")
termios = pytest.importorskip("termios")
fcntl = pytest.importorskip("fcntl")

WARROOM = Path(sys.executable).with_name("warroom")


def _journals(data_dir: Path) -> list[Path]:
    jdir = data_dir / "journals"
    return sorted(jdir.glob("*.jsonl")) if jdir.is_dir() else []


def _play_and_signal(tmp_path: Path, signum: int) -> tuple[int, Path]:
    """Start ``warroom run duplicate-charge-refunds`` on a pty, enter the war room, let the drill clock run, then send
    ``signum``. Returns the exit status and the data directory."""
    import struct

    if not WARROOM.exists():
        pytest.skip(f"no warroom script beside {sys.executable}")
    try:
        master, slave = os.openpty()
    except OSError as exc:  # no pseudo-terminals here
        pytest.skip(f"no pty: {exc}")
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    data_dir = tmp_path / "data"
    env = {**os.environ, "TERM": "xterm-256color", "WARROOM_DATA_DIR": str(data_dir)}
    proc = subprocess.Popen(
        [str(WARROOM), "--data-dir", str(data_dir), "run", "duplicate-charge-refunds", "--speed", "4"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,  # the pty becomes its controlling terminal
        close_fds=True,
    )
    os.close(slave)
    stop = threading.Event()

    def drain() -> None:  # keep reading the screen so the app never blocks on a full pty
        while not stop.is_set():
            try:
                if not os.read(master, 65536):
                    return
            except OSError:
                return

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 8
        while not _journals(data_dir):  # the briefing: enter starts the drill (and its journal)
            assert proc.poll() is None, "warroom exited before the war room opened"
            assert time.monotonic() < deadline, "the war room did not open"
            os.write(master, b"\r")
            time.sleep(0.3)
        time.sleep(1.0)  # about 4 s of drill time
        proc.send_signal(signum)
        try:
            status = proc.wait(timeout=8)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            pytest.fail("warroom did not exit after the signal")
    finally:
        stop.set()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
        reader.join(timeout=2)
    return status, data_dir


def _assert_stored_as_abandoned(data_dir: Path) -> None:
    assert _journals(data_dir) == []  # nothing left for a recovery on the next start
    with ResultsStore(data_dir, create=False) as store:
        rows = store.query()
        assert [(r.drill_id, r.outcome) for r in rows] == [("duplicate-charge-refunds", "abandoned")]
        stored = store.get(rows[0].session_id)
    quit_action = stored.actions[-1]
    assert quit_action.kind is ActionKind.QUIT
    assert quit_action.t > 1  # the drill time when the signal came, not the last action's time (0 here)


def test_sigterm_mid_drill_stores_the_session_as_abandoned(tmp_path):
    status, data_dir = _play_and_signal(tmp_path, signal.SIGTERM)
    assert status == 0
    _assert_stored_as_abandoned(data_dir)


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no SIGHUP on this platform")
def test_sighup_mid_drill_stores_the_session_as_abandoned(tmp_path):
    status, data_dir = _play_and_signal(tmp_path, signal.SIGHUP)
    assert status == 0
    _assert_stored_as_abandoned(data_dir)


async def test_terminate_records_the_quit_at_the_current_drill_time(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        live = app.live
        await advance(pilot, 6)
        app.clock.set_time(app.clock.time + 1.5)  # real time passed since the last tick
        app.terminate(signal.SIGTERM)
        await pilot.pause()
        assert live.replay.actions[-1].kind is ActionKind.QUIT and live.replay.actions[-1].t == 7.5
    with ResultsStore(services.data_dir) as store:
        rows = store.query(trainee="tester")
        assert [r.outcome for r in rows] == ["abandoned"]
