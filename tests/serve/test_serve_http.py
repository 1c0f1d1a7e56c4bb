"""``warroom serve`` over plain HTTP and its websocket, as a real server process: sign-in with the roster, nothing
but the sign-in page without it, the 503 page over --max-sessions, what the browser receives before the debrief,
and a closed tab or a killed app process stored as an abandoned session."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from serve_support import CLOCK_TEXT, TOKENS, Served, answer_key_phrases, read_until, receive, serving, shared_serving

from warroom.store.errors import StoreError
from warroom.store.results import ResultsStore

# the tutorial's title: the picker's first row for a new trainee (every roster trainee of these tests is new)
PICKER_TEXT = "Tutorial: where-is"
# the line under every briefing (warroom/tui/screens/_briefing.py)
BRIEFING_TEXT = "Press enter to start the drill clock"


@pytest.fixture(scope="module")
def served(tmp_path_factory):  # type: ignore[no-untyped-def]
    """One `warroom serve` with the roster for this module's cases that only sign in and read its log (each its own
    lines: :meth:`Served.log_since`)."""
    with shared_serving(tmp_path_factory.mktemp("http")) as server:
        yield server


def _stored(data_dir: Path, timeout: float = 30.0) -> list:
    """The sessions stored in ``data_dir`` once there is at least one (waits up to ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with ResultsStore(data_dir, create=False) as store:
                rows = store.query()
            if rows:
                return rows
        except StoreError:  # not created yet
            pass
        assert time.monotonic() < deadline, "no session was stored"
        time.sleep(0.3)


def _journals(data_dir: Path) -> list[Path]:
    folder = data_dir / "journals"
    return sorted(folder.glob("*.jsonl")) if folder.is_dir() else []


async def _enter_war_room(ws: aiohttp.ClientWebSocketResponse, data_dir: Path) -> str:
    """From the picker, open the first drill's briefing and start it (enter, enter, each key once the screen it is
    meant for is drawn); returns the terminal output seen."""
    text = await read_until(ws, PICKER_TEXT)
    await ws.send_json(["stdin", "\r"])
    text += await read_until(ws, BRIEFING_TEXT)
    await ws.send_json(["stdin", "\r"])
    deadline = time.monotonic() + 30
    while not _journals(data_dir):  # the drill's journal exists once the war room opened
        assert time.monotonic() < deadline, "the war room did not open"
        text += await _screen_bytes(ws, 0.1)
    return text


async def _screen_bytes(ws: Any, timeout: float) -> str:
    """The text of the next binary message of the websocket ``ws`` (the app's screen output), or "" when none comes
    within ``timeout`` seconds (other messages give "" too)."""
    try:
        message = await receive(ws, timeout)
    except TimeoutError:
        return ""
    return message.data.decode("utf-8", "replace") if message.type == aiohttp.WSMsgType.BINARY else ""


async def test_without_a_sign_in_only_the_sign_in_page_is_served(tmp_path):
    with serving(tmp_path) as served:
        async with aiohttp.ClientSession(base_url=served.url) as http:
            async with http.get("/", allow_redirects=False) as r:
                assert r.status == 303 and r.headers["Location"] == "/signin"
            async with http.get("/signin") as r:
                assert r.status == 200 and 'name="token"' in await r.text()
            for path in ("/ws", "/static/js/textual.js", "/download/x", "/anything"):
                async with http.get(path, allow_redirects=False) as r:
                    assert r.status == 401, path
                    assert "textual" not in (await r.text()).lower()
            async with http.post("/signin", data={"name": "Ada Lovelace", "token": TOKENS["Grace Hopper"]}) as r:
                assert r.status == 401 and "not on the roster" in await r.text()
                assert served.cookie not in r.cookies
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect("/ws")
            assert refused.value.status == 401
            # a made-up cookie is no sign-in
            http.cookie_jar.update_cookies({served.cookie: "forged"})
            async with http.get("/", allow_redirects=False) as r:
                assert r.status == 303


async def test_a_malformed_request_is_one_line_in_the_log_without_the_requests_bytes(served: Served):
    """A request aiohttp cannot parse (a header over 8190 bytes) from a signed-in browser: HTTP 400, and the server's
    log says so in one line: no traceback, no local variables, so not the request's bytes with its sign-in cookie."""
    start = served.log_size()
    http = await served.signed_in()
    async with http:
        cookie = next(c.value for c in http.cookie_jar if c.key == served.cookie)
        async with http.get("/", headers={"Referer": "x" * 9000}) as r:
            assert r.status == 400
        async with http.get("/") as r:  # the server goes on serving
            assert r.status == 200
    log = served.log_since(start)  # one line per record: never wrapped
    assert "Error handling request from 127.0.0.1: HTTP 400, Got more than 8190 bytes when reading" in log, log
    assert cookie not in log and "Traceback" not in log and "locals" not in log


async def test_a_signed_in_trainee_gets_the_terminal_page_and_the_picker_without_a_server_path(tmp_path):
    with serving(tmp_path) as served:
        http = await served.signed_in()
        async with http:
            async with http.get("/") as r:
                assert r.status == 200
                page = await r.text()
            # a path, read against the page's own address (never the bind address; wss:// behind a TLS proxy)
            assert 'data-session-websocket-url="/ws' in page
            # every URL the page loads is this server's (no web font from another site: an offline classroom works)
            urls = re.findall(r'(?:href|src)="([^"#][^"]*)"', page)
            assert urls and all(url.startswith("/") and not url.startswith("//") for url in urls), urls
            assert "googleapis" not in page
            async with http.get("/static/js/textual.js") as r:
                assert r.status == 200
            with pytest.raises(aiohttp.WSServerHandshakeError) as foreign:  # a page of another site
                await http.ws_connect("/ws", headers={"Origin": "http://evil.example"})
            assert foreign.value.status == 403
            # tall enough for the list of every bundled drill and the whole preview (which ends with the file's name)
            async with http.ws_connect("/ws?width=220&height=160") as ws:
                text = " ".join((await read_until(ws, "tutorial.yaml", timeout=90)).split())
    assert PICKER_TEXT in text
    # no path of the server reaches the browser in the picker: the preview ends with the drill file's name, not
    # its absolute path on the server (one tab for both: each served tab is an app process of its own)
    from warroom.core.library import bundled_drills_dir

    assert str(bundled_drills_dir()) not in text and str(served.data_dir) not in text
    assert "/tutorial.yaml" not in text


async def test_the_session_over_the_limit_gets_a_503_page_not_a_hang(tmp_path):
    with serving(tmp_path, "--max-sessions", "1") as served:
        http = await served.signed_in()
        other = await served.signed_in("Grace Hopper")
        async with http, other:
            async with http.ws_connect("/ws") as ws:
                await read_until(ws, PICKER_TEXT)
                async with other.get("/") as r:
                    assert r.status == 503
                    assert "limit of 1 sessions" in await r.text()
                with pytest.raises(aiohttp.WSServerHandshakeError) as full:
                    await other.ws_connect("/ws")
                assert full.value.status == 503
            deadline = time.monotonic() + 30  # the seat is free again once the first session's process ended
            while True:
                async with other.get("/") as r:
                    if r.status == 200:
                        break
                assert time.monotonic() < deadline, "the seat was never freed"
                await asyncio.sleep(0.3)


async def test_no_answer_key_reaches_the_browser_before_the_debrief_and_the_clock_is_a_web_glyph(tmp_path):
    phrases = answer_key_phrases()
    assert phrases, "no bundled drill with an answer key"
    with serving(tmp_path) as served:
        http = await served.signed_in()
        async with http, http.ws_connect("/ws?width=160&height=50") as ws:
            text = await _enter_war_room(ws, served.data_dir)
            text += await read_until(ws, "s1")  # the war room's plan is on screen
            text += await read_until(ws, CLOCK_TEXT)  # and its drill clock
            end = time.monotonic() + 4  # a few seconds of the replay
            while time.monotonic() < end:
                text += await _screen_bytes(ws, 0.5)
    from serve_support import terminal_text

    # the served war room draws its clock with a glyph browsers have (one tab for both checks: each served tab is an
    # app process of its own)
    assert "⏱" not in text
    seen = " ".join(terminal_text(text.encode()).split())
    assert PICKER_TEXT in seen  # the check below reads the real screen text
    for drill_id, secret in phrases.items():
        for phrase in secret:
            assert phrase not in seen, f"{drill_id}: {phrase!r} reached the browser before the debrief"


async def test_a_closed_tab_mid_drill_is_stored_as_abandoned_for_the_signed_in_trainee(tmp_path):
    with serving(tmp_path) as served:
        http = await served.signed_in("Grace Hopper")
        async with http:
            ws = await http.ws_connect("/ws")
            await _enter_war_room(ws, served.data_dir)
            await asyncio.sleep(1.0)
            await ws.close()  # the tab closes
            rows = _stored(served.data_dir)
    assert [(r.trainee, r.outcome) for r in rows] == [("Grace Hopper", "abandoned")]
    assert _journals(served.data_dir) == []


async def test_a_stopped_server_tells_every_open_session_to_quit_at_once(tmp_path):
    """SIGTERM to the server alone (a service manager's stop) while a browser that answers every ping is mid-drill:
    the server closes the tab's websocket as going away (1001, before aiohttp's shutdown timeout would end it), the
    app process stores the drill as abandoned, and the server exits."""
    with serving(tmp_path) as served:
        http = await served.signed_in("Grace Hopper")
        async with http, http.ws_connect("/ws") as ws:
            await _enter_war_room(ws, served.data_dir)
            served.proc.send_signal(signal.SIGTERM)
            message = await receive(ws, 50)
            while message.type == aiohttp.WSMsgType.BINARY:  # the screen updates before the close
                message = await receive(ws, 50)
            assert message.type == aiohttp.WSMsgType.CLOSE, message
            assert message.data == aiohttp.WSCloseCode.GOING_AWAY
        assert served.proc.wait(timeout=30) == 0
        rows = _stored(served.data_dir)
    assert [(r.trainee, r.outcome) for r in rows] == [("Grace Hopper", "abandoned")]


def _app_pid(data_dir: Path) -> int:
    """The pid of the served app process (``python -m warroom --trainee ...``) using ``data_dir``."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--trainee" in args and str(data_dir).encode() in args and b"serve" not in args:
            return int(entry.name)
    raise AssertionError("no served app process found")


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the app process through /proc")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
async def test_a_served_app_process_killed_mid_drill_stores_the_session_as_abandoned(tmp_path, signum):
    with serving(tmp_path) as served:
        http = await served.signed_in()
        async with http, http.ws_connect("/ws") as ws:
            await _enter_war_room(ws, served.data_dir)
            await asyncio.sleep(1.0)
            os.kill(_app_pid(served.data_dir), signum)
            rows = _stored(served.data_dir)
    assert [(r.trainee, r.outcome) for r in rows] == [("Ada Lovelace", "abandoned")]


async def test_served_sessions_go_to_the_store_given_with_store_and_its_url_is_never_printed(tmp_path, store_url):
    """--store on PostgreSQL: the app processes inherit the store (not on their command line); a closed tab's session
    arrives there as abandoned, and nothing the server prints holds the URL."""
    with serving(tmp_path, "--store", store_url) as served:
        http = await served.signed_in("Grace Hopper")
        async with http:
            ws = await http.ws_connect("/ws")
            await _enter_war_room(ws, served.data_dir)
            assert store_url.encode() not in b"".join(
                (Path("/proc") / str(_app_pid(served.data_dir)) / "cmdline").read_bytes().split(b"\0")
            )
            await ws.close()
            deadline = time.monotonic() + 30
            while True:
                with ResultsStore(served.data_dir, url=store_url, create=False) as store:
                    rows = store.query()
                if rows:
                    break
                assert time.monotonic() < deadline, "no session reached the PostgreSQL store"
                await asyncio.sleep(0.3)
    assert [(r.trainee, r.outcome) for r in rows] == [("Grace Hopper", "abandoned")]
    assert not (served.data_dir / "results.sqlite3").exists()
    output = served.log.read_text(errors="replace")
    assert "War Room served on" in output and store_url not in output


async def test_a_tab_over_the_limit_in_a_simultaneous_start_gets_the_503_page(tmp_path):
    """Four tabs for three seats opened at the same moment: each page takes its seat when served, so three get the
    terminal (whose websockets then connect on the seats held for them) and the fourth the 503 page, never a
    terminal that says "Session ended.". (Each trainee here opens two tabs: ``--tabs-per-trainee 2``.)"""
    with serving(tmp_path, "--max-sessions", "3", "--tabs-per-trainee", "2") as served:
        browsers = [await served.signed_in(name) for name in ("Ada Lovelace", "Grace Hopper", "Ada Lovelace",
                                                                "Grace Hopper")]  # fmt: skip

        async def page(http: aiohttp.ClientSession) -> tuple[int, str]:
            async with http.get("/") as r:
                return r.status, await r.text()

        try:
            pages = await asyncio.gather(*(page(b) for b in browsers))
            assert sorted(status for status, _ in pages) == [200, 200, 200, 503]
            full = next(text for status, text in pages if status == 503)
            assert "limit of 3 sessions" in full
            sockets = []
            for http, (status, text) in zip(browsers, pages, strict=True):
                if status == 200:
                    url = re.search(r'data-session-websocket-url="(/ws/[^"]+)"', text)
                    assert url is not None
                    sockets.append(await http.ws_connect(url.group(1) + "?width=120&height=40"))
            # every seat held for a page is its tab's; the tabs read together (each answering the server's pings:
            # one tab read after another left the others unread past the ping's timeout on a loaded machine)
            await asyncio.gather(*(read_until(ws, PICKER_TEXT, timeout=90) for ws in sockets))
            for ws in sockets:
                await ws.close()
        finally:
            for http in browsers:
                await http.close()


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the app process through /proc")
async def test_a_tab_whose_app_process_died_is_told_the_session_ended(tmp_path):
    """``kill -9`` of a tab's app process: the server closes the tab's websocket at once (the page says the session
    ended), instead of leaving it open on its last frame."""
    with serving(tmp_path) as served:
        http = await served.signed_in()
        async with http, http.ws_connect("/ws?width=120&height=40") as ws:
            await read_until(ws, PICKER_TEXT, timeout=90)
            os.kill(_app_pid(served.data_dir), signal.SIGKILL)
            killed = time.monotonic()
            message = await receive(ws, 30)
            while message.type == aiohttp.WSMsgType.BINARY:
                message = await receive(ws, 30)
            assert message.type == aiohttp.WSMsgType.CLOSE, message
            assert time.monotonic() - killed < 5
        assert "a served app process ended; its tab is told the session ended" in served.log.read_text()


async def test_sign_ins_are_logged_with_their_names_one_line_each(served: Served):
    long_name = "Someone With A Very Long Name " * 3 + "\x1b[31mred"
    start = served.log_size()
    http = await served.signed_in("Grace Hopper")
    async with http, http.post("/signin", data={"name": long_name, "token": "wrong"}) as r:
        assert r.status == 401
    log = served.log_since(start)
    assert "INFO sign-in: 'Grace Hopper' (trainee) from 127.0.0.1\n" in log
    refused = [line for line in log.splitlines() if "sign-in refused:" in line]
    assert len(refused) == 1 and len(refused[0]) > 100  # one line, however long
    assert "Someone With A Very Long Name Someone" in refused[0] and "\x1b" not in log and "wrong" not in log
