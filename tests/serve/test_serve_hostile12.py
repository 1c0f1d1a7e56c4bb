"""Hostile and careless use of ``warroom serve`` (issue 30, campaign 12: the day's new code of the served room: the
write-stall drop, pastes left open, the event-driven waits): what it found and what now holds."""

from __future__ import annotations

import asyncio


def _service(send, *, stall: float, unsent=None):  # type: ignore[no-untyped-def]
    from warroom.serve._tab import TabService

    dropped: list[bool] = []
    service = TabService("true", write_bytes=send, write_str=send, write_stall=stall, unsent=unsent,
                         on_stall=lambda: dropped.append(True), close=None, download_manager=None)  # fmt: skip
    return service, dropped


# --- the write-stall drop ---------------------------------------------------------------------------------------


async def test_a_slow_but_reading_browser_is_not_dropped_however_long_one_write_takes():
    """A write of a tab's screen that waited ``$WARROOM_SERVE_WRITE_STALL`` seconds dropped the tab, and the log said
    its browser "read none of its screen", also when the browser read all the while, only slowly (a 64 KiB frame
    over a slow link: about 2 KiB a second drains aiohttp's buffer in more than 30 s). Now a tab is dropped only when
    its browser read nothing for that long: each time the unsent bytes went down, the wait starts again."""
    left = [60_000]

    async def reading(data: bytes) -> None:  # a browser reading 10,000 bytes every 0.1 s: done in 0.6 s
        while left[0] > 0:
            await asyncio.sleep(0.1)
            left[0] -= 10_000

    service, dropped = _service(reading, stall=0.25, unsent=lambda: left[0])
    await service.remote_write_bytes(b"frame")
    assert left[0] == 0 and not dropped and not service.stalled and not service.tab_gone


async def test_a_browser_that_reads_nothing_is_still_dropped_after_the_stall():
    """The other side: a browser that reads nothing (its unsent bytes never go down) is dropped once, after the
    stall, and the tab's later output is dropped unsent."""
    calls = []

    async def stuck(data: bytes) -> None:
        calls.append(data)
        await asyncio.Event().wait()

    service, dropped = _service(stuck, stall=0.2, unsent=lambda: 70_000)
    await asyncio.wait_for(service.remote_write_bytes(b"frame"), 5)
    await service.remote_write_bytes(b"next")
    assert dropped == [True] and service.stalled and service.tab_gone and calls == [b"frame"]


async def test_a_write_that_need_not_wait_is_never_taken_for_a_stall():
    """A write that does not have to wait (its browser reads) is never a stall, whatever the setting: with the least
    stall allowed, a small frame goes out and the tab stays."""
    sent = []

    async def send(data: bytes) -> None:
        sent.append(data)

    service, dropped = _service(send, stall=1.0, unsent=lambda: 0)
    await service.remote_write_bytes(b"x")
    assert sent == [b"x"] and not dropped


def test_a_write_stall_of_0_seconds_is_refused_not_a_drop_of_every_tab():
    """``$WARROOM_SERVE_WRITE_STALL=0`` was accepted (docs/serve.md: "from 0 to 3,600") and dropped every tab at its
    first screen: a write given 0 s is cancelled before it runs (``asyncio.wait_for`` with no time), so no trainee
    could play at all. Now the least is 1 s: 0 (or less) is said at start and 30 s used."""
    from warroom.serve._server import MAX_WRITE_STALL, MIN_WRITE_STALL, seconds_setting
    from warroom.serve._tab import WRITE_STALL

    def read(text: str) -> tuple[float, str | None]:
        return seconds_setting("WARROOM_SERVE_WRITE_STALL", text, WRITE_STALL, MAX_WRITE_STALL, MIN_WRITE_STALL)

    assert read("1") == (1.0, None) and read("4") == (4.0, None)
    for bad in ("0", "0.5", "-0"):
        stall, warning = read(bad)
        assert stall == 30.0 and warning == (f"$WARROOM_SERVE_WRITE_STALL is '{bad}', no number of seconds from 1 to "
                                             "3,600: 30 s is used (set a number such as 30, or unset it)")  # fmt: skip
    from warroom.serve._server import stop_grace

    assert stop_grace("0") == (0.0, None)  # a stop grace of 0 stays allowed (no grace)


# --- a paste left open, its message ending in a key sequence cut short -----------------------------------------


async def test_a_paste_left_open_is_ended_before_a_key_sequence_its_message_leaves_unfinished():
    """A paste left open at the end of its message was ended after all of it, also when the message ended in a key
    sequence cut short (``ESC``, ``ESC [1;5``, ``ESC [201``) whose rest came in the next message: the app's input
    parser then read the cut sequence inside the paste as keys (an ESC, which closes the escalation dialog, or
    ``^ [ 2 0 1``, hotkeys of the war room) and the rest, next message, as typed text (``[A``). Now the end goes
    before the unfinished sequence, which is completed by the next message as it would have been."""
    from warroom.serve._tab import relay_messages

    from .test_serve_left7 import _Service, _Tab

    def given(service: _Service) -> str:
        """What the app process was given, as one text (the bytes of its input pipe)."""
        return b"".join(bytes(g) for g in service.given if isinstance(g, bytes)).decode()  # type: ignore[arg-type]

    # The paste's end (ESC [201~) goes before the cut sequence, which the next message completes: the app's input
    # parser reads the paste "abc", then the key the sequence is (up, ctrl+up, down) or x after an end of no paste.
    cases = {
        ("\x1b[200~abc\x1b", "[A"): "\x1b[200~abc\x1b[201~\x1b[A",
        ("\x1b[200~abc\x1b[1;5", "A"): "\x1b[200~abc\x1b[201~\x1b[1;5A",
        ("\x1b[200~abc\x1b[201", "~x"): "\x1b[200~abc\x1b[201~\x1b[201~x",
        ("\x1b[200~abc\x1b[", "B"): "\x1b[200~abc\x1b[201~\x1b[B",
        ("\x1b[200~abc", "x"): "\x1b[200~abc\x1b[201~x",  # no sequence cut: as before
    }
    for messages, wanted in cases.items():
        service = _Service()
        await relay_messages(_Tab([["stdin", keys] for keys in messages]), service)  # type: ignore[arg-type]
        assert given(service) == wanted, (messages, service.given)
