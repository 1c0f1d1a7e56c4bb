"""Hostile and careless use of ``warroom serve`` (issue 30, campaign 16: the day's new code of the served room: the
write stall of pages and of the console's live stream, the log filters): what it found and what now holds."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest

# --- the write stall: a slow client that reads is never dropped -----------------------------------------------------


async def test_a_write_whose_bytes_were_not_unsent_before_it_is_not_a_stall_while_its_client_reads():
    """The unsent bytes were first counted before the write added its own (0 for a page: aiohttp's buffer was
    empty), so the first look after the stall found more unsent than that and dropped the client, however fast it
    read: a console page of 3 MB read at 120 KB/s was cut after the stall's seconds. Now each look is against the one
    before it, and only a stall's seconds without any going down drop the client."""
    from warroom.serve._stall import while_read

    left = [0]

    async def write() -> None:  # the write puts 60,000 bytes in the buffer, which its client reads 5,000 at a time
        left[0] = 60_000
        while left[0] > 0:
            await asyncio.sleep(0.02)
            left[0] -= 5_000

    await asyncio.wait_for(while_read(write(), 0.1, lambda: left[0]), 5)
    assert left[0] == 0


async def test_a_client_that_reads_none_of_a_write_is_still_dropped_after_the_stall():
    from warroom.serve._stall import while_read

    loop = asyncio.get_running_loop()
    start = loop.time()
    try:
        await asyncio.wait_for(while_read(asyncio.Event().wait(), 0.1, lambda: 70_000), 5)
    except TimeoutError:
        took = loop.time() - start
    assert 0.1 <= took < 1


async def test_a_client_that_reads_half_then_stops_is_dropped_a_stall_after_its_last_read():
    from warroom.serve._stall import while_read

    left = [0]

    async def write() -> None:  # read for 0.2 s, then never again
        left[0] = 60_000
        for _ in range(10):
            await asyncio.sleep(0.02)
            left[0] -= 3_000
        await asyncio.Event().wait()

    loop = asyncio.get_running_loop()
    start = loop.time()
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(while_read(write(), 0.1, lambda: left[0]), 5)
    assert left[0] == 30_000 and 0.3 <= loop.time() - start < 1.5


async def test_the_unsent_bytes_count_those_the_system_holds_for_a_client_that_reads_slowly():
    """aiohttp's buffer is empty once the system took the bytes (megabytes on loopback): it stayed the same while the
    system's send queue drained to a slow client, for longer than the stall, and the client was dropped while
    reading. The bytes in the socket's send queue are counted too (Linux's ``TIOCOUTQ``)."""
    from warroom.serve._stall import unsent_bytes

    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)  # its connection's window: small, it fills at once
    server.bind(("127.0.0.1", 0))
    server.listen()
    try:
        _reader, writer = await asyncio.open_connection(*server.getsockname())
        peer, _ = server.accept()  # reads slowly
        try:
            writer.write(b"x" * 100_000)
            async with asyncio.timeout(5):
                await writer.drain()
            held = writer.transport.get_write_buffer_size()
            before = unsent_bytes(writer.transport)
            assert before > held + 50_000  # most of it in the system's queue
            async with asyncio.timeout(5):
                while unsent_bytes(writer.transport) == before:
                    peer.recv(4_096)
            assert writer.transport.get_write_buffer_size() == held and unsent_bytes(writer.transport) < before
            writer.close()
            assert unsent_bytes(writer.transport) is None
        finally:
            peer.close()
    finally:
        server.close()


# --- a host started again tells each trainee of their sessions killed with the last one --------------------------


def test_a_host_started_again_keeps_the_notice_of_a_killed_session_of_its_own_trainee(tmp_path, monkeypatch):
    """`warroom serve` records the sessions killed with the host before it (a power cut) at its start, as if shown to
    its own trainee (the OS user, or --trainee): their notice was not kept, though only the server's log said it. That
    trainee is every tab's without a roster (or a roster name that is the OS user's), so the trainee whose drill was
    killed was never told in their next tab. Now each trainee's notice is kept for their next start."""
    from click.testing import CliRunner

    from warroom.cli import main
    from warroom.core.load import load_drill
    from warroom.core.play import Replay
    from warroom.serve import WarroomServer
    from warroom.store.journal import SessionRecorder, take_notices
    from warroom.store.results import ResultsStore

    path = Path(__file__).resolve().parents[2] / "drills" / "duplicate-charge-refunds.yaml"
    recorder = SessionRecorder.start(tmp_path, "ann", path, load_drill(path))
    Replay(recorder.drill, on_action=recorder.record).advance_to(5)
    recorder.close()  # killed with its host
    monkeypatch.setattr(WarroomServer, "serve", lambda self, debug=False: None)  # it would listen here
    monkeypatch.setattr("warroom.cli.serve._warm_picker_cache", lambda settings: None)
    result = CliRunner().invoke(main, ["--trainee", "ann", "--data-dir", str(tmp_path), "serve", "--port", "0"])
    assert result.exit_code == 0, result.output
    with ResultsStore(tmp_path) as store:
        assert store.get(recorder.session_id).outcome == "abandoned"
    (notice,) = take_notices(tmp_path, "ann")
    assert notice.startswith(f"recovered session {recorder.session_id} (duplicate-charge-refunds): its warroom stopped")


# --- $WARROOM_SERVE_WRITE_STALL and $WARROOM_SERVE_STOP_GRACE: a number written in ASCII digits -------------------


def test_a_seconds_setting_in_another_number_form_is_said_and_the_default_used():
    """``1_0`` set 10 s, ``٣`` (an Arabic-Indic three) 3 s and ``５`` (full width) 5 s, Python's ``float`` reading
    them, with nothing said: the docs' "a number of seconds" is written in ASCII digits. Now they are said, and the
    default used, as ``5s`` is."""
    from warroom.serve._server import MAX_WRITE_STALL, MIN_WRITE_STALL, seconds_setting, stop_grace

    def read(text: str) -> tuple[float, str | None]:
        return seconds_setting("WARROOM_SERVE_WRITE_STALL", text, 30.0, MAX_WRITE_STALL, MIN_WRITE_STALL)

    for text in ("1_0", "٣", "５", "0x10", "1,5"):
        stall, warning = read(text)
        assert stall == 30.0 and warning is not None and warning.startswith(f"$WARROOM_SERVE_WRITE_STALL is '{text}'")
    assert [read(text)[0] for text in (" 5 ", "2.5", "1e3", "+7", "30.", ".5e1")] == [5, 2.5, 1000, 7, 30, 5]
    assert stop_grace("0") == (0.0, None) and stop_grace("1_5")[1] is not None


# --- serve roster remove/rotate: the did-you-mean of a name in other letter case ---------------------------------


def test_a_roster_name_typed_in_other_letter_case_gets_its_did_you_mean():
    """'Alan Turning' got `Alan Turing` as its did-you-mean, 'ALAN TURING' nothing (a slip-of-the-keyboard rule
    counts every letter of another case as a slip), though it is the nearer of the two."""
    from warroom.serve._roster import Roster

    roster = Roster({"Alan Turing": "h1", "Ada": "h2"})
    assert roster.not_on_it(["ALAN TURING", "alan turing", "Alan Turning", "Grace"]) == (
        "not on the roster: 'ALAN TURING' (did you mean `Alan Turing`?), 'alan turing' (did you mean `Alan Turing`?), "
        "'Alan Turning' (did you mean `Alan Turing`?), 'Grace'"
    )
