"""The war room's flag dialog: flag the selected trace event as suspicious, with an optional note (``f``)."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label

from warroom.core.text import clean_line
from warroom.tui.render import literal_line
from warroom.tui.room._escalate import NOTE_MAX
from warroom.tui.widgets import Dialog, TextInput, mouse_buttons


class FlagScreen(Dialog["str | None"]):
    """Flag the selected event: an optional note. Dismisses with the note ("" for none) or None if cancelled."""

    ANSWERED_BY = frozenset({"flag-note"})
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, event_id: str, summary: str) -> None:
        super().__init__()
        self.event_id = event_id
        self.summary = summary

    def compose(self) -> ComposeResult:
        with Vertical(id="flag-box", classes="dialog"):
            title = Text("Flag ")
            title.append(clean_line(self.event_id), style="bold")
            yield Label(title, classes="dialog-title")
            yield Label(literal_line(self.summary, limit=300), classes="dialog-quote")
            yield TextInput(placeholder="note (optional): why it looks wrong", max_length=NOTE_MAX, id="flag-note")
            yield Label("enter flags · escape cancels", classes="dialog-hint")
            yield mouse_buttons(("flag-yes", "Flag (enter)", "screen.flag"),
                                ("flag-no", "Cancel (esc)", "screen.cancel"))

    @on(Input.Submitted, "#flag-note")
    def submit(self, event: Input.Submitted) -> None:
        self.action_flag()

    def action_flag(self) -> None:
        """Flag with the note (enter in it, or the Flag button)."""
        self.dismiss(self.query_one("#flag-note", Input).value.strip())

