"""Campaign 20 on the terminal UI (issue 30): keys typed fast behind the author mode's answers, the mouse alone, the
help and footer against each screen's keys, long drills, format 2 at two sizes, the tutorial failed and resumed, what
a screen reader gets; what it found and what now holds."""

from __future__ import annotations

import shutil

from textual.widgets import Input

from warroom.tui.author import NumberDialog
from warroom.tui.widgets import TraceTable

from .conftest import STALE, author_mode, type_keys


async def test_keys_typed_right_behind_an_author_mode_dialogs_answer_reach_the_trace(tmp_path):
    """The author mode's dialogs had no held keys (``Dialog.held``): the keys typed right behind the enter (ctrl+s in
    a longer text) that answered one went into its field before it closed: ``x r ⏎ j`` typed fast marked a
    distractor whose reason was ``rj``, the cursor unmoved, ``h a ctrl+s j`` a habit starting ``aj``, and ``l 5 ⏎ j``
    a deadline of ``5j``, refused, the dialog left open. A refused answer keeps the dialog, and the keys typed behind
    it go into its field, as typed."""
    drill = tmp_path / STALE.name
    shutil.copy(STALE, drill)
    async with author_mode(drill, whole_trace=True) as (app, pilot, screen):
        table = screen.query_one(TraceTable)
        table.move_cursor(table.row_index("e03"))
        await type_keys(pilot, "x", "r", "enter", "j")
        assert app.screen is screen and screen.file.draft.distractors["e03"] == "r" and table.selected_key == "e04"
        await type_keys(pilot, "l", "5", "enter", "k")
        assert app.screen is screen and screen.file.draft.deadline.event == "e04" and table.selected_key == "e03"
        await type_keys(pilot, "h", "a", "ctrl+s", "j")
        assert app.screen is screen and screen.file.draft.habit.startswith("aBefore") and table.selected_key == "e04"
        await type_keys(pilot, "d", "1", "enter", "U", "enter", "enter", "j")
        assert app.screen is screen and screen.file.draft.damage_unit == "U" and table.selected_key == "e05"
        await type_keys(pilot, "l", "x", "enter", "1")  # refused: the dialog stays, the 1 typed into its field
        assert isinstance(app.screen, NumberDialog) and app.screen.query_one(Input).value == "x1"


async def _click_footer(pilot, key: str) -> None:
    from textual.widgets._footer import FooterKey

    await pilot.click(next(k for k in pilot.app.screen.query(FooterKey) if k.key == key))
    await pilot.pause()


async def test_a_trainee_who_uses_only_the_mouse_flags_cites_escalates_and_closes_the_help(services):
    """The war room's help, flag and escalation dialogs answered only to keys: a trainee with only a mouse who opened
    one from the footer could not close the help, flag, tick an event to cite, or confirm an escalation. Each now has
    buttons naming the key that does the same, a click on the highlighted event ticks it, and all fit in 80x24."""
    from warroom.tui.room import EscalateScreen

    from .conftest import advance, make_app

    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await _click_footer(pilot, "enter")  # the briefing's Start
        live = app.live
        await advance(pilot, 13)
        await _click_footer(pilot, "question_mark")
        await pilot.click("#help-close")
        await pilot.pause()
        assert app.screen is live
        await _click_footer(pilot, "f")
        await pilot.click("#flag-yes")
        await pilot.pause()
        assert app.screen is live and list(live.replay.flagged) == ["e06"]
        await _click_footer(pilot, "e")
        dialog = app.screen
        assert isinstance(dialog, EscalateScreen) and dialog.cites == ()
        await pilot.click("#escalate-cites", offset=(30, 2))  # e06, highlighted: ticked (the list shows e05, e06)
        await pilot.click("#escalate-cites", offset=(30, 1))  # e05: highlighted, then ticked
        await pilot.click("#escalate-cites", offset=(30, 1))
        assert dialog.cites == ("e06", "e05") and "e05" in str(dialog.query_one("#escalate-cites").border_subtitle)
        await pilot.click("#escalate-steps", offset=(4, 1))  # s1: asks
        assert dialog.asking and str(dialog.query_one("#escalate-second").label) == "Yes, escalate (y)"
        await pilot.click("#escalate-first")  # no: back to the dialog; then Escalate asks again, never sends
        await pilot.click("#escalate-first")
        assert dialog.asking and not live.replay.escalations
        await pilot.click("#escalate-second")
        await pilot.pause()
        escalation = [a for a in live.replay.actions if a.kind.value == "escalate"]
        assert [(a.step, tuple(a.cites)) for a in escalation] == [("s1", ("e06", "e05"))]
        assert app.screen is live


def test_every_key_the_help_of_a_screen_lists_is_in_the_docs_table_of_that_screen():
    """docs/war-room.md's tables of keys against each screen's help (built from its bindings): the war room's `esc`
    (from the inspector back to the trace) and the briefing's ctrl+home / ctrl+end were in the help, not the docs."""
    import re
    from pathlib import Path

    from warroom.tui.room import WarRoomScreen
    from warroom.tui.screens import BriefingScreen, DebriefScreen, PickerScreen
    from warroom.tui.widgets import help_rows

    doc = (Path(__file__).parents[2] / "docs" / "war-room.md").read_text(encoding="utf-8")
    cells = [[c.strip() for c in line.split("|")[1:-1]] for line in doc.splitlines() if line.startswith("| ")]

    def words(text: str) -> set[str]:
        return set(re.split(r"[\s,()`;]+|(?<=\w)/|/(?=\w)", text.replace("↑↓", "↑ ↓")))

    war_room = set().union(*(words(row[0]) for row in cells if len(row) == 2))
    tables = {scr: words(next(row[2] for row in cells if row[0] == name))
              for scr, name in ((PickerScreen, "picker"), (BriefingScreen, "briefing"), (DebriefScreen, "debrief"))}
    tables[WarRoomScreen] = war_room
    missing = [(scr.__name__, key) for scr, documented in tables.items() for keys, _ in help_rows(scr)
               for key in keys.split() if key not in documented]
    assert missing == []


async def test_editing_keys_typed_fast_in_a_field_run_in_the_order_typed(services):
    """A field's own editing keys (← → home end backspace ctrl+k...) are bindings of Textual's Input and TextArea,
    which the app runs once the key has bubbled up to it, after the field had inserted the characters typed behind
    them: ``a b ← c`` typed fast flagged with the note ``abc``, not ``acb`` (``home x`` wrote the x at the end). The
    same in the escalation's reason box and the author mode's longer texts."""
    from .conftest import make_app, war_room

    app = make_app(services)
    async with war_room(app, size=(100, 30), seconds=13) as (pilot, live):
        await pilot.press("f")
        await type_keys(pilot, "a", "b", "left", "c", "home", "x", "end", "y", "backspace", "z", "enter")
        assert live.replay.flagged == {"e06": "xacbz"}
        await pilot.press("e")
        await type_keys(pilot, "tab", "a", "b", "left", "c", "home", "x")
        assert app.screen.query_one("#escalate-reason", Input).value == "xacb"


async def test_editing_keys_typed_fast_in_the_author_modes_debrief_run_in_the_order_typed(tmp_path):
    from textual.widgets import TextArea

    drill = tmp_path / STALE.name
    shutil.copy(STALE, drill)
    async with author_mode(drill) as (app, pilot, _screen):
        await pilot.press("b")
        editor = app.screen.query_one(TextArea)
        editor.load_text("")
        await type_keys(pilot, "a", "b", "left", "c", "home", "x", "end", "y", "backspace", "z")
        assert editor.text == "xacbz"


async def test_the_probe_dialog_is_cancelled_with_the_mouse(services):
    """The probe dialog (v, in the footer of a drill with probes) answered a click on a probe, but only escape
    cancelled it: a trainee with only a mouse could not close it without asking a probe."""
    from warroom.core.library import bundled_drills_dir
    from warroom.tui.room import ProbeScreen

    from .conftest import make_app, war_room

    app = make_app(services, bundled_drills_dir() / "api-dns-cutover.yaml")
    async with war_room(app, size=(80, 24), seconds=20) as (pilot, live):
        await _click_footer(pilot, "v")
        assert isinstance(app.screen, ProbeScreen)
        await pilot.click("#probe-cancel")
        await pilot.pause()
        assert app.screen is live and not [a for a in live.replay.actions if a.kind.value == "probe"]


async def test_an_escalation_citing_many_events_asks_with_its_hint_and_buttons_on_screen(services):
    """The confirmation named every cited event: citing 300 events of a long drill pushed the question's hint (``y
    escalates · n or esc goes back``) and its yes / no buttons below a 24-row screen. It names the first six and
    counts the rest, as the evidence list's border does."""
    from .conftest import make_app, war_room

    app = make_app(services)
    async with war_room(app, size=(80, 24), seconds=30) as (pilot, live):
        released = len(live.replay.released)
        assert released > 8
        await pilot.press("k", "e")  # e08 selected: the dialog opens on its step, citing it
        dialog = app.screen
        await type_keys(pilot, "tab", "tab", "home", *["space", "down"] * released, "enter")
        more = len(dialog.cites) - 6
        assert more >= 2 and dialog.asking and f"citing e01, e02, e03, e04, e05, e06 and {more} more" in dialog.question
        assert f"and {more} more" in str(dialog.query_one("#escalate-cites").border_subtitle)
        for shown in ("#escalate-hint", "#escalate-first", "#escalate-second"):
            assert dialog.query_one(shown).region.bottom <= 24, shown
        await pilot.pause()
        assert dialog.query_one("#escalate-second").region.width >= len("Yes, escalate (y)")  # not cut to its old width
