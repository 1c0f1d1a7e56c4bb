"""Hostile and careless use of ``warroom serve`` (issue 30, campaign 11: the served room and the console): what it
found and what now holds."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import aiohttp
from serve_support import TOKENS, serving_on_port_0, write_roster


@contextmanager
def _on_port_0(tmp_path: Path, name: str, data_dir: Path, roster: Path) -> Iterator[tuple[str, int]]:
    """``warroom serve --port 0`` over ``data_dir`` until the block ends: yields its URL and the port it names."""
    with serving_on_port_0(tmp_path / f"{name}.log", data_dir, "--roster", str(roster)) as served:
        yield served.url, served.port


def _live_rows(data_dir: Path) -> list[tuple[str, str]]:
    from warroom.store.live import read_live
    from warroom.store.results import ResultsStore

    with ResultsStore(data_dir) as store:
        return sorted((row.host, row.trainee) for row in read_live(store))


async def _sign_in(url: str, name: str) -> None:
    async with (aiohttp.ClientSession(base_url=url) as http,
                http.post("/signin", data={"name": name, "token": TOKENS[name]}, allow_redirects=False) as r):
        assert r.status == 303, await r.text()


async def _until_live(data_dir: Path, host_prefix: str, trainee: str) -> list[tuple[str, str]]:
    """The live table's (host, trainee) rows once one of ``host_prefix`` names ``trainee`` (within a minute)."""
    import asyncio

    deadline = time.monotonic() + 60
    while True:
        rows = _live_rows(data_dir)
        if any(host.startswith(host_prefix) and who == trainee for host, who in rows):
            return rows
        assert time.monotonic() < deadline, (host_prefix, trainee, rows)
        await asyncio.sleep(0.2)


async def test_two_servers_on_port_0_over_one_store_keep_each_others_live_lines(tmp_path):
    """Two ``warroom serve --port 0`` on one host over one store (two rooms of one class, or a trial server beside
    the class's): each named itself ``HOST:0#RUN`` in the live table, the port asked for, not the one the system
    chose, so the second took the first for a killed run of itself and deleted its lines as it started: the first
    host's trainees vanished from every console (shown as not signed in) and its tabs no longer counted against
    ``--tabs-per-trainee`` on the other host. Now each host is named by the port it listens on."""
    import socket

    data_dir = tmp_path / "data"
    roster = write_roster(tmp_path / "roster.yaml")
    with _on_port_0(tmp_path, "first", data_dir, roster) as (first_url, first_port):
        await _sign_in(first_url, "Ada Lovelace")
        first = f"{socket.gethostname()}:{first_port}#"
        await _until_live(data_dir, first, "Ada Lovelace")
        with _on_port_0(tmp_path, "second", data_dir, roster) as (second_url, second_port):
            await _sign_in(second_url, "Grace Hopper")
            rows = await _until_live(data_dir, f"{socket.gethostname()}:{second_port}#", "Grace Hopper")
            assert any(host.startswith(first) and who == "Ada Lovelace" for host, who in rows), rows


def test_two_servers_of_one_machine_on_one_port_but_two_addresses_keep_each_others_live_lines(tmp_path):
    """``warroom serve --port 8000`` (127.0.0.1) and ``warroom serve --host ::1 --port 8000`` (or a LAN address) on one
    machine over one store both listen (one port, two sockets) and were both named ``HOST:8000#RUN``: the second
    took the first for a killed run of itself and deleted its live lines as it started (docs/serve.md said such a run
    "cannot still be serving: the port is the new one's"). Now a server listening elsewhere than the default address
    names it (``HOST[::1]:8000#RUN``); a server started again on the address and port of a killed one still deletes
    the killed run's lines."""
    from datetime import UTC, datetime

    from warroom.serve import LiveClass, host_id
    from warroom.store.live import LiveTab, publish_live, read_live
    from warroom.store.results import ResultsStore

    def started(host: str) -> None:  # its first round deletes the rows of the earlier runs of its name
        live = LiveClass(host, tmp_path)
        live.tick(datetime.now(UTC))
        live.close()

    now = datetime.now(UTC).isoformat().replace("+00:00", "Z")
    first = host_id(8000, "127.0.0.1")
    with ResultsStore(tmp_path) as store:
        publish_live(store, first, [LiveTab(first, "t1", "Ada Lovelace", "playing", now, "")], [], now)
    for address in ("::1", "10.0.0.5", "127.0.0.2", "0.0.0.0"):
        other = host_id(8000, address)
        assert f"[{address}]:8000#" in other
        started(other)
    with ResultsStore(tmp_path) as store:
        assert [row.host for row in read_live(store)] == [first]
    started(host_id(8000, "127.0.0.1"))  # the same socket: a killed run's lines go
    with ResultsStore(tmp_path) as store:
        assert read_live(store) == []
