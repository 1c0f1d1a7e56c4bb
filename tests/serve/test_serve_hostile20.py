"""Hostile input to ``warroom serve`` (issue 30, campaign 20: time to detect under load, the live table's child, the
console, two servers, one trainee in two browsers): what it found and what now holds."""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time

import pytest
from aiohttp import WSMessage, WSMsgType
from textual import events
from textual.clock import MockClock

from warroom.core.library import bundled_drills_dir
from warroom.core.model import ActionKind
from warroom.core.settings import KEYS_RECEIVED_META
from warroom.store.results import ResultsStore
from warroom.tui.app import WarroomApp
from warroom.tui.app._relayed import MAX_KEY_WAIT, KeyClock
from warroom.tui.logic import Services, load_entry
from warroom.tui.room import EscalateScreen, WarRoomScreen

STALE = bundled_drills_dir() / "duplicate-charge-refunds.yaml"
#: The drill time of STALE's earliest evidence (e06), where its time to detect starts.
EARLIEST_EVIDENCE = 12.0


class MockKeyClock(KeyClock, MockClock):
    """The served app's clock on a mock clock's time (the relay's times are real :func:`time.monotonic` ones)."""


# -- time to detect: a key is timed when the server's relay received it ------------------------------------------


def test_a_relay_time_is_used_once_bounded_by_the_last_tick_and_the_present():
    clock = KeyClock()
    assert clock.tick_time(100.0, 90.0, True) == 100.0  # no relay time: the present
    clock.received(time.monotonic() - 2.0)
    assert clock.tick_time(100.0, 90.0, True) == pytest.approx(98.0, abs=0.5)  # when the relay received the key
    assert clock.tick_time(100.0, 90.0, True) == 100.0  # used once
    clock.received(time.monotonic() - 5.0)
    assert clock.tick_time(100.0, 99.0, True) == 99.0  # never before the drill clock's last tick
    clock.received(time.monotonic() - MAX_KEY_WAIT - 1)
    assert clock.tick_time(100.0, 0.0, True) == 100.0  # too old to be a key's wait: the present
    clock.received(time.monotonic() + 30.0)
    assert clock.tick_time(100.0, 0.0, True) == 100.0  # a time to come is no relay's


def test_the_ticker_waits_for_keys_on_their_way_to_the_app_and_only_for_them():
    clock = KeyClock()
    clock.received(time.monotonic() - 2.0)  # keys read, but no input event made of them (a reply the app keeps)
    assert clock.tick_time(100.0, 90.0, False) == 100.0  # the drill clock never waits on them
    clock.received(time.monotonic() - 2.0)
    key = events.Key("e", "e")
    clock.posted(key)  # a key on its way to the app
    assert clock.tick_time(100.0, 90.0, False) == pytest.approx(98.0, abs=0.5)
    assert clock.tick_time(100.0, 90.0, True) == pytest.approx(98.0, abs=0.5)  # still the key's time
    clock.delivered(events.Key("e", "e"))  # a key the driver did not post (one a dialog gave again) never counted
    clock.received(time.monotonic() - 2.0)
    assert clock.tick_time(100.0, 90.0, False) == pytest.approx(98.0, abs=0.5)
    clock.delivered(key)
    clock.received(time.monotonic() - 2.0)
    assert clock.tick_time(100.0, 90.0, False) == 100.0  # delivered: the ticker plays on to the present


async def test_a_relayed_key_its_widget_acted_on_holds_the_ticker_back_no_more(tmp_path):
    """The app counted a relayed key delivered only when it had not forwarded it, but App.on_event forwards every
    key that no priority binding takes to its widget (marking it forwarded): such a key (a letter typed into the
    escalation's reason) stayed on its way for good, and from then on every relay time held the drill clock's ticker
    back, up to 10 s, after keys that set off nothing. A key its widget has acted on is delivered."""
    services = Services(trainee="tester", data_dir=tmp_path / "data", mode="assessment")
    clock = MockKeyClock()
    app = WarroomApp(services, start=load_entry(STALE), clock=clock)
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.press("enter")
        live = app.live
        assert isinstance(live, WarRoomScreen)
        for t in range(1, 9):
            clock.set_time(t / 2)
            live.tick(at_key=False)
        await pilot.press("e")  # the escalation's dialog: the drill clock runs on under it (assessment)
        await pilot.pause()
        assert isinstance(app.screen, EscalateScreen) and app.focused is not None
        key = events.Key("x", "x")  # typed into the dialog's focused field: forwarded to it
        clock.posted(key)  # as the served app's driver does
        app.post_message(key)
        for _ in range(50):  # the field acts on it, then its parents and the app's bindings
            await pilot.pause()
            if not clock.on_way(key):
                break
        clock.set_time(8.0)
        clock.received(time.monotonic() - 2.0)  # keys the relay read that made no input event (a reply the app keeps)
        live.tick(at_key=False)
        assert live.replay.now == 8.0  # no key on its way: the ticker plays to the present, not to 2 s before it


def test_a_relay_time_written_while_a_tick_reads_the_last_is_kept(monkeypatch):
    """The driver's input thread writes the relay's time while the app's loop reads and clears the last one: the
    newer time is kept for its key, not cleared with the one before."""
    clock = KeyClock()
    clock.received(time.monotonic() - 2.0)
    monotonic = time.monotonic
    newer = monotonic() - 1.0
    writes: list[threading.Thread] = []

    def reading() -> float:  # the input thread gets its turn in the middle of the tick
        if not writes:
            writes.append(threading.Thread(target=clock.received, args=(newer,)))
            writes[0].start()
            writes[0].join(0.2)
        return monotonic()

    monkeypatch.setattr(time, "monotonic", reading)
    assert clock.tick_time(100.0, 90.0, True) == pytest.approx(98.0, abs=0.5)
    writes[0].join()
    monkeypatch.setattr(time, "monotonic", monotonic)
    assert clock.tick_time(100.0, 90.0, True) == pytest.approx(99.0, abs=0.5)  # the newer key's time, not lost


async def test_a_delayed_app_process_does_not_lengthen_the_stored_time_to_detect(tmp_path):
    """Measured (2026-12-07, 30 tabs on the 2-core development machine at a load of 35 to 44): the relay wrote a
    key to its app process and the app read it up to 0.6 s later; the drill clock read the present when the app read
    it, so that wait was the trainee's time to detect (a process stopped 3 s, SIGSTOP, added 3 s). The relay now sends
    the moment it received the keys, and the action they set off is taken then; the drill clock's ticker, due while
    the key was on its way, waits for it."""
    services = Services(trainee="tester", data_dir=tmp_path / "data")
    entry = load_entry(STALE)
    clock = MockKeyClock()
    app = WarroomApp(services, start=entry, clock=clock)
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.press("enter")
        live = app.live
        assert isinstance(live, WarRoomScreen)
        for t in range(1, 27):  # 13 s of drill time, ticked every half second: e06, the evidence, is out
            clock.set_time(t / 2)
            live.tick(at_key=False)
        await pilot.pause()
        clock.set_time(16.0)  # the app process, stopped 3 s, reads the key `e` the relay received at 13.0
        clock.received(time.monotonic() - 3.0)
        key = events.Key("e", "e")
        clock.posted(key)
        live.tick(at_key=False)  # its ticker, due meanwhile, does not play the wait before the key
        assert live.replay.now == 13.0
        app.post_message(key)  # the escalation's dialog (practice: the drill clock stops at the key)
        await pilot.pause()
        await pilot.press(*"s1", "tab", "tab")
        if "e06" not in app.screen.cites:  # type: ignore[attr-defined]
            await pilot.press(*"e06", "space")
        await pilot.press("enter", "y")
        await pilot.pause()
        escalations = [a.t for a in live.replay.actions if a.kind is ActionKind.ESCALATE]
        assert escalations == [13.0], live.replay.actions
        assert live.replay.contained
        for t in range(33, 120):
            clock.set_time(t / 2)
            live.tick(at_key=False)
            if live.replay.ended:
                break
        await pilot.pause()
    with ResultsStore(services.data_dir) as store:
        (row,) = store.query(trainee="tester")
    assert row.time_to_detect == pytest.approx(live.replay.time_to_detect)
    assert row.time_to_detect == pytest.approx(13.0 - EARLIEST_EVIDENCE)  # not 16.0 - ...: the 3 s stopped


async def test_the_relay_sends_the_moment_it_received_keys_before_them():
    """The relay's time for the app: a meta packet (which a browser cannot send: its keys go in data packets) before
    each message's keys, with the relay's :func:`time.monotonic` taken as the message came."""
    from warroom.serve._tab import relay_messages

    written: list[object] = []

    class Service:
        async def send_meta(self, data: dict[str, object]) -> bool:
            written.append(data)
            return True

        async def send_bytes(self, data: bytes) -> bool:
            written.append(data)
            return True

    class Tab:
        def __init__(self) -> None:
            self.messages = iter([json.dumps(["stdin", "e"]), json.dumps(["stdin", "\x1b[A"])])

        def __aiter__(self):  # type: ignore[no-untyped-def]
            return self

        async def __anext__(self) -> WSMessage:
            for text in self.messages:
                await asyncio.sleep(0)
                return WSMessage(WSMsgType.TEXT, text, None)
            raise StopAsyncIteration

    before = time.monotonic()
    await relay_messages(Tab(), Service())  # type: ignore[arg-type]
    after = time.monotonic()
    assert [w if isinstance(w, bytes) else w["type"] for w in written] == [  # type: ignore[index]
        KEYS_RECEIVED_META, b"e", KEYS_RECEIVED_META, b"\x1b[A"]
    for meta in written[::2]:
        assert before <= meta["at"] <= after  # type: ignore[index]


# -- the live table's child: stopped in the middle of an answer, or not reading a call ------------------------------

#: A child that reads the store's place and a call, then writes the start of a long answer (or nothing, reading no
#: more) and stops there, as a child stopped (SIGSTOP) or hung in the middle of its write does.
_STOPPED_CHILD = (
    "import sys, os, struct, time; from multiprocessing.connection import Connection; "
    "fd = int(sys.argv[1]); c = Connection(fd); c.recv(); "
    "c.recv() if sys.argv[2] == 'answer' else None; "
    "os.write(fd, struct.pack('!i', 10_000_000) + b'x' * 1000) if sys.argv[2] == 'answer' else None; "
    "time.sleep(120)"
)


@pytest.mark.parametrize("stops", ["answer", "reading"])
def test_a_live_table_child_stopped_mid_answer_or_not_reading_is_ended_not_waited_for_ever(tmp_path, monkeypatch,
                                                                                            stops):
    """The host waited for a call's answer at most CALL_WAIT_S seconds for it to begin, then read the rest with no
    bound: a child stopped in the middle of a long answer (the whole live table of a large class is megabytes), or
    one that reads no more while the host writes a call larger than the socket's buffer, held the host's live-table
    thread, every tab's claim and the server's stop, for ever (docs/serve.md: such a child is killed)."""
    import threading

    from warroom.serve import _livestore
    from warroom.store.errors import StoreError

    monkeypatch.setattr(_livestore, "_CHILD", _STOPPED_CHILD)
    monkeypatch.setattr(_livestore, "FIRST_CALL_WAIT_S", 1.0)
    monkeypatch.setattr(_livestore, "CALL_WAIT_S", 1.0)
    monkeypatch.setattr(_livestore, "_package_root", lambda: stops)
    store = _livestore.LiveStore(tmp_path)
    outcome: list[BaseException | None] = []

    def call() -> None:
        try:
            store.call(_big_call, "x" * (0 if stops == "answer" else 8_000_000))
            outcome.append(None)
        except BaseException as exc:  # the test says what it was
            outcome.append(exc)

    caller = threading.Thread(target=call, daemon=True)
    caller.start()
    caller.join(15)
    pid = store.pid
    if caller.is_alive() and pid is not None:  # waited for ever: free the thread, then fail
        import os
        import signal

        os.kill(pid, signal.SIGKILL)
        caller.join(10)
        pytest.fail(f"the host still waited on a child stopped with its {stops} 15 s later")
    (exc,) = outcome
    assert isinstance(exc, StoreError) and "did not answer within" in str(exc), exc
    assert store.pid is None  # killed and forgotten: the next call starts another


def _big_call(store: object, text: str) -> None:
    """Stands for a function of warroom.store.live (sent by its name; the stopped child never runs it)."""


# -- the host out of open files ------------------------------------------------------------------------------------


async def test_a_tab_whose_app_process_cannot_start_for_want_of_open_files_is_told_so_and_the_log_has_no_traceback(
        caplog, monkeypatch):  # fmt: skip
    """Found with the server's open files limited (prlimit --nofile=40): each tab opened once they ran out wrote
    "ERROR a served session failed" and a traceback of asyncio's subprocess creation into the log, and its browser was
    closed as normal ("Session ended.", nothing said). Now one line says which tab and what to do, and the tab is
    told the war room could not start here."""
    import errno
    import logging

    import aiohttp
    from aiohttp import web
    from aiohttp.test_utils import TestClient, TestServer

    from warroom.serve._tab import COULD_NOT_START, TabService, start_app

    async def out_of_files(*_: object, **__: object) -> None:
        raise OSError(errno.EMFILE, "Too many open files")

    monkeypatch.setattr(asyncio, "create_subprocess_shell", out_of_files)

    async def nothing(*_: object) -> None:
        return None

    async def tab(request: web.Request) -> web.WebSocketResponse:
        websocket = web.WebSocketResponse()
        await websocket.prepare(request)
        service = TabService("warroom", write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                             close=nothing, download_manager=None)  # fmt: skip
        assert not await start_app(websocket, service, 80, 24, "the tab of 'Ada Lovelace'")
        assert await service.end() is None  # no process to end
        return websocket

    app = web.Application()
    app.router.add_get("/ws", tab)
    with caplog.at_level(logging.INFO, "warroom.serve"):
        async with TestClient(TestServer(app)) as client, client.ws_connect("/ws") as ws:
            message = await asyncio.wait_for(ws.receive(), 10)
    assert message.type == aiohttp.WSMsgType.CLOSE and message.extra == COULD_NOT_START
    (record,) = [r for r in caplog.records if r.name == "warroom.serve"]
    assert record.exc_info is None and record.levelname == "WARNING"
    assert record.getMessage() == (
        "the app process of the tab of 'Ada Lovelace' could not start: Too many open files: this host has no open "
        "file, process or memory left for it (raise its limits, ulimit -n and ulimit -u, or lower --max-sessions)")


@pytest.mark.parametrize("error", ["ENOENT", "EACCES"])
async def test_an_app_process_that_cannot_start_for_another_reason_is_no_host_out_of_resources(monkeypatch, error):
    """Only a host out of open files, processes or memory is said so: a missing interpreter (ENOENT) or one not
    allowed to run (EACCES) was logged as "no open file, process or memory left" too; it is raised, a served
    session's failure, as before."""
    import errno

    from warroom.serve._tab import TabService, start_app

    async def cannot(*_: object, **__: object) -> None:
        raise OSError(getattr(errno, error), os.strerror(getattr(errno, error)))

    monkeypatch.setattr(asyncio, "create_subprocess_shell", cannot)

    async def nothing(*_: object) -> None:
        return None

    class Tab:
        def __init__(self) -> None:
            self.closed: list[object] = []

        async def close(self, **how: object) -> None:
            self.closed.append(how)

    tab = Tab()
    service = TabService("warroom", write_bytes=nothing, write_str=nothing, close=nothing, download_manager=None)
    with pytest.raises(OSError) as raised:
        await start_app(tab, service, 80, 24, "the tab of 'Ada Lovelace'")  # type: ignore[arg-type]
    assert raised.value.errno == getattr(errno, error)
    assert tab.closed == []  # not told "could not start here" (the session's end closes it, as for any failure)
