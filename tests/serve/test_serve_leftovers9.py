"""What the last stop left open in the served room (issue 30, leftovers of campaign 9): a tab that sends but never
reads, a bracketed paste left open, the waits on closing tabs, ``--port 0`` in the live table, a tab left quiet.

One ``warroom serve --port 0`` serves the served tests of this module (:func:`served`): starting one takes seconds of
CPU (it reads every bundled drill first)."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import socket
import time
from collections.abc import Iterator

import aiohttp
import pytest
from serve_support import (
    CLOCK_TEXT,
    FACILITATOR,
    TOKENS,
    Served,
    SimulatedTrainee,
    answering,
    read_until,
    serving_on_port_0,
    warm_picker_cache,
    write_roster,
)

from .test_serve_left7 import _Service, _Tab

#: Seconds a write to a tab may wait for its browser to read, in the module's server (``$WARROOM_SERVE_WRITE_STALL``;
#: 30 unless set).
WRITE_STALL = 4
#: The module's server's ``--stuck-after`` (its least): a line of the live class is **stuck** after this many seconds
#: without an action.
STUCK_AFTER = 5
#: The module's server's heartbeat (``$WARROOM_SERVE_HEARTBEAT``; 15 unless set): a tab quiet this many seconds is
#: pinged, and ended unless it answers within half of that more. Short here, so that a whole round is waited for in
#: seconds; long enough that a test's tab read between its steps is never taken for gone on a loaded machine.
HEARTBEAT = 5
HEARTBEAT_ROUND = HEARTBEAT * 1.5


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """``warroom serve --port 0 --roster R``, with a short write stall and heartbeat, for the module's served tests."""
    tmp = tmp_path_factory.mktemp("leftovers9")
    cache = tmp / "cache"
    warm_picker_cache(cache)
    environ = {name: value for name, value in os.environ.items() if not name.startswith("WARROOM_")}
    environ.update(TERM="xterm-256color", LANG="C.UTF-8", WARROOM_CACHE_DIR=str(cache),
                   WARROOM_SERVE_WRITE_STALL=str(WRITE_STALL), WARROOM_SERVE_HEARTBEAT=str(HEARTBEAT))  # fmt: skip
    if "WARROOM_KEY_TRACE" in os.environ:
        environ["WARROOM_KEY_TRACE"] = os.environ["WARROOM_KEY_TRACE"]
    args = ["--stuck-after", str(STUCK_AFTER), "--roster", str(write_roster(tmp / "roster.yaml"))]
    with serving_on_port_0(tmp / "serve.log", tmp / "data", *args, env=environ) as served:
        yield served


async def _log_says(served: Served, text: str, timeout: float = 60) -> str:
    """The server's log once it holds ``text`` (fails with the log after ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while text not in (log := served.log.read_text(errors="replace")):
        assert time.monotonic() < deadline, f"{text!r} not in the server's log:\n{log[-3000:]}"
        await asyncio.sleep(0.2)
    return log


# --- 4. --port 0: the port the system chose, wherever the address is said ----------------------------------------


async def test_serve_on_port_0_names_the_chosen_port_in_the_live_table(served):
    """``warroom serve --port 0`` named this host ``HOST:0`` in the live table (the console's host column), and took
    the lines of any other server on a port 0 of this machine for a killed earlier run of its own (deleted at its
    start). Now its name there holds the port the system chose, as the banner and the console's link do."""
    banner = served.log.read_text().splitlines()[0]
    assert f"the console at {served.url}/console;" in banner
    ada = await served.signed_in("Ada Lovelace")  # a signed-in trainee is a line of the live class, with its host
    fran = await served.signed_in(FACILITATOR)
    async with ada, fran, fran.get("/console/live/events", timeout=aiohttp.ClientTimeout(total=60)) as stream:
        seen = ""
        async with asyncio.timeout(30):
            while not (hosts := set(re.findall(rf">({re.escape(socket.gethostname())}:\d+)<", seen))):
                seen += (await stream.content.readany()).decode()
    assert hosts == {f"{socket.gethostname()}:{served.port}"}, seen[-2000:]


# --- 2. a bracketed paste left open ---------------------------------------------------------------------------------


async def test_a_paste_left_open_is_ended_with_its_message_and_said_once(caplog):
    """A bracketed paste started (``ESC [200~``) and never ended (no ``ESC [201~``) made the app process's input
    parser take every later key of the tab as pasted text, held for ever: the tab's keys were lost. A browser's
    terminal sends a paste whole in one message, so the relay ends one left open at the end of its message (also when
    its start was split between two messages), and says so in the log once for the tab."""
    from warroom.serve._tab import relay_messages

    service = _Service()
    tab = _Tab([["stdin", "\x1b[200~abc"], ["stdin", "?"], ["stdin", "\x1b[200~whole\x1b[201~"], ["stdin", "\x1b[20"],
                ["stdin", "0~x"], ["stdin", "\r"]])  # fmt: skip
    with caplog.at_level(logging.INFO, logger="warroom.serve"):
        await relay_messages(tab, service)  # type: ignore[arg-type]
    assert service.given == [b"\x1b[200~abc\x1b[201~", b"?", b"\x1b[200~whole\x1b[201~", b"\x1b[20",
                             b"0~x\x1b[201~", b"\r"]  # fmt: skip
    said = [r.getMessage() for r in caplog.records if "paste" in r.getMessage()]
    assert said == ["a paste of a tab was left open (no ESC [201~ at the end of its message): ended there, "
                    "and any more of this tab's are"]  # fmt: skip


async def test_a_key_after_a_paste_left_open_reaches_the_served_war_room(served):
    """Through the real server and app process: after a tab's paste left open, its enter opens the drill (before, the
    enter was taken as pasted text and nothing happened, for ever)."""
    ada = SimulatedTrainee(served.url, "Ada Lovelace", TOKENS["Ada Lovelace"])
    await ada.sign_in()
    try:
        await ada.open_tab()
        await ada.keys("\x1b[200~")
        await ada.keys("\r", "Press enter to start the drill clock", timeout=90)
        await ada.keys("\r", CLOCK_TEXT, timeout=90)
    finally:
        await ada.close()
    await _log_says(served, "a paste of the tab of 'Ada Lovelace' was left open")


# --- 1. a tab that sends but never reads -------------------------------------------------------------------------


def _frame(payload: bytes) -> bytes:
    """One masked final text frame of ``payload`` (under 64 KiB), as a client sends it."""
    key = os.urandom(4)
    size = len(payload)
    head = bytes([0x81, 0x80 | size]) if size < 126 else bytes([0x81, 0x80 | 126]) + size.to_bytes(2, "big")
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


async def test_a_tab_that_sends_but_never_reads_is_dropped_and_its_trainee_plays_again(served):
    """A client that opened a tab and kept sending (resizes, keys) but never read its output filled its receive
    window: the server's writes to it waited for ever (aiohttp's flow control), its messages kept the heartbeat from
    ever pinging it, and its app process and seat were held as long as it went on. Now a write waiting
    ``$WARROOM_SERVE_WRITE_STALL`` seconds drops the connection, with a log line, and its trainee's tab is free."""
    http = aiohttp.ClientSession(base_url=served.url, cookie_jar=aiohttp.CookieJar(unsafe=True))
    async with http:
        async with http.post("/signin", data={"name": "Grace Hopper", "token": TOKENS["Grace Hopper"]},
                             allow_redirects=False) as r:  # fmt: skip
            assert r.status == 303
        cookie = "; ".join(f"{c.key}={c.value}" for c in http.cookie_jar)
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)  # a small window: it fills at once
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", served.port))
        reader, writer = await asyncio.open_connection(sock=sock)
        writer.write(f"GET /ws?width=200&height=60 HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nOrigin: {served.url}"
                     f"\r\nCookie: {cookie}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: "
                     "dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())  # fmt: skip
        assert (await reader.readuntil(b"\r\n\r\n")).startswith(b"HTTP/1.1 101 ")
        writer.transport.pause_reading()  # never reads again
        said = "ended the session of 'Grace Hopper': its browser read none of its screen"
        try:
            async with asyncio.timeout(120):
                for i in range(10**6):  # a screen redrawn at each resize, within the tab's budget: the largest
                    # screens an app is given (MAX_COLUMNS x MAX_ROWS), one resize each RESIZE_INTERVAL, fill the
                    # server's send queue (megabytes on the loopback) in about half the time and CPU of 200 x 60
                    size = {"width": 500, "height": 200} if i % 2 else {"width": 480, "height": 190}
                    writer.write(_frame(json.dumps(["resize", size]).encode()))
                    writer.write(_frame(json.dumps(["stdin", "\x1b[B"]).encode()))
                    await asyncio.sleep(0.25)
                    if said in served.log.read_text(errors="replace"):
                        break
        finally:
            writer.transport.abort()
        async with http.get("/") as page:  # her tab ended: a new one is not "already playing in another tab"
            assert page.status == 200, await page.text()
    log = served.log.read_text(errors="replace")
    assert re.search(re.escape(said) + rf" for {WRITE_STALL} s \(\d[\d,]* bytes? unsent\): a tab that stops reading "
                     "is dropped", log), log[-3000:]  # fmt: skip
    assert "Traceback" not in log


# --- 3. the waits on closing tabs: woken by the tabs, never polling ---------------------------------------------


async def test_a_tab_waiting_for_closing_tabs_is_woken_by_a_process_gone_not_by_polling(monkeypatch):
    """A trainee's new tab waited for their closed tabs' app processes (up to 25 s) by counting them ten times a
    second. Now it waits on the tabs' ends and its processes' exits: counted once at the start and once each time a
    tab of the host changes, and it goes on as soon as one is gone."""
    from warroom.serve import AppOptions, Roster, SignIns, WarroomServer
    from warroom.serve._server import _Tab as Tab

    roster = Roster({}).with_trainee("Ada", "ada-token-0123456789")
    server = WarroomServer(SignIns(roster, "nobody"), AppOptions(), host="127.0.0.1", port=8000)
    server.tabs = {"t1": Tab("Ada", ended=True, id="t1"), "t2": Tab("Ada", ended=True, id="t2")}
    counted = 0
    leaving = server._leaving

    def counting(trainee: str) -> int:
        nonlocal counted
        counted += 1
        return leaving(trainee)

    monkeypatch.setattr(server, "_leaving", counting)
    waiting = asyncio.ensure_future(server._wait_for_leaving("Ada"))
    await asyncio.sleep(1.0)  # what a poll would have counted meanwhile: ten times
    assert not waiting.done() and counted <= 2, counted
    server.tabs.pop("t1")  # its app process is gone (handle_websocket's end)
    server._tabs_changed()
    assert await asyncio.wait_for(waiting, 1.0) is False  # it goes on: one closing tab is within the limit
    assert counted <= 4, counted


# --- 5. a tab left quiet ----------------------------------------------------------------------------------------------


async def test_a_tab_left_quiet_past_the_heartbeat_and_stuck_after_plays_on(served):
    """A tab left quiet (a trainee reading the trace, away for ten minutes) was never tried. Tried for ten minutes by
    hand (2026-12-07: its key answered after them, its app process used 1 s of CPU meanwhile, the console said
    stuck): it held. Here through the server's idle rules, made short: quiet past ``--stuck-after`` (the console
    says **stuck**) and a whole heartbeat round (a ping answered, as a browser answers it), then a key still reaches
    the drill, and nothing was ended."""
    ada = SimulatedTrainee(served.url, "Ada Lovelace", TOKENS["Ada Lovelace"])
    await ada.sign_in()
    fran = await served.signed_in(FACILITATOR)
    try:
        await ada.open_tab()
        await ada.start_drill()
        quiet_since = time.monotonic()
        assert ada.ws is not None
        async with answering(ada.ws), fran.get("/console/live/events",
                                                timeout=aiohttp.ClientTimeout(total=120)) as stream:  # fmt: skip
            seen = ""
            async with asyncio.timeout(60):
                while not re.search(r'data-trainee=\\?"Ada Lovelace\\?" data-status=\\?"stuck', seen):
                    seen += (await stream.content.readany()).decode()
            await asyncio.sleep(max(0.0, quiet_since + HEARTBEAT_ROUND + 1 - time.monotonic()))  # the quiet itself
        await ada.ws.send_json(["stdin", " "])  # space: pause the drill clock
        await read_until(ada.ws, "PAUSED", timeout=60)
    finally:
        await fran.close()
        await ada.close()
    log = served.log.read_text(errors="replace")
    assert "ended the session of 'Ada Lovelace'" not in log and "No PONG" not in log, log[-3000:]


def test_a_write_stall_that_is_no_number_of_seconds_is_said_and_the_default_used():
    """``$WARROOM_SERVE_WRITE_STALL`` is read as ``$WARROOM_SERVE_STOP_GRACE`` is: a number of seconds from 0 to
    3,600, else a warning at start and the default (30 s)."""
    from warroom.serve._server import MAX_WRITE_STALL, seconds_setting
    from warroom.serve._tab import WRITE_STALL as DEFAULT

    def read(text: str) -> tuple[float, str | None]:
        return seconds_setting("WARROOM_SERVE_WRITE_STALL", text, DEFAULT, MAX_WRITE_STALL)

    assert read("") == (30.0, None) and read("4") == (4.0, None) and read("3600") == (3600.0, None)
    for bad in ("abc", "inf", "nan", "-1", "3601"):
        stall, warning = read(bad)
        assert stall == 30.0 and warning is not None and warning.startswith(f"$WARROOM_SERVE_WRITE_STALL is '{bad}', "
                                                                            "no number of seconds from 0 to 3,600")


def test_a_heartbeat_that_is_no_number_of_seconds_is_said_at_start_and_15_used(monkeypatch, capsys):
    """``$WARROOM_SERVE_HEARTBEAT`` (the seconds a quiet tab waits for the server's ping; the tests above make it
    short) is read as ``$WARROOM_SERVE_WRITE_STALL`` is: a number of seconds from 1 to 3,600, else a warning on stderr
    at start and the default (15 s)."""
    import warroom.serve
    from warroom.cli.serve import _warn_of_stop_grace
    from warroom.serve._server import DEFAULT_HEARTBEAT, MAX_HEARTBEAT, MIN_HEARTBEAT, seconds_setting

    def read(text: str) -> tuple[float, str | None]:
        return seconds_setting("WARROOM_SERVE_HEARTBEAT", text, DEFAULT_HEARTBEAT, MAX_HEARTBEAT, MIN_HEARTBEAT)

    assert read("") == (15.0, None) and read("5") == (5.0, None) and read("3600") == (3600.0, None)
    for bad in ("0", "0.5", "abc", "inf", "-1", "3601"):
        beat, warning = read(bad)
        assert beat == 15.0 and warning == (f"$WARROOM_SERVE_HEARTBEAT is '{bad}', no number of seconds from 1 to "
                                            "3,600: 15 s is used (set a number such as 15, or unset it)")  # fmt: skip
    monkeypatch.setattr(warroom.serve, "HEARTBEAT_WARNING", read("abc")[1])
    _warn_of_stop_grace()
    assert capsys.readouterr().err == f"warning: {read('abc')[1]}\n"
