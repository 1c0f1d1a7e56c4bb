"""A third fresh hostile campaign on ``warroom serve`` (issue 30): each case a hostile client or a faulty world found,
with the right behaviour."""

from __future__ import annotations

import aiohttp
import pytest
from serve_support import serving

from warroom.serve import _signin as signin


async def _wrong(http: aiohttp.ClientSession, forwarded: str) -> int:
    headers = {"X-Forwarded-For": forwarded}
    async with http.post("/signin", data={"name": "Ada Lovelace", "token": "wrong"}, headers=headers) as r:
        return r.status


@pytest.mark.parametrize(("first", "second", "logged"), [("10.1.0.1:51234", "10.1.0.2:40000", "10.1.0.1"),
                                                         ("[2001:db8::1]:443", "[2001:db8::2]:443", "2001:db8::1"),
                                                         ("fe80::1%eth0", "fe80::2%eth0", "fe80::1")])  # fmt: skip
async def test_a_proxy_that_writes_ports_or_zones_still_names_each_client(tmp_path, first, second, logged):
    """A named proxy that writes its client's port (``10.1.0.1:51234``, ``[2001:db8::1]:443``: Azure's, IIS's) or
    an IPv6 zone: the hop was no address, so the walk stopped at the proxy and every trainee behind it was one
    client (one limit for the class: one client's wrong guesses locked everybody out for a minute). Each hop is read
    as its address; a zone (text the hop's writer chose) is neither the client's identity nor logged."""
    with serving(tmp_path, "--forwarded-allow-ips", "127.0.0.1") as served:
        async with aiohttp.ClientSession(base_url=served.url) as http:
            statuses = [await _wrong(http, first) for _ in range(signin.CLIENT_FAILURES + 1)]
            assert statuses == [401] * signin.CLIENT_FAILURES + [429]
            assert await _wrong(http, second) == 401  # another client behind the proxy: its own count
        log = served.log.read_text()
    assert f"sign-in refused: 'Ada Lovelace' from {logged}\n" in log and "from 127.0.0.1" not in log
    assert "%" not in log
