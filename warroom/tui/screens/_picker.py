"""The drill picker: choose a drill (the briefing that follows is in :mod:`warroom.tui.screens._briefing`), and
:func:`fit_columns`, which sizes its table's columns to its width."""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Input, Static
from textual.worker import get_current_worker

from warroom.core.settings import trace_key
from warroom.core.text import clean_line, visible_name
from warroom.tui.flow import ShowBriefing
from warroom.tui.logic import (
    ASSESSMENT,
    SORTS,
    DrillEntry,
    Group,
    ResultsUnavailable,
    Services,
    domain_label,
    domain_of,
    filter_entries,
    group_entries,
    is_tutorial,
    new_trainee,
    sort_entries,
)
from warroom.tui.screens._pickerview import (
    GROUP_WIDTH,
    entry_cells,
    group_label,
    preview_text,
    shown_filter,
    table_title,
)
from warroom.tui.widgets import HelpScreen, KeyFooter, TextInput

#: Fixed and flexible column widths of the picker's table.
_FIXED = {"level": 5, "length": 6, "best": 4}
_FLEX = {"title": 3.0, "tags": 1.5}  # the tags beside a group are its drills' other domain tags: short
#: Below this many cells of table the tags column folds away (width 0; the preview names the drill's tags), so that
#: the title has the room: at 80 columns 33 cells of title rather than 22.
_TAGS_FOLD = 90
#: Lines the drill preview keeps at least (with its border) when the list is long.
_PREVIEW_MIN = 7


class DrillTable(DataTable[Text]):
    """The picker's list of drills: a click on the drill highlighted already posts :class:`Chosen` (the picker opens
    it, as enter does), wherever in its row the click lands; a click on another drill highlights it."""

    class Chosen(Message):
        """A click on the drill under the cursor."""

    def on_click(self, event: events.Click) -> None:
        # runs before DataTable's own handler moves the cursor: the row clicked is compared with the cursor's before
        row = event.style.meta.get("row")
        if isinstance(row, int) and row >= 0 and self.row_count and row == self.cursor_row:
            self.post_message(self.Chosen())


class PickerScreen(Screen[None]):
    """Every drill on offer, with title, difficulty, tags, estimated length and the trainee's best score, grouped by
    domain (:mod:`warroom.tui.logic._pickergroups`: the group's name in the first column of its first row; the tutorial
    first for a trainee who has not finished a drill yet); a drill set's drills in the set's order, ungrouped.

    Drills that fail to load are listed too, marked, with their ``path:line:col: message`` problems shown when
    selected; they cannot be started. The drills are read in a worker thread (:meth:`load`).

    Args:
        services: where the drills and the trainee's best scores come from.
        last_drill: the file of the drill last opened, if any: the cursor starts on it (matched by file).
    """

    BINDINGS = [
        Binding("enter", "start", "Start", priority=True,
                tooltip="open the selected drill's briefing (a click on it too)"),
        Binding("r", "reload", "Reload", tooltip="reload the drills from disk (after editing one)"),
        Binding("q", "quit_app", "Quit", tooltip="quit warroom"),
        Binding("question_mark", "help", "Help", key_display="?", tooltip="this help"),
        # The moves are priority keys, as enter is: each runs as the app reads it, in the order typed (``j j enter``
        # typed fast opened the drill the cursor left: enter ran before the list had moved). k and j are letters of
        # the filter in its box (check_action), ↑ ↓ move the list from there too.
        Binding("up", "up", "Up", show=False, priority=True,
                tooltip="move in the list of drills (in the preview: scroll it)"),
        Binding("k", "up('k')", "Up", show=False, priority=True,
                tooltip="move in the list of drills (in the preview: scroll it)"),
        Binding("down", "down", "Down", show=False, priority=True,
                tooltip="move in the list of drills (in the preview: scroll it)"),
        Binding("j", "down('j')", "Down", show=False, priority=True,
                tooltip="move in the list of drills (in the preview: scroll it)"),
        Binding("pageup", "page(-1)", "Page up", show=False, priority=True, tooltip="a page up / down the list"),
        Binding("pagedown", "page(1)", "Page down", show=False, priority=True, tooltip="a page up / down the list"),
        Binding("home,g", "first", "First", show=False, priority=True, tooltip="first / last drill"),
        Binding("end,G", "last", "Last", show=False, priority=True, tooltip="first / last drill"),
        Binding("tab", "app.focus_next", "Preview", show=False, priority=True,  # at once, as `/` below
                tooltip="into the preview and back (there ↑ ↓ j k scroll it)"),
        # `/`, escape and enter in the box move the focus: priority keys, run as the app reads each key, so that the
        # keys typed right behind them go to the box (or back to the list), never where the focus was (see
        # action_filter)
        Binding("slash", "filter", "Filter", key_display="/", priority=True,
                tooltip="filter the drills by words of a title, domain or tag"),
        Binding("enter", "keep_filter", "Keep the filter", show=False, priority=True,
                tooltip="in the filter box: back to the list, the filter kept"),
        Binding("s", "sort", "Sort",
                tooltip="order the drills by domain, by level or by best score"),
        Binding("escape", "clear_filter", "Clear filter", show=False, priority=True, tooltip="clear the filter"),
    ]

    #: The list has the focus from the start. Textual's default (the first focusable widget) was the filter box,
    #: hidden but focusable, until on_mount's ``table.focus()`` took effect: keys typed while the picker was being
    #: built went into the hidden box (a ``j`` became a filter hiding every drill; an enter was swallowed).
    AUTO_FOCUS = "#picker-table"

    HELP_TITLE = "Drill picker keys"
    HELP_NOTES = (
        "A drill marked ⚠ has problems; select it to see them. The filter keeps the drills whose title, id, domain "
        "or tags hold every word typed; enter keeps it, escape clears it."
    )

    def __init__(self, services: Services, last_drill: Path | None = None) -> None:
        super().__init__()
        self.services = services
        self.last_drill = last_drill
        self.entries: list[DrillEntry] = []
        #: The drills the filter kept when the list was last drawn (:meth:`show_rows`).
        self._filtered: list[DrillEntry] = []
        #: Every drill read (the table shows those the filter keeps), the best scores and a set's progress.
        self._catalog: list[DrillEntry] = []
        self._best: dict[str, int | None] = {}
        self._every: dict[str, int | None] = {}
        self._progress: dict[str, Any] | None = None
        #: The ``/`` filter's text ("" shows every drill) and the order (a key of ``SORTS``; ``s`` goes to the next).
        self.filter_text = ""
        self.sort = "domain"
        #: True while the drills are being read (in a worker thread).
        self.loading = False
        #: The entry being read from its file to be opened (:meth:`action_start`), if any.
        self.opening: DrillEntry | None = None

    def compose(self) -> ComposeResult:
        yield Static(self._banner(), id="picker-banner")
        yield TextInput(placeholder="filter: words of a title, domain or tag (enter keeps it, escape clears it)",
                    id="picker-filter", max_length=100)
        table = DrillTable(id="picker-table", cursor_type="row")
        table.border_title = "Drills"
        yield table
        detail = VerticalScroll(Static(id="picker-detail-body"), id="picker-detail")
        detail.border_title = "Preview"
        yield detail  # focusable: tab moves into it, and the arrows, j / k, pgup / pgdn scroll it
        yield KeyFooter()  # rebuilt only when its keys change (a focus change alone restyles them all)

    def _banner(self) -> Text:
        out = Text()
        out.append(" WAR ROOM ", style="bold reverse red")
        out.append("  incident drills for planner-executor agents · trainee ")
        out.append(visible_name(self.services.trainee), style="bold")
        active = self.services.drill_set
        if active is not None:
            out.append("\n drill set ")
            out.append(clean_line(active.model.title), style="bold")
            out.append(" " + clean_line(f"({active.set_id}) · {self.services.session_mode}"))
            due = active.due_text()
            if due:
                out.append(" · ")
                out.append(due, style="bold red" if "past due" in due else "")
            if active.adaptive:
                out.append(" · the next drill is chosen for you")
            if self._assessment:
                out.append(" (best: assessment scores)")
        elif self._assessment:
            out.append(" · assessment", style="bold")
            out.append(" (best: assessment scores)")
        return out

    def on_mount(self) -> None:
        table = self.query_one("#picker-table", DataTable)
        if self.services.drill_set is None:  # a drill set's drills are one group, in the set's order
            table.add_column(Text("group"), key="group")
        table.add_column(Text("title"), key="title")
        table.add_column(Text("level"), key="level")
        table.add_column(Text("tags"), key="tags")
        table.add_column(Text("length"), key="length")
        table.add_column(Text("best"), key="best")  # in assessment: assessment scores only (see the banner)
        if self.services.drill_set is not None:
            table.add_column(Text("progress"), key="progress")
        fit_columns(table, *self._widths())
        self.load()
        table.focus()

    def _widths(self) -> tuple[dict[str, int], dict[str, float]]:
        """The fixed and flexible column widths (a drill set adds its progress column). The group column is as wide
        as the longest group name shown, so that names are shown whole (``healthcare`` and ``healthcare-sc…`` read
        as one group), up to :data:`GROUP_WIDTH`; it narrows, to 8 cells, only where the title and tags would
        otherwise be pushed off a narrow terminal. Below :data:`_TAGS_FOLD` cells the tags column folds away (the
        preview names the tags), so that the title has the room."""
        table = self.query_one("#picker-table", DataTable)
        fixed, flex = dict(_FIXED), dict(_FLEX)
        if table.scrollable_content_region.width < _TAGS_FOLD:
            fixed["tags"] = 0  # folded away: the title gets its room
            del flex["tags"]
        if self.services.drill_set is None:
            pads = 2 * table.cell_padding * (1 + len(_FIXED) + len(_FLEX))
            flex_room = max(8 * sum(flex.values()) / w for w in flex.values())  # each flex column 8 cells or more
            room = table.scrollable_content_region.width - pads - sum(fixed.values()) - math.ceil(flex_room)
            return {"group": max(8, min(self._group_width(), room)), **fixed}, flex
        wide = self.services.drill_set.adaptive and self.services.drill_set.model.attempts is not None
        return {**fixed, "progress": 24 if wide else 18}, flex  # "session 10 of 12 · 2 left"

    def _group_width(self) -> int:
        """The cells the longest group name of the drills read takes (its header's at least), at most
        :data:`GROUP_WIDTH`."""
        names = [domain_label(domain_of(e) or "") for e in self._catalog] + ["start here", "cannot load", "tutorial"]
        return min(max(len(n) for n in names), GROUP_WIDTH)

    def on_resize(self) -> None:
        self._fit_widths()
        self.fit_heights()
        # The screen hears of a new size before its table is laid out again (the table's region is still the old
        # one, and a vertical scroll bar may come or go with the new heights): fit again once the layout is done.
        self.call_after_refresh(self._fit_widths)

    def _fit_widths(self) -> None:
        """Size the table's columns to the table's current width (nothing once the picker left the screen)."""
        if self.query("#picker-table"):
            fit_columns(self.query_one("#picker-table", DataTable), *self._widths())

    def load(self) -> None:
        """(Re)load the drill catalog and the trainee's best scores, in a worker thread so the UI never waits for a
        big library (the preview says "Loading drills…" meanwhile); the table is filled when they are read, the
        cursor on the drill it was on (matched by file; `r` after editing a drill, or a drill that changed since the
        list was read). Nothing once the picker's widgets are gone (its app closing while it mounts: a served tab
        closed as its app started)."""
        if not self.query("#picker-detail-body"):
            return
        under_cursor = self.selected() if self.query("#picker-table") else None
        if under_cursor is not None:
            self.last_drill = under_cursor.path
        self.loading = True
        self.query_one("#picker-detail-body", Static).update(Text("Loading drills…", style="dim italic"))
        self._read_in_thread()

    @work(thread=True, exclusive=True, group="picker-load")
    def _read_in_thread(self) -> None:
        entries = self.services.catalog()
        try:
            every, problem = self.services.best_scores(), None
            # in assessment (a drill set's, or --mode assessment) the best column shows assessment scores only
            assessed = self.services.best_scores(ASSESSMENT) if self._assessment else every
        except ResultsUnavailable as exc:  # a broken results store must not stop anyone from playing
            every, assessed, problem = {}, {}, exc
        progress = self._set_progress()
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._fill, entries, assessed, problem, progress, every)

    @property
    def _assessment(self) -> bool:
        """True when the picker starts assessment sessions (its best column then shows assessment scores only)."""
        return self.services.session_mode == ASSESSMENT

    def _fill(
        self,
        entries: list[DrillEntry],
        best: dict[str, int | None],
        unavailable: Exception | None,
        progress: dict[str, Any] | ResultsUnavailable | None = None,
        every: dict[str, int | None] | None = None,
    ) -> None:
        """Fill the table with ``entries`` and the ``best`` scores (of the picker's mode in assessment;
        ``unavailable``: why there are none) and, in a drill set, each drill's ``progress`` (a
        :class:`ResultsUnavailable`: why it cannot be shown); ``every``: the best scores of every mode (whether the
        trainee has finished a drill yet; default ``best``). Does nothing once the picker has been replaced (a drill
        started before the worker finished reading)."""
        if not self.query("#picker-table"):  # the picker was taken off the screen: nothing to fill
            return
        self.loading = False
        if unavailable is not None:
            self.notify(f"Best scores unavailable: {unavailable}", severity="warning", markup=False)
        if isinstance(progress, ResultsUnavailable):
            self.notify(f"Drill set progress unavailable: {progress}", severity="warning", markup=False)
            progress = {}
        self._catalog, self._best, self._progress = list(entries), best, progress
        self._every = best if every is None else every
        self._fit_widths()  # the group column fits the longest group name read
        self.show_rows()

    def show_rows(self) -> None:
        """(Re)draw the table from the drills read: those the filter keeps (``/``), grouped by domain or in the order
        ``s`` chose (each row's group cell then names its domain); the cursor stays on the drill it was on (matched
        by file), else the drill last opened."""
        table = self.query_one("#picker-table", DataTable)
        under_cursor = self.selected() if self.entries and table.row_count else None
        table.clear()
        best, progress = self._best, self._progress
        shown = filter_entries(self._catalog, self.filter_text)
        self._filtered = shown
        if self.sort == "domain":
            groups = self._groups(shown, self._every)
        else:
            groups = [Group("", tuple(sort_entries(shown, self.sort, best)))]
        self.entries = [entry for group in groups for entry in group.entries]
        starts: dict[int, Group] = {}  # row -> the group it starts
        first = 0
        for group in groups:
            if group.label and group.entries:
                starts[first] = group
            first += len(group.entries)
        if self._catalog:
            self.query_one("#picker-detail-body", Static).update(Text(""))
        for i, entry in enumerate(self.entries):
            grouped = self.services.drill_set is None and not is_tutorial(entry)  # the group column names it
            try:
                cells = entry_cells(entry, best, grouped)
            except Exception as exc:
                problem = f"{entry.path}:1:1: cannot show this drill ({type(exc).__name__}: {exc})"
                self.entries[i] = entry = DrillEntry(entry.path, None, (*entry.problems, problem))
                cells = entry_cells(entry, best, grouped)
            if progress is not None:
                p = progress.get(entry.card.id) if entry.card is not None else None
                cells.append(Text(p.cell() if p is not None else "—"))
            if self.services.drill_set is None:
                start = starts.get(i) if self.sort == "domain" else Group(domain_label(domain_of(entry) or ""), ())
                cells.insert(0, group_label(start.label, reserved=start.reserved) if start else group_label(""))
            table.add_row(*cells, key=str(i))
        self._show_title(len(shown))
        if not self.entries:
            done = self.services.drill_set is not None and not self._catalog
            empty = "This drill set is complete." if done else "No drills found."
            if self._catalog and self.filter_text.split():
                typed = shown_filter(self.filter_text)
                empty = f"No drill matches “{typed}” (title, domain or tag): escape clears the filter."
            self.query_one("#picker-detail-body", Static).update(Text(empty))
        # Back from a drill, or after filtering: the cursor stays on its drill (matched by file).
        last = under_cursor.path if under_cursor is not None else self.last_drill
        if last is not None:
            from warroom.core.files import real_path

            row = next((i for i, e in enumerate(self.entries) if e.path == last), None)
            if row is None:  # another spelling of its file: resolved once, not once a row (a key a row in the filter)
                wanted = real_path(last)
                row = next((i for i, e in enumerate(self.entries) if real_path(e.path) == wanted), None)
            if row is not None:
                table.move_cursor(row=row, animate=False, scroll=True)
        self.fit_heights()

    def _show_title(self, shown: int) -> None:
        """The table's title (:func:`table_title`)."""
        title = table_title(shown, len(self._catalog), self.filter_text, self.sort)
        # Content, not a str (a border's str is read as markup: a filter "[/x]" was a MarkupError that ended the app)
        self.query_one("#picker-table", DataTable).border_title = Content(title)

    def _groups(self, entries: list[DrillEntry], best: dict[str, int | None]) -> list[Group]:
        """The picker's groups of ``entries``: by domain, the tutorial first for a trainee with no finished drill
        (``best``: the trainee's best scores); a drill set's drills as one group without a label, in its order."""
        if self.services.drill_set is not None:
            return [Group("", tuple(entries))]
        return group_entries(entries, tutorial_first=new_trainee(best), is_tutorial=is_tutorial)

    def _set_progress(self) -> dict[str, Any] | ResultsUnavailable | None:
        """The drill set's progress per drill id (None outside a set; the error when the store cannot be read).
        Read in the worker thread."""
        if self.services.drill_set is None:
            return None
        try:
            return self.services.set_progress()
        except ResultsUnavailable as exc:
            return exc

    def fit_heights(self) -> None:
        """Give the drill list the rows it needs (up to what leaves the preview 7 lines) and the preview the rest."""
        table = self.query_one("#picker-table", DataTable)
        banner = 2 if self.services.drill_set is not None else 1  # a drill set's banner has a second line
        box = 3 if self.query_one("#picker-filter", Input).display else 0  # the filter box, while shown
        room = self.size.height - 1 - banner - box  # the banner, the filter box and the footer
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
        self.query_one("#picker-detail-body", Static).update(preview_text(entry, public=self.app.is_web))

    @on(DrillTable.Chosen)
    def clicked_again(self) -> None:
        """A click on the highlighted drill opens it, as enter does (a trainee with only a mouse)."""
        self.action_start()

    def state_line(self) -> str:
        """The picker's state in a line, for the key trace (``$WARROOM_KEY_TRACE``): reading its drills or not, the
        drills listed and the table's rows, the drill being opened."""
        rows = self.query_one("#picker-table", DataTable).row_count if self.query("#picker-table") else 0
        opening = self.opening.path.name if self.opening is not None else "none"
        return f"picker loading {self.loading}, {len(self.entries)} drills listed, {rows} rows, opening {opening}"

    def action_start(self) -> None:
        entry = self.selected()
        if entry is None:
            trace_key("app", "start: no drill under the cursor")
            return
        if not entry.ok:
            self.notify("This drill has problems; fix them and press r to reload.", severity="error", markup=False)
            return
        current = self.services.is_current(entry)
        trace_key("app", f"start: {entry.path.name}{'' if current else ', read from its file first'}")
        if current:
            self._show_briefing(entry)
        else:  # listed from the picker's cache, or changed since: read from its file, in full, before it is shown
            self.opening = entry
            self._open_in_thread(entry)

    def _show_briefing(self, entry: DrillEntry) -> None:
        """Open the briefing of ``entry`` (as its file is now), unless it cannot be started (a drill set's
        attempts), which is said instead."""
        refused = self.services.cannot_start(entry)
        if refused is not None:
            self.notify(f"Cannot start this drill: {refused}.", severity="error", markup=False)
            return
        self.post_message(ShowBriefing(entry))

    @work(thread=True, exclusive=True, group="picker-open")
    def _open_in_thread(self, entry: DrillEntry) -> None:
        fresh = self.services.open_entry(entry)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._opened, entry, fresh)

    def _opened(self, entry: DrillEntry, fresh: DrillEntry) -> None:
        """Open the briefing of ``fresh`` (``entry`` read from its file by :meth:`_open_in_thread`); when the file no
        longer loads, or no longer is the drill listed, say so and read the drills again. Does nothing once the
        picker has been replaced, or when another drill was chosen meanwhile."""
        if not self.is_attached or self.opening is not entry:
            trace_key("app", f"{entry.path.name} read, not opened: the picker left, or another drill was chosen")
            return
        self.opening = None
        if fresh.ok:
            self._show_briefing(fresh)
            return
        self.notify("This drill changed since the list was read: the drills are read again.", severity="warning",
                    markup=False)  # fmt: skip
        self.load()

    def action_reload(self) -> None:
        self.load()

    def _preview(self) -> VerticalScroll | None:
        """The preview when it has the focus (keys then scroll it), else None."""
        detail = self.query_one("#picker-detail", VerticalScroll)
        return detail if self.focused is detail else None  # the focus now (has_focus follows once its event is handled)

    def action_down(self, _letter: str = "") -> None:
        preview = self._preview()
        if preview is not None:
            preview.scroll_down(animate=False)
        else:
            self.query_one("#picker-table", DataTable).action_cursor_down()

    def action_up(self, _letter: str = "") -> None:
        preview = self._preview()
        if preview is not None:
            preview.scroll_up(animate=False)
        else:
            self.query_one("#picker-table", DataTable).action_cursor_up()

    def action_page(self, pages: int) -> None:
        """A page down (``pages`` 1) or up (-1) the list, or the preview when it has the focus."""
        preview = self._preview()
        if preview is not None:
            (preview.scroll_page_down if pages > 0 else preview.scroll_page_up)(animate=False)
            return
        table = self.query_one("#picker-table", DataTable)
        (table.action_page_down if pages > 0 else table.action_page_up)()

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

    # -- filter and order ------------------------------------------------------------------------------------------

    def _filtering(self) -> bool:
        """True while the filter box is shown and has the focus (typed keys are the filter's). A hidden box never
        takes the list's keys, even holding the focus (Textual gives an app's focus back, on its first key after a
        blur, to the widget focused when it was blurred): enter on a drill then always opens its briefing."""
        box = self.query_one("#picker-filter", Input)
        return self.focused is box and box.display  # the focus now (``has_focus`` follows once its event is handled)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While the filter box has the focus, the list's priority keys (enter, g, G, home, end) are the box's: a
        ``g`` typed there is a letter of the filter, and so is a ``/``; enter there keeps the filter."""
        if action == "keep_filter":
            return self._filtering()
        if action in ("up", "down") and parameters:  # k, j: a letter in the filter box
            return not self._filtering()
        return not (action in ("start", "first", "last", "filter") and self._filtering())

    def action_filter(self) -> None:
        """Show the filter box and move into it at once: Widget.focus waits for the next idle moment, and the keys
        typed right behind ``/`` went to the list meanwhile (lost: ``/dup`` typed fast filtered nothing)."""
        box = self.query_one("#picker-filter", Input)
        box.display = True
        self.set_focus(box)
        self.fit_heights()

    @on(Input.Changed, "#picker-filter")
    def filter_changed(self, event: Input.Changed) -> None:
        box = self.query_one("#picker-filter", Input)
        if event.value and not box.display:  # typed before an enter that left the box, handled after it: shown
            box.display = True
            self.fit_heights()
        if event.value != self.filter_text:
            kept = filter_entries(self._catalog, event.value)
            self.filter_text = event.value
            before = self._filtered
            if kept and len(kept) == len(before) and all(a is b for a, b in zip(kept, before, strict=True)):
                self._show_title(len(kept))  # the same drills: the list stays (rebuilt for each key, a library of
                return  # 2,000 drills took a second or more a key typed in the filter)
            self.show_rows()

    @on(Input.Submitted, "#picker-filter")
    def action_keep_filter(self) -> None:
        """Enter in the filter box: back to the list at once (the keys typed behind enter move in it), the filter
        kept (and shown in the box and the title)."""
        self.set_focus(self.query_one("#picker-table", DataTable))
        if not self.filter_text:
            self.query_one("#picker-filter", Input).display = False
            self.fit_heights()

    def action_clear_filter(self) -> None:
        """Escape: clear the filter (and hide its box), back to the list."""
        box = self.query_one("#picker-filter", Input)
        had = bool(self.filter_text) or box.display
        box.value = ""
        box.display = False
        self.set_focus(self.query_one("#picker-table", DataTable))  # at once: the keys typed behind go to the list
        if had and self.filter_text:
            self.filter_text = ""
            self.show_rows()
        self.fit_heights()

    def action_sort(self) -> None:
        """The next order of :data:`~warroom.tui.logic.SORTS`: by domain, by level, by best score."""
        orders = list(SORTS)
        self.sort = orders[(orders.index(self.sort) + 1) % len(orders)]
        self.show_rows()
        self.notify(f"Drills {SORTS[self.sort]}.", markup=False, timeout=2)

    def action_quit_app(self) -> None:
        self.app.exit()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen.for_screen(self))


def fit_columns(table: DataTable[Any], fixed: Mapping[str, int], flex: Mapping[str, float], minimum: int = 8) -> None:
    """Size a DataTable's columns to its width: ``fixed`` widths as given, the rest shared by ``flex`` weights.

    Keys are column keys. Call it from ``on_resize``; nothing happens unless a width changed. DataTable has no
    public way to resize a column, so the columns are added again at their new widths and the rows after them
    (public API only; the picker's table holds a few dozen rows), the cursor kept on its row and their labels kept
    (the width of the row labels, when shown, is taken off the columns' room).
    """
    labels = [row.label.cell_len for row in table.rows.values() if row.label is not None]
    label_width = max(labels) + 2 * table.cell_padding if labels and table.show_row_labels else 0
    cells = table.scrollable_content_region.width - label_width - 2 * table.cell_padding * (len(fixed) + len(flex))
    free = max(cells - sum(fixed.values()), minimum * len(flex))
    widths = dict(fixed)
    shares = dict(flex)
    while True:  # a column whose share is under the minimum gets the minimum; the others share what is left
        total = sum(shares.values()) or 1
        small = [key for key, weight in shares.items() if int(free * weight / total) < minimum]
        if not small or len(small) == len(shares):
            break
        for key in small:
            widths[key] = minimum
            free -= minimum
            del shares[key]
    for key, weight in shares.items():
        widths[key] = max(int(free * weight / total), minimum)
    columns = [(key, column.label, widths.get(str(key.value))) for key, column in table.columns.items()]
    if all(w is None or (table.columns[k].width == w and not table.columns[k].auto_width) for k, _, w in columns):
        return
    rows = [(key.value, table.get_row(key), row.label) for key, row in table.rows.items()]
    cursor = table.cursor_row
    table.clear(columns=True)
    for column_key, label, width in columns:
        table.add_column(label, width=width, key=column_key.value)
    for row_key, cells_of_row, row_label in rows:
        table.add_row(*cells_of_row, key=row_key, label=row_label)
    if rows:
        table.move_cursor(row=cursor, animate=False, scroll=True)
