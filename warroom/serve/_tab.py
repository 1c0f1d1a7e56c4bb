"""One browser tab of ``warroom serve``: what it may send, what it may cost, and its app process's end.

- **What one message may cost**: a websocket message is at most :data:`MAX_MESSAGE_BYTES` (a paste of a few
  thousand characters fits; aiohttp refuses a longer one and the tab's session ends), its keys at most
  :data:`MAX_KEYS_BYTES`.
- **What one tab may cost**: its messages draw on a budget of bytes that refills at :data:`RATE_BYTES` per second up
  to :data:`BURST_BYTES` (:class:`InputBudget`): far above anyone's typing (a held arrow key sends about 100 bytes a
  second), far below a flood. A tab over its budget is ended.
- **Key sequences Textual cannot read**: an escape sequence (``ESC [``) whose parameters hold a ``:`` or a number
  over U+10FFFF's, ``ESC [9999999999A`` (no browser sends one), made Textual's input parser in the app process raise,
  and the app then read no more input (not even the server's request to quit): :class:`KeySequences` refuses them,
  also when a sequence is split between two messages.
- **Malformed messages** (not a JSON list of textual-serve's protocol, keys that are not text, a lone surrogate, an
  unknown kind, a binary message, a resize that is not two whole numbers of cells, a ``NaN`` or ``Infinity``, a blur
  or focus with data, a ping that is not short text) end the sender's session with a one-line log entry
  (:class:`BadMessage`), never a traceback, and nothing else.
- **A paste left open** (``ESC [200~`` with no end in its message) is ended with its message
  (:func:`paste_left_open`), before a key sequence the message leaves unfinished: the app's input parser took every
  later key as pasted text.
- **A browser that stops reading**: a write of the app's output that waits :data:`WRITE_STALL` seconds while the
  browser reads nothing drops the tab (:class:`TabService`'s ``on_stall``).
- **Its process's end**: :class:`TabService` keeps the app process it starts, so that a tab that closed gets its
  process ended (asked to quit, then SIGTERM, which stores a drill being played as abandoned, then SIGKILL) and its
  seat is counted until the process is gone. Its signals never reap it (:meth:`TabService._signal`), so the return
  code logged is the one it ended with, a signal's included, never asyncio's 255 for a child reaped by another.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import os
import re
import signal
import time
from asyncio.subprocess import Process
from collections.abc import AsyncIterator, Callable
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web
from textual_serve.app_service import AppService

from warroom.core.settings import KEYS_RECEIVED_META, trace_key
from warroom.core.text import clean_line
from warroom.errors import WarroomError
from warroom.serve._heartbeat import Hearing, heard, heartbeat
from warroom.serve._stall import while_read

log = logging.getLogger("warroom.serve")

#: Largest websocket message a tab may send, in bytes (aiohttp refuses longer ones).
MAX_MESSAGE_BYTES = 64 * 1024
#: Most bytes of keys one ``stdin`` message may carry.
MAX_KEYS_BYTES = 16 * 1024
#: A tab's input budget: bytes per second, and the most it may send at once.
RATE_BYTES = 2 * 1024
BURST_BYTES = 32 * 1024
#: The least a message costs from the budget (so that a flood of tiny messages is a flood too).
MESSAGE_COST = 32
#: What one key press (or mouse report) of a message's keys costs from the budget, in bytes: the app process spends
#: CPU per key press, not per byte, and at 2 KiB a second of one-byte keys (1,933 presses a second) a tab's app process
#: fell behind by 17 s in 30 s and grew by 72 MB (every press waits in its queue): so a tab may send at most
#: :data:`RATE_BYTES` / KEY_COST = 128 presses a second (a held arrow key sends about 30), a bracketed paste counting
#: as one (:func:`key_presses`).
KEY_COST = 16
#: What a message of pointer movement or wheel turns alone costs from the budget, in bytes (instead of
#: :data:`MESSAGE_COST` and :data:`KEY_COST`): a browser's terminal reports each move of the pointer to a new cell, as
#: often as the screen refreshes (60 to 240 times a second), and each wheel event (a trackpad's scroll comes as one
#: event a frame, a free-spinning wheel's as fast), one message each; at 32 bytes a message a trainee moving the
#: pointer about, or scrolling the trace, on a 120 Hz screen would have used up the budget in 18 s and had the session
#: ended (scrolling at 200 events a second ended it in 22 s). At 8 bytes a tab may send 256 of them a second, every
#: second (a flood past that is still ended); the app process does little with one (a scroll is drawn at most once a
#: frame).
MOTION_COST = 8
#: A message whose keys are pointer movement or wheel turns alone, as a browser's terminal sends it (JSON text, the
#: escape written ``\u001b``): SGR mouse reports with the motion bit and no button (35, with shift, meta or ctrl:
#: 39 ... 63), or of the wheel up or down (64, 65, with shift, meta or ctrl: 68 ... 93).
#: The SGR mouse buttons of :data:`_MOTION_MESSAGE`'s reports.
MOTION_BUTTONS = (35, 39, 43, 47, 51, 55, 59, 63, 64, 65, 68, 69, 72, 73, 76, 77, 80, 81, 84, 85, 88, 89, 92, 93)
_MOTION_MESSAGE = re.compile(r'\["stdin", ?"(?:\\u001[bB]\[<(?:' + "|".join(map(str, MOTION_BUTTONS))
                             + r');\d{1,4};\d{1,4}M){1,8}"\]')
#: The longest message read as pointer movement alone (eight reports).
_MOTION_MESSAGE_CHARACTERS = 256
#: Seconds a process has after SIGTERM (storing a drill as abandoned) before it is killed.
TERM_GRACE = 5.0
#: Seconds the app process may take to accept one message's input before the tab's session ends (its input pipe
#: holds 64 KiB: only a process that stopped reading makes a write wait).
INPUT_TIMEOUT = 10.0
#: Seconds a write of the app process's output to a tab's websocket may wait for the browser to read before the tab is
#: dropped (:class:`TabService`): aiohttp's flow control makes a write wait once about 64 KiB are unsent, so a client
#: that sends but never reads (its receive window full) held its tab's relay, its app process and its seat for ever
#: (its messages kept the heartbeat from ever pinging it). A browser on a slow network drains 64 KiB in a few seconds.
WRITE_STALL = 30.0
#: Why a tab whose app process could not start is closed (its page shows it: the server's ``CLOSE_REASON_SCRIPT``).
COULD_NOT_START = "the war room could not start here (the server's log says why): tell your facilitator"
#: The message kinds of textual-serve's protocol a tab may send.
KINDS = frozenset({"stdin", "resize", "ping", "blur", "focus"})


class BadMessage(WarroomError):
    """A tab sent something the protocol does not allow, or more than its budget: its session ends (the message
    says why, for the server's log)."""


class BrowserGone(BadMessage):
    """A tab's browser answered no ping (:func:`~warroom.serve._heartbeat.heartbeat`): its session ends, its
    connection dropped at once (closing it would wait for a browser that is gone)."""


class InputBudget:
    """A token bucket of bytes: ``take(n)`` is False once a tab has sent more than :data:`BURST_BYTES` beyond
    :data:`RATE_BYTES` per second since it opened."""

    def __init__(self, rate: float = RATE_BYTES, burst: float = BURST_BYTES, clock: Any = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.last = clock()

    def take(self, n: int) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if n > self.tokens:
            return False
        self.tokens -= n
        return True


#: An escape sequence of the keys (``ESC [``, parameters, intermediates, a final byte; none when cut at the end).
_CSI = re.compile(r"\x1b\[([0-?]*)([ -/]*)([@-~]|$)")
#: The largest number a key sequence's parameter may hold (a code point's, in a keyboard protocol's key).
MAX_PARAMETER = 0x10FFFF
#: The longest escape sequence a tab's keys may hold, in characters (a mouse report at 1000 cells,
#: ``ESC [<35;1000;1000M``, has 17): a sequence left open (``ESC [`` and then ``;`` after ``;``, message after message)
#: was carried to the next message and searched again whole each time, so its cost grew with every message (27 ms of
#: the server's event loop per message after 5 minutes within the input budget, for every tab of the class to wait on).
MAX_SEQUENCE_CHARACTERS = 64
#: The parameters of a terminal's in-band size report, ``ESC [48;ROWS;COLUMNS;HEIGHT;WIDTHt`` (its answer to mode
#: 2048, which a browser's terminal never gives): Textual's input parser reads one in the keys as the terminal's
#: size, so keys holding one gave the app process a size past :data:`MAX_COLUMNS` (1,114,111 columns) or of 0 cells,
#: and a report of 0 pixels followed by a mouse report raised ZeroDivisionError in the parser, which then read no
#: more input (a frozen tab).
_SIZE_REPORT = "48;"
#: The surrogates' code points: Textual's parser reads a keyboard protocol's key (``ESC [55296u``) as that code point,
#: a lone surrogate, which the keys of a message may not hold as text either.
_SURROGATES = range(0xD800, 0xE000)


def _is_parameter(number: int) -> bool:
    """True when ``number`` may be an escape sequence's parameter in a tab's keys: at most :data:`MAX_PARAMETER`, and
    no surrogate's code point."""
    return number <= MAX_PARAMETER and number not in _SURROGATES


class KeySequences:
    """The escape sequences of one tab's keys, checked across its messages: :meth:`check` raises
    :class:`BadMessage` for a sequence whose parameters hold a ``:`` or a number over :data:`MAX_PARAMETER`, which
    Textual's input parser cannot read (it raised, and the app process read no more input), or a surrogate's code
    point, for a terminal size report (:data:`_SIZE_REPORT`), or longer than :data:`MAX_SEQUENCE_CHARACTERS`. A
    sequence cut at the end of a message is checked with the next message's keys (a tab could split one to pass it)."""

    def __init__(self) -> None:
        self.carry = ""
        #: True when the keys last checked leave a bracketed paste open (:func:`paste_left_open`); how many such
        #: pastes the relay ended.
        self.paste_open = False
        self.pastes_ended = 0

    def check(self, keys: str) -> None:
        text = self.carry + keys
        self.carry = ""
        self.paste_open = paste_left_open(text)
        for match in _CSI.finditer(text):
            params = match.group(1)
            numbers = re.findall(r"\d+", params)
            too_long = len(match.group(0)) > MAX_SEQUENCE_CHARACTERS
            if too_long or ":" in params or any(len(n) > 7 or not _is_parameter(int(n)) for n in numbers):
                raise BadMessage(f"a key sequence no terminal sends ({clean_line(match.group(0)[:40])!r})")
            if match.group(3) == "t" and params.startswith(_SIZE_REPORT):
                raise BadMessage(f"a terminal size report in the keys ({clean_line(match.group(0)[:40])!r}): a tab's "
                                 "size is given by its resize messages")  # fmt: skip
            if not match.group(3):
                self.carry = match.group(0)
        if not self.carry and text.endswith("\x1b"):
            self.carry = "\x1b"


#: The start and the end of a bracketed paste.
PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"


def paste_left_open(keys: str) -> bool:
    """True when ``keys`` start a bracketed paste (``ESC [200~``) they do not end (``ESC [201~``). A browser's terminal
    sends a paste whole, in one message; a paste left open made the app process's input parser take every key after
    it as pasted text, held until an end that never came (the tab's keys were lost): the relay ends it at the end of
    its message (:func:`_relay`)."""
    start = keys.rfind(PASTE_START)
    return start >= 0 and keys.find(PASTE_END, start) < 0


#: A bracketed paste (``ESC [200~`` ... ``ESC [201~``, or to the end of the keys): one event of the app, whatever its
#: length.
_PASTE = re.compile(r"\x1b\[200~.*?(?:\x1b\[201~|\Z)", re.S)
#: One key press of the keys: an escape sequence (``ESC [`` ... its final byte, or ``ESC O`` and its key), ``ESC`` and
#: one character, or one character.
_PRESS = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1bO.|\x1b.|.", re.S)


def key_presses(keys: str) -> int:
    """How many key presses (and mouse reports) ``keys`` hold, as the app process's input parser reads them: each
    escape sequence one, each other character one, a bracketed paste one (a browser's terminal sends a paste so)."""
    return len(_PRESS.findall(_PASTE.sub("\x00", keys)))


#: The largest terminal size a ``resize`` may say, in cells: a terminal's size is an unsigned 16-bit number (the
#: kernel's ``winsize``); the size given to the app process is then bounded by :func:`terminal_size`.
MAX_RESIZE_CELLS = 0xFFFF
#: The largest terminal an app process is given, in columns and rows: what a browser window filling a 4K screen
#: (3840 x 2160 pixels) holds at a 12-pixel font, the smallest a trainee reads a war room at (a cell of about 7 x 14
#: pixels: 550 x 150; a 10-pixel font, 640 x 180). A larger window's terminal is drawn at this size. Every frame the
#: app draws costs in proportion to its cells: at the former bound, 1000 x 1000, one resize cost the app process
#: 0.3 to 0.8 s of CPU (docs/serve.md, "What one tab may send").
MAX_COLUMNS, MAX_ROWS = 500, 200
#: Seconds between two resizes given to the app process: a burst of resizes (a window dragged, or a flood) is given
#: as its first and then its last size (:class:`Resizes`), never one app redraw per message.
RESIZE_INTERVAL = 0.25
#: The most characters of a ``ping``'s value (the browser sends its clock in milliseconds, 13 digits).
MAX_PING_CHARACTERS = 64


def _refuse_constant(name: str) -> Any:
    raise BadMessage(f"a message holding {name} (the protocol's numbers are finite)")


def _is_cells(value: Any) -> bool:
    return type(value) is int and 1 <= value <= MAX_RESIZE_CELLS


def _check_data(kind: str, envelope: list[Any]) -> Any:
    """The data of an envelope of ``kind`` other than ``stdin``, as textual-serve's page sends it: ``["resize",
    {"width": W, "height": H}]`` (whole numbers of cells, 1 to :data:`MAX_RESIZE_CELLS`), ``["ping", "TEXT"]`` (at
    most :data:`MAX_PING_CHARACTERS` characters), ``["blur"]``, ``["focus"]``; raises :class:`BadMessage` for
    anything else."""
    if kind in ("blur", "focus"):
        if len(envelope) != 1:
            raise BadMessage(f"a {kind} with data (the protocol sends [{kind!r}] alone)")
        return None
    if len(envelope) != 2:
        raise BadMessage(f"a {kind} of {len(envelope)} items (the protocol sends two)")
    data = envelope[1]
    if kind == "resize":
        if not (isinstance(data, dict) and set(data) == {"width", "height"} and all(map(_is_cells, data.values()))):
            raise BadMessage(f"a resize that is not a width and a height in cells (1 to {MAX_RESIZE_CELLS:,})")
        return data
    if not (isinstance(data, str) and len(data) <= MAX_PING_CHARACTERS):
        raise BadMessage(f"a ping that is not text of at most {MAX_PING_CHARACTERS} characters")
    return data


#: The kinds :func:`read_message` gives the websocket's own ping and pong frames (the page's ``["ping", TEXT]`` is
#: another thing: ``ping``).
CONTROL_FRAMES = {WSMsgType.PING: "ping frame", WSMsgType.PONG: "pong frame"}


def read_message(
    message: Any, budget: InputBudget, sequences: KeySequences | None = None
) -> tuple[str, Any]:  # fmt: skip
    """The ``(kind, data)`` of one websocket message from a tab, checked against textual-serve's protocol exactly
    (kinds, how many items, types, finite numbers, ranges: :func:`_check_data`; with ``sequences``: the escape
    sequences of its keys, :class:`KeySequences`): raises :class:`BadMessage` saying why it ends the session."""
    if message.type == WSMsgType.ERROR:  # e.g. over MAX_MESSAGE_BYTES: aiohttp closes the connection (1009)
        raise BadMessage(f"the connection failed: {message.data}")
    if message.type in (WSMsgType.PING, WSMsgType.PONG):  # the websocket's own pings (not answered by aiohttp: a
        # tab sending them as fast as it could, 6 MB a second, was answered pong for pong, past the budget, never ended)
        if not budget.take(max(len(message.data), MESSAGE_COST)):
            raise BadMessage(f"more input than a tab may send ({RATE_BYTES:,} bytes a second, {BURST_BYTES:,} at once)")
        return CONTROL_FRAMES[message.type], message.data
    if message.type != WSMsgType.TEXT:
        raise BadMessage(f"a {getattr(message.type, 'name', message.type)} message (the protocol sends text)")
    text: str = message.data
    motion = len(text) <= _MOTION_MESSAGE_CHARACTERS and _MOTION_MESSAGE.fullmatch(text) is not None
    if not budget.take(MOTION_COST if motion else max(len(text), MESSAGE_COST)):
        raise BadMessage(f"more input than a tab may send ({RATE_BYTES:,} bytes a second, {BURST_BYTES:,} at once)")
    try:
        envelope = json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):  # a number of more digits than Python converts is a ValueError too
        raise BadMessage("a message that is not JSON") from None
    if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
        raise BadMessage("a message that is not a list starting with its kind")
    kind = envelope[0]
    if kind not in KINDS:
        raise BadMessage(f"an unknown kind of message {clean_line(kind[:40])!r}")
    if kind != "stdin":
        return kind, _check_data(kind, envelope)
    data = envelope[1] if len(envelope) == 2 else None
    if not isinstance(data, str):
        raise BadMessage("keys that are not text")
    try:
        keys = data.encode("utf-8")
    except UnicodeEncodeError:
        raise BadMessage("keys holding a lone surrogate (not UTF-8)") from None
    if len(keys) > MAX_KEYS_BYTES:
        raise BadMessage(f"{len(keys):,} bytes of keys in one message (at most {MAX_KEYS_BYTES:,})")
    beyond_bytes = key_presses(data) * KEY_COST - max(len(text), MESSAGE_COST)  # the bytes were taken above
    if not motion and beyond_bytes > 0 and not budget.take(beyond_bytes):
        raise BadMessage(f"more input than a tab may send ({RATE_BYTES // KEY_COST:,} key presses a second)")
    if sequences is not None:
        sequences.check(data)
    return kind, keys


class TabService(AppService):
    """textual-serve's :class:`~textual_serve.app_service.AppService` that keeps the app process it starts
    (:attr:`process`): textual-serve has no public way to reach it, so this overrides the one method that creates it
    (``tests/serve/test_serve_floods.py`` fails if that hook changes). :meth:`end` makes sure it is gone."""

    process: Process | None = None

    def __init__(self, command: str, *, write_bytes: Any, write_str: Any, write_stall: float = WRITE_STALL,
                 on_stall: Callable[[], None] | None = None, unsent: Callable[[], int] | None = None,
                 **kwargs: Any) -> None:  # fmt: skip
        super().__init__(command, write_bytes=self._to_tab(write_bytes), write_str=self._to_tab(write_str), **kwargs)
        #: Set once the app process's output ended (it exited or was killed).
        self.ended = asyncio.Event()
        #: True once a write to the tab failed (its websocket is closed): the app's output is read and dropped.
        self.tab_gone = False
        #: Seconds a write may wait while the browser reads nothing (:data:`WRITE_STALL`), what is called once one
        #: waited longer (the server drops the tab's connection; :attr:`stalled` is then True), and the bytes still
        #: unsent to the browser (its reads make them fewer: a slow browser that reads is never dropped).
        self.write_stall, self.on_stall, self.unsent = write_stall, on_stall, unsent
        self.stalled = False
        #: True once the app process drew anything: one that ends before it did could not start.
        self.drew = False

    def _to_tab(self, send: Any) -> Any:
        """``send`` (a write to the tab's websocket) made never to raise once the tab is gone: the output is then
        dropped, and the app process's output is still read to its end. textual-serve stopped reading at the first
        write that failed (a closed websocket raises ``ConnectionResetError``), so a process asked to quit after its
        tab closed had nobody reading its last frames, and the server, taking the read's end for the process's end,
        sent it SIGTERM at once, in the middle of storing its drill as abandoned (the grace was never given:
        benchmarks/README.md, "A closed tab's process")."""

        async def write(data: Any) -> None:
            if self.tab_gone:
                return
            try:
                await self._while_read(send(data))
            except ConnectionError:
                self.tab_gone = True
            except TimeoutError:  # the browser reads nothing: its output waits in aiohttp's buffer (its flow control)
                self.tab_gone = self.stalled = True
                if self.on_stall is not None:
                    self.on_stall()

        return write

    async def _while_read(self, sending: Any) -> None:
        """Await ``sending`` (a write to the tab) as long as its browser reads (:func:`~warroom.serve._stall.
        while_read`, :attr:`write_stall` seconds)."""
        await while_read(sending, self.write_stall, self.unsent)

    async def run(self) -> None:
        try:
            await super().run()
        finally:
            self.ended.set()

    async def on_data(self, payload: bytes) -> None:
        self.drew = True
        await super().on_data(payload)

    #: A pidfd of :attr:`process` (Linux): a signal sent through it never reaches another process, whatever
    #: happened to the pid. None where there is none (then a signal goes by pid, :func:`os.kill`).
    pidfd: int | None = None

    async def stop(self) -> None:
        """Ask the app process to quit (a drill being played is stored as abandoned) and wait until it has exited:
        its output read to the end, and its exit reported (so that :meth:`end` finds it gone and sends no signal).
        The caller bounds the wait (the server's ``STOP_GRACE``)."""
        await super().stop()
        if self.process is not None:
            await self.process.wait()

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        self.process = await super()._open_app_process(width, height)
        if self.process.stderr is not None:  # textual-serve writes it to the server's output when the app fails
            self.process.stderr = EscapedErrors(self.process.stderr)  # type: ignore[assignment]
        try:
            self.pidfd = os.pidfd_open(self.process.pid)
        except (AttributeError, OSError):  # not Linux 5.3+, or already gone (its exit is then reported anyway)
            self.pidfd = None
        return self.process

    def _signal(self, process: Process, signum: int) -> None:
        """Send ``signum`` to the app process **without reaping it**. asyncio's
        :meth:`~asyncio.subprocess.Process.send_signal` calls :meth:`subprocess.Popen.poll` first, which reaps a
        process that has exited but whose exit asyncio's child watcher has not reported yet: the watcher then finds
        no child ("Unknown child process pid N, will report returncode 255") and reports 255, hiding how it ended
        (a signal among them). Raises :class:`ProcessLookupError` when it is gone."""
        if process.returncode is not None:
            raise ProcessLookupError(process.pid)
        if self.pidfd is not None:
            signal.pidfd_send_signal(self.pidfd, signum)
        else:
            os.kill(process.pid, signum)

    async def end(self, grace: float = TERM_GRACE) -> int | None:
        """Make sure the app process is gone: SIGTERM (a drill being played is stored as abandoned), then, after
        ``grace`` seconds, SIGKILL. Returns how it ended (its return code; negative: the signal that ended it),
        None when it never started."""
        process = self.process
        if process is None:
            return None
        if process.returncode is None:
            for signum, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, None)):
                try:
                    self._signal(process, signum)
                except ProcessLookupError:
                    break
                try:
                    await asyncio.wait_for(process.wait(), wait)
                    break
                except TimeoutError:
                    continue
        code = await process.wait()
        if self.pidfd is not None:
            os.close(self.pidfd)
            self.pidfd = None
        return code


#: Most bytes of an app process's error output kept for the server's log (textual-serve kept all of it in memory).
STDERR_KEPT = 64 * 1024


class EscapedErrors:
    """An app process's standard error as textual-serve reads it (``read(n)``), which it then writes as it is to the
    server's output when the app failed to start or ended: its text with control characters and bidirectional
    controls escaped (:func:`~warroom.core.text.clean`, line breaks kept), as every line of the log is (a drill's
    title in a traceback wrote ``ESC [2J`` or ``U+202E`` to the facilitator's terminal), and at most
    :data:`STDERR_KEPT` bytes of it, the rest read and left out with a line saying so."""

    def __init__(self, stream: asyncio.StreamReader, kept: int = STDERR_KEPT) -> None:
        import codecs

        self._stream, self._left = stream, kept
        self._kept = kept
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._ended = False

    async def read(self, n: int = -1) -> bytes:
        from warroom.core.text import clean

        while not self._ended:
            data = await self._stream.read(n)
            if not data:
                self._ended = True
                return clean(self._decoder.decode(b"", final=True)).encode()
            if self._left <= 0:
                continue  # read and left out
            data, self._left = data[: self._left], self._left - len(data)
            text = clean(self._decoder.decode(data))
            if self._left <= 0:
                text += (f"{self._decoder.decode(b'', final=True)}\n(the rest of the app's error output left out: "
                         f"more than {self._kept:,} bytes)\n")
            if text:
                return text.encode()
        return b""


def terminal_size(width: int, height: int) -> tuple[int, int]:
    """A browser's terminal size bounded to what an app process is given: 1 to :data:`MAX_COLUMNS` columns and 1 to
    :data:`MAX_ROWS` rows."""
    return min(max(width, 1), MAX_COLUMNS), min(max(height, 1), MAX_ROWS)


class Resizes:
    """One tab's resizes given to its app process at most once per :data:`RESIZE_INTERVAL` seconds: a resize arriving
    sooner waits, and replaces any resize waiting, so a burst (a window dragged, 200 resizes in one second) costs the
    app two redraws, its first size and its last, not one per message. What the tab sends after a resize (keys, blur,
    focus) waits until that resize is given (:meth:`given`): the app reads them in the order sent. :attr:`applied`
    counts the sizes given. A failed write (:func:`_to_app`'s :class:`BadMessage`) is raised by the next :meth:`want` or
    :meth:`close`."""

    def __init__(self, service: AppService, interval: float = RESIZE_INTERVAL, clock: Any = time.monotonic) -> None:
        self.service, self.interval, self.clock = service, interval, clock
        self.pending: tuple[int, int] | None = None
        self.applied = 0
        self._next = 0.0  # when the next size may be given (``clock``'s time)
        self._task: asyncio.Future[None] | None = None

    def want(self, width: int, height: int) -> None:
        """The tab's size is now ``width`` x ``height`` (bounded by :func:`terminal_size`): given to the app now, or
        once the interval since the last one has passed."""
        self._raise_failure()
        self.pending = terminal_size(width, height)
        if self._task is None:
            self._task = asyncio.ensure_future(self._give())

    async def _give(self) -> None:
        while self.pending is not None:
            wait = self._next - self.clock()
            if wait > 0:
                await asyncio.sleep(wait)
            (width, height), self.pending = self.pending, None
            await _to_app(self.service.set_terminal_size(width, height))
            self.applied += 1
            self._next = self.clock() + self.interval
        self._task = None

    async def given(self) -> None:
        """Wait until every size wanted so far has been given to the app process (at most one interval): a key, a
        blur or a focus sent after a resize then reaches the app after that resize, never before it (the first resize
        of a tab was only scheduled when its next message, a key, was written to the app at once, and a key sent
        while a resize waited went ahead of it: the app read keys against a screen of another size). Raises a
        write's failure."""
        task = self._task
        if task is None:
            return
        try:
            await task
        except BaseException:
            self._task = None
            raise

    def _raise_failure(self) -> None:
        task = self._task
        if task is not None and task.done():
            self._task = None
            task.result()  # a BadMessage: the app process no longer reads its input

    async def close(self) -> None:
        """Stop giving sizes (the tab's session ends); raises a write's failure not raised yet."""
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError):  # cancelled just above: nothing left to give
                await task


def _trace(service: AppService, what: str) -> None:
    """One line of the key trace (:func:`~warroom.core.settings.trace_key`, when ``$WARROOM_KEY_TRACE`` is set): what
    the relay did with a message of the tab of ``service``'s app process."""
    process = getattr(service, "process", None)
    trace_key("serve", f"tab of app{getattr(process, 'pid', '?')}: {what}")


def _received(at: float) -> Any:
    """The meta packet that tells the app process when the relay received the keys written after it (its
    :func:`time.monotonic`, the same clock in every process of the host; docs/serve.md, "When a key counts")."""
    return {"type": KEYS_RECEIVED_META, "at": at}


async def _to_app(sending: Any) -> Any:
    """Await ``sending`` (a write to the app process's input) for at most :data:`INPUT_TIMEOUT` seconds; raises
    :class:`BadMessage` past that: the process no longer reads its input (hung, or stopped), its pipe is full, and
    the write would wait for ever, holding the tab's seat and its process (which a closed tab ends) with it. Returns
    what ``sending`` returns (textual-serve's writes: False when the process's input is closed)."""
    try:
        return await asyncio.wait_for(sending, INPUT_TIMEOUT)
    except TimeoutError:
        raise BadMessage(f"its app process took no input for {INPUT_TIMEOUT:g} s (it no longer reads it)") from None


async def relay_messages(websocket: web.WebSocketResponse, service: AppService, resizes: Resizes | None = None,
                         who: str = "a tab", hearing: Hearing | None = None) -> None:  # fmt: skip
    """Pass the browser's keys, resizes (through ``resizes``, which bounds and spaces them: :class:`Resizes`), focus
    changes and pings to the app process (textual-serve's protocol), until the browser goes away. Raises
    :class:`BadMessage` for a message that ends the session, and when the app process stops taking its input
    (:func:`_to_app`). Each message read is noted in ``hearing`` (:mod:`warroom.serve._heartbeat`)."""
    budget, sequences = InputBudget(), KeySequences()
    resizes = resizes or Resizes(service)
    try:
        await _relay(websocket, heard(websocket, hearing or Hearing()), service, budget, sequences, resizes, who)
    finally:
        await resizes.close()


async def _relay(websocket: Any, messages: AsyncIterator[Any], service: AppService, budget: InputBudget,
                 sequences: KeySequences, resizes: Resizes, who: str) -> None:  # fmt: skip
    async for message in messages:
        received = time.monotonic()  # the keys' time for the app (warroom.tui.app's KeyClock), before any wait below
        try:
            kind, data = read_message(message, budget, sequences)
        except BadMessage as exc:
            _trace(service, f"refused ({exc}); the session ends")
            raise
        if kind == "ping frame":  # answered here, within the budget (the websocket is made without autoping)
            try:
                await websocket.pong(data)
            except ConnectionError:  # the tab went away meanwhile: its session ends as a closed tab's does (aiohttp's
                return  # own answer raised "Cannot write to closing transport" out of the loop: a traceback in the log)
            continue
        if kind == "pong frame":  # a browser's answer to the server's heartbeat
            continue
        if kind in ("resize", "blur", "focus"):
            _trace(service, f"{kind} {data or ''}".strip())
        if kind in ("stdin", "blur", "focus"):  # in the order sent: after the sizes wanted before them
            await resizes.given()
        if kind == "stdin":
            if sequences.paste_open:  # a paste left open would hold every later key: ended with its message, before
                cut = max(len(data) - len(sequences.carry), 0)  # a key sequence it leaves unfinished (ASCII): the next
                data = data[:cut] + PASTE_END.encode() + data[cut:]  # message ends that one, outside the paste
                sequences.pastes_ended += 1
                if sequences.pastes_ended == 1:  # said once a tab: a tab sending such pastes writes no log full
                    log.info("a paste of %s was left open (no ESC [201~ at the end of its message): ended there, "
                             "and any more of this tab's are", who)
            if data:  # an empty packet would stop the app process's input parser: no key reaches it after it
                await _to_app(service.send_meta(_received(received)))  # when they came: an action they set off is
                sent = await _to_app(service.send_bytes(data))  # timed then, not when a loaded app reads them
                written = "NOT written (its input closed)" if sent is False else "written"
                _trace(service, f"keys {data!r:.80} {written}; budget left {budget.tokens:.0f} bytes")
            else:
                _trace(service, "empty keys dropped")
        elif kind == "resize":
            resizes.want(data["width"], data["height"])
        elif kind == "ping":
            try:
                await websocket.send_json(["pong", data])
            except ConnectionError:  # the tab went away meanwhile (aiohttp: "Cannot write to closing transport"):
                return  # its session ends as a closed tab's does, not as a failure with a traceback in the log
        elif kind == "blur":
            await _to_app(service.blur())
        elif kind == "focus":
            await _to_app(service.focus())


#: The errors of an app process that could not start because this host ran out of open files, processes or memory.
_OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.EAGAIN, errno.ENOMEM})


async def start_app(websocket: web.WebSocketResponse, service: TabService, width: int, height: int,
                    who: str = "a tab") -> bool:  # fmt: skip
    """Start the tab's app process; False when this host cannot start one (no open file, process or memory left for
    it: ``EMFILE``, ``ENFILE``, ``EAGAIN``, ``ENOMEM``), said in one line of the log and to the tab, whose
    connection is closed with :data:`COULD_NOT_START`. It was a traceback in the log ("a served session failed") and
    a tab closed as normal, "Session ended." with nothing said, for each tab opened while the host's open files ran
    out. Any other OSError (an interpreter missing, ``ENOENT``; one not allowed to run, ``EACCES``) is no such
    limit: it is raised, a served session's failure (its server's log says which)."""
    try:
        await service.start(width, height)
    except OSError as exc:
        if exc.errno not in _OUT_OF_RESOURCES:
            raise
        log.warning("the app process of %s could not start: %s: this host has no open file, process or memory left "
                    "for it (raise its limits, ulimit -n and ulimit -u, or lower --max-sessions)", who,
                    exc.strerror or exc)  # fmt: skip
        await websocket.close(code=WSCloseCode.GOING_AWAY, message=COULD_NOT_START.encode())
        return False
    return True


async def relay_until_ended(websocket: web.WebSocketResponse, service: TabService, who: str = "a tab",
                            heartbeat_every: float | None = None) -> None:  # fmt: skip
    """:func:`relay_messages` until the browser goes away or the app process ends; in the second case the websocket
    is closed now (the browser shows that the session ended), not left open on a frozen screen. Raises
    :class:`BadMessage` as :func:`relay_messages` does, and when the browser is gone: pinged after
    ``heartbeat_every`` quiet seconds, it did not answer (:func:`~warroom.serve._heartbeat.heartbeat`)."""
    hearing = Hearing()
    relay = asyncio.ensure_future(relay_messages(websocket, service, who=who, hearing=hearing))
    ended = asyncio.ensure_future(service.ended.wait())
    tasks: set[asyncio.Future[Any]] = {relay, ended}
    if heartbeat_every is not None:
        tasks.add(asyncio.ensure_future(heartbeat(websocket, hearing, heartbeat_every, service.unsent or _none)))
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        if relay in done:
            relay.result()  # a BadMessage ends the session
        elif ended not in done:  # the heartbeat's: the browser is gone
            raise BrowserGone(next(iter(done)).result())
        elif service.drew:
            log.info("a served app process ended; its tab is told the session ended")
            await websocket.close(code=WSCloseCode.GOING_AWAY, message=b"the war room closed")
        else:  # it ended before it drew anything (a store it refuses to start on): the browser said "Session ended."
            # over a blank terminal, and nobody but the server's log knew why
            log.warning("the app process of %s could not start (the lines above say why): its tab is told so", who)
            await websocket.close(code=WSCloseCode.GOING_AWAY, message=COULD_NOT_START.encode())
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _none() -> int:
    """No bytes unsent (a service that cannot tell)."""
    return 0
