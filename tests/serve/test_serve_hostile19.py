"""Hostile input to ``warroom serve`` (issue 30, campaign 19: the served room's changes of campaign 18 attacked at
their edges): what it found and what now holds."""

from __future__ import annotations

import asyncio

import pytest
import yarl
from serve_support import Served, shared_serving


@pytest.fixture(scope="module")
def served(tmp_path_factory):  # type: ignore[no-untyped-def]
    """One `warroom serve` for this module's cases, behind a reverse proxy on this host (it trusts
    ``X-Forwarded-For`` from 127.0.0.1)."""
    folder = tmp_path_factory.mktemp("hostile19")
    with shared_serving(folder, "--forwarded-allow-ips", "127.0.0.1") as server:
        yield server


async def _raw(served: Served, request: bytes) -> bytes:
    """``request`` written as it is to the server; its whole answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", served.port)
    writer.write(request)
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    return answer


async def _logged(served: Served, marker: str) -> str:
    """The server's log once it holds ``marker`` (each request's line is written after its answer)."""
    for _ in range(100):
        text = served.log.read_text(errors="replace")
        if marker in text:
            return text
        await asyncio.sleep(0.05)
    return served.log.read_text(errors="replace")


async def test_a_malformed_request_behind_a_trusted_proxy_gets_its_line_in_the_log_not_a_traceback(served: Served):
    """Behind ``--forwarded-allow-ips``, each request's line names the client the proxy saw; a request aiohttp
    cannot parse (a header with a control character, which a proxy passes on) has its headers as a plain dict,
    whose missing ``getall`` wrote ``Error in logging`` and a traceback into the facilitator's log for every such
    request, and the request's own line was lost."""
    answer = await _raw(served, b"GET /signin?campaign19-bad HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                b"X-Forwarded-For: 10.9.8.7\r\nX-Bad: a\x01b\r\nConnection: close\r\n\r\n")  # fmt: skip
    assert b" 400 " in answer.split(b"\r\n", 1)[0], answer[:200]
    ok = await _raw(served, b"GET /signin?campaign19-after HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                            b"X-Forwarded-For: 10.9.8.7\r\nConnection: close\r\n\r\n")  # fmt: skip
    assert ok.startswith(b"HTTP/1.1 200"), ok[:200]
    log = await _logged(served, "campaign19-after")
    assert "Error in logging" not in log and "Traceback" not in log and "getall" not in log, log[-3000:]
    assert "10.9.8.7" in next(line for line in log.splitlines() if "campaign19-after" in line)


async def test_a_static_file_revalidated_or_asked_for_in_part_is_answered_once_without_a_traceback(served: Served):
    """Static files are written under the write stall since campaign 18, by the middleware's own ``prepare``; aiohttp
    then prepared the file's answer again, which for a 304 (a browser's reload revalidating its cached script with
    ``If-None-Match``), a 206 (``Range``) or a 416 set its status after its headers were sent: an ``Unhandled
    exception`` traceback in the log for each, and the connection dropped with the requests behind it."""
    ada = await served.signed_in("Ada Lovelace")
    async with ada:
        async with ada.get("/static/js/textual.js") as whole:
            assert whole.status == 200
            etag, size = whole.headers["ETag"], len(await whole.read())
        async with ada.get("/static/js/textual.js", headers={"If-None-Match": etag}) as cached:
            assert cached.status == 304 and await cached.read() == b""
        async with ada.get("/static/js/textual.js", headers={"Range": "bytes=0-9"}) as part:
            assert (part.status, len(await part.read())) == (206, 10)
        async with ada.get("/static/js/textual.js", headers={"Range": f"bytes={size + 10}-"}) as beyond:
            assert beyond.status == 416
        async with ada.get("/signin?campaign19-static-after") as after:  # the same connection, answered
            assert after.status in (200, 303)
    log = await _logged(served, "campaign19-static-after")
    assert "Unhandled exception" not in log and "Cannot change the response status" not in log, log[-3000:]


async def test_a_trailing_slash_after_a_name_holding_a_slash_goes_to_its_page(served: Served):
    """A page's path with a trailing slash is sent to the path without it when that is a page (docs/serve.md): the
    path was read decoded, so ``/console/trainees/Ann%2FB/`` (a trainee named ``Ann/B``, whose page is
    ``/console/trainees/Ann%2FB``) was tried as ``/console/trainees/Ann/B``, no page: a 404. And no such redirect
    leads to another site."""
    from serve_support import FACILITATOR

    fran = await served.signed_in(FACILITATOR)
    async with fran:
        url = yarl.URL(f"{served.url}/console/trainees/Ann%2FB/", encoded=True)
        async with fran.get(url, allow_redirects=False) as r:
            assert (r.status, r.headers.get("Location")) == (302, "/console/trainees/Ann%2FB"), await r.text()
        for path in ("//evil.example/", "/%2F%2Fevil.example/", "/%5Cevil.example/", "///evil.example//"):
            async with fran.get(yarl.URL(served.url + path, encoded=True), allow_redirects=False) as r:
                assert r.status in (403, 404) and "Location" not in r.headers, (path, r.status, r.headers)
