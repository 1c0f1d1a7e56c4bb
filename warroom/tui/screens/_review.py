"""The after-action review of a stored session: the whole trace with the answer key, the trainee's actions marked
where they happened, and the scorecard beside it.

:class:`ReviewScreen` renders a :class:`~warroom.store.review.ReviewData` (built by
:func:`warroom.store.review.load_review`); :class:`~warroom.tui.app.ReviewApp` runs it on its own (``warroom
review SESSION_ID``).
Keys: ↑/↓ (or j/k), pgup/pgdn, home/g and end/G move through the review rows (a click selects a row), ``n`` / ``p``
jump to the next / previous trainee action (flag, escalation, quit), ``e`` to the next evidence event, ``?`` lists
the keys, ``q`` closes. Drill text is shown literally, never as markup.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from warroom.core.text import clock, seconds
from warroom.store.review import ReviewData, ReviewRow
from warroom.tui.logic import TraceIndex
from warroom.tui.render import KINDS, describe_event, literal, literal_line, row_mark, shown_line, summarize
from warroom.tui.screens._reviewpanels import answer_panel, cited_events, headline, scorecard_panel
from warroom.tui.widgets import Column, HelpScreen, KeyFooter, LineTable

#: The summary takes the free width; the answer-key and trainee columns what their marks need, within bounds.
_COLUMNS = (
    Column("t", "time", 6),
    Column("step", "step", 5),
    Column("kind", "kind", 9),
    Column("summary", "summary", None),
    Column("key", "answer key", None),
    Column("trainee", "trainee", None),
)
_FIXED_WIDTH = 6 + 5 + 9
_KEY_WIDTH = (7, 14)
_TRAINEE_WIDTH = (9, 22)
#: On a wide table the answer-key and trainee columns widen past their bounds, to what their marks need (at most
#: :data:`_SIDE_WIDE` cells each), while the summary keeps :data:`_SUMMARY_KEPT` cells.
_SIDE_WIDE = 40
_SUMMARY_KEPT = 60

#: How the review's answer-key column marks a trace event (the side panel spells the marks out).
REVIEW_NOTES = (
    "Answer-key column: ORIGIN an event of the plan step at fault · EVID evidence (EVID1 the earliest) · "
    "CASCADE a step the fault cascades into · DMG damage done · DISTR a distractor (odd but harmless) · "
    "REPLAN the planner's re-plan.\n\n"
    "Dim rows were not played: the trace stopped before them."
)

#: Short, distinct marks of the answer key in the review rows's column (the side panel spells them out, and ``?``
#: explains them); a damage mark ("damage 120 USD") shows as DMG.
KEY_MARKS: dict[str, str] = {
    "fault step": "ORIGIN",
    "evidence": "EVID",
    "earliest evidence": "EVID1",
    "cascade": "CASCADE",
    "distractor": "DISTR",
    "re-plan": "REPLAN",
}


def _mark_rank(mark: str) -> int:
    if "evidence" in mark:
        return 0
    if mark.startswith("damage "):
        return 2
    return {"distractor": 1, "fault step": 3, "cascade": 4}.get(mark, 5)


def key_marks(marks: list[str]) -> str:
    """The answer-key column's text for a row's marks (full names, as :class:`ReviewRow` has them)."""
    short = []
    # In a narrow column the first mark is the one left whole: the marks that tell a row apart come first (evidence,
    # a distractor, damage), the fault step and its cascade (which the step column already suggests) after them.
    marks = sorted(marks, key=_mark_rank)
    for mark in marks:
        label = "DMG" if mark.startswith("damage ") else KEY_MARKS.get(mark, mark)
        if label == "EVID" and "earliest evidence" in marks:
            continue  # EVID1 says both
        short.append(label)
    return " ".join(short)


class ReviewTable(LineTable):
    """The review table: trace events, trainee actions and the deadline, one row each (row ``i`` is
    ``rows[i]``, its cells built by ``cells`` when it is drawn). Keys: see :class:`~warroom.tui.widgets.LineTable`."""

    #: The help's wording of the table's keys in the review, by action (see warroom.tui.widgets._keyhelp).
    KEY_HELP: ClassVar[dict[str, str]] = {
        "cursor_up": "move in the review rows (the side panel shows the row in full)",
        "cursor_down": "move in the review rows (the side panel shows the row in full)",
        "page_up": "a page up / down the review rows",
        "page_down": "a page up / down the review rows",
        "first": "first / last row",
        "last": "first / last row",
    }

    def __init__(
        self, rows: list[ReviewRow], cells: Callable[[ReviewRow], list[Text]], *, id: str | None = None
    ) -> None:
        super().__init__(_COLUMNS, self.row_cells, id=id)
        self._review_rows = rows
        self._cells = cells
        #: Widths the answer-key and trainee columns' marks need (cells), from the rows.
        self.side_widths = {
            "key": max((len(key_marks(r.key)) for r in rows), default=0),
            "trainee": max((len(", ".join(r.trainee)) for r in rows), default=0),
        }
        self.add_rows([str(i) for i in range(len(rows))])

    def row_cells(self, index: int) -> list[Text]:
        return self._cells(self._review_rows[index])

    def column_widths(self, width: int) -> list[int]:
        """The answer-key and trainee columns get what their marks need (within bounds, giving way down to their
        minimum so the summary keeps 16 columns), the summary the rest (at least 8). On a wide table they widen past
        their bounds to what their marks need (``inspected at 35 s, flagged`` whole), up to :data:`_SIDE_WIDE` cells,
        while the summary keeps :data:`_SUMMARY_KEPT`."""
        cells = width - 2 * self.CELL_PADDING * len(_COLUMNS) - _FIXED_WIDTH
        key = min(max(self.side_widths["key"], _KEY_WIDTH[0]), _KEY_WIDTH[1])
        trainee = min(max(self.side_widths["trainee"], _TRAINEE_WIDTH[0]), _TRAINEE_WIDTH[1])
        trainee = max(min(trainee, cells - 16 - key), _TRAINEE_WIDTH[0])
        key = max(min(key, cells - 16 - trainee), _KEY_WIDTH[0])
        spare = max(cells - key - trainee - _SUMMARY_KEPT, 0)  # the room the summary does not need: the key's first
        wider = min(max(min(self.side_widths["key"], _SIDE_WIDE) - key, 0), spare)
        key += wider
        trainee += min(max(min(self.side_widths["trainee"], _SIDE_WIDE) - trainee, 0), spare - wider)
        return [6, 5, 9, max(cells - key - trainee, 8), key, trainee]


class ReviewScreen(Screen[None]):
    """After-action review of one stored session (see the module docstring for the keys). Styled by
    ``warroom.tcss`` (the app's one stylesheet), which the war room app and :class:`~warroom.tui.app.ReviewApp`
    both load."""

    BINDINGS = [
        Binding("n", "next_action", "Next action", tooltip="next / previous trainee action (flag, escalation, quit)"),
        Binding("p", "previous_action", "Previous action",
                tooltip="next / previous trainee action (flag, escalation, quit)"),
        Binding("e", "next_evidence", "Next evidence", tooltip="next evidence event (wraps to the first)"),
        Binding("q", "close", "Close", tooltip="close the review"),
        Binding("escape", "close", "Close", show=False, tooltip="close the review"),
        Binding("question_mark", "help", "Help", key_display="?", tooltip="this help"),
    ]

    HELP_TITLE = "Review keys"
    HELP_NOTES = REVIEW_NOTES
    HELP_WIDGETS = (ReviewTable,)

    def __init__(self, data: ReviewData) -> None:
        super().__init__()
        self.data = data
        self.rows: list[ReviewRow] = self._rows()
        #: Lookups over the drill's whole trace (None without the drill file), built once.
        self.index = TraceIndex(data.drill) if data.drill is not None else None

    # -- layout ---------------------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="review-top"):  # at most 40% of the screen, scrolling: the table keeps its rows
            yield Static(headline(self.data), id="review-head")
            lines = [f"! {n}" for n in self.data.notices] + self.data.note_lines()
            yield Static(literal("\n".join(lines)), id="review-notice")
        with Horizontal(id="review-body"):
            yield ReviewTable(self.rows, self._cells, id="review-table")
            with VerticalScroll(id="review-side"):
                yield Static(id="review-detail", classes="review-section")
                yield Static(scorecard_panel(self.data), id="review-scorecard", classes="review-section")
                yield Static(answer_panel(self.data), id="review-answer", classes="review-section")
        yield KeyFooter()  # rebuilt only when its keys change (a focus change alone restyles them all)

    def on_mount(self) -> None:
        self.query_one("#review-notice", Static).display = bool(self.data.notices or self.data.note_lines())
        table = self.query_one(ReviewTable)
        table.focus()
        actions = self.action_rows
        if actions:
            table.move_cursor(actions[0])
        self._show_detail(table.cursor_row)

    def _rows(self) -> list[ReviewRow]:
        if self.data.review_rows is not None:
            return list(self.data.review_rows.rows)
        # No drill to replay on: the trainee's actions alone, by time.
        from warroom.store.review import ACTION_ROW_KINDS

        out = []
        for a in self.data.session.actions:
            if a.kind in ACTION_ROW_KINDS:
                what = a.step or a.event or ""
                text = f"{a.kind.value} {what}".strip() + (f": {a.note}" if a.note else "")
                if a.cites is not None:
                    text += f" (citing {', '.join(a.cites) or 'nothing'})"
                out.append(ReviewRow(kind="action", t=a.t, action=a, text=text, trainee=[a.kind.value]))
        return out

    def _cells(self, row: ReviewRow) -> list[Any]:
        dim = "" if row.played else "dim"
        at = Text(clock(row.t), style="dim")
        key = literal_line(key_marks(row.key), style="bold yellow" if "evidence" in row.key else "yellow")
        trainee = literal_line(", ".join(row.trainee), style="bold magenta")
        if row.kind == "event" and (ev := row.event) is not None:
            summary = literal_line(row_mark(ev, None) + summarize(ev), style=dim, limit=400)
            if not row.played:  # the prefix's Text carries the cut: a long summary still ends in "…"
                summary = Text("(not played) ", style="dim italic", no_wrap=True, overflow="ellipsis") + summary
            view = KINDS[type(ev)]
            kind = Text(view.label, style=view.style if row.played else "dim")
            return [at, literal_line(ev.step or "—", style=dim), kind, summary, key, trainee]
        if row.kind == "action" and (a := row.action) is not None:
            label = "ESCALATE" if a.kind.value == "escalate" else a.kind.value.upper()
            return [
                at,
                literal_line(a.step or "—"),
                Text(label, style="bold reverse magenta"),
                literal_line(row.text, style="bold", limit=400),
                key,
                trainee,
            ]
        if row.kind == "replan":  # the planner's re-plan after a false escalation, and the clock's jump
            return [
                at,
                literal_line(row.action.step or "—" if row.action else "—", style="dim"),
                Text("RE-PLAN", style="bold yellow"),
                literal_line(row.text, style="yellow", limit=400),
                key,
                trainee,
            ]
        return [at, Text("—"), Text("deadline", style="bold red"), literal_line(row.text, "red"), key, trainee]

    # -- the row in full (the other side panels: warroom.tui.screens._reviewpanels) ------------------------------

    def _show_detail(self, index: int) -> None:
        detail = self.query_one("#review-detail", Static)
        if not 0 <= index < len(self.rows):
            detail.update(Text("Nothing recorded in this session.", style="dim"))
            return
        row = self.rows[index]
        out = Text()
        if row.kind == "event" and self.index is not None and row.event is not None:
            if not row.played:
                out.append("Not played in this session (the trace stopped before it).\n", style="italic dim")
            out.append_text(describe_event(row.event, self.index))
            out.append("\n")
        elif row.kind == "action" and (a := row.action) is not None:
            out.append(f"Trainee action at {clock(a.t)} ({seconds(a.t)})\n", style="bold magenta")
            out.append(shown_line(row.text) + "\n")
            if a.step and self.data.drill is not None:
                try:
                    step = self.data.drill.step(a.step)
                    out.append("step  ", style="bold")
                    out.append(shown_line(f"{step.id} {step.title}") + "\n")
                except KeyError:
                    pass
            if a.kind.value == "escalate" and self.data.drill is not None:
                out.append_text(cited_events(self.data.drill, a.cites, self.data.citations_compare))
        elif row.kind == "replan":  # listed when the trainee had the drill back; it says when they escalated
            at = row.action.t if row.action is not None else row.t
            when = f"{clock(at)} ({seconds(at)})"
            out.append(f"After the false escalation at {when}\n", style="bold yellow")
            out.append(shown_line(row.text) + "\n")
        else:
            out.append(shown_line(row.text) + f" at {clock(row.t)}\n", style="bold red")
        if row.key:
            out.append("answer key: ", style="bold yellow")
            out.append(shown_line(", ".join(row.key)) + "\n")
        if row.trainee:
            out.append("trainee: ", style="bold magenta")
            out.append(shown_line(", ".join(row.trainee)) + "\n")
        detail.update(out)

    # -- navigation -----------------------------------------------------------------------------------------------

    @property
    def action_rows(self) -> list[int]:
        """Row indexes of the trainee's flags, escalations and quit."""
        return [i for i, r in enumerate(self.rows) if r.is_trainee_action]

    @property
    def selected(self) -> ReviewRow | None:
        """The row under the cursor."""
        table = self.query_one(ReviewTable)
        return self.rows[table.cursor_row] if 0 <= table.cursor_row < len(self.rows) else None

    def on_line_table_row_highlighted(self, message: LineTable.RowHighlighted) -> None:
        self._show_detail(message.cursor_row)

    def _jump(self, candidates: list[int], forward: bool, what: str) -> None:
        table = self.query_one(ReviewTable)
        here = table.cursor_row
        nxt = [i for i in candidates if i > here] if forward else [i for i in candidates if i < here][::-1]
        if nxt:
            table.move_cursor(nxt[0])
        else:
            self.notify(f"No {'later' if forward else 'earlier'} {what}.", timeout=2)

    def action_next_action(self) -> None:
        """Move to the next trainee action."""
        self._jump(self.action_rows, True, "trainee action")

    def action_previous_action(self) -> None:
        """Move to the previous trainee action."""
        self._jump(self.action_rows, False, "trainee action")

    def action_next_evidence(self) -> None:
        """Move to the next evidence event (wrapping to the first)."""
        ev = [i for i, r in enumerate(self.rows) if r.kind == "event" and "evidence" in r.key]
        table = self.query_one(ReviewTable)
        if ev and not any(i > table.cursor_row for i in ev):
            table.move_cursor(ev[0])
            return
        self._jump(ev, True, "evidence")

    def action_help(self) -> None:
        """List the review's keys and what the answer-key marks mean."""
        self.app.push_screen(HelpScreen.for_screen(self))

    def action_close(self) -> None:
        """Close the review (return to the previous screen, or quit when it is the only one)."""
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.exit()


