"""Sign-in for ``warroom serve``: the sign-in page, the cookie that marks a signed-in browser, and the pages the
server answers with instead of the war room (too many sessions, not signed in).

A browser signs in by posting a name and token from the roster; the server then keeps a record (random id -> the
roster's name, role and token hash) and sets a cookie holding the id (``HttpOnly``, ``SameSite=Strict``), named
after the server's port (:func:`cookie_name`: two servers on one host keep their sign-ins apart). The trainee
of every app process started for that browser is the roster's name in that record: nothing the browser sends names
the trainee. A facilitator's sign-in opens the console (``/console``) and never a war room; a trainee's never the
console. The roster file is read again when it changes (``roster add``, ``remove``, ``rotate``): a sign-in whose
name left the roster, or whose token was replaced, ends at once.

Every sign-in is logged with its name (``sign-in: NAME (trainee) from ADDRESS``), and so is every refused one
(``sign-in refused: NAME from ADDRESS``), the name as typed, its control characters escaped; never a token.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import os
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.typedefs import Handler

from warroom.core.text import clean_line
from warroom.serve._proxies import Network, client_of, limit_key
from warroom.serve._roster import FACILITATOR, TRAINEE, RosterError

if TYPE_CHECKING:
    from warroom.serve._roster import Roster


log = logging.getLogger("warroom.serve")
#: The most other sites' pages the log names, each once (a page of a new origin each time cannot write the log full).
MAX_FOREIGN_PAGES_LOGGED = 20

#: Name of the cookie holding a sign-in id, before the port it is set for (:func:`cookie_name`).
COOKIE = "warroom_signin"
#: Seconds a sign-in stays valid (a long class day).
SIGNIN_LIFETIME = 12 * 3600
#: The sign-ins one roster name holds at once (its browsers): signing in once more ends that name's oldest. Each
#: sign-in was kept 12 hours and shown as a line of the console's live class, so one trainee signing in again and
#: again without the cookie (a script) filled the facilitator's page with thousands of lines and the server's memory.
MAX_SIGNINS_PER_NAME = 8
#: Longest name or token read from the sign-in form, in characters.
_MAX_FIELD = 200
#: Seconds a posted form's body (a sign-in, a facilitator's note) may take to arrive once its head has.
REQUEST_BODY_TIMEOUT = 20.0
#: Seconds between two looks at the roster file for a change.
_ROSTER_LOOK = 1.0
#: The paths only a facilitator's sign-in opens (the console); every other path is a trainee's.
CONSOLE_PREFIX = "/console"
#: Where ``GET /`` sends a trainee already playing in another tab: the HTTP 409 page
#: (``WarroomServer.handle_another_tab``), at a path of its own so that reloading it is never taken for a reload of
#: a war room tab.
ANOTHER_TAB_PATH = "/another-tab"

_STYLE = """
body { background: #0c181f; color: #e8eef2; font-family: menlo, "Roboto Mono", monospace; display: flex;
       align-items: center; justify-content: center; min-height: 90vh; }
main { background: #12232d; padding: 2em 3em; max-width: 36em; }
label { display: block; margin: 1em 0 .3em; }
input { width: 100%; padding: .4em; font: inherit; }
button { margin-top: 1.5em; padding: .6em 2em; font: inherit; background: #5e0ba7; color: #fff; border: none; }
.problem { color: #ff9c8a; }
"""


async def read_form(request: web.Request, proxies: Sequence[Network] = ()) -> Any:
    """The fields of a posted form; HTTP 400 for a body that is not a form of UTF-8 text (aiohttp raised a
    UnicodeDecodeError: a 500 and a traceback in the log, at any client's will), names a charset Python does not know
    (``charset=bogus``: a LookupError), or cannot be read as the form it says it is (a multipart form without its
    boundary; a field over 512 KiB, whose error quoted the body, a token with it, into the log; a body whose
    ``Content-Encoding`` does not decode, ``gzip`` over bytes that are no gzip: aiohttp's RequestPayloadError, a 500
    and a traceback); HTTP 408 for a body that has not all arrived within :data:`REQUEST_BODY_TIMEOUT` seconds
    (aiohttp has no such limit: a client sending its body a byte a minute held the request, and its connection, for
    ever; the log names the client, behind one of the reverse ``proxies`` the address it saw). A client that closes its
    connection before its body has all arrived is answered nothing and logged nothing (it was a traceback,
    ``ConnectionResetError: Connection lost``)."""
    try:
        async with asyncio.timeout(REQUEST_BODY_TIMEOUT):
            return await request.post()
    except TimeoutError:
        log.warning("a posted form from %s did not arrive within %g s: refused (HTTP 408)", client_of(request, proxies),
                    REQUEST_BODY_TIMEOUT)  # fmt: skip
        raise web.HTTPRequestTimeout(
            text=f"the form did not arrive within {REQUEST_BODY_TIMEOUT:g} s: post it again"
        ) from None
    except (UnicodeDecodeError, LookupError):
        raise web.HTTPBadRequest(text="the form is not UTF-8 text") from None
    except (ValueError, HttpProcessingError, web.RequestPayloadError):
        raise web.HTTPBadRequest(
            text="the form cannot be read: post it as the page's form does (URL-encoded UTF-8 text)"
        ) from None
    except ConnectionResetError:  # the client left mid-body: nobody reads an answer
        raise web.HTTPBadRequest(text="the form did not arrive whole: post it again") from None


def _read_roster(path: Path) -> Roster | None:
    """The roster file ``path`` read again (in a worker thread): None, said in the log, when it cannot be read or
    names nobody (refused at start; here most often a file caught while written in place, truncated then written:
    read as a roster of nobody, it ended every sign-in of the class, the facilitator's too)."""
    from warroom.serve._roster import Roster

    try:
        roster = Roster.load(path)
    except RosterError as exc:
        log.error("the roster changed and cannot be read; the last one read stays in use: %s", exc)
        return None
    if not roster.entries:
        log.error("the roster changed and names nobody (a file being written?); the last one read stays in use: %s",
                  path)  # fmt: skip
        return None
    return roster


def from_another_site(request: web.Request) -> bool:
    """True when a browser sent ``request`` from another site's page: its ``Origin`` is not this server's own
    (``http`` or ``https`` and the request's host; ``null``, sent by a sandboxed or privacy-hiding page, is no
    origin of this server), or, without an ``Origin``, its ``Sec-Fetch-Site`` says ``cross-site`` or ``same-site``
    (a sibling host). A request with neither (a script, curl) is not from a page of another site."""
    origin = request.headers.get("Origin")
    if origin is not None:
        scheme, _, host = origin.strip().partition("://")
        return scheme.lower() not in ("http", "https") or host.lower() != request.host.lower()
    return request.headers.get("Sec-Fetch-Site", "").lower() in ("cross-site", "same-site")


def over_https(request: web.Request) -> bool:
    """True when the browser sent ``request`` over HTTPS: to this server's TLS, or to a reverse proxy terminating TLS in
    front of it, whose page's form says so in its ``Origin`` (``https://...``; the proxy's request to this server is
    ``http``). The sign-in cookie is then ``Secure``: a browser never sends it over plain HTTP, where the network
    (the risk HTTPS is served against) would read it, e.g. to the proxy's port 80 as the trainee types the address
    without ``https://``."""
    origin = request.headers.get("Origin", "").strip().lower()
    return request.scheme == "https" or origin.startswith("https://")


def cookie_name(request: web.Request) -> str:
    """The name of the sign-in cookie of the server ``request`` reached: ``warroom_signin_PORT``, PORT the port that
    server listens on. A browser keeps one cookie per name and host name, whatever the port, so two servers on one
    host (a class's and a trial one, on ports 8000 and 8001) shared one cookie under a fixed name: signing in to one
    signed the browser out of the other, or sent one server's sign-in id to the other. ``COOKIE`` alone where the
    port is not known (a Unix socket)."""
    transport = request.transport
    sockname = transport.get_extra_info("sockname") if transport is not None else None
    if isinstance(sockname, tuple) and len(sockname) >= 2 and isinstance(sockname[1], int):
        return f"{COOKIE}_{sockname[1]}"
    return COOKIE


def sent_signin_ids(request: web.Request) -> list[str]:
    """Every sign-in id the request's cookies hold under this server's cookie name (:func:`cookie_name`), in the
    order sent. A browser holds one such cookie of this server's own; another site of the same domain
    (``evil.school.example`` beside ``warroom.school.example``, or another port of this host) can set one more under
    the same name (``Domain=school.example``, or another path), which the browser then sends too, after this
    server's own when set later: aiohttp's ``request.cookies`` keeps the last, so that site's author's sign-in id,
    planted in a classmate's browser, made the classmate's tabs play, and store their sessions, as that author."""
    name = cookie_name(request)
    ids = []
    for header in request.headers.getall("Cookie", []):
        for part in header.split(";"):
            key, sep, value = part.strip().partition("=")
            if sep and key.strip() == name:
                ids.append(value.strip())
    return ids


def page(title: str, body: str, status: int = 200) -> web.Response:
    """A small HTML page (``body`` is HTML the caller escaped) with the given HTTP status."""
    text = (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<style>{_STYLE}</style></head><body><main><h1>{html.escape(title)}</h1>{body}</main></body></html>"
    )
    return web.Response(text=text, status=status, content_type="text/html", headers={"Cache-Control": "no-store"})


def signin_page(problem: str = "", status: int = 200) -> web.Response:
    """The sign-in form, with ``problem`` (plain text) above it when the last attempt failed."""
    note = f'<p class="problem" role="alert">{html.escape(problem)}</p>' if problem else ""
    form = (
        f"{note}<p>Sign in with the name and token your facilitator gave you (a facilitator: yours opens the "
        "console).</p>"
        '<form method="post" action="/signin">'
        '<label for="name">Name</label><input id="name" name="name" autocomplete="username" required>'
        '<label for="token">Token</label>'
        '<input id="token" name="token" type="password" autocomplete="current-password" required>'
        '<button type="submit">Sign in</button></form>'
    )
    return page("War Room: sign in", form, status)


#: Sign-in attempts one client (an address) may have waiting to be checked; its checks run one at a time, so a
#: class behind one address (a school's NAT) signs in one after the other, each in tens of milliseconds: a class of
#: 256 may all press "Sign in" in the same second (64 refused the 100 trainees of ``benchmarks/bench_serve.py``).
CLIENT_WAITING = 256
#: Wrong sign-ins one client may make in :data:`FAILURE_WINDOW` seconds; past that, its attempts are refused (HTTP
#: 429) until the window has moved on, without hashing anything.
CLIENT_FAILURES = 20
FAILURE_WINDOW = 60.0
#: Most clients remembered at once (the least recent idle ones are forgotten first).
_MAX_CLIENTS = 10_000


def port_dropped(origin: str, host: str) -> str:
    """``" (...)"`` saying that the page's ``origin`` (``https://warroom.school.example:8443``) is the request's
    ``host`` but for the port, which a proxy passing nginx's ``$host`` drops; "" otherwise."""
    from urllib.parse import urlsplit

    try:
        page, asked = urlsplit(origin), urlsplit("//" + host)
        same = bool(page.hostname) and page.hostname == asked.hostname and page.port != asked.port
    except ValueError:  # not a URL, or a port that is no number
        return ""
    if not same:
        return ""
    return (f" (the page's port, {page.port or 'none: the default'}, is not the Host's, "
            f"{asked.port or 'none: the default'}: the proxy changed the port the browser sent)")


@dataclass
class _Client:
    waiting: int = 0
    failures: list[float] = field(default_factory=list)
    turn: asyncio.Lock = field(default_factory=asyncio.Lock)


@dataclass
class ClientThrottle:
    """How much sign-in work each client may ask for: its checks one at a time (:meth:`check`), at most
    :data:`CLIENT_WAITING` waiting, and :data:`CLIENT_FAILURES` wrong ones per :data:`FAILURE_WINDOW` seconds. So a
    burst of wrong guesses from one client never has more than one hash in front of anybody else's sign-in, and past
    its limit is refused at once (no hash computed)."""

    clock: Any = time.monotonic
    _clients: dict[str, _Client] = field(default_factory=dict)

    def refusal(self, client: str) -> str | None:
        """Why ``client`` may not be checked now (a sentence), or None."""
        now = self.clock()
        state = self._clients.pop(client, None) or _Client()
        self._clients[client] = state  # the most recent last
        state.failures = [t for t in state.failures if now - t < FAILURE_WINDOW]
        if len(state.failures) >= CLIENT_FAILURES:
            wait = int(FAILURE_WINDOW - (now - state.failures[0])) + 1
            return f"Too many wrong sign-ins from your address: try again in {wait} s."
        if state.waiting >= CLIENT_WAITING:
            return "Too many sign-ins from your address at once: try again in a moment."
        return None

    async def check(self, client: str, attempt: Callable[[], Awaitable[bool]]) -> str | None:
        """Run ``attempt`` (the token check: True when right) for ``client`` when its turn comes, counting a wrong
        one; returns why it was refused instead, or None when it ran (its result is the caller's). An IPv6 client
        counts as its /64 network (:func:`~warroom.serve._proxies.limit_key`)."""
        client = limit_key(client)
        refused = self.refusal(client)
        if refused is not None:
            return refused
        state = self._clients[client]
        state.waiting += 1
        try:
            async with state.turn:
                refused = self.refusal(client)  # the guesses before it in the queue may have used the budget up
                if refused is None and not await attempt():
                    state.failures.append(self.clock())
                return refused
        finally:
            state.waiting -= 1
            self._forget_idle()

    def _forget_idle(self) -> None:
        if len(self._clients) <= _MAX_CLIENTS:
            return
        idle = [k for k, s in self._clients.items() if not s.waiting]
        for key in idle[: len(self._clients) - _MAX_CLIENTS]:
            del self._clients[key]
@dataclass(frozen=True)
class SignIn:
    """One signed-in browser: the roster's ``name`` and ``role``, the token hash it signed in with (a sign-in
    ends when the roster's hash changes) and when (``time.monotonic``)."""

    name: str
    role: str
    token_hash: str
    since: float


#: A word of a refused name shaped as a token (``roster add``'s: 22 characters of URL-safe base64): a trainee who typed
#: their token as the name, or pasted ``roster add``'s whole line, ``NAME<TAB>TOKEN``, into the name box.
_TOKEN_WORD = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{22}(?![A-Za-z0-9_-])")


def _quoted_name(name: str) -> str:
    """A name typed at a refused sign-in, for the log: its control characters escaped, a word shaped as a token
    (:data:`_TOKEN_WORD`) not shown, cut to 80 characters, quoted. The name as typed was logged whole, so a trainee's
    token typed in the name box, or pasted there with the name, was in the log the facilitator reads and keeps."""
    shown = _TOKEN_WORD.sub("[a token? not shown]", clean_line(name))
    return repr(shown[:80] + ("…" if len(shown) > 80 else ""))


@dataclass
class SignIns:
    """The signed-in browsers of one server: sign-in id -> :class:`SignIn`.

    With no roster (``roster`` None) nobody signs in, every browser runs as ``default_trainee`` and there is no
    console. With ``roster_path`` the roster is read again when the file changes (at most every second)."""

    roster: Roster | None
    default_trainee: str
    roster_path: Path | None = None
    #: Called with each new sign-in (its id and :class:`SignIn`) and each sign-in that ends (its id, None).
    on_change: Callable[[str, SignIn | None], None] | None = None
    _records: dict[str, SignIn] = field(default_factory=dict)
    #: At most this many token hashes are computed at once (each takes tens of ms and 16 MiB): sign-in attempts wait
    #: their turn instead of taking the host's CPU and memory from the sessions.
    _checks: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(2))
    #: What each client may ask for (a flood from one client is refused, not queued in front of the others).
    throttle: ClientThrottle = field(default_factory=ClientThrottle)
    #: The reverse proxies whose ``X-Forwarded-For`` names the client (``--forwarded-allow-ips``; none by default).
    proxies: tuple[Network, ...] = ()
    #: The roster file's stamp (:meth:`stamp_of`) when ``roster`` was read from it: the file is read again once its
    #: stamp is another. None: the stamp at the first look (a change before it is not seen). The command takes it
    #: before it reads the roster: taken at the first request, a roster changed (a token rotated, a name removed)
    #: while the server started, or before anyone signed in, was never read: the old token went on signing in.
    roster_stamp: tuple[int, int] | None = None
    _roster_looked: float = 0.0
    #: The roster file being read again in a worker thread (:meth:`reload_roster`), or None.
    _roster_reading: asyncio.Future[Roster | None] | None = None
    #: The other sites' pages (their ``Origin``) whose forms or websockets were refused and said in the log, each
    #: once, at most :data:`MAX_FOREIGN_PAGES_LOGGED` (:meth:`another_site_page`).
    _foreign_logged: set[str] = field(default_factory=set)

    def another_site_page(self, request: web.Request, what: str) -> web.Response:
        """The HTTP 403 page for ``what`` (a form, a websocket) sent from another site's page
        (:func:`from_another_site`), said once per page's origin in the log with what to do: a reverse proxy that does
        not pass the public name it is reached by on as ``Host`` (nginx's default) makes the war room's own pages
        another site's here, and every sign-in of the class was refused, the log saying nothing but the request's
        line."""
        origin = clean_line(request.headers.get("Origin", "").strip())[:200] or "a page of another site"
        if origin not in self._foreign_logged and len(self._foreign_logged) < MAX_FOREIGN_PAGES_LOGGED:
            self._foreign_logged.add(origin)
            more = "; no other page will be logged" if len(self._foreign_logged) == MAX_FOREIGN_PAGES_LOGGED else ""
            log.warning("refused a %s from %r for the host %r (HTTP 403: another site's page): if that page is this "
                        "server's own behind a reverse proxy, have the proxy pass the name and port it is reached by "
                        "on as Host (nginx: proxy_set_header Host $http_host; nginx's $host drops the port) and start "
                        "the server with --allowed-host and that name%s%s", what, origin,
                        clean_line(request.host)[:200], port_dropped(origin, request.host), more)  # fmt: skip
        return page("War Room: refused", f"<p>This {what} was sent from another site's page.</p><p>If you opened the "
                    "war room at its usual address, tell your facilitator: the server's log says what to change.</p>",
                    403)  # fmt: skip

    async def reload_roster(self) -> None:
        """Read the roster file again when it changed since it was last read, and end the sign-ins whose name
        left it or whose token was replaced. A roster that no longer reads is logged and the last good one kept.

        The file is read and parsed in a worker thread, never on the event loop every tab's keys and screens wait on
        (a roster of 3,000 names took 2.3 s to parse: each ``roster add`` of a latecomer froze every tab of the
        class and every page that long); a request that comes meanwhile waits for that read, so a name removed or a
        token rotated still ends its sign-ins before that request is answered."""
        reading = self._roster_reading or self._look_at_roster()
        if reading is not None:  # the read's own callback uses it (also when this request is cancelled), or says
            with contextlib.suppress(Exception):  # in the log why it could not be read: the last roster stays in use
                await asyncio.shield(reading)

    @staticmethod
    def stamp_of(path: Path) -> tuple[int, int]:
        """The roster file's modification time (ns) and size, ``(0, 0)`` when it cannot be looked at (gone)."""
        try:
            st = os.stat(path)
        except OSError:
            return (0, 0)
        return (st.st_mtime_ns, st.st_size)

    def _look_at_roster(self) -> asyncio.Future[Roster | None] | None:
        """Start reading the roster file in a worker thread when it changed (looked at once a second at most): the
        read, which :meth:`_roster_read` uses when done; None when there is nothing to read."""
        if self.roster_path is None or self.roster is None:
            return None
        now = time.monotonic()
        if now - self._roster_looked < _ROSTER_LOOK:
            return None
        self._roster_looked = now
        stamp = self.stamp_of(self.roster_path)
        if self.roster_stamp is None:
            self.roster_stamp = stamp
            return None
        if stamp == self.roster_stamp:
            return None
        self.roster_stamp = stamp
        if stamp == (0, 0):  # gone (moved, deleted, an editor between delete and write): Roster.load reads no file as
            # an empty roster, which ended every sign-in (the facilitator's too) and let nobody sign in again
            log.error("the roster file %s is gone; the last one read stays in use", self.roster_path)
            return None
        reading = asyncio.get_running_loop().run_in_executor(None, _read_roster, self.roster_path)
        self._roster_reading = reading
        reading.add_done_callback(self._roster_read)
        return reading

    def _roster_read(self, reading: asyncio.Future[Roster | None]) -> None:
        """The roster file read again (:meth:`_look_at_roster`): use it, ending the sign-ins whose name left it or
        whose token or role changed; a roster that did not read (said in the log) keeps the last one read."""
        self._roster_reading = None
        if reading.cancelled():  # the server stops
            return
        if reading.exception() is not None:  # not a roster problem (those are said by _read_roster): the last one kept
            log.error("the roster changed and could not be read; the last one read stays in use: %s",
                      reading.exception())  # fmt: skip
            return
        roster = reading.result()
        if roster is None:
            return
        self.roster = roster
        log.info("roster read again: %d names", len(self.roster.entries))
        for key, record in list(self._records.items()):
            same_token = self.roster.entries.get(record.name) == record.token_hash
            if not same_token or self.roster.role_of(record.name) != record.role:
                self._end(key)

    def _end(self, key: str) -> None:
        record = self._records.pop(key, None)
        if record is not None and self.on_change is not None:
            self.on_change(key, None)

    def _end_oldest_of(self, name: str, keep: int) -> None:
        """End ``name``'s oldest sign-ins until it holds at most ``keep`` (:data:`MAX_SIGNINS_PER_NAME`)."""
        mine = [key for key, record in self._records.items() if record.name == name]  # the oldest first
        for key in mine[: max(0, len(mine) - keep)]:
            self._end(key)

    def signin_of(self, request: web.Request) -> SignIn | None:
        """The valid sign-in of a request's cookie, or None (none, unknown, expired, or the cookies name more than
        one sign-in still valid: one was set by another site, :func:`sent_signin_ids`, and which is this browser's
        own cannot be told)."""
        key = self._signin_key(request)
        record = self._records.get(key) if key is not None else None
        if key is None or record is None:
            return None
        if time.monotonic() - record.since > SIGNIN_LIFETIME:
            self._end(key)
            return None
        return record

    def signin_id(self, request: web.Request) -> str | None:
        """The sign-in id of a request with a valid sign-in, else None."""
        return self._signin_key(request) if self.signin_of(request) is not None else None

    def _signin_key(self, request: web.Request) -> str | None:
        """The one sign-in id of the request's cookies that is a sign-in of this server; None when none is, or
        when more than one is (:meth:`signin_of`)."""
        known = [key for key in dict.fromkeys(sent_signin_ids(request)) if key in self._records]
        return known[0] if len(known) == 1 else None

    def two_signins(self, request: web.Request) -> bool:
        """True when the request's cookies name more than one sign-in of this server (:meth:`signin_of`)."""
        return len([key for key in dict.fromkeys(sent_signin_ids(request)) if key in self._records]) > 1

    def trainee_of(self, request: web.Request) -> str | None:
        """The trainee a request comes from: the roster name of its valid sign-in cookie when its role is trainee,
        the default trainee when the server has no roster, else None (not signed in, or a facilitator)."""
        if self.roster is None:
            return self.default_trainee
        record = self.signin_of(request)
        return record.name if record is not None and record.role == TRAINEE else None

    def facilitator_of(self, request: web.Request) -> str | None:
        """The facilitator a request comes from (the roster name of a facilitator's valid sign-in), else None."""
        record = self.signin_of(request) if self.roster is not None else None
        return record.name if record is not None and record.role == FACILITATOR else None

    async def handle_get(self, request: web.Request) -> web.StreamResponse:
        """``GET /signin``: the form (or straight to the war room when there is no roster)."""
        if self.roster is None:
            raise web.HTTPSeeOther("/")
        if self.two_signins(request):  # sent here by the middleware: neither is used
            log.warning("a browser at %s sent two sign-ins of this server (one set by a page of another site of this "
                        "domain?): it is asked to sign in again", client_of(request, self.proxies))  # fmt: skip
            return signin_page("This browser holds two sign-ins for this war room (a page of another site can set "
                               "one): sign in again, and tell your facilitator.")  # fmt: skip
        return signin_page()

    async def handle_post(self, request: web.Request) -> web.StreamResponse:
        """``POST /signin`` (form fields ``name`` and ``token``): on a roster match, a cookie and a redirect to the
        war room, or for a facilitator to the console (303); else the form again with HTTP 401. The hash check runs
        off the event loop; both outcomes are logged with the name."""
        if self.roster is None:
            raise web.HTTPSeeOther("/")
        await self.reload_roster()
        form = await read_form(request, self.proxies)
        name, token = str(form.get("name", ""))[:_MAX_FIELD], str(form.get("token", ""))[: _MAX_FIELD + 1]
        roster = self.roster
        trainee = None

        async def attempt() -> bool:
            nonlocal trainee
            async with self._checks:
                trainee = await asyncio.get_running_loop().run_in_executor(None, roster.check, name, token)
            return trainee is not None

        refused = await self.throttle.check(client_of(request, self.proxies), attempt)
        if refused is not None:
            response = signin_page(refused, status=429)
            response.headers["Retry-After"] = "".join(c for c in refused if c.isdigit()) or "1"
            return response
        if trainee is None:
            log.warning("sign-in refused: %s from %s", _quoted_name(name), client_of(request, self.proxies))
            return signin_page("That name and token are not on the roster.", status=401)
        now = time.monotonic()
        for old in [k for k, r in self._records.items() if now - r.since > SIGNIN_LIFETIME]:
            self._end(old)  # expired sign-ins
        cookie = cookie_name(request)
        for old in sent_signin_ids(request):  # this browser's sign-in before (another name, or the same): its id
            # lived on 12 hours after the browser had a new one (a shared computer's next trainee left the last one's);
            # and one another site set under this server's cookie name: the new sign-in is then the only one valid
            self._end(old)
        self._end_oldest_of(trainee, keep=MAX_SIGNINS_PER_NAME - 1)
        signin_id = secrets.token_urlsafe(32)
        record = SignIn(trainee, roster.role_of(trainee), roster.entries[trainee], now)
        self._records[signin_id] = record
        log.info("sign-in: %s (%s) from %s", _quoted_name(trainee), record.role, client_of(request, self.proxies))
        if self.on_change is not None:
            self.on_change(signin_id, record)
        response = web.HTTPSeeOther(CONSOLE_PREFIX if record.role == FACILITATOR else "/")
        response.set_cookie(cookie, signin_id, httponly=True, samesite="Strict", max_age=SIGNIN_LIFETIME, path="/",
                            secure=over_https(request) or None)  # fmt: skip
        raise response  # an HTTPException is raised (aiohttp deprecates returning one), its cookie with it

    async def handle_signout(self, request: web.Request) -> web.StreamResponse:
        """``POST /signout``: end this browser's sign-in and go back to the sign-in page."""
        cookie = cookie_name(request)
        for key in sent_signin_ids(request):
            self._end(key)
        response = web.HTTPSeeOther("/signin")
        response.del_cookie(cookie, path="/")
        raise response

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Let a request through only when it is the sign-in page or comes from a browser signed in with the role
        its path needs (the console: a facilitator; the war room and the trainee's own pages: a trainee); else the
        browser is sent to the sign-in page (``GET /``), pointed to its own pages, or refused with 401 (anything
        else: the terminal's websocket, scripts, styles, downloads)."""
        await self.reload_roster()
        path = request.path
        if request.method not in ("GET", "HEAD", "OPTIONS") and from_another_site(request):
            # a form posted by another site's page: a sign-in there (login CSRF) made the trainee's browser play, and
            # store its sessions, as the roster name of whoever wrote that page
            return self.another_site_page(request, "form")
        if path in ("/signin", "/signout"):
            return await handler(request)
        console = path == CONSOLE_PREFIX or path.startswith(CONSOLE_PREFIX + "/")
        if console and self.facilitator_of(request) is not None:
            return await handler(request)
        if not console and self.trainee_of(request) is not None:
            return await handler(request)
        if self.roster is None:  # no roster, no facilitator: the console is not served
            return page("War Room: no console", "<p>The facilitator's console needs a roster with a facilitator "
                        "(<code>warroom serve roster add --facilitator</code>).</p>", 404)
        if self.facilitator_of(request) is not None:  # a facilitator asking for a war room
            if path == "/" and request.method == "GET":
                raise web.HTTPSeeOther(CONSOLE_PREFIX)
            return page("War Room: a facilitator's sign-in", '<p>A facilitator signs in to the <a href="/console">'
                        "console</a>, not to a war room.</p>", 403)
        if self.trainee_of(request) is not None:  # a trainee asking for the console
            return page("War Room: facilitators only", '<p>The console is for facilitators. <a href="/">Back to '
                        "your war room</a>.</p>", 403)
        mine = path == "/mine" or path.startswith("/mine/")  # a page too: a sign-in ended (a name removed from the
        # roster, a token rotated) got a 401 there, not the sign-in page the docs promise for the next request
        if request.method == "GET" and (path in ("/", ANOTHER_TAB_PATH) or console or mine):
            raise web.HTTPSeeOther("/signin")
        return page("War Room: sign in first", '<p><a href="/signin">Sign in</a> to use the war room.</p>', 401)
