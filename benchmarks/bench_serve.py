"""Benchmark: ``warroom serve`` with a class of simulated trainees at once: key-to-screen latency, lost sessions and
memory per connection.

Run: ``.venv/bin/python benchmarks/bench_serve.py [--trainees N] [--seconds S] [--interval I] [--store URL]
[--together] [--no-console] [--log FILE]``

A real ``warroom serve`` is started on a free loopback port with a roster of N trainees and its own data directory
(``--store URL`` for a shared store instead). N simulated trainees then connect at once, each the way a browser
tab does but without a browser: sign in (``POST /signin``), open textual-serve's websocket ``/ws?width=120&height=40``
and speak its protocol (JSON text messages ``["stdin", KEYS]`` up, the terminal's output as binary frames down).
Each opens the first drill of the picker (enter, enter) so that it replays at 1x (for a new trainee that is the
tutorial, whose first lesson holds the drill clock at 00:08 until the trainee pauses: the keys below are pressed while
it waits, as in a class's first minutes), then presses a key every I seconds for S seconds, alternately:

up and down in the trace (the cursor leaves the newest event, then moves between two rows), each measured until
the terminal output shows the inspector's heading (``e02 · tool call · 00:04``) naming an event other than the one
it showed before the key. A key that changes nothing on screen within 10 s counts as an infinite latency. Once the
last trainee is in the war room, each trainee's first key comes at its own moment of the first I seconds (drawn from
its number: the same in every run), so a class presses N/I keys a second spread over time, as people do; the goal
is measured so. ``--together`` makes all N press at one moment every I seconds instead: a worst case no class of
people makes (every run before 2026-12-06 10:50 UTC was made so), reported beside the goal, not against it.

With the console open (the default; ``--no-console`` leaves it closed) a facilitator signs in too and keeps the
console's live class page open the whole time: its server-sent events stream (``/console/live/events``), read as a
browser reads it, and the whole page loaded again every 5 s. The benchmark reports how many live-table updates
arrived, the most trainees the page showed playing at once (it should reach N), and how long after a trainee's
drill started the page showed it.

Latency is from sending the key to receiving the frame that shows its effect, through the server's relay, the app
process and back, so it includes the asyncio scheduling of this client process too. Then every tab closes (a drill
in play is stored as abandoned) and the store is read: each trainee must have exactly one session (none lost, none
doubled). Memory is read from ``/proc`` while all N play: RSS and PSS (shared pages split between the processes
sharing them) of the app processes, and the RSS of the server; and the CPU the app processes use while playing
(cores per process: CPU seconds over wall seconds), which is what bounds the trainees one host serves. CPU is also
reported per part, from ``/proc`` and this process's own clock: the app processes together, the server and this
client, idle (6 s with no key, after the first lesson holds the clock) and per key (its CPU while keys are pressed,
less the idle rate, over the keys): figures that depend less on what else runs on the host than latency does.
Figures only: nothing here asserts on timing.

A tab that never reaches the war room (the picker not shown within :data:`PICKER_TIMEOUT` seconds, the briefing or
the drill clock within 60) is said under the summary: what it waited for, how long, the bytes it had read and the
websocket's close code. ``--log FILE`` keeps the server's log (with its app processes' standard error) and each such
tab's terminal output (``FILE.trainee-NN.out``).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests"))

import aiohttp  # noqa: E402
from serve_support import free_port, read_until, receive, terminal_text  # noqa: E402

PICKER_TEXT = "Nightly orders load"  # a bundled drill's title, in the picker
CLOCK_TEXT = "◷"  # the drill clock's glyph in a browser (warroom.tui.widgets' WEB_CLOCK_GLYPH)
FACILITATOR, FACILITATOR_TOKEN = "facilitator", "bench-facilitator-token-0123456789"
UP, DOWN = "\x1b[A", "\x1b[B"
#: The inspector's heading: ``e02 · tool call · 00:04`` (event id, kind, drill time).
INSPECTOR = re.compile(r"(\S+)\s+·\s+[^·│]+?\s+·\s+\d+:\d\d")


def token(i: int) -> str:
    return f"bench-token-{i:04d}-0123456789"


def write_roster(path: Path, n: int) -> None:
    from warroom.serve import Roster

    roster = Roster({})
    for i in range(n):
        roster = roster.with_trainee(f"trainee-{i:02d}", token(i))
    roster = roster.with_trainee(FACILITATOR, FACILITATOR_TOKEN, "facilitator")
    roster.save(path)


def start_server(tmp: Path, n: int, store: str | None, log_path: Path | None = None,
                 ) -> tuple[subprocess.Popen[bytes], int, Path]:  # fmt: skip
    """``warroom serve`` on a free port with a roster of ``n``, its log (and its app processes' standard error) in
    ``log_path`` (default: in ``tmp``, gone after the run); returns (process, port, data directory)."""
    import socket

    port = free_port()
    data = tmp / "data"
    write_roster(tmp / "roster.yaml", n)
    cmd = [sys.executable, "-m", "warroom", "--data-dir", str(data)]
    if store:
        cmd += ["--store", store]
    cmd += ["serve", "--port", str(port), "--roster", str(tmp / "roster.yaml")]
    log_path = log_path or tmp / "serve.log"
    log = log_path.open("wb")
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "TERM": "xterm-256color"})
    deadline = time.monotonic() + 60
    while True:
        if proc.poll() is not None:
            raise SystemExit(log_path.read_text(errors="replace"))
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return proc, port, data
        except OSError:
            if time.monotonic() > deadline:
                raise SystemExit("warroom serve did not start listening") from None
            time.sleep(0.2)


async def wait_for(ws: aiohttp.ClientWebSocketResponse, wanted: str, timeout: float = 30.0) -> float:
    """Read frames until their text holds ``wanted``; returns the time of the frame that completed it."""
    raw = b""
    deadline = time.monotonic() + timeout
    while True:
        message = await receive(ws, max(deadline - time.monotonic(), 0.01))
        if message.type != aiohttp.WSMsgType.BINARY:
            raise RuntimeError(f"the connection closed while waiting for {wanted!r}")
        raw += message.data
        if wanted in terminal_text(raw):
            return time.perf_counter()


async def inspected(ws: aiohttp.ClientWebSocketResponse, current: str | None, timeout: float = 10.0) -> str:
    """Read frames until the inspector shows an event other than ``current``; returns its id. Raises TimeoutError."""
    raw = b""
    deadline = time.monotonic() + timeout
    while True:
        message = await receive(ws, max(deadline - time.monotonic(), 0.01))
        if message.type != aiohttp.WSMsgType.BINARY:
            raise RuntimeError("the connection closed")
        raw += message.data
        shown = [m.group(1) for m in INSPECTOR.finditer(terminal_text(raw))]
        if shown and shown[-1] != current:
            return shown[-1]


async def drain(ws: aiohttp.ClientWebSocketResponse, seconds: float) -> str | None:
    """Read frames for ``seconds`` (the replay's repaints between two keys); returns the id of the last event the
    inspector showed in them, if any."""
    end = time.monotonic() + seconds
    raw = b""
    while (left := end - time.monotonic()) > 0:
        try:
            message = await receive(ws, left)
        except TimeoutError:
            break
        if message.type != aiohttp.WSMsgType.BINARY:
            raise RuntimeError("the connection closed")
        raw += message.data
    shown = [m.group(1) for m in INSPECTOR.finditer(terminal_text(raw))]
    return shown[-1] if shown else None


async def console(url: str, done: asyncio.Event, started: dict[str, float]) -> dict:
    """The facilitator's console open until ``done``: its live stream read, the page reloaded every 5 s. Returns the
    updates received, the most trainees shown playing at once, and per trainee the seconds from its drill's start
    (``started``: trainee -> time.perf_counter()) to the first update that showed it playing."""
    jar = aiohttp.CookieJar(unsafe=True)
    shown: dict[str, float] = {}
    out = {"updates": 0, "most_playing": 0, "pages": 0}
    line = re.compile(r'data-trainee="(trainee-\d+)" data-status="(\w+)"')
    status: dict[str, str] = {}  # trainee -> the status the page shows (the whole table first, then the lines changed)
    async with aiohttp.ClientSession(base_url=url, cookie_jar=jar) as http:
        form = {"name": FACILITATOR, "token": FACILITATOR_TOKEN}
        async with http.post("/signin", data=form, allow_redirects=False) as r:
            assert r.status == 303, await r.text()

        async def reload() -> None:
            while not done.is_set():
                async with http.get("/console") as r:
                    await r.read()
                    out["pages"] += 1
                await asyncio.sleep(5)

        reloading = asyncio.create_task(reload())
        async with http.get("/console/live/events", timeout=aiohttp.ClientTimeout(total=None)) as stream:
            buffer = ""
            while not done.is_set():
                try:
                    chunk = await asyncio.wait_for(stream.content.readany(), 1.0)
                except TimeoutError:
                    continue
                buffer += chunk.decode("utf-8", "replace").replace("\r\n", "\n")
                *events, buffer = buffer.split("\n\n")
                for event in events:
                    out["updates"] += 1
                    now = time.perf_counter()
                    status.update(line.findall(_event_html(event)))
                    names = {name for name, state in status.items() if state in ("playing", "stuck")}
                    out["most_playing"] = max(out["most_playing"], len(names))
                    for name in names:
                        if name in started and name not in shown:
                            shown[name] = now - started[name]
        reloading.cancel()
    out["shown_after"] = sorted(shown.values())
    return out


def _event_html(event: str) -> str:
    """The HTML of one server-sent event of the live page: a ``live`` event's table, or the lines of a ``rows``
    event (JSON: docs/serve.md, "Why server-rendered pages")."""
    import json

    data = "".join(line[len("data: "):] for line in event.split("\n") if line.startswith("data: "))
    if "event: rows" not in event:
        return data
    update = json.loads(data)
    return " ".join(html for _, html, _ in update["rows"] if html)


#: Why each tab that never reached the war room did not, in the order they gave up.
NOT_IN: list[str] = []
#: With ``--log FILE``: the terminal output of each tab that never reached the war room goes to
#: ``FILE.trainee-NN.out``.
TAB_OUTPUT: Path | None = None
#: Seconds a tab waits for the picker after its tab opened. A browser waits as long as it takes; the benchmark needs a
#: bound, and 120 s was too short for 100 app processes starting on a loaded 2-core host (issue 36: seven of 60 tabs
#: gave up at 120 s while the picker's cache was cold, the others got in).
PICKER_TIMEOUT = 300.0
#: Seconds from each tab's opening to its picker on the screen (the app process's start), in the order they came.
TO_PICKER: list[float] = []


async def trainee(url: str, i: int, seconds: float, interval: float, playing: asyncio.Barrier,
                  done: asyncio.Event, started: dict[str, float], together: bool = False) -> list[float]:  # fmt: skip
    """One simulated trainee; returns its key-to-update latencies in seconds. Its first key comes at its own moment
    of the first ``interval`` (trainee ``i``'s, the same in every run), or with everyone's (``together``)."""
    jar = aiohttp.CookieJar(unsafe=True)
    latencies: list[float] = []
    async with aiohttp.ClientSession(base_url=url, cookie_jar=jar) as http:
        form = {"name": f"trainee-{i:02d}", "token": token(i)}
        async with http.post("/signin", data=form, allow_redirects=False) as r:
            assert r.status == 303, await r.text()
        async with http.ws_connect("/ws?width=120&height=40") as ws:
            opened, stage, raw = time.monotonic(), "the picker", bytearray()
            try:
                await read_until(ws, PICKER_TEXT, timeout=PICKER_TIMEOUT, raw=raw)
                TO_PICKER.append(time.monotonic() - opened)
                stage = "the briefing"
                await ws.send_json(["stdin", "\r"])
                await read_until(ws, "Start the drill", timeout=60)
                stage = "the drill clock"
                await ws.send_json(["stdin", "\r"])
                await wait_for(ws, CLOCK_TEXT, timeout=60)
            except (AssertionError, RuntimeError, TimeoutError) as exc:  # never in the war room: no key measured
                why = (f"trainee-{i:02d} did not get into the war room: waiting for {stage}, "
                       f"{time.monotonic() - opened:.1f} s after its tab opened ({len(raw):,} bytes of the picker's "
                       f"output read), websocket close code {ws.close_code}: "
                       f"{str(exc)[-600:]!r}")  # fmt: skip
                print(why, file=sys.stderr)
                if TAB_OUTPUT is not None:  # what the tab received, for the record (--log)
                    Path(f"{TAB_OUTPUT}.trainee-{i:02d}.out").write_bytes(bytes(raw))
                NOT_IN.append(why)  # (said again under the summary, where it is kept)
                await playing.wait()  # the others' measured part starts without it
                return [float("inf")]
            started[f"trainee-{i:02d}"] = time.perf_counter()
            # every trainee is in the war room: the measured part starts together. Meanwhile the tab reads its
            # frames, as a browser does: aiohttp answers the server's pings only while receiving, and a tab that
            # does not answer for 7.5 s is ended (100 app processes take longer than that to start on 2 cores)
            joined = asyncio.create_task(playing.wait())
            while not joined.done():
                await drain(ws, 0.5)
            # events released (the first drill: 3 by 00:08): a row above the newest; then the idle window
            current = await drain(ws, SETTLE + IDLE_WINDOW)
            if not together:  # a class's keys come at the rate of a key every interval, not all at one moment
                current = await drain(ws, random.Random(i).uniform(0, interval)) or current
            end = time.monotonic() + seconds
            up = True
            while time.monotonic() < end:
                sent = time.perf_counter()
                await ws.send_json(["stdin", UP if up else DOWN])
                try:
                    current = await inspected(ws, current)
                    latencies.append(time.perf_counter() - sent)
                except TimeoutError:
                    latencies.append(float("inf"))  # the key changed nothing on screen
                up = not up
                current = await drain(ws, max(interval - (time.perf_counter() - sent), 0)) or current
            done.set()
            await drain(ws, 1.0)  # the memory reading happens meanwhile
    return latencies


def app_pids(data: Path) -> list[int]:
    """The pids of the served app processes using ``data``."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--trainee" in args and str(data).encode() in args and b"serve" not in args:
            pids.append(int(entry.name))
    return pids


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds used so far by ``pids`` together (those still running)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / os.sysconf("SC_CLK_TCK")


#: Seconds each tab reads after every tab is in the war room, before the idle window (the first drill releases its
#: first events, then its first lesson holds the clock).
SETTLE = 8.0
#: Seconds after those in which no key is pressed: the idle CPU of the app processes, the server and this client.
IDLE_WINDOW = 6.0


def cpu_snapshot(pids: list[int], server: int) -> tuple[float, float, float, float]:
    """(wall, app processes', server's, this client's CPU seconds) now."""
    return time.perf_counter(), cpu_seconds(pids), cpu_seconds([server]), time.process_time()


def cpu_since(before: tuple[float, float, float, float], pids: list[int], server: int) -> dict[str, float]:
    """Wall seconds and CPU seconds of the app processes, the server and this client since ``before``."""
    now = cpu_snapshot(pids, server)
    return dict(zip(("wall", "apps", "server", "client"), (b - a for a, b in zip(before, now, strict=True)),
                    strict=True))  # fmt: skip


async def cpu_use(pids: list[int], server: int, seconds: float) -> dict[str, float]:
    """:func:`cpu_since` over the next ``seconds``."""
    before = cpu_snapshot(pids, server)
    await asyncio.sleep(seconds)
    return cpu_since(before, pids, server)


def app_memory(data: Path) -> tuple[list[int], list[int]]:
    """(RSS, PSS) in bytes of every served app process using ``data``."""
    rss, pss = [], []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
            if b"--trainee" not in args or str(data).encode() not in args or b"serve" in args:
                continue
            fields = dict(line.split(":", 1) for line in (entry / "smaps_rollup").read_text().splitlines()[1:])
        except (OSError, ValueError):
            continue
        rss.append(int(fields["Rss"].split()[0]) * 1024)
        pss.append(int(fields["Pss"].split()[0]) * 1024)
    return rss, pss


def process_rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def stored_sessions(data: Path, store: str | None, n: int, timeout: float = 60.0) -> dict[str, int]:
    """trainee -> sessions stored, once ``n`` are stored (or ``timeout`` passed)."""
    from warroom.store.errors import StoreError
    from warroom.store.results import ResultsStore

    deadline = time.monotonic() + timeout
    counts: dict[str, int] = {}
    while time.monotonic() < deadline:
        try:
            with ResultsStore(data, url=store, create=False) as db:
                rows = db.query(limit=0)
        except StoreError:
            rows = []
        counts = {}
        for row in rows:
            counts[row.trainee] = counts.get(row.trainee, 0) + 1
        if sum(counts.values()) >= n:
            break
        time.sleep(0.5)
    return counts


async def run(n: int, seconds: float, interval: float, store: str | None, with_console: bool = True,
              together: bool = False, log_path: Path | None = None) -> dict:  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        proc, port, data = start_server(Path(tmp), n, store, log_path)
        try:
            playing, done = asyncio.Barrier(n + 1), asyncio.Event()
            url = f"http://127.0.0.1:{port}"
            started: dict[str, float] = {}
            watching = asyncio.create_task(console(url, done, started)) if with_console else None
            tasks = [asyncio.create_task(trainee(url, i, seconds, interval, playing, done, started, together))
                     for i in range(n)]  # fmt: skip
            await playing.wait()
            pids, started = app_pids(data), time.perf_counter()
            cpu_start = cpu_seconds(pids)
            await asyncio.sleep(SETTLE + 0.25)
            idle = await cpu_use(pids, proc.pid, IDLE_WINDOW - 0.5)  # the tabs only read: no key
            keyed_start = cpu_snapshot(pids, proc.pid)
            await done.wait()
            keyed = cpu_since(keyed_start, pids, proc.pid)
            cpu = (cpu_seconds(pids) - cpu_start) / (time.perf_counter() - started) / max(len(pids), 1)
            rss, pss = app_memory(data)
            server_rss = process_rss(proc.pid)
            per_trainee = await asyncio.gather(*tasks)
            seen = await watching if watching is not None else None
            counts = stored_sessions(data, store, n)
        finally:
            proc.terminate()
            proc.wait(timeout=60)
    latencies = sorted(x for lat in per_trainee for x in lat)
    expected = {f"trainee-{i:02d}" for i in range(n)}
    return {
        "trainees": n,
        "keys": len(latencies),
        "median": statistics.median(latencies),
        "p95": latencies[max(math.ceil(len(latencies) * 0.95) - 1, 0)],  # nearest rank
        "max": latencies[-1],
        "unanswered": sum(1 for x in latencies if x == float("inf")),
        "cpu": cpu,
        "lost": len(expected - set(counts)),
        "doubled": sum(1 for c in counts.values() if c > 1),
        "apps": len(rss),
        "rss": statistics.mean(rss) if rss else 0.0,
        "pss": statistics.mean(pss) if pss else 0.0,
        "server_rss": server_rss,
        "console": seen,
        "load": os.getloadavg(),
        "idle": idle,
        "keyed": keyed,
    }


def results(trainees: int = 20, seconds: float = 60.0, interval: float = 2.0) -> list[dict]:
    """Rows for ``run.py``."""
    m = asyncio.run(run(trainees, seconds, interval, None))
    mib = 1024 * 1024
    return [
        {
            "name": f"serve: key to screen update, {trainees} trainees at 1x ({m['keys']} keys)",
            "value": f"p95 {m['p95'] * 1000:.0f} ms",
            "goal": "p95 < 150 ms",
            "ratio": f"median {m['median'] * 1000:.0f} ms; {m['unanswered']} keys unanswered in 10 s",
            "ok": m["p95"] < 0.150,
        },
        {
            "name": f"serve: sessions lost / doubled ({trainees} trainees)",
            "value": f"{m['lost']} / {m['doubled']}",
            "goal": "0 / 0",
            "ratio": "-",
            "ok": m["lost"] == 0 and m["doubled"] == 0,
        },
        {
            "name": f"serve: memory per connection ({m['apps']} app processes)",
            "value": f"PSS {m['pss'] / mib:.0f} MiB",
            "goal": "(reported)",
            "ratio": f"RSS {m['rss'] / mib:.0f} MiB; server RSS {m['server_rss'] / mib:.0f} MiB; "
            f"CPU {m['cpu']:.2f} core each",
            "ok": None,
        },
    ]


def cpu_report(m: dict) -> str:
    """CPU while idle (cores) and per key pressed (ms, the idle rate subtracted) of the app processes together, the
    server and this client."""
    idle, keyed, keys = m["idle"], m["keyed"], max(m["keys"], 1)
    parts = []
    for who in ("apps", "server", "client"):
        rate = idle[who] / idle["wall"]
        per_key = (keyed[who] - rate * keyed["wall"]) / keys * 1000
        parts.append(f"{who} {rate:.2f} core idle, {keyed[who] / keyed['wall']:.2f} keyed, {per_key:.1f} ms per key")
    return f"CPU ({keys} keys in {keyed['wall']:.0f} s): " + "; ".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trainees", type=int, default=20, help="simulated trainees connected at once")
    ap.add_argument("--seconds", type=float, default=60.0, help="how long each plays, pressing keys")
    ap.add_argument("--interval", type=float, default=2.0, help="seconds between two keys of one trainee")
    ap.add_argument("--store", help="the store URL the server is given (default: its data directory's SQLite)")
    ap.add_argument("--no-console", action="store_true", help="no facilitator's console open meanwhile")
    ap.add_argument("--together", action="store_true",
                    help="all trainees press at one moment every interval (a worst case; default: each trainee's first "
                         "key at its own moment of the first interval)")
    ap.add_argument("--log", type=Path, help="keep the server's log (and its app processes' errors) in this file")
    args = ap.parse_args()
    global TAB_OUTPUT
    TAB_OUTPUT = args.log
    load_before = os.getloadavg()
    m = asyncio.run(run(args.trainees, args.seconds, args.interval, args.store, not args.no_console, args.together,
                        args.log))  # fmt: skip
    mib = 1024 * 1024
    goal = "all together: a worst case" if args.together else "goal < 150 ms"
    print(f"{m['trainees']} trainees, {m['keys']} keys: key to screen update median {m['median'] * 1000:.0f} ms, "
          f"p95 {m['p95'] * 1000:.0f} ms ({goal}), max {m['max'] * 1000:.0f} ms; "
          f"{m['unanswered']} keys unanswered in 10 s")  # fmt: skip
    print(f"sessions lost: {m['lost']}, doubled: {m['doubled']}")
    if TO_PICKER:
        waits = sorted(TO_PICKER)
        print(f"a tab's picker on the screen after median {statistics.median(waits):.1f} s, "
              f"p95 {waits[max(math.ceil(len(waits) * 0.95) - 1, 0)]:.1f} s, max {waits[-1]:.1f} s (of {len(waits)})")
    for why in NOT_IN:
        print(f"  {why}")
    print(f"{m['apps']} app processes: {m['pss'] / mib:.0f} MiB PSS, {m['rss'] / mib:.0f} MiB RSS each (mean); "
          f"server {m['server_rss'] / mib:.0f} MiB RSS; CPU {m['cpu']:.2f} core per app process playing")  # fmt: skip
    print(cpu_report(m))
    seen = m["console"]
    if seen is not None:
        after = seen["shown_after"]
        p95 = after[max(math.ceil(len(after) * 0.95) - 1, 0)] if after else float("nan")
        print(f"console open: {seen['updates']} live updates, {seen['pages']} page loads, at most "
              f"{seen['most_playing']} of {m['trainees']} shown playing; a drill's start on the page after "
              f"{p95:.2f} s (p95) of {len(after)}")  # fmt: skip
    print(f"load average before {load_before[0]:.2f}, after {m['load'][0]:.2f} (1 min); {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
