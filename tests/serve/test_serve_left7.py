"""What was left of the served room (issue 30): the order in which a tab's messages reach its app process, the tab
limit and the take-over across serve hosts on one PostgreSQL store, and what the console's live page sends."""

from __future__ import annotations

import asyncio
import json
import threading
from datetime import UTC, datetime, timedelta

import aiohttp
from aiohttp import WSMessage, WSMsgType
from serve_support import TOKENS, SimulatedTrainee, read_until, receive, serving


class _Service:
    """What the relay gives an app process, in order."""

    def __init__(self) -> None:
        self.given: list[object] = []

    async def set_terminal_size(self, width: int, height: int) -> None:
        await asyncio.sleep(0)  # a write to a pipe may yield
        self.given.append((width, height))

    async def send_bytes(self, data: bytes) -> None:
        self.given.append(data)

    async def send_meta(self, data: dict[str, object]) -> bool:  # the relay's time for the keys after it (not kept)
        return True

    async def blur(self) -> None:
        self.given.append("blur")

    async def focus(self) -> None:
        self.given.append("focus")


class _Tab:
    """A tab whose messages were all received at once (the socket's reader returns each without yielding)."""

    def __init__(self, messages: list[list[object]]) -> None:
        self.messages = iter(json.dumps(m) for m in messages)

    def __aiter__(self):  # type: ignore[no-untyped-def]
        return self

    async def __anext__(self) -> WSMessage:
        for text in self.messages:
            return WSMessage(WSMsgType.TEXT, text, None)
        raise StopAsyncIteration


async def test_a_tab_s_keys_reach_its_app_after_the_resizes_sent_before_them():
    """The first resize of a tab was only scheduled when the key after it was written to the app at once (the key
    went first), and a key sent while a resize waited for its interval went ahead of it: the app read keys against a
    screen of another size. Each key, blur and focus now reaches the app after every size sent before it."""
    from warroom.serve._tab import Resizes, relay_messages

    service = _Service()
    resizes = Resizes(service, interval=0.05)  # type: ignore[arg-type]
    tab = _Tab([["resize", {"width": 100, "height": 30}], ["stdin", "a"], ["resize", {"width": 120, "height": 40}],
                ["blur"], ["resize", {"width": 90, "height": 20}], ["resize", {"width": 91, "height": 21}],
                ["stdin", "\r"], ["focus"]])  # fmt: skip
    await relay_messages(tab, service, resizes)  # type: ignore[arg-type]
    assert service.given == [(100, 30), b"a", (120, 40), "blur", (91, 21), b"\r", "focus"]
    assert resizes.applied == 3  # (90, 20) was replaced while it waited


# --- the tab limit and the take-over across hosts ---------------------------------------------------------------


def _row(host: str, tab: str, trainee: str = "ada"):
    from warroom.store.live import PICKER, LiveTab

    now = datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")
    return LiveTab(host, tab, trainee, PICKER, now, now)


def test_two_hosts_claiming_a_tab_for_one_trainee_at_the_same_moment_get_one_tab(tmp_path, store_url):
    """The limit was checked against the table last read, then the tab written: two hosts each saw none and both
    tabs played. The claim counts and writes in one step of the store (an advisory lock on the trainee's name): of
    two claims made at the same moment, exactly one is written, every time."""
    from warroom.store.live import claim_tab, read_live
    from warroom.store.results import ResultsStore

    stores = [ResultsStore(tmp_path / f"d{i}", url=store_url) for i in range(2)]
    fresh = (datetime.now(UTC) - timedelta(seconds=10)).isoformat().replace("+00:00", "Z")
    rounds = 15
    won: list[list[bool]] = [[] for _ in range(rounds)]
    try:
        for r in range(rounds):
            barrier = threading.Barrier(2)

            def claim(i: int, r: int = r, barrier: threading.Barrier = barrier) -> None:
                barrier.wait()
                won[r].append(claim_tab(stores[i], _row(f"host{i}", f"tab{r}", f"trainee{r}"), 1, fresh, 0))

            threads = [threading.Thread(target=claim, args=(i,)) for i in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        rows = read_live(stores[0])
    finally:
        for store in stores:
            store.close()
    assert [sorted(w) for w in won] == [[False, True]] * rounds
    assert sorted(row.trainee for row in rows) == sorted(f"trainee{r}" for r in range(rounds))  # one row each


def test_a_tab_taken_over_stays_so_in_the_table_until_its_own_host_closes_it(tmp_path, store_url):
    """Another host marks the tab taken over; its own host's writes (the heartbeat, a journal's news) keep that mark
    until it writes the tab closed; a taken-over tab no longer counts against the trainee's limit."""
    from dataclasses import replace

    from warroom.store.live import (
        DISCONNECTED,
        PLAYING,
        TAKEN_OVER,
        claim_tab,
        publish_live,
        read_live,
        take_over_tabs,
    )
    from warroom.store.results import ResultsStore

    store = ResultsStore(tmp_path / "d", url=store_url)
    fresh = (datetime.now(UTC) - timedelta(seconds=10)).isoformat().replace("+00:00", "Z")
    try:
        old = _row("host1", "t1")
        assert claim_tab(store, old, 1, fresh, 0)
        assert not claim_tab(store, _row("host2", "t2"), 1, fresh, 0)
        assert take_over_tabs(store, "ada", "host2", fresh) == [("host1", "t1")]
        publish_live(store, "host1", [replace(old, state=PLAYING)], [], old.heartbeat_at)
        assert [r.state for r in read_live(store)] == [TAKEN_OVER]
        assert claim_tab(store, _row("host2", "t2"), 1, fresh, 0)  # the taken-over tab no longer counts
        publish_live(store, "host1", [replace(old, state=DISCONNECTED)], [], old.heartbeat_at)
        assert {(r.tab, r.state) for r in read_live(store)} == {("t1", DISCONNECTED), ("t2", "picker")}
    finally:
        store.close()


async def _open(session: aiohttp.ClientSession) -> aiohttp.ClientWebSocketResponse | int:
    """The tab's websocket, or the HTTP status it was refused with."""
    try:
        return await session.ws_connect("/ws")
    except aiohttp.WSServerHandshakeError as exc:
        return exc.status


async def test_two_tabs_opened_at_once_on_two_hosts_one_plays(tmp_path, store_url):
    from tests.serve.test_console_hosts import _end_app_processes

    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    with serving(one, "--store", store_url) as host1, serving(two, "--store", store_url) as host2:
        ada1, ada2 = await host1.signed_in(), await host2.signed_in()
        try:
            opened = await asyncio.gather(_open(ada1), _open(ada2))
            tabs = [o for o in opened if not isinstance(o, int)]
            assert len(tabs) == 1 and [o for o in opened if isinstance(o, int)] == [409], opened
            await read_until(tabs[0], "Tutorial: where-is", timeout=90)  # the one that plays
            await tabs[0].close()
        finally:
            await ada1.close()
            await ada2.close()
            _end_app_processes(one / "data")
            _end_app_processes(two / "data")
    logs = host1.log.read_text() + host2.log.read_text()
    assert logs.count("a tab of 'Ada Lovelace' refused: already playing in another tab") == 1
    assert "Traceback" not in logs


async def test_a_take_over_on_one_host_ends_the_tab_another_host_serves(tmp_path, store_url):
    """``POST /takeover`` ended this host's tabs only: a tab on another host went on playing, and the new tab was
    refused. The host taking over marks the other host's tab in the live table; that host reads it within about half
    a second, and closes its tab as going away, saying the session moved to another tab; the new tab plays."""
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
            status, body = 0, ""
            for _ in range(40):  # host 1 claimed its row when the tab opened: host 2 reads it within a tick
                async with ada2.get("/") as r:
                    status, body = r.status, await r.text()
                if status == 409:
                    break
                await asyncio.sleep(0.5)
            assert status == 409 and "another host of this class" in body and "Play here instead" in body
            async with ada2.post("/takeover", allow_redirects=False) as r:
                assert r.status == 303
            assert ada.ws is not None
            while True:  # the tab on host 1 is told, without a time goal (the test's timeout bounds the wait)
                message = await receive(ada.ws, 60)
                if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING):
                    break
            assert ada.ws.close_code == aiohttp.WSCloseCode.GOING_AWAY
            assert message.extra == "the session moved to another tab"
            async with ada2.get("/") as r:
                assert r.status == 200
            async with ada2.ws_connect("/ws") as tab:  # the tab of host 2 plays
                await read_until(tab, "Tutorial: where-is", timeout=90)
        finally:
            await ada.close()
            await ada2.close()
            _end_app_processes(one / "data")
            _end_app_processes(two / "data")
    assert "'Ada Lovelace' plays in a new tab: 1 tab of other hosts taken over" in host2.log.read_text()
    assert "'Ada Lovelace' plays in a tab of another host: this host's tab ended" in host1.log.read_text()



# --- what the console's live page is sent -----------------------------------------------------------------------


def test_a_live_update_holds_the_lines_new_changed_or_gone_each_after_the_line_before_it():
    from warroom.console import live_delta

    before = {"a": "<tr>a</tr>", "b": "<tr>b</tr>", "c": "<tr>c</tr>"}
    after = {"a": "<tr>a</tr>", "n": "<tr>n</tr>", "b": "<tr>b2</tr>", "d": "<tr>d</tr>"}
    assert live_delta(before, after) == [
        ["n", "<tr>n</tr>", "a"], ["b", "<tr>b2</tr>", "n"], ["d", "<tr>d</tr>", "b"], ["c", None, None]]  # fmt: skip
    assert live_delta(after, after) == []
    assert live_delta({}, {"x": "1"}) == [["x", "1", None]]  # a first line goes at the top


def test_a_live_line_s_html_changes_with_the_class_not_with_the_time():
    """Each line was drawn with its drill time and idle time as of the moment sent, so every line of a trainee
    playing changed every second and an update held the whole table. A line now holds the drill clock's last
    reading (the page carries it forward): the same line a few seconds later is the same HTML, until something
    happens (here: the trainee becomes stuck)."""
    from warroom.console import live_lines, live_rows, render
    from warroom.console._live import absent_key
    from warroom.store.live import LiveTab

    start = datetime(2026, 12, 1, 14, 0, 0, tzinfo=UTC)
    at = start.isoformat().replace("+00:00", "Z")
    tab = LiveTab("h:1#a", "t1", "ana", "playing", at, at, drill_id="d1", drill_time=12.0, clock_at=at, speed=2.0,
                  last_action="speed", last_action_at=at, actions=2)  # fmt: skip

    def rows(seconds: float) -> dict[str, str]:
        lines = live_lines([replace_heartbeat(tab, start + timedelta(seconds=seconds))], ["ana", "ben"],
                           start + timedelta(seconds=seconds), stuck_after=90)  # fmt: skip
        return live_rows(lines, lambda line: render("live_row.html", l=line))

    first, later, stuck = rows(1), rows(7), rows(95)
    assert first == later and list(first) == ["h:1#a/t1", absent_key("ben")]
    assert 'data-reading="12.0"' in first["h:1#a/t1"] and f'data-clock-at="{at}"' in first["h:1#a/t1"]
    assert ">00:12</span> at 2x<" in first["h:1#a/t1"]
    assert stuck["h:1#a/t1"] != first["h:1#a/t1"] and 'data-status="stuck"' in stuck["h:1#a/t1"]
    assert stuck[absent_key("ben")] == first[absent_key("ben")]


def replace_heartbeat(tab, when: datetime):  # type: ignore[no-untyped-def]
    from dataclasses import replace

    return replace(tab, heartbeat_at=when.isoformat().replace("+00:00", "Z"))


async def _events(response: aiohttp.ClientResponse, wanted, timeout: float = 60.0) -> list[tuple[str, str]]:
    """Server-sent events read from ``response`` until ``wanted(events)`` holds: ``(event, data)`` pairs."""
    events: list[tuple[str, str]] = []
    buffer = ""
    async with asyncio.timeout(timeout):
        while not wanted(events):
            buffer += (await response.content.readany()).decode().replace("\r\n", "\n")
            *chunks, buffer = buffer.split("\n\n")
            for chunk in chunks:
                fields = dict(line.split(": ", 1) for line in chunk.split("\n") if ": " in line)
                if "event" in fields:
                    events.append((fields["event"], fields.get("data", "")))
    return events


async def test_the_live_page_is_sent_the_whole_table_once_then_the_lines_that_changed(tmp_path):
    """The live page's stream sent the whole table at each change (about 1 MB for 3,000 trainees, every half second
    while the class played). It sends it once; then a trainee signing in is sent as two lines: their new line after
    the line before it, and their "not signed in" line gone, and nothing of the 60 others."""
    from serve_support import FACILITATOR

    from warroom.console._live import absent_key

    tokens = {**TOKENS, **{f"trainee {i:02d}": f"token-{i:02d}-0123456789" for i in range(60)}}
    with serving(tmp_path, tokens=tokens) as served:
        fran = await served.signed_in(FACILITATOR)
        async with fran, fran.get("/console/live/events") as stream:
            (first,) = await _events(stream, lambda e: len(e) >= 1)
            assert first[0] == "live" and first[1].count("<tr data-key=") == 62
            ada = await served.signed_in("Ada Lovelace")
            await ada.close()
            found = await _events(stream, lambda e: any('"rows":[[' in data for _, data in e))
    (update,) = [json.loads(data) for event, data in found if event == "rows" and '"rows":[[' in data]
    assert [(key.split("/")[0].startswith("absent"), html is None) for key, html, _ in update["rows"]] == [
        (False, False), (True, True)]  # fmt: skip
    (new, after), gone = update["rows"][0][1:], update["rows"][1][0]
    assert 'data-trainee="Ada Lovelace" data-status="signed_in"' in new and after is None  # first in the roster
    assert gone == absent_key("Ada Lovelace") and "1 signed in, no drill" in update["head"]
    assert len(json.dumps(update)) < len(first[1]) / 10
