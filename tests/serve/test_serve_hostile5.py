"""A fifth fresh hostile campaign on ``warroom serve`` and its console (issue 30): each case a hostile client or a
faulty world found, with the right behaviour."""

from __future__ import annotations

import asyncio

import pytest
from click.testing import CliRunner
from serve_support import FACILITATOR, serving

from warroom.cli import main

#: Times that read as dates but whose UTC reading is before year 1 or after year 9999.
OUT_OF_RANGE = ["0001-01-01T00:00+01:00", "9999-12-31T23:59-01:00"]


async def test_a_gradebook_date_outside_the_years_utc_holds_is_a_bad_request_not_a_500(tmp_path):
    """``?since=0001-01-01T00:00+01:00`` is a valid ISO time whose UTC reading is before year 1: converting it raised
    OverflowError, an HTTP 500 with a traceback in the server's log at any facilitator's (or any typo's) will. It is
    a 400 naming the date, as any date not understood is."""
    with serving(tmp_path) as served:
        facilitator = await served.signed_in(FACILITATOR)
        async with facilitator:
            for key in ("since", "until"):
                for value in OUT_OF_RANGE:
                    async with facilitator.get("/console/gradebook.csv", params={key: value}) as r:
                        text = await r.text()
                    assert r.status == 400, (key, value, text)
                    wanted = f"a date is not understood: {value!r} is outside the years 1 to 9999 once read as UTC"
                    assert text == wanted
        log = served.log.read_text()
    assert "Traceback" not in log and "OverflowError" not in log


@pytest.mark.parametrize("value", OUT_OF_RANGE)
def test_a_since_outside_the_years_utc_holds_is_a_usage_error_not_a_traceback(tmp_path, value):
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "scores", "list", "--since", value])
    assert result.exit_code == 2, result.output
    assert f"Invalid value for --since: {value!r} is outside the years 1 to 9999 once read as UTC" in result.output


async def test_one_trainee_asking_for_the_page_again_and_again_never_takes_the_class_seats(tmp_path):
    """Each served terminal page holds a seat for 60 s until its tab connects: a trainee reloading, or a script
    asking for ``/`` in a loop, held every seat of ``--max-sessions`` (the class got "all seats taken" for a minute at
    a time, again and again). A trainee's pages hold at most two seats waiting: asking again lets go of their oldest;
    the others' seats and the limit itself hold."""
    from warroom.serve._server import SEATS_WAITING_PER_TRAINEE

    with serving(tmp_path, "--max-sessions", "3") as served:
        ada = await served.signed_in("Ada Lovelace")
        grace = await served.signed_in("Grace Hopper")
        async with ada, grace:
            statuses = []
            for _ in range(10):
                async with ada.get("/") as r:
                    statuses.append(r.status)
            assert statuses == [200] * 10
            async with grace.get("/") as r:
                assert r.status == 200  # the seat Ada's ten pages left
            async with grace.get("/") as r:
                text = await r.text()
            assert r.status == 503 and "all seats taken" in text  # 2 of Ada's, 1 of Grace's: the limit holds
    assert SEATS_WAITING_PER_TRAINEE == 2


def test_a_roster_file_gone_while_serving_keeps_the_last_one_read(tmp_path, caplog):
    """The roster file moved or deleted while the server runs (an editor that deletes before it writes, a sync tool):
    a missing file reads as an empty roster, so every sign-in ended, the facilitator's too, and nobody could sign in
    until it came back. The docs promise that a roster file that no longer reads keeps the last good one: it does,
    and the file written again is followed as before."""
    import time

    from serve_support import TOKENS, write_roster

    from warroom.serve import Roster
    from warroom.serve._signin import SignIn, SignIns

    path = write_roster(tmp_path / "roster.yaml")
    roster = Roster.load(path)
    signins = SignIns(roster, "nobody", roster_path=path)
    asyncio.run(signins.reload_roster())  # the first look: the file as it is now
    signins._records["ada"] = SignIn("Ada Lovelace", "trainee", roster.entries["Ada Lovelace"], time.monotonic())
    path.unlink()
    signins._roster_looked = 0.0
    asyncio.run(signins.reload_roster())
    assert signins.roster == roster and list(signins._records) == ["ada"]
    assert f"the roster file {path} is gone; the last one read stays in use" in caplog.text
    write_roster(path, {"Grace Hopper": TOKENS["Grace Hopper"]})  # back, without Ada
    signins._roster_looked = 0.0
    asyncio.run(signins.reload_roster())
    assert signins.roster is not None and signins.roster.trainees == ["Grace Hopper"] and signins._records == {}


def test_facilitators_of_two_hosts_noting_one_session_at_once_all_have_their_notes_stored(tmp_path, backend_url):
    """Several serve hosts on one PostgreSQL store: each note takes the session's next number (``max(seq) + 1``), and
    two facilitators noting one session at the same moment both read the same number; the second was refused on
    the duplicate key ("The note was not stored", the note lost). The session's row is locked while its note is
    numbered: every note is stored, numbered 1 to N without a gap."""
    import threading

    from handcohort_support import Play, play

    from warroom.store.results import ResultsStore

    data = tmp_path / "data"
    session_id = play(data, Play("Ada Lovelace", "A", (("esc", 12, "s1", ("e06",)),)))
    errors: list[str] = []

    def facilitator(i: int) -> None:
        try:
            with ResultsStore(data, url=backend_url) as store:
                for j in range(8):
                    store.add_note(session_id, author=f"F{i}", text=f"note {i}.{j}", at=f"2026-12-06T13:00:0{j}Z")
        except Exception as exc:  # the failure to report
            errors.append(f"{type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=facilitator, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with ResultsStore(data, url=backend_url) as store:
        notes = store.facilitator_notes([session_id])[session_id]
    assert errors == []
    assert sorted(n.seq for n in notes) == list(range(1, 33))
    assert sorted(n.text for n in notes) == sorted(f"note {i}.{j}" for i in range(4) for j in range(8))


async def test_a_console_whose_browser_stopped_reading_ends_its_live_stream_without_a_traceback(
    tmp_path, monkeypatch, caplog
):
    """A facilitator's laptop asleep with the live page open stops reading its server-sent events: once the socket's
    buffers are full, a send waits ``send_timeout`` (120 s) and raises TimeoutError, which the stream let through (a
    traceback in the server's log, "Error handling request"); only a reset connection was caught. Both end the
    stream quietly, as a closed tab does."""
    import aiohttp
    from aiohttp import web
    from aiohttp.test_utils import TestClient, TestServer
    from aiohttp_sse import EventSourceResponse

    from warroom.serve._console import Console
    from warroom.serve._live import LiveClass
    from warroom.serve._signin import SignIns

    sent: list[str] = []

    async def stalled(self: EventSourceResponse, data: str, **_: object) -> None:
        sent.append(data)
        raise TimeoutError  # what aiohttp_sse raises (after aborting the transport) for a client that stopped reading

    monkeypatch.setattr(EventSourceResponse, "send", stalled)
    console = Console(SignIns(None, "nobody"), LiveClass(host="here", data_dir=tmp_path), tmp_path)
    app = web.Application()
    app.router.add_get("/events", console.live_events)
    async with TestClient(TestServer(app)) as client:
        try:
            async with client.get("/events") as r:
                await r.read()
        except aiohttp.ClientError:
            pass  # the transport aborted: the browser sees its stream end
    assert len(sent) == 1
    assert "Error handling request" not in caplog.text and "Traceback" not in caplog.text
    assert "TimeoutError" not in caplog.text
