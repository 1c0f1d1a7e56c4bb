"""Hostile and careless use of ``warroom serve`` (issue 30, campaign 10: what changed today in the served room and
console): what it found and what now holds."""

from __future__ import annotations

import asyncio
import time

from browser_support import async_playwright, chromium_executable, sync_playwright
from serve_support import FACILITATOR, FACILITATOR_TOKEN, TOKENS, serving, terminal_text

from .test_browser_paste import BRIEFING_TEXT, PASTE, PICKER_TEXT


async def test_a_live_page_whose_sign_in_ended_says_it_stopped_not_that_it_retries(tmp_path):
    """The live class's stream ends with its facilitator's sign-in (since today); the browser's EventSource then asks
    again, is answered by the sign-in page, and gives up for good. Before: the page said "The connection to the
    server is lost; retrying." for ever, over a table no longer updated. Now it says the live class stopped and to
    reload the page (signing in again)."""
    executable = chromium_executable()
    with serving(tmp_path) as served:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=executable, headless=True, args=["--no-sandbox"])
            try:
                context = await browser.new_context()
                page = await context.new_page()
                await page.goto(served.url + "/signin")
                await page.fill("#name", FACILITATOR)
                await page.fill("#token", FACILITATOR_TOKEN)
                await page.click("button[type=submit]")
                await page.wait_for_url(served.url + "/console")
                await page.wait_for_selector('#live tr[data-trainee="Ada Lovelace"]')
                other = await context.new_page()  # the same browser signs out in another tab
                await other.goto(served.url + "/console")
                await other.evaluate("() => fetch('/signout', {method: 'POST'})")
                async with asyncio.timeout(90):  # the EventSource asks again (after 3 s) and gives up
                    await page.wait_for_function(
                        "() => !/Updated|retrying/.test(document.getElementById('live-state').textContent)",
                        timeout=60_000)
                    state = await page.inner_text("#live-state")
            finally:
                await browser.close()
    assert state == ("The live class stopped updating: your sign-in has ended (signed out, expired, or taken off the "
                     "roster) or the server restarted. Reload this page to see it again (you may be asked to sign in).")


def test_a_stop_grace_that_is_no_number_of_seconds_is_said_at_start_and_the_default_used(tmp_path):
    """``$WARROOM_SERVE_STOP_GRACE`` (docs/serve.md): ``abc`` ended ``warroom serve`` in a ValueError traceback at its
    import, and ``inf`` (or ``1e9``) made a trainee's new tab wait for ever for their closed tabs' processes (since
    today that wait is the grace and 10 s). Now a number from 0 to 3,600 is taken, anything else said on stderr at
    start (escaped) and 15 s used."""
    from warroom.serve._server import DEFAULT_STOP_GRACE, stop_grace

    assert stop_grace("") == (DEFAULT_STOP_GRACE, None)
    assert stop_grace("2.5") == (2.5, None) and stop_grace("0") == (0.0, None) and stop_grace("3600") == (3600.0, None)
    for bad in ("abc", "inf", "nan", "-5", "1e9", "3600.5"):
        grace, warning = stop_grace(bad)
        assert grace == DEFAULT_STOP_GRACE and warning is not None and f"is '{bad}'," in warning, (bad, warning)
    with serving(tmp_path, roster=False, env={"WARROOM_SERVE_STOP_GRACE": "ab\x1b[31mc"}) as served:
        assert served.proc.poll() is None  # it listened, and runs
    log = served.log.read_text()
    assert "Traceback" not in log
    assert ("warning: $WARROOM_SERVE_STOP_GRACE is 'ab\\x1b[31mc', no number of seconds from 0 to 3,600: 15 s is "
            "used (set a number such as 15, or unset it)") in log


def test_a_paste_holding_a_lone_surrogate_is_sent_with_it_replaced_and_the_session_goes_on(tmp_path):
    """A clipboard's broken text (half of a UTF-16 pair) pasted into a served tab: the page sent it as it was, the
    server refused it as no UTF-8 and ended the trainee's session (a drill being played stored as abandoned), where the
    war room in a terminal takes it as U+FFFD. Now the page's guard sends each lone surrogate as U+FFFD."""
    with serving(tmp_path) as served, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_executable(), headless=True, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            frames: list[bytes | str] = []
            sent: list[str] = []
            closed: list[None] = []

            def watch(ws) -> None:  # type: ignore[no-untyped-def]
                ws.on("framereceived", lambda payload: frames.append(payload))
                ws.on("framesent", lambda payload: sent.append(payload) if isinstance(payload, str) else None)
                ws.on("close", lambda _: closed.append(None))

            page.on("websocket", watch)
            page.goto(served.url + "/")
            page.fill("#name", "Ada Lovelace")
            page.fill("#token", TOKENS["Ada Lovelace"])
            page.click("button[type=submit]")
            page.wait_for_url(served.url + "/")

            def shown(text: str) -> bool:
                return text in " ".join(terminal_text(b"".join(
                    f if isinstance(f, bytes) else f.encode() for f in frames)).split())  # fmt: skip

            deadline = time.monotonic() + 90
            while not shown(PICKER_TEXT):
                assert time.monotonic() < deadline, "the picker was never shown"
                page.wait_for_timeout(300)
            page.click("body")
            page.keyboard.press("Home")
            page.evaluate(PASTE, "abc\ud800def")
            page.keyboard.press("Enter")  # after the paste, on the same connection: the tutorial's briefing opens
            deadline = time.monotonic() + 90
            while not shown(BRIEFING_TEXT):
                assert not closed and time.monotonic() < deadline, "the session ended, or the briefing never opened"
                page.wait_for_timeout(300)
        finally:
            browser.close()
    pastes = [m for m in sent if "abc" in m]
    assert pastes == ['["stdin","\\u001b[200~abc\ufffddef\\u001b[201~"]'], pastes
    assert "lone surrogate" not in served.log.read_text()


def test_serve_on_port_0_names_the_port_the_system_chose(tmp_path):
    """``warroom serve --port 0`` (any free port: the option takes 0) said ``War Room served on
    http://127.0.0.1:0``, an address nobody can open. Now the banner names the port it listens on, and that address
    answers."""
    import urllib.request

    from serve_support import serving_on_port_0

    with serving_on_port_0(tmp_path / "serve.log", tmp_path / "data") as served:
        assert served.port != 0
        with urllib.request.urlopen(served.url + "/", timeout=60) as answer:
            assert answer.status == 200


def test_the_banner_writes_an_ipv6_address_in_brackets():
    """``warroom serve --host ::1`` said ``War Room served on http://::1:8000``, a URL no browser opens (textual-serve
    wrote the host as it was). Now ``http://[::1]:8000``; a host name or an IPv4 address as before."""
    from warroom.serve import AppOptions, SignIns, WarroomServer

    def banner(host: str) -> str:
        return WarroomServer(SignIns(None, "nobody"), AppOptions(), host=host, port=8000).banner()

    assert banner("::1").startswith("War Room served on http://[::1]:8000 (")
    assert banner("127.0.0.1").startswith("War Room served on http://127.0.0.1:8000 (")
    assert banner("localhost").startswith("War Room served on http://localhost:8000 (")
