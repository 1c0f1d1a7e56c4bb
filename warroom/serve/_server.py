"""The web server of ``warroom serve``, built on textual-serve.

textual-serve runs one process per browser connection from a single command line, and its ``Server`` builds its
aiohttp application in a private method. :class:`WarroomServer` subclasses it minimally, overriding only public
handlers, to add what a class needs: the app process of a connection runs as the signed-in trainee (its own
command line, built by :func:`app_command`), a limit on concurrent sessions (the connection over it gets an HTTP 503
page, not a hang), sign-in in front of every route (:mod:`warroom.serve._signin`), and page URLs taken from the
request (so a server bound to ``0.0.0.0`` works). The terminal page, its scripts and the per-process protocol
(``textual_serve.app_service.AppService``) are textual-serve's own.

Seats: the terminal page (``GET /``) takes a seat for its tab when it is served (a ticket in its websocket's URL,
``/ws/TICKET``, valid :data:`TICKET_LIFETIME` seconds), so the tab over ``--max-sessions`` gets the HTTP 503 page
even when every tab of a class starts at the same moment (the check at the websocket came too late: the page was
already shown, and the browser could only say "Session ended."). A tab whose app process ends on its own (a crash,
``kill``) has its websocket closed at once, so the browser says the session ended instead of freezing. With a roster,
a trainee plays in :data:`TABS_PER_TRAINEE` tabs at once (``--tabs-per-trainee``): another tab gets a page offering
to play there instead (``POST /takeover`` ends the other tab's session).

Each tab has an id, given to its app process (:data:`~warroom.store.journal.SERVE_TAB_ENV`) so that its journal
names the tab; :class:`~warroom.serve._live.LiveClass` follows it for the facilitator's console.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import math
import os
import re
import secrets
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiohttp_jinja2
import jinja2
from aiohttp import WSCloseCode, web
from aiohttp.http_exceptions import HttpProcessingError
from textual_serve.server import Server

from warroom.core.text import clean, clean_line, cut_value, plural
from warroom.errors import WarroomError
from warroom.serve._hosts import HostNames
from warroom.serve._paste import with_paste_guard
from warroom.serve._proxies import client_access_logger, wide_proxies_warning
from warroom.serve._signin import ANOTHER_TAB_PATH, SignIns, from_another_site, page
from warroom.serve._stall import unsent_bytes, written_while_read
from warroom.serve._tab import (
    MAX_MESSAGE_BYTES,
    MAX_RESIZE_CELLS,
    TERM_GRACE,
    WRITE_STALL,
    BadMessage,
    BrowserGone,
    TabService,
    relay_until_ended,
    start_app,
    terminal_size,
)
from warroom.store.journal import SERVE_TAB_ENV

if TYPE_CHECKING:
    from warroom.serve._console import Console
    from warroom.serve._live import LiveClass


log = logging.getLogger("warroom.serve")

#: Seconds a closing connection waits for its app process to store an open drill (as abandoned) and exit, before it is
#: ended (SIGTERM, then SIGKILL), unless ``$WARROOM_SERVE_STOP_GRACE`` sets another (:func:`stop_grace`).
DEFAULT_STOP_GRACE = 15.0
#: The most seconds ``$WARROOM_SERVE_STOP_GRACE`` may set: a trainee's new tab waits up to this (and 10 s more) for
#: their closed tabs' processes (:data:`LEAVING_WAIT`), so ``inf`` held their page for ever.
MAX_STOP_GRACE = 3600.0


#: A number of seconds as a setting writes it: ASCII digits, a point, an exponent.
_SECONDS = re.compile(r"\s*\+?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*", re.ASCII)


def seconds_setting(variable: str, text: str, default: float, most: float,
                    least: float = 0.0) -> tuple[float, str | None]:  # fmt: skip
    """The seconds the environment variable ``variable`` (its value ``text``) sets, and the warning to print when it
    sets none (a number from ``least`` to ``most`` or nothing: ``abc`` ended ``warroom serve`` in a ValueError
    traceback, ``inf`` made a trainee's new tab wait for ever): ``default`` is used then. A number is written in
    ASCII digits (``30``, ``2.5``, ``1e3``): Python's other number forms (``1_0``, Arabic-Indic or full-width
    digits) set what the text does not read as."""
    if not text.strip():
        return default, None
    value = float(text) if _SECONDS.fullmatch(text) else math.nan
    if least <= value <= most:  # never NaN
        return value, None
    return default, (
        f"${variable} is '{clean_line(text[:40])}', no number of seconds from {least:,.0f} to {most:,.0f}: "
        f"{default:.0f} s is used (set a number such as {default:.0f}, or unset it)"
    )


def stop_grace(text: str) -> tuple[float, str | None]:
    """The seconds ``$WARROOM_SERVE_STOP_GRACE`` (``text``) sets, and the warning to print when it sets none
    (:func:`seconds_setting`)."""
    return seconds_setting("WARROOM_SERVE_STOP_GRACE", text, DEFAULT_STOP_GRACE, MAX_STOP_GRACE)


#: The least and the most seconds ``$WARROOM_SERVE_WRITE_STALL`` may set (:data:`~warroom.serve._tab.WRITE_STALL`): 0
#: dropped every tab at its first screen (a write given no time is cancelled before it runs).
MIN_WRITE_STALL, MAX_WRITE_STALL = 1.0, 3600.0
STOP_GRACE, STOP_GRACE_WARNING = stop_grace(os.environ.get("WARROOM_SERVE_STOP_GRACE", ""))
#: Seconds a write to a tab may wait for its browser to read before the tab is dropped (``$WARROOM_SERVE_WRITE_STALL``).
WRITE_STALL_SECONDS, WRITE_STALL_WARNING = seconds_setting(
    "WARROOM_SERVE_WRITE_STALL", os.environ.get("WARROOM_SERVE_WRITE_STALL", ""), WRITE_STALL, MAX_WRITE_STALL,
    MIN_WRITE_STALL,
)
#: Seconds a tab's connection may be quiet (nothing received from its browser) before the server pings it; a tab
#: that has not answered within half of that more is ended (:mod:`warroom.serve._heartbeat`, which waits longer while
#: the browser still reads what was sent before the ping): a browser answers at once, a browser gone (a laptop
#: closed, a network lost) is found within 22.5 s by default. ``$WARROOM_SERVE_HEARTBEAT`` sets another
#: number from 1 to 3,600 (tests make the round short).
DEFAULT_HEARTBEAT, MIN_HEARTBEAT, MAX_HEARTBEAT = 15.0, 1.0, 3600.0
HEARTBEAT_SECONDS, HEARTBEAT_WARNING = seconds_setting(
    "WARROOM_SERVE_HEARTBEAT", os.environ.get("WARROOM_SERVE_HEARTBEAT", ""), DEFAULT_HEARTBEAT, MAX_HEARTBEAT,
    MIN_HEARTBEAT,
)
#: The largest font size a terminal page is asked for with (``?fontsize=``), in pixels.
_MAX_FONT_SIZE = 100
#: Seconds a seat taken by a served terminal page waits for its tab's websocket.
TICKET_LIFETIME = 60.0
#: Seats one trainee's served pages may hold at once while their tabs have not connected: a page served again past
#: that lets go of the trainee's oldest such seat (else one trainee reloading, or a script asking for ``/`` in a
#: loop, held every seat of ``--max-sessions`` for a minute at a time: the class got "all seats taken").
SEATS_WAITING_PER_TRAINEE = 2
#: War room tabs one trainee may play in at once (``--tabs-per-trainee``): one drill at a time, so that no tab of a
#: trainee plays a drill while another shows its debrief (a first attempt graded after its answer key was read), and
#: one trainee's tabs never take the class's seats. Another tab gets :meth:`WarroomServer.another_tab_page`.
TABS_PER_TRAINEE = 1
#: Seconds a terminal page asked for by a trainee at their limit waits for one of their tabs to close before it says
#: they play in another tab: a reloaded tab's old connection closes while its new page is being asked for.
RELOAD_WAIT = 3.0
#: App processes of one trainee's closed tabs that may still be quitting when they open another tab: past that the
#: new tab waits for one to be gone. Each holds its seat until gone (up to :data:`STOP_GRACE`, more on a loaded host),
#: so a trainee opening and closing tabs quickly (six in a second) took every seat of ``--max-sessions`` and the
#: class got "all seats taken", each tab within ``--tabs-per-trainee``.
LEAVING_PER_TRAINEE = 2
#: Seconds such a tab waits: a closed tab's process is gone by then (SIGTERM after the grace, SIGKILL after that).
LEAVING_WAIT = STOP_GRACE + TERM_GRACE + 5.0
#: The most frames a second a served app process draws (Textual's ``TEXTUAL_FPS``, which textual-serve sets to 60).
#: Textual draws a change at once after a quiet moment, but a change made within a frame period of the last frame
#: waits one or two periods (16.7 to 33 ms at 60, 4.2 to 8.3 ms at 240): a key pressed just after the drill clock's
#: tick was drawn, or a key's second frame. (While the war room's inspector came a frame after the cursor, one served
#: war room's key to screen median was 38 to 40 ms at 60, 19 to 25 ms at 240, at the same CPU per key.) What a trainee
#: does draws far fewer frames than this (keys, the drill clock's at most ten ticks a second).
FRAME_RATE = 240
#: Seconds a connection may take to send a request's head (its request line and headers), counted from when it
#: connected or from its last response (aiohttp's ``keepalive_timeout``, armed when a connection opens: it also closes
#: a connection left idle that long between two requests, and a browser opens another). A client sending its headers
#: a byte at a time (slowloris) holds a connection no longer than this; aiohttp's default was 75 s.
REQUEST_HEAD_TIMEOUT = 20.0
#: A ``<link>`` element of a page (textual-serve's terminal page links a web font of fonts.googleapis.com).
_LINK = re.compile(r"<link\b[^>]*>", re.S)


@dataclass(frozen=True)
class AppOptions:
    """What every served app process is started with, besides its trainee: extra drill folders, the data directory
    (None: the default) and a drill set file (None: every drill). The store comes from ``$WARROOM_STORE``."""

    drill_dirs: tuple[Path, ...] = ()
    data_dir: Path | None = None
    drill_set: Path | None = None


def app_command(trainee: str, options: AppOptions, python: str = sys.executable, tab: str | None = None) -> str:
    """The shell command line that runs the war room (the picker) for ``trainee``, every part quoted; ``exec`` makes
    the app the process that the server's signals and closed pipes reach (``env`` execs it in turn, with its frame
    rate, :data:`FRAME_RATE`, and the tab's id in ``SERVE_TAB_ENV`` when ``tab`` is given)."""
    args: list[str] = ["env", f"TEXTUAL_FPS={FRAME_RATE}"] + ([f"{SERVE_TAB_ENV}={tab}"] if tab else [])
    args += [python, "-m", "warroom", "--trainee", trainee]
    for folder in options.drill_dirs:
        args += ["--drills", str(folder)]
    if options.data_dir is not None:
        args += ["--data-dir", str(options.data_dir)]
    if options.drill_set is not None:
        args += ["--set", str(options.drill_set)]
    return "exec " + " ".join(shlex.quote(a) for a in args)


def own_links_only(page: str) -> str:
    """``page`` without the ``<link>`` elements that point at another site (those whose ``href`` is not a path of
    this server, ``/static/...``): a class's browsers then ask this server alone (an offline classroom network, no
    trainee's address sent to a font service); the terminal's font falls back to the browser's own monospace font."""
    return _LINK.sub(lambda m: m.group(0) if _OWN_HREF.search(m.group(0)) else "", page)


#: The ``href`` of a link to a path of this server (``/static/...``; not ``//host/...``, another site's).
_OWN_HREF = re.compile(r'\bhref="/(?!/)')
#: The terminal page's websocket URL made from the page's own address (:func:`with_notices`): the server writes the
#: path alone (``/ws/TICKET``), and the page prefixes ``wss://`` or ``ws://`` and its host as the browser reached it.
#: Behind a reverse proxy that terminates TLS the server sees ``http`` requests for an ``https`` page: the page's
#: URLs were ``http://`` and ``ws://``, which a browser blocks in an ``https`` page (mixed content), so the war room
#: never started there. textual-serve's script reads the URL when the window has loaded, after this has run.
WEBSOCKET_URL_SCRIPT = """<script>
document.addEventListener("DOMContentLoaded", function () {
  "use strict";
  var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
  document.querySelectorAll("[data-session-websocket-url]").forEach(function (terminal) {
    var path = terminal.dataset.sessionWebsocketUrl;
    if (path.charAt(0) === "/" && path.charAt(1) !== "/") {
      terminal.dataset.sessionWebsocketUrl = scheme + window.location.host + path;
    }
  });
});
</script>"""


#: What the terminal page says where scripts do not run: its Start button (a script) did nothing, said nothing.
NOSCRIPT_NOTICE = (
    '<noscript><p role="alert" style="position:fixed;top:0;left:0;right:0;z-index:100;margin:0;padding:.6em 1em;'
    "background:#5e0ba7;color:#fff;font:16px sans-serif\">The war room runs in this page with JavaScript, which this "
    "browser does not run here: allow scripts for this site (or open it in another browser), then reload the page."
    "</p></noscript>"
)
_BODY = re.compile(r"<body\b[^>]*>")
#: The terminal page's "Session ended." says why when the server said it in the close of the tab's websocket (the
#: session moved to another tab, the server stops, the war room could not start): textual-serve's page said
#: "Session ended." whatever the reason, so a trainee whose war room could not start was never told.
CLOSE_REASON_SCRIPT = """<script>
(function () {
  "use strict";
  var add = WebSocket.prototype.addEventListener;
  WebSocket.prototype.addEventListener = function (type, listener, options) {
    if (type === "close" && !this.warroomReason) {
      this.warroomReason = true;
      add.call(this, "close", function (event) {
        var box = document.querySelector(".closed-dialog .message");
        if (box && event.reason) { box.textContent = "Session ended: " + event.reason + "."; }
      });
    }
    return add.call(this, type, listener, options);
  };
})();
</script>"""


def with_notices(page: str) -> str:
    """The terminal page ``page`` saying, first in its ``<body>``, that it needs scripts where they do not run, and
    why a session ended where the server said why (:data:`CLOSE_REASON_SCRIPT`, first in its ``<head>``)."""
    page = page.replace("<head>", "<head>" + CLOSE_REASON_SCRIPT + WEBSOCKET_URL_SCRIPT, 1)
    return _BODY.sub(lambda m: m.group(0) + NOSCRIPT_NOTICE, page, count=1)


def _number(value: str, default: int, most: int) -> int:
    """A whole number of a page's query (a size), from 1 to ``most``; ``default`` when it is none."""
    try:
        return min(max(int(value), 1), most)
    except ValueError:
        return default


@dataclass
class _Seat:
    """A seat taken by a served terminal page for its tab: whose page it is, and the timer that lets go of it
    (:data:`TICKET_LIFETIME` after the page was served) when its tab has not connected by then."""

    holder: str
    lapse: asyncio.TimerHandle


@dataclass
class _Tab:
    """A war room tab: whose it is, its websocket once open, and whether it has ended (closed, or taken over by
    another tab of its trainee): an ended tab no longer counts against :data:`TABS_PER_TRAINEE`, though its seat
    counts against ``--max-sessions`` until its process is gone."""

    trainee: str
    websocket: web.WebSocketResponse | None = None
    ended: bool = False
    id: str = ""
    #: The sign-in (browser) whose page opened it (:meth:`WarroomServer.reloading`).
    signin: str | None = None


class WarroomServer(Server):
    """A textual-serve server whose connections each run ``warroom`` as their signed-in trainee.

    Args:
        signins: who is signed in (and the roster; without one, every browser runs as its default trainee).
        options: the app processes' drill folders, data directory and drill set.
        host, port: where to listen.
        max_sessions: the most app processes running at once (None: no limit).
        tabs_per_trainee: the most war room tabs one signed-in trainee plays in at once (with a roster: without
            one every browser is the same trainee, and only ``max_sessions`` holds).
        allowed_hosts: host names a request's ``Host`` may say besides the bound address, this machine's names,
            the loopback names and IP addresses (``--allowed-host``; :class:`~warroom.serve._hosts.HostNames`).
    """

    def __init__(
        self,
        signins: SignIns,
        options: AppOptions,
        *,
        host: str,
        port: int,
        max_sessions: int | None = None,
        live: LiveClass | None = None,
        console: Console | None = None,
        tabs_per_trainee: int = TABS_PER_TRAINEE,
        allowed_hosts: Sequence[str] = (),
    ) -> None:
        where = f"[{host}]" if ":" in host else host  # an IPv6 address in a URL (textual-serve wrote http://::1:8000)
        super().__init__(app_command(signins.default_trainee, options), host=host, port=port, title="War Room",
                         public_url=f"http://{where}:{port}")  # fmt: skip
        self.signins = signins
        self.options = options
        self.max_sessions = max_sessions
        self.live = live
        self.facilitator_console = console
        if console is not None:  # its live stream's writes wait for a reader as long as a tab's do
            console.write_stall = WRITE_STALL_SECONDS
        self.active = 0  # app processes running now
        self.sockets: set[web.WebSocketResponse] = set()  # the open sessions' websockets
        #: seats taken by served pages whose tab has not connected yet, by ticket (:meth:`take_seat`)
        self.tickets: dict[str, _Seat] = {}
        self.tabs_per_trainee = tabs_per_trainee
        #: the names a request's Host may say (DNS rebinding: warroom.serve._hosts)
        self.host_names = HostNames(host, tuple(allowed_hosts))
        self.tabs: dict[str, _Tab] = {}  # the war room tabs being played, by tab id
        self._closing: set[asyncio.Future[Any]] = set()  # tabs taken over, being closed
        #: Set (and replaced) each time a tab of this host ends or its app process is gone (:meth:`_tabs_changed`).
        self._tabs_change = asyncio.Event()
        if live is not None:  # a tab of this host taken over from another host: ended here
            live.on_taken_over = self._taken_over_elsewhere

    def playing_elsewhere(self, trainee: str) -> bool:
        """True when ``trainee`` already plays in :attr:`tabs_per_trainee` tabs (not taken over), with a roster: this
        host's, and those other hosts of the class serve (:meth:`other_hosts_tabs`)."""
        if self.signins.roster is None:
            return False
        mine = [t for t in self.tabs.values() if t.trainee == trainee and not t.ended]
        return len(mine) + len(self.other_hosts_tabs(trainee)) >= self.tabs_per_trainee

    def other_hosts_tabs(self, trainee: str) -> list[Any]:
        """The open tabs of ``trainee`` on other serve hosts of the class, from the store's live table (the rows
        every host writes for the console: :meth:`~warroom.serve._live.LiveClass.tabs_elsewhere`)."""
        return self.live.tabs_elsewhere(trainee) if self.live is not None else []

    def _tabs_changed(self) -> None:
        """A tab of this host ended, its app process is gone, or a seat held by a page is free (its ticket lapsed, or
        was let go of): wake whoever waits on the tabs and seats (:meth:`_wait_until`)."""
        self._tabs_change.set()
        self._tabs_change = asyncio.Event()

    async def _wait_until(self, done: Callable[[], bool], seconds: float) -> bool:
        """Wait until ``done()`` or ``seconds`` have passed; returns ``done()``. Woken each time a tab of this host
        ends or its app process exits, each time a seat a page held is free (:meth:`_tabs_changed`) and each time the
        live table of the class changes (other hosts' tabs), never polling: a trainee's tab waiting 25 s for their
        closed tabs' processes woke ten times a second to count them."""
        deadline = time.monotonic() + seconds
        while not done() and (left := deadline - time.monotonic()) > 0:
            changes = [asyncio.ensure_future(self._tabs_change.wait())]
            if self.live is not None and self.live.changed is not None:
                changes.append(asyncio.ensure_future(self.live.changed.wait()))
            try:
                await asyncio.wait(changes, timeout=left, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for change in changes:
                    change.cancel()
        return done()

    async def _wait_for_a_tab(self, trainee: str) -> bool:
        """:meth:`playing_elsewhere`, after waiting up to :data:`RELOAD_WAIT` seconds for one of the trainee's tabs
        to close (a reload's old connection) and, when every seat is taken, for the process of a tab of theirs that
        ended (reloaded, or taken over) to be gone, as long as such a process may take to quit
        (:data:`LEAVING_WAIT`): its seat is the one this tab takes (on a loaded host a process taken over took more
        than 3 s to store its drill, and the trainee who had pressed "Play here instead" got "all seats taken")."""

        def leaving() -> bool:
            return self.full() and any(t.trainee == trainee and t.ended for t in self.tabs.values())

        await self._wait_until(lambda: not self.playing_elsewhere(trainee), RELOAD_WAIT)  # a reload's old connection
        if not self.playing_elsewhere(trainee):
            await self._wait_until(lambda: not leaving(), LEAVING_WAIT)  # the process of a tab of theirs that ended
        return self.playing_elsewhere(trainee)

    def reloading(self, request: web.Request, trainee: str) -> bool:
        """True when the terminal page asked for by ``request`` is a reload (the browser's ``Cache-Control:
        max-age=0``, or ``no-cache`` for a hard reload) by a browser (its sign-in) whose tab of ``trainee`` is open on
        this host. A browser closes the reloaded tab's connection only once the new page's answer has come (Chromium
        keeps the old page until then), so the page cannot wait for it: it waited its 3 s, then answered "already
        playing in another tab" to every reload of a war room. Its tab's websocket waits for it instead
        (:meth:`_wait_for_a_tab`), refused as a second tab would be if it stays open."""
        if self.signins.roster is None:
            return False
        asked = request.headers.get("Cache-Control", "").lower()
        signin = self.signins.signin_id(request)
        if signin is None or ("max-age=0" not in asked and "no-cache" not in asked):
            return False
        return any(t.trainee == trainee and not t.ended and t.signin == signin for t in self.tabs.values())

    def _leaving(self, trainee: str) -> int:
        """How many of ``trainee``'s closed (or taken over) tabs still have their app process."""
        return sum(1 for t in self.tabs.values() if t.trainee == trainee and t.ended)

    async def _wait_for_leaving(self, trainee: str) -> bool:
        """With a roster, wait until fewer than :data:`LEAVING_PER_TRAINEE` of ``trainee``'s closed tabs have their
        app process (for at most :data:`LEAVING_WAIT` seconds, woken as each process exits); True when as many
        still do."""
        if self.signins.roster is None:  # every browser is the one trainee: only --max-sessions holds
            return False
        return not await self._wait_until(lambda: self._leaving(trainee) < LEAVING_PER_TRAINEE, LEAVING_WAIT)

    def still_closing_page(self) -> web.Response:
        """The HTTP 503 page of a trainee whose closed tabs are still quitting after :data:`LEAVING_WAIT`."""
        body = ("<p>Your tabs closed a moment ago are still ending their sessions.</p>"
                "<p>Reload this page in a minute.</p>")  # fmt: skip
        return page("War Room: your other tabs are still closing", body, status=503)

    def another_tab_page(self, trainee: str) -> web.Response:
        """The HTTP 409 page of a trainee's tab over :attr:`tabs_per_trainee`: go back to the other tab, or play
        here instead (``POST /takeover``)."""
        tabs = "another tab" if self.tabs_per_trainee == 1 else f"{self.tabs_per_trainee} other tabs"
        elsewhere = sorted({row.host for row in self.other_hosts_tabs(trainee)})
        where = (f", served by another host of this class ({html.escape(', '.join(elsewhere))})" if elsewhere
                 else ", in this browser or another")  # fmt: skip
        body = (
            f"<p>You ({html.escape(trainee)}) are already playing in {tabs}{where}: a trainee "
            "plays one drill at a time.</p><p>Go back to that tab, or close it and reload this page. Or play here "
            "instead: the other tab's session ends (a drill being played there is stored as abandoned).</p>"
            '<form method="post" action="/takeover"><button type="submit">Play here instead</button></form>'
        )
        return page("War Room: already playing in another tab", body, status=409)

    async def handle_another_tab(self, request: web.Request) -> web.StreamResponse:
        """``GET /another-tab``: the HTTP 409 page of a trainee already playing in another tab (``GET /`` sends them
        here), or back to ``/`` once they no longer are. Served at ``/`` itself, the page reloaded (its trainee's
        other tab still open in the same browser) was taken for a reload of that war room tab: the terminal page,
        whose websocket was refused, and the browser said "Session ended." where the 409 had said why."""
        trainee = self.signins.trainee_of(request)
        if self.signins.roster is None or trainee is None:
            raise web.HTTPSeeOther("/")
        asked = request.headers.get("Cache-Control", "").lower()
        if "max-age=0" in asked or "no-cache" in asked:  # reloaded: the other tab may be closing this moment
            await self._wait_until(lambda: not self.playing_elsewhere(trainee), RELOAD_WAIT)
        if not self.playing_elsewhere(trainee):
            raise web.HTTPSeeOther("/")
        return self.another_tab_page(trainee)

    async def handle_takeover(self, request: web.Request) -> web.StreamResponse:
        """``POST /takeover``: end the signed-in trainee's other tabs (each told its session moved to another tab;
        a drill being played there is stored as abandoned), then back to ``/``, where this tab gets the war room."""
        trainee = self.signins.trainee_of(request)
        if trainee is None:  # the sign-in middleware lets no such request through; kept as a second lock
            raise web.HTTPUnauthorized()
        others = [t for t in self.tabs.values() if t.trainee == trainee and not t.ended]
        self._end_tabs(others)
        if others:
            log.info("%r plays in a new tab: %s ended", trainee, plural(len(others), "other tab"))
        if self.live is not None and self.other_hosts_tabs(trainee):  # and those other hosts serve
            elsewhere = await self.live.take_over(trainee)
            if elsewhere:
                log.info("%r plays in a new tab: %s of other hosts taken over", trainee, plural(elsewhere, "tab"))
        raise web.HTTPSeeOther("/")

    def _end_tabs(self, tabs: Sequence[_Tab]) -> None:
        """End ``tabs`` (taken over): no longer counted against their trainee's limit, each told its session moved to
        another tab (its websocket closed as going away; its app process then quits, storing a drill being played
        as abandoned)."""
        for tab in tabs:
            tab.ended = True
            if self.live is not None and tab.id:
                self.live.tab_closed(tab.id)
        self._tabs_changed()
        for ws in (t.websocket for t in tabs if t.websocket is not None):  # not awaited: a browser asleep with
            # the other tab open would hold this one for the close's timeout (10 s)
            closing = asyncio.ensure_future(ws.close(code=WSCloseCode.GOING_AWAY,
                                                     message=b"the session moved to another tab"))  # fmt: skip
            self._closing.add(closing)
            closing.add_done_callback(self._closing.discard)

    def _taken_over_elsewhere(self, tab_id: str) -> None:
        """The live table says a tab of another host took over this host's tab ``tab_id``: end it here."""
        tab = self.tabs.get(tab_id)
        if tab is not None and not tab.ended:
            log.info("%r plays in a tab of another host: this host's tab ended", tab.trainee)
            self._end_tabs([tab])

    def full(self) -> bool:
        """True when a new session would go over ``max_sessions`` (running sessions and seats held by pages)."""
        return self.max_sessions is not None and self.active + len(self.tickets) >= self.max_sessions

    def _let_go_of_oldest_seat(self, holder: str) -> None:
        """Before ``holder`` (a trainee) takes another seat: let go of their oldest seats held by pages whose tab has
        not connected, so that they hold at most :data:`SEATS_WAITING_PER_TRAINEE` with the new one (such a page's
        tab, should it connect after all, gets a seat when one is free, as any tab does)."""
        mine = [t for t, seat in self.tickets.items() if seat.holder == holder]  # the oldest first
        oldest = mine[: max(0, len(mine) - SEATS_WAITING_PER_TRAINEE + 1)]
        for ticket in oldest:
            self.use_seat(ticket)
        if oldest:
            self._tabs_changed()  # a seat is free: a page waiting for one goes on

    def take_seat(self, holder: str) -> str:
        """A ticket for a served page's tab of ``holder`` (the trainee): a seat held for it until its websocket
        connects (:meth:`use_seat`) or the ticket lapses, :data:`TICKET_LIFETIME` seconds from now. The lapse wakes
        whoever waits for a seat (a trainee's page waiting while every seat is taken went on only once a closed tab's
        process was gone, never at a ticket's lapse)."""
        ticket = secrets.token_urlsafe(16)
        lapse = asyncio.get_running_loop().call_later(TICKET_LIFETIME, self._lapsed, ticket)
        self.tickets[ticket] = _Seat(holder, lapse)
        return ticket

    def use_seat(self, ticket: str) -> bool:
        """Take the seat of ``ticket`` out of the seats held by pages (its tab connected, or it is let go of): True
        when the ticket held one (not lapsed, not used before)."""
        seat = self.tickets.pop(ticket, None)
        if seat is None:
            return False
        seat.lapse.cancel()
        return True

    def _lapsed(self, ticket: str) -> None:
        """The tab of the page given ``ticket`` never connected: its seat is free, and a page waiting for one goes
        on."""
        if self.tickets.pop(ticket, None) is not None:
            self._tabs_changed()

    def full_page(self) -> web.Response:
        """The HTTP 503 page a connection over the limit gets."""
        body = (
            f"<p>This war room already runs its limit of {self.max_sessions} sessions at once.</p>"
            "<p>Try again in a minute, when a session has ended, or ask your facilitator.</p>"
        )
        return page("War Room: all seats taken", body, status=503)

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """``GET /``: textual-serve's terminal page, its URLs relative to this request, with the paste guard
        (:mod:`warroom.serve._paste`); the 503 page when full."""
        # whose page: the trainee (without a roster every browser is the one default trainee: its address)
        holder = (self.signins.trainee_of(request) or "") if self.signins.roster else f"address {request.remote}"
        reload = self.reloading(request, holder)  # its tab's websocket waits for the old one to close
        if self.signins.roster is not None and not reload and await self._wait_for_a_tab(holder):
            raise web.HTTPSeeOther(ANOTHER_TAB_PATH)  # a page of its own: reloaded, it is asked again (below)
        if await self._wait_for_leaving(holder):
            return self.still_closing_page()
        if self.max_sessions is not None:
            self._let_go_of_oldest_seat(holder)
        if self.full() and not reload:  # a reloaded tab's seat is the one its new tab takes
            return self.full_page()
        router = request.app.router
        # no seat for a reload when every seat is taken: its tab takes the reloaded tab's once its process is gone
        ticket = self.take_seat(holder) if self.max_sessions is not None and not self.full() else "tab"
        context = {  # paths only: the browser reads them against the page's address (its scheme behind a TLS proxy)
            "font_size": _number(request.query.get("fontsize", "16"), 16, _MAX_FONT_SIZE),
            "app_websocket_url": str(router["websocket-seat"].url_for(ticket=ticket)),  # WEBSOCKET_URL_SCRIPT
            "config": {"static": {"url": str(router["static"].url_for(filename="/")).rstrip("/") + "/"}},
            "application": {"name": self.title},
        }
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        response.headers["Cache-Control"] = "no-store"
        response.text = with_notices(with_paste_guard(own_links_only(response.text or "")))
        return response

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]
        """``GET /ws``: start an app process for the signed-in trainee and relay its terminal both ways until the
        browser goes away; then the process is told to quit (a drill being played is stored as abandoned)."""
        trainee = self.signins.trainee_of(request)
        if trainee is None:  # the sign-in middleware lets no such request through; kept as a second lock
            raise web.HTTPUnauthorized()
        if from_another_site(request):
            return self.signins.another_site_page(request, "websocket")
        if not web.WebSocketResponse().can_prepare(request).ok:  # before a seat or a live line is taken: each plain
            # GET made a "disconnected" line of the console's live class, kept 30 minutes (a flood at a trainee's will)
            return page("War Room: not a websocket", '<p>This address is the war room\'s connection: open '
                        '<a href="/">the war room</a>.</p>', status=400)
        seat = self.use_seat(request.match_info.get("ticket", ""))
        if self.signins.roster is not None and await self._wait_for_a_tab(trainee):  # behind the page's check
            log.info("a tab of %r refused: already playing in another tab", trainee)
            return self._refused(seat, self.another_tab_page(trainee))
        if await self._wait_for_leaving(trainee):
            log.info("a tab of %r refused: %s of theirs still closing", trainee, plural(LEAVING_PER_TRAINEE, "tab"))
            return self._refused(seat, self.still_closing_page())
        if not seat and self.full():
            return self.full_page()
        self.active += 1  # a seat, until the tab's app process is gone
        tab = secrets.token_hex(6)
        self.tabs[tab] = _Tab(trainee, id=tab, signin=self.signins.signin_id(request))
        try:
            if not await self._claim(tab, trainee, request):
                log.info("a tab of %r refused: already playing in another tab", trainee)
                return self.another_tab_page(trainee)
            return await self._relay(request, app_command(trainee, self.options, tab=tab), self.tabs[tab])
        finally:
            self.active -= 1
            self.tabs.pop(tab, None)
            if self.live is not None:
                self.live.tab_closed(tab)
            self._tabs_changed()  # its app process is gone: a tab waiting for its seat goes on

    def _refused(self, seat: bool, answer: web.Response) -> web.Response:
        """``answer``, to a tab refused: the seat its page held (``seat``), if any, is free, and a page waiting for
        one goes on."""
        if seat:
            self._tabs_changed()
        return answer

    async def _claim(self, tab: str, trainee: str, request: web.Request) -> bool:
        """Write the tab to the live table; with a roster, only while ``trainee`` plays in fewer than
        :attr:`tabs_per_trainee` tabs on every host of the class, counted and written in one step of the store
        (:meth:`~warroom.serve._live.LiveClass.claim`): False when refused."""
        if self.live is None:
            return True
        signin = self.signins.signin_id(request)
        if self.signins.roster is None:
            self.live.tab_opened(tab, trainee, signin)
            return True
        return await self.live.claim(tab, trainee, signin, self.tabs_per_trainee)

    async def _relay(self, request: web.Request, command: str, tab: _Tab) -> web.WebSocketResponse:
        trainee = tab.trainee
        websocket = web.WebSocketResponse(max_msg_size=MAX_MESSAGE_BYTES, autoping=False)  # pings: _tab, _heartbeat
        try:
            await websocket.prepare(request)
        except ConnectionResetError:  # the tab closed while its opening waited (for the live table's claim on a busy
            # store, for its seat, for its trainee's other tab to close): nobody to answer, its app never started; it
            # was "Error handling request" and a traceback in the log
            return websocket  # (aiohttp's own answer to it then finds the connection gone, and says nothing)
        tab.websocket = websocket
        if tab.ended:  # taken over while its connection was being opened: it never plays
            await websocket.close(code=WSCloseCode.GOING_AWAY, message=b"the session moved to another tab")
            return websocket
        self.sockets.add(websocket)
        service = self._service(request, websocket, command, trainee)
        width, height = terminal_size(_number(request.query.get("width", "80"), 80, MAX_RESIZE_CELLS),
                                      _number(request.query.get("height", "24"), 24, MAX_RESIZE_CELLS))  # fmt: skip
        who = f"the tab of {clean_line(trainee)!r}"
        try:
            if await start_app(websocket, service, width, height, who):
                await relay_until_ended(websocket, service, who, HEARTBEAT_SECONDS)
        except asyncio.CancelledError:
            pass
        except BrowserGone as exc:  # pinged, it answered nothing: its connection is dropped (nobody to close it with)
            log.warning("ended the session of %r: %s", trainee, exc)
            if request.transport is not None:
                request.transport.abort()
        except BadMessage as exc:  # the sender's session ends; nobody else's (a stalled tab's was said: its reads
            if not service.stalled:  # failed once its connection was dropped)
                log.warning("ended the session of %r: %s", trainee, exc)
                await websocket.close(code=WSCloseCode.POLICY_VIOLATION, message=b"malformed or too much input")
        except Exception:
            log.exception("a served session failed")
        finally:
            tab.ended = True  # no longer played (its seat is held until its process is gone)
            self._tabs_changed()
            if self.live is not None and tab.id:  # nor counted against its trainee's limit on any host
                self.live.tab_closed(tab.id)
            try:
                await asyncio.wait_for(asyncio.shield(service.stop()), STOP_GRACE)
            except Exception:  # TimeoutError included
                log.warning("a served app process did not quit within %s s: ending it", STOP_GRACE)
            await self._ended(service, trainee)
            self.sockets.discard(websocket)
            await websocket.close()
        return websocket

    def _service(self, request: web.Request, websocket: web.WebSocketResponse, command: str,
                 trainee: str) -> TabService:
        """The tab's app service, writing to ``websocket``: a browser that reads none of its output for
        :data:`WRITE_STALL_SECONDS` is dropped (its connection aborted)."""

        async def close() -> None:
            await websocket.close()

        def unsent() -> int:  # the bytes of the tab's output its browser has not read (0: its connection is gone)
            return unsent_bytes(request.transport) or 0

        def stalled() -> None:  # the browser read none of the tab's output for WRITE_STALL_SECONDS: drop it
            transport = request.transport
            log.warning("ended the session of %r: its browser read none of its screen for %g s (%s unsent): a tab "
                        "that stops reading is dropped", trainee, WRITE_STALL_SECONDS, plural(unsent(), "byte"))
            if transport is not None:
                transport.abort()  # close() would wait for the unsent bytes to be read: for ever

        return TabService(
            command,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            write_stall=WRITE_STALL_SECONDS,
            on_stall=stalled,
            unsent=unsent,
            close=close,
            download_manager=self.download_manager,
            debug=self.debug,
        )

    async def _ended(self, service: TabService, trainee: str) -> None:
        """The tab is closed: its app process is made to end (it keeps its seat until then), and a session it left
        unfinished (a process that died or was killed mid-drill) is recovered, said in this server's log and kept for
        the trainee's next start (never shown to another trainee: :func:`warroom.store.journal.recover_unfinished`)."""
        code = await service.end()
        if code is not None and code < 0:
            log.warning("the app process of %r ended by signal %d", trainee, -code)
        try:
            recovered = await asyncio.get_running_loop().run_in_executor(None, self._recover, trainee)
        except Exception as exc:  # a store that cannot be used: the journal stays, recovered at a later start
            log.warning("could not recover the sessions %r left unfinished: %s", trainee, exc)
            return
        for rec in recovered:
            log.info("%s", rec)

    def _recover(self, trainee: str) -> list[Any]:
        from warroom.core.settings import resolve_data_dir
        from warroom.store.journal import recover_unfinished
        from warroom.store.review import default_drill_resolver

        data_dir = resolve_data_dir(self.options.data_dir)
        return recover_unfinished(data_dir, default_drill_resolver(self.options.drill_dirs), trainee=trainee)

    def initialize_logging(self) -> None:
        """The server's log on its standard output: one line per record, never wrapped (``2026-12-01 14:10:02
        INFO message``: a file or a terminal of any width reads it whole), a traceback as Python prints it (never
        the local variables of its frames, which hold requests' bytes: sign-in cookies, tokens posted to /signin),
        and a malformed request in one line (:class:`ClientErrorsOnOneLine`), control characters a client sent (its
        ``User-Agent``) escaped (:class:`ControlsEscaped`), a token in a query hidden (:class:`TokensHidden`); no more
        open files for a connection is
        one line a minute (:class:`OutOfFilesOnceAMinute`); the sub-protocols a websocket asked for, cut
        (:class:`WebsocketProtocolsCut`)."""
        handler = logging.StreamHandler(sys.stdout)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s", "%Y-%m-%d %H:%M:%S"))
        handler.addFilter(ClientErrorsOnOneLine())
        handler.addFilter(WebsocketProtocolsCut())
        handler.addFilter(OutOfFilesOnceAMinute())
        handler.addFilter(ControlsEscaped())
        handler.addFilter(TokensHidden())
        logging.basicConfig(level="DEBUG" if self.debug else "INFO", handlers=[handler], force=True)

    async def on_shutdown(self, app: web.Application) -> None:
        """The server stops (Ctrl+C, SIGTERM): close every open session's websocket as going away (1001), so that
        each session's app process is told to quit now (storing a drill being played as abandoned), not once
        aiohttp's shutdown timeout has run out; aiohttp then waits for those sessions' handlers to finish."""
        sockets = list(self.sockets)
        await asyncio.gather(
            *(ws.close(code=WSCloseCode.GOING_AWAY, message=b"the war room server stops") for ws in sockets),
            return_exceptions=True,
        )

    async def on_startup(self, app: web.Application) -> None:
        """Start following the class for the console (the banner is printed once the address is bound,
        :meth:`banner`, not here). With ``--port 0`` that waits until the port is known (:meth:`_listening`): the
        live table names a host by its port, and a host named ``HOST:0`` took another ``--port 0`` server of this
        machine for a killed run of itself and deleted its lines."""
        if self.live is not None and self.port != 0:
            self.live.start()

    async def on_cleanup(self, app: web.Application) -> None:
        """Stop following the class: this host's rows leave the live table."""
        if self.live is not None:
            await self.live.stop()

    def banner(self) -> str:
        """Where the war room is served, once it listens (the store's connection string is never part of it)."""
        limit = f", at most {plural(self.max_sessions, 'session')} at once" if self.max_sessions else ""
        signin = "sign-in with the roster" if self.signins.roster is not None else "NO sign-in (no --roster)"
        console = f"; the console at {self.public_url}/console" if self.facilitator_console is not None else ""
        return f"War Room served on {self.public_url} ({signin}{limit}){console}; press Ctrl+C to stop"

    def _listening(self, text: str) -> None:
        """Print the banner once listening (aiohttp's ``text`` names the address it listens on). With ``--port 0``
        the system chose the port: the banner names that one (it said ``http://127.0.0.1:0``)."""
        bound = re.search(r"//\S*:(\d{1,5})(?:\s|$)", text) if self.port == 0 else None  # http://[::1]:43121
        if bound is not None:
            self.port = int(bound.group(1))
            self.public_url = re.sub(r":0$", f":{self.port}", self.public_url)
        if self.live is not None and not self.live.started:  # --port 0: this host's name in the live table
            from warroom.serve._live import host_id

            self.live.host = host_id(self.port, self.host)
            self.live.start()
        print(self.banner(), flush=True)

    def serve(self, debug: bool = False) -> None:
        """Run the web server until Ctrl+C or SIGTERM; the banner is printed once the address is bound.

        Raises :class:`ServeError` when the server cannot listen (an unknown host name, an address of no interface
        of this host, a port in use or reserved)."""
        self.debug = debug
        self.initialize_logging()
        files = raise_open_files_limit()
        if files is not None and files < 4096:
            log.warning("this process may open only %d files, each connection one: a client holding that many "
                        "connections open keeps every other out (raise the hard limit: ulimit -Hn)", files)
        wide = wide_proxies_warning(self.signins.proxies)
        if wide:  # said on stderr by the command too; here for whoever reads only the server's log
            log.warning("%s", wide)
        try:
            web.run_app(build_application(self), host=self.host, port=self.port,
                        keepalive_timeout=REQUEST_HEAD_TIMEOUT,
                        access_log_class=client_access_logger(self.signins.proxies),
                        print=self._listening)  # aiohttp's own banner: ours instead
        except OSError as exc:
            raise ServeError(f"cannot serve on {self.host}:{self.port}: {exc.strerror or exc}") from None


class ClientErrorsOnOneLine(logging.Filter):
    """A log filter: aiohttp's record of a request it could not parse (a header over 8190 bytes, a bad request line, a
    body that does not decode: the client's error) becomes one line, ``Error handling request from ADDRESS: HTTP 400,
    why``, without the traceback and without the request's bytes (the part of aiohttp's reason after its first ``:``
    quotes them)."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, web.RequestPayloadError) and isinstance(error.__cause__, HttpProcessingError):
            error = error.__cause__  # a body that does not decode (``Content-Encoding: gzip`` over no gzip): aiohttp
            # drains the rest of it after the answer and logged "Unhandled exception" with three tracebacks
        if isinstance(error, HttpProcessingError):
            why = str(error.message).split(":", 1)[0].strip() or type(error).__name__
            record.msg, record.args = "%s: HTTP %s, %s", (record.getMessage(), error.code, why)
            record.exc_info, record.exc_text = None, None
        return True


class WebsocketProtocolsCut(logging.Filter):
    """A log filter: aiohttp's record of a websocket asking for sub-protocols the server does not speak (every
    ``Sec-WebSocket-Protocol`` header: the war room speaks none) names them cut (:func:`~warroom.core.text.cut_value`:
    by their start, end and length, control characters escaped), in one line: a header of 8 KB was written whole into
    the server's log for each connection that sent it."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name != "aiohttp.websocket" or not str(record.msg).startswith("%s: Client protocols"):
            return True
        args = record.args if isinstance(record.args, tuple) else ()
        remote = args[0] if args else None
        protocols = args[1] if len(args) > 1 and isinstance(args[1], list) else []
        asked = ", ".join(str(p) for p in protocols)
        record.msg = "a websocket from %s asked for %s the server does not speak (%s): none is used"
        record.args = (remote, plural(len(protocols), "sub-protocol"), cut_value(asked))
        return True


class ControlsEscaped(logging.Filter):
    """A log filter: each record's message with its control characters (C0 and C1: ``ESC``, ``U+009B``, a terminal's
    CSI) and bidirectional controls (``U+202E``) escaped (:func:`~warroom.core.text.clean`), its line breaks kept.
    aiohttp's access log line holds the request's ``User-Agent`` and ``Referer`` as the client sent them: a header
    value is any bytes but ASCII controls, so a client wrote ``U+009B 2J`` (clear the screen, on a terminal reading
    C1 controls) or ``U+202E`` (the rest of the line shown backwards) into the log the facilitator reads."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a record whose arguments do not fit its message: the handler says so, as without this
            return True
        cleaned = clean(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        return True


class TokensHidden(logging.Filter):
    """A log filter: the value of a ``token`` field in a request's query, in the request line or the ``Referer`` of
    aiohttp's access log line, is not shown (``token=…``). A sign-in link a facilitator wrote (``/signin?name=Ada&
    token=...``), or a form sent as a query, put the trainee's token into the log twice, the link's request and the
    next one's ``Referer``: the log, which the facilitator reads and keeps, is to hold no token (docs/serve.md)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name != "aiohttp.access":
            return True
        try:
            message = record.getMessage()
        except Exception:  # a record whose arguments do not fit its message: the handler says so, as without this
            return True
        hidden = _QUERY_TOKEN.sub(r"\1…", message)
        if hidden != message:
            record.msg, record.args = hidden, None
        return True


#: A ``token`` field of a query (its name in any letter case, written plainly or percent-encoded) and its value.
_QUERY_TOKEN = re.compile(r"([?&;](?:t|%74)(?:o|%6f)(?:k|%6b)(?:e|%65)(?:n|%6e)(?:=|%3d))[^&;#\s\"]*", re.I)

#: Seconds between two log lines saying the server has no more open files for a new connection.
OUT_OF_FILES_EVERY = 60.0


class OutOfFilesOnceAMinute(logging.Filter):
    """A log filter: asyncio's record of a connection it could not accept for want of open files (``EMFILE``: a
    client holding a thousand connections open, under the 20 s a request's head may take) becomes one line a minute,
    saying what to do, without its traceback: it was logged with a traceback for each connection refused, up to a
    hundred times a second (135,000 lines in 15 s)."""

    def __init__(self, clock: Any = time.monotonic) -> None:
        super().__init__()
        self.clock = clock
        self.said_at: float | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name != "asyncio" or not str(record.msg).startswith("socket.accept() out of system resource"):
            return True
        now = self.clock()
        if self.said_at is not None and now - self.said_at < OUT_OF_FILES_EVERY:
            return False
        self.said_at = now
        record.msg, record.args = ("no open file left for a new connection (the process's limit, ulimit -n): "
                                   "connections are refused until some close; said at most once a minute"), ()
        record.exc_info, record.exc_text = None, None
        return True


def raise_open_files_limit() -> int | None:
    """Raise this process's limit of open files (each connection is one) to its hard limit, and return the limit now
    (None where it cannot be read). A server started under the usual soft limit of 1,024 was kept from every other
    client by one client holding about a thousand connections open (a request's head may take 20 s to arrive)."""
    try:
        import resource
    except ImportError:  # not on this platform
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft != resource.RLIM_INFINITY and soft < hard:
        with contextlib.suppress(ValueError, OSError):  # refused: the limit stays as it was, which the caller warns of
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
    return None if soft == resource.RLIM_INFINITY else int(soft)


class ServeError(WarroomError):
    """The web server cannot listen where it was asked to (the message names the address and why)."""


@web.middleware
async def refuse_nul(request: web.Request, handler: Any) -> web.StreamResponse:
    """Refuse an address whose path or query holds a NUL character (``/mine/%00``, ``?trainee=%00``): no stored
    name or id holds one, and PostgreSQL refuses it in a query, which a page would take for a store that cannot be
    read (a 503 and a warning in the log, at a trainee's will)."""
    if "\x00" in request.path or any("\x00" in value for value in request.query.values()):
        raise web.HTTPBadRequest(text="the address holds a NUL character (%00): no name or id holds one")
    return await handler(request)


@web.middleware
async def no_such_page(request: web.Request, handler: Any) -> web.StreamResponse:
    """A path of no page: a page saying where the war room and the console are (HTTP 404), and a path ending in ``/``
    sent to the same path without it (``/console/``, which a browser's address bar may complete, is ``/console``).
    aiohttp answered such paths with the text ``404: Not Found`` alone. A page's own 404 (a session not stored) is
    left as it is."""
    try:
        return await handler(request)
    except web.HTTPNotFound:
        if request.match_info.http_exception is None:  # a page's own answer
            raise
        raw = request.rel_url.raw_path  # as sent: a name's %2F stays part of the name (/console/trainees/Ann%2FB/)
        trimmed = raw.rstrip("/")
        if trimmed and trimmed != raw and not trimmed.startswith("//") and request.method in ("GET", "HEAD"):
            target = request.rel_url.with_path(trimmed, encoded=True).with_query(request.rel_url.query)
            found = await request.app.router.resolve(request.clone(rel_url=target))
            if found.http_exception is None:  # a page's path (never ``//evil.example``: a link to another site)
                raise web.HTTPFound(target) from None
        body = (f"<p>There is no page at <code>{html.escape(clean_line(request.path)[:200])}</code>.</p><p>The war "
                'room is at <a href="/">/</a>, the facilitator\'s console at <a href="/console">/console</a>.</p>')
        return page("War Room: no such page", body, status=404)


#: Headers of every response: no page of the server is shown in another site's frame (a hostile page framed the war
#: room, which without a roster needs no sign-in, or the console, under its own buttons: clickjacking), and no
#: response is read as another type than it says.
FRAME_HEADERS = {
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
}


async def never_framed(request: web.Request, response: web.StreamResponse) -> None:
    """Add :data:`FRAME_HEADERS` to ``response`` (every page, file and answer of the server, errors included)."""
    for name, value in FRAME_HEADERS.items():
        response.headers.setdefault(name, value)


def build_application(server: WarroomServer, middlewares: Sequence[Any] = ()) -> web.Application:
    """The aiohttp application of ``server``: the host name checked (DNS rebinding), then sign-in, in front of
    textual-serve's routes (terminal page, websocket, downloads, static files) and of the facilitator's console."""
    # the first writes every answer the others give, bounded by how long its client reads
    checks = [written_while_read(WRITE_STALL_SECONDS), server.host_names.middleware, server.signins.middleware,
              refuse_nul, no_such_page]  # fmt: skip
    app = web.Application(middlewares=[*checks, *middlewares])
    aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(server.templates_path))
    app.add_routes(
        [
            web.get("/signin", server.signins.handle_get, name="signin"),
            web.post("/signin", server.signins.handle_post),
            web.post("/signout", server.signins.handle_signout),
            web.post("/takeover", server.handle_takeover),
            web.get("/", server.handle_index, name="index"),
            web.get(ANOTHER_TAB_PATH, server.handle_another_tab),
            web.get("/ws", server.handle_websocket, name="websocket"),
            web.get("/ws/{ticket}", server.handle_websocket, name="websocket-seat"),
            web.get("/download/{key}", server.handle_download, name="download"),
            web.static("/static", server.statics_path, name="static"),
        ]
    )
    if server.facilitator_console is not None:
        app.add_routes(server.facilitator_console.routes())
    app.on_response_prepare.append(never_framed)
    app.on_startup.append(server.on_startup)
    app.on_shutdown.append(server.on_shutdown)
    app.on_cleanup.append(server.on_cleanup)
    return app
