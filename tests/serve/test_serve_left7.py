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

