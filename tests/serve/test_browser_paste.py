"""A long paste in a real browser's war room tab (headless Chromium through Playwright): the page's paste guard
(warroom/serve/_paste.py) cuts it to what a tab may send and says so; the session goes on."""

from __future__ import annotations

import json
import time

from browser_support import chromium_executable, sync_playwright
from serve_support import TOKENS, serving, terminal_text

from warroom.serve._tab import MAX_KEYS_BYTES

#: The tutorial's title: first in the picker for a new trainee.
PICKER_TEXT = "Tutorial: where-is"
#: The line under every briefing (warroom/tui/screens/_briefing.py).
BRIEFING_TEXT = "Press enter to start the drill clock"
#: Pastes the page as a browser does when the trainee presses ctrl+v: a paste event on xterm's text area.
PASTE = """text => {
    const area = document.querySelector('.xterm-helper-textarea');
    const data = new DataTransfer();
    data.setData('text/plain', text);
    area.dispatchEvent(new ClipboardEvent('paste', {clipboardData: data, bubbles: true, cancelable: true}));
}"""


def test_a_paste_of_a_megabyte_is_cut_with_a_notice_and_the_session_goes_on(tmp_path):
    """Before: textual-serve's page sent a paste whole, as one message: over 16 KiB of keys (or over the tab's input
    budget, 32 KiB at once, or over 64 KiB, aiohttp's limit) the server ended the trainee's session. Now the page
    sends the start of the paste that fits, shows why, and the tab plays on: three 1 MB pastes in a row, then enter
    opens the briefing, and the server ended no session."""
    executable = chromium_executable()
    with serving(tmp_path) as served, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, headless=True, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            frames: list[bytes | str] = []
            sent: list[str] = []

            def watch(ws) -> None:  # type: ignore[no-untyped-def]
                ws.on("framereceived", lambda payload: frames.append(payload))
                ws.on("framesent", lambda payload: sent.append(payload) if isinstance(payload, str) else None)

            page.on("websocket", watch)
            page.goto(served.url + "/")
            page.fill("#name", "Ada Lovelace")
            page.fill("#token", TOKENS["Ada Lovelace"])
            page.click("button[type=submit]")
            page.wait_for_url(served.url + "/")

            def wait_for(text: str, since: int = 0, timeout: float = 90) -> None:
                deadline = time.monotonic() + timeout
                while text not in " ".join(terminal_text(b"".join(
                        f if isinstance(f, bytes) else f.encode() for f in frames[since:])).split()):  # fmt: skip
                    assert time.monotonic() < deadline, f"{text!r} never shown"
                    page.wait_for_timeout(300)

            wait_for(PICKER_TEXT)
            page.click("body")  # the terminal takes the keys
            page.keyboard.press("Home")
            log_line = "a log line of a very long paste, 😀 and é\n"
            for _ in range(3):
                page.evaluate(PASTE, log_line * 25_000)  # 1.1 MB
            notice = page.text_content("#warroom-paste-notice") or ""
            assert notice.startswith("Your paste was"), notice
            assert page.is_visible("#warroom-paste-notice")
            pastes = [json.loads(m)[1] for m in sent if m.startswith('["stdin"') and "\\u001b[200~" in m]
            assert pastes and all(len(p.encode()) <= MAX_KEYS_BYTES for p in pastes), [len(p) for p in pastes]
            assert pastes[0].startswith("\x1b[200~a log line") and pastes[0].endswith("\x1b[201~")
            assert len(pastes[0]) > 10_000  # the first paste's start, as much as fits (about 13,000 characters)
            assert "16 KiB at once and 2 KiB a second" in notice, notice
            mark = len(frames)
            page.keyboard.press("Enter")  # the session plays on: the briefing opens
            wait_for(BRIEFING_TEXT, since=mark)
        finally:
            browser.close()
    log = served.log.read_text(errors="replace")
    assert "ended the session" not in log and "Traceback" not in log, log[-3000:]


def test_the_paste_guard_sends_only_what_the_server_takes_and_says_why(tmp_path):
    """The page's guard, in Chromium on a page of its own (no server; its clock Playwright's), replayed through the
    server's own check of each message (read_message, with an input budget on the same clock): every message it sends
    passes, a paste is cut to what fits (keeping KEPT_BYTES of the budget), a paste with no room left is not sent, the
    notice says why and goes after NOTICE_SECONDS, and a paste after the budget has refilled is sent again."""
    from aiohttp import WSMessage, WSMsgType

    from warroom.serve._paste import KEPT_BYTES, NOTICE_SECONDS, with_paste_guard
    from warroom.serve._tab import BURST_BYTES, InputBudget, read_message

    executable = chromium_executable()
    now = [0.0]
    budget = InputBudget(clock=lambda: now[0])
    stub = "<script>window.sent = []; WebSocket.prototype.send = function (d) { window.sent.push(d); };</script>"
    page_html = with_paste_guard("<!DOCTYPE html><html><head></head><body></body></html>")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, headless=True, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.clock.install(time=0)
            page.clock.pause_at(1000)  # the page's time moves only when the test says
            page.set_content(page_html.replace("<head>", "<head>" + stub, 1))  # the stub under the guard

            def send(keys: str) -> list[str]:
                """The messages the page sent for ``keys``, each checked as the server checks it."""
                before = page.evaluate("window.sent.length")
                page.evaluate("k => WebSocket.prototype.send.call({}, JSON.stringify(['stdin', k]))", keys)
                sent = page.evaluate("n => window.sent.slice(n)", before)
                now[0] = page.evaluate("performance.now()") / 1000  # the server's clock: the page's
                for text in sent:
                    read_message(WSMessage(WSMsgType.TEXT, text, None), budget)  # raises BadMessage if refused
                return [json.loads(t)[1] for t in sent]

            def notice() -> str:
                return page.text_content("#warroom-paste-notice") or ""

            paste = "\x1b[200~" + "a log line of a very long paste\n" * 32_000 + "\x1b[201~"  # 1 MB
            assert send("j") == ["j"]  # typing is sent as it is
            first = send(paste)
            assert len(first) == 1 and first[0].startswith("\x1b[200~a log line") and first[0].endswith("\x1b[201~")
            assert len(first[0].encode()) <= MAX_KEYS_BYTES and "cut to its first" in notice()
            second = send(paste)
            assert len(second) == 1 and len(second[0]) < len(first[0])  # what the budget had left
            assert budget.tokens >= KEPT_BYTES - 64  # kept for typing (the server's clock is the page's here)
            assert send(paste) == [] and "was not sent" in notice() and "Paste again in" in notice()
            assert send("k") == ["k"]  # typing still goes
            page.clock.run_for((NOTICE_SECONDS + 4) * 1000)
            now[0] = page.evaluate("performance.now()") / 1000  # the budget refilled (2 KiB a second, 32 KiB at most)
            assert budget.take(0) and budget.tokens == BURST_BYTES
            assert not page.is_visible("#warroom-paste-notice")
            assert send(paste)[0] == first[0]  # as much as the first time
        finally:
            browser.close()
