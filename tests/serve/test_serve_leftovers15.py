"""The leftovers of campaign 18 on `warroom serve` (issue 30): behind a reverse proxy, each log line names the
client."""

from __future__ import annotations

import asyncio
import ipaddress
import logging
from unittest import mock

import pytest
from aiohttp import web
from aiohttp.test_utils import make_mocked_request

PROXIES = (ipaddress.ip_network("127.0.0.1/32"),)


def _behind_proxy() -> web.Request:
    """A request the proxy on 127.0.0.1 forwarded for the client 203.0.113.9."""
    transport = mock.Mock()
    transport.get_extra_info.return_value = ("127.0.0.1", 40000)
    return make_mocked_request("POST", "/signin", headers={"X-Forwarded-For": "203.0.113.9"}, transport=transport)


async def test_a_form_that_does_not_arrive_is_logged_with_the_client_the_proxy_saw(monkeypatch, caplog):
    """`a posted form from ADDRESS did not arrive…` named the proxy (127.0.0.1), as the access log did before."""
    from warroom.serve import _signin

    request = _behind_proxy()

    async def never() -> None:
        await asyncio.Event().wait()

    monkeypatch.setattr(_signin, "REQUEST_BODY_TIMEOUT", 0.01)
    monkeypatch.setattr(request, "post", never)
    with caplog.at_level(logging.WARNING), pytest.raises(web.HTTPRequestTimeout):
        await _signin.read_form(request, PROXIES)
    assert "a posted form from 203.0.113.9 did not arrive" in caplog.text, caplog.text


def test_a_dropped_live_stream_is_logged_with_the_client_the_proxy_saw(caplog):
    """`dropped the live stream of ADDRESS` named the proxy (127.0.0.1)."""
    from warroom.serve._console import _drop

    request = _behind_proxy()
    with caplog.at_level(logging.WARNING):
        _drop(request, 2.0, PROXIES)
    assert "dropped the live stream of 203.0.113.9:" in caplog.text, caplog.text
