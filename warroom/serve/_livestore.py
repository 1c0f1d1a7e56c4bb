"""The live table's connection, held in a child process (:class:`LiveStore`).

SQLite memory-maps a WAL database's index (its ``-shm`` file) into each process that opens it, and a write into that
map faults once the file cannot be written under it (the data folder made immutable, ``chattr -R +i``): the kernel
ends the process with SIGBUS, which no Python code can catch. A served room's host keeps the live table's connection
open for as long as it serves, and it read or wrote the table every half second, so the whole host died, every tab
with it. The other ways round cost the other readers of the store: ``locking_mode=EXCLUSIVE`` (the index in the
process's own memory) locks every trainee's app process out of the store while the host runs, the ``unix-none``
VFS drops the locks that keep concurrent writers apart, and a journal mode other than WAL is the whole database's,
not one table's. So the connection lives in a child process that does nothing else: a fault ends the child, and the
host raises :class:`~warroom.store.errors.StoreError` saying so (the console then shows the live table unavailable
and this host's own tabs), serves on, and starts a new child at the next call.
"""

from __future__ import annotations

import contextlib
import signal
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

#: Seconds the host waits for a child that was asked to stop before killing it.
STOP_WAIT_S = 5.0
#: Seconds the host waits for the answer to one call before it kills the child as hung (stopped, deadlocked): more
#: than a call of a working store takes (a PostgreSQL connection's 10 s and a statement's 30 s at most).
CALL_WAIT_S = 60.0
#: The same for a new child's first call, which starts an interpreter and opens the store, which may migrate it
#: (waiting up to 5 minutes for another process's migration): a child hung while it starts (a server that accepts
#: the connection and never answers) held the host's one live-table thread, and every tab's claim, for ever.
FIRST_CALL_WAIT_S = 600.0
#: Most seconds between two children while each ends or hangs in turn: the first new child starts at the next call,
#: each next one after twice as long (1, 2, 4, ... s). A fault that stays (a data folder left immutable) started an
#: interpreter, which imported the store and faulted, every half second: most of a core for as long as it stayed.
RESTART_MAX_S = 30.0


#: The child's program: a fresh interpreter (no fork of the host's threads, no import of its ``__main__``), given
#: the descriptor of its end of a socket pair and the folder the host's own warroom was imported from, last on its
#: path (a source checkout run with ``python -m``); ``-P``: never the working folder, where a ``warroom.py`` or
#: ``sqlite3.py`` would be imported instead. The store's location comes over the socket (a URL's password never on
#: a command line).
_CHILD = ("import sys; sys.path.append(sys.argv[2]); from warroom.serve._livestore import serve_calls; "
          "serve_calls(int(sys.argv[1]))")  # fmt: skip


def serve_calls(fd: int) -> None:
    """The child: read the store's ``(data_dir, url)``, then run each ``(name, args, kwargs)`` received, a function
    of :mod:`warroom.store.live` called with the store first, and send back ``(True, value)`` or ``(False, why)``;
    a store that failed is closed and opened again at the next call. Ends when the host closes its end (or ends)."""
    # A Ctrl-C in the terminal, and a SIGTERM or SIGHUP to the server's whole process group (systemctl stop, timeout,
    # a terminal closed), are the host's to handle: its last call deletes its rows from the live table, then it closes
    # its end, which ends this child (as the host's death does)
    for sent in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sent, signal.SIG_IGN)
    from warroom.store import live
    from warroom.store.results import ResultsStore

    conn = Connection(fd)
    try:
        data_dir, url = conn.recv()
    except (EOFError, OSError):
        return
    store: Any = None
    while True:
        try:
            name, args, kwargs = conn.recv()
        except (EOFError, OSError):
            break
        try:
            if store is None:
                store = ResultsStore(data_dir, url=url)
            reply: tuple[bool, Any] = (True, getattr(live, name)(store, *args, **kwargs))
        except Exception as exc:  # StoreError, or the driver's own: the host says why
            _closed(store)
            store = None
            reply = (False, str(exc) or type(exc).__name__)
        conn.send(reply)
    _closed(store)


def _closed(store: Any) -> None:
    """Close ``store`` if open; one already broken (the fault that ended a call) may fail to: nothing more to do."""
    if store is not None:
        with contextlib.suppress(Exception):
            store.close()


def _bound(conn: Connection, seconds: float) -> None:
    """Make each write and read of ``conn``'s socket wait at most ``seconds`` (then it raises
    :class:`BlockingIOError`): :meth:`LiveStore.call` waited for the start of an answer only, then read the rest, and
    wrote a call, with no bound, so a child stopped in the middle of a long answer (the live table of a large class is
    megabytes), or one reading no more while the host wrote a call larger than the socket's buffer, held the host's
    live-table thread, every tab's claim and the server's stop, for ever."""
    whole = int(seconds)
    timeval = struct.pack("ll", whole, int((seconds - whole) * 1_000_000))
    with socket.fromfd(conn.fileno(), socket.AF_UNIX, socket.SOCK_STREAM) as same:  # the same socket, another fd
        same.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, timeval)
        same.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, timeval)


def _package_root() -> str:
    """The folder holding the host's ``warroom`` package."""
    import warroom

    return str(Path(warroom.__file__).resolve().parents[1])


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:  # a real-time signal
        return f"signal {number}"


#: When a new child starts, as the messages say it.
_AGAIN = f"the server tries again at once, then less and less often while it fails (at least every {RESTART_MAX_S:g} s)"


class LiveStore:
    """Calls of :mod:`warroom.store.live`'s functions on the store of ``data_dir`` (or ``url``), run in a child
    process that holds the connection (see the module docstring). Used from one thread at a time."""

    def __init__(self, data_dir: Path, url: str | None = None) -> None:
        self.data_dir = data_dir
        self.url = url
        self._process: Any = None
        self._conn: Connection | None = None
        #: True once the child answered a call (it runs, and opened the store once).
        self._answered = False
        #: True while the child holds the store open: its last call succeeded (a call that failed closed the store,
        #: and a child that ended or hung took it with it; the next call opens it again).
        self.store_open = False
        #: How many children ended or hung in a row, when the next may start (``time.monotonic``) and why the last
        #: one ended.
        self._ends, self._retry_at, self._why = 0, 0.0, ""

    @property
    def pid(self) -> int | None:
        """The child's process id (None: no child runs now)."""
        return None if self._process is None else self._process.pid

    def call(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``function(store, *args, **kwargs)`` in the child: a function of :mod:`warroom.store.live`, sent by its
        name. Raises :class:`~warroom.store.errors.StoreError` when it failed, or when the child ended (a fault)."""
        from warroom.store.errors import StoreError

        name = function.__name__

        if self._conn is None:
            if (wait := self._retry_at - time.monotonic()) > 0:
                raise StoreError(f"{self._why} (the next try in {wait:.0f} s)")
            self._start()
        assert self._conn is not None
        wait = CALL_WAIT_S if self._answered else FIRST_CALL_WAIT_S
        try:
            _bound(self._conn, wait)
            self._conn.send((name, args, kwargs))
            if not self._conn.poll(wait):
                raise StoreError(self._gave_up(self._hung(wait)))
            ok, value = self._conn.recv()
        except BlockingIOError:  # a write or read waited past its bound (:func:`_bound`): the child stopped reading,
            raise StoreError(self._gave_up(self._hung(wait))) from None  # or stopped in the middle of its answer
        except (EOFError, OSError):
            raise StoreError(self._gave_up(self._ended())) from None
        self._answered, self._ends, self.store_open = True, 0, ok
        if not ok:
            raise StoreError(value)
        return value

    def _start(self) -> None:
        here, child = socket.socketpair()
        with child:
            self._process = subprocess.Popen(
                [sys.executable, "-P", "-c", _CHILD, str(child.fileno()), _package_root()], pass_fds=(child.fileno(),),
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, process_group=0,
            )  # fmt: skip: a process group of its own, so a Ctrl-C or a group's SIGTERM never reaches it as it starts
        self._conn = Connection(here.detach())
        self._conn.send((self.data_dir, self.url))

    def _gave_up(self, why: str) -> str:
        """``why`` the child ended or hung, kept to say until the next may start (:data:`RESTART_MAX_S`)."""
        self._ends += 1
        delay = 0.0 if self._ends == 1 else min(RESTART_MAX_S, 2.0 ** (self._ends - 2))
        self._retry_at, self._why = time.monotonic() + delay, why
        return why

    def _ended(self) -> str:
        """Why the child ended (it is reaped and forgotten: the next call starts another)."""
        process = self._process
        self.close()
        code = process.returncode if process is not None else None
        unavailable = "the live table is unavailable and the console shows this host's tabs"
        if code is None or code >= 0:
            return (f"the live table's connection ended (exit status {code}; why is in the server's output before "
                    f"this line): {unavailable}; {_AGAIN}")  # fmt: skip
        how = f"killed by {_signal_name(-code)}"
        if -code != signal.SIGBUS or self.url is not None:
            return f"the live table's connection ended ({how}): {unavailable}; {_AGAIN}"
        return (
            f"the live table's connection ended ({how}): the store's files may have become read-only or "
            f"immutable under the server (a SIGBUS is SQLite's shared memory of a file that can no longer be "
            f"written); {unavailable}; sessions are still journalled wherever the data folder can be written. Make "
            f"{self.data_dir} writable again: {_AGAIN}"
        )

    def _hung(self, wait: float) -> str:
        """The child did not answer within ``wait`` seconds: it is killed and forgotten (the next call starts
        another)."""
        if self._process is not None:
            self._process.kill()
        self.close()
        return (
            f"the live table's connection did not answer within {wait:g} s (its process was stopped or hung, "
            f"and was ended); the live table is unavailable and the console shows this host's tabs; {_AGAIN}: if this "
            "repeats, see whether the store's server or disk answers"
        )

    def close(self) -> None:
        """End the child (its connection closed), waiting at most :data:`STOP_WAIT_S` before killing it."""
        conn, process = self._conn, self._process
        self._conn = self._process = None
        self._answered = self.store_open = False
        if conn is not None:
            conn.close()
        if process is not None:
            try:
                process.wait(STOP_WAIT_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
