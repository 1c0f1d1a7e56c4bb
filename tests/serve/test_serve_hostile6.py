"""A sixth hostile campaign on ``warroom serve`` (issue 30): a closed tab's app process given its grace, and the
breaks a hostile reader found in the served code (seats, tabs, the tab-message protocol)."""

from __future__ import annotations

import asyncio
import shlex
import sys
import time
from pathlib import Path

import pytest
from serve_support import CLOCK_TEXT, read_until, serving

PICKER_TEXT = "Tutorial: where-is"
BRIEFING_TEXT = "Press enter to start the drill clock"

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the app processes through /proc")

#: An app process speaking textual-serve's protocol: a frame at start; asked to quit, it writes its last frames,
#: takes a second to store its drill (the marker file), says ``exit`` and ends with status 0. SIGTERM ends it (-15)
#: before it has stored anything.
FAKE_APP = """
import json, sys, time
out, inp = sys.stdout.buffer, sys.stdin.buffer
def packet(kind, payload):
    out.write(kind + len(payload).to_bytes(4, "big") + payload)
    out.flush()
out.write(b"__GANGLION__\\n")
packet(b"D", b"the picker")
while kind := inp.read(1):
    payload = inp.read(int.from_bytes(inp.read(4), "big"))
    if kind == b"M" and json.loads(payload)["type"] == "quit":
        for _ in range(40):
            packet(b"D", b"x" * 4000)  # its last frames: more than a pipe holds
        time.sleep(1.0)  # storing the drill as abandoned
        open(sys.argv[1], "w").write("stored")
        packet(b"M", b'{"type": "exit"}')
        break
"""


def _app_pids(data_dir: Path) -> list[int]:
    from tests.serve.test_serve_floods import app_pids

    return [pid for name in ("Ada Lovelace", "Grace Hopper", "Edsger Dijkstra") for pid in app_pids(name, data_dir)]


async def test_an_app_process_asked_to_quit_after_its_tab_closed_is_given_its_grace(tmp_path):
    """Item 3: textual-serve stopped reading an app process's output at the first write to its closed tab that
    failed, and the server took that for the process's end: it sent SIGTERM at once, while the process was storing
    its drill as abandoned (then recovered from its journal by the server). The output is read (and dropped) to its
    end, and the process, told to quit, exits on its own within the grace: status 0, its drill stored by itself."""
    from textual_serve.download_manager import DownloadManager

    from warroom.serve._tab import TabService

    script, marker = tmp_path / "app.py", tmp_path / "stored"
    script.write_text(FAKE_APP)

    async def closed_tab(_data: object) -> None:
        raise ConnectionResetError("Cannot write to closing transport")  # aiohttp's, for a closed websocket

    async def nothing() -> None:
        return None

    command = f"exec {shlex.quote(sys.executable)} {shlex.quote(str(script))} {shlex.quote(str(marker))}"
    service = TabService(command, write_bytes=closed_tab, write_str=closed_tab, close=nothing,
                         download_manager=DownloadManager())  # fmt: skip
    await service.start(80, 24)
    await asyncio.sleep(0.5)  # its first frame met the closed tab
    started = time.monotonic()
    await asyncio.wait_for(service.stop(), 10)
    assert time.monotonic() - started >= 0.9  # it waited for the process, not for the first failed write
    assert await service.end() == 0  # exited on its own: never signalled
    assert marker.read_text() == "stored" and service.tab_gone


async def test_three_tabs_closed_together_have_their_processes_quit_within_the_grace_storing_their_drills(tmp_path):
    """Item 3, through the real server: three trainees mid-drill close their tabs at one moment. Each app process
    stores its drill as abandoned and exits within the grace (15 s); the server signals none (no "did not quit", no
    session recovered from a journal: before, most were SIGTERMed at once and recovered by the server)."""
    from serve_support import TOKENS

    from warroom.store.results import ResultsStore

    tokens = {**TOKENS, "Edsger Dijkstra": "edsger-token-1111111111"}
    with serving(tmp_path, tokens=tokens) as served:
        clients = [await served.signed_in(name, token) for name, token in tokens.items()]
        tabs = [await c.ws_connect("/ws?width=140&height=45") for c in clients]
        await asyncio.gather(*(read_until(t, PICKER_TEXT, 90) for t in tabs))
        for keys, wanted in (("\r", BRIEFING_TEXT), ("\r", CLOCK_TEXT)):
            for t in tabs:
                await t.send_json(["stdin", keys])
            await asyncio.gather(*(read_until(t, wanted, 60) for t in tabs))
        assert len(_app_pids(served.data_dir)) == 3
        closed = time.monotonic()
        await asyncio.gather(*(t.close() for t in tabs))
        while _app_pids(served.data_dir):
            assert time.monotonic() - closed < 15, "an app process outlived the grace"
            await asyncio.sleep(0.1)
        gone_after = time.monotonic() - closed
        for c in clients:
            await c.close()
        await asyncio.sleep(1.0)  # the server's last lines for those tabs
        log = served.log.read_text(errors="replace")
    with ResultsStore(served.data_dir) as store:
        rows = store.query(limit=0)
    assert sorted(r.trainee for r in rows) == sorted(tokens) and {r.outcome for r in rows} == {"abandoned"}
    assert "did not quit" not in log and "recovered session" not in log and "ended by signal" not in log, log
    assert gone_after < 15
