"""A real ``warroom serve`` for the serve tests: started as a subprocess on a free loopback port, with a roster of
two trainees, its own data directory, and helpers to sign in and read the served terminal's text."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import aiohttp

from warroom.core.library import bundled_drills_dir
from warroom.serve import Roster

#: trainee name -> token, in every served test's roster.
TOKENS = {"Ada Lovelace": "ada-token-0123456789", "Grace Hopper": "grace-token-9876543210"}

_ESCAPES = re.compile(r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")


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

    async def signed_in(self, name: str = "Ada Lovelace") -> aiohttp.ClientSession:
        """A client session holding the sign-in cookie of ``name`` (from :data:`TOKENS`)."""
        # unsafe: the jar then keeps cookies of an IP address host (127.0.0.1), as a browser does
        session = aiohttp.ClientSession(base_url=self.url, cookie_jar=aiohttp.CookieJar(unsafe=True))
        async with session.post("/signin", data={"name": name, "token": TOKENS[name]}, allow_redirects=False) as r:
            assert r.status == 303, await r.text()
        return session


def write_roster(path: Path) -> Path:
    roster = Roster({})
    for name, token in TOKENS.items():
        roster = roster.with_trainee(name, token)
    roster.save(path)
    return path


@contextmanager
def serving(tmp_path: Path, *args: str, roster: bool = True) -> Iterator[Served]:
    """``warroom --data-dir DATA serve --port P [--roster R] ARGS`` running until the block ends (then SIGTERM)."""
    port = free_port()
    data_dir = tmp_path / "data"
    cmd = [sys.executable, "-m", "warroom", "--data-dir", str(data_dir), "serve", "--port", str(port), *args]
    if roster:
        cmd += ["--roster", str(write_roster(tmp_path / "roster.yaml"))]
    env = {**os.environ, "TERM": "xterm-256color"}
    log = tmp_path / "serve.log"  # the server's output, and its app processes' errors (a file: never blocks)
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, log.read_text(errors="replace")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                assert time.monotonic() < deadline, "warroom serve did not start listening"
                time.sleep(0.2)
        yield Served(f"http://127.0.0.1:{port}", port, data_dir, proc, log)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def read_until(ws: aiohttp.ClientWebSocketResponse, wanted: str, timeout: float = 30.0) -> str:
    """Read the served terminal's output until its text holds ``wanted``; return all the text read. Fails with the
    text so far when ``wanted`` never comes."""

    raw = b""
    deadline = time.monotonic() + timeout
    while wanted not in terminal_text(raw):
        left = deadline - time.monotonic()
        assert left > 0, f"{wanted!r} never appeared; the terminal showed:\n{terminal_text(raw)[-3000:]}"
        try:
            message = await ws.receive(timeout=left)
        except TimeoutError:
            continue
        if message.type == aiohttp.WSMsgType.BINARY:
            raw += message.data
        elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
            raise AssertionError(f"the connection closed before {wanted!r}:\n{terminal_text(raw)[-3000:]}")
    return terminal_text(raw)
