"""Which client a request comes from, for ``warroom serve``'s sign-in limits and its log: the address that
connected, unless it is a reverse proxy the operator named (``--forwarded-allow-ips``), whose ``X-Forwarded-For``
then says who connected to it.

No proxy is trusted by default: ``X-Forwarded-For`` is a header any client writes, so trusting it from an address
the operator did not name (loopback included: any process of the host, a trainee's shell on a shared machine)
would let that client choose the address its wrong sign-ins count against, and the address the log shows.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from typing import Any

from aiohttp import web

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
#: The most hops of ``X-Forwarded-For`` looked at (a longer chain is a made-up one: the client is the proxy's peer).
_MAX_HOPS = 16
#: The IPv4-mapped IPv6 addresses (``::ffff:1.2.3.4``).
_MAPPED = ipaddress.IPv6Network("::ffff:0:0/96")


def trusted_proxies(text: str) -> tuple[Network, ...]:
    """The proxies named by ``--forwarded-allow-ips``: addresses or networks (``127.0.0.1``, ``10.0.0.0/8``,
    ``::1``), separated by commas. Raises ValueError naming the first that is neither."""
    networks = []
    for part in text.split(","):
        item = part.strip()
        if not item:
            continue
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ValueError(f"{item[:60]!r} is neither an IP address nor a network (such as 10.0.0.0/8)") from None
    return tuple(networks)


def wide_proxies_warning(proxies: Sequence[Network]) -> str | None:
    """The warning ``warroom serve`` gives at its start when ``proxies`` (``--forwarded-allow-ips``) trust every
    client of an address family: the networks named, together, hold every IPv4 address (``0.0.0.0/0``, or
    ``0.0.0.0/1,128.0.0.0/1``..., or ``::ffff:0:0/96``: an IPv4 client of a server listening on IPv6 connects
    as ``::ffff:1.2.3.4``) or every IPv6 address (``::/0``). Any client can then write ``X-Forwarded-For``
    and so choose the address its sign-ins count against and the log shows. None when they do not."""
    mapped = [ipaddress.IPv4Network((int(n.network_address) & 0xFFFFFFFF, max(n.prefixlen - 96, 0)))
              for n in proxies if isinstance(n, ipaddress.IPv6Network) and n.overlaps(_MAPPED)]  # fmt: skip
    v4 = ipaddress.collapse_addresses([*(n for n in proxies if isinstance(n, ipaddress.IPv4Network)), *mapped])
    v6 = ipaddress.collapse_addresses(n for n in proxies if isinstance(n, ipaddress.IPv6Network))
    everyone = [f"every IPv{version} client" for version, whole, collapsed in
                ((4, ipaddress.IPv4Network("0.0.0.0/0"), v4), (6, ipaddress.IPv6Network("::/0"), v6))
                if list(collapsed) == [whole]]  # fmt: skip
    if not everyone:
        return None
    return (f"--forwarded-allow-ips trusts {' and '.join(everyone)} as a reverse proxy: each can write "
            f"X-Forwarded-For and so choose its own address for the sign-in limits and the server's log; name only "
            f"your reverse proxies (such as 127.0.0.1, or the proxy's own address)")  # fmt: skip


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address of one hop: an IP address, with a port as some proxies write it (``1.2.3.4:5678``,
    ``[2001:db8::1]:443``) or without; an IPv6 zone (``fe80::1%eth0``) dropped, since it is text whoever wrote the
    hop chose (the address is the client's identity for the limit, and is logged). None: not an address."""
    host = text.strip()
    if host.startswith("["):  # [IPv6], or [IPv6]:port
        host, _, port = host[1:].partition("]")
        if port and not (port.startswith(":") and _is_port(port[1:])):
            return None
    elif host.count(":") == 1:  # IPv4:port
        host, _, port = host.partition(":")
        if not _is_port(port):
            return None
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.scope_id is not None:
        return ipaddress.IPv6Address(int(address))
    return address


def _is_port(text: str) -> bool:
    return text.isascii() and text.isdigit() and len(text) <= 5


def _trusted(address: ipaddress.IPv4Address | ipaddress.IPv6Address | None, proxies: Sequence[Network]) -> bool:
    return address is not None and any(address in network for network in proxies)


def client_of(request: web.Request, proxies: Sequence[Network] = ()) -> str:
    """The client ``request`` comes from: the address that connected; when that address is one of ``proxies``, the
    last address of ``X-Forwarded-For`` (every such header, in order) that is not itself one of ``proxies``: the
    address the nearest trusted proxy saw. A hop that is not an address (the header is written by whoever sent
    it) stops the walk at the proxy's own word: the last trusted hop's address. A request aiohttp could not parse
    (its answer a 400) has its headers in a plain ``dict``, without ``getall``: its one header of the name is read."""
    remote = request.remote or "?"
    client = _address(remote)
    if not _trusted(client, proxies):
        return remote
    headers: Any = request.headers
    found = headers.getall("X-Forwarded-For", []) if hasattr(headers, "getall") else [
        value for name, value in headers.items() if str(name).lower() == "x-forwarded-for"]  # fmt: skip
    hops = [hop for header in found for hop in str(header).split(",")]
    for hop in reversed(hops[-_MAX_HOPS:]):
        address = _address(hop)
        if address is None:
            break
        client = address
        if not _trusted(address, proxies):
            break
    return str(client)


def limit_key(client: str) -> str:
    """Whose sign-in limit ``client`` (an address, as :func:`client_of` gives it) counts against: an IPv4 address
    its own; an IPv6 address its /64 network, the block one site (one host, or one LAN) is given, inside which a
    client picks any source address it likes (so one address each would be no limit at all); an IPv4 address
    written as IPv6 (``::ffff:1.2.3.4``) the IPv4 address. Anything else (``?``) as it is."""
    address = _address(client)
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return client if address is None else str(address)


def client_access_logger(proxies: Sequence[Network]) -> type:
    """aiohttp's access logger with each request's line naming its client (:func:`client_of`): behind a reverse proxy
    named with ``--forwarded-allow-ips``, the address that proxy saw, as the sign-in lines do. Every request's line
    named the proxy's own address (``127.0.0.1`` for a class behind a proxy on the same host), so the log could not
    tell one trainee's requests, or a flood's, from the class's."""
    from aiohttp.web_log import AccessLogger

    class ClientAccessLogger(AccessLogger):
        def _format_line(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> list[Any]:
            line = list(super()._format_line(request, response, time))
            if proxies and isinstance(request, web.Request):
                client = client_of(request, proxies)
                line = [(key, client if key == "remote_address" else value) for key, value in line]
            return line

    return ClientAccessLogger
