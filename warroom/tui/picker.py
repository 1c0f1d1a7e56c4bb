"""The drill picker and the briefing: choose a drill, read what the agent is doing, start the clock."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from warroom.core.hygiene import ESCALATION_INSTRUCTION
from warroom.core.model import Drill
from warroom.tui import text as fmt
from warroom.tui.modals import BRIEFING_KEYS, PICKER_KEYS, WAR_ROOM_KEYS, HelpScreen, key_table
from warroom.tui.services import DrillEntry, ResultsUnavailable
from warroom.tui.widgets import fit_columns

#: Fixed and flexible column widths of the picker's table.
_FIXED = {"level": 5, "length": 6, "best": 4}
_FLEX = {"title": 3.0, "tags": 2.0}
#: Lines the drill preview keeps at least (with its border) when the list is long.
_PREVIEW_MIN = 7

if TYPE_CHECKING:
    from warroom.tui.app import WarroomApp


def stars(difficulty: int) -> str:
    """Difficulty 1-5 as stars, e.g. ``★★☆☆☆``."""
    return "★" * difficulty + "☆" * (5 - difficulty)


def _best_cell(drill_id: str, best: dict[str, int | None]) -> Text:
    """The picker's "best" cell: the best score of a played session, ``quit`` (dim italic) for a drill the trainee
    only ever quit (its abandoned sessions score 0, which is not a best), ``—`` for a drill never started."""
    if drill_id not in best:
        return Text("—", style="dim")
    score = best[drill_id]
    return Text("quit", style="dim italic") if score is None else Text(str(score), style="bold")


class PickerScreen(Screen[None]):
    """Every drill on offer, with title, difficulty, tags, estimated length and the trainee's best score.

    Drills that fail to load are listed too, marked, with their ``path:line:col: message`` problems shown when
    selected; they cannot be started.
    """

    app: WarroomApp

    BINDINGS = [
        Binding("enter", "start", "Start", priority=True),
        Binding("r", "reload", "Reload"),
        Binding("q", "quit_app", "Quit"),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("j", "down", "Down", show=False),
        Binding("k", "up", "Up", show=False),
        Binding("home,g", "first", "First", show=False, priority=True),
        Binding("end,G", "last", "Last", show=False, priority=True),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[DrillEntry] = []

    def compose(self) -> ComposeResult:
        yield Static(self._banner(), id="picker-banner")
        table: DataTable[Text] = DataTable(id="picker-table", cursor_type="row")
        table.border_title = "Drills"
        yield table
        detail = VerticalScroll(Static(id="picker-detail-body"), id="picker-detail")
        detail.border_title = "Preview"
        yield detail  # focusable: tab moves into it, and the arrows, j / k, pgup / pgdn scroll it
        yield Footer()

    def _banner(self) -> Text:
        out = Text()
        out.append(" WAR ROOM ", style="bold reverse red")
        out.append("  incident drills for planner-executor agents · trainee ")
        out.append(fmt.clean_line(self.app.services.trainee), style="bold")
        return out

    def on_mount(self) -> None:
        table = self.query_one("#picker-table", DataTable)
        table.add_column(Text("title"), key="title")
        table.add_column(Text("level"), key="level")
        table.add_column(Text("tags"), key="tags")
        table.add_column(Text("length"), key="length")
        table.add_column(Text("best"), key="best")
        fit_columns(table, _FIXED, _FLEX)
        self.load()
        table.focus()

    def on_resize(self) -> None:
        fit_columns(self.query_one("#picker-table", DataTable), _FIXED, _FLEX)
        self.fit_heights()

    def load(self) -> None:
        """(Re)load the drill catalog and the trainee's best scores into the table."""
        table = self.query_one("#picker-table", DataTable)
        table.clear()
        self.entries = self.app.services.catalog()
        try:
            best = self.app.services.best_scores()
        except ResultsUnavailable as exc:  # a broken results store must not stop anyone from playing
            best = {}
            self.notify(f"Best scores unavailable: {exc}", severity="warning", markup=False)
        for i, entry in enumerate(self.entries):
            try:
                cells = self._cells(entry, best)
            except Exception as exc:
                problem = f"{entry.path}:1:1: cannot show this drill ({type(exc).__name__}: {exc})"
                self.entries[i] = entry = DrillEntry(entry.path, None, (*entry.problems, problem))
                cells = self._cells(entry, best)
            table.add_row(*cells, key=str(i))
        if not self.entries:
            self.query_one("#picker-detail-body", Static).update(Text("No drills found."))
        # Back from a drill: the cursor stays on the drill just played (matched by file).
        last = self.app.last_drill_path
        if last is not None:
            row = next((i for i, e in enumerate(self.entries) if e.path.resolve() == last.resolve()), None)
            if row is not None:
                table.move_cursor(row=row, animate=False, scroll=True)
        self.fit_heights()

    def _cells(self, entry: DrillEntry, best: dict[str, int | None]) -> list[Text]:
        """The table cells of one drill: title, level, tags, length, best score (a broken drill marked ⚠)."""
        d = entry.drill
        if d is not None and entry.problems:  # loaded, but breaks a rule across files (e.g. a duplicate id)
            return [
                fmt.literal_line(f"⚠ {d.title}", style="bold red"),
                Text(stars(d.difficulty), style="yellow"),
                Text("has problems", style="red"),
                Text(fmt.clock(d.duration)),
                Text("—"),
            ]
        if d is None:
            return [
                fmt.literal_line(f"⚠ {entry.path.name}", style="bold red"),
                Text("—"),
                Text("cannot load", style="red"),
                Text("—"),
                Text("—"),
            ]
        return [
            fmt.literal_line(d.title),
            Text(stars(d.difficulty), style="yellow"),
            fmt.literal_line(", ".join(d.public_tags), style="dim"),
            Text(fmt.clock(d.duration)),
            _best_cell(d.id, best),
        ]

    def fit_heights(self) -> None:
        """Give the drill list the rows it needs (up to what leaves the preview 7 lines) and the preview the rest."""
        table = self.query_one("#picker-table", DataTable)
        room = self.size.height - 2  # the banner and the footer
        if room <= 0:
            return
        wanted = table.row_count + 3  # the header row and the border
        table.styles.height = max(min(wanted, room - _PREVIEW_MIN), min(6, room))

    def selected(self) -> DrillEntry | None:
        """The entry under the cursor, or None when the table is empty."""
        table = self.query_one("#picker-table", DataTable)
        if not self.entries or table.row_count == 0:
            return None
        return self.entries[table.cursor_row]

    @on(DataTable.RowHighlighted, "#picker-table")
    def show_detail(self) -> None:
        entry = self.selected()
        if entry is None:
            return
        out = Text()
        if entry.problems:
            what = "cannot be loaded" if entry.drill is None else "cannot be started until this is fixed"
            out.append(f"This drill {what}:\n", style="bold red")
            for line in entry.problems:
                out.append(fmt.clean(line) + "\n")
            if entry.drill is not None:
                out.append("\n")
        if entry.drill is not None:
            d = entry.drill
            out.append(fmt.clean_line(d.title), style="bold")
            out.append("\n")
            out.append(fmt.clean_line(f"{d.id} v{d.version} · by {d.author}"), style="dim")
            out.append("\n")
            out.append("\nGoal\n", style="bold")
            out.append(fmt.prose(d.briefing.goal))
            out.append("\n\nYou are watching\n", style="bold")
            out.append(fmt.prose(d.briefing.watching))
            out.append("\n" + ESCALATION_INSTRUCTION)
            out.append("\n\nThe plan\n", style="bold")
            for step in d.plan:
                out.append(f"  {fmt.clean_line(step.id)} ", style="bold")
                out.append(fmt.clean_line(step.title) + "\n")
        out.append("\n")
        out.append(fmt.clean(str(entry.path)), style="dim")
        self.query_one("#picker-detail-body", Static).update(out)

    def action_start(self) -> None:
        entry = self.selected()
        if entry is None:
            return
        if not entry.ok:
            self.notify("This drill has problems; fix them and press r to reload.", severity="error", markup=False)
            return
        self.app.show_briefing(entry)

    def action_reload(self) -> None:
        self.load()

    def _preview(self) -> VerticalScroll | None:
        """The preview when it has the focus (keys then scroll it), else None."""
        detail = self.query_one("#picker-detail", VerticalScroll)
        return detail if detail.has_focus else None

    def action_down(self) -> None:
        preview = self._preview()
        if preview is not None:
            preview.scroll_down(animate=False)
        else:
            self.query_one("#picker-table", DataTable).action_cursor_down()

    def action_up(self) -> None:
        preview = self._preview()
        if preview is not None:
            preview.scroll_up(animate=False)
        else:
            self.query_one("#picker-table", DataTable).action_cursor_up()

    def action_first(self) -> None:
        """Move to the first drill of the list (or the top of the preview, when it has the focus)."""
        preview = self._preview()
        if preview is not None:
            preview.scroll_home(animate=False)
            return
        table = self.query_one("#picker-table", DataTable)
        if table.row_count:
            table.move_cursor(row=0, animate=False)

    def action_last(self) -> None:
        """Move to the last drill of the list (or the end of the preview, when it has the focus)."""
        preview = self._preview()
        if preview is not None:
            preview.scroll_end(animate=False)
            return
        table = self.query_one("#picker-table", DataTable)
        if table.row_count:
            table.move_cursor(row=table.row_count - 1, animate=False)

    def action_quit_app(self) -> None:
        self.app.exit()

    def action_help(self) -> None:
        self.app.push_screen(
            HelpScreen("Drill picker keys", PICKER_KEYS, "A drill marked ⚠ has problems; select it to see them.")
        )


def briefing_text(drill: Drill) -> Group:
    """Everything the trainee reads before the start: goal, what to watch, context, the plan, models (the war
    room's keys follow in a table of their own, see :class:`BriefingScreen`).

    Contains nothing from the answer key or the distractors.
    """
    out = Text()
    out.append(fmt.clean_line(drill.title), style="bold")
    out.append(f"\n{stars(drill.difficulty)}  ", style="yellow")
    out.append(fmt.clean_line(", ".join(drill.public_tags)), style="dim")
    out.append(f"  · about {fmt.clock(drill.duration)} at 1x\n\n", style="dim")
    out.append("Goal\n", style="bold underline")
    out.append(fmt.prose(drill.briefing.goal) + "\n\n")
    out.append("You are watching\n", style="bold underline")
    out.append(fmt.prose(drill.briefing.watching) + "\n")
    out.append(ESCALATION_INSTRUCTION + "\n\n", style="bold")  # the same sentence in every drill (hygiene)
    if drill.briefing.context:
        out.append("Context\n", style="bold underline")
        out.append(fmt.prose(drill.briefing.context) + "\n\n")
    out.append("The plan", style="bold underline")
    # Each step's objective in a column of its own, so a long one wraps under itself, not under "objective:".
    plan: list[RenderableType] = []
    for step in drill.plan:
        title = Text()
        title.append(fmt.clean_line(step.id), style="bold")
        title.append(" ")
        title.append(fmt.clean_line(step.title), style="bold")
        objective = Table.grid()
        objective.add_column(no_wrap=True)
        objective.add_column(ratio=1)
        objective.add_row(Text("   objective: ", style="dim"), Text(fmt.clean_line(step.objective)))
        plan += [title, objective]
    rest = Text()
    rest.append("\nModels (USD per million tokens, input / output)\n", style="bold underline")
    for role, spec in (("planner", drill.models.planner), ("executor", drill.models.executor)):
        rest.append(f"{role:<9}", style="bold")
        rest.append(fmt.clean_line(spec.name))
        rest.append(f"  ${spec.input_usd_per_mtok:g} / ${spec.output_usd_per_mtok:g}\n")
    rest.append("\nKeys in the war room", style="bold underline")
    return Group(out, *plan, rest)


class BriefingScreen(Screen[None]):
    """The briefing of one drill. Enter starts the drill clock; escape goes back to the picker."""

    app: WarroomApp

    BINDINGS = [
        Binding("enter", "start", "Start the drill", priority=True),
        Binding("escape", "back", "Back"),
        Binding("q", "quit_app", "Quit"),
        Binding("question_mark", "help", "Help", key_display="?"),
    ]

    def __init__(self, entry: DrillEntry) -> None:
        super().__init__()
        assert entry.drill is not None
        self.entry = entry

    def compose(self) -> ComposeResult:
        assert self.entry.drill is not None
        with VerticalScroll(id="briefing"):
            yield Static(briefing_text(self.entry.drill), id="briefing-body")
            yield Static(key_table(WAR_ROOM_KEYS), id="briefing-keys")
        yield Static(Text(" Press enter to start the drill clock ", style="bold reverse green"), id="briefing-go")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#briefing").focus()

    def action_start(self) -> None:
        self.app.start_drill(self.entry)

    def action_back(self) -> None:
        self.app.show_picker()

    def action_help(self) -> None:
        notes = "The war room's keys are listed at the end of the briefing; ? in the war room shows them again."
        self.app.push_screen(HelpScreen("Briefing keys", BRIEFING_KEYS, notes))

    def action_quit_app(self) -> None:
        self.app.exit()
