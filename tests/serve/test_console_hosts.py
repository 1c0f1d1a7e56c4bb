"""Several serve hosts in front of one PostgreSQL database show one class: each host writes its tabs to the live
table with a heartbeat, and the console of any host reads the whole table. A host that stops takes its rows with it;
one killed outright leaves them, and the console shows them as a host that stopped answering."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import time

from serve_support import FACILITATOR, TOKENS, SimulatedTrainee, serving


async def _live_rows(session, timeout: float, wanted) -> dict[str, tuple[str, str]]:
    """trainee -> (status, host) of the console's live table, once ``wanted(rows)`` holds (or the time is up)."""
    deadline = time.monotonic() + timeout
    while True:
        async with session.get("/console") as r:
            assert r.status == 200
            page = await r.text()
        rows = {}
        for row in re.findall(r'<tr data-key="[^"]*" data-trainee="([^"]+)" data-status="(\w+)">(.*?)</tr>', page,
                              re.S):
            host = re.findall(r'<td class="dim">([^<]*)</td>', row[2])
            rows[row[0]] = (row[1], host[0] if host else "")
        if wanted(rows) or time.monotonic() > deadline:
            return rows
        await asyncio.sleep(0.3)


async def test_two_serve_hosts_against_one_postgresql_show_one_class(tmp_path, store_url):
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    with serving(one, "--store", store_url) as host1, serving(two, "--store", store_url) as host2:
        console = await host1.signed_in(FACILITATOR)
        ada = SimulatedTrainee(host1.url, "Ada Lovelace", TOKENS["Ada Lovelace"])
        grace = SimulatedTrainee(host2.url, "Grace Hopper", TOKENS["Grace Hopper"])
        try:
            await ada.sign_in()
            await grace.sign_in()
            await grace.open_tab()
            rows = await _live_rows(console, 10, lambda r: r.get("Grace Hopper", ("",))[0] == "picker"
                                    and r.get("Ada Lovelace", ("",))[0] == "signed_in")  # fmt: skip
            assert rows["Grace Hopper"][0] == "picker"
            assert rows["Grace Hopper"][1].endswith(f":{host2.port}")  # shown on host 1, served by host 2
            assert rows["Ada Lovelace"][1].endswith(f":{host1.port}")
            # host 2's own console shows the same class
            other = await host2.signed_in(FACILITATOR)
            rows2 = await _live_rows(other, 10, lambda r: r.get("Ada Lovelace", ("",))[0] == "signed_in")
            await other.close()
            assert rows2["Ada Lovelace"] == rows["Ada Lovelace"]
            # host 2 is killed outright: its rows stay, and the console says its host stopped answering
            os.kill(host2.proc.pid, signal.SIGKILL)
            rows = await _live_rows(console, 20, lambda r: r.get("Grace Hopper", ("",))[0] == "lost")
            assert rows["Grace Hopper"][0] == "lost" and rows["Ada Lovelace"][0] == "signed_in"
        finally:
            await ada.close()
            await grace.close()
            await console.close()
            _end_app_processes(two / "data")  # host 2's tab's process lost its server with it


def _end_app_processes(data_dir) -> None:
    """SIGKILL the app processes serving ``data_dir`` (those of a host that was killed: none else ends them)."""
    from pathlib import Path

    for entry in Path("/proc").iterdir():
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0") if entry.name.isdigit() else []
        except OSError:
            continue
        if b"--trainee" in args and str(data_dir).encode() in args:
            os.kill(int(entry.name), signal.SIGKILL)


async def test_a_host_that_stops_takes_its_rows_out_of_the_live_table(tmp_path, store_url):
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    with serving(one, "--store", store_url) as host1:
        console = await host1.signed_in(FACILITATOR)
        try:
            with serving(two, "--store", store_url) as host2:
                grace = SimulatedTrainee(host2.url, "Grace Hopper", TOKENS["Grace Hopper"])
                await grace.sign_in()
                rows = await _live_rows(console, 10, lambda r: r.get("Grace Hopper", ("",))[0] == "signed_in")
                assert rows["Grace Hopper"][0] == "signed_in"
                await grace.close()
            rows = await _live_rows(console, 10, lambda r: r.get("Grace Hopper", ("",))[0] == "absent")
            assert rows["Grace Hopper"][0] == "absent"  # host 2 stopped (SIGTERM): its rows went with it
        finally:
            await console.close()
