"""Hostile input to ``warroom serve`` (issue 30, campaign 13: the served room and the console as a hostile user and
a faulty world drive them): what it found and what now holds."""

from __future__ import annotations

import asyncio
import json

import pytest


def _a_server(max_sessions: int):  # type: ignore[no-untyped-def]
    from warroom.serve import AppOptions, Roster, SignIns, WarroomServer

    roster = Roster({}).with_trainee("Ada", "ada-token-0123456789").with_trainee("Grace", "grace-token-9876543210")
    return WarroomServer(SignIns(roster, "nobody"), AppOptions(), host="127.0.0.1", port=8000,
                         max_sessions=max_sessions)  # fmt: skip


# --- the known break left open: a lapsed seat ticket woke nobody -------------------------------------------------


async def test_a_seat_ticket_lapsing_wakes_a_page_waiting_for_a_seat(monkeypatch):
    """Every seat taken: one by the app process of Ada's closed tab (still quitting), one by a page of Grace's whose
    tab never connected (its ticket). Ada's new page waits for a seat. Before, the ticket lapsing woke nobody: her
    page went on only once her closed tab's process was gone (up to 25 s). Now the lapse itself wakes it."""
    from warroom.serve import _server
    from warroom.serve._server import _Tab as Tab

    server = _a_server(2)
    server.active = 1  # the process of Ada's closed tab
    server.tabs = {"t1": Tab("Ada", ended=True, id="t1")}
    monkeypatch.setattr(_server, "TICKET_LIFETIME", 0.2)
    server.take_seat("Grace")  # her page's tab never connects
    assert server.full()
    waiting = asyncio.ensure_future(server._wait_for_a_tab("Ada"))
    try:
        assert await asyncio.wait_for(asyncio.shield(waiting), 2.0) is False  # not playing elsewhere: she goes on
    finally:
        waiting.cancel()
    assert not server.full() and server.tickets == {}


async def test_a_seat_let_go_of_wakes_a_page_waiting_for_a_seat(monkeypatch):
    """A seat freed otherwise than by a process's end (a trainee's oldest waiting page let go of when they ask for a
    page again) wakes a page waiting for a seat too."""
    from warroom.serve import _server
    from warroom.serve._server import _Tab as Tab

    server = _a_server(3)
    server.active = 1
    server.tabs = {"t1": Tab("Ada", ended=True, id="t1")}
    monkeypatch.setattr(_server, "SEATS_WAITING_PER_TRAINEE", 1)
    server.take_seat("Grace")
    server.take_seat("Grace")
    waiting = asyncio.ensure_future(server._wait_for_a_tab("Ada"))
    await asyncio.sleep(0.05)
    assert not waiting.done()
    server._let_go_of_oldest_seat("Grace")  # Grace's page served again: her older pages' seats go
    try:
        assert await asyncio.wait_for(asyncio.shield(waiting), 2.0) is False
    finally:
        waiting.cancel()
    assert len(server.tickets) == 0


async def test_a_lapse_timer_is_cancelled_when_its_ticket_is_used():
    """A ticket used by its tab (or let go of) leaves no timer behind: a script asking for ``/`` in a loop holds no
    more timers than seats."""
    server = _a_server(5)
    tickets = [server.take_seat("Grace") for _ in range(3)]
    lapses = [server.tickets[t].lapse for t in tickets]
    assert server.use_seat(tickets[0]) is True and server.use_seat(tickets[0]) is False
    assert server.use_seat("no-such-ticket") is False
    server._let_go_of_oldest_seat("Grace")  # she holds two: the older goes
    assert set(server.tickets) == {tickets[2]}
    assert [lapse.cancelled() for lapse in lapses] == [True, True, False]


# --- pastes: a short paste again and again (ctrl+v held down) ------------------------------------------------------


def test_a_short_paste_again_and_again_is_held_back_by_the_page_not_the_end_of_the_session():
    """The page's paste guard looked only at messages of 256 characters or more, so a short paste (a 200-character
    line) pasted again and again, as a browser does while ctrl+v is held down (about 30 times a second), went out
    whole each time: at about 230 bytes each the tab used its budget up in seconds and the server ended the session.
    Now the guard holds back a paste of any length that would not fit (saying why), and every message it sends passes
    the server's check; the keys typed after it still go."""
    from aiohttp import WSMessage, WSMsgType
    from browser_support import chromium_executable, sync_playwright

    from warroom.serve._paste import with_paste_guard
    from warroom.serve._tab import BadMessage, InputBudget, read_message

    executable = chromium_executable()
    budget = InputBudget(clock=lambda: 0.0)  # no time passes: the pastes come faster than any refill
    stub = "<script>window.sent = []; WebSocket.prototype.send = function (d) { window.sent.push(d); };</script>"
    page_html = with_paste_guard("<!DOCTYPE html><html><head></head><body></body></html>")
    line = "\x1b[200~" + "kubectl logs deploy/refunds --since=10m | grep -i duplicate " * 3 + "\x1b[201~"
    assert len(line) < 256
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, headless=True, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.clock.install(time=0)
            page.clock.pause_at(1000)
            page.set_content(page_html.replace("<head>", "<head>" + stub, 1))
            send = "([k, n]) => { for (let i = 0; i < n; i++) WebSocket.prototype.send.call({}, " \
                   "JSON.stringify(['stdin', k])); }"
            page.evaluate(send, [line, 300])
            page.evaluate(send, ["j", 3])
            sent = page.evaluate("window.sent")
            notice = page.evaluate("(document.getElementById('warroom-paste-notice') || {}).textContent || ''")
        finally:
            browser.close()
    for passed, text in enumerate(sent):
        try:
            read_message(WSMessage(WSMsgType.TEXT, text, None), budget)
        except BadMessage as exc:
            raise AssertionError(f"the server ended the session after {passed} of {len(sent)}: {exc}") from None
    pastes = [json.loads(t)[1] for t in sent if "200~" in t]
    assert 100 < len(pastes) < 300 and pastes[0] == line  # whole pastes while they fit, then cut, then held back
    assert all(p.endswith("\x1b[201~") and line.startswith(p[: -len("\x1b[201~")]) for p in pastes)
    assert [json.loads(t)[1] for t in sent[-3:]] == ["j"] * 3  # typing still goes
    assert "Your paste was not sent" in notice


# --- key floods: scrolling with a trackpad or a free-spinning wheel -----------------------------------------------


def _page_stdin(keys: str):  # type: ignore[no-untyped-def]
    """A ``stdin`` message as textual-serve's page writes it (``JSON.stringify``: no space, ESC as ``\\u001b``)."""
    from aiohttp import WSMessage, WSMsgType

    return WSMessage(WSMsgType.TEXT, json.dumps(["stdin", keys], separators=(",", ":")), None)


def test_scrolling_on_a_fast_screen_never_ends_the_session_and_a_flood_of_wheel_turns_still_does():
    """A browser's terminal sends each wheel event as a message of its own (one SGR report, ``ESC [<65;COL;ROWM``),
    and a trackpad's scroll comes as one event a frame (a free-spinning wheel's as fast). At 32 bytes a message a
    trainee scrolling the trace on a 120 Hz screen used the budget up in 18 s (in Chromium, 200 wheel events a second
    ended the session in 22 s). Wheel turns now cost what pointer movement costs: 240 a second for 20 s pass (for
    ever: 1,920 bytes a second), with
    shift, meta or ctrl too; 1,000 a second are still ended, and a click still costs a key press."""
    from warroom.serve._tab import BadMessage, InputBudget, read_message

    now = [0.0]
    budget = InputBudget(clock=lambda: now[0])
    for second in range(20):  # at 32 bytes a message, 240 a second used the budget up in 6 s
        for i in range(240):
            now[0] = second + i / 240
            turned = f"\x1b[<{(64, 65, 68, 81, 93)[i % 5]};{1 + i % 200};{1 + second % 50}M"
            assert read_message(_page_stdin(turned), budget) == ("stdin", turned.encode())
    flood = InputBudget(clock=lambda: now[0])
    with pytest.raises(BadMessage, match="more input than a tab may send"):
        for i in range(10_000):  # 1,000 a second
            now[0] += 1 / 1000
            read_message(_page_stdin(f"\x1b[<65;{1 + i % 200};5M"), flood)
    clicks = InputBudget(clock=lambda: now[0])
    with pytest.raises(BadMessage, match="more input than a tab may send"):
        for i in range(20 * 240):  # a click (button 0) or a wheel's other buttons (66) are no wheel turns: 32 bytes
            now[0] += 1 / 240
            read_message(_page_stdin(f"\x1b[<{(0, 66)[i % 2]};{1 + i % 200};5M"), clicks)


# --- huge cohorts: the completion grid of 3,000 trainees ------------------------------------------------------------


class _Row:
    """A stored session's row, counting how often its trainee is read."""

    reads = 0

    def __init__(self, trainee: str, drill_id: str, n: int) -> None:
        self._trainee, self.drill_id, self.session_id = trainee, drill_id, f"s{n}"
        self.set_id, self.outcome, self.total, self.mode = "week-1", "contained", 80, "assessment"
        self.started_at = f"2026-12-01T10:00:{n % 60:02d}.000000Z"

    @property
    def trainee(self) -> str:
        _Row.reads += 1
        return self._trainee


def test_the_completion_grid_reads_each_session_a_bounded_number_of_times_whatever_the_class_s_size():
    """The completion grid looked for each cell's sessions among every session of the set: with 3,000 trainees and
    two drills (9,000 sessions) that was 54 million looks, 49 s of the server's event loop (every tab of the class
    frozen meanwhile, their heartbeats unanswered). Each session is now read a few times, however many trainees."""
    from datetime import date

    from warroom.console import completion_grid

    def reads(trainees: int) -> float:
        rows = [_Row(f"trainee {i}", d, 3 * i + j) for i in range(trainees) for j, d in enumerate(("a", "b", "a"))]
        _Row.reads = 0
        grid = completion_grid("week-1", "Week 1", "assessment", None, None, [("a", "A"), ("b", "B")], [], rows,
                               set(), date(2026, 12, 7), [], {r.session_id: n for n, r in enumerate(rows)})  # fmt: skip
        assert len(grid.rows) == trainees and grid.rows[-1][1][0].attempts == 2
        return _Row.reads / len(rows)

    assert reads(300) <= 10 and reads(300) == reads(30)


async def test_the_completion_grid_page_is_built_and_written_off_the_event_loop(tmp_path, monkeypatch):
    """The grid and its page (1.4 MB of HTML for 3,000 trainees, 1.1 s to write), the trainees' page (0.9 MB), the
    gradebook, the sessions' list and a review were made on the server's event loop, which every tab's keys and
    screens wait on: a whole class's page froze every tab of the class while it was made. They are made in a worker
    thread, as the store is read."""
    import threading

    from aiohttp.test_utils import make_mocked_request
    from handcohort_support import PLAYS, play

    import warroom.console
    from warroom.serve import LiveClass, Roster, SignIns
    from warroom.serve._console import Console
    from warroom.serve._pages import _Pages as Pages

    session_id = play(tmp_path, PLAYS[0])  # ana's session of drill A, in the set week-1
    threads: list[str] = []
    for name in ("completion_grid", "render", "gradebook_csv"):
        made = getattr(warroom.console, name)

        def recorded(*args, made=made, **kwargs):  # type: ignore[no-untyped-def]
            threads.append(threading.current_thread().name)
            return made(*args, **kwargs)

        monkeypatch.setattr(warroom.console, name, recorded)
    live = LiveClass("host", tmp_path)
    console = Console(SignIns(Roster({}).with_trainee("ana", "ana-token-0123456789"), "nobody"), live, tmp_path)
    pages = Pages(console)
    try:
        grid = await pages.grid(make_mocked_request("GET", "/console/sets/week-1", match_info={"set_id": "week-1"}))
        figures = await pages.trainees(make_mocked_request("GET", "/console/trainees"))
        grades = await pages.gradebook_csv(make_mocked_request("GET", "/console/gradebook.csv?set=week-1"))
        listed = await pages.sessions(make_mocked_request("GET", "/console/sessions"))
        review = await pages.session(make_mocked_request("GET", f"/console/sessions/{session_id}",
                                                         match_info={"session_id": session_id}))  # fmt: skip
    finally:
        live.close()
    assert [r.status for r in (grid, figures, grades, listed, review)] == [200] * 5
    assert all("ana" in (r.text or "") for r in (grid, figures, grades, listed, review))
    assert len(threads) == 6 and threading.current_thread().name not in threads, threads


# --- huge cohorts: the live class of a roster of thousands --------------------------------------------------------


async def test_the_live_class_is_made_once_a_second_for_every_live_page_and_off_the_event_loop(tmp_path, monkeypatch):
    """Each live page's stream made the whole live table (every roster name's line) itself, every second, on the
    server's event loop: 0.6 to 1 s each time for a roster of 3,000 names, so five facilitators' live pages stalled
    every tab of the class for up to 3 s at a time. It is made in a worker thread, once for every page while the
    live table, the roster and the second are the same."""
    import threading

    from aiohttp.test_utils import make_mocked_request

    from warroom.serve import LiveClass, Roster, SignIns
    from warroom.serve._console import Console

    threads: list[str] = []
    made = Console.live_view

    def recorded(self):  # type: ignore[no-untyped-def]
        threads.append(threading.current_thread().name)
        return made(self)

    monkeypatch.setattr(Console, "live_view", recorded)
    live = LiveClass("host", tmp_path)
    roster = Roster({}).with_trainee("ana", "ana-token-0123456789").with_trainee("ben", "ben-token-0123456789")
    console = Console(SignIns(roster, "nobody"), live, tmp_path)
    try:
        views = await asyncio.gather(*(console.shared_live_view() for _ in range(5)))
        page = await console.live_page(make_mocked_request("GET", "/console"))
        live.version += 1  # the live table changed: made again
        again = await console.shared_live_view()
    finally:
        live.close()
    assert len({id(v) for v in views}) == 1 and ">ana<" in views[0][0] and ">ben<" in views[0][0]
    assert page.status == 200 and ">ben<" in (page.text or "")
    assert again[0] == views[0][0] or ">ben<" in again[0]
    assert 2 <= len(threads) <= 3 and threading.current_thread().name not in threads, threads  # 3: a second passed


# --- signing in: a name typed in Unicode's decomposed form ------------------------------------------------------


def test_a_name_typed_as_a_letter_and_a_combining_mark_signs_in_as_the_roster_s_name():
    """The roster keeps names in Unicode's composed form (NFC: ``Zoë`` as one character, a decomposed name is refused
    when added), but a sign-in compared the name as typed: ``Zoë`` typed as ``e`` and a combining diaeresis (a
    keyboard or a paste from a file name can give it) was refused with the right token, though it shows the same. The
    name typed is read in the composed form; another name is still refused."""
    from warroom.serve import Roster

    roster = Roster({}).with_trainee("Zoë Ndiaye", "zoe-token-0123456789")
    assert roster.check("Zoe\u0308 Ndiaye", "zoe-token-0123456789") == "Zoë Ndiaye"
    assert roster.check(" Zo\u00eb Ndiaye ", "zoe-token-0123456789") == "Zoë Ndiaye"
    assert roster.check("Zoe Ndiaye", "zoe-token-0123456789") is None
    assert roster.check("Zoe\u0308 Ndiaye", "another-token-012345") is None


# --- huge cohorts: two trainees' pages drawn at once --------------------------------------------------------------


def test_two_figures_drawn_at_once_each_keep_their_settings():
    """A trainee's page draws its plots in a worker thread under matplotlib's settings of the console (``RC``: among
    them ``text.parse_math`` off, so a ``$`` in a fault kind is shown as written, never read as TeX). matplotlib's
    settings are the process's: two facilitators' pages drawn at once, the first to finish put the defaults back
    while the other still drew (its ``$...$`` then read as TeX, or raising on a bad one). Figures are drawn one at a
    time."""
    import threading
    import time

    import matplotlib

    from warroom.console._figures import figure

    first_in, second_trying, first_out = threading.Event(), threading.Event(), threading.Event()
    seen: list[bool] = []

    def first() -> None:
        with figure(1, 1):
            first_in.set()
            second_trying.wait(5)
            time.sleep(0.1)  # the second figure's thread reaches it meanwhile (a lock's wait cannot be awaited)
        first_out.set()

    def second() -> None:
        first_in.wait(5)
        second_trying.set()
        with figure(1, 1):
            first_out.wait(5)
            seen.append(matplotlib.rcParams["text.parse_math"])

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert seen == [False]
