"""Hostile input to ``warroom serve`` (issue 30, campaign 9: the served room and console as a hostile user and a
faulty world drive them): what it found and what now holds."""

from __future__ import annotations

import aiohttp
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
