"""Leaving promptly when the terminal goes away: a closed window, a killed tmux pane, SIGHUP or SIGTERM.

Textual writes the screen from a writer thread through a bounded queue. When the terminal is gone, the thread's
write raises (``EIO`` on a hung-up pty, ``EPIPE``, ``UnicodeEncodeError`` in a locale whose encoding cannot spell a
box-drawing character), the thread dies, the queue fills, and the app's next screen update blocks the event loop for
ever: SIGHUP and SIGTERM handlers that run on the loop never run, and the process outlives its terminal.

This module closes that hole in three layers:

- :class:`GuardedOutput` wraps the terminal output the driver writes to: a failed write marks the terminal lost,
  discards all further output (so the writer thread lives and the queue drains) and reports the loss once; text the
  output encoding cannot spell is written with replacement characters instead of killing the thread.
- :meth:`ExitGuard.watch_hangup` polls the terminal input for a hang-up, so a lost terminal is noticed even while
  the app writes nothing (a paused drill) and no SIGHUP comes.
- :class:`ExitGuard` turns SIGHUP, SIGTERM and a lost terminal into a request to the app (stop, store the drill
  being played as abandoned, exit), made from a plain ``signal.signal`` handler (which runs even while the main
  thread waits on a lock) and handed to the event loop with ``call_soon_threadsafe``.
- The same request arms a watchdog thread: if the process is still alive :data:`EXIT_GRACE` seconds later, it ends
  it with ``os._exit``. A drill whose result could not be stored by then keeps its journal, and the next start
  recovers it as abandoned, so nothing is lost.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import IO, Any

from warroom.errors import WarroomError
from warroom.tui.render import ASCII_TABLE, locale_is_utf8


class NoTerminal(WarroomError):
    """The terminal UI was started where its standard input or output is not a terminal."""


def require_terminal() -> None:
    """Raise :class:`NoTerminal` unless the streams Textual's terminal driver uses are terminals: it reads keys from
    standard input and draws on standard error (``sys.__stderr__``; standard output may be redirected). Without them
    the app drew into a pipe and waited for keys that never came, for ever."""
    missing = [name for name, stream in (("input", sys.__stdin__), ("error", sys.__stderr__))
               if stream is None or not stream.isatty()]
    if missing:
        raise NoTerminal(
            f"the terminal UI needs a terminal, and its standard {' and '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} not one (a pipe, a file or /dev/null; it reads keys from "
            "standard input and draws on standard error): run this command in a terminal window (or tmux), or "
            "serve it to browsers with `warroom serve`; `warroom scores` and `warroom report` give results as text"
        )


#: Seconds between SIGHUP / SIGTERM / a lost terminal and the watchdog ending the process if it has not exited.
EXIT_GRACE = 0.9


class GuardedOutput:
    """A text stream over ``stream`` (the terminal) whose writes never raise and never kill the writer thread.

    Args:
        stream: the terminal output (a text file with ``write``, ``flush``, ``fileno``).
        on_lost: called once, from the thread that wrote, when a write or flush fails with ``OSError`` or
            ``ValueError`` (a closed file): the terminal is gone. Afterwards output is discarded.
        ascii_only: write every non-ASCII character as ASCII of the same width (box lines as ``-`` ``|`` ``+``,
            ``✓`` as ``v``, others as ``?``), for a terminal in a locale that is not UTF-8.
    """

    def __init__(self, stream: IO[str], on_lost: Callable[[], None], ascii_only: bool = False) -> None:
        self._stream = stream
        self._on_lost = on_lost
        self.ascii_only = ascii_only
        self.lost = False
        self.encoding = getattr(stream, "encoding", None) or "utf-8"

    def _lose(self) -> None:
        if not self.lost:
            self.lost = True
            self._on_lost()

    def write(self, text: str) -> int:
        """Write ``text`` (characters the encoding lacks become ``?``); returns ``len(text)`` even when discarded."""
        if self.lost:
            return len(text)
        out = text.translate(ASCII_TABLE) if self.ascii_only and not text.isascii() else text
        try:
            try:
                self._stream.write(out)
            except UnicodeEncodeError:
                self._stream.write(out.encode(self.encoding, "replace").decode(self.encoding, "replace"))
        except (OSError, ValueError):
            self._lose()
        return len(text)

    def flush(self) -> None:
        """Flush the terminal; a failure marks it lost."""
        if self.lost:
            return
        try:
            self._stream.flush()
        except (OSError, ValueError):
            self._lose()

    def fileno(self) -> int:
        return self._stream.fileno()

    def isatty(self) -> bool:
        return not self.lost and self._stream.isatty()


class ExitGuard:
    """Requests a prompt, clean exit of an app on SIGHUP, SIGTERM or a lost terminal, with a watchdog behind it.

    Args:
        request: called on the event loop (once per reason) with the signal number, or None for a lost terminal; it
            should store what must be stored and exit the app.
        grace: seconds the watchdog allows from the first request until it ends the process (``os._exit`` with
            128 + the signal number, or 1 for a lost terminal; 0 once :meth:`settled` was called).
    """

    def __init__(self, request: Callable[[int | None], Any], grace: float = EXIT_GRACE) -> None:
        self._request = request
        self.grace = grace
        self._loop: asyncio.AbstractEventLoop | None = None
        self._watchdog: threading.Thread | None = None
        self._lock = threading.Lock()
        self._settled = False

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        """Handle SIGHUP and SIGTERM from now on (main thread only; a no-op elsewhere and for signals the platform
        lacks). ``loop`` is the app's running event loop."""
        self._loop = loop
        for name in ("SIGTERM", "SIGHUP"):
            signum = getattr(signal, name, None)
            if signum is None:
                continue
            try:
                signal.signal(signum, self._on_signal)
            except (ValueError, OSError):  # not the main thread
                pass

    def start(self, app: Any) -> None:
        """From ``app``'s ``on_mount``: handle the signals (:meth:`install`) and watch its input for a hang-up
        (:meth:`watch_hangup`): a terminal's (not headless), or a served app's (:attr:`~textual.app.App.is_web`)
        pipe from ``warroom serve``, which hangs up when the server is gone (killed outright: no quit, no signal
        came), else the process lived on for ever, holding its drill's journal, which no later start could recover."""
        self.install(asyncio.get_running_loop())
        stdin = sys.__stdin__
        if stdin is not None and (app.is_web or (stdin.isatty() and not app.is_headless)):
            self.watch_hangup(stdin.fileno())

    def watch_hangup(self, fd: int) -> None:
        """Watch the terminal ``fd`` (the app's input) in a daemon thread and report it lost when it hangs up
        (``POLLHUP``: the terminal closed), even while the app writes nothing (a paused drill) and no SIGHUP comes
        (a process that is not the terminal's session leader). A no-op where ``poll`` is missing."""
        import select

        if not hasattr(select, "poll"):
            return

        def watch() -> None:
            poller = select.poll()
            poller.register(fd, 0)  # hang-up and errors are always reported; input is left to the app
            while True:
                try:
                    events = poller.poll(500)
                except (OSError, ValueError):
                    return
                if any(mask & (select.POLLHUP | select.POLLERR | select.POLLNVAL) for _, mask in events):
                    self.terminal_lost()
                    return

        threading.Thread(target=watch, name="warroom-hangup-watch", daemon=True).start()

    def _on_signal(self, signum: int, _frame: Any) -> None:
        self.trigger(signum)

    def terminal_lost(self) -> None:
        """The terminal is gone (its output failed): request the exit (safe from any thread)."""
        self.trigger(None)

    def trigger(self, signum: int | None) -> None:
        """Arm the watchdog (once) and ask the event loop to run the request (safe from any thread or a signal
        handler)."""
        self._arm(128 + signum if signum is not None else 1)
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._request, signum)
            except RuntimeError:  # the loop closed meanwhile: the app is on its way out
                pass

    def _arm(self, code: int) -> None:
        with self._lock:
            if self._watchdog is not None:
                return
            self._watchdog = threading.Thread(
                target=self._expire, args=(code,), name="warroom-exit-watchdog", daemon=True
            )
            self._watchdog.start()

    def settled(self) -> None:
        """Say that what had to be stored is stored: if the watchdog must still end the process (Textual's teardown
        outlasting the grace period), it exits with status 0, as a clean exit would have."""
        self._settled = True

    def _expire(self, code: int) -> None:
        threading.Event().wait(self.grace)
        os._exit(0 if self._settled else code)


def guard_app(app: Any) -> ExitGuard:
    """An :class:`ExitGuard` whose requests go to ``app.terminate``, the app's terminal driver made to write through
    it (:func:`guarded_driver_class`); the app starts it from ``on_mount`` (:meth:`ExitGuard.start`)."""
    guard = ExitGuard(app.terminate)
    driver = guarded_driver_class(app, guard)
    if driver is not None:
        app.driver_class = driver
    return guard


def guarded_driver_class(app: Any, guard: ExitGuard) -> type | None:
    """A subclass of the app's terminal driver whose output is a :class:`GuardedOutput` reporting to ``guard`` (ASCII
    only when the locale is not UTF-8, see :func:`locale_is_utf8`) and whose input reads through bytes that are not
    UTF-8 (:func:`tolerant_driver_class`), or None when the app does not use Textual's Linux driver (Windows,
    headless tests)."""
    base = tolerant_driver_class(app)
    if base is None:
        return None
    ascii_only = not locale_is_utf8(os.environ)

    class GuardedDriver(base):  # type: ignore[misc, valid-type]
        # LinuxDriver's output file (``sys.__stderr__``), replaced below by a GuardedOutput over it; the base class
        # is a run-time value here, so mypy cannot see the attribute's type
        _file: Any

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            # The one place the driver's output file is chosen; the writer thread takes it at application start.
            self._file = GuardedOutput(self._file, guard.terminal_lost, ascii_only=ascii_only)

    return GuardedDriver


def tolerant_driver_class(app: Any) -> type | None:
    """A subclass of the app's terminal driver that reads the terminal's input through bytes that are not UTF-8, or
    None when the app does not use Textual's Linux driver (Windows, headless tests)."""
    from textual.drivers.linux_driver import LinuxDriver

    base = app.driver_class
    if not (isinstance(base, type) and issubclass(base, LinuxDriver)):
        return None

    class TolerantDriver(base):  # type: ignore[misc, valid-type]
        def run_input_thread(self) -> None:
            """Read the terminal's input as Textual does, through input that is not UTF-8 (a terminal set to
            Latin-1, Alt sending 8-bit bytes, a paste of binary): Textual's strict decoder raised on it, and the app
            ended with a traceback (a drill being played left to its journal). The bytes read with it are dropped,
            the trainee is told once, and reading goes on with a fresh decoder."""
            told = False
            while True:
                try:
                    super().run_input_thread()
                    return
                except UnicodeDecodeError:
                    if not told:
                        told = True
                        app.call_from_thread(app.notify, NOT_UTF8, severity="warning", timeout=10)

    return TolerantDriver


#: What the trainee is told when their terminal sent input that is not UTF-8 (dropped).
NOT_UTF8 = ("The terminal sent input that is not UTF-8 text, which was ignored: set the terminal's character set to "
            "UTF-8 (and Alt to send Esc).")
