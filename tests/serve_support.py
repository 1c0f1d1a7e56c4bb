"""A real ``warroom serve`` for the serve tests: started as a subprocess on a free loopback port, with a roster of
two trainees, its own data directory, and helpers to sign in and read the served terminal's text."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import aiohttp

from warroom.core.library import bundled_drills_dir
from warroom.core.settings import trace_key
from warroom.serve import Roster

#: trainee name -> token, in every served test's roster.
TOKENS = {"Ada Lovelace": "ada-token-0123456789", "Grace Hopper": "grace-token-9876543210"}
#: The facilitator of every served test's roster (signs in to the console), and their token.
FACILITATOR, FACILITATOR_TOKEN = "Fran Allen", "fran-token-5555555555"
#: Seconds ``warroom serve`` may take to start listening (:func:`serving`): before it listens it reads and checks
#: every bundled drill for the picker's cache (about 2 s of CPU with its imports, each test's cache being its own);
#: on a 2-core machine running six test workers, one process gets a tenth of a core, and a server of the
#: test_serve_floods tests took over 30 s (the former wait) to listen. A server that exits fails at once.
START_WAIT = 120.0
#: Seconds :func:`read_until` waits for a text by default: what a served app process draws after a key (the briefing
#: after enter: its drill read from its file and checked, its screen built, about 0.5 s of CPU) took 1 to 5 s on a
#: 2-core machine at a load of 18 (tests/serve's traces, docs/serve.md "Tracing a tab's keys"), and its first screen
#: after its start several times that; the former 30 s left a loaded CI machine little room. It returns as soon as
#: the text comes: only a test about to fail waits this long.
READ_WAIT = 90.0
#: The text of the war room's drill clock in a browser (warroom.tui.widgets' WEB_CLOCK_GLYPH): the war room is open.
CLOCK_TEXT = "◷"

_ESCAPES = re.compile(r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")


#: This test worker's picker cache of the bundled drills (:func:`warm_picker_cache`), once written.
_WARM_CACHE: Path | None = None


def warm_picker_cache(cache_dir: Path) -> None:
    """Put the picker's cache of the bundled drills into ``cache_dir`` (each test's own, tests/conftest.py), as a
    class's second `warroom serve` finds it: written once per test worker (the library read and checked once) and
    copied into each served test's cache directory. `warroom serve` reads the library before it listens, to write
    that cache (``_warm_picker_cache`` in warroom/cli/serve.py); with each test's cache empty, every served test paid
    that read (about 1 s of CPU, several on a loaded machine) before its first request. The copy is used only while
    every drill file is what it was (warroom.core.library's cache rules): the tests of the cache itself start
    `warroom` with a cache directory of their own, never through this."""
    global _WARM_CACHE
    if _WARM_CACHE is None:
        import tempfile

        from warroom.tui.logic import Services

        warm = Path(tempfile.mkdtemp(prefix="warroom-picker-cache-"))
        Services(trainee="warm", data_dir=warm / "data", cache_dir=warm).catalog()
        _WARM_CACHE = warm
    cache_dir.mkdir(parents=True, exist_ok=True)
    for cached in _WARM_CACHE.glob("picker-*.json"):
        target = cache_dir / cached.name
        if not target.exists():
            target.write_bytes(cached.read_bytes())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def terminal_text(raw: bytes) -> str:
    """The text in a terminal's output: escape sequences removed, line breaks and cursor moves as spaces."""
    return _ESCAPES.sub(" ", raw.decode("utf-8", "replace"))


def answer_key_phrases() -> dict[str, list[str]]:
    """drill id -> phrases only its answer key holds: the opening words of the fault summary and of the debrief."""
    from warroom.store.review import load_drill_file

    phrases: dict[str, list[str]] = {}
    for path in sorted(bundled_drills_dir().glob("*.yaml")):
        drill = load_drill_file(path)
        key = drill.answer_key
        if key is None:  # an all-clear control drill: nothing hidden
            continue
        phrases[drill.id] = [" ".join(key.fault.summary.split()[:5]), " ".join(key.debrief.split()[:5])]
    return phrases


@dataclass
class Served:
    url: str
    port: int
    data_dir: Path
    proc: subprocess.Popen[bytes]
    log: Path

    @property
    def cookie(self) -> str:
        """The name of this server's sign-in cookie (named after its port: ``warroom_signin_PORT``)."""
        return f"warroom_signin_{self.port}"

    def log_size(self) -> int:
        """The bytes of the server's log so far: a test of a shared server (:func:`shared_serving`) reads its own
        lines with :meth:`log_since` (the log holds the module's earlier tests' lines too)."""
        return self.log.stat().st_size

    def log_since(self, start: int) -> str:
        """The server's log after its first ``start`` bytes (:meth:`log_size`)."""
        with self.log.open("rb") as f:
            f.seek(start)
            return f.read().decode("utf-8", "replace")

    async def signed_in(self, name: str = "Ada Lovelace", token: str | None = None) -> aiohttp.ClientSession:
        """A client session holding the sign-in cookie of ``name`` (with ``token``; None: from :data:`TOKENS`, or
        the facilitator's)."""
        # unsafe: the jar then keeps cookies of an IP address host (127.0.0.1), as a browser does
        session = aiohttp.ClientSession(base_url=self.url, cookie_jar=aiohttp.CookieJar(unsafe=True))
        token = token or (FACILITATOR_TOKEN if name == FACILITATOR else TOKENS[name])
        async with session.post("/signin", data={"name": name, "token": token}, allow_redirects=False) as r:
            assert r.status == 303, await r.text()
        return session


def write_roster(path: Path, tokens: dict[str, str] | None = None) -> Path:
    """A roster of ``tokens`` (trainee name -> token; :data:`TOKENS` when None) and the :data:`FACILITATOR`."""
    roster = Roster({})
    for name, token in (TOKENS if tokens is None else tokens).items():
        roster = roster.with_trainee(name, token)
    roster = roster.with_trainee(FACILITATOR, FACILITATOR_TOKEN, "facilitator")
    roster.save(path)
    return path


class SimulatedTrainee:
    """A trainee in a browser tab, without a browser: signs in, opens the tab's websocket (textual-serve's protocol,
    as ``benchmarks/bench_serve.py`` speaks it) and presses keys."""

    def __init__(self, url: str, name: str, token: str) -> None:
        self.url, self.name, self.token = url, name, token
        self.http: aiohttp.ClientSession | None = None
        self.ws: aiohttp.ClientWebSocketResponse | None = None

    async def sign_in(self) -> None:
        self.http = aiohttp.ClientSession(base_url=self.url, cookie_jar=aiohttp.CookieJar(unsafe=True))
        async with self.http.post("/signin", data={"name": self.name, "token": self.token}, allow_redirects=False) as r:
            assert r.status == 303, await r.text()

    async def open_tab(self, wanted: str = "Tutorial: where-is") -> str:
        """Open the war room tab; returns the terminal's text once it shows ``wanted`` (the picker's first drill)."""
        assert self.http is not None
        self.ws = await self.http.ws_connect("/ws?width=140&height=45")
        return await read_until(self.ws, wanted, timeout=90)

    async def keys(self, keys: str, wanted: str | None = None, timeout: float = 60) -> str:
        """Send ``keys``; then read until the terminal shows ``wanted`` (None: nothing read)."""
        assert self.ws is not None
        if keys:
            await self.ws.send_json(["stdin", keys])
        return await read_until(self.ws, wanted, timeout=timeout) if wanted else ""

    async def start_drill(self, down: int = 0) -> None:
        """Open the picker's drill ``down`` rows below the first, and start its drill clock."""
        for _ in range(down):
            await self.keys("\x1b[B")
            await asyncio.sleep(0.3)
        await self.keys("\r", "Press enter to start the drill clock")
        await self.keys("\r", CLOCK_TEXT)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.http is not None:
            await self.http.close()


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """End a `warroom serve` a test started: SIGTERM, then SIGKILL after 20 s."""
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@contextmanager
def serving_on_port_0(log: Path, data_dir: Path, *args: str, env: dict[str, str] | None = None) -> Iterator[Served]:
    """``warroom --data-dir DATA serve --port 0 ARGS`` until the block ends, its output in ``log``: the server on the
    port its banner names (the system chose it). ``env``: the server's whole environment (None: this process's, with
    ``TERM``)."""
    cmd = [sys.executable, "-m", "warroom", "--data-dir", str(data_dir), "serve", "--port", "0", *args]
    environ = env if env is not None else {**os.environ, "TERM": "xterm-256color"}
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=environ)
    try:
        deadline = time.monotonic() + START_WAIT
        while (found := re.search(r"War Room served on http://127\.0\.0\.1:(\d+) ", log.read_text())) is None:
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        port = int(found.group(1))
        yield Served(f"http://127.0.0.1:{port}", port, data_dir, proc, log)
    finally:
        stop_server(proc)


@contextmanager
def serving(
    tmp_path: Path, *args: str, roster: bool = True, tokens: dict[str, str] | None = None,
    data_dir: Path | None = None, env: dict[str, str] | None = None,
) -> Iterator[Served]:  # fmt: skip
    """``warroom --data-dir DATA serve --port P [--roster R] ARGS`` running until the block ends (then SIGTERM); the
    roster holds ``tokens`` (:data:`TOKENS` when None) and the facilitator."""
    port = free_port()
    data_dir = data_dir or tmp_path / "data"
    cmd = [sys.executable, "-m", "warroom", "--data-dir", str(data_dir), "serve", "--port", str(port), *args]
    if roster:
        cmd += ["--roster", str(write_roster(tmp_path / "roster.yaml", tokens))]
    environ = {**os.environ, "TERM": "xterm-256color", **(env or {})}
    if "WARROOM_CACHE_DIR" in environ and "WARROOM_CACHE_DIR" not in (env or {}):
        warm_picker_cache(Path(environ["WARROOM_CACHE_DIR"]))
    log = tmp_path / f"serve-{port}.log"  # the server's output, and its app processes' errors (a file: never blocks)
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=environ)
    try:
        started = time.monotonic()
        deadline = started + START_WAIT
        while True:
            assert proc.poll() is None, log.read_text(errors="replace")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                waited = time.monotonic() - started
                assert time.monotonic() < deadline, f"warroom serve did not start listening in {waited:.0f} s"
                time.sleep(0.2)
        trace_key("test", f"warroom serve listening after {time.monotonic() - started:.1f} s")
        yield Served(f"http://127.0.0.1:{port}", port, data_dir, proc, log)
    finally:
        stop_server(proc)


@contextmanager
def shared_serving(folder: Path, *args: str, tokens: dict[str, str] | None = None) -> Iterator[Served]:
    """:func:`serving` for a module-scoped fixture, one server for the tests of a module whose cases do not interact
    (each its own trainees): started with the ambient settings tests/conftest.py clears for each test cleared here
    too (the module's fixtures start before any test's) and a picker cache of its own."""
    import pytest

    with pytest.MonkeyPatch.context() as patch:
        for name in list(os.environ):
            if name.startswith("WARROOM_") and name not in ("WARROOM_KEY_TRACE",):
                patch.delenv(name)
        patch.setenv("LANG", "C.UTF-8")
        patch.setenv("WARROOM_CACHE_DIR", str(folder / "cache"))
        with serving(folder, *args, tokens=tokens) as served:
            yield served


@asynccontextmanager
async def answering(ws: aiohttp.ClientWebSocketResponse) -> AsyncIterator[None]:
    """Keep reading ``ws`` while the block runs (its output is dropped), so that the server's pings are answered.

    ``warroom serve`` pings each tab every 15 s and ends a tab that has not answered within 7.5 s (aiohttp's
    ``heartbeat``: the log and the key trace say "No PONG received"); a browser answers at once, but aiohttp's client
    answers a ping only inside ``receive()``. A test that waits on one tab (another trainee's picker, a flood, a
    drill) while another tab is open and not read lost that tab after 22.5 s at most: on a loaded machine the other
    tab's next key then failed ("Cannot write to closing transport") or its briefing never came (the connection
    closed before it). Wrap such waits in this; read the tab's output again (:func:`read_until`) after the block."""

    async def drain() -> None:
        while (await ws.receive()).type not in _ENDED:
            pass

    task = asyncio.ensure_future(drain())
    try:
        yield
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):  # cancelled just above: the test reads the tab itself again
            await task


#: The message types of a websocket that ended.
_ENDED = (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING, aiohttp.WSMsgType.ERROR)


async def receive(ws: aiohttp.ClientWebSocketResponse, timeout: float) -> aiohttp.WSMessage:
    """The next message from ``ws``; TimeoutError after ``timeout`` seconds. (aiohttp's own ``receive(timeout=)``
    starts its timeout again after each ping the server sends, every 15 s: a silent app would be waited for forever.)"""
    async with asyncio.timeout(timeout):
        return await ws.receive()


async def read_until(
    ws: aiohttp.ClientWebSocketResponse, wanted: str, timeout: float | None = None, raw: bytearray | None = None
) -> str:
    """Read the served terminal's output until its text holds ``wanted``; return all the text read. Fails with the
    text so far when ``wanted`` never comes. The output read is appended to ``raw`` when given (kept on a failure)."""

    raw = bytearray() if raw is None else raw  # appended to in place (bytes += bytes copies the whole output each time)
    timeout = READ_WAIT if timeout is None else timeout
    deadline = time.monotonic() + timeout
    # Only the newest output is searched each time (a drill redraws its clock every second: reading the whole output
    # again after each message took minutes): the last message whole (a repaint of the whole screen may be over
    # 64 KB) and the end of the output before it (text split between two messages).
    tail = b""
    while wanted not in terminal_text(tail):
        left = deadline - time.monotonic()
        assert left > 0, f"{wanted!r} never appeared; the terminal showed:\n{terminal_text(raw[-65536:])[-3000:]}"
        try:
            message = await receive(ws, left)
        except TimeoutError:
            continue
        if message.type == aiohttp.WSMsgType.BINARY:
            tail = bytes(raw[-8192:]) + message.data
            raw += message.data
        elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
            raise AssertionError(f"the connection closed before {wanted!r}:\n{terminal_text(raw[-65536:])[-3000:]}")
    trace_key("test", f"{wanted!r} shown after {timeout - (deadline - time.monotonic()):.1f} s")
    return terminal_text(bytes(raw))


async def set_grid_and_gradebook(served: Served, set_id: str, trainee: str) -> tuple[list[str], tuple[str, str]]:
    """As the facilitator: ``trainee``'s row of the set's gradebook CSV, and the session id and words of their first
    done cell of the set's completion grid (what the two pages say of one first attempt)."""
    import csv
    import html
    import io

    fran = await served.signed_in(FACILITATOR)
    async with fran:
        async with fran.get(f"/console/gradebook.csv?set={set_id}") as r:
            rows = list(csv.reader(io.StringIO(await r.text())))
        async with fran.get(f"/console/sets/{set_id}") as r:
            page = html.unescape(await r.text())
    (row,) = [row for row in rows if row[0] == trainee]
    cells = re.findall(rf'data-trainee="{re.escape(trainee)}".*?<a href="/console/sessions/([^"]+)">([^<]+)</a></td>',
                       page, re.S)  # fmt: skip
    return row, cells[0]
