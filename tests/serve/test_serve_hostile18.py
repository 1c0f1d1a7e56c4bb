"""Hostile input to ``warroom serve`` (issue 30, campaign 18: the served room and the console as a class really runs
them: behind a TLS-terminating proxy, on flaky networks, with HTTP clients of every kind): what it found and what now
holds."""

from __future__ import annotations

import re

import aiohttp
import pytest
from browser_support import async_playwright, chromium_executable
from serve_support import Served, shared_serving

#: The public name of the class's reverse proxy, which terminates TLS and passes the name on as ``Host``.
PROXY_NAME = "warroom.school.example"


@pytest.fixture(scope="module")
def served(tmp_path_factory):  # type: ignore[no-untyped-def]
    """One `warroom serve` for this module's cases (each its own trainee or page), reached also by its proxy's name."""
    with shared_serving(tmp_path_factory.mktemp("hostile18"), "--allowed-host", PROXY_NAME) as server:
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
    assert "proxy_set_header Host $host" in said[0] and "--allowed-host" in said[0]
