"""A second fresh hostile campaign on ``warroom serve`` (issue 30): what a closed tab or a hostile client does to the
server must never leave a traceback in its log."""

from __future__ import annotations

import asyncio

from serve_support import FACILITATOR, serving


async def test_a_console_tab_closed_while_its_live_events_stream_leaves_no_traceback(tmp_path):
    """``GET /console/live/events`` (the live page's server-sent events): a tab closed between the stream's
    connected check and its next event (a sign-in changes the live table) made aiohttp raise
    ``ClientConnectionResetError: Cannot write to closing transport``, a traceback in the server's log for every
    facilitator who closed or reloaded the console."""
    with serving(tmp_path) as served:
        facilitator = await served.signed_in(FACILITATOR)
        async with facilitator:
            for _ in range(3):
                async with facilitator.get("/console/live/events") as r:
                    assert r.status == 200 and (await r.content.readline()).startswith(b"event: live")
                trainee = await served.signed_in()  # a sign-in changes the live table: an event to send
                await trainee.close()
            await asyncio.sleep(2.5)  # EVENT_TICK is 1 s: each closed stream has tried to send by now
            async with facilitator.get("/console/roster") as r:
                assert r.status == 200  # the server still answers
    log = served.log.read_text(errors="replace")
    assert "Traceback" not in log and "Cannot write to closing transport" not in log, log[-3000:]


def test_a_token_followed_by_nul_characters_is_not_the_token():
    """scrypt keys an HMAC with the token, and HMAC pads a short key with zero bytes: ``TOKEN\\0`` hashed as
    ``TOKEN`` does, so the sign-in form took ``token=TOKEN%00`` as the token (a different text accepted)."""
    from warroom.serve import Roster

    roster = Roster({}).with_trainee("Ada Lovelace", "ada-token-0123456789")
    assert roster.check("Ada Lovelace", "ada-token-0123456789") == "Ada Lovelace"
    for odd in ("ada-token-0123456789\x00", "ada-token-0123456789\x00\x00", "\x00ada-token-0123456789"):
        assert roster.check("Ada Lovelace", odd) is None, repr(odd)
