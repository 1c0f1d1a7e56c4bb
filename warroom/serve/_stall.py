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
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from warroom.core.text import cut_value, plural

log = logging.getLogger("warroom.serve")


#: How many times a write's unsent bytes are looked at during one write stall.
LOOKS_PER_STALL = 5


async def while_read(sending: Awaitable[Any], stall: float, unsent: Callable[[], int | None] | None) -> None:
    """Await ``sending`` (a write to a client) as long as its client reads: raises TimeoutError once it waited
    ``stall`` seconds without the bytes ``unsent()`` counts going down (a write that waited that long in all, the
    client reading slowly all the while, dropped a trainee on a slow link). The write is cancelled then.

    The unsent bytes are looked at :data:`LOOKS_PER_STALL` times a stall, each look against the one before: the
    write itself adds its bytes after the first look (a page of 3 MB counted against the 0 bytes unsent before it
    was written was a stall at the first look, its client reading all the while)."""
    task = asyncio.ensure_future(sending)
    loop = asyncio.get_running_loop()
    try:
        before = unsent() if unsent is not None else None
        read_at = loop.time()
        while not (await asyncio.wait({task}, timeout=stall / LOOKS_PER_STALL))[0]:
            now = unsent() if unsent is not None else None
            if now is None and unsent is not None:  # its connection is gone
                raise TimeoutError
            if now is not None and before is not None and now < before:
                read_at = loop.time()
            elif loop.time() - read_at >= stall:
                raise TimeoutError
            before = now
        task.result()
    finally:
        task.cancel()


def unsent_bytes(transport: asyncio.BaseTransport | None) -> int | None:
    """The bytes written to ``transport`` that its client has not read yet (None: its connection is gone): those
    aiohttp's transport holds and, where the system says (Linux's ``TIOCOUTQ``), those in the socket's send queue.
    The transport's own count alone stays the same while the system's queue (megabytes on a fast link) drains to a
    slow client, for longer than a stall."""
    if not isinstance(transport, asyncio.WriteTransport) or transport.is_closing():
        return None
    held = transport.get_write_buffer_size()
    sock = transport.get_extra_info("socket")
    try:
        import fcntl
        import termios

        queued = fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0" * 4)
    except (ImportError, AttributeError, OSError, ValueError):  # no such count here (Windows, macOS)
        return held
    return held + int.from_bytes(queued, sys.byteorder, signed=True)


async def _sent(request: web.BaseRequest) -> None:
    """The ``prepare`` of a static file this middleware sent already: nothing more to send."""
    return None


def written_while_read(stall: float) -> Any:
    """A middleware writing each answer held in memory (a page, a CSV, a plot: a :class:`web.Response` the handler
    returned unsent) and each static file (a :class:`web.FileResponse`: textual-serve's scripts and fonts, sent by
    ``sendfile``; a big one asked for and never read held its request too) within :func:`while_read`: a client that
    asked for it and reads none of it for ``stall`` seconds has its connection closed, with one log line, instead of
    holding its request (its handler's task, the answer's bytes, a connection) for as long as it stays connected.
    Websockets and event streams send themselves, each bounded the same way."""

    @web.middleware
    async def middleware(request: web.Request, handler: Any) -> web.StreamResponse:
        response = await handler(request)
        if not isinstance(response, (web.Response, web.FileResponse)) or response.prepared:
            return response
        transport = request.transport

        def unsent() -> int | None:
            return unsent_bytes(transport)

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
        finally:
            if isinstance(response, web.FileResponse):
                # aiohttp prepares the returned response once more: a Response sent is left alone then, but a
                # FileResponse opens its file again and fails (`assert writer is not None`), logged as an unhandled
                # exception with a traceback for every script and font of every page, and its connection closed
                setattr(response, "prepare", _sent)  # noqa: B010 (an instance's own, not the class's)
        return response  # sent (aiohttp's own write_eof is then nothing), or its connection gone (aiohttp says nothing)

    return middleware
