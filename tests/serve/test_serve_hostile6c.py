"""What campaign 6 found and left on ``warroom serve`` (issue 30): DNS rebinding, resize storms, the per-trainee tab
limit across hosts; each case with the right behaviour."""

from __future__ import annotations

import asyncio
import base64
import os

from serve_support import serving, set_grid_and_gradebook


async def _raw(port: int, path: str, host: str, extra: str = "") -> tuple[int, str]:
    """A request by hand (a browser whose page's name was rebound to 127.0.0.1 sends its own name as ``Host``):
    the status and the body's first 4 KiB."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n{extra}Connection: close\r\n\r\n".encode())
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
        body = await asyncio.wait_for(reader.read(4096), 30)
    finally:
        writer.close()
    return int(head.split()[1]), body.decode("utf-8", "replace")


def _upgrade(origin: str) -> str:
    key = base64.b64encode(os.urandom(16)).decode()
    return (f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n")  # fmt: skip


async def test_a_page_whose_name_was_rebound_to_this_machine_is_refused(tmp_path):
    """DNS rebinding: a site visited by the trainee (``evil.example``) has its name answer 127.0.0.1; its page then
    asks for ``/`` and opens ``/ws`` with ``Host`` and ``Origin`` both its own name (the same-site check passes), and
    without a roster plays, and reads, the local trainee's war room. A request for a name the server is not reached by
    gets HTTP 421 with a page saying what to do; its addresses, ``localhost`` and ``--allowed-host`` names are
    served."""
    with serving(tmp_path, "--allowed-host", "warroom.school.example", roster=False) as served:
        port = served.port
        for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1.evil.example:{port}", f"localhost.evil:{port}",
                     f"warroom.school.example.evil:{port}"):  # fmt: skip
            status, body = await _raw(port, "/", host)
            assert status == 421, host
            assert "--allowed-host" in body and "War Room: unknown host name" in body
            status, body = await _raw(port, "/ws", host, _upgrade(f"http://{host}"))
            assert status == 421, host  # the tab's websocket: no app process, no seat
        status, body = await _raw(port, "/", "<script>x</script>:1")
        assert status in (400, 421) and "<script>x" not in body  # the name is shown escaped
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST.:{port}", f"[::1]:{port}",
                     f"warroom.school.example:{port}", "app.localhost", "10.0.0.7"):  # fmt: skip
            status, body = await _raw(port, "/", host)
            assert status == 200 and "War Room: unknown host name" not in body, host
    assert "Traceback" not in served.log.read_text()


async def test_a_rebound_name_cannot_reach_the_sign_in_page_of_a_class_either(tmp_path):
    with serving(tmp_path) as served:
        assert (await _raw(served.port, "/signin", f"evil.example:{served.port}"))[0] == 421
        assert (await _raw(served.port, "/signin", f"127.0.0.1:{served.port}"))[0] == 200


def test_the_host_name_of_a_host_header():
    from warroom.serve._hosts import HostNames, host_name

    assert [host_name(h) for h in ("EXAMPLE.org.:80", "[::1]:8000", "::1", "1.2.3.4:5", "name")] == [
        "example.org", "::1", "::1", "1.2.3.4", "name"]  # fmt: skip
    names = HostNames("0.0.0.0", ("Class.Example.",))
    assert names.allows("class.example:8000") and names.allows("0.0.0.0:8000") and names.allows("[fe80::1%25eth0]")
    assert not names.allows("class.example.evil") and not names.allows("") and not names.allows("evil.example")


async def test_a_refused_host_name_is_logged_once_per_name_and_escaped(caplog):
    """A 421 was not logged: an operator behind a reverse proxy learned the fix (``--allowed-host``) only from a
    browser's page. Each refused name is logged once, escaped, and the log names at most 20 of them (a page asking
    for a new name each time cannot write the log full)."""
    import logging

    from aiohttp.test_utils import make_mocked_request

    from warroom.serve._hosts import MAX_REFUSED_NAMES_LOGGED, HostNames

    names = HostNames("127.0.0.1")

    async def handler(request):
        raise AssertionError("a refused host reached the handler")

    with caplog.at_level(logging.WARNING, logger="warroom.serve"):
        for host in ["evil.example:8000", "EVIL.example", "bad\x1b[2Jname", *(f"n{i}.example" for i in range(40))]:
            response = await names.middleware(make_mocked_request("GET", "/", headers={"Host": host}), handler)
            assert response.status == 421
    said = [r.getMessage() for r in caplog.records if r.name == "warroom.serve"]
    assert len(said) == MAX_REFUSED_NAMES_LOGGED == 20
    assert said[0].startswith("refused a request for the host name 'evil.example' (HTTP 421): if this server is")
    assert "--allowed-host and that name" in said[0]
    assert said[1].startswith("refused a request for the host name 'bad\\x1b[2jname'") and "\x1b" not in said[1]
    assert said[-1].endswith("; no other refused name will be logged")


async def test_a_storm_of_resizes_gives_the_app_its_first_and_last_size_and_the_key_after_them_at_once():
    """A tab sent 200 resizes to 1000 x 1000 cells: each was given to its app process, which redrew the whole screen
    for each (0.3 to 0.8 s of CPU per resize), and a key sent after them waited behind every redraw. Sizes are bounded
    to 500 x 200 (what a 4K screen holds at the smallest font a war room is read at) and given at most once per
    RESIZE_INTERVAL: the storm is given as its first size and its last, and the key after them (at most one interval
    later: keys reach the app in the order sent, tests/serve/test_serve_left7.py)."""
    import json

    from aiohttp import WSMessage, WSMsgType

    from warroom.serve._tab import MAX_COLUMNS, MAX_ROWS, Resizes, relay_messages

    given: list[object] = []
    last_given = asyncio.Event()
    storm = [(1000 - i, 1000 - i) for i in range(199)] + [(300, 90)]

    class Service:
        async def set_terminal_size(self, width: int, height: int) -> None:
            given.append((width, height))
            if (width, height) == (300, 90):
                last_given.set()

        async def send_bytes(self, data: bytes) -> None:
            given.append(data)

        async def send_meta(self, data: dict[str, object]) -> bool:  # the relay's time for the keys (not kept)
            return True

    class Tab:
        def __init__(self) -> None:
            messages = [["resize", {"width": w, "height": h}] for w, h in storm] + [["stdin", "j"]]
            self.messages = iter(json.dumps(m) for m in messages)

        def __aiter__(self):  # type: ignore[no-untyped-def]
            return self

        async def __anext__(self) -> WSMessage:
            for text in self.messages:
                await asyncio.sleep(0)  # as a socket's reader does between two messages
                return WSMessage(WSMsgType.TEXT, text, None)
            await asyncio.wait_for(last_given.wait(), 30)  # the browser stays until the last size is given
            raise StopAsyncIteration

    service = Service()
    resizes = Resizes(service)  # type: ignore[arg-type]
    await relay_messages(Tab(), service, resizes)  # type: ignore[arg-type]
    assert resizes.applied == 2
    assert given == [(MAX_COLUMNS, MAX_ROWS), (300, 90), b"j"]
    assert (MAX_COLUMNS, MAX_ROWS) == (500, 200)


async def test_a_real_tab_answers_a_key_after_a_storm_of_resizes(tmp_path):
    """The same storm through a real server and app process: the tab answers the help key after it, and the frames
    it draws are at most 500 columns wide (a line of the terminal's output never longer)."""
    import json

    from serve_support import read_until

    with serving(tmp_path) as served:
        ada = await served.signed_in()
        async with ada, ada.ws_connect("/ws?width=1000&height=1000") as ws:
            await read_until(ws, "Tutorial: where-is", timeout=90)
            for i in range(200):
                await ws.send_str(json.dumps(["resize", {"width": 1000 - i % 2, "height": 1000}]))
            await ws.send_str(json.dumps(["stdin", "?"]))
            await read_until(ws, "escape closes", timeout=90)
    log = served.log.read_text()
    assert "ended the session" not in log and "Traceback" not in log


def test_the_grid_says_what_the_gradebook_says_of_a_first_attempt_made_outside_the_set():
    """A drill first played outside a set, then in it: the gradebook's cell is the first attempt ever, said so, while
    the grid's done cell showed the in-set first attempt. Given the sessions outside the set, the grid says the same
    (they share ``gradebook_cell``) and links the first attempt."""
    from datetime import date

    from tests.unit.test_console_views import Row
    from warroom.console import completion_grid

    outside = Row("ana", "A", "missed", 40, "s1", set_id=None, started_at="2026-11-29T10:00:00Z")
    in_set = [Row("ana", "A", "contained", 100, "s3", started_at="2026-11-30T10:00:00Z"),
              Row("ben", "A", "contained", 80, "s4", started_at="2026-11-30T10:00:00Z")]  # fmt: skip
    grid = completion_grid("week-1", "", "", None, None, [("A", "a")], ["ana", "ben"], in_set, set(),
                           date(2026, 12, 1), [outside])  # fmt: skip
    (ana,), (ben,) = (cells for _, cells in grid.rows)
    assert ana.text == "done · missed · 40 (first attempt 2026-11-29, outside this gradebook; 1 attempt here, best 100)"
    assert (ana.session_id, ana.score, ana.attempts) == ("s1", 40, 1)  # linked; attempts: in the set
    assert ben.text == "done · contained · 80"
    later = Row("ben", "A", "contained", 10, "s9", started_at="2026-12-09T10:00:00Z")  # after: changes nothing
    again = completion_grid("week-1", "", "", None, None, [("A", "a")], ["ben"], in_set, set(), date(2026, 12, 1),
                            [later])  # fmt: skip
    assert again.rows[0][1][0].text == "done · contained · 80"


async def test_the_served_grid_and_gradebook_agree_on_a_drill_first_played_outside_the_set(tmp_path):
    import sqlite3

    from handcohort_support import SET_ID, Play, play

    data = tmp_path / "data"
    first = play(data, Play("ana", "A", (("quit", 5),)))  # abandoned: 0
    play(data, Play("ana", "A", (("esc", 12, "s1", ("e06",)),)))  # the replay, in the set
    with sqlite3.connect(data / "results.sqlite3") as conn:  # the first made outside the set, the day before
        conn.execute("UPDATE sessions SET set_id = NULL, started_at = '2026-11-29T10:00:00.000000Z' "
                     "WHERE session_id = ?", (first,))  # fmt: skip
    with serving(tmp_path, data_dir=data) as served:
        ana, shown = await set_grid_and_gradebook(served, SET_ID, "ana")
    cell = ana[1]  # the set's one drill played
    assert cell.startswith("0 (first attempt 2026-11-29, outside this gradebook; 1 attempt here, best ")
    assert shown == (first, f"done · abandoned · {cell}")


async def test_a_trainee_playing_on_one_host_is_refused_a_second_tab_on_another_host_of_the_class(tmp_path, store_url):
    """``--tabs-per-trainee`` counted one host's tabs: with several hosts in front of one store a trainee played one
    tab on each (a drill on one while another showed its debrief). The hosts share the live table (the console's):
    a tab open on another host counts, and the second host's page and websocket say so (409, naming that host). Once
    that tab is closed, the second host serves the tab."""
    import aiohttp
    from serve_support import TOKENS, SimulatedTrainee

    from tests.serve.test_console_hosts import _end_app_processes

    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    with serving(one, "--store", store_url) as host1, serving(two, "--store", store_url) as host2:
        ada = SimulatedTrainee(host1.url, "Ada Lovelace", TOKENS["Ada Lovelace"])
        ada2 = await host2.signed_in()
        try:
            await ada.sign_in()
            await ada.open_tab()  # on host 1
            deadline = asyncio.get_running_loop().time() + 20
            while True:  # host 1 writes its row within half a second, host 2 reads the table as often
                async with ada2.get("/") as r:
                    status, body = r.status, await r.text()
                if status == 409 or asyncio.get_running_loop().time() > deadline:
                    break
                await asyncio.sleep(0.5)
            assert status == 409 and f":{host1.port}#" in body and "another host of this class" in body
            assert "Play here instead" in body  # a take-over ends a tab of another host too (test_serve_left7.py)
            try:
                async with ada2.ws_connect("/ws"):
                    raise AssertionError("a second tab opened on another host")
            except aiohttp.WSServerHandshakeError as exc:
                assert exc.status == 409
            await ada.close()  # the first tab closed: host 2 serves one now
            deadline = asyncio.get_running_loop().time() + 30
            while True:
                async with ada2.get("/") as r:
                    status = r.status
                if status == 200 or asyncio.get_running_loop().time() > deadline:
                    break
                await asyncio.sleep(0.5)
            assert status == 200
        finally:
            await ada.close()
            await ada2.close()
            _end_app_processes(one / "data")
    assert "a tab of 'Ada Lovelace' refused: already playing in another tab" in host2.log.read_text()


def test_an_allowed_host_that_is_no_host_name_is_a_usage_error(tmp_path):
    import subprocess
    import sys

    for bad in ("*", "http://class.example", "class.example:8000", "a b", ""):
        run = subprocess.run([sys.executable, "-m", "warroom", "--data-dir", str(tmp_path), "serve", "--port", "0",
                              "--allowed-host", bad], capture_output=True, text=True, timeout=60)  # fmt: skip
        assert run.returncode == 2 and "is not a host name" in run.stderr, (bad, run.stderr)
        assert "Traceback" not in run.stderr
