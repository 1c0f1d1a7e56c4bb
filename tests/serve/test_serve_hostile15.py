"""Hostile input to ``warroom serve`` (issue 30, campaign 15: the served room's life cycle and the console, as a hostile
user and a faulty world drive them): what it found and what now holds."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from serve_support import FACILITATOR, Served, shared_serving

from warroom.core.library import bundled_drills_dir

#: The session a host killed with its class left in its data directory, before this module's server starts.
KILLED_TRAINEE, KILLED_DRILL = "Grace Hopper", "duplicate-charge-refunds"


def _a_session_killed_mid_drill(data_dir: Path) -> str:
    """A journal of ``KILLED_TRAINEE`` playing ``KILLED_DRILL`` as a host killed with its tabs' processes leaves it
    (a power cut, the OOM killer): started, one action, no end. Returns its session id."""
    from warroom.core.load import load_drill
    from warroom.core.play import Replay
    from warroom.store.journal import SessionRecorder

    path = bundled_drills_dir() / f"{KILLED_DRILL}.yaml"
    recorder = SessionRecorder.start(data_dir, KILLED_TRAINEE, path, load_drill(path), mode="assessment")
    replay = Replay(recorder.drill, on_action=recorder.record)
    replay.advance_to(5)
    replay.inspect("e01")
    recorder.close()  # its process gone: the journal left unfinished
    return recorder.session_id


@pytest.fixture(scope="module")
def served(tmp_path_factory):  # type: ignore[no-untyped-def]
    """One `warroom serve` for this module's served cases (each its own trainee or page: none ends another's), over
    a data directory holding a session killed with the host that served it before."""
    folder = tmp_path_factory.mktemp("hostile15")
    killed = _a_session_killed_mid_drill(folder / "data")
    with shared_serving(folder) as server:
        server.killed = killed  # type: ignore[attr-defined]
        yield server

# --- a tab closed mid-drill while the store cannot take its session -----------------------------------------------


def _a_played_app(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A war room app (on a mock clock) opened at a bundled drill's briefing, for one trainee of ``tmp_path``."""
    from textual.clock import MockClock

    from warroom.tui.app import WarroomApp
    from warroom.tui.logic import Services, load_entry

    entry = load_entry(bundled_drills_dir() / "duplicate-charge-refunds.yaml")
    services = Services(trainee="Ada Lovelace", data_dir=tmp_path / "data")
    return WarroomApp(services, start=entry, clock=MockClock())


def _block_the_results_file(data_dir: Path) -> None:
    """A folder where the results file was: no user, root included, opens it as a database."""
    for name in os.listdir(data_dir):
        if name.startswith("results.sqlite3"):
            os.remove(data_dir / name)
    (data_dir / "results.sqlite3").mkdir()


@pytest.mark.parametrize("broken", ["store", "journal"])
async def test_a_drill_left_by_the_app_s_exit_whose_session_cannot_be_stored_is_said_not_a_traceback(tmp_path, broken):
    """A served tab closed mid-drill makes its app process exit (textual-serve's quit: the app exits, no signal), and
    the drill is stored as abandoned after the app has gone (``launch``'s ``close_open_session``). When the store
    refused it (its data folder deleted or made unusable while serving) or the journal could no longer be written,
    the war room's message about it asked the app that had gone (``NoActiveAppError``): a traceback in the server's
    log, and the note saying where the session is kept was lost."""
    app = _a_played_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")  # the drill starts
        await pilot.press("space")  # one action journalled
        await pilot.pause()
        live = app.live
        assert live is not None
        if broken == "store":
            _block_the_results_file(tmp_path / "data")
        else:
            from tests.tui.test_journal_failure import break_journal

            break_journal(live)
        app.exit()  # as the web driver's quit does
    app.close_open_session()  # raised NoActiveAppError
    (note,) = app.exit_notes
    said = "Your result was NOT stored" if broken == "store" else "The session was not stored"
    assert note.startswith(said) and "the next start of warroom" in note, note
    journals = list((tmp_path / "data" / "journals").glob("*.jsonl"))
    assert len(journals) == 1  # kept, for the next start to store


# --- a roster file caught while it is being written -------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "trainees:\n", "# warroom serve roster\n", "trainees: []\n"])
def test_a_roster_file_emptied_while_serving_keeps_the_last_one_read(tmp_path, caplog, text):
    """A roster file written in place (``cat > roster.yaml``, an editor that truncates then writes) is empty for a
    moment; the server, looking once a second, read it as a roster of nobody: every sign-in of the class ended, the
    facilitator's too, and nobody could sign in until the write ended. A roster without a name is refused at start
    (``the roster has no trainees``); read again it is a roster that no longer reads: the last one read stays in use,
    and the file once written whole is followed as before."""
    import time

    from serve_support import TOKENS, write_roster

    from warroom.serve import Roster
    from warroom.serve._signin import SignIn, SignIns

    path = write_roster(tmp_path / "roster.yaml")
    roster = Roster.load(path)
    signins = SignIns(roster, "nobody", roster_path=path)
    asyncio.run(signins.reload_roster())  # the first look: the file as it is now
    signins._records["ada"] = SignIn("Ada Lovelace", "trainee", roster.entries["Ada Lovelace"], time.monotonic())
    path.write_text(text)
    signins._roster_looked = 0.0
    asyncio.run(signins.reload_roster())
    assert signins.roster == roster and list(signins._records) == ["ada"]
    assert "the roster changed and names nobody" in caplog.text and "the last one read stays in use" in caplog.text
    write_roster(path, {"Grace Hopper": TOKENS["Grace Hopper"]})  # written whole, without Ada
    signins._roster_looked = 0.0
    asyncio.run(signins.reload_roster())
    assert signins.roster is not None and signins.roster.trainees == ["Grace Hopper"] and signins._records == {}


# --- the served pages where scripts do not run --------------------------------------------------------------------


def _text_shown_without_scripts(page: str) -> str:
    """What a browser running no script shows of ``page``: its text, scripts and styles left out, ``<noscript>``'s
    content shown."""
    import html
    import re

    page = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", page, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


async def test_the_war_room_page_says_it_needs_scripts_where_they_do_not_run(served: Served):
    """A trainee whose browser runs no script for the server (scripts blocked, a school's policy) got textual-serve's
    page whole: the app's name and a Start button, a script, that did nothing when pressed, and said nothing."""
    async with await served.signed_in("Ada Lovelace") as ada, ada.get("/") as r:
        assert r.status == 200
        shown = _text_shown_without_scripts(await r.text())
    assert "The war room runs in this page with JavaScript, which this browser does not run here: allow scripts for " \
           "this site (or open it in another browser), then reload the page." in shown, shown


async def test_the_live_class_says_it_is_not_updated_where_scripts_do_not_run(served: Served):
    """The live page said "Updated as it happens." in its HTML, and only its script updates it: a facilitator whose
    browser runs no script read a class that never changed as live. The page says to reload it; the script, when it
    runs, says it is updated."""
    async with await served.signed_in(FACILITATOR) as fran, fran.get("/console") as r:
        assert r.status == 200
        page = await r.text()
    shown = _text_shown_without_scripts(page)
    assert "Updated as it happens" not in shown
    assert "This page updates itself with a script, which this browser does not run: reload it to see the class " \
           "now." in shown
    assert 'state.textContent = "Updated as it happens.";' in page  # said once the script runs


# --- the next start of a host killed with its class -----------------------------------------------------------------


async def test_a_host_started_again_records_the_sessions_killed_with_the_last_one_before_its_console_counts(served):
    """A host killed with its tabs' processes (a power cut, the OOM killer) leaves their journals unfinished. Its
    next start recorded none of them: the console counted a killed session only once its trainee opened a tab again
    (each tab's process recovers its own trainee's), while `warroom scores summary` on the same store recovered and
    counted it at once, so the two disagreed, and a trainee who never came back had no attempt in the gradebook. The
    server records them as it starts, as `warroom scores` does, and says so."""
    import csv
    import io

    assert not list((served.data_dir / "journals").glob("*.jsonl"))  # recovered: moved to journals/done
    async with await served.signed_in(FACILITATOR) as fran, fran.get("/console/gradebook.csv") as r:
        rows = list(csv.DictReader(io.StringIO(await r.text())))
    (grace,) = [row for row in rows if row["trainee"] == KILLED_TRAINEE]
    assert grace[KILLED_DRILL] == "0" and grace["sessions"] == "1"  # the first attempt, abandoned: 0
    assert "recovered 1 session of other trainees killed mid-drill" in served.log.read_text()


# --- what a client writes into the server's log --------------------------------------------------------------------


def test_the_access_log_escapes_the_controls_a_client_s_headers_hold(served):
    """aiohttp's access log line holds the request's ``User-Agent`` and ``Referer`` as sent, and a header value may
    hold any character but ASCII controls: a client wrote U+009B (a terminal's CSI, as ESC [ is) and U+202E (the rest
    of the line shown right to left) into the log the facilitator reads on their terminal, raw. They are escaped."""
    import socket
    import time

    agent = "probe-15 \u009b2J\u202eRLO"
    request = (f"GET /signin HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nUser-Agent: {agent}\r\n"
               f"Referer: http://x.example/\u009b31m\r\nConnection: close\r\n\r\n").encode()  # fmt: skip
    with socket.create_connection(("127.0.0.1", served.port), timeout=10) as client:
        client.sendall(request)
        assert client.recv(64).startswith(b"HTTP/1.1 200")
    deadline = time.monotonic() + 10
    while "probe-15" not in (log := served.log.read_text(errors="replace")):
        assert time.monotonic() < deadline, log[-2000:]
        time.sleep(0.05)
    (line,) = [line for line in log.splitlines() if "probe-15" in line]
    assert "\u009b" not in line and "\u202e" not in line, repr(line)
    assert "probe-15 \\x9b2J\\u202eRLO" in line and "http://x.example/\\x9b31m" in line, line


# --- a data directory on a file system mounted read-only ------------------------------------------------------------


def test_a_data_directory_on_a_read_only_file_system_says_so_not_to_ask_its_owner(tmp_path, monkeypatch):
    """A data directory whose file system is mounted read-only (a disk error makes the system remount it so, or a
    share mounted read-only) was refused with "it belongs to root (uid 0), mode drwxr-xr-x, and warroom runs as root
    (uid 0). Ask its owner for access (chmod/chown)": no owner or mode is to blame, and chmod cannot change it. The
    console's pages and every command said that. (Seen on a tmpfs remounted read-only; simulated here, as mounting
    needs root.)"""
    from warroom.store import datadir

    data = tmp_path / "data"
    (data / "journals").mkdir(parents=True)
    read_only = os.statvfs(data)
    flags = read_only.f_flag | os.ST_RDONLY
    monkeypatch.setattr(datadir, "_can", lambda path, mode: mode != os.W_OK)
    monkeypatch.setattr(os, "statvfs", lambda path: type("Statvfs", (), {"f_flag": flags})())
    problem = datadir.data_dir_problem(data)
    assert problem is not None and problem.startswith(f"cannot write the folder {data}: its file system is mounted "
                                                      "read-only"), problem  # fmt: skip
    assert "remount it read-write" in problem and "chmod" not in problem and "owner" not in problem


# --- an app process that cannot start ---------------------------------------------------------------------------


async def test_a_tab_whose_app_process_cannot_start_is_told_so_not_only_that_the_session_ended(caplog):
    """A tab's app process that stops before it draws anything (the store it checks as it starts became unusable
    mid-class: a folder where the results file was, a damaged database) left the browser a blank terminal under
    "Session ended." and a Restart button, and only the server's log said why. The tab is told the war room could not
    start and to tell the facilitator; the log says which trainee's."""
    import aiohttp
    from aiohttp import web
    from aiohttp.test_utils import TestClient, TestServer

    from warroom.serve._tab import TabService, relay_until_ended

    async def nothing(*_: object) -> None:
        return None

    async def tab(request: web.Request) -> web.WebSocketResponse:
        websocket = web.WebSocketResponse()
        await websocket.prepare(request)
        service = TabService("echo 'Error: the store cannot be used' >&2; exit 1", write_bytes=websocket.send_bytes,
                             write_str=websocket.send_str, close=nothing, download_manager=None)  # fmt: skip
        await service.start(80, 24)
        await relay_until_ended(websocket, service, "the tab of 'Ada Lovelace'")
        await service.end()
        return websocket

    app = web.Application()
    app.router.add_get("/ws", tab)
    async with TestClient(TestServer(app)) as client, client.ws_connect("/ws") as ws:
        async with asyncio.timeout(30):
            message = await ws.receive()
            while message.type == aiohttp.WSMsgType.BINARY:  # the screen's bytes, until the tab is closed
                message = await ws.receive()
    assert message.type == aiohttp.WSMsgType.CLOSE
    assert message.extra == "the war room could not start here (the server's log says why): tell your facilitator"
    assert "the app process of the tab of 'Ada Lovelace' could not start" in caplog.text


async def test_the_terminal_page_says_why_its_session_ended_where_the_server_said_why(served: Served):
    """textual-serve's page said "Session ended." whatever the server's close of the tab said (the war room could not
    start, the session moved to another tab, the server stops): the page shows the reason the close carries."""
    from warroom.serve._server import CLOSE_REASON_SCRIPT

    async with await served.signed_in("Ada Lovelace") as ada, ada.get("/") as r:
        page = await r.text()
    assert CLOSE_REASON_SCRIPT in page and page.index(CLOSE_REASON_SCRIPT) < page.index("textual.js")
    assert 'box.textContent = "Session ended: " + event.reason + ".";' in CLOSE_REASON_SCRIPT
