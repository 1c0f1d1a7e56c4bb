"""A real browser on ``warroom serve``: headless Chromium (the system's, through Playwright) signs in with a
roster token and gets the drill picker; a wrong token gets the sign-in page again and no terminal."""

from __future__ import annotations

import time

from browser_support import chromium_executable, sync_playwright
from serve_support import TOKENS, serving, terminal_text

PICKER_TEXT = "Nightly orders load"


def _frames_text(frames: list[bytes | str]) -> str:
    raw = b"".join(f if isinstance(f, bytes) else f.encode() for f in frames)
    return " ".join(terminal_text(raw).split())


def test_a_browser_signs_in_and_sees_the_picker_and_a_wrong_token_gets_nothing(tmp_path):
    executable = chromium_executable()
    with serving(tmp_path) as served, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, headless=True, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            sockets: list[str] = []
            page.on("websocket", lambda ws: sockets.append(ws.url))
            page.goto(served.url + "/")
            assert page.url.endswith("/signin")
            page.fill("#name", "Ada Lovelace")
            page.fill("#token", "not-the-token")
            page.click("button[type=submit]")
            assert "not on the roster" in page.text_content("body")
            assert sockets == []  # no terminal for a wrong token

            frames: list[bytes | str] = []
            page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
            page.fill("#name", "Ada Lovelace")
            page.fill("#token", TOKENS["Ada Lovelace"])
            page.click("button[type=submit]")
            page.wait_for_url(served.url + "/")
            deadline = time.monotonic() + 60
            while PICKER_TEXT not in _frames_text(frames):
                assert time.monotonic() < deadline, f"no picker in the browser: {_frames_text(frames)[-2000:]}"
                page.wait_for_timeout(300)
            assert any("/ws" in url for url in sockets)
        finally:
            browser.close()
