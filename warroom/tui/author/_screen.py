"""The author mode of the war room (``warroom annotate FILE``): replay an imported trace and mark up its answer key.

:class:`AnnotateScreen` replays the drill on its drill clock like the war room (pause, speeds) and scrubs it back and
forth; nothing is scored and no session or journal is written. On the selected trace event the author marks the fault's
origin (its plan step; format 2: or the plan at a planner call, the set-up before step 1; the kind and a summary),
evidence (the whole event; format 2: a field inside it, an absence at it, a comparison of several:
:mod:`warroom.tui.author._items`), cascade steps, distractors (with why they are harmless),
damage (amount and unit) and the deadline, and writes the debrief; the side panel shows the key so far and what is
missing. ``s`` saves into the drill file (:func:`warroom.core.author.write_draft`: comments and layout kept), then
shows what ``warroom validate`` and ``warroom check`` say of it in the panel.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.clock import Clock
from textual.screen import Screen
from textual.timer import Timer

from warroom.core.author import REPLAN_AFTER, AnnotatedFile, Findings
from warroom.core.model import TraceEvent
from warroom.core.play import Replay
from warroom.core.text import PLAYBACK_SPEEDS, clean_line, clock, exact_figure, speed
from warroom.tui.author._dialogs import (
    DamageChoice,
    DamageDialog,
    DebriefDialog,
    DrillInfo,
    DrillInfoDialog,
    FaultChoice,
    FaultDialog,
    NumberDialog,
    TextDialog,
)
from warroom.tui.author._items import ItemActions
from warroom.tui.author._marks import MarkActions
from warroom.tui.author._panel import KeyPanel, event_marks, findings_text
from warroom.tui.logic import TraceIndex
from warroom.tui.render import summarize
from warroom.tui.widgets import (
    SEARCH_BINDINGS,
    ConfirmScreen,
    HelpScreen,
    Inspector,
    KeyFooter,
    StatusBar,
    TraceTable,
    key_prose,
    open_search,
    room_panes,
    search_again,
)

#: Drill seconds ``[`` and ``]`` move the drill clock back or forward.
SCRUB_SECONDS = 10.0
TICK_INTERVAL = 0.1

ANNOTATE_NOTES = (
    "Author mode: nothing is scored and no session is kept. Select a trace event (↑ ↓ j k), then mark it: o makes "
    "it the fault's origin (its plan step; in format 2, the plan for a planner call, the set-up for an event "
    "before step 1), v evidence, c its plan step part of the cascade, x a distractor, d damage (again on a marked "
    "event to unmark it), l the deadline some seconds after it. b writes the debrief, h the habit that would have "
    "caught the fault, R the planner's re-plan after a correct escalation; i sets the drill's title, difficulty and "
    "briefing. The trace's ⚑ column shows "
    "each marked event by that key: o (a plan or set-up origin's event), v, d, x, l.\n\n"
    "Format 2 evidence beyond a whole event: f a field of the event (: goes to one first), a an absence at it, "
    "m gathers events for a comparison and M marks them as one.\n\n"
    "s saves the answer key into the drill file (comments and layout kept) and shows what `warroom validate` and "
    "`warroom check` say of it in the side panel. A key saved half-done opens again where you left it."
)


class AnnotateScreen(MarkActions, ItemActions, Screen[None]):
    """The author mode over one drill file (see the module docstring).

    Args:
        file: the drill file opened for marking up (:func:`warroom.core.author.open_for_annotation`).
        clock: the real-time clock the drill clock follows (a ``MockClock`` in tests).
        speed: initial playback speed (drill seconds per real second).
    """

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-medium"), (100, "-wide")]
    # Below 100 columns the answer key gives way, as the war room's plan does, so that the trace's summary keeps a
    # readable width (at 80 columns it had 9 cells).
    DEFAULT_CSS = """
    AnnotateScreen #key-panel {
        width: 36%; min-width: 28; max-width: 60; height: 100%;
        border: round $secondary 60%; padding: 0 1; overflow-y: auto;
    }
    AnnotateScreen.-medium #key-panel { width: 26%; min-width: 21; }
    AnnotateScreen.-narrow #key-panel { width: 22%; min-width: 16; }
    """
    BINDINGS = [
        Binding("space", "toggle_pause", "Pause", priority=True, tooltip="pause / resume the drill clock"),
        Binding("plus,equals_sign", "faster", "Faster", key_display="+ =", priority=True, show=False,
                tooltip="faster playback (" + " ".join(speed(s) for s in PLAYBACK_SPEEDS) + ")"),
        Binding("minus", "slower", "Slower", key_display="-", priority=True, show=False, tooltip="slower playback"),
        Binding("left_square_bracket", "scrub(-1)", "Back", key_display="[", priority=True, show=False,
                tooltip=f"scrub: the drill clock {SCRUB_SECONDS:g} s back"),
        Binding("right_square_bracket", "scrub(1)", "Forward", key_display="]", priority=True, show=False,
                tooltip=f"scrub: the drill clock {SCRUB_SECONDS:g} s forward"),
        Binding("E", "to_end", "Whole trace", key_display="E", priority=True, show=False,
                tooltip="release the whole trace at once"),
        Binding("o", "origin", "Origin", priority=True,
                tooltip="the selected event's plan step is the fault's origin: give its kind and a summary"),
        Binding("v", "evidence", "Evidence", priority=True, tooltip="mark / unmark the selected event as evidence"),
        *SEARCH_BINDINGS,
        Binding("colon", "goto_field", "Go to field", key_display=":", show=False, priority=True,
                tooltip="go to a field of the selected event's result by its path, e.g. data.next_cursor (f offers "
                        "it)"),
        Binding("f", "field_evidence", "Field", priority=True, show=False,
                tooltip="format 2: a field of the selected event is evidence (asks its path; the same path unmarks)"),
        Binding("a", "absence", "Absence", priority=True, show=False,
                tooltip="format 2: an absence at the selected event is evidence (asks what did not happen; again "
                        "to unmark)"),
        Binding("m", "compare", "Compare", priority=True, show=False,
                tooltip="format 2: add / remove the selected event to the comparison being gathered"),
        Binding("M", "compare_done", "Mark comparison", key_display="M", priority=True, show=False,
                tooltip="format 2: the gathered events (two or more) are one comparison (all_of); with none "
                        "gathered, unmark the selected event's comparison"),
        Binding("c", "cascade", "Cascade", priority=True, show=False,
                tooltip="add / remove the selected event's plan step to the cascade (steps the fault spoils)"),
        Binding("x", "distractor", "Distractor", priority=True,
                tooltip="mark the selected event as a distractor, with why it is harmless (again to unmark)"),
        Binding("d", "damage", "Damage", priority=True,
                tooltip="the damage the selected event does: amount, unit, note (again to unmark)"),
        Binding("l", "deadline", "Deadline", priority=True, show=False,
                tooltip="the deadline: some drill seconds after the selected event"),
        Binding("b", "debrief", "Debrief", priority=True, show=False, tooltip="write the debrief (ctrl+s keeps it)"),
        Binding("h", "habit", "Habit", priority=True, show=False,
                tooltip="write the habit that would have caught the fault (shown in the debrief; ctrl+s keeps it)"),
        Binding("R", "replan", "Re-plan", key_display="R", priority=True, show=False,
                tooltip="write what the planner says after a correct escalation (the re-plan; ctrl+s keeps it)"),
        Binding("i", "drill_info", "Title, briefing", priority=True, show=False,
                tooltip="the drill's title, difficulty and briefing (what the trainee reads first)"),
        Binding("s", "save", "Save", priority=True,
                tooltip="save the answer key into the file, then run validate and check"),
        Binding("q", "quit_annotate", "Quit", priority=True, tooltip="leave (asks first when there are unsaved marks)"),
        Binding("question_mark", "help", "Help", key_display="?", priority=True, tooltip="this help"),
        # at once, as the app reads it (priority), as the trace's keys are: the keys typed behind go to the new pane
        Binding("tab", "app.focus_next", "Next pane", show=False, priority=True,
                tooltip="move between the trace and the inspector"),
    ]
    HELP_TITLE = "Author mode keys"
    HELP_NOTES = ANNOTATE_NOTES
    HELP_WIDGETS = (TraceTable,)

    def __init__(self, file: AnnotatedFile, clock: Clock, speed: float = 1.0) -> None:
        super().__init__()
        self.file = file
        self.drill = file.drill
        #: Lookups over the drill's whole trace, built once (time proportional to the trace).
        self.index = TraceIndex(self.drill)
        self.draft = file.draft
        self.clock = clock
        self.speed = speed
        self.paused = False
        self.saved = True
        #: What validate and check said after the last save (None before one).
        self.findings: Findings | None = None
        self.replay = Replay(self.drill)
        self.ticker: Timer | None = None
        self._last_time: float | None = None
        #: event id -> the last field path gone to with ``:`` (``f`` offers it).
        self.fields: dict[str, str] = {}
        #: The events gathered with ``m`` for a comparison, in the order marked.
        self.comparing: list[str] = []

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        panel = KeyPanel(id="key-panel")
        panel.border_title = "Answer key"
        yield from room_panes(panel, self.drill, self.replay.repetitions)
        # compact, and l and b only in the help and the side panel's "Still missing" list: s, q and ? fit in 80
        # columns
        yield KeyFooter(compact=True)

    def on_mount(self) -> None:
        self._last_time = self.clock.time
        self.apply(self.replay.advance(0))
        self.ticker = self.set_interval(TICK_INTERVAL, self.tick)
        self.query_one(TraceTable).focus()
        self.query_one(TraceTable).on_select = self.inspect  # at once: the focus moves before the next key is read
        self.refresh_panel()

    # -- the drill clock ------------------------------------------------------------------------------------------

    def tick(self) -> None:
        """Advance the drill clock by the real time since the last tick times the speed (unless paused, ended or
        under a dialog)."""
        now = self.clock.time
        last = self._last_time if self._last_time is not None else now
        self._last_time = now
        if not self.paused and self.is_active and not self.replay.ended and now > last:
            self.apply(self.replay.advance((now - last) * self.speed))

    def apply(self, released: list[TraceEvent]) -> None:
        """Show newly released events and the drill clock."""
        if released:
            self.query_one(TraceTable).append_events(released)
        note = "AUTHOR" + (" · END" if self.replay.ended else "")
        self.query_one(StatusBar).show(self.title_shown, self.replay.now, self.speed, self.paused, note)

    def action_toggle_pause(self) -> None:
        """Pause or resume the drill clock."""
        self.tick()  # the real time since the last tick is played first (nothing while paused)
        self.paused = not self.paused
        self._last_time = self.clock.time
        self.apply([])

    def action_faster(self) -> None:
        self.tick()  # the real time since the last tick at the speed it ran at; the new speed counts from now
        self.speed = next((s for s in PLAYBACK_SPEEDS if s > self.speed), PLAYBACK_SPEEDS[-1])
        self.apply([])

    def action_slower(self) -> None:
        self.tick()
        self.speed = next((s for s in reversed(PLAYBACK_SPEEDS) if s < self.speed), PLAYBACK_SPEEDS[0])
        self.apply([])

    def action_scrub(self, direction: int) -> None:
        """Move the drill clock :data:`SCRUB_SECONDS` forward (1) or back (-1); back replays from the start."""
        if direction > 0:
            self.apply(self.replay.advance(SCRUB_SECONDS))
            return
        self.seek(max(0.0, self.replay.now - SCRUB_SECONDS))

    def seek(self, target: float) -> None:
        """Replay the trace from the start up to drill time ``target`` (keeping the selected event if shown)."""
        timeline = self.query_one(TraceTable)
        selected = timeline.selected_key
        shown = self.replay.repetitions  # the trace table reads the counts from this dict: keep it, emptied
        shown.clear()
        self.replay = Replay(self.drill)
        self.replay.repetitions = shown
        timeline.clear()
        self.apply(self.replay.advance(target))
        if selected is not None and selected in timeline.events:
            timeline.move_cursor(timeline.row_index(selected))

    def action_to_end(self) -> None:
        """Release the whole trace."""
        end = max((e.t for e in self.drill.trace), default=0.0)
        self.apply(self.replay.advance(max(end - self.replay.now, 0.0) + 1.0))

    @on(TraceTable.RowHighlighted, "#trace-table")
    def preview(self, event: TraceTable.RowHighlighted) -> None:
        """The cursor moved to another event: show it in the inspector (a handler named
        ``on_trace_table_row_highlighted`` is never called: the message is ``LineTable``'s)."""
        timeline = self.query_one(TraceTable)
        if event.key in timeline.events:
            self.query_one(Inspector).show_event(timeline.event(event.key), self.index, timeline.events)

    @on(TraceTable.RowSelected, "#trace-table")
    def inspect(self, event: TraceTable.RowSelected) -> None:
        """Enter on an event: move into the inspector to scroll it, as in the war room (tab goes back)."""
        if event.key in self.query_one(TraceTable).events:  # at once: ``↓`` typed right behind scrolls the inspector
            self.set_focus(self.query_one(Inspector))

    # -- marking up: see _marks.MarkActions; the dialogs they open ---------------------------------------------

    def selected_event(self) -> TraceEvent | None:
        """The trace event under the cursor, or None (told to the author)."""
        timeline = self.query_one(TraceTable)
        key = timeline.selected_key
        if key is None or key not in timeline.events:
            self.notify(key_prose("Select a trace event first (↑ ↓ j k)."), severity="warning", markup=False)
            return None
        return timeline.event(key)

    def action_search(self) -> None:
        """Find a text in the inspector (:func:`warroom.tui.widgets.open_search`)."""
        key = self.query_one(TraceTable).selected_key
        open_search(self, self.query_one(Inspector), key or "the inspector")

    def action_search_next(self, direction: int) -> None:
        """``n`` / ``N``: the next or previous place of the text found with ``/``."""
        search_again(self, self.query_one(Inspector), direction)

    def inspector(self) -> Inspector:
        """The inspector pane."""
        return self.query_one(Inspector)

    def ask_fault(self, origins: list[tuple[str, str]], ev: TraceEvent) -> None:
        """Ask the fault's kind and summary, offering ``origins`` (``(origin, where)`` pairs as :meth:`set_origin`
        takes them, the first offered first; ``ev``: the selected event)."""

        def shown(origin: str, where: str) -> tuple[str, str]:
            if origin == "plan":
                return f"the plan (planner call {where})", summarize(ev)
            if origin == "setup":
                return f"set-up ({where}, before step 1)", summarize(ev)
            if origin == "handoff":
                return f"the handoff {where}", summarize(ev)
            return f"step {where}", next((s.title for s in self.drill.plan if s.id == where), "")

        def done(choice: Any) -> None:
            if isinstance(choice, FaultChoice):
                self.set_origin(*origins[choice.origin], choice.kind, choice.summary)

        self.app.push_screen(FaultDialog([shown(*o) for o in origins], self.draft.kind, self.draft.summary), done)

    def ask_distractor(self, ev: TraceEvent) -> None:
        def done(why: Any) -> None:
            if isinstance(why, str):
                self.draft.distractors[ev.id] = why
                self.changed(f"{ev.id} is a distractor.")

        self.app.push_screen(TextDialog(f"Distractor {clean_line(ev.id)}: why is it harmless?", summarize(ev),
                                        "why it is harmless (shown in the debrief)"), done)

    def ask_damage(self, ev: TraceEvent) -> None:
        def done(choice: Any) -> None:
            if isinstance(choice, DamageChoice):
                self.draft.damage_unit = choice.unit
                self.draft.set_damage(ev.id, choice.amount, choice.note)
                self.changed(f"{ev.id} does {exact_figure(choice.amount)} {choice.unit} of damage.")

        self.app.push_screen(DamageDialog(ev.id, summarize(ev), self.draft.damage_unit), done)

    def ask_deadline(self, ev: TraceEvent) -> None:
        current = self.draft.deadline
        value = exact_figure(current.after) if current is not None and current.event == ev.id else ""

        def done(after: Any) -> None:
            if isinstance(after, float):
                self.set_deadline(ev, after)

        self.app.push_screen(NumberDialog(
            f"Deadline: drill seconds after {clean_line(ev.id)} (at {clock(ev.t)})", summarize(ev),
            "seconds, e.g. 20", value), done)

    def action_debrief(self) -> None:
        """Write the debrief in a dialog."""

        def done(text: Any) -> None:
            if isinstance(text, str):
                self.draft.debrief = text
                self.changed("Debrief written.")

        self.app.push_screen(DebriefDialog(self.draft.debrief), done)

    def action_habit(self) -> None:
        """Write the habit that would have caught the fault in a dialog (empty: none)."""

        def done(text: Any) -> None:
            if isinstance(text, str):
                self.draft.habit = text
                self.changed("Habit written." if text else "Habit removed.")

        self.app.push_screen(DebriefDialog(
            self.draft.habit, title="The habit that would have caught it: the check to make every time",
            hint="a sentence or two that hold for any drill like this one · ctrl+s: done · escape cancels",
            what="the habit", empty_ok=True), done)

    def action_replan(self) -> None:
        """Write what the planner says after a correct escalation (the re-plan's planner call; empty: none)."""
        taken = {e.id for e in self.drill.trace} | {p.id for p in self.drill.probes}

        def done(text: Any) -> None:
            if isinstance(text, str):
                self.draft.set_replan(text, taken)
                self.changed("Re-plan written." if text else "Re-plan removed.")

        self.app.push_screen(DebriefDialog(
            self.draft.replan_text(), title="The re-plan: what the planner says after a correct escalation",
            hint=f"played {REPLAN_AFTER:g} s after the escalation, instead of \"the original trace stopped\" alone · "
                 "ctrl+s: done · escape cancels", what="the re-plan", empty_ok=True), done)

    def action_drill_info(self) -> None:
        """Set the drill's title, difficulty and briefing in a dialog (written where the file has them)."""
        drill, meta = self.drill, self.draft.meta
        given = meta.get("briefing")
        brief: dict[str, Any] = given if isinstance(given, dict) else {}
        difficulty = meta.get("difficulty", drill.difficulty)
        info = DrillInfo(
            str(meta.get("title", drill.title)), difficulty if isinstance(difficulty, int) else drill.difficulty,
            str(brief.get("goal", drill.briefing.goal)), str(brief.get("watching", drill.briefing.watching)),
            str(brief.get("context") or ""),
        )

        def done(answer: Any) -> None:
            if isinstance(answer, DrillInfo):
                self.draft.meta = answer.data()
                self.changed("Title, difficulty and briefing set.")
                self.apply([])  # the header shows the title

        self.app.push_screen(DrillInfoDialog(info), done)

    @property
    def title_shown(self) -> str:
        """The drill's title as the header shows it: the one set in author mode, else the file's."""
        return str(self.draft.meta.get("title", self.drill.title))

    def refresh_panel(self) -> None:
        """Show the key so far in the side panel, and its marks in the trace's ⚑ column."""
        self.query_one(KeyPanel).show(self.draft, self.findings, self.saved, self.comparing)
        self.query_one(TraceTable).set_marks(event_marks(self.draft))

    def show_findings(self, found: Findings) -> None:
        """Show what validate and check said of the saved file in the inspector (until another event is chosen)."""
        self.query_one(Inspector).show_text(findings_text(found))

    def action_quit_annotate(self) -> None:
        """Leave; asks first when there are unsaved marks."""
        if self.saved:
            self.app.exit()
            return

        def done(yes: bool | None) -> None:
            if yes:
                self.app.exit()

        self.app.push_screen(ConfirmScreen("Quit without saving?", "The marks since the last save (s) are lost."),
                             done)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen.for_screen(self))
