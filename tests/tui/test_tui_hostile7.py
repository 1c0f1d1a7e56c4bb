"""Hostile input to the terminal UI (issue 30, campaign 7): what it found in the war room served in a browser and
what now holds."""

from __future__ import annotations

import pytest

from warroom.tui.app import WarroomApp
from warroom.tui.render import without_server_paths
from warroom.tui.room import WarRoomScreen

from .conftest import advance, make_app, record_notifications
from .test_journal_failure import break_journal


@pytest.fixture
def served(monkeypatch):
    """The app as `warroom serve` runs it for a browser tab (Textual's web driver: ``App.is_web``)."""
    monkeypatch.setattr(WarroomApp, "is_web", property(lambda self: True))


def test_a_server_path_is_cut_to_its_name():
    message = ("cannot use the results store /srv/warroom/data/results.sqlite3: database or disk is full; kept in "
               "/srv/warroom/data/journals/20261206-1.jsonl.")  # fmt: skip
    assert without_server_paths(message) == (
        "cannot use the results store results.sqlite3: database or disk is full; kept in 20261206-1.jsonl."
    )
    assert without_server_paths("press q to leave (data.next_cursor, items[3].id)") == (
        "press q to leave (data.next_cursor, items[3].id)"
    )


async def test_a_served_session_whose_journal_fails_names_no_server_path(services, served):
    """Before: the browser's toast named the journal's full path on the server (docs/serve.md promises that no path
    of the server's files reaches the browser)."""
    app = make_app(services)
    messages = record_notifications(app)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        live = app.screen
        assert isinstance(live, WarRoomScreen)
        await advance(pilot, 3)
        journal = live.recorder.journal_path
        break_journal(live)
        await pilot.press("space")
        await pilot.pause()
    (said,) = [m for m in messages if "can no longer be saved" in m]
    assert str(services.data_dir) not in said and str(journal.parent) not in said, said
    assert "the journals folder of the data directory on the server" in said


async def test_a_served_result_the_store_refuses_names_no_server_path(services, served, monkeypatch):
    """Before: a full disk under `warroom serve` showed the trainee `cannot use the results store
    /srv/.../results.sqlite3: database or disk is full` in their browser."""
    from warroom.tui.logic import SessionUnavailable

    app = make_app(services)
    messages = record_notifications(app)
    store = services.data_dir / "results.sqlite3"
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        live = app.screen
        assert isinstance(live, WarRoomScreen)

        def full(_scorecard):
            raise SessionUnavailable(f"cannot use the results store {store}: database or disk is full")

        monkeypatch.setattr(live.recorder, "finish", full)
        await advance(pilot, 3)
        await pilot.press("q")  # quit the drill: the session ends and is stored
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
    (said,) = [m for m in messages if "NOT stored" in m]
    assert str(store.parent) not in said and "results store results.sqlite3: database or disk is full" in said, said
    assert "the journals folder of the data directory on the server" in said
