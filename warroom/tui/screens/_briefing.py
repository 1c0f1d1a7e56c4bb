"""The briefing: what the agent is doing and the war room's keys, read before the drill clock starts."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from warroom.core.model import ESCALATION_INSTRUCTION, Drill
from warroom.core.text import clock, usd_price
from warroom.tui.flow import ShowPicker, StartDrill
from warroom.tui.logic import ASSESSMENT, ASSESSMENT_NOTES, PRACTICE, DrillEntry, hidden_actions
from warroom.tui.render import prose, shown_line
from warroom.tui.room import WarRoomScreen
from warroom.tui.widgets import HelpScreen, KeyFooter, help_rows, key_table


def stars(difficulty: int) -> str:
    """Difficulty 1-5 as stars, e.g. ``★★☆☆☆``."""
    return "★" * difficulty + "☆" * (5 - difficulty)


def briefing_text(drill: Drill) -> Group:
    """Everything the trainee reads before the start: goal, what to watch, context, the plan, models and agents
    (the war room's keys follow in a table of their own, see :class:`BriefingScreen`).

    Contains nothing from the answer key or the distractors.
    """
    out = Text()
    out.append(shown_line(drill.title), style="bold")
    out.append(f"\n{stars(drill.difficulty)}  ", style="yellow")
    out.append(shown_line(", ".join(drill.public_tags)), style="dim")
    out.append(f"  · about {clock(drill.duration)} at 1x\n\n", style="dim")
    out.append("Goal\n", style="bold underline")
    out.append(prose(drill.briefing.goal) + "\n\n")
    out.append("You are watching\n", style="bold underline")
    out.append(prose(drill.briefing.watching) + "\n")
    out.append(ESCALATION_INSTRUCTION + "\n\n", style="bold")  # the same sentence in every drill (hygiene)
    if drill.briefing.context:
        out.append("Context\n", style="bold underline")
        out.append(prose(drill.briefing.context) + "\n\n")
    out.append("The plan", style="bold underline")
    # Each step's objective in a column of its own, so a long one wraps under itself, not under "objective:".
    plan: list[RenderableType] = []
    for step in drill.plan:
        title = Text()
        title.append(shown_line(step.id), style="bold")
        title.append(" ")
        title.append(shown_line(step.title), style="bold")
        objective = Table.grid()
        objective.add_column(no_wrap=True)
        objective.add_column(ratio=1)
        objective.add_row(Text("   objective: ", style="dim"), Text(shown_line(step.objective)))
        plan += [title, objective]
    return Group(out, *plan, models_text(drill))


def models_text(drill: Drill) -> Text:
    """The briefing's models (the planner's, the executor's and, format 2, every other model of ``models.others``)
    with their prices in USD per million tokens, then (format 2) the drill's agents: name, role, model and
    description; ends with the heading of the war room's keys."""
    rest = Text()
    rest.append("\nModels (USD per million tokens, input / output)\n", style="bold underline")
    models = drill.models
    rows = [("planner", models.planner), ("executor", models.executor), *(("other", m) for m in models.others)]
    for role, spec in rows:
        rest.append(f"{role:<9} ", style="bold")
        rest.append(shown_line(spec.name))
        rest.append(f"  {usd_price(spec.input_usd_per_mtok)} / {usd_price(spec.output_usd_per_mtok)}\n")
    if drill.agents:
        rest.append("\nAgents\n", style="bold underline")
        for agent in drill.agents:
            rest.append(shown_line(agent.name), style="bold")
            rest.append(f"  {agent.role.value}", style="dim")
            if agent.model:
                rest.append(f" on {shown_line(agent.model)}", style="dim")
            if agent.description:
                rest.append(f"  {shown_line(agent.description)}")
            rest.append("\n")
    rest.append("\nKeys in the war room", style="bold underline")
    return rest


class BriefingScreen(Screen[None]):
    """The briefing of one drill. Enter starts the drill clock; escape goes back to the picker."""

    BINDINGS = [
        Binding("enter", "start", "Start the drill", priority=True, tooltip="start the drill clock"),
        Binding("escape", "back", "Back", tooltip="back to the drill picker"),
        Binding("q", "quit_app", "Quit", tooltip="quit warroom"),
        Binding("question_mark", "help", "Help", key_display="?", tooltip="this help"),
        Binding("up,k", "scroll(-1)", "Scroll up", show=False, tooltip="scroll the briefing"),
        Binding("down,j", "scroll(1)", "Scroll down", show=False, tooltip="scroll the briefing"),
        Binding("pageup", "page(-1)", "Page up", show=False, tooltip="scroll the briefing a page"),
        Binding("pagedown", "page(1)", "Page down", show=False, tooltip="scroll the briefing a page"),
        Binding("home,g,ctrl+home", "edge(0)", "Top", show=False, tooltip="the top / end of the briefing"),
        Binding("end,G,ctrl+end", "edge(1)", "End", show=False, tooltip="the top / end of the briefing"),
    ]

    HELP_TITLE = "Briefing keys"
    HELP_NOTES = "The war room's keys are listed at the end of the briefing; ? in the war room shows them again."

    def __init__(self, entry: DrillEntry, mode: str = PRACTICE) -> None:
        super().__init__()
        assert entry.drill is not None
        self.entry = entry
        #: The mode the drill will be played in: in ``assessment`` the keys omit pause and speeds, and its rules
        #: follow them (the war room's help in assessment shows exactly these).
        self.mode = mode

    def compose(self) -> ComposeResult:
        assert self.entry.drill is not None
        with VerticalScroll(id="briefing"):
            yield Static(briefing_text(self.entry.drill), id="briefing-body")
            hidden = hidden_actions(self.mode) + (() if self.entry.drill.probes else ("probe",))  # `v`: probes only
            yield Static(key_table(help_rows(WarRoomScreen, hidden)), id="briefing-keys")
            if self.mode == ASSESSMENT:
                yield Static(Text("\n" + ASSESSMENT_NOTES), id="briefing-mode")
        yield Static(Text(" Press enter to start the drill clock ", style="bold reverse green"), id="briefing-go")
        yield KeyFooter()  # rebuilt only when its keys change (a focus change alone restyles them all)

    def on_mount(self) -> None:
        self.query_one("#briefing").focus()

    def action_start(self) -> None:
        self.post_message(StartDrill(self.entry))

    def action_back(self) -> None:
        self.post_message(ShowPicker())

    def action_scroll(self, lines: int) -> None:
        """Scroll the briefing by ``lines`` (negative: up)."""
        self.query_one("#briefing", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_page(self, pages: int) -> None:
        """Scroll the briefing a page down (``pages`` 1) or up (-1)."""
        briefing = self.query_one("#briefing", VerticalScroll)
        (briefing.scroll_page_down if pages > 0 else briefing.scroll_page_up)(animate=False)

    def action_edge(self, end: int) -> None:
        """Scroll the briefing to its top (``end`` 0) or its end (1)."""
        briefing = self.query_one("#briefing", VerticalScroll)
        (briefing.scroll_end if end else briefing.scroll_home)(animate=False)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen.for_screen(self))

    def action_quit_app(self) -> None:
        self.app.exit()
