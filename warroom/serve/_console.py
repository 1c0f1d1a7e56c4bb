"""The facilitator's console of ``warroom serve``: its routes under ``/console`` (a facilitator's sign-in only) and a
trainee's own sessions under ``/mine``. The pages are built by :mod:`warroom.console` from the results store (opened
per request, off the event loop, as every other warroom reader does) and from the live table
(:class:`~warroom.serve._live.LiveClass`); the live class page is refreshed by server-sent events.

Pages are server-rendered HTML (no script but the live page's, which applies each update and carries the drill clocks
forward), so that what a facilitator sees is what the store holds at that moment, on any host of the class.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from aiohttp import web

from warroom.core.text import plural
from warroom.serve._live import LiveClass
from warroom.serve._proxies import Network, client_of
from warroom.serve._signin import SignIns
from warroom.serve._stall import unsent_bytes, while_read
from warroom.serve._tab import WRITE_STALL

log = logging.getLogger("warroom.serve")
_T = TypeVar("_T")

#: The console's pages, in its menu.
NAV = (
    ("/console", "Live class"),
    ("/console/sets", "Drill sets"),
    ("/console/trainees", "Trainees"),
    ("/console/sessions", "Sessions"),
    ("/console/gradebook", "Gradebook"),
    ("/console/roster", "Roster"),
)
#: Seconds between two looks at the live table by a live page's event stream.
EVENT_TICK = 1.0


@dataclass
class Console:
    """The console of one serve host: who signs in (``signins``), the class live (``live``), where results are
    (``data_dir``, ``store_url``), the drill folders and the drill sets it shows grids of (``set_files``), and when
    a trainee counts as stuck (``stuck_after`` seconds without an action)."""

    signins: SignIns
    live: LiveClass
    data_dir: Path
    store_url: str | None = None
    drill_dirs: tuple[Path, ...] = ()
    set_files: tuple[Path, ...] = ()
    stuck_after: float = 90.0
    #: Seconds a write of the live stream may wait while its client reads nothing (the server's write stall,
    #: ``$WARROOM_SERVE_WRITE_STALL``) before the stream is dropped.
    write_stall: float = WRITE_STALL
    _counting: tuple[float, str] = (0.0, "")
    _drills: dict[str, Any] = field(default_factory=dict)
    #: The live view last made (:meth:`shared_live_view`): what it was made for, and its making.
    _view: tuple[tuple[int, int, int], asyncio.Future[Any]] | None = field(default=None, repr=False)

    def routes(self) -> list[web.RouteDef]:
        """The console's routes (and a trainee's own pages)."""
        from warroom.serve import _pages as pages

        return [
            web.get("/console", self.live_page),
            web.get("/console/live/events", self.live_events),
            *pages.routes(self),
        ]

    # --- helpers ------------------------------------------------------------------------------------------------

    async def in_store(self, work: Callable[[Any], _T]) -> _T:
        """``work(store)`` on the results store, in a worker thread (the event loop never waits on the database)."""

        def run() -> _T:
            from warroom.store.results import ResultsStore

            with ResultsStore(self.data_dir, url=self.store_url) as store:
                return work(store)

        return await asyncio.get_running_loop().run_in_executor(None, run)

    def page(self, request: web.Request, template: str, title: str, here: str, **context: Any) -> web.Response:
        """A console page: ``template`` with the menu, the facilitator's name and ``context``."""
        return self._written(self._frame(request, title, here), template, context)

    async def page_off_loop(self, request: web.Request, template: str, title: str, here: str,
                            **context: Any) -> web.Response:  # fmt: skip
        """:meth:`page`, written in a worker thread: a page of a whole class (a completion grid of 3,000 trainees is
        1.4 MB of HTML, 1.1 s to write) kept every tab of the class waiting on the server's event loop."""
        frame = self._frame(request, title, here)  # the sign-in read here, on the event loop
        return await asyncio.get_running_loop().run_in_executor(None, self._written, frame, template, context)

    def _frame(self, request: web.Request, title: str, here: str) -> dict[str, Any]:
        """What every page shows around its content: its title, the menu, who is signed in, what the figures count."""
        who = self.signins.facilitator_of(request) or self.signins.trainee_of(request)
        nav = NAV if request.path.startswith("/console") else (("/mine", "Your sessions"), ("/", "Your war room"))
        return {"title": title, "nav": nav, "here": here, "who": who, "counting": self._counting[1]}

    @staticmethod
    def _written(frame: dict[str, Any], template: str, context: dict[str, Any]) -> web.Response:
        from warroom.console import render

        text = render(template, **frame, **context)
        return web.Response(text=text, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def counting_note(self) -> str:
        """Which sessions the figures count, in a sentence (read again at most every 30 s)."""
        loop = asyncio.get_running_loop()
        if loop.time() - self._counting[0] < 30 and self._counting[1]:
            return self._counting[1]
        from warroom.console import counting_sentence

        def counts(store: Any) -> tuple[int, int, int, int]:
            from warroom.store.cohort import unverified_sessions

            unverified = unverified_sessions(store, limit=0).count  # left out of every figure: said, never silently
            modes = store.count(mode="assessment"), store.count(mode="practice"), store.count(mode="tutorial")
            return (*modes, unverified)

        try:
            assessment, practice, tutorial, unverified = await self.in_store(counts)
            self._counting = (loop.time(), counting_sentence(assessment, practice, tutorial, unverified))
        except Exception as exc:  # StoreError: shown on the page, not a traceback
            self._counting = (0.0, f"The results store cannot be read: {exc}")
        return self._counting[1]

    def roster_trainees(self) -> list[str]:
        roster = self.signins.roster
        return roster.trainees if roster is not None else []

    # --- the live class -----------------------------------------------------------------------------------------

    def live_view(self) -> tuple[str, str, dict[str, str], str]:
        """The live table as of now: its whole HTML, and its parts an update sends (:meth:`live_events`): the
        summary's HTML, each line's HTML by key (:func:`~warroom.console.live_rows`) and the line saying when it was
        read."""
        from warroom.console import live_counts, live_lines, live_rows, render

        now = datetime.now(UTC)
        lines = live_lines(self.live.snapshot, self.roster_trainees(), now, stuck_after=self.stuck_after)
        hosts = len({row.host for row in self.live.snapshot} | {self.live.host})
        context = {
            "lines": lines, "counts": live_counts(lines), "version": self.live.version, "problem": self.live.problem,
            "read_at": self.live.snapshot_at or now.isoformat(), "hosts": hosts, "stuck_after": self.stuck_after,
            "now": now.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        }  # fmt: skip
        rows = live_rows(lines, lambda line: render("live_row.html", l=line).strip())
        table = render("live_table.html", **context)
        return table, render("live_head.html", **context), rows, render("live_read.html", **context).strip()

    async def shared_live_view(self) -> tuple[str, str, dict[str, str], str]:
        """:meth:`live_view`, made in a worker thread once for every live page open on this host, as long as the live
        table (its version), the roster and the second (:data:`EVENT_TICK`) are the same. Each live page's stream
        made it itself, on the event loop, every second: for a roster of 3,000 names 0.6 to 1 s each time, so one
        facilitator's live page kept the event loop busy most of each second, and five stalled every tab of the class
        (their keys, their screens) for up to 3 s at a time."""
        loop = asyncio.get_running_loop()
        key = (self.live.version, id(self.signins.roster), int(loop.time() // EVENT_TICK))
        if self._view is None or self._view[0] != key:
            self._view = (key, loop.run_in_executor(None, self.live_view))
        view: tuple[str, str, dict[str, str], str] = await asyncio.shield(self._view[1])
        return view

    async def live_page(self, request: web.Request) -> web.StreamResponse:
        """``GET /console``: the class, live."""
        await self.counting_note()
        from markupsafe import Markup

        table = Markup((await self.shared_live_view())[0])
        return await self.page_off_loop(request, "live.html", "The class, live", "/console", table=table)

    async def live_events(self, request: web.Request) -> web.StreamResponse:
        """``GET /console/live/events``: server-sent events: first a ``live`` event with the whole live table's HTML,
        then, each time something in it changed (checked at each change of the live table and every
        :data:`EVENT_TICK` seconds), a ``rows`` event with what changed only (:func:`live_update`): a class of 3,000
        trainees sent its whole table, about 1 MB, at each update. A page carries drill clocks and idle times forward
        itself. The stream ends once its sign-in does (signed out, expired, the name removed or its token rotated)."""
        from aiohttp_sse import EventSourceResponse, sse_response

        class NoStore(EventSourceResponse):  # aiohttp_sse writes its own Cache-Control, no-cache, over a header given
            def __init__(self, **kwargs: Any) -> None:
                super().__init__(**kwargs)
                self.headers["Cache-Control"] = "no-store"  # the class's live table: kept by no cache, as every page

        async with sse_response(request, response_cls=NoStore) as stream:
            sent: tuple[str, dict[str, str], str] | None = None
            while stream.is_connected():
                await self.signins.reload_roster()  # a name removed or a token rotated meanwhile ends its sign-in
                if self.signins.roster is not None and self.signins.facilitator_of(request) is None:  # signed out,
                    # expired, removed from the roster:
                    break  # the stream ends with the sign-in (it sent the class's live table on for ever)
                table, head, rows, read = await self.shared_live_view()
                if sent is None:  # the whole table first (the page may be older than this stream)
                    data, event = table.replace("\n", " "), "live"
                else:
                    data, event = live_update(sent, head, rows, read), "rows"
                if data:
                    try:
                        await while_read(stream.send(data, event=event), self.write_stall, lambda: _unsent(request))
                    except ConnectionResetError:  # the tab closed between the check and the send: no traceback
                        break
                    except TimeoutError:  # its browser read none of it (asleep, or a client that never reads)
                        _drop(request, self.write_stall, self.signins.proxies)
                        break
                    sent = (head, rows, read)
                changed = self.live.changed
                if changed is None:
                    await asyncio.sleep(EVENT_TICK)
                    continue
                try:
                    await asyncio.wait_for(changed.wait(), EVENT_TICK)
                except TimeoutError:
                    pass
        return stream


def _unsent(request: web.Request) -> int | None:
    """The bytes written to ``request``'s client that it has not read yet (None: its connection is gone)."""
    return unsent_bytes(request.transport)


def _drop(request: web.Request, stall: float, proxies: Sequence[Network]) -> None:
    """Close the connection of a live stream whose client read none of it for ``stall`` seconds, with one log line
    naming its client (behind one of the reverse ``proxies``, the address that proxy saw): its loop waited on that
    write for ever, holding the stream (and a class's whole table) while nobody read it."""
    log.warning("dropped the live stream of %s: its client read none of it for %g s (%s unsent): a client that "
                "stops reading is dropped", client_of(request, proxies), stall, plural(_unsent(request) or 0, "byte"))
    if request.transport is not None:
        request.transport.abort()  # close() would wait for the unsent bytes to be read: for ever


def live_update(sent: tuple[str, dict[str, str], str], head: str, rows: dict[str, str], read: str) -> str:
    """A ``rows`` event's data (JSON, one line) turning the live table last ``sent`` (its summary, lines and read
    line) into the present one: ``{"now": TIME, "head": HTML, "read": HTML, "rows": [[KEY, HTML, AFTER], ...]}``,
    the summary and the read line only when they changed, and only the lines new, changed (``AFTER``: the key of the
    line before it) or gone (``HTML`` null): :func:`~warroom.console.live_delta`. Empty when nothing changed."""
    import json

    from warroom.console import live_delta

    before_head, before_rows, before_read = sent
    update: dict[str, Any] = {"rows": live_delta(before_rows, rows)}
    if head != before_head:
        update["head"] = head
    if read != before_read:
        update["read"] = read
    if not update["rows"] and set(update) == {"rows"}:
        return ""
    update["now"] = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return json.dumps(update, separators=(",", ":"))
