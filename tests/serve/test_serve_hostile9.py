"""Hostile input to ``warroom serve`` (issue 30, campaign 9: the served room and console as a hostile user and a
faulty world drive them): what it found and what now holds."""

from __future__ import annotations

import contextlib

import aiohttp
import pytest
from serve_support import FACILITATOR, TOKENS, serving, set_grid_and_gradebook


def test_a_trainee_signed_in_in_many_browsers_is_one_line_of_the_live_class(tmp_path):
    """Before: each sign-in of a trainee without a tab was a line of its own in the live class (and of the store's
    live table, written again at every heartbeat), kept 12 hours. Now one line while any of them waits without a
    tab; it goes once none does."""
    from warroom.serve import LiveClass
    from warroom.store.live import PICKER, SIGNED_IN

    live = LiveClass("host", tmp_path)

    def states() -> list[tuple[str, str]]:
        return sorted((row.trainee, row.state) for row in live.rows.values())

    for i in range(300):
        live.signed_in(f"ada-{i}", "Ada Lovelace")
    live.signed_in("grace-0", "Grace Hopper")
    assert states() == [("Ada Lovelace", SIGNED_IN), ("Grace Hopper", SIGNED_IN)]
    live.signed_out("ada-299")  # the sign-in whose line is shown ends: another of Ada's is shown
    assert states() == [("Ada Lovelace", SIGNED_IN), ("Grace Hopper", SIGNED_IN)]
    live.tab_opened("tab-1", "Ada Lovelace", "ada-0")  # a tab from one browser; others still wait without a tab
    assert states() == [("Ada Lovelace", PICKER), ("Ada Lovelace", SIGNED_IN), ("Grace Hopper", SIGNED_IN)]
    for i in range(1, 299):
        live.signed_out(f"ada-{i}")
    live.tab_opened("tab-2", "Grace Hopper", "grace-0")
    assert states() == [("Ada Lovelace", PICKER), ("Grace Hopper", PICKER)]
    live.close()


async def test_a_trainee_signing_in_again_and_again_holds_a_bounded_number_of_sign_ins_and_one_console_line(tmp_path):
    """Before: a trainee (a script) signing in again and again without the cookie kept every sign-in 12 hours:
    300 sign-ins were 300 lines **signed in** on the facilitator's live page and 300 records in the server's
    memory, without end. Now a name holds at most 8 sign-ins (the oldest ends) and the live class shows one line."""
    from warroom.serve._signin import MAX_SIGNINS_PER_NAME

    cookies = []
    with serving(tmp_path) as served:
        for _ in range(MAX_SIGNINS_PER_NAME + 3):
            browser = await served.signed_in("Ada Lovelace")
            async with browser:
                cookies.append(next(c.value for c in browser.cookie_jar if c.key == served.cookie))
        async with aiohttp.ClientSession(base_url=served.url) as replay:
            statuses = []
            for cookie in cookies:
                async with replay.get("/mine", headers={"Cookie": f"{served.cookie}={cookie}"},
                                      allow_redirects=False) as r:  # fmt: skip
                    statuses.append(r.status)
        fran = await served.signed_in(FACILITATOR)
        async with fran, fran.get("/console") as r:
            page = await r.text()
    assert statuses == [303] * 3 + [200] * MAX_SIGNINS_PER_NAME  # the three oldest ended, to the sign-in page
    assert page.count(">Ada Lovelace<") == 1, page.count(">Ada Lovelace<")
    assert TOKENS["Ada Lovelace"] not in page


async def test_a_trainee_opening_and_closing_tabs_quickly_never_takes_the_class_seats(tmp_path):
    """Before: each tab closed keeps its seat until its app process is gone (a process asked to quit while it starts
    quits once started: seconds, up to the 15 s grace on a loaded host), so a trainee opening and closing tabs
    quickly, each within ``--tabs-per-trainee``, took every seat of ``--max-sessions`` and the class got "all seats
    taken" (six tabs in a second, all six seats). Now a trainee's new tab waits while two of their closed tabs'
    processes are still quitting, and a classmate gets a seat meanwhile."""
    import asyncio

    async def open_and_close(browser: aiohttp.ClientSession) -> int:
        try:
            ws = await browser.ws_connect("/ws?width=80&height=24")
        except aiohttp.WSServerHandshakeError as refused:
            return refused.status
        await ws.close()  # at once: its app process is still starting
        return 101

    with serving(tmp_path, "--max-sessions", "3") as served:
        ada, grace = await served.signed_in("Ada Lovelace"), await served.signed_in("Grace Hopper")
        async with ada, grace:
            assert [await open_and_close(ada), await open_and_close(ada)] == [101, 101]
            third = asyncio.ensure_future(open_and_close(ada))  # waits for one of the two to be gone
            await asyncio.sleep(0.3)
            try:
                ws = await grace.ws_connect("/ws?width=80&height=24")
                await ws.close()
                graces = 101
            except aiohttp.WSServerHandshakeError as refused:
                graces = refused.status
            assert graces == 101, "a classmate found every seat taken by one trainee's closed tabs"
            assert await asyncio.wait_for(third, 120) == 101  # once a process of Ada's is gone, her tab opens


@pytest.mark.parametrize("how", ["signed-out", "removed-from-roster"])
async def test_the_live_class_stream_ends_with_the_facilitators_sign_in(tmp_path, how):
    """Before: the console's live stream, once open, sent the class's live table (names, drills, statuses) for as
    long as the page stayed open, after its sign-in had ended: a facilitator (a teaching assistant) removed from the
    roster, or signed out in another tab, kept watching the class. Now the stream ends within a few seconds."""
    import asyncio

    from warroom.serve import Roster

    with serving(tmp_path) as served:
        fran = await served.signed_in(FACILITATOR)
        async with fran, fran.get("/console/live/events", timeout=aiohttp.ClientTimeout(total=60)) as stream:
            assert (await stream.content.readline()).startswith(b"event: live")
            if how == "signed-out":  # from another tab of the same browser
                async with fran.post("/signout", headers={"Origin": served.url}, allow_redirects=False) as r:
                    assert r.status == 303
            else:
                roster = tmp_path / "roster.yaml"
                Roster.load(roster).without([FACILITATOR]).save(roster)
            ended = False
            try:
                async with asyncio.timeout(30):
                    while await stream.content.readline():  # the live lines, read until the stream ends
                        continue
                    ended = True
            except TimeoutError:  # still sending after 30 s: ``ended`` stays False, and the test fails on it
                ended = False
    assert ended, "the live class went on streaming to a browser whose sign-in had ended"


def test_a_trainee_opening_and_closing_tabs_again_and_again_keeps_three_gone_lines_in_the_live_class(tmp_path):
    """Before: every tab closed stayed a **disconnected** line of the live class for 30 minutes, so a trainee
    reloading again and again (a key held down, a script) put hundreds of lines on every facilitator's page. Now
    the live class keeps the latest three of a trainee's gone tabs; other trainees' lines are untouched."""
    from warroom.serve import LiveClass
    from warroom.serve._live import GONE_PER_TRAINEE
    from warroom.store.live import DISCONNECTED

    live = LiveClass("host", tmp_path)
    for name, tabs in (("Grace Hopper", 2), ("Ada Lovelace", 200)):
        for i in range(tabs):
            live.tab_opened(f"{name[:3]}-{i:03d}", name, None)
            live.tab_closed(f"{name[:3]}-{i:03d}")
    live.tab_opened("Ada-open", "Ada Lovelace", None)
    gone = sorted(tab for tab, row in live.rows.items() if row.state == DISCONNECTED)
    assert GONE_PER_TRAINEE == 3
    assert gone == ["Ada-197", "Ada-198", "Ada-199", "Gra-000", "Gra-001"]
    assert "Ada-open" in live.rows
    live.close()


def test_the_websockets_own_pings_count_against_a_tabs_budget():
    """Before: websocket ping frames were answered by aiohttp itself, pong for pong, past the tab's budget: a tab
    sending them as fast as it could (6 MB a second) took half a core of the server's event loop, which every tab
    waits on, and was never ended. Now they cost what a message costs: a heartbeat's pong or an occasional ping
    passes, a flood ends the session."""
    from types import SimpleNamespace

    from aiohttp import WSMsgType

    from warroom.serve._tab import BadMessage, InputBudget, read_message

    now = [0.0]
    budget = InputBudget(clock=lambda: now[0])
    for _ in range(8 * 60):  # a pong every 15 s and a ping a second for 8 minutes
        now[0] += 1.0
        assert read_message(SimpleNamespace(type=WSMsgType.PING, data=b"x" * 125), budget) == ("ping frame", b"x" * 125)
        assert read_message(SimpleNamespace(type=WSMsgType.PONG, data=b""), budget) == ("pong frame", b"")
    flood = InputBudget(clock=lambda: now[0])
    with pytest.raises(BadMessage, match="more input than a tab may send"):
        for _ in range(10_000):
            now[0] += 0.001
            read_message(SimpleNamespace(type=WSMsgType.PING, data=b"x" * 125), flood)


async def test_a_tab_flooding_websocket_pings_is_ended_and_one_leaving_mid_answer_logs_no_traceback(tmp_path):
    """Before: a tab sending websocket ping frames without end was answered for ever, and one closing its connection
    while pongs were owed had aiohttp's answer raise "Cannot write to closing transport" out of the relay: "a served
    session failed" and a traceback in the server's log. Now the flood ends the session (1008) in one log line, and
    the tab leaving logs nothing."""
    import asyncio
    import base64
    import os
    import socket
    import threading

    def open_tab(cookie: str) -> socket.socket:
        s = socket.create_connection(("127.0.0.1", served.port), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        head = (f"GET /ws?width=80&height=24 HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
                f"Origin: {served.url}\r\nCookie: {served.cookie}={cookie}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")  # fmt: skip
        s.sendall(head.encode())
        assert s.recv(12) == b"HTTP/1.1 101"
        return s

    ping = bytes([0x89, 0x80 | 125]) + b"\0\0\0\0" + b"x" * 125  # masked, with a zero mask
    with serving(tmp_path) as served:
        for name in ("Ada Lovelace", "Grace Hopper"):
            browser = await served.signed_in(name)
            async with browser:
                cookie = next(c.value for c in browser.cookie_jar if c.key == served.cookie)
            tab = open_tab(cookie)
            if name == "Ada Lovelace":  # a flood once the tab plays (its first screen came), read meanwhile
                assert tab.recv(1 << 16)
                reader = threading.Thread(target=_read_to_the_end, args=(tab,), daemon=True)
                reader.start()
                with contextlib.suppress(OSError):  # the server ending the connection mid-flood: what is tested
                    for _ in range(100):
                        tab.sendall(ping * 200)
                reader.join(60)  # until the server closes the connection
            else:  # a few pings, never read, then the connection reset
                tab.sendall(ping * 50)
                tab.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\1\0\0\0\0\0\0\0")
            tab.close()
        for _ in range(180):  # both tabs' connections ended (each logged once its app process is gone)
            log = served.log.read_text(errors="replace")
            if log.count('"GET /ws?width=80&height=24 HTTP/1.1" 101') == 2:
                break
            await asyncio.sleep(0.5)
    assert "Traceback" not in log and "a served session failed" not in log, log[-3000:]
    assert "ended the session of 'Ada Lovelace': more input than a tab may send" in log, log[-3000:]
    assert "ended the session of 'Grace Hopper'" not in log


def _read_to_the_end(tab) -> None:
    """Read a raw connection until the server closes it."""
    with contextlib.suppress(OSError):  # a reset is an end too
        while tab.recv(1 << 20):
            continue


async def test_the_served_grid_and_gradebook_take_the_first_attempt_the_store_stored_not_the_earliest_start(tmp_path):
    """A trainee quits a drill of the set, reads its review, sets the clock back a year and plays it again, well:
    the figures count the session the store stored first, but the console's grid and gradebook took the earliest
    start, the informed replay. They take the store's order too."""
    import sqlite3

    from handcohort_support import SET_ID, Play, play

    data = tmp_path / "data"
    first = play(data, Play("ana", "A", (("quit", 5),)))  # abandoned: 0
    replay = play(data, Play("ana", "A", (("esc", 12, "s1", ("e06",)),)))  # well, after the review
    with sqlite3.connect(data / "results.sqlite3") as conn:  # its clock set back a year
        conn.execute("UPDATE sessions SET started_at = '2025-11-29T10:00:00.000000Z' WHERE session_id = ?", (replay,))
    with serving(tmp_path, data_dir=data) as served:
        ana, shown = await set_grid_and_gradebook(served, SET_ID, "ana")
    assert ana[1].startswith("0 (2 attempts, best "), ana
    assert shown == (first, f"done · abandoned · {ana[1]}")
