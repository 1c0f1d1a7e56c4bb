"""Modal screens over the war room: help, flag note, escalation, quit confirmation.

Each modal dismisses with its answer (or None when cancelled); the war room applies it to the Replay. The drill
clock does not run while a modal is open (the war room only advances it while it is the active screen), so an
escalation is timed when the trainee confirms it, exactly as if they had paused first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from warroom.core.model import PlanStep
from warroom.tui import text as fmt

#: Longest escalation reason or flag note, in characters.
NOTE_MAX = 200


def help_text() -> Text:
    """The war room's keys and what the screen shows, for the help screen and the briefing."""
    rows = [
        ("space", "pause / resume the drill clock"),
        ("+  -", "playback speed (0.5x 1x 2x 4x 8x)"),
        ("↑ ↓  j k", "move in the trace timeline"),
        ("G", "jump to the newest event and follow again"),
        ("enter", "inspect the selected event (tab moves into the inspector to scroll)"),
        ("f", "flag the selected event as suspicious, with an optional note"),
        ("e", "escalate to the planner: name the plan step at fault"),
        ("q", "quit the drill (asks first; the session is kept as abandoned)"),
        ("?", "this help"),
    ]
    out = Text()
    for key, what in rows:
        out.append(f"  {key:<10}", style="bold")
        out.append(f"{what}\n")
    out.append(
        "\nThe plan panel shows each step's status as the executor reported it, not as it is.\n"
        "Escalate once you can name the step whose result is wrong: a correct escalation stops the cascade;\n"
        "a wrong one costs a planner re-plan call and 15 s of drill time while the trace runs on.\n"
        "The clock stops while a dialog (this one too) is open."
    )
    return out


class HelpScreen(ModalScreen[None]):
    """The keys and how the war room works (`?`)."""

    BINDINGS = [Binding("escape,q,question_mark,enter", "dismiss_help", "Close")]

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box", classes="dialog"):
            yield Label("War room keys", classes="dialog-title")
            yield VerticalScroll(Static(help_text()), id="help-body")
            yield Label("escape closes", classes="dialog-hint")

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


@dataclass(frozen=True)
class EscalationChoice:
    """What the trainee chose in the escalation modal: the plan step at fault and a short reason."""

    step: str
    reason: str


class EscalateScreen(ModalScreen["EscalationChoice | None"]):
    """Escalate to the planner: pick the plan step at fault (preselected) and type a short reason.

    Dismisses with an :class:`EscalationChoice`, or None when cancelled.
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, plan: Sequence[PlanStep], preselect: str | None = None) -> None:
        super().__init__()
        self.plan = list(plan)
        ids = [s.id for s in self.plan]
        self.preselect = ids.index(preselect) if preselect in ids else 0

    def compose(self) -> ComposeResult:
        options = []
        for step in self.plan:
            prompt = Text(no_wrap=True, overflow="ellipsis")
            prompt.append(fmt.clean_line(step.id), style="bold")
            prompt.append(" ")
            prompt.append(fmt.clean_line(step.title))
            options.append(Option(prompt, id=step.id))
        with Vertical(id="escalate-box", classes="dialog"):
            yield Label("Escalate to the planner: which plan step is at fault?", classes="dialog-title")
            yield OptionList(*options, id="escalate-steps")
            yield Input(placeholder="reason (short): what is wrong with that step", max_length=NOTE_MAX, id="escalate-reason")
            yield Label("↑↓ step · tab reason · enter escalates · escape cancels", classes="dialog-hint")

    def on_mount(self) -> None:
        steps = self.query_one("#escalate-steps", OptionList)
        steps.highlighted = self.preselect
        steps.focus()

    @on(OptionList.OptionSelected, "#escalate-steps")
    def step_chosen(self) -> None:
        self.query_one("#escalate-reason", Input).focus()

    @on(Input.Submitted, "#escalate-reason")
    def submit(self, event: Input.Submitted) -> None:
        steps = self.query_one("#escalate-steps", OptionList)
        index = steps.highlighted if steps.highlighted is not None else self.preselect
        self.dismiss(EscalationChoice(step=self.plan[index].id, reason=event.value.strip()))

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
