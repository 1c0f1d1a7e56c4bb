"""A sixth hostile campaign on ``warroom serve`` (issue 30): a closed tab's app process given its grace, and the
breaks a hostile reader found in the served code (seats, tabs, the tab-message protocol)."""

from __future__ import annotations

import asyncio
import re
import shlex
import sys
import time
from pathlib import Path

import aiohttp
import pytest
from serve_support import CLOCK_TEXT, FACILITATOR, read_until, serving

PICKER_TEXT = "Tutorial: where-is"
BRIEFING_TEXT = "Press enter to start the drill clock"

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the app processes through /proc")

#: An app process speaking textual-serve's protocol: a frame at start; asked to quit, it writes its last frames,
#: takes a second to store its drill (the marker file), says ``exit`` and ends with status 0. SIGTERM ends it (-15)
#: before it has stored anything.
FAKE_APP = """
import json, sys, time
out, inp = sys.stdout.buffer, sys.stdin.buffer
def packet(kind, payload):
    out.write(kind + len(payload).to_bytes(4, "big") + payload)
    out.flush()
out.write(b"__GANGLION__\\n")
packet(b"D", b"the picker")
while kind := inp.read(1):
    payload = inp.read(int.from_bytes(inp.read(4), "big"))
    if kind == b"M" and json.loads(payload)["type"] == "quit":
        for _ in range(40):
            packet(b"D", b"x" * 4000)  # its last frames: more than a pipe holds
        time.sleep(1.0)  # storing the drill as abandoned
        open(sys.argv[1], "w").write("stored")
        packet(b"M", b'{"type": "exit"}')
        break
"""


def _app_pids(data_dir: Path) -> list[int]:
    from tests.serve.test_serve_floods import app_pids

    return [pid for name in ("Ada Lovelace", "Grace Hopper", "Edsger Dijkstra") for pid in app_pids(name, data_dir)]


async def test_an_app_process_asked_to_quit_after_its_tab_closed_is_given_its_grace(tmp_path):
    """Item 3: textual-serve stopped reading an app process's output at the first write to its closed tab that
    failed, and the server took that for the process's end: it sent SIGTERM at once, while the process was storing
    its drill as abandoned (then recovered from its journal by the server). The output is read (and dropped) to its
    end, and the process, told to quit, exits on its own within the grace: status 0, its drill stored by itself."""
    from textual_serve.download_manager import DownloadManager

    from warroom.serve._tab import TabService

    script, marker = tmp_path / "app.py", tmp_path / "stored"
    script.write_text(FAKE_APP)

    async def closed_tab(_data: object) -> None:
        raise ConnectionResetError("Cannot write to closing transport")  # aiohttp's, for a closed websocket

    async def nothing() -> None:
        return None

    command = f"exec {shlex.quote(sys.executable)} {shlex.quote(str(script))} {shlex.quote(str(marker))}"
    service = TabService(command, write_bytes=closed_tab, write_str=closed_tab, close=nothing,
                         download_manager=DownloadManager())  # fmt: skip
    await service.start(80, 24)
    await asyncio.sleep(0.5)  # its first frame met the closed tab
    started = time.monotonic()
    await asyncio.wait_for(service.stop(), 10)
    assert time.monotonic() - started >= 0.9  # it waited for the process, not for the first failed write
    assert await service.end() == 0  # exited on its own: never signalled
    assert marker.read_text() == "stored" and service.tab_gone


async def test_three_tabs_closed_together_have_their_processes_quit_within_the_grace_storing_their_drills(tmp_path):
    """Item 3, through the real server: three trainees mid-drill close their tabs at one moment. Each app process
    stores its drill as abandoned and exits within the grace (15 s); the server signals none (no "did not quit", no
    session recovered from a journal: before, most were SIGTERMed at once and recovered by the server)."""
    from serve_support import TOKENS

    from warroom.store.results import ResultsStore

    tokens = {**TOKENS, "Edsger Dijkstra": "edsger-token-1111111111"}
    with serving(tmp_path, tokens=tokens) as served:
        clients = [await served.signed_in(name, token) for name, token in tokens.items()]
        tabs = [await c.ws_connect("/ws?width=140&height=45") for c in clients]
        await asyncio.gather(*(read_until(t, PICKER_TEXT, 90) for t in tabs))
        for keys, wanted in (("\r", BRIEFING_TEXT), ("\r", CLOCK_TEXT)):
            for t in tabs:
                await t.send_json(["stdin", keys])
            await asyncio.gather(*(read_until(t, wanted) for t in tabs))
        assert len(_app_pids(served.data_dir)) == 3
        closed = time.monotonic()
        await asyncio.gather(*(t.close() for t in tabs))
        while _app_pids(served.data_dir):
            assert time.monotonic() - closed < 15, "an app process outlived the grace"
            await asyncio.sleep(0.1)
        gone_after = time.monotonic() - closed
        for c in clients:
            await c.close()
        await asyncio.sleep(1.0)  # the server's last lines for those tabs
        log = served.log.read_text(errors="replace")
    with ResultsStore(served.data_dir) as store:
        rows = store.query(limit=0)
    assert sorted(r.trainee for r in rows) == sorted(tokens) and {r.outcome for r in rows} == {"abandoned"}
    assert "did not quit" not in log and "recovered session" not in log and "ended by signal" not in log, log
    assert gone_after < 15


async def _slow_client(port: int, head: bytes, then: bytes, every: float, limit: float) -> tuple[float, bytes]:
    """A raw client that sends ``head`` at once, then ``then`` one byte every ``every`` seconds: (seconds until the
    server answered or closed the connection, what it answered); ``limit`` seconds at most."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    started = time.monotonic()
    writer.write(head)
    answer = b""
    try:
        for i in range(10_000):
            if time.monotonic() - started > limit:
                break
            try:
                writer.write(then[i % len(then) : i % len(then) + 1])
                await writer.drain()
            except ConnectionError:
                break
            try:
                chunk = await asyncio.wait_for(reader.read(4096), every)
            except TimeoutError:
                continue
            if not chunk:
                break
            answer += chunk
            if b"\r\n\r\n" in answer:
                break
        return time.monotonic() - started, answer
    finally:
        writer.close()


async def test_a_slow_client_is_cut_off_within_the_documented_time_while_a_sign_in_goes_through(tmp_path):
    """Item 2 (slowloris): a client sending its request's headers a byte a second held its connection until aiohttp's
    75 s; one sending a posted form's body a byte a second held the request for ever. The head must arrive within
    :data:`REQUEST_HEAD_TIMEOUT` (the connection is closed), the body within :data:`REQUEST_BODY_TIMEOUT` (HTTP 408);
    meanwhile a trainee signs in and opens the war room as usual."""
    from serve_support import TOKENS

    from warroom.serve._server import REQUEST_HEAD_TIMEOUT
    from warroom.serve._signin import REQUEST_BODY_TIMEOUT

    with serving(tmp_path) as served:
        limit = max(REQUEST_HEAD_TIMEOUT, REQUEST_BODY_TIMEOUT) + 20
        head = _slow_client(served.port, b"GET /signin HTTP/1.1\r\n", b"X-Slow: aaaaaaaa\r\n", 1.0, limit)
        post = (b"POST /signin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                b"Content-Length: 5000\r\n\r\nname=Ada")  # fmt: skip
        body = _slow_client(served.port, post, b"a", 1.0, limit)
        slow = asyncio.gather(head, body)
        await asyncio.sleep(2.0)
        async with await served.signed_in("Ada Lovelace", TOKENS["Ada Lovelace"]) as ada:
            async with ada.get("/") as r:
                assert r.status == 200
            async with ada.ws_connect("/ws") as tab:
                await read_until(tab, PICKER_TEXT, 90)
        (head_took, head_answer), (body_took, body_answer) = await slow
        log = served.log.read_text(errors="replace")
    assert head_answer == b"" and REQUEST_HEAD_TIMEOUT - 1 <= head_took <= REQUEST_HEAD_TIMEOUT + 5
    assert body_answer.startswith(b"HTTP/1.1 408") and REQUEST_BODY_TIMEOUT - 1 <= body_took <= REQUEST_BODY_TIMEOUT + 5
    assert "did not arrive within 20 s: refused (HTTP 408)" in log and "Traceback" not in log
    assert REQUEST_HEAD_TIMEOUT == REQUEST_BODY_TIMEOUT == 20.0


async def _closed_with(ws: aiohttp.ClientWebSocketResponse, timeout: float = 30.0) -> int | None:
    from tests.serve.test_serve_floods import closed_with

    return await closed_with(ws, timeout)


async def test_a_trainee_plays_in_one_tab_at_a_time_and_may_take_over_from_another(tmp_path):
    """Item 1: one trainee could fill every seat with real tabs (only the seats waiting for a tab were limited). A
    trainee plays in one tab at a time: another tab's page is an HTTP 409 saying they already play in another tab,
    with "Play here instead" (``POST /takeover``), which ends the other tab's session (its drill stored as abandoned)
    and gives this one the war room (also when every seat is taken: it waits for the other tab's process to end and
    takes its seat); a websocket opened past the limit is refused too; a reload is not refused; other trainees are
    not affected."""
    from warroom.store.results import ResultsStore

    with serving(tmp_path, "--max-sessions", "2") as served:
        ada, grace = await served.signed_in("Ada Lovelace"), await served.signed_in("Grace Hopper")
        async with ada, grace:
            first = await ada.ws_connect("/ws?width=140&height=45")
            await read_until(first, PICKER_TEXT, 90)
            await first.send_json(["stdin", "\r"])
            await read_until(first, BRIEFING_TEXT)
            await first.send_json(["stdin", "\r"])
            await read_until(first, CLOCK_TEXT)  # mid-drill
            async with ada.get("/") as r:
                text = await r.text()
            assert r.status == 409 and "already playing in another tab" in text and "Play here instead" in text
            assert 'action="/takeover"' in text and "Ada Lovelace" in text
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await ada.ws_connect("/ws")
            assert refused.value.status == 409
            async with grace.get("/") as r:
                assert r.status == 200  # another trainee plays on: the second seat, held for their tab
            async with ada.post("/takeover", allow_redirects=False) as r:
                assert (r.status, r.headers["Location"]) == (303, "/")
            assert await _closed_with(first) == aiohttp.WSCloseCode.GOING_AWAY
            async with ada.get("/") as r:
                page = await r.text()
            assert r.status == 200, page  # the seat of the tab taken over, once its process ended
            url = re.search(r'data-session-websocket-url="(/ws/[^"]+)"', page)
            assert url is not None
            second = await ada.ws_connect(url.group(1) + "?width=140&height=45")  # as the page's terminal does
            await read_until(second, PICKER_TEXT, 90)
            await second.close()  # a reload: the old tab closes as the page is asked for again
            async with ada.get("/") as r:
                assert r.status == 200
        facilitator = await served.signed_in(FACILITATOR)
        async with facilitator, aiohttp.ClientSession(base_url=served.url) as anyone:
            async with facilitator.post("/takeover", allow_redirects=False) as r:
                assert r.status == 403
            async with anyone.post("/takeover", allow_redirects=False) as r:
                assert r.status == 401
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with ResultsStore(served.data_dir) as store:
                rows = store.query(trainee="Ada Lovelace", limit=0)
            if rows:
                break
            await asyncio.sleep(0.5)
        log = served.log.read_text(errors="replace")
    assert [r.outcome for r in rows] == ["abandoned"]  # the drill of the tab taken over
    assert "'Ada Lovelace' plays in a new tab: 1 other tab ended" in log
    assert "a tab of 'Ada Lovelace' refused: already playing in another tab" in log and "Traceback" not in log


def test_the_tabs_a_trainee_may_play_in_are_counted_per_trainee_and_only_with_a_roster(tmp_path):
    from serve_support import write_roster

    from warroom.serve import AppOptions, Roster
    from warroom.serve._server import TABS_PER_TRAINEE, WarroomServer, _Tab
    from warroom.serve._signin import SignIns

    roster = Roster.load(write_roster(tmp_path / "roster.yaml"))
    two = WarroomServer(SignIns(roster, "nobody"), AppOptions(), host="127.0.0.1", port=0, tabs_per_trainee=2)
    two.tabs = {"a": _Tab("Ada Lovelace"), "g": _Tab("Grace Hopper"), "x": _Tab("Ada Lovelace", ended=True)}
    assert not two.playing_elsewhere("Ada Lovelace")  # one tab playing, one ended
    two.tabs["b"] = _Tab("Ada Lovelace")
    assert two.playing_elsewhere("Ada Lovelace") and not two.playing_elsewhere("Grace Hopper")
    alone = WarroomServer(SignIns(None, "nobody"), AppOptions(), host="127.0.0.1", port=0)
    alone.tabs = {"a": _Tab("nobody"), "b": _Tab("nobody")}
    assert not alone.playing_elsewhere("nobody")  # without a roster every browser is one trainee
    assert TABS_PER_TRAINEE == 1


async def test_pings_from_a_tab_that_drops_its_connection_end_its_session_without_a_traceback(tmp_path):
    """Item 4 (the tab-message protocol): a ping answered after its tab's connection dropped (a browser killed, a
    network gone, or a script sending pings and resetting the connection) raised "Cannot write to closing transport"
    out of the relay: "a served session failed" with a traceback in the server's log, at any trainee's will. The
    session ends as a closed tab's does; its process is ended."""
    import json

    with serving(tmp_path) as served:
        ada = await served.signed_in("Ada Lovelace")
        async with ada:
            tab = await ada.ws_connect("/ws")
            await read_until(tab, PICKER_TEXT, 90)
            for _ in range(20):
                await tab.send_str(json.dumps(["ping", "1"]))
            tab._conn.transport.abort()  # the connection reset, its pings not yet answered
            deadline = time.monotonic() + 30
            while _app_pids(served.data_dir):
                assert time.monotonic() < deadline, "the tab's process outlived its connection"
                await asyncio.sleep(0.2)
            async with ada.ws_connect("/ws") as again:  # the trainee's seat and tab are free again
                await read_until(again, PICKER_TEXT, 90)
        log = served.log.read_text(errors="replace")
    assert "a served session failed" not in log and "Traceback" not in log, log


def test_a_drill_played_before_the_gradebook_s_scope_and_replayed_in_it_is_graded_by_its_first_attempt():
    """Item 4 (the gradebook): its cell was the first attempt *in scope*, so a trainee who played a drill the day
    before a date range (or outside the set), read its debrief (the answer key), and played it again in the range had
    the replay graded as a first attempt (100 for a drill they had scored 40 on), against the promise that replaying
    never raises the grade. The first attempt ever is the cell's, and counts in ``mean_first``, said so."""
    import csv
    import io

    from tests.unit.test_console_views import Row
    from warroom.console import gradebook_csv

    before = [Row("ana", "A", "missed", 40, "s1", started_at="2026-11-29T10:00:00Z"),
              Row("ben", "B", "contained", 70, "s2", started_at="2026-11-29T10:00:00Z")]  # fmt: skip
    in_range = [Row("ana", "A", "contained", 100, "s3", started_at="2026-11-30T10:00:00Z"),
                Row("ben", "A", "contained", 80, "s4", started_at="2026-11-30T10:00:00Z"),
                Row("ben", "B", "contained", 90, "s5", started_at="2026-11-30T11:00:00Z"),
                Row("ben", "B", "contained", 95, "s6", started_at="2026-11-30T12:00:00Z")]  # fmt: skip
    later = [Row("ana", "B", "contained", 10, "s7", started_at="2026-12-09T10:00:00Z")]  # after the range: no effect
    rows = list(csv.reader(io.StringIO(gradebook_csv(in_range, ["A", "B"], ["ana", "ben"], [*before, *later]))))
    assert rows[1] == ["ana", "40 (first attempt 2026-11-29, outside this gradebook; 1 attempt here, best 100)", "",
                       "1", "1", "40.0"]  # fmt: skip
    assert rows[2] == ["ben", "80", "70 (first attempt 2026-11-29, outside this gradebook; 2 attempts here, best 95)",
                       "2", "3", "75.0"]  # fmt: skip
    assert gradebook_csv(in_range, ["A", "B"]) == gradebook_csv(in_range, ["A", "B"], (), later)


def test_an_escape_sequence_left_open_message_after_message_is_refused_before_it_costs_the_server():
    """Item 4 (the tab-message protocol): ``ESC [`` then ``;`` after ``;``, message after message, within the input
    budget, was carried whole to each next message and searched again: after 600,000 characters (5 minutes at the
    budget's rate) each message of 32 keys cost 27 ms of the server's event loop, which every tab of the class waits
    on. A sequence longer than any terminal sends ends the session, whole or split; what browsers send passes."""
    from warroom.serve._tab import MAX_SEQUENCE_CHARACTERS, BadMessage, KeySequences

    sequences = KeySequences()
    sequences.check("\x1b[")
    with pytest.raises(BadMessage, match="a key sequence no terminal sends"):
        for _ in range(MAX_SEQUENCE_CHARACTERS):
            sequences.check(";")
    assert len(sequences.carry) <= MAX_SEQUENCE_CHARACTERS
    with pytest.raises(BadMessage, match="a key sequence no terminal sends"):
        KeySequences().check("\x1b[" + ";" * 2000 + "A")
    browser = KeySequences()
    for keys in ("\x1b[<35;1000;1000M", "\x1b[200~" + ";" * 5000 + "\x1b[201~", "\x1b[1;5A", "\x1b[", "57;5u"):
        browser.check(keys)
    assert MAX_SEQUENCE_CHARACTERS == 64


async def test_a_tab_taken_over_while_its_connection_opens_never_starts_playing(tmp_path, monkeypatch):
    """Item 4 (a race between two tabs of one trainee): "Play here instead" ends the trainee's other tabs by closing
    their websockets; a tab whose websocket was still being opened had none to close yet, so it went on to start its
    app process and play beside the new tab. Such a tab is closed as soon as its connection opens, and starts
    nothing."""
    from aiohttp import web
    from aiohttp.test_utils import TestClient, TestServer
    from serve_support import TOKENS, write_roster

    from warroom.serve import AppOptions, Roster
    from warroom.serve._server import TabService, WarroomServer, build_application
    from warroom.serve._signin import SignIns

    roster = Roster.load(write_roster(tmp_path / "roster.yaml"))
    server = WarroomServer(SignIns(roster, "nobody"), AppOptions(data_dir=tmp_path / "data"), host="127.0.0.1",
                           port=0)  # fmt: skip
    started: list[str] = []

    async def start(self: TabService, width: int, height: int) -> None:
        started.append(self.command)

    real_prepare = web.WebSocketResponse.prepare

    async def prepare(self: web.WebSocketResponse, request: web.Request) -> object:
        for tab in server.tabs.values():  # the trainee's "Play here instead" in another tab, meanwhile
            tab.ended = True
        return await real_prepare(self, request)

    monkeypatch.setattr(TabService, "start", start)
    monkeypatch.setattr(web.WebSocketResponse, "prepare", prepare)
    async with TestClient(TestServer(build_application(server))) as client:
        form = {"name": "Ada Lovelace", "token": TOKENS["Ada Lovelace"]}
        async with client.post("/signin", data=form, allow_redirects=False) as r:
            assert r.status == 303
        async with client.ws_connect("/ws") as tab:
            message = await tab.receive(timeout=10)
        assert message.type == aiohttp.WSMsgType.CLOSE and tab.close_code == aiohttp.WSCloseCode.GOING_AWAY
    assert started == [] and server.tabs == {} and server.active == 0


async def test_a_tab_whose_opening_fails_gives_its_seat_back(tmp_path, monkeypatch, caplog):
    """Item 4 (a seat never released): the seat of a tab was counted before the live table heard of the tab, outside
    the ``try`` that gives it back: an error there (the live table's) kept the seat taken for as long as the server
    ran, one more each time, until the war room was "full" with nobody in it. The seat is given back."""
    from aiohttp.test_utils import TestClient, TestServer
    from serve_support import TOKENS, write_roster

    from warroom.serve import AppOptions, Roster
    from warroom.serve._server import WarroomServer, build_application
    from warroom.serve._signin import SignIns

    class BrokenLive:
        def tab_opened(self, *_args: object) -> None:
            raise RuntimeError("the live table failed")

        def tab_closed(self, *_args: object) -> None:
            return None

        def start(self) -> None:
            return None

        async def stop(self) -> None:
            return None

    roster = Roster.load(write_roster(tmp_path / "roster.yaml"))
    server = WarroomServer(SignIns(roster, "nobody"), AppOptions(data_dir=tmp_path / "data"), host="127.0.0.1",
                           port=0, max_sessions=1)  # fmt: skip
    server.live = BrokenLive()  # type: ignore[assignment]
    async with TestClient(TestServer(build_application(server))) as client:
        form = {"name": "Ada Lovelace", "token": TOKENS["Ada Lovelace"]}
        async with client.post("/signin", data=form, allow_redirects=False) as r:
            assert r.status == 303
        for _ in range(3):
            with pytest.raises(aiohttp.WSServerHandshakeError) as failed:
                await client.ws_connect("/ws")
            assert failed.value.status == 500  # the server's error, not "all seats taken"
    assert server.active == 0 and server.tabs == {} and not server.full()


async def test_keys_for_an_app_process_that_stopped_reading_end_the_session_instead_of_hanging_it(monkeypatch):
    """Item 4 (a seat never released): keys for an app process that no longer reads its input (hung, stopped)
    filled its input pipe, and the relay waited on the write for ever: it read no more messages, so neither a closed
    tab nor the server's pings ended it; the seat stayed taken and the process was never ended. A write that waits
    :data:`INPUT_TIMEOUT` seconds ends the session (one log line), and the process is ended as a closed tab's is."""
    import json
    import signal

    from aiohttp import WSMessage, WSMsgType
    from textual_serve.download_manager import DownloadManager

    from warroom.serve import _tab
    from warroom.serve._tab import MAX_KEYS_BYTES, BadMessage, InputBudget, TabService, relay_messages

    async def nothing(*_args: object) -> None:
        return None

    class Tab:  # a tab that types fast (its budget is not the subject here)
        def __aiter__(self):  # type: ignore[no-untyped-def]
            return self

        async def __anext__(self) -> WSMessage:
            return WSMessage(WSMsgType.TEXT, json.dumps(["stdin", "j" * MAX_KEYS_BYTES]), None)

    assert _tab.INPUT_TIMEOUT == 10.0  # the server's: 1 s here
    monkeypatch.setattr(_tab, "INPUT_TIMEOUT", 1.0)
    monkeypatch.setattr(InputBudget, "take", lambda self, n: True)
    service = TabService("exec sleep 60", write_bytes=nothing, write_str=nothing, close=nothing,
                         download_manager=DownloadManager())  # fmt: skip
    await service._open_app_process()  # never reads its input
    with pytest.raises(BadMessage, match=r"its app process took no input for 1 s \(it no longer reads it\)"):
        await asyncio.wait_for(relay_messages(Tab(), service), 20)  # type: ignore[arg-type]
    assert await service.end(grace=5.0) == -signal.SIGTERM


def test_in_a_real_browser_a_second_tab_offers_to_play_there_and_takes_over(tmp_path):
    """Item 1 as a trainee sees it: a second tab of the same browser shows "already playing in another tab" and its
    "Play here instead" button; clicking it gives that tab the picker, and the first tab's terminal is closed."""
    from browser_support import chromium_executable, sync_playwright
    from serve_support import TOKENS, terminal_text

    def text_of(frames: list[bytes | str]) -> str:
        raw = b"".join(f if isinstance(f, bytes) else f.encode() for f in frames)
        return " ".join(terminal_text(raw).split())

    def wait_for_picker(page: object, frames: list[bytes | str]) -> None:
        deadline = time.monotonic() + 90
        while PICKER_TEXT not in text_of(frames):
            assert time.monotonic() < deadline, f"no picker in the browser: {text_of(frames)[-1500:]}"
            page.wait_for_timeout(300)  # type: ignore[attr-defined]

    executable = chromium_executable()
    with serving(tmp_path) as served, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, headless=True, args=["--no-sandbox"])
        try:
            context = browser.new_context()
            first, first_frames, closed = context.new_page(), [], []
            first.on("websocket", lambda ws: (ws.on("framereceived", lambda payload: first_frames.append(payload)),
                                              ws.on("close", lambda _ws: closed.append(True))))  # fmt: skip
            first.goto(served.url + "/")
            first.fill("#name", "Ada Lovelace")
            first.fill("#token", TOKENS["Ada Lovelace"])
            first.click("button[type=submit]")
            first.wait_for_url(served.url + "/")
            wait_for_picker(first, first_frames)
            second, second_frames = context.new_page(), []
            second.on("websocket", lambda ws: ws.on("framereceived", lambda payload: second_frames.append(payload)))
            response = second.goto(served.url + "/")
            assert response is not None and response.status == 409
            assert "already playing in another tab" in second.text_content("body")
            with second.expect_navigation():
                second.click("button[type=submit]")  # "Play here instead"
            assert second.url == served.url + "/"
            wait_for_picker(second, second_frames)
            deadline = time.monotonic() + 30
            while not closed:
                assert time.monotonic() < deadline, "the first tab's terminal was not closed"
                first.wait_for_timeout(200)
        finally:
            browser.close()
    log = served.log.read_text(errors="replace")
    assert "'Ada Lovelace' plays in a new tab: 1 other tab ended" in log and "Traceback" not in log


async def test_signing_in_and_out_raises_its_redirect_as_aiohttp_asks_and_keeps_the_cookie(tmp_path):
    """The sign-in and the sign-out returned their redirect (an HTTPException), which aiohttp deprecates ("returning
    HTTPException object is deprecated ... will be removed"): an aiohttp without it would fail every sign-in. The
    redirect is raised, with its cookie set (or deleted)."""
    import warnings

    from aiohttp.test_utils import TestClient, TestServer
    from serve_support import TOKENS, write_roster

    from warroom.serve import AppOptions, Roster
    from warroom.serve._server import WarroomServer, build_application
    from warroom.serve._signin import SignIns

    roster = Roster.load(write_roster(tmp_path / "roster.yaml"))
    server = WarroomServer(SignIns(roster, "nobody"), AppOptions(data_dir=tmp_path / "data"), host="127.0.0.1",
                           port=0)  # fmt: skip
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        async with TestClient(TestServer(build_application(server))) as client:
            cookie = f"warroom_signin_{client.port}"
            form = {"name": "Ada Lovelace", "token": TOKENS["Ada Lovelace"]}
            async with client.post("/signin", data=form, allow_redirects=False) as r:
                assert (r.status, r.headers["Location"]) == (303, "/") and r.cookies[cookie].value
            async with client.get("/mine", allow_redirects=False) as r:
                assert r.status != 401  # signed in
            async with client.post("/signout", allow_redirects=False) as r:
                assert (r.status, r.headers["Location"]) == (303, "/signin") and r.cookies[cookie].value == ""
    assert [str(w.message) for w in caught if "HTTPException" in str(w.message)] == []


async def test_a_page_after_a_take_over_waits_for_the_seat_of_the_tab_taken_over_as_long_as_its_process_quits(
    tmp_path, monkeypatch
):
    """On a loaded host the app process of a tab taken over took more than the 3 s a page waits for a reloaded tab's
    old connection (``RELOAD_WAIT``) to store its drill and quit: the trainee who had pressed "Play here instead" got
    "all seats taken" for the seat that was theirs. The page waits for that process as long as a leaving process may
    take (``LEAVING_WAIT``), then takes its seat."""
    from serve_support import write_roster

    from warroom.serve import AppOptions, Roster, _server
    from warroom.serve._signin import SignIns

    roster = Roster.load(write_roster(tmp_path / "roster.yaml"))
    server = _server.WarroomServer(SignIns(roster, "nobody"), AppOptions(data_dir=tmp_path / "data"),
                                   host="127.0.0.1", port=0, max_sessions=1)  # fmt: skip
    monkeypatch.setattr(_server, "RELOAD_WAIT", 0.1)  # the quit below takes longer than this, not than LEAVING_WAIT
    server.tabs["old"] = _server._Tab("Ada Lovelace", ended=True, id="old")  # taken over: its process still quits
    server.active = 1  # its seat, the only one

    async def process_gone() -> None:
        await asyncio.sleep(0.6)
        del server.tabs["old"]
        server.active = 0
        server._tabs_changed()  # as the server does when a tab's app process exits

    gone = asyncio.create_task(process_gone())
    started = time.monotonic()
    assert await server._wait_for_a_tab("Ada Lovelace") is False
    assert not server.full() and gone.done()
    assert time.monotonic() - started < 5  # woken by the process's exit, not at the end of LEAVING_WAIT
