"""The leftovers of campaign 18 on the terminal UI (issue 30): keys typed fast through the flag, search and go-to-field
dialogs."""

from __future__ import annotations

from warroom.tui.widgets import Inspector, TraceTable

from .conftest import make_app, type_keys, war_room


async def test_keys_typed_fast_through_the_flag_dialog_keep_the_note_and_the_move_behind_enter(services):
    """``f x enter ↑`` typed fast: the flag is made with the note ``x`` and the ↑ moves the trace's cursor (it was
    lost while the dialog closed; making enter act at once lost the note typed just before it)."""
    app = make_app(services)
    async with war_room(app, size=(100, 30), seconds=13) as (pilot, live):
        table = live.query_one(TraceTable)
        await pilot.press("up")
        assert table.selected_key == "e05"
        await type_keys(pilot, "f", "x", "y", "enter", "up")
        flags = [(a.event, a.note) for a in live.replay.actions if a.kind.value == "flag"]
        assert flags == [("e05", "xy")]
        assert app.screen is live and table.selected_key == "e04"


async def test_keys_typed_fast_through_the_search_and_field_dialogs_and_escape_go_where_they_were_typed(services):
    """``/ q enter ↑``, ``: z enter ↑`` and ``f x escape ↑`` typed fast: the search is for ``q``, the field asked for is
    ``z`` (not a field of the event: said), no flag, and each ↑ moves the trace's cursor; and ``f a enter ↑ f b
    enter`` flags two events, each with its own note."""
    app = make_app(services)
    async with war_room(app, size=(100, 30), seconds=13) as (pilot, live):
        table = live.query_one(TraceTable)
        await type_keys(pilot, "slash", "q", "enter", "up")
        assert live.query_one(Inspector).query_text == "q" and table.selected_key == "e05"
        await type_keys(pilot, "colon", "z", "enter", "up")
        assert table.selected_key == "e04" and app.screen is live
        await type_keys(pilot, "f", "x", "escape", "up")
        assert table.selected_key == "e03" and not live.replay.flagged
        await type_keys(pilot, "down", "f", "a", "enter", "up", "f", "b", "enter", "down", "down")
        flags = [(a.event, a.note) for a in live.replay.actions if a.kind.value == "flag"]
        assert flags == [("e04", "a"), ("e03", "b")] and table.selected_key == "e05"


def test_the_reviews_answer_key_reflows_the_authors_paragraphs_as_the_debrief_does():
    """`warroom review` showed the answer key's debrief, habit and fault summary with the author's hard line breaks
    kept and then wrapped too (ragged lines); it reflows them as the debrief screen does: a paragraph's lines joined,
    blank-line paragraphs and list items kept."""
    from types import SimpleNamespace

    from store_support import bundled_drill_path, load

    from warroom.tui.screens._reviewpanels import answer_panel

    drill = load(bundled_drill_path())
    assert drill.answer_key is not None
    key = drill.answer_key.model_copy(update={
        "debrief": "The cache served a stale\nsnapshot before the write.\n\nWhat to check:\n- the snapshot's\n  time\n"
                   "- the write's",
        "habit": "Compare the read's time\nwith the write's.",
        "fault": drill.answer_key.fault.model_copy(update={"summary": "Stale\nsnapshot."}),
    })
    shown = answer_panel(SimpleNamespace(drill=drill.model_copy(update={"answer_key": key}), twin=False)).plain
    reflowed = ("The cache served a stale snapshot before the write.\n\nWhat to check:\n- the snapshot's time\n"
                "- the write's")
    assert reflowed in shown, shown
    assert "Compare the read's time with the write's." in shown and "Stale snapshot." in shown, shown


async def test_keys_typed_behind_a_dialogs_enter_act_after_its_answer_as_when_typed_slowly(services):
    """The dialog's answer (the flag, and the resume of the drill clock the dialog stopped) runs before the keys typed
    right behind its enter: ``f a enter / q enter ↑ f b enter space`` typed at once opened the find dialog while the
    drill was still paused by the flag's, so that dialog's time was journalled as no pause; it journals what the
    same keys typed slowly do."""
    app = make_app(services)
    async with war_room(app, size=(100, 30), seconds=13) as (pilot, live):
        await type_keys(pilot, "f", "a", "enter", "slash", "q", "enter", "up", "f", "b", "enter", "space")
        flags = [(a.event, a.note) for a in live.replay.actions if a.kind.value == "flag"]
        assert flags == [("e06", "a"), ("e05", "b")] and live.query_one(Inspector).query_text == "q"
        assert [a.kind.value for a in live.replay.actions] == [
            "pause", "flag", "resume", "pause", "resume", "pause", "flag", "resume", "pause"]
        assert live.paused
