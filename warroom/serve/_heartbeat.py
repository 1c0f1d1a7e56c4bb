"""The heartbeat of a war room tab: a tab whose browser has sent nothing for a while is pinged, and one that does not
answer is taken for gone (a network lost, a laptop asleep), so its session ends and its drill is stored as
abandoned.

A ping is written after the tab's screens sent before it, and a browser reads it only once it has read them: a
browser on a slow network, or a tab busy drawing, with a backlog of screens (a resize of a large window redraws the
whole screen, tens of kilobytes) answered the ping only after its wait (aiohttp's heartbeat, half the interval) and
was ended though it read all along. Here the wait goes on while the browser is still reading what was sent before
the ping (the bytes unsent to it fewer at each look), or while the relay has not read what the browser sent
(waiting for the app process to take its input): a browser that reads nothing is ended by the write stall
(:mod:`warroom.serve._stall`), one whose answer came is heard.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Hearing:
    """When the relay last read a message of the tab's browser (any: keys, a pong), and whether it is busy with one
    (passing it to the app process, which may be slow to take it: the browser's answer waits unread meanwhile)."""

    at: float = field(default_factory=time.monotonic)
    busy: bool = False


async def heard(websocket: Any, hearing: Hearing) -> AsyncIterator[Any]:
    """The messages of ``websocket``, each noted in ``hearing`` as it is read and while it is being handled."""
    async for message in websocket:
        hearing.at, hearing.busy = time.monotonic(), True
        yield message
        hearing.busy = False


async def heartbeat(websocket: Any, hearing: Hearing, interval: float, unsent: Callable[[], int]) -> str:
    """Ping the tab's browser each time it has sent nothing for ``interval`` seconds; return why it counts as gone
    once a ping has had no answer (nothing heard since) for half of ``interval`` while the bytes unsent to it
    (``unsent``) grew no fewer, nor did the relay wait on the app process. Runs until cancelled otherwise."""
    wait = interval / 2
    while True:
        quiet = time.monotonic() - hearing.at
        if quiet < interval:
            await asyncio.sleep(interval - quiet)
            continue
        pinged, before = time.monotonic(), unsent()
        try:
            await websocket.ping()
        except ConnectionError:  # the connection is closing: the relay ends with it
            await asyncio.Event().wait()
        deadline = pinged + wait
        while hearing.at < pinged:
            now = time.monotonic()
            if now < deadline:
                await asyncio.sleep(deadline - now)
                continue
            left = unsent()
            if not hearing.busy and not 0 < left < before:
                return f"its browser answered no ping within {wait:g} s (a network lost, a machine asleep)"
            before, deadline = left, now + wait  # still reading what came before the ping, or not yet read by us
