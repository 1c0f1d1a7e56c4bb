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
