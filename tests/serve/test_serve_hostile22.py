"""Hostile input to ``warroom serve`` (issue 30, campaign 22: the served room, as a hostile user and a faulty world
drive it): what it found and what now holds."""

from __future__ import annotations

import pytest
from serve_support import TOKENS, Served, read_until, shared_serving

#: This module's trainees: each case signs in as its own, so none ends another's tab.
_TOKENS = {**TOKENS, "Katherine Johnson": "katherine-token-0123456", "Mary Jackson": "mary-token-01234567890"}


@pytest.fixture(scope="module")
def served(tmp_path_factory):  # type: ignore[no-untyped-def]
    """One `warroom serve` for this module's served cases (none ends another's trainee or page)."""
    with shared_serving(tmp_path_factory.mktemp("hostile22"), tokens=_TOKENS) as served:
        yield served


async def test_the_already_playing_page_reloaded_says_so_again_not_session_ended(served: Served):
    """A trainee's second window got the 409 page ("already playing in another tab") at ``/``; reloading it (F5,
    ``Cache-Control: max-age=0``, the other window still playing in the same browser) was taken for a reload of the
    war room tab: the terminal page was served, its websocket refused after 3 s, and the browser said "Session
    ended." where the 409 had said why and offered "Play here instead". The 409 page is at a path of its own
    (``/another-tab``): reloaded, it is the 409 page again; once the other tab has closed, it leads to the war room."""
    katherine = await served.signed_in("Katherine Johnson", _TOKENS["Katherine Johnson"])
    async with katherine:
        first = await katherine.ws_connect("/ws?width=100&height=30")
        await read_until(first, "Tutorial: where-is", timeout=90)
        async with katherine.get("/") as r:  # another window of the same browser
            text = await r.text()
        assert r.status == 409 and "already playing in another tab" in text and "Play here instead" in text
        assert r.url.path == "/another-tab"
        async with katherine.get(r.url, headers={"Cache-Control": "max-age=0"}) as again:  # that page reloaded
            text = await again.text()
        assert again.status == 409 and "already playing in another tab" in text and "/ws/" not in text
        await first.close()  # the first window closed: the page reloaded now leads to the war room
        async with katherine.get("/another-tab", headers={"Cache-Control": "max-age=0"}) as r:
            page = await r.text()
        assert r.status == 200 and r.url.path == "/" and "/ws/" in page, page
    fresh = await served.signed_in("Katherine Johnson", _TOKENS["Katherine Johnson"])  # another browser
    async with fresh, fresh.get("/another-tab") as r:  # not playing: nothing to say there
        assert r.status == 200 and r.url.path == "/"


async def test_the_already_playing_page_signed_out_leads_to_the_sign_in_page(served: Served):
    """``/another-tab`` in a browser not signed in is sent to the sign-in page, as ``/`` is (not a bare 401)."""
    import aiohttp

    async with (
        aiohttp.ClientSession(base_url=served.url) as nobody,
        nobody.get("/another-tab", allow_redirects=False) as r,
    ):
        assert (r.status, r.headers.get("Location")) == (303, "/signin")


async def test_a_roster_changed_while_the_server_starts_is_read_at_the_first_request(tmp_path):
    """The roster file's stamp was taken at the first request, not when the server read the roster: a token rotated
    (or a name removed) while the server started (it reads the drill library and recovers sessions first, seconds),
    or before anyone signed in, was never read until the file changed again: the new token was refused and the old
    one went on signing in. The stamp is taken before the roster is read (the command passes it): the first request
    reads the changed file."""
    from serve_support import write_roster

    from warroom.serve import Roster, SignIns

    path = write_roster(tmp_path / "roster.yaml")
    stamp = SignIns.stamp_of(path)
    roster = Roster.load(path)
    write_roster(path, {**TOKENS, "Ada Lovelace": "ada-rotated-token-0000"})  # `roster rotate` meanwhile
    signins = SignIns(roster, "nobody", roster_path=path, roster_stamp=stamp)
    await signins.reload_roster()  # the first request
    assert signins.roster is not None and signins.roster.entries == Roster.load(path).entries
    assert signins.roster.entries != roster.entries


def test_the_serve_command_takes_the_roster_stamp_before_it_reads_the_roster(tmp_path, monkeypatch):
    """`warroom serve` gives the server the roster file's stamp from before its read (above), not none."""
    import click
    from click.testing import CliRunner
    from serve_support import write_roster

    from warroom.cli import main
    from warroom.serve import SignIns, WarroomServer

    path = write_roster(tmp_path / "roster.yaml")
    made: list[SignIns] = []

    def serve(self: WarroomServer, debug: bool = False) -> None:
        made.append(self.signins)
        raise click.ClickException("stopped here by the test")

    monkeypatch.setattr(WarroomServer, "serve", serve)
    monkeypatch.setattr("warroom.cli.serve._warm_picker_cache", lambda settings: None)  # not what is tested here
    args = ["--data-dir", str(tmp_path / "data"), "serve", "--port", "0", "--roster", str(path)]
    result = CliRunner().invoke(main, args)
    assert "stopped here by the test" in result.output, result.output
    assert made and made[0].roster_stamp == SignIns.stamp_of(path)


class _Pinged:
    """A tab's websocket as the heartbeat sees it: its pings counted."""

    def __init__(self) -> None:
        self.pings = 0

    async def ping(self) -> None:
        self.pings += 1


async def test_a_browser_still_reading_the_screens_sent_before_a_ping_is_not_taken_for_gone():
    """A browser on a slow network (or a tab busy drawing) with a backlog of screens reads the server's ping only once
    it has read them (a resize of a large window redraws the whole screen): aiohttp's heartbeat ended such a tab
    after half the interval ("No PONG received after 7.5 seconds"), though it read all along (tried: a client
    reading 20 KB/s and answering each ping as it read it was ended after a burst of resizes, with
    ``WARROOM_SERVE_HEARTBEAT=4``). The wait goes on while the bytes unsent to it grow fewer; its answer is heard."""
    import asyncio
    import time

    from warroom.serve._heartbeat import Hearing, heartbeat

    hearing, ws = Hearing(at=time.monotonic() - 1), _Pinged()
    backlog = [400_000]

    def unsent() -> int:  # the browser reads 50 KB at each look
        backlog[0] = max(backlog[0] - 50_000, 1)
        return backlog[0]

    beat = asyncio.ensure_future(heartbeat(ws, hearing, 0.2, unsent))
    while backlog[0] > 100_000:  # several of the ping's waits, each past its half interval
        assert not beat.done(), beat.result()
        await asyncio.sleep(0.05)
    hearing.at = time.monotonic()  # its answer (a pong) read at last
    await asyncio.sleep(0.1)
    assert not beat.done() and ws.pings >= 1
    beat.cancel()


async def test_a_browser_that_reads_nothing_and_answers_nothing_is_gone():
    """A browser gone (its network lost, its machine asleep: the bytes unsent to it grow no fewer) is ended after the
    ping's wait, as before; so is one with nothing unsent."""
    import asyncio
    import time

    from warroom.serve._heartbeat import Hearing, heartbeat

    for unsent in (lambda: 5_000, lambda: 0):
        ws = _Pinged()
        why = await asyncio.wait_for(heartbeat(ws, Hearing(at=time.monotonic() - 1), 0.2, unsent), 30)
        assert why == "its browser answered no ping within 0.1 s (a network lost, a machine asleep)" and ws.pings == 1


async def test_a_browser_whose_answer_waits_behind_a_slow_app_process_is_not_gone():
    """The relay busy passing a message to an app process slow to take it reads nothing of the browser meanwhile (the
    app process's input timeout, 10 s, ends a process that takes none): the browser's answer is not read yet, so the
    ping's wait goes on (aiohttp heard the bytes arrive; this heartbeat hears what the relay reads)."""
    import asyncio
    import time

    from warroom.serve._heartbeat import Hearing, heartbeat

    hearing, ws = Hearing(at=time.monotonic() - 1, busy=True), _Pinged()
    beat = asyncio.ensure_future(heartbeat(ws, hearing, 0.2, lambda: 0))
    await asyncio.sleep(0.6)  # three of the ping's waits
    assert not beat.done()
    hearing.at, hearing.busy = time.monotonic(), False
    await asyncio.sleep(0.1)
    assert not beat.done()
    beat.cancel()
