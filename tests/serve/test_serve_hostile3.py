"""A third fresh hostile campaign on ``warroom serve`` (issue 30): each case a hostile client or a faulty world found,
with the right behaviour."""

from __future__ import annotations

import aiohttp
import pytest
from serve_support import serving, shared_serving

from warroom.serve import _signin as signin


async def _wrong(http: aiohttp.ClientSession, forwarded: str) -> int:
    headers = {"X-Forwarded-For": forwarded}
    async with http.post("/signin", data={"name": "Ada Lovelace", "token": "wrong"}, headers=headers) as r:
        return r.status


HOPS = [("10.1.0.1:51234", "10.1.0.2:40000", "10.1.0.1"), ("[2001:db8::1]:443", "[2001:db8:0:1::2]:443", "2001:db8::1"),
        ("fe80::1%eth0", "fe80:0:0:1::2%eth0", "fe80::1")]  # fmt: skip


@pytest.fixture(scope="module")
def proxied_server(tmp_path_factory):
    """One `warroom serve` behind a named proxy for every hop of :data:`HOPS` (a server each cost a second of CPU and
    a start): each hop's clients are addresses of their own, so one hop's count never reaches another's."""
    with shared_serving(tmp_path_factory.mktemp("proxied"), "--forwarded-allow-ips", "127.0.0.1") as served:
        yield served


@pytest.mark.parametrize(("first", "second", "logged"), HOPS)
async def test_a_proxy_that_writes_ports_or_zones_still_names_each_client(proxied_server, first, second, logged):
    """A named proxy that writes its client's port (``10.1.0.1:51234``, ``[2001:db8::1]:443``: Azure's, IIS's) or
    an IPv6 zone: the hop was no address, so the walk stopped at the proxy and every trainee behind it was one
    client (one limit for the class: one client's wrong guesses locked everybody out for a minute). Each hop is read
    as its address; a zone (text the hop's writer chose) is neither the client's identity nor logged."""
    served = proxied_server
    async with aiohttp.ClientSession(base_url=served.url) as http:
        statuses = [await _wrong(http, first) for _ in range(signin.CLIENT_FAILURES + 1)]
        assert statuses == [401] * signin.CLIENT_FAILURES + [429]
        assert await _wrong(http, second) == 401  # another client behind the proxy: its own count
    log = served.log.read_text()
    assert f"sign-in refused: 'Ada Lovelace' from {logged}\n" in log and "from 127.0.0.1" not in log
    assert "%" not in log


async def test_a_client_that_changes_its_ipv6_address_inside_its_64_is_still_one_client(tmp_path):
    """An IPv6 client picks any source address of its /64 (every host is given one): each wrong sign-in from a new
    address counted against a fresh limit, so one client had no limit at all (and as many hashes at once as it
    liked, in front of everybody's sign-in). A /64 is one client for the limit; the log keeps each address; a client
    of another /64, or of IPv4, counts apart; ``::ffff:1.2.3.4`` is ``1.2.3.4``."""
    with serving(tmp_path, "--forwarded-allow-ips", "127.0.0.1") as served:
        async with aiohttp.ClientSession(base_url=served.url) as http:
            statuses = [await _wrong(http, f"2001:db8::{i:x}") for i in range(1, signin.CLIENT_FAILURES + 2)]
            assert statuses == [401] * signin.CLIENT_FAILURES + [429]
            assert await _wrong(http, "2001:db8::ffff:1") == 429  # the same /64
            assert await _wrong(http, "2001:db8:0:1::1") == 401  # the next /64: another site
            assert [await _wrong(http, a) for a in ["1.2.3.4"] * 10 + ["::ffff:1.2.3.4"] * 11] == [401] * 20 + [429]
        log = served.log.read_text()
    assert "sign-in refused: 'Ada Lovelace' from 2001:db8::2\n" in log
