"""Hostile and careless use of ``warroom serve`` (issue 30, campaign 11: the served room and the console): what it
found and what now holds."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import aiohttp
from serve_support import START_WAIT, TOKENS, write_roster


@contextmanager
def _on_port_0(tmp_path: Path, name: str, data_dir: Path, roster: Path) -> Iterator[tuple[str, int]]:
    """``warroom serve --port 0`` over ``data_dir`` until the block ends: yields its URL and the port it names."""
    log = tmp_path / f"{name}.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "warroom", "--data-dir", str(data_dir), "serve", "--port", "0",
                                 "--roster", str(roster)], stdout=out, stderr=subprocess.STDOUT,
                                env={**os.environ, "TERM": "xterm-256color"})  # fmt: skip
    try:
        deadline = time.monotonic() + START_WAIT
        while (found := re.search(r"War Room served on (http://127\.0\.0\.1:(\d+)) ", log.read_text())) is None:
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        yield found.group(1), int(found.group(2))
    finally:
        proc.terminate()
        proc.wait(timeout=30)


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
