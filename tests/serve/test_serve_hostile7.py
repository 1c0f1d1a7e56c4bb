"""Hostile input to ``warroom serve`` (issue 30, campaign 7: the served room, the console, a hand-written
websocket client): what it found and what now holds."""

from __future__ import annotations

import time

import aiohttp
import pytest
from aiohttp import WSMsgType
from serve_support import read_until, receive, serving, shared_serving

from warroom.serve._tab import BadMessage, KeySequences

PICKER_TEXT = "Tutorial: where-is"

#: Keys a browser's terminal never sends that Textual's input parser reads as something else than keys: a size
#: report past the bound (or of 0 cells), a pixel size of 0 then a mouse report (ZeroDivisionError in the parser, which
#: then reads no more input), a keyboard protocol's key that is a lone surrogate.
FORGED_REPORTS = {
    "size-report-huge": "\x1b[48;200;1114111;10;10t",
    "size-report-zero": "\x1b[48;0;0;0;0t",
    "size-report-zero-pixels-then-mouse": "\x1b[48;24;80;1;0t\x1b[<0;5;5M",
    "kitty-key-surrogate": "\x1b[55296u",
    "kitty-key-text-surrogate": "\x1b[97;1;57343u",
}


@pytest.mark.parametrize("keys", FORGED_REPORTS.values(), ids=FORGED_REPORTS.keys())
def test_a_terminal_report_or_a_surrogate_key_in_the_keys_is_refused_whole_or_split(keys):
    with pytest.raises(BadMessage):
        KeySequences().check(keys)
    split = KeySequences()
    with pytest.raises(BadMessage):
        split.check(keys[:4])
        split.check(keys[4:])


@pytest.mark.parametrize(
    "keys",
    ["\x1b[<0;5;5M", "\x1b[<35;500;200M", "\x1b[97;5u", "\x1b[57344u", "\x1b[1114111u", "\x1b[15;5~", "\x1b[2;5t",
     "\x1b[48;5u", "\x1b[0;0R"],
)  # fmt: skip
def test_keys_a_browser_sends_still_pass(keys):
    KeySequences().check(keys)


async def _closed_with(ws: aiohttp.ClientWebSocketResponse, timeout: float = 30.0) -> int | None:
    deadline = time.monotonic() + timeout
    while True:
        message = await receive(ws, max(0.1, deadline - time.monotonic()))
        if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING):
            return ws.close_code


@pytest.fixture(scope="module")
def ending_server(tmp_path_factory):
    """One `warroom serve` for the tests of a session ended by what its tab sent (a server each cost a start and
    its picker's cache): each test signs in a trainee of its own, so that what one ends is never the other's."""
    with shared_serving(tmp_path_factory.mktemp("ending")) as served:
        yield served


async def test_a_size_report_of_zero_pixels_then_a_mouse_report_ends_the_senders_session_not_its_input(
        ending_server):
    """Before: the app process's input parser raised ZeroDivisionError and read no more input; the tab stayed open,
    frozen, its seat taken. Now the sender's session ends (1008) with one log line, and a new tab plays."""
    served = ending_server
    ada = await served.signed_in("Ada Lovelace")
    async with ada:
        async with ada.ws_connect("/ws") as bad:
            await read_until(bad, PICKER_TEXT)
            await bad.send_json(["stdin", FORGED_REPORTS["size-report-zero-pixels-then-mouse"]])
            assert await _closed_with(bad) == aiohttp.WSCloseCode.POLICY_VIOLATION
        async with ada.ws_connect("/ws") as good:
            await read_until(good, PICKER_TEXT)
            await good.send_json(["stdin", "?"])
            await read_until(good, "escape closes")
    log = served.log.read_text(errors="replace")
    ended = [line for line in log.splitlines() if "ended the session of 'Ada Lovelace'" in line]
    assert len(ended) == 1 and "terminal size report" in ended[0], log
    assert "Traceback" not in log


def test_key_presses_are_counted_as_the_app_reads_them():
    from warroom.serve._tab import key_presses

    assert key_presses("j") == 1
    assert key_presses("jk" * 10) == 20
    assert key_presses("\x1b[A\x1bOB\x1b[<35;10;10M") == 3
    assert key_presses("\x1b[200~" + "x" * 5000 + "\x1b[201~") == 1  # a paste, as a browser sends it
    assert key_presses("é😀") == 2


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _stdin(keys: str):
    import json

    from aiohttp import WSMsgType

    class Message:
        type, data = WSMsgType.TEXT, json.dumps(["stdin", keys])

    return Message()


def test_a_tab_sends_at_most_128_key_presses_a_second_whatever_their_bytes():
    """Before: 2 KiB a second of one-byte keys was within the budget (1,933 presses a second), and the app process fell
    17 s behind in 30 s, growing by 72 MB. Now each press costs 16 bytes: 2,048 at once, then 128 a second."""
    from warroom.serve._tab import RATE_BYTES, InputBudget, read_message

    clock = _Clock()
    budget = InputBudget(clock=clock)
    assert read_message(_stdin("j" * 2048), budget) == ("stdin", b"j" * 2048)  # the burst: 2,048 presses at once
    clock.now += 1.0
    assert read_message(_stdin("j" * 128), budget)[0] == "stdin"  # then 128 a second
    with pytest.raises(BadMessage, match="than a tab may send"):
        read_message(_stdin("j"), budget)
    clock.now += 1.0  # a second later: 128 presses again, not 129
    with pytest.raises(BadMessage, match="more input than a tab may send \\(128 key presses a second\\)"):
        read_message(_stdin("j" * 129), budget)
    assert RATE_BYTES // 16 == 128


def test_typing_a_held_key_mouse_moves_and_a_long_paste_stay_within_the_budget():
    from warroom.serve._tab import InputBudget, read_message

    clock = _Clock()
    budget = InputBudget(clock=clock)
    for _ in range(600):  # 60 s of a held arrow key (30 a second) and the mouse moved (30 reports a second)
        clock.now += 1 / 10
        for _ in range(3):
            read_message(_stdin("\x1b[B"), budget)
            read_message(_stdin("\x1b[<35;120;40M"), budget)
    paste = "\x1b[200~" + "incident notes " * 1000 + "\x1b[201~"
    clock.now += 10
    assert read_message(_stdin(paste), budget)[0] == "stdin"


async def test_a_tab_sending_two_thousand_key_presses_a_second_is_ended_and_another_plays(ending_server):
    import asyncio

    served = ending_server
    grace = await served.signed_in("Grace Hopper")
    async with grace:
        async with grace.ws_connect("/ws") as flood:
            await read_until(flood, PICKER_TEXT)
            for _ in range(40):  # 200 one-byte keys every 0.1 s: 2,000 a second, 2 KiB a second
                if flood.closed:
                    break
                await flood.send_json(["stdin", "jk" * 100])
                await asyncio.sleep(0.1)
            assert await _closed_with(flood) == aiohttp.WSCloseCode.POLICY_VIOLATION
        async with grace.ws_connect("/ws") as good:
            await read_until(good, PICKER_TEXT)
            await good.send_json(["stdin", "?"])
            await read_until(good, "escape closes")
    log = served.log.read_text(errors="replace")
    ended = [line for line in log.splitlines() if "ended the session of 'Grace Hopper'" in line]
    assert len(ended) == 1 and "more input than a tab may send (128 key presses a second)" in ended[0], log
    assert "Traceback" not in log


def _children(pid: int) -> list[int]:
    """The tabs' app processes of the server ``pid``: its living children but the live table's connection (a
    ``python -P -c`` child of its own, warroom.serve._livestore)."""
    from pathlib import Path

    kids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            argv = (stat.parent / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z" and argv[1:3] != [b"-P", b"-c"]:
            kids.append(int(stat.parent.name))
    return kids


def _alive(pid: int) -> bool:
    from pathlib import Path

    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not __import__("sys").platform.startswith("linux"), reason="reads /proc")
async def test_a_tabs_app_process_ends_and_stores_its_drill_when_the_server_is_killed_outright(tmp_path):
    """Before: `warroom serve` killed with SIGKILL (the OOM killer, a crash) left its tabs' app processes running for
    ever (orphans of 75 MB each, idle), each holding its drill's journal open, so that a restarted server's next start
    recovered nothing: the drill was never stored. Now an app process served in a browser watches its input pipe and
    leaves when the server is gone, storing the drill being played as abandoned."""
    import asyncio
    import os
    import signal
    import sqlite3

    from serve_support import TOKENS, SimulatedTrainee

    with serving(tmp_path) as served:
        ada = SimulatedTrainee(served.url, "Ada Lovelace", TOKENS["Ada Lovelace"])
        try:
            await ada.sign_in()
            await ada.open_tab()
            await ada.start_drill()
            (app,) = _children(served.proc.pid)
            os.kill(served.proc.pid, signal.SIGKILL)
            served.proc.wait()
            for _ in range(100):
                if not _alive(app):
                    break
                await asyncio.sleep(0.1)
            still_alive = _alive(app)
            if still_alive:
                os.kill(app, signal.SIGKILL)
        finally:
            with __import__("contextlib").suppress(Exception):
                await ada.close()
    assert not still_alive, "the app process outlived its server by 10 s"
    with sqlite3.connect(served.data_dir / "results.sqlite3") as conn:
        rows = conn.execute("SELECT trainee, outcome FROM sessions").fetchall()
    assert rows == [("Ada Lovelace", "abandoned")]


def test_the_live_table_on_a_full_disk_says_the_disk_is_full(tmp_path):
    """Before: with the data folder's disk full under `warroom serve`, the server's log said every few seconds that
    the live table could not be written because it "cannot rollback - no transaction is active": SQLite had rolled
    the transaction back on its own (SQLITE_FULL), and the ROLLBACK that followed failed, hiding the cause. The error
    said is now the one that ended the write."""
    from warroom.store.errors import StoreError
    from warroom.store.live import PLAYING, LiveTab, publish_live
    from warroom.store.results import ResultsStore

    now = "2026-12-06T19:45:49.000000Z"
    row = LiveTab("host-1", "tab-1", "Ada Lovelace", PLAYING, now, now, drill_id="x" * 50_000)  # needs new pages
    with ResultsStore(tmp_path / "data") as store:
        pages = store.db.conn.execute("PRAGMA page_count").fetchone()[0]
        store.db.conn.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full: no page more
        with pytest.raises(StoreError) as refused:
            publish_live(store, "host-1", [row], [], now)
        store.db.conn.execute("PRAGMA max_page_count = 1073741823")
        publish_live(store, "host-1", [row], [], now)  # the transaction was left cleanly: the next write works
    assert "database or disk is full" in str(refused.value)
    assert "cannot rollback" not in str(refused.value)


def _browser_stdin(keys: str):
    """A ``stdin`` message as textual-serve's page writes it (``JSON.stringify``: no space, ESC as ``\\u001b``)."""
    import json

    from aiohttp import WSMsgType

    class Message:
        type, data = WSMsgType.TEXT, json.dumps(["stdin", keys], separators=(",", ":"))

    return Message()


def test_moving_the_pointer_about_on_a_fast_screen_never_ends_the_session_and_a_flood_of_moves_still_does():
    """A browser's terminal reports each move of the pointer to a new cell as often as the screen refreshes. At the
    32 bytes a message cost before, a trainee moving the pointer about on a 120 Hz screen used up the budget in about
    18 s and had the session ended. A message of pointer movement alone (SGR mouse reports with the motion bit and no
    button, with or without shift, meta, ctrl) costs 8 bytes: 240 a second for 5 minutes pass, a drag (a button held)
    or a click still costs a key press, and 1,000 moves a second are still ended."""
    from warroom.serve._tab import InputBudget, read_message

    clock = _Clock()
    budget = InputBudget(clock=clock)
    for second in range(300):
        for i in range(240):
            clock.now = second + i / 240
            moved = f"\x1b[<{35 + 4 * (i % 8)};{1 + i % 200};{1 + second % 50}M"
            assert read_message(_browser_stdin(moved), budget) == ("stdin", moved.encode())
    assert read_message(_browser_stdin("\x1b[<0;10;10M"), budget)[0] == "stdin"  # a click goes through as before
    flood = InputBudget(clock=clock)
    with pytest.raises(BadMessage, match="more input than a tab may send"):
        for i in range(30_000):  # 1,000 moves a second
            clock.now += 1 / 1000
            read_message(_browser_stdin(f"\x1b[<35;{1 + i % 200};5M"), flood)
    drags = InputBudget(clock=clock)
    with pytest.raises(BadMessage, match="more input than a tab may send"):
        for i in range(30 * 240):  # a button held while moving is not movement alone: 32 bytes a report, as before
            clock.now += 1 / 240
            read_message(_browser_stdin(f"\x1b[<32;{1 + i % 200};5M"), drags)


@pytest.mark.parametrize("bidi", ["\u202e", "\u202a", "\u2066", "\u2069"])
def test_a_note_holding_a_bidirectional_control_is_refused_as_a_control_character_is(bidi: str):
    """A facilitator's note was refused for a control character but kept a right-to-left override (U+202E), which a
    browser's page then showed with its words reversed (``approved`` written, ``devorppa`` shown): refused, saying
    why."""
    from warroom.store.results._notes import note_problem

    assert note_problem(f"escalation {bidi}devorppa\u202c ok") == (
        "the note holds a bidirectional control character (U+202A to U+202E, U+2066 to U+2069, U+061C, U+200E or "
        "U+200F), which would show its words in another order than written; remove it"
    )
    assert note_problem("escalation approved, مرحبا ok") is None  # right-to-left text itself is a note
