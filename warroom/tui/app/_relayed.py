"""A served app's keys timed when the server's relay received them, not when the app process reads them.

In a browser tab (``warroom serve``) a key goes from the browser to the server's relay, which writes it to the tab's
app process; on a loaded host that process may read it a while later (its CPU shared with a class of others). The
drill clock reads the real time when an action is taken (a pause, a dialog opened: the escalation's in practice), so
that wait counted against the trainee's time to detect. The relay now sends, just before each message's keys, a meta
packet with the moment it received them (:data:`~warroom.core.settings.KEYS_RECEIVED_META`); :class:`KeyClock`
keeps it, the war room's next action takes its drill time from it, and the drill clock's ticker does not run past it
while those keys are on their way to the app (:meth:`KeyClock.tick_time`).

Bounded: a time is taken only from a meta packet, which only the relay writes (a browser's keys arrive inside data
packets, whatever they hold); it is used once, only when at most :data:`MAX_KEY_WAIT` seconds old, never for a
moment before the drill clock's last tick (the drill clock never runs backwards) and never after the present.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Any

from textual import events
from textual.clock import Clock
from textual.dom import DOMNode
from textual.message import Message

from warroom.core.settings import KEYS_RECEIVED_META

#: The longest a relay's time is used for, in seconds: a key the app reads later than that (or a time kept from a key
#: that set off no action) is timed when it is read, as before.
MAX_KEY_WAIT = 10.0


class KeyClock(Clock):
    """Textual's clock, plus the moment the server's relay received the newest keys (:meth:`received`, from the
    driver's input thread) as :func:`time.monotonic` gives it in every process of the host, and how many of the input
    events read since are still on their way to the app (:meth:`posted`, :meth:`delivered`)."""

    def __init__(self) -> None:
        super().__init__()
        self._received: float | None = None
        #: The input events the driver posted that the app has not handled yet, by id (kept alive till then).
        self._on_way: dict[int, Message] = {}
        self._lock = threading.Lock()  # the driver's input thread and the app's loop both count

    def received(self, at: float) -> None:
        """The relay received the keys that follow at ``at`` (its :func:`time.monotonic`)."""
        with self._lock:
            self._received = at

    def posted(self, event: Message) -> None:
        """The driver posted the input event ``event`` to the app (its input thread)."""
        with self._lock:
            self._on_way[id(event)] = event

    def delivered(self, event: Message) -> None:
        """The app has handled the input event ``event`` (its loop); one the driver did not post (a key a dialog gave
        the app again, a mouse-up the app made) never counted."""
        with self._lock:
            if self._on_way.get(id(event)) is event:
                del self._on_way[id(event)]

    def on_way(self, event: Message) -> bool:
        """Whether ``event`` is one the driver posted that the app has not handled yet."""
        with self._lock:
            return self._on_way.get(id(event)) is event

    def tick_time(self, now: float, last: float | None, at_key: bool) -> float:
        """The time (of this clock, read as ``now``) the drill clock goes up to at a tick, ``last`` being its last
        tick's: for a tick a key sets off (``at_key``), when the relay received the newest keys (each relay's time is
        used once); for the ticker's, no later than that while input events are on their way to the app (a loaded or
        stopped process reads them late, and its ticker, due meanwhile, would otherwise play that wait before the
        key's action). Only a relay's time at most :data:`MAX_KEY_WAIT` seconds old counts; never before ``last``,
        never after ``now``. The drill clock runs as much real time as ever, only the release of its events waits
        for the key: no tab gains time by it."""
        with self._lock:  # read and cleared at once: a newer relay's time the input thread writes meanwhile is kept
            at = self._received
            if at is None:
                return now
            waited = time.monotonic() - at
            if not 0.0 <= waited <= MAX_KEY_WAIT or (not at_key and not self._on_way):
                self._received = None
                return now
            if at_key:
                self._received = None
        return min(max(now - waited, last if last is not None else now - waited), now)


def when_handled(node: DOMNode, done: Callable[[], object]) -> None:
    """Call ``done`` once the messages already posted to ``node`` have been handled, and those of them that bubble
    by every node above it up to the app: an input event the app hands on is only queued for its widget, which (and
    whose parents, and the app's non-priority bindings) acts on it later. A node that closed in between (a dialog
    the key dismissed) is passed over."""
    chain: list[DOMNode] = [node]
    while (parent := chain[-1].parent) is not None:
        chain.append(parent)

    def hop(at: int) -> None:
        while at < len(chain):
            if chain[at].call_later(hop, at + 1):
                return
            at += 1
        done()

    hop(0)


def relayed_driver_class(app: Any, clock: KeyClock) -> type | None:
    """A subclass of the app's driver that gives ``clock`` the relay's times (:data:`KEYS_RECEIVED_META` packets),
    or None when the app does not run on Textual's web driver (a terminal, headless tests)."""
    from textual.drivers.web_driver import WebDriver

    base = app.driver_class
    if not (isinstance(base, type) and issubclass(base, WebDriver)):
        return None

    class RelayedDriver(base):  # type: ignore[misc, valid-type]
        def process_message(self, message: Message) -> None:
            if isinstance(message, (events.InputEvent, events.Paste)):
                clock.posted(message)
            super().process_message(message)

        def on_meta(self, packet_type: str, payload: dict[str, object]) -> None:
            if packet_type != KEYS_RECEIVED_META:
                super().on_meta(packet_type, payload)
                return
            at = payload.get("at")
            if isinstance(at, float) and math.isfinite(at):
                clock.received(at)

    return RelayedDriver
