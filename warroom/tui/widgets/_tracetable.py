"""The war room's trace table: the released trace events, one line each, on :class:`~warroom.tui.widgets.LineTable`.

Rows are appended as the drill clock releases events (work per tick proportional to the new events); each row's
cells are built only when the row is drawn, from the event itself, so a 100,000-event trace costs one key and one
list entry per row. Drill text goes through :mod:`warroom.tui.render._text` (literal Text, control characters escaped).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import ClassVar, NamedTuple

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message

from warroom.core.model import TraceEvent
from warroom.core.text import clean_line, clock
from warroom.tui.logic import event_agent
from warroom.tui.render import KINDS, literal_line, row_mark, summarize
from warroom.tui.widgets._linetable import Column, LineTable

#: A table narrower than this (cells of content, below about 64 terminal columns) leaves the drill time out (the
#: inspector shows it), so that the summary keeps a readable width.
TIME_FOLD = 48

#: The columns: the mark (⚑ a flag) and the event id, drill time, plan step, kind, and the one-line summary, which
#: takes the free width. The id and step columns are as wide as the drill's ids need (:func:`trace_columns`).
COLUMNS = (
    Column("id", "⚑ id", 5),
    Column("t", "time", 5, fold=TIME_FOLD),
    Column("step", "step", 5),
    Column("kind", "kind", 9),
    Column("summary", "summary", None, minimum=8),
)

#: The agent column, shown after the step when the drill names agents (format 2); it folds away while the table is
#: narrower than :data:`AGENT_FOLD` cells (at 80 columns the summary keeps its room). It is 7 cells wide, and widens
#: to show the drill's longest agent name whole (up to :data:`AGENT_WIDTH_MAX`) while the summary keeps
#: :data:`SUMMARY_KEPT` cells: a wide terminal shows ``coordinator`` where 80 columns show ``coordi…``.
AGENT_FOLD = 60
AGENT_COLUMN = Column("agent", "agent", 7, fold=AGENT_FOLD)
AGENT_WIDTH_MAX = 20
SUMMARY_KEPT = 60
#: The widest an id or step id is shown (a longer step id is cut with "…"; a longer event id shows its end:
#: :func:`id_shown`).
ID_WIDTH_MAX = 8


def id_shown(ident: str, width: int = ID_WIDTH_MAX) -> str:
    """An event id as the id column shows it (literally): whole when it fits ``width``, else its end after "…":
    imported ids share their start (``call_lookup1``, ``call_user1``: ``…lookup1``, ``…l_user1``), so the end is
    the part that tells them apart."""
    s = clean_line(ident)
    return s if len(s) <= width else "…" + s[len(s) - width + 1 :]


def trace_columns(ids: Sequence[str] = (), steps: Sequence[str] = (), agents: bool = False) -> tuple[Column, ...]:
    """The trace table's columns for a drill whose event ids (trace, re-plan and probe results) are ``ids`` and
    plan step ids ``steps``: the id column fits the longest id after the mark (``⚑ e06``), the step column the
    longest step id (each at most :data:`ID_WIDTH_MAX`, at least its header); ``agents``: with the agent column."""
    id_width = min(max((len(i) for i in ids), default=3), ID_WIDTH_MAX) + 2
    step_width = min(max([len("step"), *(len(s) for s in steps)]), ID_WIDTH_MAX)
    columns = [COLUMNS[0]._replace(width=max(id_width, 4)), COLUMNS[1], COLUMNS[2]._replace(width=step_width),
               *COLUMNS[3:]]
    if agents:
        columns.insert(3, AGENT_COLUMN)
    return tuple(columns)


#: Longest summary built for a row (a 200 KB result is cut here before it is cleaned and styled).
SUMMARY_LIMIT = 400


class _Note(NamedTuple):
    t: float
    kind: str
    summary: str
    style: str


class TraceTable(LineTable):
    """The released trace events, one row each (flag mark and event id, time, step, kind, one-line summary).

    The table starts in **follow mode**: the cursor moves to each new row. Reading an event leaves follow mode: the
    trainee moving the cursor (↑ ↓ j k, a page, the first row, a click) or inspecting the row (:meth:`stop_following`,
    called by the war room on ``enter``); from then on the cursor stays on the event the trainee chose and new rows
    only raise :attr:`unseen` (shown as a hint: the new rows below the cursor, so moving down through them counts them
    read), until ``G`` / ``end`` jumps to the newest row and follows again. So
    the keys that act on the selected event act on one the trainee chose, never on one that just arrived
    (:attr:`chosen`). Row keys are event ids; notes that are not trace events (e.g. a re-plan answering a false
    escalation) get keys starting with ``note:``. Keys: see :class:`~warroom.tui.widgets.LineTable`.
    """

    #: The table's keys are priority keys here, as the war room's are (f, e, v, ...): each runs as the app reads
    #: it, in the order typed. Moves handled by the table after the app had read the keys behind them let ``↑ f``
    #: typed fast flag the event the cursor left (``f`` ran first), ``↑ enter`` inspect it; and ``enter`` moves the
    #: focus into the inspector (:attr:`~warroom.tui.widgets.LineTable.on_select`) before the next key is read, so
    #: ``↓`` typed right behind it scrolls the inspector, never moves the trace's cursor.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "cursor_up", "Up", show=False, priority=True),
        Binding("down,j", "cursor_down", "Down", show=False, priority=True),
        Binding("pageup", "page_up", "Page up", show=False, priority=True),
        Binding("pagedown", "page_down", "Page down", show=False, priority=True),
        Binding("home,g,ctrl+home", "first", "First", show=False, priority=True),
        Binding("end,G,ctrl+end", "last", "Last", show=False, priority=True),
        Binding("enter", "select", "Select", show=False, priority=True),
    ]

    #: What the table's keys do in the war room (the help's wording, by action; see
    #: :mod:`warroom.tui.widgets._keyhelp`).
    KEY_HELP: ClassVar[dict[str, str]] = {
        "cursor_up": "the event above (a click selects an event)",
        "cursor_down": "the event below",
        "page_up": "a page up the trace",
        "page_down": "a page down the trace",
        "first": "the first event",
        "last": "the newest event, following new events again (moving or inspecting stops following)",
        "select": "inspect the selected event",
    }

    def __init__(
        self, *, id: str | None = None, classes: str | None = None, agents: bool = False,
        repetitions: Mapping[str, int] | None = None,
        agent_labels: Callable[[int], Mapping[str, str]] | None = None, agent_width: int = 0,
        columns: Sequence[Column] | None = None,
    ) -> None:
        """``agents``: show the agent column (format 2), where an agent's name is shown as ``agent_labels`` gives
        it for the column's width (:func:`warroom.tui.logic.agent_labels` of the drill; else as written, cut to the
        column), an event naming no agent under the role its kind implies (:func:`~warroom.tui.logic.event_agent`);
        ``agent_width``: the cells the longest name shown takes (the column widens to it where the table has the
        room, up to :data:`AGENT_WIDTH_MAX`); ``repetitions``: the
        replay's repetitions so far by event id (:attr:`warroom.core.play.Replay.repetitions`), shown as ``×N``
        (without it: each event's count); ``columns``: :func:`trace_columns` of the drill shown (default: ids and
        steps of a few characters)."""
        super().__init__(columns or trace_columns(agents=agents), self.row_cells, id=id, classes=classes)
        self._agents = agents
        self._agent_labels = agent_labels
        self._agent_width = min(agent_width, AGENT_WIDTH_MAX)
        self._labels_at: dict[int, Mapping[str, str]] = {}  # the agent labels by column width
        self._repetitions = repetitions
        self._events: dict[str, TraceEvent] = {}
        self._noted: dict[str, _Note] = {}
        self._flagged: set[str] = set()
        self._marks: dict[str, Text] = {}
        #: Rows added while the trainee was away from the newest row.
        self.unseen = 0
        self._following = True  # follow mode (:attr:`following`)

    class Following(Message):
        """The table entered or left follow mode (:attr:`TraceTable.following`): the war room says which in text."""

        def __init__(self, table: TraceTable) -> None:
            super().__init__()
            self.table = table

        @property
        def control(self) -> TraceTable:
            return self.table


    # -- rows -----------------------------------------------------------------------------------------------------

    @property
    def events(self) -> Mapping[str, TraceEvent]:
        """The trace events shown, by event id (read-only; rows that are notes are not in it)."""
        return self._events

    def event(self, key: str) -> TraceEvent:
        """The trace event of the row with this key (an event id); raises KeyError for a note or an unknown key."""
        return self._events[key]

    def _id_cell(self, key: str, ident: str) -> Text:
        """The first cell of a row: its mark (a flag ⚑, or the author mode's mark) and the event id."""
        cell = Text(no_wrap=True)
        mark = self._marks.get(key) or (Text("⚑", style="bold red") if key in self._flagged else Text(" "))
        cell.append_text(mark)
        cell.append(" ")
        cell.append_text(Text(id_shown(ident), style="bold" if key in self._flagged else "dim", no_wrap=True))
        return cell

    def row_cells(self, index: int) -> Sequence[Text]:
        key = self.keys[index]
        ev = self._events.get(key)
        if ev is None:
            note = self._noted[key]
            cells = [self._id_cell(key, "—"), Text(clock(note.t), style="dim"), Text("—"),
                     Text(note.kind, style=note.style), literal_line(note.summary, limit=SUMMARY_LIMIT)]
            if self._agents:
                cells.insert(3, Text("—"))
            return cells
        summary = row_mark(ev, self._repetitions) + summarize(ev, limit=SUMMARY_LIMIT)
        kind = KINDS[type(ev)]
        cells = [
            self._id_cell(key, ev.id),
            Text(clock(ev.t), style="dim"),
            literal_line(ev.step or "—"),
            Text(kind.label, style=kind.style),
            literal_line(summary, limit=SUMMARY_LIMIT),
        ]
        if self._agents:
            agent = event_agent(ev)
            cells.insert(3, literal_line(self._labels().get(agent, agent) if agent is not None else "—"))
        return cells

    def _labels(self) -> Mapping[str, str]:
        """The agents' labels for the agent column's width as now drawn (``agent_labels``, once a width)."""
        if self._agent_labels is None:
            return {}
        index = next(i for i, c in enumerate(self.columns) if c.key == AGENT_COLUMN.key)
        drawn = self._paint[1] if self._paint is not None else ()
        width = drawn[index] if index < len(drawn) and drawn[index] else AGENT_COLUMN.width or 0
        if width not in self._labels_at:
            self._labels_at[width] = self._agent_labels(width)
        return self._labels_at[width]

    def column_widths(self, width: int) -> list[int]:
        """The columns' widths (:meth:`LineTable.column_widths`), the agent column widened to show the longest agent
        name whole (at most :data:`AGENT_WIDTH_MAX`) when the summary keeps :data:`SUMMARY_KEPT` cells."""
        widths = super().column_widths(width)
        keys = [c.key for c in self.columns]
        if AGENT_COLUMN.key not in keys or "summary" not in keys:
            return widths
        agent, summary = keys.index(AGENT_COLUMN.key), keys.index("summary")
        if widths[agent]:
            extra = max(min(self._agent_width - widths[agent], widths[summary] - SUMMARY_KEPT), 0)
            widths[agent] += extra
            widths[summary] -= extra
        return widths

    @property
    def following(self) -> bool:
        """True in follow mode: new rows move the cursor along (see the class docstring). Setting it posts
        :class:`Following` when it changes."""
        return self._following

    @following.setter
    def following(self, value: bool) -> None:
        if value != self._following:
            self._following = value
            self.post_message(self.Following(self))

    @property
    def chosen(self) -> bool:
        """True when the trainee chose the row under the cursor: out of follow mode, on a row."""
        return not self.following and self.row_count > 0

    def stop_following(self) -> None:
        """Leave follow mode, the cursor staying where it is (the trainee reads this row)."""
        self.following = False

    def _append(self, keys: list[str]) -> None:
        if not keys:
            return
        self.add_rows(keys)
        if self.following:
            self.move_cursor(self.row_count - 1)
        else:
            self.unseen += len(keys)

    def append_events(self, events: Iterable[TraceEvent]) -> None:
        """Append one row per released trace event, in order (cost proportional to the events given)."""
        events = list(events)
        self._events.update((ev.id, ev) for ev in events)
        self._append([ev.id for ev in events])

    def refresh_repeated(self) -> None:
        """Redraw the rows of repeated events (their ``×N`` count grows as the replay releases repetitions)."""
        for event_id in self._repetitions or ():
            if event_id in self._events:
                self.refresh_row(self.row_index(event_id))

    def append_note(self, t: float, kind: str, summary: str, style: str = "bold magenta") -> str:
        """Append a row that is not a trace event (e.g. the planner's answer to a false escalation) at drill time
        ``t`` (seconds); returns its key."""
        key = f"note:{len(self._noted) + 1}"
        self._noted[key] = _Note(t, kind, summary, style)
        self._append([key])
        return key

    def clear(self) -> None:
        """Remove every row, event, note and flag mark, and follow new rows again (the marks of :meth:`set_marks`
        stay: they belong to events, and show again when their rows come back)."""
        self._events.clear()
        self._noted.clear()
        self._flagged.clear()
        self.unseen = 0
        self.following = True
        super().clear()

    def mark_flagged(self, event_id: str) -> None:
        """Show the flag mark on an event's row."""
        self._flagged.add(event_id)
        if event_id in self._events:
            self.refresh_row(self.row_index(event_id))

    def unmark_flagged(self, event_id: str) -> None:
        """Remove the flag mark from an event's row (the trainee unflagged it)."""
        self._flagged.discard(event_id)
        if event_id in self._events:
            self.refresh_row(self.row_index(event_id))

    def set_marks(self, marks: Mapping[str, Text]) -> None:
        """Show ``marks`` (event id -> a one-cell mark) in the ⚑ column instead of the flag, replacing the marks
        set before (the author mode's marks of the answer key); redraws only the rows whose mark changed."""
        changed = {k for k in {*self._marks, *marks} if self._marks.get(k) != marks.get(k)}
        self._marks = dict(marks)
        for event_id in changed:
            if event_id in self._events:
                self.refresh_row(self.row_index(event_id))

    def mark_of(self, event_id: str) -> str:
        """The text in the ⚑ column of an event's row: a mark from :meth:`set_marks`, ``⚑`` when flagged, else
        ``""``."""
        mark = self._marks.get(event_id)
        return mark.plain if mark is not None else ("⚑" if event_id in self._flagged else "")

    # -- cursor ---------------------------------------------------------------------------------------------------

    def move_cursor(self, row: int, animate: bool = False, scroll: bool = True) -> None:
        # the new rows not read yet are below the cursor: moving down through them reads them (counted before the
        # move, whose on_highlight may show the count)
        at = min(max(row, 0), self.row_count - 1) if self.row_count else 0
        self.unseen = max(0, min(self.unseen, self.row_count - 1 - at))
        super().move_cursor(row, animate, scroll)

    # The trainee's moves read an event: each leaves follow mode; the last row (G, end) follows again.

    def action_cursor_up(self) -> None:
        self.following = False
        super().action_cursor_up()

    def action_cursor_down(self) -> None:
        self.following = False
        super().action_cursor_down()

    def action_page_up(self) -> None:
        self.following = False
        super().action_page_up()

    def action_page_down(self) -> None:
        self.following = False
        super().action_page_down()

    def action_first(self) -> None:
        self.following = False
        super().action_first()

    def action_last(self) -> None:
        """Jump to the newest row and follow new rows again."""
        self.following = True
        super().action_last()

    def action_follow(self) -> None:
        """Jump to the newest row and follow new rows again."""
        self.action_last()

    def click_row(self, row: int) -> None:
        self.following = False  # a click chooses a row (and a click on the row under the cursor inspects it)
        super().click_row(row)
