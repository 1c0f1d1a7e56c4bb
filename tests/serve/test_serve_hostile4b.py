"""Hostile input to ``warroom serve`` (issue 30, what campaign 4 found on the served room and left): a message that
is not textual-serve's protocol exactly (a ``NaN`` size, a blur carrying a 4,000-digit number) ends the sender's
session with one line in the log."""

from __future__ import annotations

import json
import time

import aiohttp
import pytest
from aiohttp import WSMsgType
from serve_support import read_until, receive, serving

from warroom.serve._tab import BadMessage, InputBudget, read_message

PICKER_TEXT = "Tutorial: where-is"


async def closed_with(ws: aiohttp.ClientWebSocketResponse, timeout: float = 30.0) -> int | None:
    """Read until the server closes ``ws``; the close code."""
    deadline = time.monotonic() + timeout
    while True:
        message = await receive(ws, max(0.1, deadline - time.monotonic()))
        if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING):
            return ws.close_code


class _Message:
    def __init__(self, data: str) -> None:
        self.type, self.data = WSMsgType.TEXT, data


def _read(text: str):
    return read_message(_Message(text), InputBudget())


#: Messages textual-serve's page never sends: each ends the session (the reason is in the log).
NOT_THE_PROTOCOL = {
    "resize-nan": '["resize", {"width": NaN, "height": 24}]',
    "resize-infinity": '["resize", {"width": 80, "height": Infinity}]',
    "resize-float": '["resize", {"width": 80.5, "height": 24}]',
    "resize-huge-float": '["resize", {"width": 1e999, "height": 24}]',
    "resize-text": '["resize", {"width": "80", "height": 24}]',
    "resize-bool": '["resize", {"width": true, "height": 24}]',
    "resize-zero": '["resize", {"width": 0, "height": 24}]',
    "resize-negative": '["resize", {"width": -80, "height": 24}]',
    "resize-over-a-winsize": '["resize", {"width": 65536, "height": 24}]',
    "resize-no-height": '["resize", {"width": 80}]',
    "resize-more-keys": '["resize", {"width": 80, "height": 24, "x": 1}]',
    "resize-three-items": '["resize", {"width": 80, "height": 24}, 1]',
    "blur-digits": '["blur", ' + "9" * 4000 + "]",
    "blur-more-digits": '["blur", ' + "9" * 5000 + "]",
    "blur-null": '["blur", null]',
    "focus-data": '["focus", {}]',
    "ping-number": '["ping", 1700000000000]',
    "ping-nan": '["ping", NaN]',
    "ping-long": '["ping", "' + "1" * 65 + '"]',
    "ping-none": '["ping"]',
}


@pytest.mark.parametrize("text", NOT_THE_PROTOCOL.values(), ids=NOT_THE_PROTOCOL.keys())
def test_a_message_that_is_not_the_protocol_is_refused(text):
    with pytest.raises(BadMessage):
        _read(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('["resize", {"width": 80, "height": 24}]', ("resize", {"width": 80, "height": 24})),
        ('["resize", {"height": 1, "width": 65535}]', ("resize", {"height": 1, "width": 65535})),
        ('["ping", "1700000000000"]', ("ping", "1700000000000")),
        ('["blur"]', ("blur", None)),
        ('["focus"]', ("focus", None)),
        ('["stdin", "j"]', ("stdin", b"j")),
    ],
)
def test_what_the_page_sends_is_read(text, expected):
    assert _read(text) == expected


async def test_a_nan_size_or_a_long_blur_ends_only_its_session_with_one_log_line(tmp_path):
    with serving(tmp_path) as served:
        ada = await served.signed_in("Ada Lovelace")
        async with ada:
            for text in (NOT_THE_PROTOCOL["resize-nan"], NOT_THE_PROTOCOL["blur-digits"]):
                async with ada.ws_connect("/ws") as bad:
                    await read_until(bad, PICKER_TEXT)
                    await bad.send_str(text)
                    assert await closed_with(bad) == aiohttp.WSCloseCode.POLICY_VIOLATION
            async with ada.ws_connect("/ws") as good:  # a well-formed size still reaches the app
                await read_until(good, PICKER_TEXT)
                await good.send_str(json.dumps(["resize", {"width": 100, "height": 30}]))
                await good.send_str(json.dumps(["ping", "1"]))
                reply = await good.receive(timeout=10)
                while reply.type == WSMsgType.BINARY:
                    reply = await good.receive(timeout=10)
                assert json.loads(reply.data) == ["pong", "1"]
        log = served.log.read_text(errors="replace")
    ended = [line for line in log.splitlines() if "ended the session of 'Ada Lovelace'" in line]
    assert len(ended) == 2, log
    assert "NaN" in ended[0] and "blur with data" in ended[1]
    assert "Traceback" not in log


def _service(command: str):
    from textual_serve.download_manager import DownloadManager

    from warroom.serve._tab import TabService

    async def nothing(*_args) -> None:
        return None

    return TabService(command, write_bytes=nothing, write_str=nothing, close=nothing,
                      download_manager=DownloadManager())  # fmt: skip


async def test_ending_an_app_process_never_reaps_it_behind_asyncios_back(monkeypatch):
    """Issue 30: asyncio's ``Process.send_signal`` polls the child first (``Popen.poll``), which reaps one that has
    exited but whose exit the child watcher has not reported yet: the watcher then logged "Unknown child process pid
    N, will report returncode 255", and a process ended by a signal was logged as 255, not "ended by signal". The
    tab's process is signalled without being polled, and its return code is how it ended."""
    import signal
    import subprocess

    polls: list[int] = []
    real_poll = subprocess.Popen.poll
    monkeypatch.setattr(subprocess.Popen, "poll", lambda self: polls.append(self.pid) or real_poll(self))
    service = _service("exec sleep 30")
    await service._open_app_process()
    assert await service.end(grace=5.0) == -signal.SIGTERM
    assert polls == [] and service.pidfd is None  # never polled (reaped); its pidfd closed


async def test_a_process_killed_while_its_exit_is_unreported_is_logged_with_its_signal(caplog):
    """The race itself: the process died by SIGKILL and is a zombie when the tab ends, before the event loop heard
    of it (no ``await`` between): its return code is -9, never asyncio's 255 for a child someone else reaped."""
    import os
    import signal
    from pathlib import Path

    codes = []
    for _ in range(5):
        service = _service("exec sleep 30")
        process = await service._open_app_process()
        os.kill(process.pid, signal.SIGKILL)
        stat = Path(f"/proc/{process.pid}/stat")
        while stat.exists():  # a zombie, or reaped by the watcher's thread: either way not yet reported to the loop
            try:
                if stat.read_text().split(") ", 1)[1].startswith("Z"):
                    break
            except (OSError, IndexError):
                break
        codes.append(await service.end(grace=5.0))
    assert codes == [-signal.SIGKILL] * 5
    assert "Unknown child process" not in caplog.text
