"""What a serve host knows of its class as it happens, written to the store's live table for the console of every
host (:mod:`warroom.store.live`).

The server tells :class:`LiveClass` of sign-ins and of each browser tab that opens and closes. What a tab does in
its war room is read from the session journals its app process writes (``DATA_DIR/journals/ID.jsonl``, whose start
line names the tab: :data:`warroom.store.journal.SERVE_TAB_ENV`): the drill, mode and set from the start line, the
drill clock, pauses, speed and the last action from the action lines, the outcome and score from the end line (read
from ``journals/done/`` once the session is stored). Nothing is asked of the app processes and nothing in them
changes: the journal is written before the war room moves on, so what the console shows is what is recorded.

Every :data:`TICK` seconds a worker thread reads what was appended to the journals, writes the rows that changed
(and at least every :data:`HEARTBEAT` seconds a heartbeat of all this host's rows) to the store, and reads the whole
live table back for the console (:attr:`LiveClass.snapshot`): every host's rows, so several hosts in front of one
PostgreSQL database show one class. When the store cannot be reached the console shows this host's own rows and says
so; nothing is lost, the next tick writes again.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from warroom.console import parse_utc
from warroom.core.files import record_json
from warroom.serve._livestore import LiveStore
from warroom.store.live import (
    DISCONNECTED,
    FINISHED,
    OPEN_STATES,
    PICKER,
    PLAYING,
    SIGNED_IN,
    TAKEN_OVER,
    LiveTab,
    claim_tab,
    forget_host,
    publish_live,
    read_live,
    take_over_tabs,
)

log = logging.getLogger("warroom.serve")

#: Seconds between two reads of the journals and writes of the live table.
TICK = 0.5
#: Seconds between two heartbeats of this host's rows when nothing changed.
HEARTBEAT = 2.0
#: A tab gone (disconnected) stays in the live table this long, in seconds, then its row is dropped.
KEEP_GONE = 30 * 60
#: Lines of one trainee's tabs gone (disconnected) this host keeps, the latest: a trainee opening and closing tabs
#: again and again (a reload held down, a script) added a line each time, kept :data:`KEEP_GONE`, to every console.
GONE_PER_TRAINEE = 3
#: Seconds a heartbeat of another host's rows counts as fresh: its tabs count against a trainee's tab limit
#: (``--tabs-per-trainee``) on this host (the console shows the rows of a host silent longer as "host lost").
OTHER_HOST_FRESH = 10.0
#: Rows of a host whose heartbeat is older than this (seconds) are dropped by any host (a host gone for good).
FORGET_HOSTS = 24 * 3600


def utc(at: datetime | None = None) -> str:
    """A wall-clock time as the store writes it (ISO 8601 UTC, microseconds)."""
    return (at or datetime.now(UTC)).isoformat(timespec="microseconds").replace("+00:00", "Z")


#: The address ``warroom serve`` listens on unless given ``--host``.
DEFAULT_ADDRESS = "127.0.0.1"


def host_id(port: int, address: str = DEFAULT_ADDRESS) -> str:
    """This server's name in the live table: its host name and port, and a random part (a new one each run), with the
    address it listens on when that is not :data:`DEFAULT_ADDRESS` (``lab[::1]:8000#a1b2c3``). Everything before the
    ``#`` names the listening socket, which no other server can hold while this one runs: a server starting under
    the same name deletes the earlier runs' rows (killed ones). Two servers of one machine on one port but on two
    addresses (``127.0.0.1`` and ``::1``, or a LAN address) were both ``lab:8000``, and each deleted the other's."""
    where = "" if address == DEFAULT_ADDRESS else f"[{address}]"
    return f"{socket.gethostname()}{where}:{port}#{secrets.token_hex(3)}"


@dataclass
class _Journal:
    """A journal being followed: its file name, how far it was read, and the tab it belongs to."""

    name: str
    tab: str
    offset: int = 0
    ended: bool = False
    partial: bytes = b""


@dataclass
class LiveClass:
    """The live tabs of this host and the live table of the whole class (see the module docstring).

    ``data_dir`` holds the journals; ``store_url`` the store (None: the data directory's SQLite file); ``host`` this
    host's name in the live table."""

    host: str
    data_dir: Path
    store_url: str | None = None
    rows: dict[str, LiveTab] = field(default_factory=dict)
    #: The live table as last read (every host's rows), when, and why it could not be read (None: it was).
    snapshot: list[LiveTab] = field(default_factory=list)
    snapshot_at: str = ""
    problem: str | None = None
    #: Bumped each time :attr:`snapshot` changes (the console's live page waits on it).
    version: int = 0
    #: The sign-ins of trainees without a tab yet (sign-in id -> trainee): one line of the live class per trainee.
    _waiting: dict[str, str] = field(default_factory=dict)
    _journals: dict[str, _Journal] = field(default_factory=dict)
    _ignored: set[str] = field(default_factory=set)
    _published: dict[str, LiveTab] = field(default_factory=dict)
    _beat_at: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _store: LiveStore | None = None
    _executor: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(1, "warroom-live"))
    _task: asyncio.Task[None] | None = None
    changed: asyncio.Event | None = None
    #: Called on the event loop with each tab of this host that a tab of another host took over (the live table
    #: says :data:`~warroom.store.live.TAKEN_OVER`): the server ends it.
    on_taken_over: Callable[[str], None] | None = None
    _taken_over: set[str] = field(default_factory=set)

    # --- what the server tells (on the event loop) ---------------------------------------------------------------

    def signin_changed(self, key: str, record: Any) -> None:
        """A sign-in began (``record``: its :class:`~warroom.serve._signin.SignIn`) or ended (None); only trainees'
        sign-ins are shown (a facilitator is not part of the class)."""
        if record is None:
            self.signed_out(key)
        elif record.role == "trainee":
            self.signed_in(key, record.name)

    def signed_in(self, key: str, trainee: str) -> None:
        """A trainee's browser signed in (``key``: the sign-in's id)."""
        with self._lock:
            self._waiting[key] = trainee
            self._show_waiting(trainee)

    def signed_out(self, key: str) -> None:
        """A sign-in ended (expired, signed out, removed from the roster)."""
        with self._lock:
            self._stop_waiting(key)

    def tab_opened(self, tab: str, trainee: str, signin: str | None) -> None:
        """A browser tab opened its war room (its app process runs as ``trainee``)."""
        now = utc()
        with self._lock:
            if signin is not None:
                self._stop_waiting(signin)
            self.rows[tab] = LiveTab(self.host, tab, trainee, PICKER, now, now)

    def _stop_waiting(self, key: str) -> None:
        """Sign-in ``key`` no longer waits without a tab: its line goes, unless another sign-in of its trainee
        still waits (that one's line is then shown). Called holding the lock."""
        trainee = self._waiting.pop(key, None)
        self.rows.pop(_signin_tab(key), None)
        if trainee is not None:
            self._show_waiting(trainee)

    def _show_waiting(self, trainee: str) -> None:
        """One **signed in** line for ``trainee`` while a sign-in of theirs waits without a tab, however many do (a
        trainee signing in again and again without the cookie added a line each time, kept 12 hours, to every
        console's live class). Called holding the lock."""
        waiting = [key for key, name in self._waiting.items() if name == trainee]
        if waiting and not any(_signin_tab(key) in self.rows for key in waiting):
            now, tab = utc(), _signin_tab(waiting[-1])
            self.rows[tab] = LiveTab(self.host, tab, trainee, SIGNED_IN, now, now)

    def tab_closed(self, tab: str) -> None:
        """A browser tab is gone (closed, its connection lost, or its app process ended)."""
        with self._lock:
            row = self.rows.get(tab)
            if row is not None:
                self.rows[tab] = replace(row, state=DISCONNECTED, ended_at=row.ended_at or utc())
                gone = sorted((r.ended_at or "", t) for t, r in self.rows.items()
                              if r.trainee == row.trainee and r.state == DISCONNECTED)  # fmt: skip
                for _, old in gone[:-GONE_PER_TRAINEE]:  # the trainee's oldest lines past GONE_PER_TRAINEE
                    self._forget_tab(old)

    async def claim(self, tab: str, trainee: str, signin: str | None, limit: int) -> bool:
        """:meth:`tab_opened` unless ``trainee`` already has ``limit`` open tabs on this host and the others: the
        count and the row's write are one step of the store (:func:`~warroom.store.live.claim_tab`), so two tabs
        opened at once on two hosts cannot both play. Runs in the worker thread, after any tick or claim of this
        host (whose open tabs it counts from :attr:`rows`). False: refused. When the store cannot be written, the
        tabs counted are this host's and those of the table last read."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self._claim, tab, trainee, signin, limit)

    def _claim(self, tab: str, trainee: str, signin: str | None, limit: int) -> bool:
        now = datetime.now(UTC)
        row = LiveTab(self.host, tab, trainee, PICKER, utc(now), utc(now))
        with self._lock:
            own = sum(1 for r in self.rows.values() if r.trainee == trainee and r.state in OPEN_STATES)
        try:
            claimed = self._open().call(claim_tab, row, limit, utc(now - timedelta(seconds=OTHER_HOST_FRESH)), own)
        except Exception as exc:  # StoreError, or the driver's own: this host's count, and the table last read
            log.warning("the live table cannot be written (the tab limit counts the tabs last read): %s", exc)
            claimed = own + len(self.tabs_elsewhere(trainee, now)) < limit
        if claimed:
            self.tab_opened(tab, trainee, signin)
        return claimed

    async def take_over(self, trainee: str) -> int:
        """Mark the open tabs of ``trainee`` on other hosts taken over (each host ends its own when it next reads
        the live table, within about :data:`TICK` seconds) and read the table again; returns how many were marked
        (0 also when the store cannot be written: said in the log)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self._take_over, trainee)

    def _take_over(self, trainee: str) -> int:
        fresh = utc(datetime.now(UTC) - timedelta(seconds=OTHER_HOST_FRESH))
        try:
            store = self._open()
            marked = store.call(take_over_tabs, trainee, self.host, fresh)
            self.snapshot = store.call(read_live)
        except Exception as exc:
            log.warning("the tabs of %r on other hosts could not be taken over: %s", trainee, exc)
            return 0
        return len(marked)

    def taken_over(self) -> list[str]:
        """This host's tabs that the live table last read says another host took over, each returned once."""
        with self._lock:
            open_here = {tab for tab, row in self.rows.items() if row.state != DISCONNECTED}
        found = [row.tab for row in self.snapshot if row.host == self.host and row.state == TAKEN_OVER
                 and row.tab in open_here and row.tab not in self._taken_over]  # fmt: skip
        self._taken_over.update(found)
        return found

    # --- the worker -----------------------------------------------------------------------------------------------

    def tabs_elsewhere(self, trainee: str, now: datetime | None = None) -> list[LiveTab]:
        """The tabs of ``trainee`` that other hosts of the class serve now, as the live table last read says
        (:attr:`snapshot`, at most :data:`TICK` seconds old): open (on the picker, playing or finished; not
        disconnected, nor a sign-in without a tab), from a host whose heartbeat is at most :data:`OTHER_HOST_FRESH`
        seconds old (a host killed outright took its tabs' connections with it)."""
        fresh = (now or datetime.now(UTC)) - timedelta(seconds=OTHER_HOST_FRESH)
        return [row for row in self.snapshot
                if row.host != self.host and row.trainee == trainee and row.state in OPEN_STATES
                and (parse_utc(row.heartbeat_at) or fresh) > fresh]  # fmt: skip

    @property
    def started(self) -> bool:
        """True once :meth:`start` was called."""
        return self._task is not None

    def start(self) -> None:
        """Start following journals and writing the live table (on the running event loop)."""
        self.changed = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop, and delete this host's rows from the live table (the class no longer plays here)."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._executor, self._forget)
        self._executor.shutdown(wait=False)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            changed = await loop.run_in_executor(self._executor, self.tick)
            if changed and self.changed is not None:
                self.changed.set()
                self.changed = asyncio.Event()
            for tab in self.taken_over():
                if self.on_taken_over is not None:
                    self.on_taken_over(tab)
            await asyncio.sleep(TICK)

    def tick(self, now: datetime | None = None) -> bool:
        """One round (in the worker thread): read the journals, write what changed, read the live table back.
        Returns True when the snapshot changed."""
        now = now or datetime.now(UTC)
        try:
            self.follow_journals()
        except OSError as exc:  # the journals folder is not there yet, or went away
            log.debug("journals not read: %s", exc)
        self._drop_gone(now)
        before = (self.snapshot, self.problem)
        try:
            store = self._open()
            self._publish(store, now)
            self.snapshot, self.problem = store.call(read_live), None
        except Exception as exc:  # StoreError, or the driver's own: the console says so and shows this host
            if self.problem is None:
                log.warning("the live table cannot be written or read: %s", exc)
            with self._lock:
                self.snapshot, self.problem = list(self.rows.values()), str(exc)
        self.snapshot_at = utc(now)
        if (self.snapshot, self.problem) != before:
            self.version += 1
            return True
        return False

    def _open(self) -> LiveStore:
        """The live table's store, held by a child process (:class:`~warroom.serve._livestore.LiveStore`: a fault of
        SQLite's shared memory ends the child, not this host); this host's earlier rows are deleted at each opening
        (a killed run of this host, or the rows before the store failed: they are written again)."""
        if self._store is None:
            self._store = LiveStore(self.data_dir, self.store_url)
        if not self._store.store_open:  # new, or a call failed (the child closed the store, or ended)
            long_ago = utc(datetime.now(UTC) - timedelta(seconds=FORGET_HOSTS))
            self._store.call(forget_host, self.host, before=long_ago, earlier_runs=True)
            self._published = {}
        return self._store

    def close(self) -> None:
        """End the live table's child without deleting this host's rows (:meth:`stop` deletes them)."""
        if self._store is not None:
            self._store.close()
            self._store = None

    def _publish(self, store: LiveStore, now: datetime) -> None:
        with self._lock:
            current = {tab: replace(row, heartbeat_at=utc(now)) for tab, row in self.rows.items()}
        changed = [row for tab, row in current.items() if _content(self._published.get(tab)) != _content(row)]
        gone = [tab for tab in self._published if tab not in current]
        beat = now.timestamp() - self._beat_at >= HEARTBEAT
        if changed or gone or beat:
            store.call(publish_live, self.host, changed, gone, utc(now))
            self._published = current
            self._beat_at = now.timestamp()

    def _forget(self) -> None:
        try:
            self._open().call(forget_host, self.host)
        except Exception as exc:  # the store is gone: its rows age out (FORGET_HOSTS)
            log.warning("this host's rows could not be deleted from the live table: %s", exc)
        self.close()

    def _drop_gone(self, now: datetime) -> None:
        """Forget the tabs disconnected more than :data:`KEEP_GONE` seconds ago."""
        cutoff = now - timedelta(seconds=KEEP_GONE)
        with self._lock:
            for tab, row in list(self.rows.items()):
                ended = parse_utc(row.ended_at)
                if row.state == DISCONNECTED and ended is not None and ended < cutoff:
                    self._forget_tab(tab)

    def _forget_tab(self, tab: str) -> None:
        """Drop the row of ``tab`` (gone) and what is kept for it. Called holding the lock."""
        del self.rows[tab]
        self._taken_over.discard(tab)
        for name in [n for n, j in self._journals.items() if j.tab == tab]:
            del self._journals[name]

    # --- the journals ---------------------------------------------------------------------------------------------

    def follow_journals(self) -> None:
        """Find the journals of this host's tabs and read what was appended to them."""
        from warroom.store.datadir import done_dir, journals_dir

        folder = journals_dir(self.data_dir)
        if not folder.is_dir():
            return
        with self._lock:
            tabs = set(self.rows)
        for entry in os.scandir(folder):
            name = entry.name
            if not name.endswith(".jsonl") or name.startswith(".") or name in self._journals or name in self._ignored:
                continue
            tab = _tab_of(Path(entry.path))
            if tab is None or tab not in tabs:
                if tab is not None or _complete_start(Path(entry.path)):
                    self._ignored.add(name)  # not one of ours (another host's data directory, a terminal session)
                continue
            self._journals[name] = _Journal(name, tab)
        for journal in list(self._journals.values()):
            if journal.ended:
                continue
            path = folder / journal.name
            if not path.exists():
                path = done_dir(self.data_dir) / journal.name  # stored meanwhile, and moved
            for line in self._read_new(journal, path):
                self._apply(journal, line)

    def _read_new(self, journal: _Journal, path: Path) -> list[dict[str, Any]]:
        try:
            with path.open("rb") as f:
                f.seek(journal.offset)
                data = f.read()
        except OSError:
            return []
        journal.offset += len(data)
        data = journal.partial + data
        lines = data.split(b"\n")
        journal.partial = lines.pop()  # the part after the last line end: a line still being written
        out = []
        for raw in lines:
            try:
                value = record_json(raw)  # a key twice: skipped, as recovery skips the line
            except ValueError:
                continue
            if isinstance(value, dict):
                out.append(value)
        return out

    def _apply(self, journal: _Journal, line: dict[str, Any]) -> None:
        with self._lock:
            row = self.rows.get(journal.tab)
            if row is None:
                return
            self.rows[journal.tab] = _applied(row, line)
        if line.get("type") == "end":
            journal.ended = True


def _signin_tab(key: str) -> str:
    """The live table's tab of a sign-in without a tab: a short, stable name that does not reveal the sign-in id."""
    import hashlib

    return "signin-" + hashlib.sha256(key.encode()).hexdigest()[:12]


def _content(row: LiveTab | None) -> Any:
    return None if row is None else replace(row, heartbeat_at="")


def _tab_of(path: Path) -> str | None:
    """The ``tab`` of a journal's start line (None: none, or the line is not written in full yet)."""
    try:
        with path.open("rb") as f:
            first = f.readline(64 * 1024)
    except OSError:
        return None
    if not first.endswith(b"\n"):
        return None
    try:
        start = record_json(first)
    except ValueError:
        return None
    tab = start.get("tab") if isinstance(start, dict) else None
    return tab if isinstance(tab, str) else None


def _complete_start(path: Path) -> bool:
    """True when the journal's first line is written in full (so a journal without ``tab`` is for good not ours)."""
    try:
        with path.open("rb") as f:
            return f.readline(64 * 1024).endswith(b"\n")
    except OSError:
        return False


def _applied(row: LiveTab, line: dict[str, Any]) -> LiveTab:
    """``row`` after a journal line (start, action or end)."""
    kind = line.get("type")
    if kind == "start":
        return replace(
            row,
            state=PLAYING if row.state != DISCONNECTED else DISCONNECTED,
            session_id=_text(line.get("session_id")), drill_id=_text(line.get("drill_id")),
            mode=_text(line.get("mode")), set_id=_text(line.get("set_id")), drill_time=0.0,
            clock_at=_text(line.get("started_at")), speed=1.0, paused=False, actions=0, last_action=None,
            last_action_at=None, outcome=None, total=None,
            ended_at=row.ended_at if row.state == DISCONNECTED else None,
        )  # fmt: skip
    if kind == "action":
        found = line.get("action")
        action: dict[str, Any] = found if isinstance(found, dict) else {}
        act = str(action.get("kind", "?"))
        at = _text(line.get("at"))
        t = action.get("t")
        changes: dict[str, Any] = {"actions": row.actions + 1, "last_action": act, "last_action_at": at}
        if isinstance(t, int | float):
            changes |= {"drill_time": float(t), "clock_at": at}
        if act == "pause":
            changes["paused"] = True
        elif act == "resume":
            changes["paused"] = False
        elif act == "speed" and isinstance(action.get("speed"), int | float):
            changes["speed"] = float(action["speed"])
        return replace(row, **changes)
    if kind == "end":
        total = line.get("total")
        return replace(
            row,
            state=FINISHED if row.state != DISCONNECTED else DISCONNECTED,
            outcome=_outcome_text(line),
            total=total if isinstance(total, int) else None,
            ended_at=row.ended_at if row.state == DISCONNECTED else (_text(line.get("ended_at")) or utc()),
        )
    return row


def _outcome_text(end: dict[str, Any]) -> str | None:
    """The outcome of a journal's end line as the console shows it, as `warroom scores` says it: ``early escalation``
    for a ``false_alarm`` of a signal trial (an escalation only before a fault's evidence; a false alarm is an
    escalation on a noise trial only), ``contained late`` for ``contained_late``."""
    from warroom.core.model import outcome_label

    outcome = _text(end.get("outcome"))
    card = end.get("scorecard")
    played_as = card.get("played_as") if isinstance(card, dict) else None
    if outcome is None:
        return None
    return outcome_label(outcome, None if played_as not in ("signal", "noise") else played_as == "noise")


def _text(value: Any) -> str | None:
    return value[:200] if isinstance(value, str) else None
