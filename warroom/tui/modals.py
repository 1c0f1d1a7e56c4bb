"""Modal screens: help (on every screen), and over the war room flag note, escalation, quit confirmation.

Each modal dismisses with its answer (or None when cancelled); the war room applies it to the Replay. The drill
clock does not run while a modal is open (the war room only advances it while it is the active screen), so an
escalation is timed when the trainee confirms it, exactly as if they had paused first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Label, Static

from warroom.core.play import FALSE_ESCALATION_DELAY
from warroom.core.text import PLAYBACK_SPEEDS
from warroom.tui import text as fmt

# The escalation dialog lives in its own module; it is re-exported here, with the other dialogs.
from warroom.tui.escalate import (
    NOTE_MAX,
    EscalateScreen,
    EscalationChoice,
    ReasonInput,
    StepList,
    match_step,
)
from warroom.tui.keyhelp import help_body, help_rows, key_prose, key_table
from warroom.tui.keylist import TYPE_AHEAD_RESET

#: Playback speeds offered by + and - in the war room, as multipliers of real time (drill seconds per real second):
#: :data:`warroom.core.text.PLAYBACK_SPEEDS`, which ``warroom run --speed`` accepts too.
SPEEDS: tuple[float, ...] = PLAYBACK_SPEEDS

#: How the review's answer-key column marks a trace event (the side panel spells the marks out).
REVIEW_NOTES = (
    "Answer-key column: ORIGIN an event of the plan step at fault · EVID evidence (EVID1 the earliest) · "
    "CASCADE a step the fault cascades into · DMG damage done · DISTR a distractor (odd but harmless) · "
    "REPLAN the planner's re-plan.\n\n"
    "Dim rows were not played: the trace stopped before them."
)

#: How the war room works, under its keys in the help screen.
WAR_ROOM_NOTES = (
    "The plan panel shows each step's status as the executor reported it, not as it is.\n\n"
    "Escalate once you can name the step whose result is wrong and cite the event that shows it: a correct "
    "escalation stops the cascade; "
    f"a wrong one costs a planner re-plan call and {fmt.seconds(FALSE_ESCALATION_DELAY)} of drill time while the "
    "trace runs on.\n\n"
    "The clock stops while a dialog (this one too) is open; in practice the session records that as a pause."
)


class HelpScreen(ModalScreen[None]):
    """The keys of one screen and how it works (``?`` on every screen). Escape, q, ? or enter closes it.

    Screens open it with :meth:`for_screen`, which builds the rows from the screen's bindings
    (:func:`warroom.tui.keyhelp.help_rows`), so the help lists exactly the keys the screen has.

    Args:
        title: the dialog's title, e.g. "War room keys".
        keys: (key, what it does) rows.
        notes: text shown under the keys.
    """

    BINDINGS = [
        Binding("escape,q,question_mark,enter", "dismiss_help", "Close"),
        Binding("up,k", "scroll(-1)", "Scroll up", show=False),
        Binding("down,j", "scroll(1)", "Scroll down", show=False),
    ]

    def __init__(self, title: str, keys: Sequence[tuple[str, str]], notes: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.keys = tuple(keys)
        self.notes = notes

    @classmethod
    def for_screen(cls, screen: Screen[Any]) -> HelpScreen:
        """The help of ``screen``: its ``HELP_TITLE``, the rows of its bindings, its ``HELP_NOTES``."""
        title = getattr(screen, "HELP_TITLE", "Keys")
        return cls(title, help_rows(screen), getattr(screen, "HELP_NOTES", ""))

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box", classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield VerticalScroll(Static(help_body(self.keys, self.notes)), id="help-body")
            yield Label("escape closes", id="help-hint", classes="dialog-hint")

    def on_mount(self) -> None:
        self.fit_body()

    def on_resize(self) -> None:
        self.fit_body()

    def fit_body(self) -> None:
        """Give the body the rows the box leaves (at most 90% of the terminal; its border, title and hint take 5), so
        it is never cut off: when it does not fit, it scrolls (with its scrollbar) and the hint says so."""
        body = self.query_one("#help-body", VerticalScroll)
        body.styles.max_height = max(int(self.app.size.height * 0.9) - 5, 3)
        self.call_after_refresh(self._update_hint)

    def _update_hint(self) -> None:
        body = self.query_one("#help-body", VerticalScroll)
        more = body.max_scroll_y > 0
        self.query_one("#help-hint", Label).update(key_prose("↑ ↓ scroll · escape closes") if more else "escape closes")

    def action_scroll(self, lines: int) -> None:
        self.query_one("#help-body", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_dismiss_help(self) -> None:
        self.dismiss(None)


class FlagScreen(ModalScreen["str | None"]):
    """Flag the selected event: an optional note. Dismisses with the note ("" for none) or None if cancelled."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, event_id: str, summary: str) -> None:
        super().__init__()
        self.event_id = event_id
        self.summary = summary

    def compose(self) -> ComposeResult:
        with Vertical(id="flag-box", classes="dialog"):
            title = Text("Flag ")
            title.append(fmt.clean_line(self.event_id), style="bold")
            yield Label(title, classes="dialog-title")
            yield Label(fmt.literal_line(self.summary, limit=300), classes="dialog-quote")
            yield Input(placeholder="note (optional): why it looks wrong", max_length=NOTE_MAX, id="flag-note")
            yield Label("enter flags · escape cancels", classes="dialog-hint")

    @on(Input.Submitted, "#flag-note")
    def submit(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question (e.g. quit the drill?). Dismisses with True for yes."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str, detail: str = "") -> None:
        super().__init__()
        self.question = question
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box", classes="dialog"):
            yield Label(Text(self.question), classes="dialog-title")
            if self.detail:
                yield Label(Text(self.detail), classes="dialog-quote")
            with Horizontal(id="confirm-buttons"):
                yield Button("Yes (y)", id="yes", variant="error")
                yield Button("No (n)", id="no", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


__all__ = [
    "NOTE_MAX", "REVIEW_NOTES", "SPEEDS", "TYPE_AHEAD_RESET", "WAR_ROOM_NOTES", "ConfirmScreen", "EscalateScreen",
    "EscalationChoice", "FlagScreen", "HelpScreen", "ReasonInput", "StepList", "help_body", "key_table", "match_step",
]
