"""Hostile input to ``warroom serve`` (issue 30, campaign 21: the served room, as a hostile user and a faulty world
drive it): what it found and what now holds."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from serve_support import FACILITATOR, TOKENS, Served, shared_serving, write_roster


@pytest.fixture(scope="module")
def served(tmp_path_factory):  # type: ignore[no-untyped-def]
    """One `warroom serve` for this module's served cases (none ends another's trainee or page)."""
    with shared_serving(tmp_path_factory.mktemp("hostile21")) as served:
        yield served


async def test_the_roster_read_again_is_parsed_off_the_event_loop_and_a_request_meanwhile_waits_for_it(
    tmp_path, monkeypatch
):
    """The roster file changed (``roster add`` of a latecomer, ``roster remove``) was read again and parsed inside the
    sign-in check of the next request, on the event loop every tab's keys and screens wait on: a roster of 3,000
    names took 2.3 s to parse, and every tab of the class and every page froze that long at each change (a sign-in
    page's answer took 2.4 s). It is read in a worker thread: the loop goes on meanwhile, a request that comes
    meanwhile waits for that one read (a name removed still has its sign-in ended before that request is let
    through), and the file is read once."""
    from warroom.serve import Roster
    from warroom.serve._signin import SignIn, SignIns

    path = write_roster(tmp_path / "roster.yaml")
    roster = Roster.load(path)
    signins = SignIns(roster, "nobody", roster_path=path)
    await signins.reload_roster()  # the first look: the file as it is now
    signins._records["ada"] = SignIn("Ada Lovelace", "trainee", roster.entries["Ada Lovelace"], time.monotonic())
    reading, release, threads = threading.Event(), threading.Event(), []
    load = Roster.load.__func__  # type: ignore[attr-defined]

    def slow_load(cls: type[Roster], p: object) -> Roster:  # a large roster: its parse takes a while
        threads.append(threading.current_thread())
        reading.set()
        assert release.wait(30)
        return load(cls, p)  # type: ignore[no-any-return]

    monkeypatch.setattr(Roster, "load", classmethod(slow_load))
    write_roster(path, {"Grace Hopper": TOKENS["Grace Hopper"]})  # Ada removed
    signins._roster_looked = 0.0
    first = asyncio.ensure_future(signins.reload_roster())
    assert await asyncio.get_running_loop().run_in_executor(None, reading.wait, 30)  # the loop runs meanwhile
    signins._roster_looked = 0.0
    second = asyncio.ensure_future(signins.reload_roster())  # another request while the file is read
    await asyncio.sleep(0.05)
    assert not first.done() and not second.done() and list(signins._records) == ["ada"]
    release.set()
    await asyncio.wait_for(asyncio.gather(first, second), 30)
    assert signins.roster is not None and signins.roster.trainees == ["Grace Hopper"] and signins._records == {}
    assert len(threads) == 1 and threads[0] is not threading.main_thread()



async def test_a_roster_read_that_fails_otherwise_keeps_the_last_one_and_answers_the_request(tmp_path, monkeypatch,
                                                                                              caplog):  # fmt: skip
    """A read of the changed roster that fails other than as a roster problem (in the worker thread) is said in the
    log and the last roster kept; the request that waited for it is answered, never a 500."""
    from warroom.serve import Roster
    from warroom.serve._signin import SignIns

    path = write_roster(tmp_path / "roster.yaml")
    roster = Roster.load(path)
    signins = SignIns(roster, "nobody", roster_path=path)
    await signins.reload_roster()

    def broken(cls: type[Roster], p: object) -> Roster:
        raise MemoryError("the host ran out of memory")

    monkeypatch.setattr(Roster, "load", classmethod(broken))
    write_roster(path, {"Grace Hopper": TOKENS["Grace Hopper"]})
    signins._roster_looked = 0.0
    await signins.reload_roster()
    assert signins.roster is roster
    assert "the roster changed and could not be read; the last one read stays in use: the host ran out of memory" in (
        caplog.text)  # fmt: skip

async def test_a_gradebook_asked_for_with_its_dates_swapped_is_refused_not_a_csv_of_blank_grades(served: Served):
    """``/console/gradebook.csv?since=2026-12-01&until=2026-11-01`` (the dates put in the wrong boxes) was a CSV of
    every trainee with no grade at all, as if the class had played nothing: the range holds no time. It is an HTTP 400
    saying so, as a date not understood is; a range of one day still downloads."""
    facilitator = await served.signed_in(FACILITATOR)
    async with facilitator:
        for since, until in (("2026-12-01", "2026-11-01"), ("2026-12-01", "2026-12-01")):
            async with facilitator.get("/console/gradebook.csv", params={"since": since, "until": until}) as r:
                text = await r.text()
            assert r.status == 400, text
            assert text == (f"no time is from {since} until {until} (not included): give the earlier date as from "
                            "and the later as until")  # fmt: skip
        one_day = {"since": "2026-12-01", "until": "2026-12-02"}
        async with facilitator.get("/console/gradebook.csv", params=one_day) as r:
            assert r.status == 200 and (await r.text()).startswith("trainee,")


async def test_the_progress_page_of_a_name_nobody_has_is_a_404_not_an_empty_trainee(served: Served):
    """``/console/trainees/Ada%20Lovelce`` (a typo, a name taken off the roster with nothing stored) was a trainee's
    page, ``Ada Lovelce: progress`` and "No counted session yet", as if such a trainee were in the class and had not
    played. Such a name is an HTTP 404 saying so, as an unknown drill set is; a roster trainee who has not played yet
    still has their page (``?name=`` with no name is the list of trainees: test_serve_hostile21_console.py)."""
    facilitator = await served.signed_in(FACILITATOR)
    async with facilitator:
        async with facilitator.get("/console/trainees/Ada%20Lovelce") as r:
            text = await r.text()
        assert r.status == 404, text
        assert text == "no trainee 'Ada Lovelce': not on the roster, and no session of that name is stored"
        async with facilitator.get("/console/trainees/Grace%20Hopper") as r:
            assert r.status == 200 and "Grace Hopper: progress" in await r.text()


async def test_a_sign_in_cookie_planted_by_another_site_beside_the_browser_s_own_never_chooses_the_trainee(
    served: Served,
):
    """Another site of the war room's domain (``evil.school.example`` beside ``warroom.school.example``) can set a
    cookie under the war room's cookie name (``Domain=school.example``), which the browser then sends beside its own:
    aiohttp's ``request.cookies`` keeps the last one sent, the one set last, so that site's author planted their own
    sign-in id in a classmate's browser, and the classmate's tabs played, and stored their sessions, as the author (the
    login CSRF the forms' ``Origin`` check closes, by a cookie). Two sign-ins sent at once are neither: the browser gets
    the sign-in page saying so, its websocket a 401; signing in again ends both, and the new one is used."""
    import aiohttp

    ada, grace = await served.signed_in("Ada Lovelace"), await served.signed_in("Grace Hopper")
    ids = {}
    for name, session in (("Ada Lovelace", ada), ("Grace Hopper", grace)):
        ids[name] = next(c.value for c in session.cookie_jar if c.key == served.cookie)
        await session.close()
    start = served.log_size()
    both = f"{served.cookie}={ids['Ada Lovelace']}; {served.cookie}={ids['Grace Hopper']}"  # Grace's set last
    async with aiohttp.ClientSession(base_url=served.url) as browser:
        async with browser.get("/mine", headers={"Cookie": both}) as r:
            shown = await r.text()
            assert str(r.url).endswith("/signin") and "This browser holds two sign-ins for this war room" in shown
        async with browser.get("/ws", headers={"Cookie": both, "Upgrade": "websocket", "Connection": "Upgrade",
                                               "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
                                               "Sec-WebSocket-Version": "13"}) as r:  # fmt: skip
            assert r.status == 401
        async with browser.post("/signin", data={"name": "Ada Lovelace", "token": TOKENS["Ada Lovelace"]},
                                headers={"Cookie": both}, allow_redirects=False) as r:  # fmt: skip
            assert r.status == 303
            new = r.cookies[served.cookie].value
        again = f"{served.cookie}={new}; {served.cookie}={ids['Grace Hopper']}"  # the planted one still sent
        async with browser.get("/mine", headers={"Cookie": again}, allow_redirects=False) as r:
            assert r.status == 200 and "Your sessions, Ada Lovelace" in await r.text()
    assert "sent two sign-ins of this server" in served.log_since(start)


async def test_a_tab_closed_while_its_opening_waits_on_a_busy_store_leaves_no_traceback(served: Served):
    """A tab's opening writes it to the live table first (its claim of a tab for its trainee), which waits while
    another writer holds the results store (a facilitator's ``sqlite3`` session, a long import), as it waits for a
    seat or for the trainee's other tab to close. A tab closed meanwhile (the trainee gave up on a slow page) had its
    websocket answered on a connection already gone: "Error handling request" and a ConnectionResetError traceback
    in the server's log. It is let go quietly, and its trainee's next tab plays."""
    import base64
    import os
    import sqlite3
    import threading

    from serve_support import read_until

    from warroom.store.results import ResultsStore

    grace = await served.signed_in("Grace Hopper")
    signin = next(c.value for c in grace.cookie_jar if c.key == served.cookie)
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:  # another writer of the store, for as long as the test needs
        ResultsStore(served.data_dir).close()  # the store made (a class's first tab may open before it is)
        conn = sqlite3.connect(served.data_dir / "results.sqlite3", timeout=30)
        conn.execute("BEGIN EXCLUSIVE")
        locked.set()
        release.wait(60)
        conn.rollback()
        conn.close()

    writer = threading.Thread(target=hold)
    writer.start()
    start = served.log_size()
    try:
        assert await asyncio.get_running_loop().run_in_executor(None, locked.wait, 30)
        _, tab = await asyncio.open_connection("127.0.0.1", served.port)
        key = base64.b64encode(os.urandom(16)).decode()
        tab.write(f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nCookie: {served.cookie}={signin}\r\n\r\n"
                  .encode())  # fmt: skip
        await tab.drain()
        await asyncio.sleep(0.5)  # its opening waits on the store
        tab.transport.abort()  # the tab closed
    finally:
        release.set()
        await asyncio.get_running_loop().run_in_executor(None, writer.join)
    deadline = time.monotonic() + 60
    while '"GET /ws HTTP/1.1"' not in served.log_since(start):  # the closed tab's request answered
        assert time.monotonic() < deadline, served.log_since(start)
        await asyncio.sleep(0.2)
    async with grace, grace.ws_connect("/ws?width=100&height=30") as ws:
        await read_until(ws, "Tutorial: where-is", timeout=90)
    log = served.log_since(start)
    assert "Traceback" not in log and "Error handling request" not in log, log


async def test_a_reloaded_war_room_tab_gets_the_war_room_not_already_playing_in_another_tab(served: Served):
    """A browser reloading a war room tab (F5) asks for the page again while the old page, and its websocket, are still
    open: Chromium keeps the old page until the new one's answer has come. The page waited its 3 s for the old
    connection to close, which it could not do before that answer, and then said "already playing in another tab" to
    every reload (the docs promised a reload is not refused). A reload (``Cache-Control: max-age=0``) by the browser of
    the open tab is served at once, and its tab plays once the old one has closed; a new tab of that browser, no
    reload, still gets the 409 page."""
    from serve_support import read_until

    ada = await served.signed_in("Ada Lovelace")
    async with ada:
        old = await ada.ws_connect("/ws?width=100&height=30")
        await read_until(old, "Tutorial: where-is", timeout=90)
        async with ada.get("/") as r:  # another tab of the same browser, the first still open
            assert r.status == 409 and "already playing in another tab" in await r.text()
        async with ada.get("/", headers={"Cache-Control": "max-age=0"}) as r:  # the first one reloaded
            page = await r.text()
        assert r.status == 200 and "/ws/" in page, page
        await old.close()  # the browser closes the old page's connection once the new page has come
        async with ada.ws_connect("/ws?width=100&height=30") as new:
            await read_until(new, "Tutorial: where-is", timeout=90)


def test_in_a_real_browser_a_reloaded_war_room_tab_gets_the_picker_again(served: Served):
    """The reload above as Chromium does it (the old page kept until the new page's answer has come): the reloaded tab
    gets the drill picker again, never the "already playing in another tab" page."""
    from browser_support import chromium_executable, sync_playwright
    from serve_support import terminal_text

    frames: list[bytes | str] = []

    def picker_shown(page: object, since: int) -> None:
        deadline = time.monotonic() + 90
        while "Tutorial: where-is" not in terminal_text(b"".join(
                f if isinstance(f, bytes) else f.encode() for f in frames[since:])):  # fmt: skip
            assert time.monotonic() < deadline, "no picker in the browser"
            page.wait_for_timeout(300)  # type: ignore[attr-defined]

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_executable(), headless=True, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
            page.goto(served.url + "/signin")
            page.fill("#name", "Grace Hopper")
            page.fill("#token", TOKENS["Grace Hopper"])
            page.click("button[type=submit]")
            page.wait_for_url(served.url + "/")
            picker_shown(page, 0)
            since = len(frames)
            response = page.reload()
            assert response is not None and response.status == 200, page.text_content("body")
            picker_shown(page, since)
        finally:
            browser.close()
