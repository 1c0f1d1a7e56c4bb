"""The war room: the live drill on the drill clock.

:class:`WarRoomScreen` is a thin view over a :class:`~warroom.core.play.Replay`. A ticker (when an event or the
clock's next second is due: 1 to 10 times a second) reads the app's injected clock (handed to the screen:
:attr:`WarroomApp.clock`), turns the real seconds since the last tick into drill seconds (times the playback speed)
and advances the Replay, unless paused or under a dialog (in practice a recorded pause: ``DrillScreen.open_dialog``).
Every trainee action goes through the Replay (its ``on_action`` hook is the session recorder), so each is journalled
before the screen moves on. The score comes from scoring at the end.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any, TypeVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding

from warroom.core.model import Handoff, TraceEvent, field_cite, handoff_target, handoff_targets, target_label
from warroom.core.play import (
    FALSE_ESCALATION_DELAY,
    NO_REPLAN_TOKENS,
    NO_REPLAN_USAGE,
    ReplayError,
    escalation_draft,
    replan_usage_source,
)
from warroom.core.text import PLAYBACK_SPEEDS, clean, clean_line, clock, seconds, speed, usd
from warroom.tui.flow import LeaveDrill
from warroom.tui.logic import ASSESSMENT, ASSESSMENT_NOTES, PRACTICE, TraceIndex, hidden_actions
from warroom.tui.render import ascii_screen, summarize
from warroom.tui.room._drillscreen import DrillScreen, false_escalation_message
from warroom.tui.room._escalate import EscalateScreen, EscalationChoice
from warroom.tui.room._flag import FlagScreen
from warroom.tui.room._probe import open_probe_dialog
from warroom.tui.widgets import (
    SEARCH_BINDINGS,
    ConfirmScreen,
    HelpScreen,
    Inspector,
    KeyFooter,
    Meters,
    PlanPanel,
    StatusBar,
    TraceTable,
    open_field_jump,
    open_search,
    room_panes,
    search_again,
)

_T = TypeVar("_T")

#: Seconds of real time between ticks of the drill clock, at the most often: a tick comes when the screen can
#: change (an event, a probe's answer or the clock's next second is due), at least this long after the last.
TICK_INTERVAL = 0.1
#: Seconds of real time between ticks at the longest (a drill clock with nothing due for a while).
MAX_TICK_INTERVAL = 1.0

#: How the war room works, under its keys in the help screen.
WAR_ROOM_NOTES = (
    "The plan panel shows each step's status as the executor reported it, not as it is.\n\n"
    "The trace follows the newest event until you move onto an event or inspect one; then the keys act on that "
    "event, and G (or end) follows the newest again.\n\n"
    "Escalate once you can name the step whose result is wrong and cite the event that shows it: a correct "
    "escalation stops the cascade; "
    f"a wrong one costs a planner re-plan call and {seconds(FALSE_ESCALATION_DELAY)} of drill time while the "
    "trace runs on.\n\n"
    "The clock stops while a dialog (this one too) is open; in practice the session records that as a pause."
)


#: What the quit question says (``q``). In assessment quitting is a response (docs/sessions.md, "Quitting is a
#: response in assessment"): said there, without telling a signal trial from a noise trial.
QUIT_PRACTICE = "The session is kept, scored as abandoned."
QUIT_ASSESSMENT = ("The session is kept, scored as abandoned. In assessment quitting is not neutral: it counts as a "
                   "miss on a drill with a fault, and against you like a false alarm on one without.")


class WarRoomScreen(DrillScreen):
    """The live drill: header, meters, plan, trace table and inspector. Arguments: see
    :class:`~warroom.tui.room._drillscreen.DrillScreen` (the session, its saved actions and its end)."""

    #: Below 100 columns the plan panel gives way to the trace, below 80 more so (see warroom.tcss, ``.-medium``,
    #: ``.-narrow``).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-medium"), (100, "-wide")]
    #: This screen's offset of its ticks (drawn when it is mounted, under :data:`TICK_INTERVAL`).
    _phase = 0.0
    #: The repeated event the inspector shows and its repetitions then (see :meth:`refresh_repeated`).
    _inspected_repeat: tuple[str, int] | None = None

    # The keys are priority bindings: the app runs them as it reads each key, before it reads the next one. Without
    # that, a key first travels through the focused widget and back up to the app, and keys typed right after ``e``
    # (or f, q, ?) would reach the war room before its dialog was pushed: lost, or taken as war-room keys.
    BINDINGS = [
        # One key, two bindings: the footer names what space does now (check_action shows one of them).
        Binding("space", "pause", "Pause", priority=True, tooltip="pause / resume the drill clock"),
        Binding("space", "resume", "Resume", priority=True, tooltip="pause / resume the drill clock"),
        # `=` is `+` unshifted: both speed up, and key_display names both (help and footer).
        Binding("plus,equals_sign", "faster", "Faster", key_display="+ =", priority=True,
                tooltip="faster playback (" + " ".join(speed(s) for s in PLAYBACK_SPEEDS) + ")"),
        Binding("minus", "slower", "Slower", key_display="-", priority=True, tooltip="slower playback"),
        # In assessment mode the keys above are refused with a notice (check_action shows this binding instead).
        Binding("space,plus,equals_sign,minus", "refused", "1x, no pause", key_display="space + = -",
                priority=True,
                tooltip="assessment: the drill clock runs at 1x and cannot be paused (refused with a notice)"),
        Binding("f", "flag", "Flag/unflag", priority=True,
                tooltip="flag the selected event as suspicious, with an optional note; f on a flagged event "
                "removes the flag"),
        Binding("e", "escalate", "Escalate", priority=True,
                tooltip="escalate to the planner: name the plan step at fault (↑ ↓ j k or type its id, tab for a "
                "reason, tab again for the events you cite as showing the fault: space ticks one; enter, then y to "
                "confirm)"),
        *SEARCH_BINDINGS,
        Binding("colon", "goto_field", "Go to field", key_display=":", show=False, priority=True,
                tooltip="go to a field of the selected event's result by its path, e.g. data.next_cursor"),
        Binding("v", "probe", "Probe", priority=True,
                tooltip="ask the executor to verify a plan step (pick the probe; its result comes in as a trace "
                "event after its wait, and can be cited)"),
        Binding("d", "to_debrief", "Debrief", priority=True,
                tooltip="after a containment: the re-plan's remaining events at once, then the debrief (the same "
                "score)"),
        Binding("q", "quit_drill", "Quit", priority=True,
                tooltip="quit the drill (asks first; the session is kept as abandoned)"),
        Binding("question_mark", "help", "Help", key_display="?", priority=True, tooltip="this help"),
        # These move the focus, as the app reads them (priority), so the keys typed right behind them go to the pane
        # the focus moved to (``tab down`` scrolls the inspector), never to the one it left.
        Binding("tab", "app.focus_next", "Next pane", show=False, priority=True,
                tooltip="move between the trace and the inspector (to scroll it)"),
        # From the inspector only (check_action; the trace takes G and the end key itself): back to the trace.
        Binding("escape", "to_trace", "Back to trace", key_display="esc", show=False, priority=True,
                tooltip="from the inspector: back to the trace"),
        Binding("G", "to_newest", "Newest event", show=False, priority=True,
                tooltip="from the inspector: back to the trace, at its newest event (following it)"),
    ]

    HELP_TITLE = "War room keys"
    HELP_NOTES = WAR_ROOM_NOTES
    #: The trace table's keys are listed in the help too (see warroom.tui.widgets._keyhelp).
    HELP_WIDGETS = (TraceTable,)
    #: The actions the help leaves out: practice has no refused keys (assessment: see ``__init__``).
    HELP_HIDDEN: tuple[str, ...] = hidden_actions(PRACTICE)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Lookups over the drill's whole trace, built once now (time proportional to the trace), not on a key press.
        self.index = TraceIndex(self.drill)
        if self.assessment:  # the help shows only what the briefing did: its keys and the assessment rules
            self.HELP_TITLE = "War room keys (assessment)"
            self.HELP_NOTES = ASSESSMENT_NOTES
            self.HELP_HIDDEN = hidden_actions(ASSESSMENT)
        if not self.drill.probes:  # `v` only where the drill offers verification probes (format 2)
            self.HELP_HIDDEN = (*self.HELP_HIDDEN, "probe")

    # -- layout -------------------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        yield Meters(id="meters")
        plan = PlanPanel(id="plan")
        plan.border_title = "Plan (reported)"
        yield from room_panes(plan, self.drill, self.replay.repetitions)
        yield KeyFooter(compact=bool(self.drill.probes))  # compact: with `v` too, the keys fit in 80 columns

    def on_mount(self) -> None:
        self.query_one(TraceTable).on_highlight = self.preview  # the inspector in the cursor's frame
        self.query_one(TraceTable).on_select = self.inspect  # at once: the focus moves before the next key is read
        self._last_time = self.clock.time
        self.apply(self.replay.advance(0))  # events at t=0
        self._phase = random.uniform(0.0, TICK_INTERVAL)
        self._schedule_tick()
        self.query_one(TraceTable).focus()

    # -- the drill clock ----------------------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        """True when the drill clock runs: not paused, not ended, and no dialog over the war room."""
        on_top = self.is_active or self.assessment  # in assessment a dialog does not stop the clock
        return not self.paused and not self.replay.ended and self.journal_error is None and on_top

    def tick(self, *, at_key: bool = True) -> None:
        """Advance the drill clock by the real time since the last tick times the playback speed (if running).

        Tests call this after ``MockClock.set_time(...)``; the interval timer calls it about 10 times a second
        (``at_key`` False). A tick a key sets off (``at_key``: a pause, a dialog opened, a speed changed) in a browser
        tab goes up to the moment the server's relay received the key, not the later one its app process read it at
        on a loaded host, and the ticker's tick goes no further while that key is on its way to the app (the served
        app's clock, ``warroom.tui.app``'s ``KeyClock.tick_time``; docs/serve.md, "When a key counts"); the time
        between is played by the next tick.
        """
        now = self.clock.time
        last = self._last_time if self._last_time is not None else now
        tick_time = getattr(self.clock, "tick_time", None)  # only the served app's clock has one
        if tick_time is not None:
            now = tick_time(now, last, at_key)
        self._last_time = now
        if self.finished:
            return
        if self.running and now > last:
            self.apply(self.advance_clock((now - last) * self.speed))

    def _schedule_tick(self) -> None:
        """(Re)start the ticker: one tick at the next moment the screen can change (:meth:`_tick_delay`), after which
        the next is scheduled. Called again after every trainee action and speed change, which can bring it closer.
        A drill that replays wakes its process one to ten times a second, not ten times whatever is due."""
        if self.finished:
            return
        if self.ticker is not None:
            self.ticker.stop()
        # plus this screen's own phase, so that the war rooms of a class that started together (one host serves
        # them all) do not all wake at once: each tick comes at most a tenth of a second after it is due, as before
        self.ticker = self.set_timer(self._tick_delay() + self._phase, self._on_ticker, name="drill-clock")
        if self.paused:
            self.ticker.pause()

    def _on_ticker(self) -> None:
        self.tick(at_key=False)
        self._schedule_tick()

    def _tick_delay(self) -> float:
        """Real seconds until the next tick: until the next event, probe answer or change of the clock's whole
        second is due at the playback speed, within :data:`TICK_INTERVAL` and :data:`MAX_TICK_INTERVAL` (the
        shortest while the clock is stopped or held, so a dialog's time is never played when it closes)."""
        if not self.running:
            return TICK_INTERVAL
        now = self.replay.now
        due = [math.floor(now + 0.5) + 0.5]  # the clock shows whole seconds, halves rounded up
        due += [t for t in (self.replay.next_event_time, self.replay.probes.next_due) if t is not None]
        wait = (min(due) - now) / self.speed
        return min(max(wait, TICK_INTERVAL), MAX_TICK_INTERVAL)

    def _act(self, method: Callable[..., _T], *args: Any) -> _T | None:
        """As the drill screen's; then the next tick is scheduled again (an action can bring it closer: a probe
        asked, an escalation that moved the drill on)."""
        result = super()._act(method, *args)
        self._schedule_tick()
        return result

    def advance_clock(self, dt: float) -> list[TraceEvent]:
        """Move the drill clock on by ``dt`` drill seconds; returns the events released (the tutorial stops it at
        the event that starts its next lesson)."""
        return self.replay.advance(dt)

    def apply(self, released: list[TraceEvent]) -> None:
        """Show newly released events and the new state; open the debrief once the drill has ended."""
        if released:
            self.query_one(TraceTable).append_events(released)
            self.refresh_plan()
            self.update_hint()
        if self.replay.repetitions:
            self.refresh_repeated()
        self.refresh_status()
        if self.replay.ended and not self.finished:
            self.finish()

    # -- rendering ----------------------------------------------------------------------------------------------

    def refresh_status(self) -> None:
        """Re-render the header and the meters (cheap: two lines)."""
        self.query_one(StatusBar).show(self.drill.title, self.replay.now, self.speed, self.paused, self._note)
        self.query_one(Meters).show(self.replay.damage, self.replay.damage_unit, self.replay.cost)

    def refresh_plan(self) -> None:
        """Re-render the plan panel with the reported step states and the selected event's step."""
        step = None
        key = self.query_one(TraceTable).selected_key
        if key and not key.startswith("note:"):
            step = self.query_one(TraceTable).event(key).step
        self.query_one(PlanPanel).show(self.drill, self.replay.step_states, step, self.replay.approvals.missing)

    def update_hint(self) -> None:
        """Show "n new events" under the timeline while the trainee is away from the newest event, and "not
        following" while the cursor stays on an event the trainee chose."""
        timeline = self.query_one(TraceTable)
        if timeline.unseen:
            hint = f"{timeline.unseen} new {'below' if ascii_screen() else '↓'} (G)"
        else:  # said in text, not only by the cursor staying put: the escalation starts from the chosen event
            hint = "" if timeline.following or not timeline.row_count else "not following new events (G)"
        if (timeline.border_subtitle or "") != hint:  # setting it repaints the whole table, even to the same text
            timeline.border_subtitle = hint

    def refresh_repeated(self) -> None:
        """Re-render the table's repetition counts, and the inspector when the selected event is a repeated one
        whose count moved on (kept where the trainee scrolled it)."""
        timeline = self.query_one(TraceTable)
        timeline.refresh_repeated()
        key = timeline.selected_key
        count = self.replay.repetitions.get(key) if key else None
        if key is None or count is None or (key, count) == self._inspected_repeat:
            return
        self._inspected_repeat = (key, count)
        inspector = self.query_one(Inspector)
        y = inspector.scroll_y
        inspector.show_event(timeline.event(key), self.index, timeline.events, count)
        inspector.scroll_to(y=y, animate=False, immediate=True, force=True)

    @on(TraceTable.Following, "#trace-table")
    def _following_changed(self) -> None:
        self.update_hint()

    @on(TraceTable.RowHighlighted, "#trace-table")
    def preview(self, event: TraceTable.RowHighlighted) -> None:
        """Show the event under the trace's cursor in the inspector. Called by the trace table as its cursor moves
        (:attr:`~warroom.tui.widgets.LineTable.on_highlight`), so that a key draws one frame, cursor and inspector
        together (two before: one served war room's key to screen median 16 to 19 ms, then 11 ms); the message is
        handled too, for a move made before the screen was mounted."""
        key = event.key
        inspector = self.query_one(Inspector)
        if key.startswith("note:"):
            if key in self._notes:  # else a note being added: shown once written (escalate_to)
                inspector.show_text(self._notes[key])
        else:
            timeline = self.query_one(TraceTable)
            count = self.replay.repetitions.get(key)
            self._inspected_repeat = (key, count) if count is not None else None
            inspector.show_event(timeline.event(key), self.index, timeline.events, count)
        self.refresh_plan()
        self.update_hint()

    @on(TraceTable.RowSelected, "#trace-table")
    def inspect(self, event: TraceTable.RowSelected) -> None:
        """Enter on an event: record an ``inspect`` action and move into the inspector to scroll it. Inspecting reads
        the event: the trace leaves follow mode, so the cursor stays on it as new events arrive."""
        key = event.key
        if key.startswith("note:") or self.replay.ended:
            return
        if self._act(self.replay.inspect, key) is None:
            return
        self.query_one(TraceTable).stop_following()
        self.update_hint()
        self.set_focus(self.query_one(Inspector))  # at once (Widget.focus waits): keys typed behind enter scroll it

    def action_to_trace(self) -> None:
        """Escape in the inspector: the keys go to the trace again (from the next key read on)."""
        self.set_focus(self.query_one(TraceTable))

    def action_to_newest(self) -> None:
        """G in the inspector: back to the trace, at its newest event, as G there does."""
        timeline = self.query_one(TraceTable)
        self.set_focus(timeline)
        timeline.action_last()

    # -- actions ------------------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show (and run) ``pause`` while the clock runs and ``resume`` while it is paused, so the footer says which;
        in assessment mode neither, nor the speeds: their keys run ``refused`` instead. ``probe`` (``v``) only in a
        drill with verification probes; neither it nor ``escalate`` once the incident is contained (``d`` instead)."""
        if action == "refused":
            return self.assessment
        if action in ("to_trace", "to_newest"):  # from the inspector only: elsewhere the key is the trace's own
            return isinstance(self.focused, Inspector)
        if action == "to_debrief":  # only while a containment's re-plan plays
            return self.replay.contained and not self.replay.ended
        if action in ("escalate", "probe") and self.replay.contained:
            return False  # refused once contained: their room in the footer goes to d (? Help still fits 80 columns)
        if action == "probe":
            return bool(self.drill.probes)
        if self.assessment and action in ("pause", "resume", "faster", "slower"):
            return False
        if action == "pause":
            return not self.paused
        if action == "resume":
            return self.paused
        return True

    def action_refused(self) -> None:
        """A pause or speed key in assessment mode: refused, with a notice (the drill clock runs on)."""
        self.notify(
            "Assessment: the drill clock runs at 1x and cannot be paused or sped up.",
            title="Not in assessment",
            severity="warning",
            markup=False,
            timeout=4,
        )

    def action_pause(self) -> None:
        """Pause the drill clock (recorded on the Replay)."""
        if not self.paused:
            self.action_toggle_pause()

    def action_resume(self) -> None:
        """Resume the drill clock (recorded on the Replay)."""
        if self.paused:
            self.action_toggle_pause()

    def action_toggle_pause(self) -> None:
        """Pause or resume the drill clock (recorded on the Replay). While paused the ticker stops (no work is done
        until the trainee resumes)."""
        if not self.paused:
            self.tick()  # the real time since the last tick is played first, at the speed it ran at
        if self.replay.ended:
            return
        if self._act(self.replay.resume if self.paused else self.replay.pause) is None:
            return
        self._set_paused(not self.paused)

    def _set_speed(self, speed: float) -> None:
        """Change the playback speed (recorded on the Replay). The real time since the last tick is played first,
        at the speed it ran at: the new speed counts from the key on (a tick comes up to a second after the last,
        which at 32x would have played that second of 1x as 32 drill seconds)."""
        self.tick()
        if speed != self.speed and not self.replay.ended:
            if self._act(self.replay.set_speed, speed) is None:
                return
            self.speed = speed
            self.refresh_status()
            self._schedule_tick()

    def action_faster(self) -> None:
        """Next playback speed up (see :data:`~warroom.core.text.PLAYBACK_SPEEDS`: 0.5x to 32x)."""
        self._set_speed(next((s for s in PLAYBACK_SPEEDS if s > self.speed), PLAYBACK_SPEEDS[-1]))

    def action_slower(self) -> None:
        """Next playback speed down."""
        self._set_speed(next((s for s in reversed(PLAYBACK_SPEEDS) if s < self.speed), PLAYBACK_SPEEDS[0]))

    def selected_event(self) -> TraceEvent | None:
        """The trace event under the trace table's cursor, or None (no rows yet, or a note's row)."""
        timeline = self.query_one(TraceTable)
        key = timeline.selected_key
        if key is None or key.startswith("note:"):
            return None
        return timeline.event(key)

    def chosen_event(self) -> TraceEvent | None:
        """The selected trace event when the trainee chose it (moved onto it or inspected it: the trace left follow
        mode), else None: following the newest event, the trainee chose nothing."""
        return self.selected_event() if self.query_one(TraceTable).chosen else None

    def action_flag(self) -> None:
        """Flag the selected event, with an optional note typed in a dialog; on a flagged event, remove the flag (an
        ``unflag`` action)."""
        ev = self.selected_event()
        if ev is None or self.replay.ended:
            self.notify("Select a trace event to flag.", severity="warning", markup=False)
            return
        if ev.id in self.replay.flagged:
            if self._act(self.replay.unflag, ev.id) is None:
                return
            self.query_one(TraceTable).unmark_flagged(ev.id)
            self.notify(f"Flag removed from {clean_line(ev.id)}.", markup=False, timeout=2)
            return

        def done(note: str | None) -> None:
            if note is None or self.replay.ended or ev.id in self.replay.flagged:
                return
            if self._act(self.replay.flag, ev.id, note or None) is None:
                return
            self.query_one(TraceTable).mark_flagged(ev.id)
            self.notify(f"Flagged {clean_line(ev.id)}.", markup=False, timeout=2)

        self.open_dialog(FlagScreen(ev.id, summarize(ev)), done)

    def action_escalate(self) -> None:
        """Escalate to the planner naming a plan step and citing events. The dialog offers only what the trainee
        chose (:func:`warroom.core.play.escalation_draft`): on the event they moved onto or inspected, its step
        (format 2: the plan for a planner call, set-up for a set-up event, a handoff outside any step for itself; the
        handoffs released so far are targets too) with that event cited; following the
        newest event, no step and no citation. Flags are never cited for the trainee: they are notes."""
        if self.replay.ended:
            return
        format2 = self.drill.schema_version >= 2
        chosen = self.chosen_event()
        draft = escalation_draft(chosen, self.replay.released, format2)
        inspector = self.query_one(Inspector)
        fields: dict[str, str] = {}
        if format2 and chosen is not None and inspector.shown_id == chosen.id and inspector.jumped is not None:
            # the field the trainee went to with : is offered in its event's row, never ticked for them: going to a
            # field is reading it (it may be the distractor), citing it is a choice (space on that row)
            fields[chosen.id] = field_cite(chosen.id, inspector.jumped)
        targets = set(handoff_targets(self.drill))
        handoffs = list(dict.fromkeys(  # a repeated handoff is released more than once
            (handoff_target(e.id), target_label(self.drill, handoff_target(e.id)), e.content.split("\n")[0])
            for e in self.replay.released if isinstance(e, Handoff) and handoff_target(e.id) in targets))
        dialog = EscalateScreen(self.drill.plan, draft.target, self.replay.released, draft.cites,
                                origins=format2, positions=self.replay.released_positions, handoffs=handoffs,
                                fields=fields)
        self.open_dialog(dialog, self.escalate_to)

    def escalate_to(self, choice: EscalationChoice | None) -> None:
        """Apply an escalation chosen in the dialog: containment, or the planner's answer to a false escalation."""
        if choice is None or self.replay.ended or self.replay.contained:
            return
        try:
            result = self._act(self.replay.escalate, choice.step, choice.reason, choice.cites)
        except ReplayError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        if result is None:  # not saved, so not escalated
            return
        # a confirmed escalation moves the drill on: the re-plan plays, or the trace runs on
        # (a containment with no re-plan events ends the drill at once: nothing to resume then)
        if self.paused and not self.replay.ended and self._act(self.replay.resume) is not None:
            self._set_paused(False)
        step = clean_line(target_label(self.drill, choice.step, title=False))
        if result.contained:
            self._note = "ESCALATED"  # short, so the title still fits at 80 columns
            self.notify(
                f"The planner accepted your escalation of {step}: it stops the plan and re-plans. d opens the "
                "debrief now (the re-plan plays out otherwise).",
                title="Escalated",
                markup=False,
            )
            self.apply([])
            self.refresh_bindings()  # the footer offers d
            return
        # a drill with a twin plays as either trial: saying the escalation came before the evidence would tell which
        faulted = self.drill.answer_key is not None and self.entry.drill is not None and self.entry.drill.twin is None
        message = false_escalation_message(step, result.after_evidence, faulted, self.assessment)
        charged = usd(result.replan_usd)
        if replan_usage_source(self.drill) == NO_REPLAN_USAGE:  # $0.00, and why (as `warroom cost` says it)
            charged += f" ({NO_REPLAN_TOKENS})"
        message += f" Charged {charged} and {seconds(FALSE_ESCALATION_DELAY)}."
        self.apply(result.released)  # the trace ran on while the planner re-planned
        timeline = self.query_one(TraceTable)
        key = timeline.append_note(self.replay.now, "re-plan", message)
        body = Text()
        body.append("planner re-plan (false escalation)", style="bold magenta")
        body.append(f" · {clock(self.replay.now)}\n\n")
        body.append(message)
        if choice.reason:
            body.append("\n\nyour reason: ", style="bold")
            body.append(clean(choice.reason))
        self._notes[key] = body
        if timeline.selected_key == key:
            self.query_one(Inspector).show_text(body)
        self.notify(message, title="Nothing wrong found", severity="warning", markup=False, timeout=8)

    def action_search(self) -> None:
        """Find a text in the inspector (:func:`warroom.tui.widgets.open_search`): the selected event, or a note."""
        key = self.query_one(TraceTable).selected_key
        open_search(self, self.query_one(Inspector), key if key and not key.startswith("note:") else "the inspector")

    def action_search_next(self, direction: int) -> None:
        """``n`` / ``N``: the next or previous place of the text found with ``/``."""
        search_again(self, self.query_one(Inspector), direction)

    def action_to_debrief(self) -> None:
        """After a containment: release the rest of the re-plan at once (the drill ends as it would at the end of
        the re-plan, contained, with the same score) and open the debrief, rather than wait for it at 1x."""
        if self.replay.contained and not self.replay.ended:
            self.apply(self.replay.run_to_end())

    def action_goto_field(self) -> None:
        """Ask for a field path and scroll the inspector to it in the selected event
        (:func:`warroom.tui.widgets.open_field_jump`)."""
        open_field_jump(self, self.query_one(Inspector))

    def action_probe(self) -> None:
        """Ask the executor to verify the selected event's plan step
        (:func:`warroom.tui.room._probe.open_probe_dialog`)."""
        open_probe_dialog(self)

    def action_quit_drill(self) -> None:
        """Ask, then leave the drill; the session is kept as abandoned with every action so far."""

        def done(yes: bool | None) -> None:
            if yes:
                self.abandon()
                self.post_message(LeaveDrill())

        self.open_dialog(ConfirmScreen("Quit this drill?", QUIT_ASSESSMENT if self.assessment else QUIT_PRACTICE), done)

    def action_help(self) -> None:
        self.open_dialog(HelpScreen.for_screen(self))
