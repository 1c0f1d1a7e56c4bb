"""The guided tutorial (``warroom tutorial``): the ordinary war room, with lesson prompts that wait for the trainee.

:class:`TutorialScreen` is a :class:`~warroom.tui.room.WarRoomScreen` playing the bundled drill ``tutorial``
(drills/tutorial.yaml) with the lessons of :mod:`warroom.tui.logic._lessons` shown in a panel above the footer.
It hooks in from outside the war room: it wraps the session recorder to see every trainee action as it is
journalled, holds the drill clock (:attr:`running`) while a lesson's prompt waits, stops the clock at the event
that starts the next lesson (:meth:`advance_clock`), and refuses (dimmed in the footer, explained in the panel)
the keys of lessons not yet reached. Its session is stored in mode ``tutorial``, which the cohort statistics
never count. It ends like any drill, in the debrief.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Static

from warroom.store.results import TUTORIAL as TUTORIAL_MODE
from warroom.tui.logic import LESSONS, Lesson, Tutor
from warroom.tui.room._live import MAX_TICK_INTERVAL, WarRoomScreen
from warroom.tui.widgets import KeyFooter, TraceTable, key_prose

if TYPE_CHECKING:
    from textual.clock import Clock
    from textual.notifications import SeverityLevel

    from warroom.core.model import Action, TraceEvent
    from warroom.tui.logic import DrillEntry, Recorder, Services


class LessonRecorder:
    """A :class:`~warroom.tui.logic.Recorder` that tells ``seen`` of every action once it is journalled."""

    def __init__(self, inner: Recorder, seen: Callable[[Action], None]) -> None:
        self.inner = inner
        self.seen = seen
        self.session_id = inner.session_id

    @property
    def drill(self) -> Any:
        """The drill the session plays (the inner recorder's, if it has one)."""
        return getattr(self.inner, "drill", None)

    @property
    def actions(self) -> list[Action]:
        return self.inner.actions

    def record(self, action: Action) -> None:
        self.inner.record(action)  # raises JournalUnwritable: then the action did not happen, and is not seen
        self.seen(action)

    def finish(self, scorecard: Any) -> None:
        self.inner.finish(scorecard)

    def close(self) -> None:
        self.inner.close()

    def __getattr__(self, name: str) -> Any:  # journal_path and the like
        return getattr(self.inner, name)


class LessonPanel(Static):
    """The tutorial's prompt: the waiting lesson (or the one just done), the last explanation, and the war room's
    last notice (which the tutorial shows here rather than as a toast over the lesson or a dialog)."""

    def show(self, tutor: Tutor, paused: bool = False, notice: str = "") -> None:
        """Draw the panel for ``tutor``'s state; ``paused``: the drill clock is paused by the trainee (a lesson's
        text for the paused clock is shown only then); ``notice``: the war room's last notice, if any."""
        total = len(tutor.lessons)
        lesson = tutor.current
        out = Text()
        if lesson is not None and tutor.waiting:
            self.border_title = f"Tutorial · lesson {tutor.index + 1} of {total}: {lesson.name} ({lesson.key})"
            out.append(key_prose(lesson.prompt), style="bold")
        else:
            done = tutor.last_done
            self.border_title = f"Tutorial · {tutor.index} of {total} lessons done"
            text = done.done_text(paused) if done is not None else ""
            if text:
                out.append(key_prose(text))
            elif lesson is not None:
                out.append("Watch the trace: the first lesson comes up in a moment.")
        if tutor.hint:
            out.append("\n")
            out.append(key_prose(tutor.hint), style="italic yellow")
        if notice:
            out.append("\n")
            out.append(notice, style="dim italic")
        self.update(out)


def _target(action: Action) -> str | None:
    """What an action names: a probe its probe id, an inspect or flag its event, an escalation its plan step."""
    if action.probe is not None:
        return action.probe
    return action.event if action.event is not None else action.step


class TutorialScreen(WarRoomScreen):
    """The war room playing the tutorial drill with its lessons (see the module docstring).

    Args: as :class:`~warroom.tui.room.WarRoomScreen` (without ``mode``: always ``tutorial``), and ``lessons`` (the
    default: :data:`~warroom.tui.logic.LESSONS`).
    """

    DEFAULT_CSS = """
    LessonPanel {
        height: auto;
        max-height: 7;
        border: round $accent;
        padding: 0 1;
    }
    """

    HELP_TITLE = "War room keys (tutorial)"

    def __init__(
        self,
        entry: DrillEntry,
        recorder: Recorder,
        services: Services,
        clock: Clock,
        speed: float = 1.0,
        lessons: tuple[Lesson, ...] = LESSONS,
    ) -> None:
        self.tutor = Tutor(lessons)
        #: The war room's last notice ("Flagged e06."), shown in the lesson panel instead of a toast.
        self.notice = ""
        super().__init__(entry, LessonRecorder(recorder, self._seen), services, clock, speed=speed, mode=TUTORIAL_MODE)
        self._event_times = {e.id: e.t for e in self.drill.trace}
        #: Key -> the war room's action it runs (from BINDINGS), to explain a refused key.
        self._key_actions = {
            key.strip(): binding.action
            for binding in self.BINDINGS
            if isinstance(binding, Binding)
            for key in binding.key.split(",")
        }

    def compose(self) -> ComposeResult:
        parts: Iterator[Widget] = iter(super().compose())
        for widget in parts:
            if isinstance(widget, KeyFooter):
                yield LessonPanel(id="lesson")
            yield widget

    def on_mount(self) -> None:
        super().on_mount()
        self._lessons_changed()

    # -- the drill clock ------------------------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        """As the war room's, and not while a lesson's prompt waits (the drill clock is held)."""
        return super().running and not self.tutor.waiting

    def _tick_delay(self) -> float:
        """As the war room's, but :data:`~warroom.tui.room._live.MAX_TICK_INTERVAL` while a lesson's prompt holds
        the clock: nothing is due until the trainee acts, and the end of the hold restarts the clock from that moment
        (:meth:`_judge`), so no held time is played. (Ticking ten times a second through a hold, a served class of
        100 trainees waiting at their first lesson woke its host 1,000 times a second.)"""
        return MAX_TICK_INTERVAL if self.tutor.waiting else super()._tick_delay()

    def advance_clock(self, dt: float) -> list[TraceEvent]:
        """Move the drill clock on by ``dt`` drill seconds, but not past the event that starts the next lesson (a
        trace event, or the result of a probe the trainee asked for), at any speed."""
        stop = self.tutor.next_stop()
        at = self._stop_time(stop) if stop is not None else None
        if at is not None and not self.replay.is_released(stop or "") and at >= self.replay.now:
            return self.replay.advance_to(min(self.replay.now + dt, at))
        return super().advance_clock(dt)

    def _stop_time(self, event_id: str) -> float | None:
        """The drill time of ``event_id``: a trace event's, or the due time of a requested probe's result (None
        when it is neither, or the probe has not been asked for)."""
        if event_id in self._event_times:
            return self._event_times[event_id]
        return next((r.due_at for r in self.replay.probes.requests if r.probe.id == event_id), None)

    def apply(self, released: list[TraceEvent]) -> None:
        super().apply(released)
        if not self.finished and self.tutor.start_due(self.replay.is_released):
            # a lesson that starts with an event of the trace outdates the last notice, which spoke of the lesson
            # before: "Probe p1 asked: the answer comes in 0.5 s" stayed under lesson 5, which starts with p1's answer
            self.notice = ""
            self._lessons_changed()
            self._show_lesson_event()

    # -- the lessons ----------------------------------------------------------------------------------------------

    def _seen(self, action: Action) -> None:
        """An action was journalled: judge it once it has taken effect (after the handler that did it)."""
        self.call_later(self._judge, action)

    def _judge(self, action: Action) -> None:
        if self.finished:
            return
        hint = self.tutor.hint
        if self.tutor.observe(str(action.kind), _target(action)):
            self._last_time = self.clock.time  # the hold ends now: the clock counts on from here (held time unplayed)
            started = self.tutor.start_due(self.replay.is_released)  # the next lesson may start at once
            self.query_one(TraceTable).focus()  # each lesson starts in the trace (enter had moved into the inspector)
            self._lessons_changed()
            if started:
                self._show_lesson_event()
            self._schedule_tick()  # no longer once a second: the next tick when the screen can change
        elif self.tutor.hint != hint:
            self._lessons_changed()

    def _show_lesson_event(self) -> None:
        """Scroll the trace, the cursor staying where the trainee put it, so that the event the lesson just started
        speaks of (lesson 5's probe answer p1, which arrives under the cursor's e06) is on screen: at 80x24 it came
        below the fold, named by the lesson (and later the debrief) but never seen."""
        lesson = self.tutor.current
        table = self.query_one(TraceTable)
        try:
            row = table.row_index(lesson.at) if lesson is not None else None
        except KeyError:  # not a row of the trace
            return
        if row is not None:
            table.scroll_to_row(row)
            if row == table.row_count - 1:  # the newest event is on screen now: nothing new is hidden below
                table.unseen = 0
                self.update_hint()

    def _lessons_changed(self) -> None:
        """Redraw the panel, the footer (refused keys are dimmed) and the header's LESSON badge."""
        if self._note in ("", "LESSON"):
            self._note = "LESSON" if self.tutor.waiting else ""
        self._show_panel()
        self.refresh_bindings()
        self.refresh_status()

    def _show_panel(self) -> None:
        self.query_one(LessonPanel).show(self.tutor, self.paused, self.notice)

    def _set_paused(self, paused: bool) -> None:
        """As the war room's, and the panel follows: a lesson's text about the paused clock is gone once it runs."""
        super()._set_paused(paused)
        if self.is_mounted:
            self._show_panel()

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """The war room's notices ("Flagged e06.", "Escalation of s2 accepted") go into the lesson panel, under the
        lesson: a toast would cover the lesson's text, and the dialog a lesson opens next. Errors (a journal that
        cannot be written) are still toasts."""
        if severity == "error" or not self.is_mounted:
            super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)
            return
        self.notice = f"{title}: {message}" if title else message
        self._show_panel()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """As the war room's, but a key whose action a later lesson teaches is disabled (None: shown dimmed)."""
        allowed = super().check_action(action, parameters)
        if allowed and not self.tutor.allows_action(action):
            return None
        return allowed

    def on_key(self, event: events.Key) -> None:
        """A key no binding took: explain a refused key (a later lesson's), or say a key does nothing here."""
        action = self._key_actions.get(event.key)
        if action is not None and not self.tutor.allows_action(action):
            self.tutor.refuse(event.key)
        elif action is None and self.tutor.waiting and event.is_printable:
            self.tutor.ignore(event.key)
        else:
            return
        self._show_panel()

    # -- the end --------------------------------------------------------------------------------------------------

    def debrief_notice(self) -> str:
        """What the tutorial was, said on the debrief's first line (a toast would cover its scorecard)."""
        if self.tutor.finished:
            return "Tutorial done: the debrief explains the fault and your score. p opens the drill picker."
        return "The tutorial's drill ended. Play it again any time with warroom tutorial."
