"""Modal screens: help (on every screen), and over the war room flag note, escalation, quit confirmation.

Each modal dismisses with its answer (or None when cancelled); the war room applies it to the Replay. The drill
clock does not run while a modal is open (the war room only advances it while it is the active screen), so an
escalation is timed when the trainee confirms it, exactly as if they had paused first.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from warroom.core.format import PLAYBACK_SPEEDS
from warroom.core.replay import FALSE_ESCALATION_DELAY
from warroom.tui import text as fmt

# The escalation dialog lives in its own module; it is re-exported here, with the other dialogs.
from warroom.tui.escalate import (
    NOTE_MAX,
    TYPE_AHEAD_RESET,
    EscalateScreen,
    EscalationChoice,
    ReasonInput,
    StepList,
    match_step,
)

#: Playback speeds offered by + and - in the war room, as multipliers of real time (drill seconds per real second):
#: :data:`warroom.core.format.PLAYBACK_SPEEDS`, which ``warroom run --speed`` accepts too.
SPEEDS: tuple[float, ...] = PLAYBACK_SPEEDS

#: (key, what it does) on each screen, as the help screen (``?``) and the briefing list them.
WAR_ROOM_KEYS: tuple[tuple[str, str], ...] = (
    ("space", "pause / resume the drill clock"),
    ("+  -", "playback speed (" + " ".join(fmt.speed(s) for s in SPEEDS) + ")"),
    ("↑ ↓  j k", "move in the trace (a click selects an event)"),
    ("pgup pgdn", "a page up / down the trace"),
    ("home g  end G", "first event / newest event, following again"),
    ("enter", "inspect the selected event"),
    ("tab", "move between the trace and the inspector (to scroll it)"),
    ("f", "flag the selected event as suspicious, with an optional note; f on a flagged event removes the flag"),
    ("e", "escalate to the planner: name the plan step at fault (↑ ↓ j k or type its id, tab for a reason, "
     "tab again for the events you cite as showing the fault: space ticks one; enter, then y to confirm)"),
    ("q", "quit the drill (asks first; the session is kept as abandoned)"),
    ("?", "this help"),
)
PICKER_KEYS: tuple[tuple[str, str], ...] = (
    ("↑ ↓  j k", "move in the list of drills"),
    ("home end  g G", "first / last drill"),
    ("pgup pgdn", "a page up / down the list"),
    ("enter", "open the selected drill's briefing"),
    ("tab", "into the preview and back (there ↑ ↓ j k scroll it)"),
    ("r", "reload the drills from disk (after editing one)"),
    ("q", "quit warroom"),
    ("?", "this help"),
)
BRIEFING_KEYS: tuple[tuple[str, str], ...] = (
    ("enter", "start the drill clock"),
    ("↑ ↓  pgup pgdn", "scroll the briefing"),
    ("escape", "back to the drill picker"),
    ("q", "quit warroom"),
    ("?", "this help"),
)
DEBRIEF_KEYS: tuple[tuple[str, str], ...] = (
    ("↑ ↓  pgup pgdn", "scroll the debrief"),
    ("p  escape", "back to the drill picker"),
    ("r", "play this drill again"),
    ("q", "quit warroom"),
    ("?", "this help"),
)

REVIEW_KEYS: tuple[tuple[str, str], ...] = (
    ("↑ ↓  j k", "move in the timeline (the side panel shows the row in full)"),
    ("pgup pgdn", "a page up / down the timeline"),
    ("home g  end G", "first / last row"),
    ("n  p", "next / previous trainee action (flag, escalation, quit)"),
    ("e", "next evidence event (wraps to the first)"),
    ("q  escape", "close the review"),
    ("?", "this help"),
)

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
    "The clock stops while a dialog (this one too) is open."
)


def key_table(rows: Sequence[tuple[str, str]]) -> Table:
    """A two-column grid of keys and what they do; a long description wraps under itself, not under the key."""
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True, style="bold")
    table.add_column(ratio=1)
    for key, what in rows:
        table.add_row(key, what)
    return table


def help_body(keys: Sequence[tuple[str, str]], notes: str = "") -> Group:
    """The help screen's body: the key table, then ``notes`` (paragraphs, wrapped to the width)."""
    parts: list[RenderableType] = [key_table(keys)]
    if notes:
        parts.append(Text("\n" + notes))
    return Group(*parts)


class HelpScreen(ModalScreen[None]):
    """The keys of one screen and how it works (``?`` on every screen). Escape, q, ? or enter closes it.

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

    def __init__(
        self,
        title: str = "War room keys",
        keys: Sequence[tuple[str, str]] = WAR_ROOM_KEYS,
        notes: str = WAR_ROOM_NOTES,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.keys = tuple(keys)
        self.notes = notes

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
        self.query_one("#help-hint", Label).update("↑ ↓ scroll · escape closes" if more else "escape closes")

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
    "BRIEFING_KEYS", "DEBRIEF_KEYS", "NOTE_MAX", "PICKER_KEYS", "REVIEW_KEYS", "SPEEDS", "TYPE_AHEAD_RESET",
    "WAR_ROOM_KEYS", "ConfirmScreen", "EscalateScreen", "EscalationChoice", "FlagScreen", "HelpScreen",
    "ReasonInput", "StepList", "help_body", "key_table", "match_step",
]
