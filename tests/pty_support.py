"""A ``warroom`` command as a real process on a pseudo-terminal, for the tests whose subject is the process
boundary (signals, leaving, what the terminal is told after the UI has gone)."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest

#: The ``warroom`` script of the interpreter running the tests.
WARROOM = os.path.join(os.path.dirname(sys.executable), "warroom")


@dataclass
class PtyProcess:
    """A running ``warroom`` on a pseudo-terminal: ``proc``, its terminal's ``master`` end, and everything it wrote
    so far (:meth:`text`), read by a thread."""

    proc: subprocess.Popen[bytes]
    master: int
    out: list[bytes] = field(default_factory=list)

    def write(self, keys: bytes) -> None:
        """Type ``keys`` on the terminal."""
        os.write(self.master, keys)

    def text(self) -> str:
        """Everything the process wrote to the terminal so far."""
        return b"".join(self.out).decode(errors="replace")

    def wait_exit(self, timeout: float, what: str) -> int:
        """The exit status, waiting up to ``timeout`` seconds; the test fails (``what`` did not exit) after that."""
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            pytest.fail(f"{what} did not exit")


@contextmanager
def on_pty(args: Sequence[str], rows: int = 24, columns: int = 80) -> Iterator[PtyProcess]:
    """Run ``warroom ARGS`` on a new pseudo-terminal of ``rows`` x ``columns`` (TERM=xterm-256color, its own
    session); the test is skipped where there is no pty or no ``warroom`` script. On leaving, the process is
    killed if still running and the terminal closed."""
    fcntl = pytest.importorskip("fcntl")
    termios = pytest.importorskip("termios")
    if not os.path.exists(WARROOM):
        pytest.skip(f"no warroom script beside {sys.executable}")
    try:
        master, slave = os.openpty()
    except OSError as exc:
        pytest.skip(f"no pty: {exc}")
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    proc = subprocess.Popen([WARROOM, *args], stdin=slave, stdout=slave, stderr=slave,
                            env={**os.environ, "TERM": "xterm-256color"}, start_new_session=True, close_fds=True)
    os.close(slave)
    running = PtyProcess(proc, master)
    stop = threading.Event()

    def drain() -> None:
        while not stop.is_set():
            try:
                chunk = os.read(master, 65536)
            except OSError:
                return
            if not chunk:
                return
            running.out.append(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        yield running
    finally:
        stop.set()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
        reader.join(timeout=2)
