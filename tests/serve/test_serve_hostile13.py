"""Hostile input to ``warroom serve`` (issue 30, campaign 13: the served room and the console as a hostile user and
a faulty world drive them): what it found and what now holds."""

from __future__ import annotations

import asyncio


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
