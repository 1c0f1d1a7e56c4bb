"""A dialog of one text field that enter answers (the war room's flag note, search text, field path), with its keys
handled in the order typed, however fast.

Textual forwards each key it reads to the widget focused then, and that widget handles it later, in its own turn: the
characters typed into the field before enter are in the field's queue when the app reads enter. So enter and escape
act where the field handles them (:class:`AnswerField`), after the characters before them (a priority binding, run as
the app reads enter, lost the note typed just before it). The keys typed right behind enter or escape were forwarded
to the field too, before the dialog closed: the field hands each back to the app (as a key read now, in the order they
came, once the dialog's answer has run: the flag made, the drill clock resumed), so it goes where keys go once the
dialog is closed (``f x enter ↑`` typed fast flags with the note ``x`` and
moves the trace's cursor up; the ↑ was lost). The escalation dialog routes its keys the same way
(:mod:`warroom.tui.room._escalate`).
"""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.screen import ModalScreen

from warroom.tui.widgets._textinput import TextInput


class AnswerDialog(ModalScreen["str | None"]):
    """A dialog holding one :class:`AnswerField`: enter dismisses with :meth:`answer` of its text, escape with None."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def answer(self, text: str) -> str:
        """What the dialog dismisses with for the text typed (as typed; a dialog may strip it)."""
        return text

    def action_cancel(self) -> None:
        if self.is_current:
            self.dismiss(None)


class AnswerField(TextInput):
    """The field of an :class:`AnswerDialog`: enter and escape close the dialog in the order typed, and a key that
    reaches the field once its dialog is closed is handed back to the app, to go where keys go now."""

    def on_key(self, event: events.Key) -> None:
        dialog = self.screen
        if not isinstance(dialog, AnswerDialog):
            return
        if not dialog.is_current:  # typed right behind the enter (or escape) that closed the dialog
            event.stop()
            event.prevent_default()
            # after the dialog's answer (a flag, the drill resumed), which the app runs next: the key acts on its result
            self.app.call_next(self.app.post_message, events.Key(event.key, event.character))
            return
        if event.key in ("enter", "escape"):
            event.stop()
            event.prevent_default()
            dialog.dismiss(dialog.answer(self.value) if event.key == "enter" else None)
