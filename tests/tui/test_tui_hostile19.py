"""Campaign 19 on the terminal UI (issue 30): keys typed fast around the war room's dialogs; what it found and what
now holds."""

from __future__ import annotations

from warroom.tui.room import WarRoomScreen
from warroom.tui.widgets import TraceTable

from .conftest import make_app, type_keys, war_room


def _marks(live: WarRoomScreen) -> list[tuple[str, str | None]]:
    return [(a.kind.value, a.event) for a in live.replay.actions if a.kind.value in ("flag", "unflag", "inspect")]


async def test_keys_typed_right_behind_a_key_that_closes_a_dialog_reach_the_war_room(services):
    """A dialog's keys ran as the dialog handled them, after the app had forwarded the keys typed right behind them
    to the dialog still on top: ``? esc f``, ``q n f``, ``f esc k f`` or ``e esc f`` typed fast flagged nothing (the
    f went to the closing dialog, lost). And a second enter there closed the dialog again, which popped the war room
    itself: ``/ x ⏎ f ⏎`` typed fast in the inspector left a blank screen with the drill running unseen."""
    app = make_app(services)
    async with war_room(app, size=(100, 30), seconds=13) as (pilot, live):
        table = live.query_one(TraceTable)
        assert table.selected_key == "e06"
        await type_keys(pilot, "enter", "slash", "x", "enter", "f", "enter")
        assert app.screen is live and _marks(live) == [("inspect", "e06"), ("flag", "e06")]
        await pilot.press("f")
        await type_keys(pilot, "escape", "question_mark", "escape", "k", "f", "enter")  # help closed, then k and f
        assert app.screen is live and table.selected_key == "e05" and _marks(live)[-1] == ("flag", "e05")
        await type_keys(pilot, "q", "n", "j", "f", "enter")  # the quit question answered no, then j and f
        assert app.screen is live and _marks(live)[-1] == ("flag", "e06")
        for opens in ("e", "v", "colon", "slash"):  # each dialog cancelled, then f: e06 unflagged
            await type_keys(pilot, opens, "escape", "f")
            assert app.screen is live and _marks(live)[-1] == ("unflag", "e06"), opens
            await pilot.press("f", "enter")
            assert _marks(live)[-1] == ("flag", "e06")
        await type_keys(pilot, "k", "f", "f", "x", "escape", "f", "enter")  # unflag e05; its note dialog cancelled; f
        assert app.screen is live and _marks(live)[-2:] == [("unflag", "e05"), ("flag", "e05")]


async def test_keys_typed_right_behind_the_enter_that_answers_a_dialog_reach_the_war_room(services):
    """The flag, search and go-to dialogs close on enter, but as they handle it, after their field had taken the keys
    typed right behind it: ``f x ⏎ k`` typed fast flagged with the note ``xk`` and left the cursor where it was, and
    ``f ⏎ k f ⏎`` flagged one event with the note ``kf`` instead of two; ``/ query ⏎ f`` never flagged."""
    app = make_app(services)
    async with war_room(app, size=(100, 30), seconds=13) as (pilot, live):
        table = live.query_one(TraceTable)
        await type_keys(pilot, "f", "x", "enter", "k")
        assert [(a.kind.value, a.event, a.note) for a in live.replay.actions if a.kind.value == "flag"] == [
            ("flag", "e06", "x")]
        assert table.selected_key == "e05" and app.screen is live
        await type_keys(pilot, "f", "enter", "k", "f", "enter")
        assert _marks(live)[-2:] == [("flag", "e05"), ("flag", "e04")] and table.selected_key == "e04"
        await type_keys(pilot, "enter", "slash", "x", "enter", "f")  # e04 flagged: f unflags it, in the war room
        assert app.screen is live and _marks(live)[-2:] == [("inspect", "e04"), ("unflag", "e04")]
        await type_keys(pilot, "colon", "x", "enter", "escape", "j", "f")
        assert app.screen is live and table.selected_key == "e05" and _marks(live)[-1] == ("unflag", "e05")
