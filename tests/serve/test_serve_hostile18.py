"""Hostile input to ``warroom serve`` (issue 30, campaign 18: the served room and the console as a class really runs
them: behind a TLS-terminating proxy, on flaky networks, with HTTP clients of every kind): what it found and what now
holds."""

from __future__ import annotations

import asyncio
import re

import aiohttp
import pytest
import yarl
from browser_support import async_playwright, chromium_executable
from serve_support import TOKENS, Served, shared_serving

#: The public name of the class's reverse proxy, which terminates TLS and passes the name on as ``Host``.
PROXY_NAME = "warroom.school.example"


@pytest.fixture(scope="module")
def served(tmp_path_factory):  # type: ignore[no-untyped-def]
    """One `warroom serve` for this module's cases (each its own trainee or page), reached also by its proxy's name,
    behind which (on this host) it trusts ``X-Forwarded-For``."""
    folder = tmp_path_factory.mktemp("hostile18")
    with shared_serving(folder, "--allowed-host", PROXY_NAME, "--forwarded-allow-ips", "127.0.0.1") as server:
        yield server


# --- behind a reverse proxy that terminates TLS -------------------------------------------------------------------


async def test_the_terminal_page_behind_a_tls_proxy_loads_its_script_and_opens_its_websocket_over_tls(served: Served):
    """docs/serve.md says to serve over HTTPS behind a reverse proxy that terminates TLS. The server sees that proxy's
    ``http`` requests, and wrote the terminal page's URLs from them: ``http://NAME/static/js/textual.js`` and
    ``ws://NAME/ws/TICKET``, which a browser refuses in an ``https`` page (mixed content): the war room never started
    behind such a proxy. Chromium here loads the page at ``https://NAME/`` (each request answered by the real server,
    as the proxy would pass it on) and must run the terminal's script and open its websocket as ``wss://NAME/ws/...``."""
    ada = await served.signed_in("Ada Lovelace")
    cookie = next(c.value for c in ada.cookie_jar if c.key == served.cookie)
    await ada.close()
    opened: list[str] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium_executable(), args=["--no-sandbox"])
        try:
            page = await browser.new_page()

            async def proxied(route):  # type: ignore[no-untyped-def]
                path = route.request.url.removeprefix(f"https://{PROXY_NAME}")
                headers = {**route.request.headers, "host": PROXY_NAME, "x-forwarded-proto": "https",
                           "cookie": f"{served.cookie}={cookie}"}  # fmt: skip
                await route.fulfill(response=await route.fetch(url=served.url + path, headers=headers))

            async def websocket(ws):  # type: ignore[no-untyped-def]
                opened.append(ws.url)
                await ws.close()

            await page.route(f"https://{PROXY_NAME}/**", proxied)
            await page.route_web_socket(re.compile(r".*/ws/.*"), websocket)
            await page.goto(f"https://{PROXY_NAME}/")
            await page.wait_for_function("document.body.classList.contains('-closed')", timeout=20_000)
        finally:
            await browser.close()
    assert len(opened) == 1 and opened[0].startswith(f"wss://{PROXY_NAME}/ws/"), opened


async def test_the_terminal_page_names_no_scheme_or_host_of_its_own(served: Served):
    """The page's script, styles and websocket are paths of the server (the browser reads them against the page's
    own address), whatever scheme and ``Host`` the request came with."""
    grace = await served.signed_in("Grace Hopper")
    async with grace, grace.get("/", headers={"Host": PROXY_NAME, "X-Forwarded-Proto": "https"}) as r:
        page = await r.text()
    assert r.status == 200, page
    assert 'src="/static/js/textual.js"' in page and 'href="/static/css/xterm.css"' in page
    assert re.search(r'data-session-websocket-url="/ws/[^"/]+"', page)
    assert "http://" not in page.replace("http://www.w3.org/", "") and "ws://" not in page.replace('"ws://"', "")


async def test_a_sign_in_behind_a_proxy_that_does_not_pass_the_host_is_refused_and_the_log_says_what_to_change(
    served: Served,
):
    """nginx passes its upstream's address on as ``Host`` unless told otherwise: the browser's ``Origin`` (the
    proxy's public name) is then not the request's host, so every sign-in of the class was refused as a form of
    another site's page, the log holding nothing but each request's line. The refusal stands (such a form is
    indistinguishable from another site's); the log now names the page and says what to change, once per page, and
    the page says to tell the facilitator."""
    origin = f"https://{PROXY_NAME}"
    form = {"name": "Ada Lovelace", "token": "whatever"}
    async with aiohttp.ClientSession(base_url=served.url) as browser:
        for _ in range(2):
            async with browser.post("/signin", data=form, headers={"Origin": origin}, allow_redirects=False) as r:
                text = await r.text()
                assert r.status == 403 and "tell your facilitator" in text, text
    log = served.log.read_text(errors="replace")
    said = [line for line in log.splitlines() if "HTTP 403: another site's page" in line]
    assert len(said) == 1, said
    assert f"refused a form from '{origin}' for the host '127.0.0.1:{served.port}'" in said[0]
    assert "proxy_set_header Host $http_host" in said[0] and "--allowed-host" in said[0]


async def test_a_sign_in_behind_a_proxy_on_another_port_passing_nginxs_host_is_told_its_port_was_dropped(
    served: Served,
):
    """docs/serve.md said `proxy_set_header Host $host`, and so did the log: nginx's `$host` is the name without the
    port, so a class served at `https://warroom.school.example:8443/` (a TLS proxy on a port other than 443) had every
    sign-in refused as another site's page, and the advice was the setting already made (campaign nu2, with nginx).
    The log now says `$http_host` (the name and port the browser sent) and that the page's port is not the Host's."""
    origin = f"https://{PROXY_NAME}:8443"
    form = {"name": "Grace Hopper", "token": "whatever"}
    async with aiohttp.ClientSession(base_url=served.url) as browser:
        headers = {"Origin": origin, "Host": PROXY_NAME, "X-Forwarded-Proto": "https"}
        async with browser.post("/signin", data=form, headers=headers, allow_redirects=False) as r:
            assert r.status == 403
    log = await _log_holding(served, f"refused a form from '{origin}'")
    said = [line for line in log.splitlines() if f"refused a form from '{origin}'" in line]
    assert len(said) == 1, said
    assert f"for the host '{PROXY_NAME}'" in said[0]
    assert "nginx: proxy_set_header Host $http_host; nginx's $host drops the port" in said[0]
    assert ("(the page's port, 8443, is not the Host's, none: the default: the proxy changed the port the browser "
            "sent)") in said[0]


async def _log_holding(served: Served, text: str) -> str:
    """The server's log once it holds ``text`` (aiohttp writes a request's access line after its answer is sent)."""
    for _ in range(100):
        if text in (log := served.log.read_text(errors="replace")):
            return log
        await asyncio.sleep(0.05)
    raise AssertionError(f"{text!r} is not in the log:\n{log[-3000:]}")


# --- the log holds no token -----------------------------------------------------------------------------------------


async def test_a_token_typed_in_the_name_box_or_pasted_with_the_name_is_not_in_the_log(served: Served):
    """A refused sign-in is logged with the name as typed: a trainee who typed their token in the name box, or pasted
    ``roster add``'s whole line (``NAME<TAB>TOKEN``) there, had their token written into the log the facilitator
    reads and keeps (docs/serve.md: the log never holds a token)."""
    import secrets

    tokens = [secrets.token_urlsafe(16) for _ in range(2)]
    async with aiohttp.ClientSession(base_url=served.url) as browser:
        for name in (tokens[0], f"Grace Hopper\t{tokens[1]}"):
            async with browser.post("/signin", data={"name": name, "token": "grace"}, allow_redirects=False) as r:
                assert r.status == 401
    log = await _log_holding(served, "sign-in refused: 'Grace Hopper [a token? not shown]' from 127.0.0.1")
    assert all(token not in log for token in tokens)
    assert "sign-in refused: '[a token? not shown]' from 127.0.0.1" in log


async def test_a_token_in_a_query_is_not_in_the_access_log(served: Served):
    """aiohttp's access log line holds the request line and the ``Referer``: a sign-in link a facilitator wrote
    (``/signin?name=Ada&token=...``) put the token into the log twice, in its request and the next one's
    ``Referer``."""
    import secrets

    token, other = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
    link = f"{served.url}/signin?name=Ada+Lovelace&TOKEN={token}#x"
    async with aiohttp.ClientSession() as browser:
        async with browser.get(link) as r:
            assert r.status == 200
        raw = yarl.URL(f"{served.url}/signin?x=1;%74oken%3D{other}", encoded=True)  # sent as written
        async with browser.get(raw, headers={"Referer": link}) as r:
            assert r.status == 200
    log = await _log_holding(served, '"GET /signin?x=1;%74oken%3D… HTTP/1.1" 200')
    assert token not in log and other not in log
    assert '"GET /signin?name=Ada+Lovelace&TOKEN=… HTTP/1.1" 200' in log
    assert f'"{served.url}/signin?name=Ada+Lovelace&TOKEN=…#x"' in log  # the Referer


# --- paths of no page -------------------------------------------------------------------------------------------------


async def test_a_path_of_no_page_says_where_the_pages_are_and_a_trailing_slash_is_dropped(served: Served):
    """aiohttp answered a path of no page with the text ``404: Not Found`` alone, the console's own address written
    with a trailing slash (``/console/``, as an address bar may complete it) among them."""
    fran = await served.signed_in("Fran Allen")
    async with fran:
        async with fran.get("/console/?x=1", allow_redirects=False) as r:
            assert (r.status, r.headers.get("Location")) == (302, "/console?x=1")
        async with fran.get("/console/trainees/") as r:
            assert r.status == 200 and str(r.url).endswith("/console/trainees")
        async with fran.get("/console/nowhere<b>") as r:
            text = await r.text()
        assert r.status == 404 and "no page at <code>/console/nowhere&lt;b&gt;</code>" in text, text
        assert 'href="/console"' in text
        async with fran.get("/console/sessions/no-such-session") as r:  # a page's own 404 stays its own
            assert r.status == 404 and "no-such-session" in await r.text()
    grace = await served.signed_in("Grace Hopper")
    async with grace:
        for path in ("//evil.example/", "/\\evil.example/", "/%5Cevil.example/", "/%09/evil.example/"):  # never a
            # redirect to another site
            async with grace.get(yarl.URL(served.url + path, encoded=True), allow_redirects=False) as r:
                assert r.status == 404 and "Location" not in r.headers, path


async def test_the_sign_in_cookie_of_a_page_served_over_https_by_a_tls_proxy_is_secure(served: Served):
    """Behind a proxy that terminates TLS the server sees ``http`` requests, and set the sign-in cookie without
    ``Secure``: a browser then sent it over plain HTTP too (the address typed without ``https://``, to the proxy's
    port 80), to be read by the network HTTPS is served against. The sign-in form's ``Origin`` says the page was
    ``https``; a page over plain HTTP keeps a cookie it can use (not ``Secure``)."""
    form = {"name": "Ada Lovelace", "token": TOKENS["Ada Lovelace"]}
    cookies = {}
    for origin in (f"https://{PROXY_NAME}", f"http://{PROXY_NAME}"):
        async with aiohttp.ClientSession(base_url=served.url) as browser:
            headers = {"Origin": origin, "Host": PROXY_NAME}
            async with browser.post("/signin", data=form, headers=headers, allow_redirects=False) as r:
                assert r.status == 303
                cookies[origin.split(":")[0]] = r.cookies[served.cookie]
    assert cookies["https"]["secure"] and cookies["https"]["httponly"]
    assert not cookies["http"]["secure"]


# --- two trainees compared ------------------------------------------------------------------------------------------


async def test_compare_shows_each_trainee_s_first_attempt_as_the_gradebook_finds_it_not_the_earliest_start(
    served: Served,
):
    """``/console/compare`` compares "each one's first session" of a drill: it took the earliest start, which a
    trainee's clock sets, where the gradebook, the grid and the figures take the session the store stored first. A
    trainee who quit, read the review and replayed with the clock set back a year had the informed replay compared
    as their first attempt."""
    import sqlite3

    from handcohort_support import DRILL, Play, play

    first = play(served.data_dir, Play("cass", "A", (("quit", 5),)))
    replay = play(served.data_dir, Play("cass", "A", (("esc", 12, "s1", ("e06",)),)))
    with sqlite3.connect(served.data_dir / "results.sqlite3") as conn:
        conn.execute("UPDATE sessions SET started_at = '2025-11-29T10:00:00.000000Z' WHERE session_id = ?", (replay,))
    fran = await served.signed_in("Fran Allen")
    async with fran, fran.get("/console/compare", params={"drill": DRILL["A"], "a": "cass"}) as r:
        page = await r.text()
    assert r.status == 200, page
    compared = re.search(r'<td>A</td>.*?<a href="/console/sessions/([^"]+)">', page, re.S)
    assert compared is not None and compared.group(1) == first, page[-3000:]


# --- behind a named reverse proxy, the log names each client ----------------------------------------------------------


async def test_each_request_s_line_names_the_client_a_named_proxy_saw_as_the_sign_in_lines_do(served: Served):
    """With ``--forwarded-allow-ips`` the sign-in lines named the client the proxy saw, but every request's line of
    aiohttp's access log named the proxy itself: behind a proxy on the same host, ``127.0.0.1`` for the whole class,
    so the log could not tell one client's requests (a flood's) from the others'."""
    async with aiohttp.ClientSession(base_url=served.url) as browser:
        async with browser.get("/signin?who=forwarded", headers={"X-Forwarded-For": "203.0.113.9"}) as r:
            assert r.status == 200
        async with browser.get("/signin?who=direct") as r:  # no header: the address that connected
            assert r.status == 200
    log = await _log_holding(served, '"GET /signin?who=direct HTTP/1.1" 200')
    assert ' INFO 203.0.113.9 [' in next(line for line in log.splitlines() if "who=forwarded" in line)
    assert ' INFO 127.0.0.1 [' in next(line for line in log.splitlines() if "who=direct" in line)

