"""Benchmark: the facilitator's console's live page: how soon a change in the class shows on it, and what each of its
updates weighs.

Run: ``.venv/bin/python benchmarks/bench_console.py [--trainees N] [--changed K] [--repeat R]``

**How soon** (goal: within 2 s, each step): a real ``warroom serve`` on loopback with a roster of two trainees; a
facilitator reads the live page's server-sent events (``/console/live/events``) as a browser does, and two simulated
trainees (textual-serve's websocket protocol, as ``bench_serve.py`` speaks it) sign in, open the war room, start a
drill, act (the drill clock at 2x) and close their tab. Each step is timed from its end (the sign-in answered, the
picker or the drill clock on the trainee's screen, the key sent, the tab closed) to the event that shows it on the
page. This was the console browser test's timed assertion (tests/serve/test_console_browser.py waits for each change
without a timing goal now).

**What an update weighs**: the live table of N trainees (default 3,000) all playing, rendered as the server renders
it (``warroom.serve._console.Console.live_view``): the first event (the whole table, sent once per page) and an update
after K of them (default 30) recorded an action, which is what each update sent before: the whole table again. Figures
only: nothing here asserts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests"))

#: How soon a change in the class must show on the live page (issue 30's goal).
GOAL_SECONDS = 2.0
_LINE = re.compile(r'<tr data-key="[^"]*" data-trainee="([^"]+)" data-status="(\w+)">(.*?)</tr>', re.S)


def _lines(event: str, data: str) -> list[tuple[str, str, str]]:
    """(trainee, status, cells) of each line of a ``live`` event's table or of a ``rows`` event's lines."""
    if event == "rows":
        data = " ".join(html for _, html, _ in json.loads(data)["rows"] if html)
    return _LINE.findall(data)


async def _follow(stream, shown: dict[str, str], seen: asyncio.Event) -> None:  # type: ignore[no-untyped-def]
    """Read the live page's events into ``shown`` (trainee -> status and cells), setting ``seen`` after each."""
    buffer = ""
    while True:
        chunk = await stream.content.readany()
        if not chunk:
            return
        buffer += chunk.decode("utf-8", "replace").replace("\r\n", "\n")
        *events, buffer = buffer.split("\n\n")
        for text in events:
            fields = dict(line.split(": ", 1) for line in text.split("\n") if ": " in line)
            for trainee, status, cells in _lines(fields.get("event", ""), fields.get("data", "")):
                shown[trainee] = f"{status} {cells}"
            seen.set()


async def _until(shown: dict[str, str], seen: asyncio.Event, trainee: str, wanted: str, since: float) -> float:
    """Seconds from ``since`` until the page shows ``wanted`` in ``trainee``'s line (60 s at most: then inf)."""
    deadline = time.perf_counter() + 60
    while wanted not in shown.get(trainee, ""):
        seen.clear()
        try:
            await asyncio.wait_for(seen.wait(), max(deadline - time.perf_counter(), 0.01))
        except TimeoutError:
            return float("inf")
    return time.perf_counter() - since


async def _steps(tmp: Path) -> dict[str, float]:
    import aiohttp
    from serve_support import CLOCK_TEXT, FACILITATOR, TOKENS, SimulatedTrainee, serving

    out: dict[str, float] = {}
    with serving(tmp) as served:
        fran = await served.signed_in(FACILITATOR)
        shown: dict[str, str] = {}
        seen = asyncio.Event()
        async with fran, fran.get("/console/live/events", timeout=aiohttp.ClientTimeout(total=None)) as stream:
            following = asyncio.create_task(_follow(stream, shown, seen))
            for name in TOKENS:
                who = SimulatedTrainee(served.url, name, TOKENS[name])
                try:
                    await who.sign_in()
                    out[f"{name}: sign-in"] = await _until(shown, seen, name, "signed_in", time.perf_counter())
                    await who.open_tab()
                    out[f"{name}: tab opened"] = await _until(shown, seen, name, "picker", time.perf_counter())
                    await who.keys("\r", "Press enter to start the drill clock")
                    await who.keys("\r", CLOCK_TEXT)
                    out[f"{name}: drill started"] = await _until(shown, seen, name, "playing", time.perf_counter())
                    await who.keys("+")
                    out[f"{name}: an action"] = await _until(shown, seen, name, " at 2x", time.perf_counter())
                finally:
                    await who.close()
                out[f"{name}: tab closed"] = await _until(shown, seen, name, "disconnected", time.perf_counter())
            following.cancel()
    return out


def latency(repeat: int = 1) -> dict[str, float]:
    """The slowest time of each step over ``repeat`` runs."""
    worst: dict[str, float] = {}
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as tmp:
            for step, seconds in asyncio.run(_steps(Path(tmp))).items():
                worst[step] = max(worst.get(step, 0.0), seconds)
    return worst


def sizes(trainees: int = 3_000, changed: int = 30) -> dict[str, int]:
    """Bytes of the live page's first event (the whole table) and of an update after ``changed`` trainees acted, for
    ``trainees`` playing, rendered by the console's own code."""
    from warroom.serve._console import Console, live_update
    from warroom.store.live import PLAYING, LiveTab

    now = datetime.now(UTC)

    def at(seconds_ago: float) -> str:
        return (now - timedelta(seconds=seconds_ago)).isoformat(timespec="microseconds").replace("+00:00", "Z")

    names = [f"trainee {i:05d}" for i in range(trainees)]
    rows = [LiveTab(f"host-{i % 4}:8000#abcdef", f"{i:012x}", name, PLAYING, at(600), at(0.3), session_id=f"s{i:031x}",
                    drill_id="duplicate-charge-refunds", mode="assessment", set_id="week-1", drill_time=40.0 + i % 50,
                    clock_at=at(5), speed=1.0, actions=3 + i % 7, last_action="inspect", last_action_at=at(5))
            for i, name in enumerate(names)]  # fmt: skip
    live = SimpleNamespace(snapshot=rows, host="host-0:8000#abcdef", version=1, problem=None, snapshot_at=at(0.2))
    signins = SimpleNamespace(roster=SimpleNamespace(trainees=names))
    console = Console(signins, live, Path("."))  # type: ignore[arg-type]
    table, head, lines, read = console.live_view()
    live.snapshot = [replace(r, actions=r.actions + 1, last_action="flag", last_action_at=at(0.1)) if i < changed else r
                     for i, r in enumerate(rows)]  # fmt: skip
    live.snapshot_at = at(0)
    update = live_update((head, lines, read), *console.live_view()[1:])
    return {"whole": len(table.replace("\n", " ").encode()), "update": len(update.encode())}


def results(trainees: int = 3_000, changed: int = 30, repeat: int = 1) -> list[dict]:
    """Rows for ``run.py``."""
    steps = latency(repeat)
    worst = max(steps, key=lambda s: steps[s])
    size = sizes(trainees, changed)
    return [
        {
            "name": f"console: a change in the class on the live page ({len(steps)} steps)",
            "value": f"slowest {steps[worst]:.2f} s ({worst})",
            "goal": f"each within {GOAL_SECONDS:g} s",
            "ratio": f"median {statistics.median(steps.values()):.2f} s",
            "ok": steps[worst] < GOAL_SECONDS,
        },
        {
            "name": f"console: live update, {trainees:,} trainees playing, {changed} acted",
            "value": f"{size['update'] / 1024:.1f} KiB",
            "goal": "(info: the lines that changed)",
            "ratio": f"whole table (first event, and every update before) {size['whole'] / 1024:.0f} KiB",
            "ok": None,
        },
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trainees", type=int, default=3_000, help="trainees playing, for the sizes")
    ap.add_argument("--changed", type=int, default=30, help="trainees who acted between two updates")
    ap.add_argument("--repeat", type=int, default=1, help="served runs of the steps; the slowest of each is reported")
    args = ap.parse_args()
    for step, seconds in latency(args.repeat).items():
        print(f"{step:32} {seconds:6.2f} s (goal: within {GOAL_SECONDS:g} s)")
    size = sizes(args.trainees, args.changed)
    print(f"live page, {args.trainees:,} trainees playing: the whole table {size['whole']:,} bytes; an update after "
          f"{args.changed} acted {size['update']:,} bytes")  # fmt: skip


if __name__ == "__main__":
    main()
