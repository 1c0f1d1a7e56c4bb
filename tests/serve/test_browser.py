"""A real browser on ``warroom serve``: headless Chromium (the system's, through Playwright) signs in with a
roster token (after a wrong one, which gets the sign-in page again and no terminal), gets the drill picker, plays a
drill to containment by keys, sees the debrief and finds the session in the store."""

from __future__ import annotations

import time

from browser_support import chromium_executable, sync_playwright
from serve_support import TOKENS, serving, terminal_text

#: The title of carbon-aware-memo, the one drill of the set the play test serves.
SET_DRILL_TEXT = "Evidence memo"
#: The line under every briefing (warroom/tui/screens/_briefing.py).
BRIEFING_TEXT = "Press enter to start the drill clock"


def _frames_text(frames: list[bytes | str]) -> str:
    raw = b"".join(f if isinstance(f, bytes) else f.encode() for f in frames)
    return " ".join(terminal_text(raw).split())


def test_a_browser_plays_a_drill_to_containment_and_the_session_is_stored(tmp_path):
    """A wrong token first: the sign-in page again, and no terminal (one browser and one served tab for the whole
    story: each is a process of its own). Then sign in, see the picker, open the drill of a one-drill set
    (carbon-aware-memo: its fault is in s2, its evidence from 32 s of drill time), play it at 4x until the evidence is
    on screen, pause, escalate s2 by keys, see the debrief, and find the contained session of the roster's trainee in
    the store."""
    from warroom.store.results import ResultsStore

    executable = chromium_executable()
    drill_set = tmp_path / "browser.set.yaml"
    # noise_rate 0: the served warroom plays the drill's fault, never its healthy twin (this test contains it)
    drill_set.write_text("set: browser\ntitle: Browser test\nnoise_rate: 0\ndrills: [carbon-aware-memo]\n",
                         encoding="utf-8")
    with serving(tmp_path, "--set", str(drill_set)) as served, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, headless=True, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1600, "height": 1000})
            sockets: list[str] = []
            page.on("websocket", lambda ws: sockets.append(ws.url))
            page.goto(served.url + "/")
            assert page.url.endswith("/signin")
            page.fill("#name", "Grace Hopper")
            page.fill("#token", "not-the-token")
            page.click("button[type=submit]")
            assert "not on the roster" in page.text_content("body")
            assert sockets == []  # no terminal for a wrong token

            frames: list[bytes | str] = []
            page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
            page.fill("#name", "Grace Hopper")
            page.fill("#token", TOKENS["Grace Hopper"])
            page.click("button[type=submit]")
            page.wait_for_url(served.url + "/")

            def wait_for(text: str, since: int = 0, timeout: float = 60) -> int:
                deadline = time.monotonic() + timeout
                while text not in _frames_text(frames[since:]):
                    assert time.monotonic() < deadline, f"{text!r} never shown: {_frames_text(frames[since:])[-2000:]}"
                    page.wait_for_timeout(200)
                return len(frames)

            wait_for(SET_DRILL_TEXT)  # the picker, with the set's drill
            assert any("/ws" in url for url in sockets)
            page.click("body")  # the terminal takes the keys (the click may land on a row of the picker)
            page.keyboard.press("Home")  # so back to the first drill, whatever row the click selected
            mark = len(frames)
            page.keyboard.press("Enter")  # the briefing
            wait_for(BRIEFING_TEXT, since=mark)
            page.keyboard.press("Enter")  # the war room
            journals = served.data_dir / "journals"
            deadline = time.monotonic() + 30
            while not (journals.is_dir() and list(journals.glob("*.jsonl"))):
                assert time.monotonic() < deadline, "the war room did not open"
                page.wait_for_timeout(200)
            mark = len(frames)
            page.keyboard.press("+")
            page.keyboard.press("+")  # 4x
            wait_for("HTTP 403", since=mark)  # e10 as shown (written e09), the first evidence (32 s of drill time)
            page.keyboard.press(" ")  # pause the drill clock
            page.wait_for_timeout(500)
            mark = len(frames)
            page.keyboard.press("e")
            mark = wait_for("citing no event", since=mark)  # the dialog is open (it ticks nothing not chosen)
            page.keyboard.type("s2")
            page.keyboard.press("Tab")  # the reason
            page.keyboard.press("Tab")  # the evidence list
            page.keyboard.type("e10")  # its id as the table shows it (ids by position: the drill has a twin)
            page.keyboard.press(" ")
            wait_for("citing: e10", since=mark)
            mark = len(frames)
            page.keyboard.press("Enter")
            wait_for("y escalates", since=mark)  # the dialog asks to confirm (a key, not a fixed wait, says so)
            page.keyboard.press("y")
            mark = wait_for("What happened", since=mark)  # the debrief
            page.keyboard.press("End")  # its end: the drill's own debrief text, below the fold in a small window
            wait_for("The fault was in s2", since=mark)  # the answer key
        finally:
            browser.close()
    with ResultsStore(served.data_dir, create=False) as store:
        rows = store.query()
        acts = [(a.kind, a.t, a.step, a.cites) for r in rows for a in store.get(r.session_id).actions]
    stored = [(r.trainee, r.drill_id, r.outcome) for r in rows]
    assert stored == [("Grace Hopper", "carbon-aware-memo", "contained")], acts
