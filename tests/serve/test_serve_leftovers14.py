"""What the fourteenth stop left in the served room (issue 30).

A failed app process's error output, which textual-serve writes into the serve log as it is: its control characters
escaped, as every other line of the log, and bounded.

The serve host died of a SIGBUS when its data folder
became immutable under it (``chattr -R +i``): SQLite memory-maps the WAL index (``results.sqlite3-shm``) of the
live table's connection, which the host kept open, and closing it after a failed write wrote into that map.

The live table's connection now lives in a child process (:mod:`warroom.serve._livestore`). The first test
simulates the fault at that layer (the child killed by SIGBUS, which is what the kernel does to it); the second
makes the folder immutable for real where the machine allows it (root and ``chattr`` on a file system with the
immutable attribute), as the campaign did."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from warroom.serve import LiveClass
from warroom.serve._tab import STDERR_KEPT, TabService


def _live(tmp_path: Path) -> LiveClass:
    live = LiveClass("lab:8000#abc123", tmp_path)
    live.tab_opened("tab-1", "ann", None)
    return live


def test_a_fault_of_the_live_tables_connection_ends_its_child_not_the_host(tmp_path: Path) -> None:
    live = _live(tmp_path)
    try:
        live.tick()
        assert live.problem is None and [r.trainee for r in live.snapshot] == ["ann"]
        assert live._store is not None and live._store.pid not in (None, os.getpid())
        os.kill(live._store.pid, signal.SIGBUS)  # what the kernel does on a write into a map it cannot back
        live.tick(datetime.now(UTC) + timedelta(seconds=3))
        assert live.problem is not None and "killed by SIGBUS" in live.problem
        assert "read-only or immutable" in live.problem
        assert [(r.trainee, r.tab) for r in live.snapshot] == [("ann", "tab-1")]  # this host's own tabs
        live.tick(datetime.now(UTC) + timedelta(seconds=6))  # a new child: the table is written and read again
        assert live.problem is None and [r.tab for r in live.snapshot] == ["tab-1"]
    finally:
        live._forget()


def _chattr(*args: str) -> bool:
    return subprocess.run(["chattr", *args], capture_output=True).returncode == 0


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("chattr") is None, reason="chattr +i needs root")
def test_a_data_folder_made_immutable_under_the_host_leaves_it_serving(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    live = _live(data)
    live.tick()
    assert live.problem is None
    if not _chattr("-R", "+i", str(data)):
        live._forget()
        pytest.skip("this file system has no immutable attribute")
    try:
        live.tick(datetime.now(UTC) + timedelta(seconds=3))  # a heartbeat: a write, which fails, then the close
        assert live.problem is not None
        assert [r.tab for r in live.snapshot] == ["tab-1"]
    finally:
        _chattr("-R", "-i", str(data))
        live._forget()


async def _nothing(*_: object) -> None:
    return None


def _service(command: str) -> TabService:
    """A tab's service running ``command`` as its app, which ends without the prelude of a Textual app (a failed
    start); its output stays open a moment (textual-serve cancels its reader of stderr before it ran, otherwise)."""
    command = f"{command}; sleep 0.1; exit 1"
    return TabService(command, write_bytes=_nothing, write_str=_nothing, close=_nothing, download_manager=None)


async def _ran(service: TabService) -> None:
    """Run ``service``'s app process to its end, its pipes closed (not left to the garbage collector)."""
    process = await service._open_app_process()
    await service.run()
    service.stdin.close()
    await process.wait()


@pytest.mark.asyncio
async def test_a_failed_apps_error_output_reaches_the_log_with_its_controls_escaped(capsys) -> None:
    """A drill title or a traceback holding ESC [2J (clear the screen) or U+202E reached the facilitator's terminal."""
    service = _service(r"printf 'Traceback: \033[2J title \342\200\256gnp.exe\r\n' >&2")
    await _ran(service)
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out and "\r" not in out
    assert "Traceback: \\x1b[2J title \\u202egnp.exe\\x0d\n" in out


@pytest.mark.asyncio
async def test_a_failed_apps_error_output_is_kept_up_to_a_bound(capsys) -> None:
    service = _service(f"head -c {STDERR_KEPT * 4} /dev/zero | tr '\\0' x >&2")
    await _ran(service)
    out = capsys.readouterr().out
    note = f"\n(the rest of the app's error output left out: more than {STDERR_KEPT:,} bytes)\n"
    assert out.count(note) in (1, 2)  # textual-serve writes it once more when the app failed to start
    assert out == ("x" * STDERR_KEPT + note) * out.count(note)


async def _static_site(folder: Path, stall: float) -> tuple[Any, int]:
    """An aiohttp server of the static files in ``folder`` under the write stall of ``stall`` seconds, started on a
    free port of 127.0.0.1: its runner (to clean up) and its port."""
    from aiohttp import web

    from warroom.serve._stall import written_while_read

    app = web.Application(middlewares=[written_while_read(stall)])
    app.add_routes([web.static("/static", folder)])
    runner = web.AppRunner(app, shutdown_timeout=1)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]


@pytest.mark.asyncio
async def test_a_static_file_asked_for_by_a_client_that_never_reads_is_dropped(tmp_path: Path, caplog) -> None:
    """Static files (textual-serve's scripts and fonts, sent by sendfile) were not under the write stall: a client
    that asked for a big one and never read held its request and connection for as long as it stayed connected."""
    import asyncio
    import logging
    import socket

    size = 8 * 1024 * 1024
    (tmp_path / "big.js").write_bytes(b"x" * size)
    runner, port = await _static_site(tmp_path, 0.5)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)  # a small window: it fills at once
    sock.setblocking(False)
    try:
        with caplog.at_level(logging.WARNING, "warroom.serve"):
            await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
            reader, writer = await asyncio.open_connection(sock=sock, limit=2**16)
            writer.transport.pause_reading()  # never reads
            writer.write(f"GET /static/big.js HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            async with asyncio.timeout(10):
                while "dropped the answer to GET '/static/big.js'" not in caplog.text:
                    await asyncio.sleep(0.1)
            writer.transport.resume_reading()
            received = b""
            async with asyncio.timeout(10):
                while chunk := await reader.read(2**16):
                    received += chunk
        assert 0 < len(received) < size  # cut short: the connection was closed
    finally:
        sock.close()
        await runner.cleanup()


@pytest.mark.asyncio
async def test_a_static_file_read_at_once_is_sent_whole_with_no_traceback_and_the_connection_kept(
    tmp_path: Path, caplog
) -> None:
    """Under the write stall, every static file a browser read at once (textual-serve's scripts and fonts, each page)
    was logged by aiohttp as `ERROR Unhandled exception` with a traceback (`assert writer is not None`: aiohttp
    prepared the FileResponse the middleware had sent once more), and its keep-alive connection closed (found
    serving a class, campaign nu2). Now the file comes whole, nothing is logged, and the connection serves the next
    request."""
    import logging

    import aiohttp

    body = b"console.log('textual');\n" * 4000
    (tmp_path / "textual.js").write_bytes(body)
    runner, port = await _static_site(tmp_path, 5)
    try:
        with caplog.at_level(logging.DEBUG):
            connector = aiohttp.TCPConnector(limit=1)
            async with aiohttp.ClientSession(connector=connector) as session:
                for _ in range(2):
                    async with session.get(f"http://127.0.0.1:{port}/static/textual.js") as answer:
                        assert answer.status == 200
                        assert await answer.read() == body
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert errors == [], [r.getMessage() for r in errors]
        assert "Traceback" not in caplog.text and "Unhandled exception" not in caplog.text
    finally:
        await runner.cleanup()
