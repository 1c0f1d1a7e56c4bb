"""What was left of the served room (issue 30): the order in which a tab's messages reach its app process, the tab
limit and the take-over across serve hosts on one PostgreSQL store, and what the console's live page sends."""

from __future__ import annotations

import asyncio
import json

from aiohttp import WSMessage, WSMsgType


class _Service:
    """What the relay gives an app process, in order."""

    def __init__(self) -> None:
        self.given: list[object] = []

    async def set_terminal_size(self, width: int, height: int) -> None:
        await asyncio.sleep(0)  # a write to a pipe may yield
        self.given.append((width, height))

    async def send_bytes(self, data: bytes) -> None:
        self.given.append(data)

    async def blur(self) -> None:
        self.given.append("blur")

    async def focus(self) -> None:
        self.given.append("focus")


class _Tab:
    """A tab whose messages were all received at once (the socket's reader returns each without yielding)."""

    def __init__(self, messages: list[list[object]]) -> None:
        self.messages = iter(json.dumps(m) for m in messages)

    def __aiter__(self):  # type: ignore[no-untyped-def]
        return self

    async def __anext__(self) -> WSMessage:
        for text in self.messages:
            return WSMessage(WSMsgType.TEXT, text, None)
        raise StopAsyncIteration


async def test_a_tab_s_keys_reach_its_app_after_the_resizes_sent_before_them():
    """The first resize of a tab was only scheduled when the key after it was written to the app at once (the key
    went first), and a key sent while a resize waited for its interval went ahead of it: the app read keys against a
    screen of another size. Each key, blur and focus now reaches the app after every size sent before it."""
    from warroom.serve._tab import Resizes, relay_messages

    service = _Service()
    resizes = Resizes(service, interval=0.05)  # type: ignore[arg-type]
    tab = _Tab([["resize", {"width": 100, "height": 30}], ["stdin", "a"], ["resize", {"width": 120, "height": 40}],
                ["blur"], ["resize", {"width": 90, "height": 20}], ["resize", {"width": 91, "height": 21}],
                ["stdin", "\r"], ["focus"]])  # fmt: skip
    await relay_messages(tab, service, resizes)  # type: ignore[arg-type]
    assert service.given == [(100, 30), b"a", (120, 40), "blur", (91, 21), b"\r", "focus"]
    assert resizes.applied == 3  # (90, 20) was replaced while it waited
