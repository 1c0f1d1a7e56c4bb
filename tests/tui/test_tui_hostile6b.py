"""What campaign 6 found and left on the terminal UI (issue 30): a lone surrogate pasted into a free-text input."""

from __future__ import annotations

from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Input

from warroom.core.model import ActionKind
from warroom.tui.widgets import TextEditor, TextInput

from .conftest import advance, make_app, picker_ready, screen_text, type_text

#: A paste a terminal (bracketed paste) or a served tab can carry: half of a UTF-16 pair, which UTF-8 cannot encode.
PASTED = "looks \ud800wrong"
KEPT = "looks \ufffdwrong"


async def _paste(pilot, text: str = PASTED) -> None:  # type: ignore[no-untyped-def]
    """A paste as a terminal's driver sends it: to the app, which gives it to the focused widget."""
    assert pilot.app.focused is not None
    pilot.app.post_message(events.Paste(text))
    await pilot.pause()


async def test_a_lone_surrogate_pasted_into_a_flag_note_is_replaced_and_the_flag_recorded(services):
    """Pasted into a flag note, a lone surrogate reached the flag action's model, whose validation raised: the app
    crashed (a pydantic ValidationError). The input replaces it by U+FFFD; the flag is recorded with the note."""
    app = make_app(services)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 12)
        await pilot.press("f")
        await pilot.pause()
        await _paste(pilot)
        assert app.screen.query_one("#flag-note", Input).value == KEPT
        await pilot.press("enter")
        await pilot.pause()
        assert app.is_running
        (flag,) = [a for a in app.live.replay.actions if a.kind is ActionKind.FLAG]
        assert flag.note == KEPT


async def test_a_lone_surrogate_pasted_into_an_escalation_reason_is_replaced_and_the_escalation_recorded(services):
    app = make_app(services)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 12)
        await pilot.press("e")
        await type_text(pilot, "s3")
        await pilot.press("tab")
        assert app.screen.focused is not None and app.screen.focused.id == "escalate-reason"
        await _paste(pilot)
        await pilot.press("enter", "y")
        await pilot.pause()
        assert app.is_running
        (escalation,) = [a for a in app.live.replay.actions if a.kind is ActionKind.ESCALATE]
        assert escalation.note == KEPT


async def test_a_lone_surrogate_pasted_into_the_pickers_filter_is_replaced(services):
    app = make_app(services, None)
    async with app.run_test(size=(120, 40)) as pilot:
        await picker_ready(pilot)
        await pilot.press("slash")
        await _paste(pilot)
        assert isinstance(app.focused, TextInput) and app.focused.value == KEPT
        await pilot.press("enter")
        await pilot.pause()
        assert app.is_running and "filter “looks" in screen_text(app)


async def test_the_author_modes_fields_replace_a_lone_surrogate_typed_or_pasted():
    class Fields(App[None]):
        def compose(self) -> ComposeResult:
            yield TextInput(id="line")
            yield TextEditor(id="debrief")

    app = Fields()
    async with app.run_test() as pilot:
        app.query_one("#line", TextInput).focus()
        await pilot.pause()
        await _paste(pilot)
        await pilot.press("x")
        assert app.query_one("#line", TextInput).value == KEPT + "x"
        editor = app.query_one("#debrief", TextEditor)
        editor.focus()
        await pilot.pause()
        await _paste(pilot, "a\ud800\nb\udfff")
        editor.insert("\udc00")
        assert editor.text == "a\ufffd\nb\ufffd\ufffd"
        assert editor.text.encode("utf-8")
