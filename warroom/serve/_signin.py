"""Sign-in for ``warroom serve``: the sign-in page, the cookie that marks a signed-in browser, and the pages the
server answers with instead of the war room (too many sessions, not signed in).

A browser signs in by posting a trainee name and token from the roster; the server then keeps a record (random id
-> trainee name) and sets a cookie holding the id (``HttpOnly``, ``SameSite=Strict``). The trainee of every app
process started for that browser is the roster's name in that record: nothing the browser sends names the trainee.
"""

from __future__ import annotations

import asyncio
import html
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web
from aiohttp.typedefs import Handler

if TYPE_CHECKING:
    from warroom.serve._roster import Roster

__all__ = ["COOKIE", "ClientThrottle", "SignIns", "client_of", "page"]

#: Name of the cookie holding a sign-in id.
COOKIE = "warroom_signin"
#: Seconds a sign-in stays valid (a long class day).
SIGNIN_LIFETIME = 12 * 3600
#: Longest name or token read from the sign-in form, in characters.
_MAX_FIELD = 200

_STYLE = """
body { background: #0c181f; color: #e8eef2; font-family: menlo, "Roboto Mono", monospace; display: flex;
       align-items: center; justify-content: center; min-height: 90vh; }
main { background: #12232d; padding: 2em 3em; max-width: 36em; }
label { display: block; margin: 1em 0 .3em; }
input { width: 100%; padding: .4em; font: inherit; }
button { margin-top: 1.5em; padding: .6em 2em; font: inherit; background: #5e0ba7; color: #fff; border: none; }
.problem { color: #ff9c8a; }
"""


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
        f"{note}<p>Sign in with the name and token your facilitator gave you.</p>"
        '<form method="post" action="/signin">'
        '<label for="name">Name</label><input id="name" name="name" autocomplete="username" required>'
        '<label for="token">Token</label>'
        '<input id="token" name="token" type="password" autocomplete="current-password" required>'
        '<button type="submit">Sign in</button></form>'
    )
    return page("War Room: sign in", form, status)


#: Sign-in attempts one client (an address) may have waiting to be checked; its checks run one at a time, so a
#: class behind one address (a school's NAT) signs in one after the other, each in tens of milliseconds.
CLIENT_WAITING = 64
#: Wrong sign-ins one client may make in :data:`FAILURE_WINDOW` seconds; past that, its attempts are refused (HTTP
#: 429) until the window has moved on, without hashing anything.
CLIENT_FAILURES = 20
FAILURE_WINDOW = 60.0
#: Most clients remembered at once (the least recent idle ones are forgotten first).
_MAX_CLIENTS = 10_000


def client_of(request: web.Request) -> str:
    """The client a sign-in comes from: its address; for a request from this host carrying ``X-Forwarded-For`` (a
    reverse proxy on the same host, terminating TLS), the address the proxy saw (the header's last entry)."""
    import ipaddress

    remote = request.remote or "?"
    forwarded = request.headers.get("X-Forwarded-For", "")
    try:
        local = ipaddress.ip_address(remote).is_loopback
    except ValueError:
        local = False
    if local and forwarded.strip():
        return forwarded.split(",")[-1].strip()[:100] or remote
    return remote


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
        one; returns why it was refused instead, or None when it ran (its result is the caller's)."""
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


@dataclass
class SignIns:
    """The signed-in browsers of one server: sign-in id -> (trainee name, time signed in (``time.monotonic``)).

    With no roster (``roster`` None) nobody signs in and every browser runs as ``default_trainee``."""

    roster: Roster | None
    default_trainee: str
    _records: dict[str, tuple[str, float]] = field(default_factory=dict)
    #: At most this many token hashes are computed at once (each takes tens of ms and 16 MiB): sign-in attempts wait
    #: their turn instead of taking the host's CPU and memory from the sessions.
    _checks: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(2))
    #: What each client may ask for (a flood from one client is refused, not queued in front of the others).
    throttle: ClientThrottle = field(default_factory=ClientThrottle)

    def trainee_of(self, request: web.Request) -> str | None:
        """The trainee a request comes from: the roster name of its valid sign-in cookie, the default trainee when
        the server has no roster, else None (not signed in)."""
        if self.roster is None:
            return self.default_trainee
        record = self._records.get(request.cookies.get(COOKIE, ""))
        if record is None:
            return None
        name, since = record
        if time.monotonic() - since > SIGNIN_LIFETIME:
            self._records.pop(request.cookies.get(COOKIE, ""), None)
            return None
        return name

    async def handle_get(self, request: web.Request) -> web.StreamResponse:
        """``GET /signin``: the form (or straight to the war room when there is no roster)."""
        if self.roster is None:
            raise web.HTTPSeeOther("/")
        return signin_page()

    async def handle_post(self, request: web.Request) -> web.StreamResponse:
        """``POST /signin`` (form fields ``name`` and ``token``): on a roster match, a cookie and a redirect to the
        war room (303); else the form again with HTTP 401. The hash check runs off the event loop."""
        if self.roster is None:
            raise web.HTTPSeeOther("/")
        form = await request.post()
        name, token = str(form.get("name", ""))[:_MAX_FIELD], str(form.get("token", ""))[: _MAX_FIELD + 1]
        roster = self.roster
        trainee = None

        async def attempt() -> bool:
            nonlocal trainee
            async with self._checks:
                trainee = await asyncio.get_running_loop().run_in_executor(None, roster.check, name, token)
            return trainee is not None

        refused = await self.throttle.check(client_of(request), attempt)
        if refused is not None:
            response = signin_page(refused, status=429)
            response.headers["Retry-After"] = "".join(c for c in refused if c.isdigit()) or "1"
            return response
        if trainee is None:
            return signin_page("That name and token are not on the roster.", status=401)
        now = time.monotonic()
        for old in [k for k, (_, since) in self._records.items() if now - since > SIGNIN_LIFETIME]:
            del self._records[old]  # expired sign-ins
        signin_id = secrets.token_urlsafe(32)
        self._records[signin_id] = (trainee, now)
        response = web.HTTPSeeOther("/")
        response.set_cookie(COOKIE, signin_id, httponly=True, samesite="Strict", max_age=SIGNIN_LIFETIME, path="/")
        return response

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Let a request through only when it is the sign-in page or comes from a signed-in browser; else the
        browser is sent to the sign-in page (``GET /``) or refused with 401 (anything else: the terminal's
        websocket, scripts, styles, downloads)."""
        if request.path == "/signin" or self.trainee_of(request) is not None:
            return await handler(request)
        if request.path == "/" and request.method == "GET":
            raise web.HTTPSeeOther("/signin")
        return page("War Room: sign in first", '<p><a href="/signin">Sign in</a> to use the war room.</p>', 401)
