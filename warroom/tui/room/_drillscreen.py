"""The session side of the war room: one drill played, every action saved before it counts, and the end.

:class:`DrillScreen` is the base of :class:`~warroom.tui.room.WarRoomScreen`: it holds the
:class:`~warroom.core.play.Replay` of the drill, whose ``on_action`` hook is the session recorder, applies trainee
actions through it (:meth:`DrillScreen._act`: an action the journal cannot save did not happen, and the drill stops
for good), and ends the session: :meth:`DrillScreen.abandon` (quit, stored as abandoned) and
:meth:`DrillScreen.finish` (scored from the saved action log, stored, then the debrief, asked of the app with a
:class:`~warroom.tui.flow.ShowDebrief` message). The layout, the drill clock and the keys are the war room's
(:mod:`warroom.tui.room._live`).
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from rich.text import Text
from textual.clock import Clock
from textual.css.query import NoMatches
from textual.reactive import Reactive
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widget import Widget

from warroom.core.play import ActionLimitReached, EndReason, Replay
from warroom.tui.flow import ShowDebrief
from warroom.tui.logic import PRACTICE, JournalUnwritable, SessionUnavailable
from warroom.tui.render import without_server_paths

if TYPE_CHECKING:
    from warroom.tui.logic import DrillEntry, Recorder, Services


_T = TypeVar("_T")


class DrillScreen(Screen[None]):
    """A screen playing one drill session (the war room's base).

    Args:
        entry: the drill being played (loaded).
        recorder: the session recorder; its ``record`` is the Replay's ``on_action``.
        services: scores the session at its end (:meth:`~warroom.tui.logic.Services.score`).
        clock: the real-time clock the drill clock follows (the app's; a ``MockClock`` in tests).
        speed: initial playback speed (drill seconds per real second).
        mode: ``practice`` (pause and speeds as the trainee likes; the drill clock stops under a dialog, recorded
            as a pause: :meth:`open_dialog`), ``assessment`` (1x only, no pause, and the drill clock keeps running
            while a dialog is open) or ``tutorial`` (the clock stops under a dialog, and nothing is recorded for it).
    """

    #: The focused widget, as Textual's ``Screen.focused`` but without repainting the whole screen when the focus
    #: moves. Textual declares it ``Reactive(None)`` (repaint on), so every focus change re-rendered every widget
    #: and scrollbar on the screen: about half of what ``enter`` (inspect: the focus moves to the inspector) cost,
    #: at any trace length. What a focus change alters is drawn by the two widgets concerned: Textual restyles them
    #: (their ``:focus`` rules) and their focus and blur handlers refresh them. tests/tui/test_key_work.py checks
    #: that the screen after a focus change is the screen a full repaint gives.
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    def __init__(
        self,
        entry: DrillEntry,
        recorder: Recorder,
        services: Services,
        clock: Clock,
        speed: float = 1.0,
        mode: str = "practice",
    ) -> None:
        super().__init__()
        self.mode = mode
        #: Assessment mode: no pause, 1x only, and no dialog stops the drill clock.
        self.assessment = mode == "assessment"
        assert entry.drill is not None
        self.entry = entry
        # The session's variant when the recorder has one (warroom.core.variants._apply), else the drill as written.
        self.drill = getattr(recorder, "drill", None) or entry.drill
        self.recorder = recorder
        self.services = services
        self.clock = clock
        self.replay = Replay(self.drill, on_action=recorder.record)
        self.speed = speed
        self.paused = False
        self.finished = False
        self._last_time: float | None = None
        #: The interval timer that ticks the drill clock (None until mounted); paused while the drill is paused.
        self.ticker: Timer | None = None
        self._note = ""
        self._notes: dict[str, Text] = {}
        #: Set when the session journal could not be written: the drill is paused for good, nothing more is recorded.
        self.journal_error: JournalUnwritable | None = None
        #: True while the drill is paused because a dialog is open over it (see :meth:`open_dialog`).
        self.dialog_paused = False
        #: What the end of the session needs of its app, kept when the screen is mounted (:meth:`on_mount`): whether
        #: it is served in a browser, and its notes for the terminal once it has exited.
        self.web = False
        self.exit_notes: list[str] | None = None

    # -- the drill clock's pause ---------------------------------------------------------------------------------

    def _set_paused(self, paused: bool) -> None:
        """Stop (True) or restart (False) the drill clock: the ticker is paused or resumed (on resuming, the real
        time spent paused is not played: the clock counts on from now), then the footer's keys and the status are
        redrawn (:meth:`refresh_status`). Only the screen's state changes; the Replay's pause or resume action is
        the caller's (through :meth:`_act`)."""
        self.paused = paused
        if self.ticker is not None:
            if paused:
                self.ticker.pause()
            else:
                self._last_time = self.clock.time
                self.ticker.resume()
        self.refresh_bindings()
        self.refresh_status()

    def refresh_status(self) -> None:
        """Redraw what shows the drill's state (drill clock, speed, pause, damage), after the pause or the state
        changed. This screen shows none of it, so it draws nothing; the war room draws its header and meters."""

    # -- dialogs ------------------------------------------------------------------------------------------------

    def open_dialog(self, dialog: ModalScreen[_T], answer: Callable[[_T | None], None] | None = None) -> None:
        """Open ``dialog`` over the drill; ``answer`` (if any) is called with what it dismisses with.

        In practice mode a dialog stops the drill clock and that is recorded: when the clock runs as the dialog
        opens (not paused by the trainee, not ended, the journal writable), a ``pause`` action is journalled through
        the Replay, as the space key does; once the dialog is closed and its ``answer`` applied, a ``resume`` is
        journalled if the drill is still paused by the dialog (not ended: a quit, or a containment that ends the
        drill; not resumed already: a confirmed escalation resumes the drill itself). So the session's pauses and
        paused seconds count the time spent in dialogs. A trainee who had paused stays paused, with nothing more
        journalled. In assessment mode the clock runs on under the dialog, and is played up to the key that closed
        it (:meth:`tick`) before its ``answer``: an escalation confirmed there is recorded at that key's drill time,
        not at the ticker's last tick, up to a second before. In tutorial mode the clock stops unrecorded (its
        lessons complete on action kinds): nothing is journalled in either.

        The resume follows the answer in one callback, rather than waiting for Textual's ``ScreenResume``: that
        event and the dialog's answer reach the screen in no fixed order (the answer is run by the app's message
        pump), and an escalation must be journalled before the resume.
        """
        if not self.paused:  # the real time since the last tick is played first, at the speed it ran at, as the
            self.tick()  # pause key does (it was dropped: 0.25 s at 32x before a dialog, 8 drill seconds never played)
        if self.finished:  # the drill ended (stored; its debrief is on its way): a key typed in that instant (q, ?)
            return  # opened a dialog the debrief then replaced, which left this screen in the stack for good
        held = self._pause_for_dialog()

        def closed(result: _T | None) -> None:
            try:
                if self.assessment and not self.paused:  # the clock ran on under it: up to the key that closed it,
                    self.tick()  # so its answer (an escalation) is timed at that key, not at the last tick before
                if self.finished:  # the drill ended before that key (its debrief is on its way): too late to answer
                    return
                if answer is not None and not self.is_attached:  # the app closes as the answer came (a served tab
                    # closed the moment its escalation was confirmed, a signal): the answer's actions are recorded,
                    # its screen, whose widgets are gone, is not drawn (a query of them raised: a traceback, and the
                    # app ended with it)
                    with contextlib.suppress(NoMatches):
                        answer(result)
                elif answer is not None:
                    answer(result)
            finally:
                if held:
                    self._resume_after_dialog()

        self.app.push_screen(dialog, closed)

    def tick(self, *, at_key: bool = True) -> None:
        """Advance the drill clock by the real time since the last tick times the playback speed (if it runs): the
        war room's; this screen has no clock of its own. ``at_key``: up to the key that set off this tick, as the
        server's relay timed it in a browser tab (the war room's :meth:`tick`)."""

    def _pause_for_dialog(self) -> bool:
        """Pause the drill for a dialog (practice, with the drill clock running); True when a pause was recorded."""
        if self.mode != PRACTICE or self.paused or self.finished or self.replay.ended or self.journal_error is not None:
            return False
        if self._act(self.replay.pause) is None:
            return False
        self._set_paused(True)
        self.dialog_paused = True
        return True

    def _resume_after_dialog(self) -> None:
        """Resume the drill after a dialog that paused it, if it is still paused by that dialog."""
        held, self.dialog_paused = self.dialog_paused, False
        if not held or not self.paused or self.finished or self.replay.ended or self.journal_error is not None:
            return
        if self._act(self.replay.resume) is not None:
            self._set_paused(False)

    # -- actions ------------------------------------------------------------------------------------------------

    def _act(self, method: Callable[..., _T], *args: Any) -> _T | None:
        """Apply one trainee action through the Replay (which journals it first). Returns what the Replay returned,
        or None when the action could not be saved: then it did not happen, the drill is paused for good and the
        trainee is told (see :meth:`journal_failed`); None too, the trainee told, once the session holds the most
        actions one session keeps (only quitting is recorded then)."""
        if self.journal_error is not None:
            self._tell_unsaved()
            return None
        try:
            return method(*args)
        except JournalUnwritable as exc:
            self.journal_failed(exc)
            return None
        except ActionLimitReached as exc:  # (a key held down for minutes): nothing more is recorded but the quit
            self._tell(str(exc), severity="warning")
            return None

    def journal_failed(self, error: JournalUnwritable) -> None:
        """The session journal cannot be written: stop the drill clock, record nothing more, and say so."""
        self.journal_error = error
        self._note = "NOT SAVED"
        self._set_paused(True)
        self._tell_unsaved()

    def _tell_unsaved(self) -> None:
        error = self.journal_error
        assert error is not None
        journal = self._journal_place() if self.web else error.journal
        self._tell(
            self._for_trainee(f"Your actions can no longer be saved: {error}. The drill is paused. The actions saved "
                              f"so far are in {journal}; press q to leave (the session is kept as abandoned from "
                              "them, when warroom next starts)."),
            title="Session not saved",
            severity="error",
            timeout=30,
        )

    def on_mount(self) -> None:
        """Take what exists now (the loaded drill, its Replay, the screen's widgets) out of the garbage collector's
        full collections while the drill is played (:func:`gc.freeze`): on a 100,000-event drill each full
        collection walked every event again (tens of milliseconds, landing on whichever key or tick set it off).
        Objects are still freed when their last reference goes; :meth:`on_unmount` hands them back. (Textual calls
        the ``on_mount`` of every class of the screen: the war room's own runs too.)"""
        gc.freeze()
        # kept for a drill left by the app's exit (a served tab closed: the app quits, then ``close_open_session``
        # stores the drill), stored when ``self.app`` finds no app any more (it raised NoActiveAppError, a traceback)
        self.web = self.app.is_web
        notes = getattr(self.app, "exit_notes", None)
        self.exit_notes = notes if isinstance(notes, list) else None

    def on_unmount(self) -> None:
        gc.unfreeze()

    # -- the end ------------------------------------------------------------------------------------------------

    def _end_once(self) -> bool:
        """Mark the drill ended and stop the drill clock's ticker. Returns False (doing nothing) when it had ended
        already, so that the session is stored once."""
        if self.finished:
            return False
        self.finished = True
        if self.ticker is not None:
            self.ticker.stop()
        return True

    def abandon(self) -> None:
        """Record a quit and store the session as abandoned (idempotent; nothing happens once the drill ended).

        Never raises: when the journal cannot be written, the actions saved so far stay in it and the next start
        recovers the session as abandoned from them."""
        if not self._end_once():
            return
        if not self.replay.ended and self.journal_error is None:
            try:
                self.replay.quit()
            except JournalUnwritable as exc:
                self.journal_error = exc
        if self.journal_error is not None:
            self.recorder.close()  # releases the journal, so recovery can take it
            self._note_at_exit(f"The session was not stored: its journal could not be written ({self.journal_error})."
                               f" The actions saved before are in {self.journal_error.journal}; the next start of "
                               "warroom (or `warroom store sync`) stores the session as abandoned from them.")
            return
        self._store(self.services.score(self.drill, self.recorder.actions))

    def _note_at_exit(self, message: str) -> None:
        """Keep ``message`` for the terminal once the app has exited (:attr:`WarroomApp.exit_notes`): a notification
        made while the app leaves (a quit, a signal) is never seen."""
        if self.exit_notes is not None:
            self.exit_notes.append(message)

    def _store(self, scorecard: Any) -> None:
        # A store failure must not lose the debrief: the journal (already on disk, with its end line) stays queued.
        # An unreachable shared store queues it without an error; what arrives here the store refused (row-level
        # security, a constraint), which a retry alone does not mend: say where the session is and how to deliver it.
        try:
            self.recorder.finish(scorecard)
        except SessionUnavailable as exc:
            journal = self._journal_place()
            self._note_at_exit(f"Your result was NOT stored: {exc}. The session is kept in {journal}: the next start "
                               "of warroom (or `warroom store sync`) stores it once the store accepts it.")
            self._tell(
                self._for_trainee(f"Your result was NOT stored: {exc}. The session is kept in {journal}; once the "
                                  "store accepts it (see docs/cohorts.md, \"Roles: who sees what\"), `warroom store "
                                  "sync` stores it."),
                title="Result not stored",
                severity="error",
                timeout=60,
            )
            return
        if getattr(self.recorder, "queued", False):  # a shared store that cannot be reached: kept, to be delivered
            journal = self._journal_place()
            queued = (f"The results store cannot be reached: your result is kept in {journal}; the next start of "
                      "warroom (or `warroom store sync`) delivers it.")
            self._note_at_exit(queued)
            self._tell(queued, title="Result queued", severity="warning", timeout=30)

    def _tell(self, message: str, **kwargs: Any) -> None:
        """A notification of ``message``, while the app runs (once it has exited, :meth:`_note_at_exit` says it)."""
        if self.is_attached:
            self.notify(message, markup=False, **kwargs)

    def _for_trainee(self, message: str) -> str:
        """``message`` as the trainee sees it: in a browser (``warroom serve``) each of the server's file paths cut to
        its name (a store's or a journal's path is the server's business: docs/serve.md)."""
        return without_server_paths(message) if self.web else message

    def _journal_place(self) -> str:
        """Where the session's journal is kept, for a message: its path, or in a browser (``warroom serve``, whose
        paths are the server's business) the server's journals folder."""
        path = getattr(self.recorder, "journal_path", None)
        if path is None or self.web:
            return "the journals folder of the data directory" + (" on the server" if self.web else "")
        return str(path)

    def finish(self) -> None:
        """The drill ended (contained or end of trace): score it from the saved action log, store the session, open
        the debrief."""
        if not self._end_once():
            return
        # Toasts of the last moments ("Escalated") would sit over the debrief; errors about storing come after this.
        self.app.clear_notifications()
        scorecard = self.services.score(self.drill, self.recorder.actions)
        self._store(scorecard)
        if self.replay.end_reason is not EndReason.ABANDONED:
            while self.app.screen is not self and self in self.app.screen_stack:  # assessment: a dialog was open
                self.app.pop_screen()
            self.post_message(ShowDebrief(self.entry, self.replay, scorecard, self.debrief_notice()))

    def debrief_notice(self) -> str:
        """What the debrief says on its first line once the drill ended ("" for nothing; the tutorial's)."""
        return ""


def false_escalation_message(step: str, after_evidence: bool, faulted: bool, assessment: bool = False) -> str:
    """What the war room says of a false escalation of ``step`` (already cleaned), without giving the answer away.

    ``after_evidence``: the drill's earliest counted evidence had been released when the trainee escalated;
    ``faulted``: the drill has a fault (False for an all-clear drill, which has no evidence); ``assessment``: the
    session is an assessment, where an early escalation gets the same words as any other (saying it came before
    the evidence would tell a fault drill from an all-clear one, and that the evidence is still to come)."""
    if faulted and not after_evidence and not assessment:
        return (
            f"Re-plan after your escalation of {step}: it came before the evidence this drill counts had appeared "
            "in the trace, so the planner had nothing to act on and the plan goes on."
        )
    return (
        f"Re-plan after your escalation of {step}: the planner re-checked the step and found nothing wrong; "
        "the plan goes on."
    )
