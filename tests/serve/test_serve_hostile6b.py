"""A sixth fresh hostile campaign on ``warroom serve`` and its console (issue 30): each case a hostile client, a
hostile page of another site or a faulty world found, with the right behaviour."""

from __future__ import annotations

import aiohttp
import pytest
from serve_support import FACILITATOR, TOKENS, Served, serving, shared_serving

from warroom.store.results import ResultsStore
from warroom.store.results._notes import MAX_NOTE_CHARS, note_problem


@pytest.fixture(scope="module")
def served(tmp_path_factory):  # type: ignore[no-untyped-def]
    """One `warroom serve` with the roster for this module's cases that only sign in and read (each reads its own
    lines of the log: :meth:`Served.log_since`)."""
    with shared_serving(tmp_path_factory.mktemp("hostile6b")) as server:
        yield server


async def test_a_sign_in_posted_from_another_sites_page_is_refused_and_signs_nobody_in(served: Served):
    """Login CSRF: a page of another site (a hostile trainee's) posts its author's name and token to ``/signin`` from a
    classmate's browser; the server signed that browser in as the author, whose name then played and stored the
    classmate's sessions. Every form posted from another site's page is refused (403) and sets no cookie; the same
    form from this server's own page signs in."""
    grace = {"name": "Grace Hopper", "token": TOKENS["Grace Hopper"]}
    start = served.log_size()
    own = f"http://127.0.0.1:{served.port}"
    async with aiohttp.ClientSession(base_url=served.url, cookie_jar=aiohttp.CookieJar(unsafe=True)) as browser:
        for headers in ({"Origin": "http://evil.example"}, {"Origin": "null"}, {"Origin": f"{own}.evil.example"},
                        {"Origin": f"ftp://127.0.0.1:{served.port}"}, {"Sec-Fetch-Site": "cross-site"},
                        {"Sec-Fetch-Site": "same-site"}):  # fmt: skip
            async with browser.post("/signin", data=grace, headers=headers, allow_redirects=False) as r:
                assert r.status == 403, headers
                assert "sent from another site" in await r.text()
                assert served.cookie not in r.cookies
        assert not list(browser.cookie_jar)
        async with browser.post("/signin", data=grace, headers={"Origin": own, "Sec-Fetch-Site": "same-origin"},
                                allow_redirects=False) as r:  # fmt: skip
            assert r.status == 303 and r.headers["Location"] == "/"
    log = served.log_since(start)
    assert log.count("sign-in: 'Grace Hopper'") == 1 and "Traceback" not in log


async def test_a_sign_out_or_a_note_posted_from_another_sites_page_is_refused(served: Served):
    ada, fran = await served.signed_in(), await served.signed_in(FACILITATOR)
    async with ada, fran:
        evil = {"Origin": "http://evil.example"}
        async with ada.post("/signout", headers=evil, allow_redirects=False) as r:
            assert r.status == 403
        async with ada.get("/mine", allow_redirects=False) as r:
            assert r.status == 200  # still signed in
        async with fran.post("/console/sessions/x/notes", data={"text": "hi"}, headers=evil) as r:
            assert r.status == 403
        async with ada.post("/signout", headers={"Origin": served.url}, allow_redirects=False) as r:
            assert r.status == 303 and r.headers["Location"] == "/signin"


async def test_the_gradebook_download_is_never_kept_by_a_cache(served: Served):
    """Every console page says ``Cache-Control: no-store``; the gradebook's CSV (the class's grades, by name) said
    nothing, so a shared browser or a proxy on the way could keep it."""
    fran = await served.signed_in(FACILITATOR)
    async with fran:
        for method in ("GET", "HEAD"):
            async with fran.request(method, "/console/gradebook.csv") as r:
                assert r.status == 200 and r.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize(("lines", "chars"), [(600, 3000), (1999, 2000)])
def test_a_note_within_its_limit_typed_in_a_browser_is_kept(tmp_path, lines: int, chars: int):
    """A browser's form sends a textarea's line breaks as CR LF and counts each as one character toward the textarea's
    ``maxlength="4000"``: a note of 3,600 characters with 600 line breaks arrived as 4,200 and was refused ("at most
    4,000 are kept"), the facilitator's text lost. Its length is counted as it is stored, one per line break."""
    typed = "\n".join(["a" * (chars // lines)] * lines)
    assert len(typed) <= MAX_NOTE_CHARS
    assert note_problem(typed.replace("\n", "\r\n")) is None
    assert note_problem("a" * (MAX_NOTE_CHARS + 1)) == "the note is 4,001 characters long; at most 4,000 are kept"
    from handcohort_support import Play, play

    session_id = play(tmp_path, Play("ana", "A", ()))
    with ResultsStore(tmp_path) as store:
        store.add_note(session_id, author="Fran Allen", text=typed.replace("\n", "\r\n"), at="2026-12-06T16:00:00Z")
        assert [n.text for n in store.facilitator_notes([session_id])[session_id]] == [typed]


async def test_a_name_or_an_id_holding_a_brace_has_its_page(tmp_path):
    """aiohttp's default pattern for a path's part, ``[^{}/]+``, refused a brace: a trainee named ``{x}`` (a name the
    trainee-name rule allows), and a session or set id holding one (written by SQL), had links to a 404."""
    import re
    import sqlite3
    from urllib.parse import quote

    from handcohort_support import Play, play

    data = tmp_path / "data"
    session_id = play(data, Play("{{7*7}}", "A", (("esc", 12, "s1", ("e06",)),)))
    with sqlite3.connect(data / "results.sqlite3") as conn:
        conn.execute("UPDATE sessions SET session_id = 'S{1}', set_id = 'wk{1}' WHERE session_id = ?", (session_id,))
    with serving(tmp_path, data_dir=data) as served:
        fran = await served.signed_in(FACILITATOR)
        async with fran:
            async with fran.get("/console/trainees") as r:
                assert 'href="/console/trainees/%7B%7B7%2A7%7D%7D"' in await r.text()
            async with fran.get("/console/trainees/%7B%7B7%2A7%7D%7D") as r:
                assert r.status == 200 and re.search(r"<h1>\{\{7\*7\}\}: progress</h1>", await r.text())
            async with fran.get("/console/sessions/" + quote("S{1}", safe="")) as r:
                assert r.status == 200 and "<title>Session S{1} · " in await r.text()
            async with fran.post("/console/sessions/" + quote("S{1}", safe="") + "/notes", data={"text": "ok"},
                                 allow_redirects=False) as r:  # fmt: skip
                assert r.status == 303
            async with fran.post("/console/sessions/" + quote("S{1}", safe="") + "/notes", data={"text": " "}) as r:
                # the note refused: its page's way back is this session's review (the id quoted, as every link)
                assert r.status == 400 and 'href="/console/sessions/S%7B1%7D">Back' in await r.text()
            async with fran.get("/console/sets/" + quote("wk{1}", safe="")) as r:
                assert r.status == 200 and "{{7*7}}" in await r.text()


async def test_a_plain_request_for_the_websocket_adds_no_line_to_the_live_class(tmp_path):
    """``GET /ws`` without the websocket upgrade opened a tab in the live class before failing (HTTP 400): each such
    request, cheap for any signed-in trainee, left a "disconnected" line on the console, kept 30 minutes (300 of them:
    300 lines, and every line sent to every console tab each second). It is refused before any line or seat."""
    with serving(tmp_path) as served:
        ada, fran = await served.signed_in(), await served.signed_in(FACILITATOR)
        async with ada, fran:
            async with fran.get("/console") as r:
                before = (await r.text()).count("Ada Lovelace")
            for _ in range(50):
                async with ada.get("/ws") as r:
                    assert r.status == 400 and "This address is the war room's connection" in await r.text()
            async with fran.get("/console") as r:
                assert (await r.text()).count("Ada Lovelace") == before  # the roster's line, signed in: no tab
            async with ada.ws_connect("/ws?width=80&height=24") as ws:  # a real tab still opens
                await ws.send_json(["ping", "1"])
                assert (await ws.receive(timeout=60)).type.name in ("BINARY", "TEXT")


async def test_a_trainee_taken_off_the_roster_gets_the_sign_in_page_for_their_own_sessions_too(tmp_path):
    """docs/serve.md: a removed name's sign-in ends at once, "the next request of that browser gets the sign-in
    page". ``/`` did; ``/mine`` and a review under it answered 401 with a link."""
    import asyncio

    from serve_support import write_roster

    with serving(tmp_path) as served:
        ada = await served.signed_in()
        async with ada:
            async with ada.get("/mine", allow_redirects=False) as r:
                assert r.status == 200
            await asyncio.sleep(1.1)  # the roster is looked at once a second at most
            write_roster(tmp_path / "roster.yaml", {"Grace Hopper": TOKENS["Grace Hopper"]})
            await asyncio.sleep(1.1)
            for path in ("/mine", "/mine/some-session", "/"):
                async with ada.get(path, allow_redirects=False) as r:
                    assert (r.status, r.headers.get("Location")) == (303, "/signin"), path
