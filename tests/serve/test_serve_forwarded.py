"""``warroom serve --forwarded-allow-ips``, through the real server: ``X-Forwarded-For`` names the client (for the
sign-in limit and the log) only when the request comes from a proxy the operator named; by default no proxy is
trusted, loopback neither, so a process of the host cannot dodge the limit by writing the header (issue 30)."""

from __future__ import annotations

import aiohttp
from serve_support import TOKENS, serving

from warroom.serve import _signin as signin


async def _wrong(http: aiohttp.ClientSession, forwarded: str) -> int:
    headers = {"X-Forwarded-For": forwarded}
    async with http.post("/signin", data={"name": "Ada Lovelace", "token": "wrong"}, headers=headers) as r:
        return r.status


async def test_by_default_a_forwarded_header_is_not_trusted_even_from_this_host(tmp_path):
    with serving(tmp_path) as served:
        async with aiohttp.ClientSession(base_url=served.url) as http:
            statuses = [await _wrong(http, f"10.1.0.{i}") for i in range(signin.CLIENT_FAILURES + 1)]
            assert statuses == [401] * signin.CLIENT_FAILURES + [429]  # each new address counted as this one
            async with http.post("/signin", data={"name": "Ada Lovelace", "token": TOKENS["Ada Lovelace"]},
                                 headers={"X-Forwarded-For": "10.9.9.9"}, allow_redirects=False) as r:  # fmt: skip
                assert r.status == 429  # the limit is this client's, whatever it claims to forward
        log = served.log.read_text()
    assert "sign-in refused: 'Ada Lovelace' from 127.0.0.1\n" in log and "10.1.0." not in log


async def test_a_named_proxy_s_forwarded_header_names_the_client_for_the_limit_and_the_log(tmp_path):
    with serving(tmp_path, "--forwarded-allow-ips", "127.0.0.1") as served:
        async with aiohttp.ClientSession(base_url=served.url) as http:
            statuses = [await _wrong(http, "1.2.3.4, 10.1.0.1") for _ in range(signin.CLIENT_FAILURES + 1)]
            assert statuses == [401] * signin.CLIENT_FAILURES + [429]  # the client the proxy saw, counted
            assert await _wrong(http, "10.1.0.2") == 401  # another client behind the proxy: its own count
            async with http.post("/signin", data={"name": "Ada Lovelace", "token": TOKENS["Ada Lovelace"]},
                                 headers={"X-Forwarded-For": "10.1.0.3"}, allow_redirects=False) as r:  # fmt: skip
                assert r.status == 303
        log = served.log.read_text()
    assert "sign-in refused: 'Ada Lovelace' from 10.1.0.1\n" in log and "from 1.2.3.4" not in log
    assert "sign-in refused: 'Ada Lovelace' from 10.1.0.2\n" in log
    assert "INFO sign-in: 'Ada Lovelace' (trainee) from 10.1.0.3\n" in log


def test_a_proxy_that_is_no_address_is_a_usage_error(tmp_path):
    from click.testing import CliRunner

    from warroom.cli import main

    r = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "serve", "--forwarded-allow-ips", "127.0.0.1,proxy"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "Invalid value for '--forwarded-allow-ips': 'proxy' is neither an IP address nor a network" in r.output
