"""Hostile input to ``warroom serve`` (issue 30's fourth hostile campaign): forms no browser sends, posted by anyone
to the sign-in page or by a facilitator as a note."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
from serve_support import FACILITATOR, serving

UNREADABLE = "the form cannot be read: post it as the page's form does (URL-encoded UTF-8 text)"


async def test_a_form_no_browser_sends_is_a_bad_request_and_its_bytes_never_reach_the_log(tmp_path):
    """A charset Python does not know (a LookupError), a multipart form without its boundary (a ValueError), and a
    multipart field over 512 KiB (aiohttp's LineTooLong, whose message quotes the body): each was a 500 with a
    traceback in the server's log, the last with the posted token in it, at any client's will."""
    secret = "s3cret-token-" + "x" * 600_000
    cases = [
        ("application/x-www-form-urlencoded; charset=bogus", b"name=Ada&token=x", "the form is not UTF-8 text"),
        ("multipart/form-data; boundary=x", b"name=Ada&token=x", UNREADABLE),
        ("multipart/form-data; boundary=x", f"name=Ada&token={secret}".encode(), UNREADABLE),
    ]  # fmt: skip
    with serving(tmp_path) as served:
        facilitator = await served.signed_in(FACILITATOR)
        async with facilitator, aiohttp.ClientSession(base_url=served.url) as anyone:
            for client, path in ((anyone, "/signin"), (facilitator, "/console/sessions/x/notes")):
                for content_type, body, said in cases:
                    headers = {"Content-Type": content_type}
                    async with client.post(path, data=body, headers=headers, allow_redirects=False) as r:
                        assert (r.status, await r.text()) == (400, said), (path, content_type)
    log = served.log.read_text(errors="replace")
    assert "Traceback" not in log and "s3cret-token" not in log


#: Key sequences Textual's input parser raised on (a number no C int holds, past the last code point, a ``:``).
UNREADABLE_KEYS = ["\x1b[9999999999A", "\x1b[1114112u", "\x1b[:200~", "\x1b[1;5:u", "\x1b[" + "9" * 5000 + "A"]


@pytest.mark.parametrize("keys", UNREADABLE_KEYS)
def test_a_key_sequence_textual_cannot_read_is_refused_whole_or_split(keys: str):
    from warroom.serve._tab import BadMessage, KeySequences

    with pytest.raises(BadMessage, match="a key sequence no terminal sends"):
        KeySequences().check(keys)
    split = KeySequences()
    split.check(keys[:2])  # the sequence is cut: nothing to say yet
    with pytest.raises(BadMessage, match="a key sequence no terminal sends"):
        split.check(keys[2:])


def test_what_a_browser_sends_passes_the_key_sequence_check():
    from warroom.serve._tab import KeySequences

    check = KeySequences()
    for keys in ("a", "\x1b", "[", "\x1b[A", "\x1b[1;5A", "\x1b[15~", "\x1bOP", "\x1b[<35;50;20M", "\x1b[I", "\x1b[O",
                 "\x1b[200~pasted [/x] 9999999999\x1b[201~", "\x1b[1114111u", "\x1b[", "1;2B"):  # fmt: skip
        check.check(keys)


async def test_a_key_sequence_textual_cannot_read_ends_the_senders_session_not_its_input(tmp_path):
    """``["stdin", "\\x1b[9999999999A"]``: Textual's input parser in the tab's app process raised (OverflowError),
    the app read no more input, froze, and outlived its closed tab until SIGTERM. Now the session ends (1008) with
    one line in the log, and the other trainee's tab goes on."""
    from serve_support import TOKENS, SimulatedTrainee, answering

    with serving(tmp_path) as served:
        ada = SimulatedTrainee(served.url, "Ada Lovelace", TOKENS["Ada Lovelace"])
        grace = SimulatedTrainee(served.url, "Grace Hopper", TOKENS["Grace Hopper"])
        try:
            await ada.sign_in(), await grace.sign_in()
            await asyncio.gather(ada.open_tab(), grace.open_tab())  # each read until it shows the picker
            assert ada.ws is not None and grace.ws is not None
            async with answering(grace.ws):  # unread, Grace's tab would be ended by the server's heartbeat
                await ada.ws.send_json(["stdin", "\x1b[99999"])  # split between two messages
                await ada.ws.send_json(["stdin", "99999A"])
                async with asyncio.timeout(20):
                    while (await ada.ws.receive()).type == aiohttp.WSMsgType.BINARY:
                        pass
            assert ada.ws.close_code == 1008
            await grace.keys("\r", "Press enter to start the drill clock")
        finally:
            await ada.close(), await grace.close()
    log = served.log.read_text(errors="replace")
    assert "ended the session of 'Ada Lovelace': a key sequence no terminal sends ('\\\\x1b[9999999999A')" in log
    assert "Traceback" not in log and "did not quit within" not in log
