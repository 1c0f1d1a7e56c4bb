"""A sixth fresh hostile campaign on the terminal UI (issue 30): each case a hostile trainee or a faulty terminal
found, with the right behaviour."""

from __future__ import annotations

import os
import select
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

from warroom.store.results import ResultsStore
from warroom.tui.app._terminal import NOT_UTF8

pty = pytest.importorskip("pty")
termios = pytest.importorskip("termios")
fcntl = pytest.importorskip("fcntl")

WARROOM = Path(sys.executable).with_name("warroom")


def _read(master: int, seconds: float, into: bytearray) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([master], [], [], 0.05)
        if ready:
            try:
                into += os.read(master, 65536)
            except OSError:
                return


def _until(master: int, out: bytearray, wanted: bytes, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while wanted not in out and time.monotonic() < end:
        _read(master, 0.2, out)
    assert wanted in out, out[-3000:].decode(errors="replace")


@pytest.mark.parametrize("noise", [b"\xe9", b"\xff\xfe", b"\xc3\x28", b"\xed\xa0\x80"])
def test_input_that_is_not_utf8_is_ignored_and_the_drill_plays_on(tmp_path, noise: bytes):
    """A terminal set to Latin-1 (``é`` sent as one byte 0xE9), Alt sending 8-bit bytes, or a paste of binary:
    Textual's strict UTF-8 decoder raised in its input thread and the app ended with a traceback (exit status 0), the
    drill being played left to its journal. The bytes are ignored, the trainee is told once, and the keys after them
    work: here q and y quit the drill, stored as abandoned."""
    if not WARROOM.exists():
        pytest.skip(f"no warroom script beside {sys.executable}")
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 140, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color"}
    data = tmp_path / "data"
    proc = subprocess.Popen([str(WARROOM), "--data-dir", str(data), "run", "duplicate-charge-refunds"], stdin=slave,
                            stdout=slave, stderr=slave, env=env, start_new_session=True, close_fds=True)  # fmt: skip
    os.close(slave)
    out = bytearray()
    try:
        deadline = time.monotonic() + 30
        while not (data / "journals").is_dir() or not list((data / "journals").glob("*.jsonl")):
            assert proc.poll() is None and time.monotonic() < deadline, out[-2000:]
            os.write(master, b"\r")  # the briefing: enter starts the drill
            _read(master, 0.5, out)
        os.write(master, noise + b"abc")
        _until(master, out, b"not UTF-8 text")
        assert proc.poll() is None, out[-3000:].decode(errors="replace")
        os.write(master, b"q")
        _until(master, out, b"Quit this drill?")
        os.write(master, b"y")
        deadline = time.monotonic() + 30
        while proc.poll() is None and time.monotonic() < deadline:  # reading the screen: a full pty blocks the app
            _read(master, 0.2, out)
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
    text = out.decode(errors="replace")
    assert "UnicodeDecodeError" not in text and "Traceback" not in text
    assert proc.returncode == 0
    assert text.count("not UTF-8 text") >= 1 and NOT_UTF8.startswith("The terminal sent input that is not UTF-8")
    with ResultsStore(data, create=False) as store:
        assert [r.outcome for r in store.query()] == ["abandoned"]


def test_input_that_is_not_utf8_never_ends_warroom_review(tmp_path):
    """The same in ``warroom review``'s own app."""
    from handcohort_support import Play, play

    if not WARROOM.exists():
        pytest.skip(f"no warroom script beside {sys.executable}")
    data = tmp_path / "data"
    session_id = play(data, Play("tester", "A", (("esc", 12, "s1", ("e06",)),)))
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 140, 0, 0))
    proc = subprocess.Popen([str(WARROOM), "--data-dir", str(data), "review", session_id], stdin=slave, stdout=slave,
                            stderr=slave, env={**os.environ, "TERM": "xterm-256color"}, start_new_session=True,
                            close_fds=True)  # fmt: skip
    os.close(slave)
    out = bytearray()
    try:
        _until(master, out, b"review")
        os.write(master, b"\xe9jk")
        _until(master, out, b"not UTF-8 text")
        os.write(master, b"q")
        deadline = time.monotonic() + 30
        while proc.poll() is None and time.monotonic() < deadline:
            _read(master, 0.2, out)
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
    text = out.decode(errors="replace")
    assert "UnicodeDecodeError" not in text and "not UTF-8 text" in text
    assert proc.returncode == 0
