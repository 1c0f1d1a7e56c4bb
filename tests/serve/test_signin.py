"""Sign-in records of ``warroom serve``: a cookie names a record on the server, which expires."""

from __future__ import annotations

import pytest
from aiohttp.test_utils import make_mocked_request

from warroom.serve import Roster, SignIns
from warroom.serve import _signin as signin
from warroom.serve._signin import SIGNIN_LIFETIME, cookie_name


def _request(cookie: str | None = None):
    headers = {"Cookie": f"{cookie_name(make_mocked_request('GET', '/'))}={cookie}"} if cookie else {}
    return make_mocked_request("GET", "/", headers=headers)


def test_without_a_roster_every_browser_is_the_default_trainee():
    signins = SignIns(roster=None, default_trainee="facilitator")
    assert signins.trainee_of(_request()) == "facilitator"
    assert signins.trainee_of(_request("anything")) == "facilitator"


def test_a_sign_in_names_its_trainee_until_it_expires(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(signin.time, "monotonic", lambda: now[0])
    signins = SignIns(roster=Roster({}), default_trainee="facilitator")
    signins._records["abc"] = signin.SignIn("Ada Lovelace", "trainee", "hash", now[0])
    assert signins.trainee_of(_request("abc")) == "Ada Lovelace"
    assert signins.trainee_of(_request("abd")) is None
    assert signins.trainee_of(_request()) is None  # never the default trainee when there is a roster
    now[0] += SIGNIN_LIFETIME + 1
    assert signins.trainee_of(_request("abc")) is None
    assert "abc" not in signins._records


def test_a_name_not_on_the_roster_costs_the_same_hash_as_one_on_it(monkeypatch):
    """No early return for an unknown name (issue 30, item 11): each check computes exactly one scrypt hash, with the
    roster's cost, whatever the name; timing is measured in benchmarks/bench_signin.py."""
    from warroom.serve import _roster

    roster = Roster({}).with_trainee("Ada Lovelace", "right-token")
    _roster._decoy_hash()  # made once, the first time it is needed
    calls: list[tuple[int, int, int]] = []
    real = _roster._scrypt
    monkeypatch.setattr(_roster, "_scrypt", lambda t, s, n, r, p: calls.append((n, r, p)) or real(t, s, n, r, p))
    assert roster.check("Ada Lovelace", "right-token") == "Ada Lovelace"
    assert roster.check("Ada Lovelace", "wrong-token") is None
    assert roster.check("Nobody Atall", "right-token") is None
    assert roster.check("", "") is None
    assert calls == [(_roster.SCRYPT_N, _roster.SCRYPT_R, _roster.SCRYPT_P)] * 4


async def test_a_client_s_wrong_guesses_run_one_at_a_time_and_are_refused_past_its_limit_and_no_one_else_s():
    import asyncio

    now = [0.0]
    throttle = signin.ClientThrottle(clock=lambda: now[0])
    running: list[str] = []
    most = {"10.0.0.9": 0}

    def attempt(client: str, ok: bool):
        async def run() -> bool:
            running.append(client)
            most[client] = max(most.get(client, 0), running.count(client))
            await asyncio.sleep(0)
            running.remove(client)
            return ok

        return run

    results = await asyncio.gather(*(throttle.check("10.0.0.9", attempt("10.0.0.9", False)) for _ in range(50)))
    assert most["10.0.0.9"] == 1  # one at a time: never two of its hashes in front of anybody else
    assert results.count(None) == signin.CLIENT_FAILURES  # the first 20 were checked
    refused = [r for r in results if r is not None]
    assert len(refused) == 30 and all("Too many wrong sign-ins" in r and "61 s" in r for r in refused)
    assert await throttle.check("10.0.0.7", attempt("10.0.0.7", True)) is None  # another client as before
    now[0] += signin.FAILURE_WINDOW
    assert await throttle.check("10.0.0.9", attempt("10.0.0.9", True)) is None  # the window moved on


def _from(address: str, headers: dict[str, str] | None = None):
    from unittest import mock

    transport = mock.Mock()
    transport.get_extra_info.side_effect = lambda key, default=None: (address, 40000) if key == "peername" else default
    return make_mocked_request("POST", "/signin", headers=headers or {}, transport=transport)


def test_x_forwarded_for_names_the_client_only_from_a_proxy_the_operator_named():
    from warroom.serve._proxies import client_of, trusted_proxies

    forged = {"X-Forwarded-For": "1.2.3.4, 10.0.0.5"}
    assert client_of(_from("127.0.0.1", forged)) == "127.0.0.1"  # by default no proxy: loopback neither
    assert client_of(_from("10.0.0.8", forged)) == "10.0.0.8"
    local = trusted_proxies("127.0.0.1, ::1")
    assert client_of(_from("127.0.0.1", forged), local) == "10.0.0.5"  # the address the proxy saw
    assert client_of(_from("127.0.0.1"), local) == "127.0.0.1"
    assert client_of(_from("10.0.0.8", forged), local) == "10.0.0.8"  # not a named proxy
    chain = trusted_proxies("127.0.0.1,10.0.0.0/8")
    assert client_of(_from("127.0.0.1", forged), chain) == "1.2.3.4"  # 10.0.0.5 is a proxy too: its client
    assert client_of(_from("127.0.0.1", {"X-Forwarded-For": "1.2.3.4, junk"}), local) == "127.0.0.1"  # no address
    assert client_of(_from("127.0.0.1", {"X-Forwarded-For": " [::2] "}), local) == "::2"


@pytest.mark.parametrize("text", ["foo", "10.0.0.0/33", "1.2.3"])
def test_a_proxy_that_is_no_address_is_refused_by_name(text: str):
    from warroom.serve._proxies import trusted_proxies

    with pytest.raises(ValueError, match="is neither an IP address nor a network"):
        trusted_proxies(f"127.0.0.1, {text}")
    assert trusted_proxies("") == ()


async def test_two_servers_on_one_host_keep_their_sign_ins_apart_in_one_browser(tmp_path):
    """Before: every server's sign-in cookie was ``warroom_signin``, and a browser keeps one cookie per name and host
    whatever the port: signing in to a second server on the same host replaced the first one's cookie (its tab then
    went back to the sign-in page) and the first server's id went to the second. Now each cookie is named after its
    server's port, and one browser (one cookie jar) is signed in to both, as two names."""
    import aiohttp
    from aiohttp.test_utils import TestServer
    from serve_support import TOKENS, write_roster

    from warroom.serve import AppOptions
    from warroom.serve._server import WarroomServer, build_application

    roster = Roster.load(write_roster(tmp_path / "roster.yaml"))
    servers = [WarroomServer(SignIns(roster, "nobody"), AppOptions(data_dir=tmp_path / name), host="127.0.0.1",
                             port=0) for name in ("a", "b")]  # fmt: skip
    async with TestServer(build_application(servers[0])) as a, TestServer(build_application(servers[1])) as b:
        assert a.port != b.port
        jar = aiohttp.CookieJar(unsafe=True)  # as a browser's: the cookies of 127.0.0.1, any port
        async with aiohttp.ClientSession(cookie_jar=jar) as browser:
            for site, name in ((a, "Ada Lovelace"), (b, "Grace Hopper")):
                form = {"name": name, "token": TOKENS[name]}
                async with browser.post(site.make_url("/signin"), data=form, allow_redirects=False) as r:
                    assert r.status == 303
            assert sorted(c.key for c in jar) == sorted([f"warroom_signin_{a.port}", f"warroom_signin_{b.port}"])
            for site in (a, b):
                async with browser.get(site.make_url("/"), allow_redirects=False) as r:
                    assert r.status == 200  # the war room's page, not the sign-in page (303)
    assert [r.name for r in servers[0].signins._records.values()] == ["Ada Lovelace"]
    assert [r.name for r in servers[1].signins._records.values()] == ["Grace Hopper"]
