"""Modal screens: help (on every screen), and over the war room flag note, escalation, quit confirmation.

Each modal dismisses with its answer (or None when cancelled); the war room applies it to the Replay. The drill
clock does not run while a modal is open (the war room only advances it while it is the active screen), so an
escalation is timed when the trainee confirms it, exactly as if they had paused first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from warroom.core.format import PLAYBACK_SPEEDS
from warroom.core.model import PlanStep
from warroom.core.replay import FALSE_ESCALATION_DELAY
from warroom.tui import text as fmt

#: Longest escalation reason or flag note, in characters.
NOTE_MAX = 200


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
    ("f", "flag the selected event as suspicious, with an optional note"),
    ("e", "escalate to the planner: name the plan step at fault"),
    ("q", "quit the drill (asks first; the session is kept as abandoned)"),
    ("?", "this help"),
)
PICKER_KEYS: tuple[tuple[str, str], ...] = (
    ("↑ ↓  j k", "move in the list of drills"),
    ("home end  g G", "first / last drill"),
    ("pgup pgdn", "a page up / down the list"),
    ("enter", "open the selected drill's briefing"),
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
    "Escalate once you can name the step whose result is wrong: a correct escalation stops the cascade; "
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


@dataclass(frozen=True)
class EscalationChoice:
    """What the trainee chose in the escalation modal: the plan step at fault and a short reason."""

    step: str
    reason: str


class StepList(OptionList):
    """The escalation dialog's list of plan steps: ↑ stops at the first step and ↓ at the last (no wrap-around,
    so extra presses can never land on a step at the other end), and enter escalates (see
    :class:`EscalateScreen`)."""

    BINDINGS = [Binding("enter", "screen.escalate", "Escalate", show=False)]

    def _move(self, direction: int) -> None:
        from textual._widget_navigation import find_next_enabled_no_wrap

        target = find_next_enabled_no_wrap(self.options, anchor=self.highlighted, direction=direction)  # type: ignore[arg-type]
        if target is not None:
            self.highlighted = target

    def action_cursor_up(self) -> None:
        self._move(-1)

    def action_cursor_down(self) -> None:
        self._move(1)


class EscalateScreen(ModalScreen["EscalationChoice | None"]):
    """Escalate to the planner: pick the plan step at fault (preselected) and type a short reason (optional).

    The reason box has the focus; ↑ ↓ choose the step from anywhere in the dialog (stopping at the first and the
    last step), typing goes to the reason (also when the list has the focus), Enter escalates from anywhere, Escape
    cancels. Dismisses with an :class:`EscalationChoice`, or None when cancelled.

    Every key typed after ``e`` counts, however fast: the war room pushes this screen as soon as the app reads the
    ``e`` (a priority binding), keys that reach the screen before the reason box has the focus are handled here,
    and Enter is not a priority binding: it is handled in turn after the keys before it (as ``Input.Submitted``
    from the reason box), so a reason typed just before it is never cut short.
    """

    AUTO_FOCUS = "#escalate-reason"

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("enter", "escalate", "Escalate"),
        Binding("up", "step(-1)", "Previous step", show=False),
        Binding("down", "step(1)", "Next step", show=False),
    ]

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
            yield StepList(*options, id="escalate-steps")
            yield Input(
                placeholder="reason (optional): what is wrong with that step",
                max_length=NOTE_MAX,
                select_on_focus=False,
                id="escalate-reason",
            )
            yield Label("↑↓ step · type a reason (optional) · enter escalates · esc cancels", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#escalate-steps", OptionList).highlighted = self.preselect

    @property
    def step(self) -> str:
        """The id of the plan step chosen now."""
        index = self.query_one("#escalate-steps", OptionList).highlighted
        return self.plan[index if index is not None else self.preselect].id

    def action_step(self, delta: int) -> None:
        """Move the step choice up (-1) or down (+1) while the reason box has the focus."""
        steps = self.query_one("#escalate-steps", OptionList)
        if delta < 0:
            steps.action_cursor_up()
        else:
            steps.action_cursor_down()

    @on(OptionList.OptionSelected, "#escalate-steps")
    def step_clicked(self) -> None:
        self.query_one("#escalate-reason", Input).focus()

    @on(Input.Submitted, "#escalate-reason")
    def reason_submitted(self) -> None:
        self.action_escalate()

    def on_key(self, event: events.Key) -> None:
        # Typing on the list goes to the reason box, so the dialog reads the same wherever the focus is.
        reason = self.query_one("#escalate-reason", Input)
        if self.focused is not reason and event.is_printable and event.character:
            reason.focus()
            reason.insert_text_at_cursor(event.character)
            event.stop()
            event.prevent_default()

    def action_escalate(self) -> None:
        if not self.is_current:  # a second enter while the dialog closes
            return
        reason = self.query_one("#escalate-reason", Input).value.strip()
        self.dismiss(EscalationChoice(step=self.step, reason=reason))

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
