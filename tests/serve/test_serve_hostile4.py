"""Hostile input to ``warroom serve`` (issue 30's fourth hostile campaign): forms no browser sends, posted by anyone
to the sign-in page or by a facilitator as a note."""

from __future__ import annotations

import aiohttp
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
