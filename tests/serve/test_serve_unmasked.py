"""Unmasked websocket frames from a client (RFC 6455 section 5.1: a client masks every frame, and a server must close
the connection on one that is not masked): aiohttp reads them as masked ones and offers no way to refuse them
(docs/serve.md, "What one tab may send"). What the server promises instead: such a frame meets every check of a tab's
messages, so an unmasked message the protocol does not allow ends the session as a masked one does (1008)."""

from __future__ import annotations

import asyncio
import os
import struct

from aiohttp import WSCloseCode, web
from aiohttp.test_utils import TestServer

from warroom.serve._tab import MAX_MESSAGE_BYTES, BadMessage, relay_messages

from .test_serve_left7 import _Service


async def _tab(request: web.Request) -> web.WebSocketResponse:
    """A tab's websocket relayed as the server relays it (warroom/serve/_server.py, ``_relay``), to a stand-in app."""
    websocket = web.WebSocketResponse(max_msg_size=MAX_MESSAGE_BYTES)
    await websocket.prepare(request)
    try:
        await relay_messages(websocket, _Service())  # type: ignore[arg-type]
    except BadMessage:
        await websocket.close(code=WSCloseCode.POLICY_VIOLATION, message=b"malformed or too much input")
    return websocket


def _frame(payload: bytes, masked: bool) -> bytes:
    """One final text frame of ``payload`` (under 126 bytes), masked or not."""
    if not masked:
        return bytes([0x81, len(payload)]) + payload
    key = os.urandom(4)
    return bytes([0x81, 0x80 | len(payload)]) + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


async def _read_frame(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """The opcode and payload of the server's next frame (a server never masks)."""
    first, second = await reader.readexactly(2)
    length = second & 0x7F
    if length == 126:
        (length,) = struct.unpack("!H", await reader.readexactly(2))
    return first & 0x0F, await reader.readexactly(length)


async def _exchange(port: int, frames: list[bytes]) -> list[tuple[int, bytes]]:
    """Open a websocket on a raw socket, send ``frames``, and read the server's frames until it closes."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = await reader.readuntil(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 101 "), head
    for frame in frames:
        writer.write(frame)
    got: list[tuple[int, bytes]] = []
    try:
        while not got or got[-1][0] != 0x8:  # until the close frame
            got.append(await asyncio.wait_for(_read_frame(reader), 30))
    finally:
        writer.close()
    return got


async def test_an_unmasked_frame_is_read_as_a_masked_one_and_meets_the_same_checks():
    app = web.Application()
    app.router.add_get("/ws", _tab)
    async with TestServer(app) as server:
        for masked in (True, False):
            got = await _exchange(server.port, [_frame(b'["ping", "1"]', masked), _frame(b"not json", masked)])
            assert got[0] == (0x1, b'["pong", "1"]'), (masked, got)  # read: aiohttp refuses no unmasked frame
            assert got[-1][0] == 0x8 and struct.unpack("!H", got[-1][1][:2]) == (1008,), (masked, got)
