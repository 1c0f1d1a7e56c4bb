"""The names ``warroom serve`` answers to: a request's ``Host`` must be one of them (DNS rebinding).

A web page of another site cannot read this server's pages, nor open its war room's websocket, as long as the browser
sees them as another site's. **DNS rebinding** undoes that: a site's page (``http://evil.example:8000/``, visited by
the trainee) has its name answer ``127.0.0.1`` a moment later, and the browser, taking ``evil.example`` for the same
site still, lets the page read this server's pages and open a war room tab, as the local trainee when the server has
no roster (a websocket's ``Origin`` is then ``http://evil.example:8000``, the request's ``Host`` the same name: the
same-site check passes). The request's ``Host`` still says the name the browser asked for, so the server answers
only the names it is reached by (:class:`HostNames`): any IP address (a page at an address is this server's own
site, not another's), ``localhost`` and names under ``.localhost`` (which resolve to loopback only), the name given
to ``--host``, this machine's own host names, and the names given with ``--allowed-host`` (a reverse proxy's public
name, a DNS name of the class's server). Anything else gets HTTP 421 with a page saying what to do
(:func:`misdirected_page`).
"""

from __future__ import annotations

import contextlib
import html
import ipaddress
import logging
import re
import socket
from dataclasses import dataclass, field

from aiohttp import web
from aiohttp.typedefs import Handler

from warroom.serve._signin import page

log = logging.getLogger("warroom.serve")

#: Distinct refused host names the server log names (then it names no more: a page asking for a new name each time
#: would otherwise write the log full).
MAX_REFUSED_NAMES_LOGGED = 20

#: Names that resolve to this machine's loopback only (RFC 6761: ``localhost`` and every name under it).
_LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"})


#: A ``Host`` header: a name (letters, digits, ``-``, ``_``, ``.``) or an IPv4 address, or an IPv6 address in brackets
#: (a zone after ``%``), then at most a port of digits.
_HOST_HEADER = re.compile(r"(?:[A-Za-z0-9_.-]+|\[[0-9A-Fa-f:.]+(?:%[A-Za-z0-9_.-]+)?\])(?::[0-9]{1,5})?")


def well_formed(host: str) -> bool:
    """True when ``host`` is a ``Host`` header at all (:data:`_HOST_HEADER`, or a bare IPv6 address)."""
    return bool(_HOST_HEADER.fullmatch(host.strip())) or _is_address(host.strip())


def refused_name(host: str) -> str:
    """The name a refused ``Host`` header is said by: its :func:`host_name`, or the whole header in lower case when it
    is none (``127.0.0.1:8000/evil`` is not the name ``127.0.0.1``)."""
    return host_name(host) if well_formed(host) else host.strip().lower()


def host_name(host: str) -> str:
    """The name of a ``Host`` header (``name:port``, ``[::1]:8000``, ``1.2.3.4``), without its port and a final dot,
    in lower case: ``EXAMPLE.org.:80`` -> ``example.org``; ``[::1]:8000`` -> ``::1``."""
    host = host.strip()
    if host.startswith("["):  # an IPv6 address, its port after the bracket
        return host[1:].partition("]")[0].lower()
    if host.count(":") == 1:
        host = host.partition(":")[0]
    return host.rstrip(".").lower()


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name.partition("%")[0])
    except ValueError:
        return False
    return True


def _machine_names() -> set[str]:
    """This machine's own host names (``gethostname``, its fully qualified name, and ``NAME.local``, its mDNS name)."""
    names = {socket.gethostname()}
    with contextlib.suppress(OSError):  # no resolver: the fully qualified name is not known
        names.add(socket.getfqdn())
    short = socket.gethostname().partition(".")[0]
    return {host_name(n) for n in names | {short, f"{short}.local"} if n}


@dataclass(frozen=True)
class HostNames:
    """The host names a server answers to: ``bound`` (its ``--host``), ``allowed`` (``--allowed-host``, repeated),
    this machine's names, the loopback names and every IP address."""

    bound: str = "127.0.0.1"
    allowed: tuple[str, ...] = ()
    names: frozenset[str] = field(default=frozenset(), init=False)
    #: The refused names the log has named (each once, at most :data:`MAX_REFUSED_NAMES_LOGGED`).
    logged: set[str] = field(default_factory=set, init=False, compare=False)

    def __post_init__(self) -> None:
        names = {host_name(n) for n in (self.bound, *self.allowed) if n.strip()} | _machine_names() | _LOOPBACK_NAMES
        object.__setattr__(self, "names", frozenset(names))

    def allows(self, host: str) -> bool:
        """True when a request whose ``Host`` header is ``host`` names this server (its port is not looked at) and is
        a host header at all: a name or an address, and a port of digits (``127.0.0.1:8000/evil``, ``[::1]evil``
        and ``localhost:x<y`` were answered as the allowed name they start with, and went on whole into the terminal
        page's URLs)."""
        name = host_name(host)
        if not well_formed(host):
            return False
        return _is_address(name) or name in self.names or name.endswith(".localhost")

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Answer a request only when its ``Host`` names this server; else :func:`misdirected_page`."""
        if not self.allows(request.host):
            self._log_refused(refused_name(request.host))
            return misdirected_page(request.host)
        return await handler(request)

    def _log_refused(self, name: str) -> None:
        """Say in the server log, once per name, that a request for ``name`` was refused and what to do: an
        operator behind a reverse proxy learns the fix from the log, not only from a browser's page."""
        if name in self.logged or len(self.logged) >= MAX_REFUSED_NAMES_LOGGED:
            return
        self.logged.add(name)
        more = "; no other refused name will be logged" if len(self.logged) == MAX_REFUSED_NAMES_LOGGED else ""
        log.warning("refused a request for the host name %r (HTTP 421): if this server is known by that name (a "
                    "reverse proxy's, the class server's DNS name), start it with --allowed-host and that name%s",
                    name[:200], more)  # fmt: skip


def misdirected_page(host: str) -> web.Response:
    """The HTTP 421 page of a request for a name this server does not answer to: what to do."""
    name = html.escape(refused_name(host)[:200])
    body = (
        f"<p>This war room server is not known as <code>{name}</code>, the name this page was asked for: a page of "
        "another site that had its name point at this machine (DNS rebinding) is refused this way.</p>"
        "<p>Open the war room at its own address (the one <code>warroom serve</code> printed, such as "
        "<code>http://127.0.0.1:8000/</code>). If this is its name (a reverse proxy's, or the class server's DNS "
        f"name), start the server with <code>--allowed-host {name}</code>.</p>"
    )
    return page("War Room: unknown host name", body, status=421)
