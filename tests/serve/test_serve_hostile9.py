"""Hostile input to ``warroom serve`` (issue 30, campaign 9: the served room and console as a hostile user and a
faulty world drive them): what it found and what now holds."""

from __future__ import annotations

import aiohttp
import pytest
from serve_support import FACILITATOR, TOKENS, serving


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
    live._close()


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
                cookies.append(next(c.value for c in browser.cookie_jar if c.key == "warroom_signin"))
        async with aiohttp.ClientSession(base_url=served.url) as replay:
            statuses = []
            for cookie in cookies:
                async with replay.get("/mine", headers={"Cookie": f"warroom_signin={cookie}"},
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
                    while await stream.content.readline():
                        pass
                    ended = True
            except TimeoutError:
                pass
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
    live._close()
