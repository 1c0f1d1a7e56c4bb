"""What the last stop left open in the served room (issue 30, leftovers of the twelfth stop): a console page or the
live stream asked for by a client that never reads it, and a huge ``Sec-WebSocket-Protocol`` header written whole
into the log.

One ``warroom serve --port 0`` serves the module's tests (:func:`served`), with a roster of 8,000 names (each with
one stored hash: hashing 8,000 tokens would take minutes) so that the console's live page (about 3 MB) is more than
the system's socket buffers take (about 2 MB on loopback) and aiohttp's flow control makes its write wait."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from serve_support import (
    FACILITATOR,
    FACILITATOR_TOKEN,
    TOKENS,
    Served,
    serving_on_port_0,
    warm_picker_cache,
)

from warroom.serve._roster import hash_token

#: Seconds a write may wait for its client to read, in the module's server (``$WARROOM_SERVE_WRITE_STALL``).
WRITE_STALL = 2
#: Names of the module's roster besides the two trainees and the facilitator.
MANY = 8_000


def big_roster(path: Path) -> Path:
    """A roster of :data:`TOKENS`, :data:`MANY` more trainees (one token's hash for all of them) and the
    facilitator."""
    lines = ["trainees:"]
    for name, token in TOKENS.items():
        lines += [f"- name: {name}", f"  token: {hash_token(token)}"]
    shared = hash_token("nobody-knows-this-token")
    lines += [line for i in range(MANY) for line in (f"- name: Trainee {i:04}", f"  token: {shared}")]
    lines += [f"- name: {FACILITATOR}", f"  token: {hash_token(FACILITATOR_TOKEN)}", "  role: facilitator"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    tmp = tmp_path_factory.mktemp("leftovers12")
    cache = tmp / "cache"
    warm_picker_cache(cache)
    environ = {name: value for name, value in os.environ.items() if not name.startswith("WARROOM_")}
    environ.update(TERM="xterm-256color", LANG="C.UTF-8", WARROOM_CACHE_DIR=str(cache),
                   WARROOM_SERVE_WRITE_STALL=str(WRITE_STALL))  # fmt: skip
    args = ["--roster", str(big_roster(tmp / "roster.yaml"))]
    with serving_on_port_0(tmp / "serve.log", tmp / "data", *args, env=environ) as served:
        yield served


async def _never_reading(served: Served, request: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection with a small receive window that sends ``request`` (its head, with the facilitator's sign-in)
    and reads nothing."""
    http = await served.signed_in(FACILITATOR)
    async with http:
        cookie = "; ".join(f"{c.key}={c.value}" for c in http.cookie_jar)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)  # a small window: it fills at once
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", served.port))
    reader, writer = await asyncio.open_connection(sock=sock, limit=2**16)
    writer.transport.pause_reading()  # never reads
    writer.write(f"{request}\r\nHost: 127.0.0.1:{served.port}\r\nCookie: {cookie}\r\n\r\n".encode())
    return reader, writer


async def _read_until_dropped(served, request: str, said: str) -> bytes:
    """What a client that asked with ``request`` and never read receives once the server's log ``said`` it dropped
    it: what was sent before, then the end of the connection."""
    reader, writer = await _never_reading(served, request)
    try:
        async with asyncio.timeout(60):
            while said not in served.log.read_text(errors="replace"):
                await asyncio.sleep(0.2)
        writer.transport.resume_reading()
        received = b""
        async with asyncio.timeout(30):
            while chunk := await reader.read(2**16):
                received += chunk
    finally:
        writer.transport.abort()
    log = served.log.read_text(errors="replace")
    assert re.search(re.escape(said) + r"\d[\d,]* bytes? unsent\): a client that stops reading is dropped", log)
    assert "Traceback" not in log
    return received


async def test_a_console_page_asked_for_by_a_client_that_never_reads_is_dropped(served):
    """The live page of a class of 8,000 (3 MB) asked for and never read: its write waited for ever (aiohttp's flow
    control), holding the request, its page and its connection. Now the connection is closed once the client read
    none of it for the write stall's seconds, with one log line; a client that reads gets it whole."""
    said = "dropped the answer to GET '/console': its client read none of it for 2 s ("
    received = await _read_until_dropped(served, "GET /console HTTP/1.1", said)
    size = int(re.search(rb"Content-Length: (\d+)", received).group(1))
    assert size > 2_500_000 and len(received.split(b"\r\n\r\n", 1)[1]) < size  # cut short: the connection was closed
    async with await served.signed_in(FACILITATOR) as http, http.get("/console") as page:  # read: whole
        assert page.status == 200 and len(await page.read()) == size


async def test_a_live_stream_whose_client_never_reads_is_dropped(served):
    """The console's live stream sends the class's whole table first (3 MB for 8,000 names): to a client that never
    read, that send waited for ever, and the stream (its loop, the table, the connection) with it, its sign-in never
    checked again. Now it is dropped once its client read none of it for the write stall's seconds."""
    said = "dropped the live stream of 127.0.0.1: its client read none of it for 2 s ("
    await _read_until_dropped(served, "GET /console/live/events HTTP/1.1", said)


async def test_a_huge_websocket_protocol_header_is_logged_cut(served):
    """A ``Sec-WebSocket-Protocol`` of 5,598 characters (the war room speaks no sub-protocol) was written whole into
    the server's log by aiohttp, for each connection that sent it."""
    protocols = ", ".join(f"p{i:05}" for i in range(700))  # 5,598 characters
    http = await served.signed_in("Ada Lovelace")
    headers = {"Sec-WebSocket-Protocol": protocols}
    async with http, http.ws_connect("/ws?width=80&height=24", headers=headers) as ws:
        await ws.close()
    line = ("a websocket from 127.0.0.1 asked for 700 sub-protocols the server does not speak (p00000, p000…0699 "
            "(5,598 characters)): none is used")
    async with asyncio.timeout(30):
        while line not in (log := served.log.read_text(errors="replace")):
            await asyncio.sleep(0.1)
    assert "p00500" not in log and "Client protocols" not in log


def test_the_protocols_filter_leaves_other_records_alone_and_escapes_control_characters():
    from warroom.serve._server import WebsocketProtocolsCut

    record = logging.LogRecord("aiohttp.websocket", logging.WARNING, __file__, 1,
                               "%s: Client protocols %r don’t overlap server-known ones %r",
                               ("10.0.0.1", ["a\x1b[31mb"], ()), None)  # fmt: skip
    assert WebsocketProtocolsCut().filter(record)
    assert record.getMessage() == ("a websocket from 10.0.0.1 asked for 1 sub-protocol the server does not speak "
                                   "('a\\x1b[31mb'): none is used")
    other = logging.LogRecord("aiohttp.server", logging.WARNING, __file__, 1, "%s: x", ("y",), None)
    assert WebsocketProtocolsCut().filter(other) and other.getMessage() == "y: x"
