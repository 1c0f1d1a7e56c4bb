"""Writes to a client that may stop reading, bounded by how long it reads nothing (docs/serve.md).

aiohttp's flow control makes a write wait once about 64 KiB of it are unsent (the client's receive window is full):
a client that never reads made it wait for ever. A tab's screen (:class:`~warroom.serve._tab.TabService`) and every
page, CSV and plot the server answers with (:func:`written_while_read`) are written by :func:`while_read`: the write
may take as long as it needs while the client reads (each time fewer bytes are unsent, the wait starts again), and
ends with TimeoutError once the client read none of it for the write stall's seconds
(``$WARROOM_SERVE_WRITE_STALL``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from warroom.core.text import cut_value, plural

log = logging.getLogger("warroom.serve")


async def while_read(sending: Awaitable[Any], stall: float, unsent: Callable[[], int | None] | None) -> None:
    """Await ``sending`` (a write to a client) as long as its client reads: raises TimeoutError once it waited
    ``stall`` seconds without the bytes ``unsent()`` counts going down (a write that waited that long in all, the
    client reading slowly all the while, dropped a trainee on a slow link). The write is cancelled then."""
    task = asyncio.ensure_future(sending)
    try:
        before = unsent() if unsent is not None else None
        while not (await asyncio.wait({task}, timeout=stall))[0]:
            now = unsent() if unsent is not None else None
            if before is None or now is None or now >= before:
                raise TimeoutError
            before = now
        task.result()
    finally:
        task.cancel()


def written_while_read(stall: float) -> Any:
    """A middleware writing each answer held in memory (a page, a CSV, a plot: a :class:`web.Response` the handler
    returned unsent) within :func:`while_read`: a client that asked for it and reads none of it for ``stall`` seconds
    has its connection closed, with one log line, instead of holding its request (its handler's task, the answer's
    bytes, a connection) for as long as it stays connected. Files, websockets and event streams send themselves."""

    @web.middleware
    async def middleware(request: web.Request, handler: Any) -> web.StreamResponse:
        response = await handler(request)
        if not isinstance(response, web.Response) or response.prepared:
            return response
        transport = request.transport

        def unsent() -> int | None:
            return transport.get_write_buffer_size() if transport is not None and not transport.is_closing() else None

        async def send() -> None:
            await response.prepare(request)
            await response.write_eof()

        try:
            await while_read(send(), stall, unsent)
        except ConnectionError:  # the client left: aiohttp's own write of it fails the same way, and says nothing
            return response
        except TimeoutError:
            left = unsent() or 0
            log.warning("dropped the answer to %s %s: its client read none of it for %g s (%s unsent): a client that "
                        "stops reading is dropped", request.method, cut_value(request.path), stall,
                        plural(left, "byte"))
            if transport is not None:
                transport.abort()  # close() would wait for the unsent bytes to be read: for ever
        return response  # sent (aiohttp's own write_eof is then nothing), or its connection gone (aiohttp says nothing)

    return middleware
